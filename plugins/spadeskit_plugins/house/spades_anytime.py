"""``spades-anytime``: spades may be led at any time.

The variant's play filters are collected as usual; this wrapper drops the one named
``break-spades`` (see :func:`spadeskit.plugin.no_lead_until_broken`).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from spadeskit.plugin import PlayFilter, PluginInfo, hookimpl

from .._common import DEAL

PLUGIN = PluginInfo(
    name="spades-anytime",
    kind="house-rule",
    summary="Spades may be led at any time; they need not be broken first.",
    fits=("standard", "cutthroat", "two-handed"),
    conflicts=("no-trump-first-trick",),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {"lead": "anytime"}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "spades may be led before they are broken",
        "deal": DEAL,
        "actions": ["bid 3", "bid 3", "bid 3", "bid 3"],
        "legal": "AS 2S 3S AH KH AC KC QC AD KD QD JD 10D",
    },
)

Groups = list["Sequence[PlayFilter] | None"]


@hookimpl(wrapper=True)
def spadeskit_play_filters() -> Generator[None, Groups, Groups]:
    groups = yield
    return [[f for f in group if f.name != "break-spades"] for group in groups if group]
