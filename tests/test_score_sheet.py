"""The score sheet for paper games: it scores exactly as a game played card by card."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

import spadeskit
from spadeskit import BlindNil, GameOver, IllegalAction, ScoreSheet, SpadesError
from spadeskit.core.results import BookTransfer

PAPER = [
    ("standard", (), {}),
    ("standard", ("blind-nil", "boston", "partnership-nil"), {}),
    ("standard", ("no-bags",), {"target": 250}),
    ("jjdd", (), {"target": 300}),
    ("jjdd", (), {"enforcement": "table", "nil": True}),
    ("cutthroat", (), {}),
    ("two-handed", (), {}),
]


def copied(game: spadeskit.GameState) -> ScoreSheet:
    """Return the sheet of a finished game, written from its hands' bids and books."""
    first = game.hand_results[0].dealer
    sheet = game.rules.score_sheet(dealer=first)
    for result in game.hand_results:
        assert sheet.dealer == result.dealer
        sheet = sheet.add_hand(result.bids, result.books, transfers=result.transfers)
    return sheet


@pytest.mark.parametrize(("variant", "house", "options"), PAPER)
def test_a_sheet_of_bids_and_books_scores_exactly_as_the_game_played_card_by_card(
    variant: str, house: tuple[str, ...], options: dict[str, Any]
) -> None:
    rules = spadeskit.load_rules(variant, house, options)
    for seed in range(6):
        rng = random.Random(seed)
        game = rules.new_game(seed=seed)
        while not game.is_over:
            game = game.apply(rng.choice(game.legal_actions()))
        sheet = copied(game)
        # Everything but who took the last book, which a paper sheet does not know.
        assert sheet.results == tuple(
            attrs.evolve(r, last_trick_winner=None) for r in game.hand_results
        )
        assert (sheet.scores, sheet.bags, sheet.is_over, sheet.winner) == (
            game.scores,
            game.bags,
            True,
            game.winner,
        )
        assert sheet.reason == game.match.end.reason  # type: ignore[union-attr]


def test_bids_must_be_in_the_variants_range_and_errors_name_the_seat() -> None:
    """Validation: bids in the variant's range, typed errors naming the seat."""
    sheet = spadeskit.load_rules("standard").score_sheet()
    with pytest.raises(
        IllegalAction, match=r"seat 1 \(E\) cannot bid bid 14 here; allowed: nil, bid 1"
    ):
        sheet.add_hand(bids=[3, 14, 3, 3], books=[3, 4, 3, 3])
    with pytest.raises(IllegalAction, match=r"seat 2 \(S\): cannot read the bid 'lots'"):
        sheet.add_hand(bids=[3, 3, "lots", 3], books=[3, 4, 3, 3])
    with pytest.raises(IllegalAction, match="seat 0"):
        sheet.add_hand(bids=[-1, 3, 3, 3], books=[3, 4, 3, 3])
    board = spadeskit.load_rules("jjdd").score_sheet()
    with pytest.raises(
        IllegalAction, match=r"seat 2 \(S\) cannot bid bid 1 here"
    ):  # N/S must make board (4)
        board.add_hand(bids=[2, 2, 1, 2], books=[3, 4, 3, 3])
    assert sheet.results == ()  # refused input changes nothing


def test_books_must_be_whole_non_negative_and_add_up_to_the_hands_tricks() -> None:
    """Validation: books non-negative and summing to the hand's tricks."""
    sheet = spadeskit.load_rules("standard").score_sheet()
    with pytest.raises(SpadesError, match=r"seat 1 \(E\) took -1 books"):
        sheet.add_hand(bids=[3, 3, 3, 3], books=[7, -1, 4, 3])
    with pytest.raises(SpadesError, match=r"took True books"):
        sheet.add_hand(bids=[3, 3, 3, 3], books=[True, 5, 4, 3])
    with pytest.raises(SpadesError, match="add up to 12, but a hand of 'standard' has 13 tricks"):
        sheet.add_hand(bids=[3, 3, 3, 3], books=[3, 3, 3, 3])
    with pytest.raises(SpadesError, match="give 4 bids"):
        sheet.add_hand(bids=[3, 3, 3], books=[4, 3, 3, 3])
    two = spadeskit.load_rules("two-handed").score_sheet().add_hand(bids=[10, 12], books=[14, 12])
    assert two.scores == (104, 120)


