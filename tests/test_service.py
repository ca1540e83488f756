"""The table service (spadeskit.Table): seats, per-seat streams across hands, the end of
a hand as an event, structured refusals, and a table rebuilt from its record."""

from __future__ import annotations

import json
import pickle
import random
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit.bots import RandomBot, SimpleBot

KEY = "a server key of sixteen bytes or more"
CONFIGS = [
    ("standard", []),
    ("standard", ["hidden-bids", "blind-nil"]),
    ("jjdd", []),
    ("cutthroat", []),
    ("two-handed", []),
    ("three-suit-trump", []),
]


def play(table: spadeskit.Table, rng: random.Random, moves: int = 10_000) -> None:
    for _ in range(moves):
        game = table.game
        if game.is_over:
            return
        seat = game.to_act
        assert seat is not None
        table.act(seat, rng.choice(game.legal_actions(seat)))


def hidden_cards_of_others(stream: list[dict[str, Any]], seat: int | None) -> list[str]:
    """Return the events of ``stream`` that show cards its seat may not know: a hand
    dealt to another seat, or cards passed, drawn or discarded between others."""
    bad = []
    for event in stream:
        kind = event["type"]
        if kind == "hand-started" and seat is None and event["cards"]:
            bad.append(kind)
        if kind in ("cards-drawn", "cards-discarded") and event["cards"] is not None:
            if event["seat"] != seat:
                bad.append(kind)
        if kind == "cards-passed" and event["cards"] is not None:
            if seat not in (event["seat"], event["to"]):
                bad.append(kind)
    return bad


@pytest.mark.parametrize(("variant", "house"), CONFIGS)
def test_a_whole_match_streams_every_hand_and_its_end_to_every_seat(
    variant: str, house: list[str]
) -> None:
    short = {} if variant == "three-suit-trump" else {"target": 200}  # its target is 7 wins
    rules = spadeskit.load_rules(variant, house, short)
    table = spadeskit.Table(rules, seed=5)
    play(table, random.Random(5))
    game = table.game
    assert game.is_over
    n = rules.table.players
    hands = len(game.hand_results)
    for seat in (*range(n), None):
        stream, cursor = table.events(seat)
        assert cursor == len(stream)
        kinds = [e["type"] for e in stream]
        assert kinds.count("hand-started") == hands and kinds.count("hand-ended") == hands
        assert kinds[-1] == "match-over" and kinds[-2] == "hand-ended"
        assert not hidden_cards_of_others(stream, seat)
        # Each hand's end comes before the next hand's first event, with its last trick.
        for number, result in enumerate(game.hand_results):
            ended = next(e for e in stream if e["type"] == "hand-ended" and e["hand"] == number)
            assert ended["scores"] == list(result.scores)
            assert [ln["text"] for ln in ended["lines"]] == [ln.text for ln in result.lines]
            at = stream.index(ended)
            assert all(e["hand"] == number for e in stream[:at] if e["hand"] >= number)
            if not result.void:
                trick = ended["last_trick"]
                assert len(trick["plays"]) == n and trick["winner"] == result.last_trick_winner
                won = [e for e in stream[:at] if e["type"] == "trick-won" and e["hand"] == number]
                assert len(won) == sum(result.books)
                assert won[-1]["winner"] == result.last_trick_winner


def test_a_hand_started_event_shows_the_seat_its_own_cards_only() -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard"), seed=2)
    for seat in range(4):
        (started,), _ = table.events(seat)
        assert started["type"] == "hand-started"
        assert started["cards"] == [c.code for c in table.game.cards(seat)]
    assert table.events(None)[0][0]["cards"] == []


def test_cursors_run_across_hands_and_give_each_event_once() -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard", [], {"target": 200}), seed=8)
    rng = random.Random(8)
    got: list[dict[str, Any]] = []
    cursor = 0
    while not table.game.is_over:
        play(table, rng, moves=rng.randrange(1, 30))
        fresh, cursor = table.events(1, since=cursor)
        got += fresh
    assert got == table.events(1)[0]
    assert table.events(1, since=cursor) == ([], cursor)
    with pytest.raises(spadeskit.SpadesError) as caught:
        table.events(1, since=cursor + 1)
    assert caught.value.code == "bad-cursor"


