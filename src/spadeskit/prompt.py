"""``spadeskit play``: a person plays one seat against bots.

:class:`Session` is the table without a screen: it lets the bots act, takes what the
person types (through :func:`spadeskit.parse_action`), reports what happened in words
(from the view's events) and saves records.  Two front ends use it: :class:`PromptTable`,
a plain text prompt that reads lines from any stream (a terminal, a pipe, a test), and
the full-screen table of :mod:`spadeskit.tui` (the ``tui`` extra).  Everything shown
comes from the person's :class:`~spadeskit.views.View`, so this is also a small example
of an app built on the public API.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO, Any

from .actions import Bid, Play
from .bots import Bot
from .cards import Card, Suit
from .errors import SpadesError
from .replay import replay
from .state import GameState
from .text_input import describe_choices, parse_action
from .views import View

__all__ = ["HELP", "PromptTable", "Session", "hand_text", "resume"]

HELP = """\
Type your decision: a bid ("4", "nil", "blind nil"), a card ("QH", "10♥", "play q♥"),
"pick up" or "pass", cards to discard or pass ("discard 7C 9S", "pass AS KS"),
"call renege 3", "accept".  Other commands:
  hand         show your cards and the table again
  last         show the last finished trick
  score        show the score sheet so far
  save FILE    write the game record to FILE (resume it with --resume FILE)
  help         this text
  quit         stop (the game is saved first if --record was given)"""


def hand_text(view: View, symbols: bool = True) -> str:
    """Return the seat's cards grouped by suit, legal plays marked with ``*``."""
    legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
    rows = []
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
        cards = sorted(
            (c for c in view.cards if c.suit is suit), key=lambda c: c.rank, reverse=True
        )
        if cards:
            rows.append(f"  {suit.symbol} " + " ".join(_card(c, c in legal) for c in cards))
    jokers = [c for c in view.cards if c.suit is None]
    if jokers:
        rows.insert(0, "  ★ " + " ".join(_card(c, c in legal) for c in jokers))
    return "\n".join(rows) if rows else "  (no cards to show)"


def _card(card: Card, legal: bool) -> str:
    return card.symbol + ("*" if legal else "")


