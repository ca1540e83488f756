"""Load on the web table (examples/web-table), on loopback: tables of four players, with
and without spectators, measured from outside the server process.

    python benchmarks/bench_tables.py [--tables 4] [--rounds 3] [--seconds 4] [--postgres URL]

Needs the web table installed (``pip install ./examples/web-table``).  It starts the
server as a child process on 127.0.0.1 (a SQLite store in a temporary directory, or
the PostgreSQL database ``--postgres`` names, whose tables it leaves there to expire;
no pause between bot moves), then runs four scenarios in interleaved rounds
(BENCHMARKING.md: A, B, C, D, A, B, C, D ...), each round ``--seconds`` of play with new
tables:

* ``players``: ``--tables`` tables, four players each, playing random legal actions as
  fast as the server answers;
* ``stuck``: the same, plus at each table one spectator that never reads its socket
  (a raw websocket whose receive buffer is never drained);
* ``single``: one table of four players;
* ``crowd``: one table of four players and 200 spectators who read everything.

Every client connects, sits or starts watching before the round's clock starts, and
the server's CPU is read when play starts and when it stops, so a round measures play
alone (opening and closing 200 websockets is not the cost of an action).  It reports,
per scenario, actions per second, the latency from an action sent to its update
received (p50, p99), and the server's CPU time per action, in all and in the kernel
(from ``/proc/<pid>/stat``; on loopback the kernel's share includes the receiving
side's TCP work, which the sender pays); the ratio of the ``stuck`` p99 to the
``players`` p99 (medians of per-round ratios), the extra server CPU per action that
200 spectators cost over a table without them (``crowd`` against ``single``, per
round), and the server's memory (RSS) per finished hand.  Everything is bounded: it
stops by itself after ``rounds * 4 * seconds`` of play and a few seconds of setup per
round.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

TICK = os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> tuple[float, float]:
    """Return the process's user + system CPU seconds so far, and the system's part."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK, int(fields[12]) / TICK


def server_rss(pid: int) -> int:
    """Return the process's resident memory in bytes."""
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Tally:
    """What one round measured."""

    actions: int = 0
    hands: int = 0
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0
    kernel: float = 0.0


