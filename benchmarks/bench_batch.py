"""Batched simulation against OpenSpiel's spades, side by side in one run.

    python benchmarks/bench_batch.py [--rounds 5] [--round 1.0] [--memory]

Each row alternates rounds of OpenSpiel's C++ spades driven from Python (random play,
chance outcomes sampled, as benchmarks/bench_core.py drives it) and of
``Rules.simulate_batch`` on the same CPU, and reports hands per CPU second and the
median ratio with its range: the machine is shared and noisy, so only ratios measured in
the same round mean anything.  A unit of the batched engine is a whole call of ``H``
hands (10,000 or 1,000), each call with a new seed; the engine is derived and its score
tables filled before the first round (the first call of a new rule set in a process
pays for that: see "cold" below).  ``--memory`` also simulates 1,000,000 hands in a
child process and reports its peak memory.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import platform
import subprocess
import sys
from collections.abc import Callable

from bench_core import interleaved, openspiel_unit

import spadeskit

ROWS = [
    ("standard", (), "random", 10_000),
    ("standard", (), "random", 1_000),
    ("standard", (), "greedy", 10_000),
    ("standard", (), "greedy", 1_000),
    ("cutthroat", (), "random", 10_000),
    ("call-break", (), "random", 10_000),
    ("three-suit-trump", (), "random", 10_000),
    ("standard", ("no-trump-first-trick",), "random", 10_000),
    ("standard", ("spades-anytime",), "random", 10_000),
    ("standard", ("no-bags",), "random", 10_000),
    ("standard", ("boston",), "random", 10_000),
    ("standard", ("partnership-nil",), "random", 10_000),
    ("standard", ("jokers",), "random", 10_000),
    ("standard", ("hidden-bids",), "random", 10_000),
    ("standard", ("mirror",), "random", 10_000),
    ("standard", ("whiz",), "random", 10_000),
]


def batch_unit(rules: spadeskit.Rules, policy: str, hands: int) -> Callable[[], int]:
    seeds = itertools.count(1)

    def unit() -> int:
        for _ in rules.simulate_batch(hands, seed=next(seeds), policy=policy):
            pass
        return hands

    return unit


def cold_seconds(variant: str, house: tuple[str, ...], hands: int) -> float:
    """CPU seconds of a first call in a fresh process (derivation and score tables)."""
    code = (
        "import time, spadeskit\n"
        f"rules = spadeskit.load_rules({variant!r}, {list(house)!r})\n"
        "start = time.process_time()\n"
        f"list(rules.simulate_batch({hands}, seed=1))\n"
        "print(time.process_time() - start)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout)


def memory_of_a_million() -> tuple[float, float]:
    """Return (seconds, peak MB) of 1,000,000 standard hands in a child process."""
    code = (
        "import resource, time, spadeskit\n"
        "rules = spadeskit.load_rules('standard')\n"
        "start = time.perf_counter()\n"
        "total = 0\n"
        "for batch in rules.simulate_batch(1_000_000, seed=1):\n"
        "    total += int(batch.points[:, 0].sum())\n"
        "print(time.perf_counter() - start, "
        "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, peak = done.stdout.split()
    return float(seconds), float(peak)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=float, default=1.0, help="CPU seconds per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per row")
    parser.add_argument("--memory", action="store_true", help="also measure 1,000,000 hands")
    parser.add_argument(
        "--only", default="", help="comma-separated rule sets to measure, e.g. 'standard + mirror'"
    )
    args = parser.parse_args()
    theirs = openspiel_unit()
    print(f"spadeskit {spadeskit.__version__} batched engine benchmark, {datetime.date.today()}")
    print(
        f"machine: {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"
    )
    if theirs is None:
        print("OpenSpiel is not installed (pip install '.[bench]'): no ratios can be printed.")
        sys.exit(1)
    print(
        f"{args.rounds} interleaved rounds of {args.round:g} CPU s per row; ratio = batched "
        "hands/s ÷ OpenSpiel spades hands/s in the same round; median (range)\n"
    )
    print(
        f"| {'rule set':30} | {'policy':6} | {'hands':>6} | {'batched':>13} | "
        f"{'OpenSpiel':>11} | {'ratio':>7} | {'range':>13} |"
    )
    print(f"|{'-' * 32}|{'-' * 8}|{'-' * 8}|{'-' * 15}|{'-' * 13}|{'-' * 9}|{'-' * 15}|")
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    for variant, house, policy, hands in ROWS:
        if only and " + ".join((variant, *house)) not in only:
            continue
        rules = spadeskit.load_rules(variant, house)
        unit = batch_unit(rules, policy, hands)
        for _ in range(3):
            unit()  # derive the engine and fill its score tables
        median, low, high, mine, other = interleaved(unit, theirs, args.rounds, args.round)
        name = " + ".join((variant, *house))
        print(
            f"| {name:30} | {policy:6} | {hands:>6,} | {mine:>9,.0f} h/s | "
            f"{other:>7,.0f} h/s | {median:>6.1f}x | {low:>5.1f}-{high:<5.1f}x |",
            flush=True,
        )
    cold = cold_seconds("standard", (), 10_000)
    print(
        f"\ncold: the first 10,000 standard hands in a fresh process take {cold:.2f} CPU s "
        "(deriving the engine and filling its score tables)"
    )
    if args.memory:
        seconds, peak = memory_of_a_million()
        print(
            f"memory: 1,000,000 standard hands in chunks of 8,192: {seconds:.1f} s, "
            f"peak {peak:,.0f} MB for the whole process"
        )


if __name__ == "__main__":
    main()
