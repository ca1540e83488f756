"""The table service: the one object a server keeps per table.

A :class:`Table` owns a game (dealt from a secret unless given a seed), who sits in
which seat (each with a secret token, so a player who reconnects can take their seat
back), and one event stream per seat and one for spectators, numbered across hands::

    table = spadeskit.Table(spadeskit.load_rules("standard"), key=SERVER_KEY)
    north = table.join("Ann")                   # Seat(seat=0, name='Ann', token='...')
    events, cursor = table.events(0)            # everything seat 0 may know so far
    table.act(0, "4")                           # text, as typed, or an Action
    events, cursor = table.events(0, since=cursor)

:attr:`Table.to_act` says whose turn it is, and :meth:`Table.news` gives a seat what it has
not seen yet, the table keeping the cursor.

Each stream entry is JSON data with ``"type"`` and ``"hand"`` (an index from 0, as
``view.hand_number`` and records count hands; the ``"text"`` counts from 1, as people
do, so the event of ``"hand": 0`` says "hand 1"): the
hand's events as :mod:`spadeskit.core.events` gives them (``"bid"``, ``"card-played"``,
``"trick-won"`` …), and the table's own: ``"hand-started"`` (the dealer, and the cards
this seat holds), ``"bids-shown"`` (sealed bids opened), ``"hand-ended"`` (the last
trick with all its cards and its winner, the books, the score lines, the points and
the totals; every seat receives it before the next hand's first event) and
``"match-over"``.  A stream never holds what its seat may not know.

A refused input raises a :class:`~spadeskit.core.errors.SpadesError` whose ``code``,
``seat``, ``action`` and ``text`` an app can send back as they are
(:meth:`~spadeskit.core.errors.SpadesError.to_json`); the table is unchanged.

The table is thread-safe: every method takes the table's lock, so threads of one server
may share it.  An asyncio server calls it from the event loop (no call makes more than
``bot_moves`` bot actions; :meth:`Table.play_bots` moves them at the server's pace, from
a worker thread if it likes).  A :class:`~spadeskit.TableStore` keeps a table so that a
crash loses nothing (every change is written before the call returns); ``pickle`` and
:meth:`Table.snapshot` keep the record, the seats (their tokens' digests), the bots'
names and the cursors, and :meth:`Table.from_record` rebuilds a table from its signed
record alone (the streams are replayed, so cursors stay valid).
"""

from __future__ import annotations

import random
import secrets
import threading
from collections.abc import Mapping
from typing import Any, Protocol

import attrs

from spadeskit.apps.seating import Seat, Seats
from spadeskit.apps.streams import Streams
from spadeskit.apps.text_input import parse_action
from spadeskit.arena.matchplay import bot_class
from spadeskit.bots.basic import Bot
from spadeskit.core.actions import Action
from spadeskit.core.errors import NotYourTurn, RecordError, SpadesError, shown
from spadeskit.core.records import sign
from spadeskit.core.state import REFEREE, GameState
from spadeskit.core.views import View
from spadeskit.engine.replay import replay_steps
from spadeskit.engine.rules import Rules, rules_of

__all__ = ["BOT_MOVES", "Journal", "Settings", "Table", "made_bot"]


class Journal(Protocol):
    """Where a table writes itself as it changes (a :class:`~spadeskit.TableStore`):
    each write happens before the change is made, and a write that raises stops it."""

    def keep(self, table: Table, game: GameState) -> None:
        """Write the whole table, with ``game`` as its game."""

    def append(self, table: Table, seat: int, action: Action) -> None:
        """Write one more action of the hand (no new deal) after the last write."""


BOT_MOVES = 8
"""How many bot actions one call of a :class:`Table` makes at most (see
:meth:`Table.play_bots`)."""


