"""The last raw exceptions and accepted nonsense at the library's entry points (issue
51): each is refused with a SpadesError subclass, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

import spadeskit
from spadeskit.core.results import BookTransfer


@pytest.mark.parametrize("trump", [10**100, [1], {"a": 1}, None, "x" * 10_000])
def test_trick_winner_refuses_a_trump_that_is_not_short_text(trump: Any) -> None:
    rules = spadeskit.load_rules("standard")
    with pytest.raises(spadeskit.SpadesError, match="trump"):
        rules.trick_winner([(0, "AS"), (1, "KS")], trump=trump)
    assert rules.trick_winner([(0, "KS"), (1, "AS")]) == 1


@pytest.mark.parametrize(
    "data",
    [
        {"type": "exchange", "cards": ["AS", "AS"]},
        {"type": "exchange", "cards": ["AS", "as"]},
        {"type": "discard", "cards": ["7C", "7C", "9S"]},
        {"type": "exchange", "cards": "AS KS"},
        {"type": "discard", "cards": "7C"},
    ],
)
def test_action_from_json_takes_cards_as_a_list_each_card_once(data: dict[str, Any]) -> None:
    with pytest.raises(spadeskit.RecordError):
        spadeskit.action_from_json(data)


def test_action_from_json_still_reads_every_action_it_writes() -> None:
    for action in (
        spadeskit.Exchange(["AS", "KS"]),
        spadeskit.Discard(["7C"]),
        spadeskit.Play("10H"),
        spadeskit.Bid(4),
    ):
        assert spadeskit.action_from_json(action.to_json()) == action


@pytest.mark.parametrize("books", [10**30, 14])
def test_a_score_sheet_transfer_moves_at_most_a_hands_tricks(books: int) -> None:
    sheet = spadeskit.load_rules("jjdd").score_sheet()
    with pytest.raises(spadeskit.SpadesError, match="transfer moves at most 13 books"):
        sheet.add_hand([3] * 4, [4, 3, 3, 3], transfers=[BookTransfer(0, 1, books, "renege")])
    assert sheet.add_hand([3] * 4, [4, 3, 3, 3], transfers=[BookTransfer(0, 1, 3, "renege")])
