"""The fast core: rollouts and simulate equal the step API, states pickle, hooks compile
with pluggy's semantics, out-of-turn hooks declare their phases, the core has no import
cycle, the next hand is dealt lazily and score-line text is built when read."""

from __future__ import annotations

import pickle
import random
import types
from collections.abc import Callable, Generator, Sequence
from typing import Any

import hypothesis.strategies as st
import pluggy
import pytest
from hypothesis import given, settings

import spadeskit
from conftest import shipped
from spadeskit import (
    Action,
    GameState,
    Phase,
    PluginError,
    PluginInfo,
    ScoreLine,
    SpadesError,
    acts_in,
    hookimpl,
)
from spadeskit.core.state import FIELDS, HandState
from spadeskit.engine.compiler import compile_hook
from spadeskit.plugin import PlayFilter, compile_filters, evolve_hand

CONFIGS: list[tuple[str, tuple[str, ...], dict[str, Any]]] = [
    ("standard", (), {}),
    ("jjdd", (), {}),
    ("jjdd", (), {"enforcement": "table"}),
    ("jjdd", (), {"nil": True, "first_lead": "last-book"}),
    ("cutthroat", (), {}),
    ("two-handed", (), {}),
    ("three-suit-trump", (), {}),
    ("standard", ("blind-nil",), {}),
    ("standard", ("blind-nil", "hidden-bids", "partnership-nil"), {"blind_nil_pass": 1}),
    ("standard", ("no-trump-first-trick", "jokers", "boston"), {}),
    ("standard", ("spades-anytime", "no-bags"), {}),
    ("cutthroat", ("no-trump-first-trick",), {"all_tricks": "score-200"}),
    ("two-handed", ("spades-anytime",), {}),
]
IDS = [" + ".join((v, *h)) + (f" {o}" if o else "") for v, h, o in CONFIGS]


def rules_of(config: tuple[str, tuple[str, ...], dict[str, Any]]) -> spadeskit.Rules:
    variant, house, options = config
    return spadeskit.load_rules(variant, house, options)


def step_to_end(
    game: GameState, choose: Callable[[GameState, tuple[Action, ...]], Action]
) -> GameState:
    """Apply ``choose(state, legal_actions)`` until the hand in progress is scored."""
    match = game.match
    while game.match is match and not game.is_over:
        game = game.apply(choose(game, game.legal_actions()))
    return game


def midway(rules: spadeskit.Rules, seed: int, steps: int) -> GameState:
    """Return the state after ``steps`` random actions of a new game (within its first hand)."""
    rng = random.Random(seed)
    game = rules.new_game(seed=seed)
    match = game.match
    for _ in range(steps):
        after = game.apply(rng.choice(game.legal_actions()))
        if after.match is not match:
            break
        game = after
    return game


# ------------------------------------------------------------------------------------------
# Rollout and simulate give exactly what the step API gives
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_rollout_equals_apply_step_by_step_with_the_same_random_choices(config: Any) -> None:
    rules = rules_of(config)
    for seed in range(12):
        start = midway(rules, seed, steps=seed * 5)
        rolled = start.rollout(seed=seed)
        rng = random.Random(seed)
        stepped = step_to_end(start, lambda _state, legal: rng.choice(legal))
        assert rolled == stepped
        assert rolled.to_record() == stepped.to_record()
        assert rolled.hand_results == stepped.hand_results
        if not rolled.is_over:  # the next hand, dealt when read, is the same too
            assert rolled.legal_actions() == stepped.legal_actions()


def trick_counter() -> types.ModuleType:
    """Return a house rule with an after-trick hook (it notes the trick count in extra)."""
    module = types.ModuleType("trick-counter")
    module.PLUGIN = PluginInfo(name="trick-counter", kind="house-rule", summary="notes tricks")  # type: ignore[attr-defined]

    def spadeskit_after_trick(hand: HandState) -> HandState:
        return evolve_hand(hand, extra=hand.extra.set(counted=len(hand.tricks)))

    module.spadeskit_after_trick = hookimpl(spadeskit_after_trick)  # type: ignore[attr-defined]
    return module


