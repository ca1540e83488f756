"""A Spades table on websockets: four seats and any number of spectators, run through
the table service (``spadeskit.Table``), kept in a store so a restart loses nothing.
Needs the ``server`` extra (``pip install 'spadeskit[server]'``, or
``pip install '.[server]'`` from a clone), and the ``postgres`` extra for PostgreSQL.

    python examples/table_server.py --port 8765 --db table.db [--variant standard] [--bots 1,2,3]
    python examples/table_server.py --postgres postgresql://spades@db/spades --key-file spades.key

The protocol is :class:`spadeskit.Connection`'s (JSON): ``{"join": "Ann"}``,
``{"rejoin": TOKEN, "since": CURSOR}``, ``{"watch": true}`` and ``{"act": "4"}`` in; the
seat, ``{"events": [...], "view": {...}, "cursor": n}`` after every change, or
``{"error": {...}}`` out.

The table lives in the store: a SQLite file (``--db``) or a PostgreSQL database
(``--postgres``, a libpq connection string; keep the password in ``~/.pgpass`` or
``PGPASSWORD``), under its name (``--table``, so servers sharing a database each keep
their own), signed with the key in ``--key-file`` (made on first run; by default the
SQLite file's name + ``.key``).  Every action is in the store before anyone is told of
it, and a restarted server carries on where it stopped; players rejoin with their
tokens.  A
:class:`spadeskit.apps.hub.Hub` carries the messages: bounded send queues (a client
that does not read is dropped), rate limits, bots moved in a worker thread.  When
the match is over, a new table takes its place.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import sys
from pathlib import Path

import websockets
from websockets.asyncio.server import ServerConnection, serve
from websockets.protocol import State

import spadeskit
from spadeskit.apps.hub import Hub

NAME = "main"
"""The table's name in the store, by default."""


def server_key(path: str) -> str:
    """Return the key kept in the file ``path`` (readable by its owner only), made on
    first use."""
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(32))
    return Path(path).read_text().strip()


def open_store(db: str, postgres: str | None, key_file: str | None) -> spadeskit.TableStore:
    """Return the store: the PostgreSQL database ``postgres`` if given (then
    ``key_file`` is needed: every server of the database signs with the same key), else
    the SQLite file ``db``."""
    if postgres:
        if not key_file:
            raise spadeskit.SpadesError(
                "--postgres needs --key-file: the same key on every server of the database"
            )
        return spadeskit.PostgresStore(postgres, key=server_key(key_file))
    return spadeskit.SQLiteStore(db, key=server_key(key_file or db + ".key"))


def open_table(
    store: spadeskit.TableStore, new: dict[str, object], name: str = NAME
) -> spadeskit.Table:
    """Return the store's unfinished table ``name``, or a new one made from ``new`` and
    kept."""
    table = store.load().get(name)
    if table is not None and not table.game.is_over:
        return table
    if table is not None:
        store.remove(name)
    table = spadeskit.Table(key=store.key, bot_moves=0, **new)  # type: ignore[arg-type]
    store.add(table, name)
    return table


async def run(
    port: int,
    store: spadeskit.TableStore,
    new: dict[str, object],
    started: asyncio.Event | None = None,
    bot_pace: float = 0.0,
    name: str = NAME,
    buffer: int = 1 << 20,
) -> None:
    """Serve the store's table ``name`` on ``port`` (0: any free port) until cancelled;
    set ``started`` (with the port in ``started.port``) once listening.  A client with
    more than ``buffer`` bytes waiting to be sent to it is dropped."""
    hub = Hub(open_table(store, new, name), bot_pace=bot_pace, buffer=buffer)
    hub.start_bots()

    async def handle(websocket: ServerConnection) -> None:
        client = hub.connect(
            websocket.transport, websocket.close, lambda: websocket.state is State.OPEN
        )
        try:
            async for message in websocket:
                await hub.receive(client, message)
        except websockets.ConnectionClosed:
            pass
        finally:
            hub.disconnect(client)

    # No compression: the hub writes one plain frame per update for every client.
    async with serve(handle, "127.0.0.1", port, max_size=2**16, compression=None) as listening:
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
    parser.add_argument(
        "--postgres",
        metavar="CONNINFO",
        help="keep the table in this PostgreSQL database instead (a libpq connection string)",
    )
    parser.add_argument(
        "--key-file", help="the file with the signing key, made on first use (default: DB.key)"
    )
    parser.add_argument("--table", default=NAME, help="the table's name in the store")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--house-rule", action="append", default=[])
    parser.add_argument("--bots", default="", help="seats the bots take, e.g. 1,2,3")
    parser.add_argument("--bot-pace", type=float, default=0.3, help="seconds between bot moves")
    args = parser.parse_args(argv)
    rules = spadeskit.load_rules(args.variant, args.house_rule)
    bots = {int(s): "simple" for s in args.bots.split(",") if s.strip()}
    try:
        store = open_store(args.db, args.postgres, args.key_file)
    except spadeskit.SpadesError as error:
        sys.exit(f"table_server: {error}")
    new = {"rules": rules, "bots": bots, "abandon_after": 600.0, "stand_in": "simple"}
    try:
        asyncio.run(run(args.port, store, new, bot_pace=args.bot_pace, name=args.table))
    except KeyboardInterrupt:
        sys.exit(0)
    finally:
        store.close()


if __name__ == "__main__":
    main()
