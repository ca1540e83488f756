"""The match around the hands: scores, bag counters and finished hands
(:class:`MatchState`), where the deals come from (:class:`Dealing`), and the shapes of a
hand's log and deals.  :mod:`spadeskit.core.state` builds the game state on them and
re-exports every name here.
"""

from __future__ import annotations

from typing import Any, Optional

import attrs

from spadeskit.core.actions import Action
from spadeskit.core.results import HandResult, MatchEnd
from spadeskit.core.seating import FrozenMap

__all__ = ["Breach", "Deal", "Dealing", "Dealt", "Log", "LogEntry", "MatchState", "MatchTotals"]


LogEntry = tuple["int | None", Action]
"""One logged action: ``(seat, action)``; the referee's seat is ``spadeskit.REFEREE``."""

Log = Optional[tuple[Any, LogEntry]]
"""The linked log: ``None``, or ``(earlier log, newest entry)``.  (The earlier log is
typed ``Any``: a recursive alias here sends mypyc's type expansion into endless
recursion when it compiles the core.)"""


@attrs.frozen
class Breach:
    """A play the rules would have refused, accepted under table enforcement.

    Breaches are secret: no view shows them; a plugin's penalty hook may act on a claim.
    """

    trick: int
    seat: int
    card: int
    rule: str


Deal = tuple[tuple[int, ...], ...]
"""A hand's deal as given: card indices per seat, then the blind's, then the pile's (top first)."""

Dealt = tuple[tuple[int, ...], int, tuple[int, ...]]
"""A hand's deal as dealt: the hand masks by seat, the blind mask, the pile (top first)."""


@attrs.frozen(weakref_slot=False)
class MatchState:
    """The running match: scores, bag counters, finished hands, and how it ended.

    ``deals`` holds the deal of every finished hand (see :data:`Dealt`), so that the
    record of a game dealt from a secret can show the hands already played.
    """

    scores: tuple[int, ...]
    bags: tuple[int, ...]
    results: tuple[HandResult, ...]
    logs: tuple[tuple[LogEntry, ...], ...]
    end: MatchEnd | None
    extra: FrozenMap
    deals: tuple[Dealt, ...] = ()

    @classmethod
    def fresh(cls, sides: int) -> MatchState:
        """Return a match before its first hand: ``sides`` zero scores and bag counts."""
        return cls((0,) * sides, (0,) * sides, (), (), None, _NO_EXTRA)


_NO_EXTRA = FrozenMap()


class MatchTotals:
    """Readings of a ``match`` (:class:`MatchState`) shared by games and score sheets."""

    __slots__ = ()
    match: MatchState

    @property
    def is_over(self) -> bool:
        """Return whether the match has ended."""
        return self.match.end is not None

    @property
    def end(self) -> MatchEnd | None:
        """Return how the match ended (winner and reason), or ``None``."""
        return self.match.end

    @property
    def winner(self) -> int | None:
        """Return the winning side's index (see ``rules.table.side_names``), or ``None``."""
        end = self.match.end
        return end.winner if end is not None else None

    @property
    def scores(self) -> tuple[int, ...]:
        """Return each side's score."""
        return self.match.scores

    @property
    def bags(self) -> tuple[int, ...]:
        """Return each side's bag counter."""
        return self.match.bags


@attrs.frozen(eq=False)
class Dealing:
    """Where a game's deals come from: never shown in a view or a record.

    A seeded game shuffles hand ``i`` from ``(seed, i)``, so anyone who knows the seed
    can predict every deal: reproducible by design.  An unseeded game has ``seed`` None
    and shuffles hand ``i`` from an HMAC of ``i`` under ``secret`` (32 bytes from the
    OS), which no record holds.  ``explicit`` gives the deals of the first hands
    outright: an explicit first deal, or the deals a record replays.
    """

    seed: int | None
    secret: bytes | None = attrs.field(repr=False)
    explicit: tuple[Deal, ...] = ()
