"""Durable tables: a :class:`TableStore` keeps every table a server runs, so a crash or
a restart loses nothing.

A store keeps one row per table: the table's :meth:`~spadeskit.apps.service.Table.snapshot` (its
signed record, which is the log of every accepted action, the seats with their tokens'
SHA-256 digests, never the tokens, the bots' names and the news cursors), whether the
match is over, and when the row was last written::

    store = SQLiteStore("tables.db", key=SERVER_KEY)
    tables = store.load()                       # {id: Table}: every table kept, rebuilt
    table = spadeskit.Table(rules, key=SERVER_KEY, bots={2: "simple"})
    name = store.add(table)                     # from now on every change is written
    table.act(0, "4")                           # in the store before act() returns

Every accepted action, join, leave and bot move is written before the call that made it
returns, and a failed write leaves the table unchanged (the call raises
:class:`StoreError`: ``store-failed`` when the database could not write, so the player
may try again), so nothing a player was told can be lost.  :meth:`TableStore.load`
rebuilds every table (the record is replayed and checked with the key, so streams and
cursors are as they were, and the seats' old tokens still work) and counts their seats
abandoned from now.

Tables expire (:meth:`TableStore.expire`, which a server calls now and then): a
finished match ``finished_after`` seconds after its last write (default an hour, so
players can read the end), any other table after ``idle_after`` seconds with no write
(default a day).

:class:`SQLiteStore` (the standard library's ``sqlite3``, in WAL mode) serves one
server process; :class:`PostgresStore` (the ``postgres`` extra, psycopg 3) serves
several processes or machines sharing one database, each table served by one of them
at a time (a table's action written by another server is refused ``store-failed``;
the same action written again, after a write whose answer was lost, is accepted).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from spadeskit.apps.seating import seconds
from spadeskit.apps.service import Table
from spadeskit.core.actions import Action
from spadeskit.core.errors import RecordError, SpadesError, install_hint, shown
from spadeskit.core.records import sign
from spadeskit.core.state import GameState

__all__ = [
    "CONNECT_TIMEOUT",
    "FINISHED_AFTER",
    "IDLE_AFTER",
    "PostgresStore",
    "SQLiteStore",
    "StoreError",
    "TableStore",
]

FINISHED_AFTER = 3600.0
"""Seconds a finished table is kept after its last write, by default."""

IDLE_AFTER = 86400.0
"""Seconds an unfinished table is kept with no write, by default."""

CONNECT_TIMEOUT = 5
"""Seconds a :class:`PostgresStore` waits to connect, unless its connection string
says otherwise."""


class StoreError(SpadesError):
    """A table the store does not have, or a store that cannot be used as asked;
    ``store-failed`` when the database could not write (nothing changed: try again)."""

    code = "bad-store"


def _failed(exc: Exception) -> StoreError:
    """Return the error a table raises when its store's database refused a write."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return StoreError(
        f"the tables' database failed ({first[:200]}): nothing was changed, try again",
        code="store-failed",
    )


def _conflict(name: str, n: int) -> StoreError:
    """Return the error for an action whose place in the store holds another action."""
    return StoreError(
        f"the store already holds another action {n} of table {name!r} (another server "
        "wrote it): load the table again",
        code="store-failed",
    )


