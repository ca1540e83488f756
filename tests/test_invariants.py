"""Invariants over many random matches (hypothesis), for every shipped variant.

Cards conserved; one card per seat per trick and exactly one, correct, winner; legal
actions non-empty until the match ends; every legal action applies; illegal ones raise
and change nothing; replaying a record gives an equal state; views never leak.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit.testing import (
    CheckReport,
    check_moves,
    check_state,
    check_views,
    play_match,
    play_random_match,
)
from tests.conftest import shipped

VARIANTS = shipped("variant")
HOUSE_RULES = [p for p in spadeskit.available() if p.name in shipped("house-rule")]
CONFIGURATIONS: list[tuple[str, tuple[str, ...], dict[str, object]]] = (
    [(v, (), {}) for v in VARIANTS]
    + [(v, (h.name,), {}) for h in HOUSE_RULES for v in (h.fits or VARIANTS)]
    + [
        ("jjdd", (), {"enforcement": "table", "nil": True}),
        ("jjdd", (), {"enforcement": "table", "first_lead": "last-book", "target": 250}),
        ("cutthroat", (), {"all_tricks": "score-200"}),
        ("standard", ("jokers", "no-bags", "boston"), {}),
        ("standard", ("blind-nil", "partnership-nil", "hidden-bids"), {"blind_nil_pass": 1}),
        ("standard", ("blind-nil",), {"blind_nil_trailing": 50}),
        ("standard", ("mirror", "blind-nil", "jokers"), {}),
        ("standard", ("whiz", "blind-nil", "hidden-bids"), {}),
        ("standard", ("blind-bids", "hidden-bids", "no-bags"), {"behind": 0, "max_blind": 8}),
        ("standard", ("blind-bids",), {"behind": 30, "set": "single"}),
        ("call-break", (), {"must_head": False, "max_call": 13, "rounds": 2}),
        (
            "standard",
            (
                "spades-anytime",
                "jokers",
                "blind-nil",
                "no-bags",
                "boston",
                "hidden-bids",
                "partnership-nil",
            ),
            {"jokers_remove": "2D 2H"},
        ),
    ]
)
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), config=st.sampled_from(CONFIGURATIONS))
def test_random_matches_keep_every_invariant(
    seed: int, config: tuple[str, tuple[str, ...], dict[str, object]]
) -> None:
    variant, house, options = config
    game = play_random_match(spadeskit.load_rules(variant, house, options), seed)
    assert game.is_over and game.winner is not None


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_shipped_variant_passes_check_rules_at_its_defaults(
    variant: str, spadeskit_check: Callable[..., CheckReport]
) -> None:
    """What CI promises a plugin author: the kit's one call at its default level, on every
    shipped variant (a few CPU seconds each)."""
    report = spadeskit_check(spadeskit.load_rules(variant), level="default")
    assert report.matches == 6 and report.machine_examples == 3


@pytest.mark.slow
@pytest.mark.parametrize(
    "config",
    [c for c in CONFIGURATIONS if c[1] or c[2]],
    ids=lambda c: "+".join((c[0],) + c[1]) + str(c[2] or ""),
)
def test_every_house_rule_and_option_set_passes_the_quick_check(
    config: tuple[str, tuple[str, ...], dict[str, object]],
    spadeskit_check: Callable[..., CheckReport],
) -> None:
    """The kit's one call (through its pytest fixture) at its quick level on every shipped
    house rule, with each variant it fits, and on option sets the defaults do not play."""
    variant, house, options = config
    report = spadeskit_check(spadeskit.load_rules(variant, house, options), level="quick")
    assert report.matches == 2


@pytest.mark.spadeskit(
    "standard", house_rules=["jokers", "no-bags", "boston"], options={"target": 300}
)
def test_the_marker_builds_the_rules_the_fixtures_check(
    spadeskit_rules: spadeskit.Rules, spadeskit_check: Callable[..., CheckReport]
) -> None:
    assert spadeskit_rules.name == "standard + boston + jokers + no-bags"
    report = spadeskit_check(level="quick", matches=1, machine_examples=2)
    assert report.rules == spadeskit_rules.name and report.machine_examples == 2


def test_table_mode_random_matches_include_reneges_and_claims() -> None:
    rules = spadeskit.load_rules("jjdd", options={"enforcement": "table"})
    texts: list[str] = []
    for seed in range(8):
        game = play_match(rules, seed, deep_every=0, max_hands=3)
        texts += [ln.text for r in game.hand_results for ln in r.lines]
        if any("reneged in trick" in t for t in texts) and any(
            "called a renege" in t for t in texts
        ):
            break
    assert any("reneged in trick" in t for t in texts)
    assert any("called a renege" in t for t in texts)


def random_walk(rules: spadeskit.Rules, seed: int, steps: int) -> spadeskit.GameState:
    """Return the state after up to ``steps`` random legal actions from a seeded game."""
    rng = random.Random(seed)
    game = rules.new_game(seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        game = game.apply(rng.choice(game.legal_actions()))
    return game


@SLOW
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120))
def test_replay_of_any_prefix_gives_an_equal_state(seed: int, steps: int) -> None:
    game = random_walk(spadeskit.load_rules("standard", options={"target": 200}), seed, steps)
    assert spadeskit.replay(game.to_record()) == game


@SLOW
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 56))
def test_states_reached_by_any_legal_sequence_are_consistent(seed: int, steps: int) -> None:
    game = random_walk(spadeskit.load_rules("standard"), seed, steps)
    check_state(game)
    check_views(game)
    check_moves(game, random.Random(seed), probes=40)


def test_applying_never_changes_the_state_it_was_applied_to() -> None:
    rules = spadeskit.load_rules("standard")
    game = rules.new_game(seed=4)
    before = game.to_record()
    after = game.apply(game.legal_actions()[3])
    assert game.to_record() == before and after.to_record() != before
