"""``spadeskit play``: a person plays one seat against bots.

:class:`Session` is the table without a screen: it lets the bots act, takes what the
person types (through :func:`spadeskit.parse_action`), reports what happened in words
(from the view's events) and saves records.  Two front ends use it: :class:`PromptTable`,
a plain text prompt that reads lines from any stream (a terminal, a pipe, a test), and
the full-screen table of :mod:`spadeskit.apps.tui` (the ``tui`` extra).  Everything shown
comes from the person's :class:`~spadeskit.core.views.View`, so this is also a small example
of an app built on the public API.
"""

from __future__ import annotations

import json
import os
import pathlib
import secrets
from collections.abc import Iterable, Sequence
from typing import IO, Any

import attrs

from spadeskit.apps.text_input import describe_choices, parse_action
from spadeskit.bots.basic import Bot
from spadeskit.core.actions import (
    Bid,
    BlindNil,
    CallRenege,
    Discard,
    Exchange,
    Nil,
    Pass,
    PickUp,
    Play,
)
from spadeskit.core.cards import Card, Suit
from spadeskit.core.errors import RecordError, SpadesError
from spadeskit.core.state import GameState
from spadeskit.core.views import View
from spadeskit.engine.replay import replay

__all__ = [
    "HELP",
    "SAVED_FORMAT",
    "PromptTable",
    "SavedGame",
    "Session",
    "by_suit",
    "games_dir",
    "hand_text",
    "load_saved",
    "resume",
]

HELP = """\
Type your decision: a bid ("4", "nil", "blind nil"), a card ("QH", "10♥", "play q♥"),
"pick up" or "pass", cards to discard or pass ("discard 7C 9S", "pass AS KS"),
"call renege 3", "accept".  When you play, your cards marked * are the ones you may
play now.  Other commands:
  hand         show your cards and the table again
  last         show the last finished trick
  score        show the score sheet so far
  save FILE    save the game to FILE (resume it with --resume FILE); the file shows
               only what you may see, the rest is kept where spadeskit keeps games
  help         this text
  quit         stop (the game is saved first if --record was given)"""


def by_suit(cards: Iterable[Card]) -> list[tuple[str, list[Card]]]:
    """Return ``cards`` grouped as a hand is shown: the jokers (``"★"``), then spades,
    hearts, clubs and diamonds (by symbol), each highest first; no empty group."""
    held = list(cards)
    groups = [("★", [c for c in held if c.suit is None])]
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
        groups.append(
            (suit.symbol, sorted((c for c in held if c.suit is suit), key=lambda c: -c.rank))
        )
    return [(mark, group) for mark, group in groups if group]


def hand_text(view: View, symbols: bool = True) -> str:
    """Return the seat's cards grouped by suit, legal plays marked with ``*`` and the mark
    explained under them."""
    legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
    rows = [
        f"  {mark} " + " ".join(_card(c, c in legal) for c in group)
        for mark, group in by_suit(view.cards)
    ]
    if legal and rows:
        rows.append(LEGEND)
    return "\n".join(rows) if rows else "  (no cards to show)"


LEGEND = "  (* marks the cards you may play now)"
"""The line under a hand that explains its marks."""


def _card(card: Card, legal: bool) -> str:
    return card.symbol + ("*" if legal else "")


