"""A Spades table on websockets: four seats and any number of spectators, run through
the table service (``spadeskit.Table``).  Needs the ``server`` extra
(``pip install 'spadeskit[server]'``, or ``pip install '.[server]'`` from a clone).

    python examples/table_server.py --port 8765 [--variant standard] [--bots 1,2,3]

The protocol is JSON, one message each way at a time:

* a client sends ``{"join": "Ann"}`` (optionally with ``"seat": 2``) and gets
  ``{"seated": 2, "token": "...", "name": "Ann"}``; ``{"rejoin": TOKEN}`` takes the seat
  back after a reconnect; ``{"watch": true}`` makes it a spectator;
* a seated client sends ``{"act": "4"}`` (text, as a person types it) or ``{"act":
  {"type": "bid", "tricks": 4}}`` (an action's JSON);
* after every change the server sends each client ``{"events": [...], "view": {...}}``:
  the events of that client's stream since the last message (the table's cursor) and
  its view (with a label beside each legal action);
* a refused input gets ``{"error": {"code": ..., "seat": ..., "action": ..., "text":
  ...}}`` and changes nothing.

Everything runs on the event loop, which is the only caller of the table, so no lock is
needed beyond the table's own.  A record of the game is written at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

import websockets
from websockets.asyncio.server import ServerConnection, serve

import spadeskit
from spadeskit.bots import SimpleBot


class TableServer:
    """One table and the connections watching it."""

    def __init__(self, table: spadeskit.Table) -> None:
        self.table = table
        self.clients: dict[ServerConnection, int | None] = {}  # connection -> seat
        self.cursors: dict[ServerConnection, int] = {}

    async def handle(self, websocket: ServerConnection) -> None:
        try:
            async for message in websocket:
                await self.receive(websocket, message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.clients.pop(websocket, None)
            self.cursors.pop(websocket, None)

    async def receive(self, websocket: ServerConnection, message: str | bytes) -> None:
        try:
            request = json.loads(message)
            if not isinstance(request, dict):
                raise spadeskit.SpadesError("send a JSON object", code="bad-message")
            if "join" in request or "rejoin" in request or "watch" in request:
                await self.seat(websocket, request)
            elif "act" in request:
                seat = self.clients.get(websocket)
                if seat is None:
                    raise spadeskit.SeatError("join a seat before you act", code="not-seated")
                what = request["act"]
                action = what if isinstance(what, str) else spadeskit.action_from_json(what)
                self.table.act(seat, action)
                await self.broadcast()
            else:
                raise spadeskit.SpadesError("send join, rejoin, watch or act", code="bad-message")
        except spadeskit.SpadesError as error:
            await websocket.send(json.dumps({"error": error.to_json()}))
        except json.JSONDecodeError:
            error = spadeskit.SpadesError("messages are JSON", code="bad-message")
            await websocket.send(json.dumps({"error": error.to_json()}))

    async def seat(self, websocket: ServerConnection, request: dict[str, Any]) -> None:
        if "rejoin" in request:
            seat: int | None = self.table.seat_of(request["rejoin"])
            reply: dict[str, Any] = {"seated": seat}
        elif "join" in request:
            taken = self.table.join(str(request["join"]), request.get("seat"))
            seat = taken.seat
            reply = {"seated": seat, "token": taken.token, "name": taken.name}
        else:
            seat = None
            reply = {"watching": True}
        self.clients[websocket] = seat
        self.cursors[websocket] = 0
        await websocket.send(json.dumps(reply))
        await self.update(websocket)

    async def update(self, websocket: ServerConnection) -> None:
        seat = self.clients[websocket]
        events, self.cursors[websocket] = self.table.events(seat, self.cursors[websocket])
        await websocket.send(json.dumps({"events": events, "view": self.table.view_json(seat)}))

    async def broadcast(self) -> None:
        for websocket in list(self.clients):
            try:
                await self.update(websocket)
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
