"""Standard Spades, one test per ruling of RULINGS.md "Common" and "standard".

Each test is named after the ruling it checks; the docstring quotes it.
"""

from __future__ import annotations

from typing import Any

import pytest

import spadeskit
from spadeskit import Bid, IllegalAction, Nil, Phase, Play
from spadeskit.arena import play_match
from spadeskit.bots import SimpleBot
from tests.conftest import bid_all, play_cards, play_out, suit_hands

# N holds a spade and twelve hearts, E the AH and clubs, S the AC and diamonds,
# W the AD and twelve spades: trick one tests following, trumping and breaking.
MIXED = [
    "AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "AH 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    "AC 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    "AD 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
]
FOUR_ONES = [Bid(1)] * 4


def test_52_cards_13_each_dealt_from_the_seed(standard: spadeskit.Rules) -> None:
    """52 cards, 13 each."""
    game = standard.new_game(seed=11)
    hands = [game.cards(s) for s in range(4)]
    assert [len(h) for h in hands] == [13] * 4
    assert len({c for h in hands for c in h}) == 52


def test_first_dealer_default_seat_3_so_seat_0_bids_and_leads_first(
    standard: spadeskit.Rules,
) -> None:
    """The first dealer is chosen by the caller (default seat 3, so seat 0 bids and leads first)."""
    game = standard.new_game(seed=1)
    assert game.hand.dealer == 3 and game.to_act == 0
    game = bid_all(game, FOUR_ONES)
    assert game.phase is Phase.PLAY and game.to_act == 0


def test_bidding_and_play_go_clockwise_starting_left_of_the_dealer(
    standard: spadeskit.Rules,
) -> None:
    """Bidding and play go clockwise, starting left of the dealer."""
    game = standard.new_game(seed=1, dealer=1)
    order = []
    for bid in FOUR_ONES:
        order.append(game.to_act)
        game = game.apply(bid)
    assert order == [2, 3, 0, 1]
    plays = []
    for _ in range(3):
        plays.append(game.to_act)
        game = game.apply(game.legal_actions()[0])
    assert plays == [2, 3, 0]


def test_dealer_rotates_clockwise_each_hand(standard: spadeskit.Rules) -> None:
    """The dealer rotates clockwise each hand."""
    game = standard.new_game(seed=5, dealer=2)
    dealers = [game.hand.dealer]
    for _ in range(3):
        game = play_out(bid_all(game, FOUR_ONES))
        dealers.append(game.hand.dealer)
    assert dealers == [2, 3, 0, 1]


def test_the_winner_of_a_trick_leads_the_next(standard: spadeskit.Rules) -> None:
    """The winner of a trick leads the next."""
    game = bid_all(standard.new_game(deal=MIXED), FOUR_ONES)
    game = play_cards(game, ["2H", "AH", "2D", "2S"])
    assert game.hand.tricks[0].winner == 3
    assert game.to_act == 3 and game.hand.leader == 3


def test_must_follow_the_led_suit_if_able(standard: spadeskit.Rules) -> None:
    """A player must follow the led suit if able."""
    game = play_cards(bid_all(standard.new_game(deal=MIXED), FOUR_ONES), ["2H"])
    assert game.legal_actions() == (Play("AH"),)
    with pytest.raises(IllegalAction, match="must follow the led suit"):
        game.apply(Play("2C"))


def test_otherwise_any_card(standard: spadeskit.Rules) -> None:
    """A player who cannot follow may play any card, a spade included."""
    game = play_cards(bid_all(standard.new_game(deal=MIXED), FOUR_ONES), ["2H", "AH"])
    assert len(game.legal_actions()) == 13


def test_spades_may_not_be_led_until_broken(standard: spadeskit.Rules) -> None:
    """Spades may not be led until broken (a spade has been played in this hand)."""
    game = bid_all(standard.new_game(deal=MIXED), FOUR_ONES)
    assert Play("AS") not in game.legal_actions()
    with pytest.raises(IllegalAction, match="may not be led until broken"):
        game.apply(Play("AS"))


def test_a_spade_played_on_another_suit_breaks_spades(standard: spadeskit.Rules) -> None:
    """Once a spade has been played in the hand, spades may be led."""
    game = bid_all(standard.new_game(deal=MIXED), FOUR_ONES)
    game = play_cards(game, ["2H", "AH", "2D", "2S"])
    assert Play("3S") in game.legal_actions()


