"""Hardening: deep states, long records (round 3)."""

from __future__ import annotations

import copy
import json
import pickle
import sys

import pytest

import spadeskit


def test_a_state_with_a_log_far_deeper_than_the_recursion_limit_compares_pickles_and_copies() -> (
    None
):
    """The log is a linked list, one link per action: equality, hashing, pickling and
    deepcopy must not recurse once per action."""
    rulings = 5 * sys.getrecursionlimit()
    game = spadeskit.load_rules("jjdd").new_game(seed=1)
    for i in range(rulings):
        game = game.apply(spadeskit.TableTalk(i % 2), spadeskit.REFEREE)
    assert len(game.log) == rulings
    again = spadeskit.replay(json.loads(json.dumps(game.to_record())))
    assert again == game and hash(again) == hash(game)
    loaded = pickle.loads(pickle.dumps(game))
    assert loaded == game and loaded.log == game.log
    assert copy.deepcopy(game) is game and copy.copy(game) is game
    assert loaded.apply(spadeskit.TableTalk(0), spadeskit.REFEREE).log[-1][
        1
    ] == spadeskit.TableTalk(0)


def test_replay_and_iter_replay_still_check_the_whole_record_first() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=2)
    for _ in range(6):
        game = game.apply(game.legal_actions()[0])
    record = game.to_record()
    steps = list(spadeskit.iter_replay(record))
    assert [s.number for s in steps] == list(range(7)) and steps[-1].state == game
    assert spadeskit.replay(record, upto=3) == steps[3].state
    tampered = {**record, "digest": "0" * len(record["digest"])}
    for call in (
        lambda: spadeskit.replay(tampered),
        lambda: spadeskit.iter_replay(tampered),
        lambda: spadeskit.replay(tampered, upto=2),
    ):
        try:
            call()
        except spadeskit.RecordError as exc:
            assert "altered" in str(exc)
        else:
            raise AssertionError("a tampered record was accepted")


def test_the_card_parse_cache_never_keeps_a_long_text() -> None:
    """Hardening (round 3): 4,096 plays of a card padded with 100,000 spaces held 418 MB."""
    from spadeskit.core import cards

    padded = " " * 100_000 + "AS"
    assert spadeskit.parse_card(padded) == spadeskit.parse_card("AS")
    assert all(len(key) <= 4 for key in cards._PARSED)


def test_audited_inputs_raise_typed_errors_naming_the_problem() -> None:
    """Hardening (round 3): inputs that escaped as TypeError, ValueError or
    AttributeError, or were accepted, are refused with a SpadesError."""
    import random

    from spadeskit.arena import evaluation as arena
    from spadeskit.core.results import BookTransfer, HandSummary

    rules = spadeskit.load_rules("standard")
    bad_calls = [
        (lambda: rules.score_hand(bids=[3, 3, 3, 3], books=[4, 3, 3, 3], scores=5), "scores"),
        (lambda: rules.score_hand(HandSummary((spadeskit.Bid(3),) * 4, 5)), "book counts"),
        (lambda: rules.score_hand(HandSummary((None,) * 4, (4, 3, 3, 3))), "give their bid"),
        (lambda: rules.score_hand(HandSummary(("x",) * 4, (4, 3, 3, 3))), "cannot read the bid"),
        (lambda: rules.trick_winner(5), "list of \\(seat, card\\) pairs"),
        (lambda: list(rules.simulate(1, seed=1, start=10**5000)), "start"),
        (lambda: spadeskit.parse_action("4", None), "View"),  # type: ignore[arg-type]
        (lambda: arena.make_bot(":", 0, rules, random.Random(1)), "module:Class"),
        (
            lambda: arena.make_bot("heuristic[x=" + "9" * 5000 + "]", 0, rules, random.Random(1)),
            "cannot be built",
        ),
    ]
    jjdd = spadeskit.load_rules("jjdd").score_sheet()
    for transfer, words in (
        (BookTransfer(0, 7, 3, "x"), "two different sides"),
        (BookTransfer(0, 1, -3, "x"), "0 books or more"),
    ):
        bad_calls.append(
            (
                lambda t=transfer: jjdd.add_hand(
                    bids=[2, 2, 2, 2], books=[4, 3, 3, 3], transfers=[t]
                ),
                words,
            )
        )
    for call, words in bad_calls:
        try:
            call()
        except spadeskit.SpadesError as exc:
            import re

            assert re.search(words, str(exc)), (words, str(exc))
        else:
            raise AssertionError(f"accepted: {words}")
    game = rules.new_game(seed=1)
    rng = random.Random(1)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    try:
        game.apply(10**5000)  # type: ignore[arg-type]
    except spadeskit.GameOver as exc:
        assert "digits" in str(exc)


