"""The last raw exceptions and accepted nonsense at the library's entry points (issue
51): each is refused with a SpadesError subclass, and nothing changes."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit


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


JUNK = st.recursive(
    st.one_of(
        st.integers(),
        st.integers(min_value=10**30, max_value=10**40),
        st.floats(allow_nan=True),
        st.booleans(),
        st.none(),
        st.text(max_size=8),
        st.sampled_from([spadeskit.Play("2C"), spadeskit.Nil(), object()]),
    ),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["play_bots", "reap", "orphan", "news", "events", "join", "leave"]), JUNK)
def test_a_table_refuses_junk_with_a_spades_error_and_is_unchanged(method: str, value: Any) -> None:
    table = spadeskit.Table(spadeskit.load_rules("standard"), seed=1, bots={1: "random"})
    before, seats = table.game, table.seats
    try:
        getattr(table, method)(value)
    except spadeskit.SpadesError:
        assert table.game is before and table.seats == seats


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["expire", "remove", "add"]), JUNK)
def test_a_store_refuses_junk_with_a_spades_error(method: str, value: Any) -> None:
    store = spadeskit.SQLiteStore(":memory:", key="a server key of sixteen bytes")
    with contextlib.suppress(spadeskit.SpadesError):
        getattr(store, method)(value)
    store.close()
