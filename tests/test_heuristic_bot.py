"""HeuristicBot: legal play in every variant, counted bids, nil, bag control, reneges."""

from __future__ import annotations

import random

import pytest

import spadeskit
from spadeskit import Bid, Nil, Play
from spadeskit.arena import evaluate, make_bot, play_match
from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.core.actions import is_nil

CONFIGS = [
    ("standard", [], {}),
    ("standard", ["blind-nil", "hidden-bids"], {}),
    ("standard", ["jokers"], {}),
    ("standard", ["spades-anytime", "boston"], {}),
    ("standard", ["no-bags"], {}),
    ("standard", ["partnership-nil"], {}),
    ("standard", ["no-trump-first-trick"], {}),
    ("jjdd", [], {}),
    ("jjdd", [], {"enforcement": "table"}),
    ("cutthroat", [], {}),
    ("two-handed", [], {}),
    ("three-suit-trump", [], {}),
]


@pytest.mark.parametrize("variant, house, options", CONFIGS)
def test_heuristic_bot_plays_whole_matches_of_every_variant_from_its_view(
    variant: str, house: list[str], options: dict[str, object]
) -> None:
    rules = spadeskit.load_rules(variant, house, options)
    bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(rules.table.players)]
    game = play_match(rules, bots, seed=11)  # play_match refuses any illegal choice
    assert game.is_over


def deal_game(hands: list[str], **options: object) -> spadeskit.GameState:
    return spadeskit.load_rules("standard", options=options).new_game(deal=hands)


def test_counted_bidding_bids_top_spades_side_aces_and_long_trumps() -> None:
    game = deal_game(
        [
            "AS KS QS JS 10S 9S AH AD AC KC 2H 3D 4C",
            "2S 3S 4S 5S 6S 7S 8S 2C 3C 5C 6C 7C 8C",
            "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H KD QD",
            "JD 10D 9D 8D 7D 6D 5D 4D 2D 9C 10C JC QC",
        ]
    )
    bid = HeuristicBot(game.rules).choose(game.view(0))
    assert isinstance(bid, Bid) and bid.tricks >= 9


def test_nil_is_bid_with_low_cards_and_few_low_spades() -> None:
    game = deal_game(
        [
            "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H 2S",
            "AS KS QS JS 10S 9S AH AD AC KC 6H 6D 6C",
            "7C 8C 9C 10C JC QC 7D 8D 9D 10D JD QD 7H",
            "KD 8S 8H 9H 10H JH QH KH 3S 4S 5S 6S 7S",
        ]
    )
    assert HeuristicBot(game.rules).choose(game.view(0)) == Nil()


def test_no_nil_is_bid_with_an_unguarded_ace() -> None:
    game = deal_game(
        [
            "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H AH 2S",
            "AS KS QS JS 10S 9S 5H AD AC KC 6H 6D 6C",
            "7C 8C 9C 10C JC QC 7D 8D 9D 10D JD QD 7H",
            "KD 8S 8H 9H 10H JH QH KH 3S 4S 5S 6S 7S",
        ]
    )
    assert HeuristicBot(game.rules).choose(game.view(0)) != Nil()


def test_two_handed_never_bids_nil_before_seeing_the_draws() -> None:
    rules = spadeskit.load_rules("two-handed")
    bot = HeuristicBot(rules)
    for seed in range(40):
        game = rules.new_game(seed=seed)
        assert bot.choose(game.view(game.to_act)) != Nil()


def test_follows_suit_when_the_table_only_polices_reneges() -> None:
    """jjdd with table enforcement offers every card; the bot still follows suit."""
    rules = spadeskit.load_rules("jjdd", options={"enforcement": "table"})
    bot = HeuristicBot(rules)
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        game = rules.new_game(seed=seed)
        while not game.is_over and len(game.hand_results) < 1:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            choice = bot.choose(view) if seat % 2 == 0 else rng.choice(game.legal_actions())
            if isinstance(choice, Play) and view.trick and seat % 2 == 0:
                led = rules.ranking.suit_of[view.trick[0][1].index]
                if any(rules.ranking.suit_of[c.index] == led for c in view.cards):
                    assert rules.ranking.suit_of[choice.card.index] == led
                    checked += 1
            game = game.apply(choice, seat)
    assert checked > 50


