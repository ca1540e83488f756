"""``CountingPlayer``: what the sparring partners share, the play every guide agrees on.

:class:`~spadeskit.bots.pointcount.PointCountBot` and
:class:`~spadeskit.bots.suretricks.SureTricksBot` build on it: it follows suit, ducks
under the trick with its own nil, wins ahead of a partner's nil, plays third hand high,
throws the lowest card of the shortest side suit and ducks bags once the contract is
made; each partner brings its own count, bidding, leads, following and defence against
a nil.  It reads the table through :mod:`spadeskit.bots.counting`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spadeskit.bots.basic import check_view
from spadeskit.bots.counting import TRUMP, Count, Table, routine_choice
from spadeskit.core.actions import Action, Bid, BlindNil, Nil, Play
from spadeskit.core.cards import Card
from spadeskit.core.errors import SpadesError
from spadeskit.core.views import View
from spadeskit.engine.rules import Rules

__all__ = ["CountingPlayer"]


class CountingPlayer:
    """The play every guide agrees on; a sparring partner adds its bidding and style.

    :meth:`play` follows suit (where reneges are policed only afterwards every card is
    offered), then picks the trick's aim: its own nil (:meth:`avoid`), a partner's nil
    (:meth:`cover`), an opponent's nil while its side can spare the tricks
    (:meth:`set_nil`), tricks to take (:meth:`lead` or :meth:`follow`, while
    :meth:`playing_for_tricks`), else :meth:`duck`.
    """

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
        if BlindNil() in legal and self.blind_nil(view):
            return BlindNil()
        bids = [a for a in legal if isinstance(a, (Bid, Nil))]
        if bids:
            return self.bid(view, bids)
        return routine_choice(self.table, view, legal)

    # -- what each partner brings --------------------------------------------------

    def count(self, cards: Sequence[Card]) -> float:
        """Return the hand's trick count by the partner's own method (four-handed terms)."""
        raise NotImplementedError

    _SCALES: dict[tuple[str, str], float] = {}

    def scaled_count(self, view: View) -> float:
        """Return :meth:`count` of the seat's cards as tricks at this table.

        The guides count for four players holding thirteen cards each.  Cards still to
        come from a pile scale the count to the whole hand; at other tables (three
        players holding seventeen cards, a blind aside) the count is read as the same
        share of a player's tricks as at four: multiplied by the ratio of a player's
        tricks to the mean count of a hand here, over the same ratio at four (measured
        once per rule set on 300 hands dealt from a fixed seed).  At four players with
        thirteen tricks the factor is 1.
        """
        table = self.table
        raw = self.count(view.cards)
        if view.pile_size:
            held = len(view.cards)
            return raw * (held + view.pile_size / table.n) / held
        if table.n == 4 and table.tricks == 13:
            return raw
        key = (type(self).__name__, table.rules.name)
        scale = self._SCALES.get(key)
        if scale is None:
            rng = random.Random(0)
            deck = list(table.rules.table.deck)
            four = [deck[i] for i in range(52)] if len(deck) >= 52 else deck
            size = table.rules.table.deal.hand_size
            here = sum(self.count(rng.sample(deck, size)) for _ in range(300)) / 300
            there = sum(self.count(rng.sample(four, 13)) for _ in range(300)) / 300
            scale = self._SCALES[key] = ((table.tricks / table.n) / max(here, 0.5)) / (
                3.25 / max(there, 0.5)
            )
        return raw * scale

    def bid(self, view: View, bids: Sequence[Action]) -> Action:
        """Return a bid among ``bids`` (the auction's :class:`Bid` and :class:`Nil`)."""
        raise NotImplementedError

    def blind_nil(self, view: View) -> bool:
        """Return whether to bid blind nil where it is offered (never, unless overridden)."""
        return False

    def lead(self, count: Count, plays: list[Play]) -> Play:
        """Return the lead when the side plays for tricks."""
        raise NotImplementedError

    def follow(self, count: Count, plays: list[Play]) -> Play:
        """Return the card that follows when the side plays for tricks."""
        raise NotImplementedError

    def set_nil(self, count: Count, plays: list[Play], nils: list[int]) -> Play:
        """Return the card that plays against the opponents' live nils ``nils``."""
        raise NotImplementedError

    def playing_for_tricks(self, count: Count) -> bool:
        """Return whether to play for tricks: the side still needs some, or overtricks
        cost nothing."""
        return count.need(count.seat) > 0 or not self.table.overtricks_cost

    # -- what every guide agrees on ------------------------------------------------

    def play(self, count: Count, plays: list[Play]) -> Play:
        """Return the card to play: follow suit, then the trick's aim (see the class)."""
        seat = count.seat
        if count.led is not None:
            following = [p for p in plays if count.suit(p) == count.led]
            plays = following or plays
        if count.nil_alive(seat):
            return self.avoid(count, plays)
        partner_nil = [p for p in count.partners if count.nil_alive(p)]
        if partner_nil:
            return self.cover(count, plays, partner_nil)
        nil_opponents = [o for o in count.opponents if count.nil_alive(o)]
        if nil_opponents and count.need(seat) < count.left:
            return self.set_nil(count, plays, nil_opponents)
        if self.playing_for_tricks(count):
            return self.lead(count, plays) if count.led is None else self.follow(count, plays)
        return self.duck(count, plays)

    def avoid(self, count: Count, plays: list[Play]) -> Play:
        """Its own nil: lead the card with the most cards out above it; follow with the
        highest card that loses; forced over the trick, the lowest card for a later
        seat to overtake (the last to play takes it with its highest, to shed it)."""
        if count.led is None:
            return max(
                plays, key=lambda p: (count.suit(p) != TRUMP, count.higher_out(p.card.index))
            )
        loser = count.highest_loser(plays)
        if loser is not None:
            return loser
        return count.lowest(plays) if count.after else count.highest(plays)

    def cover(self, count: Count, plays: list[Play], nils: list[int]) -> Play:
        """A partner's nil: lead a master (the strongest), win high ahead of the nil,
        overtake the nil's card cheaply, else play low."""
        if count.led is None:
            return max(plays, key=lambda p: (count.is_master(p.card.index), count.trick_power(p)))
        winners = count.winners(plays)
        if any(n in count.after for n in nils):
            return winners[-1] if winners else count.lowest(plays)
        if count.winner in nils and winners:
            return winners[0]
        return count.lowest(plays)

    def under_nil(self, count: Count, plays: list[Play], nils: list[int]) -> Play | None:
        """Against a live nil, following: under the nil bidder when it is winning (the
        highest card that loses to it), low while it is still to play; ``None`` when it
        has played and is not winning."""
        if count.winner in nils:
            loser = count.highest_loser(plays)
            return loser if loser is not None else count.lowest(plays)
        if any(n in count.after for n in nils):
            return count.lowest(plays)
        return None

    def long_suit_lead(self, count: Count, plays: list[Play]) -> Play:
        """Return the lowest card of the longest side suit (trumps if nothing else)."""
        side = [p for p in plays if count.suit(p) != TRUMP] or plays
        return min(
            side,
            key=lambda p: (-count.held_in_suit(count.suit(p)), self.table.strength[p.card.index]),
        )

    def third_hand_high(self, count: Count, winners: list[Play]) -> Play | None:
        """Return the card that goes over a partner's winning card that may not hold
        against the opponents still to play (the cheapest that holds for sure, else the
        highest), or ``None`` when the partner's card is safe or nothing beats it."""
        opponents_after = [s for s in count.after if s not in count.partners]
        if not (winners and opponents_after and count.partner_winning()):
            return None
        partner_card = next(c for s, c in count.view.trick if s == count.winner)
        if count.sure_to_hold(Play(partner_card)):
            return None
        holding = [p for p in winners if count.sure_to_hold(p)]
        return holding[0] if holding else winners[-1]

    def throw(self, count: Count, plays: list[Play]) -> Play:
        """Return the discard: the lowest card of the shortest side suit (toward a void)."""
        side = [p for p in plays if count.suit(p) != TRUMP] or plays
        return min(
            side,
            key=lambda p: (count.held_in_suit(count.suit(p)), self.table.strength[p.card.index]),
        )

    def duck(self, count: Count, plays: list[Play]) -> Play:
        """Contract made and overtricks cost: lead the card most likely to be beaten,
        follow with the highest card that loses; forced, as :meth:`avoid`."""
        return self.avoid(count, plays)
