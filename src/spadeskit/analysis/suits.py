"""The double-dummy search on suits: the fast path for rules that refuse cards by suit.

When every play filter of a rule set refuses a card for its effective suit alone
(:attr:`PlayModel.suit_rules <spadeskit.analysis.position.PlayModel>`) and every trick
is won by a suit that ruffs, else by rank within the suit led, the search can do what
bridge solvers do (Bo Haglund's DDS):

* each card is a bit of a *place* mask, suit after suit, weakest first within a suit,
  so that the cards of a suit above a card are the higher bits of its suit;
* the transposition table keys a position at the start of a trick by the leader, which
  suits have been played and each hand's length in each suit, and keeps, under that key,
  the *winning ranks* of each result: the cards whose rank decided a trick somewhere in
  the search that proved it.  Every card of a suit ranked below all of those is a small
  card that could have been any other, so one entry answers for every position whose
  higher cards are held the same way, whatever became of the small ones;
* it stops at once on tricks that are sure: each side's top trumps, the leader's
  winners that nobody can ruff, or its lead to a partner's winner and the partner's;
* it plays one card of each run of equivalent cards and tries the likeliest good card
  first (cash winners, lead to a partner's winner or ruff, keep off suits the opponents
  are long in, second hand low, win as cheaply as one can, discard from long suits).

:class:`SuitSearch` answers the same questions as
:class:`~spadeskit.analysis.search.Search`, which plays every other rule set the solver
follows.  The module is plain typed Python that the compiled core also compiles (mypyc);
it keeps its state in plain int attributes and lists of small ints, which the compiled
code reads and writes without allocating.
"""

from __future__ import annotations

from spadeskit.analysis.suitboard import MOVES, Entry, ones
from spadeskit.analysis.suitmoves import SuitBounds

__all__ = ["SuitSearch"]


