"""``boston``: a side that contracts for all 13 tricks wins or loses a bonus.

A team contract of 13 scores +10×13 and the bonus (option ``boston_bonus``, 100) if
made, and −(130 + bonus) if set.  The variant already scores ±130; this rule adds the
bonus as its own score line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spadeskit import ScoreLine
from spadeskit.core.results import HandSummary
from spadeskit.core.seating import TableSpec
from spadeskit.plugin import Option, PluginInfo, hookimpl, int_range, side_contract

PLUGIN = PluginInfo(
    name="boston",
    kind="house-rule",
    summary="A team contract of 13 scores a bonus if made and loses it if set.",
    options=(
        Option(
            "boston_bonus",
            100,
            "Bonus for making a Boston, and lost on top of 130 when set (0 to 1000).",
            int_range(0, 1000),
        ),
    ),
    fits=("standard",),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "score": "+boston",
    "options": {"boston_bonus": "0..1000"},
    "defaults": {"boston_bonus": 100},
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "a team contract of 13 made scores 130 and the bonus",
        "bids": "7 1 6 1",
        "books": "7 0 6 0",
        "points": (230, -20),
        "lines": [
            "N/S bid 13, took 13: +130",
            "E/W bid 2, took 0: set, -20",
            "N/S made a Boston: +100",
        ],
    },
    {
        "rule": "a team contract of 13 set loses 130 and the bonus",
        "bids": "7 1 6 1",
        "books": "7 1 5 0",
        "points": (-230, -20),
        "lines": [
            "N/S bid 13, took 12: set, -130",
            "E/W bid 2, took 1: set, -20",
            "N/S were set in a Boston: -100",
        ],
    },
)


@hookimpl
def spadeskit_score_hand(
    summary: HandSummary, table: TableSpec, options: Any
) -> Sequence[ScoreLine]:
    lines = []
    bonus = options["boston_bonus"]
    for side in range(len(table.sides)):
        counted = side_contract(summary, side, table.sides)  # a nil's books never count
        if counted.bid != 13:
            continue
        name = table.side_names[side]
        if counted.made:
            lines.append(ScoreLine(side, bonus, f"{name} made a Boston: {bonus:+d}", kind="bonus"))
        else:
            lines.append(
                ScoreLine(side, -bonus, f"{name} were set in a Boston: {-bonus:+d}", kind="penalty")
            )
    return lines
