"""Each audience's view of a table, built once per change: the :class:`~spadeskit.core.views.View`
and its JSON text, kept until the game moves on (see :class:`ViewTexts`)."""

from __future__ import annotations

import json

import attrs

from spadeskit.core.events import Event
from spadeskit.core.state import GameState
from spadeskit.core.views import View

__all__ = ["ViewTexts"]

Audience = int | None
"""A seat, or ``None`` for the spectators."""


class ViewTexts:
    """The views of one game state, one per audience (each seat, and the spectators),
    and their JSON text, made when first asked for and kept until the state changes: a
    change costs one view and one text per audience however many clients read them.

    A view's JSON holds every event of the hand so far; each event is turned into JSON
    once and its text kept beside it for the next view of the same audience, so an
    update costs its new events, not the whole hand again.  An event is a frozen value,
    so the kept text of the same event object is its text; an event the view shows
    differently (a sealed bid, then the bid) is a different object and is turned into
    JSON anew.  Texts are strings and views frozen: nothing handed out changes later.

    Not thread-safe on its own: the :class:`~spadeskit.apps.service.Table` that owns it
    holds its lock around every call.
    """

    def __init__(self) -> None:
        self._game: GameState | None = None
        self._views: dict[Audience, View] = {}
        self._texts: dict[Audience, str] = {}
        self._events: dict[Audience, tuple[tuple[Event, ...], list[str]]] = {}

    def view(self, game: GameState, audience: Audience) -> View:
        """Return ``audience``'s view of ``game`` (the seat is checked by the caller)."""
        if game is not self._game:
            self._game, self._views, self._texts = game, {}, {}
        view = self._views.get(audience)
        if view is None:
            view = self._views[audience] = game.view(audience)
        return view

    def text(self, game: GameState, audience: Audience) -> str:
        """Return ``audience``'s view of ``game`` as JSON text: the data of
        :meth:`View.to_json <spadeskit.core.views.View.to_json>`."""
        view = self.view(game, audience)
        text = self._texts.get(audience)
        if text is None:
            text = self._texts[audience] = self._text(view, audience)
        return text

    def _text(self, view: View, audience: Audience) -> str:
        events = view.events
        kept, texts = self._events.get(audience, ((), []))
        fresh = [
            texts[i] if i < len(kept) and kept[i] is event else json.dumps(event.to_json())
            for i, event in enumerate(events)
        ]
        self._events[audience] = (events, fresh)
        data = attrs.evolve(view, events=()).to_json()
        del data["events"]
        return f'{json.dumps(data)[:-1]}, "events": [{", ".join(fresh)}]}}'
