"""The web table's server: one page, a small JSON API and a websocket per client.

* ``GET /`` serves the page (``static/index.html``), which creates tables and plays them.
* ``GET /api/variants``: the installed variants and house rules (with what each fits).
* ``POST /api/tables`` with ``{"variant", "house_rules", "options", "bots": [seats],
  "bot", "seed"}`` creates a table and answers ``{"table": id}``; a refused choice (an unknown
  variant, a house rule that does not fit) answers 400 with ``{"error": {...}}``.
* ``GET /api/tables/{id}``: who sits where (no cards).
* ``GET /api/tables/{id}/ws``: the table's protocol, :class:`spadeskit.Connection`.

Tables live in memory (``app[TABLES]``) for as long as the server runs.
"""

from __future__ import annotations

import argparse
import secrets
from importlib.resources import files
from typing import Any

import attrs
from aiohttp import WSMsgType, web

import spadeskit
from spadeskit.arena import bot_class
from spadeskit.loader import available

STATIC = files("spadeskit_web_table") / "static"
BOTS = ("heuristic", "simple", "random")
"""The bots a table can seat (the arena's names), the first by default."""


@attrs.define
class Entry:
    """A table the server keeps, and the clients connected to it."""

    table: spadeskit.Table
    bots: dict[int, str]
    clients: dict[web.WebSocketResponse, spadeskit.Connection] = attrs.field(factory=dict)


TABLES = web.AppKey("tables", dict[str, Entry])


def _error(error: spadeskit.SpadesError, status: int = 400) -> web.Response:
    return web.json_response({"error": error.to_json()}, status=status)


async def page(request: web.Request) -> web.Response:
    return web.Response(text=(STATIC / "index.html").read_text(), content_type="text/html")


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    kinds = {"js": "text/javascript", "css": "text/css"}
    kind = kinds.get(name.rpartition(".")[2])
    if kind is None or "/" in name or not (STATIC / name).is_file():
        raise web.HTTPNotFound()
    return web.Response(text=(STATIC / name).read_text(), content_type=kind)


async def variants(request: web.Request) -> web.Response:
    rows = available()
    return web.json_response(
        {
            "variants": [
                {"name": p.name, "summary": p.summary, "players": _players(p.name)}
                for p in rows
                if p.kind == "variant"
            ],
            "house_rules": [
                {"name": p.name, "summary": p.summary, "fits": list(p.fits)}
                for p in rows
                if p.kind == "house-rule"
            ],
            "bots": list(BOTS),
        }
    )


def _players(variant: str) -> list[str]:
    return list(spadeskit.load_rules(variant).table.seat_names)


async def create_table(request: web.Request) -> web.Response:
    try:
        body = await request.json()
    except ValueError:
        return _error(spadeskit.SpadesError("send the table's choices as JSON", code="bad-message"))
    if not isinstance(body, dict):
        return _error(spadeskit.SpadesError("send a JSON object", code="bad-message"))
    try:
        rules = spadeskit.load_rules(
            str(body.get("variant", "standard")),
            list(body.get("house_rules") or []),
            dict(body.get("options") or {}),
        )
        kind = body.get("bot", BOTS[0])
        if kind not in BOTS:
            raise spadeskit.SpadesError(
                f"bot {kind!r} is not offered: choose {', '.join(BOTS)}", code="bad-bot"
            )
        seats = body.get("bots") or []
        bots = {int(s): bot_class(kind)() for s in seats}
        table = spadeskit.Table(rules, seed=body.get("seed"), bots=bots)
    except spadeskit.SpadesError as error:
        return _error(error)
    except (TypeError, ValueError) as exc:
        return _error(spadeskit.SpadesError(f"bad table choices: {exc}", code="bad-message"))
    name = secrets.token_urlsafe(8)
    request.app[TABLES][name] = Entry(table, {s: kind for s in bots})
    return web.json_response({"table": name})


def _entry(request: web.Request) -> Entry:
    entry = request.app[TABLES].get(request.match_info["table"])
    if entry is None:
        raise web.HTTPNotFound(
            text='{"error": {"code": "no-table", "text": "no such table: create a new one"}}',
            content_type="application/json",
        )
    return entry


async def table_info(request: web.Request) -> web.Response:
    entry = _entry(request)
    table = entry.table
    seats: list[dict[str, Any] | None] = []
    for seat, taken in enumerate(table.seats):
        if seat in entry.bots:
            seats.append({"name": f"{entry.bots[seat]} bot", "bot": True})
        else:
            seats.append(None if taken is None else {"name": taken.name, "bot": False})
    rules = table.rules
    return web.json_response(
        {"rules": rules.name, "seat_names": list(rules.table.seat_names), "seats": seats}
    )


async def socket(request: web.Request) -> web.WebSocketResponse:
    entry = _entry(request)
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    client = entry.clients[ws] = spadeskit.Connection(entry.table)
    try:
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            replies, changed = client.receive(message.data)
            for reply in replies:
                await ws.send_json(reply)
            if changed:
                await _broadcast(entry)
    finally:
        entry.clients.pop(ws, None)
    return ws


async def _broadcast(entry: Entry) -> None:
    for ws, client in list(entry.clients.items()):
        update = client.update()
        if update and not ws.closed:
            await ws.send_json(update)


def create_app() -> web.Application:
    """Return the web table's application (no tables yet)."""
    app = web.Application()
    app[TABLES] = {}
    app.add_routes(
        [
            web.get("/", page),
            web.get("/static/{name}", static),
            web.get("/api/variants", variants),
            web.post("/api/tables", create_table),
            web.get("/api/tables/{table}", table_info),
            web.get("/api/tables/{table}/ws", socket),
        ]
    )
    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve Spades tables to browsers.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args(argv)
    web.run_app(create_app(), host=args.host, port=args.port)


if __name__ == "__main__":
    main()
