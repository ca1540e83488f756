"""The sparring partners: PointCountBot and SureTricksBot, their rules of thumb, and play.

Each test is named after the rule of thumb it checks; each deal is written out so the
rule alone decides the card.
"""

from __future__ import annotations

import random

import pytest

import spadeskit
from spadeskit import Bid, Nil, Play
from spadeskit.arena import evaluate, make_bot, play_match
from spadeskit.bots.counting import Count, Table
from spadeskit.bots.pointcount import PointCountBot
from spadeskit.bots.suretricks import SureTricksBot
from spadeskit.core.cards import parse_cards

CONFIGS = [
    ("standard", [], {}),
    ("standard", ["blind-nil", "hidden-bids"], {}),
    ("standard", ["jokers"], {}),
    ("standard", ["partnership-nil"], {}),
    ("jjdd", [], {}),
    ("jjdd", [], {"enforcement": "table"}),
    ("cutthroat", [], {}),
    ("two-handed", [], {}),
    ("three-suit-trump", [], {}),
    ("call-break", [], {}),
]

# Seat 0 leads (dealer 3).  N and S (0, 2) play E and W (1, 3).
DEAL = [
    "AH KH 3H 4D 5D 6D 7D 2C 3C 4C 2S 3S 4S",
    "KD 2D 2H 6H 8H 5C 6C 7C 8C 5S 6S 7S 8S",
    "QH 4H 5H 9C 10C JC 8D 10D JD 9S 10S JS 9D",
    "AD QD AC KC QC AS KS QS 7H 9H 10H JH 3D",
]
NIL_DEAL = [
    "AS KS QS JS 10S AH KH QH AD KD QD AC KC",
    "9S 8S 7S 6S JH 10H 9H 8H JD 10D 9D QC JC",
    "2H 3H 4H 5H 2C 3C 4C 5C 2D 3D 4D 2S 3S",
    "4S 5S 6H 7H 6C 7C 8C 9C 10C 5D 6D 7D 8D",
]
BOTS = [PointCountBot, SureTricksBot]
STANDARD = spadeskit.load_rules("standard")


def after(deal: list[str], *steps: object) -> spadeskit.GameState:
    """The standard game of ``deal`` (dealer 3) after the given bids and plays."""
    game = STANDARD.new_game(deal=deal, dealer=3)
    for step in steps:
        if step == "nil":
            game = game.apply(Nil())
        elif isinstance(step, int):
            game = game.apply(Bid(step))
        else:
            game = game.apply(Play(str(step)))
    return game


@pytest.mark.parametrize("name", ["pointcount", "suretricks"])
@pytest.mark.parametrize("variant, house, options", CONFIGS)
def test_sparring_bots_play_whole_matches_of_every_variant_from_their_view(
    name: str, variant: str, house: list[str], options: dict[str, object]
) -> None:
    rules = spadeskit.load_rules(variant, house, options)
    bots = [make_bot(name, s, rules, random.Random(s)) for s in range(rules.table.players)]
    game = play_match(rules, bots, seed=5)  # play_match refuses any illegal choice
    assert game.is_over


def test_count_reads_the_cards_out_and_who_is_winning() -> None:
    game = after(DEAL, 3, "nil", 3, 3, "4D", "2D", "JD", "AD", "QC", "2C", "5C")
    table = Table(2, STANDARD, random.Random(0), object())
    count = Count(table, game.view(2))  # S to play, last: W leads with the queen
    index = {c.code: c.index for c in STANDARD.table.deck}
    assert count.winner == 3 and count.after == [] and count.led == 0
    assert count.is_master(index["KD"])  # the ace has gone
    assert not count.is_master(index["QD"]) and not count.is_master(index["JC"])
    assert count.higher_out(index["9C"]) == 2  # A and K of clubs (W's queen is played)
    assert count.nil_alive(1) and count.need(0) == 6 and count.need(1) == 2  # W took one
    assert [p.card.code for p in count.winners([Play(c) for c in ("9C", "10C", "JC")])] == []


# -- PointCountBot -----------------------------------------------------------------


def test_point_count_counts_top_spades_spade_length_aces_and_half_kings() -> None:
    bot = PointCountBot(STANDARD)
    # A K Q of spades 3, A of clubs 1, K of clubs in three 0.5, A of diamonds 1.
    assert bot.points(parse_cards(DEAL[3])) == 5.5
    # Five spades (A K Q, two over three) 5, a side ace 1, a king in two 0.5.
    assert bot.points(parse_cards("AS KS QS 5S 4S AH 3H 2H KD 4D 3C 2C 5C")) == 6.5
    # Three low spades and a singleton: a ruff point; a long suit's ace half a point.
    assert bot.points(parse_cards("2S 3S 4S 2H AD 2D 3D 4D 5D 2C 3C 4C 5C")) == 1.5


def test_point_count_half_point_counts_only_while_tricks_go_unbid() -> None:
    first = after(DEAL)  # N opens: 5.5 points, nothing bid yet
    assert PointCountBot(STANDARD).choose(first.view(0)) in (Bid(1), Bid(2))
    west = after(DEAL, 1, 1, 1)  # W bids last on a table of 3: 5.5 counts as 6
    assert PointCountBot(STANDARD).choose(west.view(3)) == Bid(6)
    crowded = after(DEAL, 4, 4, 3)  # 11 bid: the half point is dropped, and the total
    assert PointCountBot(STANDARD).choose(crowded.view(3)) == Bid(2)  # kept to 13


