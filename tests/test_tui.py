"""The full-screen table (the ``tui`` extra), driven headless with Textual's pilot."""

from __future__ import annotations

import asyncio
import json
import pathlib
import random

import pytest

import spadeskit
from spadeskit.arena import make_bot
from spadeskit.prompt import Session

pytest.importorskip("textual")

from spadeskit.tui import TableApp  # noqa: E402


def session(
    variant: str,
    seat: int,
    seed: int,
    options: dict[str, object] | None = None,
    record: str | None = None,
) -> Session:
    rules = spadeskit.load_rules(variant, options=options or {})
    bots = [
        None if s == seat else make_bot("heuristic", s, rules, random.Random(s))
        for s in range(rules.table.players)
    ]
    return Session(rules.new_game(seed=seed), seat, bots, record)


async def type_text(pilot: object, text: str) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    entry = app.query_one("#entry")
    entry.value = text
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


def legal_text(s: Session) -> str:
    action = s.view().legal_actions[0]
    if isinstance(action, spadeskit.Play):
        return action.card.symbol
    if isinstance(action, spadeskit.Bid):
        return str(action.tricks)
    if isinstance(action, (spadeskit.Discard, spadeskit.Exchange)):
        verb = "discard" if isinstance(action, spadeskit.Discard) else "pass"
        return verb + " " + " ".join(c.code for c in action.cards)
    return str(action)


def play_hand(s: Session, first: list[str] | None = None) -> tuple[str, list[str]]:
    shown: list[str] = []

    async def run() -> str:
        app = TableApp(s)
        async with app.run_test(size=(120, 40)) as pilot:
            for text in first or []:
                await type_text(pilot, text)
                shown.append(str(app.query_one("#status").render()))
            while not s.game.hand_results and not s.game.is_over:
                await type_text(pilot, legal_text(s))
            log = app.query_one("#log")
            return "\n".join(str(line.text) for line in log.lines)

    return asyncio.run(run()), shown


def test_a_whole_standard_hand_in_the_full_screen_table() -> None:
    s = session("standard", 2, seed=3)
    log, shown = play_hand(s, ["banana", "14"])
    assert "cannot read 'banana' as an action; you may:" in shown[0]
    assert "bid 14 is not allowed now" in shown[1]
    assert s.game.hand_results and "Hand 1 is over." in log and "S plays" in log


def test_a_three_suit_trump_hand_with_a_pick_up_and_discards() -> None:
    rules = spadeskit.load_rules("three-suit-trump")
    seed = next(k for k in range(100) if rules.new_game(seed=k).to_act == 0)
    s = session("three-suit-trump", 0, seed=seed)
    log, _ = play_hand(s, ["pick up"])
    assert "N picks up the blind" in log and "N discards" in log and "Hand 1 is over." in log


def test_a_jjdd_renege_call_at_the_table() -> None:
    s = session("jjdd", 0, seed=2, options={"enforcement": "table"})

    async def run() -> str:
        app = TableApp(s)
        async with app.run_test(size=(120, 40)) as pilot:
            while len(s.game.tricks) < 1:
                await type_text(pilot, legal_text(s))
            await type_text(pilot, "call renege 1")
            log = app.query_one("#log")
            return "\n".join(str(line.text) for line in log.lines)

    log = asyncio.run(run())
    assert "N calls a renege in trick 1" in log


def test_save_from_the_table_and_resume(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.json"
    s = session("standard", 2, seed=5, record=str(path))

    async def run() -> None:
        app = TableApp(s)
        async with app.run_test(size=(120, 40)) as pilot:
            await type_text(pilot, "4")
            await pilot.press("ctrl+s")
            await pilot.pause()

    asyncio.run(run())
    saved = json.loads(path.read_text())
    assert [2, {"type": "bid", "tricks": 4}] in saved["actions"]
    assert spadeskit.replay(saved) == s.game
