"""The double-dummy solver: best play with every hand known.

From a position in the play of the cards, :func:`solve` finds how many tricks a
:class:`Goal`'s seats take when their side plays for the most (or, for a nil, the
fewest) and every other seat plays against them, each seeing every card.  It can also
give the result after each legal card (``values=True``): what a card costs against the
best one.

The search is the one bridge solvers use: a yes/no question at a time ("can the side
take at least *k* more tricks?"), answered by alpha-beta on that null window and narrowed
by binary search on *k*.  It keeps, for each position at the start of a trick, the
bounds it has proved (a transposition table: the same cards left with the same leader
reached in another order is looked up, not searched again), plays only one card of each
run of equivalent cards (cards of one suit in one hand with no card still in play between
them) and tries the likeliest good cards first (the cheapest card that wins the trick, a
low card when the side is already winning it).

The rules are read through :mod:`spadeskit.analysis.position` only: the legal plays from
the rule set's filters and the trick winner from its strength tables, so every variant
the solver accepts is played by its own rules.
"""

from __future__ import annotations

from typing import Literal

import attrs

from spadeskit.analysis.position import (
    AnalysisUnsupported,
    PlayModel,
    Position,
    Reads,
    position_of,
)
from spadeskit.core.cards import Card, card_at
from spadeskit.core.state import GameState

__all__ = ["Goal", "Solution", "Search", "side_tricks", "solve"]

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


class Search:
    """A double-dummy search from one :class:`Position`, for one goal.

    ``team`` holds the seats that play for the most counted tricks (every other seat for
    the fewest), ``counted`` the seats whose tricks count.  The transposition table is
    kept between calls, so several questions about one position share their work.
    """

    def __init__(self, position: Position, team: frozenset[int], counted: frozenset[int]) -> None:
        model: PlayModel = position.model
        self.model = model
        n = self.n = model.players
        self.rows = model.rows
        self.suit_of = model.suit_of
        self.suit_mask = model.suit_mask
        self.order = model.order
        self.merges = model.merges
        self.check = model.check
        self.maximizes = tuple(s in team for s in range(n))
        self.counts = tuple(1 if s in counted else 0 for s in range(n))
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.hands = list(position.hands)
        self.trick = position.trick
        self.seat = position.to_act
        self.done = position.done
        self.ranges = tuple(range(k) for k in range(position.done + 64))
        reads = self.reads = Reads()
        reads.played = position.played
        reads.tricks = self.ranges[position.done]
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0

    # ----------------------------------------------------------------------------------
    # Questions
    # ----------------------------------------------------------------------------------

    def left(self) -> int:
        """Return the number of tricks still to finish, the one in progress included."""
        cards = sum(hand.bit_count() for hand in self.hands) + len(self.trick)
        return cards // self.n

    def value(self) -> int:
        """Return the counted tricks still to come (the trick in progress included)."""
        low, high = 0, self.left()
        while low < high:
            middle = (low + high + 1) // 2
            if self.reaches(middle):
                low = middle
            else:
                high = middle - 1
        return low

    def value_after(self, card: int) -> int:
        """Return the counted tricks still to come (this trick included) after the seat
        to act plays ``card`` (a card index it may play)."""
        seat, trick, reads = self.seat, self.trick, self.reads
        bit = 1 << card
        self.hands[seat] ^= bit
        reads.played |= bit
        trick = trick + ((seat, card),)
        won = 0
        if len(trick) == self.n:
            winner = self.model.winner(trick)
            won = self.counts[winner]
            self.trick, self.seat, self.done = (), winner, self.done + 1
            reads.tricks = self.ranges[self.done]
        else:
            self.trick, self.seat = trick, self.next_seat[seat]
        try:
            return won + self.value()
        finally:
            if len(trick) == self.n:
                self.done -= 1
                reads.tricks = self.ranges[self.done]
            self.trick, self.seat = trick[:-1], seat
            reads.played ^= bit
            self.hands[seat] ^= bit

    def legal(self) -> int:
        """Return the mask of cards the seat to act may play."""
        self.reads.trick = self.trick
        return self.check(self.reads, self.seat, self.hands[self.seat])  # type: ignore[arg-type]

    def runs(self, legal: int) -> list[list[int]]:
        """Return the legal cards of the seat to act grouped into runs of equivalent
        cards (one card a run when the rules do not allow merging), strongest first."""
        if not self.merges:
            return [[c] for c in _indices(legal)]
        alive = 0
        for other in self.hands:
            alive |= other
        for _, card in self.trick:
            alive |= 1 << card
        runs: list[list[int]] = []
        for suit, mask in enumerate(self.suit_mask):
            if not legal & mask:
                continue
            run: list[int] | None = None
            for card in self.order[suit]:
                bit = 1 << card
                if not alive & bit:
                    continue
                if legal & bit:
                    if run is None:
                        run = [card]
                        runs.append(run)
                    else:
                        run.append(card)
                else:
                    run = None
        return runs

    # ----------------------------------------------------------------------------------
    # The search
    # ----------------------------------------------------------------------------------

    def reaches(self, target: int) -> bool:
        """Return whether the team can take at least ``target`` more counted tricks."""
        self.nodes += 1
        if self.trick:
            return self._move(target)
        if target <= 0:
            return True
        hands = self.hands
        left = hands[self.seat].bit_count()
        if target > left:
            return False
        key = (*hands, self.seat)
        bounds = self.table.get(key)
        if bounds is None:
            low, high = 0, left
        else:
            low, high = bounds
            if low >= target:
                return True
            if high < target:
                return False
        result = self._move(target)
        if result:
            low = target
        else:
            high = target - 1
        self.table[key] = (low, high)
        return result

    def _move(self, target: int) -> bool:
        seat = self.seat
        hands = self.hands
        reads = self.reads
        trick = self.trick
        reads.trick = trick
        legal: int = self.check(reads, seat, hands[seat])  # type: ignore[arg-type]
        maximizing = self.maximizes[seat]
        if legal & (legal - 1):
            cards = self._ordered(seat, trick, legal)
        else:
            cards = [legal.bit_length() - 1]
        played = reads.played
        full = len(trick) + 1 == self.n
        for card in cards:
            bit = 1 << card
            hands[seat] ^= bit
            reads.played = played | bit
            after = trick + ((seat, card),)
            if full:
                winner = self.model.winner(after)
                self.trick = ()
                self.seat = winner
                self.done += 1
                reads.tricks = self.ranges[self.done]
                result = self.reaches(target - self.counts[winner])
                self.done -= 1
                reads.tricks = self.ranges[self.done]
            else:
                self.trick = after
                self.seat = self.next_seat[seat]
                result = self.reaches(target)
            self.trick = trick
            self.seat = seat
            hands[seat] ^= bit
            if result is maximizing:
                reads.played = played
                return result
        reads.played = played
        return not maximizing

    def _ordered(self, seat: int, trick: tuple[tuple[int, int], ...], legal: int) -> list[int]:
        """Return one card of each run, the likeliest best first."""
        cards = [run[0] for run in self.runs(legal)]
        if not trick:
            # Leads: the strongest cards first (a card that cannot be beaten in its
            # suit is the likeliest good lead), within each suit.
            own = self.rows
            suit_of = self.suit_of
            cards.sort(key=lambda c: -own[suit_of[c]][c])
            return cards
        row = self.rows[self.suit_of[trick[0][1]]]
        best_seat, best = -1, -1
        for who, card in trick:
            if row[card] > best:
                best_seat, best = who, row[card]
        if self.maximizes[best_seat] is self.maximizes[seat]:
            cards.sort(key=lambda c: row[c])  # the side is winning: play low
            return cards
        winners = sorted((c for c in cards if row[c] > best), key=lambda c: row[c])
        losers = sorted((c for c in cards if row[c] <= best), key=lambda c: row[c])
        return winners + losers