def test_spades_may_be_led_when_the_leader_holds_only_spades(standard: spadeskit.Rules) -> None:
    """... unless the leader holds only spades."""
    game = bid_all(standard.new_game(deal=suit_hands(), dealer=2), FOUR_ONES)
    assert game.to_act == 3
    assert len(game.legal_actions()) == 13


def test_spades_always_trump_and_the_highest_spade_wins(standard: spadeskit.Rules) -> None:
    """Spades always trump: the highest spade wins, else the highest card of the led suit."""
    assert standard.trick_winner([(0, "KH"), (1, "AH"), (2, "2S"), (3, "3S")]) == 3
    assert standard.trick_winner([(0, "KH"), (1, "AH"), (2, "AD"), (3, "QH")]) == 1
    assert standard.trick_winner([(0, "2C"), (1, "AD"), (2, "AH"), (3, "3C")]) == 3


def test_ace_is_high_in_every_suit(standard: spadeskit.Rules) -> None:
    """52 cards, A high."""
    for suit in "CDHS":
        assert standard.trick_winner([(0, "K" + suit), (1, "A" + suit), (2, "2" + suit)]) == 1


def test_each_player_bids_0_to_13_and_0_is_nil(standard: spadeskit.Rules) -> None:
    """Each player bids 0–13; 0 is nil."""
    game = standard.new_game(seed=3)
    assert game.legal_actions() == (Nil(),) + tuple(Bid(n) for n in range(1, 14))
    with pytest.raises(IllegalAction, match="allowed"):
        game.apply(Bid(14))
    with pytest.raises(IllegalAction, match=r"use Nil\(\)"):
        game.apply(Bid(0))


def test_team_contract_is_the_sum_of_the_partners_non_nil_bids(standard: spadeskit.Rules) -> None:
    """Team contract = sum of the partners' non-nil bids."""
    score = standard.score_hand(bids=[3, 1, 4, 1], books=[4, 1, 3, 5])
    assert score.lines[0].text.startswith("N/S bid 7, took 7")
    assert score.points == (70, 20 + 4)


def test_made_scores_10_per_contracted_trick_and_1_per_bag(standard: spadeskit.Rules) -> None:
    """Made: +10 per contracted trick, +1 per overtrick (bag)."""
    score = standard.score_hand(bids=[3, 2, 4, 2], books=[4, 2, 4, 3])
    assert score.lines[0].text == "N/S bid 7, took 8: +70, 1 bag (+1)"
    assert score.points[0] == 71 and score.bags[0] == 1


def test_set_scores_minus_10_per_contracted_trick_and_no_bags(standard: spadeskit.Rules) -> None:
    """Set: −10 per contracted trick, no bags."""
    score = standard.score_hand(bids=[5, 2, 4, 2], books=[4, 4, 4, 1])
    assert score.lines[0].text == "N/S bid 9, took 8: set, -90"
    assert score.points[0] == -90 and score.bags[0] == 0


def test_nil_scores_plus_100_when_the_nil_bidder_takes_no_trick(standard: spadeskit.Rules) -> None:
    """Nil: +100 if the nil bidder takes no trick, scored beside the partner's contract."""
    score = standard.score_hand(bids=["nil", 3, 4, 3], books=[0, 4, 5, 4])
    assert [ln.text for ln in score.lines if ln.side == 0] == [
        "N/S bid 4, took 5: +40, 1 bag (+1)",
        "N nil, took 0: +100",
    ]
    assert score.points[0] == 141


def test_nil_tricks_never_count_toward_the_contract_always_bags_scored_only_when_made(
    standard: spadeskit.Rules,
) -> None:
    """Nil −100 otherwise.  Tricks a nil bidder takes never count toward the partner's
    contract; they always add to the side's bag counter, and score +1 each only when
    the side's contract is made (a set contract scores no bag points at all)."""
    score = standard.score_hand(bids=[Nil(), 3, Bid(4), 3], books=[1, 5, 3, 4])
    assert [ln.text for ln in score.lines if ln.side == 0] == [
        "N/S bid 4, took 3: set, -40",
        "N nil, took 1: -100, 1 bag (contract set: +0)",
    ]
    assert score.points[0] == -140 and score.bags[0] == 1
    made = standard.score_hand(bids=[Nil(), 3, Bid(4), 3], books=[1, 5, 4, 3])
    assert made.points[0] == -100 + 40 + 1 and made.bags[0] == 1


