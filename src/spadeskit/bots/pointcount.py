"""``PointCountBot``: a sparring partner that bids by a published point count.

Written from two public strategy texts, not from :class:`~spadeskit.bots.HeuristicBot`:
the point count that the GoldToken site's Spades guide ("How good are your cards for
Spades") teaches, and the play advice of *Card Games For Dummies* (Barry Rigal, the
Spades chapter's "a few strategies" and "bidding your hand").

**Bidding: count points, one a trick.**

* Spades: a point for each of the three top trumps held (A♠ K♠ Q♠; in jjdd the jokers
  and the 2♦), and a point for each spade over three (length takes tricks once the
  others have run out).
* Side suits: a point for an ace (half a point in a suit of five or more: it may be
  ruffed), half a point for a king in a suit of three or fewer.
* A point for each void or singleton side suit, only with no spade over three (the
  length point already counts those ruffs) and a spade to ruff with.
* A half point left over counts as a trick while the bids so far and this one leave
  three tricks or more unbid, and is dropped otherwise; the last bidder never takes
  the table's total over the hand's tricks ("as a general rule, you shouldn't take the
  total to more than 13").
* Nil with at most three trumps, each among the seven lowest (8♠ or lower), no side
  ace or king without three small cards (7 or lower) beside it, no queen without two,
  never two of them in one suit, a partner who has not bid nil and has bid four or
  more (or bids later), and at most one point.  Never a blind nil.

**Play: the table's classic rules.**

* Leads: the lower of touching masters first (the king from ace-king, as the book
  advises, so the partner reads the ace); a suit the partner is void in, for a ruff;
  trumps when holding the master trump and half the trumps still out; else a low card
  of the longest side suit.
* Second hand low; third hand high (the partner led and its card may not hold: play
  the card that holds, else the highest that beats the trick); last hand wins as
  cheaply as it can, or plays low under a partner who holds the trick.
* Void in the suit led: ruff with the cheapest trump that wins while the side still
  needs tricks and the partner is not winning; otherwise throw the lowest card of the
  shortest side suit.
* Its own nil: the highest card that still loses; its partner's nil: win ahead of the
  partner, overtake the partner's card, lead masters.
* An opponent's nil: play under it (the highest card that loses to the nil bidder),
  low when the nil bidder is still to play.
* Contract made and overtricks cost: duck (the highest card that loses, low leads).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from spadeskit.bots.counting import TRUMP, Count, closest_bid
from spadeskit.bots.sparring import CountingPlayer
from spadeskit.core.actions import Action, Bid, Nil, Play
from spadeskit.core.cards import Card
from spadeskit.core.views import View

__all__ = ["PointCountBot"]


class PointCountBot(CountingPlayer):
    """Bid by the point count, play second hand low, third hand high (see the module)."""

    # -- bidding ---------------------------------------------------------------------

    def count(self, cards: Sequence[Card]) -> float:
        """Return :meth:`points` (the partner's trick count)."""
        return self.points(cards)

    def points(self, cards: Sequence[Card]) -> float:
        """Return the hand's points: about the tricks it takes (see the module)."""
        table = self.table
        held = table.suits(cards)
        trumps = held.get(TRUMP, [])
        top = set(table.ladder.get(TRUMP, [])[:3])
        points = float(sum(1 for i in trumps if i in top))
        long = max(0, len(trumps) - 3)
        points += long
        for suit, indices in held.items():
            if suit == TRUMP:
                continue
            ladder = table.ladder[suit]
            if ladder[0] in indices:
                points += 0.5 if len(indices) >= 5 else 1.0
            if len(ladder) > 1 and ladder[1] in indices and len(indices) <= 3:
                points += 0.5
            if len(indices) <= 1 and long == 0 and trumps:
                points += 1.0
        return points

    def nil_hand(self, cards: Sequence[Card]) -> bool:
        """Return whether the cards make a nil by the book's tests (partner apart)."""
        table = self.table
        held = table.suits(cards)
        trumps = held.get(TRUMP, [])
        if len(trumps) > 3 or any(table.rank_from_bottom(i) >= 7 for i in trumps):
            return False
        if not table.sides_duckable(held):
            return False
        return self.points(cards) <= 1.0

    def bid(self, view: View, bids: Sequence[Action]) -> Action:
        """Return the bid the point count gives (see the module)."""
        table = self.table
        seat = view.seat
        assert seat is not None
        points = self.scaled_count(view)
        others = [s for s in range(table.n) if s != seat]
        bid_so_far = sum(b.tricks for s in others if isinstance(b := view.bids[s], Bid))
        last = all(view.bids[s] is not None for s in others)
        partners = table.partners(seat)
        if Nil() in bids and self.nil_hand(view.cards):
            partner_ok = all(
                (said := view.bids[p]) is None or (isinstance(said, Bid) and said.tricks >= 4)
                for p in partners
            )
            if partner_ok:
                return Nil()
        tricks = math.floor(points)
        if points - tricks >= 0.5 and bid_so_far + tricks <= table.tricks - 3:
            tricks += 1
        if last:
            tricks = min(tricks, max(table.tricks - bid_so_far, 1))
        return closest_bid(bids, max(tricks, 1))

    # -- play (the rest is CountingPlayer's) ------------------------------------------

    def set_nil(self, count: Count, plays: list[Play], nils: list[int]) -> Play:
        """Play under the nil bidder; low while it is still to play."""
        if count.led is None:
            return min(
                plays, key=lambda p: (count.suit(p) == TRUMP, count.table.strength[p.card.index])
            )
        under = self.under_nil(count, plays, nils)
        if under is not None:
            return under
        return self.follow(count, plays)

    def lead(self, count: Count, plays: list[Play]) -> Play:
        """Masters (the lower of touching ones), the partner's void, trumps, long suits."""
        table = count.table
        safe = count.safe_masters(plays)
        if safe:
            # The lower of touching masters: the king from ace-king.
            return min(safe, key=lambda p: table.strength[p.card.index])
        for p in sorted(plays, key=lambda p: table.strength[p.card.index]):
            suit = count.suit(p)
            if suit != TRUMP and any(suit in count.voids[m] for m in count.partners):
                return p
        trumps = [p for p in plays if count.suit(p) == TRUMP]
        out = count.out_in_suit(TRUMP)
        if trumps and out and any(count.is_master(p.card.index) for p in trumps):
            if 2 * len(trumps) >= out:
                return max(trumps, key=lambda p: table.strength[p.card.index])
        return self.long_suit_lead(count, plays)

    def follow(self, count: Count, plays: list[Play]) -> Play:
        """Second hand low, third hand high, last hand cheapest; ruff or throw when void."""
        assert count.led is not None
        following = count.suit(plays[0]) == count.led
        winners = count.winners(plays)
        if not following:
            return self._void(count, plays, winners)
        placed = len(count.view.trick)
        opponents_after = [s for s in count.after if s not in count.partners]
        if count.partner_winning():
            high = self.third_hand_high(count, winners)
            return high if high is not None else count.lowest(plays)
        if not winners:
            return count.lowest(plays)
        if not opponents_after:
            return winners[0]
        if placed == 1:
            return count.lowest(plays)  # second hand low
        holding = [p for p in winners if count.sure_to_hold(p)]
        return holding[0] if holding else winners[-1]

    def _void(self, count: Count, plays: list[Play], winners: list[Play]) -> Play:
        if winners and not count.partner_winning():
            trumps = [p for p in winners if count.suit(p) == TRUMP]
            if trumps:
                return trumps[0]
        return self.throw(count, plays)
