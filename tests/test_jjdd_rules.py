"""Jokers and Deuces ("hood") Spades: one test per ruling of RULINGS.md "jjdd"."""

from __future__ import annotations

import itertools
import json

import pytest

import spadeskit
from spadeskit import (
    REFEREE,
    Accept,
    Bid,
    CallRenege,
    DealError,
    DeclareMisdeal,
    IllegalAction,
    Phase,
    Play,
    TableTalk,
)
from spadeskit.core.results import HandResult, ScoreLine
from spadeskit.core.seating import FrozenMap
from spadeskit.core.state import MatchState
from tests.conftest import bid_all, play_cards, play_out

TRUMP_ORDER = [
    "BJ",
    "LJ",
    "2D",
    "2S",
    "AS",
    "KS",
    "QS",
    "JS",
    "10S",
    "9S",
    "8S",
    "7S",
    "6S",
    "5S",
    "4S",
    "3S",
]

# N: diamonds A-4 and AH KH; E: 3D 2D, hearts 3-Q, AC; S: clubs 3-K, 2S 3S; W: spades 4-A, LJ, BJ.
DIAMOND_LEAD = [
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D AH KH",
    "3D 2D 3H 4H 5H 6H 7H 8H 9H 10H JH QH AC",
    "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2S 3S",
    "4S 5S 6S 7S 8S 9S 10S JS QS KS AS LJ BJ",
]
# N: hearts A-4, AD, BJ; E: 2D 3S, clubs A-4; S: diamonds K-3, 3C 2S; W: 3H, spades 4-A, LJ.
DEUCE_BREAKS = [
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H AD BJ",
    "2D 3S AC KC QC JC 10C 9C 8C 7C 6C 5C 4C",
    "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 3C 2S",
    "3H 4S 5S 6S 7S 8S 9S 10S JS QS KS AS LJ",
]
# N holds the thirteen highest spades: N/S take every book.
BOSTON = [
    "BJ LJ 2D 2S AS KS QS JS 10S 9S 8S 7S 6S",
    "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 5S",
    "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4S",
    "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 3S",
]


def jjdd(**options: object) -> spadeskit.Rules:
    return spadeskit.load_rules("jjdd", options=options)


def texts(result: HandResult) -> list[str]:
    return [line.text for line in result.lines]


def test_deck_is_52_with_both_jokers_and_without_2h_and_2c() -> None:
    """Deck: 52 standard + Big and Little Joker, minus 2♥ and 2♣ = 52 cards."""
    deck = {c.code for c in jjdd().table.deck}
    assert len(deck) == 52 and {"BJ", "LJ", "2D", "2S"} <= deck and not {"2H", "2C"} & deck


def test_spades_rank_big_joker_little_joker_2d_2s_then_ace_down_every_pair() -> None:
    """Spades, high to low: Big Joker, Little Joker, 2♦, 2♠, A♠, K♠ … 3♠."""
    rules = jjdd()
    for high, low in itertools.combinations(TRUMP_ORDER, 2):
        assert rules.trick_winner([(0, low), (1, high)]) == 1, (high, low)
        assert rules.trick_winner([(0, high), (1, low)]) == 0, (high, low)
        assert rules.trick_winner([(0, "AH"), (1, low), (2, high)]) == 2, (high, low)


def test_2d_and_jokers_are_spades_for_every_purpose() -> None:
    """The 2♦ and both jokers are spades for every purpose (following, trumping, breaking)."""
    rules = jjdd()
    assert {rules.effective_suit(c) for c in ("2D", "BJ", "LJ")} == {spadeskit.Suit.SPADES}
    assert rules.trick_winner([(0, "AD"), (1, "KD"), (2, "2D")]) == 2


def test_other_suits_run_ace_high_down_to_3() -> None:
    """Hearts, clubs, diamonds: A high … 3 low."""
    rules = jjdd()
    for suit in "CDH":
        assert rules.trick_winner([(0, "3" + suit), (1, "A" + suit), (2, "K" + suit)]) == 1


