"""``no-bags``: overtricks score nothing and there is no bag penalty.

A wrapper around the scoring hook: every score line that carries bags loses the points
those bags scored (its ``bag_points``: one a bag, or none for a failed nil's tricks
beside a set contract) and its bags, its ``bag_text`` says so ("1 overtrick, no
bags"), and the bag-penalty lines (their ``kind``) go.  It never edits another rule's text: a line's
bag part is its own field.  It only touches lines that carry bags, so it combines with
``boston`` and ``partnership-nil`` (whose lines carry none) in any order.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

import attrs

from spadeskit import ScoreLine
from spadeskit.plugin import PluginInfo, hookimpl

from .._common import count

PLUGIN = PluginInfo(
    name="no-bags",
    kind="house-rule",
    summary="Overtricks score nothing and there is no bag penalty.",
    fits=("standard", "cutthroat", "two-handed"),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {"score": "+no-bags"}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "overtricks score nothing and there is no bag penalty",
        "bids": "3 1 2 1",
        "books": "5 1 3 4",
        "scores": (337, 0),
        "bags": (7, 0),
        "after": (387, 20),
        "lines": [
            "N/S bid 5, took 8: +50, 3 overtricks, no bags",
            "E/W bid 2, took 5: +20, 3 overtricks, no bags",
        ],
    },
    {
        "rule": "a contract made exactly reads as in standard; a failed nil's tricks score 0",
        "bids": "3 1 2 nil",
        "books": "3 6 2 2",
        "points": (50, -90),
        "lines": [
            "N/S bid 5, took 5: +50",
            "E/W bid 1, took 6: +10, 5 overtricks, no bags",
            "W nil, took 2: -100, 2 overtricks, no bags",
        ],
    },
)

Groups = list["Sequence[ScoreLine] | None"]


def without_bags(line: ScoreLine) -> ScoreLine | None:
    """Return ``line`` with its bags scoring nothing; ``None`` for a bag-penalty line."""
    if line.kind == "bag-penalty":
        return None
    if line.bags == 0:
        return line
    return attrs.evolve(
        line,
        points=line.points - line.bag_points,
        bags=0,
        bag_points=0,
        bag_text=f"{count(line.bags, 'overtrick')}, no bags",
    )


@hookimpl(wrapper=True)
def spadeskit_score_hand() -> Generator[None, Groups, Groups]:
    groups = yield
    return [
        [new for line in group or () if (new := without_bags(line)) is not None] for group in groups
    ]
