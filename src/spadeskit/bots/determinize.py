"""What the search bots share: deals drawn from a seat's view (:class:`Determinizer`),
playouts of a drawn deal (at random or greedily) and the reward of a finished hand
(:func:`hand_reward`).  :mod:`spadeskit.bots.search` re-exports the public names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from spadeskit.bots.basic import Bot
from spadeskit.bots.inference import DealSampler, Facts, facts
from spadeskit.core.actions import Action, Discard, Exchange, Play
from spadeskit.core.cards import ALL_CARDS, Card
from spadeskit.core.errors import SpadesError
from spadeskit.core.events import (
    BidMade,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CardsPassed,
    OutOfTurn,
)
from spadeskit.core.results import HandResult, MatchEnd
from spadeskit.core.state import GameState, Phase
from spadeskit.core.views import View
from spadeskit.engine.authoring import evolve_hand
from spadeskit.engine.loop import Descent, greedy_follow
from spadeskit.engine.rules import Rules, rules_of
from spadeskit.engine.viewing import make_view


def hand_reward(state: GameState, side: int) -> float:
    """Return the reward of the last scored hand for ``side``: (points − 10 × bags taken)
    minus the best other side's, in hundreds."""
    return Rewards(rules_of(state)).of_result(state.match.results[-1])[side]


class Determinizer:
    """Full game states consistent with a seat's view (see the module)."""

    def __init__(self, view: View, rules: Rules, rng: random.Random) -> None:
        if view.seat is None:
            raise SpadesError("a spectator cannot search: give a seat's view")
        if view.pile_size or any(isinstance(e, CardsDrawn) for e in view.events):
            raise SpadesError("states with draws from a pile cannot be rebuilt from a view")
        if any(isinstance(e, BidMade) and e.bid is None for e in view.events):
            raise SpadesError("a sealed bid cannot be replayed: search waits until bids show")
        self.view = view
        self.rules = rules
        self.facts: Facts = facts(view, rules)
        self.sampler = DealSampler(view, rules, self.facts)
        # Facts beyond voids (call-break's heading, say) are checked by the replay: a deal
        # it refuses is drawn again, so the template is a consistent deal.
        for attempt in range(200):
            deal = self.sampler.draw(rng)
            try:
                self.template = self._rebuild(deal, rng)
                break
            except SpadesError:
                if attempt == 199:
                    raise

        # Cards every seat won in tricks, without the hidden discards of the drawn deal.
        self.base_won = tuple(w & ~d for w, d in zip(self.template.won, deal.discards))
        self.hidden_discards = any(deal.discards)

    def sample(self, rng: random.Random) -> GameState:
        """Return a new state consistent with the view, its hidden cards drawn uniformly."""
        deal = self.sampler.draw(rng)
        if self.hidden_discards:
            won = tuple(w | d for w, d in zip(self.base_won, deal.discards))
            return evolve_hand(self.template, hands=deal.hands, blind=deal.blind, won=won)
        return evolve_hand(self.template, hands=deal.hands, blind=deal.blind)

    def _rebuild(self, deal: Any, rng: random.Random) -> GameState:
        """Replay the hand's public actions on an initial deal that leads to ``deal``."""
        view, rules = self.view, self.rules
        n = rules.table.players
        held = [set(i for i in range(54) if deal.hands[s] >> i & 1) for s in range(n)]
        for s in range(n):
            held[s] |= {i for i in range(54) if deal.discards[s] >> i & 1}
        for e in view.events:
            if isinstance(e, CardsDiscarded) and e.cards is not None:
                held[e.seat] |= {c.index for c in e.cards}  # the viewer's own discards
        played: list[set[int]] = [set() for _ in range(n)]
        for t in view.tricks:
            for s, c in t.plays:
                played[s].add(c.index)
        for s, c in view.trick:
            played[s].add(c.index)
        final = [held[s] | played[s] for s in range(n)]  # each seat's cards after exchanges
        hidden_discards = [
            sorted(i for i in range(54) if deal.discards[s] >> i & 1) for s in range(n)
        ]
        # Undo exchanges, newest first, choosing the cards of those this seat did not see.
        passes = [e for e in view.events if isinstance(e, CardsPassed)]
        chosen: dict[int, tuple[int, ...]] = {}
        for number in reversed(range(len(passes))):
            e = passes[number]
            cards = (
                tuple(c.index for c in e.cards)
                if e.cards is not None
                else tuple(rng.sample(sorted(final[e.to]), e.count))
            )
            chosen[number] = cards
            final[e.to] -= set(cards)
            final[e.seat] |= set(cards)
        blind = deal.blind
        declarer = next(
            (
                e.seat
                for e in view.events
                if isinstance(e, BidMade) and type(e.bid).__name__ == "PickUp"
            ),
            None,
        )
        # A seat that picked up the blind (the bidder, or a kitty's seat at the deal)
        # held it among its cards: any of them will do as the blind dealt.
        taker = rules.table.deal.kitty_seat(view.dealer, n)
        if taker is None:
            taker = declarer
        if taker is not None:
            size = rules.table.deal.blind
            picked = rng.sample(sorted(final[taker]), size)
            final[taker] -= set(picked)
            for i in picked:
                blind |= 1 << i
        hands = [[ALL_CARDS[i] for i in sorted(final[s])] for s in range(n)]
        blind_cards = [ALL_CARDS[i] for i in range(54) if blind >> i & 1]
        game = rules.new_game(deal=hands, blind=blind_cards, dealer=view.dealer)
        discarded = list(hidden_discards)
        passed = 0
        for event in view.events:
            if isinstance(event, BidMade):
                assert event.bid is not None  # refused in __init__
                game = game.apply(event.bid, event.seat)
            elif isinstance(event, CardPlayed):
                game = game.apply(Play(event.card), event.seat)
            elif isinstance(event, CardsPassed):
                game = game.apply(Exchange([ALL_CARDS[i] for i in chosen[passed]]), event.seat)
                passed += 1
            elif isinstance(event, CardsDiscarded):
                if event.cards is not None:
                    laid: Sequence[Card] = event.cards
                else:
                    laid = [ALL_CARDS[i] for i in discarded[event.seat][: event.count]]
                    discarded[event.seat] = discarded[event.seat][event.count :]
                game = game.apply(Discard(laid), event.seat)
            elif isinstance(event, OutOfTurn):
                game = game.apply(event.action, event.seat)
        if game.to_act != view.seat or game.phase is not view.phase:
            raise SpadesError(
                "the view's hand could not be rebuilt (a plugin keeps state a view does not show)"
            )
        return game


