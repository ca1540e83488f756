"""Inference from a view, and uniform sampling of consistent deals (chi-square against
exact enumeration of small end positions)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator

import attrs
import pytest

import spadeskit
from spadeskit.bots.inference import Facts, SampledDeal, count_deals, facts, sample_deal


def chi_square_p(observed: Counter[object], outcomes: list[object], draws: int) -> float:
    """Return the p-value of a chi-square test of uniformity (Wilson-Hilferty)."""
    expected = draws / len(outcomes)
    stat = sum((observed.get(o, 0) - expected) ** 2 / expected for o in outcomes)
    k = len(outcomes) - 1
    z = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def position(
    variant: str,
    done: Callable[[spadeskit.GameState, Facts], bool],
    options: dict[str, object] | None = None,
) -> tuple[spadeskit.GameState, Facts]:
    """Return the first position (over seeds) whose viewer's facts satisfy ``done``."""
    rules = spadeskit.load_rules(variant, options=options or {})
    for seed in range(500):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over and not game.hand_results:
            seat = game.to_act
            if seat is not None and game.phase is spadeskit.Phase.PLAY:
                f = facts(game.view(seat), rules)
                if done(game, f):
                    return game, f
            game = game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no such position in 500 seeds")


def consistent(game: spadeskit.GameState, viewer: int) -> Iterator[tuple[object, ...]]:
    """Enumerate, independently of the inference code, every holding of the hidden
    cards consistent with what ``viewer`` saw: other hands as sets, voids respected."""
    rules = game.rules
    view = game.view(viewer)
    suit_of = rules.ranking.suit_of
    others = [s for s in range(rules.table.players) if s != viewer]
    hidden = [
        c.index
        for c in rules.table.deck
        if c not in view.cards
        and not any(c == card for t in view.tricks for _, card in t.plays)
        and not any(c == card for _, card in view.trick)
    ]
    discards = {
        e.seat: e.count
        for e in view.events
        if type(e).__name__ == "CardsDiscarded" and e.cards is None
    }
    voids: dict[int, set[int]] = {}
    broken = False
    for plays in [t.plays for t in view.tricks] + [view.trick]:
        if plays:
            led = suit_of[plays[0][1].index]
            if led == 3 and not broken and any(f.name == "break-spades" for f in rules.filters):
                voids.setdefault(plays[0][0], set()).update(
                    {0, 1, 2}
                )  # led a spade unbroken: only spades
            for s, c in plays[1:]:
                if suit_of[c.index] != led:
                    voids.setdefault(s, set()).add(led)
            broken = broken or any(suit_of[c.index] == 3 for _, c in plays)
    places = [(s, view.card_counts[s]) for s in others] + [(-1 - s, n) for s, n in discards.items()]

    def fill(k: int, left: list[int]) -> Iterator[tuple[object, ...]]:
        if k == len(places):
            if not left:
                yield ()
            return
        who, size = places[k]
        for chosen in itertools.combinations(left, size):
            if who >= 0 and any(suit_of[c] in voids.get(who, ()) for c in chosen):
                continue
            rest = [c for c in left if c not in chosen]
            for tail in fill(k + 1, rest):
                yield (frozenset(chosen),) + tail

    yield from fill(0, hidden)


def key_of(deal: SampledDeal, viewer: int, game: spadeskit.GameState) -> tuple[object, ...]:
    view = game.view(viewer)
    others = [s for s in range(game.rules.table.players) if s != viewer]
    discards = [
        e.seat for e in view.events if type(e).__name__ == "CardsDiscarded" and e.cards is None
    ]
    sets = [frozenset(i for i in range(54) if deal.hands[s] >> i & 1) for s in others]
    sets += [frozenset(i for i in range(54) if deal.discards[s] >> i & 1) for s in discards]
    return tuple(sets)


def small_with_voids(game: spadeskit.GameState, f: Facts) -> bool:
    return bool(f.voids and any(f.voids.values())) and 30 <= count_deals(f) <= 2000


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "jjdd", "three-suit-trump"])
def test_sampled_deals_are_uniform_among_consistent_deals(variant: str) -> None:
    game, f = position(variant, small_with_voids)
    viewer = f.seat
    outcomes = list(consistent(game, viewer))
    assert len(outcomes) == count_deals(
        f
    )  # the inference counts what an independent enumeration finds
    rng = random.Random(1)
    draws = 40 * len(outcomes)
    seen = Counter(
        key_of(sample_deal(game.view(viewer), rng, game.rules, known=f), viewer, game)
        for _ in range(draws)
    )
    assert set(seen) <= set(outcomes)  # every sample is consistent
    assert chi_square_p(seen, outcomes, draws) > 1e-4


