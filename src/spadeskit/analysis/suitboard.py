"""The suit search's board: a position's cards as place masks, and what the rules allow.

:class:`SuitBoard` keeps the cards of a position as the suit search
(:mod:`spadeskit.analysis.suits`) plays and takes them back: each card is a bit of a
*place* mask, suit after suit, weakest first within a suit, so that the cards of a suit
above a card are the higher bits of its suit; each hand is one int attribute, and the
trick under way is kept as its lead, its best card and its cards.  It answers what the
rules allow (the suits a seat may play from, by the rule set's suit rules) and what the
rest of the solver asks (legal cards, runs of equivalent cards).  Plain typed Python
that the compiled core also compiles (mypyc).
"""

from __future__ import annotations

from spadeskit.analysis.position import FIRST_TRICK, FOLLOW, UNBROKEN, PlayModel, Position

__all__ = ["KILLER", "MOVES", "Entry", "SuitBoard", "highest", "ones"]

MOVES = 20
"""Room for the candidate cards of one ply (one card a run: at most a hand's size)."""

KILLER = 14
"""What a lead weighs more for having refuted the last lead searched at its trick."""


def ones(mask: int) -> int:
    """Return the number of bits set in ``mask``."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def highest(mask: int, count: int) -> int:
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
    others, strongest first (``tops0`` …: see
    :meth:`spadeskit.analysis.suits.SuitSearch._code`)."""

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high
        self.drop0 = self.drop1 = self.drop2 = self.drop3 = 0
        self.tops0 = self.tops1 = self.tops2 = self.tops3 = 0


class SuitBoard:
    """The cards of a position of a rule set whose model plays by suits
    (``model.by_suits``), for one goal: ``team`` holds the seats that play for the most
    counted tricks (every other seat for the fewest), ``counted`` the seats whose tricks
    count.  The searches' state (candidate cards, the table, what a result rests on)
    lives here too, so that the classes built on it share one set of attributes.
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
        count = ones(self.h0) + ones(self.h1) + ones(self.h2) + ones(self.h3)
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
            at = self.base[suit] + ones(self.masks[suit]) - 1
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

    def _run(self, hand: int, at: int) -> int:
        """Return the run of equivalent cards of ``hand`` that the card at ``at``
        heads: its cards below it with no other card in play between."""
        mask = self.masks[self.suit_at[at]]
        below = self.alive & ~hand & mask & ((1 << at) - 1)
        return hand & mask & ((2 << at) - (1 << below.bit_length()))

    # ----------------------------------------------------------------------------------
    # Legal suits
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