def test_bad_signatures_and_keys_are_record_errors() -> None:
    """Hardening (round 3): a non-ASCII mac (TypeError), a key with a lone surrogate
    (UnicodeEncodeError) and a deeply nested value (RecursionError) escaped untyped."""
    game = spadeskit.load_rules("standard").new_game(seed=1)
    key = "a key that is long enough"
    signed = game.to_record(key=key)
    deep: object = 0
    for _ in range(5000):
        deep = [deep]
    for record, use in (
        ({**signed, "mac": "é" * 64}, key),
        (signed, "bad \udc80 key, long enough"),
        ({**signed, "extra": deep}, key),
    ):
        try:
            spadeskit.replay(record, key=use)
        except spadeskit.RecordError:
            pass
        else:
            raise AssertionError("accepted")
    try:
        game.to_record(key="bad \udc80 key, long enough")
    except spadeskit.RecordError:
        pass
    else:
        raise AssertionError("signed with a key that is not text")


def test_one_rules_object_per_configuration_under_concurrent_first_loads() -> None:
    """Hardening (round 3): threaded first loads built several rules objects for one
    configuration; the docs promise one."""
    import threading

    configs = [("standard", (), {"target": 4321 + k}) for k in range(7)]  # never loaded before
    built: list[list[spadeskit.Rules]] = [[] for _ in configs]

    def load(index: int) -> None:
        variant, house, options = configs[index]
        built[index].append(spadeskit.load_rules(variant, house, options))

    threads = [threading.Thread(target=load, args=(i % 7,)) for i in range(28)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(len({id(r) for r in group}) == 1 for group in built)


def test_no_mutable_object_is_reachable_from_a_state() -> None:
    """The map every new hand starts from is shared: it must not be writable."""
    game = spadeskit.load_rules("standard").new_game(seed=1)
    extra = game.extra
    try:
        extra._data["x"] = 1  # type: ignore[index]
    except TypeError:
        pass
    else:
        raise AssertionError("the shared empty map was changed")
    assert pickle.loads(pickle.dumps(extra)) == extra


def test_faulty_plugin_answers_are_plugin_errors_naming_the_plugin() -> None:
    """Hardening (round 3): a collected hook answering a non-list, an option validator
    that raises, and a score-line text that raises escaped as raw exceptions."""
    import types

    from spadeskit import Option, PluginInfo, hookimpl

    def plugin(name: str, options: tuple[Option, ...] = (), **hooks: object) -> types.ModuleType:
        module = types.ModuleType(name)
        module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
            name=name, kind="house-rule", summary=name, options=options
        )
        for hook, function in hooks.items():
            setattr(module, hook, hookimpl(function))
        return module

    def score_twice(rules: spadeskit.Rules) -> object:
        return rules.score_hand(bids=[3, 3, 3, 3], books=[4, 3, 3, 3]).lines[-1].text

    def bid_round(rules: spadeskit.Rules) -> object:
        game = rules.new_game(seed=1)
        for _ in range(4):
            game = game.apply(spadeskit.Bid(3))
        return game

    cases = [
        (
            lambda: score_twice(
                spadeskit.load_rules("standard", [plugin("s", spadeskit_score_hand=lambda: 5)])
            ),
            "plugin 's'",
        ),
        (
            lambda: spadeskit.load_rules(
                "standard", [plugin("f", spadeskit_play_filters=lambda: 5)]
            ),
            "plugin 'f'",
        ),
        (
            lambda: spadeskit.load_rules(
                "standard", [plugin("v", (Option("vv", 1, "x", lambda v: 1 / 0),))], {"vv": 2}
            ),
            "validator of option 'vv' of 'v'",
        ),
        (
            lambda: score_twice(
                spadeskit.load_rules(
                    "standard",
                    [
                        plugin(
                            "t",
                            spadeskit_score_hand=lambda: [spadeskit.ScoreLine(0, 0, lambda: 1 / 0)],
                        )
                    ],
                )
            ),
            "could not build its text",
        ),
        (
            lambda: bid_round(
                spadeskit.load_rules("standard", [plugin("c", spadeskit_contract_steps=lambda: 5)])
            ),
            "plugin 'c'",
        ),
    ]
    for call, words in cases:
        try:
            call()
        except spadeskit.PluginError as exc:
            assert words in str(exc), (words, str(exc))
        else:
            raise AssertionError(f"accepted: {words}")


def _faulty(hook: str, answer: object) -> object:
    import types

    from spadeskit import PluginInfo, hookimpl

    module = types.ModuleType(f"faulty-{hook}")
    module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name="faulty", kind="house-rule", summary="answers badly"
    )

    def impl() -> object:
        if isinstance(answer, BaseException):
            raise answer
        return answer

    setattr(module, hook, hookimpl(impl))
    return module


def _hook_names() -> list[str]:
    from spadeskit.engine import hookspecs

    return sorted(
        name
        for name in dir(hookspecs)
        if name.startswith("spadeskit_") and callable(getattr(hookspecs, name))
    )


