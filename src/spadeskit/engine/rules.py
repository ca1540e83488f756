"""The rules object apps hold: :class:`Rules`, which starts games and scores hands.

:func:`spadeskit.load_rules` builds one from a variant, its house rules and options.  It
is a :class:`~spadeskit.engine.loaded.LoadedRules` (the table, rankings, filters
and hook calls, built once) with the :class:`~spadeskit.engine.playing.Engine` that plays
them: it starts games (:meth:`Rules.new_game`), plays independent hands for simulations
(:meth:`Rules.simulate`, :meth:`Rules.simulate_batch`) and scores hands written on paper
(:meth:`Rules.score_hand`, :meth:`Rules.score_sheet`).

The batched engine (:mod:`spadeskit.batch`, numpy) sits above this layer, so it is
reached through a registry: :func:`register_batch_engine`, which the ``spadeskit``
package fills when it is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from spadeskit.core.actions import Action
from spadeskit.core.cards import CardLike
from spadeskit.core.errors import SpadesError
from spadeskit.core.results import HandResult, HandScore, HandSummary
from spadeskit.core.state import GameState, Policy
from spadeskit.engine.hookcalls import HookCalls
from spadeskit.engine.loaded import LoadedRules
from spadeskit.engine.playing import Engine
from spadeskit.engine.scoresheet import ScoreSheet
from spadeskit.engine.sheethands import score_written

__all__ = [
    "BatchEngine",
    "HookCalls",
    "HandScore",
    "Rules",
    "register_batch_engine",
    "rules_of",
]

BatchEngine = Callable[..., Iterator[Any]]
"""``simulate_batch(rules, hands, seed, policy, *, start, chunk)``: the batched engine's
entry point (:func:`spadeskit.batch.simulate_batch`)."""

_BATCH_ENGINE: BatchEngine | None = None


def register_batch_engine(simulate: BatchEngine) -> None:
    """Make ``simulate`` the batched engine behind :meth:`Rules.simulate_batch`.

    The ``spadeskit`` package registers :func:`spadeskit.batch.simulate_batch` (loaded
    on first use, since it needs numpy) when it is imported; nothing else need call it.
    """
    global _BATCH_ENGINE
    _BATCH_ENGINE = simulate


def rules_of(game: GameState) -> Rules:
    """Return the :class:`Rules` that started ``game`` (``game.rules``, typed as such)."""
    rules = game.rules
    if not isinstance(rules, Rules):
        raise SpadesError(f"the game's rules {rules!r} were not built by spadeskit.load_rules")
    return rules


class Rules(LoadedRules):
    """A variant with its house rules and options, loaded for play.

    Build it with :func:`spadeskit.load_rules`.  It starts games (:meth:`new_game`),
    plays independent hands for simulations (:meth:`simulate`) and scores hands from
    summaries (:meth:`score_hand`).  Two rules objects are equal when they were built
    from the same variant, house rules and options.  Rules pickle by those names and
    options (the receiving process loads the same installed plugins), so states can be
    sent to other processes.

    ``engine`` is the :class:`~spadeskit.engine.playing.Engine` that plays these rules
    (built with them by :func:`~spadeskit.load_rules`): the typed seam through which
    states, score sheets, replay, search and the adapters reach the state machine.
    """

    engine: Engine

    def new_game(
        self,
        seed: int | None = None,
        *,
        deal: Sequence[Iterable[CardLike] | str] | None = None,
        dealer: int | None = None,
        blind: Iterable[CardLike] | str = (),
        pile: Iterable[CardLike] | str = (),
    ) -> GameState:
        """Start a match.

        ``seed`` makes every shuffle reproducible, and so predictable by anyone who
        knows it.  Without one, the game shuffles from a secret drawn from the OS that
        no view or record shows (``game.seed`` is then ``None``).  ``deal`` gives the
        first hand's cards explicitly, one list per seat in
        seat order (``["AS", "10D", ...]`` or a string ``"AS 10D ..."``); a variant with
        a blind takes it as ``blind=``, a draw pile as ``pile=`` (top card first).  A
        deal as a record holds it (``record["deal"]``: the hands, then the blind, then
        the pile) is accepted as it is.
        Later hands are shuffled from the seed.  ``dealer`` is the first dealer (default:
        the last seat, so seat 0 speaks first).
        """
        return self.engine.new_game(seed, deal, dealer, blind, pile)

    def simulate(
        self, hands: int, seed: int = 0, policy: Policy | None = None, *, start: int = 0
    ) -> Iterator[HandResult]:
        """Yield the results of independent hands ``start`` … ``start + hands - 1``.

        Each hand is dealt, played and scored.  Hand ``i`` is the first hand of a new
        match whose deal and random choices depend only on ``(seed, i)``, so a batch can
        be split anywhere, across processes, without changing any result:
        ``simulate(10, s)`` gives the same results as ``simulate(4, s)`` followed by
        ``simulate(6, s, start=4)``.  Choices are uniformly random among the legal
        actions, or made by ``policy(state, legal_actions)`` (see
        :meth:`GameState.rollout`); one generator seeded by ``(seed, i)`` deals hand ``i``
        and makes its choices, and the first dealer rotates with ``i``.

        >>> import spadeskit
        >>> results = list(spadeskit.load_rules("standard").simulate(3, seed=1))
        >>> len(results), all(len(r.books) == 4 and sum(r.books) == 13 for r in results)
        (3, True)
        """
        return self.engine.simulate(hands, seed, policy, start)

    def simulate_batch(
        self,
        hands: int,
        seed: int = 0,
        policy: str = "random",
        *,
        start: int = 0,
        chunk: int = 8192,
    ) -> Iterator[Any]:
        """Play hands ``start`` … ``start + hands - 1`` in batches, as numpy arrays: the
        fast way to simulate millions of hands (needs the ``fast`` extra, numpy).

        Yields one :class:`~spadeskit.batch.BatchResult` per ``chunk`` of hands (bids,
        books, points and bags per seat or side, and every card played).  ``policy`` is
        ``"random"`` (every bid and card uniformly among the legal ones, as
        :meth:`simulate` plays) or ``"greedy"`` (bids and leads at random, following
        cards by :func:`spadeskit.bots.greedy_card`).  Hand ``i`` depends only on
        ``(seed, i)``, so chunks split across processes give the same hands; they are
        not the hands :meth:`simulate` deals, but follow the same distribution.

        The batched engine is derived from these rules (:mod:`spadeskit.batch`); a rule
        set it cannot derive raises :class:`~spadeskit.batch.BatchUnsupported` naming
        the part, and :meth:`simulate` plays it.

        >>> import spadeskit
        >>> rules = spadeskit.load_rules("standard")
        >>> [batch] = rules.simulate_batch(1000, seed=1)
        >>> batch.books.shape, bool((batch.books.sum(axis=1) == 13).all())
        ((1000, 4), True)
        """
        if _BATCH_ENGINE is None:
            raise SpadesError(
                "no batched engine is registered: import spadeskit (its package registers "
                "spadeskit.batch)",
                code="no-batch-engine",
            )
        return _BATCH_ENGINE(self, hands, seed, policy, start=start, chunk=chunk)

    def score_sheet(self, dealer: int | None = None) -> ScoreSheet:
        """Return an empty :class:`~spadeskit.engine.scoresheet.ScoreSheet` for a match on paper.

        ``dealer`` deals the first hand (default: the last seat, so seat 0 bids first).
        """
        return ScoreSheet.start(self, dealer)

    def score_hand(
        self,
        summary: HandSummary | None = None,
        *,
        bids: Sequence[Action | int | str | None] | None = None,
        books: Sequence[int] | None = None,
        scores: Sequence[int] | None = None,
        bags: Sequence[int] | None = None,
        dealer: int | None = None,
    ) -> HandScore:
        """Score a hand from a summary, without any card play (for scorekeeping apps).

        Give a :class:`HandSummary`, or ``bids`` (ints, ``"nil"`` or actions) and
        ``books`` per seat, checked as a :meth:`score_sheet` checks them (the bids
        through the variant's auction with ``dealer`` dealing, default the last seat; the
        books adding up to the hand's tricks).  ``scores`` and ``bags`` are the sides'
        totals before the hand (default zero); the bag penalty depends on them.

        >>> import spadeskit
        >>> rules = spadeskit.load_rules("standard")
        >>> result = rules.score_hand(bids=[3, 2, 4, "nil"], books=[4, 3, 5, 1])
        >>> result.points
        (72, -78)
        >>> for line in result.lines:
        ...     print(line.text)
        N/S bid 7, took 9: +70, 2 bags (+2)
        E/W bid 2, took 3: +20, 1 bag (+1)
        W nil, took 1: -100, 1 bag (+1)
        """
        return score_written(self.engine, summary, bids, books, scores, bags, dealer)
