"""The kit's oracles catch wrong rules that play without crashing, and pass on the
shipped rules: each test names the broken rule, the oracle that catches it, and checks
that the failure names the rule, the seat (or side) and the hand."""

from __future__ import annotations

import types

import pytest

import spadeskit
from spadeskit.testing import (
    InvariantError,
    check_end_on_paper,
    check_options,
    check_relabelling,
    check_rotation,
    check_rules,
    play_match,
    relies_on,
)
from spadeskit.testing.examples import examples_of, run_examples
from spadeskit.testing.metamorphic import suit_relabellings
from spadeskit.testing.oracles import Reading, draw_options, reading, reference_winner
from spadeskit.testing.policies import POLICIES
from tests import broken_plugins as broken
from tests.conftest import shipped

QUICK = {"level": "quick"}


def _fail(rules: spadeskit.Rules, oracle: str, what: str) -> InvariantError:
    return InvariantError(rules, oracle, what, rules.new_game(seed=0).to_record())


def caught(variant: str, plugin: types.ModuleType, seeds: int = 4) -> InvariantError:
    """Return the first oracle failure of matches played with each policy."""
    rules = spadeskit.load_rules(variant, [plugin])
    for seed in range(seeds):
        for policy in POLICIES.values():
            try:
                play_match(rules, seed, policy, deep_every=0, out_of_turn=0.02, max_hands=30)
            except InvariantError as error:
                return error
    raise AssertionError(f"no oracle caught {plugin.PLUGIN.name}")


@pytest.mark.parametrize(
    ("variant", "plugin", "oracle", "words"),
    [
        ("standard", broken.SPADES_ANYTIME_BROKEN, "legal", ["follow suit", "seat", "hand"]),
        ("standard", broken.WEST_ONLY, "legal", ["no spade on the first trick", "seat", "hand"]),
        ("jjdd", broken.BOARD_TWICE, "bids", ["board auction", "seat", "hand"]),
        ("standard", broken.HIGH_CLUB_LEADS, "leader", ["lowest-club", "seat", "hand"]),
        ("standard", broken.SPADES_UPSIDE_DOWN, "tricks", ["highest spade", "seat", "hand"]),
        ("standard", broken.SET_PLUS_TEN, "score", ["set contract", "seats", "hand"]),
        ("standard", broken.NO_CONTRACT_LINE, "score", ["contract", "seats", "hand"]),
        ("jjdd", broken.JJDD_MADE_SET_SWAPPED, "score", ["bid", "seats", "hand"]),
        ("standard", broken.BOSTON_WRONG_SIDE, "score", ["Boston", "seats", "hand"]),
        ("jjdd", broken.TWO_SETS, "end", ["match end", "after hand"]),
        ("jjdd", broken.TALK_TWO, "penalties", ["3 books a ruling", "hand", "talked"]),
        ("standard", broken.SEALED_BUT_SHOWN, "bids", ["sealed bids", "seat", "hand"]),
    ],
    ids=lambda v: v.PLUGIN.name if isinstance(v, types.ModuleType) else None,
)
def test_each_oracle_catches_a_wrong_rule_naming_the_rule_the_seat_and_the_hand(
    variant: str, plugin: types.ModuleType, oracle: str, words: list[str]
) -> None:
    error = caught(variant, plugin)
    assert error.invariant == oracle
    first = str(error).splitlines()[0]
    assert all(word in first for word in words), first


def caught_with(
    variant: str, house: list[object], options: dict[str, object], policy: str, seeds: int = 6
) -> InvariantError:
    """Return the first oracle failure of matches played with one policy."""
    rules = spadeskit.load_rules(variant, house, options)
    for seed in range(seeds):
        try:
            play_match(rules, seed, POLICIES[policy], deep_every=0, out_of_turn=0.05, max_hands=12)
        except InvariantError as error:
            return error
    raise AssertionError(f"no oracle caught the slip in {rules.name}")


BLIND_NIL = "spadeskit_plugins.house.blind_nil"
JJDD = "spadeskit_plugins.jjdd"
TABLE = {"enforcement": "table"}


