"""Simultaneous steps: seats that choose discards or exchanges blind of each other.

A run of consecutive steps marked ``simultaneous`` is one group: any seat of it may
choose first, each view shows only the seat's own choice until the whole group is in,
then every card moves at once; the record lists the group in its order whoever chose
first.  The shipped user is blind-nil's ``blind_nil_exchange="simultaneous"``; the
ruling (RULINGS "standard": "after all bids, the partner passes 2 cards to the blind nil
bidder, who then passes as many back") stays the default.  Tests are named after the
clause they check.
"""

from __future__ import annotations

import json
import random
import types
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit import (
    Bid,
    BlindNil,
    Exchange,
    GameState,
    IllegalAction,
    NotYourTurn,
    Phase,
    PluginError,
    SeeCards,
    WrongPhase,
)
from spadeskit.plugin import PluginInfo, Step, hookimpl, mask_of
from spadeskit.testing import check_rules, check_state, check_views
from tests.conftest import suit_hands

SIMULTANEOUS = {"blind_nil_exchange": "simultaneous"}


def blind_nil(**options: object) -> spadeskit.Rules:
    return spadeskit.load_rules("standard", ["blind-nil"], options)


@pytest.fixture(scope="module")
def rules() -> spadeskit.Rules:
    return blind_nil(**SIMULTANEOUS)


def to_exchange(rules: spadeskit.Rules, deal: Sequence[str] | None = None) -> GameState:
    """N (seat 0) bids blind nil, the others look and bid: S (2) and N then exchange."""
    game = rules.new_game(deal=deal or suit_hands(), dealer=3)
    game = game.apply(BlindNil())
    for seat, bid in ((1, 3), (2, 4), (3, 6)):
        game = game.apply(SeeCards(), seat)
        game = game.apply(Bid(bid))
    assert game.phase is Phase.EXCHANGE
    return game


N_PASS = Exchange(["2C", "3C"])
S_PASS = Exchange(["KH", "AH"])


def test_blind_nil_partner_passes_first_by_default_as_the_ruling_says() -> None:
    game = to_exchange(blind_nil())
    assert [s.simultaneous for s in game.steps] == [False, False]
    assert game.legal_actions(0) == ()  # the bidder waits for the partner's cards
    with pytest.raises(NotYourTurn):
        game.apply(N_PASS, 0)


def test_simultaneous_exchange_either_seat_may_choose_first(rules: spadeskit.Rules) -> None:
    game = to_exchange(rules)
    assert game.to_act == 2  # the partner, first in the group's order
    assert N_PASS in game.legal_actions(0) and S_PASS in game.legal_actions(2)
    assert game.legal_actions(1) == () and game.legal_actions(3) == ()
    n_first = game.apply(N_PASS, 0).apply(S_PASS)
    s_first = game.apply(S_PASS).apply(N_PASS, 0)
    assert n_first == s_first and n_first.phase is Phase.PLAY and n_first.to_act == 0


def test_the_cards_move_only_when_both_have_chosen(rules: spadeskit.Rules) -> None:
    game = to_exchange(rules)
    waiting = game.apply(N_PASS, 0)
    assert waiting.hands == game.hands and waiting.phase is Phase.EXCHANGE
    assert waiting.to_act == 2 and waiting.legal_actions(0) == ()
    done = waiting.apply(S_PASS)
    assert {"KH", "AH"} <= {c.code for c in done.cards(0)}
    assert {"2C", "3C"} <= {c.code for c in done.cards(2)}
    assert not {"2C", "3C"} & {c.code for c in done.cards(0)}


def test_the_blind_nil_bidder_cannot_pass_back_a_card_it_is_given(
    rules: spadeskit.Rules,
) -> None:
    """Both choose from the cards they held when the exchange began."""
    game = to_exchange(rules).apply(S_PASS)
    with pytest.raises(IllegalAction, match="not in their hand") as refused:
        game.apply(Exchange(["AH", "2C"]), 0)
    assert refused.value.code == "not-in-hand"


def test_a_seats_view_shows_only_its_own_choice_until_both_are_in(
    rules: spadeskit.Rules,
) -> None:
    game = to_exchange(rules)
    waiting = game.apply(N_PASS, 0)
    assert waiting.view(0).chosen == N_PASS and waiting.view(0).legal_actions == ()
    for seat in (1, 2, 3, None):
        view = waiting.view(seat)
        assert view.chosen is None
        assert view.events == game.view(seat).events
        assert view.legal_actions == game.view(seat).legal_actions
        assert view.cards == game.view(seat).cards
    assert waiting.view(0).to_json()["chosen"] == {"type": "exchange", "cards": ["2C", "3C"]}
    assert waiting.view(2).to_json()["chosen"] is None
    done = waiting.apply(S_PASS)
    assert all(done.view(seat).chosen is None for seat in range(4))


