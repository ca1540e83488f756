"""The durable table store (spadeskit.SQLiteStore, spadeskit.PostgresStore): every
accepted action is written before the call returns, every table comes back with its
seats, streams and cursors, altered rows are refused, and old tables expire (issue 51).

The PostgreSQL store runs the same tests against the server in ``TABLESTORE_POSTGRES``
(a libpq URL); without one reachable they skip, unless ``TABLESTORE_NEEDS_POSTGRES=1``
(CI), which makes them fail."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import spadeskit
from spadeskit.apps.store import PostgresStore, SQLiteStore, StoreError, TableStore
from tests.conftest import POSTGRES, fresh_postgres

KEY = "a server key of sixteen bytes or more"

Opener = Callable[..., TableStore]


def postgres_opener() -> Opener:
    url = fresh_postgres()
    return lambda **kw: PostgresStore(url, key=KEY, **kw)


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    opened: list[TableStore] = []

    def sqlite(**kw: Any) -> TableStore:
        return SQLiteStore(str(tmp_path / "tables.db"), key=KEY, **kw)

    make = sqlite if request.param == "sqlite" else postgres_opener()

    def opener(**kw: Any) -> TableStore:
        store = make(**kw)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        store.close()


def play(table: spadeskit.Table, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if table.game.is_over:
            return
        if table.bot_due:
            table.play_bots(1)
            continue
        seat = table.to_act
        assert seat is not None
        table.act(seat, rng.choice(table.game.legal_actions(seat)))


def assert_same(a: spadeskit.Table, b: spadeskit.Table) -> None:
    assert a.game == b.game and a.seats == b.seats and a.bots == b.bots
    for audience in (*range(a.rules.table.players), None):
        assert a.events(audience) == b.events(audience)


def test_every_table_comes_back_with_its_seats_streams_and_cursors(open_store: Opener) -> None:
    store = open_store()
    rules = spadeskit.load_rules("standard", ["blind-nil"], {"floor": -2000})
    tables = {}
    tokens = {}
    for i in range(3):
        table = spadeskit.Table(rules, key=KEY, bots={3: "simple"})
        name = store.add(table)
        tokens[name] = [table.join(f"p{s}", seat=s).token for s in range(3)]
        play(table, random.Random(i), moves=40 + 37 * i)  # mid-hand, and past a deal
        table.news(1)
        tables[name] = table
    again = open_store().load()
    assert again.keys() == tables.keys()
    for name, table in tables.items():
        assert_same(again[name], table)
        assert [again[name].seat_of(t) for t in tokens[name]] == [0, 1, 2]
        assert again[name].cursor(1) <= table.cursor(1)
        assert spadeskit.replay(again[name].record(), key=KEY) == table.game


def test_an_action_is_in_the_store_before_act_returns(open_store: Opener) -> None:
    store = open_store()
    table = spadeskit.Table(spadeskit.load_rules("standard"), key=KEY)
    name = store.add(table)
    reader = open_store()  # another server reading the same database
    rng = random.Random(5)
    for n in range(62):
        play(table, rng, moves=1)
        if n < 6 or n >= 50:  # the first actions, and those round a new deal (56)
            assert reader.load()[name].game == table.game


def test_a_failed_write_refuses_the_action_and_changes_nothing(open_store: Opener) -> None:
    store = open_store()
    table = spadeskit.Table(spadeskit.load_rules("standard"), key=KEY)
    name = store.add(table)
    store.remove(name)  # the row is gone: the next write fails
    before, cursor = table.game, table.events(0)[1]
    with pytest.raises(StoreError) as caught:
        table.act(table.to_act, "3")  # type: ignore[arg-type]
    assert caught.value.code == "no-table"
    assert table.game is before and table.events(0)[1] == cursor
    with pytest.raises(StoreError):
        table.join("Ann")
    assert table.seats == (None,) * 4


def test_an_altered_row_is_refused_when_loaded(tmp_path: Path) -> None:
    path = str(tmp_path / "t.db")
    store = SQLiteStore(path, key=KEY)
    table = spadeskit.Table(spadeskit.load_rules("standard"), key=KEY)
    store.add(table)
    play(table, random.Random(1), moves=6)
    db = sqlite3.connect(path)
    altered = '{"type":"bid","tricks":5}'
    db.execute("UPDATE spadeskit_actions SET action = ? WHERE n = 2", (altered,))
    db.commit()
    with pytest.raises(spadeskit.RecordError):
        SQLiteStore(path, key=KEY).load()
    with pytest.raises(spadeskit.RecordError):
        SQLiteStore(path, key="another key of sixteen bytes").load()


def test_finished_and_idle_tables_expire_on_their_own_clocks(open_store: Opener) -> None:
    store = open_store(finished_after=60, idle_after=3600)
    rules = spadeskit.load_rules("standard", [], {"target": 100})
    done = spadeskit.Table(rules, key=KEY, bots={s: "random" for s in range(4)})
    finished = store.add(done)
    while done.bot_due:
        done.play_bots(50)
    assert done.game.is_over
    idle = store.add(spadeskit.Table(rules, key=KEY))
    import time

    now = time.time()
    assert store.expire(now) == []
    assert store.expire(now + 61) == [finished]
    assert store.expire(now + 3601) == [idle]
    assert open_store().load() == {}


def test_a_store_refuses_a_table_it_could_not_rebuild(open_store: Opener) -> None:
    store = open_store()
    rules = spadeskit.load_rules("standard")
    with pytest.raises(StoreError):
        store.add(spadeskit.Table(rules, key="another key of sixteen bytes"))
    with pytest.raises(spadeskit.SpadesError) as caught:
        store.add(spadeskit.Table(rules, key=KEY, bots={1: spadeskit.bots.SimpleBot()}))
    assert caught.value.code == "unnamed-bot"
    name = store.add(spadeskit.Table(rules, key=KEY))
    with pytest.raises(StoreError):
        store.add(spadeskit.Table(rules, key=KEY), name)


def test_a_write_the_database_refuses_is_store_failed_and_changes_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "t.db"), key=KEY)
    table = spadeskit.Table(spadeskit.load_rules("standard"), key=KEY)
    store.add(table)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
    before, cursor = table.game, table.events(None)[1]
    with pytest.raises(StoreError) as caught:
        for _ in range(200):
            table.act(table.to_act, table.game.legal_actions()[0])  # type: ignore[arg-type]
            before, cursor = table.game, table.events(None)[1]
    assert caught.value.code == "store-failed" and "full" in str(caught.value)
    assert table.game is before and table.events(None)[1] == cursor
    store._db.execute(f"PRAGMA max_page_count = {pages * 100}")  # space again
    table.act(table.to_act, table.game.legal_actions()[0])  # type: ignore[arg-type]
    assert SQLiteStore(str(tmp_path / "t.db"), key=KEY).load().popitem()[1].game == table.game


def test_two_servers_writing_one_table_agree_or_are_refused(open_store: Opener) -> None:
    """The same action written again in its place (a write whose answer was lost) is
    accepted; another action in a place already written is refused ``store-failed``."""
    first, second = open_store(), open_store()
    table = spadeskit.Table(spadeskit.load_rules("standard"), key=KEY)
    name = first.add(table)
    table.act(table.to_act, "3")  # type: ignore[arg-type]
    other = second.load()[name]
    table.act(table.to_act, "4")  # type: ignore[arg-type]
    other.act(other.to_act, "4")  # type: ignore[arg-type]  # already there: accepted
    assert other.game == table.game
    table.act(table.to_act, "2")  # type: ignore[arg-type]
    before = other.game
    with pytest.raises(StoreError) as caught:
        other.act(other.to_act, "5")  # type: ignore[arg-type]
    assert caught.value.code == "store-failed" and other.game is before
    assert open_store().load()[name].game == table.game


def test_a_broken_database_connection_is_store_failed_then_reconnected() -> None:
    opener = postgres_opener()
    psycopg = pytest.importorskip("psycopg")
    store, reader = opener(), opener()
    try:
        table = spadeskit.Table(spadeskit.load_rules("standard"), key=KEY)
        name = store.add(table)
        with psycopg.connect(POSTGRES, autocommit=True) as admin:  # the server drops it
            admin.execute("SELECT pg_terminate_backend(%s)", (store._db.info.backend_pid,))
        before = table.game
        with pytest.raises(StoreError) as caught:
            table.act(table.to_act, "3")  # type: ignore[arg-type]
        assert caught.value.code == "store-failed" and table.game is before
        table.act(table.to_act, "3")  # type: ignore[arg-type]  # connected again
        assert reader.load()[name].game == table.game
    finally:
        store.close()
        reader.close()
