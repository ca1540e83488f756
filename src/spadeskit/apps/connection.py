"""The table's protocol, written once for every server: one client of a
:class:`~spadeskit.apps.service.Table`, whatever carries its messages (see :class:`Connection`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from spadeskit.apps import service
from spadeskit.apps.seating import SeatError
from spadeskit.core.errors import SpadesError

__all__ = ["MESSAGE_DEPTH", "MESSAGE_SIZE", "Connection"]

MESSAGE_SIZE = 4096
"""The longest message a :class:`Connection` reads, in characters (or bytes)."""

MESSAGE_DEPTH = 4
"""How deep a message may nest (``{"act": {"cards": [...]}}`` is 3 deep)."""


def _depth(value: object) -> int:
    """Return how deep ``value`` nests lists and objects, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _too_deep(text: str | bytes) -> bool:
    """Return whether JSON ``text`` opens more than :data:`MESSAGE_DEPTH` brackets at
    once (counted before parsing, so nothing deep is ever parsed)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth, in_string, escaped = 0, False, False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > MESSAGE_DEPTH:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


class Connection:
    """One client of a :class:`~spadeskit.apps.service.Table`, whatever carries its
    messages (a websocket, HTTP requests): the table's JSON protocol written once, so
    every server speaks it alike.

    Messages are JSON objects (text or already decoded), at most
    :data:`MESSAGE_SIZE` characters and :data:`MESSAGE_DEPTH` levels deep:

    * ``{"join": "Ann"}`` (optionally ``"seat": 2``) seats the client and answers
      ``{"seated": 2, "token": "...", "name": "Ann"}``; ``{"rejoin": TOKEN}`` takes a
      seat back after a reconnect (``{"seated": 2}``), and the updates go on from what
      the seat was last sent (``"since": CURSOR`` starts from a cursor of an earlier
      update instead); ``{"watch": true}`` makes the client a spectator
      (``{"watching": true}``).  Each is followed by an update.  A connection holds one
      seat (or watches) for good, and a seat has one live connection: a newer one for
      the same seat replaces it (:attr:`replaced`).
    * ``{"act": "4"}`` (text, as a person types it) or ``{"act": {"type": "bid",
      "tricks": 4}}`` (an action's JSON) acts for the client's seat; every client of the
      table then needs an update (:meth:`receive` says so).
    * An update is ``{"events": [...], "view": {...}, "cursor": n}``: the client's events
      since its last update, its view now (with a label beside each legal action) and
      the cursor to rejoin from.
    * A refused message is answered ``{"error": {"code", "seat", "action", "text"}}``
      and changes nothing.

    >>> import spadeskit
    >>> table = spadeskit.Table(spadeskit.load_rules("standard"), seed=1)
    >>> ann = Connection(table)
    >>> replies, changed = ann.receive('{"join": "Ann", "seat": 1}')
    >>> replies[0]["seated"], sorted(replies[1])
    (1, ['cursor', 'events', 'view'])
    >>> ann.receive({"act": "bid 99"})[0][0]["error"]["code"]
    'bid-not-allowed'
    >>> ann.receive({"act": "4"})
    ([], True)
    >>> [event["text"] for event in ann.update()["events"]]
    ['E bids 4']
    """

    def __init__(self, table: service.Table) -> None:
        self.table = table
        self.seat: int | None = None
        self.attached = False
        self.cursor = 0
        self._since: int | None = None
        self.sent_view: str | None = None
        """The view's JSON text in the last update built for this client."""
        self.replaced = False
        """Whether a newer connection took this one's seat: send its last
        :meth:`update` (which says so) and close it."""
        self.closed = False
        """Whether :meth:`close` was called: every message is then refused ``closed``."""

    def receive(
        self, message: str | bytes | Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], bool]:
        """Handle one message; return the replies for this client and whether the
        table changed (then send every client of the table its :meth:`update`).  Nothing
        a client sends makes it raise."""
        try:
            if self.closed:
                raise SeatError(
                    "this connection is closed: open a new one (and rejoin)", code="closed"
                )
            request = self._read(message)
            if "act" in request:
                if self.seat is None or self.replaced:
                    raise SeatError("join a seat before you act", code="not-seated")
                what = request["act"]
                action = what if isinstance(what, str) else self.table.rules.action_from_json(what)
                self.table.act(self.seat, action)
                return [], True
            if self.attached:
                raise SeatError(
                    "this connection already has its seat (or watches): open another to "
                    "take another",
                    code="already-seated",
                )
            since = request.get("since")
            if "rejoin" in request:
                seat = self.table.seat_of(request["rejoin"])
                if since is not None:
                    self.table.events(seat, since)  # a bad cursor is refused here
                reply: dict[str, Any] = {"seated": seat}
            elif "join" in request:
                taken = self.table.join(request["join"], request.get("seat"))
                seat, since = taken.seat, 0  # a new player is sent the seat's whole stream
                reply = {"seated": seat, "token": taken.token, "name": taken.name}
            elif request.get("watch") is True:
                seat = None
                if since is not None:
                    self.table.events(None, since)
                reply = {"watching": True}
            else:
                raise SpadesError("send join, rejoin, watch or act", code="bad-message")
        except SpadesError as error:
            return [{"error": error.to_json()}], False
        except (ValueError, RecursionError):  # json.JSONDecodeError, or deeper than Python
            unreadable = SpadesError("messages are JSON objects", code="bad-message")
            return [{"error": unreadable.to_json()}], False
        self.seat, self.attached = seat, True
        self._since = since
        replaced = False
        if seat is not None:
            old = self.table.attach(seat, self)
            if isinstance(old, Connection):
                old.replaced = replaced = True
        return [reply, self.update()], replaced

    @staticmethod
    def _read(message: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
        if isinstance(message, (str, bytes)):
            if len(message) > MESSAGE_SIZE:
                raise SpadesError(
                    f"a message is at most {MESSAGE_SIZE} characters", code="bad-message"
                )
            if _too_deep(message):
                raise SpadesError(
                    f"a message nests at most {MESSAGE_DEPTH} levels", code="bad-message"
                )
            request = json.loads(message)
        else:
            request = message
        if not isinstance(request, Mapping):
            raise SpadesError("send a JSON object", code="bad-message")
        if _depth(request) > MESSAGE_DEPTH:
            raise SpadesError(f"a message nests at most {MESSAGE_DEPTH} levels", code="bad-message")
        return request

    @property
    def resuming(self) -> bool:
        """Return whether the next :meth:`update` starts from a cursor the client gave
        (after a rejoin with ``since``) rather than from its last update."""
        return self._since is not None

    def update(self) -> dict[str, Any]:
        """Return this client's events since its last update, its view now and its
        cursor; ``{}`` before it has joined or started watching.  A connection whose seat
        a newer one took gets ``{"error": {"code": "replaced", ...}}`` instead."""
        text = self.update_text()
        return {} if text is None else dict(json.loads(text))

    def update_text(self, *, if_new: bool = False) -> str | None:
        """Return :meth:`update` as JSON text, what a server sends (``None`` where
        :meth:`update` is ``{}``): the view's text is the table's, built once per change
        for the seat (or for every spectator; see
        :meth:`~spadeskit.apps.service.Table.view_text`).  With ``if_new``, also
        ``None`` when the update would bring nothing new (no event, the same view), as
        for a client that joined or started watching after the change it is told of."""
        if self.replaced:
            gone = SeatError(
                "this seat was taken by a newer connection with its token", code="replaced"
            )
            return json.dumps({"error": gone.to_json()})
        if not self.attached:
            return None
        with self.table._lock:  # the events and the view of one moment
            if self.seat is None:
                since = self.cursor if self._since is None else self._since
                events, self.cursor = self.table.events(None, since)
            else:
                events = self.table.news(self.seat, since=self._since)
                self.cursor = self.table.cursor(self.seat)
            resumed, self._since = self._since is not None, None
            view = self.table.view_text(self.seat)
        if if_new and not events and not resumed and view == self.sent_view:
            return None
        self.sent_view = view
        return f'{{"events": {json.dumps(events)}, "view": {view}, "cursor": {self.cursor}}}'

    def close(self) -> None:
        """Say that the client is gone: its seat counts as abandoned from now (see
        :meth:`spadeskit.apps.service.Table.reap`), unless a newer connection holds it,
        and nothing it sends is taken from now on (``closed``): another connection may
        hold the seat next."""
        self.closed = True
        if self.seat is not None:
            self.table.detach(self.seat, self)