def sourceless_filter() -> types.ModuleType:
    """Return a house rule with a play filter that gives no source (no hearts led first)."""
    module = types.ModuleType("late-hearts")
    module.PLUGIN = PluginInfo(
        name="late-hearts", kind="house-rule", summary="no heart leads first"
    )  # type: ignore[attr-defined]

    def spadeskit_play_filters(ranking: Any) -> Sequence[PlayFilter]:
        hearts = ranking.suit_mask[spadeskit.Suit.HEARTS]

        def check(hand: HandState, seat: int, allowed: int) -> int:
            if not hand.trick and not hand.tricks and allowed & ~hearts:
                return allowed & ~hearts
            return allowed

        return [PlayFilter("late-hearts", check, order=40)]

    module.spadeskit_play_filters = hookimpl(spadeskit_play_filters)  # type: ignore[attr-defined]
    return module


@pytest.mark.parametrize("variant", ["standard", "two-handed"])
@pytest.mark.parametrize("make", [trick_counter, sourceless_filter])
def test_rollout_equals_apply_with_an_after_trick_hook_or_a_filter_without_source(
    variant: str, make: Callable[[], types.ModuleType]
) -> None:
    rules = spadeskit.load_rules(variant, [make()])
    loop = rules.engine.playouts.loop
    assert (loop is None) == (make is sourceless_filter)  # card by card, or the playout loop
    for seed in range(8):
        start = midway(rules, seed, steps=seed * 3)
        rng = random.Random(seed)
        assert start.rollout(seed=seed) == step_to_end(
            start, lambda _state, legal: rng.choice(legal)
        )


@pytest.mark.parametrize("config", CONFIGS[:8], ids=IDS[:8])
def test_rollout_with_a_policy_equals_apply_with_that_policy(config: Any) -> None:
    rules = rules_of(config)

    def last(state: GameState, legal: tuple[Action, ...]) -> Action:
        assert isinstance(state, GameState) and legal == state.legal_actions()
        return legal[-1]

    for seed in range(4):
        start = rules.new_game(seed=seed)
        assert start.rollout(policy=last) == step_to_end(start, last)


def test_rollout_returns_the_state_just_after_scoring_and_a_finished_match_unchanged() -> None:
    rules = spadeskit.load_rules("standard", options={"target": 50})
    game = rules.new_game(seed=3)
    after = game.rollout(seed=1)
    assert len(after.hand_results) == 1 and after.hand_results[0].number == 0
    while not after.is_over:
        after = after.rollout(seed=len(after.hand_results))
    assert after.rollout(seed=0) is after


def test_rollout_refuses_a_bad_seed_or_policy() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=1)
    with pytest.raises(SpadesError, match="seed"):
        game.rollout(seed="7")  # type: ignore[arg-type]
    with pytest.raises(SpadesError, match="policy"):
        game.rollout(policy=5)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", shipped("variant"))
def test_simulate_hand_i_depends_only_on_seed_and_i(variant: str) -> None:
    rules = spadeskit.load_rules(variant)
    whole = list(rules.simulate(6, seed=11))
    split = list(rules.simulate(2, seed=11)) + list(rules.simulate(4, seed=11, start=2))
    assert whole == split
    assert whole != list(rules.simulate(6, seed=12))
    for i in (0, 5):
        assert list(rules.simulate(1, seed=11, start=i)) == [whole[i]]
    for result in whole:
        assert result.number == 0 and not result.void
        assert sum(result.points) == sum(line.points for line in result.lines)


def test_simulate_refuses_bad_arguments() -> None:
    rules = spadeskit.load_rules("standard")
    for kwargs in (
        {"hands": -1},
        {"hands": 2.0},
        {"hands": 1, "seed": None},
        {"hands": 1, "start": -2},
        {"hands": 1, "policy": "x"},
    ):
        with pytest.raises(SpadesError):
            list(rules.simulate(**kwargs))


