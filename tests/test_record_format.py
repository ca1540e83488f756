"""The record format: the JSON Schema shipped in the package describes real records."""

from __future__ import annotations

import copy
import random

import jsonschema
import pytest

import spadeskit
from spadeskit.records import record_schema

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
    old["digest"] = spadeskit.records.digest(game, 1)
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
        lambda r: r["actions"].append([0, {"type": "shout"}]),
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