def test_sealed_bids_stay_sealed_in_the_streams_until_the_auction_opens_them() -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard", ["hidden-bids"]), seed=4)
    for _ in range(3):
        table.act(table.game.to_act, spadeskit.Bid(3))  # type: ignore[arg-type]
    first = table.game.to_act
    partner_events, cursor = table.events(1)
    bids = [e for e in partner_events if e["type"] == "bid"]
    assert all(e["bid"] is None for e in bids if e["seat"] != 1)
    table.act(first, spadeskit.Bid(3))  # type: ignore[arg-type]
    fresh, _ = table.events(1, since=cursor)
    assert any(e["type"] == "bids-shown" for e in fresh)
    shown = next(e for e in fresh if e["type"] == "bids-shown")
    assert shown["bids"] == [{"type": "bid", "tricks": 3}] * 4


def test_refusals_carry_code_seat_and_action_and_change_nothing() -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard"), seed=1)
    before, cursor = table.game, table.events(0)[1]
    with pytest.raises(spadeskit.NotYourTurn) as caught:
        table.act((table.game.to_act + 1) % 4, "4")  # type: ignore[operator]
    assert caught.value.code == "not-your-turn"
    with pytest.raises(spadeskit.ActionParseError) as unread:
        table.act(table.game.to_act, "four and a half")  # type: ignore[arg-type]
    assert unread.value.code == "unreadable-action"
    with pytest.raises(spadeskit.SeatError):
        table.act(7, "4")
    assert table.game is before and table.events(0)[1] == cursor


def _led_off_suit(seed: int) -> tuple[spadeskit.Table, int, spadeskit.Card]:
    """A table where the seat to play holds the led suit and a card of another suit."""
    for attempt in range(seed, seed + 200):
        table = spadeskit.Table(spadeskit.load_rules("standard"), seed=attempt)
        while table.game.phase is spadeskit.Phase.AUCTION:
            table.act(table.game.to_act, spadeskit.Bid(3))  # type: ignore[arg-type]
        table.act(table.game.to_act, table.game.legal_actions()[0])  # type: ignore[arg-type]
        seat = table.game.to_act
        assert seat is not None
        led = table.game.led_card.suit  # type: ignore[union-attr]
        other = [c for c in table.game.cards(seat) if c.suit != led]
        if other and len(table.game.legal_actions()) < len(table.game.cards(seat)):
            return table, seat, other[0]
    raise AssertionError("no such deal")


def test_parse_action_and_apply_give_the_same_reason_for_a_refused_card() -> None:
    """The same reason from parse_action (given the game) and from apply."""
    table, seat, card = _led_off_suit(1)
    game = table.game
    with pytest.raises(spadeskit.IllegalAction) as applied:
        game.apply(spadeskit.Play(card), seat)
    with pytest.raises(spadeskit.IllegalAction) as typed:
        table.act(seat, card.code)
    assert applied.value.code == typed.value.code == "follow-suit"
    assert "a player must follow the led suit when able" in str(typed.value)
    assert typed.value.to_json()["action"] == {"type": "play", "card": card.code}
    assert typed.value.seat == seat


def test_parse_action_out_of_turn_is_not_your_turn() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=1)
    other = (game.to_act + 1) % 4  # type: ignore[operator]
    with pytest.raises(spadeskit.NotYourTurn):
        spadeskit.parse_action("4", game.view(other))


def test_a_short_pass_says_how_many_cards_are_due() -> None:
    rules = spadeskit.load_rules("standard", ["blind-nil"])
    game = rules.new_game(seed=1).apply(spadeskit.BlindNil())
    while game.phase is spadeskit.Phase.AUCTION:
        see = spadeskit.SeeCards() in game.legal_actions()
        game = game.apply(spadeskit.SeeCards() if see else spadeskit.Bid(4))
    seat = game.to_act
    assert seat is not None and game.phase is spadeskit.Phase.EXCHANGE
    card = game.cards(seat)[0]
    with pytest.raises(spadeskit.IllegalAction, match="give exactly") as caught:
        spadeskit.parse_action(f"pass {card.code}", game.view(seat))
    assert caught.value.code == "wrong-card-count"


def test_seats_tokens_and_a_full_table() -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard"))
    ann = table.join("Ann")
    assert ann.seat == 0 and table.seat_of(ann.token) == 0
    with pytest.raises(spadeskit.SeatError, match="taken"):
        table.join("Bob", seat=0)
    for name in ("Bob", "Cy", "Di"):
        table.join(name)
    with pytest.raises(spadeskit.SeatError, match="full"):
        table.join("Ed")
    table.leave(0)
    with pytest.raises(spadeskit.SeatError) as caught:
        table.seat_of(ann.token)
    assert caught.value.code == "bad-token"
    assert table.join("Ann again").seat == 0


