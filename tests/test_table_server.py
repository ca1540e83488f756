"""The example table server (examples/table_server.py) driven through real websockets on
localhost: four seats and a spectator play a whole hand; no client ever receives
another seat's hidden cards; the server killed mid-hand comes back with everything, on
SQLite and on PostgreSQL; the hub's frames are what a websocket library reads, and a
client that never reads is dropped (the ``server`` extra; CI installs it and runs this
file, with a PostgreSQL server)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

import spadeskit  # noqa: E402
from spadeskit.apps.hub import frame  # noqa: E402
from tests.conftest import fresh_postgres  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "table_server.py"
KEY = "a server key of sixteen bytes or more"


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("table_server", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def receive(client: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(client.recv(), timeout=10))
    return message


async def whole_hand(port: int) -> dict[int | None, list[dict[str, Any]]]:
    url = f"ws://127.0.0.1:{port}"
    seen: dict[int | None, list[dict[str, Any]]] = {s: [] for s in (0, 1, 2, 3, None)}
    clients: dict[int | None, ClientConnection] = {}
    for seat in (0, 1, 2, 3):
        client = await connect(url)
        await client.send(json.dumps({"join": f"player {seat}", "seat": seat}))
        assert (await receive(client))["seated"] == seat
        seen[seat].append(await receive(client))
        clients[seat] = client
    spectator = await connect(url)
    await spectator.send(json.dumps({"watch": True}))
    assert (await receive(spectator)) == {"watching": True}
    seen[None].append(await receive(spectator))
    clients[None] = spectator

    rng = random.Random(1)
    refused = False
    while True:
        view = seen[0][-1]["view"]
        if view["hand_number"] == 1 or view["is_over"]:
            break
        seat = view["to_act"]
        mine = seen[seat][-1]["view"]
        if not refused and mine["phase"] == "play":
            # A card this seat does not hold: refused with a structured error.
            other = next(c for c in seen[0][-1]["view"]["cards"] if c not in mine["cards"])
            await clients[seat].send(json.dumps({"act": other}))
            error = (await receive(clients[seat]))["error"]
            assert error["code"] == "not-in-hand" and error["seat"] == seat
            refused = True
            continue
        choice = rng.randrange(len(mine["legal_actions"]))
        await clients[seat].send(
            json.dumps(
                {"act": rng.choice([mine["legal_actions"][choice], mine["legal_labels"][choice]])}
            )
        )
        for who, client in clients.items():
            seen[who].append(await receive(client))
    for client in clients.values():
        await client.close()
    assert refused
    return seen


def test_four_seats_and_a_spectator_play_a_whole_hand_over_websockets(tmp_path: Path) -> None:
    example = load_example()
    db = str(tmp_path / "table.db")
    store = spadeskit.SQLiteStore(db, key=KEY)
    rules = spadeskit.load_rules("standard", ["blind-nil"], {"floor": -2000})

    async def main() -> dict[int | None, list[dict[str, Any]]]:
        started = asyncio.Event()
        server = asyncio.create_task(example.run(0, store, {"rules": rules}, started))
        await started.wait()
        try:
            return await whole_hand(started.port)  # type: ignore[attr-defined]
        finally:
            server.cancel()

    seen = asyncio.run(main())
    store.close()
    table = spadeskit.SQLiteStore(db, key=KEY).load()["main"]  # what the server kept
    deals = table.record()["deals"]
    events = {who: [e for m in msgs for e in m["events"]] for who, msgs in seen.items()}
    for seat in (0, 1, 2, 3):
        # A seat may know the cards it was dealt (this hand and the next) and the cards
        # passed to it (blind nil); nothing else.
        allowed = {c for deal in deals for c in deal[seat]}
        allowed |= {
            c
            for e in events[seat]
            if e["type"] == "cards-passed" and e["to"] == seat
            for c in e["cards"]
        }
        shown = {c for m in seen[seat] for c in m["view"]["cards"]}
        shown |= {c for e in events[seat] if e["type"] == "hand-started" for c in e["cards"]}
        assert shown <= allowed, f"seat {seat} saw cards it was not dealt"
        for event in events[seat]:
            if event["type"] == "cards-passed" and seat not in (event["seat"], event["to"]):
                assert event["cards"] is None
        kinds = [e["type"] for e in events[seat]]
        # The hand's end comes before the next hand's first event.
        assert kinds.count("hand-started") == 2
        assert kinds.index("hand-ended") < len(kinds) - 1 - kinds[::-1].index("hand-started")
        ended = next(e for e in events[seat] if e["type"] == "hand-ended")
        assert len(ended["last_trick"]["plays"]) == 4 and len(ended["lines"]) >= 2
    assert all(not m["view"]["cards"] for m in seen[None])
    assert all(not e.get("cards") for e in events[None] if e["type"] == "hand-started")
    # Every stream the clients were sent is the table's own, in order, once.
    for who in (0, 1, 2, 3, None):
        assert events[who] == table.events(who)[0][: len(events[who])]


class Player:
    """A client of the example server in another process: reads every message it is
    sent into ``messages``."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.messages: list[dict[str, Any]] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.socket:
                self.messages.append(json.loads(text))

    @property
    def updates(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if "view" in m]

    @property
    def events(self) -> list[dict[str, Any]]:
        return [e for m in self.updates for e in m["events"]]

    async def first(self, key: str) -> dict[str, Any]:
        for _ in range(500):
            found = [m for m in self.messages if key in m]
            if found:
                return found[0]
            await asyncio.sleep(0.01)
        raise AssertionError(f"no {key} message")