def test_calls_reneges_it_saw_and_never_calls_one_wrongly() -> None:
    """Random opponents renege under table enforcement; every call the bot makes is right."""
    rules = spadeskit.load_rules("jjdd", options={"enforcement": "table", "target": 300})
    calls = 0
    for seed in range(6):
        bots = [
            make_bot("heuristic" if s % 2 == 0 else "random", s, rules, random.Random(s))
            for s in range(4)
        ]
        game = play_match(rules, bots, seed=seed)
        for result in game.hand_results:
            texts = [line.text for line in result.lines]
            assert not any("N/S called a renege" in t and "wrongly" in t for t in texts), texts
        calls += sum(
            1
            for log in game.match.logs
            for seat, a in log
            if isinstance(a, spadeskit.CallRenege) and seat in (0, 2)
        )
    assert calls > 0


@pytest.mark.slow
def test_nils_are_made_and_bags_kept_low_in_play() -> None:
    """Over whole matches: most nils made (avoiding and covering), contracts made, and
    fewer bags than the same bot that never ducks (it plays to set the opponents
    whenever they still need a trick)."""
    rules = spadeskit.load_rules("standard")
    ours = evaluate(rules, "heuristic", "simple", deals=12, seed=5)
    never_ducks = evaluate(rules, "heuristic[set_slack=13]", "simple", deals=12, seed=5)
    assert ours.nils_made is not None and ours.nils_made >= 0.8
    assert ours.contracts_made is not None and ours.contracts_made >= 0.8
    assert ours.bags_per_hand < never_ducks.bags_per_hand


def bid_after(game: spadeskit.GameState, bids: list[object]) -> spadeskit.GameState:
    for bid in bids:
        game = game.apply(Nil() if bid == "nil" else Bid(bid))  # type: ignore[arg-type]
    return game


def test_the_last_bidder_bids_one_more_when_three_tricks_go_unbid() -> None:
    """Table bids: every other bid known, a table total three or more under the 13
    tricks leaves tricks that come as bags: the last bidder bids one more."""
    game = bid_after(spadeskit.load_rules("standard").new_game(seed=3, dealer=3), [2, 2, 2])
    plain = HeuristicBot(game.rules, table_bids=False).choose(game.view(3))
    assert isinstance(plain, Bid) and plain.tricks + 6 <= 10
    assert HeuristicBot(game.rules).choose(game.view(3)) == Bid(plain.tricks + 1)


def test_the_last_bidder_bids_one_less_when_the_table_reaches_the_tricks() -> None:
    """Table bids: a table total at or over the 13 tricks means a side will be set."""
    game = bid_after(spadeskit.load_rules("standard").new_game(seed=3, dealer=3), [5, 5, 4])
    plain = HeuristicBot(game.rules, table_bids=False).choose(game.view(3))
    assert isinstance(plain, Bid) and plain.tricks >= 1
    assert HeuristicBot(game.rules).choose(game.view(3)) == Bid(plain.tricks - 1)


def test_the_first_bidders_ignore_the_table() -> None:
    """Table bids: only the last two bidders at four, the last at fewer, read the total."""
    rules = spadeskit.load_rules("standard")
    for seed in range(20):
        game = bid_after(rules.new_game(seed=seed, dealer=3), [2])
        assert HeuristicBot(rules).choose(game.view(1)) == HeuristicBot(
            rules, table_bids=False
        ).choose(game.view(1))


def test_with_the_contract_made_it_plays_on_while_the_opponents_can_be_set() -> None:
    """Set slack: contract made, it keeps the aim "win" while an opposing side needs all
    but at most ``set_slack`` of the tricks left, and ducks otherwise."""
    rules = spadeskit.load_rules("standard")
    seen = {"win": 0, "duck": 0}
    for seed in range(40):
        bots = [HeuristicBot() for _ in range(4)]
        for s, bot in enumerate(bots):
            bot.reset(s, rules, random.Random(s))
        game = rules.new_game(seed=seed)
        match = game.match
        while game.match is match:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            bot = bots[seat]
            side = rules.side_of[seat]
            partner_nil = any(is_nil(view.bids[s]) for s in rules.table.sides[side] if view.bids[s])
            if game.phase is spadeskit.Phase.PLAY and not partner_nil:
                other = 1 - side
                left = len(view.cards)
                theirs = bot._need(view, other)
                opponents_nil = any(is_nil(view.bids[s]) for s in rules.table.sides[other])
                if bot._need(view, side) <= 0 and not opponents_nil:
                    expected = "win" if 0 < theirs <= left and left - theirs <= 2 else "duck"
                    assert bot._aim(view) == expected
                    seen[expected] += 1
            game = game.apply(bot.choose(view), seat)
    assert seen["win"] and seen["duck"]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(spadeskit.SpadesError, match="set_slack"):
        HeuristicBot(set_slack=-1)
    with pytest.raises(spadeskit.SpadesError, match="table_bids"):
        HeuristicBot(table_bids="yes")  # type: ignore[arg-type]


