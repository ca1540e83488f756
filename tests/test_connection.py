"""The table's protocol for clients the server does not trust (spadeskit.Connection):
bounded messages, one seat per connection, one connection per seat, abandoned seats
given back, and a rejoin sent only what the seat has not seen (issue 51)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit.apps.connection import MESSAGE_DEPTH, MESSAGE_SIZE


def error_code(replies: list[dict[str, Any]]) -> str:
    assert len(replies) == 1 and "error" in replies[0], replies
    code: str = replies[0]["error"]["code"]
    return code


def fresh_table(**kwargs: Any) -> spadeskit.Table:
    return spadeskit.Table(spadeskit.load_rules("standard"), seed=3, **kwargs)


@pytest.mark.parametrize(
    "message",
    [
        "[" * 1000 + "]" * 1000,
        '{"join": ' + "[" * 1000 + "]" * 1000 + "}",
        '{"act": {"type": "exchange", "cards": [[[["AS"]]]]}}',
        '{"join": "' + "x" * (MESSAGE_SIZE + 1) + '"}',
        b"\xff\xfe{",
        "not json",
        "17",
        '{"hello": 1}',
    ],
)
def test_an_oversized_deep_or_unreadable_message_gets_bad_message(message: str | bytes) -> None:
    table = fresh_table()
    before = table.game
    assert error_code(spadeskit.Connection(table).receive(message)[0]) == "bad-message"
    assert table.game is before and table.seats == (None,) * 4


def test_a_decoded_message_too_deep_is_refused_without_recursion() -> None:
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]
    replies, changed = spadeskit.Connection(fresh_table()).receive({"act": deep})
    assert error_code(replies) == "bad-message" and not changed


def test_a_message_at_the_depth_limit_is_read() -> None:
    table = fresh_table()
    ann = spadeskit.Connection(table)
    ann.receive({"join": "Ann", "seat": table.to_act})
    nested = {"act": "4", "pad": [[{}]]}
    assert MESSAGE_DEPTH == 4
    assert ann.receive(nested) == ([], True)


@pytest.mark.parametrize("name", ["x" * 41, {"a": 1}, 12, None, "tab\there"])
def test_a_name_must_be_short_printable_text(name: Any) -> None:
    replies, _ = spadeskit.Connection(fresh_table()).receive({"join": name})
    assert error_code(replies) == "bad-name"


def test_one_connection_takes_one_seat() -> None:
    table = fresh_table()
    client = spadeskit.Connection(table)
    assert client.receive({"join": "Ann"})[0][0]["seated"] == 0
    for again in ({"join": "Ann"}, {"join": "Bob", "seat": 2}, {"watch": True}):
        assert error_code(client.receive(again)[0]) == "already-seated"
    assert [s is not None for s in table.seats] == [True, False, False, False]


def test_the_newest_connection_of_a_seat_wins_and_the_old_one_is_told() -> None:
    table = fresh_table()
    first = spadeskit.Connection(table)
    token = first.receive({"join": "Ann", "seat": 1})[0][0]["token"]
    second = spadeskit.Connection(table)
    replies, changed = second.receive({"rejoin": token})
    assert replies[0] == {"seated": 1} and changed
    assert first.replaced and first.update()["error"]["code"] == "replaced"
    assert error_code(first.receive({"act": "4"})[0]) == "not-seated"
    assert second.receive({"act": "4"}) == ([], True)
    first.close()  # the old socket closing does not abandon the seat the new one holds
    assert table.reap(now=10**9) == []


def test_an_abandoned_seat_is_freed_after_the_timeout() -> None:
    table = fresh_table(abandon_after=60)
    ann = spadeskit.Connection(table)
    token = ann.receive({"join": "Ann"})[0][0]["token"]
    table.detach(0, ann, now=1000.0)  # as ann.close() does, at a known time
    assert table.reap(now=1059.0) == [] and table.seats[0] is not None
    assert table.reap(now=1060.0) == [0] and table.seats[0] is None
    assert error_code(spadeskit.Connection(table).receive({"rejoin": token})[0]) == "bad-token"


def test_an_abandoned_seat_goes_to_the_stand_in_bot_when_the_table_names_one() -> None:
    table = fresh_table(abandon_after=0, stand_in="simple")
    ann = spadeskit.Connection(table)
    ann.receive({"join": "Ann", "seat": table.to_act})
    ann.close()
    assert table.reap() == [1] and table.bots == {1: "simple"}
    assert table.bot_due and table.play_bots(1) == 1
    assert error_code(spadeskit.Connection(table).receive({"join": "Bob", "seat": 1})[0]) == (
        "bad-seat"
    )


def test_a_rejoin_is_sent_only_what_the_seat_has_not_seen() -> None:
    table = fresh_table()
    ann = spadeskit.Connection(table)
    token = ann.receive({"join": "Ann", "seat": 0})[0][0]["token"]
    table.act(1, "3")
    seen = ann.update()
    assert [e["type"] for e in seen["events"]] == ["bid"]
    table.act(2, "3")
    back = spadeskit.Connection(table)
    replies, _ = back.receive({"rejoin": token})
    assert [e["text"] for e in replies[1]["events"]] == ["S bids 3"]
    again = spadeskit.Connection(table)
    replies, _ = again.receive({"rejoin": token, "since": seen["cursor"] - 1})
    assert [e["text"] for e in replies[1]["events"]] == ["E bids 3", "S bids 3"]
    bad = spadeskit.Connection(table).receive({"rejoin": token, "since": 999})[0]
    assert error_code(bad) == "bad-cursor"


def test_a_new_player_in_a_freed_seat_gets_the_seats_whole_stream() -> None:
    table = fresh_table()
    ann = spadeskit.Connection(table)
    ann.receive({"join": "Ann", "seat": 0})
    ann.update()
    table.leave(0)
    bob = spadeskit.Connection(table).receive({"join": "Bob", "seat": 0})[0]
    assert bob[1]["events"][0]["type"] == "hand-started" and bob[1]["events"][0]["cards"]


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "act",
                        "join",
                        "rejoin",
                        "watch",
                        "seat",
                        "since",
                        "type",
                        "cards",
                        "tricks",
                        "card",
                    ]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=20,
    )
)
def test_no_message_makes_a_connection_raise_or_change_a_refused_table(message: Any) -> None:
    table = fresh_table()
    before = table.game
    for form in (message, json.dumps(message)):
        replies, changed = spadeskit.Connection(table).receive(form)
        assert replies or changed
        if replies and "error" in replies[0]:
            assert table.game is before
