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
may share it.  An asyncio server calls it from the event loop (the methods never block
for long).  ``pickle`` keeps only the record and the seats, and
:meth:`Table.from_record` rebuilds a table from its signed record: a restarted server
loses nothing (the streams are replayed, so cursors stay valid).
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import threading
import time
from collections.abc import Mapping
from typing import Any, Protocol

import attrs

from spadeskit.apps.messages import (
    bids_shown_message,
    hand_ended_message,
    hand_started_message,
    match_over_message,
)
from spadeskit.apps.text_input import parse_action
from spadeskit.arena.matchplay import bot_class
from spadeskit.bots.basic import Bot
from spadeskit.core.actions import Action, action_from_json
from spadeskit.core.cards import card_at
from spadeskit.core.errors import NotYourTurn, RecordError, SpadesError, shown
from spadeskit.core.events import BidMade
from spadeskit.core.records import sign
from spadeskit.core.results import HandResult
from spadeskit.core.state import REFEREE, GameState
from spadeskit.core.views import View
from spadeskit.engine.replay import replay_steps
from spadeskit.engine.rules import Rules, rules_of
from spadeskit.engine.telling import final_events, last_trick

__all__ = [
    "BOT_MOVES",
    "MESSAGE_DEPTH",
    "MESSAGE_SIZE",
    "NAME_LENGTH",
    "Connection",
    "Seat",
    "SeatError",
    "Table",
    "token_digest",
]


def _seconds(now: object) -> float:
    """Return ``now`` as a time in seconds, or raise SpadesError."""
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not -1e18 < now < 1e18:
        raise SpadesError(f"a time is a number of seconds, not {shown(now, 20)}")
    return float(now)


class Journal(Protocol):
    """Where a table writes itself as it changes (a :class:`~spadeskit.TableStore`):
    each write happens before the change is made, and a write that raises stops it."""

    def keep(self, table: Table, game: GameState) -> None:
        """Write the whole table, with ``game`` as its game."""

    def append(self, table: Table, seat: int, action: Action) -> None:
        """Write one more action of the hand (no new deal) after the last write."""


class SeatError(SpadesError):
    """A seat that is taken or does not exist, or a token that is no seat's."""

    code = "bad-seat"


BOT_MOVES = 8
"""How many bot actions one call of a :class:`Table` makes at most (see
:meth:`Table.play_bots`)."""

NAME_LENGTH = 40
"""The longest player name a table takes, in characters."""