class Table:
    """A table for a server: the game, the seats and their event streams (see the
    module).

    ``rules`` are the loaded rules; ``seed`` deals reproducibly (default: from a
    secret); ``key`` signs :meth:`record` (keep it on the server; at least 16 bytes);
    ``bots`` maps seats to bots: any object with ``choose(view) -> Action``, or the name
    of one of :mod:`spadeskit.arena`'s bots (``"simple"``), which a store can rebuild.
    Bots act when it is their turn, at most ``bot_moves`` actions per call (see
    :meth:`play_bots`; 0: only when the server calls it), so no call plays a whole
    match.  ``abandon_after`` (seconds)
    frees a seat whose player's connection is gone that long (:meth:`reap`), or gives it
    to a ``stand_in`` bot (a bot name) when one is named.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        dealer: int = 0,
        key: bytes | str | None = None,
        bots: Mapping[int, Bot | str] | None = None,
        bot_moves: int = BOT_MOVES,
        abandon_after: float | None = None,
        stand_in: str | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise SpadesError(
                f"a Table needs loaded rules (spadeskit.load_rules), not {shown(rules)}"
            )
        if key is not None:
            sign({}, key)  # refuses a key too short to sign with now, not at record()
        self._setup(rules, key, Settings(bot_moves, abandon_after, stand_in))
        self._start(rules.new_game(seed=seed, dealer=dealer))
        self._seat_bots(bots or {})

    def _setup(self, rules: Rules, key: bytes | str | None, settings: Settings) -> None:
        self.rules = rules
        self._key = key
        self._settings = settings
        self._lock = threading.RLock()
        self._sitting = Seats(rules.table.seat_names)
        self._bots: dict[int, Bot] = {}
        self._bot_specs: dict[int, str] = {}
        self._journal: Journal | None = None

    def _start(self, game: GameState) -> None:
        self.game = game
        self._told = Streams(game, self.rules.table)

    @property
    def seats(self) -> tuple[Seat | None, ...]:
        """Return who sits where: a :class:`Seat` (without its token) per seat, ``None``
        where it is free."""
        with self._lock:
            return self._sitting.public()

    @property
    def bots(self) -> dict[int, str]:
        """Return the seats bots play, each with the bot's name (as a store keeps it)."""
        with self._lock:
            return dict(self._bot_specs)

    def join(self, name: str = "", seat: int | None = None) -> Seat:
        """Seat a player (at ``seat``, or the first free seat) and return their
        :class:`Seat` with a new secret token; raise :class:`SeatError` if none is free.
        A name is text of at most :data:`~spadeskit.apps.seating.NAME_LENGTH` printable
        characters."""
        with self._lock:
            taken = self._sitting.sit(name, seat, self._bots)
            try:
                self._save(self.game)
            except BaseException:
                self._sitting.free(taken.seat)
                raise
            return taken

    def leave(self, seat: int) -> None:
        """Free ``seat`` (its token no longer works); the game goes on."""
        with self._lock:
            kept = self._sitting.free(self._sitting.check(seat))
            if kept is not None:
                try:
                    self._save(self.game)
                except BaseException:
                    self._sitting.taken[seat] = kept
                    raise

    def seat_of(self, token: str) -> int:
        """Return the seat whose token is ``token``; raise :class:`SeatError` if none."""
        with self._lock:
            return self._sitting.find(token)

    def attach(self, seat: int, holder: object) -> object | None:
        """Make ``holder`` (a :class:`~spadeskit.Connection`, say) the one live
        connection of ``seat`` and return the one it replaces, if any: the newest wins,
        and the server tells the old one and closes it."""
        with self._lock:
            return self._sitting.attach(seat, holder)

    def detach(self, seat: int, holder: object, now: float | None = None) -> None:
        """Note that ``holder``'s connection to ``seat`` is gone (at ``now``, by
        :func:`time.monotonic`); the seat counts as abandoned from then (see
        :meth:`reap`) unless a newer connection holds it."""
        with self._lock:
            self._sitting.detach(seat, holder, now)

    def orphan(self, now: float | None = None) -> None:
        """Count every seat with no live connection as abandoned from ``now`` (a
        server that has just restarted calls it: nobody is connected yet)."""
        with self._lock:
            self._sitting.orphan(now)

    def reap(self, now: float | None = None) -> list[int]:
        """Free each seat abandoned for ``abandon_after`` seconds or more, or seat the
        ``stand_in`` bot there; return those seats (then call :meth:`play_bots` if
        :attr:`bot_due`).  Nothing happens without ``abandon_after``."""
        with self._lock:
            if self._settings.abandon_after is None:
                return []
            gone = self._sitting.abandoned(now, self._settings.abandon_after)
            for seat in gone:
                if self._settings.stand_in is not None:
                    self._add_bot(seat, self._settings.stand_in)
            if gone:
                self._save(self.game)
            return gone

    def act(self, seat: int, action: Action | str) -> Action:
        """Apply ``seat``'s action (an :class:`~spadeskit.core.actions.Action`, or text as a
        person types it, read by :func:`~spadeskit.parse_action`) and return it; the
        bots then act, at most ``bot_moves`` times (see :meth:`play_bots`).  ``seat``
        may be ``spadeskit.REFEREE`` for a referee's ruling.  A refused input raises a
        :class:`~spadeskit.core.errors.SpadesError` with ``code``, ``seat`` and
        ``action``, and changes nothing; the action is in the table's store (if it has
        one) before this returns."""
        with self._lock:
            if seat != REFEREE or type(seat) is not int:
                self._sitting.check(seat)
            if isinstance(action, str):
                action = _read(action, self.game, seat)
            if seat in self._bots:
                raise NotYourTurn(
                    f"seat {seat} ({self._sitting.names[seat]}) is a bot's",
                    seat=seat,
                    action=action,
                )
            self._apply(seat, action)
            self.play_bots(self._settings.bot_moves)
            return action

    @property
    def bot_due(self) -> bool:
        """Return whether a bot is to act (then call :meth:`play_bots`)."""
        with self._lock:
            return not self.game.is_over and self.game.to_act in self._bots

    def play_bots(self, limit: int = 1) -> int:
        """Let the bots act, at most ``limit`` times, and return how many actions they
        made (0 when no bot is to act).

        A server calls it while :attr:`bot_due`, at its own pace (a bots-only table
        advances only so), and may call it from a worker thread: a bot chooses
        outside the table's lock, so other calls are not held up while it thinks.
        """
        if type(limit) is not int:
            raise SpadesError(f"play_bots takes a whole number of moves, not {shown(limit, 20)}")
        moves = 0
        while moves < limit and _bot_move(self):
            moves += 1
        return moves

    def _apply(self, seat: int, action: Action) -> None:
        before = self.game
        after = before.apply(action, seat)
        if self._journal is not None:
            if len(after.hand_results) != len(before.hand_results):
                self._journal.keep(self, after)  # a new deal: the whole table again
            else:
                self._journal.append(self, seat, action)
        self.game = after
        self._told.after(before, seat, action, after)

    def _save(self, game: GameState) -> None:
        """Write the whole table (with ``game``) to its store before anyone is told."""
        if self._journal is not None:
            self._journal.keep(self, game)

    @property
    def to_act(self) -> int | None:
        """Return the seat whose decision is pending, or ``None`` once the match is over."""
        with self._lock:
            return self.game.to_act

    def news(self, seat: int | None, since: int | None = None) -> list[dict[str, Any]]:
        """Return ``seat``'s events that this method has not returned yet (``None``: the
        spectators', who share one reader): the table keeps the cursor, for an app that
        does not want to keep one per seat itself (:meth:`events` takes one).  ``since``
        (a cursor this table gave) starts from there instead, for a client that lost
        what it was sent."""
        with self._lock:
            return self._told.news(self._audience(seat), since)

    def cursor(self, seat: int | None) -> int:
        """Return where :meth:`news` will start for ``seat`` next time."""
        with self._lock:
            return self._told.read[self._audience(seat)]

    def events(self, seat: int | None, since: int = 0) -> tuple[list[dict[str, Any]], int]:
        """Return ``seat``'s events from position ``since`` on (``None``: a spectator's)
        and the cursor to ask from next time; cursors run across hands."""
        with self._lock:
            return self._told.events(self._audience(seat), since)

    def view(self, seat: int | None) -> View:
        """Return ``seat``'s view of the game now (``None``: a spectator's), built once
        per change of the game."""
        with self._lock:
            return self._told.views.view(self.game, seat)

    def view_json(self, seat: int | None) -> dict[str, Any]:
        """Return ``seat``'s view as JSON data, with a label beside each legal action."""
        return self.view(seat).to_json()

    def view_text(self, seat: int | None) -> str:
        """Return :meth:`view_json`'s data as JSON text, built once per change of the
        game for each seat and once for every spectator (what a server sends; see
        :class:`~spadeskit.apps.viewtexts.ViewTexts`)."""
        with self._lock:
            return self._told.views.text(self.game, seat)

    def record(self) -> dict[str, Any]:
        """Return the game's record, signed with the table's key if it has one."""
        with self._lock:
            return self.game.to_record(key=self._key)

    def _audience(self, seat: object) -> int | None:
        return None if seat is None else self._sitting.check(seat)

    def snapshot(self, game: GameState | None = None) -> dict[str, Any]:
        """Return what a store keeps of the table as JSON data: the signed record (of
        ``game``, default the table's), the seats with their tokens' digests, the bots'
        names, the news cursors and the table's settings.  :meth:`from_snapshot`
        rebuilds the table from it."""
        return _state(self, game, named=True)

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any], *, key: bytes | str | None) -> Table:
        """Rebuild a table from :meth:`snapshot`'s data (its record checked with ``key``):
        the game, every stream and cursor, the seats (their old tokens still work) and
        the bots.  The bots do not act until :meth:`play_bots` is called."""
        return _restored(snapshot, key)

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            unnamed = {s: b for s, b in self._bots.items() if s not in self._bot_specs}
            return {"snapshot": _state(self, None, named=False), "key": self._key, "bots": unnamed}

    def __setstate__(self, state: dict[str, Any]) -> None:
        table = Table.from_snapshot(state["snapshot"], key=state["key"])
        table._bots.update(state["bots"])
        self.__dict__.update(table.__dict__)

    @classmethod
    def from_record(
        cls,
        record: Mapping[str, Any],
        rules: Rules | None = None,
        *,
        key: bytes | str | None = None,
        bots: Mapping[int, Bot | str] | None = None,
    ) -> Table:
        """Rebuild a table from its record (checked with ``key`` when given, as
        :func:`~spadeskit.replay` checks it): the game and every stream as they were, so
        the cursors clients hold stay valid.  Seats are not in a record: players join
        again (or keep the table with :meth:`snapshot` or ``pickle``, which keep them)."""
        table = _replayed(record, rules, key, Settings())
        table._seat_bots(bots or {})
        return table

    def _seat_bots(self, bots: Mapping[int, Bot | str]) -> None:
        """Seat the bots (each told its seat and the rules, as the arena does) and let
        them act if it is their turn."""
        if not isinstance(bots, Mapping):
            raise SpadesError(f"bots map seats to bots ({{2: bot}}), not {shown(bots)}")
        for seat, bot in bots.items():
            self._sitting.check(seat)
            self._add_bot(seat, bot)
        self.play_bots(self._settings.bot_moves)

    def _add_bot(self, seat: int, given: Bot | str) -> None:
        self._bots[seat] = made_bot(given, seat, self.rules)
        if isinstance(given, str):
            self._bot_specs[seat] = given


