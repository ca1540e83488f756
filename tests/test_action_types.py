"""Plugin-defined action types (``spadeskit_action_types``): declared once, checked when
rules load, then read by records, the record and view schemas, table messages, the
score sheet and text input, and refused by rules that do not load the plugin."""

from __future__ import annotations

import types
from typing import Any, ClassVar

import attrs
import jsonschema
import pytest

import spadeskit
from spadeskit import hookimpl
from spadeskit.core.records import record_schema
from spadeskit.core.views import view_schema
from spadeskit.plugin import Action, Card, PluginInfo


@attrs.frozen
class Claim(Action):
    """Claim the rest of the tricks (this test's own action)."""

    kind: ClassVar[str] = "claim"
    tricks: int
    sure: bool
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"claim {self.tricks}"


def declaring(name: str, *declared: object) -> types.ModuleType:
    module = types.ModuleType(name.replace("-", "_"))
    module.PLUGIN = PluginInfo(name=name, kind="house-rule", summary="A test rule.")  # type: ignore[attr-defined]
    module.spadeskit_action_types = hookimpl(lambda: list(declared))  # type: ignore[attr-defined]
    return module


def test_a_declared_type_is_known_to_its_rules_and_read_from_json() -> None:
    rules = spadeskit.load_rules("standard", [declaring("claims", Claim)])
    assert rules.action_types["claim"] is Claim and rules.action_types["bid"] is spadeskit.Bid
    data = {"type": "claim", "tricks": 3, "sure": True, "cards": ["AS", "KS"]}
    action = rules.action_from_json(data)
    assert action == Claim(3, True, (Card.of("AS"), Card.of("KS")))
    assert action.to_json() == data


@pytest.mark.parametrize(
    "data, words",
    [
        ({"type": "claim", "tricks": "3", "sure": True, "cards": []}, "tricks"),
        ({"type": "claim", "tricks": 3, "sure": 1, "cards": []}, "sure"),
        ({"type": "claim", "tricks": 3, "sure": True, "cards": ["ZZ"]}, "ZZ"),
        ({"type": "claim", "tricks": 3, "sure": True}, "exactly the fields"),
        ({"type": "claim", "tricks": 3000, "sure": True, "cards": []}, "tricks"),
    ],
)
def test_a_plugin_action_with_bad_fields_is_a_record_error(data: Any, words: str) -> None:
    rules = spadeskit.load_rules("standard", [declaring("claims", Claim)])
    with pytest.raises(spadeskit.RecordError, match=words):
        rules.action_from_json(data)


def test_rules_without_the_plugin_refuse_its_action_naming_the_rules() -> None:
    with pytest.raises(spadeskit.RecordError, match="unknown action type 'claim' for 'standard'"):
        spadeskit.load_rules("standard").action_from_json({"type": "claim", "tricks": 1})


@attrs.frozen
class Taken(Action):
    kind: ClassVar[str] = "bid"


@attrs.frozen
class NoKind(Action):
    pass


@attrs.frozen
class BadField(Action):
    kind: ClassVar[str] = "bad-field"
    ratio: float


@attrs.frozen
class BadName(Action):
    kind: ClassVar[str] = "Bad_Name"


class NotAttrs(Action):
    kind: ClassVar[str] = "not-attrs"


@pytest.mark.parametrize(
    "declared, words",
    [
        (Taken, "built-in action's"),
        (NoKind, "its own class attribute kind"),
        (BadField, "field 'ratio'"),
        (BadName, "lower-case words"),
        (NotAttrs, "not an attrs subclass"),
        (int, "not an attrs subclass"),
        ("claim", "not an attrs subclass"),
    ],
)
def test_a_type_records_cannot_write_is_refused_when_rules_load(
    declared: object, words: str
) -> None:
    with pytest.raises(spadeskit.PluginError, match=f"plugin 'odd'.*{words}"):
        spadeskit.load_rules("standard", [declaring("odd", declared)])


def test_two_plugins_declaring_one_kind_are_refused_naming_both() -> None:
    @attrs.frozen
    class OtherClaim(Action):
        kind: ClassVar[str] = "claim"

    with pytest.raises(
        spadeskit.PluginError, match="'claims-a'.*'claims-b'|'claims-b'.*'claims-a'"
    ):
        spadeskit.load_rules(
            "standard", [declaring("claims-a", Claim), declaring("claims-b", OtherClaim)]
        )


def test_wrapping_the_declaration_hook_is_refused() -> None:
    module = types.ModuleType("wrapping")
    module.PLUGIN = PluginInfo(name="wrapping", kind="house-rule", summary="A test rule.")  # type: ignore[attr-defined]

    def spadeskit_action_types() -> Any:
        return (yield)

    module.spadeskit_action_types = hookimpl(wrapper=True)(spadeskit_action_types)  # type: ignore[attr-defined]
    with pytest.raises(spadeskit.PluginError, match="wraps spadeskit_action_types"):
        spadeskit.load_rules("standard", [module])


def blind_game() -> spadeskit.GameState:
    rules = spadeskit.load_rules("standard", ["blind-bids", "hidden-bids"], {"behind": 0})
    game = rules.new_game(seed=2)
    return game.apply(game.legal_actions()[1])  # N: blind 7


def test_the_record_and_view_schemas_accept_plugin_actions() -> None:
    """The shipped schemas allow any registered plugin action (its own type name, fields
    a record writes), and still refuse a malformed one."""
    game = blind_game()
    record = game.to_record()
    jsonschema.validate(record, record_schema())
    for seat in (0, 1, None):
        jsonschema.validate(game.view(seat).to_json(), view_schema())
    for bad in ({"type": "Blind!"}, {"type": "blind-bid", "tricks": -1}, {"type": "x", "f": 1.5}):
        record["actions"][0][1] = bad
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(record, record_schema())
        with pytest.raises(spadeskit.RecordError):
            spadeskit.replay(record)


def test_a_table_message_and_a_stored_table_read_the_plugin_action() -> None:
    rules = spadeskit.load_rules("standard", ["blind-bids"], {"behind": 0})
    table = spadeskit.Table(rules, seed=3)
    ann, seat = spadeskit.Connection(table), table.to_act
    ann.receive({"join": "Ann", "seat": seat})
    replies, changed = ann.receive({"act": {"type": "blind-bid", "tricks": 6}})
    assert changed and not replies and str(table.game.bids[seat]) == "blind 6"
    plain = spadeskit.Table(spadeskit.load_rules("standard"), seed=3)
    bob = spadeskit.Connection(plain)
    bob.receive({"join": "Bob", "seat": plain.to_act})
    replies, changed = bob.receive({"act": {"type": "blind-bid", "tricks": 6}})
    assert not changed and replies[0]["error"]["code"] == "unknown-action"
    assert "blind-bid" in replies[0]["error"]["text"] and plain.game.bids == (None,) * 4


def test_the_score_sheet_reads_a_plugin_bid_by_its_label() -> None:
    rules = spadeskit.load_rules("standard", ["blind-bids"], {"behind": 0})
    sheet = rules.score_sheet().add_hand(["blind 6", "4", "pass", 3], [4, 3, 3, 3])
    assert sheet.match.scores == (121, -70)
    again = spadeskit.load_score_sheet(sheet.to_json(), rules)
    assert again.match.scores == sheet.match.scores
    with pytest.raises(spadeskit.IllegalAction, match="cannot read the bid 'blind 9'.*blind 7"):
        rules.score_sheet().add_hand(["blind 9", "4", "pass", 3], [4, 3, 3, 3])