def token_digest(token: str) -> str:
    """Return the SHA-256 of a seat's token, as a table and its store keep it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@attrs.frozen
class Seat:
    """A seat at a :class:`Table`: its number, the player's name and the secret token
    that proves a connection is that player (only :meth:`Table.join` gives it: send it
    to that player only; the table keeps its digest, never the token)."""

    seat: int
    name: str
    token: str = attrs.field(default="", repr=False)


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
        self._setup(rules, key, bot_moves, abandon_after, stand_in)
        self._start(rules.new_game(seed=seed, dealer=dealer))
        self._seat_bots(bots or {})

    def _setup(
        self,
        rules: Rules,
        key: bytes | str | None,
        bot_moves: int,
        abandon_after: float | None,
        stand_in: str | None,
    ) -> None:
        if type(bot_moves) is not int or bot_moves < 0:
            raise SpadesError(f"bot_moves is a whole number of 0 or more, not {shown(bot_moves)}")
        if abandon_after is not None and (
            not isinstance(abandon_after, (int, float)) or not abandon_after >= 0
        ):
            raise SpadesError(f"abandon_after is seconds (0 or more), not {shown(abandon_after)}")
        if stand_in is not None:
            bot_class(stand_in)  # an unknown bot is refused now, not when a seat is abandoned
        self.rules = rules
        self._key = key
        self._lock = threading.RLock()
        self._seats: dict[int, tuple[str, str]] = {}  # seat: (name, token digest)
        self._bots: dict[int, Bot] = {}
        self._bot_specs: dict[int, str] = {}
        self._bot_moves = bot_moves
        self._abandon_after = abandon_after
        self._stand_in = stand_in
        self._holders: dict[int, object] = {}
        self._gone_since: dict[int, float] = {}
        self._journal: Journal | None = None

    # -- setting up -----------------------------------------------------------------------

    def _start(self, game: GameState) -> None:
        self.game = game
        n = self.rules.table.players
        self._audiences: tuple[int | None, ...] = (*range(n), None)
        self._streams: dict[int | None, list[dict[str, Any]]] = {a: [] for a in self._audiences}
        self._told: dict[int | None, int] = {a: 0 for a in self._audiences}
        self._read: dict[int | None, int] = {a: 0 for a in self._audiences}
        self._bids: dict[int | None, tuple[Action | None, ...]] = {}
        self._hand_started()

    @property
    def seats(self) -> tuple[Seat | None, ...]:
        """Return who sits where: a :class:`Seat` (without its token) per seat, ``None``
        where it is free."""
        with self._lock:
            return tuple(
                Seat(s, self._seats[s][0]) if s in self._seats else None
                for s in range(self.rules.table.players)
            )

    @property
    def bots(self) -> dict[int, str]:
        """Return the seats bots play, each with the bot's name (as a store keeps it)."""
        with self._lock:
            return dict(self._bot_specs)

    def join(self, name: str = "", seat: int | None = None) -> Seat:
        """Seat a player (at ``seat``, or the first free seat) and return their
        :class:`Seat` with a new secret token; raise :class:`SeatError` if none is free.
        A name is text of at most :data:`NAME_LENGTH` printable characters."""
        with self._lock:
            n = self.rules.table.players
            if not isinstance(name, str):
                raise SeatError(f"a player's name is text, not {shown(name, 20)}", code="bad-name")
            if len(name) > NAME_LENGTH or not name.isprintable():
                raise SeatError(
                    f"a player's name is at most {NAME_LENGTH} printable characters",
                    code="bad-name",
                )
            if seat is None:
                free = [s for s in range(n) if s not in self._seats and s not in self._bots]
                if not free:
                    raise SeatError("the table is full: no seat is free")
                seat = free[0]
            if type(seat) is not int or not 0 <= seat < n:
                raise SeatError(f"seat {shown(seat, 20)} does not exist: seats are 0 to {n - 1}")
            if seat in self._seats or seat in self._bots:
                raise SeatError(f"seat {seat} ({self._name(seat)}) is taken", seat=seat)
            taken = Seat(seat, name or self._name(seat), secrets.token_urlsafe(24))
            self._seats[seat] = (taken.name, token_digest(taken.token))
            try:
                self._save(self.game)
            except BaseException:
                del self._seats[seat]
                raise
            return taken

    def leave(self, seat: int) -> None:
        """Free ``seat`` (its token no longer works); the game goes on."""
        with self._lock:
            self._check(seat)
            if seat in self._seats:
                kept = self._seats.pop(seat)
                try:
                    self._save(self.game)
                except BaseException:
                    self._seats[seat] = kept
                    raise
            self._holders.pop(seat, None)
            self._gone_since.pop(seat, None)

    def seat_of(self, token: str) -> int:
        """Return the seat whose token is ``token``; raise :class:`SeatError` if none."""
        if isinstance(token, str) and len(token) <= 100:
            digest = token_digest(token)
            with self._lock:
                for seat, (_, kept) in self._seats.items():
                    if secrets.compare_digest(kept, digest):
                        return seat
        raise SeatError("that token is no seat's at this table: join again", code="bad-token")

    # -- connections ----------------------------------------------------------------------

    def attach(self, seat: int, holder: object) -> object | None:
        """Make ``holder`` (a :class:`Connection`, say) the one live connection of
        ``seat`` and return the one it replaces, if any: the newest wins, and the server
        tells the old one and closes it."""
        with self._lock:
            self._check(seat)
            old = self._holders.get(seat)
            self._holders[seat] = holder
            self._gone_since.pop(seat, None)
            return old if old is not holder else None

    def detach(self, seat: int, holder: object, now: float | None = None) -> None:
        """Note that ``holder``'s connection to ``seat`` is gone (at ``now``, by
        :func:`time.monotonic`); the seat counts as abandoned from then (see
        :meth:`reap`) unless a newer connection holds it."""
        with self._lock:
            if self._holders.get(seat) is holder:
                del self._holders[seat]
                self._gone_since[seat] = time.monotonic() if now is None else _seconds(now)

    def orphan(self, now: float | None = None) -> None:
        """Count every seat with no live connection as abandoned from ``now`` (a
        server that has just restarted calls it: nobody is connected yet)."""
        with self._lock:
            start = time.monotonic() if now is None else _seconds(now)
            for seat in self._seats:
                if seat not in self._holders:
                    self._gone_since.setdefault(seat, start)

    def reap(self, now: float | None = None) -> list[int]:
        """Free each seat abandoned for ``abandon_after`` seconds or more, or seat the
        ``stand_in`` bot there; return those seats (then call :meth:`play_bots` if
        :attr:`bot_due`).  Nothing happens without ``abandon_after``."""
        with self._lock:
            if self._abandon_after is None:
                return []
            clock = time.monotonic() if now is None else _seconds(now)
            gone = [
                s
                for s, since in sorted(self._gone_since.items())
                if clock - since >= self._abandon_after and s in self._seats
            ]
            for seat in gone:
                self._seats.pop(seat)
                self._gone_since.pop(seat)
                if self._stand_in is not None:
                    self._add_bot(seat, self._stand_in)
            if gone:
                self._save(self.game)
            return gone

    # -- playing --------------------------------------------------------------------------

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
                self._check(seat)
            game = self.game
            if isinstance(action, str):
                if seat == REFEREE:
                    view = attrs.evolve(game.view(None), legal_actions=game.legal_actions(REFEREE))
                else:
                    view = game.view(seat)
                action = parse_action(action, view, game=game)
            if seat in self._bots:
                raise NotYourTurn(
                    f"seat {seat} ({self._name(seat)}) is a bot's", seat=seat, action=action
                )
            self._apply(seat, action)
            self.play_bots(self._bot_moves)
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
        while moves < limit:
            with self._lock:
                game = self.game
                seat = game.to_act
                if game.is_over or seat not in self._bots:
                    break
                bot = self._bots[seat]
                view = game.view(seat)
            choice = bot.choose(view)
            with self._lock:
                if self.game is game:  # else another caller moved first: look again
                    self._apply(seat, choice)
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
        if len(after.hand_results) > len(before.hand_results):  # one action ends one hand
            self._hand_ended(before, seat, action, after.hand_results[-1])
            if after.is_over:
                self._tell_all(match_over_message(self.game, self.rules.table))
            else:
                self._hand_started()
        else:
            self._catch_up()

    def _save(self, game: GameState) -> None:
        """Write the whole table (with ``game``) to its store before anyone is told."""
        if self._journal is not None:
            self._journal.keep(self, game)

    # -- what each seat is told -----------------------------------------------------------

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
            if seat is not None:
                self._check(seat)
            fresh, cursor = self.events(seat, self._read[seat] if since is None else since)
            self._read[seat] = cursor
            return fresh

    def cursor(self, seat: int | None) -> int:
        """Return where :meth:`news` will start for ``seat`` next time."""
        with self._lock:
            if seat is not None:
                self._check(seat)
            return self._read[seat]

    def events(self, seat: int | None, since: int = 0) -> tuple[list[dict[str, Any]], int]:
        """Return ``seat``'s events from position ``since`` on (``None``: a spectator's)
        and the cursor to ask from next time; cursors run across hands."""
        with self._lock:
            if seat is not None:
                self._check(seat)
            stream = self._streams[seat]
            if type(since) is not int or not 0 <= since <= len(stream):
                raise SpadesError(
                    f"since is a cursor this table gave (0 to {len(stream)}), not {shown(since)}",
                    code="bad-cursor",
                )
            return [dict(e) for e in stream[since:]], len(stream)

    def view(self, seat: int | None) -> View:
        """Return ``seat``'s view of the game now (``None``: a spectator's)."""
        with self._lock:
            return self.game.view(seat)

    def view_json(self, seat: int | None) -> dict[str, Any]:
        """Return ``seat``'s view as JSON data, with a label beside each legal action."""
        return self.view(seat).to_json()

    def record(self) -> dict[str, Any]:
        """Return the game's record, signed with the table's key if it has one."""
        with self._lock:
            return self.game.to_record(key=self._key)

    def _name(self, seat: int) -> str:
        return self.rules.table.seat_names[seat]

    def _check(self, seat: object) -> int:
        n = self.rules.table.players
        if type(seat) is not int or not 0 <= seat < n:
            raise SeatError(f"seat {shown(seat, 20)} does not exist: seats are 0 to {n - 1}")
        return seat

    def _tell(self, audience: int | None, event: dict[str, Any]) -> None:
        self._streams[audience].append(event)

    def _tell_all(self, event: dict[str, Any]) -> None:
        for audience in self._audiences:
            self._tell(audience, dict(event))

    def _hand_started(self) -> None:
        game = self.game
        for audience in self._audiences:
            view = game.view(audience)
            self._tell(audience, hand_started_message(view, self.rules.table.seat_names))
            self._told[audience] = 0
            self._bids[audience] = view.bids
        self._catch_up()

    def _catch_up(self) -> None:
        """Send each audience the hand's events it has not had yet."""
        game = self.game
        for audience in self._audiences:
            view = game.view(audience)
            fresh = view.events[self._told[audience] :]
            for event in fresh:
                self._tell(audience, {**event.to_json(), "hand": view.hand_number})
            self._told[audience] = len(view.events)
            opened = [
                s
                for s, (old, new) in enumerate(zip(self._bids[audience], view.bids, strict=True))
                if old is None and new is not None
            ]
            told = {e.seat for e in fresh if isinstance(e, BidMade) and e.bid is not None}
            if any(s not in told for s in opened):
                self._tell(audience, bids_shown_message(view, self.rules.table.seat_names))
            self._bids[audience] = view.bids

    def _hand_ended(self, before: GameState, seat: int, action: Action, result: HandResult) -> None:
        """Tell every audience how the hand ended: the events of its last action (which
        no view shows, as the next view is the next hand's) and the hand's result."""
        # Every audience was told all of ``before``'s events after the action before it.
        trick = [[s, card_at(c).code] for s, c in last_trick(before, seat, action, result)]
        for audience in self._audiences:
            for event in final_events(before, seat, action, result, audience):
                self._tell(audience, {**event.to_json(), "hand": result.number})
        self._tell_all(hand_ended_message(result, trick, self.rules.table))

    # -- keeping it ----------------------------------------------------------------------

    def snapshot(self, game: GameState | None = None) -> dict[str, Any]:
        """Return what a store keeps of the table as JSON data: the signed record (of
        ``game``, default the table's), the seats with their tokens' digests, the bots'
        names, the news cursors and the table's settings.  :meth:`from_snapshot`
        rebuilds the table from it."""
        with self._lock:
            if self._bot_specs.keys() != self._bots.keys():
                raise SpadesError(
                    "a table with bots given as objects cannot be kept: name them "
                    "(bots={2: 'simple'}) so the table can be rebuilt",
                    code="unnamed-bot",
                )
            return self._state(game)

    def _state(self, game: GameState | None) -> dict[str, Any]:
        with self._lock:
            game = self.game if game is None else game
            game.to_act  # noqa: B018  (a secret deal is made when first looked at: look now, so the record holds it)
            return {
                "record": game.to_record(key=self._key),
                "seats": {str(s): list(kept) for s, kept in self._seats.items()},
                "bots": {str(s): spec for s, spec in self._bot_specs.items()},
                "read": {str(a): n for a, n in self._read.items() if a is not None},
                "watchers_read": self._read[None],
                "bot_moves": self._bot_moves,
                "abandon_after": self._abandon_after,
                "stand_in": self._stand_in,
            }

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any], *, key: bytes | str | None) -> Table:
        """Rebuild a table from :meth:`snapshot`'s data (its record checked with ``key``):
        the game, every stream and cursor, the seats (their old tokens still work) and
        the bots.  The bots do not act until :meth:`play_bots` is called."""
        try:
            table = cls._rebuild(
                snapshot["record"],
                None,
                key,
                snapshot["bot_moves"],
                snapshot["abandon_after"],
                snapshot["stand_in"],
            )
            n = table.rules.table.players
            for seat, (name, digest) in snapshot["seats"].items():
                table._seats[table._check(int(seat))] = (str(name), str(digest))
            for seat, spec in snapshot["bots"].items():
                table._add_bot(table._check(int(seat)), str(spec))
            for seat, cursor in snapshot["read"].items():
                table._read[table._check(int(seat))] = min(
                    int(cursor), len(table._streams[int(seat)])
                )
            table._read[None] = min(int(snapshot["watchers_read"]), len(table._streams[None]))
        except SpadesError:
            raise
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise RecordError(f"not a table's snapshot: {type(exc).__name__} {exc}") from None
        assert len(table._audiences) == n + 1
        return table

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            unnamed = {s: b for s, b in self._bots.items() if s not in self._bot_specs}
            return {"snapshot": self._state(None), "key": self._key, "bots": unnamed}

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
        table = cls._rebuild(record, rules, key, BOT_MOVES, None, None)
        table._seat_bots(bots or {})
        return table

    @classmethod
    def _rebuild(
        cls,
        record: Mapping[str, Any],
        rules: Rules | None,
        key: bytes | str | None,
        bot_moves: int,
        abandon_after: float | None,
        stand_in: str | None,
    ) -> Table:
        steps = iter(replay_steps(record, rules, key))
        start = next(steps).state
        table = cls.__new__(cls)
        table._setup(rules_of(start), key, bot_moves, abandon_after, stand_in)
        table._start(start)
        for step in steps:
            assert step.action is not None
            table._apply(step.seat if step.seat is not None else REFEREE, step.action)
            if step.state != table.game:
                raise RecordError("the record does not replay to the same table")
        return table

    def _seat_bots(self, bots: Mapping[int, Bot | str]) -> None:
        """Seat the bots (each told its seat and the rules, as the arena does) and let
        them act if it is their turn."""
        if not isinstance(bots, Mapping):
            raise SpadesError(f"bots map seats to bots ({{2: bot}}), not {shown(bots)}")
        for seat, bot in bots.items():
            self._check(seat)
            self._add_bot(seat, bot)
        self.play_bots(self._bot_moves)

    def _add_bot(self, seat: int, given: Bot | str) -> None:
        spec = given if isinstance(given, str) else None
        bot: Bot = bot_class(given)() if isinstance(given, str) else given
        if not callable(getattr(bot, "choose", None)):
            raise SpadesError(f"the bot for seat {seat} has no choose(view) method")
        reset = getattr(bot, "reset", None)
        if callable(reset):
            reset(seat, self.rules, random.Random(secrets.randbits(64)))
        self._bots[seat] = bot
        if spec is not None:
            self._bot_specs[seat] = spec


