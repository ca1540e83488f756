"""``HeuristicBot``: plays every shipped variant the way a careful club player does.

It sees only its seat's :class:`~spadeskit.core.views.View` and reads the rules through the
public :class:`~spadeskit.engine.rules.Rules` (card ranking, trick strength, sides, options).

**Bidding** counts tricks: top trumps and trump length, side aces and guarded kings
(and queens in three-card suits), and ruffs from voids, singletons and doubletons with
spare trumps; with cards still to come from a draw pile it scales the count to the
whole hand.  It bids nil with few and low trumps and no unguarded high side cards when
its partner bid (or may bid) enough to cover, and shades its bid near the target, the
floor and the bag limit.  Blind nil only when its side trails badly.  Where overtricks
cost, the last bidders read the table's total of bids (``table_bids``): tricks nobody
bid for come as bags, so it bids one more; a total at or over the tricks sets somebody,
so it bids one less.

**Play** keeps count of the cards played and the voids shown, and chooses one aim per
trick: *avoid* (its own nil: duck under, shed its high cards), *cover* (its partner's
nil: win the tricks its partner might be forced to take), *bust* (an opponent's nil,
when its side can afford it: play under the nil bidder), *win* (its side still needs
tricks, or can set opponents who need all but ``set_slack`` of the tricks left: cheap
winners, second hand low, masters first, ruff when void) and *duck* (contract made: no
bags).  In the 1970s three-handed game it
picks up the blind with a strong ladder hand, discards the point cards it would lose,
counts card points instead of tricks, treats the two defenders as partners against the
bidder, and plays "for least" to take as few points as it can.

**Round 4** (``version=4``, the default) bids more nils beside a partner who can cover
(a king needs two low cards to duck under, a queen one, the jack of trumps may sit
beside one other trump, an ace with four low cards is ducked), none alone, and a nil
forced over a trick with seats still to play takes it with its lowest card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spadeskit.bots.basic import check_view
from spadeskit.bots.bidding import SET_SLACK, TRUMP, VERSION, HeuristicBidding, checked_version
from spadeskit.core.actions import (
    Accept,
    Action,
    Bid,
    BlindNil,
    CallRenege,
    Discard,
    Exchange,
    Nil,
    Pass,
    PickUp,
    Play,
    SeeCards,
    is_nil,
)
from spadeskit.core.errors import SpadesError, shown
from spadeskit.core.views import View
from spadeskit.engine.rules import Rules

__all__ = ["HeuristicBot"]


class HeuristicBot(HeuristicBidding):
    """A counting, nil-aware, bag-aware bot for every shipped variant (see the module).

    ``table_bids`` (default on): the last bidders correct their bid by the table's total
    (see :meth:`~spadeskit.bots.bidding.HeuristicBidding.table_shift`).
    ``set_slack`` (default 2): with its contract made, the bot keeps winning tricks while
    an opposing side needs all but at most this many of the tricks left.  Round 2's bot
    is ``HeuristicBot(table_bids=False, set_slack=1)`` (``"heuristic[table_bids=false,
    set_slack=1]"`` in the arena), kept to measure against.
    ``version`` (default 4; see the module): ``HeuristicBot(version=3)``
    (``"heuristic[version=3]"``) plays as round 3's bot did, kept to measure against.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        table_bids: bool = True,
        set_slack: int = SET_SLACK,
        version: int = VERSION,
    ) -> None:
        if type(table_bids) is not bool or type(set_slack) is not int or set_slack < 0:
            raise SpadesError(
                "table_bids is true or false and set_slack a whole number, 0 or more, not "
                f"{shown(table_bids, 20)} and {shown(set_slack, 20)}"
            )
        self.table_bids = table_bids
        self.set_slack = set_slack
        self.version = checked_version(version)
        if rules is not None:
            self.reset(0, rules, random.Random(0))

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Prepare to play ``seat`` under ``rules`` (before each match)."""
        super().reset(seat, rules, rng)

    # ----------------------------------------------------------------------------------
    # Decisions
    # ----------------------------------------------------------------------------------

    def choose(self, view: View) -> Action:
        """Return the bot's choice among ``view.legal_actions``."""
        legal = check_view(self, view).legal_actions
        if not hasattr(self, "rules"):
            raise SpadesError("call reset(seat, rules, rng) before choose (the arena does)")
        claims = [a for a in legal if isinstance(a, CallRenege)]
        if claims:
            seen = self._reneges(view)
            for claim in claims:
                if claim.trick in seen:
                    return claim
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._play(view, plays)
        if any(isinstance(a, (PickUp, Pass)) for a in legal) and not any(
            isinstance(a, Bid) for a in legal
        ):
            return self._pick_up(view, legal)
        if any(isinstance(a, (Discard, Exchange)) for a in legal):
            return self._give(view, legal)
        if BlindNil() in legal or SeeCards() in legal:
            return self._blind(view, legal)
        bids = [a for a in legal if isinstance(a, (Bid, Nil))]
        if bids:
            return self._bid(view, bids)
        if Accept() in legal:
            return Accept()
        others = [a for a in legal if not isinstance(a, CallRenege)]
        return others[0] if others else legal[0]

    # ----------------------------------------------------------------------------------
    # Play
    # ----------------------------------------------------------------------------------

    def _play(self, view: View, plays: list[Play]) -> Action:
        seat = view.seat
        assert seat is not None
        if view.trick:
            # Where the table only polices reneges afterwards, every card is offered:
            # follow suit anyway.
            led = self.suit_of[view.trick[0][1].index]
            proper = [p for p in plays if self.suit_of[p.card.index] == led]
            plays = proper or plays
        trump = view.trump or "spades"
        table = self.rules.strength_table(trump)
        played = {c.index for t in view.tricks for _, c in t.plays} | {
            c.index for _, c in view.trick
        }
        mine = {c.index for c in view.cards}
        unseen = [i for i in self.deck if i not in played and i not in mine]
        voids = self._voids(view)
        led_suit = self.suit_of[view.trick[0][1].index] if view.trick else None
        aim = self._aim(view)
        if led_suit is None:
            return self._lead(view, plays, aim, unseen, voids, table)
        powers = [(table[led_suit][c.index], s) for s, c in view.trick]
        best, winner = max(powers)
        after = [(view.trick[0][0] + k) % self.n for k in range(len(view.trick) + 1, self.n)]
        return self._follow(view, plays, aim, led_suit, best, winner, after, unseen, voids, table)

    def _lead(
        self,
        view: View,
        plays: list[Play],
        aim: str,
        unseen: Sequence[int],
        voids: dict[int, set[int]],
        table: Sequence[Sequence[int]],
    ) -> Play:
        seat = view.seat
        assert seat is not None
        partners = self._partners(view)
        opponents = [s for s in range(self.n) if s != seat and s not in partners]
        if aim in ("avoid", "duck", "bust"):

            def lead_low(p: Play) -> tuple[int, int, int]:
                suit = self.suit_of[p.card.index]
                higher = sum(
                    1
                    for u in unseen
                    if self.suit_of[u] == suit and self.strength[u] > self.strength[p.card.index]
                )
                return (suit == TRUMP, -higher, self.strength[p.card.index])

            return min(plays, key=lead_low)
        # win or cover: masters in side suits no opponent can ruff, then trumps to draw.
        masters = [p for p in plays if self._master(p.card.index, unseen)]
        safe = [
            p
            for p in masters
            if self.suit_of[p.card.index] != TRUMP
            and not any(self.suit_of[p.card.index] in voids.get(o, ()) for o in opponents)
        ]
        if safe:
            return max(safe, key=lambda p: (self.points(p.card), self.strength[p.card.index]))
        trumps = [p for p in plays if self.suit_of[p.card.index] == TRUMP]
        unseen_trumps = sum(1 for u in unseen if self.suit_of[u] == TRUMP)
        master_trumps = [p for p in trumps if self._master(p.card.index, unseen)]
        if master_trumps and unseen_trumps and len(trumps) >= unseen_trumps // 2:
            return max(master_trumps, key=lambda p: self.strength[p.card.index])
        # A low card in a suit a partner can ruff (and no opponent over-ruff known).
        for p in sorted(plays, key=lambda p: self.strength[p.card.index]):
            suit = self.suit_of[p.card.index]
            if suit != TRUMP and any(suit in voids.get(m, ()) for m in partners):
                return p
        if aim == "cover":
            return max(plays, key=lambda p: table[self.suit_of[p.card.index]][p.card.index])
        side_plays = [p for p in plays if self.suit_of[p.card.index] != TRUMP] or plays
        length = {s: sum(1 for c in view.cards if self.suit_of[c.index] == s) for s in range(4)}
        # From the shortest side suit (to ruff later) when holding trumps, else the longest.
        if trumps:
            return min(
                side_plays,
                key=lambda p: (
                    length.get(self.suit_of[p.card.index], 0),
                    self.points(p.card),
                    self.strength[p.card.index],
                ),
            )
        return min(
            side_plays,
            key=lambda p: (
                -length.get(self.suit_of[p.card.index], 0),
                self.points(p.card),
                self.strength[p.card.index],
            ),
        )

    def _follow(
        self,
        view: View,
        plays: list[Play],
        aim: str,
        led: int,
        best: int,
        winner: int,
        after: list[int],
        unseen: Sequence[int],
        voids: dict[int, set[int]],
        table: Sequence[Sequence[int]],
    ) -> Play:
        seat = view.seat
        assert seat is not None
        row = table[led]
        winning = sorted(
            (p for p in plays if row[p.card.index] > best), key=lambda p: row[p.card.index]
        )
        losing = [p for p in plays if row[p.card.index] <= best]
        following = self.suit_of[plays[0].card.index] == led
        partners = self._partners(view)
        if aim == "avoid":
            if losing:
                return max(losing, key=lambda p: (row[p.card.index], self.strength[p.card.index]))
            if after and self.version >= 4:  # forced: the lowest, for others to overtake
                return min(plays, key=lambda p: row[p.card.index])
            return max(plays, key=lambda p: row[p.card.index])  # forced: take it with the highest
        if aim == "duck":
            if losing:
                # Throw points and high cards under the winner (for least: the highest we can).
                return max(
                    losing,
                    key=lambda p: (
                        self.points(p.card) if not partners or winner not in partners else 0,
                        row[p.card.index],
                        self.strength[p.card.index],
                    ),
                )
            if after:
                return min(plays, key=lambda p: row[p.card.index])
            return max(plays, key=lambda p: row[p.card.index])
        if aim == "bust":
            nil_seats = [
                s
                for s in range(self.n)
                if s not in partners and s != seat and is_nil(view.bids[s]) and view.books[s] == 0
            ]
            if winner in nil_seats:
                return (
                    max(losing, key=lambda p: row[p.card.index])
                    if losing
                    else self._low(plays, table, led)
                )
            if any(s in after for s in nil_seats):
                return self._low(plays, table, led)
            aim = "win" if self._need(view, self.side_of[seat]) > 0 else "duck"
            if aim == "duck":
                return self._follow(
                    view, plays, aim, led, best, winner, after, unseen, voids, table
                )
        if aim == "cover":
            partner_after = any(s in partners for s in after)
            if winner in partners or partner_after:
                if winning:
                    return winning[-1] if partner_after else winning[0]
                return (
                    self._low(plays, table, led)
                    if following
                    else self._discard(view, plays, table, led)
                )
        # win
        partner_winning = winner in partners
        opponents_after = [s for s in after if s not in partners]
        if partner_winning:
            if not winning or self._holds(best, led, unseen, opponents_after, voids, table):
                return self._smear(view, plays, table, led, following)
        if not winning:
            return (
                self._low(plays, table, led)
                if following
                else self._discard(view, plays, table, led)
            )
        if not opponents_after:
            return winning[0]  # last to play (or only partners after): the cheapest winner
        holding = [
            p
            for p in winning
            if self._holds(row[p.card.index], led, unseen, opponents_after, voids, table)
        ]
        if holding:
            return holding[0]
        if len(view.trick) == 1 and following and not self.points_game:
            return self._low(plays, table, led)  # second hand low
        return winning[0] if not following or len(view.trick) >= 2 else self._low(plays, table, led)

    def _smear(
        self,
        view: View,
        plays: Sequence[Play],
        table: Sequence[Sequence[int]],
        led: int,
        following: bool,
    ) -> Play:
        """Partner wins: give it points (three-handed game), else the cheapest card."""
        if self.points_game:
            row = table[led]
            return max(plays, key=lambda p: (self.points(p.card), -row[p.card.index]))
        return self._low(plays, table, led) if following else self._discard(view, plays, table, led)

    def _holds(
        self,
        power: int,
        led: int,
        unseen: Sequence[int],
        opponents: Sequence[int],
        voids: dict[int, set[int]],
        table: Sequence[Sequence[int]],
    ) -> bool:
        """Return whether a card of ``power`` is sure to win against the opponents still to
        play: no unseen card beats it, or (when they may be void) no unseen trump can."""
        row = table[led]
        if any(row[u] > power and self.suit_of[u] == led for u in unseen):
            return False
        if any(row[u] > power for u in unseen):
            # Only a ruff beats it: likely if an opponent still to play showed a void, or
            # the led suit has few cards left to go round.
            left_in_suit = sum(1 for u in unseen if self.suit_of[u] == led)
            if any(led in voids.get(o, ()) for o in opponents) or left_in_suit < 2 * len(opponents):
                return False
        return True
