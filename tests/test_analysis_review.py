"""Hand reviews, par and ``spadeskit replay --review``."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

import spadeskit
from spadeskit import GameState, Phase, Play
from spadeskit.analysis import Goal, par, review, side_tricks, solve
from spadeskit.apps.cli import main


def four_tricks_left(seed: int) -> GameState:
    """Return a standard hand, everyone bid 3, played at random to 4 tricks left."""
    game = spadeskit.load_rules("standard").new_game(seed=seed)
    for _ in range(4):
        game = game.apply(spadeskit.Bid(3))
    rng = random.Random(seed)
    while len(game.tricks) < 9:
        game = game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_hand_played_out_by_par_costs_no_trick_in_review() -> None:
    start = four_tricks_left(1)
    result = par(start)
    game = start
    for card in result.plays:
        game = game.apply(Play(card))
    assert len(result.plays) == 16
    reviewed = review(game.to_record(), last=4)
    assert len(reviewed.plays) == 16
    assert reviewed.costs() == (0, 0, 0, 0)


def test_par_gives_each_side_its_double_dummy_tricks_and_the_rules_score() -> None:
    for seed in range(3):
        start = four_tricks_left(seed)
        result = par(start)
        books = result.result.books
        assert (books[0] + books[2], books[1] + books[3]) == side_tricks(start)
        assert result.result.points == start.rules.score_hand(bids=[3] * 4, books=books).points


def test_a_card_worse_than_the_best_costs_the_difference_in_review() -> None:
    for seed in range(20):
        game = four_tricks_left(seed)
        seat = game.to_act
        assert seat is not None
        solution = solve(game, Goal(seat), values=True)
        worse = [(card, value) for card, value in solution.values if value < solution.tricks]
        if worse:
            break
    else:
        pytest.fail("no position with a costly card among 20")
    card, value = worse[0]
    game = game.apply(Play(card))
    while game.phase is Phase.PLAY:
        game = game.apply(game.legal_actions()[0])
    first = review(game.to_record(), last=4).plays[0]
    assert (first.seat, first.card, first.cost) == (seat, card, solution.tricks - value)
    assert set(first.best_cards) == set(solution.best()) and card not in first.best_cards


def test_review_takes_a_nil_bidders_goal_as_the_fewest_tricks_of_its_own() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=3)
    game = game.apply(spadeskit.Nil())
    for _ in range(3):
        game = game.apply(spadeskit.Bid(3))
    while game.phase is Phase.PLAY and len(game.tricks) < 12:
        game = game.apply(game.legal_actions()[0])
    while game.phase is Phase.PLAY:
        game = game.apply(game.legal_actions()[0])
    plays = review(game.to_record(), last=1).plays
    assert [p.goal for p in plays if p.seat == 0] == [Goal(0, "nil")]
    assert [p.goal for p in plays if p.seat == 1] == [Goal(1, "side")]


def test_review_refuses_a_bad_number_of_tricks() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=1)
    with pytest.raises(spadeskit.SpadesError, match="number of tricks"):
        review(game.to_record(), last=0)
    with pytest.raises(spadeskit.SpadesError, match="hand's number"):
        review(game.to_record(), hand=-1)


def test_review_of_one_hand_reviews_only_its_cards() -> None:
    game = four_tricks_left(3)
    while game.phase is Phase.PLAY:
        game = game.apply(game.legal_actions()[0])
    record = game.to_record()
    assert review(record, hand=1, last=2).plays == ()
    assert review(record, hand=0, last=2) == review(record, last=2)
    assert len(review(record, hand=0, last=2).plays) == 8


def test_replay_review_prints_each_trick_and_what_each_seat_lost(
    capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path
) -> None:
    start = four_tricks_left(2)
    game = start
    while game.phase is Phase.PLAY:
        game = game.apply(game.legal_actions()[-1])
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(game.to_record()))
    status = main(["replay", str(path), "--review", "--last", "2"])
    out = capsys.readouterr().out
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Hand 1" and lines[1].startswith("  trick 12: ")
    assert lines[3].startswith("  tricks lost double-dummy: N ")
    assert len(lines) == 4
