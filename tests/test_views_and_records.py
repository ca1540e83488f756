"""Hidden information in views, records that replay, and the demo."""

from __future__ import annotations

import json
import random

import pytest

import spadeskit
from spadeskit import Bid, Phase
from spadeskit.apps.cli import main
from tests.conftest import bid_all


def test_a_view_shows_its_own_cards_and_only_counts_of_the_others(
    standard: spadeskit.Rules,
) -> None:
    game = standard.new_game(seed=9)
    for seat in range(4):
        view = game.view(seat)
        assert view.cards == game.cards(seat)
        assert view.card_counts == (13, 13, 13, 13)
        text = json.dumps(view.to_json())
        for other in range(4):
            if other != seat:
                assert not any(f'"{c.code}"' in text for c in game.cards(other))


def test_a_spectator_sees_no_hand(standard: spadeskit.Rules) -> None:
    view = standard.new_game(seed=9).view(None)
    assert view.cards == () and view.legal_actions == ()


def test_a_view_never_holds_the_seed_or_the_record(standard: spadeskit.Rules) -> None:
    game = standard.new_game(seed=123456789)
    text = json.dumps(game.view(0).to_json())
    assert "123456789" not in text and "seed" not in text


def test_played_cards_bids_and_legal_actions_are_public_to_the_right_seats(
    standard: spadeskit.Rules,
) -> None:
    game = bid_all(standard.new_game(seed=9), [Bid(2), Bid(3), Bid(4), Bid(1)])
    card = game.legal_actions()[0]
    game = game.apply(card)
    view = game.view(2)
    assert view.bids == (Bid(2), Bid(3), Bid(4), Bid(1))
    assert view.trick[0][1] == card.card  # type: ignore[attr-defined]
    assert view.legal_actions == () and game.view(1).legal_actions == game.legal_actions()


def test_record_is_json_and_replays_to_an_equal_state(standard: spadeskit.Rules) -> None:
    game = standard.new_game(seed=31)
    for _ in range(70):
        game = game.apply(game.legal_actions()[-1 if game.phase is Phase.AUCTION else 0])
    assert game.hand.number == 1
    record = json.loads(json.dumps(game.to_record()))
    assert record["format"] == "spadeskit-record" and record["version"] == 2
    again = spadeskit.replay(record)
    assert again == game and again.hand_results == game.hand_results


def test_record_of_an_explicit_deal_replays(standard: spadeskit.Rules) -> None:
    game = standard.new_game(seed=1)
    deal = [[c.code for c in game.cards(s)] for s in range(4)]
    explicit = standard.new_game(deal=deal, dealer=1, seed=5)
    explicit = explicit.apply(explicit.legal_actions()[2])
    assert explicit.hand.dealer == 1
    assert spadeskit.replay(explicit.to_record()) == explicit


def test_scorekeeping_from_bids_and_books_matches_the_played_hand(
    standard: spadeskit.Rules,
) -> None:
    game = standard.new_game(seed=77)
    while not game.hand_results:
        game = game.apply(
            game.legal_actions()[-1] if game.phase is Phase.AUCTION else game.legal_actions()[0]
        )
    result = game.hand_results[0]
    kept = standard.score_hand(bids=list(result.bids), books=list(result.books))
    assert kept.lines == result.lines and kept.scores == result.scores


