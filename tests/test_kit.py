"""The plugin author's kit is itself tested: it must catch deliberately broken plugins,
its strategies must produce valid rules, states and records, and its pytest plugin must
work in a fresh test suite."""

from __future__ import annotations

import types

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

import spadeskit
from spadeskit.testing import (
    InvariantError,
    check_rotation,
    check_rules,
    check_state,
    lint,
    play_random_match,
    reachable_states,
    records,
    rule_sets,
    rules_state_machine,
)
from tests.broken_plugins import (
    BAD_ARGS,
    CARD_TWICE,
    LEAKY_VIEW,
    NORTH_BONUS,
    RANKER_A,
    RANKER_B,
)
from tests.conftest import shipped

QUICK = {"level": "quick", "matches": 4, "rotations": 2}
FEW = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))


def test_kit_names_the_plugin_whose_after_trick_hook_gives_a_card_back() -> None:
    # Since 0.4 the engine refuses an after-trick answer that moves a card, naming the
    # plugin; the kit reports the refusal with its culprit.
    rules = spadeskit.load_rules("standard", [CARD_TWICE])
    with pytest.raises(InvariantError) as caught:
        check_rules(rules, **QUICK)
    error = caught.value
    assert error.culprit == "card-twice"
    assert "may not move, add or remove cards" in str(error)
    assert "plugin 'card-twice'" in str(error)


def test_a_view_that_leaks_another_seats_cards_is_refused_naming_the_plugin() -> None:
    """The engine refuses a view hook that shows more than it was given (issue 49 (9)),
    naming the plugin, before the kit's own view check would see the leak."""
    shown = r"spadeskit_view answered .*showing cards the seat does not hold.*wrapper 'leaky-view'"
    with pytest.raises(spadeskit.PluginError, match=shown):
        check_rules(spadeskit.load_rules("standard", [LEAKY_VIEW]), **QUICK)


def test_kit_catches_scores_that_depend_on_where_you_sit() -> None:
    rules = spadeskit.load_rules("standard", [NORTH_BONUS])
    with pytest.raises(InvariantError) as caught:
        check_rules(rules, **QUICK)
    # The score oracle sees the +10 first; the rotation check catches it on its own too.
    assert caught.value.invariant == "score" and caught.value.culprit == "north-bonus"
    with pytest.raises(InvariantError, match="with the seats shifted") as rotated:
        check_rotation(rules, 0)
    assert rotated.value.invariant == "rotation"


def test_state_machine_shrinks_a_broken_plugin_to_a_replayable_record() -> None:
    rules = spadeskit.load_rules("standard", [CARD_TWICE])
    machine = rules_state_machine(rules)
    with pytest.raises(InvariantError) as caught:
        run_state_machine_as_test(
            machine,
            settings=settings(
                max_examples=50,
                stateful_step_count=60,
                deadline=None,
                database=None,
                phases=(Phase.generate, Phase.shrink),
                suppress_health_check=list(HealthCheck),
            ),
        )
    record = caught.value.record
    assert len(record["actions"]) <= 10  # four bids and one trick, shrunk
    spadeskit.replay(record, rules)


def test_lint_reports_arguments_the_hook_does_not_offer_and_unknown_hooks() -> None:
    problems = {(p.hook, p.message.split(",")[0]) for p in lint(BAD_ARGS)}
    assert ("spadeskit_score_hand", "asks for weather") in problems
    assert any(hook == "spadeskit_score_hands" for hook, _ in problems)
    texts = " | ".join(str(p) for p in lint(BAD_ARGS))
    assert "option 'undocumented' has no docstring" in texts
    assert "option 'bad_default' has a default its own validator refuses" in texts
    assert all(str(p).startswith("bad-args") for p in lint(BAD_ARGS))


def test_lint_reports_first_result_hooks_answered_by_two_house_rules_without_order() -> None:
    rules = spadeskit.load_rules("standard", [RANKER_A, RANKER_B])
    clashes = [p for p in lint(rules) if p.hook == "spadeskit_card_rank"]
    assert len(clashes) == 1 and clashes[0].plugin == "ranker-a and ranker-b"
    with pytest.raises(InvariantError, match="ranker-a and ranker-b"):
        check_rules(rules, **QUICK)