@attrs.frozen
class Settings:
    """How a table runs (see :class:`Table`): ``bot_moves``, ``abandon_after`` and
    ``stand_in``, checked when made."""

    bot_moves: int = BOT_MOVES
    abandon_after: float | None = None
    stand_in: str | None = None

    def __attrs_post_init__(self) -> None:
        if type(self.bot_moves) is not int or self.bot_moves < 0:
            raise SpadesError(
                f"bot_moves is a whole number of 0 or more, not {shown(self.bot_moves)}"
            )
        after = self.abandon_after
        if after is not None and (not isinstance(after, (int, float)) or not after >= 0):
            raise SpadesError(f"abandon_after is seconds (0 or more), not {shown(after)}")
        if self.stand_in is not None:
            bot_class(self.stand_in)  # an unknown bot is refused now, not when a seat is left


def made_bot(given: Bot | str, seat: int, rules: Rules) -> Bot:
    """Return the bot for ``seat`` (``given``, or a new one of the arena's bot named
    ``given``), told its seat and the rules as the arena tells them."""
    bot: Bot = bot_class(given)() if isinstance(given, str) else given
    if not callable(getattr(bot, "choose", None)):
        raise SpadesError(f"the bot for seat {seat} has no choose(view) method")
    reset = getattr(bot, "reset", None)
    if callable(reset):
        reset(seat, rules, random.Random(secrets.randbits(64)))
    return bot


