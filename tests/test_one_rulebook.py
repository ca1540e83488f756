"""One rulebook: a rule is written once and holds on every path (step API, rollouts,
simulate, search playouts); generated code is visible and fails naming the plugin."""

from __future__ import annotations

import random
import re
import traceback
import types
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fast_core import midway, step_to_end

import spadeskit
from spadeskit import GameState, PluginError, PluginInfo, hookimpl
from spadeskit.core.state import HandState
from spadeskit.engine.filters import Block, building_block
from spadeskit.plugin import PlayFilter, evolve_hand


def house_rule(name: str, **hooks: Callable[..., Any]) -> types.ModuleType:
    """Return a third-party house rule module implementing ``hooks``."""
    module = types.ModuleType(name)
    module.PLUGIN = PluginInfo(name=name, kind="house-rule", summary=name)  # type: ignore[attr-defined]
    for hook, function in hooks.items():
        setattr(module, hook, hookimpl(function))
    return module


def late_hearts_through_an_alias(ranking: Any) -> Sequence[PlayFilter]:
    """No heart may be led to the first two tricks (unless only hearts are held), the
    hand read through an alias, as a plugin author may well write it."""
    hearts = ranking.suit_mask[spadeskit.Suit.HEARTS]

    def check(hand: HandState, seat: int, allowed: int) -> int:
        h = hand
        trick, tricks = h.trick, h.tricks
        if not trick and len(tricks) < 2 and allowed & ~hearts:
            return allowed & ~hearts
        return allowed

    return [
        PlayFilter("late-hearts", check, "no heart may be led to the first two tricks", order=40)
    ]


@pytest.mark.parametrize("variant", ["standard", "cutthroat", "two-handed"])
def test_a_third_party_filter_written_once_gives_rollout_equal_to_step_on_every_seed(
    variant: str,
) -> None:
    """A plain Python filter, reading the hand through an alias, holds on every path."""
    rules = spadeskit.load_rules(
        variant, [house_rule("late-hearts", spadeskit_play_filters=late_hearts_through_an_alias)]
    )
    for seed in range(20):
        start = midway(rules, seed, steps=seed % 7)
        rng = random.Random(seed)
        assert start.rollout(seed=seed) == step_to_end(
            start, lambda _state, legal: rng.choice(legal)
        )


def test_simulate_with_a_third_party_filter_equals_recorded_step_play() -> None:
    rules = spadeskit.load_rules(
        "standard", [house_rule("late-hearts", spadeskit_play_filters=late_hearts_through_an_alias)]
    )
    fast = list(rules.simulate(12, seed=3))
    recorded = list(rules.engine.playouts._simulate(12, 3, None, 0, close=True))
    assert fast == recorded


RANKING = spadeskit.load_rules("standard").ranking


@pytest.mark.parametrize(
    ("when", "keep", "why"),
    [
        (["hand.trick"], "$low", "reads 'hand'"),
        (["$leading"], "$nothing", "reads $nothing"),
        (["not $leading"], "$low", "uses and/or/not"),
        (["$leading and $done == 0"], "$low", "uses and/or/not"),
        (["$leading"], "$low if $done else 0", "uses and/or/not"),
        (["$leading"], "print($low)", "a call"),
        (["$leading"], "~$low", "uses and/or/not, ~"),
        (["$leading"], "_k_trick = ()", "is not one Python expression"),
        (["$leading"], "$low // 2", "uses FloorDiv"),
    ],
)
def test_a_building_block_reads_only_the_hand_in_play_and_writes_nothing(
    when: list[str], keep: str, why: str
) -> None:
    """A block's steps are expressions on allowed, the reads and its constants, which
    also run on arrays: anything else is refused when the block is built."""
    with pytest.raises(PluginError, match=re.escape(why)):
        building_block("bad", "", [(when, keep)], {"low": 0b111}, ranking=RANKING, order=5)


def test_a_building_blocks_check_is_derived_from_its_one_definition() -> None:
    """The reference check, the inlined loop code and the batched code come from the
    same steps."""
    ban = building_block(
        "low-first", "lead low", [(["$leading"], "$low")], {"low": 0b111}, ranking=RANKING, order=5
    )
    assert isinstance(ban.block, Block)
    hand = types.SimpleNamespace(trick=(), played=0, tricks=())
    assert ban.check(hand, 0, 0b1010) == 0b10  # type: ignore[arg-type]
    assert ban.check(hand, 0, 0b1000) == 0b1000  # type: ignore[arg-type]  (none low: all)
    hand.trick = ((1, 5),)
    assert ban.check(hand, 0, 0b1010) == 0b1010  # type: ignore[arg-type]
    assert "not _k_trick" in ban.block.inline(
        "_c_", {"trick": "_k_trick", "played": "p", "tricks": "t"}, {}
    )
    assert "_w & (_kept != 0)" in ban.block.vector_statements(
        {r: f"_b_{r}" for r in ("leading", "following", "lead", "played", "done", "top")},
        "where",
    )


