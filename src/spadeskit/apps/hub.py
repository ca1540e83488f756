"""A table's clients on an asyncio websocket server: fair, bounded, and never held up by
one client.

A :class:`Hub` carries the messages of one :class:`~spadeskit.apps.service.Table`'s clients for a
websocket server (the ``websockets`` library, aiohttp), whatever the library: the server
gives it each client's transport (the connection's :class:`asyncio.WriteTransport`,
after the websocket handshake) and a coroutine that closes the connection, and every
message the client sends; the hub answers through :class:`~spadeskit.Connection` and
keeps the promises a public server must keep:

* **Bounded sends.**  The hub writes each message as a websocket frame straight to the
  client's transport, without waiting: a client that does not read fills its buffers,
  and once more than :attr:`Hub.buffer` bytes wait to be sent to it, it is dropped
  (closed).  Nobody else waits for it.
* **One update per audience.**  After a change, each seat's update and the spectators'
  update are built, turned into text and framed once; spectators who were up to date
  share one frame (:func:`updates`).
* **Fairness.**  Each client may send :attr:`Hub.rate` messages a second (bursts of
  :attr:`Hub.burst`); faster ones are answered ``too-fast`` and dropped unread.  The hub
  yields to the event loop after every message, so a flood from one client does not
  stall the others.
* **Bots off the event loop.**  Bots move one at a time in a worker thread
  (:meth:`spadeskit.apps.service.Table.play_bots`), ``bot_pace`` seconds apart, each move sent as
  an update; a bots-only table advances so, at the server's pace.
* **Abandoned seats.**  Every :attr:`Hub.reap_every` seconds the table frees (or gives
  to its stand-in bot) the seats whose players have been gone too long
  (:meth:`spadeskit.apps.service.Table.reap`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from spadeskit.apps import service
from spadeskit.apps.connection import Connection
from spadeskit.core.errors import SpadesError

__all__ = ["Client", "Hub", "frame", "updates"]

Close = Callable[[], Awaitable[Any]]


def frame(text: str) -> bytes:
    """Return ``text`` as one websocket text frame from a server (RFC 6455: final, not
    masked, not compressed)."""
    payload = text.encode("utf-8")
    size = len(payload)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 1 << 16:
        head = bytes((0x81, 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + size.to_bytes(8, "big")
    return head + payload


def updates(connections: Iterable[Connection]) -> list[tuple[Connection, str]]:
    """Return each connection's :meth:`~spadeskit.Connection.update` as JSON text (those
    with one), building it once per audience: spectators at the same cursor share one
    text, so a change costs one spectator update however many watch."""
    shared: dict[int, tuple[str, int]] = {}
    texts = []
    for connection in connections:
        if (
            connection.attached
            and connection.seat is None
            and not connection.resuming
            and not connection.replaced
        ):
            cursor = connection.cursor
            if cursor not in shared:
                text = json.dumps(connection.update())
                shared[cursor] = (text, connection.cursor)
            text, connection.cursor = shared[cursor]
            texts.append((connection, text))
            continue
        update = connection.update()
        if update:
            texts.append((connection, json.dumps(update)))
    return texts


class Client:
    """One client of a :class:`Hub`: its :class:`~spadeskit.Connection`, its transport
    and its rate budget."""

    def __init__(self, hub: Hub, transport: asyncio.WriteTransport, close: Close) -> None:
        self.connection = Connection(hub.table)
        self.transport = transport
        self.closed = False
        self._close = close
        self._buffer = hub.buffer
        self._budget = float(hub.burst)
        self._checked = time.monotonic()

    def put(self, data: bytes) -> bool:
        """Write a framed message to the client; return False, and close the client, if
        too much is still waiting to be sent to it (or it is gone)."""
        if self.closed:
            return False
        if self.transport.is_closing() or self.transport.get_write_buffer_size() > self._buffer:
            asyncio.get_running_loop().create_task(self.shut())
            return False
        self.transport.write(data)
        return True

    def spend(self, rate: float, burst: int) -> bool:
        """Take one message from the client's budget; False if it has none left."""
        now = time.monotonic()
        self._budget = min(float(burst), self._budget + (now - self._checked) * rate)
        self._checked = now
        if self._budget < 1:
            return False
        self._budget -= 1
        return True

    async def shut(self) -> None:
        """Close the client (at most 2 seconds spent on a polite close, then the
        transport is cut)."""
        if self.closed:
            return
        self.closed = True
        self.connection.close()
        try:
            await asyncio.wait_for(self._close(), 2)
        except Exception:  # noqa: BLE001  (a peer that does not answer: cut it off)
            self.transport.abort()


