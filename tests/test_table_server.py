"""The example table server (examples/table_server.py) driven through real websockets on
localhost: four seats and a spectator play a whole hand; no client ever receives
another seat's hidden cards (the ``server`` extra; CI installs it and runs this file)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

import spadeskit  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "table_server.py"


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("table_server", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def receive(client: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(client.recv(), timeout=10))
    return message


async def whole_hand(port: int, table: spadeskit.Table) -> dict[int | None, list[dict[str, Any]]]:
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


def test_four_seats_and_a_spectator_play_a_whole_hand_over_websockets() -> None:
    example = load_example()
    table = spadeskit.Table(spadeskit.load_rules("standard", ["blind-nil"], {"floor": -2000}))

    async def main() -> dict[int | None, list[dict[str, Any]]]:
        started = asyncio.Event()
        server = asyncio.create_task(example.run(0, table, started))
        await started.wait()
        try:
            return await whole_hand(started.port, table)  # type: ignore[attr-defined]
        finally:
            server.cancel()

    seen = asyncio.run(main())
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
