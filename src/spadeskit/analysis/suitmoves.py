"""The suit search's move ordering and sure tricks.

:class:`SuitMoves` writes each ply's candidate cards, one card a run of equivalent
cards, the likeliest best first (cash winners, lead to a partner's winner or ruff, keep
off suits the opponents are long in, second hand low, win as cheaply as one can, discard
from long suits); :class:`SuitBounds` counts the tricks that are sure before any search
(each side's top trumps, the leader's winners nobody can ruff, a lead to a partner's
winner and the partner's) and the trick under way that a side cannot lose.  Plain typed
Python that the compiled core also compiles (mypyc).
"""

from __future__ import annotations

from spadeskit.analysis.suitboard import KILLER, MOVES, SuitBoard, highest, ones

__all__ = ["SuitBounds", "SuitMoves"]


class SuitMoves(SuitBoard):
    """A :class:`~spadeskit.analysis.suitboard.SuitBoard` that orders the cards to try."""

    def _ordered(self, seat: int, first: int) -> int:
        """Write one card (a place) of each run of equivalent legal cards of ``seat``
        to ``moves[first:]``, the likeliest best first, and return how many."""
        hand = self._hand(seat)
        allowed = self._legal_suits(seat)
        leading = not self.length
        if not leading:
            self._survey(seat)
        end = first
        for suit in range(4):
            if not allowed >> suit & 1:
                continue
            mask = self.masks[suit]
            mine = hand & mask
            others = self.alive & mask & ~mine
            start = end
            above = -1
            while mine:
                top = mine.bit_length() - 1
                if above < 0 or others & ((1 << above) - (2 << top)):
                    self.moves[end] = top
                    end += 1
                above = top
                mine ^= 1 << top
            if leading:
                self._lead_weights(seat, suit, start, end)
                killer = self.killers[first // MOVES]
                for k in range(start, end):
                    if self.moves[k] == killer:
                        self.weights[k] = min(256, self.weights[k] + KILLER)
            else:
                self._follow_weights(seat, suit, start, end)
        # Sort by weight, heaviest first (the lists are short).
        moves = self.moves
        weights = self.weights
        for i in range(first + 1, end):
            j = i
            while j > first and weights[j - 1] < weights[j]:
                weights[j - 1], weights[j] = weights[j], weights[j - 1]
                moves[j - 1], moves[j] = moves[j], moves[j - 1]
                j -= 1
        return end - first

    def _ruffer(self, seat: int, suit: int) -> bool:
        """Return whether ``seat`` could ruff a lead of ``suit`` (void, with a ruffing
        card)."""
        hand = self._hand(seat)
        return not hand & self.masks[suit] and hand & self.ruff_masks[suit] != 0

    def _lead_weights(self, seat: int, suit: int, start: int, end: int) -> None:
        """Weigh the leads of ``suit`` (``moves[start:end]``): cash winners nobody
        ruffs, lead towards a partner's winner or ruff, keep off suits the opponents are
        long in or ruff, and off a suit whose top the last hand holds."""
        n = self.n
        mask = self.masks[suit]
        alive = self.alive & mask
        maximizing = self.team >> seat & 1 == 1
        best = alive.bit_length() - 1
        second = (alive ^ (1 << best)).bit_length() - 1
        top_holder = second_holder = partner = -1
        left = seat + 1 if seat + 1 < n else 0  # the next hand
        right = seat - 1 if seat else n - 1  # the last to play
        weight = 0
        enemy_ruffs = partner_ruffs = False
        right_length = partner_length = 0
        for other in range(n):
            held = self._hand(other) & mask
            if held >> best & 1:
                top_holder = other
            if second >= 0 and held >> second & 1:
                second_holder = other
            if other == seat:
                continue
            length = ones(held)
            if other == right:
                right_length = length
            if (self.team >> other & 1 == 1) == maximizing:
                partner = other
                partner_length = length
                if not length and self._ruffer(other, suit):
                    partner_ruffs = True
                continue
            # The more cards the opponents may choose from, the larger the search.
            weight -= 20 * (length if length else self.tricks + 1)
            if not length and self._ruffer(other, suit):
                enemy_ruffs = True
        if enemy_ruffs:
            weight -= 12
        elif partner_ruffs:
            weight += 17
        friend_top = top_holder >= 0 and (self.team >> top_holder & 1 == 1) == maximizing
        if top_holder == right and right_length != 1:
            weight -= 12  # the last hand holds the top over us
        elif top_holder == left and second_holder == partner >= 0 and partner_length != 1:
            weight += 27  # lead through the next hand's top to partner's second
        base = self.base[suit]
        moves = self.moves
        weights = self.weights
        hand = self._hand(seat)
        for k in range(start, end):
            at = moves[k]
            if at == best:
                w = weight + (48 if second_holder == partner >= 0 else 31)
            elif friend_top:
                w = weight + (42 if second_holder == seat else 28) + ones(alive & ((1 << at) - 1))
            elif partner_ruffs and not enemy_ruffs:
                w = weight + 25 - (at - base)
            elif at == second and self._run(hand, at) != 1 << at:
                w = weight + 40
            elif top_holder == seat:
                w = weight - 3 + ones(alive & ((1 << at) - 1))
            else:
                w = weight + 11 - (at - base)
            # Small non-negative weights are shared int objects: storing them costs nothing.
            weights[k] = min(256, max(0, 180 + w // 4))

    def _survey(self, seat: int) -> None:
        """Note, for ``seat`` about to follow, whether its side wins the trick so far
        and surely (``self.held``), and the most the opponents and the partners still
        to play could play (``self.threat``, ``self.help``: values in the suit led)."""
        n = self.n
        lead = self.lead
        row = lead * self.width
        mask = self.masks[lead]
        ruffs = self.ruff_masks[lead]
        maximizing = self.team >> seat & 1 == 1
        threat = -1
        help_ = -1
        other = seat
        for _ in range(n - self.length - 1):
            other = other + 1 if other + 1 < n else 0
            hand = self._hand(other)
            held = hand & mask
            value = -1
            if held:
                value = self.values[row + held.bit_length() - 1]
            elif hand & ruffs:
                for suit in range(4):
                    cards = hand & ruffs & self.masks[suit]
                    if cards:
                        found = self.values[row + cards.bit_length() - 1]
                        if found > value:
                            value = found
            if (self.team >> other & 1 == 1) == maximizing:
                if value > help_:
                    help_ = value
            elif value > threat:
                threat = value
        self.threat = threat
        self.help = help_
        self.held = (self.team >> self.best_seat & 1 == 1) == maximizing and self.best > threat

    def _follow_weights(self, seat: int, suit: int, start: int, end: int) -> None:
        """Weigh the cards of ``suit`` (``moves[start:end]``) for ``seat`` following:
        low when its side has the trick, otherwise the cheapest card that surely wins
        it, no ruff of a partner's winner, discards from long suits."""
        row = self.lead * self.width
        best = self.best
        threat = self.threat
        beaten = best if best > threat else threat
        held = self.held
        base = self.base[suit]
        moves = self.moves
        weights = self.weights
        values = self.values
        if suit == self.lead:
            low = held or self.help > beaten  # or a partner still to play wins it
            for k in range(start, end):
                at = moves[k]
                rank = at - base
                weights[k] = 128 - rank if low or values[row + at] <= beaten else 188 - rank
            return
        mask = self.masks[suit]
        mine = self._hand(seat) & mask
        length = ones(mine)
        alive = self.alive & mask
        top = alive.bit_length() - 1
        add = (length << 6) // 40
        second = (alive ^ (1 << top)).bit_length() - 1
        if length == 2 and second >= 0 and mine >> second & 1:
            add -= 4  # keep a guarded second best
        elif length == 1 and mine >> top & 1:
            add -= 4  # keep a bare winner
        if self.ruffs[self.lead] >> suit & 1:
            for k in range(start, end):
                at = moves[k]
                value = values[row + at]
                rank = at - base
                if held:
                    weights[k] = 78 - rank  # do not ruff the partner's winner
                elif value > beaten:
                    weights[k] = 176 - rank + add
                elif value > best:
                    weights[k] = 148 - rank + add
                else:
                    weights[k] = 96 + rank + add
            return
        for k in range(start, end):
            weights[k] = (153 if held else 128) - (moves[k] - base) + add


class SuitBounds(SuitMoves):
    """:class:`SuitMoves` that also counts sure tricks (each answer leaves the cards it
    rests on in ``self.win``)."""

    def _sure(self, target: int) -> int:
        """Return 1 or 0 when sure tricks answer the question at the start of a trick
        (``self.win`` set to the cards they rest on), -1 when they do not."""
        n = self.n
        seat = self.seat
        left = self.tricks
        together = self.together
        # Top trumps: each of a hand's trumps above every opposing trump wins a trick
        # whatever is led (above every other trump, when sides do not hold together).
        trump = self.trump
        if trump >= 0:
            mask = self.masks[trump]
            most0 = most1 = 0
            where0 = where1 = 0
            ours = theirs = every = 0
            for holder in range(n):
                mine = self._hand(holder) & mask
                every |= mine
                if self.team >> holder & 1:
                    ours |= mine
                else:
                    theirs |= mine
            for holder in range(n):
                mine = self._hand(holder) & mask
                if not mine:
                    continue
                if not together:
                    against = every & ~mine
                elif self.team >> holder & 1:
                    against = theirs
                else:
                    against = ours
                count = ones(mine >> against.bit_length())
                if not count:
                    continue
                if not together:
                    # Only a seat's own tricks are known to be its own.
                    counted = self.counted >> holder & 1
                    if counted and count >= target or not counted and left - count < target:
                        self.win = highest(mine, count)
                        return counted
                elif self.team >> holder & 1:
                    if count > most1:
                        most1, where1 = count, highest(mine, count)
                elif count > most0:
                    most0, where0 = count, highest(mine, count)
            if together and self.team_counts != self.others_count:
                # The counted tricks are one side's: each side takes at least its top
                # trumps.
                if self.team_counts:
                    ours, where, theirs, there = most1, where1, most0, where0
                else:
                    ours, where, theirs, there = most0, where0, most1, where1
                if ours >= target:
                    self.win = where
                    return 1
                if left - theirs < target:
                    self.win = there
                    return 0
        # The leader's winners it can cash one after another.
        quick = self._quick(seat)
        if quick:
            counted = self.counted >> seat & 1
            maximizing = self.team >> seat & 1 == 1
            if maximizing and counted and quick >= target:
                self.win = self.quick_win
                return 1
            if not maximizing and not counted and left - quick < target:
                self.win = self.quick_win
                return 0
        return -1

    def _trick_sure(self, target: int) -> int:
        """Return 1 or 0 when the trick under way answers the question (the team needs
        it alone, or cannot lose it and take them all), -1 otherwise.

        Each side can win the trick if its best card (played, or legal for a seat
        still to play) beats every card the other side has played or could play;
        ``self.win`` is set to that card."""
        n = self.n
        row = self.lead * self.width
        masks = self.masks
        team = other = -1
        team_at = other_at = -1
        if self.team >> self.best_seat & 1:
            team, team_at = self.best, self.best_place
        else:
            other, other_at = self.best, self.best_place
        seat = self.seat
        for _ in range(n - self.length):
            legal = self._legal(seat)
            top = -1
            at = -1
            for suit in range(4):
                cards = legal & masks[suit]
                if cards:
                    place = cards.bit_length() - 1
                    value = self.values[row + place]
                    if value > top:
                        top, at = value, place
            if self.team >> seat & 1:
                if top > team:
                    team, team_at = top, at
            elif top > other:
                other, other_at = top, at
            seat = seat + 1 if seat + 1 < n else 0
        if team > other:
            if target == 1 and self.team_counts:
                self.win = 1 << team_at
                return 1
        elif other > team and target == self.tricks and not self.others_count:
            self.win = 1 << other_at
            return 0
        return -1

    def _quick(self, seat: int) -> int:
        """Return the tricks ``seat``, on lead, can take one after another: its own
        winners (see :meth:`_cash`), or, when sides hold together, a lead to a
        partner's winner that nobody can ruff and then the partner's winners.  Leave
        the cards they rest on in ``self.quick_win``."""
        quick = self._cash(seat, -1)
        if not self.together or self.n < 4:
            return quick
        win = self.quick_win
        n = self.n
        maximizing = self.team >> seat & 1 == 1
        allowed = self._legal_suits(seat)
        hand = self._hand(seat)
        for suit in range(4):
            mask = self.masks[suit]
            if not allowed >> suit & 1 or not hand & mask:
                continue
            top = (self.alive & mask).bit_length() - 1
            partner = -1
            safe = True
            ruffs = self.ruff_masks[suit]
            for other in range(n):
                held = self._hand(other)
                if held >> top & 1:
                    partner = other
                elif other != seat and not held & mask and held & ruffs:
                    safe = False
            if partner < 0 or partner == seat or not safe:
                continue
            if (self.team >> partner & 1 == 1) != maximizing:
                continue
            found = 1 + self._cash(partner, top)
            if found > quick:
                quick = found
                win = self.quick_win | 1 << top
        self.quick_win = win
        return quick

    def _cash(self, seat: int, entry: int) -> int:
        """Return the tricks ``seat``, on lead, can cash one after another, each won
        by itself: in each suit it may lead, its cards above every other hand's, as
        long as no opponent (and no partner forced to) can ruff them.  Leave the cards
        they rest on in ``self.quick_win``.

        With ``entry`` >= 0, count them after a trick that the seat won with its card
        at ``entry``, every other hand following in its suit."""
        n = self.n
        allowed = self._legal_suits(seat)
        together = self.together
        maximizing = self.team >> seat & 1 == 1
        entry_suit = self.suit_at[entry] if entry >= 0 else -1
        hand = self._hand(seat)
        if entry >= 0:
            hand ^= 1 << entry
        total = 0
        ruffable = 0
        win = 0
        # A partner holding trumps must follow or discard something else; it can keep
        # from ruffing for as many rounds as it holds cards outside the ruffing suits.
        spare = 64
        for suit in range(4):
            mask = self.masks[suit]
            mine = hand & mask
            if not allowed >> suit & 1 or not mine:
                continue
            ruffs = self.ruff_masks[suit]
            others = 0
            rounds = 64
            for other in range(n):
                if other == seat:
                    continue
                cards = self._hand(other)
                held = cards & mask
                others |= held
                if cards & ruffs:
                    if together and (self.team >> other & 1 == 1) == maximizing:
                        free = ones(cards & ~ruffs)
                        if entry >= 0 and not ruffs & self.masks[entry_suit]:
                            free -= 1
                        if free < spare:
                            spare = free
                        continue
                    length = ones(held) - (1 if suit == entry_suit else 0)
                    if length < rounds:
                        rounds = length
            count = ones(mine >> others.bit_length())
            if count > rounds:
                count = rounds
            if count > 0:
                if ruffs:
                    ruffable += count
                else:
                    total += count
                win |= highest(mine, count)
        self.quick_win = win
        return total + (ruffable if ruffable < spare else spare)
