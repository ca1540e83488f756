"""Round 3 rulings, each test named after the ruling it checks, and the promise that a
paper score sheet and a game played card by card agree to the point, for every shipped
rule set."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit import Bid, IllegalAction, Nil, Play
from spadeskit.core.cards import cards_of
from tests.conftest import bid_all, play_out, shipped

# --------------------------------------------------------------------------------------
# no-bags: a failed nil's tricks beside a set partner score 0
# --------------------------------------------------------------------------------------


def test_no_bags_a_failed_nils_tricks_beside_a_set_partner_score_nothing() -> None:
    """no-bags (round 3): ``N nil, took 2`` beside a set 3 is −100, not −102."""
    rules = spadeskit.load_rules("standard", ["no-bags"])
    result = rules.score_hand(bids=["nil", 3, 4, 3], books=[2, 4, 3, 4])
    assert result.points == (-140, 60)
    assert result.bags == (0, 0)
    nil_line = next(line for line in result.lines if "nil" in line.text)
    assert nil_line.points == -100 and nil_line.bag_points == 0


def test_no_bags_a_failed_nils_tricks_beside_a_made_contract_score_nothing_either() -> None:
    """no-bags: overtricks score nothing, the nil bidder's tricks included."""
    rules = spadeskit.load_rules("standard", ["no-bags"])
    assert rules.score_hand(bids=["nil", 3, 4, 3], books=[2, 4, 5, 2]).points == (-100 + 40, 60)
    plain = spadeskit.load_rules("standard").score_hand(bids=["nil", 3, 4, 3], books=[2, 4, 5, 2])
    assert plain.points == (-100 + 2 + 41, 60)


def test_no_bags_a_failed_blind_nil_beside_a_set_partner_is_minus_200_and_nothing_more() -> None:
    """no-bags (round 3): the nil line is −100 (or −200) and nothing more."""
    rules = spadeskit.load_rules("standard", ["no-bags", "blind-nil"])
    result = rules.score_hand(bids=["blind nil", 3, 4, 3], books=[3, 4, 2, 4])
    assert result.points == (-200 - 40, 60)


# --------------------------------------------------------------------------------------
# jjdd with nil: a Boston counts only the books that count toward the bid of 13
# --------------------------------------------------------------------------------------

# N: the 4♠ and every club; E: the 5♠ and every heart; S: both jokers, 2♦, 2♠ and A♠
# down to 6♠ (S takes every trick whatever anyone plays); W: the 3♠ and the diamonds.
NIL_TAKES_ALL = [
    "4S AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
    "5S AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
    "BJ LJ 2D 2S AS KS QS JS 10S 9S 8S 7S 6S",
    "3S AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
]


def test_jjdd_boston_is_made_only_by_the_books_that_count_toward_the_bid_of_13() -> None:
    """jjdd (round 3): N bids 13, S bids nil and takes every trick: a failed Boston."""
    rules = spadeskit.load_rules("jjdd", options={"nil": True})
    game = bid_all(
        rules.new_game(seed=1, dealer=3, deal=NIL_TAKES_ALL), [Bid(13), Bid(4), Nil(), Bid(0)]
    )
    game = play_out(game)
    result = game.hand_results[-1]
    assert result.books == (0, 0, 13, 0)
    assert game.is_over and game.winner == 1
    assert (
        game.match.end is not None
        and "N/S bid 13 and took 0, an automatic loss" in game.match.end.reason
    )
    sheet = rules.score_sheet(dealer=3).add_hand(bids=[13, 2, "nil", 2], books=[2, 0, 11, 0])
    assert sheet.is_over and sheet.winner == 1 and "ran a Boston" not in (sheet.reason or "")


def test_jjdd_boston_beside_a_nil_is_made_by_the_partners_own_thirteen() -> None:
    """jjdd (round 3): with a nil beside it, the partner's own books make the Boston."""
    rules = spadeskit.load_rules("jjdd", options={"nil": True})
    sheet = rules.score_sheet(dealer=3).add_hand(bids=[13, 2, "nil", 2], books=[13, 0, 0, 0])
    assert sheet.is_over and sheet.winner == 0 and "ran a Boston" in (sheet.reason or "")


# --------------------------------------------------------------------------------------
# The score sheet never judges a bid against a deal it made up (mirror, whiz)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("house", ["mirror", "whiz"])
def test_sheet_checks_a_card_dependent_bid_against_what_the_rule_allows_for_some_hand(
    house: str,
) -> None:
    """mirror and whiz on a paper sheet (round 3): any count 1–13 or nil."""
    rules = spadeskit.load_rules("standard", [house])
    sheet = rules.score_sheet().add_hand(bids=[4, "nil", 6, 3], books=[4, 0, 6, 3])
    assert sheet.scores == (100, 100 + 30)
    for bid in range(1, 14):
        assert (
            rules.score_sheet()
            .add_hand(bids=[bid, 0, 0, 13 - bid], books=[bid, 0, 0, 13 - bid])
            .results
        )
    with pytest.raises(
        IllegalAction, match=r"seat 0 \(N\) cannot bid bid 14 here; allowed: nil, bid 1"
    ):
        rules.score_sheet().add_hand(bids=[14, 0, 0, 0], books=[13, 0, 0, 0])


def test_sheet_under_whiz_and_blind_nil_still_takes_a_blind_nil() -> None:
    """whiz with blind-nil: blind nil is still offered before the cards are seen."""
    rules = spadeskit.load_rules("standard", ["whiz", "blind-nil"])
    sheet = rules.score_sheet().add_hand(bids=["blind nil", 5, 7, 1], books=[0, 5, 7, 1])
    assert sheet.scores[0] == 200 + 70


