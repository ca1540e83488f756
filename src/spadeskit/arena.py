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
import functools
import importlib
import itertools
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

import attrs

from .actions import Action, Bid, BlindNil, Nil
from .bots import Bot, RandomBot, SimpleBot
from .errors import SpadesError, shown
from .rules import Rules
from .state import GameState, Phase

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
    "make_bot",
    "play_match",
    "seatings",
    "sign_test",
]

BotSpec = Any
"""A bot: a short name from :data:`BOTS`, ``"module:Class"``, or a class."""


def _heuristic() -> type:
    from .heuristic import HeuristicBot

    return HeuristicBot


def _pimc() -> type:
    from .search import PIMCBot

    return PIMCBot


def _ismcts() -> type:
    from .search import ISMCTSBot

    return ISMCTSBot


BOTS: dict[str, Callable[[], type]] = {
    "random": lambda: RandomBot,
    "simple": lambda: SimpleBot,
    "heuristic": _heuristic,
    "pimc": _pimc,
    "ismcts": _ismcts,
}
"""The short names of the shipped bots.  Any spec may end in ``[name=value,...]``: the
keyword arguments its class is built with (``"ismcts[iterations=300]"``,
``"pimc[seconds=0.1]"``)."""


def _split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Return ``("ismcts", {"iterations": 300})`` for ``"ismcts[iterations=300]"``."""
    if not spec.endswith("]") or "[" not in spec:
        return spec, {}
    name, _, inner = spec[:-1].partition("[")
    kwargs: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in inner.split(","))):
        key, eq, text = part.partition("=")
        if not eq or not key.strip().isidentifier():
            raise SpadesError(f"bot {spec!r}: write its settings as [name=value,...], not {part!r}")
        try:
            value: Any = json.loads(text)
        except (json.JSONDecodeError, ValueError):  # ValueError: a number too long to read
            value = text
        kwargs[key.strip()] = value
    return name, kwargs


def bot_class(spec: BotSpec) -> type:
    """Return the class a bot spec names; raise :class:`SpadesError` if it names none."""
    if isinstance(spec, type):
        return spec
    if not isinstance(spec, str):
        raise SpadesError(
            f"a bot is a name ({', '.join(BOTS)}), 'module:Class' or a class, not {shown(spec)}"
        )
    spec, _ = _split_spec(spec)
    if spec in BOTS:
        return BOTS[spec]()
    if ":" not in spec:
        raise SpadesError(f"no bot named {shown(spec)}: use {', '.join(BOTS)} or 'module:Class'")
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise SpadesError(f"bot {shown(spec)}: write 'module:Class', both parts named")
    try:
        module = importlib.import_module(module_name)
    except (ImportError, ValueError, TypeError) as exc:
        raise SpadesError(f"bot {shown(spec)}: cannot import {module_name!r} ({exc})") from exc
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise SpadesError(f"bot {spec!r}: {module_name!r} has no class {class_name!r}")
    return cls


def make_bot(spec: BotSpec, seat: int, rules: Rules, rng: random.Random) -> Bot:
    """Return a new bot of ``spec`` for ``seat``, reset for a match under ``rules``."""
    kwargs = _split_spec(spec)[1] if isinstance(spec, str) else {}
    cls = bot_class(spec)
    try:
        bot = cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise SpadesError(f"bot {shown(spec)} cannot be built with {shown(kwargs)}: {exc}") from exc
    if not callable(getattr(bot, "choose", None)):
        raise SpadesError(f"bot {shown(spec)} has no choose(view) method")
    reset = getattr(bot, "reset", None)
    if callable(reset):
        reset(seat, rules, rng)
    return bot  # type: ignore[no-any-return]


def play_match(
    rules: Rules, bots: Sequence[Bot], seed: int | None, *, max_actions: int = 1_000_000
) -> GameState:
    """Play a whole match between ``bots`` (one per seat, in seat order) and return the
    final state.  A bot that answers an action the rules refuse stops the match with a
    :class:`SpadesError` naming the bot and the seat."""
    if len(bots) != rules.table.players:
        raise SpadesError(
            f"{rules.name!r} needs {rules.table.players} bots, one per seat, not {len(bots)}"
        )
    game = rules.new_game(seed=seed)
    for _ in range(max_actions):
        if game.is_over:
            return game
        seat = game.to_act
        assert seat is not None
        action = bots[seat].choose(game.view(seat))
        try:
            game = game.apply(action, seat)
        except SpadesError as exc:
            raise SpadesError(
                f"the bot at seat {seat} ({type(bots[seat]).__name__}) chose {action}: {exc}"
            ) from exc
    raise SpadesError(f"the match did not end within {max_actions} actions")


def seatings(rules: Rules) -> list[tuple[int, ...]]:
    """Return every seating for a duplicate comparison: for each, which seats the
    challenger takes (the others are the baseline's).

    Partnerships: the challenger on each side in turn.  Three players on their own: every
    order of the seats, with the challenger in one seat and copies of the baseline in the
    others (six, each seat twice, the copies of the baseline swapped through their RNGs);
    two or four or more players on their own: the challenger in each seat.
    """
    sides = rules.table.sides
    n = rules.table.players
    if all(len(side) == 1 for side in sides):
        if n == 3:
            return [(order[0],) for order in itertools.permutations(range(n))]
        return [(seat,) for seat in range(n)]
    return [tuple(side) for side in sides]


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
    deal: int, seating: int, seats: tuple[int, ...], game: GameState, clock: _Clock
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
        bidders = [
            s for s in mine if isinstance(result.bids[s], Bid) and not _is_nil(result.bids[s])
        ]
        if bidders:
            contracts += 1
            need = sum(result.bids[s].tricks for s in bidders)  # type: ignore[union-attr]
            made += sum(result.books[s] for s in bidders) >= need
        for s in mine:
            if _is_nil(result.bids[s]):
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


def _is_nil(bid: Action | None) -> bool:
    return isinstance(bid, (Nil, BlindNil)) or (isinstance(bid, Bid) and bid.tricks == 0)


class _Clock:
    """The CPU time the challenger's bots and the baseline's spend choosing."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0]
        self.decisions = [0, 0]

    def totals(self) -> tuple[float, int, float, int]:
        return self.seconds[0], self.decisions[0], self.seconds[1], self.decisions[1]


class _Timed:
    """A bot whose every decision is timed (CPU time) on a :class:`_Clock`."""

    def __init__(self, bot: Bot, clock: _Clock, who: int) -> None:
        self.bot, self.clock, self.who = bot, clock, who

    def choose(self, view: Any) -> Action:
        start = time.thread_time()  # this thread's CPU time: right under thread pools too
        action = self.bot.choose(view)
        self.clock.seconds[self.who] += time.thread_time() - start
        self.clock.decisions[self.who] += 1
        return action


def _seated(
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    seats: tuple[int, ...],
    label: str,
    clock: _Clock,
) -> list[Bot]:
    """Return one new bot a seat: the challenger's at ``seats``, each with an RNG seeded
    from ``label`` and its seat, each decision timed on ``clock``."""
    return [
        _Timed(
            make_bot(
                challenger if s in seats else baseline, s, rules, random.Random(f"{label} {s}")
            ),
            clock,
            0 if s in seats else 1,
        )
        for s in range(rules.table.players)
    ]


def cpu_per_decision(cpu: Sequence[tuple[float, int, float, int]]) -> tuple[float, int, float, int]:
    """Return the challenger's and the baseline's mean CPU seconds a decision and their
    decisions, summed over outcomes' ``cpu``."""
    mine = sum(c[0] for c in cpu), sum(c[1] for c in cpu)
    theirs = sum(c[2] for c in cpu), sum(c[3] for c in cpu)
    return (
        mine[0] / mine[1] if mine[1] else 0.0,
        mine[1],
        theirs[0] / theirs[1] if theirs[1] else 0.0,
        theirs[1],
    )


def _cpu_summary(outcomes: Sequence[MatchOutcome | HandOutcome]) -> dict[str, float | int]:
    """Return the CPU seconds a decision of each bot over ``outcomes``, and its decisions."""
    mine, many, theirs, their_many = cpu_per_decision([o.cpu for o in outcomes])
    return {
        "challenger_seconds": mine,
        "challenger_decisions": many,
        "baseline_seconds": theirs,
        "baseline_decisions": their_many,
    }


def _cpu_text(outcomes: Sequence[MatchOutcome | HandOutcome]) -> str:
    cpu = _cpu_summary(outcomes)
    return (
        f"challenger {1000 * cpu['challenger_seconds']:.2f} ms "
        f"({cpu['challenger_decisions']:,} decisions), "
        f"baseline {1000 * cpu['baseline_seconds']:.2f} ms ({cpu['baseline_decisions']:,})"
    )


def _play_deals(
    rules: Rules, challenger: BotSpec, baseline: BotSpec, seed: int, deals: Sequence[int]
) -> list[MatchOutcome]:
    """Play each deal in every seating (the unit of work sent to an executor)."""
    outcomes = []
    for deal in deals:
        match_seed = _mix(seed, deal)
        for number, seats in enumerate(seatings(rules)):
            clock = _Clock()
            bots = _seated(
                rules, challenger, baseline, seats, f"spadeskit arena {seed} {deal} {number}", clock
            )
            game = play_match(rules, bots, match_seed)
            outcomes.append(_outcome(deal, number, seats, game, clock))
    return outcomes


def _mix(seed: int, deal: int) -> int:
    return int.from_bytes(random.Random(f"spadeskit deal {seed} {deal}").randbytes(8), "big")


def clopper_pearson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Return the exact (Clopper-Pearson) ``level`` interval of a binomial proportion.

    >>> low, high = clopper_pearson(55, 100)
    >>> round(low, 3), round(high, 3)
    (0.447, 0.65)
    """
    if trials <= 0:
        return 0.0, 1.0
    alpha = 1 - level

    def tail_at_least(p: float) -> float:
        return 1 - _binomial_cdf(successes - 1, trials, p) if successes > 0 else 1.0

    def tail_at_most(p: float) -> float:
        return _binomial_cdf(successes, trials, p)

    low = (
        0.0 if successes == 0 else _bisect(lambda p: tail_at_least(p) - alpha / 2, increasing=True)
    )
    high = (
        1.0
        if successes == trials
        else _bisect(lambda p: tail_at_most(p) - alpha / 2, increasing=False)
    )
    return low, high


def _binomial_cdf(k: int, n: int, p: float) -> float:
    """Return P(X <= k) for X ~ Binomial(n, p)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p <= 0:
        return 1.0
    if p >= 1:
        return 0.0
    logp, logq = math.log(p), math.log1p(-p)
    total = 0.0
    for i in range(k + 1):
        total += math.exp(
            math.lgamma(n + 1)
            - math.lgamma(i + 1)
            - math.lgamma(n - i + 1)
            + i * logp
            + (n - i) * logq
        )
    return min(1.0, total)


def _bisect(f: Callable[[float], float], increasing: bool) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        value = f(mid)
        if (value < 0) == increasing:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def sign_test(plus: int, minus: int) -> float:
    """Return the two-sided p-value of a sign test (ties already dropped).

    >>> round(sign_test(60, 40), 4)
    0.0569
    """
    n = plus + minus
    if n == 0:
        return 1.0
    return min(1.0, 2 * _binomial_cdf(min(plus, minus), n, 0.5))


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
            "cpu_per_decision": _cpu_summary(self.outcomes),
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
            ("CPU a decision", _cpu_text(self.outcomes)),
        ]
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def draw_progress(stream: IO[str], done: int, total: int, noun: str) -> None:
    """Draw (over the last one) a progress bar of ``done`` out of ``total`` ``noun``."""
    filled = int(30 * done / max(total, 1))
    print(
        f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {noun}",
        end="",
        file=stream,
        flush=True,
    )


