"""Search bots: perfect-information Monte Carlo (:class:`PIMCBot`) and single-observer
information-set MCTS (:class:`ISMCTSBot`), both from a seat's view only.

Both **determinize**: they draw complete deals consistent with the view, uniformly
(:func:`spadeskit.bots.inference.sample_deal`), and play them out with the rules' fast
rollouts.  A :class:`Determinizer` rebuilds the hand once per decision (a replay of
the hand's public actions on one drawn deal), then makes each further determinization
by swapping the hidden cards in that state, which costs a few microseconds.

Uniform sampling uses what failing to follow suit proves (voids).  Rules that reveal
more (call-break's duty to head the trick and to trump) are checked when the template is
rebuilt (a deal the replay refuses is drawn again), not for every determinization, so
those determinizations may ignore such facts.

The reward of a finished hand for a side is AI Factory's (AIIDE 2013): its points minus
ten per bag it took, minus the same for the best other side, in hundreds.

Bidding is the heuristic bot's with ``bid_by="heuristic"``; with ``bid_by="rollouts"``
a bid is weighed by playing drawn deals out (:class:`~spadeskit.bots.bidsearch.RolloutBidder`,
``bid_deals`` deals a bid: the heuristic's bid, its neighbours and nil, scored from the
match as it stands).  Every other decision outside the play of the cards (blind nil,
pick-ups, discards, exchanges) is the heuristic bot's.  Two-handed Spades, whose draws
from the pile a replay cannot rebuild from a view, and six-handed Spades, whose deck
holds every card twice (the inference places one of each), are played by the heuristic
bot throughout.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from spadeskit.bots.basic import check_reset, check_view
from spadeskit.bots.bidsearch import RolloutBidder
from spadeskit.bots.determinize import (
    Determinizer,
    Rewards,
    action_key,
    bot_policy,
    greedy_policy,
    hand_reward,
    rollout_rewards,
)
from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.bots.solved import solvable, solved_choice
from spadeskit.core.actions import Action, Play
from spadeskit.core.errors import SpadesError, shown
from spadeskit.core.state import GameState, Phase
from spadeskit.core.views import View
from spadeskit.engine.loop import Descent, SearchNode
from spadeskit.engine.rules import Rules

__all__ = ["Determinizer", "ISMCTSBot", "PIMCBot", "hand_reward"]


def _number(value: object, name: str, unit: str = "") -> float:
    """Return a setting that is a number from 0 to a billion, as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1e9:
        raise SpadesError(f"{name} is a number{unit}, from 0 to 1e9, not {shown(value)}")
    return float(value)