def test_a_filter_given_source_is_warned_and_its_check_runs() -> None:
    with pytest.warns(DeprecationWarning, match="'source' is ignored"):
        old = PlayFilter("old", lambda hand, seat, allowed: allowed, source="allowed = 0\n")
    rules = spadeskit.load_rules(
        "standard", [house_rule("old", spadeskit_play_filters=lambda: [old])]
    )
    game = rules.new_game(seed=2)
    assert game.rollout(seed=2).hand_results  # the ignored source would have emptied the mask


# ------------------------------------------------------------------------------------------
# Hooks never see a mutable state
# ------------------------------------------------------------------------------------------


def test_every_hook_sees_frozen_states_that_never_change_afterwards_on_every_path() -> None:
    """Hooks and filters are handed frozen states only (no scratch copy), so a plugin
    that keeps what it was handed sees it unchanged later, on every path."""
    kept: list[tuple[GameState, tuple[Any, ...]]] = []

    def keep(game: GameState) -> None:
        assert type(game) is GameState
        kept.append(
            (game, (game.to_act, game.hands, game.trick, game.bids, game.tricks, game.phase))
        )

    def auction_next(game: GameState) -> None:
        keep(game)

    def after_trick(hand: HandState) -> HandState:
        keep(hand)
        return evolve_hand(hand, extra=hand.extra.set(counted=len(hand.tricks)))

    def filters(ranking: Any) -> Sequence[PlayFilter]:
        def check(hand: HandState, seat: int, allowed: int) -> int:
            keep(hand)
            return allowed

        return [PlayFilter("watcher", check, order=90)]

    watcher = house_rule(
        "watcher",
        spadeskit_auction_next=auction_next,
        spadeskit_after_trick=after_trick,
        spadeskit_play_filters=filters,
    )
    rules = spadeskit.load_rules("standard", [watcher])
    game = rules.new_game(seed=4)
    game.rollout(seed=4)
    list(rules.simulate(3, seed=4))
    rules.engine.playouts.random_play_score(midway(rules, 4, 10), random.Random(4).random)
    assert len(kept) > 100
    for state, seen in kept:
        assert (
            state.to_act,
            state.hands,
            state.trick,
            state.bids,
            state.tricks,
            state.phase,
        ) == seen


# ------------------------------------------------------------------------------------------
# Failures inside plugins name the plugin; generated code shows its lines
# ------------------------------------------------------------------------------------------


def broken_filters(ranking: Any) -> Sequence[PlayFilter]:
    def check(hand: HandState, seat: int, allowed: int) -> int:
        if hand.tricks:
            raise TypeError("the filter tripped")
        return allowed

    return [PlayFilter("tripwire", check, order=50)]


@pytest.mark.parametrize("path", ["step", "rollout", "simulate"])
def test_an_exception_in_a_filter_is_a_plugin_error_naming_it_on_every_path(path: str) -> None:
    rules = spadeskit.load_rules(
        "standard", [house_rule("tripwire", spadeskit_play_filters=broken_filters)]
    )
    game = rules.new_game(seed=1)
    with pytest.raises(
        PluginError, match=r"play filter 'tripwire' \(plugin 'tripwire'\) failed"
    ) as caught:
        if path == "step":
            rng = random.Random(1)
            while True:
                game = game.apply(rng.choice(game.legal_actions()))
        elif path == "rollout":
            game.rollout(seed=1)
        else:
            list(rules.simulate(2, seed=1))
    assert isinstance(caught.value.__cause__, TypeError)


def test_generated_source_shows_what_runs_and_tracebacks_show_its_lines() -> None:
    def auction_next(game: GameState) -> None:
        raise ValueError("no")

    rules = spadeskit.load_rules(
        "standard", [house_rule("grumpy", spadeskit_auction_next=auction_next)]
    )
    text = rules.generated_source()
    assert (
        "# hook spadeskit_auction_next" in text and "# play filters" in text and "playout" in text
    )
    with pytest.raises(
        PluginError, match="plugin 'grumpy' failed in hook spadeskit_auction_next"
    ) as caught:
        rules.new_game(seed=1).apply(spadeskit.Bid(3))
    shown = "".join(traceback.format_exception(caught.value.__cause__))
    assert "<spadeskit hook spadeskit_auction_next" in shown and "r = _f" in shown