def _name(spec: BotSpec) -> str:
    return spec if isinstance(spec, str) else f"{spec.__module__}:{spec.__qualname__}"


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
) -> Evaluation:
    """Play ``deals`` duplicate deals of ``challenger`` against ``baseline`` and return
    the :class:`Evaluation`.

    Deals are sent in batches of ``batch`` to ``executor`` (any
    :class:`concurrent.futures.Executor`, e.g. a ``ProcessPoolExecutor`` or a
    :class:`RayExecutor`); without one they are played here.  ``progress=True`` draws
    a progress bar on stderr (the command line does, unless ``--quiet``); give a stream
    to draw it there.  The default draws nothing, so code that calls it prints nothing
    it did not ask for.  The result is the same whatever the executor and the batch
    size.
    """
    outcomes = _run_deals(
        _play_deals, rules, challenger, baseline, deals, seed, executor, batch, progress
    )
    return Evaluation(rules.name, _name(challenger), _name(baseline), deals, seed, tuple(outcomes))


def _run_deals(
    work: Callable[..., list[Any]],
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    deals: int,
    seed: int,
    executor: concurrent.futures.Executor | None,
    batch: int,
    progress: bool | IO[str],
) -> list[Any]:
    """Check the arguments, play deals 0 … ``deals - 1`` with ``work`` in batches of
    ``batch`` (here or on ``executor``), drawing a progress bar if asked, and return the
    outcomes in deal and seating order, whatever the batches and the executor."""
    if type(deals) is not int or deals < 1:
        raise SpadesError(f"deals is a whole number, 1 or more, not {shown(deals)}")
    if type(batch) is not int or batch < 1:
        raise SpadesError(f"batch is a whole number, 1 or more, not {shown(batch)}")
    for spec in (challenger, baseline):
        bot_class(spec)  # fail here, not in a worker
    chunks = [list(range(start, min(deals, start + batch))) for start in range(0, deals, batch)]
    stream = sys.stderr if progress is True else (progress or None)
    done = 0
    outcomes: list[Any] = []

    def advance(count: int) -> None:
        nonlocal done
        done += count
        if stream is not None:
            draw_progress(stream, done, deals, "deals")

    if executor is None:
        for chunk in chunks:
            outcomes += work(rules, challenger, baseline, seed, chunk)
            advance(len(chunk))
    else:
        futures = {
            executor.submit(work, rules, challenger, baseline, seed, chunk): len(chunk)
            for chunk in chunks
        }
        for future in concurrent.futures.as_completed(futures):
            outcomes += future.result()
            advance(futures[future])
    if stream is not None:
        print(file=stream)
    outcomes.sort(key=lambda o: (o.deal, o.seating))
    return outcomes