@pytest.mark.parametrize("name", shipped("variant") + shipped("house-rule"))
def test_every_shipped_plugin_lints_clean(name: str) -> None:
    assert lint(name) == []


@FEW
@given(rules=rule_sets())
def test_rule_sets_give_loadable_compatible_rules(rules: spadeskit.Rules) -> None:
    assert spadeskit.load_rules(rules.variant, rules.house_rules, dict(rules.options)) == rules
    check_state(rules.new_game(seed=1))


@FEW
@given(data=st.data())
def test_reachable_states_are_consistent_and_records_replay(data: st.DataObject) -> None:
    rules = data.draw(rule_sets(max_house_rules=2))
    check_state(data.draw(reachable_states(rules, max_actions=80)))
    record = data.draw(records(rules, max_actions=80))
    assert spadeskit.replay(record).to_record() == record


def test_the_pytest_plugin_checks_a_house_rule_in_a_few_lines(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_mine="""
        import pytest

        pytestmark = pytest.mark.spadeskit("standard", house_rules=["no-bags"],
                                           options={"target": 300})

        def test_consistent(spadeskit_check):
            report = spadeskit_check(level="quick", policy_matches=0, machine_examples=1)
            assert report.matches == 1 and report.machine_examples == 1

        def test_rules_and_game(spadeskit_rules, spadeskit_game, spadeskit_lint):
            assert spadeskit_rules.house_rules == ("no-bags",)
            assert spadeskit_rules.options["target"] == 300
            assert spadeskit_game.rules is spadeskit_rules and spadeskit_lint() == []

        def test_unmarked(request):
            pass
    """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "--spadeskit-matches", "1")
    result.assert_outcomes(passed=3)