def test_nil_tricks_option_partner_counts_them_toward_the_contract() -> None:
    """Option ``nil_tricks``: ``partner`` (they count toward the partner's contract)."""
    rules = spadeskit.load_rules("standard", options={"nil_tricks": "partner"})
    score = rules.score_hand(bids=[Nil(), 3, Bid(4), 3], books=[1, 5, 3, 4])
    assert score.points[0] == 40 - 100 and score.bags[0] == 0
    over = rules.score_hand(bids=[Nil(), 3, Bid(4), 3], books=[2, 4, 3, 4])
    assert over.points[0] == 40 + 1 - 100 and over.bags[0] == 1


def test_nil_tricks_option_none_neither_bags_nor_contract() -> None:
    """Option ``nil_tricks``: ``none`` (neither bags nor contract)."""
    rules = spadeskit.load_rules("standard", options={"nil_tricks": "none"})
    score = rules.score_hand(bids=[Nil(), 3, Bid(4), 3], books=[1, 5, 4, 3])
    assert score.points[0] == 40 - 100 and score.bags[0] == 0
    with pytest.raises(spadeskit.OptionError, match="nil_tricks"):
        spadeskit.load_rules("standard", options={"nil_tricks": "sometimes"})


@pytest.mark.parametrize(
    ("bids", "books", "before", "bags", "after"),
    [
        ([3, 1, 2, 1], [4, 1, 3, 5], 337, 7, 389),
        ([3, 1, 2, 1], [5, 1, 3, 4], 337, 7, 290),
        (["nil", 4, 4, 4], [1, 4, 4, 4], 0, 0, -59),
        ([4, 5, 5, "nil"], [5, 3, 5, 0], 0, 0, 91),
    ],
)
def test_worked_examples_that_must_hold(
    standard: spadeskit.Rules, bids: list[Any], books: list[int], before: int, bags: int, after: int
) -> None:
    """The worked examples (side N/S, bag counter before the hand given)."""
    score = standard.score_hand(bids=bids, books=books, scores=[before, 0], bags=[bags, 0])
    assert score.scores[0] == after


def test_both_partners_nil_each_scored_and_every_trick_a_bag(standard: spadeskit.Rules) -> None:
    """Both partners may bid nil; each nil is scored on its own (the team contract is then
    0 and every trick the team takes is a bag)."""
    score = standard.score_hand(bids=["nil", 3, "nil", 4], books=[2, 5, 0, 6])
    assert [ln.text for ln in score.lines if ln.side == 0] == [
        "N nil, took 2: -100, 2 bags (+2)",
        "S nil, took 0: +100",
    ]
    assert score.points[0] == 2 and score.bags[0] == 2


def test_whole_hand_scores_from_the_card_play(standard: spadeskit.Rules) -> None:
    """A hand played out scores the same way: W trumps every trick of a suit-sorted deal."""
    game = bid_all(standard.new_game(deal=suit_hands()), [Bid(1), Bid(3), Nil(), Bid(4)])
    game = play_out(game)
    result = game.hand_results[0]
    assert result.books == (0, 0, 0, 13)
    assert [ln.text for ln in result.lines] == [
        "N/S bid 1, took 0: set, -10",
        "S nil, took 0: +100",
        "E/W bid 7, took 13: +70, 6 bags (+6)",
    ]
    assert game.scores == (90, 76) and game.bags == (0, 6)


def test_bags_are_a_counter_and_the_penalty_drops_it_by_the_limit(
    standard: spadeskit.Rules,
) -> None:
    """Bags are kept as a counter; each time it reaches the limit (10) the penalty (−100)
    applies and the counter drops by the limit."""
    score = standard.score_hand(bids=[3, 2, 4, 2], books=[5, 1, 6, 1], scores=(200, 0), bags=(8, 0))
    assert score.lines[1].text == "N/S reached 10 bags: -100"
    assert score.bags[0] == 2 and score.scores[0] == 200 + 74 - 100


def test_bags_work_with_negative_scores(standard: spadeskit.Rules) -> None:
    """Bags are kept as a counter, not in the last digit of the score, so they work with
    negative scores."""
    score = standard.score_hand(
        bids=[3, 2, 4, 2], books=[4, 2, 4, 3], scores=(-151, 0), bags=(9, 0)
    )
    assert score.scores[0] == -151 + 71 - 100 and score.bags[0] == 0