@attrs.frozen
class HandOutcome:
    """One hand of :func:`evaluate_hands`: the deal, the seating, and the challenger
    side's points against the best other side's (in stored points)."""

    deal: int
    seating: int
    challenger_seats: tuple[int, ...]
    points: tuple[int, ...]
    margin: int
    cpu: tuple[float, int, float, int] = (0.0, 0, 0.0, 0)
    """CPU seconds and decisions of the challenger's bots, then of the baseline's."""
    hand: int = 0
    """The hand's number in its match (0: a match's first hand)."""

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


CONTEXT_HANDS = 40
"""Hands at most of the match a context is drawn from (see :func:`evaluate_hands`)."""


def match_context(rules: Rules, baseline: BotSpec, seed: int, label: str) -> GameState:
    """Return the start of a hand drawn from a real match: the baseline's bots play a
    match from ``seed`` (at most :data:`CONTEXT_HANDS` hands) and one of its hand starts
    is picked at random, the first hand only if the match had no other."""
    bots = [
        make_bot(baseline, s, rules, random.Random(f"{label} context {s}"))
        for s in range(rules.table.players)
    ]
    game = rules.new_game(seed=seed)
    starts = []
    while not game.is_over and len(game.hand_results) < CONTEXT_HANDS:
        if not game.auction and game.phase is Phase.AUCTION and game.number:
            starts.append(game)
        seat = game.to_act
        assert seat is not None
        game = game.apply(bots[seat].choose(game.view(seat)), seat)
    return random.Random(f"{label} context").choice(starts) if starts else rules.new_game(seed=seed)


