"""House rules of standard Spades, one test per ruling of RULINGS.md "House rules for
standard" (and the blind-nil ruling under "standard"), then how they compose."""

from __future__ import annotations

import itertools
import json

import pytest

import spadeskit
from spadeskit import (
    Bid,
    BlindNil,
    Exchange,
    IllegalAction,
    Nil,
    OptionError,
    Phase,
    Play,
    RuleConflict,
    SeeCards,
)
from spadeskit.core.cards import parse_card
from tests.conftest import bid_all, play_cards, play_out, shipped

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def cards(suit: str, ranks: list[str]) -> str:
    return " ".join(r + suit for r in ranks)


HOUSE_RULES = shipped("house-rule")
FOUR_ONES = [Bid(1)] * 4

# N: 13 hearts; E: 7 clubs + 6 spades; S: 13 diamonds; W: 6 clubs + 7 spades.
VOID_WITH_SPADES = [
    cards("H", RANKS),
    cards("C", RANKS[:7]) + " " + cards("S", RANKS[:6]),
    cards("D", RANKS),
    cards("C", RANKS[7:]) + " " + cards("S", RANKS[6:]),
]
# N: 13 hearts; E: 13 spades; S: 13 diamonds; W: 13 clubs.
SPADES_ONLY = [cards("H", RANKS), cards("S", RANKS), cards("D", RANKS), cards("C", RANKS)]
# N: 6 spades + 7 hearts; the rest spread so that every seat has several suits.
SPADE_LEADER = [
    cards("S", RANKS[:6]) + " " + cards("H", RANKS[:7]),
    cards("S", RANKS[6:]) + " " + cards("H", RANKS[7:]),
    cards("D", RANKS),
    cards("C", RANKS),
]


def rules(*house: str, **options: object) -> spadeskit.Rules:
    return spadeskit.load_rules("standard", house, options)


# ---------------------------------------------------------------------------------------
# no-trump-first-trick
# ---------------------------------------------------------------------------------------


def test_no_trump_first_trick_no_spade_may_be_played_to_the_first_trick() -> None:
    """no-trump-first-trick: no spade may be played to the first trick ..."""
    game = bid_all(rules("no-trump-first-trick").new_game(deal=VOID_WITH_SPADES), FOUR_ONES)
    game = game.apply(Play("2H"))
    assert all(
        spadeskit.core.cards.card_at(i).suit is not spadeskit.Suit.SPADES
        for i in spadeskit.core.cards.iter_mask(game.rules.engine.tricks.legal_mask(game))
    )
    with pytest.raises(IllegalAction, match="no spade may be played to the first trick"):
        game.apply(Play("2S"))
    standard = bid_all(rules().new_game(deal=VOID_WITH_SPADES), FOUR_ONES).apply(Play("2H"))
    assert standard.apply(Play("2S")).hand.trick[-1] == (1, parse_card("2S").index)


def test_no_trump_first_trick_unless_the_player_holds_nothing_else() -> None:
    """no-trump-first-trick: ... unless the player holds nothing else."""
    game = bid_all(rules("no-trump-first-trick").new_game(deal=SPADES_ONLY), FOUR_ONES)
    game = play_cards(game, ["2H", "2S", "2D", "2C"])
    assert game.hand.tricks[0].winner == 1


def test_no_trump_first_trick_spades_may_trump_from_the_second_trick() -> None:
    """no-trump-first-trick: the restriction ends with the first trick."""
    game = bid_all(rules("no-trump-first-trick").new_game(deal=VOID_WITH_SPADES), FOUR_ONES)
    game = play_cards(game, ["2H", "2C", "2D", "9C", "3H", "2S"])
    assert game.hand.trick[-1] == (1, parse_card("2S").index)


# ---------------------------------------------------------------------------------------
# spades-anytime
# ---------------------------------------------------------------------------------------


