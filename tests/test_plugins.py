"""Plugin loading: entry points, kinds, fits, requires, conflicts, options, ordering."""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import Any

import pytest

import spadeskit
from spadeskit import (
    Option,
    PluginError,
    PluginInfo,
    RuleConflict,
    UnknownPlugin,
    hookimpl,
)
from spadeskit.core.results import HandSummary, ScoreLine
from spadeskit.core.seating import Step
from spadeskit.core.state import HandState
from spadeskit.plugin import PlayFilter, int_range
from spadeskit.testing import InvariantError, play_random_match


def house_rule(name: str, **info: Any) -> types.ModuleType:
    """Return an in-memory house-rule plugin module."""
    module = types.ModuleType(f"test_plugin_{name}")
    module.PLUGIN = PluginInfo(name=name, kind="house-rule", summary=f"test rule {name}", **info)  # type: ignore[attr-defined]
    return module


def test_standard_is_found_through_the_entry_point_group() -> None:
    names = {(p.name, p.kind) for p in spadeskit.available()}
    assert ("standard", "variant") in names
    rules = spadeskit.load_rules("standard")
    assert rules.variant == "standard" and rules.table.players == 4


def test_core_imports_no_plugin() -> None:
    import pathlib

    core = pathlib.Path(spadeskit.__file__).parent
    for path in core.glob("*.py"):
        assert "spadeskit_plugins" not in path.read_text(encoding="utf-8"), path.name


def test_rules_are_compiled_once_and_cached() -> None:
    assert spadeskit.load_rules("standard") is spadeskit.load_rules("standard")
    assert spadeskit.load_rules("standard", options={"target": 300}) == spadeskit.load_rules(
        "standard", options={"target": 300}
    )


def test_a_variant_is_not_a_house_rule_and_back() -> None:
    with pytest.raises(UnknownPlugin, match="is a variant, not a house rule"):
        spadeskit.load_rules("standard", ["standard"])
    with pytest.raises(UnknownPlugin, match="is a house rule, not a variant"):
        spadeskit.load_rules(house_rule("x"))


def test_a_house_rule_that_does_not_fit_the_variant_names_both() -> None:
    with pytest.raises(
        RuleConflict, match="house rule 'only-jjdd' does not fit variant 'standard'"
    ):
        spadeskit.load_rules("standard", [house_rule("only-jjdd", fits=("jjdd",))])


def test_conflicting_house_rules_name_both() -> None:
    a, b = house_rule("a", conflicts=("b",)), house_rule("b")
    for order in ([a, b], [b, a]):
        with pytest.raises(RuleConflict, match="'a' conflicts with 'b'"):
            spadeskit.load_rules("standard", order)


def test_a_missing_requirement_is_named() -> None:
    with pytest.raises(RuleConflict, match="'needy' requires 'helper'"):
        spadeskit.load_rules("standard", [house_rule("needy", requires=("helper",))])


def test_a_house_rule_listed_twice() -> None:
    a = house_rule("a")
    with pytest.raises(RuleConflict, match="listed twice"):
        spadeskit.load_rules("standard", [a, a])


def test_two_plugins_declaring_one_option() -> None:
    clash = house_rule("clash", options=(Option("target", 1, "doc"),))
    with pytest.raises(RuleConflict, match="'clash' and 'standard' both declare option 'target'"):
        spadeskit.load_rules("standard", [clash])


def test_house_rule_options_are_validated_and_defaulted() -> None:
    rule = house_rule("bonus", options=(Option("bonus_points", 50, "doc", int_range(0)),))
    assert spadeskit.load_rules("standard", [rule]).options["bonus_points"] == 50
    with pytest.raises(spadeskit.OptionError, match="'bonus_points' of 'bonus' must be at least 0"):
        spadeskit.load_rules("standard", [rule], {"bonus_points": -1})


def test_an_object_without_plugin_info_is_refused() -> None:
    with pytest.raises(PluginError, match="no PLUGIN"):
        spadeskit.load_rules("standard", [types.ModuleType("bare")])


def test_a_hook_returning_garbage_is_a_plugin_error() -> None:
    rule = house_rule("bad-table")

    @hookimpl(tryfirst=True)
    def spadeskit_table() -> str:
        return "a table"

    rule.spadeskit_table = spadeskit_table  # type: ignore[attr-defined]
    with pytest.raises(
        PluginError,
        match=r"spadeskit_table answered 'a table', not a TableSpec \(plugin 'bad-table'",
    ):
        spadeskit.load_rules("standard", [rule])


def _scoring_rules(first: types.ModuleType, second: types.ModuleType) -> list[str]:
    rules = spadeskit.load_rules("standard", [first, second])
    return [ln.text for ln in rules.score_hand(bids=[3, 3, 3, 3], books=[3, 3, 3, 4]).lines]


