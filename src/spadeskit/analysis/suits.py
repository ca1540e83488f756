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

from spadeskit.analysis.position import FIRST_TRICK, FOLLOW, UNBROKEN, PlayModel, Position

__all__ = ["SuitSearch"]

MOVES = 20
"""Room for the candidate cards of one ply (one card a run: at most a hand's size)."""

KILLER = 14
"""What a lead weighs more for having refuted the last lead searched at its trick."""


def _count(mask: int) -> int:
    """Return the number of bits set in ``mask``."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def _top(mask: int, count: int) -> int:
    """Return the ``count`` highest bits of ``mask``."""
    found = 0
    for _ in range(count):
        bit = 1 << (mask.bit_length() - 1)
        found |= bit
        mask ^= bit
    return found


class Entry:
    """A result in the transposition table: the bounds proved, and for each suit the
    number of its cards in play that are small (``drop0`` …) and the holders of the
    others, strongest first (``tops0`` …: see :meth:`SuitSearch._code`)."""

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high
        self.drop0 = self.drop1 = self.drop2 = self.drop3 = 0
        self.tops0 = self.tops1 = self.tops2 = self.tops3 = 0


class SuitSearch:
    """A double-dummy search from one :class:`Position` of a rule set whose model plays
    by suits (``model.by_suits``), for one goal: ``team`` holds the seats that play for
    the most counted tricks (every other seat for the fewest), ``counted`` the seats
    whose tricks count.  The transposition table is kept between calls.
    """

    def __init__(self, position: Position, team: frozenset[int], counted: frozenset[int]) -> None:
        model: PlayModel = position.model
        assert model.suit_rules is not None and model.by_suits and len(model.order) == 4
        self.model = model
        n = self.n = model.players
        self.bits = 1 if n <= 2 else 2
        self.follow = False
        self.unbroken_when = 0
        self.unbroken_keep = -1
        self.first_keep = -1
        for kind, when, keep in model.suit_rules:
            if kind == FOLLOW:
                self.follow = True
            elif kind == UNBROKEN:
                self.unbroken_when, self.unbroken_keep = when, keep
            elif kind == FIRST_TRICK:
                self.first_keep = keep
        maximizes = [s in team for s in range(n)]
        counts = [1 if s in counted else 0 for s in range(n)]
        self.team = sum(1 << s for s in team)
        self.counted = sum(1 << s for s in counted)
        # Sides hold together when every seat of each side counts alike: then a
        # partner's trick is as good as one's own, and the bounds may say so.
        self.together = all(
            counts[a] == counts[b]
            for a in range(n)
            for b in range(n)
            if maximizes[a] == maximizes[b]
        )
        self.team_counts = next(counts[s] for s in range(n) if maximizes[s])
        others = [counts[s] for s in range(n) if not maximizes[s]]
        self.others_count = others[0] if others else self.team_counts
        self.trump = model.trump_suit
        # The places: card ``order[s][i]`` of suit ``s`` (strongest first) sits at bit
        # ``base[s] + len(order[s]) - 1 - i``.
        base = []
        masks = []
        total = 0
        for cards in model.order:
            base.append(total)
            masks.append(((1 << len(cards)) - 1) << total)
            total += len(cards)
        self.base = base
        self.masks = masks
        self.width = total
        card_at = [0] * total
        place = [-1] * 64
        suit_at = [0] * total
        for suit, cards in enumerate(model.order):
            for i, card in enumerate(cards):
                at = base[suit] + len(cards) - 1 - i
                card_at[at] = card
                place[card] = at
                suit_at[at] = suit
        self.card_at = card_at
        self.place = place
        self.suit_at = suit_at
        self.values = [row[card_at[at]] for row in model.rows for at in range(total)]
        self.ruffs = list(model.ruffs)
        ruff_masks = []
        for ruffs in model.ruffs:
            found = 0
            for suit in range(4):
                if ruffs >> suit & 1:
                    found |= masks[suit]
            ruff_masks.append(found)
        self.ruff_masks = ruff_masks
        # The hands (place masks, one attribute a seat), the cards in play (in hands
        # or in the trick under way) and the trick under way.
        self.h0 = self.h1 = self.h2 = self.h3 = 0
        for seat, hand in enumerate(position.hands):
            self._put(seat, self._places(hand))
        self.alive = self.h0 | self.h1 | self.h2 | self.h3
        self.length = 0
        self.lead = 0
        self.best = -1
        self.best_seat = -1
        self.best_place = -1
        self.trick = 0
        self.broken = 0
        for card in range(64):
            if position.played >> card & 1 and place[card] >= 0:
                self.broken |= 1 << suit_at[place[card]]
        self.done = position.done
        for seat, card in position.trick:
            at = place[card]
            self.alive |= 1 << at
            self._enter(seat, at)
        self.seat = position.to_act
        count = _count(self.h0) + _count(self.h1) + _count(self.h2) + _count(self.h3)
        self.tricks = (count + self.length) // n
        # Each ply's candidate cards and their weights, ``MOVES`` a ply.
        plies = (position.done + self.tricks + 1) * n
        self.moves = [0] * (plies * MOVES)
        self.weights = [0] * (plies * MOVES)
        # The lead that last refuted a lead at each trick (a "killer"), tried earlier.
        self.killers = [-1] * plies
        self.win = 0
        self.quick_win = 0
        self.threat = -1
        self.help = -1
        self.held = False
        self.code0 = self.code1 = self.code2 = self.code3 = 0
        self.table: dict[int, list[Entry]] = {}
        self.nodes = 0

    def _places(self, cards: int) -> int:
        """Return the place mask of a mask of card indices."""
        found = 0
        while cards:
            low = cards & -cards
            found |= 1 << self.place[low.bit_length() - 1]
            cards ^= low
        return found

    def _hand(self, seat: int) -> int:
        if seat == 0:
            return self.h0
        if seat == 1:
            return self.h1
        if seat == 2:
            return self.h2
        return self.h3

    def _put(self, seat: int, hand: int) -> None:
        if seat == 0:
            self.h0 = hand
        elif seat == 1:
            self.h1 = hand
        elif seat == 2:
            self.h2 = hand
        else:
            self.h3 = hand

    def _enter(self, seat: int, at: int) -> None:
        """Put the card at ``at`` into the trick for ``seat`` (it already left the
        hand)."""
        suit = self.suit_at[at]
        if not self.length:
            self.lead = suit
        value = self.values[self.lead * self.width + at]
        if value > self.best:
            self.best = value
            self.best_seat = seat
            self.best_place = at
        self.trick |= 1 << at
        self.length += 1
        self.broken |= 1 << suit

    # ----------------------------------------------------------------------------------
    # What the rest of the solver asks: legal cards, runs, values
    # ----------------------------------------------------------------------------------

    def left(self) -> int:
        """Return the number of tricks still to finish, the one in progress included."""
        return self.tricks

    def legal(self) -> int:
        """Return the mask of cards (card indices) the seat to act may play."""
        places = self._legal(self.seat)
        found = 0
        while places:
            low = places & -places
            found |= 1 << self.card_at[low.bit_length() - 1]
            places ^= low
        return found

    def runs(self, legal: int) -> list[list[int]]:
        """Return the cards of ``legal`` (a mask of card indices of the seat to act)
        grouped into runs of equivalent cards, strongest first."""
        runs: list[list[int]] = []
        for suit in range(4):
            run: list[int] | None = None
            at = self.base[suit] + _count(self.masks[suit]) - 1
            while at >= self.base[suit]:
                if self.alive >> at & 1:
                    card = self.card_at[at]
                    if legal >> card & 1:
                        if run is None:
                            run = [card]
                            runs.append(run)
                        else:
                            run.append(card)
                    else:
                        run = None
                at -= 1
        return runs

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

    def _finish(self) -> None:
        """End the full trick: its cards leave play and its winner leads."""
        self.alive ^= self.trick
        self.trick = 0
        self.length = 0
        self.seat = self.best_seat
        self.done += 1
        self.tricks -= 1
        self.best = -1

    def _unfinish(self, gone: int) -> None:
        """Take back :meth:`_finish` of the trick of the cards ``gone``."""
        self.alive ^= gone
        self.trick = gone
        self.length = self.n
        self.done -= 1
        self.tricks += 1

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

    def _run(self, hand: int, at: int) -> int:
        """Return the run of equivalent cards of ``hand`` that the card at ``at``
        heads: its cards below it with no other card in play between."""
        mask = self.masks[self.suit_at[at]]
        below = self.alive & ~hand & mask & ((1 << at) - 1)
        return hand & mask & ((2 << at) - (1 << below.bit_length()))

    # ----------------------------------------------------------------------------------
    # Legal suits, and the cards to try in order
    # ----------------------------------------------------------------------------------

    def _legal_suits(self, seat: int) -> int:
        """Return the suits (a bit each) from which ``seat`` may play now."""
        hand = self._hand(seat)
        masks = self.masks
        allowed = 0
        for suit in range(4):
            if hand & masks[suit]:
                allowed |= 1 << suit
        if self.length:
            if self.follow:
                kept = allowed & (1 << self.lead)
                if kept:
                    allowed = kept
        elif self.unbroken_keep >= 0 and not self.broken & self.unbroken_when:
            kept = allowed & self.unbroken_keep
            if kept:
                allowed = kept
        if self.first_keep >= 0 and not self.done:
            kept = allowed & self.first_keep
            if kept:
                allowed = kept
        return allowed

    def _legal(self, seat: int) -> int:
        """Return the places of the cards ``seat`` may play now."""
        allowed = self._legal_suits(seat)
        found = 0
        for suit in range(4):
            if allowed >> suit & 1:
                found |= self.masks[suit]
        return found & self._hand(seat)

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
            length = _count(held)
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
                w = weight + (42 if second_holder == seat else 28) + _count(alive & ((1 << at) - 1))
            elif partner_ruffs and not enemy_ruffs:
                w = weight + 25 - (at - base)
            elif at == second and self._run(hand, at) != 1 << at:
                w = weight + 40
            elif top_holder == seat:
                w = weight - 3 + _count(alive & ((1 << at) - 1))
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
        length = _count(mine)
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

    # ----------------------------------------------------------------------------------
    # Sure tricks
    # ----------------------------------------------------------------------------------

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
                count = _count(mine >> against.bit_length())
                if not count:
                    continue
                if not together:
                    # Only a seat's own tricks are known to be its own.
                    counted = self.counted >> holder & 1
                    if counted and count >= target or not counted and left - count < target:
                        self.win = _top(mine, count)
                        return counted
                elif self.team >> holder & 1:
                    if count > most1:
                        most1, where1 = count, _top(mine, count)
                elif count > most0:
                    most0, where0 = count, _top(mine, count)
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
                        free = _count(cards & ~ruffs)
                        if entry >= 0 and not ruffs & self.masks[entry_suit]:
                            free -= 1
                        if free < spare:
                            spare = free
                        continue
                    length = _count(held) - (1 if suit == entry_suit else 0)
                    if length < rounds:
                        rounds = length
            count = _count(mine >> others.bit_length())
            if count > rounds:
                count = rounds
            if count > 0:
                if ruffs:
                    ruffable += count
                else:
                    total += count
                win |= _top(mine, count)
        self.quick_win = win
        return total + (ruffable if ruffable < spare else spare)

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
            key = key << 4 | _count(hand & masks[0])
            key = key << 4 | _count(hand & masks[1])
            key = key << 4 | _count(hand & masks[2])
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
            return _count(alive)
        return _count(alive & ((ranks & -ranks) - 1))

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
