"""Hypothesis throws odd values at the public entry points: only SpadesError may come
out, and a refused input never changes the state it was applied to."""

from __future__ import annotations

import copy
import random
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

import spadeskit

SCALARS = st.one_of(
    st.integers(),
    st.integers(min_value=10**4000, max_value=10**4300),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.sampled_from(
        ["AS", "10H", "BJ", "nil", "blind nil", "pick up", "pass", "standard", "no-bags", "target"]
    ),
    st.sampled_from([spadeskit.Card.of("AS"), spadeskit.Play("2C"), spadeskit.Nil(), object()]),
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def states() -> list[spadeskit.GameState]:
    found = []
    for variant in ("standard", "jjdd", "three-suit-trump", "two-handed"):
        game = spadeskit.load_rules(variant).new_game(seed=3)
        rng = random.Random(3)
        for _ in range(25):
            found.append(game)
            game = game.apply(rng.choice(game.legal_actions()))
    return found


STATES = states()


def refused_cleanly(call: Any, state: spadeskit.GameState | None = None) -> None:
    before = None if state is None else (state.to_record(), state.legal_actions())
    try:
        call()
    except spadeskit.SpadesError:
        if state is not None:
            assert (state.to_record(), state.legal_actions()) == before


@FAST
@given(JUNK)
def test_cards_and_actions_refuse_odd_values_with_a_spades_error(value: Any) -> None:
    refused_cleanly(lambda: spadeskit.parse_card(value))
    refused_cleanly(lambda: spadeskit.parse_cards(value))
    for cls in (spadeskit.Bid, spadeskit.Play, spadeskit.Exchange, spadeskit.CallRenege):
        refused_cleanly(lambda: cls(value))
    refused_cleanly(lambda: spadeskit.action_from_json(value))


@FAST
@given(st.sampled_from(STATES), JUNK, JUNK)
def test_apply_legal_actions_and_view_refuse_odd_values_and_change_nothing(
    state: spadeskit.GameState, action: Any, seat: Any
) -> None:
    refused_cleanly(lambda: state.apply(action, seat), state)
    refused_cleanly(lambda: state.apply(action), state)
    refused_cleanly(lambda: state.legal_actions(seat), state)
    refused_cleanly(lambda: state.view(seat), state)


@FAST
@given(JUNK, JUNK, JUNK)
def test_loading_rules_starting_games_and_scoring_refuse_odd_values(
    first: Any, second: Any, third: Any
) -> None:
    refused_cleanly(lambda: spadeskit.load_rules(first, second, third))
    refused_cleanly(lambda: spadeskit.load_rules("standard", ["no-bags"], {"target": first}))
    rules = spadeskit.load_rules("standard")
    refused_cleanly(lambda: rules.new_game(seed=first, deal=second, dealer=third))
    refused_cleanly(lambda: rules.score_hand(bids=first, books=second))
    refused_cleanly(lambda: rules.score_sheet().add_hand(first, second))


@FAST
@given(
    st.sampled_from(STATES),
    st.sampled_from(
        [
            "variant",
            "options",
            "seed",
            "dealer",
            "deal",
            "deals",
            "actions",
            "digest",
            "version",
            "house_rules",
        ]
    ),
    JUNK,
)
def test_replay_refuses_a_record_with_any_field_replaced(
    state: spadeskit.GameState, field: str, value: Any
) -> None:
    record = copy.deepcopy(state.to_record())
    record[field] = value
    refused_cleanly(lambda: spadeskit.replay(record))
    refused_cleanly(lambda: spadeskit.replay(record, key=b"a key of sixteen+ bytes"))