MESSAGE_SIZE = 4096
"""The longest message a :class:`Connection` reads, in characters (or bytes)."""

MESSAGE_DEPTH = 4
"""How deep a message may nest (``{"act": {"cards": [...]}}`` is 3 deep)."""


def _depth(value: object) -> int:
    """Return how deep ``value`` nests lists and objects, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _too_deep(text: str | bytes) -> bool:
    """Return whether JSON ``text`` opens more than :data:`MESSAGE_DEPTH` brackets at
    once (counted before parsing, so nothing deep is ever parsed)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth, in_string, escaped = 0, False, False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > MESSAGE_DEPTH:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


class Connection:
    """One client of a :class:`Table`, whatever carries its messages (a websocket, HTTP
    requests): the table's JSON protocol written once, so every server speaks it alike.

    Messages are JSON objects (text or already decoded), at most
    :data:`MESSAGE_SIZE` characters and :data:`MESSAGE_DEPTH` levels deep:

    * ``{"join": "Ann"}`` (optionally ``"seat": 2``) seats the client and answers
      ``{"seated": 2, "token": "...", "name": "Ann"}``; ``{"rejoin": TOKEN}`` takes a
      seat back after a reconnect (``{"seated": 2}``), and the updates go on from what
      the seat was last sent (``"since": CURSOR`` starts from a cursor of an earlier
      update instead); ``{"watch": true}`` makes the client a spectator
      (``{"watching": true}``).  Each is followed by an update.  A connection holds one
      seat (or watches) for good, and a seat has one live connection: a newer one for
      the same seat replaces it (:attr:`replaced`).
    * ``{"act": "4"}`` (text, as a person types it) or ``{"act": {"type": "bid",
      "tricks": 4}}`` (an action's JSON) acts for the client's seat; every client of the
      table then needs an update (:meth:`receive` says so).
    * An update is ``{"events": [...], "view": {...}, "cursor": n}``: the client's events
      since its last update, its view now (with a label beside each legal action) and
      the cursor to rejoin from.
    * A refused message is answered ``{"error": {"code", "seat", "action", "text"}}``
      and changes nothing.

    >>> import spadeskit
    >>> table = spadeskit.Table(spadeskit.load_rules("standard"), seed=1)
    >>> ann = Connection(table)
    >>> replies, changed = ann.receive('{"join": "Ann", "seat": 1}')
    >>> replies[0]["seated"], sorted(replies[1])
    (1, ['cursor', 'events', 'view'])
    >>> ann.receive({"act": "bid 99"})[0][0]["error"]["code"]
    'bid-not-allowed'
    >>> ann.receive({"act": "4"})
    ([], True)
    >>> [event["text"] for event in ann.update()["events"]]
    ['E bids 4']
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seat: int | None = None
        self.attached = False
        self.cursor = 0
        self._since: int | None = None
        self.replaced = False
        """Whether a newer connection took this one's seat: send its last
        :meth:`update` (which says so) and close it."""

    def receive(
        self, message: str | bytes | Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], bool]:
        """Handle one message; return the replies for this client and whether the
        table changed (then send every client of the table its :meth:`update`).  Nothing
        a client sends makes it raise."""
        try:
            request = self._read(message)
            if "act" in request:
                if self.seat is None or self.replaced:
                    raise SeatError("join a seat before you act", code="not-seated")
                what = request["act"]
                action = what if isinstance(what, str) else action_from_json(what)
                self.table.act(self.seat, action)
                return [], True
            if self.attached:
                raise SeatError(
                    "this connection already has its seat (or watches): open another to "
                    "take another",
                    code="already-seated",
                )
            since = request.get("since")
            if "rejoin" in request:
                seat = self.table.seat_of(request["rejoin"])
                if since is not None:
                    self.table.events(seat, since)  # a bad cursor is refused here
                reply: dict[str, Any] = {"seated": seat}
            elif "join" in request:
                taken = self.table.join(request["join"], request.get("seat"))
                seat, since = taken.seat, 0  # a new player is sent the seat's whole stream
                reply = {"seated": seat, "token": taken.token, "name": taken.name}
            elif request.get("watch") is True:
                seat = None
                if since is not None:
                    self.table.events(None, since)
                reply = {"watching": True}
            else:
                raise SpadesError("send join, rejoin, watch or act", code="bad-message")
        except SpadesError as error:
            return [{"error": error.to_json()}], False
        except (ValueError, RecursionError):  # json.JSONDecodeError, or deeper than Python
            unreadable = SpadesError("messages are JSON objects", code="bad-message")
            return [{"error": unreadable.to_json()}], False
        self.seat, self.attached = seat, True
        self._since = since
        replaced = False
        if seat is not None:
            old = self.table.attach(seat, self)
            if isinstance(old, Connection):
                old.replaced = replaced = True
        return [reply, self.update()], replaced

    @staticmethod
    def _read(message: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
        if isinstance(message, (str, bytes)):
            if len(message) > MESSAGE_SIZE:
                raise SpadesError(
                    f"a message is at most {MESSAGE_SIZE} characters", code="bad-message"
                )
            if _too_deep(message):
                raise SpadesError(
                    f"a message nests at most {MESSAGE_DEPTH} levels", code="bad-message"
                )
            request = json.loads(message)
        else:
            request = message
        if not isinstance(request, Mapping):
            raise SpadesError("send a JSON object", code="bad-message")
        if _depth(request) > MESSAGE_DEPTH:
            raise SpadesError(f"a message nests at most {MESSAGE_DEPTH} levels", code="bad-message")
        return request

    @property
    def resuming(self) -> bool:
        """Return whether the next :meth:`update` starts from a cursor the client gave
        (after a rejoin with ``since``) rather than from its last update."""
        return self._since is not None

    def update(self) -> dict[str, Any]:
        """Return this client's events since its last update, its view now and its
        cursor; ``{}`` before it has joined or started watching.  A connection whose seat
        a newer one took gets ``{"error": {"code": "replaced", ...}}`` instead."""
        if self.replaced:
            gone = SeatError(
                "this seat was taken by a newer connection with its token", code="replaced"
            )
            return {"error": gone.to_json()}
        if not self.attached:
            return {}
        if self.seat is None:
            since = self.cursor if self._since is None else self._since
            events, self.cursor = self.table.events(None, since)
        else:
            events = self.table.news(self.seat, since=self._since)
            self.cursor = self.table.cursor(self.seat)
        self._since = None
        return {"events": events, "view": self.table.view_json(self.seat), "cursor": self.cursor}

    def close(self) -> None:
        """Say that the client is gone: its seat counts as abandoned from now (see
        :meth:`Table.reap`), unless a newer connection holds it."""
        if self.seat is not None:
            self.table.detach(self.seat, self)
