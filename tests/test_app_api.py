"""The app-facing API: text input, view events, sides and partners, stepping through records."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit import (
    ActionParseError,
    Bid,
    BlindNil,
    CallRenege,
    Card,
    Discard,
    Exchange,
    IllegalAction,
    Nil,
    Pass,
    PickUp,
    Play,
    SeeCards,
    parse_action,
)
from spadeskit.core.events import (
    BidMade,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CardsPassed,
    OutOfTurn,
    TrickWon,
)

STANDARD_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
]


def play_until(game: spadeskit.GameState, done: object, seed: int = 1) -> spadeskit.GameState:
    rng = random.Random(seed)
    while not done(game):  # type: ignore[operator]
        game = game.apply(rng.choice(game.legal_actions()))
    return game


# ------------------------------------------------------------------------------------------
# parse_action
# ------------------------------------------------------------------------------------------


def test_parse_action_reads_bids_nil_and_numbers() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=1)
    view = game.view(game.to_act)
    assert parse_action("3", view) == Bid(3)
    assert parse_action("  Bid   13 ", view) == Bid(13)
    assert parse_action("nil", view) == Nil()
    assert parse_action("NIL", view) == Nil()
    assert parse_action("0", view) == Nil()  # standard lists no Bid(0): a 0 is nil


def test_parse_action_reads_cards_in_every_notation() -> None:
    game = spadeskit.load_rules("standard").new_game(deal=STANDARD_DEAL)
    for _ in range(4):
        game = game.apply(Bid(3))
    view = game.view(0)
    for text in ("QC", "qc", "Q♣", "q♣", "play QC", "Play Q♣"):
        assert parse_action(text, view) == Play("QC"), text
    for text in ("10C", "10♣", "TC", "t♣"):
        assert parse_action(text, view) == Play("10C"), text


def test_parse_action_refuses_an_illegal_card_and_lists_the_choices() -> None:
    game = spadeskit.load_rules("standard").new_game(deal=STANDARD_DEAL)
    for _ in range(4):
        game = game.apply(Bid(3))
    led = game = game.apply(Play("2C"))
    view = game.view(1)  # E holds only diamonds
    with pytest.raises(IllegalAction, match=r"^E does not hold A♠; you may: play 2♦ 3♦ .* A♦$"):
        parse_action("AS", view)
    mixed = [
        "2S 3S 4S 5S 6S 7S 8S 2C 3C 4C 5C 6C 7C",
        "8C 9C 10C JC QC KC AC 9S 10S JS QS KS AS",
        "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2H",
        "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2D",
    ]
    game = spadeskit.load_rules("standard").new_game(deal=mixed)
    for _ in range(4):
        game = game.apply(Bid(3))
    with pytest.raises(
        IllegalAction,
        match=r"^N cannot play 2♠: spades may not be led until broken, .*; you may: play 2♣ .* 7♣$",
    ) as refused:
        parse_action("2S", game.view(0))  # spades are not broken
    assert refused.value.code == "break-spades"
    with pytest.raises(
        ActionParseError, match=r"cannot read 'banana' as an action; you may: play 2♦"
    ):
        parse_action("banana", view)
    with pytest.raises(IllegalAction, match="N has nothing to do now: it is E's turn"):
        parse_action("3C", led.view(0))


def test_parse_action_error_in_the_auction_lists_bids_as_ranges() -> None:
    view = spadeskit.load_rules("standard").new_game(seed=1).view(0)
    with pytest.raises(IllegalAction, match=r"bid 14 is not allowed now; you may: nil, bid 1-13"):
        parse_action("14", view)
    with pytest.raises(ActionParseError):
        parse_action("", view)
    with pytest.raises(ActionParseError, match="type an action as text"):
        parse_action(3, view)  # type: ignore[arg-type]


def test_parse_action_reads_blind_nil_see_cards_and_exchanges() -> None:
    game = spadeskit.load_rules("standard", ["blind-nil"]).new_game(deal=STANDARD_DEAL)
    view = game.view(0)
    assert parse_action("blind nil", view) == BlindNil()
    assert parse_action("see cards", view) == SeeCards()
    game = game.apply(BlindNil())
    for _ in range(3):
        game = game.apply(SeeCards()).apply(Bid(3))
    assert game.to_act == 2  # S passes 2 cards to N
    view = game.view(2)
    assert parse_action("pass 2H 3H", view) == Exchange(["2H", "3H"])
    assert parse_action("2H, 3H", view) == Exchange(["2H", "3H"])
    with pytest.raises(ActionParseError, match=r"you may: pass 2 cards \(e.g. 'pass"):
        parse_action("pass", view)
    with pytest.raises(IllegalAction):
        parse_action("pass 2C 3C", view)  # not S's cards


def test_parse_action_reads_pick_up_pass_and_discards_in_three_suit_trump() -> None:
    game = spadeskit.load_rules("three-suit-trump").new_game(seed=4)
    view = game.view(game.to_act)
    assert parse_action("pick up", view) == PickUp()
    assert parse_action("Pass", view) == Pass()
    game = game.apply(PickUp())
    seat = game.to_act
    assert seat is not None
    assert game.phase is spadeskit.Phase.EXCHANGE
    two = game.cards(seat)[:2]
    text = " ".join(c.code for c in two)
    assert parse_action(text, game.view(seat)) == Discard(two)
    assert parse_action("discard " + text.lower(), game.view(seat)) == Discard(two)


def test_parse_action_reads_a_renege_call_in_jjdd_table_mode() -> None:
    rules = spadeskit.load_rules("jjdd", options={"enforcement": "table"})
    game = rules.new_game(seed=2)
    game = play_until(game, lambda g: g.phase is spadeskit.Phase.PLAY and len(g.tricks) >= 1)
    seat = game.to_act
    legal = game.legal_actions(seat)
    assert CallRenege(1) in legal
    assert parse_action("call renege 1", game.view(seat)) == CallRenege(1)
    assert parse_action("renege in trick 1", game.view(seat)) == CallRenege(1)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    variant=st.sampled_from(["standard", "jjdd", "two-handed", "three-suit-trump", "cutthroat"]),
)
def test_every_legal_action_reads_back_from_its_own_text(
    seed: int, steps: int, variant: str
) -> None:
    """What str(action) prints for a player, parse_action reads back."""
    game = spadeskit.load_rules(variant).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game = game.apply(rng.choice(game.legal_actions()))
    if game.is_over:
        return
    view = game.view(game.to_act)
    for action in view.legal_actions[:20]:
        text = str(action).replace("bid 0", "0")
        if isinstance(action, Bid) and action.tricks == 0:
            continue  # "0" is nil where nil is listed; a Bid(0) reads as "bid 0"
        assert parse_action(text, view) == action, text


# ------------------------------------------------------------------------------------------
# View: events, side, partner, one card type
# ------------------------------------------------------------------------------------------


def test_view_events_tell_the_hand_in_order_with_text() -> None:
    game = spadeskit.load_rules("standard").new_game(deal=STANDARD_DEAL)
    for bid in (Bid(3), Nil(), Bid(4), Bid(5)):
        game = game.apply(bid)
    for card in ("2C", "2D", "2H", "2S", "3S"):
        game = game.apply(Play(card))
    events = game.view(1).events
    assert [e.text for e in events] == [
        "N bids 3",
        "E bids nil",
        "S bids 4",
        "W bids 5",
        "N plays 2♣",
        "E plays 2♦",
        "S plays 2♥",
        "W plays 2♠",
        "W wins trick 1 with 2♠",
        "W plays 3♠",
    ]
    assert events[1] == BidMade(1, Nil(), text="")
    assert events[8] == TrickWon(1, 3, Card.of("2S"), text="")
    assert isinstance(events[9], CardPlayed) and events[9].trick == 2
    assert json.loads(json.dumps(game.view(1).to_json()))["events"][8] == {
        "type": "trick-won",
        "text": "W wins trick 1 with 2♠",
        "trick": 1,
        "winner": 3,
        "card": "2S",
    }


def test_view_events_start_again_with_each_hand() -> None:
    game = play_until(
        spadeskit.load_rules("standard").new_game(seed=3), lambda g: len(g.hand_results) == 1
    )
    assert game.view(0).events == ()


def test_hidden_bids_seal_the_bid_events_too() -> None:
    game = spadeskit.load_rules("standard", ["hidden-bids"]).new_game(seed=1)
    game = game.apply(Bid(4)).apply(Bid(2))
    texts = [e.text for e in game.view(1).events]
    assert texts == ["N bids (sealed)", "E bids 2"]
    assert game.view(1).events[0] == BidMade(0, None, text="")
    assert '"tricks": 4' not in json.dumps(game.view(1).to_json())


def test_two_handed_draws_show_the_card_only_to_the_drawer() -> None:
    game = play_until(
        spadeskit.load_rules("two-handed").new_game(seed=5), lambda g: len(g.tricks) == 1
    )
    winner = game.tricks[0].winner
    mine = [e for e in game.view(winner).events if isinstance(e, CardsDrawn)]
    theirs = [e for e in game.view(1 - winner).events if isinstance(e, CardsDrawn)]
    assert [(e.seat, e.count) for e in mine] == [(winner, 1), (1 - winner, 1)]
    assert mine[0].cards is not None and mine[0].cards[0].bit & game.hands[winner]
    assert mine[1].cards is None and theirs[0].cards is None and theirs[1].cards is not None


def test_blind_nil_exchange_cards_are_shown_to_the_partners_only() -> None:
    game = spadeskit.load_rules("standard", ["blind-nil"]).new_game(deal=STANDARD_DEAL)
    game = game.apply(BlindNil())
    for _ in range(3):
        game = game.apply(SeeCards()).apply(Bid(3))
    game = game.apply(Exchange(["2H", "3H"])).apply(Exchange(["2C", "3C"]))
    for seat, sees in ((0, True), (2, True), (1, False), (3, False)):
        passed = [e for e in game.view(seat).events if isinstance(e, CardsPassed)]
        assert [(e.seat, e.to, e.count) for e in passed] == [(2, 0, 2), (0, 2, 2)]
        assert all((e.cards is not None) == sees for e in passed)
    looked = [e for e in game.view(1).events if isinstance(e, OutOfTurn)]
    assert [e.text for e in looked] == [
        "E looks at their cards",
        "S looks at their cards",
        "W looks at their cards",
    ]


def test_three_suit_trump_discards_are_shown_to_the_discarder_only() -> None:
    game = spadeskit.load_rules("three-suit-trump").new_game(seed=4).apply(PickUp())
    seat = game.to_act
    assert seat is not None
    two = game.cards(seat)[:2]
    game = game.apply(Discard(two))
    mine = [e for e in game.view(seat).events if isinstance(e, CardsDiscarded)]
    other = [e for e in game.view((seat + 1) % 3).events if isinstance(e, CardsDiscarded)]
    assert mine[0].cards == tuple(two) and other[0].cards is None and other[0].count == 2
    assert other[0].text.endswith("discards 2 cards")


def test_view_side_partner_and_tricks_hold_cards() -> None:
    game = spadeskit.load_rules("standard").new_game(deal=STANDARD_DEAL)
    for _ in range(4):
        game = game.apply(Bid(3))
    for card in ("2C", "2D", "2H", "2S"):
        game = game.apply(Play(card))
    view = game.view(1)
    assert (view.side, view.partner) == (1, 3) and view.side_names[1] == "E/W"
    assert view.tricks[0].plays[0] == (0, Card.of("2C")) and view.tricks[0].winner == 3
    assert view.tricks[0].cards == tuple(Card.of(c) for c in ("2C", "2D", "2H", "2S"))
    spectator = game.view(None)
    assert (spectator.side, spectator.partner) == (None, None)
    alone = spadeskit.load_rules("cutthroat").new_game(seed=1).view(2)
    assert (alone.side, alone.partner) == (2, None)


# ------------------------------------------------------------------------------------------
# Records: new_game(deal=record["deal"]), replay(upto=), iter_replay
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "three-suit-trump", "two-handed"])
def test_new_game_accepts_the_deal_a_record_holds(variant: str) -> None:
    rules = spadeskit.load_rules(variant)
    first = rules.new_game(seed=9)
    hands = [" ".join(c.code for c in first.cards(s)) for s in range(rules.table.players)]
    from spadeskit.core.cards import card_at, cards_of

    blind = [c.code for c in cards_of(first.blind)]
    pile = [card_at(c).code for c in first.pile]
    seeded = rules.new_game(seed=1, deal=hands, blind=blind, pile=pile).to_record()
    secret = rules.new_game(deal=hands, blind=blind, pile=pile).to_record()
    for deal in (seeded["deal"], secret["deals"][0]):
        again = rules.new_game(deal=deal)
        assert (
            again.hands == first.hands and again.blind == first.blind and again.pile == first.pile
        )
    if blind or pile:
        with pytest.raises(spadeskit.DealError, match="already lists the blind and the pile"):
            rules.new_game(deal=seeded["deal"], blind=pile or blind[::-1], pile=blind)


def test_replay_upto_and_iter_replay_step_through_a_record() -> None:
    game = play_until(
        spadeskit.load_rules("standard").new_game(seed=2), lambda g: len(g.hand_results) == 1
    )
    record = game.to_record()
    steps = list(spadeskit.iter_replay(record))
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0].action is None and steps[-1].state == game
    assert [s.number for s in steps] == list(range(len(steps)))
    for n in (0, 1, 5, len(record["actions"])):
        assert spadeskit.replay(record, upto=n) == steps[n].state
    assert steps[5].state.apply(steps[6].action, steps[6].seat) == steps[6].state  # type: ignore[arg-type]
    for bad in (-1, len(record["actions"]) + 1, "3"):
        with pytest.raises(spadeskit.RecordError, match="upto is a number of actions"):
            spadeskit.replay(record, upto=bad)  # type: ignore[arg-type]


def test_iter_replay_refuses_a_tampered_record_before_the_first_step() -> None:
    game = play_until(
        spadeskit.load_rules("standard").new_game(seed=2), lambda g: len(g.tricks) == 2
    )
    record = game.to_record()
    record["actions"] = record["actions"][:-1]
    with pytest.raises(spadeskit.RecordError, match="altered"):
        spadeskit.iter_replay(record)
    with pytest.raises(spadeskit.RecordError, match="altered"):
        spadeskit.replay(record, upto=3)