async def player(
    session: aiohttp.ClientSession,
    url: str,
    seat: int,
    start: asyncio.Event,
    stop: float,
    tally: Tally,
    rng: random.Random,
    ready: list[bool],
) -> None:
    """Sit at ``seat``, then, once ``start`` is set, act whenever it is this seat's
    turn (until cancelled, or ``stop`` at the latest)."""
    async with session.ws_connect(url) as ws:
        await ws.send_str(json.dumps({"join": f"p{seat}", "seat": seat}))
        latest: dict[str, Any] = {}
        while "view" not in latest:
            latest = json.loads(await ws.receive_str(timeout=30))
        ready.append(True)
        await start.wait()
        sent_at: float | None = None
        acted_from = -1
        data = latest
        while time.monotonic() < stop:
            if "view" in data:
                if sent_at is not None and data["cursor"] > acted_from:
                    tally.latencies.append(time.monotonic() - sent_at)
                    tally.actions += 1
                    sent_at = None
                if seat == 0:
                    tally.hands += sum(e["type"] == "hand-ended" for e in data["events"])
                view = data["view"]
                if view["to_act"] == seat and sent_at is None and view["legal_actions"]:
                    acted_from = data["cursor"]
                    sent_at = time.monotonic()
                    await ws.send_str(json.dumps({"act": rng.choice(view["legal_actions"])}))
            try:
                message = await ws.receive(timeout=max(0.05, stop - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)


async def watcher(session: aiohttp.ClientSession, url: str, stop: float, ready: list[bool]) -> None:
    """Watch, reading everything (until cancelled, or ``stop`` at the latest)."""
    async with session.ws_connect(url) as ws:
        await ws.send_str(json.dumps({"watch": True}))
        first = True
        while time.monotonic() < stop:
            try:
                message = await ws.receive(timeout=max(0.05, stop - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            if first and "view" in message.data:
                ready.append(True)
                first = False


def stuck_watcher(port: int, path: str) -> socket.socket:
    """Open a websocket by hand, ask to watch, and never read again."""
    raw = socket.create_connection(("127.0.0.1", port))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    payload = json.dumps({"watch": True}).encode()
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    raw.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
    return raw


async def new_table(session: aiohttp.ClientSession, base: str) -> str:
    choices = {"variant": "standard", "options": {"target": 10000, "floor": None}}
    async with session.post(base + "/api/tables", json=choices) as reply:
        name: str = (await reply.json())["table"]
        return name


async def one_round(
    scenario: str, port: int, pid: int, tables: int, seconds: float, rng: random.Random
) -> Tally:
    """Run one round of ``scenario``; return what it measured, with the server's CPU
    seconds from when every client was connected and seated (or watching) to the end
    of play (connecting and closing are left out: they are not the cost of an
    action)."""
    base = f"http://127.0.0.1:{port}"
    tally = Tally()
    stuck: list[socket.socket] = []
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        count = 1 if scenario in ("crowd", "single") else tables
        names = [await new_table(session, base) for _ in range(count)]
        start = asyncio.Event()
        ready: list[bool] = []
        expected = 4 * count + (200 if scenario == "crowd" else 0)
        stop = time.monotonic() + seconds + 60  # a bound only: the round cancels them
        tasks = []
        for name in names:
            url = f"{base}/api/tables/{name}/ws"
            if scenario == "stuck":
                stuck.append(stuck_watcher(port, f"/api/tables/{name}/ws"))
            if scenario == "crowd":
                tasks += [
                    asyncio.create_task(watcher(session, url, stop, ready)) for _ in range(200)
                ]
        deadline = time.monotonic() + 30
        while len(ready) < expected - 4 * count and time.monotonic() < deadline:
            await asyncio.sleep(0.02)  # the spectators are in before the players sit
        for name in names:
            url = f"{base}/api/tables/{name}/ws"
            tasks += [
                asyncio.create_task(player(session, url, s, start, stop, tally, rng, ready))
                for s in range(4)
            ]
        while len(ready) < expected and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert len(ready) == expected, f"{len(ready)} of {expected} clients connected"
        cpu, kernel = server_cpu(pid)
        began = time.monotonic()
        start.set()
        await asyncio.sleep(seconds)
        cpu_after, kernel_after = server_cpu(pid)
        tally.seconds = time.monotonic() - began
        tally.cpu, tally.kernel = cpu_after - cpu, kernel_after - kernel
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for raw in stuck:
        raw.close()
    return tally


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--postgres", help="a PostgreSQL database for the server's tables")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "spadeskit_web_table.server", "--port", str(port)]
        if args.postgres:
            command += ["--postgres", args.postgres, "--key-file", os.path.join(tmp, "key")]
        else:
            command += ["--db", os.path.join(tmp, "bench.db")]
        command += ["--bot-pace", "0"]
        command += ["--tables-per-client", "100000"]  # every table comes from one address
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            report(run(args, port, server.pid))
        finally:
            server.terminate()
            server.wait(10)


def run(args: argparse.Namespace, port: int, pid: int) -> dict[str, Any]:
    rng = random.Random(1)
    rss_before = server_rss(pid)
    load_before = os.getloadavg()[0]
    scenarios = ("players", "stuck", "single", "crowd")
    results: dict[str, list[Tally]] = {s: [] for s in scenarios}
    hands = 0
    for _ in range(args.rounds):
        for scenario in scenarios:
            tally = asyncio.run(one_round(scenario, port, pid, args.tables, args.seconds, rng))
            results[scenario].append(tally)
            hands += tally.hands
    return {
        "results": results,
        "rss_per_hand": (server_rss(pid) - rss_before) / max(hands, 1),
        "hands": hands,
        "load": (load_before, os.getloadavg()[0]),
        "store": "PostgreSQL" if args.postgres else "SQLite",
    }


def report(measured: dict[str, Any]) -> None:
    results = measured["results"]
    load = measured["load"]
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')} · Python {platform.python_version()} · "
        f"{os.cpu_count()} cores · web table on loopback, {measured['store']} store · "
        f"load {load[0]:.1f} before, {load[1]:.1f} after"
    )
    print(
        f"{'scenario':10} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms/action':>14} "
        f"{'kernel':>7}"
    )
    per_action: dict[str, list[float]] = {}
    p99s: dict[str, list[float]] = {}
    for scenario, rounds in results.items():
        rates, p50, p99 = [], [], []
        per_action[scenario] = [t.cpu / max(t.actions, 1) * 1000 for t in rounds]
        kernel = [t.kernel / max(t.actions, 1) * 1000 for t in rounds]
        for tally in rounds:
            rates.append(tally.actions / tally.seconds)
            p50.append(percentile(tally.latencies, 0.5) * 1000)
            p99.append(percentile(tally.latencies, 0.99) * 1000)
        p99s[scenario] = p99
        print(
            f"{scenario:10} {statistics.median(rates):10.0f} {statistics.median(p50):8.2f} "
            f"{statistics.median(p99):8.2f} {statistics.median(per_action[scenario]):14.3f} "
            f"{statistics.median(kernel):7.3f}"
        )
    stuck = [s / p for s, p in zip(p99s["stuck"], p99s["players"], strict=True)]
    extra = [c - s for c, s in zip(per_action["crowd"], per_action["single"], strict=True)]
    print(
        f"p99 with a never-reading spectator / without: median {statistics.median(stuck):.2f} "
        f"(range {min(stuck):.2f}-{max(stuck):.2f})"
    )
    print(
        f"server CPU per action, 200 spectators over none: "
        f"median {statistics.median(extra):.3f} ms "
        f"(range {min(extra):.3f}-{max(extra):.3f})"
    )
    print(
        f"server memory (RSS) per finished hand: {measured['rss_per_hand'] / 1024:.1f} KiB "
        f"({measured['hands']} hands)"
    )


if __name__ == "__main__":
    main()
