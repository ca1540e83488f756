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


def test_the_solving_pimc_plays_the_card_of_the_best_mean_score_over_its_solved_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each drawn deal is solved double-dummy, and each card's tricks there are scored
    # as the rules score the hand (everyone bid 3: the side's score less ten a bag,
    # against the other side's): the card with the best total is played.
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
        bot = PIMCBot(solve_last=4, solve_deals=12, veto=0, match_weight=0)
        bot.reset(seat, game.rules, random.Random(seed))  # type: ignore[arg-type]
        drawn.clear()
        choice = bot.choose(game.view(seat))
        assert len(drawn) == 12 and bot.last_iterations == 12 * len(game.legal_actions())
        totals: dict[spadeskit.Card, float] = {}
        for state in drawn:
            for card, tricks in solve(state, Goal(seat), values=True).values:
                totals[card] = totals.get(card, 0) + margin(game, seat, tricks)
        assert totals[choice.card] == max(totals.values())  # type: ignore[attr-defined]


def margin(game: GameState, seat: int, tricks: int) -> float:
    """Return the score margin of ``seat``'s side when it ends the hand on ``tricks``."""
    books = [0] * 4
    books[seat], books[(seat + 1) % 4] = tricks, 13 - tricks
    score = game.rules.score_hand(bids=[3] * 4, books=books)
    value = [float(p) for p in score.points]
    for line in score.lines:
        value[line.side] -= 10 * max(0, line.bags)
    side = seat % 2
    return value[side] - value[1 - side]


def test_the_solving_pimc_rolls_out_while_more_tricks_are_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved too early")

    monkeypatch.setattr("spadeskit.bots.solved.solve", refuse)
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


def test_the_solving_pimc_keeps_the_heuristics_card_within_its_veto() -> None:
    # Scored as the rules score the hand, the solved deals' rewards are a rollout's:
    # a veto larger than any difference leaves the heuristic's card, and with none the
    # best card is played even where the heuristic prefers another.
    differs = 0
    for seed in range(8):
        game = late_position(seed, 5)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        choices = []
        for veto in (1000.0, 0.0):
            bot = PIMCBot(solve_last=5, solve_deals=8, veto=veto)
            bot.reset(seat, game.rules, random.Random(seed))  # type: ignore[arg-type]
            choices.append(bot.choose(view))
        assert choices[0] == bot.heuristic.choose(view)
        differs += choices[1] != choices[0]
    assert differs
