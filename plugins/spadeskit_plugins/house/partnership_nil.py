"""``partnership-nil``: a bonus when both partners bid nil and both succeed.

Each nil is scored by the variant as usual (±100, or ±200 blind); when both partners
bid nil (blind or not) and neither takes a trick, the side also scores the bonus
(option ``partnership_nil_bonus``, 100).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spadeskit import ScoreLine
from spadeskit.core.results import HandSummary
from spadeskit.core.seating import TableSpec
from spadeskit.plugin import Option, PluginInfo, hookimpl, int_range, is_nil

PLUGIN = PluginInfo(
    name="partnership-nil",
    kind="house-rule",
    summary="Both partners bid nil and both succeed: the side scores a bonus on top.",
    options=(
        Option(
            "partnership_nil_bonus",
            100,
            "Bonus when both partners bid nil and both succeed (0 to 1000).",
            int_range(0, 1000),
        ),
    ),
    fits=("standard",),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "score": "+partnership-nil",
    "options": {"partnership_nil_bonus": "0..1000"},
    "defaults": {"partnership_nil_bonus": 100},
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "both partners nil and both made: the bonus on top of the two nils",
        "bids": "nil 4 nil 4",
        "books": "0 6 0 7",
        "points": (300, 85),
        "lines": [
            "N nil, took 0: +100",
            "S nil, took 0: +100",
            "E/W bid 8, took 13: +80, 5 bags (+5)",
            "N/S both made nil: partnership bonus +100",
        ],
    },
)


@hookimpl
def spadeskit_score_hand(
    summary: HandSummary, table: TableSpec, options: Any
) -> Sequence[ScoreLine]:
    bonus = options["partnership_nil_bonus"]
    return [
        ScoreLine(
            side,
            bonus,
            f"{table.side_names[side]} both made nil: partnership bonus {bonus:+d}",
            kind="bonus",
        )
        for side, seats in enumerate(table.sides)
        if all(is_nil(summary.bids[s]) and summary.books[s] == 0 for s in seats)
    ]
