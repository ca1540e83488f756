"""What each audience of a table has been told: one event stream per seat and one for
spectators, numbered across hands, with a reader's cursor each (see
:mod:`spadeskit.apps.service` for what the events are), and what it sees now
(:class:`~spadeskit.apps.viewtexts.ViewTexts`)."""

from __future__ import annotations

from typing import Any

from spadeskit.apps.messages import (
    bids_shown_message,
    hand_ended_message,
    hand_started_message,
    match_over_message,
)
from spadeskit.apps.viewtexts import ViewTexts
from spadeskit.core.actions import Action
from spadeskit.core.cards import card_at
from spadeskit.core.errors import SpadesError, shown
from spadeskit.core.events import BidMade
from spadeskit.core.seating import TableSpec
from spadeskit.core.state import GameState
from spadeskit.engine.telling import final_events, last_trick

__all__ = ["Streams"]

Audience = int | None
"""A seat, or ``None`` for the spectators."""


class Streams:
    """The event streams of a table's audiences (each seat, and the spectators), kept
    up to date with the game: call :meth:`after` with each action the game takes.

    Not thread-safe on its own: the :class:`~spadeskit.apps.service.Table` that owns it holds its
    lock around every call.
    """

    def __init__(self, game: GameState, table: TableSpec) -> None:
        self.table = table
        self.audiences: tuple[Audience, ...] = (*range(table.players), None)
        self._streams: dict[Audience, list[dict[str, Any]]] = {a: [] for a in self.audiences}
        self._told: dict[Audience, int] = dict.fromkeys(self.audiences, 0)
        self.read: dict[Audience, int] = dict.fromkeys(self.audiences, 0)
        """Where each audience's reader (:meth:`news`) starts next time."""
        self.views = ViewTexts()
        """Each audience's view of the game now, and its JSON text (the streams are
        written from the same views)."""
        self._bids: dict[Audience, tuple[Action | None, ...]] = {}
        self._hand_started(game)

    def after(self, before: GameState, seat: int, action: Action, game: GameState) -> None:
        """Tell every audience what ``action`` by ``seat`` made of ``before``: ``game``."""
        if len(game.hand_results) > len(before.hand_results):  # one action ends one hand
            self._hand_ended(before, seat, action, game)
            if game.is_over:
                self._tell_all(match_over_message(game, self.table))
            else:
                self._hand_started(game)
        else:
            self._catch_up(game)

    def events(self, audience: Audience, since: int) -> tuple[list[dict[str, Any]], int]:
        """Return ``audience``'s events from ``since`` on and the cursor after them."""
        stream = self._streams[audience]
        if type(since) is not int or not 0 <= since <= len(stream):
            raise SpadesError(
                f"since is a cursor this table gave (0 to {len(stream)}), not {shown(since)}",
                code="bad-cursor",
            )
        return [dict(e) for e in stream[since:]], len(stream)

    def news(self, audience: Audience, since: int | None) -> list[dict[str, Any]]:
        """Return ``audience``'s events from its reader's cursor (or ``since``) on, and
        move the cursor past them."""
        fresh, self.read[audience] = self.events(
            audience, self.read[audience] if since is None else since
        )
        return fresh

    def length(self, audience: Audience) -> int:
        """Return how many events ``audience``'s stream holds."""
        return len(self._streams[audience])

    def _tell_all(self, event: dict[str, Any]) -> None:
        for audience in self.audiences:
            self._streams[audience].append(dict(event))

    def _hand_started(self, game: GameState) -> None:
        for audience in self.audiences:
            view = self.views.view(game, audience)
            self._streams[audience].append(hand_started_message(view, self.table.seat_names))
            self._told[audience] = 0
            self._bids[audience] = view.bids
        self._catch_up(game)

    def _catch_up(self, game: GameState) -> None:
        """Send each audience the hand's events it has not had yet."""
        for audience in self.audiences:
            view = self.views.view(game, audience)
            fresh = view.events[self._told[audience] :]
            stream = self._streams[audience]
            for event in fresh:
                stream.append({**event.to_json(), "hand": view.hand_number})
            self._told[audience] = len(view.events)
            opened = [
                s
                for s, (old, new) in enumerate(zip(self._bids[audience], view.bids, strict=True))
                if old is None and new is not None
            ]
            told = {e.seat for e in fresh if isinstance(e, BidMade) and e.bid is not None}
            if any(s not in told for s in opened):
                stream.append(bids_shown_message(view, self.table.seat_names))
            self._bids[audience] = view.bids

    def _hand_ended(self, before: GameState, seat: int, action: Action, game: GameState) -> None:
        """Tell every audience how the hand ended: the events of its last action (which
        no view shows, as the next view is the next hand's) and the hand's result."""
        # Every audience was told all of ``before``'s events after the action before it.
        result = game.hand_results[-1]
        trick = [[s, card_at(c).code] for s, c in last_trick(before, seat, action, result)]
        for audience in self.audiences:
            for event in final_events(before, seat, action, result, audience):
                self._streams[audience].append({**event.to_json(), "hand": result.number})
        self._tell_all(hand_ended_message(result, trick, self.table))