def test_the_pytest_plugin_asks_for_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_unmarked="""
        def test_needs_rules(spadeskit_rules):
            pass
    """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*add @pytest.mark.spadeskit('standard'*"])


def test_the_leak_check_catches_legal_actions_that_reveal_a_sealed_bid() -> None:
    """The kit compares a seat's view and legal actions across states that differ only in
    what it may not know; with hidden-bids, a rule whose bids depend on the partner's
    sealed bid is caught (the example suicide package declares that conflict)."""
    from tests.broken_plugins import SEALED_BID_REVEALER

    rules = spadeskit.load_rules("standard", ["hidden-bids", SEALED_BID_REVEALER])
    with pytest.raises(
        InvariantError, match="legal actions change with what the seat may not know"
    ):
        for seed in range(6):
            play_random_match(rules, seed, deep_every=1)
    alone = spadeskit.load_rules("standard", [SEALED_BID_REVEALER])  # bids are public: no leak
    play_random_match(alone, 0, deep_every=1)


def test_the_leak_check_catches_a_view_that_depends_on_another_seats_cards() -> None:
    """A view hook that shows each seat's count of spades reveals other hands: caught."""
    import random

    import attrs

    from spadeskit.testing import check_inference

    rule = types.ModuleType("spade-counter")
    rule.PLUGIN = spadeskit.PluginInfo(
        name="spade-counter",
        kind="house-rule",  # type: ignore[attr-defined]
        summary="shows spade counts",
    )

    @spadeskit.hookimpl
    def spadeskit_view(view: spadeskit.View, game: spadeskit.GameState) -> spadeskit.View:
        spades = game.rules.ranking.suit_mask[spadeskit.Suit.SPADES]
        return attrs.evolve(view, card_counts=tuple((m & spades).bit_count() for m in game.hands))

    rule.spadeskit_view = spadeskit_view  # type: ignore[attr-defined]
    leaky = spadeskit.load_rules("standard", [rule])
    rng = random.Random(1)
    with pytest.raises(InvariantError, match="view changes with what the seat may not know"):
        for seed in range(20):
            check_inference(leaky.new_game(seed=seed), rng)
    for seed in range(5):
        check_inference(spadeskit.load_rules("standard").new_game(seed=seed), rng)  # no leak


# ------------------------------------------------------------------------------------------
# What the kit promises, with default settings (round 3)
# ------------------------------------------------------------------------------------------


def _second_partner_capped() -> types.ModuleType:
    """A house rule whose second partner may bid at most 13 less the first partner's bid:
    under hidden-bids that bid is sealed, so what the second partner is offered leaks it."""
    from collections.abc import Generator, Sequence

    module = types.ModuleType("team-cap")
    module.PLUGIN = spadeskit.PluginInfo(
        name="team-cap", kind="house-rule", summary="team bids at most 13"
    )  # type: ignore[attr-defined]

    def spadeskit_auction_actions(
        game: spadeskit.GameState, seat: int, table: spadeskit.TableSpec
    ) -> Generator[None, Sequence[spadeskit.Action], Sequence[spadeskit.Action]]:
        offered = yield
        partner = next(s for s in table.sides[table.side_of[seat]] if s != seat)
        said = game.bids[partner]
        if not isinstance(said, spadeskit.Bid):
            return offered
        return tuple(
            a for a in offered if not isinstance(a, spadeskit.Bid) or a.tricks + said.tricks <= 13
        )

    module.spadeskit_auction_actions = spadeskit.hookimpl(wrapper=True)(spadeskit_auction_actions)  # type: ignore[attr-defined]
    return module


def test_kit_with_default_settings_catches_a_sealed_bid_leaking_through_legal_actions() -> None:
    """Every kind of decision is deep-checked, the second bid of a hand included."""
    rules = spadeskit.load_rules("standard", ["hidden-bids", _second_partner_capped()])
    with pytest.raises(InvariantError) as caught:
        check_rules(rules)
    assert caught.value.invariant == "views" and "legal actions change" in str(caught.value)
    assert "team-cap" in str(caught.value)


def _suicide_without_conflicts() -> types.ModuleType:
    """Suicide Spades (one partner nil, the other at least 4) without its declared
    conflicts: beside mirror, a seat holding spades may be offered nothing."""
    from collections.abc import Generator, Sequence

    module = types.ModuleType("loose-suicide")
    module.PLUGIN = spadeskit.PluginInfo(name="loose-suicide", kind="house-rule", summary="suicide")  # type: ignore[attr-defined]

    def spadeskit_auction_actions(
        game: spadeskit.GameState, seat: int, table: spadeskit.TableSpec
    ) -> Generator[None, Sequence[spadeskit.Action], Sequence[spadeskit.Action]]:
        offered = yield
        high = tuple(b for b in offered if isinstance(b, spadeskit.Bid) and b.tricks >= 4)
        partner = next(s for s in table.sides[table.side_of[seat]] if s != seat)
        said = game.bids[partner]
        if said is None:
            return tuple(b for b in offered if isinstance(b, spadeskit.Nil)) + high
        return (
            high
            if isinstance(said, spadeskit.Nil)
            else tuple(b for b in offered if isinstance(b, spadeskit.Nil))
        )

    module.spadeskit_auction_actions = spadeskit.hookimpl(wrapper=True)(spadeskit_auction_actions)  # type: ignore[attr-defined]
    return module


def test_a_state_where_nobody_can_act_is_a_typed_error_and_a_kit_failure_naming_the_plugins() -> (
    None
):
    rules = spadeskit.load_rules("standard", ["mirror", _suicide_without_conflicts()])
    with pytest.raises(InvariantError) as caught:
        check_rules(rules, machine_examples=0)
    assert caught.value.invariant == "legal" and "no legal action" in str(caught.value)
    assert "loose-suicide" in str(caught.value) and "mirror" in str(caught.value)
    stuck = spadeskit.replay(caught.value.record, rules)
    with pytest.raises(spadeskit.Deadlock, match="no legal action"):
        stuck.legal_actions()
    with pytest.raises(spadeskit.Deadlock):
        stuck.rollout(seed=1)


def test_check_playouts_proves_rollout_simulate_and_pickling_on_the_users_rules() -> None:
    from spadeskit.testing import check_playouts

    for variant in shipped("variant"):
        check_playouts(spadeskit.load_rules(variant), seed=2)


def test_the_report_says_what_was_played_and_checked() -> None:
    """Newcomer round 4: the summary names the matches, their seeds and the checks."""
    report = check_rules(spadeskit.load_rules("standard"), level="quick", seed=5)
    text = str(report)
    assert text.startswith("standard: no check failed.  Played 2 matches of uniformly random")
    assert "legal actions (seeds 5-6) and 1 with each of the kit's policies" in text
    assert "Oracles: legal: reference;" in text
    assert f"{report.hands:,} hands, {report.actions:,} actions" in text
    assert "1 matches again with the seats rotated" in text and "0 hypothesis" in text
