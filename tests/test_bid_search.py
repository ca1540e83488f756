"""Bidding by estimation (:class:`spadeskit.bots.bidsearch.RolloutBidder`, the search bots'
``bid_by="rollouts"``): bids weighed by playing drawn deals out, from the view only."""

from __future__ import annotations

import random

import pytest

import spadeskit
from spadeskit.arena import make_bot, play_match
from spadeskit.bots.bidsearch import RolloutBidder
from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.core.actions import Bid, Nil
from spadeskit.core.cards import parse_cards
from spadeskit.core.errors import SpadesError


def bidder_for(rules: spadeskit.Rules, seat: int, seed: int, **kwargs: object) -> RolloutBidder:
    bidder = RolloutBidder(**kwargs)  # type: ignore[arg-type]
    bidder.reset(seat, rules, random.Random(seed))
    return bidder


def heuristic_bid(game: spadeskit.GameState) -> spadeskit.Action:
    seat = game.to_act
    assert seat is not None
    bot = HeuristicBot()
    bot.reset(seat, game.rules, random.Random(0))
    return bot.choose(game.view(seat))


def test_rollout_bids_weigh_the_heuristics_bid_its_neighbours_and_nil() -> None:
    rules = spadeskit.load_rules("standard")
    game = rules.new_game(seed=3)
    view = game.view(game.to_act)
    bidder = bidder_for(rules, view.seat, 0, spread=1)
    assert bidder.candidates(view, Bid(2)) == [Bid(2), Bid(1), Bid(3), Nil()]
    assert bidder.candidates(view, Bid(6)) == [Bid(6), Bid(5), Bid(7)]  # no nil at six
    assert bidder_for(rules, view.seat, 0, spread=0).candidates(view, Bid(4)) == [Bid(4)]


def test_rollout_bids_see_only_the_bidders_view() -> None:
    """Two deals the bidder cannot tell apart get the same bid and the same estimates."""
    rules = spadeskit.load_rules("standard")
    game = rules.new_game(seed=11)
    for _ in range(2):  # two bids made before this seat's
        game = game.apply(heuristic_bid(game))
    seat = game.to_act
    assert seat is not None
    hands = [list(spadeskit.core.cards.cards_of(m)) for m in game.hands]
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in hands[s]]
    random.Random(5).shuffle(pool)
    for k, s in enumerate(others):
        hands[s] = pool[13 * k : 13 * k + 13]
    twin = rules.new_game(deal=hands, dealer=game.dealer)
    for s, bid in enumerate(game.bids):
        if bid is not None:
            twin = twin.apply(bid, s)
    assert twin.view(seat).cards == game.view(seat).cards
    assert twin.view(seat).bids == game.view(seat).bids
    assert twin.hands != game.hands
    picks = []
    for state in (game, twin):
        bidder = bidder_for(rules, seat, 7, deals=4)
        picks.append((bidder.choose(state.view(seat), Bid(3)), bidder.last_means))
    assert picks[0] == picks[1]


def test_rollout_bids_keep_the_heuristics_bid_unless_another_beats_it_by_the_veto() -> None:
    rules = spadeskit.load_rules("standard")
    for seed in range(3):
        game = rules.new_game(seed=seed)
        view = game.view(game.to_act)
        preferred = heuristic_bid(game)
        free = bidder_for(rules, view.seat, seed, deals=3)
        chosen = free.choose(view, preferred)
        best = max(free.last_means.values())
        assert free.last_means[chosen] == best
        strict = bidder_for(rules, view.seat, seed, deals=3, veto=100.0)
        assert strict.choose(view, preferred) == preferred


def test_rollout_bids_draw_deals_that_fit_the_bids_already_made() -> None:
    """A partner who bid high holds more than a uniform draw gives it."""
    rules = spadeskit.load_rules("standard")
    for seed in range(40):
        game = rules.new_game(seed=seed)
        partner = game.to_act  # bids first; its partner bids third
        game = game.apply(heuristic_bid(game))
        game = game.apply(heuristic_bid(game))
        bid = game.bids[partner]
        if isinstance(bid, Bid) and bid.tricks >= 5:
            break
    else:
        pytest.fail("no deal with a partner bidding five or more")
    seat = game.to_act
    assert seat == (partner + 2) % 4
    bidder = bidder_for(rules, seat, 1, deals=1)
    from spadeskit.bots.determinize import Determinizer

    determinizer = Determinizer(game.view(seat), rules, random.Random(1))
    made = [(s, b) for s, b in enumerate(game.bids) if b is not None]
    counted = bidder.player
    fitted = [bidder._draw(determinizer, made) for _ in range(40)]
    uniform = [determinizer.sample(random.Random(k)) for k in range(40)]

    def mean_count(states: list[spadeskit.GameState]) -> float:
        return sum(
            counted.estimate(list(spadeskit.core.cards.cards_of(s.hands[partner]))) for s in states
        ) / len(states)

    assert mean_count(fitted) > mean_count(uniform) + 1


