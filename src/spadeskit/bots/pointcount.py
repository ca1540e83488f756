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
import random
from collections.abc import Sequence

from spadeskit.bots.basic import check_view
from spadeskit.bots.counting import TRUMP, Count, Table, closest_bid, routine_choice
from spadeskit.core.actions import Action, Bid, Nil, Play
from spadeskit.core.cards import Card
from spadeskit.core.errors import SpadesError
from spadeskit.core.views import View
from spadeskit.engine.rules import Rules

__all__ = ["PointCountBot"]


class PointCountBot:
    """Bid by the point count, play second hand low, third hand high (see the module)."""

    def __init__(self, rules: Rules | None = None) -> None:
        if rules is not None:
            self.reset(0, rules, random.Random(0))

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Prepare to play ``seat`` under ``rules`` (before each match)."""
        self.table = Table(seat, rules, rng, self)

    def choose(self, view: View) -> Action:
        """Return the bot's choice among ``view.legal_actions``."""
        legal = check_view(self, view).legal_actions
        if not hasattr(self, "table"):
            raise SpadesError("call reset(seat, rules, rng) before choose (the arena does)")
        if not legal:
            raise SpadesError("this seat has nothing to choose now", code="nothing-to-do")
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self.play(Count(self.table, view), plays)
        bids = [a for a in legal if isinstance(a, (Bid, Nil))]
        if bids:
            return self.bid(view, bids)
        return routine_choice(self.table, view, legal)

    # -- bidding ---------------------------------------------------------------------

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
        for suit, indices in held.items():
            if suit == TRUMP:
                continue
            high = [i for i in indices if table.rank_in_suit(i) <= 2]
            if len(high) > 1 or (
                high and table.small(indices) < 3 - table.rank_in_suit(high[0]) // 2
            ):
                return False
        return self.points(cards) <= 1.0

    def bid(self, view: View, bids: Sequence[Action]) -> Action:
        """Return the bid the point count gives (see the module)."""
        table = self.table
        seat = view.seat
        assert seat is not None
        points = self.points(view.cards)
        if view.pile_size:
            # Cards still to come from a pile take tricks too: scale to the whole hand.
            held = len(view.cards)
            points *= (held + view.pile_size / table.n) / held
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

    # -- play ------------------------------------------------------------------------

    def play(self, count: Count, plays: list[Play]) -> Play:
        """Return the card to play (see the module)."""
        seat = count.seat
        if count.led is not None:
            # Where reneges are only policed afterwards every card is offered: follow.
            following = [p for p in plays if count.suit(p) == count.led]
            plays = following or plays
        if count.nil_alive(seat):
            return self._avoid(count, plays)
        partner_nil = [p for p in count.partners if count.nil_alive(p)]
        if partner_nil:
            return self._cover(count, plays, partner_nil)
        nil_opponents = [o for o in count.opponents if count.nil_alive(o)]
        if nil_opponents and count.need(seat) < count.left:
            return self._under(count, plays, nil_opponents)
        if count.need(seat) > 0 or not self.table.overtricks_cost:
            return self._lead(count, plays) if count.led is None else self._follow(count, plays)
        return self._duck(count, plays)

    def _avoid(self, count: Count, plays: list[Play]) -> Play:
        if count.led is None:
            return min(
                plays, key=lambda p: (count.suit(p) == TRUMP, -count.higher_out(p.card.index))
            )
        loser = count.highest_loser(plays)
        if loser is not None:
            return loser
        # Forced over the trick: the lowest card, for a later seat to overtake; the
        # last to play takes it with its highest card, one fewer high card to shed.
        return count.lowest(plays) if count.after else count.highest(plays)

    def _cover(self, count: Count, plays: list[Play], nils: list[int]) -> Play:
        if count.led is None:
            return max(plays, key=lambda p: (count.is_master(p.card.index), count.trick_power(p)))
        winners = count.winners(plays)
        if any(n in count.after for n in nils):
            return winners[-1] if winners else count.lowest(plays)
        if count.winner in nils and winners:
            return winners[0]
        return count.lowest(plays)

    def _under(self, count: Count, plays: list[Play], nils: list[int]) -> Play:
        if count.led is None:
            return min(
                plays, key=lambda p: (count.suit(p) == TRUMP, count.table.strength[p.card.index])
            )
        if count.winner in nils:
            loser = count.highest_loser(plays)
            return loser if loser is not None else count.lowest(plays)
        if any(n in count.after for n in nils):
            return count.lowest(plays)
        return self._follow(count, plays)

    def _lead(self, count: Count, plays: list[Play]) -> Play:
        table = count.table
        masters = [p for p in plays if count.suit(p) != TRUMP and count.is_master(p.card.index)]
        safe = [
            p for p in masters if not any(count.suit(p) in count.voids[o] for o in count.opponents)
        ]
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
        side = [p for p in plays if count.suit(p) != TRUMP] or plays
        return min(
            side,
            key=lambda p: (-count.held_in_suit(count.suit(p)), table.strength[p.card.index]),
        )

    def _follow(self, count: Count, plays: list[Play]) -> Play:
        assert count.led is not None
        following = count.suit(plays[0]) == count.led
        winners = count.winners(plays)
        if not following:
            return self._void(count, plays, winners)
        placed = len(count.view.trick)
        opponents_after = [s for s in count.after if s not in count.partners]
        if count.partner_winning():
            partner_card = next(c for s, c in count.view.trick if s == count.winner)
            if winners and opponents_after and not count.sure_to_hold(Play(partner_card)):
                # Third hand high: the partner's card may not hold.
                holding = [p for p in winners if count.sure_to_hold(p)]
                return holding[0] if holding else winners[-1]
            return count.lowest(plays)
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
        return self._throw(count, plays)

    def _throw(self, count: Count, plays: list[Play]) -> Play:
        side = [p for p in plays if count.suit(p) != TRUMP] or plays
        return min(
            side,
            key=lambda p: (count.held_in_suit(count.suit(p)), count.table.strength[p.card.index]),
        )

    def _duck(self, count: Count, plays: list[Play]) -> Play:
        if count.led is None:
            return max(
                plays,
                key=lambda p: (count.suit(p) != TRUMP, count.higher_out(p.card.index)),
            )
        loser = count.highest_loser(plays)
        if loser is not None:
            return loser
        return count.lowest(plays) if count.after else count.highest(plays)
