"""The 1970s three-handed game: one test per ruling of RULINGS.md "three-suit-trump"."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

import spadeskit
from spadeskit import Discard, Pass, Phase, PickUp
from spadeskit.core.cards import Card, Suit, cards_of
from spadeskit.core.results import HandSummary
from spadeskit.core.seating import FrozenMap
from spadeskit.core.state import MatchState
from spadeskit.testing import play_random_match
from spadeskit_plugins.three_suit_trump import DECK, card_points, game_points

LADDER = ["S", "C", "H", "D"]  # high to low


def rules(**options: object) -> spadeskit.Rules:
    return spadeskit.load_rules("three-suit-trump", options=options)


def won_with(points: list[int]) -> tuple[tuple[Card, ...], ...]:
    """Split the deck so that seat i wins cards worth points[i] (multiples of 5)."""
    left = sorted(DECK, key=card_points, reverse=True)
    piles: list[list[Card]] = [[], [], []]
    for seat in (0, 1):
        total = 0
        for card in list(left):
            if total + card_points(card) <= points[seat]:
                piles[seat].append(card)
                total += card_points(card)
                left.remove(card)
        assert total == points[seat]
    piles[2] = left
    assert sum(card_points(c) for c in left) == points[2]
    return tuple(tuple(p) for p in piles)


def test_32_cards_a_to_7_with_300_card_points() -> None:
    """32 cards (A K Q J 10 9 8 7 in each suit); card points 300 in all."""
    deck = rules().table.deck
    assert len(deck) == 32 and {c.rank for c in deck} == {7, 8, 9, 10, 11, 12, 13, 14}
    assert sum(card_points(c) for c in deck) == 300


def test_card_points_ace_of_spades_40_aces_20_faces_10_low_5() -> None:
    """Card points: A♠ 40, other aces 20, K Q J 10 each, 10 9 8 7 5 each."""
    values = {
        code: card_points(spadeskit.parse_card(code))
        for code in ("AS", "AH", "KD", "JC", "10S", "7H")
    }
    assert values == {"AS": 40, "AH": 20, "KD": 10, "JC": 10, "10S": 5, "7H": 5}


def test_deal_10_each_in_packets_3_4_3_and_the_2_left_over_form_the_blind() -> None:
    """Deal 10 each in packets of 3, 4, 3 clockwise from the dealer's left; the 2 cards
    left over form the blind."""
    table = rules().table
    assert table.deal.packets == (3, 4, 3) and table.deal.blind == 2
    game = rules().new_game(seed=4)
    assert [len(game.cards(s)) for s in range(3)] == [10, 10, 10]
    assert game.hand.blind.bit_count() == 2 and game.view(0).blind_size == 2


def test_seats_play_without_partnerships() -> None:
    """Three players, no partnerships: each seat is its own side."""
    assert rules().table.sides == ((0,), (1,), (2,))


@pytest.mark.parametrize(("high", "low"), list(itertools.combinations(LADDER, 2)))
def test_every_suit_trumps_the_suits_below_it(high: str, low: str) -> None:
    """Suits rank spades > clubs > hearts > diamonds; a card may be trumped by any card of
    a higher suit; the highest card of the highest suit wins."""
    r = rules()
    assert r.trick_winner([(0, "A" + low), (1, "7" + high), (2, "K" + low)], trump="ladder") == 1
    assert r.trick_winner([(0, "7" + high), (1, "A" + low), (2, "8" + high)], trump="ladder") == 2


def test_all_pass_plays_for_least_with_no_trump() -> None:
    """All pass: the hand is played "for least" with no trump (the highest card of the
    led suit wins)."""
    r = rules()
    assert r.trick_winner([(0, "7D"), (1, "AS"), (2, "8D")], trump="none") == 2
    game = r.new_game(seed=3)
    assert game.to_act == 0 and game.legal_actions() == (PickUp(), Pass())
    game = game.apply(Pass()).apply(Pass()).apply(Pass())
    assert game.phase is Phase.PLAY and game.hand.contract is not None
    assert game.hand.contract.trump == "none" and game.hand.contract.blind_to == "last-trick"


def test_the_first_to_pick_up_is_the_bidder_takes_the_blind_and_discards_2() -> None:
    """Starting left of the dealer, each may pick up the blind or pass; the first to pick
    it up is the bidder (no one after is asked); the bidder adds the blind and discards 2."""
    game = rules().new_game(seed=3)
    blind = game.hand.blind
    game = game.apply(Pass()).apply(PickUp())
    assert game.phase is Phase.EXCHANGE and game.to_act == 1
    assert len(game.cards(1)) == 12 and game.hand.hands[1] & blind == blind
    discard = Discard(game.cards(1)[:2])
    assert discard in game.legal_actions() and len(game.legal_actions()) == 66
    with pytest.raises(spadeskit.IllegalAction, match="exactly 2"):
        game.apply(Discard(game.cards(1)[:3]))
    game = game.apply(discard)
    assert game.phase is Phase.PLAY and game.to_act == 0 and len(game.cards(1)) == 10
    assert game.hand.won[1] == spadeskit.core.cards.mask_of(discard.cards)


def test_the_blind_and_the_discards_are_seen_only_by_their_owner() -> None:
    """The views show the blind and the discards only to whom they belong."""
    game = rules().new_game(seed=3)
    blind = [c.code for c in spadeskit.core.cards.cards_of(game.hand.blind)]
    for seat in range(3):
        assert not any(f'"{c}"' in json.dumps(game.view(seat).to_json()) for c in blind)
    game = game.apply(PickUp())
    assert all(spadeskit.parse_card(c) in game.view(0).cards for c in blind)
    discard = Discard(game.cards(0)[:2])
    game = game.apply(discard)
    for seat in (1, 2, None):
        text = json.dumps(game.view(seat).to_json())
        assert not any(f'"{c.code}"' in text for c in discard.cards)


def test_left_of_the_dealer_leads_the_first_trick() -> None:
    """Left of the dealer leads the first trick."""
    game = rules().new_game(seed=8, dealer=1)
    game = game.apply(PickUp())
    game = game.apply(game.legal_actions()[0])
    assert game.to_act == 2


@pytest.mark.parametrize(
    ("points", "expected"),
    [(145, 0), (150, 1), (195, 1), (200, 2), (245, 2), (250, 3), (295, 3), (300, 4)],
)
def test_bidder_scoring_bands_150_200_250_300(points: int, expected: int) -> None:
    """Bidder under 150: each opponent scores 1. 150–195: 1; 200–245: 2; 250–295: 3; 300: 4."""
    assert game_points(points) == expected
    split = [points, (300 - points) // 5 // 2 * 5]
    split.append(300 - sum(split))
    summary = HandSummary((PickUp(), None, None), (4, 3, 3), won_with(split), declarer=0)
    score = rules().score_hand(summary)
    if expected:
        assert score.points == (expected, 0, 0)
        assert (
            score.lines[0].text
            == f"N (bidder) took {points} points: {expected} game point{'s' * (expected > 1)}"
        )
    else:
        assert score.points == (0, 1, 1)


@pytest.mark.parametrize(
    ("option", "points", "books", "expected"),
    [
        ("all-tied-score", [50, 50, 200], (2, 3, 5), (1, 1, 0)),
        ("nobody-scores", [50, 50, 200], (2, 3, 5), (0, 0, 0)),
        ("fewest-tricks", [50, 50, 200], (2, 3, 5), (1, 0, 0)),
        ("all-tied-score", [40, 60, 200], (2, 3, 5), (1, 0, 0)),
    ],
)
def test_for_least_the_fewest_points_scores_1_with_the_tie_option(
    option: str, points: list[int], books: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    """The player with the fewest card points scores 1 game point.  Players tied for least
    each score 1 (option for_least_ties = all-tied-score | nobody-scores | fewest-tricks)."""
    summary = HandSummary((Pass(), Pass(), Pass()), books, won_with(points), trump="none")
    assert rules(for_least_ties=option).score_hand(summary).points == expected


def test_match_to_7_the_most_wins_and_a_tie_at_the_top_plays_on() -> None:
    """First to 7 game points; if several reach 7 in one hand, the most wins; a tie at the
    top plays another hand."""
    r = rules()

    def end(scores: tuple[int, ...]) -> spadeskit.MatchEnd | None:
        return r.hook.spadeskit_match_end(
            match=MatchState(scores, (0, 0, 0), (), (), None, FrozenMap()),
            result=None,
            table=r.table,
            options=r.options,
        )

    assert end((6, 6, 5)) is None
    assert end((7, 8, 1)).winner == 1  # type: ignore[union-attr]
    assert end((8, 8, 1)) is None


def test_300_points_are_conserved_in_every_finished_hand() -> None:
    """Card points: 300 in all — every finished hand's points (discards and the blind
    included) add up to 300."""
    r = rules()
    for seed in range(12):
        game = play_random_match(r, seed)
        for result in game.hand_results:
            taken = [
                int(m) for line in result.lines for m in re.findall(r"took (\d+) points", line.text)
            ]
            assert len(taken) == 3 and sum(taken) == 300


def test_scorekeeping_needs_the_cards_won() -> None:
    with pytest.raises(spadeskit.SpadesError, match="cards each seat won"):
        rules().score_hand(bids=[PickUp(), None, None], books=[4, 3, 3])


def test_suit_of_every_card_is_its_printed_suit() -> None:
    r = rules()
    assert all(r.effective_suit(c) is c.suit for c in r.table.deck)
    assert r.effective_suit("AS") is Suit.SPADES


def test_card_points_a_spade_ace_40_other_aces_20_kqj_10_the_rest_5_counted_by_the_engine() -> None:
    """A♠ 40, other aces 20, K Q J 10, 10 9 8 7 five each: 300 in the deck.  The variant
    declares them once (spadeskit_card_points); the engine counts each seat's cards won,
    the bidder's discards included, into HandSummary.points."""
    r = rules()
    value = {c.code: r.card_points[c.index] for c in r.table.deck}
    assert sum(value.values()) == 300
    assert [value[code] for code in ("AS", "AH", "KD", "QC", "JH", "10S", "7D")] == [
        40, 20, 10, 10, 10, 5, 5,
    ]  # fmt: skip
    for seed in range(10):
        game = r.new_game(seed=seed).apply(PickUp())
        game = game.apply(game.legal_actions()[seed])  # the bidder discards two
        discarded = sum(value[c.code] for c in cards_of(game.won[0]))
        assert r.engine.scoring.summary(game).points == (discarded, 0, 0)
        rng = random.Random(seed)
        while len(game.tricks) < 9:
            game = game.apply(rng.choice(game.legal_actions()))
            expected = tuple(sum(value[c.code] for c in cards_of(m)) for m in game.won)
            assert r.engine.scoring.summary(game).points == expected
