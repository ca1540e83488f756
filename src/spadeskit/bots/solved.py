"""PIMC's double-dummy decisions: each drawn deal solved instead of rolled out.

:func:`solved_choice` is the decision of
:class:`PIMCBot(solve_last=k) <spadeskit.bots.search.PIMCBot>` once at most ``k``
tricks are left: it draws deals consistent with the seat's view, solves each
double-dummy (:func:`spadeskit.analysis.solver.solve`, every legal card's value) and
plays the card with the best total, scored as the rules score the hand where the books
alone say who scores what (see the class docs).  While a nil is alive each deal is
also solved for the nil seat's own tricks, so that the score counts the nil.
"""

from __future__ import annotations

import random
import time

from spadeskit.analysis.position import AnalysisUnsupported, play_model
from spadeskit.analysis.review import goal_of
from spadeskit.analysis.solver import Goal, solve
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

    While a nil is alive (its bidder has taken no trick yet), each deal is solved twice:
    for that nil (the nil seat's own tricks, its side playing for the fewest: the seat's
    side's nil first, else the other side's) and for the seat's side's tricks.  The hand
    is then scored with the nil seat on the first count and the side on the second
    (:func:`_books`).  Scored as the rules score the hand, the mean rewards are a
    rollout's, and ``veto`` reads them as PIMC's rollouts do: the heuristic's card
    unless another card's mean beats it by more than ``veto``.  Counted in tricks (more
    than two sides, or scoring that reads more than books), the nil's fate decides
    first and the side's tricks next; the best is played, the heuristic's card among
    equals."""
    seat = view.seat
    assert seat is not None
    template = determinizer.template
    side_of = rules.side_of
    side = side_of[seat]
    nils = _live_nils(template, side_of)
    nil = next((s for s in nils if side_of[s] == side), nils[0] if nils else None)
    own_nil = nil is not None and side_of[nil] == side
    memo: Rewards | None = Rewards(rules, match_weight) if len(rules.table.sides) == 2 else None
    # Counted in tricks: each card's nils kept (or set) first, its side's books next.
    fates = [0] * len(plays)
    counts = [0] * len(plays)
    rewards = [0.0] * len(plays)
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    while not done or (done < deals and (deadline is None or time.perf_counter() < deadline)):
        state = determinizer.sample(rng)
        side_values = dict(solve(state, Goal(seat), values=True).values)
        nil_values = (
            None if nil is None else dict(solve(state, Goal(nil, "nil"), values=True).values)
        )
        for k, play in enumerate(plays):
            tricks = side_values[play.card]
            counts[k] += tricks
            taken = None if nil_values is None else nil_values[play.card]
            if taken is not None:
                fates[k] += (taken == 0) if own_nil else (taken > 0)
            if memo is not None:
                reward = _reward(rules, memo, state, seat, tricks, nil, taken)
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
    # A seat alone on its side that bid nil wants no books even once its nil is lost.
    alone = sum(s == side for s in side_of) == 1
    sign = -1 if alone and _bid_nil(template, seat) else 1
    keys = [(fate, sign * count) for fate, count in zip(fates, counts)]
    best = max(keys)
    chosen = [play for play, key in zip(plays, keys) if key == best]
    return (preferred if preferred in chosen else chosen[0]), done * len(plays)


def _live_nils(game: GameState, side_of: tuple[int, ...]) -> list[int]:
    """Return the seats whose nil (or blind nil) is still alive: bid, no trick taken."""
    return [s for s in range(len(side_of)) if not game.books[s] and _bid_nil(game, s)]


def _reward(
    rules: Rules,
    memo: Rewards,
    state: GameState,
    seat: int,
    tricks: int,
    nil: int | None,
    taken: int | None,
) -> float | None:
    """Return the seat's side's reward for the hand of ``state`` ended as :func:`_books`
    says (``None``: the rules' scoring reads more than books)."""
    rewards = memo.of_books(state, _books(rules.side_of, state, seat, tricks, nil, taken))
    return None if rewards is None else rewards[rules.side_of[seat]]


def _books(
    side_of: tuple[int, ...],
    state: GameState,
    seat: int,
    tricks: int,
    nil: int | None,
    taken: int | None,
) -> tuple[int, ...]:
    """Return each seat's books at the end of ``state``'s hand (two sides) when the
    seat's side ends on ``tricks`` and, with ``nil``, the nil seat on ``taken``.

    The two counts come from two solutions (the side playing for its books, the nil's
    side for the nil), so they need not come from one line of play: the nil's side
    ends on at least the books its other seats have plus the nil's.  Each side's books
    still to come go to a seat of it that did not bid nil where there is one (a nil
    bidder's books do not count for the contract): the seat itself first."""
    books = list(state.books)
    players = len(books)
    left = (sum(hand.bit_count() for hand in state.hands) + len(state.trick)) // players
    total = sum(books) + left
    side = side_of[seat]
    ours = tricks
    if nil is not None and taken is not None:
        mates = sum(books[s] for s in range(players) if side_of[s] == side_of[nil] and s != nil)
        theirs = tricks if side_of[nil] == side else total - tricks
        alone = all(side_of[s] != side_of[nil] for s in range(players) if s != nil)
        kept = taken if alone else max(theirs, mates + taken)
        ours = kept if side_of[nil] == side else total - kept
        books[nil] = taken
    for who, count in ((side, ours), (1 - side, total - ours)):
        seats = [s for s in range(players) if side_of[s] == who]
        extra = count - sum(books[s] for s in seats)
        if extra:
            order = sorted(seats, key=lambda s: (s == nil, _bid_nil(state, s), s != seat))
            books[order[0]] += extra
    return tuple(books)


def _bid_nil(game: GameState, seat: int) -> bool:
    """Return whether ``seat`` bid nil (or blind nil) in ``game``'s hand."""
    return goal_of(game, seat).count == "nil"
