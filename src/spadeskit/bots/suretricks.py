"""``SureTricksBot``: a sparring partner that bids what it cannot lose and plays to set.

Written from the advice of long-time online players, not from
:class:`~spadeskit.bots.HeuristicBot`: Wayne ("EBCDIC_70")'s *Manifesto on Bidding and
Playing* (23 years of Yahoo and Safe Harbor Spades), the "Spades tips and strategies"
series of the eliters club, and the "play for the set" advice that strategy guides give.

**Bidding: "bid what you cannot reasonably lose", then weigh the table.**

* Side suits: an ace in a suit of five or fewer (longer, it may be ruffed), the king
  too when it sits with the ace in a suit of four or fewer.  A king without its ace
  is not bid: it wins only if the ace falls or the partner holds it.
* Trumps: the top trumps held in an unbroken run from the top; a king (second trump)
  with two more, a queen with three more; and each trump over four.
* A void, or a singleton, beside three trumps or more that are not all counted: one
  ruff each, two at most.
* Then the tricks it may lose: half a trick for a king without its ace, guarded by a
  small card, in a suit of four or fewer.  Whole halves are bid; a half left over is
  bid by the last bidder only when the table leaves tricks unbid.
* The table: the last bidder bids one more when four tricks or more would go unbid
  (they come as bags anyway), and one less when the total would pass the hand's
  tricks (the spare cards set the opponents instead).  At least one trick.
* Nil with at most three trumps, each among the six lowest (7♠ or lower; four trumps
  when the opponent on its left bid nil: that nil's partner must cover it), no side
  ace or king without three small cards (7 or lower), no queen without two, never two
  of them in one suit; not after a nil on its right (set it instead), nor beside a
  partner's nil.  Blind nil only "when it has to": its side trails by 200 or more and
  the opponents are within 100 of the target.

**Play.**

* Cover the partner's nil: win ahead of the partner, overtake its card, lead masters.
* Set an opponent's nil: never cover it; play under the nil bidder; lead low in
  suits it still holds, never one it has shown void in; ruff high when the nil has
  already played under the trick (spending spades the nil's partner would have).
* Play for the set: while an opposing side needs all but at most three of the tricks
  left, every trick is played to win, bags or not.
* Make the contract: second hand low, third hand high, last hand cheapest; lead
  masters (the ace first), then from the longest side suit.  Trump in when void only
  when it helps: the side needs the trick and the partner does not hold it.
* Contract made, nothing to set and overtricks cost: duck.
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit.bots.counting import TRUMP, Count, closest_bid
from spadeskit.bots.sparring import CountingPlayer
from spadeskit.core.actions import Action, Bid, Nil, Play, is_nil
from spadeskit.core.cards import Card
from spadeskit.core.views import View

__all__ = ["SureTricksBot"]

SET_SLACK = 3
"""An opposing side is played against for a set while it needs all but at most this
many of the tricks left."""


class SureTricksBot(CountingPlayer):
    """Bid sure tricks, set nils and contracts in reach (see the module)."""

    maybe = 0
    """Kings without their ace counted by the last :meth:`sure_tricks` (half a trick each)."""

    # -- bidding ---------------------------------------------------------------------

    def count(self, cards: Sequence[Card]) -> float:
        """Return :meth:`sure_tricks` (the partner's trick count)."""
        return float(self.sure_tricks(cards))

    def sure_tricks(self, cards: Sequence[Card]) -> int:
        """Return the tricks the cards cannot reasonably lose (see the module)."""
        table = self.table
        held = table.suits(cards)
        trumps = held.get(TRUMP, [])
        sure = 0
        ranks = [table.rank_in_suit(i) for i in trumps]
        run = 0
        while run in ranks:
            run += 1
        counted = run
        if run == 0 and 1 in ranks and len(trumps) >= 3:
            counted = 1
        elif run <= 1 and 2 in ranks and len(trumps) >= 4:
            counted += 1
        sure += counted + max(0, len(trumps) - 4 - max(0, counted - 1))
        for suit, indices in held.items():
            if suit == TRUMP or not indices:
                continue
            ladder = table.ladder[suit]
            if indices[0] == ladder[0] and len(indices) <= 5:
                sure += 1
                if len(indices) > 1 and indices[1] == ladder[1] and len(indices) <= 4:
                    sure += 1
        self.maybe = sum(
            1
            for suit, indices in held.items()
            if suit != TRUMP
            and 2 <= len(indices) <= 4
            and indices[0] == table.ladder[suit][1]
            and table.small(indices) >= 1
        )
        sure += self.maybe // 2
        spare = len(trumps) - counted
        if len(trumps) >= 3 and spare > 0:
            short = sum(
                1 for s, i in held.items() if s != TRUMP and len(i) <= 1 and s in table.ladder
            )
            sure += min(short, spare, 2)
        return sure

    def nil_hand(self, cards: Sequence[Card], max_trumps: int) -> bool:
        """Return whether the cards can duck every trick (see the module)."""
        table = self.table
        held = table.suits(cards)
        trumps = held.get(TRUMP, [])
        if len(trumps) > max_trumps or any(table.rank_from_bottom(i) >= 6 for i in trumps):
            return False
        if not table.sides_duckable(held):
            return False
        return True

    def blind_nil(self, view: View) -> bool:
        """Return whether the side is so far behind that only a blind nil can catch up."""
        table, seat = self.table, view.seat
        if (
            seat is None
            or table.target is None
            or any(is_nil(view.bids[p]) for p in table.partners(seat))
        ):
            return False
        side = table.side_of[seat]
        others = [score for s, score in enumerate(view.scores) if s != side]
        return bool(others) and (
            max(others) - view.scores[side] >= 200 and table.target - max(others) <= 100
        )

    def bid(self, view: View, bids: Sequence[Action]) -> Action:
        """Return the bid: sure tricks, weighed against the table (see the module)."""
        table = self.table
        seat = view.seat
        assert seat is not None
        partners = table.partners(seat)
        right = (seat - 1) % table.n  # plays just before this seat
        left = (seat + 1) % table.n  # plays just after it
        if Nil() in bids and not any(is_nil(view.bids[p]) for p in partners):
            right_nil = is_nil(view.bids[right]) and right not in partners
            left_nil = is_nil(view.bids[left]) and left not in partners
            if not right_nil and self.nil_hand(view.cards, 4 if left_nil else 3):
                return Nil()
        tricks = round(self.scaled_count(view))
        self.sure_tricks(view.cards)  # sets self.maybe (the kings counted as halves) last
        others = [s for s in range(table.n) if s != seat]
        if all(view.bids[s] is not None for s in others):
            total = sum(b.tricks for s in others if isinstance(b := view.bids[s], Bid))
            if self.maybe % 2 and total + tricks <= table.tricks - 2:
                tricks += 1
            if total + tricks <= table.tricks - 4:
                tricks += 1
            elif total + tricks > table.tricks:
                tricks -= 1
        return closest_bid(bids, max(tricks, 1))

    # -- play (the rest is CountingPlayer's) ------------------------------------------

    def playing_for_tricks(self, count: Count) -> bool:
        """Return whether to play for tricks: the side's contract, or the set (an opposing
        side needs all but at most :data:`SET_SLACK` of the tricks left)."""
        if super().playing_for_tricks(count):
            return True
        for other in count.opponents:
            need = count.need(other)
            if 0 < need <= count.left and count.left - need <= SET_SLACK:
                return True
        return False

    def set_nil(self, count: Count, plays: list[Play], nils: list[int]) -> Play:
        """Never cover it: under the nil bidder, low before it, high spades once it ducked."""
        if count.led is None:
            # Low in a suit the nil still holds; never one it has shown void in.
            voids = set().union(*(count.voids[n] for n in nils))
            fair = [p for p in plays if count.suit(p) not in voids] or plays
            return min(
                fair,
                key=lambda p: (count.suit(p) == TRUMP, count.table.strength[p.card.index]),
            )
        under = self.under_nil(count, plays, nils)
        if under is not None:
            return under
        following = count.suit(plays[0]) == count.led
        trumps = [p for p in count.winners(plays) if count.suit(p) == TRUMP]
        if not following and trumps and not count.partner_winning():
            return trumps[-1]  # the nil has played under: spend a high spade
        return self.follow(count, plays)

    def lead(self, count: Count, plays: list[Play]) -> Play:
        """Masters (the ace first), the master trump to draw, long side suits."""
        table = count.table
        safe = count.safe_masters(plays)
        if safe:
            return max(safe, key=lambda p: table.strength[p.card.index])
        trumps = [p for p in plays if count.suit(p) == TRUMP]
        if trumps and count.is_master(max(trumps, key=count.trick_power).card.index):
            if len(trumps) >= count.out_in_suit(TRUMP):
                return max(trumps, key=count.trick_power)
        return self.long_suit_lead(count, plays)

    def follow(self, count: Count, plays: list[Play]) -> Play:
        """Second hand low unless a master holds, third hand high, last hand cheapest."""
        assert count.led is not None
        following = count.suit(plays[0]) == count.led
        winners = count.winners(plays)
        opponents_after = [s for s in count.after if s not in count.partners]
        if count.partner_winning():
            high = self.third_hand_high(count, winners) if following else None
            if high is not None:
                return high
            return self.throw(count, plays) if not following else count.lowest(plays)
        if not winners:
            return self.throw(count, plays) if not following else count.lowest(plays)
        if not opponents_after:
            return winners[0]
        if following and len(count.view.trick) == 1:
            holding = [p for p in winners if count.sure_to_hold(p)]
            # Second hand low, unless a master takes the trick for sure.
            return holding[0] if holding else count.lowest(plays)
        holding = [p for p in winners if count.sure_to_hold(p)]
        return holding[0] if holding else winners[-1]