class _SearchBot:
    """What both search bots share: the budget, the seed, and the heuristic for the rest."""

    def __init__(
        self,
        iterations: int | None = 300,
        seconds: float | None = None,
        seed: int | None = None,
        rollout: str = "random",
        bid_by: str = "rollouts",
        veto: float = 0.2,
        batched: bool = False,
        match_weight: float = 5.0,
        bid_deals: int = 16,
    ) -> None:
        if iterations is None and seconds is None:
            raise SpadesError("give a budget: iterations, seconds, or both")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise SpadesError(f"iterations is a whole number, 1 or more, not {shown(iterations)}")
        if seconds is not None and not _number(seconds, "seconds") > 0:
            raise SpadesError("seconds is a number above 0, not 0")
        if seed is not None and type(seed) is not int:
            raise SpadesError(f"seed is a whole number or None, not {shown(seed)}")
        if type(batched) is not bool:
            raise SpadesError(f"batched is true or false, not {shown(batched)}")
        if type(rollout) is not str or rollout not in ("random", "greedy", "heuristic"):
            raise SpadesError(f"rollout is 'random', 'greedy' or 'heuristic', not {shown(rollout)}")
        if type(bid_by) is not str or bid_by not in ("heuristic", "rollouts"):
            raise SpadesError(f"bid_by is 'heuristic' or 'rollouts', not {shown(bid_by)}")
        self.iterations = iterations
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.rollout_kind = rollout
        self.heuristic = HeuristicBot()
        self.veto = _number(veto, "veto", " of hundreds of points")
        self.match_weight = _number(match_weight, "match_weight", " of hundreds of points")
        if type(bid_deals) is not int or bid_deals < 1:
            raise SpadesError(
                f"bid_deals is a whole number of deals, 1 or more, not {shown(bid_deals)}"
            )
        self.bidder = (
            RolloutBidder(bid_deals, match_weight=self.match_weight)
            if bid_by == "rollouts"
            else None
        )
        if rollout == "heuristic" and batched:
            raise SpadesError("batched rollouts are random or greedy, not heuristic")
        self.batched = bool(batched)  # only PIMCBot searches in batches so far
        self._batch: Any = None

    def _pick(self, view: View, plays: list[Play], means: list[float]) -> Play:
        """Return the card with the best mean, or the heuristic's card when ``veto`` is
        set and no card beats it by more than ``veto``."""
        best = max(range(len(plays)), key=lambda k: means[k])
        if self.veto > 0:
            preferred = self.heuristic.choose(view)
            if preferred in plays and means[best] - means[plays.index(preferred)] <= self.veto:
                return plays[plays.index(preferred)]
        return plays[best]

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        """Prepare for a match (the arena calls this)."""
        self.rules = check_reset(self, seat, rules, rng)
        self.rng = rng
        self.heuristic.reset(seat, rules, random.Random(rng.getrandbits(64)))
        self.can_search = rules.table.deal.pile == 0 and not rules.table.copies
        if self.bidder is not None:
            self.bidder.reset(seat, rules, random.Random(rng.getrandbits(64)))

    def _budget(self) -> Callable[[int], bool]:
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        most = self.iterations

        def more(done: int) -> bool:
            if most is not None and done >= most:
                return False
            return deadline is None or time.perf_counter() < deadline

        return more

    def _policy(self) -> Any:
        if self.rollout_kind == "random":
            return None
        if self.rollout_kind == "greedy":
            return greedy_policy(self.rng)
        return bot_policy(self.heuristic)

    def choose(self, view: View) -> Action:
        """Return the bot's choice among ``view.legal_actions``."""
        check_view(self, view)
        if not hasattr(self, "rules"):
            raise SpadesError("call reset(seat, rules, rng) before choose (the arena does)")
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        if (
            view.phase is not Phase.PLAY
            or len(plays) <= 1
            or not self.can_search
            or len(plays) != len(view.legal_actions)
        ):
            chosen = self.heuristic.choose(view)
            if self.bidder is not None and self.can_search and not plays:
                return self.bidder.choose(view, chosen)
            return chosen
        try:
            determinizer = Determinizer(view, self.rules, self.rng)
        except SpadesError:
            # No deal the sampler drew replays (a fact of these rules it does not read):
            # play the heuristic's card rather than guess.
            return self.heuristic.choose(view)
        return self.search(view, determinizer, plays)

    def search(self, view: View, determinizer: Determinizer, plays: list[Play]) -> Action:
        raise NotImplementedError