# ------------------------------------------------------------------------------------------
# Pickling
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_states_pickle_to_an_equal_state_at_every_stage(config: Any) -> None:
    rules = rules_of(config)
    assert pickle.loads(pickle.dumps(rules)) is rules
    game = rules.new_game(seed=5)
    rng = random.Random(5)
    for step in range(400):
        if step % 23 == 0:
            copy = pickle.loads(pickle.dumps(game))
            assert copy == game and copy.to_record() == game.to_record()
            assert copy.legal_actions() == game.legal_actions()
        if game.is_over:
            break
        game = game.apply(rng.choice(game.legal_actions()))
    scored = rules.new_game(seed=6).rollout(seed=1)  # the next hand is not dealt yet
    assert pickle.loads(pickle.dumps(scored)) == scored


def test_cards_stay_interned_through_pickle() -> None:
    card = spadeskit.Card.of("QH")
    assert pickle.loads(pickle.dumps(card)) is card


def test_rules_built_from_plugin_objects_refuse_to_pickle_with_a_clear_error() -> None:
    import spadeskit_plugins.standard as standard

    rules = spadeskit.load_rules(standard)
    with pytest.raises(SpadesError, match="load them by name"):
        pickle.dumps(rules)


# ------------------------------------------------------------------------------------------
# The next hand is dealt when read; score-line text is built when read
# ------------------------------------------------------------------------------------------


def test_the_next_hand_is_dealt_when_it_starts_and_no_state_changes_after() -> None:
    # Round 5: no state changes after a caller can see it.  The hand after a scored one is
    # dealt when it starts; reading it changes nothing, and no state class but GameState.
    rules = spadeskit.load_rules("standard", options={"floor": None})
    after = rules.new_game(seed=2).rollout(seed=2)
    assert not after.is_over
    before = {name: object.__getattribute__(after, name) for name in FIELDS}
    assert type(after) is GameState
    assert after.number == 1 and after.dealer == 0 and after.to_act == 1
    assert {name: object.__getattribute__(after, name) for name in FIELDS} == before
    assert spadeskit.replay(after.to_record()) == after
    copy = pickle.loads(pickle.dumps(after))
    assert type(copy) is GameState and copy == after


def test_no_state_class_has_a_getattr_hook() -> None:
    # A class with __getattr__ makes CPython read every attribute through its generic
    # path: about 20 ns a read, half a step's time.
    for cls in GameState.__mro__:
        assert "__getattr__" not in vars(cls), cls


def test_score_line_text_may_be_built_when_read() -> None:
    calls = []

    def text() -> str:
        calls.append(1)
        return "N/S bid 4, took 4: +40"

    line = ScoreLine(0, 40, text)
    assert not calls
    assert line.text == "N/S bid 4, took 4: +40" and line.text == line.text
    assert len(calls) == 1
    assert line == ScoreLine(0, 40, "N/S bid 4, took 4: +40")
    assert "took 4" in repr(line)


def test_hand_is_the_state_itself_and_evolve_hand_keeps_the_match() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=1)
    assert game.hand is game and HandState is GameState
    changed = evolve_hand(game.hand, extra=game.extra.set(note=1))
    assert changed.match is game.match and changed.extra["note"] == 1 and "note" not in game.extra
    with pytest.raises(TypeError, match="nonsense"):
        evolve_hand(game, nonsense=1)


# ------------------------------------------------------------------------------------------
# Hooks compiled with pluggy's semantics
# ------------------------------------------------------------------------------------------


hookspec = pluggy.HookspecMarker("spadeskit")
impl = pluggy.HookimplMarker("spadeskit")


class Specs:
    @hookspec(firstresult=True)
    def first(self, game: Any, table: Any, options: Any) -> Any:
        """A first-result hook."""

    @hookspec
    def collect(self, game: Any, seat: Any, options: Any) -> Any:
        """A collected hook."""


def manager(*plugins: object) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("spadeskit")
    pm.add_hookspecs(Specs)
    for k, plugin in enumerate(plugins):
        pm.register(plugin, name=f"p{k}")
    return pm


