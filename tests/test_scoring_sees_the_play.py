"""Scoring sees the hand: a scoring hook reads the hand's tricks in order and its plugin
data, on every path; a score sheet, which has no tricks, refuses such a rule clearly.

The rule used, "a side that wins the last trick with a spade scores 10", is a bonus
published house rules give; it cannot be scored from bids and books alone.
"""

from __future__ import annotations

import random
import types

import pytest

import spadeskit
from spadeskit import GameState, SpadesError
from spadeskit.plugin import HandSummary, PluginInfo, ScoreLine, TableSpec, card_at, hookimpl


def last_spade_bonus() -> types.ModuleType:
    """Return the house rule as a plugin module."""
    module = types.ModuleType("last_spade_bonus")
    module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name="last-spade-bonus",
        kind="house-rule",
        fits=("standard",),
        summary="Winning the last trick with a spade scores 10.",
    )

    @hookimpl
    def spadeskit_score_hand(summary: HandSummary, table: TableSpec) -> list[ScoreLine]:
        last = summary.tricks[-1]
        card = dict(last.plays)[last.winner]
        if card_at(card).suit is not spadeskit.Suit.SPADES:
            return []
        side = table.side_of[last.winner]
        return [ScoreLine(side, 10, f"{table.side_names[side]} took the last trick with a spade")]

    module.spadeskit_score_hand = spadeskit_score_hand  # type: ignore[attr-defined]
    return module


@pytest.fixture(scope="module")
def rules() -> spadeskit.Rules:
    return spadeskit.load_rules("standard", [last_spade_bonus()], options={"floor": None})


def step_to_end(game: GameState, rng: random.Random) -> GameState:
    match = game.match
    while game.match is match and not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("seed", range(10))
def test_a_scoring_rule_reads_the_tricks_the_hand_was_played_with(
    rules: spadeskit.Rules, seed: int
) -> None:
    start = rules.new_game(seed=seed)
    end = step_to_end(start, random.Random(seed))
    result = end.match.results[-1]
    # Read independently: the last trick, from the state before its last card.
    game, rng = start, random.Random(seed)
    while game.match is start.match:
        before, action = game, rng.choice(game.legal_actions())
        game = game.apply(action)
    assert isinstance(action, spadeskit.Play) and before.to_act is not None
    plays = dict(before.trick + ((before.to_act, action.card.index),))
    winner = result.last_trick_winner
    assert winner is not None
    bonus = [line for line in result.lines if "last trick with a spade" in line.text]
    assert bool(bonus) == (card_at(plays[winner]).suit is spadeskit.Suit.SPADES)
    assert start.rollout(seed=seed) == end  # the rollout scores it the same


@pytest.mark.parametrize("seed", range(4))
def test_simulations_and_search_playouts_score_it_as_stepping_does(
    rules: spadeskit.Rules, seed: int
) -> None:
    stepped = list(rules.engine.playouts._simulate(6, seed, None, 0, close=True))
    assert list(rules.simulate(6, seed=seed)) == stepped
    game = rules.new_game(seed=seed)
    rng = random.Random(seed)
    while game.phase is not spadeskit.Phase.PLAY:
        game = game.apply(rng.choice(game.legal_actions()))
    playouts = rules.engine.playouts
    memo: dict[object, object] = {}
    for draw in range(12):
        kept = playouts.random_play_score(game, random.Random(draw).random, memo)  # type: ignore[arg-type]
        fresh = playouts.random_play_score(game, random.Random(draw).random)
        assert kept == fresh  # the memo keeps no score that read the tricks


def test_a_score_sheet_cannot_score_a_rule_that_reads_the_tricks(
    rules: spadeskit.Rules,
) -> None:
    sheet = rules.score_sheet()
    with pytest.raises(SpadesError, match="score sheet: it has bids and books but no tricks"):
        sheet.add_hand([3, 3, 3, 3], [4, 3, 3, 3])
    with pytest.raises(SpadesError, match="no tricks"):
        rules.score_hand(bids=[3, 3, 3, 3], books=[4, 3, 3, 3])
    plain = spadeskit.load_rules("standard").score_sheet()
    assert plain.add_hand([3, 3, 3, 3], [4, 3, 3, 3]).match.scores == (61, 60)


def test_a_summary_carries_the_hands_plugin_data() -> None:
    seen: list[object] = []
    module = types.ModuleType("reads_extra")
    module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name="reads-extra", kind="house-rule", summary="Reads the hand's plugin data."
    )

    @hookimpl
    def spadeskit_score_hand(summary: HandSummary) -> list[ScoreLine]:
        seen.append(summary.extra)
        return []

    module.spadeskit_score_hand = spadeskit_score_hand  # type: ignore[attr-defined]
    rules = spadeskit.load_rules("jjdd", [module])
    end = rules.new_game(seed=2).rollout(seed=2)
    assert seen and all(isinstance(extra, spadeskit.plugin.FrozenMap) for extra in seen)
    assert end.hand_results


@pytest.mark.parametrize(
    ("variant", "house"),
    [("standard", ()), ("standard", ("boston", "partnership-nil")), ("jjdd", ())],
)
def test_every_shipped_score_line_says_what_it_is_for(variant: str, house: tuple[str, ...]) -> None:
    rules = spadeskit.load_rules(
        variant, list(house), options={"nil": True} if variant == "jjdd" else {}
    )
    kinds: set[str] = set()
    for result in rules.simulate(300, seed=5):
        for line in result.lines:
            assert line.kind in spadeskit.core.results.LINE_KINDS, line
            kinds.add(line.kind)
            if line.bags < 0:
                assert line.kind == "bag-penalty", line
            if " nil, took " in line.text:
                assert line.kind == "nil", line
            if " bid " in line.text and ", took " in line.text:
                assert line.kind == "contract", line
    assert {"contract", "nil"} <= kinds


def test_a_score_line_of_no_known_kind_is_a_plugin_error() -> None:
    module = types.ModuleType("odd_kind")
    module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name="odd-kind", kind="house-rule", summary="Scores a line of an unknown kind."
    )
    module.spadeskit_score_hand = hookimpl(  # type: ignore[attr-defined]
        lambda: [ScoreLine(0, 5, "a bonus", kind="bonsu")]
    )
    rules = spadeskit.load_rules("standard", [module])
    with pytest.raises(spadeskit.PluginError, match="odd-kind"):
        rules.score_hand(bids=[3, 3, 3, 3], books=[4, 3, 3, 3])