def test_a_scorekeepers_0_is_nil_where_the_variant_has_nil_and_a_bid_where_it_does_not() -> None:
    standard = (
        spadeskit.load_rules("standard")
        .score_sheet()
        .add_hand(bids=[0, 4, 4, 4], books=[0, 4, 5, 4])
    )
    assert standard.hands[0].bids[0] == spadeskit.Nil()
    jjdd = (
        spadeskit.load_rules("jjdd").score_sheet().add_hand(bids=[4, 4, 0, 0], books=[5, 4, 0, 4])
    )
    assert jjdd.hands[0].bids[2] == spadeskit.Bid(0)


def test_blind_nil_is_written_as_it_was_bid() -> None:
    sheet = spadeskit.load_rules("standard", ["blind-nil"]).score_sheet()
    sheet = sheet.add_hand(bids=["blind nil", 4, 5, 4], books=[0, 4, 5, 4])
    assert sheet.hands[0].bids[0] == BlindNil() and sheet.scores == (250, 80)


def test_undo_removes_the_last_hand_and_a_finished_match_takes_no_more() -> None:
    sheet = spadeskit.load_rules("standard", options={"target": 100}).score_sheet()
    one = sheet.add_hand(bids=[4, 3, 3, 3], books=[4, 3, 3, 3])
    two = one.add_hand(bids=[4, 3, 3, 3], books=[4, 3, 3, 3])
    assert two.is_over and two.winner == 0 and "reached 100" in (two.reason or "")
    assert two.undo() == one and one.undo() == sheet
    with pytest.raises(spadeskit.SpadesError, match="nothing to undo"):
        sheet.undo()
    with pytest.raises(GameOver, match="the match is over"):
        two.add_hand(bids=[4, 3, 3, 3], books=[4, 3, 3, 3])


def test_the_sheet_round_trips_through_json_and_refuses_a_bad_one() -> None:
    rules = spadeskit.load_rules("jjdd", options={"enforcement": "table"})
    sheet = rules.score_sheet(dealer=1).add_hand(
        bids=[4, 4, 1, 1],
        books=[4, 3, 3, 3],
        transfers=[BookTransfer(1, 0, 3, "E/W reneged in trick 2")],
    )
    data = json.loads(json.dumps(sheet.to_json()))
    assert spadeskit.load_score_sheet(data) == sheet
    data["hands"][0]["books"] = [4, 3, 3, 4]
    with pytest.raises(spadeskit.RecordError, match="does not score again: the books add up to 14"):
        spadeskit.load_score_sheet(data)
    with pytest.raises(spadeskit.RecordError, match="not a spadeskit score sheet"):
        spadeskit.load_score_sheet({"format": "spadeskit-record"})


def test_three_suit_trump_is_scored_from_the_cards_won_and_unasked_seats_write_none() -> None:
    rules = spadeskit.load_rules("three-suit-trump")
    deck = [c.code for c in rules.table.deck]
    spades = [c for c in deck if c.endswith("S")]
    won = [
        spades + [c for c in deck if c.endswith("C")],
        [c for c in deck if c.endswith("H")],
        [c for c in deck if c.endswith("D")],
    ]
    sheet = rules.score_sheet().add_hand(bids=["pick up", None, None], books=[6, 2, 2], won=won)
    assert sheet.results[0].points == (
        1,
        0,
        0,
    )  # spades 90 + clubs 70 = 160 card points: 1 game point
    with pytest.raises(IllegalAction, match="was not asked to bid"):
        rules.score_sheet().add_hand(bids=["pick up", "pass", None], books=[6, 2, 2], won=won)
    with pytest.raises(SpadesError, match="every card is won by someone"):
        rules.score_sheet().add_hand(
            bids=["pick up", None, None], books=[6, 2, 2], won=[spades, [], []]
        )


