"""The strategies example of the "Testing your plugin" page (run with the tests)."""

from hypothesis import given, settings

import spadeskit
from spadeskit.testing import reachable_states, rule_sets


@given(rule_sets(["standard"]))
@settings(max_examples=20, deadline=None)
def test_any_standard_table_deals_13(rules: spadeskit.Rules) -> None:
    assert len(rules.new_game(seed=1).cards(0)) == 13


@given(reachable_states(spadeskit.load_rules("standard", ["partnership-nil"])))
@settings(max_examples=20, deadline=None)
def test_no_seat_holds_more_than_13_cards(game: spadeskit.GameState) -> None:
    assert all(len(game.cards(seat)) <= 13 for seat in range(4))
