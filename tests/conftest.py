"""Shared helpers for the rule tests."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import spadeskit
from spadeskit import GameState, Play

pytest_plugins = ["pytester"]


def shipped(kind: str) -> list[str]:
    """Return the names of the plugins of ``kind`` that ship with spadeskit itself
    (other installed plugins, such as the example package, are left out)."""
    import importlib.metadata

    ours = {
        ep.name
        for ep in importlib.metadata.entry_points(group="spadeskit")
        if ep.value.startswith("spadeskit_plugins.")
    }
    return sorted(p.name for p in spadeskit.available() if p.kind == kind and p.name in ours)


def suit_hands() -> list[str]:
    """Return a deal where N holds every club, E diamonds, S hearts, W spades."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return [" ".join(r + s for r in ranks) for s in "CDHS"]


def play_cards(game: GameState, cards: Iterable[str]) -> GameState:
    """Apply ``Play`` for each card, each by the seat to act."""
    for card in cards:
        game = game.apply(Play(card))
    return game


def play_out(game: GameState) -> GameState:
    """Take the first legal action until the hand in progress is scored (or the match ends)."""
    number = game.hand.number
    while game.hand.number == number and not game.is_over:
        game = game.apply(game.legal_actions()[0])
    return game


def bid_all(game: GameState, bids: Iterable[spadeskit.Action]) -> GameState:
    """Apply the bids in turn."""
    for bid in bids:
        game = game.apply(bid)
    return game


@pytest.fixture
def standard() -> spadeskit.Rules:
    return spadeskit.load_rules("standard")


@pytest.fixture(autouse=True)
def _games_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games saved by ``spadeskit play`` go to a temporary folder, never the user's."""
    monkeypatch.setenv("SPADESKIT_HOME", str(tmp_path_factory.mktemp("spadeskit-home")))
