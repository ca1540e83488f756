"""The web table in a real browser: headless Chromium (the system's) plays a whole hand
through the page as a person would: create the table in the lobby, take a seat, bid,
click cards (a refused one too), reload and resume, see the hand's end and its score
lines.  Every message the page received is then checked: none shows another seat's
cards before they are played."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import spadeskit
import spadeskit.analysis
from spadeskit import iter_replay
from spadeskit.plugin import card_at
from spadeskit_web_table.server import SETTINGS, TABLES

from .conftest import Server

WAIT = 15.0
CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([SHDC\u2660\u2665\u2666\u2663])(?![A-Za-z0-9])")
SYMBOL = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}


def wait_for(driver: Any, script: str, timeout: float = WAIT) -> Any:
    """Wait until the JavaScript expression ``script`` is truthy; return its value."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: d.execute_script(f"return {script}"))


def messages(driver: Any) -> list[dict[str, Any]]:
    return [json.loads(m) for m in driver.execute_script("return window.spadeskitMessages")]


def cards_in(data: Any) -> set[str]:
    """Every card named anywhere in ``data``: as a code ("QH") or as text ("Q♥"); a
    seat's token is random text, not read (it may hold "_JC-")."""
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "token"}
    text = json.dumps(data, ensure_ascii=False)
    return {rank + SYMBOL.get(suit, suit) for rank, suit in CARD.findall(text)}


def played(view: dict[str, Any]) -> set[str]:
    cards = {code for _, code in view["trick"]}
    for trick in view["tricks"]:
        cards |= {code for _, code in trick["plays"]}
    return cards