class Session:
    """One person at ``seat`` against ``bots`` (``None`` at the person's seat)."""

    def __init__(
        self, game: GameState, seat: int, bots: Sequence[Bot | None], record: str | None = None
    ) -> None:
        self.game = game
        self.seat = seat
        self.bots = bots
        self.record = record
        self.shown = 0  # events of the hand in progress already told
        self.logged = 0  # and the actions they came from
        self.hand_number = game.number

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.rules.table.seat_names

    def view(self) -> View:
        """Return what the person sees now."""
        return self.game.view(self.seat)

    def waiting(self) -> bool:
        """Return whether the person has a decision to make."""
        return not self.game.is_over and self.game.to_act == self.seat

    def advance(self) -> list[str]:
        """Let the bots act until the person must decide or the match ends; return what
        happened since the last call, in words."""
        lines = self._news()
        while not self.game.is_over:
            actor = self.game.to_act
            if actor is None or actor == self.seat:
                break
            bot = self.bots[actor]
            assert bot is not None
            self.game = self.game.apply(bot.choose(self.game.view(actor)), actor)
            lines += self._news()
        if self.game.is_over and self.game.match.end is not None:
            lines += self.score_sheet()
            lines.append(f"Match over: {self.game.match.end.reason}")
        return lines

    def score_sheet(self) -> list[str]:
        """Return the score sheet so far: each finished hand's running totals."""
        table = self.game.rules.table
        lines = ["Score sheet", "  hand  " + "".join(f"{name:>9}" for name in table.side_names)]
        for result in self.game.hand_results:
            lines.append(
                f"  {result.number + 1:>4}  "
                + "".join(f"{table.show_score(s):>9}" for s in result.scores)
            )
        return lines

    def submit(self, text: str) -> str | None:
        """Apply what the person typed; return an error to show them, or ``None``."""
        try:
            self.game = self.game.apply(parse_action(text, self.view()), self.seat)
        except SpadesError as exc:
            return str(exc)
        return None

    def choices(self) -> str:
        return describe_choices(self.view().legal_actions)

    def _news(self) -> list[str]:
        """Return the events since the last call, and the scores of finished hands."""
        game = self.game
        names = self.names
        lines: list[str] = []
        while self.hand_number < len(game.hand_results):
            # A hand ended: its last actions (from its log), then its score.
            for seat, action in game.match.logs[self.hand_number][self.logged :]:
                who = names[seat] if seat is not None and 0 <= seat < len(names) else "the referee"
                lines.append(
                    f"{who} plays {action.card.symbol}"
                    if isinstance(action, Play)
                    else f"{who}: {action}"
                )
            result = game.hand_results[self.hand_number]
            if result.last_trick_winner is not None:
                lines.append(f"{names[result.last_trick_winner]} wins the last trick")
            table = game.rules.table
            lines.append(f"Hand {self.hand_number + 1} is over.")
            lines += [f"  {line.text}" for line in result.lines]
            lines.append(
                "  score: "
                + ", ".join(
                    f"{table.side_names[s]} {table.show_score(result.scores[s])}"
                    for s in range(len(table.sides))
                )
            )
            self.hand_number += 1
            self.shown = self.logged = 0
        if game.is_over:
            return lines
        events = game.view(self.seat).events
        lines += [event.text for event in events[self.shown :]]
        self.shown = len(events)
        self.logged = len(game.log)
        return lines

    def table_text(self) -> str:
        """Return the table in words (see :meth:`summary_lines`), then the hand."""
        return "\n".join([*self.summary_lines(), hand_text(self.view())])

    def summary_lines(self) -> list[str]:
        """Return the hand number, phase, bids and trump, the trick on the table and the books."""
        view = self.view()
        names = view.seat_names
        bids = ", ".join(
            f"{names[s]} {b.tricks if isinstance(b, Bid) else b}"
            for s, b in enumerate(view.bids)
            if b is not None
        )
        lines = [
            f"Hand {view.hand_number + 1}, {view.phase.value}"
            + (f"; bids: {bids}" if bids else "")
            + (f"; trump: {view.trump}" if view.trump not in (None, "spades") else "")
        ]
        if view.trick:
            lines.append(
                "  on the table: " + ", ".join(f"{names[s]} {c.symbol}" for s, c in view.trick)
            )
        if any(view.books):
            lines.append(
                "  books: " + ", ".join(f"{names[s]} {b}" for s, b in enumerate(view.books))
            )
        return lines

    def last_trick(self) -> str:
        view = self.view()
        if not view.tricks:
            return "no trick is finished yet this hand"
        last = view.tricks[-1]
        names = view.seat_names
        return (
            "last trick: "
            + ", ".join(f"{names[s]} {c.symbol}" for s, c in last.plays)
            + f"; {names[last.winner]} won it"
        )

    def save(self, path: str | None = None) -> str | None:
        """Write the record to ``path`` (or the session's record file); return a message."""
        path = path or self.record
        if not path:
            return None
        try:
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(self.game.to_record(), handle)
        except OSError as exc:
            return f"could not save to {path}: {exc.strerror}"
        return f"saved to {path}"


class PromptTable:
    """Play ``seat`` from text lines read from ``stdin``; the bots play the other seats."""

    def __init__(
        self,
        game: GameState,
        seat: int,
        bots: Sequence[Bot | None],
        stdin: IO[str],
        stdout: IO[str],
        record: str | None = None,
    ) -> None:
        self.session = Session(game, seat, bots, record)
        self.stdin = stdin
        self.stdout = stdout

    @property
    def game(self) -> GameState:
        return self.session.game

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def run(self) -> GameState:
        """Play until the match ends or the person quits; return the last state."""
        session = self.session
        self.say(
            f"{self.game.rules.name}: you are {session.names[session.seat]}. Type 'help' for "
            "the commands."
        )
        while True:
            for line in session.advance():
                self.say(line if line.startswith(("Hand ", "Match over", "  ")) else f"  {line}")
            if not session.waiting():
                break
            if not self._ask():
                self._say_saved(session.save())
                self.say("Stopped.")
                return self.game
        self._say_saved(session.save())
        return self.game

    def _say_saved(self, message: str | None) -> None:
        if message:
            self.say(f"  {message}")

    def _ask(self) -> bool:
        """Ask until the person's decision is applied; return False if they quit."""
        session = self.session
        self.say(session.table_text())
        while True:
            self.say(session.choices())
            print("> ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                return False
            text = line.strip()
            word = text.lower()
            if word in ("quit", "exit"):
                return False
            if word in ("help", "?"):
                self.say(HELP)
            elif word == "hand":
                self.say(session.table_text())
            elif word == "last":
                self.say(f"  {session.last_trick()}")
            elif word in ("score", "sheet"):
                self.say("\n".join(session.score_sheet()))
            elif word.startswith("save "):
                self._say_saved(session.save(text[5:].strip()))
            else:
                error = session.submit(text)
                if error is None:
                    return True
                self.say(f"  {error}")


def resume(path: str) -> GameState:
    """Return the game a record file holds (checked as :func:`spadeskit.replay` checks)."""
    with open(path, encoding="utf-8") as handle:
        data: Any = json.load(handle)
    return replay(data)