def test_the_passes_are_told_at_once_in_the_groups_order(rules: spadeskit.Rules) -> None:
    done = to_exchange(rules).apply(N_PASS, 0).apply(S_PASS)
    assert [str(e) for e in done.view(0).events[-2:]] == [
        "S passes K♥ A♥ to N",
        "N passes 2♣ 3♣ to S",
    ]
    assert [str(e) for e in done.view(3).events[-2:]] == [
        "S passes 2 cards to N",
        "N passes 2 cards to S",
    ]


def test_a_simultaneous_pair_records_in_a_fixed_order_whoever_chose_first(
    rules: spadeskit.Rules,
) -> None:
    game = to_exchange(rules)
    n_first = game.apply(N_PASS, 0).apply(S_PASS)
    s_first = game.apply(S_PASS).apply(N_PASS, 0)
    assert n_first.to_record() == s_first.to_record()
    assert [seat for seat, _ in n_first.to_record()["actions"][-2:]] == [2, 0]
    for done in (n_first, s_first):
        assert spadeskit.replay(done.to_record()) == done
        assert spadeskit.replay(json.loads(json.dumps(done.to_record()))).log == done.log


def test_a_record_with_one_choice_waiting_replays_to_the_same_state(
    rules: spadeskit.Rules,
) -> None:
    for waiting in (to_exchange(rules).apply(N_PASS, 0), to_exchange(rules).apply(S_PASS)):
        replayed = spadeskit.replay(waiting.to_record(key="k" * 16), key="k" * 16)
        assert replayed == waiting
        assert replayed.view(0).chosen == waiting.view(0).chosen


def test_an_out_of_turn_choice_is_checked_as_any_and_a_refusal_changes_nothing(
    rules: spadeskit.Rules,
) -> None:
    game = to_exchange(rules)
    for action, error in (
        (Exchange(["2C"]), IllegalAction),
        (Exchange(["2H", "3H"]), IllegalAction),
        (Bid(3), WrongPhase),
    ):
        with pytest.raises(error) as refused:
            game.apply(action, 0)
        view = game.view(0)
        said = view.refusal(action)
        assert type(said) is type(refused.value) and said.code == refused.value.code
    with pytest.raises(NotYourTurn):
        game.apply(N_PASS, 1)
    with pytest.raises(NotYourTurn):  # a seat chooses once
        game.apply(N_PASS, 0).apply(Exchange(["4C", "5C"]), 0)
    assert game == to_exchange(rules)


def test_rollout_from_a_waiting_choice_equals_stepping(rules: spadeskit.Rules) -> None:
    waiting = to_exchange(rules).apply(N_PASS, 0)
    stepped, rng = waiting, random.Random(7)
    while stepped.match is waiting.match:
        stepped = stepped.apply(rng.choice(stepped.legal_actions()))
    assert waiting.rollout(seed=7) == stepped


def test_two_blind_nils_on_both_sides_choose_as_one_group() -> None:
    rules = blind_nil(**SIMULTANEOUS)
    game = rules.new_game(deal=suit_hands(), dealer=3).apply(BlindNil()).apply(BlindNil())
    for seat, bid in ((2, 4), (3, 6)):
        game = game.apply(SeeCards(), seat)
        game = game.apply(Bid(bid))
    assert [s.seat for s in game.steps] == [2, 0, 3, 1]
    assert all(s.simultaneous for s in game.steps)
    order = [1, 3, 0, 2]  # the reverse of the group's order
    for seat in order:
        game = game.apply(game.legal_actions(seat)[0], seat)
    assert game.phase is Phase.PLAY
    assert [seat for seat, _ in game.log[-4:]] == [2, 0, 3, 1]


def _steps_plugin(steps: Sequence[Step]) -> types.ModuleType:
    plugin = types.ModuleType("steps_plugin")
    plugin.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name="steps-plugin", kind="house-rule", summary="Steps before play."
    )

    @hookimpl
    def spadeskit_contract_steps() -> list[Step]:
        return list(steps)

    plugin.spadeskit_contract_steps = spadeskit_contract_steps  # type: ignore[attr-defined]
    return plugin


def _bid_out(rules: spadeskit.Rules) -> GameState:
    game = rules.new_game(seed=3)
    while game.phase is Phase.AUCTION:
        game = game.apply(game.legal_actions()[-1])
    return game


def test_a_seat_twice_in_one_group_is_a_plugin_error_naming_the_plugin() -> None:
    twice = _steps_plugin(
        [Step(0, "discard", 1, simultaneous=True), Step(0, "discard", 1, simultaneous=True)]
    )
    with pytest.raises(PluginError, match="a seat chooses once in a group"):
        _bid_out(spadeskit.load_rules("standard", [twice]))
    chosen = _steps_plugin([Step(0, "discard", 1, chosen=spadeskit.Discard(["AS"]))])
    with pytest.raises(PluginError, match="steps-plugin.*already chosen|already chosen"):
        _bid_out(spadeskit.load_rules("standard", [chosen]))