class PIMCBot(_SearchBot):
    """Perfect-information Monte Carlo: for each determinization, every legal card is
    played and the hand rolled out; the card with the best mean reward is chosen.

    ``iterations`` counts rollouts (one card, one determinization); ``seconds`` caps the
    time.  ``rollout="heuristic"`` plays rollouts with the heuristic bot (stronger,
    much slower).  With ``veto`` > 0, the heuristic bot's card is played unless another
    card's mean reward beats it by more than ``veto`` (in hundreds of points): search as
    a check on the heuristic rather than a replacement.

    The defaults (300 rollouts, random playouts, ``veto=0.2``, bids by rollouts: about
    0.045 s a decision on average, a bid about 0.25 s) beat the heuristic bot in
    standard Spades, in two of three whole matches (see the docs' measurements).

    With ``match_weight`` > 0 a playout's reward also counts the match: a hand after
    which the match would end (as the rules' match-end hook says: a side at the target,
    one at the floor) adds ``match_weight`` hundreds of points to the winning side's
    reward and takes as much from every other side's, so search plays for the match
    (making a contract that wins it, setting a side about to win) rather than the
    hand's points alone.

    ``bid_by="rollouts"`` (the default) chooses each bid by playing drawn deals out
    (:class:`~spadeskit.bots.bidsearch.RolloutBidder`, ``bid_deals`` deals a bid);
    ``bid_by="heuristic"`` bids as the heuristic bot does.

    With ``batched=True`` (needs the ``fast`` extra) the rollouts of a decision are
    played together by the batched engine (:meth:`spadeskit.batch.BatchEngine.play_out`):
    ``iterations`` rollouts as ``ceil(iterations / cards)`` determinizations, each card
    rolled out once in each, and with ``seconds``, batches of them until the time is up.
    A rule set the batched engine does not take is searched as without it.

    With ``solve_last=k`` > 0, once at most ``k`` tricks are left to play (the one in
    progress included) each drawn deal is solved double-dummy
    (:func:`spadeskit.bots.solved.solved_choice`) instead of rolled out: every legal card
    gets that deal's double-dummy count of its side's tricks and, while a nil is alive
    (bid, no trick taken yet: the seat's side's first, else the other side's), of the
    nil seat's own tricks, its side playing for the fewest.  With two sides the counts
    are scored as the rules score the hand (the nil seat on its count, the side's other
    books to a seat that did not bid nil, against the other side's, bags, sets and
    nils included, as a rollout's reward is), so that a card that only adds a bag is
    no better than one that does not and a card that keeps a partner's nil (or sets an
    opponent's) is worth the nil; ``veto`` reads those rewards as it reads the
    rollouts'.  Otherwise the counts are the value, the nil's fate first and the side's
    tricks next, and the best is played (the heuristic's card among equals).  Such a
    decision solves ``solve_deals`` drawn deals (fewer if ``seconds`` runs out first;
    ``iterations`` budgets the rollouts only).  Rules the solver cannot follow are
    rolled out throughout.
    """

    def __init__(
        self, *args: Any, solve_last: int = 0, solve_deals: int = 40, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if type(solve_last) is not int or not 0 <= solve_last <= 26:
            raise SpadesError(
                f"solve_last is a number of tricks from 0 to 26, not {shown(solve_last)}"
            )
        if type(solve_deals) is not int or solve_deals < 1:
            raise SpadesError(f"solve_deals is a whole number, 1 or more, not {shown(solve_deals)}")
        self.solve_last = solve_last
        self.solve_deals = solve_deals

    def reset(self, seat: int, rules: Rules, rng: random.Random) -> None:
        super().reset(seat, rules, rng)
        self._batch = None
        if self.batched:
            try:
                from spadeskit.batch import BatchUnsupported, playouts_for

                try:
                    self._batch = playouts_for(rules)
                except BatchUnsupported:
                    pass
            except ImportError:
                pass
            if self._batch is not None:
                import numpy

                self._generator = numpy.random.default_rng(rng.getrandbits(64))

    def search(self, view: View, determinizer: Determinizer, plays: list[Play]) -> Action:
        template = determinizer.template
        seat = view.seat
        assert seat is not None
        left = template.hands[seat].bit_count()
        if 0 < left <= self.solve_last and solvable(self.rules, template):
            action, self.last_iterations = solved_choice(
                view,
                determinizer,
                plays,
                self.rules,
                self.rng,
                self.solve_deals,
                self.seconds,
                self.match_weight,
                self.heuristic,
                self.veto,
            )
            return action
        if self._batch is not None and not determinizer.hidden_discards:
            return self._search_batched(view, determinizer, plays)
        seat = view.seat
        assert seat is not None
        side = self.rules.side_of[seat]
        totals = [0.0] * len(plays)
        counts = [0] * len(plays)
        more = self._budget()
        policy = self._policy()
        done = 0
        rng = self.rng
        memo = Rewards(self.rules, self.match_weight)
        while more(done):
            state = determinizer.sample(rng)
            for k, play in enumerate(plays):
                rewards = rollout_rewards(
                    state.apply(play, seat), rng, policy, memo, self.rollout_kind == "greedy"
                )
                if rewards is not None:
                    totals[k] += rewards[side]
                    counts[k] += 1
                done += 1
        if not done:
            return self.heuristic.choose(view)
        self.last_iterations = done
        return self._pick(
            view,
            plays,
            [totals[k] / counts[k] if counts[k] else -math.inf for k in range(len(plays))],
        )

    def _search_batched(self, view: View, determinizer: Determinizer, plays: list[Play]) -> Action:
        """PIMC with the batched engine's playouts (see the class docs)."""
        import numpy

        from spadeskit.bots.deals import draw_hands

        seat = view.seat
        assert seat is not None
        side = self.rules.side_of[seat]
        width = len(plays)
        rounds = max(1, math.ceil((self.iterations or 300) / width))
        cards = numpy.array([p.card.index for p in plays], dtype=numpy.int64)
        more = self._budget()
        totals = numpy.zeros(width)
        done = 0
        while more(done) or not done:
            hands = draw_hands(determinizer.sampler, self.rng, self._generator, rounds)
            rewards = self._batch.play_out(
                determinizer.template,
                numpy.repeat(hands, width, axis=0),
                numpy.tile(cards, rounds),
                self.rollout_kind,
                self._generator,
                match_weight=self.match_weight,
            )
            totals += rewards[:, side].reshape(rounds, width).sum(axis=0)
            done += rounds * width
        self.last_iterations = done
        return self._pick(view, plays, (totals / (done // width)).tolist())


class ISMCTSBot(_SearchBot):
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).

    Each iteration draws a determinization, descends the one tree of this seat's
    information sets choosing among the actions available in that determinization by
    UCB (``exploration`` 0.7, with availability counts), adds one node, rolls the hand
    out and backs the reward up, each node scoring it for the side that chose its
    action.  The most visited card is played; with ``veto`` > 0, the heuristic bot's card
    unless another card's mean reward beats it by more than ``veto``.

    The defaults (500 iterations, greedy playouts, ``veto=0.2``, bids by rollouts:
    about 0.09 s a decision on average) beat the heuristic bot in standard Spades (see
    the docs' measurements); ``veto=0`` is pure search.  ``match_weight``,
    ``bid_by`` and ``bid_deals`` as for :class:`PIMCBot`.
    """

    def __init__(
        self,
        iterations: int | None = 500,
        seconds: float | None = None,
        seed: int | None = None,
        rollout: str = "greedy",
        bid_by: str = "rollouts",
        exploration: float = 0.7,
        veto: float = 0.2,
        match_weight: float = 5.0,
        bid_deals: int = 16,
    ) -> None:
        super().__init__(
            iterations,
            seconds,
            seed,
            rollout,
            bid_by,
            veto,
            match_weight=match_weight,
            bid_deals=bid_deals,
        )
        self.exploration = _number(exploration, "exploration")

    # The walk down the tree by steps (``GameState.apply``) even where the playout loop
    # could take it: the reference the tests hold the loop's walk to.
    _by_steps = False

    def search(self, view: View, determinizer: Determinizer, plays: list[Play]) -> Action:
        seat = view.seat
        assert seat is not None
        side_of = self.rules.side_of
        root = SearchNode(-1)
        more = self._budget()
        policy = self._policy()
        rng = self.rng
        c = self.exploration
        done = 0
        memo = Rewards(self.rules, self.match_weight)
        greedy = self.rollout_kind == "greedy"
        # Where the rules' playout loop plays the hand (random or greedy playouts), it
        # walks the tree down too, on ints; else each step is ``GameState.apply``.
        in_loop = (policy is None or greedy) and not self._by_steps
        while more(done):
            state = determinizer.sample(rng)
            found: list[float] | None = None
            path: list[SearchNode] | None = None
            if in_loop:
                descent = Descent(root, c)
                found = memo.of_play(state, rng.random, greedy, descent)
                if found is not None:
                    path = descent.path
                else:  # refused before the walk began: the tree is as it was
                    assert len(descent.path) == 1
            if path is None:
                found, path = self._iterate_by_steps(root, state, rng, policy, memo, greedy)
            if found is not None:
                rewards = found
                for visited in path:
                    visited.visits += 1
                    if visited.actor >= 0:
                        visited.reward += rewards[side_of[visited.actor]]
            else:
                for visited in path:
                    visited.visits += 1
            done += 1
        self.last_iterations = done
        if not root.children:
            return self.heuristic.choose(view)
        if self.veto > 0:
            means = []
            for p in plays:
                child = root.children.get(action_key(p))
                means.append(
                    child.reward / child.visits if child is not None and child.visits else -math.inf
                )
            return self._pick(view, plays, means)
        by_key = {action_key(p): p for p in plays}
        best = max(root.children.items(), key=lambda item: item[1].visits)[0]
        return by_key[best] if best in by_key else self.heuristic.choose(view)

    def _iterate_by_steps(
        self,
        root: SearchNode,
        state: GameState,
        rng: random.Random,
        policy: Any,
        memo: Rewards,
        greedy: bool,
    ) -> tuple[list[float] | None, list[SearchNode]]:
        """One iteration's walk down from ``root`` in the drawn deal ``state``, step by
        step (the choices :meth:`Descent.choose <spadeskit.engine.loop.Descent.choose>`
        makes, among any actions), and its playout: the rewards (``None``: none) and
        the path walked."""
        match = state.match
        node = root
        path = [root]
        c = self.exploration
        sqrt, log = math.sqrt, math.log
        while state.match is match and match.end is None:
            if state.to_act is None:
                break
            children = node.children
            untried = []
            known = []
            for a in state.legal_actions():
                key = a.card.index if type(a) is Play else a  # plays are shared values
                child = children.get(key)
                if child is None:
                    untried.append((key, a))
                else:
                    child.avail += 1
                    known.append((child, a))
            if untried:
                key, action = untried[int(rng.random() * len(untried))]
                child = children[key] = SearchNode(state.to_act)
                child.avail = 1
                state = state.apply(action)
                path.append(child)
                break
            best_value = -math.inf
            node, chosen = known[0]
            for child, a in known:
                value = child.reward / child.visits + c * sqrt(log(child.avail) / child.visits)
                if value > best_value:
                    best_value, node, chosen = value, child, a
            state = state.apply(chosen)
            path.append(node)
        if state.match is match:
            return rollout_rewards(state, rng, policy, memo, greedy), path
        # the walk down finished the hand
        return memo.of_result(state.match.results[-1], state.match.end), path