def test_spades_anytime_spades_may_be_led_at_any_time() -> None:
    """spades-anytime: spades may be led at any time."""
    with pytest.raises(IllegalAction, match="may not be led until broken"):
        bid_all(rules().new_game(deal=SPADE_LEADER), FOUR_ONES).apply(Play("2S"))
    game = bid_all(rules("spades-anytime").new_game(deal=SPADE_LEADER), FOUR_ONES).apply(Play("2S"))
    assert game.hand.trick == ((0, parse_card("2S").index),)


def test_spades_anytime_keeps_following_suit() -> None:
    """spades-anytime lifts only the lead restriction."""
    game = bid_all(rules("spades-anytime").new_game(deal=SPADE_LEADER), FOUR_ONES).apply(Play("2S"))
    with pytest.raises(IllegalAction, match="follow"):
        game.apply(Play("AH"))


# ---------------------------------------------------------------------------------------
# jokers
# ---------------------------------------------------------------------------------------


def test_jokers_big_joker_beats_little_joker_beats_ace_of_spades() -> None:
    """jokers: adds Big Joker > Little Joker > A♠ as the top spades."""
    r = rules("jokers")
    assert r.trick_winner([(0, "AS"), (1, "LJ"), (2, "BJ"), (3, "KS")]) == 2
    assert r.trick_winner([(0, "AH"), (1, "LJ"), (2, "AS"), (3, "KH")]) == 1
    assert r.effective_suit("BJ") is spadeskit.Suit.SPADES


def test_jokers_the_deck_stays_52_removing_the_2d_and_2c() -> None:
    """jokers: ... removing the 2♦ (option: or the 2♣) so the deck stays 52."""
    r = rules("jokers")
    deck = set(r.table.deck)
    assert len(deck) == 52 and {parse_card("BJ"), parse_card("LJ")} <= deck
    assert parse_card("2D") not in deck and parse_card("2C") not in deck
    other = rules("jokers", jokers_remove="2D 2H")
    assert parse_card("2C") in other.table.deck and parse_card("2H") not in other.table.deck


def test_jokers_remove_option_refuses_a_bad_value() -> None:
    """jokers: the removed cards must be two real cards."""
    for bad in ("2D", "2D 2D", "BJ 2C", "XX 2C", 7):
        with pytest.raises(OptionError, match="jokers_remove"):
            rules("jokers", jokers_remove=bad)


def test_jokers_count_as_spades_for_following_and_breaking() -> None:
    """Spades may not be led until broken — including any card that counts as a spade: jokers."""
    deal = [
        "BJ " + cards("H", RANKS[:12]),
        cards("S", RANKS[:12]) + " LJ",
        cards("D", RANKS[1:]) + " AH",
        cards("C", RANKS[1:]) + " AS",
    ]
    game = bid_all(rules("jokers").new_game(deal=deal), FOUR_ONES)
    with pytest.raises(IllegalAction, match="may not be led until broken"):
        game.apply(Play("BJ"))
    game = play_cards(game, ["2H", "LJ"])  # E has no heart: the joker trumps and breaks spades
    assert game.hand.played & parse_card("LJ").bit


# ---------------------------------------------------------------------------------------
# hidden-bids
# ---------------------------------------------------------------------------------------


def test_hidden_bids_no_view_shows_another_seats_bid_until_all_have_bid() -> None:
    """hidden-bids: bids are sealed; no view shows another seat's bid until all have bid."""
    game = bid_all(rules("hidden-bids").new_game(seed=3), [Bid(3), Bid(5), Bid(2)])
    for seat in (1, 2, 3, None):
        view = game.view(seat)
        assert [b for s, b in enumerate(view.bids) if s != seat] == [None] * (
            3 if seat is not None else 4
        )
        assert '"tricks": 3' not in json.dumps(view.to_json()["bids"])
    assert game.view(1).bids[1] == Bid(5)
    game = game.apply(Bid(4))
    assert game.view(2).bids == (Bid(3), Bid(5), Bid(2), Bid(4))