def test_a_view_names_its_variant_house_rules_and_options_so_inference_loads_them() -> None:
    from spadeskit.bots.inference import DealSampler

    rules = spadeskit.load_rules("standard", ["blind-nil"], {"target": 300})
    view = rules.new_game(seed=5).apply(spadeskit.SeeCards()).view(0)
    assert (view.variant, view.house_rules, view.options["target"]) == (
        "standard",
        ("blind-nil",),
        300,
    )
    assert view.rules_name == rules.name == "standard + blind-nil"
    assert view.to_json()["house_rules"] == ["blind-nil"]
    deal = DealSampler(view).draw(random.Random(1))
    assert deal.hands[0] == rules.new_game(seed=5).hands[0] and len(deal.hands) == 4


def test_the_out_of_turn_hooks_old_names_still_work_with_a_deprecation_warning() -> None:
    """``spadeskit_penalty_actions`` / ``spadeskit_apply_penalty`` are now
    ``spadeskit_out_of_turn_actions`` / ``spadeskit_apply_out_of_turn``."""

    def spadeskit_penalty_actions(seat: int | None) -> Sequence[spadeskit.Action] | None:
        return (spadeskit.Accept(),) if seat == 1 else None

    def spadeskit_apply_penalty(game: GameState, action: spadeskit.Action) -> GameState | None:
        return evolve_hand(game.hand, extra=game.hand.extra.set(accepted=True))

    old = house_rule(
        "old-names",
        spadeskit_penalty_actions=spadeskit_penalty_actions,
        spadeskit_apply_penalty=spadeskit_apply_penalty,
    )
    with pytest.warns(
        DeprecationWarning, match="spadeskit_penalty_actions, now called spadeskit_out_of_turn"
    ):
        rules = spadeskit.load_rules("standard", [old])
    game = rules.new_game(seed=1)
    assert game.legal_actions(1) == (spadeskit.Accept(),)
    assert game.apply(spadeskit.Accept(), 1).hand.extra["accepted"] is True


def _search_tree(node: Any) -> tuple[Any, ...]:
    """Every number of a search tree's nodes, children by key."""
    children = sorted((repr(key), _search_tree(child)) for key, child in node.children.items())
    return (node.actor, node.visits, node.avail, node.reward, children)


def _ismcts_tree(
    rules: spadeskit.Rules, game: GameState, by_steps: bool, rollout: str
) -> tuple[spadeskit.Action, tuple[Any, ...], int]:
    """One ISMCTS decision at ``game`` (pure search), the tree it grew, walked down in
    the playout loop or (``by_steps``) step by step, and how many walks the loop took."""
    import spadeskit.bots.search as search_module
    from spadeskit.bots.search import ISMCTSBot
    from spadeskit.engine.loop import Descent, SearchNode

    roots: list[SearchNode] = []
    descents: list[Descent] = []

    def node(actor: int) -> SearchNode:
        made = SearchNode(actor)
        if actor == -1:
            roots.append(made)
        return made

    def descent(root: SearchNode, exploration: float) -> Descent:
        descents.append(Descent(root, exploration))
        return descents[-1]

    seat = game.to_act
    assert seat is not None
    bot = ISMCTSBot(iterations=120, veto=0, rollout=rollout)
    bot._by_steps = by_steps
    bot.reset(seat, rules, random.Random(5))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_module, "SearchNode", node)
        patch.setattr(search_module, "Descent", descent)
        action = bot.choose(game.view(seat))
    assert len(roots) <= 1  # none where the bot does not search (a pile it cannot see)
    walked = sum(len(d.path) > 1 for d in descents)
    return action, _search_tree(roots[0]) if roots else (), walked


@pytest.mark.parametrize(
    ("variant", "house", "rollout"),
    [
        ("standard", (), "greedy"),
        ("standard", (), "random"),
        ("standard", ("blind-nil", "no-bags"), "greedy"),
        ("cutthroat", (), "greedy"),
        ("cutthroat", (), "random"),
        ("three-suit-trump", (), "greedy"),
        ("call-break", (), "greedy"),
        ("jjdd", (), "greedy"),
    ],
)
def test_ismcts_walks_its_tree_in_the_playout_loop_exactly_as_step_by_step(
    variant: str, house: tuple[str, ...], rollout: str
) -> None:
    """The search tree walked down on ints in the playout loop (``Descent``) is the tree
    walked down with ``GameState.apply``: the same nodes, visits, availabilities and
    rewards, and the same card, from early and late positions (where the walk down
    finishes the hand).  jjdd has a ``spadeskit_before_scoring`` hook, so its walks go
    step by step."""
    rules = spadeskit.load_rules(variant, list(house))
    searched = 0
    for seed in range(6):
        game = midway(rules, seed, steps=(0, 9, 21, 33, 45, 51)[seed])
        if game.phase is not spadeskit.Phase.PLAY or len(game.legal_actions()) < 2:
            continue
        action, tree, walked = _ismcts_tree(rules, game, False, rollout)
        assert (action, tree, 0) == _ismcts_tree(rules, game, True, rollout)
        if tree:
            searched += 1
            assert walked == 0 if variant == "jjdd" else walked > 100
    assert searched >= 2