class TableStore:
    """What every store does; a subclass says how rows are written (see the module).

    ``key`` is the tables' signing key (every table added must have it; records and
    the actions appended to them are checked with it when tables are loaded).
    """

    def __init__(
        self,
        *,
        key: bytes | str,
        finished_after: float = FINISHED_AFTER,
        idle_after: float = IDLE_AFTER,
    ) -> None:
        for name, value in (("finished_after", finished_after), ("idle_after", idle_after)):
            if not isinstance(value, (int, float)) or not value >= 0:
                raise StoreError(f"{name} is seconds (0 or more), not {shown(value)}")
        sign({}, key)  # a key too short to sign with is refused now
        self.key = key
        self._mac_key = key.encode("utf-8") if isinstance(key, str) else key
        self.finished_after = float(finished_after)
        self.idle_after = float(idle_after)
        self._lock = threading.Lock()
        self._tails: dict[str, tuple[int, str]] = {}  # name: (actions kept, last MAC)

    # -- what a server calls ----------------------------------------------------------------

    def add(self, table: Table, name: str | None = None) -> str:
        """Keep ``table`` (under ``name``, default a new random one) and return its name;
        from now on every change of the table is written before the call that made it
        returns."""
        if not isinstance(table, Table):
            raise StoreError(f"a store keeps spadeskit.Table objects, not {shown(table)}")
        if table._key != self.key:
            raise StoreError("a table kept in a store is signed with the store's key")
        name = secrets.token_urlsafe(8) if name is None else name
        if not isinstance(name, str) or not 0 < len(name) <= 100:
            raise StoreError(
                f"a table's name is text of 1 to 100 characters, not {shown(name, 20)}"
            )
        with table._lock:
            self._keep(name, table, table.game, insert=True)
            table._journal = _Journal(self, name)
        return name

    def load(self) -> dict[str, Table]:
        """Return every table kept, by name, rebuilt as it was last written and kept
        in this store from now on; their seats count as abandoned from now (see
        :meth:`spadeskit.apps.service.Table.reap`) until their players come back.  Raise
        :class:`~spadeskit.RecordError` if a table's rows were altered."""
        tables = {}
        for name, snapshot, actions in self._rows():
            try:
                kept = json.loads(snapshot)
                table = Table.from_snapshot(kept, key=self.key)
                count, mac = len(kept["record"]["actions"]), str(kept["record"].get("mac"))
                for n, seat, action, given in actions:
                    mac = self._chain(mac, name, n, seat, action)
                    if n != count or not hmac.compare_digest(mac, given):
                        raise RecordError(f"action {n} in the store was altered")
                    table._apply(seat, table.rules.action_from_json(json.loads(action)))
                    count += 1
            except SpadesError as error:
                raise RecordError(f"table {name!r} cannot be rebuilt: {error}") from None
            except (ValueError, KeyError, TypeError) as exc:  # rows that are not JSON we wrote
                raise RecordError(f"table {name!r} cannot be rebuilt: {exc}") from None
            self._tails[name] = (count, mac)
            table._journal = _Journal(self, name)
            table.orphan()
            tables[name] = table
        return tables

    def expire(self, now: float | None = None) -> list[str]:
        """Forget the finished and idle tables whose time is up (see the module) and
        return their names; a server drops them from memory too."""
        clock = time.time() if now is None else seconds(now)
        gone = self._delete_old(clock - self.finished_after, clock - self.idle_after)
        for name in gone:
            self._tails.pop(name, None)
        return gone

    def remove(self, name: str) -> None:
        """Forget the table ``name``."""
        if not isinstance(name, str):
            raise StoreError(f"a table's name is text, not {shown(name, 20)}")
        self._delete(name)
        self._tails.pop(name, None)

    def close(self) -> None:
        """Close the store's connection to its database."""

    # -- how a table is written -----------------------------------------------------------

    def _keep(self, name: str, table: Table, game: GameState, *, insert: bool) -> None:
        snapshot = table.snapshot(game)
        text = json.dumps(snapshot, separators=(",", ":"))
        self._put_table(name, text, game.is_over, time.time(), insert)
        self._tails[name] = (len(snapshot["record"]["actions"]), str(snapshot["record"]["mac"]))

    def _append(self, name: str, seat: int, action: Action) -> None:
        if name not in self._tails:
            raise StoreError(f"the store no longer has table {name!r}", code="no-table")
        count, mac = self._tails[name]
        text = json.dumps(action.to_json(), separators=(",", ":"))
        mac = self._chain(mac, name, count, seat, text)
        self._put_action(name, count, seat, text, mac, time.time())
        self._tails[name] = (count + 1, mac)

    def _chain(self, mac: str, name: str, n: int, seat: int, action: str) -> str:
        """Return the MAC of the ``n``-th action, chained to the one before it."""
        text = json.dumps([mac, name, n, seat, action], separators=(",", ":"))
        return hmac.new(self._mac_key, text.encode("utf-8"), hashlib.sha256).hexdigest()

    # -- how a subclass writes rows ----------------------------------------------------------

    def _put_table(self, name: str, snapshot: str, over: bool, now: float, insert: bool) -> None:
        """Write the table's row and drop its appended actions, in one transaction."""
        raise NotImplementedError

    def _put_action(self, name: str, n: int, seat: int, action: str, mac: str, now: float) -> None:
        """Append an action to the table's rows, in one transaction.  The same action
        in the same place (same MAC) is already there after a write whose answer was
        lost: nothing to do; another action there raises ``store-failed``."""
        raise NotImplementedError

    def _rows(self) -> list[tuple[str, str, list[tuple[int, int, str, str]]]]:
        """Return each table's name, snapshot and appended actions (in order)."""
        raise NotImplementedError

    def _delete_old(self, finished_before: float, idle_before: float) -> list[str]:
        raise NotImplementedError

    def _delete(self, name: str) -> None:
        raise NotImplementedError