def test_simultaneous_discards_of_all_four_seats_then_a_plain_step() -> None:
    """Every seat lays a card aside blind, then N passes one to S as a plain step."""
    plugin = _steps_plugin(
        [Step(s, "discard", 1, simultaneous=True) for s in range(4)]
        + [Step(0, "exchange", 1, to=2)]
    )
    rules = spadeskit.load_rules("standard", [plugin])
    game = _bid_out(rules)
    for seat in (3, 1, 2, 0):
        assert game.phase is Phase.EXCHANGE and game.legal_actions(seat)
        game = game.apply(game.legal_actions(seat)[0], seat)
    assert game.to_act == 0 and not game.steps[0].simultaneous
    assert [len(game.cards(s)) for s in range(4)] == [12, 12, 12, 12]
    assert game.legal_actions(2) == ()
    game = game.apply(game.legal_actions()[0])
    assert game.phase is Phase.PLAY and [len(game.cards(s)) for s in range(4)] == [11, 12, 13, 12]
    check_state(game)


def test_a_table_takes_both_choices_in_either_order_and_rebuilds_the_same_streams(
    rules: spadeskit.Rules,
) -> None:
    def played(first: int) -> spadeskit.Table:
        start = rules.new_game(deal=suit_hands(), dealer=3)  # a table of this deal
        table = spadeskit.Table.from_record(start.to_record(current_deal=True), rules=rules)
        for seat in range(4):
            table.join(f"p{seat}", seat=seat)
        for seat, action in to_exchange(rules).log:
            table.act(seat, action)
        chosen = N_PASS if first == 0 else S_PASS
        table.act(first, chosen)
        for seat in (0, 1, 2, 3, None):
            told = json.dumps(table.news(seat))
            if seat != first:  # nobody else is told the choice, the receiver least of all
                assert not any(json.dumps(card.code) in told for card in chosen.cards)
        table.act(2 - first, S_PASS if first == 0 else N_PASS)
        return table

    for first in (0, 2):
        live = played(first)
        rebuilt = spadeskit.Table.from_record(live.record(), rules=rules)
        for seat in (0, 1, 2, 3, None):
            assert rebuilt.events(seat) == live.events(seat)
    assert played(0).record() == played(2).record()


def _random_exchange(rules: spadeskit.Rules, seed: int, order: Sequence[int]) -> list[GameState]:
    """Return the states of a hand from a random deal in which N bids blind nil and the
    exchange group's seats choose in ``order`` (those not yet chosen, in that order)."""
    rng = random.Random(seed)
    deck = [c.code for c in spadeskit.load_rules("standard").table.deck]
    rng.shuffle(deck)
    game = to_exchange(rules, [" ".join(deck[i * 13 : i * 13 + 13]) for i in range(4)])
    states = [game]
    for seat in order:
        options = game.legal_actions(seat)
        if options:
            game = game.apply(rng.choice(options), seat)
            states.append(game)
    return states


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), n_first=st.booleans())
def test_simultaneous_choices_conserve_the_deck_and_leak_nothing(seed: int, n_first: bool) -> None:
    """Whoever chooses first: every card is in one place; before both are in, no other
    seat's view, legal actions or events change, and none shows a chosen card that seat
    does not hold; after, the group is recorded in its order and replays equal."""
    rules = blind_nil(**SIMULTANEOUS)
    states = _random_exchange(rules, seed, [0, 2] if n_first else [2, 0])
    start, waiting, done = states
    for game in states:
        check_state(game)
        check_views(game)
    chooser = 0 if n_first else 2
    chosen = waiting.view(chooser).chosen
    assert isinstance(chosen, Exchange)
    for seat in range(4):
        if seat == chooser:
            continue
        before, after = start.view(seat), waiting.view(seat)
        assert (after.cards, after.events, after.legal_actions, after.chosen) == (
            before.cards,
            before.events,
            before.legal_actions,
            None,
        )
        shown = json.dumps(after.to_json())
        for card in chosen.cards:
            assert json.dumps(card.code) not in shown or card in after.cards
    assert not mask_of(chosen.cards) & done.hands[chooser]
    assert [seat for seat, _ in done.log[-2:]] == [2, 0]
    assert spadeskit.replay(done.to_record()) == done


@pytest.mark.slow
def test_the_kit_passes_blind_nil_with_a_simultaneous_exchange() -> None:
    """``check_rules`` passes on blind-nil played simultaneously, at its default level."""
    check_rules(blind_nil(**SIMULTANEOUS))