def test_hidden_bids_without_the_house_rule_bids_are_open() -> None:
    """Without hidden-bids every seat sees the bids made so far."""
    game = bid_all(rules().new_game(seed=3), [Bid(3), Bid(5)])
    assert game.view(2).bids[:2] == (Bid(3), Bid(5))


# ---------------------------------------------------------------------------------------
# boston
# ---------------------------------------------------------------------------------------


def test_boston_a_team_contract_of_13_made_scores_130_plus_bonus() -> None:
    """boston: a team contract of 13 scores +10×13 plus a bonus (100) if made."""
    result = rules("boston").score_hand(bids=[6, 1, 7, 1], books=[6, 0, 7, 0])
    assert result.points == (230, -20)
    assert any("Boston" in line.text for line in result.lines)


def test_boston_and_minus_130_plus_bonus_if_not() -> None:
    """boston: ... and −(130 + bonus) if not."""
    assert rules("boston").score_hand(bids=[6, 1, 7, 1], books=[6, 1, 6, 0]).points == (-230, -20)


def test_boston_with_a_nil_partner_and_the_bonus_option() -> None:
    """boston: the contract is the sum of non-nil bids; the bonus is an option."""
    result = rules("boston", boston_bonus=250).score_hand(
        bids=[13, 1, "nil", 1], books=[13, 0, 0, 0]
    )
    assert result.points == (130 + 250 + 100, -20)


def test_boston_contracts_below_13_are_untouched() -> None:
    """boston applies only to a team contract of 13."""
    assert (
        rules("boston").score_hand(bids=[6, 1, 6, 1], books=[7, 0, 6, 0]).points
        == rules().score_hand(bids=[6, 1, 6, 1], books=[7, 0, 6, 0]).points
    )


# ---------------------------------------------------------------------------------------
# no-bags
# ---------------------------------------------------------------------------------------


def test_no_bags_overtricks_score_nothing() -> None:
    """no-bags: overtricks score nothing ..."""
    result = rules("no-bags").score_hand(bids=[3, 2, 4, "nil"], books=[4, 3, 5, 1])
    assert result.points == (70, 20 - 100)
    assert result.bags == (0, 0)
    assert "no bags" in result.lines[0].text and "bag (" not in result.lines[0].text


def test_no_bags_rewrites_only_the_bag_part_of_a_line() -> None:
    """no-bags: overtricks score nothing ...: the line keeps the variant's own words and
    says so in its bag part, also for a failed nil beside a set contract."""
    plain = rules().score_hand(bids=[0, 4, 5, 4], books=[1, 3, 4, 5]).lines
    lines = rules("no-bags").score_hand(bids=[0, 4, 5, 4], books=[1, 3, 4, 5]).lines
    assert plain[1].text == "N nil, took 1: -100, 1 bag (contract set: +0)"
    assert lines[1].text == "N nil, took 1: -100, 1 overtrick, no bags"
    made = rules("no-bags").score_hand(bids=[3, 2, 4, 4], books=[4, 3, 4, 2]).lines[0]
    assert made.text == "N/S bid 7, took 8: +70, 1 overtrick, no bags"
    assert (made.points, made.bags, made.bag_points) == (70, 0, 0)


def test_no_bags_and_there_is_no_bag_penalty() -> None:
    """no-bags: ... and there is no bag penalty."""
    result = rules("no-bags").score_hand(bids=[1, 1, 1, 1], books=[6, 1, 5, 1], bags=[9, 0])
    assert result.points == (20, 20) and result.bags == (9, 0)
    assert rules().score_hand(bids=[1, 1, 1, 1], books=[6, 1, 5, 1], bags=[9, 0]).points == (
        29 - 100,
        20,
    )


# ---------------------------------------------------------------------------------------
# partnership-nil
# ---------------------------------------------------------------------------------------