def test_nil_by_rollouts_when_it_pays() -> None:
    """A hand of the lowest cards bids nil where the heuristic offers one trick; the same
    hand with the ace of spades, a sure trick, never bids nil."""
    chosen: dict[bool, list[spadeskit.Action]] = {False: [], True: []}
    rules = spadeskit.load_rules("standard")
    for seed in range(8):
        rng = random.Random(seed)
        low = [c for c in spadeskit.core.cards.STANDARD_DECK if c.rank <= 7 and c.code[-1] != "S"]
        rng.shuffle(low)
        for ace in (False, True):
            mine = low[:11] + list(parse_cards("AS 2S" if ace else "3S 2S"))
            rest = [c for c in rules.table.deck if c not in mine]
            random.Random(seed).shuffle(rest)
            game = rules.new_game(deal=[mine, rest[:13], rest[13:26], rest[26:]], dealer=3)
            assert game.to_act == 0
            bidder = bidder_for(rules, 0, seed, deals=4)
            chosen[ace].append(bidder.choose(game.view(0), Bid(1)))
    assert sum(isinstance(b, Nil) for b in chosen[False]) >= 7
    assert not any(isinstance(b, Nil) for b in chosen[True])


def test_bad_rollout_bidder_settings_are_refused() -> None:
    """Each message names the setting as the caller spelled it: the bidder's own
    parameters built directly, the search bots' ``bid_*`` names through them."""
    for kwargs in ({"deals": 0}, {"spread": -1}, {"veto": -0.5}, {"deals": 2.5}):
        (name,) = kwargs
        with pytest.raises(SpadesError, match=f"^{name} is"):
            RolloutBidder(**kwargs)  # type: ignore[arg-type]
    rules = spadeskit.load_rules("standard")
    with pytest.raises(SpadesError, match="bid_by"):
        make_bot('pimc[bid_by="oracle"]', 0, rules, random.Random(0))
    for spec in ("pimc[bid_deals=0]", 'ismcts[bid_by="heuristic",bid_deals=0]'):
        with pytest.raises(SpadesError, match=": bid_deals is a whole number"):
            make_bot(spec, 0, rules, random.Random(0))


@pytest.mark.parametrize("variant", ["standard", "jjdd", "cutthroat", "call-break"])
def test_search_bots_bidding_by_rollouts_play_whole_matches(variant: str) -> None:
    options = {"rounds": 1} if variant == "call-break" else {"target": 100}
    if variant == "cutthroat":
        options = {"target": 100}
    rules = spadeskit.load_rules(variant, options=options)
    spec = 'pimc[iterations=20,bid_by="rollouts",bid_deals=2]'
    bots = [
        make_bot(spec if s % 2 == 0 else "heuristic", s, rules, random.Random(s))
        for s in range(rules.table.players)
    ]
    final = play_match(rules, bots, seed=4)
    assert final.is_over


@pytest.mark.parametrize("variant", ["standard", "jjdd", "cutthroat"])
def test_playouts_without_events_choose_as_the_heuristic_with_the_full_view(
    variant: str,
) -> None:
    """The bidder's playouts give the heuristic views without the hand's events (a
    quarter of a decision's time); it must choose exactly as with the full view."""
    rules = spadeskit.load_rules(variant)
    bidder = bidder_for(rules, 0, 0)
    for seed in range(6):
        game = rules.new_game(seed=seed)
        while game.number == 0 and not game.is_over:
            seat = game.to_act
            assert seat is not None
            full = bidder.player.choose(game.view(seat))
            assert bidder._policy(game, game.legal_actions()) == full
            game = game.apply(full)


@pytest.mark.parametrize("variant", ["standard", "jjdd", "cutthroat"])
def test_one_heuristic_bot_plays_every_seat_of_a_playout(variant: str) -> None:
    """Playouts ask one heuristic bot for every seat (``bot_policy``): it must choose
    at each seat exactly as a bot reset for that seat does."""
    rules = spadeskit.load_rules(variant)
    shared = HeuristicBot(rules)  # reset for seat 0
    own = []
    for seat in range(rules.table.players):
        bot = HeuristicBot()
        bot.reset(seat, rules, random.Random(seat))
        own.append(bot)
    for seed in range(4):
        game = rules.new_game(seed=seed)
        while game.number == 0 and not game.is_over:
            seat = game.to_act
            assert seat is not None
            chosen = own[seat].choose(game.view(seat))
            assert shared.choose(game.view(seat)) == chosen
            game = game.apply(chosen)


@pytest.mark.parametrize("house", ["blind-nil", "hidden-bids", "mirror", "whiz", "partnership-nil"])
def test_search_bots_bidding_by_rollouts_play_every_house_rules_auction(house: str) -> None:
    """Sealed bids cannot be replayed: the bidder keeps the heuristic's bid there."""
    rules = spadeskit.load_rules("standard", [house], options={"target": 100})
    spec = "pimc[iterations=10,bid_deals=2]"
    bots = [
        make_bot(spec if s % 2 == 0 else "heuristic", s, rules, random.Random(s)) for s in range(4)
    ]
    assert play_match(rules, bots, seed=1).is_over
