"""Suicide's rule tests, then spadeskit's consistency suite through its pytest plugin."""

from __future__ import annotations

import pytest

from spadeskit import Bid, IllegalAction, Nil, RuleConflict, load_rules

pytestmark = pytest.mark.spadeskit("standard", house_rules=["suicide"])


def test_the_first_partner_may_bid_nil_or_at_least_4(spadeskit_game):
    assert spadeskit_game.legal_actions() == (Nil(),) + tuple(Bid(n) for n in range(4, 14))
    with pytest.raises(IllegalAction):
        spadeskit_game.apply(Bid(3))


def test_the_partner_of_a_nil_bidder_must_bid_at_least_4(spadeskit_game):
    game = spadeskit_game.apply(Nil()).apply(Bid(5))  # N nil, E 5
    assert game.legal_actions() == tuple(Bid(n) for n in range(4, 14))  # S, N's partner
    with pytest.raises(IllegalAction):
        game.apply(Nil())


def test_the_partner_of_a_number_bidder_must_bid_nil(spadeskit_game):
    game = spadeskit_game.apply(Bid(4)).apply(Nil())  # N 4, E nil
    game = game.apply(Nil())  # S must bid nil
    assert game.legal_actions() == tuple(Bid(n) for n in range(4, 14))  # W, E's partner


def test_the_least_bid_is_an_option():
    game = load_rules("standard", ["suicide"], {"suicide_min_bid": 6}).new_game(seed=0)
    assert game.legal_actions() == (Nil(),) + tuple(Bid(n) for n in range(6, 14))


def test_suicide_conflicts_with_blind_nil():
    with pytest.raises(RuleConflict, match="suicide"):
        load_rules("standard", ["suicide", "blind-nil"])


@pytest.mark.parametrize("other", ["mirror", "whiz"])
def test_suicide_conflicts_with_bids_fixed_by_the_cards(other):
    """Beside mirror or whiz a seat could be left with no bid at all: refused at load."""
    with pytest.raises(RuleConflict, match="suicide"):
        load_rules("standard", ["suicide", other])


def test_suicide_keeps_every_invariant(spadeskit_check):
    report = spadeskit_check()
    assert report.matches > 0


def test_suicide_lints_clean(spadeskit_lint):
    assert spadeskit_lint() == []