def fast_rollout(state: GameState, rng: random.Random, policy: Any) -> GameState:
    """Play ``state``'s hand out with ``rng``'s floats (no generator built per rollout)."""
    if policy is not None:
        return state.rollout(seed=rng.getrandbits(64), policy=policy)
    return rules_of(state).engine.playouts.rollout_floats(state, rng.random)


def greedy_policy(rng: random.Random) -> Callable[[GameState, Sequence[Action]], Action]:
    """Return a cheap rollout policy on the full state, drawing from ``rng``: lead a
    random card; follow with :func:`~spadeskit.bots.greedy_card` (the cheapest card
    that takes the trick unless the seat's side is winning it or none can, else the
    cheapest).  Decisions other than plays are random.  The rules' compiled playouts
    play the same way (``Engine.random_play_score(..., follower=greedy_follow)``); search uses
    those where the rules have them and this policy elsewhere."""
    fraction = rng.random

    def policy(state: GameState, legal: Sequence[Action]) -> Action:
        plays = [a for a in legal if type(a) is Play]
        trick = state.trick
        seat = state.to_act
        if len(plays) != len(legal) or not trick or seat is None:
            options = plays if plays and len(plays) == len(legal) else legal
            return options[int(fraction() * len(options))]
        rules = state.rules
        contract = state.contract
        rows = rules.strength_table(contract.trump if contract is not None else "spades")
        allowed = 0
        for a in plays:
            allowed |= a.card.bit
        bit = greedy_follow(trick, allowed, seat, rows, rules.ranking.suit_of, rules.side_of)
        return next(a for a in plays if a.card.bit == bit)

    return policy


