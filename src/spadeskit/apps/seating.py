"""Who sits at a table: each seat's player (a name and the digest of a secret token),
the seat's one live connection, and since when a seat has had none (see
:class:`~spadeskit.apps.service.Table`)."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Collection, Sequence

import attrs

from spadeskit.core.errors import SpadesError, shown

__all__ = ["NAME_LENGTH", "Seat", "SeatError", "Seats", "seconds", "token_digest"]

NAME_LENGTH = 40
"""The longest player name a table takes, in characters."""


class SeatError(SpadesError):
    """A seat that is taken or does not exist, or a token that is no seat's."""

    code = "bad-seat"


@attrs.frozen
class Seat:
    """A seat at a :class:`~spadeskit.apps.service.Table`: its number, the player's
    name and the secret token that proves a connection is that player (only
    :meth:`~spadeskit.apps.service.Table.join` gives it: send it to that player only;
    the table keeps its digest, never the token)."""

    seat: int
    name: str
    token: str = attrs.field(default="", repr=False)


def token_digest(token: str) -> str:
    """Return the SHA-256 of a seat's token, as a table and its store keep it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seconds(now: object) -> float:
    """Return ``now`` as a time in seconds, or raise SpadesError."""
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not -1e18 < now < 1e18:
        raise SpadesError(f"a time is a number of seconds, not {shown(now, 20)}")
    return float(now)


class Seats:
    """The seats of one table (``names``, one per seat).  Not thread-safe on its own:
    the :class:`~spadeskit.apps.service.Table` that owns it holds its lock around every call."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.taken: dict[int, tuple[str, str]] = {}
        """Each taken seat's player: the name and the token's digest."""
        self._holders: dict[int, object] = {}
        self._gone_since: dict[int, float] = {}

    def check(self, seat: object) -> int:
        """Return ``seat`` if the table has it; raise :class:`SeatError` if not."""
        n = len(self.names)
        if type(seat) is not int or not 0 <= seat < n:
            raise SeatError(f"seat {shown(seat, 20)} does not exist: seats are 0 to {n - 1}")
        return seat

    def public(self) -> tuple[Seat | None, ...]:
        """Return a :class:`Seat` (without its token) per seat, ``None`` where free."""
        return tuple(
            Seat(s, self.taken[s][0]) if s in self.taken else None for s in range(len(self.names))
        )

    def sit(self, name: object, seat: object, busy: Collection[int]) -> Seat:
        """Seat a player named ``name`` at ``seat`` (``None``: the first seat neither
        taken nor ``busy``) with a new token, and return the :class:`Seat`."""
        if not isinstance(name, str):
            raise SeatError(f"a player's name is text, not {shown(name, 20)}", code="bad-name")
        if len(name) > NAME_LENGTH or not name.isprintable():
            raise SeatError(
                f"a player's name is at most {NAME_LENGTH} printable characters", code="bad-name"
            )
        if seat is None:
            free = [s for s in range(len(self.names)) if s not in self.taken and s not in busy]
            if not free:
                raise SeatError("the table is full: no seat is free")
            seat = free[0]
        seat = self.check(seat)
        if seat in self.taken or seat in busy:
            raise SeatError(f"seat {seat} ({self.names[seat]}) is taken", seat=seat)
        taken = Seat(seat, name or self.names[seat], secrets.token_urlsafe(24))
        self.taken[seat] = (taken.name, token_digest(taken.token))
        return taken

    def free(self, seat: int) -> tuple[str, str] | None:
        """Free ``seat`` and return who sat there (``None`` if nobody did)."""
        self._holders.pop(seat, None)
        self._gone_since.pop(seat, None)
        return self.taken.pop(seat, None)

    def find(self, token: object) -> int:
        """Return the seat whose token is ``token``; raise :class:`SeatError` if none."""
        if isinstance(token, str) and len(token) <= 100:
            digest = token_digest(token)
            for seat, (_, kept) in self.taken.items():
                if secrets.compare_digest(kept, digest):
                    return seat
        raise SeatError("that token is no seat's at this table: join again", code="bad-token")

    def attach(self, seat: int, holder: object) -> object | None:
        """Make ``holder`` ``seat``'s live connection; return the one it replaces."""
        old = self._holders.get(self.check(seat))
        self._holders[seat] = holder
        self._gone_since.pop(seat, None)
        return old if old is not holder else None

    def detach(self, seat: int, holder: object, now: float | None) -> None:
        """Note that ``holder`` is gone, if it is still ``seat``'s live connection."""
        if self._holders.get(seat) is holder:
            del self._holders[seat]
            self._gone_since[seat] = time.monotonic() if now is None else seconds(now)

    def orphan(self, now: float | None) -> None:
        """Count every taken seat with no live connection as gone from ``now``."""
        start = time.monotonic() if now is None else seconds(now)
        for seat in self.taken:
            if seat not in self._holders:
                self._gone_since.setdefault(seat, start)

    def abandoned(self, now: float | None, after: float) -> list[int]:
        """Free and return the taken seats gone for ``after`` seconds or more."""
        clock = time.monotonic() if now is None else seconds(now)
        gone = [
            s
            for s, since in sorted(self._gone_since.items())
            if clock - since >= after and s in self.taken
        ]
        for seat in gone:
            self.free(seat)
        return gone