@pytest.mark.parametrize("variant", ["standard", "jjdd"])
def test_batched_deals_are_uniform_among_consistent_deals(variant: str) -> None:
    """The same check for deals drawn many at once (spadeskit.bots.deals.draw_hands)."""
    np = pytest.importorskip("numpy")
    from spadeskit.bots.deals import draw_hands
    from spadeskit.bots.inference import DealSampler

    game, f = position(variant, small_with_voids)
    viewer = f.seat
    outcomes = list(consistent(game, viewer))
    sampler = DealSampler(game.view(viewer), game.rules, f)
    draws = 40 * len(outcomes)
    hands = draw_hands(sampler, random.Random(1), np.random.default_rng(1), draws)
    n = game.rules.table.players
    blank = SampledDeal((), 0, (), (0,) * n)
    seen = Counter(
        key_of(attrs.evolve(blank, hands=tuple(int(m) for m in row)), viewer, game) for row in hands
    )
    assert set(seen) <= set(outcomes)
    assert chi_square_p(seen, outcomes, draws) > 1e-4
    assert all(int(row[viewer]) == sampler.own for row in hands)


def test_the_uniformity_check_rejects_constrained_cards_first() -> None:
    """Placing the cards of constrained suits first, then the rest, is biased: the same
    check must catch it (so the check above has teeth)."""
    game, f = position("standard", small_with_voids)
    outcomes = list(consistent(game, f.seat))
    rng = random.Random(2)
    draws = 40 * len(outcomes)

    def biased() -> tuple[object, ...]:
        while True:
            room = list(f.sizes)
            placed: list[set[int]] = [set() for _ in room]
            order = sorted(
                f.unseen, key=lambda c: -sum(1 for (p, s) in f.limits if s == f.suit_of[c])
            )
            ok = True
            for c in order:
                allowed = [
                    p
                    for p in range(len(room))
                    if room[p] and f.limits.get((p, f.suit_of[c]), 99) > 0
                ]
                if not allowed:
                    ok = False
                    break
                p = rng.choice(allowed)
                placed[p].add(c)
                room[p] -= 1
            if ok:
                return tuple(frozenset(s) for s in placed)

    seen = Counter(biased() for _ in range(draws))
    assert chi_square_p(seen, outcomes, draws) < 1e-6


def test_two_handed_pile_and_the_void_caps_after_draws() -> None:
    def late(game: spadeskit.GameState, f: Facts) -> bool:
        return any(f.limits.values()) and 0 < f.sizes[-1] <= 4 and count_deals(f) <= 3000

    game, f = position("two-handed", late)
    assert f.places[-1] == ("pile", None)
    rng = random.Random(3)
    view = game.view(f.seat)
    for _ in range(200):
        deal = sample_deal(view, rng, game.rules, known=f)
        other = 1 - f.seat
        for (place, suit), cap in f.limits.items():
            held = sum(1 for i in range(54) if deal.hands[other] >> i & 1 and f.suit_of[i] == suit)
            assert held <= cap
        assert len(deal.pile) == view.pile_size
        assert not deal.hands[f.seat] & deal.hands[other]


def test_facts_know_the_cards_passed_to_a_partner_and_ignore_voids_under_table_enforcement() -> (
    None
):
    rules = spadeskit.load_rules("standard", ["blind-nil"])
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    ]
    game = rules.new_game(deal=hands).apply(spadeskit.BlindNil())
    for _ in range(3):
        game = game.apply(spadeskit.SeeCards()).apply(spadeskit.Bid(3))
    game = game.apply(spadeskit.Exchange(["2H", "3H"])).apply(spadeskit.Exchange(["2C", "3C"]))
    f = facts(game.view(2), rules)  # S passed 2H 3H to N
    north = f.places.index(("hand", 0))
    assert sorted(spadeskit.core.cards.card_at(c).code for c in f.known[north]) == ["2H", "3H"]
    deal = sample_deal(game.view(2), random.Random(1), rules, known=f)
    assert (
        deal.hands[0] & spadeskit.Card.of("2H").bit and deal.hands[0] & spadeskit.Card.of("3H").bit
    )
    _, g = position("jjdd", lambda game, f: len(game.tricks) >= 6, options={"enforcement": "table"})
    assert not g.limits


def test_a_spectator_view_is_refused() -> None:
    game = spadeskit.load_rules("standard").new_game(seed=1)
    with pytest.raises(spadeskit.SpadesError, match="spectator"):
        facts(game.view(None), game.rules)
