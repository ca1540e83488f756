"""The seat-aware trick winner (``spadeskit_trick_winner``): a house rule in which who
played a card decides the trick plays the same on every path, and a bad answer is named.

The rule used throughout, "a spade from the leader's partner does not trump", is the
one docs/hooks.rst teaches: when the leader's partner plays a spade to a trick led in
another suit, the trick goes to the best card of the suit led.
"""

from __future__ import annotations

import random
import types
from typing import Any

import pytest

import spadeskit
from spadeskit import GameState, PluginError
from spadeskit.plugin import Card, PluginInfo, Suit, TableSpec, hookimpl


def partner_trump() -> types.ModuleType:
    """Return the house rule as a plugin module (about fifteen lines)."""
    module = types.ModuleType("partner_trump")
    module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name="partner-trump",
        kind="house-rule",
        fits=("standard",),
        summary="A spade from the leader's partner does not trump.",
    )

    @hookimpl
    def spadeskit_trick_winner(
        plays: tuple[tuple[int, Card], ...], led: Suit, table: TableSpec
    ) -> int | None:
        leader = plays[0][0]
        partner = next(s for s in table.sides[table.side_of[leader]] if s != leader)
        if led is Suit.SPADES or not any(
            seat == partner and card.suit is Suit.SPADES for seat, card in plays
        ):
            return None
        return max((card.rank, seat) for seat, card in plays if card.suit is led)[1]

    module.spadeskit_trick_winner = spadeskit_trick_winner  # type: ignore[attr-defined]
    # The kit's trick oracle reads the strength table; this rule decides tricks itself.
    module.ORACLES = {"winner": "own"}  # type: ignore[attr-defined]
    return module


def expected_winner(plays: tuple[tuple[int, int], ...]) -> int:
    """The rule, read independently of the engine: spades trump, A high, except that a
    spade from the leader's partner (seat + 2) does not trump."""
    cards = [(seat, spadeskit.core.cards.card_at(index)) for seat, index in plays]
    leader, led = cards[0][0], cards[0][1].suit
    partner = (leader + 2) % 4
    partner_spade = any(s == partner and c.suit is Suit.SPADES for s, c in cards)
    if led is not Suit.SPADES and not partner_spade:
        spades = [(c.rank, s) for s, c in cards if c.suit is Suit.SPADES]
        if spades:
            return max(spades)[1]
    return max((c.rank, s) for s, c in cards if c.suit is led)[1]


def step_to_end(game: GameState, rng: random.Random) -> GameState:
    match = game.match
    while game.match is match and not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.fixture(scope="module")
def rules() -> spadeskit.Rules:
    return spadeskit.load_rules("standard", [partner_trump()])


def test_a_spade_from_the_leaders_partner_does_not_trump(rules: spadeskit.Rules) -> None:
    assert rules.trick_winner([(0, "KH"), (1, "AH"), (2, "2S"), (3, "3H")]) == 1
    assert rules.trick_winner([(0, "KH"), (1, "2S"), (2, "AH"), (3, "3H")]) == 1
    assert rules.trick_winner([(0, "KH"), (1, "2S"), (2, "3S"), (3, "4S")]) == 0
    # Led spades, or no spade from the partner: the strength table decides.
    assert rules.trick_winner([(0, "2S"), (1, "AH"), (2, "3S"), (3, "4S")]) == 3
    assert rules.trick_winner([(3, "KH"), (0, "2S"), (1, "AH"), (2, "3H")]) == 0


@pytest.mark.parametrize("seed", range(6))
def test_every_trick_of_a_stepped_hand_goes_where_the_rule_says(
    rules: spadeskit.Rules, seed: int
) -> None:
    game = rules.new_game(seed=seed)
    rng = random.Random(seed)
    checked = 0
    while game.number == 0 and not game.is_over:
        before = game
        game = game.apply(rng.choice(game.legal_actions()))
        if len(game.tricks) > len(before.tricks):
            done = game.tricks[-1]
            assert done.winner == expected_winner(done.plays), done
            checked += 1
    assert checked >= 12  # the last trick shows only where the hand ends the match


@pytest.mark.parametrize("seed", range(8))
def test_the_rule_plays_the_same_in_rollouts_simulations_and_search(
    rules: spadeskit.Rules, seed: int
) -> None:
    start = rules.new_game(seed=seed)
    assert start.rollout(seed=seed) == step_to_end(start, random.Random(seed))
    stepped = list(rules.engine.playouts._simulate(3, seed, None, 0, close=True))
    assert list(rules.simulate(3, seed=seed)) == stepped
    plain = spadeskit.load_rules("standard")
    assert [r.books for r in rules.simulate(20, seed=seed)] != [
        r.books for r in plain.simulate(20, seed=seed)
    ]


def test_search_bots_play_under_the_rule(rules: spadeskit.Rules) -> None:
    game = rules.new_game(seed=3)
    rng = random.Random(3)
    while game.phase is not spadeskit.Phase.PLAY:
        game = game.apply(rng.choice(game.legal_actions()))
    seat = game.to_act
    assert seat is not None
    for bot in (spadeskit.PIMCBot(iterations=40), spadeskit.ISMCTSBot(iterations=40)):
        bot.reset(seat, rules, random.Random(1))
        assert bot.choose(game.view(seat)) in game.legal_actions()


def test_the_batched_engine_refuses_a_seat_aware_winner(rules: spadeskit.Rules) -> None:
    pytest.importorskip("numpy")
    from spadeskit.batch import BatchUnsupported

    with pytest.raises(BatchUnsupported, match="seat-aware trick winner"):
        rules.simulate_batch(10, seed=1)


@pytest.mark.parametrize("answer", [7, "1", None.__class__, -1])
def test_a_winner_that_did_not_play_to_the_trick_is_a_plugin_error(answer: Any) -> None:
    module = types.ModuleType("bad_winner")
    module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name="bad-winner", kind="house-rule", summary="Answers nonsense."
    )
    module.spadeskit_trick_winner = hookimpl(lambda plays: answer)  # type: ignore[attr-defined]
    rules = spadeskit.load_rules("standard", [module])
    with pytest.raises(PluginError, match=r"spadeskit_trick_winner answered .*bad-winner"):
        rules.trick_winner([(0, "KH"), (1, "AH"), (2, "2S"), (3, "3H")])
    game = rules.new_game(seed=1)
    with pytest.raises(PluginError, match="bad-winner"):
        game.rollout(seed=1)


def test_the_kit_passes_the_rule(rules: spadeskit.Rules) -> None:
    from spadeskit.testing import check_rules

    check_rules(rules, matches=3, rotations=1, playouts=2, machine_examples=0)


def test_the_double_dummy_solver_refuses_a_seat_aware_winner(rules: spadeskit.Rules) -> None:
    from spadeskit.analysis import AnalysisUnsupported, side_tricks

    game = rules.new_game(seed=4)
    rng = random.Random(4)
    while game.phase is not spadeskit.Phase.PLAY:
        game = game.apply(rng.choice(game.legal_actions()))
    with pytest.raises(AnalysisUnsupported, match="spadeskit_trick_winner"):
        side_tricks(game)
