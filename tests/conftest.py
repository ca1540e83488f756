"""Shared helpers for the rule tests."""

from __future__ import annotations

import os
from collections.abc import Iterable

import pytest

import spadeskit
from spadeskit import GameState, Play

pytest_plugins = ["pytester"]

POSTGRES = os.environ.get("TABLESTORE_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
"""The PostgreSQL server the store's tests use (a libpq URL)."""


def fresh_postgres() -> str:
    """Return :data:`POSTGRES` with the store's tables dropped; skip the test if no
    server answers there (or psycopg is missing), or fail it under
    ``TABLESTORE_NEEDS_POSTGRES=1`` (CI, which starts a server)."""
    needed = os.environ.get("TABLESTORE_NEEDS_POSTGRES") == "1"
    try:
        import psycopg
    except ImportError:
        if needed:
            pytest.fail("psycopg is missing: pip install -e '.[postgres]'")
        pytest.skip("needs psycopg (the postgres extra)")
    try:
        with psycopg.connect(POSTGRES, connect_timeout=3) as db:
            db.execute("DROP TABLE IF EXISTS spadeskit_tables, spadeskit_actions")
    except psycopg.OperationalError as exc:
        if needed:
            pytest.fail(f"no PostgreSQL server at {POSTGRES}: {exc}")
        pytest.skip(f"no PostgreSQL server at {POSTGRES} (set TABLESTORE_POSTGRES)")
    return POSTGRES


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
