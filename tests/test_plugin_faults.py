"""A broken plugin is named where its output enters the engine, on both cores: an answer
that would corrupt a game (a card offered as a bid, a card moved after a trick) is a
PluginError naming the plugin and the hook, and the state it was asked about is
unchanged."""

from __future__ import annotations

import types
from typing import Any

import pytest

import spadeskit
from spadeskit import PluginError
from spadeskit.plugin import HandState, PluginInfo, Trick, evolve_hand, hookimpl


def house(name: str, **hooks: Any) -> types.ModuleType:
    module = types.ModuleType(name.replace("-", "_"))
    module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name=name, kind="house-rule", summary=f"Broken on purpose: {name}."
    )
    for hook, function in hooks.items():
        setattr(module, hook, hookimpl(function, tryfirst=True))
    return module


def test_an_auction_hook_offering_a_card_is_refused_and_the_card_never_shown() -> None:
    rule = house("offers-a-card", spadeskit_auction_actions=lambda: (spadeskit.Play("AS"),))
    rules = spadeskit.load_rules("standard", [rule])
    with pytest.raises(PluginError, match=r"spadeskit_auction_actions .*offers-a-card"):
        game = rules.new_game(seed=1)
        game.view(game.to_act or 0)


@pytest.mark.parametrize(
    "move",
    ["give-back", "drop-from-hand", "swap-won"],
)
def test_an_after_trick_hook_may_not_move_a_card(move: str) -> None:
    def spadeskit_after_trick(hand: HandState, trick: Trick) -> HandState:
        card = trick.plays[0][1]
        if move == "give-back":
            hands = list(hand.hands)
            hands[trick.winner] |= 1 << card
            return evolve_hand(hand, hands=tuple(hands))
        if move == "drop-from-hand":
            seat = next(s for s, h in enumerate(hand.hands) if h)
            hands = list(hand.hands)
            hands[seat] &= hands[seat] - 1
            return evolve_hand(hand, hands=tuple(hands))
        won = list(hand.won)
        won[0], won[1] = won[1], won[0]
        return evolve_hand(hand, won=tuple(won))

    rules = spadeskit.load_rules(
        "standard", [house(move, spadeskit_after_trick=spadeskit_after_trick)]
    )
    start = rules.new_game(seed=2)
    before = start.to_record()
    named = rf"may not move, add or remove cards\) \(plugin '{move}'"
    with pytest.raises(PluginError, match=named):
        start.rollout(seed=2)  # the playout loop
    game = start
    with pytest.raises(PluginError, match=rf"plugin '{move}'"):
        while True:  # the step API
            game = game.apply(game.legal_actions()[0])
    assert start.to_record() == before


def test_an_after_trick_hook_may_change_books_and_plugin_data() -> None:
    def spadeskit_after_trick(hand: HandState) -> HandState:
        count = hand.extra.get("tricks_seen", 0) + 1
        return evolve_hand(hand, extra=hand.extra.set(tricks_seen=count))

    rules = spadeskit.load_rules(
        "standard", [house("counts", spadeskit_after_trick=spadeskit_after_trick)]
    )
    assert rules.new_game(seed=3).rollout(seed=3).hand_results


def _plays_a_match(rules: spadeskit.Rules) -> None:
    """Play a hand at random, then simulate one and roll one out (every path)."""
    game = rules.new_game(seed=1)
    for _ in range(60):
        game = game.apply(game.legal_actions()[-1])
    rules.simulate(1, seed=2)
    rules.new_game(seed=3).rollout(seed=4)


@pytest.mark.parametrize("answer", [None, -1, "x", 1.5])
def test_a_play_filter_answering_no_card_mask_is_named_on_both_cores(answer: object) -> None:
    """Issue 49 (9): on the native core a filter answering None gave a bare TypeError
    from mypyc's typed signatures, and -1 an IndexError on both cores."""
    bad = spadeskit.PlayFilter("bad-mask", lambda hand, seat, allowed: answer)
    rules = spadeskit.load_rules(
        "standard", [house("bad-mask", spadeskit_play_filters=lambda: [bad])]
    )
    with pytest.raises(
        PluginError, match=r"play filter 'bad-mask' \(plugin 'bad-mask'\).*not a card"
    ):
        _plays_a_match(rules)


@pytest.mark.parametrize(
    "line",
    [
        dict(points="1"),
        dict(points=1.5),
        dict(points=True),
        dict(points=1, bags=1, bag_points="1"),
        dict(points=1, side=2),
        dict(points=1, kind="prize"),
    ],
)
def test_a_score_line_of_wrong_numbers_is_named_on_both_cores(line: dict[str, Any]) -> None:
    """Issue 49 (9): a score line with "1" or 1.5 points gave a bare TypeError on the
    native core; every malformed line is a PluginError naming the plugin and the hook."""
    fields = {"side": 0, "text": "a bonus", "kind": "bonus", **line}

    def spadeskit_score_hand() -> list[spadeskit.ScoreLine]:
        return [spadeskit.ScoreLine(**fields)]

    rules = spadeskit.load_rules(
        "standard", [house("bad-line", spadeskit_score_hand=spadeskit_score_hand)]
    )
    with pytest.raises(PluginError, match=r"spadeskit_score_hand.*bad-line"):
        _plays_a_match(rules)
