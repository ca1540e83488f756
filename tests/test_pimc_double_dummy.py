"""PIMC that solves each drawn deal double-dummy once few tricks are left."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit import GameState, Phase
from spadeskit.analysis import Goal, solve
from spadeskit.arena import make_bot
from spadeskit.bots import PIMCBot
from spadeskit.bots.determinize import Determinizer
from spadeskit.bots.solved import _books


def late_position(seed: int, left: int) -> GameState:
    game = spadeskit.load_rules("standard").new_game(seed=seed)
    for _ in range(4):
        game = game.apply(spadeskit.Bid(3))
    rng = random.Random(seed)
    while game.hands[game.to_act or 0].bit_count() > left or len(game.legal_actions()) < 2:
        game = game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_solving_pimc_plays_the_card_of_the_best_mean_score_over_its_solved_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each drawn deal is solved double-dummy, and each card's tricks there are scored
    # as the rules score the hand (everyone bid 3: the side's score less ten a bag,
    # against the other side's): the card with the best total is played.
    drawn: list[GameState] = []
    sample = Determinizer.sample

    def recorded(self: Determinizer, rng: random.Random) -> GameState:
        state = sample(self, rng)
        drawn.append(state)
        return state

    monkeypatch.setattr(Determinizer, "sample", recorded)
    for seed in range(6):
        game = late_position(seed, 4)
        seat = game.to_act
        assert seat is not None
        bot = PIMCBot(solve_last=4, solve_deals=12, veto=0, match_weight=0)
        bot.reset(seat, game.rules, random.Random(seed))  # type: ignore[arg-type]
        drawn.clear()
        choice = bot.choose(game.view(seat))
        assert len(drawn) == 12 and bot.last_iterations == 12 * len(game.legal_actions())
        totals: dict[spadeskit.Card, float] = {}
        for state in drawn:
            for card, tricks in solve(state, Goal(seat), values=True).values:
                totals[card] = totals.get(card, 0) + margin(game, seat, tricks)
        assert totals[choice.card] == max(totals.values())  # type: ignore[attr-defined]


def margin(game: GameState, seat: int, tricks: int) -> float:
    """Return the score margin of ``seat``'s side when it ends the hand on ``tricks``."""
    books = [0] * 4
    books[seat], books[(seat + 1) % 4] = tricks, 13 - tricks
    score = game.rules.score_hand(bids=[3] * 4, books=books)
    value = [float(p) for p in score.points]
    for line in score.lines:
        value[line.side] -= 10 * max(0, line.bags)
    side = seat % 2
    return value[side] - value[1 - side]


def test_the_solving_pimc_rolls_out_while_more_tricks_are_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved too early")

    monkeypatch.setattr("spadeskit.bots.solved.solve", refuse)
    game = late_position(1, 7)
    seat = game.to_act
    assert seat is not None
    bot = make_bot("pimc[solve_last=5,iterations=30]", seat, game.rules, random.Random(1))
    assert bot.choose(game.view(seat)) in game.legal_actions()


def test_solve_last_is_a_number_of_tricks() -> None:
    with pytest.raises(spadeskit.SpadesError, match="solve_last"):
        PIMCBot(solve_last=-1)


def test_the_solving_pimc_plays_whole_hands_of_every_variant_legally() -> None:
    for variant in ("standard", "jjdd", "cutthroat", "call-break", "three-suit-trump"):
        rules = spadeskit.load_rules(variant)
        bots = [
            make_bot("pimc[solve_last=3,iterations=12]", s, rules, random.Random(s))
            for s in range(rules.table.players)
        ]
        game = rules.new_game(seed=2)
        while game.phase is not Phase.OVER and game.number == 0:
            seat = game.to_act
            assert seat is not None
            game = game.apply(bots[seat].choose(game.view(seat)), seat)


def test_the_solving_pimc_keeps_the_heuristics_card_within_its_veto() -> None:
    # Scored as the rules score the hand, the solved deals' rewards are a rollout's:
    # a veto larger than any difference leaves the heuristic's card, and with none the
    # best card is played even where the heuristic prefers another.
    differs = 0
    for seed in range(8):
        game = late_position(seed, 5)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        choices = []
        for veto in (1000.0, 0.0):
            bot = PIMCBot(solve_last=5, solve_deals=8, veto=veto)
            bot.reset(seat, game.rules, random.Random(seed))  # type: ignore[arg-type]
            choices.append(bot.choose(view))
        assert choices[0] == bot.heuristic.choose(view)
        differs += choices[1] != choices[0]
    assert differs


