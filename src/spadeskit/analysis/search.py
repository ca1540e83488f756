"""The double-dummy search: alpha-beta on null windows over card masks.

:class:`Search` answers yes/no questions ("can the team take at least *k* more counted
tricks?") by alpha-beta on that null window, and :meth:`Search.value` narrows *k* by
binary search, as bridge solvers do.  It keeps, for each position at the start of a
trick, the bounds it has proved (a transposition table keyed by who holds each suit's
cards still in play, in order, so that the same pattern reached with other cards or in
another order is looked up, not searched again), stops early on tricks that are sure
(cards nothing beats; the leader's cards nothing beats in their suit), plays only one
card of each run of equivalent cards and tries the likeliest good cards first.

It reads the rules only through :class:`~spadeskit.analysis.position.PlayModel`.  The
module is plain typed Python that the compiled core also compiles (mypyc).
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit.analysis.position import PlayModel, Position

__all__ = ["Board", "Reads", "Search"]


class Reads:
    """What a play filter reads of the hand in play, and nothing else: the trick so far
    (``(seat, card index)`` pairs), the mask of the cards played and the finished tricks
    (only their number is read, so ``tricks`` is a ``range``)."""

    __slots__ = ("played", "trick", "tricks")

    def __init__(self) -> None:
        self.trick: tuple[tuple[int, int], ...] = ()
        self.played = 0
        self.tricks: Sequence[object] = range(0)


class Board:
    """The cards of a position as the search plays and takes them back, and what they
    offer: the legal cards, runs of equivalent cards in the order to try them, sure
    tricks and the transposition key.

    ``team`` holds the seats that play for the most counted tricks (every other seat for
    the fewest), ``counted`` the seats whose tricks count.
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
        self.relative = model.relative
        # Suits whose cards rank in index order: their runs are found with bit masks.
        self.by_index = tuple(all(a > b for a, b in zip(cards, cards[1:])) for cards in model.order)
        self.by_row = model.by_row
        self.dominates = model.dominates
        self.masters = model.masters
        self.patterns: dict[tuple[int, ...], int] = {}
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0

    def left(self) -> int:
        """Return the number of tricks still to finish, the one in progress included."""
        cards = sum(hand.bit_count() for hand in self.hands) + len(self.trick)
        return cards // self.n

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
    # Bounds, keys and the order of the cards
    # ----------------------------------------------------------------------------------

    def _key(self) -> tuple[int, ...]:
        """Return the transposition key at the start of a trick: the leader, which suits
        have been played, and each suit's pattern of holders among its cards still in
        play, strongest first (the cards themselves do not matter, only their order)."""
        hands = self.hands
        played = self.reads.played
        flags = 0
        parts = [self.seat, 0]
        patterns = self.patterns
        for suit, mask in enumerate(self.suit_mask):
            flags = flags << 1 | (played & mask != 0)
            part = tuple([hand & mask for hand in hands])
            pattern = patterns.get(part)
            if pattern is None:
                if len(patterns) > 1 << 20:
                    patterns.clear()
                pattern = patterns[part] = self._pattern(part, suit)
            parts.append(pattern)
        parts[1] = flags
        return tuple(parts)

    def _pattern(self, part: tuple[int, ...], suit: int) -> int:
        """Return who holds each card of ``suit`` still in play, strongest first, as
        one number (a leading 1, then one digit in base ``n`` a card)."""
        code = 1
        n = self.n
        for card in self.order[suit]:
            bit = 1 << card
            for seat, hand in enumerate(part):
                if hand & bit:
                    code = code * n + seat
                    break
        return code

    def _masters(self) -> tuple[int, int]:
        """Return the seat holding the cards that beat every card of the other hands
        whatever is led, and how many it holds (each one a trick it will win)."""
        hands = self.hands
        dominates = self.dominates
        alive = 0
        for hand in hands:
            alive |= hand
        holder, sure = -1, 0
        for card in self.masters:
            bit = 1 << card
            if not alive & bit:
                continue
            if holder < 0:
                for seat, hand in enumerate(hands):
                    if hand & bit:
                        holder = seat
            if not hands[holder] & bit or alive & ~hands[holder] & ~dominates[card]:
                break
            sure += 1
        return holder, sure

    def _quick(self) -> int:
        """Return the tricks the leader can cash at once: in each suit it may lead, its
        cards that no card of another hand beats when that suit is led."""
        seat = self.seat
        hands = self.hands
        hand = hands[seat]
        others = 0
        for other in hands:
            others |= other
        others &= ~hand
        reads = self.reads
        reads.trick = ()
        leads: int = self.check(reads, seat, hand)  # type: ignore[arg-type]
        quick = 0
        for suit, mask in enumerate(self.suit_mask):
            if not leads & mask:
                continue
            for card in self.by_row[suit]:
                bit = 1 << card
                if others & bit:
                    break
                if hand & bit & mask:
                    quick += 1
        return quick

    def _heads(self, legal: int, trick: tuple[tuple[int, int], ...]) -> list[int]:
        """Return the strongest card of each run of equivalent legal cards of the seat
        to act, suit by suit, strongest first within a suit."""
        if not self.merges:
            return _indices(legal)
        alive = 0
        for other in self.hands:
            alive |= other
        for _, card in trick:
            alive |= 1 << card
        blockers = alive & ~legal
        heads: list[int] = []
        for suit, mask in enumerate(self.suit_mask):
            mine = legal & mask
            if not mine:
                continue
            if self.by_index[suit]:
                others = blockers & mask
                above = -1
                while mine:
                    top = mine.bit_length() - 1
                    if above < 0 or others & ((1 << above) - (2 << top)):
                        heads.append(top)
                    above = top
                    mine ^= 1 << top
                continue
            run = False
            for card in self.order[suit]:
                bit = 1 << card
                if mine & bit:
                    if not run:
                        heads.append(card)
                        run = True
                elif blockers & bit:
                    run = False
        return heads

    def _ordered(self, seat: int, trick: tuple[tuple[int, int], ...], legal: int) -> list[int]:
        """Return one card of each run, the likeliest best first."""
        cards = self._heads(legal, trick)
        if not trick:
            # Leads: the strongest card of each suit, then the lowest, then the rest.
            suit_of = self.suit_of
            tops, lows, middles = [], [], []
            for k, card in enumerate(cards):
                if k == 0 or suit_of[cards[k - 1]] != suit_of[card]:
                    tops.append(card)
                elif k + 1 == len(cards) or suit_of[cards[k + 1]] != suit_of[card]:
                    lows.append(card)
                else:
                    middles.append(card)
            return tops + lows + middles
        row = self.rows[self.suit_of[trick[0][1]]]
        best_seat, best = -1, -1
        for who, card in trick:
            if row[card] > best:
                best_seat, best = who, row[card]
        cards.sort(key=row.__getitem__)
        if self.maximizes[best_seat] is self.maximizes[seat]:
            return cards  # the side is winning the trick: play low
        # Otherwise the cheapest card that wins it, then the lowest cards.
        winners = [c for c in cards if row[c] > best]
        return winners + cards[: len(cards) - len(winners)] if winners else cards