def test_it_beats_the_simple_bot_on_duplicate_deals() -> None:
    result = evaluate(spadeskit.load_rules("standard"), "heuristic", "simple", deals=15, seed=9)
    assert result.win_rate >= 0.7 and result.interval[0] > 0.5


def test_a_jjdd_bid_of_0_is_a_contract_bid_not_a_nil() -> None:
    """jjdd has no nil unless its option is on: a 0 is part of the side's contract.  The
    bot neither covers a partner who bid 0 nor sets an opponent who did, and counts
    the 0 bidder's books toward its side's need; where nil is on, a nil is covered."""
    rules = spadeskit.load_rules("jjdd")
    checked = 0
    for seed in range(30):
        game = bid_after(rules.new_game(seed=seed, dealer=3), [0, 4, 5, 4])
        assert game.phase is spadeskit.Phase.PLAY
        bot = HeuristicBot(rules)
        while game.phase is spadeskit.Phase.PLAY and len(game.tricks) < 6:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            side = rules.side_of[seat]
            if side == 0:
                took = view.books[0] + view.books[2]
                assert bot._need(view, 0) == 5 - took
                if seat == 2 and view.books[0] == 0:
                    assert bot._aim(view) != "cover"
                    checked += 1
            elif view.books[0] == 0:
                assert bot._aim(view) != "bust"
            game = game.apply(bot.choose(view), seat)
    assert checked > 0
    nil_rules = spadeskit.load_rules("jjdd", options={"nil": True})
    game = bid_after(nil_rules.new_game(seed=1, dealer=3), ["nil", 4, 5, 4])
    while game.to_act != 2:
        game = game.apply(HeuristicBot(nil_rules).choose(game.view(game.to_act)))
    assert HeuristicBot(nil_rules)._aim(game.view(2)) == "cover"


# Round 4 (``version=4``, the default); ``version=3`` plays as round 3's bot did.

NIL_DEAL = [
    "AS KS QS JS 10S AH QH JH AD KD QD AC KC",
    "9S 8S 7S 6S 10H 8H 7H 6H JD 10D 9D QC JC",
    "KH 3H 4H 9H 2C 3C 4C 5C 2D 3D 4D 2S 3S",
    "4S 5S 5H 2H 6C 7C 8C 9C 10C 5D 6D 7D 8D",
]


def test_round4_nil_beside_a_partner_takes_a_king_with_two_low_cards() -> None:
    """A king needs two low cards to duck under when a partner covers (round 3: three)."""
    game = bid_after(spadeskit.load_rules("standard").new_game(deal=NIL_DEAL, dealer=3), [4, 3])
    assert HeuristicBot(game.rules).choose(game.view(2)) == Nil()
    assert isinstance(HeuristicBot(game.rules, version=3).choose(game.view(2)), Bid)


def test_round4_never_bids_nil_alone() -> None:
    """Cutthroat: nobody covers a nil, and round 3's were made one time in nine."""
    rules = spadeskit.load_rules("cutthroat")
    round3 = 0
    for seed in range(300):
        game = rules.new_game(seed=seed)
        seat = game.to_act
        assert seat is not None
        assert HeuristicBot(rules).choose(game.view(seat)) != Nil()
        round3 += HeuristicBot(rules, version=3).choose(game.view(seat)) == Nil()
    assert round3 > 0


def test_round4_nil_bidder_forced_over_the_trick_plays_its_lowest_card() -> None:
    """Forced to beat the card led, with seats still to play: the lowest, for them to
    overtake (round 3 took it with the highest)."""
    hands = [
        "AH KH 3H 4D 5D 6D 7D 2C 3C 4C 2S 3S 4S",
        "KD 2D 2H 6H 8H 5C 6C 7C 8C 5S 6S 7S 8S",
        "QH 4H 5H 9C 10C JC 8D 10D JD 9S 10S JS 9D",
        "AD QD AC KC QC AS KS QS 7H 9H 10H JH 3D",
    ]
    game = spadeskit.load_rules("standard").new_game(deal=hands, dealer=3)
    game = bid_after(game, [3, "nil", 3, 3]).apply(Play("2C"))
    assert HeuristicBot(game.rules).choose(game.view(1)) == Play("5C")
    assert HeuristicBot(game.rules, version=3).choose(game.view(1)) == Play("8C")


def test_version_is_3_or_4() -> None:
    with pytest.raises(spadeskit.SpadesError, match="version is 3 or 4"):
        HeuristicBot(version=5)
