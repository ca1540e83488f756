"""The web table's HTTP API and websocket, without a browser."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import aiohttp
import pytest

import spadeskit
from spadeskit_web_table import create_app
from spadeskit_web_table.server import SETTINGS, TABLES

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
                    if view["to_act"] == 0:  # else the bots are still moving
                        await ws.send_str(json.dumps({"act": view["legal_actions"][-1]}))
                    update = json.loads(await ws.receive_str())
                seen.append(update)
        return seen

    seen = asyncio.run(play())
    ended = [e for u in seen for e in u["events"] if e["type"] == "hand-ended"]
    assert len(ended) == 1 and len(ended[0]["last_trick"]["plays"]) == 4


def test_a_client_seed_is_refused_unless_the_server_allows_seeds_and_then_it_is_shown() -> None:
    with Server(create_app(bot_pace=0)) as strict:
        status, data = request(strict, "POST", "/api/tables", {"variant": "standard", "seed": 7})
        assert status == 400 and data["error"]["code"] == "no-seed"
        assert strict.app[TABLES] == {}
        status, data = request(strict, "POST", "/api/tables", {"variant": "standard"})
        assert request(strict, "GET", f"/api/tables/{data['table']}")[1]["seeded"] is False
    with Server(create_app(allow_seeds=True, bot_pace=0)) as lenient:
        status, data = request(lenient, "POST", "/api/tables", {"variant": "standard", "seed": 7})
        assert request(lenient, "GET", f"/api/tables/{data['table']}")[1]["seeded"] is True


@pytest.mark.parametrize(
    "choices",
    [
        {"variant": "standard", "options": {"target": 10**9, "floor": -(10**9)}},
        {"variant": "standard", "options": {"target": 1e9}},
        {"variant": "standard", "bots": [0] * 100_000},
        {"variant": "standard", "bots": [0, 0]},
        {"variant": "standard", "bots": ["1"]},
        {"variant": "x" * 10_000},
        {"variant": "standard", "house_rules": [["deep"]]},
    ],
)
def test_a_hostile_table_request_is_refused_with_a_code(server: Server, choices: Any) -> None:
    status, data = request(server, "POST", "/api/tables", choices)
    assert status in (400, 413) and data["error"]["code"] in ("bad-option", "bad-message")
    assert server.app[TABLES] == {}
    assert request(server, "GET", "/api/variants")[0] == 200  # still answering


def test_one_client_may_keep_only_so_many_unfinished_tables() -> None:
    with Server(create_app(bot_pace=0, tables_per_client=3)) as limited:
        for _ in range(3):
            assert request(limited, "POST", "/api/tables", {"variant": "standard"})[0] == 200
        status, data = request(limited, "POST", "/api/tables", {"variant": "standard"})
        assert status == 429 and data["error"]["code"] == "too-many-tables"


def test_a_bots_only_table_does_not_hold_up_the_server(server: Server) -> None:
    choices = {"variant": "standard", "options": {"target": 10000, "floor": None}}
    status, data = request(server, "POST", "/api/tables", {**choices, "bots": [0, 1, 2, 3]})
    assert status == 200
    for _ in range(5):
        assert request(server, "GET", f"/api/tables/{data['table']}")[0] == 200
    assert not server.app[TABLES][data["table"]].table.game.is_over


@pytest.mark.slow  # a whole hand played by bots, then solved card by card: seconds
def test_a_finished_hand_is_reviewed_double_dummy_card_by_card(server: Server) -> None:
    choices = {"variant": "standard", "options": {"target": 10000, "floor": None}, "seed": 3}
    status, data = request(server, "POST", "/api/tables", {**choices, "bots": [0, 1, 2, 3]})
    name = data["table"]
    table = server.app[TABLES][name].table
    status, refused = request(server, "GET", f"/api/tables/{name}/review?hand=5")
    assert status == 409 and refused["error"]["code"] == "hand-not-over"
    assert request(server, "GET", f"/api/tables/{name}/review?hand=x")[0] == 400
    deadline = time.monotonic() + 60
    while not table.game.match.results and time.monotonic() < deadline:
        time.sleep(0.05)
    status, review = request(server, "GET", f"/api/tables/{name}/review?hand=0")
    assert status == 200 and review["hand"] == 0 and review["seat_names"] == ["N", "E", "S", "W"]
    # Every card of the hand, in the order played, each against the best card.
    steps = spadeskit.iter_replay(table.record(), key=server.app[SETTINGS].store.key)
    cards = [s.action.card.code for s in steps if isinstance(s.action, spadeskit.Play)][:52]
    assert [play["card"] for play in review["plays"]] == cards
    for play in review["plays"]:
        assert play["cost"] == abs(play["best"] - play["result"])
        assert (play["card"] in play["best_cards"]) == (play["cost"] == 0)
    assert review["costs"] == [
        sum(p["cost"] for p in review["plays"] if p["seat"] == seat) for seat in range(4)
    ]
