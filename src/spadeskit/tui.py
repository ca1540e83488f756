"""The full-screen table of ``spadeskit play`` (the ``tui`` extra: Textual).

The screen shows the hand grouped by suit with the legal cards marked, the trick on the
table with who played what, the bids and contract, the books and the scores; what
happened scrolls by on the right, hand scores included.  Every decision is typed in the
box at the bottom (bids, cards, pick up, pass, discards, renege calls, accept), and
errors appear above it in place.  Keys: ``ctrl+l`` the last trick, ``ctrl+s`` save the
record, ``ctrl+q`` quit.  Built on :class:`spadeskit.prompt.Session`, so it shows
exactly what the plain prompt shows, from the person's view only.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Input, RichLog, Static

from .prompt import HELP, Session, hand_text

__all__ = ["TableApp"]


class TableApp(App[None]):
    """A person against bots, in the terminal."""

    CSS = """
    #left { width: 3fr; }
    #log { width: 2fr; border: round $accent; }
    #table { border: round $primary; height: auto; padding: 0 1; }
    #hand { border: round $success; height: auto; padding: 0 1; }
    #scores { height: auto; padding: 0 1; }
    #status { height: auto; padding: 0 1; }
    #status.error { color: $error; }
    """
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+l", "last_trick", "last trick"),
        Binding("ctrl+s", "save", "save"),
        Binding("ctrl+q", "quit", "quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.title = f"spadeskit: {session.game.rules.name}"
        self.sub_title = f"you are {session.names[session.seat]}"

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                yield Static(id="scores")
                yield Static(id="table")
                yield Static(id="hand")
                yield Static(id="status")
                yield Input(
                    placeholder="your decision: 4, nil, QH, 10♥, pick up, discard 7C 9S ... (help)",
                    id="entry",
                )
            yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._advance()
        self.query_one("#entry", Input).focus()

    # ----------------------------------------------------------------------------------

    def _write_log(self, lines: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#status", Static)
        status.update(text)
        status.set_class(error, "error")

    def _advance(self) -> None:
        self._write_log(self.session.advance())
        self._refresh()

    def _refresh(self) -> None:
        session = self.session
        game = session.game
        table = game.rules.table
        scores = "   ".join(
            f"{table.side_names[s]} {table.show_score(game.scores[s])}"
            for s in range(len(table.sides))
        )
        self.query_one("#scores", Static).update(f"Scores: {scores}")
        if game.is_over:
            end = game.match.end
            self.query_one("#table", Static).update("The match is over.")
            self.query_one("#hand", Static).update("")
            self._status(f"Match over: {end.reason}" if end is not None else "Match over.")
            return
        view = session.view()
        self.query_one("#table", Static).update("\n".join(session.summary_lines()))
        self.query_one("#hand", Static).update("Your cards (* may be played)\n" + hand_text(view))
        if session.waiting():
            self._status(session.choices())
        else:
            self._status(
                f"waiting for {view.seat_names[view.to_act]}" if view.to_act is not None else ""
            )

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
        if self.session.game.is_over:
            self._status("The match is over: ctrl+q to leave.")
            return
        error = self.session.submit(text)
        if error is not None:
            self._status(error, error=True)
            return
        self._advance()

    def action_last_trick(self) -> None:
        self._write_log([self.session.last_trick()])

    def action_save(self) -> None:
        message = self.session.save()
        self._status(message or "no record file: type 'save FILE' (or start with --record FILE)")

    def action_quit_table(self) -> None:
        self.session.save()
        self.exit()

    async def action_quit(self) -> None:
        self.action_quit_table()
