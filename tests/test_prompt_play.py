"""``spadeskit play`` at a plain prompt: whole hands from typed text, save and resume."""

from __future__ import annotations

import io
import json
import pathlib
import subprocess
import sys

import spadeskit
from spadeskit.apps.prompt import PromptTable, load_saved
from spadeskit.bots import SimpleBot


class Typist(io.TextIOBase):
    """Types, for the person's seat, the text of a legal action (from its view), with a
    few mistakes first; stops after ``limit`` lines."""

    def __init__(self, seat: int, limit: int = 10_000) -> None:
        self.table: PromptTable | None = None
        self.seat = seat
        self.lines: list[str] = []
        self.limit = limit

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        assert self.table is not None
        if len(self.lines) >= self.limit:
            return ""
        view = self.table.game.view(self.seat)
        if len(self.lines) in (0, 7):
            line = "banana"
        elif len(self.lines) == 3:
            line = "last"
        else:
            action = view.legal_actions[len(self.lines) % len(view.legal_actions)]
            line = {
                spadeskit.Play: lambda a: a.card.symbol.lower(),
                spadeskit.Bid: lambda a: str(a.tricks),
            }.get(type(action), str)(action)  # type: ignore[no-untyped-call]
        self.lines.append(line)
        return line + "\n"


def play(
    variant: str,
    house: list[str],
    seat: int,
    seed: int,
    limit: int = 10_000,
    options: dict[str, object] | None = None,
) -> tuple[PromptTable, str]:
    rules = spadeskit.load_rules(variant, house, options or {})
    typist = Typist(seat, limit)
    out = io.StringIO()
    bots = [None if s == seat else SimpleBot(rules) for s in range(rules.table.players)]
    table = PromptTable(rules.new_game(seed=seed), seat, bots, typist, out)  # type: ignore[arg-type]
    typist.table = table
    table.run()
    return table, out.getvalue()


def test_a_whole_standard_match_is_played_from_typed_text() -> None:
    table, out = play("standard", [], 2, seed=1, options={"target": 150})
    assert table.game.is_over
    assert "cannot read 'banana' as an action; you may:" in out
    assert "Hand 1 is over." in out and "Match over: won by" in out and "Score sheet" in out
    assert "Traceback" not in out


def test_a_three_suit_trump_hand_with_a_pick_up_and_discards_from_typed_text() -> None:
    table, out = play("three-suit-trump", [], 0, seed=4)
    assert table.game.is_over and "discard" in out and "Hand 1 is over." in out


def test_a_jjdd_table_mode_hand_offers_renege_calls_at_the_prompt() -> None:
    table, out = play("jjdd", [], 0, seed=2, options={"enforcement": "table", "target": 100})
    assert "call a renege in trick" in out and table.game.is_over


def test_play_from_piped_input_saves_and_resumes(tmp_path: pathlib.Path) -> None:
    record = tmp_path / "game.json"
    command = [sys.executable, "-m", "spadeskit", "play", "--seed", "5", "--record", str(record)]
    first = subprocess.run(command, input="4\nquit\n", capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    assert "you are S" in first.stdout and f"saved to {record}" in first.stdout
    saved = json.loads(record.read_text())
    # The file a player can read holds their view only: no other hand, no seed.
    assert saved["format"] == "spadeskit-saved-game" and saved["seat"] == 2
    assert "actions" not in saved and "seed" not in json.dumps(saved)
    assert saved["view"]["bids"][2] == {"type": "bid", "tricks": 4}
    held = load_saved(str(record)).game  # from the record kept in the games folder
    text = record.read_text()
    hidden = [c for s in (0, 1, 3) for c in held.cards(s)]
    assert len(hidden) >= 36 and not [
        c for c in hidden if f'"{c.code}"' in text or c.symbol in text
    ]
    again = subprocess.run(
        [sys.executable, "-m", "spadeskit", "play", "--resume", str(record)],
        input="hand\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert "S bids 4" in again.stdout  # the resumed hand is recapped from the events
    bad = subprocess.run(
        [sys.executable, "-m", "spadeskit", "play", "--seat", "X"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "there is no seat 'X'" in bad.stderr


def test_the_hand_explains_its_star_when_cards_are_marked() -> None:
    """Newcomer round 4: the * beside the cards one may play is explained under them."""
    from spadeskit.apps.prompt import LEGEND, hand_text

    game = spadeskit.load_rules("standard").new_game(seed=2)
    assert "*" not in hand_text(game.view(game.to_act)) and LEGEND not in hand_text(
        game.view(game.to_act)
    )
    while game.phase is spadeskit.Phase.AUCTION:
        game = game.apply(spadeskit.Bid(3))
    shown = hand_text(game.view(game.to_act))
    assert "*" in shown and shown.endswith(LEGEND)
