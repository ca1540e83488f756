"""The web table's HTTP API and websocket, without a browser."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from spadeskit_web_table.server import TABLES

from .conftest import Server


def request(server: Server, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    async def go() -> tuple[int, Any]:
        async with aiohttp.ClientSession() as session:
            async with session.request(method, server.url + path, json=body) as reply:
                return reply.status, await reply.json(content_type=None)

    return asyncio.run(go())


def test_the_lobby_lists_variants_house_rules_and_what_each_rule_fits(server: Server) -> None:
    status, data = request(server, "GET", "/api/variants")
    assert status == 200
    names = [v["name"] for v in data["variants"]]
    assert {"standard", "cutthroat", "two-handed", "jjdd", "call-break"} <= set(names)
    standard = next(v for v in data["variants"] if v["name"] == "standard")
    assert standard["players"] == ["N", "E", "S", "W"]
    boston = next(r for r in data["house_rules"] if r["name"] == "boston")
    assert boston["fits"] == ["standard"]


def test_a_refused_table_says_why_and_creates_nothing(server: Server) -> None:
    boston = {"variant": "cutthroat", "house_rules": ["boston"]}
    status, data = request(server, "POST", "/api/tables", boston)
    assert status == 400 and "boston" in data["error"]["text"]
    status, data = request(server, "POST", "/api/tables", {"variant": "standard", "bot": "gpt"})
    assert status == 400 and data["error"]["code"] == "bad-bot"
    status, data = request(server, "POST", "/api/tables", {"variant": "standrd"})
    assert status == 400 and "standard" in data["error"]["text"]
    assert server.app[TABLES] == {}
    status, data = request(server, "GET", "/api/tables/nothing")
    assert status == 404 and data["error"]["code"] == "no-table"


def test_a_table_with_house_rules_and_bots_plays_over_its_websocket(server: Server) -> None:
    choices = {"variant": "standard", "house_rules": ["boston"], "bots": [1, 2, 3], "seed": 4}
    status, data = request(server, "POST", "/api/tables", choices)
    assert status == 200
    name = data["table"]
    status, info = request(server, "GET", f"/api/tables/{name}")
    assert info["rules"] == "standard + boston"
    assert info["seats"][0] is None and info["seats"][1] == {"name": "heuristic bot", "bot": True}

    async def play() -> list[dict[str, Any]]:
        seen = []
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"{server.url}/api/tables/{name}/ws") as ws:
                await ws.send_str(json.dumps({"join": "Ann", "seat": 0}))
                seated = json.loads(await ws.receive_str())
                assert seated["seated"] == 0 and seated["token"]
                update = json.loads(await ws.receive_str())
                while update["view"]["hand_number"] == 0:
                    seen.append(update)
                    view = update["view"]
                    await ws.send_str(json.dumps({"act": view["legal_actions"][-1]}))
                    update = json.loads(await ws.receive_str())
                seen.append(update)
        return seen

    seen = asyncio.run(play())
    ended = [e for u in seen for e in u["events"] if e["type"] == "hand-ended"]
    assert len(ended) == 1 and len(ended[0]["last_trick"]["plays"]) == 4
