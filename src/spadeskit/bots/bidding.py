"""What :class:`~spadeskit.bots.heuristic.HeuristicBot` reads from the table, and how it bids.

:class:`TableReading` holds the bot's picture of the rules (suits, strengths, sides,
options) and of the hand so far (voids shown, reneges seen, each side's need, this
trick's aim); :class:`HeuristicBidding` adds the trick count and the bidding, the
blind nil, the pick-up and the discards and exchanges.  The bot itself
(:mod:`spadeskit.bots.heuristic`) adds the card play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spadeskit.bots.basic import check_reset
from spadeskit.core.actions import (
    Action,
    Bid,
    BlindNil,
    Discard,
    Exchange,
    Nil,
    Pass,
    PickUp,
    Play,
    SeeCards,
    is_nil,
)
from spadeskit.core.cards import Card
from spadeskit.core.errors import SpadesError, shown
from spadeskit.core.views import View
from spadeskit.engine.rules import Rules

TRUMP = 3  # the effective suit index of spades (and of jokers and deuces in jjdd)

VERSION = 4
"""The round of the heuristic bot's play and bidding; ``version=3`` keeps round 3's."""

NIL_COUNT = 2.0
"""The most tricks a hand may count and still bid nil beside a partner (round 3 and
alone: 1.6)."""

SET_SLACK = 2
"""With its contract made, the bot still plays to win tricks while an opposing side
needs all but at most this many of the tricks left (it may yet be set)."""

# Card points of the 1970s three-handed game: A♠ 40, other aces 20, K Q J 10, 10-7 5.
_TST_POINTS = {14: 20, 13: 10, 12: 10, 11: 10, 10: 5, 9: 5, 8: 5, 7: 5}


def checked_version(version: object) -> int:
    """Return ``version`` if it names a round of the heuristic bot (3 or :data:`VERSION`);
    raise a ``SpadesError`` otherwise."""
    if type(version) is not int or version not in (3, VERSION):
        raise SpadesError(f"version is 3 or {VERSION}, not {shown(version, 20)}")
    return version


class TableReading:
    """The rules and the hand so far, as the heuristic bot reads them."""

    table_bids: bool
    """Whether the last bidders read the table's total (set by the bot's constructor)."""
    set_slack: int
    """See :data:`SET_SLACK` (set by the bot's constructor)."""
    version: int
    """The round whose play the bot plays: 3 plays exactly as round 3's bot did (set by
    the bot's constructor)."""

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Prepare to play ``seat`` under ``rules``."""
        self.rules = check_reset(self, seat, rules, rng)
        self.rng = rng
        ranking = rules.ranking
        self.suit_of = ranking.suit_of
        self.strength = ranking.strength
        self.deck = tuple(c.index for c in rules.table.deck)
        self.n = rules.table.players
        self.tricks = (len(self.deck) - rules.table.deal.blind) // self.n
        self.side_of = rules.side_of
        self.sides = rules.table.sides
        self.points_game = rules.variant == "three-suit-trump"
        self.options = rules.options
        # Overtricks cost something only where bags are counted against a side.
        self.bags_hurt = (
            isinstance(rules.options.get("bag_limit"), int) and "no-bags" not in rules.house_rules
        )
        # Overtricks cost where bags or jjdd's sandbags are counted against a side (in
        # call-break they are worth a little): only there do unbid tricks call for a bid.
        self.overtricks_cost = self.bags_hurt or rules.options.get("sandbag_penalty") is True
        # Per effective suit, the deck's cards from strongest to weakest.
        self.suit_cards: dict[int, list[int]] = {}
        for index in self.deck:
            self.suit_cards.setdefault(self.suit_of[index], []).append(index)
        for cards in self.suit_cards.values():
            cards.sort(key=lambda i: -self.strength[i])

    def _sides(self, view: View) -> tuple[int, list[int]]:
        seat = view.seat
        assert seat is not None
        side = self.side_of[seat]
        return side, list(self.sides[side])

    def _need(self, view: View, side: int) -> int:
        seats = self.sides[side]
        contract = sum(
            b.tricks for s in seats if isinstance(b := view.bids[s], Bid) and b.tricks > 0
        )
        took = sum(view.books[s] for s in seats if not is_nil(view.bids[s]))
        return contract - took

    def _partners(self, view: View) -> set[int]:
        """Return the seats playing with this one (the other defender in the three-handed game)."""
        seat = view.seat
        assert seat is not None
        if self.points_game and view.trump not in (None, "none"):
            bidder = next((s for s, b in enumerate(view.bids) if isinstance(b, PickUp)), None)
            if bidder is not None and bidder != seat:
                return {s for s in range(self.n) if s not in (seat, bidder)}
            return set()
        return {s for s in self.sides[self.side_of[seat]] if s != seat}

    def _voids(self, view: View) -> dict[int, set[int]]:
        voids: dict[int, set[int]] = {}
        tricks = [t.plays for t in view.tricks] + ([view.trick] if view.trick else [])
        for plays in tricks:
            led = self.suit_of[plays[0][1].index]
            for s, c in plays[1:]:
                if self.suit_of[c.index] != led:
                    voids.setdefault(s, set()).add(led)
        return voids

    def _master(self, index: int, unseen: Sequence[int]) -> bool:
        suit = self.suit_of[index]
        return not any(
            self.suit_of[u] == suit and self.strength[u] > self.strength[index] for u in unseen
        )

    def _reneges(self, view: View) -> set[int]:
        """Return the tricks (numbered from 1) in which an opponent plainly reneged: it
        played a suit it had shown itself void in earlier."""
        seat = view.seat
        assert seat is not None
        partners = self._partners(view)
        shown_void: dict[int, set[int]] = {}
        shown_void_at: dict[tuple[int, int], int] = {}
        found: set[int] = set()
        for number, trick in enumerate(view.tricks, start=1):
            led = self.suit_of[trick.plays[0][1].index]
            for s, c in trick.plays:
                suit = self.suit_of[c.index]
                if s != seat and s not in partners and suit in shown_void.get(s, ()):
                    found.add(shown_void_at.get((s, suit), number))
            for s, c in trick.plays[1:]:
                if self.suit_of[c.index] != led:
                    shown_void.setdefault(s, set()).add(led)
                    shown_void_at.setdefault((s, led), number)
        return found

    def points(self, card: Card) -> int:
        """Return a card's points in the three-handed game (0 elsewhere)."""
        if not self.points_game:
            return 0
        if card.code == "AS":
            return 40
        return _TST_POINTS.get(card.rank, 0)

    def _power_rank(self, card: Card) -> int:
        """Return a number that grows with a card's trick-taking power (trumps highest)."""
        return (100 if self.suit_of[card.index] == TRUMP else 0) + self.strength[card.index]

    def _aim(self, view: View) -> str:
        """Return this trick's aim: avoid, cover, bust, win or duck."""
        seat = view.seat
        assert seat is not None
        if self.points_game:
            return self._tst_aim(view)
        bids, books = view.bids, view.books
        if is_nil(bids[seat]) and books[seat] == 0:
            return "avoid"
        partner = view.partner
        if partner is not None and is_nil(bids[partner]) and books[partner] == 0:
            return "cover"
        side, mates = self._sides(view)
        left = len(view.cards) + view.pile_size // self.n
        need = self._need(view, side)
        opponents = [s for s in range(self.n) if self.side_of[s] != side]
        nil_opponents = [s for s in opponents if is_nil(bids[s]) and books[s] == 0]
        if nil_opponents and need < left - 1:
            return "bust"
        if need > 0 or not self.bags_hurt:
            return "win"
        # Contract made: set the opponents while they still need all but at most two of
        # the tricks left (a set costs them ten a trick of their contract, far more than
        # the bags it may cost us), else duck bags.
        for other in {self.side_of[s] for s in opponents}:
            theirs = self._need(view, other)
            if 0 < theirs <= left and left - theirs <= self.set_slack:
                return "win"
        return "duck"

    def _tst_aim(self, view: View) -> str:
        if view.trump == "none":
            return "duck"  # for least: take as few points as possible
        return "win"

    def _low(self, plays: Sequence[Play], table: Sequence[Sequence[int]], led: int) -> Play:
        """The cheapest card: lowest power, side suits before trumps, fewest points."""
        return min(
            plays,
            key=lambda p: (
                table[led][p.card.index],
                self.suit_of[p.card.index] == TRUMP,
                self.points(p.card),
                self.strength[p.card.index],
            ),
        )

    def _shed(self, plays: Sequence[Play]) -> Play:
        """The card to throw away when not following: the highest, most dangerous one."""
        return max(
            plays,
            key=lambda p: (
                self.points(p.card),
                self.suit_of[p.card.index] == TRUMP,
                self.strength[p.card.index],
            ),
        )

    def _discard(
        self, view: View, plays: Sequence[Play], table: Sequence[Sequence[int]], led: int
    ) -> Play:
        """Throw a low card from the shortest side suit (to make a void), no trump."""
        side_suits = [p for p in plays if self.suit_of[p.card.index] != TRUMP] or list(plays)
        length = {s: sum(1 for c in view.cards if self.suit_of[c.index] == s) for s in range(4)}
        return min(
            side_suits,
            key=lambda p: (
                self.points(p.card),
                length.get(self.suit_of[p.card.index], 0),
                self.strength[p.card.index],
            ),
        )


class HeuristicBidding(TableReading):
    """The trick count and every decision before the first card: bids, blind nil, the
    pick-up, discards and exchanges."""

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Prepare to play ``seat`` under ``rules``: read the table, calibrate the count."""
        super().reset(seat, rules, rng)
        self.offset = 0.0 if self.points_game else self._calibrate(rules)

    _OFFSETS: dict[str, float] = {}
    """The calibration of each rule set, shared by every bot (it depends on the rules only)."""

    def _calibrate(self, rules: Rules) -> float:
        """Return what to add to :meth:`estimate` at this table: the counting is tuned for
        four players with 13 tricks; with more tricks a player (17 at three, 26 between
        two with a draw pile) the average hand takes more than its counted tricks."""
        cached = self._OFFSETS.get(rules.name)
        if cached is None:
            plan = rules.table.deal
            per_player = (len(self.deck) - plan.blind) / self.n / self.n
            rng = random.Random(0)
            cards = list(rules.table.deck)
            mean = sum(self.estimate(rng.sample(cards, plan.hand_size)) for _ in range(300)) / 300
            cached = self._OFFSETS[rules.name] = max(
                0.0, per_player - mean - 0.7 * per_player / 3.25
            )
        return cached

    def estimate(self, cards: Sequence[Card]) -> float:
        """Return the tricks a hand should take with spades (or their like) as trump."""
        by_suit: dict[int, list[int]] = {}
        for c in cards:
            by_suit.setdefault(self.suit_of[c.index], []).append(c.index)
        total = 0.0
        trumps = sorted(by_suit.get(TRUMP, []), key=lambda i: -self.strength[i])
        order = self.suit_cards.get(TRUMP, [])
        counted = 0
        for index in trumps:
            above = order.index(index)  # trumps in the deck that beat this one
            mine_above = sum(1 for t in trumps if self.strength[t] > self.strength[index])
            missing = above - mine_above
            if missing == 0:
                total += 1
                counted += 1
            elif missing == 1 and len(trumps) >= 2:
                total += 0.8
                counted += 1
            elif missing == 2 and len(trumps) >= 3:
                total += 0.5
                counted += 1
        spare = len(trumps) - counted
        total += max(0, len(trumps) - 4) * 0.8  # long trumps take late tricks
        for suit, held in by_suit.items():
            if suit == TRUMP:
                continue
            held.sort(key=lambda i: -self.strength[i])
            order = self.suit_cards[suit]
            ranks = [order.index(i) for i in held]  # 0 = the suit's ace
            length = len(held)
            if 0 in ranks:
                total += 1 if length <= 5 else 0.6
            if 1 in ranks and length >= 2:
                total += 0.8 if length <= 4 else 0.5
            if 2 in ranks and length >= 3 and length <= 4:
                total += 0.4
        suits = self.suit_cards.keys() - {TRUMP}
        for suit in suits:
            length = len(by_suit.get(suit, []))
            if length <= 2 and spare > 0:
                ruffs = min(spare, 2 - length)
                total += 0.7 * ruffs
                spare -= ruffs
        return total

    def _bid(self, view: View, bids: Sequence[Action]) -> Action:
        estimate = self.estimate(view.cards) + self.offset
        side, mates = self._sides(view)
        partner = view.partner
        numeric = [b for b in bids if isinstance(b, Bid)]
        if Nil() in bids and not view.pile_size and self._nil_ok(view, estimate):
            partner_bid = view.bids[partner] if partner is not None else None
            if (
                partner is None
                or partner_bid is None
                or (isinstance(partner_bid, Bid) and partner_bid.tricks >= 3)
            ):
                return Nil()
        want = estimate
        # Score awareness: shade toward safety near the bag limit and the target.
        limit = self.options.get("bag_limit")
        if isinstance(limit, int) and limit > 0 and view.bags[side] % limit >= limit - 3:
            want += 0.3  # bid up rather than collect bags
        target = self.options.get("target")
        if isinstance(target, int) and view.scores[side] + 10 * round(want) >= target:
            want -= 0.5  # making the contract wins the match: bid what is sure
        if partner is not None and is_nil(view.bids[partner]):
            want += 0.5  # covering a nil costs tricks we must bid for
        if not numeric:
            return bids[0]
        chosen = _closest(numeric, max(0, round(want)))
        shift = (
            self.table_shift(view, chosen.tricks) if self.table_bids and self.overtricks_cost else 0
        )
        return _closest(numeric, max(0, chosen.tricks + shift)) if shift else chosen

    def table_shift(self, view: View, bid: int) -> int:
        """Return what the bids already made add to ``bid``: +1, 0 or -1.

        Read where overtricks cost (bags or sandbags) by the last bidder, and by the one
        before it (counting the last bidder at an average bid) at a table of four or
        more: a table total of bids three or more under the hand's tricks leaves tricks
        nobody bid for, which come as bags to the side that takes them, so bid one more;
        a total at or over the tricks means some side will be set, so bid one less.
        """
        known = [b for b in view.bids if b is not None]
        waiting = self.n - 1 - len(known)
        if waiting > 1 or (waiting == 1 and self.n < 4):
            return 0
        total = bid + sum(b.tricks for b in known if isinstance(b, Bid))
        total += waiting * round(self.tricks / self.n)
        if total <= self.tricks - 3:
            return 1
        if total >= self.tricks:
            return -1
        return 0

    def _nil_ok(self, view: View, estimate: float) -> bool:
        """Return whether the hand can duck every trick.

        At most three trumps, none of the top four, and no side ace; a king needs three
        low cards (8 or lower) beside it to duck under, a queen two.  Round 4, with a
        partner to cover: a king needs two, a queen one, the fourth trump (J♠) may sit
        beside one other trump, and an ace with four low cards and no king is ducked
        under until it is safe.  Alone (cutthroat, two-handed) round 4 bids no nil: nobody
        covers it, and round 3's were made about one time in nine."""
        covered = self.version >= 4 and view.partner is not None
        if self.version >= 4 and view.partner is None:
            return False  # alone, round 3's nils were made one time in nine
        if estimate > (NIL_COUNT if covered else 1.6):
            return False
        trumps = [c for c in view.cards if self.suit_of[c.index] == TRUMP]
        order = self.suit_cards.get(TRUMP, [])
        top = 3 if covered and len(trumps) <= 2 else 4
        if len(trumps) > 3 or any(order.index(c.index) < top for c in trumps):
            return False
        king_low, queen_low = (2, 1) if covered else (3, 2)
        for suit, cards in self.suit_cards.items():
            if suit == TRUMP:
                continue
            held = sorted(
                (cards.index(c.index) for c in view.cards if self.suit_of[c.index] == suit)
            )
            low = sum(1 for r in held if r >= len(cards) - 6)
            if covered and 0 in held and low >= 4 and 1 not in held:
                continue  # an ace with four low cards: ducked under until it is safe
            if 0 in held or (1 in held and low < king_low) or (2 in held and low < queen_low):
                return False  # an ace, or a high card without low cards to duck under
        return True

    def _blind(self, view: View, legal: Sequence[Action]) -> Action:
        side, _ = self._sides(view)
        others = [s for i, s in enumerate(view.scores) if i != side]
        if BlindNil() in legal and others and max(others) - view.scores[side] >= 300:
            return BlindNil()
        if SeeCards() in legal:
            return SeeCards()
        bids = [a for a in legal if isinstance(a, (Bid, Nil))]
        return self._bid(view, bids) if bids else legal[0]

    def _pick_up(self, view: View, legal: Sequence[Action]) -> Action:
        spades = [c for c in view.cards if self.suit_of[c.index] == TRUMP]
        clubs = [c for c in view.cards if c.code.endswith("C")]
        top = sum(1 for c in spades if c.rank >= 12)
        strong = (
            len(spades) >= 4
            or (len(spades) >= 3 and top >= 2)
            or (len(spades) + len(clubs) >= 7 and top >= 1)
        )
        if strong and PickUp() in legal:
            return PickUp()
        return Pass() if Pass() in legal else legal[0]

    def _give(self, view: View, legal: Sequence[Action]) -> Action:
        """Discard (or pass to a partner) the cards least useful to keep."""
        sample = next(a for a in legal if isinstance(a, (Discard, Exchange)))
        kind = type(sample)
        count = len(sample.cards)
        if kind is Exchange:
            # Blind nil: the partner passes its lowest cards to the bidder, who passes
            # its highest back.
            seat = view.seat
            nil_me = seat is not None and isinstance(view.bids[seat], BlindNil)
            chosen = sorted(view.cards, key=self._power_rank, reverse=nil_me)[:count]
        else:
            # Discards count for the bidder: lay aside point cards in weak suits that
            # would be lost, else the cheapest cards of the shortest low suits.
            chosen = sorted(view.cards, key=lambda c: self._discard_order(c, view))[:count]
        action = kind(chosen)
        return action if action in legal else legal[0]

    def _discard_order(self, card: Card, view: View) -> tuple[int, int]:
        suit = self.suit_of[card.index]
        if suit == TRUMP:
            return (3, 0)
        order = self.suit_cards[suit]
        is_master = order.index(card.index) == 0
        if self.points(card) >= 10 and not is_master and suit in (0, 1):
            return (0, -self.points(card))  # a point card likely lost: bank it
        return (1 if suit in (0, 1) else 2, self.strength[card.index])


def _closest(numeric: Sequence[Bid], goal: int) -> Bid:
    """Return the bid nearest ``goal`` (the lower of two as near)."""
    return min(numeric, key=lambda b: (abs(b.tricks - goal), b.tricks))
