"""PIMC that solves each drawn deal double-dummy once few tricks are left."""

from __future__ import annotations

import random

import pytest

import spadeskit
from spadeskit import GameState, Phase
from spadeskit.analysis import Goal, solve
from spadeskit.arena import make_bot
from spadeskit.bots import PIMCBot
from spadeskit.bots.determinize import Determinizer


def late_position(seed: int, left: int) -> GameState:
    game = spadeskit.load_rules("standard").new_game(seed=seed)
    for _ in range(4):
        game = game.apply(spadeskit.Bid(3))
    rng = random.Random(seed)
    while game.hands[game.to_act or 0].bit_count() > left or len(game.legal_actions()) < 2:
        game = game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_solving_pimc_plays_the_best_mean_double_dummy_card_of_its_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[GameState] = []
    sample = Determinizer.sample

    def recorded(self: Determinizer, rng: random.Random) -> GameState:
        state = sample(self, rng)
        drawn.append(state)
        return state

    monkeypatch.setattr(Determinizer, "sample", recorded)
    for seed in range(6):
        game = late_position(seed, 4)
        seat = game.to_act
        assert seat is not None
        bot = PIMCBot(iterations=40, solve_last=4, veto=0)
        bot.reset(seat, game.rules, random.Random(seed))  # type: ignore[arg-type]
        drawn.clear()
        choice = bot.choose(game.view(seat))
        assert drawn and bot.last_iterations >= 40
        means: dict[spadeskit.Card, int] = {}
        for state in drawn:
            for card, value in solve(state, Goal(seat), values=True).values:
                means[card] = means.get(card, 0) + value
        assert means[choice.card] == max(means.values())  # type: ignore[attr-defined]


def test_the_solving_pimc_rolls_out_while_more_tricks_are_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved too early")

    monkeypatch.setattr("spadeskit.bots.search.solve", refuse)
    game = late_position(1, 7)
    seat = game.to_act
    assert seat is not None
    bot = make_bot("pimc[solve_last=5,iterations=30]", seat, game.rules, random.Random(1))
    assert bot.choose(game.view(seat)) in game.legal_actions()


def test_solve_last_is_a_number_of_tricks() -> None:
    with pytest.raises(spadeskit.SpadesError, match="solve_last"):
        PIMCBot(solve_last=-1)


def test_the_solving_pimc_plays_whole_hands_of_every_variant_legally() -> None:
    for variant in ("standard", "jjdd", "cutthroat", "call-break", "three-suit-trump"):
        rules = spadeskit.load_rules(variant)
        bots = [
            make_bot("pimc[solve_last=3,iterations=12]", s, rules, random.Random(s))
            for s in range(rules.table.players)
        ]
        game = rules.new_game(seed=2)
        while game.phase is not Phase.OVER and game.number == 0:
            seat = game.to_act
            assert seat is not None
            game = game.apply(bots[seat].choose(game.view(seat)), seat)