@pytest.mark.parametrize(
    ("variant", "module", "old", "new", "options", "policy", "oracle", "words"),
    [
        pytest.param(
            "standard",
            BLIND_NIL,
            "best_other - scores[side] >= need",
            "best_other - scores[side] < need",
            {"blind_nil_trailing": 100},
            "nil",
            "bids",
            ["blind nil", "hand 1", "seat 0 (N)", "scores (0, 0)"],
            id="blind nil offered to a side that does not trail",
        ),
        pytest.param(
            "standard",
            BLIND_NIL,
            "continue  # both partners bid blind nil",
            "pass  # both partners bid blind nil",
            {},
            "nil",
            "steps",
            ["exchanges before play", "hand", "blind nil"],
            id="cards traded between two blind nil partners",
        ),
        pytest.param(
            "standard",
            "spadeskit_plugins.house.hidden_bids",
            "if game.hand.phase is not Phase.AUCTION:",
            "if game.hand.phase is Phase.REVIEW:",
            {},
            "contract",
            "bids",
            ["open bids", "hand 1", "seat"],
            id="bids still sealed once all have bid",
        ),
        pytest.param(
            "jjdd",
            JJDD,
            "{trick for who, trick in _called(game) if who == side}",
            "{trick for who, trick in _called(game) if who != side}",
            TABLE,
            "contract",
            "penalties",
            ["each finished trick, each once", "hand", "seat"],
            id="a renege call offered again to the side that made it",
        ),
        pytest.param(
            "jjdd",
            JJDD,
            "// PENALTY_BOOKS + 1 if found else 1",
            "// PENALTY_BOOKS - 1 if found else 1",
            {},
            "contract",
            "penalties",
            ["3 books a ruling", "talked", "hand"],
            id="a second table-talk ruling moving no books",
        ),
        pytest.param(
            "jjdd",
            JJDD,
            'if options["enforcement"] != "table":\n        return None\n    first',
            'if options["enforcement"] != "table":\n        pass\n    first',
            {},
            "contract",
            "penalties",
            ["no review step", "hand 1", "asks N/S"],
            id="a review step under strict enforcement",
        ),
        pytest.param(
            "standard",
            BLIND_NIL,
            "    if seat is None or not undecided(game, seat, game.rules.table, options):\n"
            "        return redacted\n",
            "",
            {},
            "contract",
            "shown",
            ["own cards shown (all of them)", "hand 1", "seat 0 (N) shows no card"],
            id="a view that hides a seat's cards after it looked",
        ),
        pytest.param(
            "standard",
            "spadeskit_plugins.house.blind_bids",
            "    shown = redacted or view\n    table = game.rules.table\n"
            "    if seat is not None and may_bid_blind(game, seat, table, options):",
            "    shown = redacted or view\n    table = game.rules.table\n"
            "    if seat is not None and behind_enough(game, table.side_of[seat], options):",
            {"behind": 0},
            "contract",
            "shown",
            ["own cards shown (all of them)", "hand 1", "shows no card"],
            id="blind bids hiding a side's cards after the auction",
        ),
        pytest.param(
            "three-suit-trump",
            "spadeskit_plugins.three_suit_trump",
            "return 10 if card.rank >= 11 else 5",
            "return 10 if card.rank >= 12 else 5",
            {},
            "contract",
            "score",
            ["card points", "hand", "seats"],
            id="jacks worth 5 card points",
        ),
        pytest.param(
            "three-suit-trump",
            "spadeskit_plugins.three_suit_trump",
            "return 1 if points >= 150 else 0",
            "return 1 if points >= 140 else 0",
            {},
            "random",
            "score",
            ["under 150", "hand", "seats"],
            id="a bidder with 140 card points scoring 1",
        ),
    ],
)
def test_each_oracle_catches_a_slip_in_a_shipped_plugin(
    variant: str,
    module: str,
    old: str,
    new: str,
    options: dict[str, object],
    policy: str,
    oracle: str,
    words: list[str],
) -> None:
    slipped = broken.edited(module, old, new)
    if slipped.PLUGIN.kind == "variant":
        error = caught_with(slipped, [], options, policy)  # type: ignore[arg-type]
    else:
        error = caught_with(variant, [slipped], options, policy)
    assert error.invariant == oracle, str(error)
    first = str(error).splitlines()[0]
    assert all(word in first for word in words), first


def test_the_bids_oracle_catches_an_auction_asking_seats_in_the_wrong_order() -> None:
    error = caught("standard", broken.COUNTER_CLOCKWISE)
    assert error.invariant == "bids" and "bidding order" in str(error)
    assert "hand 1, after 0 bids: the rules ask seat 2 (S), the reference seat 0 (N)" in str(error)


def test_the_leader_oracle_catches_a_deal_that_does_not_pass_clockwise() -> None:
    error = caught("standard", broken.DEAL_STAYS)
    assert error.invariant == "leader" and "the deal passes clockwise" in str(error)


def test_the_options_oracle_catches_a_default_other_than_the_documented_one() -> None:
    rules = spadeskit.load_rules("standard", [broken.WRONG_DEFAULT])
    with pytest.raises(InvariantError, match="'limit' of wrong-default: its default is 5, the doc"):
        check_options(rules, _fail)