def test_partnership_nil_both_succeed_scores_a_bonus_on_top_of_the_two_nils() -> None:
    """partnership-nil: when both partners bid nil and both succeed, the team scores a bonus "
    "(100)."""
    result = rules("partnership-nil").score_hand(bids=["nil", 6, "nil", 7], books=[0, 6, 0, 7])
    assert result.points == (300, 130)


def test_partnership_nil_each_failure_costs_100_as_usual() -> None:
    """partnership-nil: ... each failure costs −100 as usual."""
    r = rules("partnership-nil", partnership_nil_bonus=50)
    assert r.score_hand(bids=["nil", 6, "nil", 7], books=[1, 6, 0, 6]).points == (
        -100 + 1 + 100,
        -130,
    )
    assert r.score_hand(bids=["nil", 6, "nil", 7], books=[0, 6, 0, 7]).points == (250, 130)


# ---------------------------------------------------------------------------------------
# blind-nil
# ---------------------------------------------------------------------------------------


def test_blind_nil_before_seeing_their_cards_the_seat_sees_none() -> None:
    """blind-nil: before seeing their cards, at their bidding turn, a player may bid blind nil."""
    game = rules("blind-nil").new_game(seed=2)
    assert game.view(0).cards == () and game.view(1).cards == ()
    assert set(game.legal_actions()) == {BlindNil(), SeeCards()}
    text = json.dumps(game.view(0).to_json())
    assert not any(json.dumps(c.code) in text for c in game.cards(0))


def test_blind_nil_seeing_the_cards_gives_the_usual_bids() -> None:
    """blind-nil: a player who looks at their cards bids as usual."""
    game = rules("blind-nil").new_game(seed=2).apply(SeeCards())
    assert game.view(0).cards == game.cards(0)
    assert game.legal_actions() == (Nil(),) + tuple(Bid(n) for n in range(1, 14))
    with pytest.raises(IllegalAction):
        game.apply(BlindNil())


def test_blind_nil_any_seat_may_look_before_its_turn() -> None:
    """blind-nil: looking is a choice each seat makes when it likes, before its bid."""
    game = rules("blind-nil").new_game(seed=2).apply(SeeCards(), 2)
    assert game.view(2).cards == game.cards(2) and game.view(1).cards == ()
    assert game.to_act == 0 and SeeCards() not in game.legal_actions(2)


def test_blind_nil_scores_plus_or_minus_200() -> None:
    """blind-nil: ... a player may bid blind nil (±200)."""
    r = rules("blind-nil")
    assert r.score_hand(bids=[BlindNil(), 4, 5, 4], books=[0, 4, 5, 4]).points == (250, 80)
    # N's trick is a bag; S's contract is set, so it scores no point (standard: nil tricks).
    assert r.score_hand(bids=[BlindNil(), 4, 5, 4], books=[1, 4, 4, 4]).points == (-200 - 50, 80)
    assert rules("blind-nil", blind_nil_value=300).score_hand(
        bids=[BlindNil(), 4, 5, 4], books=[0, 4, 5, 4]
    ).points == (350, 80)


def test_blind_nil_owns_its_options() -> None:
    """blind-nil: ... (±200) *(option)*: the option belongs to the house rule, and asking
    plain standard for it names the house rule that has it."""
    with pytest.raises(spadeskit.OptionError, match="house rule 'blind-nil': add 'blind-nil'"):
        rules(blind_nil_value=300)
    with pytest.raises(spadeskit.OptionError, match="blind-nil"):
        rules(blind_nil_trailing=50)
    assert rules("blind-nil").options["blind_nil_trailing"] == 0


