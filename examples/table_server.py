"""A Spades table on websockets: four seats and any number of spectators, run through
the table service (``spadeskit.Table``), kept in a SQLite file so a restart loses
nothing.  Needs the ``server`` extra (``pip install 'spadeskit[server]'``, or
``pip install '.[server]'`` from a clone).

    python examples/table_server.py --port 8765 --db table.db [--variant standard] [--bots 1,2,3]

The protocol is :class:`spadeskit.Connection`'s (JSON): ``{"join": "Ann"}``,
``{"rejoin": TOKEN, "since": CURSOR}``, ``{"watch": true}`` and ``{"act": "4"}`` in; the
seat, ``{"events": [...], "view": {...}, "cursor": n}`` after every change, or
``{"error": {...}}`` out.

The table lives in the store (``--db``, signed with the key in ``--db`` + ``.key``,
made on first run): every action is in the file before anyone is told of it, and a
restarted server carries on where it stopped; players rejoin with their tokens.  A
:class:`spadeskit.apps.hub.Hub` carries the messages: bounded send queues (a client
that does not read is dropped), rate limits, bots moved in a worker thread.  When
the match is over, a new table takes its place.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
from pathlib import Path

import websockets
from websockets.asyncio.server import ServerConnection, serve

import spadeskit
from spadeskit.apps.hub import Hub

NAME = "main"
"""The table's name in the store."""


def server_key(db: str) -> str:
    """Return the key kept beside the store (``db`` + ``.key``), made on first use."""
    path = Path(db + ".key")
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(32))
    return path.read_text().strip()


def open_table(store: spadeskit.TableStore, new: dict[str, object]) -> spadeskit.Table:
    """Return the store's unfinished table, or a new one made from ``new`` and kept."""
    table = store.load().get(NAME)
    if table is not None and not table.game.is_over:
        return table
    if table is not None:
        store.remove(NAME)
    table = spadeskit.Table(key=store.key, bot_moves=0, **new)  # type: ignore[arg-type]
    store.add(table, NAME)
    return table


async def run(
    port: int,
    store: spadeskit.TableStore,
    new: dict[str, object],
    started: asyncio.Event | None = None,
    bot_pace: float = 0.0,
) -> None:
    """Serve the store's table on ``port`` (0: any free port) until cancelled; set
    ``started`` (with the port in ``started.port``) once listening."""
    hub = Hub(open_table(store, new), bot_pace=bot_pace)
    hub.start_bots()

    async def handle(websocket: ServerConnection) -> None:
        client = hub.connect(websocket.transport, websocket.close)
        try:
            async for message in websocket:
                await hub.receive(client, message)
        except websockets.ConnectionClosed:
            pass
        finally:
            hub.disconnect(client)

    async with serve(handle, "127.0.0.1", port, max_size=2**16) as listening:
        bound = listening.sockets[0].getsockname()[1]
        print(f"serving {hub.table.rules.name} on ws://127.0.0.1:{bound}", flush=True)
        if started is not None:
            started.port = bound  # type: ignore[attr-defined]
            started.set()
        try:
            await asyncio.get_running_loop().create_future()
        finally:
            await hub.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--db", default="table.db", help="the SQLite file the table is kept in")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--house-rule", action="append", default=[])
    parser.add_argument("--bots", default="", help="seats the bots take, e.g. 1,2,3")
    parser.add_argument("--bot-pace", type=float, default=0.3, help="seconds between bot moves")
    args = parser.parse_args(argv)
    rules = spadeskit.load_rules(args.variant, args.house_rule)
    bots = {int(s): "simple" for s in args.bots.split(",") if s.strip()}
    store = spadeskit.SQLiteStore(args.db, key=server_key(args.db))
    new = {"rules": rules, "bots": bots, "abandon_after": 600.0, "stand_in": "simple"}
    try:
        asyncio.run(run(args.port, store, new, bot_pace=args.bot_pace))
    except KeyboardInterrupt:
        sys.exit(0)
    finally:
        store.close()


if __name__ == "__main__":
    main()