def plugin(**functions: Callable[..., Any]) -> types.SimpleNamespace:
    return types.SimpleNamespace(**functions)


def both(pm: pluggy.PluginManager, name: str, *args: Any) -> tuple[Any, Any]:
    """Return (compiled result, pluggy's result) for the same call."""
    bound = {"table": "T", "options": {"o": 1}}
    compiled = compile_hook(pm, name, bound, "test")
    assert compiled is not None
    spec = getattr(pm.hook, name).spec
    params = [a for a in spec.argnames if a not in bound]
    kwargs = dict(zip(params, args)) | {k: v for k, v in bound.items() if k in spec.argnames}
    return compiled(*args), getattr(pm.hook, name)(**kwargs)


def test_compiled_hooks_follow_pluggy_order_firstresult_and_tryfirst_trylast() -> None:
    calls: list[str] = []

    def answer(tag: str, value: Any) -> Callable[..., Any]:
        def f(game: Any) -> Any:
            calls.append(tag)
            return value

        return f

    pm = manager(
        plugin(first=impl(trylast=True)(answer("last", "L"))),
        plugin(first=impl(answer("none", None))),
        plugin(first=impl(answer("mid", "M"))),
        plugin(first=impl(tryfirst=True)(answer("firstnone", None))),
    )
    mine, theirs = both(pm, "first", "g")
    assert mine == theirs == "M"
    assert calls == ["firstnone", "mid"] * 2


def test_compiled_collected_hooks_pass_only_the_arguments_each_implementation_names() -> None:
    pm = manager(
        plugin(collect=impl(lambda seat: ("seat", seat))),
        plugin(collect=impl(lambda options, game: ("both", options["o"], game))),
        plugin(collect=impl(lambda game: None)),
    )
    mine, theirs = both(pm, "collect", "g", 3)
    assert mine == theirs == [("both", 1, "g"), ("seat", 3)]


def test_compiled_wrappers_see_and_replace_the_result_and_the_exception() -> None:
    def outer(game: Any) -> Generator[None, Any, Any]:
        result = yield
        return f"outer({result})"

    def inner(game: Any) -> Generator[None, Any, Any]:
        try:
            result = yield
        except KeyError:
            return "rescued"
        return f"inner({result})"

    pm = manager(
        plugin(first=impl(lambda game: "x")),
        plugin(first=impl(wrapper=True)(inner)),
        plugin(first=impl(wrapper=True, tryfirst=True)(outer)),
    )
    mine, theirs = both(pm, "first", "g")
    assert mine == theirs == "outer(inner(x))"

    def boom(game: Any) -> Any:
        raise KeyError("k")

    pm = manager(plugin(first=impl(boom)), plugin(first=impl(wrapper=True)(inner)))
    assert both(pm, "first", "g") == ("rescued", "rescued")


def test_compiled_wrappers_without_plain_implementations_get_a_new_list_each_call() -> None:
    def grower() -> Callable[..., Any]:
        def grow(game: Any) -> Generator[None, Any, Any]:
            result = yield
            result.append(game)
            return result

        return grow

    for wrappers in (1, 2):  # the generated single-wrapper call and the general one
        pm = manager(*[plugin(collect=impl(wrapper=True)(grower())) for _ in range(wrappers)])
        compiled = compile_hook(pm, "collect", {"table": "T", "options": {"o": 1}}, "test")
        assert compiled is not None
        assert compiled("a", 0) == ["a"] * wrappers
        assert compiled("b", 0) == ["b"] * wrappers


def test_old_style_hookwrappers_still_work_through_pluggy() -> None:
    def old(game: Any) -> Generator[None, Any, None]:
        outcome = yield
        outcome.force_result(outcome.get_result() + "!")

    pm = manager(plugin(first=impl(lambda game: "x")), plugin(first=impl(hookwrapper=True)(old)))
    assert both(pm, "first", "g") == ("x!", "x!")


