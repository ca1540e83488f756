"""Cutthroat (three-handed) Spades, one test per ruling of RULINGS.md "cutthroat"."""

from __future__ import annotations

import pytest

import spadeskit
from spadeskit import Bid, IllegalAction, Nil, Phase, Play
from tests.conftest import bid_all, play_cards, play_out

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
# N: all 13 hearts + AC KC QC JC; E: the other 9 clubs + 8 diamonds; S: 5 diamonds + 12 spades.
HEARTS_HAND = [
    " ".join(r + "H" for r in RANKS) + " AC KC QC JC",
    " ".join(r + "C" for r in RANKS[:9]) + " " + " ".join(r + "D" for r in RANKS[:8]),
    " ".join(r + "D" for r in RANKS[8:]) + " " + " ".join(r + "S" for r in RANKS[1:]),
]


@pytest.fixture
def cutthroat() -> spadeskit.Rules:
    return spadeskit.load_rules("cutthroat")


def test_remove_the_2_of_spades_51_cards_17_each(cutthroat: spadeskit.Rules) -> None:
    """Remove the 2♠: 51 cards, 17 each."""
    assert (
        len(cutthroat.table.deck) == 51 and spadeskit.parse_card("2S") not in cutthroat.table.deck
    )
    game = cutthroat.new_game(seed=3)
    assert [len(game.cards(s)) for s in range(3)] == [17, 17, 17]
    with pytest.raises(spadeskit.DealError, match="is not in the deck of .cutthroat."):
        cutthroat.new_game(deal=["2S 3S", "4S", "5S"])


def test_no_partnerships_each_player_is_a_side(cutthroat: spadeskit.Rules) -> None:
    """No partnerships."""
    assert cutthroat.table.sides == ((0,), (1,), (2,))
    assert cutthroat.table.side_names == cutthroat.table.seat_names


def test_each_player_bids_0_to_17_and_0_is_nil(cutthroat: spadeskit.Rules) -> None:
    """Each player bids 0–17; 0 is nil."""
    game = cutthroat.new_game(seed=1)
    assert game.legal_actions() == (Nil(),) + tuple(Bid(n) for n in range(1, 18))
    with pytest.raises(IllegalAction):
        game.apply(Bid(18))


def test_standard_scoring_per_player(cutthroat: spadeskit.Rules) -> None:
    """Standard scoring per player (10 per trick bid, bags)."""
    result = cutthroat.score_hand(bids=[5, 4, 3], books=[7, 2, 8])
    assert result.points == (52, -40, 35)
    assert result.bags == (2, 0, 5)


def test_nil_scores_plus_or_minus_100(cutthroat: spadeskit.Rules) -> None:
    """Nil ±100."""
    assert cutthroat.score_hand(bids=["nil", 8, 9], books=[0, 8, 9]).points == (100, 80, 90)
    assert cutthroat.score_hand(bids=["nil", 8, 8], books=[1, 8, 8]).points == (-99, 80, 80)


def test_ten_bag_penalty_per_player(cutthroat: spadeskit.Rules) -> None:
    """The 10-bag penalty applies to each player's own counter."""
    result = cutthroat.score_hand(bids=[3, 3, 3], books=[5, 6, 6], bags=[9, 0, 0])
    assert result.points == (32 - 100, 33, 33) and result.bags == (1, 3, 3)


def test_first_to_200_wins() -> None:
    """First to 200 wins."""
    rules = spadeskit.load_rules("cutthroat")
    game = rules.new_game(seed=2)
    while not game.is_over:
        game = play_out(game)
    end = game.match.end
    assert end is not None
    top = max(game.scores)
    assert top >= 200 or min(game.scores) <= -200
    assert end.reason


def test_taking_all_17_tricks_wins_the_match_at_once(cutthroat: spadeskit.Rules) -> None:
    """A player who takes all 17 tricks wins the match at once (all_tricks=win)."""
    game = _all_seventeen(cutthroat)
    assert game.is_over and game.winner == 2
    assert "took all 17 tricks" in game.match.end.reason  # type: ignore[union-attr]
    assert game.scores[2] < 200


def test_all_tricks_option_score_200_scores_200_for_the_hand() -> None:
    """Option all_tricks=score-200: taking all 17 scores 200 for the hand."""
    rules = spadeskit.load_rules("cutthroat", options={"all_tricks": "score-200", "target": 500})
    game = _all_seventeen(rules)
    assert not game.is_over
    result = game.hand_results[0]
    assert result.points[2] == 200 and "took all 17 tricks: +200" in result.lines[-1].text


