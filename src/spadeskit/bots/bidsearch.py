"""Bidding by estimation: the bid that scores best over deals drawn from the view.

:class:`RolloutBidder` is the search bots' bidder with ``bid_by="rollouts"``.  At a
bid it asks the heuristic bot for its bid, then weighs that bid, its neighbours and nil
(where the rules offer it and the hand may hold it) by playing the hand out:

1. it draws ``deals`` complete deals consistent with the seat's view
   (:class:`~spadeskit.bots.determinize.Determinizer`: its own cards and the bids made so
   far are kept, the other hands are drawn uniformly);
2. on each deal it makes every candidate bid in turn and plays the rest of the hand
   with the heuristic bot at every seat: the later bidders bid as it bids, a nil is
   ducked and covered, a contract made turns to ducking bags or setting the others;
3. it scores each finished hand by the rules' own scoring, from the match as it stands
   (scores, bags, the target and the floor), as search rewards a hand
   (:class:`~spadeskit.bots.determinize.Rewards`: the side's points less ten a bag, less the
   best other side's, and ``match_weight`` for a hand that ends the match).

Every candidate plays the same deals, so their difference is the bid's own effect
(common random numbers).  The heuristic's bid stands unless another candidate's mean
beats it by more than ``veto`` hundreds of points.

So the trick count, the partner's bid, the bags on the books, the score against the
target and the floor, and whether a nil pays all come from playing, not from a rule of
thumb: the estimate is the distribution of what the side takes with each bid.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spadeskit.bots.determinize import Determinizer, Rewards, bot_policy
from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.core.actions import Action, Bid, Nil
from spadeskit.core.cards import cards_of
from spadeskit.core.errors import SpadesError
from spadeskit.core.state import GameState
from spadeskit.core.views import View
from spadeskit.engine.rules import Rules

__all__ = ["RolloutBidder"]

TOLERANCE = 1.5
"""How far (in tricks) the heuristic's count of a drawn hand may be from the bid its seat
made for the deal to be kept."""
NIL_COUNT = 2.0
"""The most tricks the heuristic may count in a drawn hand whose seat bid nil."""
TRIES = 60
"""Draws tried for a deal that fits the bids made, before the last one is kept."""


class RolloutBidder:
    """Picks a bid by playing drawn deals out (see the module).

    ``deals``: deals drawn a bid; ``spread``: how far from the heuristic's bid the
    numeric candidates go; ``veto``: how much (in hundreds of points a hand) another
    bid's mean must beat the heuristic's by; ``match_weight``: as for the search bots.
    """

    def __init__(
        self,
        deals: int = 16,
        spread: int = 1,
        veto: float = 0.0,
        match_weight: float = 5.0,
    ) -> None:
        if type(deals) is not int or deals < 1:
            raise SpadesError(f"deals is a whole number of deals, 1 or more, not {deals!r}")
        if type(spread) is not int or spread < 0:
            raise SpadesError(f"spread is a whole number of tricks, 0 or more, not {spread!r}")
        if type(veto) not in (int, float) or veto < 0:
            raise SpadesError(f"veto is a number of hundreds of points, 0 or more, not {veto!r}")
        self.deals = deals
        self.spread = spread
        self.veto = float(veto)
        self.match_weight = float(match_weight)

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Prepare for a match: the heuristic bot plays the drawn deals out at every
        seat (it reads the seat from each view) and counts the drawn hands."""
        self.rules = rules
        self.rng = rng
        self.player = HeuristicBot(rules)
        self._policy = bot_policy(self.player)

    def _draw(self, determinizer: Determinizer, made: Sequence[tuple[int, Action]]) -> GameState:
        """Return a drawn deal in which every bid already made is one the heuristic's
        count of that seat's drawn cards would make (within ``TOLERANCE`` tricks; a nil
        from a hand it counts at most ``NIL_COUNT`` tricks in), trying up to ``TRIES``
        draws: a partner who bid five holds a strong hand."""
        state = determinizer.sample(self.rng)
        for _ in range(TRIES):
            if all(self._fits(state.hands[s], s, bid) for s, bid in made):
                return state
            state = determinizer.sample(self.rng)
        return state

    def _fits(self, hand: int, seat: int, bid: Action) -> bool:
        player = self.player
        count = player.estimate(cards_of(hand)) + player.offset
        if isinstance(bid, Nil):
            return count <= NIL_COUNT
        assert isinstance(bid, Bid)
        return abs(count - bid.tricks) <= TOLERANCE if bid.tricks else count <= NIL_COUNT

    def candidates(self, view: View, preferred: Action) -> list[Action]:
        """Return the bids weighed: ``preferred`` first, the numeric bids within
        ``spread`` of it, and nil where it is offered and the hand may hold it (the
        heuristic counts at most three tricks in it)."""
        legal = view.legal_actions
        numeric = [a for a in legal if isinstance(a, Bid)]
        if isinstance(preferred, Bid):
            centre = preferred.tricks
        else:
            centre = min((b.tricks for b in numeric if b.tricks > 0), default=0)
        found: list[Action] = [preferred]
        for bid in numeric:
            if abs(bid.tricks - centre) <= self.spread and bid not in found:
                found.append(bid)
        nil = next((a for a in legal if isinstance(a, Nil)), None)
        if nil is not None and nil not in found and centre <= 3:
            found.append(nil)
        return found

    def choose(self, view: View, preferred: Action) -> Action:
        """Return the bid to make at ``view``, ``preferred`` being the heuristic's."""
        if not isinstance(preferred, (Bid, Nil)):
            return preferred
        options = self.candidates(view, preferred)
        if len(options) < 2:
            return preferred
        seat = view.seat
        assert seat is not None
        try:
            determinizer = Determinizer(view, self.rules, self.rng)
        except SpadesError:
            return preferred
        side = self.rules.side_of[seat]
        memo = Rewards(self.rules, self.match_weight)
        totals = [0.0] * len(options)
        counts = [0] * len(options)
        made = [(s, b) for s, b in enumerate(view.bids) if isinstance(b, (Bid, Nil)) and s != seat]
        for _ in range(self.deals):
            state = self._draw(determinizer, made)
            for k, bid in enumerate(options):
                end = state.apply(bid, seat).rollout(seed=0, policy=self._policy)
                if end.match is state.match or not end.match.results:
                    continue  # no score (a misdeal): nothing to learn from this deal
                totals[k] += memo.of_result(end.match.results[-1], end.match.end)[side]
                counts[k] += 1
        if not counts[0]:
            return preferred
        means = [totals[k] / counts[k] if counts[k] else -1e9 for k in range(len(options))]
        self.last_means = dict(zip(options, means))
        best = max(range(len(options)), key=lambda k: means[k])
        return options[best] if means[best] - means[0] > self.veto else preferred
