"""The full-screen table of ``spadeskit play`` (the ``tui`` extra: Textual).

The seats sit round the table (you at the bottom, your partner across) with their bids
and books, and the trick lies in the middle; a finished trick stays there, its winner
marked, until the next card is played (or ``escape`` clears it).  Your hand is laid out
by suit, the cards you may play bright and the others dim: choose one with the arrow
keys and Enter, click it, or type it.  Every other decision is typed in the box at the
bottom, whose hint follows what you may do now (bids, pick up, pass, discards, renege
calls).  The scores carry each side's bags, the score sheet stays in view, and what
happened scrolls by on the right.  Keys: ``tab`` between your cards and the box,
``ctrl+l`` the last trick (also the last trick of a hand that just ended), ``ctrl+s``
save, ``ctrl+q`` quit.  Built on :class:`spadeskit.apps.prompt.Session`, so it shows exactly
what the plain prompt shows, from the person's view only.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Header, Input, RichLog, Static

from spadeskit.apps.prompt import HELP, Session, by_suit
from spadeskit.core.actions import Bid, Play
from spadeskit.core.cards import Card, Suit

__all__ = ["HandBar", "TableApp", "felt_text"]

_RED = (Suit.HEARTS, Suit.DIAMONDS)


def _places(n: int, me: int) -> dict[int, str]:
    """Where each seat sits, seen from ``me`` at the bottom (play passes to the left)."""
    around = {2: ("bottom", "top"), 3: ("bottom", "left", "right")}
    places = around.get(n, ("bottom", "left", "top", "right"))
    return {(me + step) % n: places[step] for step in range(n)}


def felt_text(session: Session, show_finished: bool = True, width: int = 64) -> str:
    """Return the table as text: the seats round it with their bids and books, and the
    trick in the middle (or, with ``show_finished``, the last finished trick with its
    winner until the next card is played), ``width`` characters wide."""
    view = session.view()
    names = view.seat_names
    n = len(names)
    at = _places(n, session.seat)
    seat_at = {place: seat for seat, place in at.items()}

    def label(seat: int) -> tuple[str, str]:
        bid = view.bids[seat]
        bid_text = "-" if bid is None else str(bid.tricks) if isinstance(bid, Bid) else str(bid)
        who = names[seat] + (" (you)" if seat == session.seat else "")
        who += (" (dealer)" if seat == view.dealer else "") + (" <" if seat == view.to_act else "")
        return who, f"bid {bid_text}, books {view.books[seat]}"

    plays: dict[int, Card] = dict(view.trick)
    caption = ""
    if not plays and show_finished:
        finished = session.finished_trick()
        if finished is not None:
            trick, winner, hand = finished
            plays = dict(trick)
            ended = "" if hand == view.hand_number else f" (hand {hand + 1})"
            caption = f"last trick{ended}: {names[winner]} won it (esc clears)"

    def card(place: str) -> str:
        seat = seat_at.get(place)
        return plays[seat].symbol if seat is not None and seat in plays else ""

    side = max(16, width // 3)
    blank = ("", "")
    top, bottom = label(seat_at["top"]) if "top" in seat_at else blank, label(seat_at["bottom"])
    left = label(seat_at["left"]) if "left" in seat_at else blank
    right = label(seat_at["right"]) if "right" in seat_at else blank
    middle = f"{card('left'):>4}        {card('right'):<4}".center(width - 2 * side)
    rows = [line.center(width) for line in top if "top" in seat_at]
    rows.append(card("top").center(width))
    rows.append(left[0].ljust(side) + middle + right[0].rjust(side))
    rows.append(left[1].ljust(side) + " " * (width - 2 * side) + right[1].rjust(side))
    rows.append(card("bottom").center(width))
    rows += [line.center(width) for line in bottom]
    if caption:
        rows.append(caption.center(width))
    return "\n".join(rows)


class HandBar(Widget):
    """The person's cards by suit: the playable ones bright, the others dim; ``left``
    and ``right`` move the cursor, ``enter`` or a click chooses a card."""

    can_focus = True

    DEFAULT_CSS = """
    HandBar { height: 3; border: round $success; padding: 0 1; }
    HandBar:focus { border: round $accent; }
    """
    BINDINGS: ClassVar[list[Any]] = [
        Binding("left", "move(-1)", "previous card", show=False),
        Binding("right", "move(1)", "next card", show=False),
        Binding("enter", "choose", "play the card", show=False),
    ]

    class Chosen(Message):
        """A card was chosen (by key or click)."""

        def __init__(self, card: Card) -> None:
            super().__init__()
            self.card = card

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: list[Card] = []
        self.legal: set[Card] = set()
        self.cursor = 0
        self._spans: list[tuple[int, int]] = []

    def show(self, cards: list[Card], legal: set[Card]) -> None:
        """Lay out ``cards`` (the seat's hand) with ``legal`` marked; the cursor stays
        on the same card if it is still held (and playable, when any card is), else
        goes to the first playable one."""
        kept = self.cards[self.cursor] if self.cursor < len(self.cards) else None
        ordered = [c for _, group in by_suit(cards) for c in group]
        self.cards, self.legal = ordered, legal
        if kept in ordered and (kept in legal or not legal):
            self.cursor = ordered.index(kept)
        else:
            first = [i for i, c in enumerate(ordered) if c in legal]
            self.cursor = first[0] if first else 0
        self.refresh()

    def render(self) -> Text:
        text = Text()
        self._spans = []
        previous: Suit | None | bool = False
        for i, card in enumerate(self.cards):
            if previous is not False and card.suit is not previous:
                text.append(" | ")
            elif i:
                text.append(" ")
            previous = card.suit
            style = "red" if card.suit in _RED else ""
            style += " bold" if card in self.legal else " dim"
            if i == self.cursor and self.has_focus:
                style += " reverse"
            start = text.cell_len
            text.append(card.symbol, style=style.strip())
            self._spans.append((start, text.cell_len))
        if not self.cards:
            text.append("(no cards)")
        return text

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def action_choose(self) -> None:
        if self.cards:
            self.post_message(self.Chosen(self.cards[self.cursor]))

    def on_click(self, event: events.Click) -> None:
        x = event.x - 1 - 1  # the border, then the padding
        for i, (start, end) in enumerate(self._spans):
            if start <= x < end:
                self.cursor = i
                self.refresh()
                self.post_message(self.Chosen(self.cards[i]))
                return

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class TableApp(App[None]):
    """A person against bots, in the terminal."""

    CSS = """
    #left { width: 3fr; }
    #right { width: 2fr; }
    #log { border: round $accent; }
    #sheet { border: round $primary; height: auto; max-height: 12; padding: 0 1; }
    #felt { border: round $primary; height: auto; padding: 0 1; }
    #scores { height: auto; padding: 0 1; }
    #status { height: auto; padding: 0 1; }
    #status.error { color: $error; }
    """
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+l", "last_trick", "last trick"),
        Binding("ctrl+s", "save", "save"),
        Binding("escape", "clear_trick", "clear the trick"),
        Binding("ctrl+q", "quit", "quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.title = f"spadeskit: {session.game.rules.name}"
        self.sub_title = f"you are {session.names[session.seat]}"
        self._cleared: tuple[int, int] | None = None  # the finished trick esc cleared

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                yield Static(id="scores")
                yield Static(id="felt")
                yield HandBar(id="hand")
                yield Static(id="status")
                yield Input(id="entry")
            with Vertical(id="right"):
                yield Static(id="sheet")
                yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        # Tab goes between the box and the cards only (the log scrolls with the mouse).
        self.query_one("#log", RichLog).can_focus = False
        self._advance()
        self.query_one("#entry", Input).focus()

    # ----------------------------------------------------------------------------------

    def _write_log(self, lines: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#status", Static)
        status.update(Text(text))
        status.set_class(error, "error")

    def _advance(self) -> None:
        self._write_log(self.session.advance())
        self._refresh()

    def _trick_key(self) -> tuple[int, int]:
        """Which finished trick is on the table: (hand, tricks finished in it)."""
        game = self.session.game
        return game.number, len(self.session.view().tricks)

    def _refresh(self) -> None:
        session = self.session
        game = session.game
        self.query_one("#scores", Static).update(Text(f"Scores: {session.scores_line()}"))
        self.query_one("#sheet", Static).update(Text("\n".join(session.score_sheet())))
        entry = self.query_one("#entry", Input)
        hand = self.query_one("#hand", HandBar)
        if game.is_over:
            end = game.match.end
            self.query_one("#felt", Static).update("The match is over.")
            hand.show([], set())
            self._status(f"Match over: {end.reason}" if end is not None else "Match over.")
            return
        view = session.view()
        show = self._cleared != self._trick_key()
        felt = self.query_one("#felt", Static)
        width = max(felt.content_size.width, 52)
        felt.update(Text(felt_text(session, show, width)))
        hand.show(list(view.cards), {a.card for a in view.legal_actions if isinstance(a, Play)})
        entry.placeholder = f"type your decision: {session.hint()}"
        if session.waiting():
            self._status(session.choices())
        else:
            self._status(
                f"waiting for {view.seat_names[view.to_act]}" if view.to_act is not None else ""
            )

    def _decide(self, text: str) -> None:
        if self.session.game.is_over:
            self._status("The match is over: ctrl+q to leave.")
            return
        error = self.session.submit(text)
        if error is not None:
            self._status(error, error=True)
            return
        self._cleared = None
        self._advance()

    def on_hand_bar_chosen(self, message: HandBar.Chosen) -> None:
        self._decide(message.card.code)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        message.input.value = ""
        word = text.lower()
        if not text:
            return
        if word in ("quit", "exit"):
            self.action_quit_table()
            return
        if word in ("help", "?"):
            self._write_log(HELP.splitlines())
            return
        if word == "last":
            self.action_last_trick()
            return
        if word == "hand":
            self._refresh()
            return
        if word in ("score", "sheet"):
            self._write_log(self.session.score_sheet())
            return
        if word.startswith("save "):
            self._status(self.session.save(text[5:].strip()) or "")
            return
        self._decide(text)

    def action_last_trick(self) -> None:
        self._write_log([self.session.last_trick()])

    def action_clear_trick(self) -> None:
        self._cleared = self._trick_key()
        self._refresh()

    def action_save(self) -> None:
        message = self.session.save()
        self._status(message or "no record file: type 'save FILE' (or start with --record FILE)")

    def action_quit_table(self) -> None:
        self.session.save()
        self.exit()

    async def action_quit(self) -> None:
        self.action_quit_table()
