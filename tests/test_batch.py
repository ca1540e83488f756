"""The batched engine (``spadeskit.batch``, the ``fast`` extra): every batched hand
replays through the step API to the same books, points and bags; batched hands follow
the distribution of ``Rules.simulate``; a rule set it cannot derive is refused."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

import spadeskit  # noqa: E402
from spadeskit.batch import BatchUnsupported, engine_for  # noqa: E402
from spadeskit.bots import greedy_card  # noqa: E402
from spadeskit.core.cards import card_at  # noqa: E402

BATCHED = [
    "standard",
    "standard+no-trump-first-trick",
    "standard+spades-anytime",
    "standard+no-bags",
    "standard+boston",
    "standard+partnership-nil",
    "standard+jokers",
    "standard+hidden-bids",
    "standard+mirror",
    "standard+whiz",
    "cutthroat",
    "cutthroat+no-bags",
    "call-break",
    "three-suit-trump",
]


def load(spec: str) -> spadeskit.Rules:
    variant, *house = spec.split("+")
    return spadeskit.load_rules(variant, house)


def replay_hand(rules: spadeskit.Rules, batch: Any, i: int, greedy: bool) -> spadeskit.GameState:
    """Step hand ``i`` of ``batch`` through the step API; with ``greedy``, check that
    every following card is the one greedy_card picks."""
    game = rules.new_game(deal=batch.deal(i), dealer=int(batch.dealer[i]))
    engine = rules.engine
    for seat, action in batch.actions(i):
        if greedy and isinstance(action, spadeskit.Play) and game.trick:
            rows = rules.strength_table(game.contract.trump)
            chosen = greedy_card(
                game.trick,
                engine.tricks.legal_mask(game),
                seat,
                rows,
                rules.ranking.suit_of,
                rules.side_of,
            )
            assert chosen == action.card.bit, (i, action)
        game = game.apply(action, seat)
    return game


@pytest.mark.parametrize("spec", BATCHED)
def test_every_batched_hand_replays_through_the_step_api_to_the_same_score(spec: str) -> None:
    """1,000 hands at random and 200 with greedy followers per rule set: every bid and
    card is legal when stepped through apply(), and the hand ends with the batch's
    books, points and bag counters."""
    rules = load(spec)
    for policy, hands in (("random", 1000), ("greedy", 200)):
        [batch] = rules.simulate_batch(hands, seed=7, policy=policy)
        assert len(batch) == hands
        for i in range(hands):
            game = replay_hand(rules, batch, i, policy == "greedy")
            [result] = game.hand_results
            assert result.books == tuple(batch.books[i])
            assert result.points == tuple(batch.points[i])
            assert result.bags == tuple(batch.bags[i])
            if batch.leaves:  # an auction read as a tree (three-suit-trump)
                declarer = int(batch.declarer[i])
                took = [s for s, bid in enumerate(result.bids) if bid == spadeskit.PickUp()]
                assert took == ([declarer] if declarer >= 0 else [])
                continue
            assert [b if isinstance(b, spadeskit.Bid) else None for b in result.bids] == [
                spadeskit.Bid(int(t)) if not nil else None
                for t, nil in zip(batch.bids[i], batch.nil[i], strict=True)
            ]


def test_hand_i_depends_only_on_seed_and_i() -> None:
    rules = load("standard")
    whole = [b.books for b in rules.simulate_batch(3000, seed=9)]
    split = [b.books for b in rules.simulate_batch(3000, seed=9, chunk=700)]
    later = [b.books for b in rules.simulate_batch(1000, seed=9, start=1500)]
    assert (np.concatenate(whole) == np.concatenate(split)).all()
    assert (np.concatenate(later) == np.concatenate(whole)[1500:2500]).all()
    other = np.concatenate([b.books for b in rules.simulate_batch(3000, seed=10)])
    assert (other != np.concatenate(whole)).any()


def test_columns_are_named_by_seat_and_side() -> None:
    [batch] = load("standard").simulate_batch(50, seed=1)
    columns = batch.columns()
    assert {"hand", "dealer", "bid_N", "nil_W", "books_S", "points_N/S", "bags_E/W"} <= set(columns)
    assert all(len(column) == 50 for column in columns.values())
    [three] = load("three-suit-trump").simulate_batch(500, seed=1)
    columns = three.columns()
    assert {"declarer", "card_points_N", "books_E", "points_S"} <= set(columns)
    assert "bid_N" not in columns
    points = sum(columns[f"card_points_{name}"] for name in ("N", "E", "S"))
    assert (points == 300).all()  # every card counts, the blind and the discards too
    passed = columns["declarer"] == -1
    assert 0 < passed.sum() < 500 and (three.leaf[passed] == len(three.leaves) - 1).all()


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("two-handed", "deals a draw pile"),
        ("jjdd", "review before scoring"),
        ("standard+blind-nil", "followed by an exchange"),
    ],
)
def test_a_rule_set_the_engine_cannot_derive_is_refused_naming_the_part(
    spec: str, why: str
) -> None:
    with pytest.raises(BatchUnsupported, match=why) as refused:
        list(load(spec).simulate_batch(10))
    assert refused.value.code == "not-batched"


def test_a_menu_that_depends_on_the_partners_bid_is_refused() -> None:
    """A third-party auction rule reading more than the bidder's own cards (here: bid
    what your partner bid, if they have) cannot be asked hand by hand."""
    from test_one_rulebook import house_rule

    def copy_partner(game: spadeskit.GameState, seat: int) -> Any:
        partner = game.bids[(seat + 2) % 4]
        return [partner] if isinstance(partner, spadeskit.Bid) else None

    rules = spadeskit.load_rules(
        "standard", [house_rule("copycat", spadeskit_auction_actions=copy_partner)]
    )
    with pytest.raises(BatchUnsupported, match="beyond the bidder's own cards"):
        engine_for(rules)


def test_a_state_a_hook_keeps_is_never_changed_by_the_batched_auction() -> None:
    """Under mirror each hand's menus are asked of the rules; the state asked about is
    reused in place only while nobody holds it: one a hook kept stays as it was."""
    from test_one_rulebook import house_rule

    kept: list[tuple[spadeskit.GameState, tuple[int, ...]]] = []

    def keeper(game: spadeskit.GameState, seat: int) -> Any:
        if len(kept) < 500:
            kept.append((game, game.hands))
        return None

    plugin = house_rule("keeper")
    plugin.spadeskit_auction_actions = spadeskit.hookimpl(tryfirst=True)(keeper)  # type: ignore[attr-defined]
    rules = spadeskit.load_rules("standard", ["mirror", plugin])
    [batch] = rules.simulate_batch(300, seed=2)
    assert len(kept) == 500
    assert all(game.hands == hands for game, hands in kept)
    for i in range(20):  # and the bids are still those of each hand's own cards
        game = replay_hand(rules, batch, i, False)
        assert game.hand_results[0].points == tuple(batch.points[i])


def test_an_auction_tree_whose_contract_depends_on_the_cards_is_refused() -> None:
    """A third-party rule for three-suit-trump: a bidder holding the ace of spades plays
    without trump.  The same auction then makes different contracts on different deals,
    which the tree cannot hold."""
    from test_one_rulebook import house_rule

    ace = spadeskit.Card.of("AS").bit

    def no_trump_with_the_ace(game: spadeskit.GameState) -> Any:
        answer = yield
        if isinstance(answer, spadeskit.core.seating.Contract) and answer.declarer is not None:
            if game.hands[answer.declarer] & ace:
                return attrs.evolve(answer, trump="none")
        return answer

    plugin = house_rule("ace-no-trump")
    plugin.spadeskit_auction_next = spadeskit.hookimpl(wrapper=True)(no_trump_with_the_ace)  # type: ignore[attr-defined]
    rules = spadeskit.load_rules("three-suit-trump", [plugin])
    with pytest.raises(BatchUnsupported, match="contract differs between deals"):
        engine_for(rules)
    engine_for(spadeskit.load_rules("three-suit-trump"))  # the variant alone is batched


def test_a_plain_python_filter_is_refused_by_name() -> None:
    from test_one_rulebook import house_rule, late_hearts_through_an_alias

    rules = spadeskit.load_rules(
        "standard", [house_rule("late-hearts", spadeskit_play_filters=late_hearts_through_an_alias)]
    )
    with pytest.raises(BatchUnsupported, match="'late-hearts' .* is plain Python"):
        engine_for(rules)


def test_bad_arguments_are_typed_errors() -> None:
    rules = load("standard")
    for kwargs, what in (
        ({"hands": -1}, "number of hands"),
        ({"hands": 10, "policy": "smart"}, "policy"),
        ({"hands": 10, "seed": 1.5}, "seed"),
        ({"hands": 10, "chunk": 0}, "chunk"),
    ):
        with pytest.raises(spadeskit.SpadesError, match=what):
            rules.simulate_batch(**kwargs)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# Batched hands follow simulate's distributions
# ------------------------------------------------------------------------------------------


def chi2_sf(x: float, df: int) -> float:
    """Return P(X > x) for a chi-square variable with ``df`` degrees of freedom (the
    regularized upper incomplete gamma function, by its continued fraction)."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    if z < a + 1:  # the series for the lower function
        term = total = 1 / a
        k = a
        while term > total * 1e-15:
            k += 1
            term *= z / k
            total += term
        return 1 - total * math.exp(-z + a * math.log(z) - math.lgamma(a))
    b, c, d = z + 1 - a, 1e300, 1 / (z + 1 - a)
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / d if abs(d) > 1e-300 else 1e300
        c = b + an / c if abs(c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h * math.exp(-z + a * math.log(z) - math.lgamma(a))


def homogeneity_p(first: Sequence[int], second: Sequence[int]) -> float:
    """Return the chi-square test's p-value that two samples of small integers come
    from one distribution (values pooled into bins of at least 20 expected counts)."""
    values = sorted(set(first) | set(second))
    counts = [[0, 0] for _ in values]
    where = {v: i for i, v in enumerate(values)}
    for column, sample in enumerate((first, second)):
        for v in sample:
            counts[where[v]][column] += 1
    bins: list[list[int]] = []
    for row in counts:
        if bins and sum(bins[-1]) < 40:
            bins[-1][0] += row[0]
            bins[-1][1] += row[1]
        else:
            bins.append(list(row))
    if len(bins) > 1 and sum(bins[-1]) < 40:
        last = bins.pop()
        bins[-1][0] += last[0]
        bins[-1][1] += last[1]
    totals = [sum(r[c] for r in bins) for c in (0, 1)]
    grand = sum(totals)
    stat = 0.0
    for row in bins:
        for c in (0, 1):
            expected = sum(row) * totals[c] / grand
            stat += (row[c] - expected) ** 2 / expected
    return chi2_sf(stat, len(bins) - 1) if len(bins) > 1 else 1.0


def test_the_chi_square_test_tells_different_samples_apart() -> None:
    assert chi2_sf(3.84, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi2_sf(18.307, 10) == pytest.approx(0.05, abs=1e-3)
    rng = np.random.default_rng(1)
    same = homogeneity_p(rng.binomial(13, 0.25, 20000), rng.binomial(13, 0.25, 20000))
    shifted = homogeneity_p(rng.binomial(13, 0.25, 20000), rng.binomial(13, 0.27, 20000))
    assert same > 0.01 and shifted < 1e-6


HANDS = 20_000


@pytest.mark.slow
@pytest.mark.parametrize("spec", BATCHED)
def test_batched_hands_follow_the_distribution_of_simulate(spec: str) -> None:
    """20,000 batched hands against 20,000 of Rules.simulate: the books of the first
    seat to bid, each side's points, and the first side's bag counter (chi-square
    homogeneity tests; p below 0.001 fails)."""
    rules = load(spec)
    batch = list(rules.simulate_batch(HANDS, seed=3))
    stepped = list(rules.simulate(HANDS, seed=3))
    n = rules.table.players
    first = [(int(d) + 1) % n for b in batch for d in b.dealer]
    books = np.concatenate([b.books for b in batch])
    points = np.concatenate([b.points for b in batch])
    bags = np.concatenate([b.bags for b in batch])
    checks = {
        "books of the first bidder": (
            [int(books[i, s]) for i, s in enumerate(first)],
            [r.books[(r.dealer + 1) % n] for r in stepped],
        ),
        "bags of side 0": (bags[:, 0].tolist(), [r.bags[0] for r in stepped]),
    }
    for side in range(len(rules.table.sides)):
        checks[f"points of side {side}"] = (
            points[:, side].tolist(),
            [r.points[side] for r in stepped],
        )
    for name, (mine, theirs) in checks.items():
        p = homogeneity_p(mine, theirs)
        assert p > 0.001, f"{spec}: {name} differ from simulate's (p = {p:.2g})"


@pytest.mark.slow
def test_greedy_batched_hands_follow_simulate_with_the_greedy_follower() -> None:
    rules = load("standard")
    engine = rules.engine

    def greedy(state: spadeskit.GameState, legal: Sequence[spadeskit.Action]) -> Any:
        if state.phase is not spadeskit.Phase.PLAY or not state.trick:
            return legal[int(policy_rng.random() * len(legal))]
        rows = rules.strength_table(state.contract.trump)
        seat = state.to_act
        bit = greedy_card(
            state.trick,
            engine.tricks.legal_mask(state),
            seat,
            rows,
            rules.ranking.suit_of,
            rules.side_of,
        )
        return spadeskit.Play(spadeskit.core.cards.card_at(bit.bit_length() - 1))

    policy_rng = random.Random(5)
    hands = 6000

    def most_books(books: Any) -> list[int]:
        return [int(max(row)) for row in books]

    batch = np.concatenate([b.books for b in rules.simulate_batch(hands, 4, "greedy")])
    stepped = most_books(r.books for r in rules.simulate(hands, seed=4, policy=greedy))
    assert homogeneity_p(most_books(batch), stepped) > 0.001
    random_play = np.concatenate([b.books for b in rules.simulate_batch(hands, 4)])
    assert homogeneity_p(most_books(random_play), stepped) < 1e-6  # greedy play differs


def replay_row(
    game: spadeskit.GameState, seat: int, cards: Any, record: dict[str, Any], row: int
) -> spadeskit.GameState:
    """Step row ``row`` of a batched playout from ``game`` through apply(): the row's
    card for ``seat``, then every card ``record`` says was played after it."""
    state = game.apply(spadeskit.Play(card_at(int(cards[row]))), seat)
    for who, card in zip(record["seats"][row], record["plays"][row], strict=True):
        if card >= 0:
            state = state.apply(spadeskit.Play(card_at(int(card))), int(who))
    return state


@pytest.mark.parametrize("spec", ["standard", "call-break", "standard+jokers"])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_batched_playouts_from_a_hand_in_progress_replay_through_the_step_api(
    spec: str, policy: str
) -> None:
    """Search's batched playouts: from states midway through the play (a trick on the
    table, bags in the match), every row replayed through apply() ends with the same
    books, and its reward is the one search computes from the hand's result."""
    from spadeskit.bots.determinize import side_values

    variant, *house = spec.split("+")
    options = {"floor": None} if variant == "standard" else {}  # random bids sink fast
    rules = spadeskit.load_rules(variant, house, options)
    engine = engine_for(rules)
    rng = np.random.default_rng(3)
    bagged = 0
    for seed in range(6):
        game = rules.new_game(seed=seed)
        steps = random.Random(seed)
        while not game.hand_results:  # the second hand: the match has scores and bags
            game = game.apply(steps.choice(game.legal_actions()))
        bagged += any(game.match.bags)
        while game.phase is not spadeskit.Phase.PLAY or len(game.tricks) < 1 + seed % 5:
            game = game.apply(steps.choice(game.legal_actions()))
        for _ in range(seed % 3):
            game = game.apply(steps.choice(game.legal_actions()))
        seat = game.to_act
        plays = [a.card.index for a in game.legal_actions()]
        rows = np.array([game.hands] * (2 * len(plays)), dtype=np.uint64)
        cards = np.array(plays * 2)
        record: dict[str, Any] = {}
        rewards = engine.play_out(game, rows, cards, policy, rng, record)
        for row in range(len(cards)):
            state = replay_row(game, seat, cards, record, row)
            result = state.hand_results[-1]
            assert result.books == tuple(record["books"][row])
            expected = side_values(
                result.points, result.lines, len(rules.table.sides), rules.table.score_unit
            )
            assert list(rewards[row]) == pytest.approx(expected)
    assert bagged or spec == "call-break"


def test_batched_playouts_weigh_the_match_end_as_search_does() -> None:
    """play_out(match_weight=5): each row's reward is the one search's Rewards gives the
    replayed hand's result with the match's end (a low target and floor: many end it)."""
    from spadeskit.bots.determinize import Rewards

    rules = spadeskit.load_rules("standard", options={"target": 150, "floor": -150})
    engine = engine_for(rules)
    rng = np.random.default_rng(5)
    ended = 0
    for seed in range(5):
        game = rules.new_game(seed=seed)
        steps = random.Random(seed)
        while game.phase is not spadeskit.Phase.PLAY or len(game.tricks) < 3:
            game = game.apply(steps.choice(game.legal_actions()))
        seat = game.to_act
        plays = [a.card.index for a in game.legal_actions()]
        rows = np.array([game.hands] * (4 * len(plays)), dtype=np.uint64)
        cards = np.array(plays * 4)
        record: dict[str, Any] = {}
        rewards = engine.play_out(game, rows, cards, "random", rng, record, match_weight=5.0)
        expected_of = Rewards(rules, 5.0)
        for row in range(len(cards)):
            state = replay_row(game, seat, cards, record, row)
            ended += state.match.end is not None
            expected = expected_of.of_result(state.hand_results[-1], state.match.end)
            assert list(rewards[row]) == pytest.approx(expected)
    assert ended > 10


def test_pimc_with_batched_playouts_plays_whole_hands() -> None:
    from spadeskit.arena import make_bot, play_match

    rules = spadeskit.load_rules("standard", options={"target": 100})
    bots = [
        make_bot("pimc[batched=True,iterations=60,bid_deals=2]", s, rules, random.Random(s))
        for s in range(4)
    ]
    assert all(bot._batch is not None for bot in bots)
    game = play_match(rules, bots, seed=3)
    assert game.is_over and max(bot.last_iterations for bot in bots) >= 60
    # A rule set the batched engine does not take is searched as without it.
    jjdd = spadeskit.load_rules("jjdd", options={"target": 100})
    fallback = make_bot("pimc[batched=True,iterations=30,bid_deals=2]", 0, jjdd, random.Random(0))
    assert fallback._batch is None
    assert play_match(
        jjdd,
        [fallback] + [make_bot("heuristic", s, jjdd, random.Random(s)) for s in (1, 2, 3)],
        seed=1,
    ).is_over


@given(
    st.lists(
        st.tuples(st.integers(0, 2**64 - 1), st.floats(0.0, 1.0, exclude_max=True)),
        min_size=1,
        max_size=40,
    )
)
def test_a_random_choice_takes_the_kth_legal_card_counting_from_the_lowest(
    rows: list[tuple[int, float]],
) -> None:
    """The batched random choice (``kth_bit``) picks, from each mask, its
    ``int(u * popcount)``-th set bit counting from the lowest; an empty mask gives 0."""
    from spadeskit.batch.common import kth_bit

    masks = np.array([m for m, _ in rows], dtype=np.uint64)
    draws = np.array([u for _, u in rows], dtype=np.float64)
    got = kth_bit(masks, draws).tolist()
    for (mask, u), bit in zip(rows, got, strict=True):
        places = [i for i in range(64) if mask >> i & 1]
        assert bit == (1 << places[int(u * len(places))] if places else 0)
