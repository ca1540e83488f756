"""Every bot against every other: the strength table, as text, CSV and a heat map.

:func:`gauntlet` plays :func:`~spadeskit.arena.evaluate` for each pair of bots on the
same duplicate deals (the same seed for every pair, so every row sees the same cards)
and returns a :class:`Gauntlet`.  Where two sides play (partnership Spades,
two-handed), one evaluation a pair says both directions: the matches of A against B
are exactly those of B against A, seats and all, so B's share is one minus A's.  Where
three or more play alone (cutthroat), a bot's share against two copies of another is
not one minus theirs against two of it, so each ordered pair is played.

``spadeskit arena --gauntlet`` runs it with a progress bar and writes the table as
CSV, and as a PNG heat map when matplotlib is installed (the ``plot`` extra).
"""

from __future__ import annotations

import concurrent.futures
import csv
import shlex
import sys
from collections.abc import Sequence
from typing import IO, Any

import attrs

from spadeskit.arena.evaluation import Evaluation, evaluate
from spadeskit.arena.matchplay import (
    BotSpec,
    aligned,
    bot_class,
    cpu_summary,
    draw_progress,
    loaded_rules,
    seatings,
    spec_name,
)
from spadeskit.core.errors import SpadesError, install_hint, shown
from spadeskit.engine.rules import Rules

__all__ = ["GAUNTLET_BOTS", "Gauntlet", "gauntlet"]

GAUNTLET_BOTS = ("heuristic", "heuristic[version=3]", "pointcount", "suretricks", "simple")
"""The bots ``spadeskit arena --gauntlet`` plays unless told: today's and round 3's
heuristic bots, the two sparring partners and the simple bot.  The search bots take
tens of milliseconds a decision; name them with ``--bots`` to add them."""

CSV_COLUMNS = (
    "rules",
    "challenger",
    "baseline",
    "deals",
    "seed",
    "matches",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "fair_share",
    "deals_for",
    "deals_against",
    "deals_even",
    "margin_a_match",
    "challenger_ms",
    "baseline_ms",
    "command",
)