def test_the_options_oracle_catches_a_value_the_rules_page_refuses_but_the_validator_takes() -> (
    None
):
    slipped = broken.edited(
        "spadeskit_plugins.house.jokers",
        "    if len(set(cards)) != 2 or any(c.suit is None for c in cards):",
        "    if not cards:",
    )
    rules = spadeskit.load_rules("standard", [slipped])
    # The validator takes '2D 2D'; the table then fails to load, not naming the option.
    with pytest.raises(InvariantError, match="'jokers_remove' of jokers: refusing '2D 2D', the"):
        check_options(rules, _fail)


def test_the_examples_pin_the_score_lines_a_sheet_reads() -> None:
    slipped = broken.edited("spadeskit_plugins.house.no_bags", "}, no bags", "}, no bag")
    with pytest.raises(InvariantError, match="the score lines read .*overtricks, no bag'"):
        run_examples(spadeskit.load_rules("standard", [slipped]), _fail)


def test_the_misdeal_examples_catch_a_misdeal_nobody_may_declare() -> None:
    slipped = broken.edited(
        JJDD,
        "return (DeclareMisdeal(),) if _uneven(game) else ()",
        "return ()",
    )
    with pytest.raises(InvariantError, match="declare a misdeal") as error:
        run_examples(spadeskit.load_rules(slipped), _fail)
    assert "a player holding the wrong number of cards" in str(error.value)


def test_an_example_that_must_be_refused_names_the_reason() -> None:
    slipped = broken.edited(
        "spadeskit_plugins.three_suit_trump",
        "    if points is None:\n        raise SpadesError(",
        "    if points is None and False:\n        raise SpadesError(",
    )
    with pytest.raises(InvariantError, match="give the cards each seat won"):
        run_examples(spadeskit.load_rules(slipped), _fail)


def test_the_examples_pin_double_over_from_a_bid_of_one() -> None:
    slipped = broken.edited(
        JJDD,
        'doubled_over = made and options["double_over"] and bid > 0',
        'doubled_over = made and options["double_over"] and bid > 1',
    )
    with pytest.raises(InvariantError, match="double over counts from a bid of 1"):
        run_examples(spadeskit.load_rules(slipped), _fail)


def test_ties_broken_by_seat_number_are_caught_on_a_score_sheet() -> None:
    rules = spadeskit.load_rules("standard", [broken.SEAT_TIES])
    with pytest.raises(InvariantError, match="ties play on.*after hand 2 .*won by N/S") as error:
        check_end_on_paper(rules, _fail)
    assert error.value.invariant == "end"


def test_check_rules_blames_the_house_rule_a_wrong_rule_comes_from() -> None:
    for plugin in (broken.SPADES_ANYTIME_BROKEN, broken.SEAT_TIES, broken.SET_PLUS_TEN):
        with pytest.raises(InvariantError) as error:
            check_rules(spadeskit.load_rules("standard", [plugin]), **QUICK)
        assert error.value.culprit == plugin.PLUGIN.name


def test_the_options_oracle_catches_a_validator_narrower_than_its_documented_range() -> None:
    rules = spadeskit.load_rules("standard", [broken.BAD_RANGE])
    with pytest.raises(InvariantError, match="'limit' of bad-range .*13 is in range but refused"):
        check_options(rules, _fail)


SHIPPED = [
    ("standard", [], None),
    ("standard", ["jokers", "boston", "no-bags"], None),
    ("standard", ["blind-nil", "partnership-nil", "hidden-bids"], None),
    ("standard", ["mirror", "no-trump-first-trick"], None),
    ("standard", ["whiz", "spades-anytime"], {"nil_tricks": "partner"}),
    ("jjdd", [], None),
    ("jjdd", [], {"enforcement": "table", "nil": True, "first_lead": "last-book"}),
    ("cutthroat", [], {"all_tricks": "score-200"}),
    ("two-handed", [], None),
    ("call-break", [], {"must_head": False}),
    ("three-suit-trump", [], None),
]


@pytest.mark.parametrize(("variant", "house", "options"), SHIPPED)
def test_the_shipped_rules_agree_with_every_oracle_under_every_policy(
    variant: str, house: list[str], options: dict[str, object] | None
) -> None:
    rules = spadeskit.load_rules(variant, house, options)
    for policy in POLICIES.values():
        play_match(rules, 3, policy, deep_every=0, out_of_turn=0.02, max_hands=3)
    assert check_options(rules, _fail) > 0
    check_end_on_paper(rules, _fail)


