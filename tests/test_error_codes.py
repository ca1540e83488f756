"""One code per fault: every entry point refuses the same fault with the same reason code
(the table of codes is in docs/running_a_table.rst, "Reason codes")."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from typing import Any

import pytest

import spadeskit
from spadeskit import (
    Bid,
    Connection,
    GameState,
    Phase,
    Play,
    SpadesError,
    Table,
    parse_action,
)
from spadeskit.core.actions import Action
from spadeskit.core.cards import Suit

RULES = spadeskit.load_rules("standard")


def _code(call: Callable[[], object]) -> str:
    try:
        call()
    except SpadesError as error:
        return error.code
    return "accepted"


def _to_play(seed: int) -> GameState:
    game = RULES.new_game(seed=seed)
    while game.phase is Phase.AUCTION:
        game = game.apply(Bid(3))
    return game


def _off_suit() -> tuple[GameState, int, Action]:
    """A state where the seat to act holds a card of another suit than the one led, and
    one of the led suit: playing the other card breaks follow suit."""
    for seed in range(50):
        game = _to_play(seed)
        lead = next(a for a in game.legal_actions() if a.card.suit is not Suit.SPADES)
        game = game.apply(lead)
        seat = game.to_act
        assert seat is not None
        led = lead.card.suit
        held = game.cards(seat)
        if any(c.suit is led for c in held):
            card = next(c for c in held if c.suit is not led)
            return game, seat, Play(card)
    raise AssertionError("no deal to follow suit in")


def _unbroken_spade() -> tuple[GameState, int, Action]:
    for seed in range(50):
        game = _to_play(seed)
        seat = game.to_act
        assert seat is not None
        held = game.cards(seat)
        if any(c.suit is Suit.SPADES for c in held) and any(
            c.suit is not Suit.SPADES for c in held
        ):
            return game, seat, Play(next(c for c in held if c.suit is Suit.SPADES))
    raise AssertionError("no deal to lead a spade in")


def _over() -> GameState:
    game = RULES.new_game(seed=4)
    while not game.is_over:
        game = game.rollout(seed=game.number)
    return game


def _situations() -> dict[str, tuple[GameState, int, Action, str]]:
    """Each fault: a state, the seat that tries, the action, the same action as text."""
    auction = RULES.new_game(seed=1)
    bidder = auction.to_act
    assert bidder is not None
    first = auction.cards(bidder)[0]
    play = _to_play(2)
    player = play.to_act
    assert player is not None
    other = (player + 1) % 4
    off_game, off_seat, off_action = _off_suit()
    spade_game, spade_seat, spade_action = _unbroken_spade()
    over = _over()
    assert isinstance(off_action, Play) and isinstance(spade_action, Play)
    return {
        "not-your-turn": (auction, (bidder + 1) % 4, Bid(3), "3"),
        "bid-not-allowed": (auction, bidder, Bid(20), "20"),
        "wrong-phase": (auction, bidder, Play(first), first.code),
        "wrong-phase ": (play, player, Bid(3), "3"),
        "not-in-hand": (play, player, Play(play.cards(other)[0]), play.cards(other)[0].code),
        "follow-suit": (off_game, off_seat, off_action, off_action.card.code),
        "break-spades": (spade_game, spade_seat, spade_action, spade_action.card.code),
        "game-over": (over, 0, Bid(3), "3"),
    }


SITUATIONS = _situations()


@pytest.mark.parametrize("fault", sorted(SITUATIONS))
def test_one_code_per_fault_through_every_entry_point(fault: str) -> None:
    game, seat, action, text = SITUATIONS[fault]
    expected = fault.strip()
    record = game.to_record()
    table = Table.from_record(record, RULES)
    client = Connection(table)
    client.receive({"join": "probe", "seat": seat})

    def connection(message: Any) -> str:
        replies, _ = client.receive({"act": message})
        return str(replies[0]["error"]["code"]) if replies else "accepted"

    codes = {
        "apply": _code(lambda: game.apply(action, seat)),
        "parse_action (view)": _code(lambda: parse_action(text, game.view(seat))),
        "parse_action (view, game)": _code(lambda: parse_action(text, game.view(seat), game=game)),
        "view.refusal": (game.view(seat).refusal(action) or SpadesError("")).code,
        "Table.act (action)": _code(lambda: table.act(seat, action)),
        "Table.act (text)": _code(lambda: table.act(seat, text)),
        "Connection (text)": connection(text),
        "Connection (JSON)": connection(action.to_json()),
    }
    assert codes == dict.fromkeys(codes, expected)
    assert table.game == game


def test_text_that_looks_like_a_card_is_an_unreadable_card() -> None:
    game = _to_play(3)
    view = game.view(game.to_act)
    for text in ("11♥", "1s", "play 11h", "zh"):
        assert _code(lambda: parse_action(text, view)) == "unreadable-card", text
    for text in ("hello", "ZZ", "yes please"):
        assert _code(lambda: parse_action(text, view)) == "unreadable-action", text


def _pettingzoo_faults() -> list[tuple[str, str]]:
    """Drive the PettingZoo environment to refused plays and pair its codes with the
    step API's on the same state."""
    from spadeskit.interop.pettingzoo import env as make_env

    pairs: list[tuple[str, str]] = []
    rng = random.Random(0)
    for seed in range(6):
        env = make_env()
        env.reset(seed=seed)
        while env.game is not None and not env.game.is_over and len(pairs) < 40:
            game = env.game
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            if game.phase is Phase.PLAY:
                for card in game.cards(seat):
                    if Play(card) not in legal:
                        number = env.encoding.action_id(Play(card))
                        theirs = _code(lambda: env.step(number))
                        assert env.game is game
                        pairs.append((theirs, _code(lambda: game.apply(Play(card), seat))))
            env.step(env.encoding.action_id(rng.choice(legal)))
            if len(game.match.results) != len(env.game.match.results):
                break
    return pairs


@pytest.mark.skipif(
    importlib.util.find_spec("pettingzoo") is None, reason="the pettingzoo extra is missing"
)
def test_the_pettingzoo_environment_refuses_with_the_step_apis_codes() -> None:
    pairs = _pettingzoo_faults()
    assert pairs and all(theirs == ours for theirs, ours in pairs), pairs
    assert {ours for _, ours in pairs} >= {"follow-suit"}


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="no openspiel extra")
def test_the_openspiel_state_refuses_with_the_step_apis_codes() -> None:
    import pyspiel

    from spadeskit.interop import openspiel

    openspiel.register()
    game = pyspiel.load_game("python_spadeskit")
    rng = random.Random(1)
    pairs: list[tuple[str, str]] = []
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal() and len(pairs) < 40:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            inner = state.game
            seat = inner.to_act
            if inner.phase is Phase.PLAY:
                for card in inner.cards(seat):
                    if Play(card) not in inner.legal_actions(seat):
                        number = game.encoding.action_id(Play(card))
                        theirs = _code(lambda: state.apply_action(number))
                        pairs.append((theirs, _code(lambda: inner.apply(Play(card), seat))))
            state.apply_action(rng.choice(state.legal_actions()))
    assert pairs and all(theirs == ours for theirs, ours in pairs), pairs
    assert _code(lambda: state.apply_action(10_000)) in {"not-an-action", "game-over"}