def bot_policy(bot: Bot) -> Callable[[GameState, Sequence[Action]], Action]:
    """Return a rollout policy in which ``bot`` (reset for these rules) chooses for
    every seat, from each seat's view without the hand's events (``make_view(...,
    events=False)``: views are most of a playout's cost, and the heuristic bot does not
    read the events).  A single legal action is taken without asking.  ``bot`` must take
    the seat it plays from each view, not from ``reset``, as the heuristic bot does.
    Search's ``rollout="heuristic"`` and the rollout bidder play their playouts with it."""

    def policy(state: GameState, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = state.to_act
        assert seat is not None
        return bot.choose(make_view(state, seat, events=False))

    return policy


def side_values(points: Sequence[int], lines: Sequence[Any], sides: int, unit: int) -> list[float]:
    """Return each side's reward from a hand's points and score lines (see :func:`hand_reward`)."""
    value = [float(points[s]) for s in range(sides)]
    for line in lines:
        if line.bags > 0:
            value[line.side] -= 10 * line.bags
    rewards = []
    for s in range(sides):
        others = [v for i, v in enumerate(value) if i != s]
        rewards.append((value[s] - max(others)) / (100 * unit) if others else 0.0)
    return rewards


class Rewards:
    """Each side's reward for hands played out from one decision's states: scores the
    scoring hooks gave from books alone are kept (see ``Engine.random_play_score``), and
    so are the rewards worked out from them."""

    def __init__(self, rules: Rules, match_weight: float = 0.0) -> None:
        self.engine = rules.engine
        self.sides = len(rules.table.sides)
        self.unit = rules.table.score_unit
        self.weight = match_weight
        self.scores: dict[Any, Any] = {}
        self.values: dict[int, list[float]] = {}

    def _with_end(self, values: list[float], end: MatchEnd | None) -> list[float]:
        """Add the match's end to each side's reward: ``match_weight`` for the side that
        wins the match with this hand, less as much for every other side."""
        if end is None or not self.weight:
            return values
        w = self.weight
        return [v + (w if side == end.winner else -w) for side, v in enumerate(values)]

    def of_play(
        self,
        state: GameState,
        fraction: Callable[[], float],
        greedy: bool = False,
        descent: Descent | None = None,
    ) -> list[float] | None:
        """Play ``state``'s cards out (at random, or greedily; the first ones down a
        search tree with ``descent``) and return the rewards, or ``None`` where the
        rules need the full path (and ``descent`` has not moved)."""
        kept = len(self.scores)
        outcome = self.engine.playouts.random_play_outcome(
            state,
            fraction,
            self.scores,
            greedy_follow if greedy else None,
            bool(self.weight),
            descent,
        )
        if outcome is None:
            return None
        found = self.values.get(id(outcome))
        if found is None:
            score, end = outcome
            found = self._with_end(
                side_values(score.points, score.lines, self.sides, self.unit), end
            )
            if len(self.scores) > kept:  # the memo just kept this outcome (and keeps it alive)
                self.values[id(outcome)] = found
        return found

    def of_books(self, state: GameState, books: tuple[int, ...]) -> list[float] | None:
        """Return the rewards of ``state``'s hand ending with ``books`` (each seat's
        tricks), scored by the rules as a played-out hand would be, or ``None`` when its
        score would read more than the books (the cards won, the tricks, card points)."""
        key = ("books", books, state.transfers, state.extra)
        found = self.values.get(id(self.scores.get(key)))
        if found is not None:
            return found
        if key in self.scores:
            return None
        end = evolve_hand(state, books=books)
        scoring = self.engine.scoring
        summary = scoring.summary(end)
        score = scoring.score(summary, end.match)
        if not (callable(summary._won) and callable(summary._tricks) and summary.points is None):
            self.scores[key] = None
            return None
        ends = self.engine.playouts.end_after(end, score) if self.weight else None
        outcome = (score, ends)
        self.scores[key] = outcome
        found = self.values[id(outcome)] = self._with_end(
            side_values(score.points, score.lines, self.sides, self.unit), ends
        )
        return found

    def of_result(self, result: HandResult, end: MatchEnd | None = None) -> list[float]:
        """Return the rewards of a finished hand's result (``end``: how the match ended
        with it, counted with ``match_weight``)."""
        return self._with_end(side_values(result.points, result.lines, self.sides, self.unit), end)


def rollout_rewards(
    state: GameState, rng: random.Random, policy: Any, memo: Rewards, greedy: bool = False
) -> list[float] | None:
    """Play ``state``'s hand out and return every side's reward, or ``None`` if the hand
    ended without a score (a misdeal).  ``greedy``: ``policy`` is the greedy policy,
    which the rules' compiled greedy playouts replace where they can."""
    if (policy is None or greedy) and state.phase is Phase.PLAY:
        found = memo.of_play(state, rng.random, greedy)
        if found is not None:
            return found
    match = state.match
    end = fast_rollout(state, rng, policy) if match.end is None else state
    if not end.match.results or end.match is match:
        return None
    return memo.of_result(end.match.results[-1], end.match.end)


def action_key(action: Action) -> Any:
    """Return a cheap dictionary key for an action: a play's card index (plays are the
    shared values of ``legal_actions``), else the action itself."""
    return action.card.index if isinstance(action, Play) else action