def test_a_hook_nobody_implements_compiles_to_nothing() -> None:
    assert compile_hook(manager(), "first", {}, "test") is None
    rules = spadeskit.load_rules("standard")
    assert rules.calls.after_trick is None and rules.calls.view is None
    assert all(offer is None for offer in rules.calls.offers.values())


def test_a_failing_hook_is_a_plugin_error_naming_the_plugin_and_the_hook() -> None:
    def broken(game: Any) -> Any:
        return 1 // 0

    compiled = compile_hook(
        manager(plugin(first=impl(lambda game: None)), plugin(first=impl(broken))),
        "first",
        {"table": None, "options": None},
        "test",
    )
    assert compiled is not None
    with pytest.raises(PluginError, match=r"plugin 'p1' failed in hook first.*ZeroDivisionError"):
        compiled("g")


@pytest.mark.parametrize(
    "error", [SpadesError("refused on purpose"), RecursionError("deep"), MemoryError()]
)
def test_spades_errors_recursion_and_memory_errors_pass_through_hooks_unchanged(
    error: BaseException,
) -> None:
    def raising(game: Any) -> Any:
        raise error

    compiled = compile_hook(
        manager(plugin(first=impl(raising))), "first", {"table": 1, "options": 2}, "t"
    )
    assert compiled is not None
    with pytest.raises(type(error)) as caught:
        compiled("g")
    assert caught.value is error


# ------------------------------------------------------------------------------------------
# Out-of-turn hooks declare their phases
# ------------------------------------------------------------------------------------------


def counting_rule(
    name: str, *declared: Phase, who: Any = "players", when: Any = None, declare: bool = True
) -> tuple[types.ModuleType, list[Phase]]:
    """Return a house rule whose out-of-turn hook records the phases it is asked in."""
    asked: list[Phase] = []
    module = types.ModuleType(name)
    module.PLUGIN = PluginInfo(name=name, kind="house-rule", summary="counts")  # type: ignore[attr-defined]

    def spadeskit_out_of_turn_actions(game: GameState, seat: int | None) -> Sequence[Action]:
        asked.append(game.phase)
        return ()

    function = (
        acts_in(*declared, who=who, when=when)(spadeskit_out_of_turn_actions)
        if declare
        else spadeskit_out_of_turn_actions
    )
    module.spadeskit_out_of_turn_actions = hookimpl(function)  # type: ignore[attr-defined]
    return module, asked


def play_a_hand(rules: spadeskit.Rules, referee_too: bool = False) -> None:
    game = rules.new_game(seed=4)
    rng = random.Random(4)
    match = game.match
    while game.match is match:
        if referee_too:
            game.legal_actions(spadeskit.REFEREE)
        game = game.apply(rng.choice(game.legal_actions()))


def test_an_out_of_turn_hook_declared_for_the_auction_is_asked_only_in_the_auction() -> None:
    module, asked = counting_rule("auction-only", Phase.AUCTION)
    play_a_hand(spadeskit.load_rules("standard", [module]))
    assert asked and set(asked) == {Phase.AUCTION}


def test_an_undeclared_out_of_turn_hook_is_still_asked_in_every_phase() -> None:
    module, asked = counting_rule("undeclared", declare=False)
    play_a_hand(spadeskit.load_rules("standard", [module]))
    assert {Phase.AUCTION, Phase.PLAY} <= set(asked)


def test_who_and_when_leave_an_out_of_turn_hook_out_where_it_cannot_act() -> None:
    referee, asked_referee = counting_rule("referee-only", Phase.AUCTION, Phase.PLAY, who="referee")
    play_a_hand(spadeskit.load_rules("standard", [referee]))
    assert not asked_referee
    play_a_hand(spadeskit.load_rules("standard", [referee]), referee_too=True)
    assert asked_referee
    never, asked_never = counting_rule(
        "switched-off", Phase.PLAY, when=lambda options: options["target"] > 10_000
    )
    play_a_hand(spadeskit.load_rules("standard", [never]), referee_too=True)
    assert not asked_never