def _check_contexts(rules: Rules, contexts: Sequence[GameState]) -> None:
    if not contexts:
        raise SpadesError("contexts is a non-empty list of states at the start of a hand")
    for state in contexts:
        if (
            not isinstance(state, GameState)
            or state.rules != rules
            or state.is_over
            or state.phase is not Phase.AUCTION
            or state.auction
        ):
            raise SpadesError(
                f"a context is a state of {rules.name!r} at the start of a hand (before its "
                f"first bid, the match not over), not {shown(state, 40)}"
            )


def _play_hands(
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    seed: int,
    deals: Sequence[int],
    contexts: str | Sequence[GameState] | None = None,
) -> list[HandOutcome]:
    outcomes = []
    for deal in deals:
        if isinstance(contexts, str):  # "matches", as evaluate_hands checked
            start = match_context(
                rules, baseline, _mix(seed, deal), f"spadeskit arena hand {seed} {deal}"
            )
        elif contexts is not None:  # states at hand starts, checked there too
            start = contexts[deal % len(contexts)]
        else:
            start = rules.new_game(seed=_mix(seed, deal))
        done = len(start.hand_results)
        for number, seats in enumerate(seatings(rules)):
            clock = _Clock()
            bots = _seated(
                rules,
                challenger,
                baseline,
                seats,
                f"spadeskit arena hand {seed} {deal} {number}",
                clock,
            )
            game = start
            while len(game.hand_results) == done and not game.is_over:
                seat = game.to_act
                assert seat is not None
                game = game.apply(bots[seat].choose(game.view(seat)), seat)
            result = game.hand_results[done]
            side = rules.side_of[seats[0]]
            others = [p for i, p in enumerate(result.points) if i != side]
            outcomes.append(
                HandOutcome(
                    deal,
                    number,
                    seats,
                    result.points,
                    result.points[side] - max(others) if others else 0,
                    clock.totals(),
                    done,
                )
            )
    return outcomes