def _read(text: str, game: GameState, seat: int) -> Action:
    """Return the action ``text`` names for ``seat`` (or the referee) in ``game``."""
    if seat == REFEREE:
        view = attrs.evolve(game.view(None), legal_actions=game.legal_actions(REFEREE))
    else:
        view = game.view(seat)
    return parse_action(text, view, game=game)


def _bot_move(table: Table) -> bool:
    """Let the bot whose turn it is act (choosing outside the table's lock); return
    False if no bot is to act."""
    while True:
        with table._lock:
            game = table.game
            seat = game.to_act
            if game.is_over or seat not in table._bots:
                return False
            bot = table._bots[seat]
            view = game.view(seat)
        choice = bot.choose(view)
        with table._lock:
            if table.game is game:  # else another caller moved first: look again
                table._apply(seat, choice)
                return True


def _state(table: Table, game: GameState | None, *, named: bool) -> dict[str, Any]:
    """Return :meth:`Table.snapshot`'s data (``named``: refuse bots given as objects,
    else leave them out)."""
    with table._lock:
        if named and table._bot_specs.keys() != table._bots.keys():
            raise SpadesError(
                "a table with bots given as objects cannot be kept: name them "
                "(bots={2: 'simple'}) so the table can be rebuilt",
                code="unnamed-bot",
            )
        game = table.game if game is None else game
        told = table._told.read
        return {
            # The deal of a hand nobody has acted in yet too: its players have seen it.
            "record": game.to_record(key=table._key, current_deal=True),
            "seats": {str(s): list(kept) for s, kept in table._sitting.taken.items()},
            "bots": {str(s): spec for s, spec in table._bot_specs.items()},
            "read": {str(a): n for a, n in told.items() if a is not None},
            "watchers_read": told[None],
            "settings": attrs.asdict(table._settings),
        }


