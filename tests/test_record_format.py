"""The record format: the JSON Schema shipped in the package describes real records."""

from __future__ import annotations

import copy
import functools
import json
import random
import warnings
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit.core.records import record_schema
from spadeskit.engine.replay import UnverifiedRecordWarning, check_record_shape

KEY = "a key of sixteen bytes or more"
CONFIGS = [
    ("standard", []),
    ("standard", ["blind-nil", "hidden-bids"]),
    ("jjdd", []),
    ("cutthroat", []),
    ("two-handed", []),
    ("three-suit-trump", []),
]


def records() -> list[dict[str, object]]:
    found = []
    for number, (variant, house) in enumerate(CONFIGS):
        rules = spadeskit.load_rules(variant, house)
        rng = random.Random(number)
        for game in (rules.new_game(seed=number), rules.new_game()):
            for _ in range(rng.randrange(0, 200)):
                if game.is_over:
                    break
                game = game.apply(rng.choice(game.legal_actions()))
            found.append(game.to_record())
            found.append(game.to_record(key="a key of sixteen bytes or more"))
    referee = (
        spadeskit.load_rules("jjdd")
        .new_game(seed=1)
        .apply(spadeskit.TableTalk(0), spadeskit.REFEREE)
    )
    found.append(referee.to_record())
    return found


@functools.cache
def validator() -> jsonschema.protocols.Validator:
    schema = record_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_the_shipped_schema_accepts_every_kind_of_real_record() -> None:
    check = validator()
    for record in records():
        check.validate(record)


def test_the_schema_accepts_version_1_records() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=12).rollout(seed=1)
    old = {k: v for k, v in game.to_record().items() if k != "deals"}
    old["version"] = 1
    old["digest"] = spadeskit.core.records.digest(game, 1)
    validator().validate(old)
    assert spadeskit.replay(old) == game


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: r.update(format="something else"),
        lambda r: r.update(version=3),
        lambda r: r.update(seed=None, deals=None),
        lambda r: r["actions"].append([0, {"type": "play", "card": "1S"}]),
        lambda r: r["actions"].append([0, {"type": "bid", "tricks": -1}]),
        lambda r: r["actions"].append([0, {"type": "Shout!"}]),
        lambda r: r["actions"].append([0, {"type": "shout", "loud": 1.5}]),
        lambda r: r.update(digest="not hex"),
        lambda r: r.update(extra_field=1),
    ],
)
def test_the_schema_refuses_malformed_records(damage: object) -> None:
    record = copy.deepcopy(
        spadeskit.load_rules("standard").new_game(seed=3).rollout(seed=2).to_record()
    )
    damage(record)  # type: ignore[operator]
    with pytest.raises(jsonschema.ValidationError):
        validator().validate(record)


_VALUES: list[object] = [
    None, True, False, 0, 1, -1, -2, 5, 999, 1000, 2**70, 1.5, "", "x", "QH", "qh", "10S",
    "T♠", "BJ", "a" * 32, "0" * 32, "0" * 64, "F" * 64, [], [[]], ["QH"], {}, {"type": "nil"},
    {"type": "play", "card": "QH"}, {"type": "bid", "tricks": 4}, {"type": "bid", "tricks": True},
]  # fmt: skip


def _paths(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, path + (i,))
    return found


_ALL = records()
_BASE = _ALL[:6] + _ALL[-1:]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_replay_checks_a_record_exactly_as_the_shipped_schema_does(data: st.DataObject) -> None:
    """`replay` validates against the shipped schema (an equal check, no schema library):
    any record the schema refuses, replay refuses with a RecordError, and every record
    the schema accepts passes the shape check."""
    record = copy.deepcopy(data.draw(st.sampled_from(_BASE)))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(record)[1:]
        path = data.draw(st.sampled_from(paths))
        parent: object = record
        for step in path[:-1]:
            parent = parent[step]  # type: ignore[index]
        how = data.draw(st.sampled_from(["set", "drop", "add"]))
        if how == "drop":
            del parent[path[-1]]  # type: ignore[attr-defined]
        elif how == "add" and isinstance(parent, dict):
            parent[data.draw(st.sampled_from(["extra", "type", "card", "mac", "deal"]))] = (
                copy.deepcopy(data.draw(st.sampled_from(_VALUES)))
            )
        else:
            parent[path[-1]] = copy.deepcopy(data.draw(st.sampled_from(_VALUES)))  # type: ignore[index]
    accepted = validator().is_valid(record)
    if accepted:
        check_record_shape(record)
    else:
        with pytest.raises(spadeskit.RecordError):
            spadeskit.replay(record)


def _rewrite_first_play(record: dict[str, Any], how: Callable[[str], str]) -> None:
    for _, action in record["actions"]:
        if action["type"] == "play":
            action["card"] = how(action["card"])
            return


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: _rewrite_first_play(r, str.lower),
        lambda r: _rewrite_first_play(r, lambda c: c[:-1] + dict(zip("CDHS", "♣♦♥♠"))[c[-1]]),
        lambda r: r["actions"][0].__setitem__(0, True),
        lambda r: r.update(dealer=False),
        lambda r: r.pop("seed"),
        lambda r: r.update(mac="A" * 64),
        lambda r: r.update(note="hello"),
    ],
)
def test_replay_refuses_what_the_schema_refuses_even_when_it_would_replay(
    damage: Callable[[dict[str, Any]], None],
) -> None:
    """A record in another card notation, with a boolean seat or dealer, without its seed
    field or with fields a record never has is refused, though its actions still apply."""
    game = spadeskit.load_rules("standard").new_game(seed=3)
    while not any(a.get("type") == "play" for _, a in game.to_record()["actions"]):
        game = game.apply(game.legal_actions()[0])
    record = copy.deepcopy(game.to_record())
    damage(record)
    assert not validator().is_valid(record)
    with pytest.raises(spadeskit.RecordError):
        spadeskit.replay(record)


@pytest.mark.parametrize(("variant", "house"), CONFIGS + [("call-break", [])])
def test_the_shipped_view_schema_accepts_every_seats_view_through_a_match(
    variant: str, house: list[str]
) -> None:
    from spadeskit.core.views import view_schema

    schema = view_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    check = cls(schema)
    rules = spadeskit.load_rules(variant, house)
    game = rules.new_game(seed=4)
    rng = random.Random(4)
    for step in range(400):
        if game.is_over:
            break
        if step % 5 == 0:
            for seat in (*range(rules.table.players), None):
                data = json.loads(json.dumps(game.view(seat).to_json()))
                check.validate(data)
                assert len(data["legal_labels"]) == len(data["legal_actions"])
        game = game.apply(rng.choice(game.legal_actions()))
    check.validate(game.view(0).to_json())


def test_a_signed_record_replayed_without_a_key_warns() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=3).apply(spadeskit.Bid(3))
    with pytest.warns(UnverifiedRecordWarning, match="pass key="):
        spadeskit.replay(game.to_record(key=KEY))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spadeskit.replay(game.to_record(key=KEY), key=KEY)
        spadeskit.replay(game.to_record())
