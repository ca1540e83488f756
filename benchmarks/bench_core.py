"""Measure the core against OpenSpiel's ``spades``, side by side in one run (not a test).

Every row is a ratio measured in interleaved rounds (OpenSpiel, spadeskit, OpenSpiel, …),
each round about ``--round`` seconds of CPU time (``time.process_time``), each contender
warmed up once first; the table shows the median of the per-round ratios and their
range, so that the noise of a shared machine cancels out.  One unit of work is one
complete hand: the deal, the auction, every card, and the scoring.

* ``step``: ``new_game`` then ``legal_actions()`` / ``apply()`` with uniformly random
  choices until the hand is scored (one immutable state per action);
* ``simulate``: ``Rules.simulate``, which deals, plays (uniformly random) and scores
  independent hands;
* OpenSpiel: ``game.new_initial_state()``, chance nodes sampled from
  ``chance_outcomes()``, uniformly random ``legal_actions()`` until ``is_terminal()``,
  then ``returns()`` (one hand, deal included), as BENCHMARKING asks.

When the native core runs (``spadeskit.NATIVE``), the pure-Python core is measured
in the same rounds too, in a second Python with ``SPADESKIT_PURE=1``: the table then
gives both speeds against OpenSpiel.

Then: a third-party plugin whose out-of-turn hook is declared for the auction only,
against plain ``standard``; bytes per state kept alive in a 100,000-state search tree
(``tracemalloc``: keep the tree, measure, drop it, measure again); the cost of moving a
state to another process by pickle against a replay of its record; and per-action costs
in microseconds beside OpenSpiel's (``apply`` vs ``clone()+apply_action``,
``legal_actions`` vs ``legal_actions``, ``view`` vs ``observation_tensor``).

    pip install '.[bench]'
    python benchmarks/bench_core.py [--round 1.0] [--rounds 5] [--only standard,jjdd]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
import types
from collections.abc import Callable, Sequence
from typing import Any

import spadeskit
from spadeskit import Phase, acts_in, hookimpl

CONFIGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("standard", ()),
    ("jjdd", ()),
    ("cutthroat", ()),
    ("two-handed", ()),
    ("three-suit-trump", ()),
    ("standard", ("blind-nil",)),
)

Unit = Callable[[], int]
"""Does some work and returns how many hands it played."""


def label(variant: str, house: Sequence[str]) -> str:
    return " + ".join((variant, *house))


# ------------------------------------------------------------------------------------------
# Contenders
# ------------------------------------------------------------------------------------------


def step_unit(rules: spadeskit.Rules) -> Unit:
    """Return a unit playing one random hand through ``legal_actions``/``apply``."""
    rng = random.Random(0)
    choice = rng.choice
    counter = iter(range(10**12))

    def unit() -> int:
        game = rules.new_game(seed=next(counter))
        match = game.match
        while game.match is match:
            game = game.apply(choice(game.legal_actions()))
        return 1

    return unit


def simulate_unit(rules: spadeskit.Rules, batch: int = 20) -> Unit:
    """Return a unit playing ``batch`` hands through ``Rules.simulate``."""
    counter = iter(range(10**12))

    def unit() -> int:
        for _ in rules.simulate(batch, seed=next(counter)):
            pass
        return batch

    return unit


def openspiel_unit() -> Unit | None:
    """Return a unit playing one random hand of OpenSpiel's spades, or None."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(0)
    choice = rng.choice

    def unit() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
        state.returns()
        return 1

    return unit


def rate(unit: Unit, seconds: float) -> float:
    """Return hands per CPU second of ``unit`` over about ``seconds`` of CPU time."""
    hands = 0
    start = time.process_time()
    while True:
        hands += unit()
        spent = time.process_time() - start
        if spent >= seconds:
            return hands / spent


