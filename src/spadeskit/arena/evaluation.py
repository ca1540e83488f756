"""Play bots against each other and measure which is stronger, fairly, at any scale.

* A **bot** is anything with ``choose(view) -> Action`` (:class:`~spadeskit.bots.Bot`),
  and optionally ``reset(seat, rules, rng)``, called before each match with the seat it
  plays, the rules and a :class:`random.Random` of its own.  Bots are named by a short
  name (``"random"``, ``"simple"``, ``"heuristic"``), by ``"module:Class"``, or given
  as a class.
* :func:`play_match` plays one match and returns its final state.
* :func:`evaluate` plays ``deals`` match seeds, each in **every seating** (the challenger
  on each side of a partnership game; all orders of the seats in games of players on
  their own), so both bots play the same cards: duplicate deals, as in bridge, which
  cut the luck of the deal out of the comparison.  Each seat's bot gets its own RNG
  seeded from the match seed, the seating and the seat.  Results are paired by deal and
  never depend on how the deals are split into batches or which executor runs them.

Work goes to any :class:`concurrent.futures.Executor` (a ``ProcessPoolExecutor`` for
several cores), or to a Ray cluster through :class:`RayExecutor` (the ``ray`` extra).
"""

from __future__ import annotations

import concurrent.futures
import json
import math
from collections.abc import Callable, Sequence
from typing import IO, Any

import attrs

from spadeskit.arena.handeval import HandEvaluation, HandOutcome, evaluate_hands, match_context
from spadeskit.arena.intervals import clopper_pearson, sign_test
from spadeskit.arena.matchplay import (
    BOTS,
    BotSpec,
    Clock,
    aligned,
    bot_class,
    cpu_per_decision,
    cpu_summary,
    cpu_text,
    draw_progress,
    make_bot,
    mix_seed,
    play_match,
    run_deals,
    seated,
    seatings,
    spec_name,
)
from spadeskit.core.actions import Bid, is_nil
from spadeskit.core.errors import SpadesError, install_hint
from spadeskit.core.state import GameState
from spadeskit.engine.rules import Rules

__all__ = [
    "BOTS",
    "Evaluation",
    "HandEvaluation",
    "HandOutcome",
    "MatchOutcome",
    "RayExecutor",
    "clopper_pearson",
    "evaluate",
    "evaluate_hands",
    "bot_class",
    "cpu_per_decision",
    "draw_progress",
    "make_bot",
    "match_context",
    "play_match",
    "seatings",
    "sign_test",
]


@attrs.frozen
class MatchOutcome:
    """One match of an evaluation: the deal (match seed index), the seating, and what
    the challenger's side did."""

    deal: int
    seating: int
    challenger_seats: tuple[int, ...]
    side: int
    won: bool
    winner: int | None
    scores: tuple[int, ...]
    margin: int
    hands: int
    contracts: int
    contracts_made: int
    nils: int
    nils_made: int
    bags: int
    cpu: tuple[float, int, float, int] = (0.0, 0, 0.0, 0)
    """CPU seconds and decisions of the challenger's bots, then of the baseline's."""

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def _outcome(
    deal: int, seating: int, seats: tuple[int, ...], game: GameState, clock: Clock
) -> MatchOutcome:
    rules = game.rules
    side = rules.side_of[seats[0]]
    scores = game.scores
    others = [s for i, s in enumerate(scores) if i != side]
    contracts = made = nils = nils_made = bags = 0
    for result in game.hand_results:
        if result.void:
            continue
        mine = [s for s in rules.table.sides[side]]
        bidders = [s for s in mine if isinstance(result.bids[s], Bid)]
        if bidders:
            contracts += 1
            need = sum(result.bids[s].tricks for s in bidders)  # type: ignore[union-attr]
            made += sum(result.books[s] for s in bidders) >= need
        for s in mine:
            if is_nil(result.bids[s]):
                nils += 1
                nils_made += result.books[s] == 0
        bags += sum(line.bags for line in result.lines_for(side) if line.bags > 0)
    return MatchOutcome(
        deal,
        seating,
        seats,
        side,
        game.winner == side,
        game.winner,
        tuple(scores),
        scores[side] - max(others) if others else 0,
        len(game.hand_results),
        contracts,
        made,
        nils,
        nils_made,
        bags,
        clock.totals(),
    )


