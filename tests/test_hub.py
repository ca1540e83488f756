"""The Hub an asyncio server puts in front of a table (spadeskit.apps.hub): a client that
never reads is dropped without slowing the others, a flood is answered too-fast and
does not stall other clients, spectators share one update, bots move at the server's
pace, nothing is written once a connection is closing and nothing is taken from a
dropped client (issue 51)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import spadeskit
from spadeskit.apps.hub import Hub, updates


class Socket:
    """A transport that keeps what it was sent, as messages; ``stuck`` never sends
    anything, as a peer that does not read."""

    def __init__(self, stuck: bool = False, deaf: bool = False) -> None:
        self.sent: list[dict[str, Any]] = []
        self.stuck = stuck
        self.deaf = deaf  # never answers a closing handshake
        self.waiting = 0
        self.closed = False
        self.aborted = False
        self.open = True  # as the websocket library sees it

    def write(self, data: bytes) -> None:
        if self.stuck:
            self.waiting += len(data)
            return
        while data:  # frames the hub wrote: a header and a payload each
            size, start = data[1], 2
            if size == 126:
                size, start = int.from_bytes(data[2:4], "big"), 4
            elif size == 127:
                size, start = int.from_bytes(data[2:10], "big"), 10
            self.sent.append(json.loads(data[start : start + size]))
            data = data[start + size :]

    def get_write_buffer_size(self) -> int:
        return self.waiting

    def is_closing(self) -> bool:
        return self.closed

    def abort(self) -> None:
        self.closed = self.aborted = True

    async def close(self) -> None:
        self.open = False
        if self.deaf:
            await asyncio.sleep(60)
        self.closed = True

    def is_open(self) -> bool:
        return self.open

    def get_extra_info(self, name: str) -> None:
        return None


def table(**kwargs: Any) -> spadeskit.Table:
    rules = spadeskit.load_rules("standard", [], {"floor": -2000})
    return spadeskit.Table(rules, seed=5, bot_moves=0, **kwargs)


def test_a_client_that_never_reads_is_dropped_and_the_others_play_on() -> None:
    async def main() -> None:
        hub = Hub(table(bots={s: "random" for s in (1, 2, 3)}), buffer=20_000)
        ann, stuck = Socket(), Socket(stuck=True)
        player = hub.connect(ann, ann.close)  # type: ignore[arg-type]
        watcher = hub.connect(stuck, stuck.close)  # type: ignore[arg-type]
        await hub.receive(watcher, '{"watch": true}')
        await hub.receive(player, '{"join": "Ann", "seat": 0}')
        acted = None
        for _ in range(2000):
            await asyncio.sleep(0.002)
            latest = ann.sent[-1] if ann.sent else {}
            if latest.get("view", {}).get("to_act") == 0 and latest["cursor"] != acted:
                acted = latest["cursor"]
                await hub.receive(player, json.dumps({"act": latest["view"]["legal_actions"][0]}))
            if len(ann.sent) > 60:
                break
        assert stuck.closed and watcher not in hub.clients
        assert len(ann.sent) > 20 and not ann.closed
        await hub.close()

    asyncio.run(main())


def test_a_flood_is_refused_too_fast_and_other_clients_still_get_answers() -> None:
    async def main() -> None:
        hub = Hub(table(), rate=10, burst=20)
        flood, calm = Socket(), Socket()
        flooder = hub.connect(flood, flood.close)  # type: ignore[arg-type]
        other = hub.connect(calm, calm.close)  # type: ignore[arg-type]
        answered = asyncio.create_task(hub.receive(other, '{"watch": true}'))
        began = time.monotonic()
        for sent in range(2000):
            await hub.receive(flooder, '{"hello": 1}')
            if sent == 2:  # a yield per message: the other client was answered at once
                assert answered.done()
        took = time.monotonic() - began
        await answered
        await asyncio.sleep(0.01)
        codes = [m["error"]["code"] for m in flood.sent if "error" in m]
        assert codes.count("bad-message") <= 20 + 10 * took + 1 and "too-fast" in codes
        assert calm.sent[0] == {"watching": True}
        await hub.close()

    asyncio.run(main())


def test_spectators_at_the_same_cursor_share_one_update_text() -> None:
    tab = table()
    watchers = [spadeskit.Connection(tab) for _ in range(50)]
    for watcher in watchers:
        watcher.receive({"watch": True})
    tab.act(tab.to_act, "3")  # type: ignore[arg-type]
    texts = updates(watchers)
    assert len({id(text) for _, text in texts}) == 1
    assert json.loads(texts[0][1])["events"][0]["text"] == "E bids 3"
    assert all(w.cursor == watchers[0].cursor for w in watchers)
    assert updates(watchers) == []  # nothing new since


def test_a_client_is_not_sent_an_update_that_brings_nothing_new() -> None:
    """A spectator that starts watching after a change was made, but before the
    server's broadcast of it, was told of it in its first update: the broadcast sends
    it nothing (once, each update's cursor is past the last one's)."""
    tab = table()
    early = spadeskit.Connection(tab)
    early.receive({"watch": True})
    tab.act(tab.to_act, "3")  # type: ignore[arg-type]
    late = spadeskit.Connection(tab)
    first = late.receive({"watch": True})[0][1]
    sent = dict(updates([early, late]))
    assert list(sent) == [early]
    assert json.loads(sent[early])["cursor"] == first["cursor"] == late.cursor
    tab.act(tab.to_act, "4")  # type: ignore[arg-type]
    later = {c: json.loads(text)["cursor"] for c, text in updates([early, late])}
    assert later[early] == later[late] > first["cursor"]


def test_a_bots_only_table_moves_at_the_servers_pace() -> None:
    async def main() -> None:
        hub = Hub(table(bots={s: "random" for s in range(4)}), bot_pace=0.05)
        hub.start_bots()
        await asyncio.sleep(0.5)
        moves = len(hub.table.record()["actions"])
        assert 3 <= moves <= 12
        await hub.close()

    asyncio.run(main())


def test_nothing_is_written_once_the_library_has_begun_to_close() -> None:
    """A websocket library that has sent its closing frame (a peer's close answered)
    gets no data frame after it: the hub drops the client and writes nothing more."""

    async def main() -> None:
        hub = Hub(table())
        ann, bob = Socket(), Socket()
        first = hub.connect(ann, ann.close, ann.is_open)  # type: ignore[arg-type]
        other = hub.connect(bob, bob.close, bob.is_open)  # type: ignore[arg-type]
        await hub.receive(first, '{"join": "Ann", "seat": 0}')
        await hub.receive(other, '{"watch": true}')
        ann.open = False  # the library answered Ann's close frame
        written = len(ann.sent)
        await hub.receive(other, '{"hello": 1}')
        hub.table.act(hub.table.to_act, "3")  # type: ignore[arg-type]
        hub.broadcast()
        assert len(ann.sent) == written and first.closed and first not in hub.clients
        assert bob.sent[-1]["events"][0]["text"] == "E bids 3"
        await hub.close()

    asyncio.run(main())


def test_a_dropped_client_is_not_read_and_its_connection_takes_nothing() -> None:
    """After a drop (here: too much waiting for it), what the client still sends before
    its socket closes is ignored, and its connection refuses everything ``closed``:
    the seat may have a new connection by then, and one seat has one."""

    async def main() -> None:
        hub = Hub(table(), buffer=10)
        slow = Socket(stuck=True)
        client = hub.connect(slow, slow.close)  # type: ignore[arg-type]
        await hub.receive(client, '{"join": "Ann", "seat": 1}')
        assert client.closed  # its join's update did not fit
        before = hub.table.game
        await hub.receive(client, '{"act": "3"}')
        assert hub.table.game is before
        replies, changed = client.connection.receive({"act": "3"})
        assert replies[0]["error"]["code"] == "closed" and not changed
        assert hub.table.game is before
        await asyncio.sleep(0.01)
        assert slow.closed and not slow.aborted  # closed politely, in a task of the hub
        await hub.close()

    asyncio.run(main())


def test_a_peer_that_does_not_answer_the_closing_handshake_is_cut_off() -> None:
    async def main() -> None:
        hub = Hub(table(), buffer=10, close_timeout=0.05)
        deaf = Socket(stuck=True, deaf=True)
        client = hub.connect(deaf, deaf.close)  # type: ignore[arg-type]
        await hub.receive(client, '{"watch": true}')
        assert client.closed and not deaf.aborted
        await asyncio.sleep(0.2)
        assert deaf.aborted
        await hub.close()

    asyncio.run(main())