def start_server(store: list[str]) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--port", "0", *store, "--bots", "3", "--bot-pace", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "serving" in line, line
    return process, int(line.rsplit(":", 1)[1])


async def play_until(players: dict[int, Player], done: Any, rng: random.Random) -> int:
    """Act for the seated players, each from its own latest view, until ``done()``;
    return how many of those actions were acknowledged (an update came back)."""
    acted: dict[int, int] = {}
    acknowledged = 0
    for _ in range(3000):
        if done():
            return acknowledged
        for seat, player in players.items():
            if not player.updates:
                continue
            latest = player.updates[-1]
            view = latest["view"]
            if view["to_act"] == seat and view["legal_actions"]:
                if acted.get(seat) != latest["cursor"]:
                    acted[seat] = latest["cursor"]
                    acknowledged += 1
                    await player.socket.send(json.dumps({"act": rng.choice(view["legal_actions"])}))
        await asyncio.sleep(0.01)
    raise AssertionError("the table stopped")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_server_killed_mid_hand_restarts_with_every_table_seat_and_stream(
    tmp_path: Path, kind: str
) -> None:
    """kill -9 of the server process mid-hand, then a restart on the same store (a
    SQLite file, or a PostgreSQL database): every seat comes back with its token, every
    stream is as it was (every event a client was sent is still there, in place), and
    the hand plays on."""
    db = str(tmp_path / "table.db")
    if kind == "postgres":
        dsn, key_file = fresh_postgres(), str(tmp_path / "table.key")
        store = ["--postgres", dsn, "--key-file", key_file]
    else:
        store, key_file = ["--db", db], db + ".key"  # the key beside the file, by default
    rng = random.Random(7)

    async def before_the_kill(
        port: int,
    ) -> tuple[dict[int | None, list[dict[str, Any]]], dict[int, str]]:
        url = f"ws://127.0.0.1:{port}"
        players: dict[int, Player] = {}
        tokens = {}
        for seat in (0, 1, 2):
            players[seat] = Player(await connect(url))
            await players[seat].socket.send(json.dumps({"join": f"p{seat}", "seat": seat}))
            tokens[seat] = (await players[seat].first("token"))["token"]
        spectator = Player(await connect(url))
        await spectator.socket.send(json.dumps({"watch": True}))

        def mid_hand() -> bool:
            return len(players[0].events) > 25 and players[0].updates[-1]["view"]["phase"] == "play"

        await play_until(players, mid_hand, rng)
        await asyncio.sleep(0.2)  # what is in flight arrives
        got: dict[int | None, list[dict[str, Any]]] = {s: p.events for s, p in players.items()}
        got[None] = spectator.events
        return got, tokens

    async def after_the_restart(
        port: int, tokens: dict[int, str]
    ) -> dict[int | None, list[dict[str, Any]]]:
        url = f"ws://127.0.0.1:{port}"
        players = {}
        for seat, token in tokens.items():
            players[seat] = Player(await connect(url))
            await players[seat].socket.send(json.dumps({"rejoin": token, "since": 0}))
            assert (await players[seat].first("seated"))["seated"] == seat
        spectator = Player(await connect(url))
        await spectator.socket.send(json.dumps({"watch": True, "since": 0}))
        await play_until(players, lambda: players[0].updates[-1]["view"]["hand_number"] == 1, rng)
        for player in (*players.values(), spectator):
            await player.socket.close()
        got: dict[int | None, list[dict[str, Any]]] = {s: p.events for s, p in players.items()}
        got[None] = spectator.events
        return got

    process, port = start_server(store)
    try:
        before, tokens = asyncio.run(before_the_kill(port))
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    process, port = start_server(store)
    try:
        after = asyncio.run(after_the_restart(port, tokens))
    finally:
        process.terminate()
        process.wait(10)
    for who, events in before.items():
        assert events and after[who][: len(events)] == events, who
        assert any(e["type"] == "hand-ended" for e in after[who][len(events) :])
    key = Path(key_file).read_text().strip()
    kept = spadeskit.PostgresStore(dsn, key=key) if kind == "postgres" else None
    kept = kept or spadeskit.SQLiteStore(db, key=key)
    table = kept.load()["main"]
    kept.close()
    assert table.game.number == 1 and table.bots == {3: "simple"}
    for who in before:
        assert table.events(who)[0][: len(after[who])] == after[who]


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536, 200_000])
def test_the_hubs_frames_are_what_a_websocket_library_reads(size: int) -> None:
    """RFC 6455's three length forms, parsed by the websockets library's own reader: a
    final, unmasked, uncompressed text frame holding exactly the text."""
    from websockets.frames import Frame, Opcode
    from websockets.streams import StreamReader

    text = "x" * size if size != 200_000 else "é♠" * (size // 5)
    reader = StreamReader()
    reader.feed_data(frame(text))
    reader.feed_eof()
    with pytest.raises(StopIteration) as parsed:
        next(Frame.parse(reader.read_exact, mask=False))
    got = parsed.value.value
    assert got.opcode is Opcode.TEXT and got.fin and not (got.rsv1 or got.rsv2 or got.rsv3)
    assert got.data.decode("utf-8") == text and not reader.buffer


def never_reading_spectator(port: int) -> socket.socket:
    """Open a websocket by hand with a tiny receive buffer, ask to watch, and read no
    more (until the test looks)."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    raw.sendall(
        (
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    payload, mask = b'{"watch": true}', b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    raw.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
    return raw


@pytest.mark.slow
def test_a_spectator_that_never_reads_is_closed_and_the_table_plays_on(tmp_path: Path) -> None:
    """A real socket that stops reading: the server drops it once what waits for it is
    past the limit, and closes it (politely, or cut off when the closing handshake
    gets no answer), while a spectator who reads gets every update of a bots-only
    table."""
    example = load_example()
    store = spadeskit.SQLiteStore(str(tmp_path / "table.db"), key=KEY)
    rules = spadeskit.load_rules("standard", [], {"floor": -2000})
    new = {"rules": rules, "bots": dict.fromkeys(range(4), "random")}

    async def main() -> tuple[int, bool, int]:
        started = asyncio.Event()
        server = asyncio.create_task(example.run(0, store, new, started, buffer=20_000))
        await started.wait()
        port = started.port  # type: ignore[attr-defined]
        stuck = never_reading_spectator(port)
        watcher = Player(await connect(f"ws://127.0.0.1:{port}"))
        await watcher.socket.send(json.dumps({"watch": True}))
        for _ in range(1000):
            if len(watcher.updates) >= 150:
                break
            await asyncio.sleep(0.01)
        cursors = [u["cursor"] for u in watcher.updates]
        assert len(cursors) >= 150 and cursors == sorted(set(cursors))
        stuck.setblocking(False)
        got, ended = 0, False
        for _ in range(500):  # read what was sent to it until the server closes it
            try:
                chunk = stuck.recv(1 << 16)
            except BlockingIOError:
                await asyncio.sleep(0.01)
                continue
            except ConnectionResetError:
                chunk = b""
            got += len(chunk)
            if not chunk:
                ended = True
                break
        stuck.close()
        await watcher.socket.close()
        server.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await server
        return got, ended, sum(len(json.dumps(u)) for u in watcher.updates)

    got, ended, read_by_the_watcher = asyncio.run(main())
    store.close()
    assert ended and got < read_by_the_watcher / 2