def test_the_contract_policy_reaches_made_contracts_nils_bags_and_the_target() -> None:
    rules = spadeskit.load_rules("standard")
    games = [play_match(rules, s, POLICIES["contract"], deep_every=0) for s in range(3)]
    lines = [line.text for g in games for r in g.hand_results for line in r.lines]
    assert any("took" in t and "set" not in t and " bid " in t for t in lines)
    assert any(max(g.scores) >= 500 for g in games)
    bags = play_match(rules, 0, POLICIES["bags"], deep_every=0)
    assert any("bags:" in line.text for r in bags.hand_results for line in r.lines)


def test_a_plugin_declaring_own_rules_switches_the_oracle_off_and_the_report_says_so() -> None:
    said = relies_on(spadeskit.load_rules("three-suit-trump"))
    assert said["tricks"] == said["score"] == said["bids"] == said["steps"] == "reference"
    own = broken.plugin("own-score", oracles={"score": "own"}, fits=("standard",))
    said = relies_on(spadeskit.load_rules("standard", [own]))
    assert said["score"].startswith("declared own by own-score: relies on the score sheet")
    assert said["bags"].startswith("declared own by own-score")


def test_the_reference_reads_declared_top_trumps_above_the_ace() -> None:
    read: Reading = reading(spadeskit.load_rules("jjdd"))
    from spadeskit.core.cards import parse_card

    def plays(*codes: str) -> list[tuple[int, int]]:
        return [(seat, parse_card(code).index) for seat, code in enumerate(codes)]

    assert reference_winner(read, plays("AS", "2S", "KH", "2D"), "spades") == 3
    assert reference_winner(read, plays("KH", "AH", "2D", "3C"), "spades") == 2
    assert reference_winner(read, plays("KH", "AH", "QH", "BJ"), "spades") == 3


def test_rotation_names_the_seat_and_hand_of_a_rule_that_treats_one_seat_differently() -> None:
    rules = spadeskit.load_rules("standard", [broken.WEST_ONLY])
    with pytest.raises(InvariantError, match=r"hand \d+, \w \(seat \d\) against \w with the"):
        for seed in range(40):
            check_rotation(rules, seed)


def test_swapping_two_non_trump_suits_catches_a_rule_about_one_suit() -> None:
    rules = spadeskit.load_rules("standard", [broken.HEARTS_UPSIDE_DOWN])
    with pytest.raises(InvariantError) as error:
        for seed in range(10):
            check_relabelling(rules, seed)
    assert error.value.invariant == "relabelling" and "hand 1" in str(error.value)


@pytest.mark.parametrize("variant", ["standard", "jjdd", "cutthroat", "two-handed", "call-break"])
def test_the_shipped_variants_keep_rotation_and_suit_swaps(variant: str) -> None:
    rules = spadeskit.load_rules(variant)
    assert suit_relabellings(rules)
    for seed in range(3):
        check_rotation(rules, seed)
        check_relabelling(rules, seed)


@pytest.mark.parametrize("name", shipped("variant") + shipped("house-rule"))
def test_every_shipped_plugin_pins_worked_examples_that_hold(name: str) -> None:
    info = next(p for p in spadeskit.available() if p.name == name)
    rules = (
        spadeskit.load_rules(name)
        if info.kind == "variant"
        else spadeskit.load_rules(info.fits[0] if info.fits else "standard", [name])
    )
    assert [p for p, _ in examples_of(rules) if p == name], f"{name} pins no example"
    assert run_examples(rules, _fail) > 0


def test_a_worked_example_the_rules_break_names_its_rule() -> None:
    module = types.ModuleType("wrong_example")
    module.PLUGIN = spadeskit.PluginInfo(  # type: ignore[attr-defined]
        name="wrong-example", kind="house-rule", summary="a worked example that is wrong"
    )
    module.EXAMPLES = (  # type: ignore[attr-defined]
        {
            "rule": "a made contract of 5 with 2 bags scores 70",
            "bids": "3 1 2 1",
            "books": "4 1 3 5",
            "points": (70, 24),
        },
    )
    rules = spadeskit.load_rules("standard", [module])
    with pytest.raises(InvariantError, match="a made contract of 5 .*: points \\(52, 24\\)"):
        run_examples(rules, _fail)


def test_option_values_are_drawn_from_their_documented_ranges() -> None:
    rules = spadeskit.load_rules("jjdd")
    drawn = [draw_options(rules, seed) for seed in range(12)]
    assert all(d is not None for d in drawn)
    changed = {k for d in drawn if d for k, v in d.options.items() if v != rules.options[k]}
    assert {"first_lead", "enforcement", "nil"} <= changed


def test_the_bag_counter_drops_by_the_limit_even_at_a_penalty_of_nothing() -> None:
    rules = spadeskit.load_rules("standard", options={"bag_limit": 1, "bag_penalty": 0})
    for seed in range(2):
        play_match(rules, seed, POLICIES["bags"], deep_every=0, max_hands=6)