def test_2d_cannot_follow_a_diamond_lead() -> None:
    """The 2♦ is a spade for following: it cannot follow a diamond lead."""
    game = play_cards(
        bid_all(jjdd().new_game(deal=DIAMOND_LEAD), [Bid(4), Bid(4), Bid(0), Bid(0)]), ["AD"]
    )
    assert game.legal_actions() == (Play("3D"),)
    with pytest.raises(IllegalAction, match="must follow the led suit"):
        game.apply(Play("2D"))


def test_2d_breaks_spades() -> None:
    """The 2♦ is a spade for breaking: once played, spades may be led."""
    game = bid_all(jjdd().new_game(deal=DEUCE_BREAKS), [Bid(4), Bid(4), Bid(0), Bid(0)])
    assert Play("BJ") not in game.legal_actions()
    game = play_cards(game, ["AH", "2D", "3D", "3H"])
    assert game.hand.tricks[0].winner == 1
    assert Play("3S") in game.legal_actions()


def test_board_minimum_the_second_partner_brings_the_team_to_4() -> None:
    """The team bid must be at least 4 ("board"); the second partner to speak must bring
    the team to 4 or more."""
    game = jjdd().new_game(seed=1)
    assert game.legal_actions() == tuple(Bid(n) for n in range(0, 14))
    game = bid_all(game, [Bid(1), Bid(0)])
    assert game.legal_actions() == tuple(Bid(n) for n in range(3, 13))
    with pytest.raises(IllegalAction, match="bid 2 by seat 2"):
        game.apply(Bid(2))
    game = game.apply(Bid(3))
    assert game.legal_actions() == tuple(Bid(n) for n in range(4, 14))


def test_no_nil_unless_the_option_allows_it() -> None:
    """No nil (option: allow nil ±100)."""
    assert spadeskit.Nil() not in jjdd().new_game(seed=1).legal_actions()
    rules = jjdd(nil=True)
    assert spadeskit.Nil() in rules.new_game(seed=1).legal_actions()
    assert [
        ln.text
        for ln in rules.score_hand(bids=["nil", 4, 5, 0], books=[0, 5, 6, 2]).lines
        if ln.side == 0
    ] == ["N nil, took 0: +100", "N/S bid 5, took 6: +50, 1 bag (+1)"]


def test_made_scores_10_per_book_bid_and_sandbags_1_each() -> None:
    """Made: +10 per book bid; sandbags (option, on): +1 per book over the bid."""
    score = jjdd().score_hand(bids=[3, 2, 3, 2], books=[4, 2, 3, 4])
    assert texts_of(score) == [
        "N/S bid 6, took 7: +60, 1 bag (+1)",
        "E/W bid 4, took 6: +40, 2 bags (+2)",
    ]
    assert score.points == (61, 42)
    off = jjdd(sandbags=False).score_hand(bids=[3, 2, 3, 2], books=[4, 2, 3, 4])
    assert off.points == (60, 40) and off.bags == (1, 2)


def texts_of(score: spadeskit.HandScore) -> list[str]:
    return [line.text for line in score.lines]


def test_bid_of_10_or_more_scores_double_either_way() -> None:
    """A bid of 10 or more scores double (10 → ±200, 11 → ±220 …) either way."""
    rules = jjdd()
    assert rules.score_hand(bids=[5, 2, 5, 2], books=[5, 2, 5, 1]).points[0] == 200
    assert rules.score_hand(bids=[5, 2, 5, 2], books=[5, 3, 4, 1]).points[0] == -200
    assert rules.score_hand(bids=[6, 2, 5, 2], books=[6, 2, 5, 0]).points[0] == 220
    assert rules.score_hand(bids=[6, 2, 5, 2], books=[5, 2, 5, 1]).points[0] == -220


def test_set_scores_minus_10_per_book_bid() -> None:
    """Set: −10 per book bid."""
    score = jjdd().score_hand(bids=[3, 2, 3, 2], books=[2, 4, 3, 4])
    assert score.lines[0].text == "N/S bid 6, took 5: set, -60"