def test_score_lines_combine_in_declared_order_whatever_the_listing_order() -> None:
    def adder(name: str, order: int) -> types.ModuleType:
        rule = house_rule(name, order=order)

        @hookimpl
        def spadeskit_score_hand(summary: HandSummary) -> Sequence[ScoreLine]:
            return [ScoreLine(0, 1, f"{name} bonus")]

        rule.spadeskit_score_hand = spadeskit_score_hand  # type: ignore[attr-defined]
        return rule

    early, late = adder("early", 10), adder("late", 20)
    expected = [
        "N/S bid 6, took 6: +60",
        "E/W bid 6, took 7: +60, 1 bag (+1)",
        "early bonus",
        "late bonus",
    ]
    assert _scoring_rules(early, late) == expected
    assert _scoring_rules(late, early) == expected


def test_a_house_rule_can_lift_a_play_restriction_by_wrapping() -> None:
    rule = house_rule("lead-anything")

    @hookimpl(wrapper=True)
    def spadeskit_play_filters() -> Any:
        filters = yield
        return [[f for f in group if not f.name.startswith("break-")] for group in filters]

    rule.spadeskit_play_filters = spadeskit_play_filters  # type: ignore[attr-defined]
    rules = spadeskit.load_rules("standard", [rule])
    assert [f.name for f in rules.filters] == ["follow-suit"]
    assert all(isinstance(f, PlayFilter) for f in rules.filters)


def test_a_plugin_that_copies_a_card_after_a_trick_is_refused_and_named() -> None:
    rule = house_rule("card-copier")

    @hookimpl
    def spadeskit_after_trick(hand: HandState) -> HandState:
        from spadeskit.plugin import evolve_hand

        first = hand.tricks[-1].plays[0][1]
        return evolve_hand(hand, hands=(hand.hands[0] | 1 << first,) + hand.hands[1:])

    rule.spadeskit_after_trick = spadeskit_after_trick  # type: ignore[attr-defined]
    with pytest.raises(spadeskit.PluginError, match="may not move, add or remove cards"):
        spadeskit.load_rules("standard", [rule]).new_game(seed=1).rollout(seed=1)
    with pytest.raises(InvariantError, match="card-copier"):
        play_random_match(spadeskit.load_rules("standard", [rule]), seed=1)


def two_of_clubs_leads() -> types.ModuleType:
    """Return a house rule: the holder of the 2♣ leads the first trick."""
    rule = house_rule("two-of-clubs-leads")

    @hookimpl
    def spadeskit_first_leader(game: spadeskit.GameState) -> int:
        two = spadeskit.Card.of("2C").bit
        return next(seat for seat, held in enumerate(game.hands) if held & two)

    rule.spadeskit_first_leader = spadeskit_first_leader  # type: ignore[attr-defined]
    return rule


def test_the_first_leader_hook_is_asked_when_play_begins_after_the_exchanges() -> None:
    """spadeskit_first_leader: asked when play begins, after exchanges and discards, so
    "the holder of the 2♣ leads" leads from where an exchange put the 2♣."""
    rules = spadeskit.load_rules(
        "standard", ["blind-nil", two_of_clubs_leads()], {"blind_nil_pass": 1}
    )
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    ]
    game = rules.new_game(deal=hands)
    game = game.apply(spadeskit.SeeCards()).apply(spadeskit.Bid(4))  # N holds the 2♣ and bids
    game = game.apply(spadeskit.SeeCards()).apply(spadeskit.Bid(3))
    game = game.apply(spadeskit.BlindNil())  # S bids blind nil: N passes 1 card, S 1 back
    game = game.apply(spadeskit.SeeCards()).apply(spadeskit.Bid(3))
    assert game.phase is spadeskit.Phase.EXCHANGE and game.to_act == 0
    game = game.apply(spadeskit.Exchange(["2C"]))
    game = game.apply(spadeskit.Exchange(["2H"]))
    assert (
        game.phase is spadeskit.Phase.PLAY and game.to_act == 2 and game.leader == 2
    )  # S now holds the 2♣
    plain = spadeskit.load_rules("standard", [two_of_clubs_leads()]).new_game(deal=hands)
    plain = (
        plain.apply(spadeskit.Bid(4))
        .apply(spadeskit.Bid(3))
        .apply(spadeskit.Bid(3))
        .apply(spadeskit.Bid(3))
    )
    assert plain.to_act == 0  # no exchange: N, who holds it, leads
    assert plain.rollout(seed=1) == spadeskit.replay(plain.rollout(seed=1).to_record(), plain.rules)


def test_a_first_leader_that_is_not_a_seat_is_a_plugin_error() -> None:
    rule = house_rule("nobody-leads")
    rule.spadeskit_first_leader = hookimpl(lambda game: 7)  # type: ignore[attr-defined]
    game = spadeskit.load_rules("standard", [rule]).new_game(seed=1)
    with pytest.raises(PluginError, match="spadeskit_first_leader.*not a seat"):
        for _ in range(4):
            game = game.apply(game.legal_actions()[0])


