"""The double-dummy solver against an independent bridge solver (endplay, on Bo
Haglund's DDS) where bridge and Spades play alike: spades trump, no restriction on
leading them (spades broken, or the ``spades-anytime`` house rule), no jokers."""

from __future__ import annotations

import random

import pytest

import spadeskit
from spadeskit import GameState
from spadeskit.analysis import Goal, solve

dds = pytest.importorskip("endplay.dds")
types = pytest.importorskip("endplay.types")

RANKS = "23456789TJQKA"


def pbn(game: GameState) -> str:
    """Return the hands as a PBN deal, North first, suits spades to clubs."""
    hands = []
    for mask in game.hands:
        suits = []
        for suit in (3, 2, 1, 0):  # spades, hearts, diamonds, clubs
            ranks = [RANKS[i % 13] for i in range(suit * 13, suit * 13 + 13) if mask >> i & 1]
            suits.append("".join(reversed(ranks)))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def comparable(rng: random.Random, most: int = 5) -> GameState:
    """Return a position at the start of a trick, 1 to ``most`` tricks left, where any
    card may be led: a standard hand after spades are broken, or one under
    spades-anytime."""
    house = ["spades-anytime"] if rng.random() < 0.5 else []
    while True:
        game = spadeskit.load_rules("standard", house_rules=house).new_game(
            seed=rng.randrange(2**32)
        )
        for _ in range(4):
            game = game.apply(spadeskit.Bid(3))
        left = rng.randint(1, most)
        while len(game.tricks) < 13 - left or game.trick:
            game = game.apply(rng.choice(game.legal_actions()))
        if house or game.played & (0x1FFF << 39):
            return game


def test_solver_agrees_with_a_bridge_solver_on_two_hundred_positions() -> None:
    rng = random.Random(11)
    for _ in range(200):
        agree_with_the_bridge_solver(comparable(rng))


@pytest.mark.slow
def test_solver_agrees_with_a_bridge_solver_on_longer_endings() -> None:
    # Up to 10 tricks left: deep enough that the transposition table's results (kept
    # with the ranks they rest on) answer for positions reached by other paths.
    rng = random.Random(12)
    for _ in range(100):
        agree_with_the_bridge_solver(comparable(rng, 10))


def agree_with_the_bridge_solver(game: GameState) -> None:
    """Assert that the solver and endplay give every card of ``game`` the same tricks."""
    seat = game.to_act
    assert seat is not None
    deal = types.Deal(pbn(game), first=types.Player(seat), trump=types.Denom.spades)
    theirs = {_code(card): tricks for card, tricks in dds.solve_board(deal)}
    solution = solve(game, Goal(seat), values=True)
    won = game.books[seat] + game.books[(seat + 2) % 4]
    ours = {card.code.replace("10", "T"): value - won for card, value in solution.values}
    assert solution.tricks - won == max(theirs.values())
    for code, tricks in theirs.items():  # endplay lists one card of each equal run
        assert ours[code] == tricks, (pbn(game), code)


def _code(card: object) -> str:
    """Return an endplay card as ``"TS"``-style text (rank then suit letter)."""
    text = str(card)  # the suit symbol, then the rank: "♠T"
    return text[1:].replace("10", "T") + "SHDC"["♠♥♦♣".index(text[0])]