def test_double_over_scores_minus_the_bid_and_its_books_still_count_as_sandbags() -> None:
    """Double over: a team that takes at least twice its bid scores −10×bid for the hand;
    its books over the bid still count toward the sandbag penalty."""
    score = jjdd().score_hand(bids=[2, 5, 2, 4], books=[4, 2, 4, 3], bags=(5, 0))
    assert score.lines[0].text == "N/S bid 4, took 8: double over, -40, 4 sandbags"
    assert score.points[0] == -40 and score.bags[0] == 9
    assert jjdd(double_over=False).score_hand(bids=[2, 5, 2, 4], books=[4, 2, 4, 3]).points[0] == 44


def test_sandbag_penalty_each_10_books_over_the_bids_costs_100() -> None:
    """Sandbag penalty (option, on): each 10 books accumulated over the bids → −100."""
    score = jjdd().score_hand(bids=[2, 2, 2, 2], books=[4, 2, 3, 4], bags=(8, 0))
    assert "N/S reached 10 sandbags: -100" in texts_of(score) and score.bags[0] == 1
    off = jjdd(sandbag_penalty=False).score_hand(bids=[2, 2, 2, 2], books=[4, 2, 3, 4], bags=(8, 0))
    assert off.bags[0] == 11 and not any("reached" in t for t in texts_of(off))


def test_boston_bid_13_take_13_wins_at_once() -> None:
    """Boston: a team that bids 13 and takes all 13 wins the match at once."""
    game = bid_all(jjdd().new_game(deal=BOSTON), [Bid(13), Bid(4), Bid(0), Bid(0)])
    game = play_out(game)
    assert game.is_over and game.winner == 0 and "Boston" in game.match.end.reason  # type: ignore[union-attr]


def test_boston_bid_13_take_fewer_loses_at_once() -> None:
    """A team that bids 13 and takes fewer loses it at once."""
    game = bid_all(jjdd().new_game(deal=BOSTON), [Bid(4), Bid(13), Bid(0), Bid(0)])
    game = play_out(game)
    assert game.is_over and game.winner == 0 and "automatic loss" in game.match.end.reason  # type: ignore[union-attr]


def _result(number: int, bids: list[int], books: list[int]) -> HandResult:
    return HandResult(
        number,
        3,
        tuple(Bid(b) for b in bids),
        tuple(books),
        (ScoreLine(0, 0, ""),),
        (0, 0),
        (0, 0),
        (0, 0),
    )


def test_a_team_set_three_hands_in_a_row_loses() -> None:
    """Match ends when a team is set three hands in a row (it loses)."""
    rules = jjdd()
    set_ns = _result(0, [4, 2, 4, 2], [3, 4, 3, 3])
    made_ns = _result(1, [2, 2, 2, 2], [3, 4, 3, 3])

    def end(results: list[HandResult]) -> spadeskit.MatchEnd | None:
        match = MatchState((0, 0), (0, 0), tuple(results), (), None, FrozenMap())
        return rules.hook.spadeskit_match_end(
            match=match, result=results[-1], table=rules.table, options=rules.options
        )

    assert end([set_ns, set_ns]) is None
    assert end([set_ns, made_ns, set_ns, set_ns]) is None
    finished = end([made_ns, set_ns, set_ns, set_ns])
    assert (
        finished is not None and finished.winner == 1 and "three hands in a row" in finished.reason
    )


def test_target_is_an_option() -> None:
    """Match ends when a team reaches the target (500) (option: 300, 350 …)."""
    game = bid_all(jjdd(target=40).new_game(deal=BOSTON), [Bid(7), Bid(4), Bid(0), Bid(0)])
    game = play_out(game)
    assert game.scores == (76, -40) and game.is_over and game.winner == 0
    assert not play_out(
        bid_all(jjdd().new_game(deal=BOSTON), [Bid(7), Bid(4), Bid(0), Bid(0)])
    ).is_over


def test_first_lead_left_of_the_dealer_or_the_winner_of_the_last_book() -> None:
    """First lead of each hand: left of the dealer (option: the winner of the previous
    hand's last book)."""
    for option, expect_last in (("left-of-dealer", False), ("last-book", True)):
        game = play_out(bid_all(jjdd(first_lead=option).new_game(seed=12), [Bid(2)] * 4))
        last = game.hand_results[0].last_trick_winner
        game = bid_all(game, [Bid(2)] * 4)
        assert game.hand.contract is not None
        expected = last if expect_last else (game.hand.dealer + 1) % 4
        assert game.hand.contract.leader == expected and game.to_act == expected