@attrs.frozen
class HandEvaluation:
    """The result of :func:`evaluate_hands`: the challenger side's mean margin a hand,
    paired by deal (the mean over a deal's seatings), with a 95% interval (normal
    approximation over deals), in shown points."""

    rules: str
    challenger: str
    baseline: str
    deals: int
    seed: int
    unit: int
    outcomes: tuple[HandOutcome, ...] = attrs.field(repr=False)
    context: str = "first hands"

    def per_deal(self) -> list[float]:
        by: dict[int, list[int]] = {}
        for o in self.outcomes:
            by.setdefault(o.deal, []).append(o.margin)
        return [sum(v) / len(v) / self.unit for _, v in sorted(by.items())]

    @property
    def mean_margin(self) -> float:
        values = self.per_deal()
        return sum(values) / len(values) if values else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        values = self.per_deal()
        if len(values) < 2:
            return -math.inf, math.inf
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        half = 1.96 * sd / math.sqrt(len(values))
        return mean - half, mean + half

    @property
    def deals_won(self) -> tuple[int, int]:
        """Return how many deals the challenger's side came out ahead on (its mean margin
        over the deal's seatings above zero) and how many behind; the rest were even."""
        values = self.per_deal()
        return sum(1 for v in values if v > 0), sum(1 for v in values if v < 0)

    @property
    def win_rate(self) -> tuple[float, float, float]:
        """Return the share of decided deals (not even) the challenger came out ahead on,
        with its 95% Clopper–Pearson interval: 0.5 for a bot as strong as the baseline."""
        plus, minus = self.deals_won
        if not plus + minus:
            return 0.5, 0.0, 1.0
        low, high = clopper_pearson(plus, plus + minus)
        return plus / (plus + minus), low, high

    def summary(self) -> dict[str, Any]:
        low, high = self.interval
        plus, minus = self.deals_won
        return {
            "rules": self.rules,
            "challenger": self.challenger,
            "baseline": self.baseline,
            "deals": self.deals,
            "hands": len(self.outcomes),
            "seed": self.seed,
            "context": self.context,
            "mean_margin_per_hand": self.mean_margin,
            "margin_interval_95": [low, high],
            "cpu_per_decision": _cpu_summary(self.outcomes),
            "sign_test": {
                "deals_for": plus,
                "deals_against": minus,
                "p_value": sign_test(plus, minus),
            },
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.summary(), "outcomes": [o.to_json() for o in self.outcomes]}

    def table(self) -> str:
        low, high = self.interval
        data = self.summary()["sign_test"]
        rows = [
            ("rules", self.rules),
            ("challenger v baseline", f"{self.challenger} v {self.baseline}"),
            (
                "hands",
                f"{self.deals} deals x {len(self.outcomes) // max(1, self.deals)} seatings "
                f"= {len(self.outcomes)} hands",
            ),
            ("hands from", self.context),
            ("mean margin a hand", f"{self.mean_margin:+.2f} (95% CI {low:+.2f} to {high:+.2f})"),
            (
                "paired sign test",
                f"{data['deals_for']} deals for, {data['deals_against']} against: "
                f"p = {data['p_value']:.3g}",
            ),
            ("CPU a decision", _cpu_text(self.outcomes)),
        ]
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def evaluate_hands(
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    deals: int = 100,
    seed: int = 0,
    *,
    executor: concurrent.futures.Executor | None = None,
    batch: int = 5,
    contexts: str | Sequence[GameState] | None = None,
) -> HandEvaluation:
    """Play one hand of each of ``deals`` deals in every seating and return the
    challenger's mean score margin a hand (:class:`HandEvaluation`): the measure for
    slow bots, where whole matches cost too much.  Independent of executor and batch.

    Which hand: by default the first of a new match (0 to 0, no bags, so the bag
    penalty never fires and nobody plays to a target).  ``contexts="matches"`` draws
    each deal's hand from a real match instead: the baseline's bots play a match from
    the deal's seed and one of its hand starts after the first is picked at random
    (:func:`match_context`), scores and bags as they stood; then both bots play that
    hand from there.  Or give ``contexts``, a list of states at the start of a hand
    (deal ``i`` plays ``contexts[i % len(contexts)]``).  The margin is the points the
    hand scored, the bag penalty included when it fires."""
    label = "first hands"
    if contexts == "matches":
        label = "hand starts of real matches (scores and bags as they stood)"
    elif contexts is not None:
        if isinstance(contexts, str):
            raise SpadesError(f"contexts is 'matches' or a list of states, not {contexts!r}")
        contexts = tuple(contexts)
        _check_contexts(rules, contexts)
        label = f"{len(contexts)} given hand starts"
    outcomes = _run_deals(
        functools.partial(_play_hands, contexts=contexts),
        rules,
        challenger,
        baseline,
        deals,
        seed,
        executor,
        batch,
        False,
    )
    return HandEvaluation(
        rules.name,
        _name(challenger),
        _name(baseline),
        deals,
        seed,
        rules.table.score_unit,
        tuple(outcomes),
        label,
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
            raise SpadesError("RayExecutor needs Ray: pip install 'spadeskit[ray]'") from exc
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