class Hub:
    """The clients of one table (see the module).

    ``buffer`` bounds the bytes waiting to be sent to one client; ``rate`` and ``burst``
    bound the messages a client may send; ``bot_pace`` is the pause after each bot move;
    ``reap_every`` is how often abandoned seats are looked for.
    """

    def __init__(
        self,
        table: service.Table,
        *,
        buffer: int = 1 << 20,
        rate: float = 20.0,
        burst: int = 40,
        bot_pace: float = 0.0,
        reap_every: float = 5.0,
    ) -> None:
        self.table = table
        self.buffer = buffer
        self.rate = rate
        self.burst = burst
        self.bot_pace = bot_pace
        self.reap_every = reap_every
        self.clients: list[Client] = []
        self._pump: asyncio.Task[None] | None = None
        self._reaper: asyncio.Task[None] | None = None

    def connect(self, transport: asyncio.WriteTransport, close: Close) -> Client:
        """Add a client, given its transport and how to close it."""
        client = Client(self, transport, close)
        self.clients.append(client)
        if self._reaper is None:
            self._reaper = asyncio.get_running_loop().create_task(self._reap())
        self.start_bots()
        return client

    async def receive(self, client: Client, message: str | bytes) -> None:
        """Handle one message from ``client``: answer it, and after a change send every
        client its update and let the bots move."""
        if not client.spend(self.rate, self.burst):
            slow = SpadesError(
                f"too many messages: at most {self.rate:g} a second", code="too-fast"
            )
            client.put(frame(json.dumps({"error": slow.to_json()})))
        else:
            try:
                replies, changed = client.connection.receive(message)
            except SpadesError as error:  # a store that could not write: nothing changed
                replies, changed = [{"error": error.to_json()}], False
            for reply in replies:
                client.put(frame(json.dumps(reply)))
            if changed:
                self.broadcast()
                self.start_bots()
        await asyncio.sleep(0)  # one message, then let the others in

    def disconnect(self, client: Client) -> None:
        """Forget a client whose connection is closed."""
        if client in self.clients:
            self.clients.remove(client)
        client.closed = True
        client.connection.close()

    def broadcast(self) -> None:
        """Send every client its update; drop those that cannot keep up, and close
        those whose seat a newer connection took."""
        live = [c for c in self.clients if not c.closed]
        by_connection = {id(c.connection): c for c in live}
        frames: dict[int, bytes] = {}
        for connection, text in updates(c.connection for c in live):
            client = by_connection[id(connection)]
            data = frames.get(id(text))
            if data is None:
                data = frames[id(text)] = frame(text)
            if client.put(data) and connection.replaced:
                asyncio.get_running_loop().create_task(client.shut())
        self.clients = [c for c in self.clients if not c.closed and not c.connection.replaced]

    def start_bots(self) -> None:
        """Let the bots move, if one is to act and they are not moving already."""
        if self.table.bot_due and (self._pump is None or self._pump.done()):
            self._pump = asyncio.get_running_loop().create_task(self._play_bots())

    async def _play_bots(self) -> None:
        while self.table.bot_due:
            try:
                moved = await asyncio.to_thread(self.table.play_bots, 1)
            except SpadesError:  # a store that could not write: try again later
                moved = 0
            if moved:
                self.broadcast()
            await asyncio.sleep(self.bot_pace if moved else max(self.bot_pace, 1.0))

    async def _reap(self) -> None:
        while True:
            await asyncio.sleep(self.reap_every)
            with contextlib.suppress(SpadesError):
                if self.table.reap():
                    self.broadcast()
                    self.start_bots()

    async def close(self) -> None:
        """Stop the hub's tasks and close every client."""
        for task in (self._pump, self._reaper):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(c.shut() for c in self.clients), return_exceptions=True)
        self.clients = []