def test_misdeal_a_short_hand_may_be_declared_the_hand_is_void_and_the_deal_passes() -> None:
    """Misdeal: when a deal is entered and a player does not hold exactly 13, any player
    may declare a misdeal: the hand is void, nothing is scored, and the deal passes."""
    deal = [" ".join(h.split()[:-1]) for h in BOSTON]
    deal[0] = BOSTON[0] + " " + " ".join(h.split()[-1] for h in BOSTON[1:])
    game = jjdd().new_game(deal=deal, dealer=3)
    assert [len(game.cards(s)) for s in range(4)] == [16, 12, 12, 12]
    assert all(game.legal_actions(s) == (DeclareMisdeal(),) for s in range(4))
    with pytest.raises(IllegalAction):
        game.apply(Bid(4))
    game = game.apply(DeclareMisdeal(), 2)
    result = game.hand_results[0]
    assert result.void and "misdeal declared by S" in result.note and result.lines == ()
    assert game.scores == (0, 0) and game.hand.dealer == 0 and game.hand.number == 1
    assert spadeskit.replay(game.to_record()) == game
    with pytest.raises(DealError, match="is dealt 16 cards"):
        spadeskit.load_rules("standard").new_game(
            deal=[h.replace("BJ", "2C").replace("LJ", "2H") for h in deal]
        )


def test_strict_enforcement_rejects_a_renege() -> None:
    """Enforcement strict (default) rejects a card that fails to follow suit."""
    game = play_cards(
        bid_all(jjdd().new_game(deal=DIAMOND_LEAD), [Bid(4), Bid(4), Bid(0), Bid(0)]), ["AD"]
    )
    with pytest.raises(IllegalAction):
        game.apply(Play("2D"))
    assert CallRenege(1) not in game.legal_actions(0)


def _reneged() -> spadeskit.GameState:
    """E reneges in trick 1 (2♦ on a diamond lead while holding the 3♦), table mode."""
    game = bid_all(
        jjdd(enforcement="table").new_game(deal=DIAMOND_LEAD), [Bid(4), Bid(4), Bid(0), Bid(0)]
    )
    return play_cards(game, ["AD", "2D", "2S", "BJ"])


def test_table_enforcement_accepts_a_renege_and_no_view_reveals_it() -> None:
    """Table accepts it and records a renege, visible to nobody."""
    game = _reneged()
    assert len(game.hand.breaches) == 1 and game.hand.breaches[0].seat == 1
    for seat in [0, 1, 2, 3, None]:
        text = json.dumps(game.view(seat).to_json()).lower()
        assert "reneged" not in text and "breach" not in text
    assert [a for a in game.legal_actions(0) if isinstance(a, CallRenege)] == [CallRenege(1)]


def test_renege_called_right_the_offenders_lose_3_books_to_the_callers() -> None:
    """Right: the offending team loses 3 books to the callers."""
    game = _reneged()
    assert CallRenege(1) in game.legal_actions(0) and CallRenege(1) in game.legal_actions(2)
    game = game.apply(CallRenege(1), 2)
    assert CallRenege(1) not in game.legal_actions(0)
    game = play_out(game)
    result = game.hand_results[0]
    assert texts(result)[:2] == [
        "E/W reneged in trick 1: 3 books owed to N/S",
        "net: E/W give 3 books to N/S",
    ]
    assert result.lines[0].points == result.lines[1].points == 0


def test_renege_called_wrong_the_callers_lose_3_books() -> None:
    """Wrong trick, or no renege: the callers lose 3 books to the other team."""
    game = _reneged()
    game = game.apply(CallRenege(1), 1)
    game = play_out(game)
    assert "E/W called a renege in trick 1 wrongly: 3 books owed to N/S" in texts(
        game.hand_results[0]
    )


def test_books_lost_are_limited_to_the_books_the_team_holds() -> None:
    """Books lost are limited to the books the team holds at the end of the hand."""
    rules = jjdd(enforcement="table")
    game = bid_all(rules.new_game(deal=BOSTON), [Bid(4), Bid(4), Bid(0), Bid(0)])
    game = game.apply(TableTalk(1), REFEREE)
    game = play_out(game)
    assert texts(game.hand_results[0])[:2] == [
        "E/W talked across the board: 3 books owed to N/S",
        "net: E/W give 0 books to N/S (all they hold of 3 owed)",
    ]