def nil_at_stake(holder: int, bids: tuple[spadeskit.Action, ...]) -> GameState:
    """Return trick 12 of a hand that South bid nil in and has taken no trick, the
    seat before ``holder`` to play the diamond ace or the two; ``bids`` from that seat.

    ``holder`` trumps the first trick (the decider's club ace), runs its spades to win
    the next ten and leads the five of diamonds; South's nil plays the king, the other
    seat the six.  The three diamonds the decider has not seen are the 3, 4 and 7."""
    decider, other = (holder + 3) % 4, ({0, 1, 3} - {holder, (holder + 3) % 4}).pop()
    deal = [""] * 4  # each hand in the order it is played
    deal[holder] = "4S AS KS QS JS 10S 9S 8S 7S 6S 5S 5D 3D"
    deal[2] = "2C 3C 4C 5C 2H 3H 4H 5H 6H 7H 8H KD 4D"
    deal[other] = "6C 2S 7C 8C 9C 9H 8D 9D 10D JD QD 6D 7D"
    deal[decider] = "AC 3S KC QC JC 10C AH KH QH JH 10H AD 2D"
    game = spadeskit.load_rules("standard").new_game(deal=deal, dealer=(decider + 3) % 4)
    for bid in bids:
        game = game.apply(bid)
    while len(game.trick) < 3 or sum(game.books) < 11:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        game = game.apply(next(p for c in deal[seat].split() if (p := spadeskit.Play(c)) in legal))
    assert game.books[2] == 0 and game.to_act == decider and len(game.legal_actions()) == 2
    return game


def test_the_solving_pimc_keeps_its_partners_nil_rather_than_count_side_tricks() -> None:
    # North, fourth to play, holds the diamond ace and two after South's nil played the
    # king.  Ducking keeps the ace for the last trick (two books for the side against
    # one and a third) but sets the nil; scored as the rules score it, the ace is right.
    game = nil_at_stake(1, (spadeskit.Bid(3), spadeskit.Bid(10), spadeskit.Nil(), spadeskit.Bid(1)))
    for seed in range(3):
        bot = PIMCBot(solve_last=2, solve_deals=12)
        bot.reset(0, game.rules, random.Random(seed))  # type: ignore[arg-type]
        assert bot.choose(game.view(0)) == spadeskit.Play("AD")


def test_the_solving_pimc_sets_an_opponents_nil_rather_than_count_side_tricks() -> None:
    # West, fourth to play, holds the same ace and two: ducking the nil's king sets the
    # nil for certain though the ace would win the side more books.
    game = nil_at_stake(0, (spadeskit.Bid(3), spadeskit.Bid(10), spadeskit.Bid(1), spadeskit.Nil()))
    for seed in range(3):
        bot = PIMCBot(solve_last=2, solve_deals=12)
        bot.reset(3, game.rules, random.Random(seed))  # type: ignore[arg-type]
        assert bot.choose(game.view(3)) == spadeskit.Play("2D")


@given(seed=st.integers(0, 10_000), left=st.integers(1, 6), tricks=st.integers(0, 13))
@settings(max_examples=40, deadline=None)
def test_the_solved_books_are_a_whole_hand_that_keeps_what_was_won(
    seed: int, left: int, tricks: int
) -> None:
    # Whatever the two solutions say (the side's books, the nil's), the hand they
    # are scored as gives each seat at least what it has won and adds up to 13, the
    # nil seat on its count.
    game = spadeskit.load_rules("standard").new_game(seed=seed)
    for bid in (spadeskit.Nil(), spadeskit.Bid(4), spadeskit.Bid(3), spadeskit.Nil()):
        game = game.apply(bid)
    rng = random.Random(seed)
    while game.hands[game.to_act or 0].bit_count() > left:
        game = game.apply(rng.choice(game.legal_actions()))
    seat = game.to_act
    assert seat is not None
    side = game.rules.side_of[seat]
    won = sum(game.books[s] for s in range(4) if game.rules.side_of[s] == side)
    tricks = min(max(tricks, won), won + left)
    for nil in (None, 0, 3):
        taken = None if nil is None else rng.randint(game.books[nil], game.books[nil] + left)
        books = _books(game.rules.side_of, game, seat, tricks, nil, taken)
        assert sum(books) == 13 and all(b >= a for a, b in zip(game.books, books))
        if nil is not None:
            assert books[nil] == taken
        else:
            assert sum(books[s] for s in range(4) if game.rules.side_of[s] == side) == tricks