class Search(Board):
    """A double-dummy search from one :class:`Position`, for one goal (see
    :class:`Board`).  The transposition table is kept between calls, so several
    questions about one position share their work.
    """

    # ----------------------------------------------------------------------------------
    # Questions
    # ----------------------------------------------------------------------------------

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

    def value_after(self, card: int, hint: int = -1) -> int:
        """Return the counted tricks still to come (this trick included) after the seat
        to act plays ``card`` (a card index it may play).  ``hint``, when given, is a
        likely value (the position's own): it is tried first."""
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
            target = hint - won
            if 0 <= target <= self.left():
                if self.reaches(target):
                    if target >= self.left() or not self.reaches(target + 1):
                        return hint
                elif self.reaches(target - 1):
                    return hint - 1
            return won + self.value()
        finally:
            if len(trick) == self.n:
                self.done -= 1
                reads.tricks = self.ranges[self.done]
            self.trick, self.seat = trick[:-1], seat
            reads.played ^= bit
            self.hands[seat] ^= bit

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
        seat = self.seat
        holder, sure = self._masters()
        if sure:
            if self.counts[holder]:
                if sure >= target:
                    return True
            elif left - sure < target:
                return False
        quick = self._quick()
        if quick:
            if self.maximizes[seat]:
                if self.counts[seat] and quick >= target:
                    return True
            elif not self.counts[seat] and left - quick < target:
                return False
        key = self._key() if self.relative else (*hands, seat)
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


def _indices(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found