class SuitSearch(SuitBounds):
    """A double-dummy search from one :class:`~spadeskit.analysis.position.Position` of a
    rule set whose model plays by suits (``model.by_suits``), for one goal: ``team``
    holds the seats that play for the most counted tricks (every other seat for the
    fewest), ``counted`` the seats whose tricks count.  The transposition table is kept
    between calls.  The board, the order of the cards and the sure tricks are its bases
    (:mod:`spadeskit.analysis.suitboard`, :mod:`spadeskit.analysis.suitmoves`).
    """

    def value(self) -> int:
        """Return the counted tricks still to come (the trick in progress included)."""
        low, high = 0, self.tricks
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
        at = self.place[card]
        seat = self.seat
        bit = 1 << at
        saved = (self.lead, self.best, self.best_seat, self.best_place, self.broken, self.trick)
        self._put(seat, self._hand(seat) ^ bit)
        self._enter(seat, at)
        won = 0
        gone = self.trick
        full = self.length == self.n
        if full:
            won = self.counted >> self.best_seat & 1
            self._finish()
        else:
            self.seat = seat + 1 if seat + 1 < self.n else 0
        try:
            target = hint - won
            if 0 <= target <= self.tricks:
                if self.reaches(target):
                    if target >= self.tricks or not self.reaches(target + 1):
                        return hint
                elif self.reaches(target - 1):
                    return hint - 1
            return won + self.value()
        finally:
            if full:
                self._unfinish(gone)
            self.length -= 1
            self.lead, self.best, self.best_seat, self.best_place, self.broken, self.trick = saved
            self._put(seat, self._hand(seat) ^ bit)
            self.seat = seat

    # ----------------------------------------------------------------------------------
    # The search
    # ----------------------------------------------------------------------------------

    def reaches(self, target: int) -> bool:
        """Return whether the team can take at least ``target`` more counted tricks.

        Leaves in ``self.win`` the cards (a place mask) whose ranks the answer depends
        on."""
        self.nodes += 1
        if self.length:
            if (target == 1 or target == self.tricks) and self.together:
                sure = self._trick_sure(target)
                if sure >= 0:
                    return sure == 1
            return self._move(target)
        if target <= 0:
            self.win = 0
            return True
        if target > self.tricks:
            self.win = 0
            return False
        key = self._key()
        entries = self.table.get(key)
        code0 = code1 = code2 = code3 = -1
        if entries is not None:
            self._codes()
            code0, code1, code2, code3 = self.code0, self.code1, self.code2, self.code3
            for entry in entries:
                if entry.low < target <= entry.high:
                    continue
                if (
                    self.code0 >> (self.bits * entry.drop0) == entry.tops0
                    and self.code1 >> (self.bits * entry.drop1) == entry.tops1
                    and self.code2 >> (self.bits * entry.drop2) == entry.tops2
                    and self.code3 >> (self.bits * entry.drop3) == entry.tops3
                ):
                    self.win = self._region(entry)
                    return entry.low >= target
        sure = self._sure(target)
        if sure >= 0:
            return sure == 1
        result = self._move(target)
        if entries is None:
            entries = self.table[key] = []
            self._codes()
        else:  # the search below used them too
            self.code0, self.code1, self.code2, self.code3 = code0, code1, code2, code3
        self._store(entries, target, result)
        return result

    def _move(self, target: int) -> bool:
        seat = self.seat
        n = self.n
        maximizing = self.team >> seat & 1 == 1
        first = (self.done * n + self.length) * MOVES
        count = self._ordered(seat, first)
        hand = self._hand(seat)
        lead, best, best_seat = self.lead, self.best, self.best_seat
        best_place, broken, trick = self.best_place, self.broken, self.trick
        union = 0
        skip = 0
        for k in range(first, first + count):
            at = self.moves[k]
            if skip >> at & 1:
                continue
            bit = 1 << at
            self._put(seat, hand ^ bit)
            self._enter(seat, at)
            if self.length == n:
                winner = self.best_seat
                place = self.best_place
                # A rank decided the trick when the winner beat a card of its suit.
                same = self.trick & self.masks[self.suit_at[place]]
                decided = 1 << place if same & (same - 1) else 0
                gone = self.trick
                self._finish()
                result = self.reaches(target - (self.counted >> winner & 1))
                self._unfinish(gone)
                found = self.win | decided
            else:
                self.seat = seat + 1 if seat + 1 < n else 0
                result = self.reaches(target)
                found = self.win
            self.length -= 1
            self.seat = seat
            self.lead, self.best, self.best_seat = lead, best, best_seat
            self.best_place, self.broken, self.trick = best_place, broken, trick
            self._put(seat, hand)
            if result == maximizing:
                if not self.length:
                    self.killers[first // MOVES] = at
                self.win = found
                return result
            mask = self.masks[self.suit_at[at]]
            run = self._run(hand, at)
            if found & run:
                # The card stood for its run: the others of the run were equal to it
                # only while no card fell between them.
                found |= run
            union |= found
            if not skip & mask:
                # A card below every rank that decided a trick below it stands for
                # every other such card of its suit: they need no search.
                ranks = union & mask
                low = ranks & -ranks if ranks else mask + (mask & -mask)
                if bit < low:
                    skip |= mask & (low - 1)
        self.win = union
        return not maximizing

    # ----------------------------------------------------------------------------------
    # The transposition table
    # ----------------------------------------------------------------------------------

    def _key(self) -> int:
        """Return the key of a position at the start of a trick: the leader, the suits
        played (those the rules read), whether it is the first trick, the tricks left
        and each hand's length in three suits (the fourth follows)."""
        key = self.seat << 4 | (self.broken & self.unbroken_when)
        key = (key << 1 | (1 if self.done == 0 else 0)) << 5 | self.tricks
        masks = self.masks
        for seat in range(self.n):
            hand = self._hand(seat)
            key = key << 4 | ones(hand & masks[0])
            key = key << 4 | ones(hand & masks[1])
            key = key << 4 | ones(hand & masks[2])
        return key

    def _code(self, suit: int) -> int:
        """Return the holders of the cards of ``suit`` in play, strongest first,
        ``bits`` bits a card."""
        bits = self.bits
        alive = self.alive & self.masks[suit]
        h0, h1, h2 = self.h0, self.h1, self.h2
        code = 0
        while alive:
            bit = 1 << (alive.bit_length() - 1)
            if h0 & bit:
                code <<= bits
            elif h1 & bit:
                code = code << bits | 1
            elif h2 & bit:
                code = code << bits | 2
            else:
                code = code << bits | 3
            alive ^= bit
        return code

    def _codes(self) -> None:
        self.code0 = self._code(0)
        self.code1 = self._code(1)
        self.code2 = self._code(2)
        self.code3 = self._code(3)

    def _region(self, entry: Entry) -> int:
        """Return the cards an entry rests on, here: the top cards of each suit."""
        return (
            self._tops(0, entry.drop0)
            | self._tops(1, entry.drop1)
            | self._tops(2, entry.drop2)
            | self._tops(3, entry.drop3)
        )

    def _tops(self, suit: int, drop: int) -> int:
        alive = self.alive & self.masks[suit]
        for _ in range(drop):
            alive &= alive - 1
        return alive

    def _drop(self, suit: int) -> int:
        """Return how many cards of ``suit`` in play are below every card of
        ``self.win`` (all of them when it holds none)."""
        alive = self.alive & self.masks[suit]
        ranks = self.win & alive
        if not ranks:
            return ones(alive)
        return ones(alive & ((ranks & -ranks) - 1))

    def _store(self, entries: list[Entry], target: int, result: bool) -> None:
        """Keep the result (``result`` for ``target``) with the cards it rests on."""
        bits = self.bits
        drop0, drop1, drop2, drop3 = self._drop(0), self._drop(1), self._drop(2), self._drop(3)
        tops0 = self.code0 >> (bits * drop0)
        tops1 = self.code1 >> (bits * drop1)
        tops2 = self.code2 >> (bits * drop2)
        tops3 = self.code3 >> (bits * drop3)
        for entry in entries:
            if (
                entry.drop0 == drop0
                and entry.drop1 == drop1
                and entry.drop2 == drop2
                and entry.drop3 == drop3
                and entry.tops0 == tops0
                and entry.tops1 == tops1
                and entry.tops2 == tops2
                and entry.tops3 == tops3
            ):
                if result:
                    if target > entry.low:
                        entry.low = target
                elif target - 1 < entry.high:
                    entry.high = target - 1
                return
        entry = Entry(target, self.tricks) if result else Entry(0, target - 1)
        entry.drop0, entry.drop1, entry.drop2, entry.drop3 = drop0, drop1, drop2, drop3
        entry.tops0, entry.tops1, entry.tops2, entry.tops3 = tops0, tops1, tops2, tops3
        entries.append(entry)