def interleaved(
    mine: Unit,
    theirs: Unit,
    rounds: int,
    seconds: float,
    pure: Callable[[float], float] | None = None,
) -> tuple[float, ...]:
    """Return (median ratio, lowest, highest, my median rate, their median rate), then
    with ``pure`` (the pure core's rate, measured in the same rounds) its median ratio,
    lowest, highest and median rate."""
    mine()
    theirs()
    ratios, ours, others, pures, pure_ratios = [], [], [], [], []
    for _ in range(rounds):
        other = rate(theirs, seconds)
        own = rate(mine, seconds)
        ratios.append(own / other)
        ours.append(own)
        others.append(other)
        if pure is not None:
            pures.append(pure(seconds))
            pure_ratios.append(pures[-1] / other)
    found = (
        statistics.median(ratios),
        min(ratios),
        max(ratios),
        statistics.median(ours),
        statistics.median(others),
    )
    if pure is None:
        return found
    return (
        *found,
        statistics.median(pure_ratios),
        min(pure_ratios),
        max(pure_ratios),
        statistics.median(pures),
    )


# ------------------------------------------------------------------------------------------
# The pure-Python core beside the compiled one
# ------------------------------------------------------------------------------------------


def serve_pure() -> None:
    """Answer rate requests on stdin (``variant|house,…|mode|seconds``) with hands per
    CPU second of this process, which runs the pure-Python core (``SPADESKIT_PURE=1``)."""
    units: dict[str, Unit] = {}
    for line in sys.stdin:
        variant, house, mode, seconds = line.strip().split("|")
        key = f"{variant}|{house}|{mode}"
        if key not in units:
            rules = spadeskit.load_rules(variant, tuple(h for h in house.split(",") if h))
            units[key] = step_unit(rules) if mode == "step" else simulate_unit(rules)
            units[key]()
        print(rate(units[key], float(seconds)), flush=True)