def _play_deals(
    rules: Rules, challenger: BotSpec, baseline: BotSpec, seed: int, deals: Sequence[int]
) -> list[MatchOutcome]:
    """Play each deal in every seating (the unit of work sent to an executor)."""
    outcomes = []
    for deal in deals:
        match_seed = mix_seed(seed, deal)
        for number, seats in enumerate(seatings(rules)):
            clock = Clock()
            bots = seated(
                rules, challenger, baseline, seats, f"spadeskit arena {seed} {deal} {number}", clock
            )
            game = play_match(rules, bots, match_seed)
            outcomes.append(_outcome(deal, number, seats, game, clock))
    return outcomes


@attrs.frozen
class Evaluation:
    """The result of :func:`evaluate`: every match, and the statistics over them.

    ``win_rate`` is the share of matches the challenger's side won, with its 95%
    Clopper-Pearson interval (``win_low``, ``win_high``); ``fair_share`` is what an
    equal bot would win (1/2 with two sides, 1/3 with three).  The sign test pairs the
    seatings of each deal: a deal counts for the challenger if it won more than its fair
    share of that deal's matches, against it if fewer.
    """

    rules: str
    challenger: str
    baseline: str
    deals: int
    seed: int
    outcomes: tuple[MatchOutcome, ...] = attrs.field(repr=False)

    @property
    def matches(self) -> int:
        return len(self.outcomes)

    @property
    def wins(self) -> int:
        return sum(o.won for o in self.outcomes)

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def fair_share(self) -> float:
        """Return the share of matches an equal bot would win: one over the sides."""
        return 1 / len(self.outcomes[0].scores) if self.outcomes else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return clopper_pearson(self.wins, self.matches)

    def _by_deal(self) -> dict[int, list[MatchOutcome]]:
        deals: dict[int, list[MatchOutcome]] = {}
        for o in self.outcomes:
            deals.setdefault(o.deal, []).append(o)
        return deals

    @property
    def sign(self) -> tuple[int, int, int]:
        """Return (deals for the challenger, deals against, ties)."""
        plus = minus = ties = 0
        for matches in self._by_deal().values():
            share = sum(o.won for o in matches) / len(matches)
            if math.isclose(share, self.fair_share):
                ties += 1
            elif share > self.fair_share:
                plus += 1
            else:
                minus += 1
        return plus, minus, ties

    @property
    def sign_p(self) -> float:
        plus, minus, _ = self.sign
        return sign_test(plus, minus)

    @property
    def mean_margin(self) -> float:
        """Return the challenger side's mean final score margin over the best other side."""
        return sum(o.margin for o in self.outcomes) / self.matches if self.matches else 0.0

    @property
    def margin_per_hand(self) -> float:
        hands = sum(o.hands for o in self.outcomes)
        return sum(o.margin for o in self.outcomes) / hands if hands else 0.0

    def _rate(self, part: str, whole: str) -> float | None:
        total = sum(getattr(o, whole) for o in self.outcomes)
        return sum(getattr(o, part) for o in self.outcomes) / total if total else None

    @property
    def contracts_made(self) -> float | None:
        return self._rate("contracts_made", "contracts")

    @property
    def nils_made(self) -> float | None:
        return self._rate("nils_made", "nils")

    @property
    def nils_bid_per_hand(self) -> float:
        hands = sum(o.hands for o in self.outcomes)
        return sum(o.nils for o in self.outcomes) / hands if hands else 0.0

    @property
    def bags_per_hand(self) -> float:
        hands = sum(o.hands for o in self.outcomes)
        return sum(o.bags for o in self.outcomes) / hands if hands else 0.0

    def summary(self) -> dict[str, Any]:
        """Return the statistics as JSON data (no per-match rows)."""
        low, high = self.interval
        plus, minus, ties = self.sign
        return {
            "rules": self.rules,
            "challenger": self.challenger,
            "baseline": self.baseline,
            "deals": self.deals,
            "seed": self.seed,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_interval_95": [low, high],
            "fair_share": self.fair_share,
            "sign_test": {
                "deals_for": plus,
                "deals_against": minus,
                "ties": ties,
                "p_value": self.sign_p,
            },
            "mean_margin": self.mean_margin,
            "margin_per_hand": self.margin_per_hand,
            "contracts_made": self.contracts_made,
            "nils_bid_per_hand": self.nils_bid_per_hand,
            "nils_made": self.nils_made,
            "bags_per_hand": self.bags_per_hand,
            "cpu_per_decision": cpu_summary(self.outcomes),
        }

    def to_json(self) -> dict[str, Any]:
        """Return the statistics and every match as JSON data."""
        return {**self.summary(), "outcomes": [o.to_json() for o in self.outcomes]}

    def table(self) -> str:
        """Return the statistics as a short text table."""
        low, high = self.interval
        plus, minus, ties = self.sign

        def pct(value: float | None) -> str:
            return "-" if value is None else f"{100 * value:.1f}%"

        rows = [
            ("rules", self.rules),
            ("challenger v baseline", f"{self.challenger} v {self.baseline}"),
            (
                "deals x seatings",
                f"{self.deals} x {self.matches // max(1, self.deals)} = {self.matches} matches",
            ),
            (
                "challenger won",
                f"{self.wins} ({pct(self.win_rate)}, 95% CI {pct(low)}-{pct(high)}; "
                f"an equal bot wins {pct(self.fair_share)})",
            ),
            (
                "paired sign test",
                f"{plus} deals for, {minus} against, {ties} even: p = {self.sign_p:.3g}",
            ),
            (
                "mean score margin",
                f"{self.mean_margin:+.1f} a match, {self.margin_per_hand:+.2f} a hand",
            ),
            ("contracts made", pct(self.contracts_made)),
            ("nils bid / made", f"{self.nils_bid_per_hand:.3f} a hand / {pct(self.nils_made)}"),
            ("bags a hand", f"{self.bags_per_hand:.2f}"),
            ("CPU a decision", cpu_text(self.outcomes)),
        ]
        return aligned(rows)