def test_the_text_table_shows_each_hand_the_totals_and_the_winner() -> None:
    sheet = spadeskit.load_rules("standard", options={"target": 100}).score_sheet()
    sheet = sheet.add_hand(bids=[3, 2, 4, "nil"], books=[4, 3, 5, 1]).add_hand(
        bids=[4, 3, 3, 3], books=[4, 3, 3, 3]
    )
    text = str(sheet)
    assert "N/S" in text and "E/W" in text and "nil" in text and "bags" in text
    assert text.splitlines()[-1] == "Match over: won by N/S with 142: reached 100"


def test_score_hand_checks_its_input_the_way_the_score_sheet_does() -> None:
    """score_hand keeps working and validates the same way as the score sheet."""
    rules = spadeskit.load_rules("standard")
    assert rules.score_hand(bids=[3, 2, 4, "nil"], books=[4, 3, 5, 1]).points == (72, -78)
    with pytest.raises(IllegalAction, match=r"seat 1 \(E\) cannot bid bid 14"):
        rules.score_hand(bids=[3, 14, 3, 3], books=[3, 4, 3, 3])
    with pytest.raises(SpadesError, match="add up to 25"):
        rules.score_hand(bids=[3, 3, 3, 3], books=[5, 20, 0, 0])
    with pytest.raises(SpadesError, match="took -5 books"):
        rules.score_hand(bids=[3, 3, 3, 3], books=[5, 13, 0, -5])
    with pytest.raises(SpadesError, match="scores before the hand are 2 whole numbers"):
        rules.score_hand(bids=[3, 3, 3, 3], books=[4, 3, 3, 3], scores=[1.5, 0])  # type: ignore[list-item]
    board = spadeskit.load_rules("jjdd")
    with pytest.raises(IllegalAction, match=r"seat 3 \(W\) cannot bid bid 1 here"):
        board.score_hand(bids=[6, 1, 5, 1], books=[6, 1, 5, 1])


def test_replace_hand_rescores_every_later_hand() -> None:
    """A past hand entered again: the later hands' bags and totals follow from it."""
    rules = spadeskit.load_rules("standard")
    sheet = rules.score_sheet()
    for books in ([4, 3, 3, 3], [4, 3, 3, 3], [5, 3, 3, 2]):
        sheet = sheet.add_hand(bids=[4, 3, 3, 3], books=books)
    fixed = sheet.replace_hand(0, bids=["4", "3", "3", "3"], books=["6", "3", "2", "2"])
    retyped = rules.score_sheet()
    for books in ([6, 3, 2, 2], [4, 3, 3, 3], [5, 3, 3, 2]):
        retyped = retyped.add_hand(bids=[4, 3, 3, 3], books=books)
    assert fixed == retyped and fixed.bags == (2, 0) and fixed.scores == (212, -60)
    with pytest.raises(spadeskit.SpadesError, match="no hand 3") as caught:
        sheet.replace_hand(3, bids=[4, 3, 3, 3], books=[4, 3, 3, 3])
    assert caught.value.code == "no-such-hand"
    with pytest.raises(spadeskit.SpadesError, match="hand 1: the books add up to 12"):
        sheet.replace_hand(1, bids=[4, 3, 3, 3], books=[4, 3, 3, 2])


def test_replace_hand_refuses_a_change_that_ends_the_match_before_later_hands() -> None:
    sheet = spadeskit.load_rules("standard", options={"target": 150}).score_sheet()
    sheet = sheet.add_hand([4, 3, 3, 3], [4, 3, 3, 3]).add_hand([4, 3, 3, 3], [4, 3, 3, 3])
    with pytest.raises(GameOver, match="the match now ends after hand 0"):
        sheet.replace_hand(0, [13, 0, 0, 0], [13, 0, 0, 0])


def test_load_score_sheet_takes_the_json_text_or_the_dict_and_nothing_else() -> None:
    sheet = spadeskit.load_rules("standard").score_sheet().add_hand([4, 3, 3, 3], [4, 3, 3, 3])
    assert spadeskit.load_score_sheet(json.dumps(sheet.to_json())) == sheet
    assert spadeskit.load_score_sheet(sheet.to_json()) == sheet
    with pytest.raises(spadeskit.RecordError, match="must be JSON"):
        spadeskit.load_score_sheet("{not json")
    with pytest.raises(spadeskit.RecordError, match="takes a score sheet's JSON data"):
        spadeskit.load_score_sheet([1, 2])  # type: ignore[arg-type]
