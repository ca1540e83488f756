"""Playouts: a hand played to its end, exactly as the step API would play it.

A playout bids through the step API's own code, finds a random discard or exchange by
its index, and plays its cards in the one playout loop
(:class:`~spadeskit.engine.loop.CardLoop`) where the rules allow it; otherwise it plays
card by card through ``apply``'s own code.  Every random choice is the one
``random.Random(seed).choice(legal_actions())`` would make.

A playout's policy is named by how it chooses: ``randbelow`` (``rng.choice``'s draw of
an index), ``fraction`` (floats in [0, 1): the ``int(fraction() * k)``-th of ``k``), a
``follow`` function for the cards that follow a lead (search's greedy playouts), or a
``policy`` that sees every state."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from spadeskit.core.actions import Action, Discard, Exchange
from spadeskit.core.cards import COPY, fold_copies
from spadeskit.core.errors import (
    SpadesError,
    shown,
)
from spadeskit.core.results import HandResult, HandScore, MatchEnd
from spadeskit.core.seeding import check_range, check_seed, index_drawer, mix
from spadeskit.core.state import (
    Dealing,
    GameState,
    MatchState,
    Phase,
    Policy,
    copy_to_builder,
    freeze,
)
from spadeskit.engine.auction import Auction
from spadeskit.engine.base import Shared, listed
from spadeskit.engine.combos import nth_combo
from spadeskit.engine.dealing import Dealer
from spadeskit.engine.loop import CardLoop, Descent, build_loop
from spadeskit.engine.scoring import Scoring
from spadeskit.engine.steps import Steps
from spadeskit.engine.tricks import Tricks, won_with_blind
from spadeskit.engine.turns import Turns

# Phase members bound once (enum lookups cost about 0.1 µs each on the hot path), and
# Final, as every module global the hot path reads: the native core then reads them as
# constants instead of looking them up in the module dict.
_PLAY: Final = Phase.PLAY
_AUCTION: Final = Phase.AUCTION
_EXCHANGE: Final = Phase.EXCHANGE

PlayOutcome = tuple[Any, ...]
"""``(HandScore, MatchEnd | None)``, typed as a tuple of any length: the native core
returns such a tuple as the object it holds, where a fixed-length tuple type would be
rebuilt on the way out, and search keys its memo on the object's identity."""


def nth_play(legal: int, randbelow: Callable[[int], int], copies: bool) -> int:
    """Return the card index of the ``randbelow(k)``-th of the ``k`` plays of the legal
    mask ``legal``, in index order: ``rng.choice(legal_actions())``'s card.  With
    ``copies`` (a deck that holds a card twice), a card held twice is one play, and the
    copy played is the one ``apply`` takes (the card's own index if legal)."""
    mask = fold_copies(legal) if copies else legal
    for _ in range(randbelow(mask.bit_count())):
        mask &= mask - 1
    index = (mask & -mask).bit_length() - 1
    return index if (legal >> index) & 1 else index + COPY


def _check_policy(policy: object) -> None:
    if policy is not None and not callable(policy):
        raise SpadesError(
            f"a policy is a function (state, legal_actions) -> action, not {shown(policy, 40)}"
        )


