"""Where a hand stands (:class:`Phase`), and the referee's seat number (:data:`REFEREE`)."""

from __future__ import annotations

import enum

__all__ = ["REFEREE", "Phase"]

REFEREE = -1
"""The seat number of the referee, for rulings such as table talk: ``apply(a, REFEREE)``."""


class Phase(enum.Enum):
    """Where a hand stands."""

    AUCTION = "auction"
    EXCHANGE = "exchange"
    PLAY = "play"
    REVIEW = "review"
    OVER = "over"

    # Members are singletons, so identity hashing is sound, and it is a C call; Enum's
    # own hashes the name in Python, and the engine looks phases up on every turn.
    __hash__ = object.__hash__