def test_bots_act_as_soon_as_it_is_their_turn() -> None:
    rules = spadeskit.load_rules("standard", [], {"target": 150})
    bots = {1: RandomBot(1), 2: SimpleBot(), 3: RandomBot(3)}
    table = spadeskit.Table(rules, seed=3, bots=bots)
    rng = random.Random(3)
    while not table.game.is_over:
        assert table.game.to_act == 0
        table.act(0, rng.choice(table.game.legal_actions(0)))
    with pytest.raises(spadeskit.SeatError, match="taken"):
        table.join("someone", seat=1)


def test_a_table_survives_pickle_and_rebuilds_from_its_signed_record() -> None:
    table = spadeskit.Table(spadeskit.load_rules("jjdd"), key=KEY)
    ann = table.join("Ann")
    play(table, random.Random(2), moves=70)
    table.act(spadeskit.REFEREE, "table talk N/S")
    copy = pickle.loads(pickle.dumps(table))
    assert copy.game == table.game and copy.seat_of(ann.token) == 0
    for seat in (0, 1, 2, 3, None):
        assert copy.events(seat) == table.events(seat)
    record = table.record()
    rebuilt = spadeskit.Table.from_record(record, key=KEY)
    assert rebuilt.events(2) == table.events(2) and rebuilt.game == table.game
    record["actions"] = record["actions"][:-1]
    with pytest.raises(spadeskit.RecordError):
        spadeskit.Table.from_record(record, key=KEY)


def test_threads_sharing_a_table_play_one_consistent_game() -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard", [], {"target": 150}), seed=6)
    errors: list[BaseException] = []

    def seat_loop(seat: int) -> None:
        rng = random.Random(seat)
        while not table.game.is_over:
            try:
                table.act(seat, rng.choice(table.game.legal_actions(seat) or [spadeskit.Pass()]))
            except spadeskit.SpadesError:
                continue
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)
                return

    threads = [threading.Thread(target=seat_loop, args=(s,)) for s in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and table.game.is_over
    assert spadeskit.replay(table.record()) == table.game


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(CONFIGS))
def test_streams_never_show_a_seat_what_it_may_not_know(
    seed: int, config: tuple[str, list[str]]
) -> None:
    variant, house = config
    short = {} if variant == "three-suit-trump" else {"target": 100}
    table = spadeskit.Table(spadeskit.load_rules(variant, house, short), seed=seed)
    play(table, random.Random(seed), moves=200)
    for seat in (*range(table.rules.table.players), None):
        assert not hidden_cards_of_others(table.events(seat)[0], seat)


@pytest.mark.parametrize(
    ("variant", "house", "options"),
    [
        ("standard", ["hidden-bids", "blind-nil"], {"floor": -10000}),
        ("two-handed", ["hidden-bids"], {"floor": -10000}),
        ("cutthroat", ["spades-anytime"], {"floor": -10000}),
    ],
)
def test_a_view_text_is_the_json_of_the_seats_own_view_after_every_action(
    variant: str, house: list[str], options: dict[str, Any]
) -> None:
    """The text a table keeps of each audience's view (built once per change, the
    hand's events turned into JSON once each) is, whenever asked, the JSON of the view
    the game gives that seat now: sealed bids, passed and drawn cards as that seat may
    see them, across a new deal; an audience may skip changes."""
    table = spadeskit.Table(spadeskit.load_rules(variant, house, options), seed=3)
    rng = random.Random(3)
    audiences = (*range(table.rules.table.players), None)
    for _ in range(64):  # into the next hand's auction
        for audience in audiences:
            if rng.random() < 0.4:
                fresh = table.game.view(audience).to_json()
                assert json.loads(table.view_text(audience)) == fresh
        play(table, rng, moves=1)
    assert table.game.number == 1 and not table.game.is_over


def test_the_table_says_whose_turn_it_is_and_keeps_each_seats_cursor() -> None:
    """Newcomer round 4: an app reads ``table.to_act``, and ``table.news(seat)`` gives a
    seat only what it has not been given, the table keeping the cursor (pickles too)."""
    table = spadeskit.Table(spadeskit.load_rules("standard"), seed=3)
    assert table.to_act == table.game.to_act == 1
    first = table.news(0)
    assert [e["type"] for e in first] == ["hand-started"] and table.news(0) == []
    table.act(table.to_act, "4")
    assert [e["text"] for e in table.news(0)] == ["E bids 4"]
    assert [e["type"] for e in table.news(3)] == ["hand-started", "bid"]
    assert [e["type"] for e in table.news(None)] == ["hand-started", "bid"]
    again = pickle.loads(pickle.dumps(table))
    assert again.news(0) == [] and again.to_act == table.to_act == 2
    table.act(2, "3")
    assert [e["text"] for e in table.news(0)] == ["S bids 3"]
    with pytest.raises(spadeskit.SpadesError):
        table.news(9)


