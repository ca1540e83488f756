"""A table's clients on an asyncio websocket server: fair, bounded, and never held up by
one client.

A :class:`Hub` carries the messages of one :class:`~spadeskit.apps.service.Table`'s clients for a
websocket server (the ``websockets`` library, aiohttp), whatever the library: the server
gives it each client's transport (the connection's :class:`asyncio.WriteTransport`,
after the websocket handshake), a coroutine that closes the connection and a test of
whether the library still has it open, and every message the client sends; the hub
answers through :class:`~spadeskit.Connection` and keeps the promises a public server
must keep:

* **Bounded sends.**  The hub writes each message as a websocket frame straight to the
  client's transport, without waiting: a client that does not read fills its buffers,
  and once more than :attr:`Hub.buffer` bytes wait to be sent to it, it is dropped:
  nothing more is written to it or read from it, and it is closed (politely for
  :attr:`Hub.close_timeout` seconds, then cut off).  Nobody else waits for it.  The
  system's own send buffer for the client's socket is set to
  :attr:`Hub.socket_buffer` bytes (left to grow, it takes up to several MiB per client
  before the hub sees anything waiting).
* **One update per audience.**  After a change, each seat's update and the spectators'
  update are built, turned into text and framed once (the view's text is the table's,
  built once per change: :meth:`~spadeskit.apps.service.Table.view_text`); spectators
  who were up to date share one frame (:func:`updates`).
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

Why the hub writes frames itself rather than through the library's ``send``: a
library's ``send`` frames each message for one connection and waits for that
connection's flow control, so a server that sent an update to each client in turn
would wait for the slowest (one spectator that never read stopped a whole table), and
one task and queue per client would still frame every update once per client and wake
a task per client per change.  The hub frames an update once (:func:`frame`) and hands
the same bytes to every transport that wants it, without waiting; the transport's
buffer is the client's queue, bounded by :attr:`Hub.buffer`.  This is safe beside the
library's own writes (pings, pongs, the closing handshake): each frame is written
whole in one ``transport.write`` on the event loop's thread, so no frame of either is
split; a frame is final, unmasked and uncompressed (RFC 6455 section 5.2: valid
whether or not the client asked for compression); and nothing is written once the
library has begun to close the connection (``is_open``).  What the hub does not do:
it never reads from the transport (the library does, and hands the hub each message).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from spadeskit.apps import service
from spadeskit.apps.connection import Connection
from spadeskit.core.errors import SpadesError

__all__ = ["Client", "Hub", "frame", "updates"]

Close = Callable[[], Awaitable[Any]]
IsOpen = Callable[[], bool]


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
    """Return each connection's :meth:`~spadeskit.Connection.update` as JSON text, for
    those with something new (:meth:`~spadeskit.Connection.update_text` ``if_new``),
    building it once per audience: spectators at the same cursor, who were sent the
    same view, share one text, so a change costs one spectator update however many
    watch."""
    shared: dict[tuple[int, str | None], tuple[str | None, int, str | None]] = {}
    texts = []
    for connection in connections:
        if (
            connection.attached
            and connection.seat is None
            and not connection.resuming
            and not connection.replaced
        ):
            key = (connection.cursor, connection.sent_view)
            if key not in shared:
                text = connection.update_text(if_new=True)
                shared[key] = (text, connection.cursor, connection.sent_view)
            text, connection.cursor, connection.sent_view = shared[key]
            if text is not None:
                texts.append((connection, text))
            continue
        update = connection.update_text(if_new=True)
        if update is not None:
            texts.append((connection, update))
    return texts


class Client:
    """One client of a :class:`Hub`: its :class:`~spadeskit.Connection`, its transport
    and its rate budget.  Once :attr:`closed`, nothing more is written to it or read
    from it."""

    def __init__(
        self, hub: Hub, transport: asyncio.WriteTransport, close: Close, is_open: IsOpen
    ) -> None:
        self.connection = Connection(hub.table)
        self.transport = transport
        self.closed = False
        self._hub = hub
        self._close = close
        self._is_open = is_open
        self._budget = float(hub.burst)
        self._checked = time.monotonic()

    def put(self, data: bytes) -> bool:
        """Write a framed message to the client; return False, and drop the client, if
        too much is still waiting to be sent to it (or it is closing)."""
        if self.closed:
            return False
        transport = self.transport
        if (
            transport.is_closing()
            or not self._is_open()
            or transport.get_write_buffer_size() > self._hub.buffer
        ):
            self.drop()
            return False
        transport.write(data)
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

    def drop(self) -> None:
        """Stop writing to the client and reading from it now (its seat counts as
        abandoned from now), and close it in a task of the hub."""
        if not self.closed:
            self.closed = True
            self.connection.close()
            self._hub._spawn(self._shut())

    async def shut(self) -> None:
        """Close the client (politely for :attr:`Hub.close_timeout` seconds, then the
        transport is cut)."""
        if not self.closed:
            self.closed = True
            self.connection.close()
            await self._shut()

    async def _shut(self) -> None:
        try:
            await asyncio.wait_for(self._close(), self._hub.close_timeout)
        except Exception:  # noqa: BLE001  (a peer that does not answer: cut it off)
            self.transport.abort()


class Hub:
    """The clients of one table (see the module).

    ``buffer`` bounds the bytes waiting to be sent to one client (a client past it is
    dropped; it may reach ``buffer`` plus one message); ``rate`` and ``burst`` bound the
    messages a client may send; ``bot_pace`` is the pause after each bot move;
    ``reap_every`` is how often abandoned seats are looked for; ``close_timeout`` is how
    long a dropped client's closing handshake may take before its transport is cut;
    ``socket_buffer`` is the size of each client socket's send buffer in the system
    (``SO_SNDBUF``; ``None`` leaves the system's, which grows with the connection).
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
        close_timeout: float = 2.0,
        socket_buffer: int | None = 1 << 16,
    ) -> None:
        self.table = table
        self.buffer = buffer
        self.rate = rate
        self.burst = burst
        self.bot_pace = bot_pace
        self.reap_every = reap_every
        self.close_timeout = close_timeout
        self.socket_buffer = socket_buffer
        self.clients: list[Client] = []
        self._pump: asyncio.Task[None] | None = None
        self._reaper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # kept: the loop holds tasks weakly

    def connect(
        self, transport: asyncio.WriteTransport, close: Close, is_open: IsOpen | None = None
    ) -> Client:
        """Add a client, given its transport, how to close it and how to tell whether
        the server's websocket library has it open still (``websocket.state is
        State.OPEN`` for ``websockets``, ``not ws.closed`` for aiohttp): nothing is
        written once the library has sent its closing frame."""
        client = Client(self, transport, close, is_open or (lambda: True))
        sock = transport.get_extra_info("socket")
        if sock is not None and self.socket_buffer is not None:
            with contextlib.suppress(OSError):  # a socket that takes no such option
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.socket_buffer)
        self.clients.append(client)
        if self._reaper is None:
            self._reaper = asyncio.get_running_loop().create_task(self._reap())
        self.start_bots()
        return client

    async def receive(self, client: Client, message: str | bytes) -> None:
        """Handle one message from ``client`` (nothing, once it is dropped): answer it,
        and after a change send every client its update and let the bots move."""
        if client.closed:
            return
        if not client.spend(self.rate, self.burst):
            slow = SpadesError(
                f"too many messages: at most {self.rate:g} a second", code="too-fast"
            )
            client.put(frame(json.dumps({"error": slow.to_json()})))
        else:
            replies, changed = client.connection.receive(message)
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
                client.drop()
        self.clients = [c for c in self.clients if not c.closed]

    def start_bots(self) -> None:
        """Let the bots move, if one is to act and they are not moving already."""
        if self.table.bot_due and (self._pump is None or self._pump.done()):
            self._pump = asyncio.get_running_loop().create_task(self._play_bots())

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
        clients, self.clients = self.clients, []
        await asyncio.gather(*(c.shut() for c in clients), *self._tasks, return_exceptions=True)
