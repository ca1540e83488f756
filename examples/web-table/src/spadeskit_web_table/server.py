"""The web table's server: one page, a small JSON API and a websocket per client.

* ``GET /`` serves the page (``static/index.html``), which creates tables and plays them.
* ``GET /api/variants``: the installed variants and house rules (with what each fits).
* ``POST /api/tables`` with ``{"variant", "house_rules", "options", "bots": [seats],
  "bot"}`` creates a table and answers ``{"table": id}``; a refused choice (an unknown
  variant, a house rule that does not fit, an option out of its range) answers 400 with
  ``{"error": {...}}``.  A ``"seed"`` is refused (``no-seed``: whoever knows the seed
  knows every hand) unless the server runs with ``--allow-seeds``, for tests and
  demonstrations, and then the table says it is seeded to everyone who looks.
* ``GET /api/tables/{id}``: who sits where (no cards), and whether the table is seeded.
* ``GET /api/tables/{id}/review?hand=N``: the double-dummy review of the table's finished
  hand ``N`` (from 0): every card played, what the seat played for and the tricks the
  card cost against the best one (:func:`spadeskit.analysis.review`, as JSON).  Every
  card of a finished hand has been played face up, so the review tells nobody anything
  secret; the hand in progress is refused (``hand-not-over``).  Reviews run in a worker
  process (a whole hand takes up to seconds) and are kept.
* ``GET /api/tables/{id}/ws``: the table's protocol, :class:`spadeskit.Connection`,
  carried by a :class:`spadeskit.apps.hub.Hub` (bounded send queues, rate limits, bots
  moved in a worker thread).

Tables live in a :class:`spadeskit.SQLiteStore` (``--db``), or in a
:class:`spadeskit.PostgresStore` (``--postgres``, a libpq connection string, with
``--key-file``): every action is in the store before anyone is told of it, and a
restarted server has every table back.  Finished
tables are forgotten an hour after their last move, idle ones after a day.  One client
(one address) may have :data:`TABLES_PER_CLIENT` unfinished tables at once, and the
server :data:`MAX_TABLES`.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import secrets
import sys
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import attrs
from aiohttp import WSMsgType, web

import spadeskit
from spadeskit.analysis import AnalysisUnsupported, review
from spadeskit.apps.connection import MESSAGE_SIZE
from spadeskit.apps.hub import Hub

STATIC = files("spadeskit_web_table") / "static"
BOTS = ("heuristic", "simple", "random")
"""The bots a table can seat (the arena's names), the first by default."""

TABLES_PER_CLIENT = 10
"""How many unfinished tables one client (one address) may have at once."""

MAX_TABLES = 1000
"""How many tables the server keeps at once."""

REQUEST_SIZE = 64 * 1024
"""The largest request body the server reads, in bytes."""

ABANDON_AFTER = 300.0
"""Seconds after which a seat whose player left goes to a bot of the table's kind."""


@attrs.define
class Entry:
    """A table the server keeps, the hub carrying its clients' messages, who made it and
    the reviews of its finished hands (by hand number, as JSON data)."""

    table: spadeskit.Table
    hub: Hub
    creator: str = ""
    reviews: dict[int, dict[str, Any]] = attrs.field(factory=dict)


@attrs.frozen
class Settings:
    """How the server runs (see :func:`create_app`)."""

    store: spadeskit.TableStore
    allow_seeds: bool
    bot_pace: float
    tables_per_client: int
    max_tables: int


TABLES = web.AppKey("tables", dict[str, Entry])
SETTINGS = web.AppKey("settings", Settings)
REVIEWER = web.AppKey("reviewer", concurrent.futures.Executor)


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
    rows = spadeskit.available()
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
    settings = request.app[SETTINGS]
    tables = request.app[TABLES]
    try:
        body = await request.json()
    except web.HTTPRequestEntityTooLarge:
        too_big = spadeskit.SpadesError(
            f"a request is at most {REQUEST_SIZE} bytes", code="bad-message"
        )
        return _error(too_big, 413)
    except ValueError:
        return _error(spadeskit.SpadesError("send the table's choices as JSON", code="bad-message"))
    if not isinstance(body, dict):
        return _error(spadeskit.SpadesError("send a JSON object", code="bad-message"))
    creator = request.remote or ""
    mine = [e for e in tables.values() if e.creator == creator and not e.table.game.is_over]
    if len(mine) >= settings.tables_per_client:
        refused = spadeskit.SpadesError(
            f"you have {len(mine)} unfinished tables: finish one first", code="too-many-tables"
        )
        return _error(refused, 429)
    if len(tables) >= settings.max_tables:
        return _error(spadeskit.SpadesError("the server is full", code="server-full"), 503)
    try:
        seed = body.get("seed")
        if seed is not None and not settings.allow_seeds:
            raise spadeskit.SpadesError(
                "this server deals every table from a secret: a seed would let whoever "
                "knows it work out every hand",
                code="no-seed",
            )
        rules = spadeskit.load_rules(
            _text(body.get("variant", "standard")),
            [_text(h) for h in _list(body.get("house_rules"), 20)],
            _options(body.get("options")),
        )
        kind = body.get("bot", BOTS[0])
        if kind not in BOTS:
            raise spadeskit.SpadesError(
                f"bot {str(kind)[:30]!r} is not offered: choose {', '.join(BOTS)}", code="bad-bot"
            )
        seats = _list(body.get("bots"), rules.table.players)
        if any(type(s) is not int for s in seats) or len(set(seats)) != len(seats):
            raise spadeskit.SpadesError("bots lists seat numbers, each once", code="bad-message")
        table = spadeskit.Table(
            rules,
            seed=seed,
            key=settings.store.key,
            bots=dict.fromkeys(seats, kind),
            bot_moves=0,
            abandon_after=ABANDON_AFTER,
            stand_in=kind,
        )
    except spadeskit.SpadesError as error:
        return _error(error)
    except (TypeError, ValueError, OverflowError) as exc:
        return _error(spadeskit.SpadesError(f"bad table choices: {exc}", code="bad-message"))
    name = settings.store.add(table)
    tables[name] = Entry(table, Hub(table, bot_pace=settings.bot_pace), creator)
    tables[name].hub.start_bots()
    return web.json_response({"table": name})


def _text(value: object) -> str:
    if not isinstance(value, str) or len(value) > 100:
        raise spadeskit.SpadesError("names are short text", code="bad-message")
    return value


def _list(value: object, most: int) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > most:
        raise spadeskit.SpadesError(f"give a list of at most {most}", code="bad-message")
    return value


def _options(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > 30:
        raise spadeskit.SpadesError("options are an object of at most 30", code="bad-message")
    return value


def _entry(request: web.Request) -> Entry:
    entry = request.app[TABLES].get(request.match_info["table"])
    if entry is None:
        raise web.HTTPNotFound(
            text='{"error": {"code": "no-table", "text": "no such table: create a new one"}}',
            content_type="application/json",
        )
    return entry


async def table_info(request: web.Request) -> web.Response:
    table = _entry(request).table
    bots = table.bots
    seats: list[dict[str, Any] | None] = []
    for seat, taken in enumerate(table.seats):
        if seat in bots:
            seats.append({"name": f"{bots[seat]} bot", "bot": True})
        else:
            seats.append(None if taken is None else {"name": taken.name, "bot": False})
    rules = table.rules
    return web.json_response(
        {
            "rules": rules.name,
            "seat_names": list(rules.table.seat_names),
            "seats": seats,
            "seeded": table.game.seed is not None,
        }
    )


def review_hand(record: dict[str, Any], key: bytes | str, hand: int) -> dict[str, Any]:
    """Return the double-dummy review of ``hand`` of a table's ``record`` as JSON data
    (run in the worker process), or ``{"error": ...}`` when the solver cannot follow
    the rules' play."""
    try:
        return review(record, key=key, hand=hand).to_json()
    except AnalysisUnsupported as error:
        return {"error": error.to_json()}


async def hand_review(request: web.Request) -> web.Response:
    entry = _entry(request)
    try:
        hand = int(request.query.get("hand", ""))
    except ValueError:
        return _error(spadeskit.SpadesError("ask for a hand by its number", code="bad-message"))
    found = entry.reviews.get(hand)
    if found is None:
        table = entry.table
        finished = {result.number for result in table.game.match.results}
        if hand not in finished:
            refused = spadeskit.SpadesError(
                f"hand {hand + 1} is not over: a hand is reviewed once every card is played",
                code="hand-not-over",
            )
            return _error(refused, 409)
        key = request.app[SETTINGS].store.key
        reviewer = request.app[REVIEWER]
        found = await asyncio.get_running_loop().run_in_executor(
            reviewer, review_hand, table.record(), key, hand
        )
        entry.reviews[hand] = found
    if "error" in found:
        return web.json_response(found, status=422)
    return web.json_response({"hand": hand, **found})


async def socket(request: web.Request) -> web.WebSocketResponse:
    hub = _entry(request).hub
    # No per-message compression: the hub writes one frame per update for every client.
    ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MESSAGE_SIZE * 4, compress=False)
    await ws.prepare(request)
    assert request.transport is not None  # open: the handshake just went out on it
    client = hub.connect(request.transport, ws.close, lambda: not ws.closed)
    try:
        async for message in ws:
            if message.type is WSMsgType.TEXT:
                await hub.receive(client, message.data)
    finally:
        hub.disconnect(client)
    return ws


async def _keep_tables(app: web.Application) -> AsyncIterator[None]:
    """Bring back every table of the store on start, forget expired ones as the server
    runs, and close every client on the way out."""
    settings = app[SETTINGS]
    for name, table in settings.store.load().items():
        app[TABLES][name] = Entry(table, Hub(table, bot_pace=settings.bot_pace))
        app[TABLES][name].hub.start_bots()

    async def expire() -> None:
        while True:
            await asyncio.sleep(60)
            for name in settings.store.expire():
                entry = app[TABLES].pop(name, None)
                if entry is not None:
                    await entry.hub.close()

    expiring = asyncio.create_task(expire())
    yield
    expiring.cancel()
    for entry in app[TABLES].values():
        await entry.hub.close()
    app[REVIEWER].shutdown(cancel_futures=True)


def create_app(
    store: spadeskit.TableStore | None = None,
    *,
    allow_seeds: bool = False,
    bot_pace: float = 0.3,
    tables_per_client: int = TABLES_PER_CLIENT,
    max_tables: int = MAX_TABLES,
) -> web.Application:
    """Return the web table's application, its tables in ``store`` (default: a SQLite
    store in memory, which a restart loses); ``allow_seeds`` lets a client seed a
    table (which everyone is told), ``bot_pace`` is the pause after each bot move."""
    if store is None:
        store = spadeskit.SQLiteStore(":memory:", key=secrets.token_urlsafe(32))
    app = web.Application(client_max_size=REQUEST_SIZE)
    app[TABLES] = {}
    app[SETTINGS] = Settings(store, allow_seeds, bot_pace, tables_per_client, max_tables)
    # One worker process for reviews: a search holds the interpreter while it runs, and
    # the server's own process must keep answering.
    app[REVIEWER] = concurrent.futures.ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn")
    )
    app.cleanup_ctx.append(_keep_tables)
    app.add_routes(
        [
            web.get("/", page),
            web.get("/static/{name}", static),
            web.get("/api/variants", variants),
            web.post("/api/tables", create_table),
            web.get("/api/tables/{table}", table_info),
            web.get("/api/tables/{table}/review", hand_review),
            web.get("/api/tables/{table}/ws", socket),
        ]
    )
    return app


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
    ``key_file`` is needed, kept with the database's other secrets), else the SQLite
    file ``db`` (its key in ``key_file``, by default ``db`` + ``.key``)."""
    if postgres:
        if not key_file:
            raise spadeskit.SpadesError("--postgres needs --key-file: the tables' signing key")
        return spadeskit.PostgresStore(postgres, key=server_key(key_file))
    return spadeskit.SQLiteStore(db, key=server_key(key_file or db + ".key"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve Spades tables to browsers.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--db", default="web-tables.db", help="the SQLite file tables live in")
    parser.add_argument(
        "--postgres",
        metavar="CONNINFO",
        help="keep the tables in this PostgreSQL database instead (a libpq connection string)",
    )
    parser.add_argument(
        "--key-file", help="the file with the signing key, made on first use (default: DB.key)"
    )
    parser.add_argument("--bot-pace", type=float, default=0.3, help="seconds between bot moves")
    parser.add_argument(
        "--allow-seeds", action="store_true", help="let clients seed tables (tests, demos)"
    )
    parser.add_argument("--tables-per-client", type=int, default=TABLES_PER_CLIENT)
    parser.add_argument("--max-tables", type=int, default=MAX_TABLES)
    args = parser.parse_args(argv)
    try:
        store = open_store(args.db, args.postgres, args.key_file)
    except spadeskit.SpadesError as error:
        sys.exit(f"spadeskit-web-table: {error}")
    app = create_app(
        store,
        allow_seeds=args.allow_seeds,
        bot_pace=args.bot_pace,
        tables_per_client=args.tables_per_client,
        max_tables=args.max_tables,
    )
    try:
        web.run_app(app, host=args.host, port=args.port, print=lambda text: print(text, flush=True))
    finally:
        store.close()


if __name__ == "__main__":
    main()