def test_shipped_out_of_turn_hooks_all_declare_their_phases() -> None:
    from spadeskit.engine.compiler import ACTS_IN

    for name in ("jjdd", "blind-nil"):
        variant = "jjdd" if name == "jjdd" else "standard"
        rules = spadeskit.load_rules(variant, [] if name == "jjdd" else [name])
        for found in rules.hook.spadeskit_out_of_turn_actions.get_hookimpls():
            assert hasattr(found.function, ACTS_IN), (name, found.function.__name__)
    strict = spadeskit.load_rules("jjdd")
    assert strict.engine.shared.play_offer is None  # strict enforcement offers nothing during play


# ------------------------------------------------------------------------------------------
# Play filters compiled with their sources
# ------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60))
def test_compiled_play_filters_allow_exactly_what_the_filters_allow_one_by_one(
    seed: int, steps: int
) -> None:
    for rules in (
        spadeskit.load_rules("standard"),
        spadeskit.load_rules("jjdd"),
        spadeskit.load_rules("standard", ["no-trump-first-trick"]),
    ):
        game = midway(rules, seed, steps)
        if game.phase is not Phase.PLAY:
            continue
        seat = game.to_act
        assert seat is not None
        expected = game.hands[seat]
        for f in rules.filters:
            expected = f.check(game, seat, expected)
        assert compile_filters(rules.filters)(game, seat, game.hands[seat]) == expected


def test_a_filter_without_source_is_called_in_its_place() -> None:
    def odd_only(hand: HandState, seat: int, allowed: int) -> int:
        return allowed & 0x5555555555555 or allowed

    filters = [
        PlayFilter("odd", odd_only, order=5),
        PlayFilter(
            "high",
            lambda h, s, a: a >> 1 << 1 or a,
            order=6,
            source="if allowed >> 1 << 1:\n    allowed = allowed >> 1 << 1\n",
        ),
    ]
    check = compile_filters(filters)
    assert check(None, 0, 0b1111) == 0b0100  # type: ignore[arg-type]


def test_a_play_filter_that_allows_a_card_not_held_is_a_plugin_error() -> None:
    module = types.ModuleType("greedy")
    module.PLUGIN = PluginInfo(name="greedy", kind="house-rule", summary="allows everything")  # type: ignore[attr-defined]
    module.spadeskit_play_filters = hookimpl(  # type: ignore[attr-defined]
        lambda ranking: [PlayFilter("greedy", lambda hand, seat, allowed: ranking.deck_mask)]
    )
    rules = spadeskit.load_rules("standard", [module])
    game = rules.new_game(seed=1)
    for bid in (spadeskit.Bid(3),) * 4:
        game = game.apply(bid)
    with pytest.raises(PluginError, match="which the seat does not hold"):
        game.legal_actions()
    with pytest.raises(PluginError, match="which the seat does not hold"):
        game.rollout(seed=1)


def test_a_failure_under_a_wrapper_names_the_plugin_that_raised_it() -> None:
    def passing(game: Any) -> Generator[None, Any, Any]:
        return (yield)

    def broken(game: Any) -> Any:
        raise KeyError("k")

    compiled = compile_hook(
        manager(plugin(first=impl(broken)), plugin(first=impl(wrapper=True)(passing))),
        "first",
        {"table": None, "options": None},
        "test",
    )
    assert compiled is not None
    with pytest.raises(PluginError, match=r"plugin 'p0' failed in hook first.*KeyError"):
        compiled("g")


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_simulate_takes_each_result_as_closing_the_hand_would_record_it(config: Any) -> None:
    """simulate reads each hand's result off the finished play without recording it in a
    match or building the next hand; the results equal those the full path records."""
    rules = rules_of(config)
    for policy in (None, lambda _state, legal: legal[-1]):
        fast = list(rules.simulate(8, seed=5, policy=policy))
        recorded = list(rules.engine.playouts._simulate(8, 5, policy, 0, close=True))
        assert fast == recorded
