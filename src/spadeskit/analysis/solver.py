"""The double-dummy solver: best play with every hand known.

From a position in the play of the cards, :func:`solve` finds how many tricks a
:class:`Goal`'s seats take when their side plays for the most (or, for a nil, the
fewest) and every other seat plays against them, each seeing every card.  It can also
give the result after each legal card (``values=True``): what a card costs against the
best one.

The search (:mod:`spadeskit.analysis.search`) is the one bridge solvers use: alpha-beta
on null windows with a transposition table, equivalent cards merged, sure tricks counted
and the likeliest good cards tried first.  The rules are read through
:mod:`spadeskit.analysis.position` only: the legal plays from the rule set's filters and
the trick winner from its strength tables, so every variant the solver accepts is played
by its own rules.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from spadeskit.analysis.position import AnalysisUnsupported, Position, position_of
from spadeskit.analysis.search import Search
from spadeskit.analysis.suits import SuitSearch
from spadeskit.core.cards import Card, card_at
from spadeskit.core.state import GameState

__all__ = ["Goal", "Solution", "Tables", "search_for", "side_tricks", "solution_of", "solve"]

Count = Literal["side", "seat", "nil"]


@attrs.frozen
class Goal:
    """What the solver counts, and for whom.

    ``count="side"``: the tricks of ``seat``'s side (its partners and itself), which
    plays for the most; ``"seat"``: the tricks of ``seat`` alone, its side playing for
    the most; ``"nil"``: the tricks of ``seat`` alone, its side playing for the fewest
    (a nil is safe double-dummy when the result is 0).  Every other seat plays against.
    """

    seat: int
    count: Count = "side"


@attrs.frozen
class Solution:
    """The double-dummy result of a position for a :class:`Goal`.

    ``tricks`` counts the goal's tricks in the whole hand: those already won and those
    still to come with best play.  ``values`` gives, when asked for, the same count after
    each legal card of the seat to act (in card order); ``nodes`` is the number of
    positions searched.
    """

    goal: Goal
    tricks: int
    values: tuple[tuple[Card, int], ...]
    nodes: int

    def best(self) -> tuple[Card, ...]:
        """Return the legal cards with the best value for the seat to act (the cards
        whose value is the position's: best play keeps it)."""
        return tuple(card for card, value in self.values if value == self.tricks)


def _sides(position: Position, goal: Goal) -> tuple[frozenset[int], frozenset[int], bool]:
    """Return the team, the counted seats and whether the team plays for the fewest."""
    side_of = position.model.side_of
    if not 0 <= goal.seat < len(side_of):
        raise AnalysisUnsupported(
            f"{goal.seat} is not a seat of {position.model.name!r}: seats are 0 to "
            f"{len(side_of) - 1}",
            code="no-such-seat",
        )
    side = frozenset(s for s in range(len(side_of)) if side_of[s] == side_of[goal.seat])
    counted = side if goal.count == "side" else frozenset({goal.seat})
    return side, counted, goal.count == "nil"


Tables = dict[tuple[frozenset[int], frozenset[int]], Any]
"""Transposition tables kept between searches of one hand, one a goal (by the seats that
play for the most and the seats counted): a table's results hold for any position of
the hand, so a later search starts from what the earlier ones proved."""


def search_for(
    position: Position, goal: Goal, tables: Tables | None = None
) -> tuple[Search | SuitSearch, int]:
    """Return a search for ``goal`` from ``position`` (a :class:`SuitSearch` when the
    rules refuse cards by suit alone, a :class:`Search` otherwise) and the goal's tricks
    already won.  With ``tables``, the search shares the goal's transposition table
    with earlier searches of the same hand."""
    team, counted, fewest = _sides(position, goal)
    if fewest:
        team = frozenset(range(position.model.players)) - team
    won = sum(position.books[s] for s in counted)
    search: Search | SuitSearch
    if position.model.by_suits:
        search = SuitSearch(position, team, counted)
    else:
        search = Search(position, team, counted)
    if tables is not None:
        known = tables.get((team, counted))
        if known is None:
            tables[team, counted] = search.table
        else:
            search.table = known
    return search, won


def solution_of(
    position: Position, goal: Goal, values: bool = False, tables: Tables | None = None
) -> Solution:
    """Return the :class:`Solution` of ``position`` for ``goal`` (see :func:`solve`),
    sharing ``tables`` (see :data:`Tables`) when given."""
    search, won = search_for(position, goal, tables)
    rest = search.value()
    tricks = won + rest
    found: list[tuple[Card, int]] = []
    if values:
        for run in search.runs(search.legal()):
            value = won + search.value_after(run[0], rest)
            found.extend((card_at(card), value) for card in run)
        found.sort()
    return Solution(goal, tricks, tuple(found), search.nodes)


def solve(game: GameState, goal: Goal | None = None, *, values: bool = False) -> Solution:
    """Return the double-dummy result of ``game`` (a state in play) for ``goal``.

    ``goal`` defaults to the side of the seat to act.  With ``values=True`` the
    solution also gives the result after each legal card of the seat to act.  A state
    the solver cannot analyse raises :class:`~spadeskit.analysis.position.AnalysisUnsupported`.

    North holds every club, East every diamond, South every heart and West every spade:
    West trumps North's lead and keeps the lead to the end.

    >>> import spadeskit
    >>> from spadeskit.analysis import Goal, solve
    >>> ranks = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    >>> deal = [" ".join(rank + suit for rank in ranks) for suit in "CDHS"]
    >>> game = spadeskit.load_rules("standard").new_game(deal=deal)
    >>> for bid in (1, 1, 1, 13):
    ...     game = game.apply(spadeskit.Bid(bid))
    >>> solve(game).tricks, solve(game, Goal(3)).tricks
    (0, 13)
    """
    position = position_of(game)
    return solution_of(position, Goal(position.to_act) if goal is None else goal, values)


def side_tricks(game: GameState) -> tuple[int, ...]:
    """Return the tricks each side takes in the hand when it plays for the most against
    all the others (the double-dummy table of ``game``, one entry a side).

    With two sides the entries add up to the hand's tricks; with more (three-handed,
    call-break) each side's count is what it can make against a coalition of the rest.
    """
    position = position_of(game)
    side_of = position.model.side_of
    found = []
    for side in range(max(side_of) + 1):
        search, won = search_for(position, Goal(side_of.index(side)))
        found.append(won + search.value())
    return tuple(found)
