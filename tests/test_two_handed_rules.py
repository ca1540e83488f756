"""Two-handed draw-pile Spades, one test per ruling of RULINGS.md "two-handed"."""

from __future__ import annotations

import json

import pytest

import spadeskit
from spadeskit import Bid, Nil, Play
from spadeskit.arena import play_match
from spadeskit.bots import SimpleBot
from tests.conftest import bid_all, suit_hands

# N holds the clubs, S the diamonds; the pile is hearts then spades, top card first.
CLUBS, DIAMONDS, HEARTS, SPADES = suit_hands()
PILE = " ".join(" ".join(pair) for pair in zip(HEARTS.split(), SPADES.split()))


@pytest.fixture
def two() -> spadeskit.Rules:
    return spadeskit.load_rules("two-handed")


def test_13_each_and_the_other_26_face_down_as_a_draw_pile(two: spadeskit.Rules) -> None:
    """13 each; the other 26 face down as a draw pile."""
    game = two.new_game(seed=5)
    assert [len(game.cards(s)) for s in (0, 1)] == [13, 13]
    assert len(game.hand.pile) == 26
    view = game.view(0)
    assert view.pile_size == 26 and view.card_counts == (13, 13)
    text = json.dumps(view.to_json())
    for index in game.hand.pile:
        assert json.dumps(spadeskit.core.cards.card_at(index).code) not in text


def test_bids_after_the_deal_0_to_26_nil_100(two: spadeskit.Rules) -> None:
    """Bids after the deal, 0–26, nil ±100."""
    game = two.new_game(seed=5)
    assert game.legal_actions() == (Nil(),) + tuple(Bid(n) for n in range(1, 27))
    assert two.score_hand(bids=["nil", 20], books=[0, 26]).points == (100, 206)
    assert two.score_hand(bids=["nil", 20], books=[2, 24]).points == (-98, 204)


def test_after_each_trick_the_winner_draws_the_top_card_then_the_loser_the_next(
    two: spadeskit.Rules,
) -> None:
    """After each trick the winner draws the top card, then the loser draws the next."""
    game = two.new_game(deal=[CLUBS, DIAMONDS], pile=PILE, dealer=1)
    game = bid_all(game, [Bid(6), Bid(6)])
    game = game.apply(Play("2C")).apply(Play("2D"))  # N leads, S cannot follow: N wins
    assert game.hand.tricks[0].winner == 0
    assert spadeskit.parse_card("2H") in game.cards(0)
    assert spadeskit.parse_card("2S") in game.cards(1)
    assert len(game.hand.pile) == 24 and [len(game.cards(s)) for s in (0, 1)] == [13, 13]
    assert game.to_act == 0


def test_each_drawn_card_is_seen_only_by_its_drawer(two: spadeskit.Rules) -> None:
    """Each drawn card is seen only by its drawer."""
    game = two.new_game(deal=[CLUBS, DIAMONDS], pile=PILE, dealer=1)
    game = bid_all(game, [Bid(6), Bid(6)])
    game = game.apply(Play("2C")).apply(Play("2D"))
    north, south = (json.dumps(game.view(s).to_json()) for s in (0, 1))
    assert '"2H"' in north and '"2H"' not in south
    assert '"2S"' in south and '"2S"' not in north
    spectator = json.dumps(game.view(None).to_json())
    assert '"2H"' not in spectator and '"2S"' not in spectator


def test_26_tricks_in_all(two: spadeskit.Rules) -> None:
    """26 tricks in all: every card of the deck is played."""
    game = two.new_game(seed=9)
    game = bid_all(game, [Bid(10), Bid(10)])
    while game.hand.number == 0:
        if len(game.hand.tricks) == 25 and len(game.hand.trick) == 1:
            last = game.hand
        game = game.apply(game.legal_actions()[0])
    result = game.hand_results[0]
    assert sum(result.books) == 26
    assert len(last.tricks) == 25 and not last.pile


def test_standard_scoring_and_bags(two: spadeskit.Rules) -> None:
    """Standard scoring: 10 a trick bid, 1 a bag, set −10 a trick, 100 off for 10 bags."""
    result = two.score_hand(bids=[10, 12], books=[14, 12], bags=[8, 0])
    assert result.points == (104 - 100, 120) and result.bags == (2, 0)
    assert two.score_hand(bids=[14, 10], books=[13, 13]).points == (-140, 103)


def test_target_500() -> None:
    """Target 500."""
    assert spadeskit.load_rules("two-handed").options["target"] == 500
    rules = spadeskit.load_rules("two-handed", options={"floor": None})  # only the target ends it
    game = play_match(rules, [SimpleBot(rules), SimpleBot(rules)], seed=7)
    assert game.winner is not None and game.scores[game.winner] >= 500
    assert all(max(r.scores) < 500 for r in game.hand_results[:-1])
