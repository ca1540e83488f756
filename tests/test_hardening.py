"""Hardening: deep states, long records (round 3)."""

from __future__ import annotations

import copy
import json
import pickle
import sys

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
    from spadeskit import cards

    padded = " " * 100_000 + "AS"
    assert spadeskit.parse_card(padded) == spadeskit.parse_card("AS")
    assert all(len(key) <= 4 for key in cards._PARSED)