def test_blind_nil_partner_passes_2_cards_then_the_bidder_passes_as_many_back() -> None:
    """blind-nil: after all bids, the partner passes 2 cards to the blind nil bidder, who
    then passes as many back."""
    game = rules("blind-nil").new_game(seed=4)
    game = game.apply(BlindNil())
    assert game.view(0).cards == game.cards(0)  # decided: the bidder now sees its cards
    for seat in (1, 2, 3):
        game = game.apply(SeeCards(), seat)
    game = bid_all(game, [Bid(3), Bid(4), Bid(3)])
    assert game.phase is Phase.EXCHANGE and game.to_act == 2
    given = game.cards(2)[:2]
    game = game.apply(Exchange(given))
    assert set(given) <= set(game.cards(0)) and len(game.cards(0)) == 15 and game.to_act == 0
    back = [c for c in game.cards(0) if c not in given][:2]
    with pytest.raises(IllegalAction, match="exactly 2"):
        game.apply(Exchange(back[:1]))
    game = game.apply(Exchange(back))
    assert set(back) <= set(game.cards(2)) and len(game.cards(0)) == len(game.cards(2)) == 13
    assert game.phase is Phase.PLAY and game.to_act == 0


def test_blind_nil_pass_option_0_means_no_exchange() -> None:
    """blind-nil: the partner passes 2 cards (option: 0, 1 or 2)."""
    game = rules("blind-nil", blind_nil_pass=0).new_game(seed=4).apply(BlindNil())
    for seat in (1, 2, 3):
        game = game.apply(SeeCards(), seat)
    game = bid_all(game, [Bid(3), Bid(4), Bid(3)])
    assert game.phase is Phase.PLAY
    with pytest.raises(OptionError, match="blind_nil_pass"):
        rules("blind-nil", blind_nil_pass=3)


def test_blind_nil_both_partners_may_bid_it_and_then_no_cards_are_exchanged() -> None:
    """blind-nil: both partners may bid blind nil; when both do, no cards are exchanged."""
    game = rules("blind-nil").new_game(seed=4).apply(BlindNil()).apply(SeeCards())
    game = game.apply(Bid(3))
    assert game.to_act == 2 and game.legal_actions() == (BlindNil(), SeeCards())
    assert game.view(2).cards == ()  # still undecided: the partner's sealed bid shows nowhere
    game = game.apply(BlindNil()).apply(SeeCards()).apply(Bid(3))
    assert game.phase is Phase.PLAY and len(game.cards(0)) == len(game.cards(2)) == 13
    game = play_out(game)
    lines = [ln for ln in game.hand_results[0].lines if "blind nil" in ln.text]
    assert len(lines) == 2 and all(ln.side == 0 for ln in lines)


def test_blind_nil_only_allowed_when_the_team_trails_by_at_least_n_points() -> None:
    """blind-nil: option, only allowed when the team trails by at least N points."""
    r = rules("blind-nil", blind_nil_trailing=100)
    game = r.new_game(seed=4)
    assert BlindNil() not in game.legal_actions() and game.view(0).cards == game.cards(0)
    game = bid_all(game, [Bid(13), Bid(1), Bid(1), Bid(1)])  # N/S bid 14: certainly set
    game = play_out(game)
    assert game.scores[0] <= game.scores[1] - 100
    assert game.to_act == 1 and BlindNil() not in game.legal_actions()  # E/W lead
    assert game.view(0).cards == () and SeeCards() in game.legal_actions(0)


def test_blind_nil_hand_played_to_the_end_scores_the_blind_nil() -> None:
    """blind-nil: a whole hand with a blind nil is scored with ±200."""
    game = rules("blind-nil").new_game(seed=4).apply(BlindNil())
    for seat in (1, 2, 3):
        game = game.apply(SeeCards(), seat)
    game = bid_all(game, [Bid(3), Bid(4), Bid(3)])
    game = play_out(game)
    result = game.hand_results[0]
    line = next(ln for ln in result.lines if "blind nil" in ln.text)
    took, made = result.books[0], result.books[2] >= 4  # S bid 4; E and W bid 3
    assert line.points == (200 if took == 0 else -200 + (took if made else 0))


# ---------------------------------------------------------------------------------------
# Composition
# ---------------------------------------------------------------------------------------

CONFLICTS = {
    frozenset(("spades-anytime", "no-trump-first-trick")),
    frozenset(("mirror", "whiz")),
    frozenset(("blind-bids", "blind-nil")),
}