def _restored(snapshot: Mapping[str, Any], key: bytes | str | None) -> Table:
    """Return the table :meth:`Table.snapshot` gave ``snapshot`` of (see
    :meth:`Table.from_snapshot`)."""
    try:
        table = _replayed(snapshot["record"], None, key, Settings(**snapshot["settings"]))
        _restore(table, snapshot)
    except SpadesError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise RecordError(f"not a table's snapshot: {type(exc).__name__} {exc}") from None
    return table


def _restore(table: Table, snapshot: Mapping[str, Any]) -> None:
    """Give a table rebuilt from a snapshot's record its seats, bots and cursors."""
    for seat, (name, digest) in snapshot["seats"].items():
        table._sitting.taken[table._sitting.check(int(seat))] = (str(name), str(digest))
    for seat, spec in snapshot["bots"].items():
        table._add_bot(table._sitting.check(int(seat)), str(spec))
    for seat, cursor in {**snapshot["read"], "": snapshot["watchers_read"]}.items():
        audience = table._audience(int(seat) if seat else None)
        table._told.read[audience] = min(int(cursor), table._told.length(audience))


def _replayed(
    record: Mapping[str, Any], rules: Rules | None, key: bytes | str | None, settings: Settings
) -> Table:
    """Return a table (no seats, no bots) whose game and streams are ``record``'s."""
    steps = iter(replay_steps(record, rules, key))
    start = next(steps).state
    table = Table.__new__(Table)
    table._setup(rules_of(start), key, settings)
    table._start(start)
    for step in steps:
        assert step.action is not None
        table._apply(step.seat if step.seat is not None else REFEREE, step.action)
        if step.state != table.game:
            raise RecordError("the record does not replay to the same table")
    return table
