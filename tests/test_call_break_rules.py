"""Call Break's rules, each test named after the ruling it checks."""

from __future__ import annotations

import json

import pytest

import spadeskit
from spadeskit import Bid, IllegalAction, Nil, Play
from tests.conftest import play_out

# N: clubs and the low spades; E: diamonds and AS; S: hearts and KS; W: the rest.
DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C 2S 3S 4S 5S",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AS",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH AH KS",
    "JC QC KC AC AD KH 6S 7S 8S 9S 10S JS QS",
]


def rules(**options: object) -> spadeskit.Rules:
    return spadeskit.load_rules("call-break", options=options)


def bid_all(
    game: spadeskit.GameState, calls: tuple[int, ...] = (1, 1, 1, 1)
) -> spadeskit.GameState:
    for call in calls:
        game = game.apply(Bid(call))
    return game


def test_calls_are_1_to_8_with_no_nil_and_max_call_raises_the_top() -> None:
    game = rules().new_game(deal=DEAL)
    legal = game.legal_actions()
    assert legal == tuple(Bid(n) for n in range(1, 9))
    assert Nil() not in legal
    with pytest.raises(IllegalAction):
        game.apply(Bid(9))
    assert rules(max_call=13).new_game(deal=DEAL).legal_actions()[-1] == Bid(13)


def test_every_seat_is_its_own_side_and_the_dealers_left_calls_and_leads_first() -> None:
    r = rules()
    assert r.table.sides == ((0,), (1,), (2,), (3,))
    game = r.new_game(deal=DEAL, dealer=3)
    assert game.to_act == 0
    assert bid_all(game).to_act == 0


def test_spades_may_be_led_at_any_time() -> None:
    game = bid_all(rules().new_game(deal=DEAL))
    assert Play("2S") in game.legal_actions()


def test_heading_when_able_a_follower_must_beat_the_best_card_of_the_led_suit() -> None:
    game = bid_all(rules().new_game(deal=DEAL))
    game = game.apply(Play("9C"))  # N leads 9♣; E has no club, so E must trump
    game = game.apply(Play("AS"))
    # S has no club: must play a spade beating A♠ if able (cannot), so any spade: K♠.
    assert game.legal_actions() == (Play("KS"),)
    game = game.apply(Play("KS"))
    # W holds J♣ Q♣ K♣ A♣: the trick has been trumped, so any club will do.
    assert set(game.legal_actions()) == {Play(c) for c in ("JC", "QC", "KC", "AC")}


def test_heading_a_follower_must_beat_the_led_suit_when_not_trumped() -> None:
    game = bid_all(rules().new_game(deal=DEAL, dealer=2))  # W leads
    game = game.apply(Play("JC"))
    # N follows clubs, all below J♣: it cannot head, so any club.
    assert set(game.legal_actions()) == {
        Play(c) for c in ("2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C")
    }
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C QC 2S 3S 4S 5S",
        DEAL[1],
        DEAL[2],
        "JC 10C KC AC AD KH 6S 7S 8S 9S 10S JS QS",
    ]
    game = bid_all(rules().new_game(deal=hands, dealer=2))
    game = game.apply(Play("JC"))
    assert game.legal_actions() == (Play("QC"),)  # N holds the Q♣: it must head
    with pytest.raises(IllegalAction, match="beat the led suit's best card"):
        game.apply(Play("2C"))
    relaxed = bid_all(rules(must_head=False).new_game(deal=hands, dealer=2)).apply(Play("JC"))
    assert Play("2C") in relaxed.legal_actions()  # must_head=False: following is enough


def test_not_obliged_to_head_once_trumped() -> None:
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C 2S 3S 4S 5S",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AS",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH AH KC",
        "JC QC KS AC AD KH 6S 7S 8S 9S 10S JS QS",
    ]
    game = bid_all(rules().new_game(deal=hands))
    game = game.apply(Play("2C")).apply(Play("AS"))  # E trumps
    # S holds only the K♣ in clubs: it follows (heading is moot once trumped).
    assert game.legal_actions() == (Play("KC"),)
    game = game.apply(Play("KC"))
    assert set(game.legal_actions()) == {Play("JC"), Play("QC"), Play("AC")}  # W need not beat K♣


def test_over_trumping_a_void_player_must_beat_the_best_spade_if_able() -> None:
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 5S",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S",
        "AD AH 3S 4S 6S 7S 8S 9S 10S JS QS KS AS",
    ]
    game = bid_all(rules().new_game(deal=hands))
    game = game.apply(Play("2C")).apply(Play("5S"))  # E trumps with the 5♠
    assert game.legal_actions() == (Play("2S"),)  # S cannot over-trump: any spade (its only one)
    game = game.apply(Play("2S"))
    legal = set(game.legal_actions())
    assert (
        Play("3S") not in legal
        and Play("4S") not in legal
        and Play("6S") in legal
        and Play("AS") in legal
    )
    assert Play("AD") not in legal  # void in clubs with spades: must trump


@pytest.mark.parametrize(
    "call, took, points, text",
    [
        (4, 4, 40, "N called 4, took 4: +4.0"),
        (4, 5, 41, "N called 4, took 5, 1 extra trick: +4.1"),
        (5, 3, -50, "N called 5, took 3: failed, -5.0"),
        (2, 5, 23, "N called 2, took 5, 3 extra tricks: +2.3"),
    ],
)
def test_scoring_made_call_plus_a_tenth_per_extra_trick_failed_minus_the_call(
    call: int, took: int, points: int, text: str
) -> None:
    score = rules().score_hand(bids=[call, 1, 1, 1], books=[took, 13 - took - 2, 1, 1])
    line = score.lines[0]
    assert (line.side, line.points, line.text) == (0, points, text)


def test_scores_are_kept_in_tenths_and_shown_with_one_decimal_everywhere() -> None:
    r = rules(rounds=1)
    assert (
        r.table.score_unit == 10
        and r.table.show_score(41) == "4.1"
        and r.table.show_score(-50) == "-5.0"
    )
    game = play_out(r.new_game(seed=3))
    view = game.view(0)
    data = json.loads(json.dumps(view.to_json()))
    assert data["score_unit"] == 10
    assert data["scores_shown"] == [r.table.show_score(s) for s in game.scores]
    assert all("." in shown for shown in data["scores_shown"])
    sheet = r.score_sheet().add_hand(bids=[4, 3, 2, 1], books=[5, 3, 1, 4])
    text = str(sheet)
    assert "+4.1" in text and "-2.0" in text and "bags" not in text


def test_the_match_is_a_fixed_number_of_rounds_and_a_tie_plays_one_more() -> None:
    r = rules(rounds=2)
    sheet = r.score_sheet()
    sheet = sheet.add_hand(bids=[4, 3, 3, 3], books=[4, 3, 3, 3])
    assert not sheet.is_over
    sheet = sheet.add_hand(bids=[3, 4, 3, 3], books=[3, 4, 3, 3])  # N and E tied on 7.0
    assert not sheet.is_over
    sheet = sheet.add_hand(bids=[1, 1, 1, 1], books=[2, 1, 5, 5])
    assert sheet.is_over and sheet.winner == 0
    assert sheet.reason == "won by N with 8.1 after 3 rounds (1 extra round to break a tie)"
