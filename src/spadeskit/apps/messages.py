"""The table service's own messages, beside the hand's events: ``hand-started``,
``bids-shown``, ``hand-ended`` and ``match-over`` (see :mod:`spadeskit.apps.service`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spadeskit.core.actions import label
from spadeskit.core.results import HandResult
from spadeskit.core.seating import TableSpec, show_points
from spadeskit.core.state import GameState
from spadeskit.core.views import View, hand_result_json

__all__ = [
    "bids_shown_message",
    "hand_ended_message",
    "hand_started_message",
    "match_over_message",
]


def hand_started_message(view: View, seat_names: Sequence[str]) -> dict[str, Any]:
    """Return the ``hand-started`` message of a seat's (or a watcher's) view."""
    return {
        "type": "hand-started",
        "hand": view.hand_number,
        "dealer": view.dealer,
        "cards": [c.code for c in view.cards],
        "text": f"hand {view.hand_number + 1}: {seat_names[view.dealer]} deals",
    }


def bids_shown_message(view: View, seat_names: Sequence[str]) -> dict[str, Any]:
    """Return the ``bids-shown`` message: the bids a view shows, sealed bids opened."""
    return {
        "type": "bids-shown",
        "hand": view.hand_number,
        "bids": [b.to_json() if b is not None else None for b in view.bids],
        "text": "bids: "
        + ", ".join(f"{seat_names[s]} {label(b)}" for s, b in enumerate(view.bids) if b),
    }


def hand_ended_message(
    result: HandResult, trick: list[list[Any]], table: TableSpec
) -> dict[str, Any]:
    """Return the ``hand-ended`` message: the result, the last trick, a line of text."""
    return {
        "type": "hand-ended",
        "hand": result.number,
        **hand_result_json(result),
        "note": result.note,
        "last_trick": {"plays": trick, "winner": result.last_trick_winner},
        "text": f"hand {result.number + 1} over: "
        + ", ".join(
            f"{table.side_names[s]} {'+' if p >= 0 else ''}{show_points(p, table.score_unit)}"
            for s, p in enumerate(result.points)
        ),
    }


def match_over_message(game: GameState, table: TableSpec) -> dict[str, Any]:
    """Return the ``match-over`` message: the winning side and the final scores."""
    end = game.match.end
    assert end is not None
    return {
        "type": "match-over",
        "hand": game.number,
        "winner": end.winner,
        "scores": list(game.scores),
        "text": f"{table.side_names[end.winner]} win: {end.reason}",
    }