def test_contract_steps_are_appended_once_when_the_auction_ends() -> None:
    """spadeskit_contract_steps: asked once per hand when the auction ends; its steps are
    owed before the first lead, after the contract's own."""
    rule = house_rule("dealer-discards")
    asked: list[int] = []

    @hookimpl
    def spadeskit_contract_steps(game: spadeskit.GameState) -> list[Step]:
        asked.append(len(game.auction))
        return [Step(game.dealer, "discard", 1)]

    rule.spadeskit_contract_steps = spadeskit_contract_steps  # type: ignore[attr-defined]
    game = spadeskit.load_rules("standard", [rule]).new_game(seed=3)
    for _ in range(4):
        game = game.apply(spadeskit.Bid(3))
    assert asked == [4]
    assert game.phase is spadeskit.Phase.EXCHANGE and game.to_act == game.dealer
    assert all(isinstance(a, spadeskit.Discard) and len(a.cards) == 1 for a in game.legal_actions())
    card = game.cards(game.dealer)[0]
    game = game.apply(spadeskit.Discard([card]))
    assert game.phase is spadeskit.Phase.PLAY and len(game.cards(game.dealer)) == 12
    assert game.won[game.dealer] == card.bit


def test_a_contract_step_that_is_not_a_step_is_a_plugin_error() -> None:
    rule = house_rule("bad-steps")
    rule.spadeskit_contract_steps = hookimpl(lambda game: ["discard one"])  # type: ignore[attr-defined]
    game = spadeskit.load_rules("standard", [rule]).new_game(seed=1)
    for _ in range(3):
        game = game.apply(spadeskit.Bid(3))
    with pytest.raises(
        PluginError, match="spadeskit_contract_steps answered 'discard one', not a Step"
    ):
        game.apply(spadeskit.Bid(3))
    assert len(game.auction) == 3


def test_a_misspelt_hook_is_refused_at_load_with_a_suggestion() -> None:
    """A spadeskit_* function that names no hook would never be called: refused."""
    typo = house_rule("typo")
    typo.spadeskit_scor_hand = hookimpl(lambda summary: [])  # type: ignore[attr-defined]
    with pytest.raises(
        PluginError,
        match="spadeskit_scor_hand, which is not a spadeskit hook.*did you mean "
        "spadeskit_score_hand",
    ):
        spadeskit.load_rules("standard", [typo])
    unmarked = house_rule("unmarked")
    unmarked.spadeskit_penalty_actionz = lambda game, seat: ()  # type: ignore[attr-defined]
    with pytest.raises(PluginError, match="did you mean spadeskit_out_of_turn_actions"):
        spadeskit.load_rules("standard", [unmarked])
    named = house_rule("named")
    named.offers = hookimpl(specname="spadeskit_penalty_action")(lambda game: ())  # type: ignore[attr-defined]
    with pytest.raises(
        PluginError, match="spadeskit_penalty_action, which is not a spadeskit hook"
    ):
        spadeskit.load_rules("standard", [named])


def test_available_lists_the_working_plugins_and_reports_a_broken_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One broken entry point no longer makes available() fail for everyone."""
    import importlib.metadata

    import spadeskit.engine.loader as loader

    broken = importlib.metadata.EntryPoint("half-done", "no_such_module_anywhere", "spadeskit")
    points = dict(loader._entry_points())
    points["half-done"] = broken
    monkeypatch.setattr(loader, "_ENTRY_POINTS", points)
    listed = {p.name: p for p in spadeskit.available()}
    assert listed["standard"].kind == "variant"
    assert (
        listed["half-done"].kind == "broken" and "failed to import" in listed["half-done"].summary
    )
    assert spadeskit.available()[-1].name == "half-done"
    with pytest.raises(PluginError, match="failed to import"):
        spadeskit.load_rules("half-done")


def test_the_cli_prints_one_line_for_a_file_that_is_not_a_record(
    tmp_path: Any, capsys: Any
) -> None:
    from spadeskit.apps.cli import main

    binary = tmp_path / "record.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    for path in (binary, nested, tmp_path / "missing.json"):
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("spadeskit: ") and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("hook", "answer"),
    [
        ("spadeskit_score_hand", lambda: [42]),
        ("spadeskit_auction_next", lambda: "west"),
        ("spadeskit_match_end", lambda: 5),
        ("spadeskit_next_dealer", lambda: 9),
        ("spadeskit_first_leader", lambda: -2),
        ("spadeskit_out_of_turn_actions", lambda: ["a claim"]),
        ("spadeskit_view", lambda: "nope"),
    ],
)
def test_a_hook_answer_of_the_wrong_type_is_a_plugin_error_naming_the_plugin(
    hook: str, answer: Any
) -> None:
    """Plugin output is checked where it enters the engine; the error names the plugin
    (by its entry-point name) and the hook."""
    rule = house_rule("garbage-out")

    def implementation() -> Any:
        return answer()

    implementation.__name__ = hook
    setattr(rule, hook, hookimpl(tryfirst=True)(implementation))
    rules = spadeskit.load_rules(
        "standard", [rule], {"floor": None}
    )  # the match goes on after hand 1
    with pytest.raises(PluginError, match=rf"{hook} answered .*plugin 'garbage-out'"):
        game = rules.new_game(seed=1)
        game.view(0)
        while not game.is_over:
            game = game.apply(game.legal_actions()[0])