def test_after_the_last_trick_each_team_may_call_or_accept_before_scoring() -> None:
    """After the last trick there is a review step in which each team may call or accept."""
    game = _reneged()
    while game.phase is Phase.PLAY:
        game = game.apply([a for a in game.legal_actions() if isinstance(a, Play)][0])
    assert game.phase is Phase.REVIEW and game.to_act == 0
    assert Accept() in game.legal_actions() and CallRenege(13) in game.legal_actions()
    game = game.apply(Accept())
    assert game.phase is Phase.REVIEW and game.to_act == 1
    clean = next(
        t
        for t in range(1, 14)
        if all(b.trick != t - 1 or b.seat in (1, 3) for b in game.hand.breaches)
    )
    game = game.apply(CallRenege(clean))
    assert game.phase is Phase.REVIEW and game.to_act == 1  # a call does not end the team's review
    assert CallRenege(clean) not in game.legal_actions() and Accept() in game.legal_actions()
    game = game.apply(Accept())
    assert f"E/W called a renege in trick {clean} wrongly: 3 books owed to N/S" in texts(
        game.hand_results[0]
    )


def test_table_talk_the_referee_takes_3_books_from_the_offending_team() -> None:
    """Table talk: a referee action naming the offending team; it loses 3 books to the opponents."""
    game = bid_all(jjdd().new_game(deal=BOSTON), [Bid(4), Bid(4), Bid(0), Bid(0)])
    assert TableTalk(0) in game.legal_actions(REFEREE)
    with pytest.raises(IllegalAction):
        game.apply(TableTalk(0), 0)
    game = play_out(game.apply(TableTalk(0), REFEREE))
    result = game.hand_results[0]
    assert texts(result)[:2] == [
        "N/S talked across the board: 3 books owed to E/W",
        "net: N/S give 3 books to E/W",
    ]
    assert "N/S bid 4, took 10: double over, -40, 6 sandbags" in texts(result)
    assert "E/W bid 4, took 3: set, -40" in texts(result)


def test_table_talk_repeated_rulings_add_up_in_one_line() -> None:
    """Table talk, ruled again against the same team: each ruling costs 3 more books; the
    hand keeps one transfer per team (so any number of rulings replays in linear time)."""
    game = bid_all(jjdd().new_game(deal=BOSTON), [Bid(4), Bid(4), Bid(0), Bid(0)])
    for side in (0, 1, 0, 0):
        game = game.apply(TableTalk(side), REFEREE)
    assert [(t.from_side, t.books) for t in game.hand.transfers] == [(0, 9), (1, 3)]
    result = play_out(game).hand_results[0]
    assert texts(result)[:3] == [
        "N/S talked across the board 3 times: 9 books owed to E/W",
        "E/W talked across the board: 3 books owed to N/S",
        "net: N/S give 6 books to E/W",
    ]


def test_transfers_are_netted_before_the_cap_so_the_order_of_rulings_never_matters() -> None:
    """Transfers settle at scoring, all together: the books each team owes the other are
    netted first, and only the net amount is limited to the books the paying team holds."""
    rules = jjdd(enforcement="table")
    start = bid_all(rules.new_game(deal=BOSTON), [Bid(4), Bid(4), Bid(0), Bid(0)])
    one = play_out(
        start.apply(TableTalk(0), REFEREE).apply(TableTalk(1), REFEREE).apply(TableTalk(1), REFEREE)
    )
    other = play_out(
        start.apply(TableTalk(1), REFEREE).apply(TableTalk(0), REFEREE).apply(TableTalk(1), REFEREE)
    )
    # E/W take no book: they owe 6, N/S owe 3, so E/W owe 3 net and can give none.
    assert one.hand_results[0].points == other.hand_results[0].points
    assert one.hand_results[0].scores == other.hand_results[0].scores
    assert "net: E/W give 0 books to N/S (all they hold of 3 owed)" in texts(one.hand_results[0])
    assert "N/S bid 4, took 13: double over, -40, 9 sandbags" in texts(one.hand_results[0])