_LOOP_RULE_SETS = [
    ("standard", ()),
    ("standard", ("blind-nil",)),
    ("standard", ("no-trump-first-trick",)),
    ("standard", ("spades-anytime",)),
    ("cutthroat", ()),
    ("three-suit-trump", ()),
    ("call-break", ()),
]


@settings(max_examples=40, deadline=None)
@given(
    rule_set=st.sampled_from(_LOOP_RULE_SETS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    rollout=st.sampled_from(["greedy", "random"]),
)
def test_ismcts_walks_the_same_tree_in_the_loop_as_by_steps_in_random_positions(
    rule_set: tuple[str, tuple[str, ...]], seed: int, steps: int, rollout: str
) -> None:
    """The invariant behind ``Descent``, over random positions of rule sets with a
    playout loop: the loop's walk down the tree and the step-by-step walk grow the same
    tree and choose the same card."""
    variant, house = rule_set
    rules = spadeskit.load_rules(variant, list(house))
    game = midway(rules, seed, steps=steps)
    if game.phase is not spadeskit.Phase.PLAY or len(game.legal_actions()) < 2:
        return
    action, tree, walked = _ismcts_tree(rules, game, False, rollout)
    assert (action, tree, 0) == _ismcts_tree(rules, game, True, rollout)
    assert walked or not tree


def test_the_compiled_filters_are_generated_from_the_building_blocks() -> None:
    """The playout loop's compiled filters (``spadeskit.engine.compiledfilters``) are
    exactly what their generator writes now from every shipped rule set's building
    blocks, so none can drift from its one definition; every shipped rule set with a
    playout loop runs one; and each allows exactly the cards the generated function
    allows, for every seat at every card of random hands.  ``SPADESKIT_WRITE_FILTERS=1``
    rewrites the file."""
    import importlib
    import os
    from pathlib import Path

    from spadeskit.core import codegen
    from spadeskit.engine import compiledfilters
    from spadeskit.engine.loop import compiled_filters_source, filter_function, filter_key

    infos = {p.name: p for p in spadeskit.available()}
    rule_sets = []
    for variant in [name for name, p in infos.items() if p.kind == "variant"]:
        houses = [name for name, p in infos.items() if p.kind == "house-rule" and variant in p.fits]
        for house in [(), *((name,) for name in houses)]:
            rules = spadeskit.load_rules(variant, list(house))
            made = filter_function(rules.engine.shared)
            if made is not None:
                rule_sets.append((rules, made))
                assert rules.engine.playouts.loop.compiled is not None
    assert len(rule_sets) > 20
    written = compiled_filters_source([made for _, made in rule_sets])
    path = Path(compiledfilters.__file__).parent / "compiledfilters.py"
    if os.environ.get("SPADESKIT_WRITE_FILTERS") == "1":
        path.write_text(written)
        importlib.reload(compiledfilters)
    assert path.read_text() == written, (
        "spadeskit/engine/compiledfilters.py is not what its generator writes now: run "
        "SPADESKIT_WRITE_FILTERS=1 pytest tests/test_one_rulebook.py -k compiled_filters"
    )
    compared = 0
    for rules, (source, namespace) in rule_sets:
        compiled = compiledfilters.FACTORIES[filter_key(source, namespace)](**namespace)
        generated = codegen.function("allowed_of", source, namespace, label="test")
        for seed in range(3):
            game = midway(rules, seed, steps=0)
            match = game.match
            rng = random.Random(seed)
            while game.match is match and not game.is_over:
                if game.phase is spadeskit.Phase.PLAY:
                    for held in game.hands:
                        for allowed in (held, held & rng.getrandbits(64)):
                            args = (allowed, game.trick, game.played, game.tricks)
                            assert compiled.allowed(*args) == generated(*args)
                            compared += 1
                game = game.apply(rng.choice(game.legal_actions()))
    assert compared > 5_000
