"""``spadeskit play``: a person plays one seat against bots at a plain text prompt.

Everything shown comes from the person's :class:`~spadeskit.views.View` (their cards,
the events of the hand, the scores), and everything typed goes through
:func:`spadeskit.parse_action`, so this is also a small example of an app built on the
public API.  It reads lines from any text stream, so it runs in a terminal, in a pipe
and in tests alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO, Any

from .actions import Action, Bid, Play
from .bots import Bot
from .cards import Card, Suit
from .errors import SpadesError
from .replay import replay
from .state import GameState
from .text_input import describe_choices, parse_action
from .views import View

__all__ = ["PromptTable", "hand_text"]

HELP = """\
Type your decision: a bid ("4", "nil", "blind nil"), a card ("QH", "10♥", "play q♥"),
"pick up" or "pass", cards to discard or pass ("discard 7C 9S", "pass AS KS"),
"call renege 3", "accept".  Other commands:
  hand         show your cards and the table again
  last         show the last finished trick
  save FILE    write the game record to FILE (resume it with --resume FILE)
  help         this text
  quit         stop (the game is saved first if --record was given)"""


def hand_text(view: View) -> str:
    """Return the seat's cards grouped by suit, legal plays marked with ``*``."""
    legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
    rows = []
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
        cards = sorted((c for c in view.cards if c.suit is suit), key=lambda c: c.rank, reverse=True)
        if cards:
            rows.append(f"  {suit.symbol} " + " ".join(_card(c, c in legal) for c in cards))
    jokers = [c for c in view.cards if c.suit is None]
    if jokers:
        rows.insert(0, "  ★ " + " ".join(_card(c, c in legal) for c in jokers))
    return "\n".join(rows) if rows else "  (no cards to show)"


def _card(card: Card, legal: bool) -> str:
    return card.symbol + ("*" if legal else "")


class PromptTable:
    """Play ``seat`` from text lines read from ``stdin``; the bots play the other seats."""

    def __init__(self, game: GameState, seat: int, bots: Sequence[Bot | None], stdin: IO[str], stdout: IO[str],
                 record: str | None = None) -> None:
        self.game = game
        self.seat = seat
        self.bots = bots
        self.stdin = stdin
        self.stdout = stdout
        self.record = record
        self.shown = 0  # events of the hand in progress already printed
        self.logged = 0  # and the actions they came from
        self.hand_number = game.number

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def run(self) -> GameState:
        """Play until the match ends or the person quits; return the last state."""
        names = self.game.rules.table.seat_names
        self.say(f"{self.game.rules.name}: you are {names[self.seat]}. Type 'help' for the commands.")
        while not self.game.is_over:
            self._catch_up()
            actor = self.game.to_act
            if actor is None:
                break
            if actor != self.seat:
                bot = self.bots[actor]
                assert bot is not None
                self.game = self.game.apply(bot.choose(self.game.view(actor)), actor)
                continue
            if not self._ask():
                self._save()
                self.say("Stopped.")
                return self.game
        self._catch_up()
        self._save()
        if self.game.match.end is not None:
            self.say(f"Match over: {self.game.match.end.reason}")
        return self.game

    def _catch_up(self) -> None:
        """Print what happened since the last prompt, and the score of finished hands."""
        game = self.game
        names = game.rules.table.seat_names
        while self.hand_number < len(game.hand_results):
            # A hand ended since the last prompt: its last actions, then its score.
            for seat, action in game.match.logs[self.hand_number][self.logged:]:
                who = names[seat] if seat is not None and 0 <= seat < len(names) else "the referee"
                self.say(f"  {who} plays {action.card.symbol}" if isinstance(action, Play) else f"  {who}: {action}")
            winner = game.hand_results[self.hand_number].last_trick_winner
            if winner is not None:
                self.say(f"  {names[winner]} wins the last trick")
            self._score(self.hand_number)
            self.hand_number += 1
            self.shown = self.logged = 0
        if game.is_over:
            return
        events = game.view(self.seat).events
        for event in events[self.shown:]:
            self.say(f"  {event.text}")
        self.shown = len(events)
        self.logged = len(game.log)

    def _score(self, number: int) -> None:
        result = self.game.hand_results[number]
        table = self.game.rules.table
        self.say(f"Hand {number + 1} is over.")
        for line in result.lines:
            self.say(f"  {line.text}")
        self.say("  score: " + ", ".join(f"{table.side_names[s]} {table.show_score(result.scores[s])}"
                                         for s in range(len(table.sides))))

    def _show(self, view: View) -> None:
        names = view.seat_names
        bids = ", ".join(f"{names[s]} {b.tricks if isinstance(b, Bid) else b}"
                         for s, b in enumerate(view.bids) if b is not None)
        self.say(f"Hand {view.hand_number + 1}, {view.phase.value}" + (f"; bids: {bids}" if bids else ""))
        if view.trick:
            self.say("  on the table: " + ", ".join(f"{names[s]} {c.symbol}" for s, c in view.trick))
        if view.books and any(view.books):
            self.say("  books: " + ", ".join(f"{names[s]} {b}" for s, b in enumerate(view.books)))
        self.say(hand_text(view))

    def _ask(self) -> bool:
        """Ask until the person's decision is applied; return False if they quit."""
        view = self.game.view(self.seat)
        self._show(view)
        while True:
            self.say(describe_choices(view.legal_actions))
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
                continue
            if word == "hand":
                self._show(view)
                continue
            if word == "last":
                self._last(view)
                continue
            if word.startswith("save "):
                self._save(text[5:].strip())
                continue
            try:
                action: Action = parse_action(text, view)
                self.game = self.game.apply(action, self.seat)
                return True
            except SpadesError as exc:
                self.say(f"  {exc}")

    def _last(self, view: View) -> None:
        if not view.tricks:
            self.say("  no trick is finished yet this hand")
            return
        last = view.tricks[-1]
        names = view.seat_names
        self.say("  last trick: " + ", ".join(f"{names[s]} {c.symbol}" for s, c in last.plays)
                 + f"; {names[last.winner]} won it")

    def _save(self, path: str | None = None) -> None:
        path = path or self.record
        if not path:
            return
        try:
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(self.game.to_record(), handle)
        except OSError as exc:
            self.say(f"  could not save to {path}: {exc.strerror}")
            return
        self.say(f"  saved to {path}")


def resume(path: str) -> GameState:
    """Return the game a record file holds (checked as :func:`spadeskit.replay` checks)."""
    with open(path, encoding="utf-8") as handle:
        data: Any = json.load(handle)
    return replay(data)