class _Journal:
    """A table's link to its store (see :class:`spadeskit.apps.service.Journal`)."""

    def __init__(self, store: TableStore, name: str) -> None:
        self.store = store
        self.name = name

    def keep(self, table: Table, game: GameState) -> None:
        self.store._keep(self.name, table, game, insert=False)

    def append(self, table: Table, seat: int, action: Action) -> None:
        self.store._append(self.name, seat, action)


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS spadeskit_tables (
        name TEXT PRIMARY KEY,
        snapshot TEXT NOT NULL,
        over BOOLEAN NOT NULL,
        written DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS spadeskit_actions (
        name TEXT NOT NULL,
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        mac TEXT NOT NULL,
        PRIMARY KEY (name, n)
    )""",
)


class SQLiteStore(TableStore):
    """A store in one SQLite file (WAL mode), for one server process.

    Each write is committed before the table's call returns; with ``durable=False``
    (the default) a commit survives a crash of the process, with ``durable=True`` it
    also survives a crash of the machine (SQLite's ``synchronous=FULL``: an fsync per
    write).
    """

    def __init__(
        self,
        path: str,
        *,
        key: bytes | str,
        finished_after: float = FINISHED_AFTER,
        idle_after: float = IDLE_AFTER,
        durable: bool = False,
    ) -> None:
        super().__init__(key=key, finished_after=finished_after, idle_after=idle_after)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        for statement in _SCHEMA:
            self._db.execute(statement)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:  # SQLite ends some failed ones itself
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:  # a full disk, a locked or damaged file
                raise _failed(exc) from None

    def _put_table(self, name: str, snapshot: str, over: bool, now: float, insert: bool) -> None:
        with self._transaction() as db:
            if insert:
                try:
                    db.execute(
                        "INSERT INTO spadeskit_tables VALUES (?, ?, ?, ?)",
                        (name, snapshot, over, now),
                    )
                except sqlite3.IntegrityError:
                    raise StoreError(f"the store already has a table {name!r}") from None
            else:
                done = db.execute(
                    "UPDATE spadeskit_tables SET snapshot = ?, over = ?, written = ? "
                    "WHERE name = ?",
                    (snapshot, over, now, name),
                )
                if done.rowcount != 1:
                    raise StoreError(f"the store no longer has table {name!r}", code="no-table")
            db.execute("DELETE FROM spadeskit_actions WHERE name = ?", (name,))

    def _put_action(self, name: str, n: int, seat: int, action: str, mac: str, now: float) -> None:
        with self._transaction() as db:
            done = db.execute("UPDATE spadeskit_tables SET written = ? WHERE name = ?", (now, name))
            if done.rowcount != 1:
                raise StoreError(f"the store no longer has table {name!r}", code="no-table")
            added = db.execute(
                "INSERT INTO spadeskit_actions VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (name, n, seat, action, mac),
            )
            if added.rowcount != 1:
                (kept,) = db.execute(
                    "SELECT mac FROM spadeskit_actions WHERE name = ? AND n = ?", (name, n)
                ).fetchone()
                if kept != mac:
                    raise _conflict(name, n)

    def _rows(self) -> list[tuple[str, str, list[tuple[int, int, str, str]]]]:
        with self._transaction():  # one snapshot of both tables
            tables = self._db.execute(
                "SELECT name, snapshot FROM spadeskit_tables ORDER BY name"
            ).fetchall()
            actions: dict[str, list[tuple[int, int, str, str]]] = {}
            for name, n, seat, action, mac in self._db.execute(
                "SELECT name, n, seat, action, mac FROM spadeskit_actions ORDER BY name, n"
            ):
                actions.setdefault(name, []).append((n, seat, action, mac))
        return [(str(n), str(s), actions.get(n, [])) for n, s in tables]

    def _delete_old(self, finished_before: float, idle_before: float) -> list[str]:
        with self._transaction() as db:
            gone = db.execute(
                "DELETE FROM spadeskit_tables WHERE (over AND written < ?) OR written < ? "
                "RETURNING name",
                (finished_before, idle_before),
            ).fetchall()
            for (name,) in gone:
                db.execute("DELETE FROM spadeskit_actions WHERE name = ?", (name,))
        return sorted(str(n) for (n,) in gone)

    def _delete(self, name: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM spadeskit_tables WHERE name = ?", (name,))
            db.execute("DELETE FROM spadeskit_actions WHERE name = ?", (name,))

    def close(self) -> None:
        """Close the SQLite file."""
        with self._lock:
            self._db.close()


class PostgresStore(TableStore):
    """A store in a PostgreSQL database (psycopg 3, the ``postgres`` extra), for servers
    that run several processes or machines; ``conninfo`` is a libpq connection string
    (``"postgresql://user@host/db"``; the password best in ``~/.pgpass`` or
    ``PGPASSWORD``, not in the string).  Each write is committed before the table's call
    returns.

    A write the database refuses, or a connection that broke, raises ``store-failed``
    and changes nothing; the next write connects again.  Unless ``conninfo`` says
    otherwise, a connection attempt gives up after :data:`CONNECT_TIMEOUT` seconds, so
    a database that is down does not hold a server's event loop for long.
    """

    def __init__(
        self,
        conninfo: str,
        *,
        key: bytes | str,
        finished_after: float = FINISHED_AFTER,
        idle_after: float = IDLE_AFTER,
    ) -> None:
        super().__init__(key=key, finished_after=finished_after, idle_after=idle_after)
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                f"PostgresStore needs psycopg: {install_hint('postgres')}", code="no-psycopg"
            ) from None
        self._psycopg = psycopg
        try:
            if "connect_timeout" not in psycopg.conninfo.conninfo_to_dict(conninfo):
                conninfo = psycopg.conninfo.make_conninfo(conninfo, connect_timeout=CONNECT_TIMEOUT)
        except (psycopg.Error, TypeError) as exc:
            raise StoreError(f"not a PostgreSQL connection string: {exc}") from None
        self._conninfo = conninfo
        self._db: Any = None
        with self._transaction() as cursor:
            for statement in _SCHEMA:
                cursor.execute(statement)

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._lock:
            try:
                if self._db is None or self._db.closed or self._db.broken:
                    self._db = self._psycopg.connect(self._conninfo, autocommit=True)
                with self._db.transaction(), self._db.cursor() as cursor:
                    yield cursor
            except self._psycopg.Error as exc:  # the server is down, a broken connection
                raise _failed(exc) from None

    def _put_table(self, name: str, snapshot: str, over: bool, now: float, insert: bool) -> None:
        with self._transaction() as cursor:
            if insert:
                cursor.execute(
                    "INSERT INTO spadeskit_tables VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    (name, snapshot, over, now),
                )
                if cursor.rowcount != 1:
                    raise StoreError(f"the store already has a table {name!r}")
            else:
                cursor.execute(
                    "UPDATE spadeskit_tables SET snapshot = %s, over = %s, written = %s "
                    "WHERE name = %s",
                    (snapshot, over, now, name),
                )
                if cursor.rowcount != 1:
                    raise StoreError(f"the store no longer has table {name!r}", code="no-table")
            cursor.execute("DELETE FROM spadeskit_actions WHERE name = %s", (name,))

    def _put_action(self, name: str, n: int, seat: int, action: str, mac: str, now: float) -> None:
        with self._transaction() as cursor:
            cursor.execute("UPDATE spadeskit_tables SET written = %s WHERE name = %s", (now, name))
            if cursor.rowcount != 1:
                raise StoreError(f"the store no longer has table {name!r}", code="no-table")
            cursor.execute(
                "INSERT INTO spadeskit_actions VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (name, n, seat, action, mac),
            )
            if cursor.rowcount != 1:
                cursor.execute(
                    "SELECT mac FROM spadeskit_actions WHERE name = %s AND n = %s", (name, n)
                )
                (kept,) = cursor.fetchone()
                if kept != mac:
                    raise _conflict(name, n)

    def _rows(self) -> list[tuple[str, str, list[tuple[int, int, str, str]]]]:
        with self._transaction() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            cursor.execute("SELECT name, snapshot FROM spadeskit_tables ORDER BY name")
            tables = cursor.fetchall()
            cursor.execute(
                "SELECT name, n, seat, action, mac FROM spadeskit_actions ORDER BY name, n"
            )
            actions: dict[str, list[tuple[int, int, str, str]]] = {}
            for name, n, seat, action, mac in cursor.fetchall():
                actions.setdefault(name, []).append((n, seat, action, mac))
        return [(str(n), str(s), actions.get(n, [])) for n, s in tables]

    def _delete_old(self, finished_before: float, idle_before: float) -> list[str]:
        with self._transaction() as cursor:
            cursor.execute(
                "DELETE FROM spadeskit_tables WHERE (over AND written < %s) OR written < %s "
                "RETURNING name",
                (finished_before, idle_before),
            )
            gone = [str(n) for (n,) in cursor.fetchall()]
            cursor.execute("DELETE FROM spadeskit_actions WHERE name = ANY(%s)", (gone,))
        return sorted(gone)

    def _delete(self, name: str) -> None:
        with self._transaction() as cursor:
            cursor.execute("DELETE FROM spadeskit_tables WHERE name = %s", (name,))
            cursor.execute("DELETE FROM spadeskit_actions WHERE name = %s", (name,))

    def close(self) -> None:
        """Close the connection to the database."""
        with self._lock:
            if self._db is not None:
                self._db.close()