def test_a_whole_hand_in_the_browser(server: Server, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    # The lobby: standard with Boston, bots at E, S and W (checked by default).
    browser.get(server.url + "/?seed=11")
    wait_for(browser, "document.querySelectorAll('#variant option').length > 0")
    Select(browser.find_element(By.ID, "variant")).select_by_value("standard")
    browser.find_element(By.CSS_SELECTOR, "input[name=house-rule][value=boston]").click()
    browser.find_element(By.ID, "create").click()
    wait_for(browser, "location.search.startsWith('?table=')")
    name = browser.current_url.split("table=")[1]
    table = server.app[TABLES][name].table
    assert table.rules.name == "standard + boston"

    # Take seat N.
    wait_for(browser, "document.querySelector('#free-seats button[data-seat=\"0\"]')")
    browser.find_element(By.ID, "name").clear()
    browser.find_element(By.ID, "name").send_keys("Ann")
    browser.find_element(By.CSS_SELECTOR, '#free-seats button[data-seat="0"]').click()
    wait_for(browser, "!document.getElementById('table').hidden && document.body.dataset.phase")
    assert "Ann" in browser.find_element(By.ID, "pos-bottom").text

    received: list[dict[str, Any]] = []
    refused = reloaded = False
    screenshot = os.environ.get("WEB_TABLE_SCREENSHOT")
    for _ in range(40):
        wait_for(
            browser,
            "document.body.dataset.toAct === '0' || !document.getElementById('hand-end').hidden",
        )
        if not browser.find_element(By.ID, "hand-end").is_displayed():
            phase = browser.execute_script("return document.body.dataset.phase")
        else:
            break
        if phase == "auction":
            bids = browser.find_elements(By.CSS_SELECTOR, "#actions button")
            [bid] = [b for b in bids if b.text == "bid 3"]
            bid.click()
            wait_for(browser, "document.querySelector('#pos-bottom .bid').textContent === 'bid 3'")
            continue
        held = len(browser.find_elements(By.CSS_SELECTOR, "#hand .card"))
        dimmed = browser.find_elements(By.CSS_SELECTOR, "#hand .card.dimmed")
        if dimmed and not refused:
            # A card the rules refuse: the page says why and nothing changes.
            dimmed[0].click()
            wait_for(browser, "document.getElementById('message').textContent")
            message = browser.find_element(By.ID, "message").text
            assert "cannot play" in message and ("follow" in message or "spade" in message), message
            assert len(browser.find_elements(By.CSS_SELECTOR, "#hand .card")) == held
            refused = True
        legal = browser.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
        assert legal, "my turn to play, but no card is marked legal"
        legal[0].click()
        wait_for(
            browser,
            f"document.querySelectorAll('#hand .card').length === {held - 1}"
            " || !document.getElementById('hand-end').hidden",
        )
        assert not browser.find_element(By.ID, "message").text
        if held == 9 and screenshot:
            browser.save_screenshot(screenshot)
        if held == 8 and not reloaded:
            # Reload mid-hand: the page takes the seat back with its token and shows
            # the same cards and the same trick history.
            received += messages(browser)
            browser.refresh()
            wait_for(browser, "document.body.dataset.phase === 'play'")
            assert len(browser.find_elements(By.CSS_SELECTOR, "#hand .card")) == held - 1
            assert "Ann" in browser.find_element(By.ID, "pos-bottom").text
            reloaded = True
    assert refused and reloaded

    # The hand's end: its score lines, the last trick, the double-dummy review (the
    # tricks each seat's cards cost, each costly card with the best), then the next hand.
    lines = browser.find_elements(By.CSS_SELECTOR, "#hand-end-lines li.score-line")
    assert len(lines) >= 2 and any("N/S bid" in line.text for line in lines)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#hand-end-trick .card")) == 4
    wait_for(browser, "document.getElementById('hand-review').dataset.ready === '1'", 60)
    summary = browser.find_element(By.ID, "hand-review-summary").text
    reviewed = spadeskit.analysis.review(table.record(), key=server.app[SETTINGS].store.key, hand=0)
    names = ["N (Ann)", "E (heuristic bot)", "S (heuristic bot)", "W (heuristic bot)"]
    assert summary.endswith(", ".join(f"{n} {c}" for n, c in zip(names, reviewed.costs())))
    costly = browser.find_elements(By.CSS_SELECTOR, "#hand-review-cards li.costly")
    assert len(costly) == sum(1 for play in reviewed.plays if play.cost)
    browser.find_element(By.ID, "continue").click()
    assert not browser.find_element(By.ID, "hand-end").is_displayed()
    assert browser.execute_script("return document.body.dataset.hand") == "1"
    bags = browser.find_elements(By.CSS_SELECTOR, "#scores td.bags")
    result = table.game.hand_results[0]
    assert [int(b.text) for b in bags] == list(table.game.match.bags)
    assert result.bids[0] == spadeskit.Bid(3)
    received += messages(browser)

    # No message ever named a card of another seat before it was played.
    mine = {}
    for step in iter_replay(table.record(), key=server.app[SETTINGS].store.key):
        mine.setdefault(step.state.number, {card_at(i).code for i in _cards(step.state.hands[0])})
    checked = 0
    for message in received:
        if "view" not in message:
            # A seat, or a refusal naming the card this page tried: one of its own.
            assert cards_in(message) <= set().union(*mine.values()), message
            continue
        view = message["view"]
        allowed = mine[view["hand_number"]] | played(view)
        for event in message["events"]:
            hand = event["hand"]
            if hand == view["hand_number"]:
                assert cards_in(event) <= allowed, event
            else:  # a finished hand's last events: every card was played
                assert cards_in(event) <= mine[hand] | set(_deck()), event
        shown_view = {k: v for k, v in view.items() if k != "events"}
        assert cards_in(shown_view) <= allowed
        assert cards_in(view["events"]) <= allowed
        checked += 1
    assert checked >= 10


def _cards(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _deck() -> list[str]:
    return [c.code for c in spadeskit.load_rules("standard").table.deck]


def play_my_turns(browser: Any, seat: int, until_hand: int) -> set[str]:
    """Play ``seat`` through the page, whatever the variant asks (bids, pick up or pass,
    discards chosen on the hand, cards), until hand ``until_hand`` starts or the match
    ends; return the kinds of decision made."""
    from selenium.webdriver.common.by import By

    made = set()
    for _ in range(200):
        wait_for(
            browser,
            f"document.body.dataset.toAct === '{seat}' || document.body.dataset.over === 'true'"
            f" || Number(document.body.dataset.hand) >= {until_hand}",
        )
        over = browser.execute_script("return document.body.dataset.over") == "true"
        if over or int(browser.execute_script("return document.body.dataset.hand")) >= until_hand:
            return made
        before = len(messages(browser))
        send = browser.find_elements(By.ID, "send-cards")
        if send:
            choosable = browser.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
            needed = int(send[0].text.split("/")[1].split()[0])
            for code in [card.get_attribute("data-card") for card in choosable[:needed]]:
                # Each click redraws the hand: find the card again by its code.
                browser.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{code}"]').click()
            browser.find_element(By.ID, "send-cards").click()
            made.add("cards")
        elif browser.find_elements(By.CSS_SELECTOR, "#hand .card.legal"):
            browser.find_elements(By.CSS_SELECTOR, "#hand .card.legal")[0].click()
            made.add("play")
        else:
            buttons = browser.find_elements(By.CSS_SELECTOR, "#actions button")
            labels = [b.text for b in buttons]
            choice = "pick up" if "pick up" in labels else labels[len(labels) // 2]
            buttons[labels.index(choice)].click()
            made.add(choice.split()[0])
        wait_for(browser, f"window.spadeskitMessages.length > {before}")
        assert not browser.find_element(By.ID, "message").text
    raise AssertionError("the hand did not end")


def test_a_three_suit_trump_hand_with_a_pick_up_and_discards_chosen_on_the_hand(
    server: Server, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    # The first to speak (the dealer's left, E) is the person, so they may pick up.
    browser.get(server.url + "/?seed=3")
    wait_for(browser, "document.querySelectorAll('#variant option').length > 0")
    Select(browser.find_element(By.ID, "variant")).select_by_value("three-suit-trump")
    for seat in (0, 1):  # bots at N and W, not E
        browser.find_element(By.CSS_SELECTOR, f'input[name=bot-seat][value="{seat}"]').click()
    browser.find_element(By.ID, "create").click()
    wait_for(browser, "location.search.startsWith('?table=')")
    wait_for(browser, "document.querySelector('#free-seats button[data-seat=\"1\"]')")
    browser.find_element(By.CSS_SELECTOR, '#free-seats button[data-seat="1"]').click()
    wait_for(browser, "document.body.dataset.phase")
    assert "pick up" in browser.find_element(By.ID, "actions").text
    made = play_my_turns(browser, 1, until_hand=1)
    assert made == {"pick", "cards", "play"}
    assert browser.find_element(By.ID, "hand-end").is_displayed()
    name = browser.current_url.split("table=")[1]
    table = server.app[TABLES][name].table
    result = table.game.hand_results[0]
    assert sum(result.books) == 10 and table.game.match.logs[0][0][1] == spadeskit.PickUp()


def test_a_whole_match_ends_with_the_score_sheet(server: Server, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    from .test_server import request

    choices = {"variant": "standard", "options": {"target": 60}, "bots": [1, 2, 3], "seed": 2}
    status, data = request(server, "POST", "/api/tables", choices)
    assert status == 200, data
    browser.get(f"{server.url}/?table={data['table']}")
    wait_for(browser, "document.querySelector('#free-seats button[data-seat=\"0\"]')")
    browser.find_element(By.CSS_SELECTOR, '#free-seats button[data-seat="0"]').click()
    wait_for(browser, "document.body.dataset.phase")
    hands = 0
    while browser.execute_script("return document.body.dataset.over") != "true":
        hands += 1
        play_my_turns(browser, 0, until_hand=hands)
        wait_for(browser, "!document.getElementById('hand-end').hidden")
        browser.find_element(By.ID, "continue").click()
    game = server.app[TABLES][data["table"]].table.game
    assert game.is_over and hands == len(game.hand_results)
    wait_for(browser, "!document.getElementById('match-end').hidden")
    title = browser.find_element(By.ID, "match-end-title").text
    assert title.startswith(game.rules.table.side_names[game.match.end.winner])
    rows = browser.find_elements(By.CSS_SELECTOR, "#score-sheet tr")
    assert len(rows) == 1 + hands
    last = [cell.text for cell in rows[-1].find_elements(By.TAG_NAME, "td")]
    assert last == [str(hands), *(str(s) for s in game.scores)]
