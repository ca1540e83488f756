"""Bots at a table, shared by the arena's evaluations: bot specs, seats, timing, deals.

* :func:`make_bot` builds a bot from a spec: a short name from :data:`BOTS`, ``"module:Class"``
  or a class, with keyword arguments in brackets (``"ismcts[iterations=300]"``).
* :func:`play_match` plays one match; :func:`seatings` lists the seatings of a duplicate
  comparison; :func:`seated` builds one timed bot a seat.
* :func:`run_deals` runs deals in batches, here or on an executor, in a fixed order.

The arena (:mod:`spadeskit.arena`) re-exports the public names.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import itertools
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, Any, Protocol

from spadeskit.bots.basic import Bot, RandomBot, SimpleBot
from spadeskit.core.actions import Action
from spadeskit.core.errors import SpadesError, shown
from spadeskit.core.state import GameState
from spadeskit.engine.rules import Rules

BotSpec = Any
"""A bot: a short name from :data:`BOTS`, ``"module:Class"``, or a class."""


def _heuristic() -> type:
    from spadeskit.bots.heuristic import HeuristicBot

    return HeuristicBot


def _pimc() -> type:
    from spadeskit.bots.search import PIMCBot

    return PIMCBot


def _ismcts() -> type:
    from spadeskit.bots.search import ISMCTSBot

    return ISMCTSBot


def _pointcount() -> type:
    from spadeskit.bots.pointcount import PointCountBot

    return PointCountBot


def _suretricks() -> type:
    from spadeskit.bots.suretricks import SureTricksBot

    return SureTricksBot


BOTS: dict[str, Callable[[], type]] = {
    "random": lambda: RandomBot,
    "simple": lambda: SimpleBot,
    "heuristic": _heuristic,
    "pointcount": _pointcount,
    "suretricks": _suretricks,
    "pimc": _pimc,
    "ismcts": _ismcts,
}
"""The short names of the shipped bots.  Any spec may end in ``[name=value,...]``: the
keyword arguments its class is built with (``"ismcts[iterations=300]"``,
``"pimc[seconds=0.1]"``)."""


_PYTHON_WORDS = {"True": True, "False": False, "None": None}
"""Settings written as Python writes them (JSON's ``true``, ``false``, ``null`` also work)."""


def split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Return ``("ismcts", {"iterations": 300})`` for ``"ismcts[iterations=300]"``; a value
    is read as JSON (or ``True``, ``False``, ``None``), else kept as text."""
    if not spec.endswith("]") or "[" not in spec:
        return spec, {}
    name, _, inner = spec[:-1].partition("[")
    kwargs: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in inner.split(","))):
        key, eq, text = part.partition("=")
        if not eq or not key.strip().isidentifier():
            raise SpadesError(f"bot {spec!r}: write its settings as [name=value,...], not {part!r}")
        value: Any = _PYTHON_WORDS.get(text.strip(), text)
        if value is text:
            try:
                value = json.loads(text)
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
    spec, _ = split_spec(spec)
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
    kwargs = split_spec(spec)[1] if isinstance(spec, str) else {}
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
    loaded_rules(rules)
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise SpadesError(f"bots are a list, one bot per seat, not {shown(bots)}")
    if len(bots) != rules.table.players:
        raise SpadesError(
            f"{rules.name!r} needs {rules.table.players} bots, one per seat, not {len(bots)}"
        )
    for place, bot in enumerate(bots):
        if not callable(getattr(bot, "choose", None)):
            raise SpadesError(
                f"the bot at seat {place} has no choose(view) method: {shown(bot)} is no bot"
            )
    if type(max_actions) is not int or max_actions < 1:
        raise SpadesError(f"max_actions is a whole number, 1 or more, not {shown(max_actions)}")
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


class Clock:
    """The CPU time the challenger's bots and the baseline's spend choosing."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0]
        self.decisions = [0, 0]

    def totals(self) -> tuple[float, int, float, int]:
        return self.seconds[0], self.decisions[0], self.seconds[1], self.decisions[1]


class Timed:
    """A bot whose every decision is timed (CPU time) on a :class:`Clock`."""

    def __init__(self, bot: Bot, clock: Clock, who: int) -> None:
        self.bot, self.clock, self.who = bot, clock, who

    def choose(self, view: Any) -> Action:
        start = time.thread_time()  # this thread's CPU time: right under thread pools too
        action = self.bot.choose(view)
        self.clock.seconds[self.who] += time.thread_time() - start
        self.clock.decisions[self.who] += 1
        return action


def seated(
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    seats: tuple[int, ...],
    label: str,
    clock: Clock,
) -> list[Bot]:
    """Return one new bot a seat: the challenger's at ``seats``, each with an RNG seeded
    from ``label`` and its seat, each decision timed on ``clock``."""
    return [
        Timed(
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


class TimedOutcome(Protocol):
    """An outcome that says how much CPU time each bot spent (a match's or a hand's)."""

    @property
    def cpu(self) -> tuple[float, int, float, int]:
        """CPU seconds and decisions of the challenger's bots, then of the baseline's."""
        ...


def cpu_summary(outcomes: Sequence[TimedOutcome]) -> dict[str, float | int]:
    """Return the CPU seconds a decision of each bot over ``outcomes``, and its decisions."""
    mine, many, theirs, their_many = cpu_per_decision([o.cpu for o in outcomes])
    return {
        "challenger_seconds": mine,
        "challenger_decisions": many,
        "baseline_seconds": theirs,
        "baseline_decisions": their_many,
    }


def cpu_text(outcomes: Sequence[TimedOutcome]) -> str:
    cpu = cpu_summary(outcomes)
    return (
        f"challenger {1000 * cpu['challenger_seconds']:.2f} ms "
        f"({cpu['challenger_decisions']:,} decisions), "
        f"baseline {1000 * cpu['baseline_seconds']:.2f} ms ({cpu['baseline_decisions']:,})"
    )


def mix_seed(seed: int, deal: int) -> int:
    return int.from_bytes(random.Random(f"spadeskit deal {seed} {deal}").randbytes(8), "big")


def draw_progress(stream: IO[str], done: int, total: int, noun: str) -> None:
    """Draw (over the last one) a progress bar of ``done`` out of ``total`` ``noun``."""
    filled = int(30 * done / max(total, 1))
    print(
        f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {noun}",
        end="",
        file=stream,
        flush=True,
    )


def spec_name(spec: BotSpec) -> str:
    return spec if isinstance(spec, str) else f"{spec.__module__}:{spec.__qualname__}"


def loaded_rules(rules: object) -> Rules:
    """Return ``rules`` if they are loaded rules; raise a ``SpadesError`` otherwise."""
    if not isinstance(rules, Rules):
        raise SpadesError(f"expected rules from spadeskit.load_rules, not {shown(rules)}")
    return rules


def run_deals(
    work: Callable[..., list[Any]],
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    deals: int,
    seed: int,
    executor: concurrent.futures.Executor | None,
    batch: int,
    progress: bool | IO[str],
    on_deals: Callable[[int], None] | None = None,
) -> list[Any]:
    """Check the arguments, play deals 0 … ``deals - 1`` with ``work`` in batches of
    ``batch`` (here or on ``executor``), drawing a progress bar if asked (and calling
    ``on_deals(count)`` as each batch of ``count`` deals ends), and return the outcomes
    in deal and seating order, whatever the batches and the executor."""
    loaded_rules(rules)
    if type(deals) is not int or deals < 1:
        raise SpadesError(f"deals is a whole number, 1 or more, not {shown(deals)}")
    if type(seed) is not int:
        raise SpadesError(f"seed is a whole number, not {shown(seed)}")
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise SpadesError(f"executor is a concurrent.futures.Executor, not {shown(executor)}")
    if not isinstance(progress, bool) and not callable(getattr(progress, "write", None)):
        raise SpadesError(f"progress is true, false or a stream, not {shown(progress)}")
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
        if on_deals is not None:
            on_deals(count)

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


def aligned(rows: Sequence[tuple[str, str]]) -> str:
    """Return ``rows`` of (label, text) as lines, the texts aligned after the labels."""
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)
