"""The web table killed with SIGKILL mid-hand and restarted on the same store (a SQLite
file, or a PostgreSQL database): the table, its seat and its stream are all back, and
the hand plays on."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start(store: list[str], port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "spadeskit_web_table.server", "--port", str(port)]
    process = subprocess.Popen([*command, *store, "--bot-pace", "0"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the web table did not start")


async def play(
    url: str, table: str, first: dict[str, Any], until: Any, rng: random.Random
) -> list[dict[str, Any]]:
    """Seat 0's messages while it plays (the bots play the others) until ``until``."""
    messages: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{url}/api/tables/{table}/ws") as ws:
            await ws.send_str(json.dumps(first))
            while True:
                message = json.loads(await ws.receive_str(timeout=20))
                messages.append(message)
                view = message.get("view")
                if view is None:
                    continue
                if until(messages):
                    return messages
                if view["to_act"] == 0:
                    await ws.send_str(json.dumps({"act": rng.choice(view["legal_actions"])}))


def events(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for m in messages if "events" in m for e in m["events"]]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_killed_web_table_comes_back_with_its_table_seat_and_stream(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    if kind == "postgres":
        dsn = request.getfixturevalue("postgres")
        store = ["--postgres", dsn, "--key-file", str(tmp_path / "tables.key")]
    else:
        store = ["--db", str(tmp_path / "tables.db")]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    rng = random.Random(3)

    async def create() -> str:
        async with aiohttp.ClientSession() as session:
            choices = {"variant": "standard", "bots": [1, 2, 3], "bot": "simple"}
            async with session.post(url + "/api/tables", json=choices) as reply:
                name: str = (await reply.json())["table"]
                return name

    process = start(store, port)
    try:
        table = asyncio.run(create())
        before = asyncio.run(
            play(url, table, {"join": "Ann", "seat": 0}, lambda m: len(events(m)) > 30, rng)
        )
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    token = before[0]["token"]
    process = start(store, port)
    try:
        after = asyncio.run(
            play(
                url,
                table,
                {"rejoin": token, "since": 0},
                lambda m: m[-1]["view"]["hand_number"] == 1,
                rng,
            )
        )
    finally:
        process.terminate()
        process.wait(10)
    assert after[0] == {"seated": 0}
    got, now = events(before), events(after)
    assert now[: len(got)] == got  # every event seat 0 was sent is still in its stream
    assert any(e["type"] == "hand-ended" for e in now[len(got) :])