def evaluate(
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    deals: int = 100,
    seed: int = 0,
    *,
    executor: concurrent.futures.Executor | None = None,
    batch: int = 5,
    progress: bool | IO[str] = False,
    on_deals: Callable[[int], None] | None = None,
) -> Evaluation:
    """Play ``deals`` duplicate deals of ``challenger`` against ``baseline`` and return
    the :class:`Evaluation`.

    Deals are sent in batches of ``batch`` to ``executor`` (any
    :class:`concurrent.futures.Executor`, e.g. a ``ProcessPoolExecutor`` or a
    :class:`RayExecutor`); without one they are played here.  ``progress=True`` draws
    a progress bar on stderr (the command line does, unless ``--quiet``); give a stream
    to draw it there.  The default draws nothing, so code that calls it prints nothing
    it did not ask for; ``on_deals(count)`` is called as each batch of ``count`` deals
    ends (to drive a progress display of your own).  The result is the same whatever
    the executor and the batch size.
    """
    outcomes = run_deals(
        _play_deals, rules, challenger, baseline, deals, seed, executor, batch, progress, on_deals
    )
    return Evaluation(
        rules.name, spec_name(challenger), spec_name(baseline), deals, seed, tuple(outcomes)
    )


class RayExecutor(concurrent.futures.Executor):
    """Run :func:`evaluate`'s batches on Ray: ``ray.init()`` on this machine, or
    ``RayExecutor(address="ray://host:10001")`` for a cluster (the ``ray`` extra).

    Ray has no :class:`~concurrent.futures.Executor` of its own; this adapter submits
    each call as a Ray task and hands back a standard future.
    """

    def __init__(self, address: str | None = None, **init: Any) -> None:
        try:
            import ray
        except ImportError as exc:  # pragma: no cover - depends on the extra
            raise SpadesError(f"RayExecutor needs Ray: {install_hint('ray')}") from exc
        self._ray = ray
        if not ray.is_initialized():
            ray.init(address=address, **init)
        self._remote: dict[Callable[..., Any], Any] = {}

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; return a standard future of its result."""
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn)
        future: concurrent.futures.Future[Any] = remote.remote(*args, **kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Forget the remote functions (Ray itself keeps running: ``ray.shutdown()`` stops it)."""
        self._remote.clear()


def write_json(evaluation: Evaluation, path: str) -> None:
    """Write ``evaluation.to_json()`` to ``path``."""
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(evaluation.to_json(), handle, indent=1)