def test_demo_plays_a_whole_match_and_prints_the_score_sheet(
    capsys: object, tmp_path: object
) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "match.json"
    assert main(["demo", "--seed", "3", "--record", str(path)]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "Hand 1 (dealer W)" in out and "Score sheet" in out and "Match over: won by" in out
    assert main(["replay", str(path)]) == 0
    assert main(["demo", "--variant", "bridge"]) == 2


def test_list_names_every_plugin_with_its_options(capsys: object) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "standard" in out and "target = 500" in out


KEY = b"an app's secret key, 32 bytes.."


def test_a_signed_record_replays_with_its_key_and_is_refused_altered_or_with_another_key() -> None:
    """Signed records: to_record(key=...) adds an HMAC-SHA256; replay(record, key=...)
    refuses a record whose MAC does not verify with RecordError."""
    import copy

    rules = spadeskit.load_rules("standard")
    game = rules.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(30):
        game = game.apply(rng.choice(game.legal_actions()))
    record = json.loads(json.dumps(game.to_record(key=KEY)))
    assert isinstance(record["mac"], str) and spadeskit.replay(record, key=KEY) == game
    with pytest.warns(UserWarning, match="replayed without a key"):
        assert spadeskit.replay(record) == game  # without a key: the digest and the actions
    with pytest.raises(spadeskit.RecordError, match="signature does not verify"):
        spadeskit.replay(record, key=b"another key, also 32 bytes long!")
    for change in ("truncate", "extend", "options", "digest"):
        altered = copy.deepcopy(record)
        if change == "truncate":
            altered["actions"] = altered["actions"][:-1]
        elif change == "extend":
            altered["actions"].append(altered["actions"][-1])
        elif change == "options":
            altered["options"]["target"] = 100
        else:
            altered["digest"] = "0" * 32
        with pytest.raises(spadeskit.RecordError, match="signature does not verify"):
            spadeskit.replay(altered, key=KEY)
    unsigned = game.to_record()
    with pytest.raises(spadeskit.RecordError, match="not signed"):
        spadeskit.replay(unsigned, key=KEY)
    with pytest.raises(spadeskit.RecordError, match="at least 16 bytes"):
        game.to_record(key="short")


def test_unseeded_deals_come_from_a_secret_no_record_view_or_repr_shows() -> None:
    """Unseeded games shuffle each hand from a secret that no state, view or record
    reveals; a record shows the deals of hands already played, never the next."""
    rules = spadeskit.load_rules("standard", options={"floor": None})
    game = rules.new_game()
    assert game.seed is None
    secret = game._dealing.secret
    assert secret is not None and len(secret) == 32
    scored = game.rollout(seed=1)  # hand 1 played; hand 2 dealt, nobody has acted in it
    record = json.loads(json.dumps(scored.to_record()))
    assert record["seed"] is None and len(record["deals"]) == 1
    one, two = spadeskit.replay(record), spadeskit.replay(record)
    assert one == scored and two == scored  # equal up to the next deal, which nobody has seen
    for shown in (
        json.dumps(record),
        repr(scored),
        json.dumps(scored.view(0).to_json()),
        repr(scored.view(None)),
    ):
        assert secret.hex() not in shown and repr(secret) not in shown
    # The record leaves out the deal of a hand nobody has acted in: a replay deals it
    # from a new secret, so from the record nobody can say what it is.
    assert scored.hands != one.hands or scored.hands != two.hands
    # Once something happens in the hand, its deal is part of the game and its record.
    acted = scored.apply(scored.legal_actions()[0])
    again = acted.to_record()
    assert len(again["deals"]) == 2 and spadeskit.replay(again) == acted
    assert acted != one.apply(acted.log[0][1]) or one.hands == scored.hands
    assert record["deals"][0] == [
        [c.code for c in cards]
        for cards in (
            spadeskit.core.cards.cards_of(m)
            for m in rules.new_game(deal=record["deals"][0][:4]).hands
        )
    ] + [[], []]


def test_an_unseeded_record_replays_equal_at_every_point_and_pickles_keep_the_secret() -> None:
    import pickle

    rules = spadeskit.load_rules("jjdd", options={"target": 100})
    rng = random.Random(2)
    game = rules.new_game()
    while not game.is_over:
        assert spadeskit.replay(game.to_record()) == game
        game = game.apply(rng.choice(game.legal_actions()))
    assert spadeskit.replay(game.to_record()) == game
    after = rules.new_game().rollout(seed=3)
    copy = pickle.loads(pickle.dumps(after))
    assert copy.hands == after.hands  # the same secret deals the same next hand


def test_seeded_games_are_predictable_by_design_and_version_1_records_still_replay() -> None:
    """Seeded games stay reproducible: the record carries the seed."""
    rules = spadeskit.load_rules("standard")
    game = rules.new_game(seed=12).rollout(seed=1)
    record = game.to_record()
    assert record["seed"] == 12 and record["deals"] is None
    assert spadeskit.replay(record).hands == game.hands
    old = {k: v for k, v in record.items() if k != "deals"}
    old["version"] = 1
    old["digest"] = spadeskit.core.records.digest(game, 1)
    assert spadeskit.replay(old) == game


def test_a_views_json_grows_by_one_short_score_line_a_hand() -> None:
    """Views stay cheap: a view's JSON does not grow with the hands played beyond one
    score line per hand."""
    rules = spadeskit.load_rules("standard", options={"target": 10_000, "floor": None})
    game = rules.new_game(seed=4)
    sizes = []
    for _ in range(41):
        game = game.rollout(seed=len(game.hand_results))
        if len(game.hand_results) in (1, 41):
            sizes.append(len(json.dumps(game.view(0).to_json())))
    data = game.view(0).to_json()
    assert data["last_hand"]["number"] == 40 and len(data["score_history"]) == 41
    assert (sizes[1] - sizes[0]) / 40 < 20  # bytes per hand: the two totals and punctuation


def test_a_servers_record_may_keep_the_deal_nobody_has_acted_in() -> None:
    """A server keeps the deal its players have already seen (current_deal=True): the
    game replays with the same cards; a record for anyone else leaves that deal out."""
    rules = spadeskit.load_rules("standard", options={"floor": None})
    scored = rules.new_game().rollout(seed=3)
    kept = scored.to_record(current_deal=True)
    assert len(kept["deals"]) == 2 and len(scored.to_record()["deals"]) == 1
    again = spadeskit.replay(kept)
    assert again == scored and again.hands == scored.hands
