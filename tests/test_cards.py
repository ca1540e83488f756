"""Card parsing: every form a player writes, and refusals that say what to write."""

from __future__ import annotations

import pytest

from spadeskit import Card, CardParseError, Suit, parse_card, parse_cards


@pytest.mark.parametrize("text", ["10S", "TS", "10♠", "T♠", "ts", " 10s ", "10♤"])
def test_ten_of_spades_in_every_form(text: str) -> None:
    assert parse_card(text) == Card.of(47)
    assert parse_card(text).code == "10S"


@pytest.mark.parametrize(
    ("text", "index"), [("AS", 51), ("A♠", 51), ("2C", 0), ("KH", 37), ("QD", 23)]
)
def test_rank_and_suit_forms(text: str, index: int) -> None:
    assert parse_card(text).index == index


def test_jokers_parse_and_have_no_printed_suit() -> None:
    big, little = parse_card("BJ"), parse_card("lj")
    assert (big.index, little.index) == (53, 52)
    assert big.is_joker and big.suit is None and big.rank > little.rank


@pytest.mark.parametrize("bad", ["1S", "XX", "", "11H", "AZ", "S", "10", 54, -1, 2.5, None, True])
def test_unparseable_cards_raise_card_parse_error(bad: object) -> None:
    with pytest.raises(CardParseError, match="cannot read"):
        parse_card(bad)  # type: ignore[arg-type]


def test_parse_cards_accepts_spaces_and_commas() -> None:
    assert [c.code for c in parse_cards("AS, 10h  BJ")] == ["AS", "10H", "BJ"]


def test_cards_are_interned_and_ordered_by_index() -> None:
    assert parse_card("AS") is parse_card("A♠")
    assert sorted([parse_card("AS"), parse_card("2C")]) == [parse_card("2C"), parse_card("AS")]
    assert parse_card("AH").suit is Suit.HEARTS and parse_card("AH").symbol == "A♥"