@attrs.frozen
class Gauntlet:
    """The result of :func:`gauntlet`: one :class:`Evaluation` a pair of bots.

    ``evaluations`` holds each pair once where two sides play (the first bot named as
    the challenger), each ordered pair where more play alone.  :meth:`share` reads a
    bot's win share against another either way; :meth:`rows` gives one row per ordered
    pair, the reversed ones derived.
    """

    rules: Rules = attrs.field(repr=False)
    bots: tuple[str, ...]
    deals: int
    seed: int
    evaluations: tuple[Evaluation, ...] = attrs.field(repr=False)

    def _find(self, a: str, b: str) -> tuple[Evaluation, bool]:
        for evaluation in self.evaluations:
            if (evaluation.challenger, evaluation.baseline) == (a, b):
                return evaluation, False
        for evaluation in self.evaluations:
            if (evaluation.challenger, evaluation.baseline) == (b, a):
                return evaluation, True
        raise SpadesError(f"the gauntlet did not play {shown(a)} against {shown(b)}")

    def rows(self) -> list[dict[str, Any]]:
        """Return one row per ordered pair of bots (see :data:`CSV_COLUMNS`)."""
        rows = []
        for a in self.bots:
            for b in self.bots:
                if a != b:
                    rows.append(self._row(a, b))
        return rows

    def _row(self, a: str, b: str) -> dict[str, Any]:
        evaluation, reversed_ = self._find(a, b)
        matches = evaluation.matches
        wins = matches - evaluation.wins if reversed_ else evaluation.wins
        low, high = evaluation.interval
        if reversed_:
            low, high = 1 - high, 1 - low
        plus, minus, even = evaluation.sign
        if reversed_:
            plus, minus = minus, plus
        cpu = cpu_summary(evaluation.outcomes)
        mine, theirs = cpu["challenger_seconds"], cpu["baseline_seconds"]
        if reversed_:
            mine, theirs = theirs, mine
        margin = -evaluation.mean_margin if reversed_ else evaluation.mean_margin
        return {
            "rules": self.rules.name,
            "challenger": a,
            "baseline": b,
            "deals": self.deals,
            "seed": self.seed,
            "matches": matches,
            "wins": wins,
            "win_rate": round(wins / matches, 4) if matches else 0.0,
            "ci_low": round(low, 4),
            "ci_high": round(high, 4),
            "fair_share": round(evaluation.fair_share, 4),
            "deals_for": plus,
            "deals_against": minus,
            "deals_even": even,
            "margin_a_match": round(margin, 1),
            "challenger_ms": round(1000 * mine, 3),
            "baseline_ms": round(1000 * theirs, 3),
            "command": self.command(a, b),
        }

    def share(self, a: str, b: str) -> float:
        """Return the share of matches ``a`` won against ``b`` (the fair share if the same)."""
        if a == b:
            return 1 / len(self.rules.table.sides)
        return float(self._row(a, b)["win_rate"])

    def command(self, a: str, b: str) -> str:
        """Return the ``spadeskit arena`` command that plays the row of ``a`` against ``b``."""
        rules = self.rules
        words = ["spadeskit", "arena", "--variant", rules.variant]
        for house in rules.house_rules:
            words += ["--house-rule", house]
        for name, value in sorted(rules.options.items()):
            default = _default(rules, name)
            if value != default:
                words += ["--option", f"{name}={value}"]
        words += ["--challenger", a, "--baseline", b, "--deals", str(self.deals)]
        words += ["--seed", str(self.seed)]
        return shlex.join(words)

    def table(self) -> str:
        """Return the table as text: a row a pair, win share with its 95% interval."""
        lines = [f"{self.rules.name}: {self.deals} deals x every seating, seed {self.seed}"]
        width = max(len(b) for b in self.bots)
        header = f"{'':{width}}  " + "  ".join(f"{b[:10]:>10}" for b in self.bots)
        lines += [header]
        for a in self.bots:
            cells = []
            for b in self.bots:
                cells.append(f"{'-':>10}" if a == b else f"{100 * self.share(a, b):9.1f}%")
            lines.append(f"{a:{width}}  " + "  ".join(cells))
        lines.append("")
        rows = [
            (
                f"{r['challenger']} v {r['baseline']}",
                f"{r['wins']} of {r['matches']}: {100 * r['win_rate']:.1f}% "
                f"(95% CI {100 * r['ci_low']:.1f}-{100 * r['ci_high']:.1f}%), deals "
                f"{r['deals_for']} for, {r['deals_against']} against; "
                f"{r['challenger_ms']:.2f} ms a decision",
            )
            for r in self.rows()
        ]
        return "\n".join(lines) + "\n" + aligned(rows)

    def write_csv(self, path: str) -> None:
        """Write :meth:`rows` to ``path`` as CSV, a header line first."""
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
            writer.writeheader()
            writer.writerows(self.rows())

    def write_png(self, path: str) -> None:
        """Draw the win shares as a heat map (row bot against column bot) to ``path``;
        needs matplotlib (the ``plot`` extra)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.colors
            import matplotlib.pyplot as plt
        except ImportError:
            raise SpadesError(
                f"the heat map needs matplotlib: {install_hint('plot')}", code="missing-extra"
            ) from None
        n = len(self.bots)
        grid = [[100 * self.share(a, b) for b in self.bots] for a in self.bots]
        fair = 100 / len(self.rules.table.sides)
        figure, axes = plt.subplots(figsize=(1.6 + 1.1 * n, 1.2 + 0.9 * n))
        norm = matplotlib.colors.TwoSlopeNorm(vmin=0, vcenter=fair, vmax=100)
        image = axes.imshow(grid, cmap="RdBu", norm=norm)
        axes.set_xticks(range(n), self.bots, rotation=30, ha="right")
        axes.set_yticks(range(n), self.bots)
        axes.set_xlabel("against")
        axes.set_ylabel("bot")
        for i in range(n):
            for j in range(n):
                text = "" if i == j else f"{grid[i][j]:.0f}%"
                axes.text(j, i, text, ha="center", va="center", fontsize=9)
        figure.colorbar(image, ax=axes, label="matches won (%)")
        axes.set_title(f"{self.rules.name}: {self.deals} deals x every seating")
        figure.tight_layout()
        figure.savefig(path, dpi=110)
        plt.close(figure)


def _default(rules: Rules, name: str) -> Any:
    """Return an option's default as the loaded plugins declare it (``None`` if unknown)."""
    for plugin in rules.plugins:
        for option in plugin.options:
            if option.name == name:
                return option.default
    return None


def gauntlet(
    rules: Rules,
    bots: Sequence[BotSpec] = GAUNTLET_BOTS,
    deals: int = 100,
    seed: int = 0,
    *,
    executor: concurrent.futures.Executor | None = None,
    batch: int = 5,
    progress: bool | IO[str] = False,
) -> Gauntlet:
    """Play every bot of ``bots`` against every other on ``deals`` duplicate deals.

    Each pair is an :func:`~spadeskit.arena.evaluate` with the same ``seed`` (the same
    deals for every pair); ``executor`` and ``batch`` are passed on.  ``progress=True``
    draws one bar on stderr over every match of the gauntlet (or give a stream).
    """
    loaded_rules(rules)
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise SpadesError(f"bots is a list of bots (names or classes), not {shown(bots, 40)}")
    if type(deals) is not int or deals < 1:
        raise SpadesError(f"deals is a whole number, 1 or more, not {shown(deals)}")
    for spec in bots:
        bot_class(spec)  # an unknown bot fails before any match is played
    names = [spec_name(b) for b in bots]
    if len(names) < 2 or len(set(names)) != len(names):
        raise SpadesError(f"a gauntlet takes two bots or more, each once, not {shown(names)}")
    both_ways = len(rules.table.sides) == 2
    pairs = [
        (a, b)
        for i, a in enumerate(bots)
        for j, b in enumerate(bots)
        if (i < j if both_ways else i != j)
    ]
    stream = sys.stderr if progress is True else (progress or None)
    per_deal = len(seatings(rules))
    total = len(pairs) * deals * per_deal
    done = 0

    def advance(count: int) -> None:
        nonlocal done
        done += count * per_deal
        if stream is not None:
            draw_progress(stream, done, total, "matches")

    evaluations = [
        evaluate(rules, a, b, deals, seed, executor=executor, batch=batch, on_deals=advance)
        for a, b in pairs
    ]
    if stream is not None:
        print(file=stream)
    return Gauntlet(rules, tuple(names), deals, seed, tuple(evaluations))