# -- a table that cannot be made to hang (issue 51) --------------------------------------


def test_every_option_of_every_plugin_is_bounded_by_its_validator() -> None:
    """No option takes a huge or an absurd value, so no client can ask for a match
    that never ends (``target: 1e9, floor: -1e9``)."""
    for plugin in spadeskit.available():
        for option in plugin.options:
            assert option.validator is not None, (plugin.name, option.name)
            for absurd in (10**9, -(10**9), 1e9, "x" * 10_000, [0] * 10):
                assert option.problem(absurd) is not None, (plugin.name, option.name, absurd)
            assert option.problem(option.default) is None


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("standard", {"target": 10**9}),
        ("standard", {"floor": -(10**9)}),
        ("call-break", {"rounds": 10**6}),
        ("three-suit-trump", {"target": 1000}),
    ],
)
def test_an_out_of_range_option_is_refused_when_rules_load(
    variant: str, options: dict[str, int]
) -> None:
    with pytest.raises(spadeskit.OptionError) as caught:
        spadeskit.load_rules(variant, [], options)
    assert "at most" in str(caught.value) or "at least" in str(caught.value)


def test_a_bots_only_table_advances_only_on_the_callers_schedule() -> None:
    rules = spadeskit.load_rules("standard", [], {"floor": -2000})
    table = spadeskit.Table(rules, seed=2, bots={s: "random" for s in range(4)}, bot_moves=5)
    assert len(table.record()["actions"]) == 5 and table.bot_due
    moves = 5
    for _ in range(20):
        made = table.play_bots(7)
        assert made == 7
        moves += made
        assert len(table.record()["actions"]) == moves
    assert table.bot_due and not table.game.is_over


def test_a_call_of_act_makes_at_most_bot_moves_bot_actions() -> None:
    rules = spadeskit.load_rules("standard", [], {"target": 150})
    bots = {1: "simple", 2: "simple", 3: "simple"}
    table = spadeskit.Table(rules, seed=4, bots=bots, bot_moves=2)
    rng = random.Random(4)
    for _ in range(80):
        while table.bot_due:
            assert table.play_bots(1) == 1
        before = len(table.record()["actions"])
        table.act(0, rng.choice(table.game.legal_actions(0)))
        assert 1 <= len(table.record()["actions"]) - before <= 3
        if table.game.is_over:
            break


def test_a_short_key_is_refused_when_the_table_is_made() -> None:
    with pytest.raises(spadeskit.RecordError, match="16 bytes"):
        spadeskit.Table(spadeskit.load_rules("standard"), key="short")
    with pytest.raises(spadeskit.SpadesError):
        spadeskit.Table(spadeskit.load_rules("standard"), bot_moves=-1)


def test_parse_action_out_of_turn_carries_the_action_it_read() -> None:
    """The code table promises ``not-your-turn`` carries seat and action."""
    game = spadeskit.load_rules("standard").new_game(seed=1)
    other = (game.to_act + 1) % 4  # type: ignore[operator]
    for text, action in (
        ("4", spadeskit.Bid(4)),
        ("AS", spadeskit.Play("AS")),
        ("nil", spadeskit.Nil()),
    ):
        with pytest.raises(spadeskit.NotYourTurn) as caught:
            spadeskit.parse_action(text, game.view(other))
        assert caught.value.action == action and caught.value.seat == other


def test_the_table_keeps_token_digests_and_seats_give_no_token() -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard"), key=KEY)
    ann = table.join("Ann")
    assert ann.token and table.seats[0] == spadeskit.Seat(0, "Ann") and not table.seats[0].token
    assert ann.token not in str(table.snapshot())
    assert spadeskit.token_digest(ann.token) in str(table.snapshot())


@pytest.mark.parametrize("name", ["x" * 41, "a\nb", 7, ["Ann"], {"n": 1}])
def test_a_name_is_printable_text_of_bounded_length(name: Any) -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard"))
    with pytest.raises(spadeskit.SeatError) as caught:
        table.join(name)
    assert caught.value.code == "bad-name" and table.seats == (None,) * 4