def _indices(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


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


def search_for(position: Position, goal: Goal) -> tuple[Search, int]:
    """Return a :class:`Search` for ``goal`` from ``position`` and the goal's tricks
    already won."""
    team, counted, fewest = _sides(position, goal)
    if fewest:
        team = frozenset(range(position.model.players)) - team
    won = sum(position.books[s] for s in counted)
    return Search(position, team, counted), won


def solve(game: GameState, goal: Goal | None = None, *, values: bool = False) -> Solution:
    """Return the double-dummy result of ``game`` (a state in play) for ``goal``.

    ``goal`` defaults to the side of the seat to act.  With ``values=True`` the
    solution also gives the result after each legal card of the seat to act.  A state
    the solver cannot analyse raises :class:`~spadeskit.analysis.AnalysisUnsupported`.

    >>> import spadeskit
    >>> from spadeskit.analysis import Goal, solve
    >>> rules = spadeskit.load_rules("standard", house_rules=["spades-anytime"])
    >>> game = rules.new_game(deal=["AS KS", "QS JS", "AH KH", "QH JH"])
    >>> game = game.apply(spadeskit.Bid(2)).apply(spadeskit.Bid(0))
    >>> game = game.apply(spadeskit.Bid(0)).apply(spadeskit.Bid(0))
    >>> solve(game).tricks, solve(game, Goal(1)).tricks
    (2, 0)
    """
    position = position_of(game)
    goal = Goal(position.to_act) if goal is None else goal
    search, won = search_for(position, goal)
    tricks = won + search.value()
    found: list[tuple[Card, int]] = []
    if values:
        for run in search.runs(search.legal()):
            value = won + search.value_after(run[0])
            found.extend((card_at(card), value) for card in run)
        found.sort()
    return Solution(goal, tricks, tuple(found), search.nodes)


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