def test_point_count_bids_nil_with_low_cards_beside_a_partner_who_bid_four() -> None:
    bot = PointCountBot(STANDARD)
    assert bot.nil_hand(parse_cards(NIL_DEAL[2]))
    # An ace needs three small cards beside it ("a four-suited ace" does not stop a nil).
    assert bot.nil_hand(parse_cards("AH 3H 4H 5H 2C 3C 4C 5C 2D 3D 4D 2S 3S"))
    assert not bot.nil_hand(parse_cards("AH 3H 4H 2C 3C 4C 5C 6C 2D 3D 4D 2S 3S"))
    assert not bot.nil_hand(parse_cards("2H 3H 4H 9S 2C 3C 4C 5C 2D 3D 4D 2S 3S"))
    assert bot.choose(after(NIL_DEAL, 4, 3).view(2)) == Nil()
    assert isinstance(bot.choose(after(NIL_DEAL, 2, 3).view(2)), Bid)


def test_point_count_leads_the_king_from_ace_king() -> None:
    assert PointCountBot(STANDARD).choose(after(DEAL, 3, 3, 3, 3).view(0)) == Play("KH")


# -- both -----------------------------------------------------------------------------


@pytest.mark.parametrize("bot", BOTS)
def test_second_hand_low(bot: type) -> None:
    game = after(DEAL, 3, 3, 3, 3, "7D")
    assert bot(STANDARD).choose(game.view(1)) == Play("2D")  # not the king


@pytest.mark.parametrize("bot", BOTS)
def test_third_hand_high_over_a_partner_card_that_may_not_hold(bot: type) -> None:
    game = after(DEAL, 3, 3, 3, 3, "4D", "2D")
    assert bot(STANDARD).choose(game.view(2)) == Play("JD")  # A and Q are out


@pytest.mark.parametrize("bot", BOTS)
def test_a_nil_bidder_forced_over_the_trick_plays_its_lowest_for_others_to_overtake(
    bot: type,
) -> None:
    game = after(DEAL, 3, "nil", 3, 3, "2C")
    assert bot(STANDARD).choose(game.view(1)) == Play("5C")
    assert bot(STANDARD).choose(after(DEAL, 3, "nil", 3, 3, "4D").view(1)) == Play("2D")


@pytest.mark.parametrize("bot", BOTS)
def test_a_partner_nil_is_covered_by_winning_ahead_of_it(bot: type) -> None:
    game = after(DEAL, 3, 3, "nil", 3)  # N leads with S's nil to cover
    lead = bot(STANDARD).choose(game.view(0))
    assert lead in (Play("AH"), Play("KH"))  # a master, to keep S under it


@pytest.mark.parametrize("bot", BOTS)
def test_an_opponent_nil_is_set_by_playing_low_when_it_is_still_to_play(bot: type) -> None:
    plain = after(DEAL, 3, 3, 3, 3, "5D", "2D")
    assert bot(STANDARD).choose(plain.view(2)) == Play("JD")  # third hand high
    nil = after(DEAL, 3, 3, 3, "nil", "5D", "2D")
    assert bot(STANDARD).choose(nil.view(2)) == Play("8D")  # W's nil is still to play


# -- SureTricksBot -----------------------------------------------------------------


def test_sure_tricks_counts_aces_ace_king_and_top_trump_runs_but_no_bare_king() -> None:
    bot = SureTricksBot(STANDARD)
    # A K Q of spades 3, A K of clubs 2, A of diamonds 1.
    assert bot.sure_tricks(parse_cards(DEAL[3])) == 6
    # A bare king of clubs (no ace) and a king of hearts beside it: half a trick each.
    hand = parse_cards("2S 3S 4S KH 5H KC 6C 7C 2D 3D 4D 5D 6D")
    assert bot.sure_tricks(hand) == 1 and bot.maybe == 2
    # Six low spades: two over four.
    assert bot.sure_tricks(parse_cards("2S 3S 4S 5S 6S 7S 2H 3H 4H 2C 3C 2D 3D")) == 2


def test_sure_tricks_bids_no_nil_after_a_nil_on_its_right_but_sets_it() -> None:
    bot = SureTricksBot(STANDARD)
    assert bot.choose(after(NIL_DEAL, 4, 3).view(2)) == Nil()
    assert isinstance(bot.choose(after(NIL_DEAL, 4, "nil").view(2)), Bid)


def test_sure_tricks_last_bidder_bids_more_when_four_go_unbid_less_over_the_tricks() -> None:
    bot = SureTricksBot(STANDARD)
    assert bot.choose(after(DEAL, 1, 1, 1).view(3)) == Bid(7)  # 6 sure, 3 bid: 9 of 13
    assert bot.choose(after(DEAL, 2, 2, 1).view(3)) == Bid(6)  # 11 of 13
    assert bot.choose(after(DEAL, 3, 3, 3).view(3)) == Bid(5)  # 15 would be bid


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pointcount", "suretricks"])
def test_the_heuristic_bot_beats_each_sparring_partner_on_duplicate_deals(name: str) -> None:
    result = evaluate(STANDARD, "heuristic", name, deals=20, seed=2)
    assert result.win_rate > 0.55


@pytest.mark.parametrize("bot", BOTS)
def test_the_count_is_read_as_a_share_of_a_players_tricks_at_every_table(bot: type) -> None:
    """The guides count for four players of thirteen cards: there the count is the bid;
    three players holding seventeen cards take more tricks each, and the count grows."""
    four = bot(STANDARD)
    view = after(DEAL).view(0)
    assert four.scaled_count(view) == four.count(view.cards)
    cutthroat = spadeskit.load_rules("cutthroat")
    three = bot(cutthroat)
    game = cutthroat.new_game(seed=2)
    seat = game.to_act
    assert seat is not None
    cards = game.view(seat).cards
    assert three.scaled_count(game.view(seat)) > three.count(cards) > 0
