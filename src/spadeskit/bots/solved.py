"""PIMC's double-dummy decisions: each drawn deal solved instead of rolled out.

:func:`solved_choice` is the decision of
:class:`PIMCBot(solve_last=k) <spadeskit.bots.search.PIMCBot>` once at most ``k``
tricks are left: it draws deals consistent with the seat's view, solves each
double-dummy (:func:`spadeskit.analysis.solver.solve`, every legal card's value) and
plays the card with the best total, scored as the rules score the hand where the books
alone say who scores what (see the class docs).
"""

from __future__ import annotations

import random
import time

from spadeskit.analysis.position import AnalysisUnsupported, play_model
from spadeskit.analysis.review import goal_of
from spadeskit.analysis.solver import solve
from spadeskit.bots.determinize import Determinizer, Rewards
from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.core.actions import Action, Play
from spadeskit.core.state import GameState
from spadeskit.core.views import View
from spadeskit.engine.rules import Rules

__all__ = ["solvable", "solved_choice"]


def solvable(rules: Rules, game: GameState) -> bool:
    """Return whether the double-dummy solver follows the play of ``game``'s hand."""
    if game.contract is None or game.pile:
        return False
    try:
        play_model(rules, game.contract.trump)
    except AnalysisUnsupported:
        return False
    return True


def solved_choice(
    view: View,
    determinizer: Determinizer,
    plays: list[Play],
    rules: Rules,
    rng: random.Random,
    deals: int,
    seconds: float | None,
    match_weight: float,
    heuristic: HeuristicBot,
    veto: float = 0.0,
) -> tuple[Action, int]:
    """Return the card to play after solving ``deals`` drawn deals (fewer if ``seconds``
    runs out first, at least one), and the cards valued (deals times cards).

    Scored as the rules score the hand, the mean rewards are a rollout's, and ``veto``
    reads them as PIMC's rollouts do: the heuristic's card unless another card's mean
    beats it by more than ``veto``.  Counted in tricks, the best total is played, the
    heuristic's card among equals."""
    seat = view.seat
    assert seat is not None
    template = determinizer.template
    goal = goal_of(template, seat)
    side = rules.side_of[seat]
    # Score each card's double-dummy tricks as the rules score the hand, when the
    # books alone say who scores what: two sides, no nil bid (whose seat's own
    # tricks the side's count does not give).
    memo: Rewards | None = None
    if (
        len(rules.table.sides) == 2
        and goal.count == "side"
        and not any(goal_of(template, s).count == "nil" for s in range(len(template.books)))
    ):
        memo = Rewards(rules, match_weight)
    opponent = next(s for s in range(len(rules.side_of)) if rules.side_of[s] != side)
    counts = [0.0] * len(plays)
    rewards = [0.0] * len(plays)
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    while not done or (done < deals and (deadline is None or time.perf_counter() < deadline)):
        state = determinizer.sample(rng)
        values = dict(solve(state, goal, values=True).values)
        for k, play in enumerate(plays):
            tricks = values[play.card]
            counts[k] += tricks
            if memo is not None:
                reward = _reward(rules, memo, state, seat, opponent, tricks)
                if reward is None:
                    memo = None  # the counts decide
                else:
                    rewards[k] += reward
        done += 1
    preferred = heuristic.choose(view)
    if memo is not None:
        top = max(rewards)
        if preferred in plays and top - rewards[plays.index(preferred)] <= veto * done:
            return preferred, done * len(plays)
        return plays[rewards.index(top)], done * len(plays)
    totals = counts
    sign = -1.0 if goal.count == "nil" else 1.0
    best = max(sign * total for total in totals)
    chosen = [play for play, total in zip(plays, totals) if sign * total == best]
    return (preferred if preferred in chosen else chosen[0]), done * len(plays)


def _reward(
    rules: Rules, memo: Rewards, state: GameState, seat: int, opponent: int, tricks: int
) -> float | None:
    """Return the seat's side's reward for the hand of ``state`` ending with its side
    on ``tricks`` books and the other side on the rest (``None``: the rules' scoring
    reads more than books)."""
    side_of = rules.side_of
    side = side_of[seat]
    books = list(state.books)
    players = len(books)
    left = (sum(hand.bit_count() for hand in state.hands) + len(state.trick)) // players
    ours = tricks - sum(books[s] for s in range(players) if side_of[s] == side)
    books[seat] += ours
    books[opponent] += left - ours
    rewards = memo.of_books(state, tuple(books))
    return None if rewards is None else rewards[side]