def test_all_tricks_option_refuses_unknown_values() -> None:
    """The all_tricks option takes only 'win' or 'score-200'."""
    with pytest.raises(spadeskit.OptionError, match="all_tricks"):
        spadeskit.load_rules("cutthroat", options={"all_tricks": "double"})


def _all_seventeen(rules: spadeskit.Rules) -> spadeskit.GameState:
    # S holds AD KD QD JD 10D and 12 spades and leads (dealer 1): it wins every trick.
    game = rules.new_game(deal=HEARTS_HAND, dealer=1)
    assert game.to_act == 2
    game = bid_all(game, [Bid(5), Bid(4), Bid(3)])
    game = play_cards(game, ["AD", "2H", "2D"])
    assert game.hand.tricks[0].winner == 2
    return play_out(game)


def test_play_follows_standard_rules_with_three_cards_a_trick(cutthroat: spadeskit.Rules) -> None:
    """Follow suit, spades trump, three cards a trick, winner leads."""
    game = cutthroat.new_game(deal=HEARTS_HAND, dealer=1)
    game = bid_all(game, [Bid(5), Bid(4), Bid(3)])
    game = play_cards(game, ["KD", "2H"])
    with pytest.raises(IllegalAction, match="follow"):
        game.apply(Play("10C"))
    game = game.apply(Play("2D"))
    assert game.hand.tricks[0].winner == 2 and game.phase is Phase.PLAY and game.to_act == 2


def _end(
    rules: spadeskit.Rules, scores: tuple[int, ...], bids: list[object], books: list[int]
) -> spadeskit.MatchEnd | None:
    from spadeskit.core.results import HandResult
    from spadeskit.core.seating import FrozenMap
    from spadeskit.core.state import MatchState

    actions = tuple(spadeskit.Nil() if b == "nil" else Bid(b) for b in bids)  # type: ignore[arg-type]
    result = HandResult(0, 2, actions, tuple(books), (), (0, 0, 0), scores, (0, 0, 0))
    match = MatchState(scores, (0, 0, 0), (result,), (), None, FrozenMap())
    end: spadeskit.MatchEnd | None = rules.hook.spadeskit_match_end(
        match=match, result=result, table=rules.table, options=rules.options
    )
    return end


def test_a_player_at_or_below_the_floor_loses_and_the_best_of_the_rest_wins(
    cutthroat: spadeskit.Rules,
) -> None:
    """A player at or below −200 (option ``floor``) loses; with more than two sides, the
    losers drop out and the best of the rest wins; an exact tie at the top plays on."""
    assert cutthroat.options["floor"] == -200
    end = _end(cutthroat, (150, -220, 120), [3, 3, 3], [5, 6, 6])
    assert (
        end is not None
        and end.winner == 0
        and "E fell to -220 (at or below -200)" in end.reason
        and end.reason.startswith("won by N with 150")
    )
    assert _end(cutthroat, (150, -220, 150), [3, 3, 3], [5, 6, 6]) is None
    assert (
        _end(
            spadeskit.load_rules("cutthroat", options={"floor": None}),
            (150, -220, 120),
            [3, 3, 3],
            [5, 6, 6],
        )
        is None
    )


def test_all_tricks_applies_to_a_player_who_bid_not_to_a_nil(cutthroat: spadeskit.Rules) -> None:
    """A player who bid (not nil) and takes all 17 tricks wins the match at once; a nil
    bidder who takes them has failed the nil."""
    won = _end(cutthroat, (0, 0, 0), [5, 6, 6], [17, 0, 0])
    assert won is not None and won.winner == 0
    assert _end(cutthroat, (0, 0, 0), ["nil", 6, 6], [17, 0, 0]) is None
    assert cutthroat.score_hand(bids=["nil", 6, 6], books=[17, 0, 0]).points[0] < 0


def test_score_200_replaces_the_contract_line_and_scores_no_bags() -> None:
    """``all_tricks="score-200"``: 200 replaces that player's contract line and scores no bags."""
    rules = spadeskit.load_rules("cutthroat", options={"all_tricks": "score-200"})
    score = rules.score_hand(bids=[5, 6, 6], books=[17, 0, 0])
    assert score.points[0] == 200 and score.bags[0] == 0
    assert [ln.text for ln in score.lines if ln.side == 0] == ["N took all 17 tricks: +200"]
    nil = rules.score_hand(bids=["nil", 6, 6], books=[17, 0, 0])
    assert nil.points[0] != 200  # a nil bidder who takes every trick failed the nil