def test_a_team_may_call_any_number_of_tricks_each_trick_once() -> None:
    """A team may call any number of tricks, each trick once."""
    game = _reneged()
    while len(game.hand.tricks) < 3:
        game = game.apply([a for a in game.legal_actions() if isinstance(a, Play)][0])
    calls = [a for a in game.legal_actions(0) if isinstance(a, CallRenege)]
    assert calls == [CallRenege(1), CallRenege(2), CallRenege(3)]
    game = game.apply(CallRenege(2), 0).apply(CallRenege(3), 2)
    assert [a for a in game.legal_actions(0) if isinstance(a, CallRenege)] == [CallRenege(1)]
    assert [a for a in game.legal_actions(1) if isinstance(a, CallRenege)] == calls
    with pytest.raises(IllegalAction):
        game.apply(CallRenege(2), 2)


def test_table_mode_accepts_a_spade_led_before_spades_are_broken_as_a_callable_breach() -> None:
    """Table mode also accepts (as a secret breach that can be called) a spade led before
    spades are broken."""
    strict = bid_all(jjdd().new_game(deal=BOSTON, dealer=0), [Bid(4)] * 4)
    assert strict.to_act == 1  # E leads, holding hearts and the 5S
    with pytest.raises(IllegalAction, match="may not be led until broken"):
        strict.apply(Play("5S"))
    table = bid_all(jjdd(enforcement="table").new_game(deal=BOSTON, dealer=0), [Bid(4)] * 4)
    game = table.apply(Play("5S"))  # accepted, and recorded as a secret breach
    assert [(b.seat, b.rule) for b in game.hand.breaches] == [(1, "break-spades")]
    assert "break" not in json.dumps(game.view(2).to_json())
    game = play_cards(game, ["4S", "3S", "6S"])
    result = play_out(game.apply(CallRenege(1), 0)).hand_results[0]
    assert "E/W reneged in trick 1: 3 books owed to N/S" in texts(result)


def test_nil_books_never_count_toward_the_bid_and_always_count_as_sandbags() -> None:
    """Nil (when the option allows it): as in standard, the nil bidder's books never
    count toward the partner's bid and always count as sandbags."""
    rules = jjdd(nil=True)
    made = rules.score_hand(bids=[Bid(4), Bid(5), "nil", Bid(5)], books=[4, 5, 1, 3])
    assert made.points[0] == 40 + 1 - 100 and made.bags[0] == 1
    set_ = rules.score_hand(bids=[Bid(5), Bid(5), "nil", Bid(5)], books=[4, 5, 1, 3])
    assert set_.points[0] == -50 - 100 and set_.bags[0] == 1


def test_a_failed_boston_counts_first_when_both_teams_lose_outright_in_one_hand() -> None:
    """If several sides lose outright in one hand, the loss decided by that hand's own
    contract (a failed Boston) counts first."""
    rules = jjdd()
    set_ns = _result(0, [4, 2, 4, 2], [3, 4, 3, 3])
    boston_ew = _result(3, [2, 7, 2, 6], [3, 4, 3, 3])  # N/S set again; E/W bid 13, took 7
    match = MatchState((300, -300), (0, 0), (set_ns, set_ns, boston_ew), (), None, FrozenMap())
    end = rules.hook.spadeskit_match_end(
        match=match, result=boston_ew, table=rules.table, options=rules.options
    )
    assert end is not None and end.winner == 0 and "automatic loss" in end.reason


def test_an_outright_loss_beats_reaching_the_target() -> None:
    """A side that loses outright (a failed Boston) loses even if another side reached
    the target in the same hand... and a side that fails a Boston having reached the
    target still loses."""
    rules = jjdd(target=100)
    boston_ns = _result(0, [7, 2, 6, 2], [4, 3, 5, 1])
    match = MatchState((500, 20), (0, 0), (boston_ns,), (), None, FrozenMap())
    end = rules.hook.spadeskit_match_end(
        match=match, result=boston_ns, table=rules.table, options=rules.options
    )
    assert end is not None and end.winner == 1