@pytest.mark.parametrize("hook", _hook_names())
@pytest.mark.parametrize("answer", [RuntimeError("boom"), 5, "nonsense", object()])
def test_any_fault_from_any_hook_is_a_plugin_error_and_changes_nothing(
    hook: str, answer: object
) -> None:
    """Hardening (round 3): an exception, a wrong type or an impossible answer from any
    hook, on any path (loading, the step API, views, rollouts, scoring), is a
    PluginError naming the plugin, and the state it was applied to is unchanged."""
    import random
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            rules = spadeskit.load_rules("standard", [_faulty(hook, answer)], {"target": 150})
        game = rules.new_game(seed=1)
        rng = random.Random(1)
        for _ in range(400):
            if game.is_over:
                break
            game.view(0)
            before = game.to_record()
            try:
                game = game.apply(rng.choice(game.legal_actions()))
            except spadeskit.PluginError:
                assert game.to_record() == before
                raise
        game.rollout(seed=2)
        list(rules.simulate(2, seed=3))
        rules.score_hand(bids=[3, 3, 3, 3], books=[4, 3, 3, 3])
    except spadeskit.PluginError as error:
        assert "faulty" in str(error)


# ------------------------------------------------------------------------------------------
# Hardening round 4: the bots, the arena and the table service given bad settings
# ------------------------------------------------------------------------------------------

_JUNK = [None, "x", -1, 1.5, [], {}, object(), True, 10**5000]


@pytest.mark.parametrize(
    "bot",
    [spadeskit.RandomBot(1), spadeskit.SimpleBot(), spadeskit.HeuristicBot(), spadeskit.PIMCBot()],
    ids=lambda b: type(b).__name__,
)
def test_a_bot_refuses_what_is_no_view_and_a_bad_reset(bot: spadeskit.Bot) -> None:
    import random

    rules = spadeskit.load_rules("standard")
    game = rules.new_game(seed=1)
    for junk in (*_JUNK, game):
        with pytest.raises(spadeskit.SpadesError, match="view"):
            bot.choose(junk)  # type: ignore[arg-type]
    reset = bot.reset  # type: ignore[attr-defined]
    for seat, how, draw in ((4, rules, random.Random(1)), (0, "standard", None), (0, rules, 7)):
        with pytest.raises(spadeskit.SpadesError):
            reset(seat, how, draw)
    reset(0, rules, random.Random(1))
    assert bot.choose(game.view(0)) in game.legal_actions(0)


_BAD_SETTINGS = {
    "iterations": ["x", -1, 0, 1.5, [], object(), True],
    "seconds": ["x", -1, 0, [], object(), True, 10**5000, float("nan")],
    "seed": ["x", 1.5, [], {}, object(), True],
    "rollout": [None, "x", 1, [], object()],
    "bid_by": [None, "x", 1, []],
    "veto": [None, "x", -1, [], True, 10**5000, float("nan")],
    "match_weight": [None, "x", -1, [], True, 10**5000, float("inf")],
    "bid_deals": [None, "x", 0, 1.5, True],
}


@pytest.mark.parametrize("setting", sorted(_BAD_SETTINGS))
def test_the_search_bots_refuse_bad_settings(setting: str) -> None:
    for cls in (spadeskit.PIMCBot, spadeskit.ISMCTSBot):
        for bad in _BAD_SETTINGS[setting]:
            with pytest.raises(spadeskit.SpadesError):
                cls(**{setting: bad})
    with pytest.raises(spadeskit.SpadesError, match="exploration"):
        spadeskit.ISMCTSBot(exploration=10**5000)


def test_the_arena_refuses_bad_settings_and_objects_that_are_no_bots() -> None:
    from spadeskit.arena import evaluate, evaluate_hands, play_match

    rules = spadeskit.load_rules("standard")
    for junk in _JUNK:
        with pytest.raises(spadeskit.SpadesError):
            play_match(rules, [junk] * 4, seed=1)  # type: ignore[list-item]
        with pytest.raises(spadeskit.SpadesError):
            play_match(junk, [spadeskit.RandomBot(1)] * 4, seed=1)  # type: ignore[arg-type]
        with pytest.raises(spadeskit.SpadesError):
            evaluate(junk, "random", "simple", deals=1)  # type: ignore[arg-type]
        if type(junk) is not int:
            with pytest.raises(spadeskit.SpadesError):
                evaluate(rules, "random", "simple", deals=1, seed=junk)  # type: ignore[arg-type]
        if junk is not None:
            with pytest.raises(spadeskit.SpadesError):
                evaluate_hands(rules, "random", "simple", deals=1, contexts=junk)  # type: ignore[arg-type]
    with pytest.raises(spadeskit.SpadesError, match="max_actions"):
        play_match(rules, [spadeskit.RandomBot(1)] * 4, seed=1, max_actions=0)


def test_a_table_refuses_bots_that_are_not_a_mapping_of_seats() -> None:
    rules = spadeskit.load_rules("standard")
    for junk in ([spadeskit.RandomBot(1)], "x", 3, {0: object()}, {9: spadeskit.RandomBot(1)}):
        with pytest.raises(spadeskit.SpadesError):
            spadeskit.Table(rules, seed=1, bots=junk)  # type: ignore[arg-type]