@pytest.mark.parametrize("pair", list(itertools.combinations(HOUSE_RULES, 2)), ids="+".join)
def test_every_pair_of_house_rules_loads_or_is_refused_naming_both(pair: tuple[str, str]) -> None:
    """Composition is explicit: a conflicting pair is an error naming both."""
    if frozenset(pair) in CONFLICTS:
        for order in (pair, pair[::-1]):
            with pytest.raises(RuleConflict) as refused:
                rules(*order)
            assert pair[0] in str(refused.value) and pair[1] in str(refused.value)
    else:
        # Registered by declared order, then name (blind-bids: order 200, after the rest).
        assert rules(*pair).house_rules == tuple(
            sorted(pair, key=lambda n: (200 if n == "blind-bids" else 100, n))
        )


def test_declared_conflicts_are_declared_on_both_sides() -> None:
    """Each conflict is declared by both house rules, so the docs list it on both."""
    info = {p.name: p for p in spadeskit.available() if p.name in HOUSE_RULES}
    for pair in CONFLICTS:
        a, b = sorted(pair)
        assert b in info[a].conflicts and a in info[b].conflicts
    declared = {frozenset((p.name, c)) for p in info.values() for c in p.conflicts}
    assert declared == CONFLICTS


@pytest.mark.parametrize(
    "house, variant",
    [
        ("boston", "cutthroat"),
        ("partnership-nil", "two-handed"),
        ("blind-nil", "cutthroat"),
        ("jokers", "two-handed"),
        ("no-bags", "jjdd"),
        ("spades-anytime", "three-suit-trump"),
    ],
)
def test_a_house_rule_on_a_variant_it_does_not_fit_is_refused_naming_both(
    house: str, variant: str
) -> None:
    """A house rule on a variant it does not fit is an error naming both."""
    with pytest.raises(RuleConflict, match=f"{house}.*does not fit variant '{variant}'"):
        spadeskit.load_rules(variant, [house])


@pytest.mark.parametrize(
    "house, variant",
    [
        ("no-bags", "cutthroat"),
        ("no-bags", "two-handed"),
        ("spades-anytime", "cutthroat"),
        ("no-trump-first-trick", "two-handed"),
        ("hidden-bids", "cutthroat"),
    ],
)
def test_individual_house_rules_fit_the_individual_variants(house: str, variant: str) -> None:
    """no-bags, spades-anytime, no-trump-first-trick and hidden-bids fit cutthroat and "
    "two-handed."""
    assert spadeskit.load_rules(variant, [house]).house_rules == (house,)


def test_no_bags_on_cutthroat_scores_no_overtricks() -> None:
    """no-bags works on cutthroat's individual scores too."""
    r = spadeskit.load_rules("cutthroat", ["no-bags"])
    assert r.score_hand(bids=[5, 4, 3], books=[7, 2, 8]).points == (50, -40, 30)


def test_jokers_no_bags_boston_combine() -> None:
    """jokers + no-bags + boston: a Boston made with jokers in the deck, no bags anywhere."""
    r = rules("jokers", "no-bags", "boston")
    assert r.score_hand(bids=[6, 1, 7, 1], books=[6, 0, 7, 0]).points == (230, -20)
    assert r.score_hand(bids=[3, 1, 4, 1], books=[6, 1, 5, 1]).points == (70, 20)
    assert len(r.table.deck) == 52


