"""Observations read straight from a state (spadeskit.interop.arrays) are the view's
observations (spadeskit.engine.encoding), slot for slot, and show nothing hidden; every
action a seat is offered has an id."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit.engine.encoding import encoding_for
from spadeskit.interop.arrays import observe
from tests.conftest import shipped


def _configurations() -> list[tuple[str, tuple[str, ...]]]:
    # A deck that holds a card twice (six-handed) is refused by the adapters.
    configs = [
        (variant, ())
        for variant in shipped("variant")
        if not spadeskit.load_rules(variant).table.copies
    ]
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
    encoding = encoding_for(rules)
    rng = random.Random(seed)
    game = rules.new_game(seed=seed)
    for _ in range(150):
        for seat in range(rules.table.players):
            ours = observe(encoding, game, seat)
            theirs = np.asarray(encoding.observation(game.view(seat)), np.float32)
            assert ours.dtype == np.float32 and np.array_equal(ours, theirs), (config, seat)
        if game.is_over:
            break
        legal = game.legal_actions()
        ids = encoding.ids_of(legal)  # every action offered has an id
        assert all(0 <= number < encoding.num_actions for number in ids)
        game = game.apply(rng.choice(legal))


@pytest.mark.parametrize("variant", ["standard", "jjdd", "cutthroat"])
def test_the_other_seats_hidden_cards_never_change_an_observation(variant: str) -> None:
    """Swap two other seats' hands: seat 0's observation is the same until one of those
    seats plays a card (when it becomes public)."""
    rules = spadeskit.load_rules(variant)
    dealt = rules.new_game(seed=11)
    hands = [[c.code for c in dealt.cards(s)] for s in range(rules.table.players)]
    swapped = [hands[0], hands[2], hands[1], *hands[3:]]
    games = [rules.new_game(deal=d, dealer=rules.table.players - 1) for d in (hands, swapped)]
    encoding = encoding_for(rules)
    while all(g.phase is not spadeskit.Phase.PLAY for g in games):
        assert np.array_equal(observe(encoding, games[0], 0), observe(encoding, games[1], 0))
        bid = next(a for a in games[0].legal_actions() if a in games[1].legal_actions())
        games = [g.apply(bid) for g in games]
    assert np.array_equal(observe(encoding, games[0], 0), observe(encoding, games[1], 0))