def test_bag_penalty_is_applied_before_the_end_is_checked() -> None:
    """The bag penalty is applied before the end is checked."""
    rules = spadeskit.load_rules("standard", options={"target": 70, "bag_limit": 5})
    game = play_out(bid_all(rules.new_game(deal=suit_hands()), [Bid(1), Bid(3), Bid(1), Bid(4)]))
    assert game.scores == (-20, 76 - 100)
    assert not game.is_over


def test_several_sides_at_the_target_the_highest_wins() -> None:
    """If several sides reach the target, the highest score wins."""
    rules = spadeskit.load_rules("standard", options={"target": 70})
    game = play_out(bid_all(rules.new_game(deal=suit_hands()), [Bid(1), Bid(3), Nil(), Bid(4)]))
    assert game.scores == (90, 76)
    assert game.is_over and game.winner == 0 and game.to_act is None
    assert game.legal_actions() == ()


def test_an_exact_tie_at_the_top_plays_another_hand() -> None:
    """An exact tie at the top plays another hand."""
    rules = spadeskit.load_rules("standard", options={"target": 70, "nil_value": 86})
    game = play_out(bid_all(rules.new_game(deal=suit_hands()), [Bid(1), Bid(3), Nil(), Bid(4)]))
    assert game.scores == (76, 76)
    assert not game.is_over and game.hand.number == 1


def test_target_500_by_default(standard: spadeskit.Rules) -> None:
    """Target 500 (option)."""
    assert standard.options["target"] == 500
    end = standard.hook.spadeskit_match_end(
        match=spadeskit.core.state.MatchState(
            (500, 499), (0, 0), (), (), None, spadeskit.core.seating.FrozenMap()
        ),
        result=None,
        table=standard.table,
        options=standard.options,
    )
    assert end is not None and end.winner == 0


def test_a_side_at_or_below_the_floor_loses() -> None:
    """A side at or below −200 (option) loses."""
    rules = spadeskit.load_rules("standard", options={"floor": -20})
    game = play_out(bid_all(rules.new_game(deal=suit_hands()), [Bid(1), Bid(3), Bid(1), Bid(4)]))
    assert game.scores[0] == -20
    assert game.is_over and game.winner == 1
    assert "fell to -20" in game.match.end.reason  # type: ignore[union-attr]


def test_a_whole_match_runs_to_its_end_hand_after_hand(standard: spadeskit.Rules) -> None:
    """A whole match runs to its end, hand after hand, and the scores add up."""
    bots = [SimpleBot(standard) for _ in range(4)]
    game = play_match(standard, bots, seed=2024)
    assert game.is_over and game.winner is not None
    assert len(game.hand_results) >= 1
    for side in range(2):
        assert game.scores[side] == sum(r.points[side] for r in game.hand_results)
        assert all(
            r.points[side] == sum(ln.points for ln in r.lines_for(side)) for r in game.hand_results
        )


def test_when_both_sides_lose_outright_the_higher_score_wins_and_a_tie_plays_on() -> None:
    """If several sides lose outright in one hand (here both fall to the floor), the
    higher score wins and an exact tie plays another hand."""
    rules = spadeskit.load_rules("standard")

    def end(scores: tuple[int, int]) -> spadeskit.MatchEnd | None:
        match = spadeskit.core.state.MatchState(
            scores, (0, 0), (), (), None, spadeskit.core.seating.FrozenMap()
        )
        found: spadeskit.MatchEnd | None = rules.hook.spadeskit_match_end(
            match=match, result=None, table=rules.table, options=rules.options
        )
        return found

    won = end((-210, -250))
    assert won is not None and won.winner == 0
    assert end((-250, -250)) is None


def test_with_a_seed_the_deal_of_hand_i_depends_only_on_seed_and_i() -> None:
    """Determinism: with a seed, the deal of hand i depends only on (seed, i), whatever
    was played before it; different seeds (s and -s too) deal differently."""
    rules = spadeskit.load_rules("standard", options={"floor": None})
    one = rules.new_game(seed=9).rollout(seed=1).rollout(seed=2)
    other = rules.new_game(seed=9).rollout(seed=3).rollout(seed=4)
    assert one.hand_results != other.hand_results  # different play ...
    assert one.number == other.number == 2 and one.hands == other.hands  # ... same deal of hand 2
    assert rules.new_game(seed=9).hands != rules.new_game(seed=-9).hands
    assert rules.new_game(seed=1 << 20).hands != rules.new_game(seed=0).rollout(seed=0).hands
