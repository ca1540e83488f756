"""The double-dummy solver against exhaustive minimax through the step API, in every
shipped variant and every house rule that changes the play, and its refusals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit import GameState, Phase
from spadeskit.analysis import AnalysisUnsupported, Goal, side_tricks, solve
from spadeskit.analysis.position import position_of
from spadeskit.analysis.solver import Tables, solution_of
from tests.conftest import suit_hands

PLAYS: list[tuple[str, tuple[str, ...], dict[str, Any]]] = [
    ("standard", (), {}),
    ("standard", ("no-trump-first-trick",), {}),
    ("standard", ("spades-anytime",), {}),
    ("standard", ("jokers",), {}),
    ("standard", ("jokers", "no-trump-first-trick"), {}),
    ("jjdd", (), {}),
    ("cutthroat", (), {}),
    ("call-break", (), {}),
    ("call-break", (), {"must_head": False}),
    ("three-suit-trump", (), {}),
    ("two-handed", (), {}),
]
"""Every shipped variant, with each house rule that changes which cards may be played
or which card wins (the others change only bidding or scoring)."""


def minimax(
    game: GameState,
    team: frozenset[int],
    counted: frozenset[int],
    memo: dict[tuple[Any, ...], int],
) -> int:
    """Return the counted tricks still to come with best play, trying every legal card
    through the step API (``team`` plays for the most, the others for the fewest);
    ``memo`` keeps the results of positions already solved for the same goal."""
    rules = spadeskit.engine.rules.rules_of(game)

    def value(state: GameState) -> int:
        key = (state.hands, state.trick, state.to_act)
        if key in memo:
            return memo[key]
        seat = state.to_act
        assert seat is not None
        results = []
        for action in state.legal_actions():
            card = action.card.index  # type: ignore[attr-defined]
            won = 0
            if len(state.trick) + 1 == rules.table.players:
                assert state.contract is not None
                winner = rules.trick_winner([*state.trick, (seat, card)], state.contract.trump)
                won = winner in counted
            after = state.apply(action)
            if after.phase is Phase.PLAY and after.number == state.number:
                results.append(won + value(after))
            else:
                results.append(int(won))
        best = max(results) if seat in team else min(results)
        memo[key] = best
        return best

    return value(game)


def ending(
    variant: str, house: tuple[str, ...], options: dict[str, Any], rng: random.Random, left: int
) -> GameState:
    """Return a random position of the first hand with at most ``left`` tricks to play
    (anywhere within a trick), reached by random legal actions."""
    rules = spadeskit.load_rules(variant, house_rules=list(house), options=options)
    game = rules.new_game(seed=rng.randrange(2**32))
    while game.phase is not Phase.PLAY:
        game = game.apply(rng.choice(game.legal_actions()))
    players = rules.table.players
    while True:
        cards = sum(hand.bit_count() for hand in game.hands) + len(game.trick)
        if not game.pile and cards <= left * players and (game.trick or rng.random() < 0.5):
            return game
        game = game.apply(rng.choice(game.legal_actions()))


def random_goal(game: GameState, rng: random.Random) -> Goal:
    seat = rng.randrange(game.rules.table.players)
    return Goal(seat, rng.choice(["side", "seat", "nil"]))


def check_against_minimax(game: GameState, goal: Goal) -> None:
    rules = game.rules
    side = frozenset(
        s for s in range(len(rules.side_of)) if rules.side_of[s] == rules.side_of[goal.seat]
    )
    counted = side if goal.count == "side" else frozenset({goal.seat})
    team = side if goal.count != "nil" else frozenset(range(rules.table.players)) - side
    won = sum(game.books[s] for s in counted)
    memo: dict[tuple[Any, ...], int] = {}
    solution = solve(game, goal, values=True)
    assert solution.tricks == won + minimax(game, team, counted, memo)
    for card, value in solution.values:
        after = game.apply(spadeskit.Play(card))
        seat = game.to_act
        assert seat is not None
        trick_won = 0
        if len(game.trick) + 1 == rules.table.players:
            assert game.contract is not None
            trick_won = (
                rules.trick_winner([*game.trick, (seat, card)], game.contract.trump) in counted
            )
        if after.phase is Phase.PLAY and after.number == game.number:
            expected = won + trick_won + minimax(after, team, counted, memo)
        else:
            expected = won + trick_won
        assert value == expected, (card, value, expected)
    assert {card for card, _ in solution.values} == {a.card for a in game.legal_actions()}  # type: ignore[attr-defined]


def sample(count: int, seed: int) -> None:
    rng = random.Random(seed)
    for k in range(count):
        variant, house, options = PLAYS[k % len(PLAYS)]
        game = ending(variant, house, options, rng, rng.randint(1, 4))
        check_against_minimax(game, random_goal(game, rng))


def test_solver_agrees_with_exhaustive_minimax_on_endings_of_every_variant() -> None:
    sample(66, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_solver_agrees_with_exhaustive_minimax_on_a_thousand_endings(part: int) -> None:
    """1,100 endings in all, every variant in turn, in four parts of 275 (each its own
    seed) that parallel test workers share."""
    sample(275, seed=20 + part)


def test_side_tricks_of_two_sides_add_up_to_the_hand() -> None:
    rng = random.Random(5)
    for _ in range(5):
        game = ending("standard", (), {}, rng, 5)
        assert sum(side_tricks(game)) == 13


def test_the_seat_holding_every_trump_takes_every_trick() -> None:
    # N holds the clubs, E the diamonds, S the hearts, W the spades: W trumps N's lead
    # and never loses the lead again.
    game = spadeskit.load_rules("standard").new_game(deal=suit_hands())
    for bid in (1, 1, 1, 13):
        game = game.apply(spadeskit.Bid(bid))
    assert side_tricks(game) == (0, 13)
    assert solve(game, Goal(3, "seat")).tricks == 13
    assert solve(game, Goal(0, "nil")).tricks == 0
    assert solve(game, Goal(0, "seat")).tricks == 0


def test_table_enforcement_is_refused_with_a_typed_error() -> None:
    rules = spadeskit.load_rules("jjdd", options={"enforcement": "table"})
    game = rules.new_game(seed=1)
    while game.phase is not Phase.PLAY:
        game = game.apply(game.legal_actions()[0])
    with pytest.raises(AnalysisUnsupported, match="table enforcement"):
        solve(game)


def test_two_handed_with_cards_left_to_draw_is_refused() -> None:
    game = spadeskit.load_rules("two-handed").new_game(seed=1)
    while game.phase is not Phase.PLAY:
        game = game.apply(game.legal_actions()[0])
    with pytest.raises(AnalysisUnsupported, match="draw pile") as caught:
        solve(game)
    assert caught.value.code == "not-analysable"


def test_a_state_outside_the_play_is_refused() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=1)
    with pytest.raises(AnalysisUnsupported, match="auction phase"):
        solve(game)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(PLAYS),
    st.integers(1, 5),
    st.sampled_from(["side", "seat", "nil"]),
)
def test_the_position_is_worth_its_best_card_and_no_card_beats_it(
    seed: int, play: tuple[str, tuple[str, ...], dict[str, Any]], left: int, count: str
) -> None:
    variant, house, options = play
    game = ending(variant, house, options, random.Random(seed), left)
    seat = game.to_act
    assert seat is not None
    goal = Goal(seat, count)  # type: ignore[arg-type]
    solution = solve(game, goal, values=True)
    results = [value for _, value in solution.values]
    # The seat to act plays for its goal: the most, or the fewest for a nil.
    assert solution.tricks == (min(results) if count == "nil" else max(results))
    assert solution.best() and all(
        dict(solution.values)[c] == solution.tricks for c in solution.best()
    )


def test_searches_of_one_hand_that_share_their_tables_answer_as_fresh_ones() -> None:
    # A review keeps each goal's transposition table from one card of a hand to the
    # next: what it proved must hold for every later position of the hand, in every
    # variant (the suit search and the card search alike), for every goal.
    rng = random.Random(8)
    for k in range(len(PLAYS)):
        variant, house, options = PLAYS[k % len(PLAYS)]
        game = ending(variant, house, options, rng, 4)
        tables: Tables = {}
        goals = [random_goal(game, rng) for _ in range(2)]
        while game.phase is Phase.PLAY and game.number == 0:
            for goal in goals:
                shared = solution_of(position_of(game), goal, values=True, tables=tables)
                fresh = solve(game, goal, values=True)
                assert (shared.tricks, shared.values) == (fresh.tricks, fresh.values)
            game = game.apply(rng.choice(game.legal_actions()))
