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

import json
import random
import secrets
import threading
from collections.abc import Mapping
from typing import Any

import attrs

from spadeskit.apps.messages import (
    bids_shown_message,
    hand_ended_message,
    hand_started_message,
    match_over_message,
)
from spadeskit.apps.text_input import parse_action
from spadeskit.bots.basic import Bot
from spadeskit.core.actions import Action, action_from_json
from spadeskit.core.cards import card_at
from spadeskit.core.errors import NotYourTurn, RecordError, SpadesError, shown
from spadeskit.core.events import BidMade
from spadeskit.core.results import HandResult
from spadeskit.core.state import REFEREE, GameState
from spadeskit.core.views import View
from spadeskit.engine.replay import replay_steps
from spadeskit.engine.rules import Rules, rules_of
from spadeskit.engine.telling import final_events, last_trick

__all__ = ["Connection", "Seat", "SeatError", "Table"]


class SeatError(SpadesError):
    """A seat that is taken or does not exist, or a token that is no seat's."""

    code = "bad-seat"


@attrs.frozen
class Seat:
    """A seat at a :class:`Table`: its number, the player's name and the secret token
    that proves a connection is that player (send it to that player only)."""

    seat: int
    name: str
    token: str = attrs.field(repr=False)


class Table:
    """A table for a server: the game, the seats and their event streams (see the
    module).

    ``rules`` are the loaded rules; ``seed`` deals reproducibly (default: from a
    secret); ``key`` signs :meth:`record` (keep it on the server); ``bots`` maps seats to
    bots (any object with ``choose(view) -> Action``), which act as soon as it is their
    turn, so a person can play against them.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        dealer: int = 0,
        key: bytes | str | None = None,
        bots: Mapping[int, Bot] | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise SpadesError(
                f"a Table needs loaded rules (spadeskit.load_rules), not {shown(rules)}"
            )
        self.rules = rules
        self._key = key
        self._lock = threading.RLock()
        self._seats: dict[int, Seat] = {}
        self._bots: dict[int, Bot] = {}
        self._start(rules.new_game(seed=seed, dealer=dealer))
        self._seat_bots(bots or {})

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
        """Return who sits where: a :class:`Seat` per seat, ``None`` where it is free."""
        with self._lock:
            return tuple(self._seats.get(s) for s in range(self.rules.table.players))

    def join(self, name: str = "", seat: int | None = None) -> Seat:
        """Seat a player (at ``seat``, or the first free seat) and return their
        :class:`Seat` with a new secret token; raise :class:`SeatError` if none is free."""
        with self._lock:
            n = self.rules.table.players
            if seat is None:
                free = [s for s in range(n) if s not in self._seats and s not in self._bots]
                if not free:
                    raise SeatError("the table is full: no seat is free")
                seat = free[0]
            if type(seat) is not int or not 0 <= seat < n:
                raise SeatError(f"seat {shown(seat, 20)} does not exist: seats are 0 to {n - 1}")
            if seat in self._seats or seat in self._bots:
                raise SeatError(f"seat {seat} ({self._name(seat)}) is taken", seat=seat)
            if not isinstance(name, str):
                raise SeatError(f"a player's name is text, not {shown(name, 20)}")
            taken = Seat(seat, name or self._name(seat), secrets.token_urlsafe(24))
            self._seats[seat] = taken
            return taken

    def leave(self, seat: int) -> None:
        """Free ``seat`` (its token no longer works); the game goes on."""
        with self._lock:
            self._seats.pop(self._check(seat), None)

    def seat_of(self, token: str) -> int:
        """Return the seat whose token is ``token``; raise :class:`SeatError` if none."""
        with self._lock:
            for taken in self._seats.values():
                if isinstance(token, str) and secrets.compare_digest(taken.token, token):
                    return taken.seat
        raise SeatError("that token is no seat's at this table: join again", code="bad-token")

    # -- playing --------------------------------------------------------------------------

    def act(self, seat: int, action: Action | str) -> Action:
        """Apply ``seat``'s action (an :class:`~spadeskit.core.actions.Action`, or text as a
        person types it, read by :func:`~spadeskit.parse_action`) and return it; the
        bots then act until a person is to act.  ``seat`` may be
        ``spadeskit.REFEREE`` for a referee's ruling.  A refused input raises a
        :class:`~spadeskit.core.errors.SpadesError` with ``code``, ``seat`` and ``action``,
        and changes nothing."""
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
                raise NotYourTurn(f"seat {seat} ({self._name(seat)}) is a bot's", seat=seat)
            self._apply(seat, action)
            self._run_bots()
            return action

    def _apply(self, seat: int, action: Action) -> None:
        before = self.game
        after = before.apply(action, seat)
        self.game = after
        if len(after.hand_results) > len(before.hand_results):  # one action ends one hand
            self._hand_ended(before, seat, action, after.hand_results[-1])
            if after.is_over:
                self._tell_all(match_over_message(self.game, self.rules.table))
            else:
                self._hand_started()
        else:
            self._catch_up()

    def _run_bots(self) -> None:
        game = self.game
        while not game.is_over and game.to_act in self._bots:
            seat = game.to_act
            assert seat is not None
            choice = self._bots[seat].choose(game.view(seat))
            self._apply(seat, choice)
            game = self.game

    # -- what each seat is told -----------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """Return the seat whose decision is pending, or ``None`` once the match is over."""
        with self._lock:
            return self.game.to_act

    def news(self, seat: int | None) -> list[dict[str, Any]]:
        """Return ``seat``'s events that this method has not returned yet (``None``: the
        spectators', who share one reader): the table keeps the cursor, for an app that
        does not want to keep one per seat itself (:meth:`events` takes one)."""
        with self._lock:
            if seat is not None:
                self._check(seat)
            stream = self._streams[seat]
            fresh = stream[self._read[seat] :]
            self._read[seat] = len(stream)
            return [dict(e) for e in fresh]

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

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            return {
                "record": self.game.to_record(key=self._key),
                "key": self._key,
                "seats": [attrs.astuple(s) for s in self._seats.values()],
                "bots": self._bots,
                "read": dict(self._read),
            }

    def __setstate__(self, state: dict[str, Any]) -> None:
        table = Table.from_record(state["record"], key=state["key"], bots=state["bots"])
        table._seats = {s: Seat(s, name, token) for s, name, token in state["seats"]}
        table._read.update(state.get("read", {}))
        self.__dict__.update(table.__dict__)

    @classmethod
    def from_record(
        cls,
        record: Mapping[str, Any],
        rules: Rules | None = None,
        *,
        key: bytes | str | None = None,
        bots: Mapping[int, Bot] | None = None,
    ) -> Table:
        """Rebuild a table from its record (checked with ``key`` when given, as
        :func:`~spadeskit.replay` checks it): the game and every stream as they were, so
        the cursors clients hold stay valid.  Seats are not in a record: players join
        again (or keep the table with ``pickle``, which keeps them)."""
        steps = iter(replay_steps(record, rules, key))
        start = next(steps).state
        table = cls.__new__(cls)
        table.rules = rules_of(start)
        table._key = key
        table._lock = threading.RLock()
        table._seats = {}
        table._bots = {}
        table._start(start)
        for step in steps:
            assert step.action is not None
            table._apply(step.seat if step.seat is not None else REFEREE, step.action)
            if step.state != table.game:
                raise RecordError("the record does not replay to the same table")
        table._seat_bots(bots or {})
        return table

    def _seat_bots(self, bots: Mapping[int, Bot]) -> None:
        """Seat the bots (each told its seat and the rules, as the arena does) and let
        them act if it is their turn."""
        if not isinstance(bots, Mapping):
            raise SpadesError(f"bots map seats to bots ({{2: bot}}), not {shown(bots)}")
        for seat, bot in bots.items():
            self._check(seat)
            if not callable(getattr(bot, "choose", None)):
                raise SpadesError(f"the bot for seat {seat} has no choose(view) method")
            reset = getattr(bot, "reset", None)
            if callable(reset):
                reset(seat, self.rules, random.Random(secrets.randbits(64)))
            self._bots[seat] = bot
        self._run_bots()


class Connection:
    """One client of a :class:`Table`, whatever carries its messages (a websocket, HTTP
    requests): the table's JSON protocol written once, so every server speaks it alike.

    Messages are JSON objects (text or already decoded):

    * ``{"join": "Ann"}`` (optionally ``"seat": 2``) seats the client and answers
      ``{"seated": 2, "token": "...", "name": "Ann"}``; ``{"rejoin": TOKEN}`` takes a
      seat back after a reconnect (``{"seated": 2}``); ``{"watch": true}`` makes the
      client a spectator (``{"watching": true}``).  Each is followed by an update.
    * ``{"act": "4"}`` (text, as a person types it) or ``{"act": {"type": "bid",
      "tricks": 4}}`` (an action's JSON) acts for the client's seat; every client of the
      table then needs an update (:meth:`receive` says so).
    * An update is ``{"events": [...], "view": {...}}``: the client's events since its
      last update and its view now, with a label beside each legal action.
    * A refused message is answered ``{"error": {"code", "seat", "action", "text"}}``
      and changes nothing.

    >>> import spadeskit
    >>> table = spadeskit.Table(spadeskit.load_rules("standard"), seed=1)
    >>> ann = Connection(table)
    >>> replies, changed = ann.receive('{"join": "Ann", "seat": 1}')
    >>> replies[0]["seated"], sorted(replies[1])
    (1, ['events', 'view'])
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

    def receive(
        self, message: str | bytes | Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], bool]:
        """Handle one message; return the replies for this client and whether the
        table changed (then send every client of the table its :meth:`update`)."""
        try:
            request = json.loads(message) if isinstance(message, (str, bytes)) else message
            if not isinstance(request, Mapping):
                raise SpadesError("send a JSON object", code="bad-message")
            if "act" in request:
                if self.seat is None:
                    raise SeatError("join a seat before you act", code="not-seated")
                what = request["act"]
                action = what if isinstance(what, str) else action_from_json(what)
                self.table.act(self.seat, action)
                return [], True
            if "rejoin" in request:
                reply: dict[str, Any] = {"seated": self.table.seat_of(request["rejoin"])}
            elif "join" in request:
                taken = self.table.join(str(request["join"]), request.get("seat"))
                reply = {"seated": taken.seat, "token": taken.token, "name": taken.name}
            elif request.get("watch") is True:
                reply = {"watching": True}
            else:
                raise SpadesError("send join, rejoin, watch or act", code="bad-message")
        except SpadesError as error:
            return [{"error": error.to_json()}], False
        except ValueError:  # json.JSONDecodeError
            unreadable = SpadesError("messages are JSON objects", code="bad-message")
            return [{"error": unreadable.to_json()}], False
        self.seat = reply.get("seated")
        self.attached, self.cursor = True, 0
        return [reply, self.update()], False

    def update(self) -> dict[str, Any]:
        """Return this client's events since its last update and its view now; ``{}``
        before it has joined or started watching."""
        if not self.attached:
            return {}
        events, self.cursor = self.table.events(self.seat, self.cursor)
        return {"events": events, "view": self.table.view_json(self.seat)}
