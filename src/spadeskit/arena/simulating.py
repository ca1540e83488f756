"""``spadeskit simulate``: many independent hands, summarized (the ``fast`` extra).

Hands are played by the batched engine (:meth:`Rules.simulate_batch
<spadeskit.engine.rules.Rules.simulate_batch>`); a rule set it cannot derive is played hand by
hand by :meth:`Rules.simulate <spadeskit.engine.rules.Rules.simulate>` instead, and the command
says so.  The summary gives each side's mean points with a 95% interval, how often a
side scored below zero, its mean bag counter, and each seat's mean bid, nils and books,
then a histogram of each side's points; ``--plot`` draws it (needs matplotlib).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from spadeskit.arena.matchplay import draw_progress
from spadeskit.batch import BatchUnsupported
from spadeskit.core.actions import Bid, BlindNil, Nil
from spadeskit.core.errors import SpadesError
from spadeskit.engine.rules import Rules

__all__ = ["Totals", "run", "summary_lines"]


class Totals:
    """Running sums over simulated hands, kept per seat and per side."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n, sides = rules.table.players, len(rules.table.sides)
        self.hands = 0
        self.bids = np.zeros(n)
        self.bidders = np.zeros(n)
        self.nils = np.zeros(n)
        self.books = np.zeros(n)
        self.points = np.zeros(sides)
        self.squares = np.zeros(sides)
        self.below = np.zeros(sides)
        self.bags = np.zeros(sides)
        self.histogram: list[dict[int, int]] = [{} for _ in range(sides)]

    def add(self, bids: Any, nil: Any, books: Any, points: Any, bags: Any) -> None:
        """Add hands given as arrays (one row per hand); bids of ``-1`` are not bids."""
        self.hands += len(books)
        counted = bids >= 0
        self.bids += np.where(counted & ~nil, bids, 0).sum(axis=0)
        self.bidders += (counted & ~nil).sum(axis=0)
        self.nils += nil.sum(axis=0)
        self.books += books.sum(axis=0)
        self.points += points.sum(axis=0)
        self.squares += (points.astype(np.float64) ** 2).sum(axis=0)
        self.below += (points < 0).sum(axis=0)
        self.bags += bags.sum(axis=0)
        width = bin_width(self.rules)
        for side, counts in enumerate(self.histogram):
            values, found = np.unique(points[:, side] // width, return_counts=True)
            for value, count in zip(values.tolist(), found.tolist(), strict=True):
                counts[value] = counts.get(value, 0) + count


def bin_width(rules: Rules) -> int:
    """Return the histogram's bin width in stored points: 50 points, or one point where
    a variant keeps its points in smaller units (Call Break's tenths) or plays to a
    target under 100 (three-suit-trump's game points)."""
    unit = rules.table.score_unit
    target = rules.options.get("target")
    small = type(target) is int and 0 < target < 100
    return unit if unit != 1 or small else 50


def summary_lines(totals: Totals) -> list[str]:
    """Return the summary table and the histograms as lines of text."""
    rules, hands = totals.rules, max(totals.hands, 1)
    table = rules.table
    unit = table.score_unit
    lines = [f"{'side':8} {'mean points (95% interval)':>30} {'sd':>8} {'below 0':>8} {'bags':>6}"]
    for side, name in enumerate(table.side_names):
        mean = totals.points[side] / hands
        sd = math.sqrt(max(totals.squares[side] / hands - mean**2, 0.0))
        half = 1.96 * sd / math.sqrt(hands)
        interval = f"{mean / unit:.2f} ({(mean - half) / unit:.2f} to {(mean + half) / unit:.2f})"
        lines.append(
            f"{name:8} {interval:>30} {sd / unit:>8.2f} "
            f"{100 * totals.below[side] / hands:>7.1f}% {totals.bags[side] / hands:>6.2f}"
        )
    lines.append("")
    lines.append(f"{'seat':8} {'mean bid':>9} {'nil':>7} {'mean books':>11}")
    for seat, name in enumerate(table.seat_names):
        bidders = totals.bidders[seat]
        bid = f"{totals.bids[seat] / bidders:.2f}" if bidders else "-"
        lines.append(
            f"{name:8} {bid:>9} {100 * totals.nils[seat] / hands:>6.1f}% "
            f"{totals.books[seat] / hands:>11.2f}"
        )
    width = bin_width(rules)
    for side, name in enumerate(table.side_names):
        counts = totals.histogram[side]
        if not counts:
            continue
        lines.append("")
        lines.append(f"points of {name} (bins of {width / unit:g}):")
        top = max(counts.values())
        for value in range(min(counts), max(counts) + 1):
            count = counts.get(value, 0)
            if 1000 * count < hands:  # under 0.1% of hands: left out
                continue
            low = value * width / unit
            bar = "#" * max(1, round(40 * count / top))
            high = low + width / unit
            lines.append(f"  {low:>7g} to {high:<7g} {bar} {100 * count / hands:.1f}%")
    return lines


def _bid(bid: object) -> int:
    return bid.tricks if isinstance(bid, Bid) else 0 if isinstance(bid, (Nil, BlindNil)) else -1


def _hand_by_hand(rules: Rules, hands: int, seed: int) -> Iterator[tuple[Any, ...]]:
    """Rows of arrays from Rules.simulate, in chunks, for rule sets not batched."""
    n = rules.table.players
    for first in range(0, hands, 1000):
        results = list(rules.simulate(min(1000, hands - first), seed=seed, start=first))
        bids = np.array([[_bid(b) for b in r.bids] for r in results]).reshape(-1, n)
        nil = np.array([[isinstance(b, (Nil, BlindNil)) for b in r.bids] for r in results])
        nil = nil.reshape(-1, n)
        yield (
            bids,
            nil,
            np.array([r.books for r in results]),
            np.array([r.points for r in results]),
            np.array([r.bags for r in results]),
        )


def run(
    rules: Rules,
    hands: int,
    seed: int,
    policy: str,
    *,
    out: IO[str] | None = None,
    progress: IO[str] | None = None,
    plot: str | None = None,
) -> Totals:
    """Simulate and print the summary to ``out``; draw a progress bar on ``progress``."""
    out = out or sys.stdout
    started = time.perf_counter()
    totals = Totals(rules)
    how = "batched"
    try:  # the engine is derived (or refused) when simulate_batch is called
        batches = rules.simulate_batch(hands, seed=seed, policy=policy)
        chunks: Iterator[tuple[Any, ...]] = (
            (b.bids if not b.leaves else b.bid_choice, b.nil, b.books, b.points, b.bags)
            for b in batches  # an auction read as a tree has no bids: -1
        )
    except BatchUnsupported as refused:
        if policy != "random":
            raise SpadesError(f"{refused}; only --policy random plays it hand by hand") from None
        print(
            f"spadeskit: {refused}; playing it hand by hand (Rules.simulate)",
            file=progress or sys.stderr,
        )
        how = "hand by hand"
        chunks = _hand_by_hand(rules, hands, seed)
    for arrays in chunks:
        totals.add(*arrays)
        if progress is not None:
            draw_progress(progress, totals.hands, hands, "hands")
    if progress is not None:
        print(file=progress)
    spent = time.perf_counter() - started
    print(
        f"{rules.name}: {totals.hands:,} hands, {policy} play, seed {seed} ({how}: "
        f"{spent:.1f} s, {totals.hands / max(spent, 1e-9):,.0f} hands/s)\n",
        file=out,
    )
    for line in summary_lines(totals):
        print(line, file=out)
    if plot:
        _plot(totals, plot)
        print(f"\nplot written to {plot}", file=out)
    return totals


def _plot(totals: Totals, path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SpadesError("--plot needs matplotlib: pip install matplotlib") from None
    rules = totals.rules
    width, unit = bin_width(rules), rules.table.score_unit
    figure, axes = plt.subplots(figsize=(8, 4))
    for side, name in enumerate(rules.table.side_names):
        counts = totals.histogram[side]
        xs = sorted(counts)
        axes.step(
            [x * width / unit for x in xs],
            [100 * counts[x] / totals.hands for x in xs],
            where="post",
            label=name,
        )
    axes.set_xlabel("points in a hand")
    axes.set_ylabel(f"% of hands (bins of {width / unit:g})")
    axes.set_title(f"{rules.name}: {totals.hands:,} hands")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