class Session:
    """One person at ``seat`` against ``bots`` (``None`` at the person's seat)."""

    def __init__(
        self,
        game: GameState,
        seat: int,
        bots: Sequence[Bot | None],
        record: str | None = None,
        game_id: str | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.bots = bots
        self.record = record
        self.shown = 0  # events of the hand in progress already told
        self.logged = 0  # and the actions they came from
        self.hand_number = game.number
        self.game_id = game_id or secrets.token_hex(8)

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
        names = "".join(f"{name:>14}" for name in table.side_names)
        lines = ["Score sheet (score/bags)", f"  hand{names}"]
        for result in self.game.hand_results:
            lines.append(
                f"  {result.number + 1:>4}"
                + "".join(
                    f"{table.show_score(s) + '/' + str(b):>14}"
                    for s, b in zip(result.scores, result.bags, strict=True)
                )
            )
        return lines

    def scores_line(self) -> str:
        """Return the running scores with each side's bags: ``N/S 120 (3 bags) ...``."""
        game = self.game
        table = game.rules.table
        return "   ".join(
            f"{table.side_names[s]} {table.show_score(game.scores[s])} "
            f"({game.match.bags[s]} bag{'s' if game.match.bags[s] != 1 else ''})"
            for s in range(len(table.sides))
        )

    def hint(self) -> str:
        """Return examples of what the person may type now, from their legal actions
        (so they fit the variant and the moment): ``4, nil, QH or 10♥ ...``."""
        legal = self.view().legal_actions
        kinds = {type(a) for a in legal}
        examples = []
        bids = [a.tricks for a in legal if isinstance(a, Bid)]
        if bids:
            examples.append(str(bids[len(bids) // 2]))
        examples += [word for kind, word in _WORDS if kind in kinds]
        for kind, verb in ((Discard, "discard"), (Exchange, "pass")):
            sized = [a for a in legal if isinstance(a, kind)]
            if sized:
                examples.append(f"{verb} " + " ".join(c.code for c in sized[0].cards))
        plays = [a.card for a in legal if isinstance(a, Play)]
        if plays:
            examples.append(f"{plays[0].code} or {plays[0].symbol}")
        calls = [a for a in legal if isinstance(a, CallRenege)]
        if calls:
            examples.append(f"call renege {calls[0].trick}")
        return ", ".join(examples + ["help"])

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

    def finished_trick(self) -> tuple[tuple[tuple[int, Card], ...], int, int] | None:
        """Return the last finished trick the person may still look at: its plays
        ``(seat, card)``, its winner and the hand it belongs to (numbered from 0); after
        a hand ends and before a trick of the next one is finished, the ended hand's
        last trick.  ``None`` before any trick is finished."""
        view = self.view()
        if view.tricks:
            last = view.tricks[-1]
            return tuple(last.plays), last.winner, view.hand_number
        results = self.game.hand_results
        if not results:
            return None
        result = results[-1]
        winner = result.last_trick_winner
        if winner is None:
            return None
        n = self.game.rules.table.players
        log = self.game.match.logs[result.number]
        plays = [(seat, a.card) for seat, a in log if isinstance(a, Play) and seat is not None]
        return tuple(plays[-n:]), winner, result.number

    def last_trick(self) -> str:
        found = self.finished_trick()
        if found is None:
            return "no trick is finished yet this hand"
        plays, winner, hand = found
        names = self.names
        where = "" if hand == self.game.number else f" of hand {hand + 1}"
        return (
            f"last trick{where}: "
            + ", ".join(f"{names[s]} {c.symbol}" for s, c in plays)
            + f"; {names[winner]} won it"
        )

    def save(self, path: str | None = None) -> str | None:
        """Save the game to ``path`` (or the session's record file); return a message.

        A match in progress is saved in two parts, so the file the person may read
        shows nothing they may not see: ``path`` holds their seat's view and the name
        of the game, and the record (every hand, the seed) is kept in
        :func:`games_dir`, which only this user can read.  A finished match is saved
        as its full record (nothing in it is secret any more)."""
        path = path or self.record
        if not path:
            return None
        try:
            if self.game.is_over:
                _write_json(pathlib.Path(path), self.game.to_record())
            else:
                kept = games_dir() / f"{self.game_id}.json"
                _write_json(kept, self.game.to_record(), private=True)
                saved = {
                    "format": SAVED_FORMAT,
                    "version": 1,
                    "game": self.game_id,
                    "seat": self.seat,
                    "rules": self.game.rules.name,
                    "view": self.view().to_json(),
                }
                _write_json(pathlib.Path(path), saved)
        except OSError as exc:
            return f"could not save to {path}: {exc.strerror}"
        return f"saved to {path}"


_WORDS = (
    (Nil, "nil"),
    (BlindNil, "blind nil"),
    (PickUp, "pick up"),
    (Pass, "pass"),
)

SAVED_FORMAT = "spadeskit-saved-game"
"""The ``format`` of a saved game in progress (see :meth:`Session.save`)."""


def games_dir() -> pathlib.Path:
    """Return the folder where ``spadeskit play`` keeps the records of games in
    progress, made if missing, readable by this user only: ``$SPADESKIT_HOME/games``,
    else ``$XDG_DATA_HOME/spadeskit/games``, else ``~/.local/share/spadeskit/games``."""
    home = os.environ.get("SPADESKIT_HOME")
    if home:
        base = pathlib.Path(home)
    else:
        data = os.environ.get("XDG_DATA_HOME") or pathlib.Path.home() / ".local" / "share"
        base = pathlib.Path(data) / "spadeskit"
    folder = base / "games"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    folder.chmod(0o700)
    return folder


def _write_json(path: pathlib.Path, data: Any, private: bool = False) -> None:
    """Write ``data`` to ``path`` whole (a temporary file renamed over it)."""
    temporary = path.with_name(path.name + ".part")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    with os.fdopen(os.open(temporary, flags, 0o600 if private else 0o666), "w") as handle:
        json.dump(data, handle)
    temporary.replace(path)


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
        game_id: str | None = None,
    ) -> None:
        self.session = Session(game, seat, bots, record, game_id)
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


@attrs.frozen
class SavedGame:
    """A game read back by :func:`load_saved`: the state, the seat the person played
    (``None`` for a plain record) and the name its record is kept under."""

    game: GameState
    seat: int | None
    game_id: str | None


def load_saved(path: str) -> SavedGame:
    """Read a game saved by :meth:`Session.save` (or any record file): the record is
    checked as :func:`spadeskit.replay` checks it."""
    with open(path, encoding="utf-8") as handle:
        data: Any = json.load(handle)
    if not (isinstance(data, dict) and data.get("format") == SAVED_FORMAT):
        return SavedGame(replay(data), None, None)
    game_id = data.get("game")
    if not isinstance(game_id, str) or not game_id.isalnum():
        raise RecordError(f"{path} is a saved game without a valid game name")
    kept = games_dir() / f"{game_id}.json"
    try:
        with open(kept, encoding="utf-8") as handle:
            record = json.load(handle)
    except FileNotFoundError:
        raise RecordError(
            f"{path} is a game saved on another machine or by another user: its record "
            f"({kept}) is not here"
        ) from None
    game = replay(record)
    seat = data.get("seat")
    if type(seat) is not int or not 0 <= seat < game.rules.table.players:
        raise RecordError(f"{path} names no seat of {game.rules.name!r}")
    return SavedGame(game, seat, game_id)


def resume(path: str) -> GameState:
    """Return the game a saved file (or record file) holds, checked as
    :func:`spadeskit.replay` checks it."""
    return load_saved(path).game
