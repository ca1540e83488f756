"""Observations read straight from a state (spadeskit.interop.arrays) are the view's
observations (spadeskit.interop.encoding), field for field, and show nothing hidden."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit.interop import encoding
from spadeskit.interop.arrays import action_mask, observe
from tests.conftest import shipped


def _configurations() -> list[tuple[str, tuple[str, ...]]]:
    configs = [(variant, ()) for variant in shipped("variant")]
    for house in shipped("house-rule"):
        info = next(p for p in spadeskit.available() if p.name == house)
        configs.append((info.fits[0] if info.fits else "standard", (house,)))
    return configs


CONFIGURATIONS = _configurations()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGURATIONS), seed=st.integers(0, 2**32 - 1))
def test_the_array_observation_is_the_views_for_every_seat_of_every_state(
    config: tuple[str, tuple[str, ...]], seed: int
) -> None:
    variant, house = config
    rules = spadeskit.load_rules(variant, list(house))
    rng = random.Random(seed)
    game = rules.new_game(seed=seed)
    for _ in range(150):
        for seat in range(rules.table.players):
            ours = observe(game, seat)
            theirs = np.asarray(encoding.observation(game.view(seat)), np.float32)
            assert ours.dtype == np.float32 and np.array_equal(ours, theirs), (config, seat)
            legal = game.legal_actions(seat) if game.to_act == seat else ()
            mask = np.zeros(encoding.NUM_ACTIONS, np.int8)
            mask[encoding.legal_ids(legal)] = 1
            assert np.array_equal(action_mask(legal), mask)
        if game.is_over:
            break
        game = game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("variant", ["standard", "jjdd", "cutthroat"])
def test_the_other_seats_hidden_cards_never_change_an_observation(variant: str) -> None:
    """Swap two other seats' hands: seat 0's observation is the same until one of those
    seats plays a card (when it becomes public)."""
    rules = spadeskit.load_rules(variant)
    dealt = rules.new_game(seed=11)
    hands = [[c.code for c in dealt.cards(s)] for s in range(rules.table.players)]
    swapped = [hands[0], hands[2], hands[1], *hands[3:]]
    games = [rules.new_game(deal=d, dealer=rules.table.players - 1) for d in (hands, swapped)]
    while all(g.phase is not spadeskit.Phase.PLAY for g in games):
        assert np.array_equal(observe(games[0], 0), observe(games[1], 0))
        bid = next(a for a in games[0].legal_actions() if a in games[1].legal_actions())
        games = [g.apply(bid) for g in games]
    assert np.array_equal(observe(games[0], 0), observe(games[1], 0))
