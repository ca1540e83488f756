"""Bad input raises a typed SpadesError naming what was wrong; the state is unchanged."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import spadeskit
from spadeskit import (
    Bid,
    CardParseError,
    DealError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    OptionError,
    Play,
    RecordError,
    SpadesError,
    UnknownPlugin,
    WrongPhase,
)
from tests.conftest import bid_all

FOUR_ONES = [Bid(1)] * 4


def refused(
    game: spadeskit.GameState,
    action: object,
    seat: int | None,
    error: type[SpadesError],
    match: str,
) -> None:
    """Assert that applying ``action`` raises ``error`` and leaves ``game`` as it was."""
    before = json.dumps(game.to_record(), sort_keys=True)
    snapshot = (game.hand, game.match)
    with pytest.raises(error, match=match):
        game.apply(action, seat)  # type: ignore[arg-type]
    assert json.dumps(game.to_record(), sort_keys=True) == before
    assert (game.hand, game.match) == snapshot


@pytest.fixture
def playing(standard: spadeskit.Rules) -> spadeskit.GameState:
    return bid_all(standard.new_game(seed=8), FOUR_ONES)


def test_every_error_is_a_value_error() -> None:
    assert issubclass(SpadesError, ValueError)
    assert issubclass(NotYourTurn, IllegalAction) and issubclass(WrongPhase, IllegalAction)


def test_unparseable_card_in_an_action() -> None:
    with pytest.raises(CardParseError, match="'1S'"):
        Play("1S")


def test_card_not_in_hand_names_seat_and_card(playing: spadeskit.GameState) -> None:
    seat = playing.to_act
    assert seat is not None
    other = playing.cards((seat + 1) % 4)[0]
    refused(
        playing,
        Play(other),
        None,
        IllegalAction,
        rf"seat {seat} \(N\) cannot play {other}: it is not in their hand",
    )


def test_acting_out_of_turn(standard: spadeskit.Rules) -> None:
    game = standard.new_game(seed=8)
    refused(
        game, Bid(3), 2, NotYourTurn, r"bid 3 by seat 2 \(S\) refused: it is seat 0 \(N\)'s turn"
    )


def test_a_seat_that_does_not_exist(standard: spadeskit.Rules) -> None:
    refused(standard.new_game(seed=8), Bid(3), 7, IllegalAction, "seat 7 does not exist")


def test_bid_out_of_range(standard: spadeskit.Rules) -> None:
    refused(standard.new_game(seed=8), Bid(14), None, IllegalAction, "bid 14 by seat 0")


def test_not_an_action(standard: spadeskit.Rules) -> None:
    refused(standard.new_game(seed=8), "4", None, IllegalAction, "is not an action")


def test_a_card_during_the_auction_is_the_wrong_phase(standard: spadeskit.Rules) -> None:
    game = standard.new_game(seed=8)
    refused(game, Play(game.cards(0)[0]), None, WrongPhase, "bid first")


def test_a_bid_during_play_is_the_wrong_phase(playing: spadeskit.GameState) -> None:
    refused(playing, Bid(3), None, WrongPhase, "time to play a card")


def test_actions_after_the_match_is_over() -> None:
    rules = spadeskit.load_rules("standard", options={"target": 1})
    game = rules.new_game(seed=3)
    while not game.is_over:
        game = game.apply(game.legal_actions()[0])
    refused(game, Bid(3), None, GameOver, "the match is over")
    refused(game, Play("AS"), 0, GameOver, "the match is over")


@pytest.mark.parametrize(
    ("deal", "match"),
    [
        (["AS"] * 4, "dealt twice"),
        ([["BJ"], [], [], []], "not in the deck"),
        ([[], [], [], []], "is dealt 0 cards"),
        ("AS KS", "4 hands"),
    ],
)
def test_bad_explicit_deals(standard: spadeskit.Rules, deal: object, match: str) -> None:
    with pytest.raises(DealError, match=match):
        standard.new_game(deal=deal)  # type: ignore[arg-type]


def test_bad_dealer_and_seed(standard: spadeskit.Rules) -> None:
    with pytest.raises(IllegalAction, match="dealer 4 does not exist"):
        standard.new_game(dealer=4)
    with pytest.raises(SpadesError, match="seed"):
        standard.new_game(seed="7")  # type: ignore[arg-type]


def test_unknown_variant_house_rule_and_option() -> None:
    with pytest.raises(UnknownPlugin, match="no spadeskit plugin named 'bridge'.*standard"):
        spadeskit.load_rules("bridge")
    with pytest.raises(UnknownPlugin, match="'no-such-rule'"):
        spadeskit.load_rules("standard", ["no-such-rule"])
    with pytest.raises(
        OptionError,
        match="unknown option 'targte' for standard \\(did you mean 'target'\\?\\); "
        "options: .*target",
    ):
        spadeskit.load_rules("standard", options={"targte": 300})
    with pytest.raises(
        OptionError, match="option 'target' of 'standard' must be a whole number, not '300'"
    ):
        spadeskit.load_rules("standard", options={"target": "300"})
    with pytest.raises(OptionError, match="must be at most 0"):
        spadeskit.load_rules("standard", options={"floor": 50})


def test_malformed_records(playing: spadeskit.GameState) -> None:
    record = playing.to_record()
    for broken, match in [
        ([], "not a spadeskit record"),
        ({**record, "version": 99}, "version 99"),
        ({**record, "seed": "x"}, "'seed'"),
        ({**record, "actions": [[0]]}, "not a \\[seat, action\\] pair"),
        ({**record, "actions": [[0, {"type": "shout"}]]}, "unknown action type 'shout'"),
        ({**record, "actions": [[0, {"type": "bid"}]]}, "needs exactly the fields"),
        ({**record, "variant": "bridge"}, "cannot start its game"),
    ]:
        with pytest.raises(RecordError, match=match):
            spadeskit.replay(broken)  # type: ignore[arg-type]


def test_tampered_records_are_refused(playing: spadeskit.GameState) -> None:
    game = playing.apply(playing.legal_actions()[0])
    record = game.to_record()
    changed = copy.deepcopy(record)
    changed["actions"][0][1] = {"type": "bid", "tricks": 14}
    with pytest.raises(RecordError, match="record action 1 does not apply: bid 14"):
        spadeskit.replay(changed)
    changed = copy.deepcopy(record)
    changed["actions"][0][1] = {"type": "bid", "tricks": 2}
    with pytest.raises(RecordError, match="altered"):
        spadeskit.replay(changed)
    changed = copy.deepcopy(record)
    changed["seed"] += 1
    with pytest.raises(RecordError):
        spadeskit.replay(changed)


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (
            lambda: spadeskit.Card(-1),
            spadeskit.CardParseError,
            "card index is a whole number from 0 to 53",
        ),
        (lambda: spadeskit.Card(60), spadeskit.CardParseError, "not 60"),
        (lambda: spadeskit.Bid(10**5000), spadeskit.SpadesError, "a number of about 5001 digits"),
        (lambda: spadeskit.Bid(-3), spadeskit.SpadesError, "from 0 to 999"),
        (lambda: spadeskit.Bid(True), spadeskit.SpadesError, "not True"),
        (
            lambda: spadeskit.load_rules("standard").new_game(deal=5),
            spadeskit.DealError,
            "4 hands, one per seat",
        ),
        (
            lambda: spadeskit.load_rules("standard", house_rules=None),
            spadeskit.UnknownPlugin,
            "list of house-rule names",
        ),
        (
            lambda: spadeskit.load_rules("standard", options="x"),
            spadeskit.OptionError,
            "a mapping of option names",
        ),
        (
            lambda: spadeskit.load_rules("jjdd", options={"sandbags": 1}),
            spadeskit.OptionError,
            "True, False, not 1",
        ),
        (
            lambda: spadeskit.load_rules("standard", ["blind-nil"], {"blind_nil_pass": 1.0}),
            spadeskit.OptionError,
            "0, 1, 2, not 1.0",
        ),
        (
            lambda: spadeskit.load_rules("standard").new_game(seed=1).view(10**5000),
            spadeskit.IllegalAction,
            "a number of about 5001 digits does not exist",
        ),
    ],
)
def test_malformed_input_at_the_public_entry_points_raises_a_spades_error(
    make: Any, error: type, match: str
) -> None:
    """Every malformed input raises a SpadesError subclass (exact types; huge integers
    shortened in messages), never a raw TypeError or ValueError."""
    with pytest.raises(error, match=match):
        make()
