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
    once, and the next text of the same audience takes the events' texts from the last
    one, so an update costs its new events, not the whole hand again.  An event is a
    frozen value, so the same event objects have the same text; when the view shows an
    earlier event differently (a sealed bid, then the bid: another object) or a new
    hand begins, the events are turned into JSON anew.  Texts are strings and views
    frozen: nothing handed out changes later.

    Not thread-safe on its own: the :class:`~spadeskit.apps.service.Table` that owns it
    holds its lock around every call.
    """

    def __init__(self) -> None:
        self._game: GameState | None = None
        self._views: dict[Audience, View] = {}
        self._texts: dict[Audience, str] = {}
        # Per audience: the events of its last text, the text, where its events begin.
        self._events: dict[Audience, tuple[tuple[Event, ...], str, int]] = {}

    def view(self, game: GameState, audience: Audience) -> View:
        """Return ``audience``'s view of ``game``."""
        if audience is not None and not (type(audience) is int and 0 <= audience < len(game.hands)):
            return game.view(audience)  # which refuses a seat the game does not have
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
        kept, last, start = self._events.get(audience, ((), "", 0))
        old = len(kept)
        if old <= len(events) and all(a is b for a, b in zip(kept, events, strict=False)):
            joined = last[start:-2]  # the kept events' texts, as the last text has them
        else:  # an event shown otherwise now (a sealed bid opened), or a new hand
            joined, old = "", 0
        fresh = ", ".join(json.dumps(event.to_json()) for event in events[old:])
        joined = f"{joined}, {fresh}" if joined and fresh else joined or fresh
        data = attrs.evolve(view, events=()).to_json()
        del data["events"]
        head = f'{json.dumps(data)[:-1]}, "events": ['
        text = f"{head}{joined}]}}"
        self._events[audience] = (events, text, len(head))
        return text