# --------------------------------------------------------------------------------------
# call-break: must_head false relaxes only the follower's duty
# --------------------------------------------------------------------------------------


def test_call_break_must_head_false_still_obliges_a_void_player_to_trump_and_over_trump() -> None:
    """call-break (round 3): ``must_head: false`` relaxes only a player following suit."""
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 5S",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S",
        "AD AH 3S 4S 6S 7S 8S 9S 10S JS QS KS AS",
    ]
    game = spadeskit.load_rules("call-break", options={"must_head": False}).new_game(deal=hands)
    game = bid_all(game, [Bid(1)] * 4).apply(Play("2C")).apply(Play("5S")).apply(Play("2S"))
    legal = set(game.legal_actions())
    assert Play("AD") not in legal and Play("AH") not in legal  # void: must trump
    assert Play("4S") not in legal and Play("6S") in legal  # and over-trump when able


# --------------------------------------------------------------------------------------
# Every shipped rule set: a sheet of bids and books scores as the game played card by card
# --------------------------------------------------------------------------------------


def _shipped_rule_sets() -> list[tuple[str, tuple[str, ...], dict[str, Any]]]:
    """Return every shipped variant alone and with each house rule that fits it, plus the
    options that change scoring."""
    infos = {p.name: p for p in spadeskit.available()}
    sets: list[tuple[str, tuple[str, ...], dict[str, Any]]] = []
    for variant in shipped("variant"):
        sets.append((variant, (), {}))
        for house in shipped("house-rule"):
            if variant in infos[house].fits:
                sets.append((variant, (house,), {}))
    sets += [
        ("standard", (), {"nil_tricks": "partner"}),
        ("standard", (), {"nil_tricks": "none"}),
        ("standard", ("no-bags", "blind-nil"), {}),
        ("standard", ("no-bags", "boston", "partnership-nil"), {}),
        ("standard", ("whiz", "blind-nil"), {}),
        ("standard", ("mirror", "no-bags"), {}),
        ("jjdd", (), {"nil": True}),
        ("jjdd", (), {"enforcement": "table", "nil": True}),
        ("jjdd", (), {"sandbags": False, "double_over": False}),
        ("cutthroat", (), {"all_tricks": "score-200"}),
        ("three-suit-trump", (), {"for_least_ties": "fewest-tricks"}),
        ("call-break", (), {"must_head": False}),
    ]
    return sets


RULE_SETS = _shipped_rule_sets()


def _play_match(
    rules: spadeskit.Rules, seed: int
) -> tuple[spadeskit.GameState, list[list[list[str]] | None]]:
    """Play a match with random choices (referee rulings included where offered);
    return it and, per hand, the cards each seat won (card-point variants only)."""
    rng = random.Random(seed)
    game = rules.new_game(seed=seed)
    won: list[list[list[str]] | None] = []
    while not game.is_over:
        referee = game.legal_actions(spadeskit.REFEREE)
        if referee and rng.random() < 0.02:
            game = game.apply(rng.choice(referee), spadeskit.REFEREE)
            continue
        hands = len(game.hand_results)
        before, action = game, rng.choice(game.legal_actions())
        game = game.apply(action)
        if len(game.hand_results) > hands:
            counts_cards = rules.variant == "three-suit-trump" and not game.hand_results[-1].void
            won.append(_cards_won(before, action, game) if counts_cards else None)
    return game, won


def _cards_won(
    before: spadeskit.GameState, action: spadeskit.Action, after: spadeskit.GameState
) -> list[list[str]]:
    """Return the cards each seat won in the hand that ``action`` (the last card, played
    on ``before``) finished: its tricks and discards, the last trick, and the blind where
    the last trick takes it: what a paper sheet of a card-point variant is given."""
    assert isinstance(action, Play)
    winner = after.hand_results[-1].last_trick_winner
    assert winner is not None
    masks = list(before.won)
    for _, card in before.trick:
        masks[winner] |= 1 << card
    masks[winner] |= 1 << action.card.index
    contract = before.contract
    if contract is not None and contract.blind_to == "last-trick":
        masks[winner] |= before.blind
    return [[c.code for c in cards_of(mask)] for mask in masks]


@settings(
    max_examples=len(RULE_SETS) * 3, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.sampled_from(RULE_SETS), st.integers(0, 2**32 - 1))
def test_a_sheet_of_bids_and_books_scores_every_shipped_rule_set_as_card_play_does(
    config: tuple[str, tuple[str, ...], dict[str, Any]], seed: int
) -> None:
    """The score sheet scores exactly as a game played card by card, "to the point": the
    same lines, points, totals, bags and match end, for every shipped rule set."""
    variant, house, options = config
    rules = spadeskit.load_rules(variant, house, options)
    game, won = _play_match(rules, seed)
    sheet = rules.score_sheet(dealer=game.hand_results[0].dealer)
    for result, cards in zip(game.hand_results, won):
        assert sheet.dealer == result.dealer
        if result.void:
            continue
        sheet = sheet.add_hand(result.bids, result.books, won=cards, transfers=result.transfers)
        played = attrs.evolve(result, number=sheet.results[-1].number, last_trick_winner=None)
        assert sheet.results[-1] == played
    assert (sheet.scores, sheet.bags, sheet.is_over, sheet.winner) == (
        game.scores,
        game.bags,
        True,
        game.winner,
    )
    assert sheet.reason == game.match.end.reason  # type: ignore[union-attr]
