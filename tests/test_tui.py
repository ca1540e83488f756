"""The full-screen table (the ``tui`` extra), driven headless with Textual's pilot."""

from __future__ import annotations

import asyncio
import json
import pathlib
import random

import pytest

import spadeskit
from spadeskit.apps.prompt import Session, load_saved
from spadeskit.arena import make_bot

pytest.importorskip("textual")

from textual.widgets import Input  # noqa: E402

from spadeskit.apps.tui import HandBar, TableApp  # noqa: E402


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
    assert saved["format"] == "spadeskit-saved-game" and "actions" not in saved
    assert saved["view"]["cards"] == [c.code for c in s.game.cards(2)]
    back = load_saved(str(path))
    assert back.game == s.game and back.seat == 2 and back.game_id == s.game_id


def text_of(app: TableApp, selector: str) -> str:
    return str(app.query_one(selector).render())


def to_play(s: Session) -> bool:
    return s.waiting() and isinstance(s.view().legal_actions[0], spadeskit.Play)


def test_the_seats_sit_round_the_table_with_bids_and_books() -> None:
    s = session("standard", 2, seed=3)

    async def run() -> list[str]:
        app = TableApp(s)
        async with app.run_test(size=(120, 40)) as pilot:
            await type_text(pilot, "4")
            return text_of(app, "#felt").splitlines()

    rows = asyncio.run(run())
    # S at the bottom, W on the left (play passes to the left), partner N across, E right.
    assert rows[0].strip().startswith("N") and rows[1].strip().startswith("bid ")
    names, infos = rows[3].split(), rows[4]
    assert names[0] == "W" and "E" in names[-2:] and infos.count("books") == 2
    assert "S (you)" in rows[6] and "bid 4" in rows[7]


def test_a_card_chosen_with_the_arrow_keys_and_enter() -> None:
    s = session("standard", 2, seed=3)

    async def run() -> None:
        app = TableApp(s)
        async with app.run_test(size=(120, 40)) as pilot:
            await type_text(pilot, "4")
            assert to_play(s)
            bar = app.query_one("#hand", HandBar)
            held = len(s.view().cards)
            legal = [a.card for a in s.view().legal_actions]
            await pilot.press("tab")
            first = bar.cards[bar.cursor]  # the cursor starts on a playable card
            assert bar.has_focus and first in legal
            await pilot.press("right", "left", "enter")
            await pilot.pause()
            assert len(s.game.cards(2)) == held - 1 and first not in s.game.cards(2)

    asyncio.run(run())


def test_a_card_chosen_with_the_mouse_and_a_refused_one() -> None:
    s = session("standard", 2, seed=3)

    async def run() -> None:
        app = TableApp(s)
        async with app.run_test(size=(120, 40)) as pilot:
            await type_text(pilot, "4")
            while not (to_play(s) and len(s.view().legal_actions) < len(s.view().cards)):
                await type_text(pilot, legal_text(s))
            bar = app.query_one("#hand", HandBar)
            legal = {a.card for a in s.view().legal_actions}
            refused = next(i for i, c in enumerate(bar.cards) if c not in legal)
            chosen = next(i for i, c in enumerate(bar.cards) if c in legal)
            await pilot.click("#hand", offset=(bar._spans[refused][0] + 2, 1))
            await pilot.pause()
            card = bar.cards[refused]
            reason = next(why for c, _, why in s.view().refused if c == card)
            assert f"S cannot play {card.symbol}: {reason}" in text_of(app, "#status")
            assert bar.cards[refused] in s.game.cards(2)
            card = bar.cards[chosen]
            await pilot.click("#hand", offset=(bar._spans[chosen][0] + 2, 1))
            await pilot.pause()
            assert card not in s.game.cards(2)

    asyncio.run(run())


def test_a_finished_trick_stays_on_the_table_until_the_next_card_or_escape() -> None:
    s = session("standard", 2, seed=3)

    async def run() -> None:
        app = TableApp(s)
        async with app.run_test(size=(120, 40)) as pilot:
            await type_text(pilot, "4")
            while not (s.view().tricks and not s.view().trick):
                await type_text(pilot, legal_text(s))
            winner = s.view().seat_names[s.view().tricks[-1].winner]
            felt = text_of(app, "#felt")
            assert f"last trick: {winner} won it" in felt
            assert all(c.symbol in felt for _, c in s.view().tricks[-1].plays)
            await pilot.press("escape")
            assert "last trick" not in text_of(app, "#felt")

    asyncio.run(run())


def test_bags_the_score_sheet_and_the_last_trick_after_the_hand_ends() -> None:
    s = session("standard", 2, seed=3)

    async def run() -> tuple[str, str, str, str]:
        app = TableApp(s)
        async with app.run_test(size=(120, 40)) as pilot:
            while not s.game.hand_results:
                await type_text(pilot, legal_text(s))
            felt = text_of(app, "#felt")
            await pilot.press("ctrl+l")
            await pilot.pause()
            log = "\n".join(str(line.text) for line in app.query_one("#log").lines)
            return text_of(app, "#scores"), text_of(app, "#sheet"), felt, log

    scores, sheet, felt, log = asyncio.run(run())
    bags = s.game.match.bags
    assert f"N/S {s.game.scores[0]} ({bags[0]} bag" in scores
    result = s.game.hand_results[0]
    assert f"{result.scores[0]}/{result.bags[0]}" in sheet
    assert "last trick (hand 1):" in felt
    assert "last trick of hand 1:" in log


def test_the_input_hint_fits_the_variant_and_the_moment() -> None:
    def hint(s: Session) -> str:
        async def run() -> str:
            app = TableApp(s)
            async with app.run_test(size=(120, 40)):
                return str(app.query_one("#entry", Input).placeholder)

        return asyncio.run(run())

    assert "nil" in hint(session("standard", 2, seed=3))
    rules = spadeskit.load_rules("three-suit-trump")
    seed = next(k for k in range(100) if rules.new_game(seed=k).to_act == 0)
    assert "pick up, pass" in hint(session("three-suit-trump", 0, seed=seed))
    call_break = hint(session("call-break", 0, seed=1))
    assert "nil" not in call_break and "help" in call_break