class Playouts:
    """Rollouts, simulations and the playout loop (see :mod:`spadeskit.engine.base`)."""

    def __init__(
        self,
        shared: Shared,
        auction: Auction,
        steps: Steps,
        dealer: Dealer,
        scoring: Scoring,
        tricks: Tricks,
        turns: Turns,
    ) -> None:
        self.shared = shared
        self.auction = auction
        self.steps = steps
        self.dealer = dealer
        self.scoring = scoring
        self.tricks = tricks
        self.turns = turns
        self.loop: CardLoop | None = build_loop(shared)

    # ----------------------------------------------------------------------------------
    # Rollouts and simulations
    # ----------------------------------------------------------------------------------

    def rollout(self, game: GameState, seed: Any, policy: Policy | None) -> GameState:
        if seed is not None:
            check_seed(seed)
        _check_policy(policy)
        rng = random.Random(seed)
        return self._rollout(game, rng.choice, index_drawer(rng), policy)

    def _rollout(
        self,
        game: GameState,
        choice: Callable[[Sequence[Action]], Action],
        draw: Callable[[int], int],
        policy: Policy | None,
        fraction: Callable[[], float] | None = None,
    ) -> GameState:
        """Play to the end of the hand, choosing with ``choice`` (of a sequence) or
        ``draw`` (an index below ``n``), which must agree with each other, and with
        ``fraction`` (``draw(n) == int(fraction() * n)``) where it is given."""
        end = self._play_out(game, choice, draw, policy, fraction, True)
        assert isinstance(end, GameState)
        return end

    def rollout_floats(self, game: GameState, fraction: Callable[[], float]) -> GameState:
        """Play ``game``'s hand to its end at random, every choice drawn from ``fraction``
        (floats in [0, 1): the ``int(fraction() * n)``-th of ``n`` options), and return
        the state just after scoring: :meth:`GameState.rollout` for callers that keep one
        generator across many rollouts (search)."""
        end = self._play_out_floats(game, fraction, None, True)
        assert isinstance(end, GameState)
        return end

    def _play_out_floats(
        self, game: GameState, fraction: Callable[[], float], policy: Policy | None, close: bool
    ) -> GameState | HandResult:
        """:meth:`_play_out` with every random choice drawn from ``fraction``."""

        def draw(count: int) -> int:
            return int(fraction() * count)

        def choice(options: Sequence[Action]) -> Action:
            return options[int(fraction() * len(options))]

        return self._play_out(game, choice, draw, policy, fraction, close)

    def _play_out(
        self,
        game: GameState,
        choice: Callable[[Sequence[Action]], Action],
        draw: Callable[[int], int],
        policy: Policy | None,
        fraction: Callable[[], float] | None,
        close: bool,
    ) -> GameState | HandResult:
        """:meth:`_rollout`; with ``close=False``, the hand's result instead where the
        random play ends it with no review (nothing recorded, no next hand built)."""
        match = game.match
        while game.match is match and match.end is None:
            if policy is None:
                phase = game.phase
                if phase is _PLAY and self.shared.play_offer is None:
                    after = self._random_play(game, draw, fraction, close)
                    if type(after) is HandResult:
                        return after
                    game = after  # type: ignore[assignment]
                    continue
                if phase is _AUCTION:
                    game = self._random_auction(game, choice)
                    continue
                if phase is _EXCHANGE and self.shared.player_offers[_EXCHANGE] is None:
                    game = self._random_step(game, draw)
                    continue
            legal = game.legal_actions()
            game = game.apply(choice(legal) if policy is None else policy(game, legal))
        return game

    def _random_auction(
        self, game: GameState, choice: Callable[[Sequence[Action]], Action]
    ) -> GameState:
        """Bid at random to the end of the auction.

        Each choice is ``choice`` of exactly what ``legal_actions()`` lists: the auction
        actions, then anything offered out of turn.  A bid goes through the step API's
        own code (:meth:`_bid_state`, the legality check aside); an offered action
        through :meth:`_take_offered`, as :meth:`apply` decides it.
        """
        offer = self.shared.player_offers[_AUCTION]
        match = game.match
        while game.phase is _AUCTION:
            seat = game.to_act
            assert seat is not None
            own = self.auction._auction_actions(game, seat)
            if offer is None:
                if not own:
                    raise self.shared._stuck(game, seat)
                action = choice(own)
            else:
                offered = self.turns._offered(offer, game, seat)
                if not own and not offered:
                    raise self.shared._stuck(game, seat)
                action = choice(own + offered)
                if listed(action, offered):  # as apply() decides: offered actions first
                    game = self.turns._take_offered(game, seat, action, offer)
                    if game.match is not match:
                        return game
                    continue
            game = self.auction._bid_state(game, seat, action)
        return game

    def _random_step(self, game: GameState, randbelow: Callable[[int], int]) -> GameState:
        """Take one random discard or exchange: the action ``choice(legal_actions())``
        would pick, found by its index without building the others."""
        seat = game.to_act
        assert seat is not None
        step = game.steps[self.steps.step_of(game, seat)]
        kind = Discard if step.kind == "discard" else Exchange
        held = fold_copies(game.hands[seat])
        action = nth_combo(
            kind, held, step.count, randbelow(math.comb(held.bit_count(), step.count))
        )
        return self.steps.take(game, seat, action)

    def _random_play(
        self,
        game: GameState,
        randbelow: Callable[[int], int],
        fraction: Callable[[], float] | None = None,
        close: bool = True,
    ) -> GameState | HandResult:
        """Play random cards to the end of the hand's play: each the ``randbelow(k)``-th
        legal card, or, given ``fraction`` (floats in [0, 1)), the ``int(fraction() * k)``-th."""
        loop = self.loop
        if loop is not None and (
            not game.pile or self.shared.draw or self.shared.calls.after_trick is not None
        ):
            s = copy_to_builder(game)
            s._legal = None
            s = loop.play(
                s, self.shared.rules.strength_table(s.contract.trump), randbelow, fraction
            )
            return self.tricks._end_play(freeze(s), close)
        return self._step_play(game, randbelow)

    def random_play_score(
        self,
        game: GameState,
        fraction: Callable[[], float],
        memo: dict[Any, Any] | None = None,
        follower: Callable[..., int] | None = None,
    ) -> HandScore | None:
        """:meth:`random_play_outcome`'s score alone."""
        found = self.random_play_outcome(game, fraction, memo, follower, False)
        if found is None:
            return None
        score: HandScore = found[0]
        return score

    def random_play_outcome(
        self,
        game: GameState,
        fraction: Callable[[], float],
        memo: dict[Any, Any] | None = None,
        follower: Callable[..., int] | None = None,
        ends: bool = True,
        descent: Descent | None = None,
    ) -> PlayOutcome | None:
        """Play the rest of the hand's cards at random (``fraction`` gives floats in
        [0, 1)) and return the hand's :class:`HandScore` and, with ``ends``, how the
        match would end after it (:meth:`end_after`; ``None``: it goes on), without
        closing the hand (no next hand is built): the fast path for search.  ``None`` where
        the rules need the full path (a review step, out-of-turn offers during play, no
        playout loop); call :meth:`GameState.rollout` then.

        ``memo``, a dict shared by calls on states of one hand's play (the same bids,
        contract and match), keeps each score the scoring hooks gave without reading the
        cards won or the tricks (nor card points, where the variant counts them), by
        books, book transfers and the hand's plugin data, and answers from it: scoring hooks are
        functions of what they are given, so the same books score the same (and end the
        match the same way; one memo serves calls that all ask ``ends``, or none).

        ``follower`` chooses each card that follows a lead instead (leads stay random):
        ``follower(trick, allowed, seat, rows, suit_of, side_of)`` returns the mask of one
        card of ``allowed``; the loop calls :func:`~spadeskit.engine.loop.greedy_follow`
        inline.  ``descent`` (:class:`~spadeskit.engine.loop.Descent`) walks a search tree
        down first; it is refused (``None``, the tree untouched) where the rules have a
        ``spadeskit_before_scoring`` hook, whose answer comes too late for it.

        A memo's answer is the very tuple it keeps (callers may key on its identity)."""
        if (
            game.phase is not _PLAY
            or self.shared.play_offer is not None
            or self.loop is None
            or (game.pile and not self.shared.draw and self.shared.calls.after_trick is None)
            or (descent is not None and self.shared.calls.before_scoring is not None)
        ):
            return None
        s = copy_to_builder(game)
        s._legal = None
        rows = self.shared.rules.strength_table(s.contract.trump)
        s = self.loop.play(s, rows, None, fraction, follower, descent)
        contract = s.contract
        if contract.blind_to == "last-trick" and s.blind:
            s.won, s.blind = won_with_blind(s), 0
        end = freeze(s)  # hooks see frozen states only
        review = self.shared.calls.before_scoring
        if review is not None and review(end) is not None:
            return None  # a review step follows the play: only the full path has it
        if memo is None:
            score = self.scoring.score(self.scoring.summary(end), end.match)
            return score, self.end_after(end, score) if ends else None
        key = (end.books, end.transfers, end.extra)
        found: PlayOutcome | None = memo.get(key)
        if found is None:
            summary = self.scoring.summary(end)
            score = self.scoring.score(summary, end.match)
            # Declared as PlayOutcome, the tuple is one object from the start: the one
            # kept is the one returned (compiled code boxes a fixed-length tuple anew
            # each time it leaves native code).
            outcome: PlayOutcome = (score, self.end_after(end, score) if ends else None)
            # Kept only where the scoring read no card and no trick.
            if callable(summary._won) and callable(summary._tricks) and summary.points is None:
                memo[key] = outcome
            return outcome
        return found

    def end_after(self, game: GameState, score: HandScore) -> MatchEnd | None:
        """Return how the match would end if ``game``'s finished play scored ``score``
        (``None``: it goes on), as the rules' match-end hook says when the hand closes."""
        return self.scoring.settle(
            game.match, self.scoring.result_of(game, score), (), game.dealer
        )[0].end

    def _step_play(self, game: GameState, randbelow: Callable[[int], int]) -> GameState:
        """Play random cards to the end of the hand's play through the step API's own
        code (:meth:`_play`): the path for rules whose filters do not all compile (a plain
        Python filter, table enforcement).  Each card is the ``randbelow(k)``-th legal
        play in index order, what ``rng.choice(legal_actions())`` picks with the same
        generator, so the result equals stepping with ``apply``; every hook and filter
        sees the frozen states ``apply`` builds (a deck holding a card twice too)."""
        match = game.match
        copies = self.shared.copies
        while True:
            seat = game.to_act
            assert seat is not None
            legal = self.tricks.legal_mask(game)
            game = self.tricks._play(game, seat, nth_play(legal, randbelow, copies))
            if game.phase is not _PLAY or game.match is not match:
                return game

    def simulate(
        self, hands: Any, seed: Any, policy: Policy | None, start: Any
    ) -> Iterator[HandResult]:
        check_range(hands, start, 2**63)
        check_seed(seed)
        _check_policy(policy)
        return self._simulate(hands, seed, policy, start)

    def _simulate(
        self, hands: int, seed: int, policy: Policy | None, start: int, close: bool = False
    ) -> Iterator[HandResult]:
        """The hands of :meth:`simulate`; each result is taken from the finished play
        without recording it in a match (``close=True`` records each, as stepping does,
        for the tests that compare the two)."""
        n = self.shared.n
        match = MatchState.fresh(len(self.shared.table.sides))
        for number in range(start, start + hands):
            # One generator per hand deals it and makes its random choices.  Choices are
            # drawn from 53-bit floats (uniform to within n / 2**53): random.Random's own
            # integer draw is Python code, a third of the cost of a simulated card.
            rng = random.Random(f"spadeskit simulate {seed} {number}")
            game = self.dealer._hand(
                Dealing(mix(seed, number), None), match, 0, (n - 1 + number) % n, rng
            )
            end = self._play_out_floats(game, rng.random, policy, close)
            yield end if type(end) is HandResult else end.match.results[-1]  # type: ignore[union-attr]
