"""A Spades table on websockets: four seats and any number of spectators, run through
the table service (``spadeskit.Table``).  Needs the ``server`` extra
(``pip install 'spadeskit[server]'``, or ``pip install '.[server]'`` from a clone).

    python examples/table_server.py --port 8765 [--variant standard] [--bots 1,2,3]

The protocol is :class:`spadeskit.Connection`'s (JSON, one message each way at a
time): ``{"join": "Ann"}``, ``{"rejoin": TOKEN}``, ``{"watch": true}`` and ``{"act":
"4"}`` in; the seat, ``{"events": [...], "view": {...}}`` after every change, or
``{"error": {...}}`` out.

Everything runs on the event loop, which is the only caller of the table, so no lock is
needed beyond the table's own.  A record of the game is written at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json

import websockets
from websockets.asyncio.server import ServerConnection, serve

import spadeskit
from spadeskit.bots import SimpleBot


class TableServer:
    """One table and the connections watching it; :class:`spadeskit.Connection` speaks
    the protocol, this class only carries its messages."""

    def __init__(self, table: spadeskit.Table) -> None:
        self.table = table
        self.clients: dict[ServerConnection, spadeskit.Connection] = {}

    async def handle(self, websocket: ServerConnection) -> None:
        client = self.clients[websocket] = spadeskit.Connection(self.table)
        try:
            async for message in websocket:
                replies, changed = client.receive(message)
                for reply in replies:
                    await websocket.send(json.dumps(reply))
                if changed:
                    await self.broadcast()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.clients.pop(websocket, None)

    async def broadcast(self) -> None:
        for websocket, client in list(self.clients.items()):
            update = client.update()
            if not update:
                continue
            try:
                await websocket.send(json.dumps(update))
            except websockets.ConnectionClosed:
                self.clients.pop(websocket, None)


async def run(port: int, table: spadeskit.Table, started: asyncio.Event | None = None) -> None:
    """Serve ``table`` on ``port`` (0: any free port) until cancelled; set ``started``
    (with the port in ``started.port``) once listening."""
    server = TableServer(table)
    async with serve(server.handle, "127.0.0.1", port) as listening:
        if started is not None:
            started.port = listening.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
            started.set()
        await asyncio.get_running_loop().create_future()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--house-rule", action="append", default=[])
    parser.add_argument("--bots", default="", help="seats the bots take, e.g. 1,2,3")
    args = parser.parse_args()
    rules = spadeskit.load_rules(args.variant, args.house_rule)
    bots = {int(s): SimpleBot() for s in args.bots.split(",") if s.strip()}
    table = spadeskit.Table(rules, bots=bots)
    print(f"serving {rules.name} on ws://127.0.0.1:{args.port}")
    asyncio.run(run(args.port, table))


if __name__ == "__main__":
    main()
