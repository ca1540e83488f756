"""Deal plans that give spare cards to a seat at the deal: a kitty.

``DealPlan(blind=k, kitty_to=s)`` gives the blind's ``k`` cards to the seat ``s``
places clockwise from the dealer, who picks them up before the auction and discards as
many, face down, as its first decision.  The rule used throughout is the documented
example plugin ``docs/examples/kitty.py``: cutthroat with the whole deck, 17 cards each
and the 52nd as the dealer's kitty.  Each test is named after the clause it checks.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import random
import types

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit import Discard, GameState, Phase
from spadeskit.plugin import DealPlan, Step, TableSpec, card_at, mask_of
from spadeskit.testing import check_rules, check_state, check_views

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "docs" / "examples" / "kitty.py"


def _load_example() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("kitty_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KITTY = _load_example()
DEAL = list(KITTY.EXAMPLES[0]["deal"])


def kitty_rules(**options: object) -> spadeskit.Rules:
    return spadeskit.load_rules("cutthroat", [KITTY], options)


@pytest.fixture(scope="module")
def rules() -> spadeskit.Rules:
    return kitty_rules()


def test_the_dealer_picks_up_the_kitty_before_the_auction(rules: spadeskit.Rules) -> None:
    game = rules.new_game(deal=DEAL, blind="2S", dealer=2)
    assert game.phase is Phase.EXCHANGE and game.to_act == 2 and game.contract is None
    assert len(game.cards(2)) == 18 and "2S" in [c.code for c in game.cards(2)]
    assert game.blind == 0 and game.steps == (Step(2, "discard", 1),)
    assert game.legal_actions(0) == () and game.legal_actions(1) == ()


def test_the_kitty_seat_discards_as_many_then_the_auction_begins_left_of_the_dealer(
    rules: spadeskit.Rules,
) -> None:
    game = rules.new_game(deal=DEAL, blind="2S", dealer=2)
    with pytest.raises(spadeskit.IllegalAction, match="exactly 1"):
        game.apply(Discard(["2S", "2C"]))
    with pytest.raises(spadeskit.WrongPhase):
        game.apply(spadeskit.Bid(3))
    with pytest.raises(spadeskit.NotYourTurn):
        game.apply(Discard(["8S"]), 1)
    after = game.apply(Discard(["2S"]))
    assert after.phase is Phase.AUCTION and after.to_act == 0 and after.leader == 0
    assert [len(after.cards(s)) for s in range(3)] == [17, 17, 17]
    assert after.won[2] == card_at(Discard(["2S"]).cards[0].index).bit  # counts for S


def test_kitty_to_left_of_dealer_gives_the_kitty_to_that_seat() -> None:
    game = kitty_rules(kitty_to="left-of-dealer").new_game(deal=DEAL, blind="2S", dealer=2)
    assert game.to_act == 0 and len(game.cards(0)) == 18
    assert game.apply(Discard(["AS"])).to_act == 0  # it discards, then bids first


def test_the_kitty_follows_the_dealer_round_the_table(rules: spadeskit.Rules) -> None:
    game = rules.new_game(seed=5)
    rng = random.Random(5)
    dealers = []
    while len(game.hand_results) < 4 and not game.is_over:
        if not game.log:
            dealers.append(game.dealer)
            assert game.phase is Phase.EXCHANGE and game.to_act == game.dealer
            assert len(game.cards(game.dealer)) == 18
        game = game.apply(rng.choice(game.legal_actions()))
    assert len(dealers) >= 2 and dealers == [(2 + i) % 3 for i in range(len(dealers))]


def test_no_other_seat_sees_the_kitty_or_the_discard(rules: spadeskit.Rules) -> None:
    game = rules.new_game(deal=DEAL, blind="2S", dealer=2)
    for seat in (0, 1, None):
        view = game.view(seat)
        assert view.blind_size == 0 and view.card_counts == (17, 17, 18)
        assert '"2S"' not in json.dumps(view.to_json())
    after = game.apply(Discard(["AC"]))
    for seat in (0, 1, None):
        text = json.dumps(after.view(seat).to_json())
        assert '"AC"' not in text and '"2S"' not in text
        assert [str(e) for e in after.view(seat).events] == ["S discards a card"]
    assert [str(e) for e in after.view(2).events] == ["S discards A♣"]


def test_a_record_keeps_the_kitty_as_the_hands_blind_and_replays() -> None:
    rules = kitty_rules()
    game = rules.new_game()  # dealt from a secret: the record lists the deal
    game = game.apply(game.legal_actions()[3])
    record = game.to_record()
    (deal,) = record["deals"]
    assert [len(cards) for cards in deal] == [17, 17, 17, 1, 0]
    assert spadeskit.replay(record, rules) == game
    assert spadeskit.replay(json.loads(json.dumps(record)), rules).view(2) == game.view(2)


def test_an_explicit_deal_without_the_blind_leaves_the_52nd_card_as_the_kitty(
    rules: spadeskit.Rules,
) -> None:
    game = rules.new_game(deal=DEAL, dealer=2)
    assert "2S" in [c.code for c in game.cards(2)]


def test_rollout_and_simulate_play_a_kitty_as_the_step_api(rules: spadeskit.Rules) -> None:
    start = rules.new_game(seed=11)
    stepped, rng = start, random.Random(4)
    while stepped.match is start.match:
        stepped = stepped.apply(rng.choice(stepped.legal_actions()))
    assert start.rollout(seed=4) == stepped
    assert list(rules.simulate(3, seed=2)) == list(
        rules.engine.playouts._simulate(3, 2, None, 0, close=True)
    )


def test_the_score_sheet_scores_a_hand_of_the_kitty_rule(rules: spadeskit.Rules) -> None:
    scored = rules.score_hand(bids=[5, 5, "nil"], books=[6, 11, 0])
    assert scored.points == (51, 56, 100)


def test_a_deal_plan_with_a_kitty_needs_a_blind_and_a_seat() -> None:
    table = spadeskit.load_rules("cutthroat").table
    no_blind = attrs.evolve(table, deal=attrs.evolve(table.deal, kitty_to=0))
    assert any("kitty_to" in p for p in no_blind.problems())
    far = attrs.evolve(table, deal=DealPlan(hand_size=17, kitty_to=3, blind=0))
    assert any("kitty_to" in p for p in far.problems())
    assert DealPlan(17, blind=1, kitty_to=1).kitty_seat(dealer=2, players=3) == 0
    assert DealPlan(17, blind=1).deal_steps(dealer=2, players=3) == ()


def test_the_batched_engine_refuses_a_kitty(rules: spadeskit.Rules) -> None:
    pytest.importorskip("numpy")
    from spadeskit.batch import BatchUnsupported, simulate_batch

    with pytest.raises(BatchUnsupported, match="kitty"):
        simulate_batch(rules, 4, seed=1)


def test_search_bots_rebuild_a_deal_whose_kitty_was_picked_up(rules: spadeskit.Rules) -> None:
    from spadeskit.bots.determinize import Determinizer

    game = rules.new_game(seed=3)
    rng = random.Random(3)
    while game.phase is not Phase.PLAY:
        game = game.apply(rng.choice(game.legal_actions()))
    for _ in range(3):  # each seat in turn, the dealer (who took the kitty) among them
        seat = game.to_act
        assert seat is not None
        drawn = Determinizer(game.view(seat), rules, random.Random(seat)).sample(rng)
        assert drawn.cards(seat) == game.cards(seat)
        assert [len(drawn.cards(s)) for s in range(3)] == [len(game.cards(s)) for s in range(3)]
        check_state(drawn)
        game = game.apply(rng.choice(game.legal_actions()))


def test_a_table_deals_the_kitty_to_the_dealer_and_tells_nobody_else(
    rules: spadeskit.Rules,
) -> None:
    table = spadeskit.Table(rules, seed=8, dealer=2, bots={0: "simple", 1: "simple"})
    table.join("Sam", seat=2)
    started = table.news(2)[0]
    assert started["type"] == "hand-started" and len(started["cards"]) == 18
    assert len(table.news(0)[0]["cards"]) == 17
    discard = table.view(2).legal_actions[0]
    table.act(2, discard)
    code = json.dumps(discard.to_json()["cards"][0])
    for seat in (0, 1, None):
        assert code not in json.dumps(table.news(seat))
    assert code in json.dumps(table.news(2))
    rebuilt = spadeskit.Table.from_record(table.record(), rules=rules)
    for seat in (0, 1, 2, None):
        assert rebuilt.events(seat) == table.events(seat)


def _kitty_states(rules: spadeskit.Rules, seed: int, steps: int) -> list[GameState]:
    game = rules.new_game(seed=seed)
    rng = random.Random(seed)
    seen = [game]
    for _ in range(steps):
        if game.is_over:
            break
        game = game.apply(rng.choice(game.legal_actions()))
        seen.append(game)
    return seen


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 6))
def test_the_kitty_conserves_the_deck_and_leaks_to_no_view(seed: int, steps: int) -> None:
    """Whatever the deal and however far the hand goes, every card is in one place and
    no view shows a card its seat may not know (the kitty before it is taken is in no
    view; another seat's discard in none)."""
    rules = kitty_rules()
    for game in _kitty_states(rules, seed, steps):
        check_state(game)
        check_views(game)
        dealt = game._dealt  # the kitty as dealt: only its taker ever sees it
        kitty = dealt[1]
        taker = rules.table.deal.kitty_seat(game.dealer, 3)
        for seat in range(3):
            if seat != taker:
                shown = mask_of(game.view(seat).cards)
                assert not shown & kitty & ~dealt[0][seat]


@pytest.mark.slow
def test_the_kit_passes_the_kitty_example() -> None:
    """``check_rules`` passes on the documented kitty house rule, at its default level."""
    check_rules(kitty_rules())


def test_a_kitty_of_two_with_the_dealers_left_picking_up() -> None:
    """Any variant can deal a kitty: standard with the deuces of clubs and diamonds left
    over, picked up by the dealer's left, who discards two."""
    plugin = types.ModuleType("two_kitty")
    plugin.PLUGIN = spadeskit.PluginInfo(  # type: ignore[attr-defined]
        name="two-kitty", kind="house-rule", summary="Twelve each and a kitty of four."
    )

    @spadeskit.hookimpl(wrapper=True)
    def spadeskit_table():  # type: ignore[no-untyped-def]
        table: TableSpec = yield
        return attrs.evolve(table, deal=DealPlan(hand_size=12, blind=4, kitty_to=1))

    plugin.spadeskit_table = spadeskit_table  # type: ignore[attr-defined]
    two = spadeskit.load_rules("standard", [plugin])
    game = two.new_game(seed=1, dealer=3)
    assert game.to_act == 0 and len(game.cards(0)) == 16 and game.steps[0].count == 4
    game = game.apply(game.legal_actions()[0])
    assert game.phase is Phase.AUCTION and len(game.cards(0)) == 12