@pytest.mark.parametrize(
    "house",
    [
        ("no-bags", "boston", "partnership-nil"),
        ("jokers", "no-bags", "boston"),
        ("blind-nil", "partnership-nil", "hidden-bids"),
    ],
)
def test_house_rules_combine_the_same_in_any_listed_order(house: tuple[str, ...]) -> None:
    """Two house rules that adjust scoring combine in a deterministic order, whatever the "
    "listing."""
    orders = list(itertools.permutations(house))
    built = [rules(*order) for order in orders]
    assert all(r == built[0] and r.house_rules == tuple(sorted(house)) for r in built)
    bids: list[object] = ["nil", 6, "nil", 7]
    for case in ([0, 6, 0, 7], [1, 6, 0, 6], [0, 13, 0, 0]):
        scored = [r.score_hand(bids=bids, books=case) for r in built]  # type: ignore[arg-type]
        assert all(s == scored[0] for s in scored)
    games = [spadeskit.replay(built[0].new_game(seed=8).to_record()) for _ in built]
    assert all(g == games[0] for g in games)


def test_score_adjustments_are_independent_of_installation_order() -> None:
    """Registration order is (order, name), never the order plugins were listed or installed."""
    r = rules("partnership-nil", "no-bags", "boston")
    names = [p.name for p in r.plugins]
    assert names == ["standard", "boston", "no-bags", "partnership-nil"]
    assert [name for name, _ in r.plugin_manager.list_name_plugin()] == names


# --------------------------------------------------------------------------------------
# mirror and whiz
# --------------------------------------------------------------------------------------

MIRROR_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "2S 3S 4S 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
    "5S 6S 7S 8S 9S QD KD AD 2H 3H 4H 5H 6H",
    "10S JS QS KS AS 7H 8H 9H 10H JH QH KH AH",
]


def test_mirror_each_player_must_bid_exactly_the_spades_they_hold_none_bids_nil() -> None:
    from spadeskit import Nil

    game = spadeskit.load_rules("standard", ["mirror"]).new_game(deal=MIRROR_DEAL)
    assert game.legal_actions() == (Nil(),)  # N holds no spade
    game = game.apply(Nil())
    assert game.legal_actions() == (Bid(3),)
    with pytest.raises(IllegalAction):
        game.apply(Bid(4))
    game = game.apply(Bid(3))
    assert game.legal_actions() == (Bid(5),)
    assert game.apply(Bid(5)).legal_actions() == (Bid(5),)


def test_whiz_each_player_bids_their_spades_or_nil_nothing_else() -> None:
    from spadeskit import Nil

    game = spadeskit.load_rules("standard", ["whiz"]).new_game(deal=MIRROR_DEAL)
    assert game.legal_actions() == (Nil(),)
    game = game.apply(Nil())
    assert set(game.legal_actions()) == {Nil(), Bid(3)}
    with pytest.raises(IllegalAction):
        game.apply(Bid(2))


def test_whiz_with_blind_nil_still_offers_blind_nil_before_the_cards_are_seen() -> None:
    from spadeskit import BlindNil, Nil, SeeCards

    game = spadeskit.load_rules("standard", ["whiz", "blind-nil"]).new_game(deal=MIRROR_DEAL)
    assert game.legal_actions() == (BlindNil(), SeeCards())
    game = game.apply(SeeCards())
    assert game.legal_actions() == (Nil(),)
    game = game.apply(Nil()).apply(SeeCards())
    assert set(game.legal_actions()) == {Nil(), Bid(3)}


def test_mirror_counts_the_jokers_as_spades() -> None:
    rules = spadeskit.load_rules("standard", ["mirror", "jokers"])
    game = rules.new_game(seed=4)
    seat = game.to_act
    assert seat is not None
    spades = sum(1 for c in game.cards(seat) if rules.ranking.suit_of[c.index] == 3)
    assert game.legal_actions() == ((Bid(spades),) if spades else (spadeskit.Nil(),))
    assert any(c.is_joker for s in range(4) for c in rules.new_game(seed=4).cards(s))


def test_mirror_and_whiz_conflict_and_fit_only_standard() -> None:
    from spadeskit import RuleConflict

    with pytest.raises(RuleConflict, match="conflicts with"):
        spadeskit.load_rules("standard", ["mirror", "whiz"])
    with pytest.raises(RuleConflict):
        spadeskit.load_rules("jjdd", ["mirror"])