class PureCore:
    """A second Python running the pure-Python core, measured in the same rounds."""

    def __init__(self) -> None:
        env = dict(os.environ, SPADESKIT_PURE="1")
        self.child = subprocess.Popen(
            [sys.executable, __file__, "--serve-pure"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def unit(self, variant: str, house: Sequence[str], mode: str) -> Callable[[float], float]:
        def measure(seconds: float) -> float:
            assert self.child.stdin is not None and self.child.stdout is not None
            self.child.stdin.write(f"{variant}|{','.join(house)}|{mode}|{seconds}\n")
            self.child.stdin.flush()
            return float(self.child.stdout.readline())

        return measure


# ------------------------------------------------------------------------------------------
# A third-party plugin with one out-of-turn hook declared for the auction
# ------------------------------------------------------------------------------------------


def auction_plugin() -> types.ModuleType:
    """Return a house-rule module offering nothing, from a hook declared for the auction."""
    module = types.ModuleType("bench_auction_claims")
    module.PLUGIN = spadeskit.PluginInfo(  # type: ignore[attr-defined]
        name="bench-auction-claims",
        kind="house-rule",
        summary="Offers nothing, during the auction only.",
    )

    @hookimpl
    @acts_in(Phase.AUCTION)
    def spadeskit_out_of_turn_actions(game: spadeskit.GameState, seat: int | None) -> None:
        return None

    module.spadeskit_out_of_turn_actions = spadeskit_out_of_turn_actions  # type: ignore[attr-defined]
    return module


# ------------------------------------------------------------------------------------------
# Memory and per-action costs
# ------------------------------------------------------------------------------------------


def tree_bytes(rules: spadeskit.Rules, states: int, seed: int = 1) -> float:
    """Return bytes per state kept alive in a random search tree of ``states`` states."""
    rng = random.Random(seed)
    roots = [rules.new_game(seed=s) for s in range(20)]
    for root in roots:
        root.legal_actions()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tree: list[spadeskit.GameState] = list(roots)
    while len(tree) < states:
        node = tree[rng.randrange(len(tree)) if rng.random() < 0.3 else -1]
        legal = node.legal_actions()
        if legal:
            tree.append(node.apply(rng.choice(legal)))
        else:
            tree.append(roots[rng.randrange(len(roots))])
    kept = tracemalloc.get_traced_memory()[0]
    del tree, node
    dropped = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (kept - max(before, dropped)) / states


def sample_states(rules: spadeskit.Rules, count: int) -> list[spadeskit.GameState]:
    """Return ``count`` states from random hands, mostly in play."""
    rng = random.Random(2)
    found = []
    seed = 0
    while len(found) < count:
        game = rules.new_game(seed=seed)
        seed += 1
        match = game.match
        while game.match is match and len(found) < count:
            if rng.random() < 0.3:
                found.append(game)
            game = game.apply(rng.choice(game.legal_actions()))
    return found


def sample_openspiel(count: int) -> list[Any]:
    import pyspiel

    game = pyspiel.load_game("spades")
    rng = random.Random(2)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            if rng.random() < 0.3:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def per_call(call: Callable[[Any], object], items: Sequence[Any], seconds: float) -> float:
    """Return microseconds per ``call(item)``, cycling through ``items``."""
    for item in items:
        call(item)
    calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for item in items:
            call(item)
        calls += len(items)
    return (time.process_time() - start) / calls * 1e6


def transfer_costs(rules: spadeskit.Rules, seconds: float) -> tuple[float, float, int]:
    """Return µs to pickle and unpickle a mid-match state, µs to replay its record, and
    the number of actions in that record."""
    import pickle

    rng = random.Random(3)
    game = rules.new_game(seed=3)
    while len(game.hand_results) < 3 and not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    record = game.to_record()
    pickled = per_call(lambda g: pickle.loads(pickle.dumps(g)), [game], seconds)
    replayed = per_call(lambda r: spadeskit.replay(r), [record], seconds)
    return pickled, replayed, len(record["actions"])


def action_costs(rules: spadeskit.Rules, seconds: float) -> list[tuple[str, float, float | None]]:
    states = sample_states(rules, 300)
    firsts = [(s, s.legal_actions()[0]) for s in states]
    seats = [(s, s.to_act) for s in states]
    ours = [
        ("apply", per_call(lambda pair: pair[0].apply(pair[1]), firsts, seconds)),
        (
            "legal_actions (fresh state)",
            per_call(
                lambda s: (object.__setattr__(s, "_legal", None), s.legal_actions()),
                states,
                seconds,
            ),
        ),
        ("view", per_call(lambda pair: pair[0].view(pair[1]), seats, seconds)),
    ]
    theirs: list[float | None] = [None, None, None]
    try:
        spiel = sample_openspiel(300)
    except ImportError:
        spiel = []
    if spiel:
        moves = [(s, s.legal_actions()[0]) for s in spiel]

        def clone_apply(pair: Any) -> None:
            copy = pair[0].clone()
            copy.apply_action(pair[1])

        theirs = [
            per_call(clone_apply, moves, seconds),
            per_call(lambda s: s.legal_actions(), spiel, seconds),
            per_call(lambda s: s.observation_tensor(), spiel, seconds),
        ]
    return [(name, us, other) for (name, us), other in zip(ours, theirs)]


# ------------------------------------------------------------------------------------------
# The report
# ------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--round", type=float, default=1.0, help="CPU seconds per round (default 1)"
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="interleaved rounds per row (default 5)"
    )
    parser.add_argument(
        "--only", default="", help="comma-separated variants to measure (default all)"
    )
    parser.add_argument("--states", type=int, default=100_000, help="states in the memory tree")
    parser.add_argument("--serve-pure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_pure:
        serve_pure()
        return
    only = {v for v in args.only.split(",") if v}
    theirs = openspiel_unit()
    print(f"spadeskit {spadeskit.__version__} core benchmark, {datetime.date.today()}")
    core = "compiled (mypyc)" if spadeskit.NATIVE else "pure Python"
    print(f"core: {core}; SPADESKIT_PURE=1 runs the pure-Python core")
    print(
        f"machine: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()}"
    )
    if theirs is None:
        print("OpenSpiel is not installed (pip install '.[bench]'): no ratios can be printed.")
        sys.exit(1)
    print(
        f"{args.rounds} interleaved rounds of {args.round:g} CPU s per row; ratio = spadeskit "
        "hands/s "
        "÷ OpenSpiel spades hands/s in the same round; median (range)"
    )
    print("OpenSpiel spades: Python-driven, chance outcomes sampled from chance_outcomes()\n")
    pure = PureCore() if spadeskit.NATIVE else None
    if pure is None:
        print(
            f"| {'rule set':28} | {'mode':8} | {'spadeskit':>11} | {'OpenSpiel':>11} | "
            f"{'ratio':>6} | {'range':>11} |"
        )
        print(f"|{'-' * 30}|{'-' * 10}|{'-' * 13}|{'-' * 13}|{'-' * 8}|{'-' * 13}|")
    else:
        print("compiled and pure cores in the same rounds (the pure one in a second Python)\n")
        print(
            f"| {'rule set':28} | {'mode':8} | {'compiled':>11} | {'pure':>11} | "
            f"{'OpenSpiel':>11} | {'compiled':>8} | {'range':>11} | {'pure':>6} | "
            f"{'range':>11} |"
        )
        print(
            f"|{'-' * 30}|{'-' * 10}|{'-' * 13}|{'-' * 13}|{'-' * 13}|{'-' * 10}|"
            f"{'-' * 13}|{'-' * 8}|{'-' * 13}|"
        )
    for variant, house in CONFIGS:
        if only and variant not in only:
            continue
        rules = spadeskit.load_rules(variant, house)
        for mode, unit in (("step", step_unit(rules)), ("simulate", simulate_unit(rules))):
            beside = pure.unit(variant, house, mode) if pure is not None else None
            row = interleaved(unit, theirs, args.rounds, args.round, beside)
            median, low, high, mine, other = row[:5]
            if pure is None:
                print(
                    f"| {label(variant, house):28} | {mode:8} | {mine:>7,.0f} h/s | "
                    f"{other:>7,.0f} h/s | "
                    f"{median:>5.2f}x | {low:.2f}-{high:.2f}x |",
                    flush=True,
                )
                continue
            p_median, p_low, p_high, p_rate = row[5:]
            print(
                f"| {label(variant, house):28} | {mode:8} | {mine:>7,.0f} h/s | "
                f"{p_rate:>7,.0f} h/s | {other:>7,.0f} h/s | {median:>7.2f}x | "
                f"{low:.2f}-{high:.2f}x | {p_median:>5.2f}x | {p_low:.2f}-{p_high:.2f}x |",
                flush=True,
            )
    if only and "standard" not in only:
        return
    standard = spadeskit.load_rules("standard")
    with_plugin = spadeskit.load_rules("standard", [auction_plugin()])
    median, low, high, mine, other = interleaved(
        step_unit(with_plugin), step_unit(standard), args.rounds, args.round
    )
    print(
        f"\nstandard + a third-party hook declared for the auction, step API: {median:.3f}x "
        "of plain "
        f"standard (range {low:.3f}-{high:.3f}; cost {100 * (1 - median):+.1f}%)"
    )
    print(
        f"memory: {tree_bytes(standard, args.states):,.0f} bytes per state kept in a "
        f"{args.states:,}-state search tree (standard)"
    )
    pickled, replayed, actions = transfer_costs(standard, args.round)
    print(
        f"moving a state to another process: pickle round trip {pickled:,.0f} µs, "
        f"replay of its record {replayed:,.0f} µs ({actions} actions, three hands)"
    )
    print("\nper action, standard (µs; OpenSpiel beside it):")
    for name, us, other_us in action_costs(standard, args.round):
        theirs_text = f"{other_us:6.2f}" if other_us is not None else "     -"
        ratio = f"  ratio {other_us / us:.2f}x" if other_us else ""
        print(f"  {name:28} {us:6.2f}   vs {theirs_text}{ratio}")
    print("  (OpenSpiel: clone()+apply_action, legal_actions, observation_tensor)")


if __name__ == "__main__":
    main()
