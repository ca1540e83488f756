"""Search bots: determinizations consistent with the view, legal whole hands in every
variant they search, budgets, and reproducibility with a seed."""

from __future__ import annotations

import random

import pytest
from test_arena import played

import spadeskit
from spadeskit.arena import evaluate_hands, make_bot, match_context, play_match
from spadeskit.bots.search import Determinizer, ISMCTSBot, PIMCBot


def mid_hand(
    variant: str, seed: int, tricks: int = 4, house: tuple[str, ...] = ()
) -> spadeskit.GameState:
    rules = spadeskit.load_rules(variant, house)
    game = rules.new_game(seed=seed)
    rng = random.Random(seed)
    while game.phase is not spadeskit.Phase.PLAY or len(game.tricks) < tricks:
        game = game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(
    "variant, house",
    [
        ("standard", ()),
        ("standard", ("blind-nil",)),
        ("jjdd", ()),
        ("cutthroat", ()),
        ("three-suit-trump", ()),
        ("call-break", ()),
    ],
)
def test_determinizations_agree_with_everything_the_seat_sees(
    variant: str, house: tuple[str, ...]
) -> None:
    for seed in range(4):
        game = mid_hand(variant, seed, house=house)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        determinizer = Determinizer(view, game.rules, random.Random(seed))
        rng = random.Random(seed + 100)
        for _ in range(20):
            state = determinizer.sample(rng)
            seen = state.view(seat)
            assert (
                seen.cards,
                seen.tricks,
                seen.trick,
                seen.bids,
                seen.books,
                seen.card_counts,
            ) == (view.cards, view.tricks, view.trick, view.bids, view.books, view.card_counts)
            assert seen.legal_actions == view.legal_actions
            held = 0
            for mask in state.hands:
                assert not held & mask
                held |= mask


@pytest.mark.parametrize("spec", ["ismcts[iterations=30]", "pimc[iterations=30]"])
@pytest.mark.parametrize(
    "variant", ["standard", "jjdd", "three-suit-trump", "two-handed", "call-break"]
)
def test_search_bots_play_whole_matches_legally(spec: str, variant: str) -> None:
    rules = spadeskit.load_rules(
        variant,
        options={"target": 100}
        if variant in ("standard", "jjdd")
        else {"rounds": 1}
        if variant == "call-break"
        else {},
    )
    bots = [
        make_bot(spec if s == 0 else "heuristic", s, rules, random.Random(s))
        for s in range(rules.table.players)
    ]
    game = rules.new_game(seed=3)
    while not game.hand_results:
        seat = game.to_act
        assert seat is not None
        game = game.apply(
            bots[seat].choose(game.view(seat)), seat
        )  # apply refuses an illegal choice


def test_a_seed_reproduces_every_choice_and_the_budget_is_kept() -> None:
    game = mid_hand("standard", 7)
    seat = game.to_act
    assert seat is not None
    choices = []
    for _ in range(2):
        bot = ISMCTSBot(iterations=200)
        bot.reset(seat, game.rules, random.Random(42))
        choices.append(bot.choose(game.view(seat)))
        assert bot.last_iterations == 200
    assert choices[0] == choices[1]
    timed = PIMCBot(iterations=None, seconds=0.05)
    timed.reset(seat, game.rules, random.Random(1))
    timed.choose(game.view(seat))
    assert 0 < timed.last_iterations


def test_a_bot_without_a_budget_is_refused() -> None:
    with pytest.raises(spadeskit.SpadesError, match="give a budget"):
        ISMCTSBot(iterations=None, seconds=None)
    with pytest.raises(spadeskit.SpadesError, match="rollout is .random., .greedy. or .heuristic."):
        PIMCBot(rollout="smart")


def test_search_does_not_overtake_its_partners_winning_card_when_last_to_play() -> None:
    """W plays last to a club trick its partner E is winning with the J♣: the search keeps
    its K♣ and A♣ (later winners) and plays the 3♣."""
    hands = [
        "2C 4C 5C 6C 7C 8C 9C QC 2D 3D 4D 5D 6D",
        "10C JC 7D 8D 9D 10D JD QD KD AD 2H 3H 4H",
        "5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S",
        "3C KC AC 5S 6S 7S 8S 9S 10S JS QS KS AS",
    ]
    rules = spadeskit.load_rules("standard")
    game = rules.new_game(deal=hands)
    for bid in (spadeskit.Bid(1), spadeskit.Bid(3), spadeskit.Bid(1), spadeskit.Bid(9)):
        game = game.apply(bid)
    game = game.apply(spadeskit.Play("9C")).apply(spadeskit.Play("JC")).apply(spadeskit.Play("5H"))
    for cls in (ISMCTSBot, PIMCBot):
        bot = cls(iterations=300, veto=0)  # search alone: the heuristic bot overtakes here
        bot.reset(3, rules, random.Random(1))
        assert bot.choose(game.view(3)) == spadeskit.Play("3C")


def test_evaluate_hands_pairs_deals_and_is_independent_of_batching() -> None:
    rules = spadeskit.load_rules("standard")
    one = evaluate_hands(rules, "heuristic", "random", deals=3, seed=1, batch=1)
    two = evaluate_hands(rules, "heuristic", "random", deals=3, seed=1, batch=3)
    assert played(one) == played(two) and len(one.outcomes) == 6
    assert one.mean_margin > 0 and "mean margin a hand" in one.table()


def test_with_a_veto_the_heuristics_card_stands_unless_search_finds_a_clearly_better_one() -> None:
    from spadeskit.bots.heuristic import HeuristicBot

    for seed in range(5):
        game = mid_hand("standard", seed, tricks=3)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        heuristic = HeuristicBot(game.rules)
        for cls in (PIMCBot, ISMCTSBot):
            bot = cls(iterations=60, veto=1000.0)  # no card can beat it by 1000 hundreds
            bot.reset(seat, game.rules, random.Random(seed))
            assert bot.choose(view) == heuristic.choose(view)
    with pytest.raises(spadeskit.SpadesError, match="veto is a number"):
        PIMCBot(veto=-1)


@pytest.mark.parametrize(
    "variant", ["standard", "jjdd", "three-suit-trump", "call-break", "cutthroat"]
)
def test_the_fast_scoring_path_scores_exactly_as_a_full_rollout(variant: str) -> None:
    """random_play_score plays the same cards as a rollout drawing the same floats, and
    scores the hand the same, without closing it."""
    from spadeskit.bots.determinize import fast_rollout

    for seed in range(6):
        game = mid_hand(variant, seed, tricks=2)
        fast = game.rules.engine.playouts.random_play_score(game, random.Random(seed).random)
        assert fast is not None
        end = fast_rollout(game, random.Random(seed), None)
        result = end.match.results[-1]
        assert (fast.points, [line.text for line in fast.lines]) == (
            result.points,
            [line.text for line in result.lines],
        )


@pytest.mark.parametrize("variant", ["standard", "jjdd", "three-suit-trump", "cutthroat"])
def test_the_score_memo_answers_as_scoring_afresh(variant: str) -> None:
    """random_play_score with a memo (scores kept by books where the scoring did not read
    the cards won) gives the same score as without, rollout after rollout; where the
    scoring reads the cards won (three-suit-trump counts card points) nothing is kept."""
    for seed in range(3):
        game = mid_hand(variant, seed, tricks=3)
        engine = game.rules.engine
        memo: dict[object, object] = {}
        with_memo, afresh = random.Random(seed), random.Random(seed)
        for _ in range(60):
            kept = engine.playouts.random_play_score(game, with_memo.random, memo)  # type: ignore[arg-type]
            fresh = engine.playouts.random_play_score(game, afresh.random)
            assert kept is not None and fresh is not None
            assert (kept.points, kept.scores, kept.bags, [line.text for line in kept.lines]) == (
                fresh.points,
                fresh.scores,
                fresh.bags,
                [line.text for line in fresh.lines],
            )
        if variant == "three-suit-trump":
            assert not memo
        else:
            assert 0 < len(memo) < 60


@pytest.mark.parametrize("variant", ["standard", "jjdd", "cutthroat", "three-suit-trump"])
def test_compiled_greedy_playouts_play_as_the_greedy_policy(variant: str) -> None:
    """random_play_score(follower=greedy_card) plays the cards the greedy policy picks on
    the full path (drawing the same floats for the leads), so both score the hand the same;
    and so does the loop's own call of the engine's greedy follower (``greedy_follow``,
    called directly rather than as a Python callable)."""
    from spadeskit.bots import greedy_card
    from spadeskit.bots.search import greedy_policy
    from spadeskit.engine.loop import greedy_follow

    for seed in range(8):
        game = mid_hand(variant, seed, tricks=2)
        result = game.rollout(seed=0, policy=greedy_policy(random.Random(seed))).match.results[-1]
        for follower in (greedy_card, greedy_follow):
            fast = game.rules.engine.playouts.random_play_score(
                game, random.Random(seed).random, follower=follower
            )
            assert fast is not None
            assert fast.points == result.points
            assert [line.text for line in fast.lines] == [line.text for line in result.lines]


def test_greedy_card_takes_cheaply_ducks_under_a_partner_and_discards_low() -> None:
    """The greedy follower: the cheapest card that wins, the cheapest card when its
    partner is winning or nothing wins, a side-suit discard before a trump."""
    from spadeskit.bots import greedy_card

    rules = spadeskit.load_rules("standard")
    rows = rules.strength_table("spades")
    suit_of, side_of = rules.ranking.suit_of, rules.side_of

    def pick(trick: list[tuple[int, str]], hand: list[str], seat: int) -> str:
        allowed = 0
        for code in hand:
            allowed |= spadeskit.parse_card(code).bit
        played = [(s, spadeskit.parse_card(code).index) for s, code in trick]
        bit = greedy_card(played, allowed, seat, rows, suit_of, side_of)
        return next(c.code for c in rules.table.deck if c.bit == bit)

    assert pick([(0, "9H")], ["2H", "10H", "KH"], 1) == "10H"  # the cheapest winner
    assert pick([(0, "9H"), (1, "KH")], ["2H", "QH", "AH"], 2) == "AH"
    assert pick([(0, "9H"), (1, "3H")], ["2H", "10H", "KH"], 2) == "2H"  # partner winning: duck
    assert pick([(0, "AH")], ["2H", "10H"], 1) == "2H"  # nothing wins: the lowest
    assert pick([(0, "9H")], ["3S", "KC"], 1) == "3S"  # void: ruff cheaply
    assert (
        pick([(0, "9H"), (1, "2S")], ["3C", "KD", "AS"], 2) == "AS"
    )  # an opponent ruffed: over-ruff
    assert (
        pick([(0, "9H"), (1, "2S"), (2, "5H")], ["3C", "KD", "AS"], 3) == "3C"
    )  # partner ruffed: low


def test_greedy_card_takes_any_sequences_and_agrees_with_the_engines_follower() -> None:
    """``greedy_card`` accepts lists where the engine's typed ``greedy_follow`` (which
    the compiled loop calls) takes tuples, and picks the same card on every trick of
    random hands."""
    from spadeskit.bots import greedy_card
    from spadeskit.engine.loop import greedy_follow

    rules = spadeskit.load_rules("standard")
    suit_of, side_of = rules.ranking.suit_of, rules.side_of
    rng = random.Random(7)
    checked = 0
    for seed in range(20):
        game = rules.new_game(seed=seed)
        while not game.is_over and game.number == 0:
            if game.phase is spadeskit.Phase.PLAY and game.trick:
                rows = rules.strength_table(game.contract.trump)
                allowed = rules.engine.tricks.legal_mask(game)
                seat = game.to_act
                expected = greedy_follow(game.trick, allowed, seat, rows, suit_of, side_of)
                as_lists = greedy_card(
                    [list(p) for p in game.trick],
                    allowed,
                    seat,
                    [list(row) for row in rows],
                    list(suit_of),
                    list(side_of),
                )
                assert as_lists == expected and expected & allowed
                checked += 1
            game = game.apply(rng.choice(game.legal_actions()))
    assert checked > 500


def test_evaluate_hands_from_match_contexts_sees_scores_and_bags() -> None:
    """Hands drawn from real matches start with the scores and bags as they stood, so
    the bag penalty can fire; the same deals give the same hands whatever the batch."""
    rules = spadeskit.load_rules("standard")
    one = evaluate_hands(rules, "heuristic", "simple", deals=8, seed=2, contexts="matches")
    two = evaluate_hands(rules, "heuristic", "simple", deals=8, seed=2, contexts="matches", batch=3)
    assert played(one) == played(two)
    assert sum(o.hand > 0 for o in one.outcomes) >= 12
    assert "hand starts of real matches" in one.table() and "CPU a decision" in one.table()
    data = one.summary()["cpu_per_decision"]
    assert data["challenger_decisions"] > 0 and data["challenger_seconds"] > 0
    # The same hand start, given: each deal plays it.
    start = match_context(rules, "simple", 5, "given")
    given = evaluate_hands(rules, "heuristic", "simple", deals=2, seed=2, contexts=[start])
    assert {o.hand for o in given.outcomes} == {start.number}
    with pytest.raises(spadeskit.SpadesError, match="start of a hand"):
        evaluate_hands(
            rules, "heuristic", "simple", deals=1, contexts=[start.apply(start.legal_actions()[0])]
        )
    with pytest.raises(spadeskit.SpadesError, match="'matches' or a list"):
        evaluate_hands(rules, "heuristic", "simple", deals=1, contexts="games")


def test_match_contexts_carry_the_bags_that_make_the_penalty_a_threat() -> None:
    """Hand starts drawn from real matches mostly have bags on the books, some close to
    the penalty (a hand's first hand never has any)."""
    rules = spadeskit.load_rules("standard")
    starts = [match_context(rules, "heuristic", seed, f"bags {seed}") for seed in range(16)]
    assert sum(1 for s in starts if any(s.match.bags)) >= 10
    assert max(max(s.match.bags) for s in starts) >= 6
    assert all(s.number >= 1 and s.phase is spadeskit.Phase.AUCTION for s in starts)


def test_match_aware_rewards_add_the_weight_for_the_side_that_wins_the_match() -> None:
    """With match_weight, a playout after which the match would end (the rules' own
    match-end hook: a side at the target or one at the floor) adds the weight to the
    winning side's reward and takes it from the others; any other playout scores as the
    hand alone."""
    from spadeskit.bots.determinize import Rewards

    rules = spadeskit.load_rules("standard", options={"target": 150, "floor": -150})
    engine = rules.engine
    ended = 0
    for seed in range(12):
        game = rules.new_game(seed=seed)
        steps = random.Random(seed)
        while game.phase is not spadeskit.Phase.PLAY:
            game = game.apply(steps.choice(game.legal_actions()))
        plain, aware = Rewards(rules), Rewards(rules, 5.0)
        for draw in range(40):
            hand = plain.of_play(game, random.Random(draw).random)
            weighed = aware.of_play(game, random.Random(draw).random)
            outcome = engine.playouts.random_play_outcome(game, random.Random(draw).random)
            assert hand is not None and weighed is not None and outcome is not None
            end = outcome[1]
            if end is None:
                assert weighed == hand
            else:
                ended += 1
                assert weighed == [
                    v + (5.0 if side == end.winner else -5.0) for side, v in enumerate(hand)
                ]
    assert ended > 50  # low target and floor: many playouts end the match


def test_a_match_aware_search_bot_plays_whole_matches() -> None:
    rules = spadeskit.load_rules("standard", options={"target": 150})
    for spec in (
        "pimc[match_weight=5,iterations=40,bid_deals=4]",
        "ismcts[match_weight=5,iterations=60,bid_deals=4]",
    ):
        bots = [make_bot(spec, s, rules, random.Random(s)) for s in range(4)]
        assert play_match(rules, bots, seed=2).is_over
    with pytest.raises(spadeskit.SpadesError, match="match_weight"):
        PIMCBot(match_weight=-1)
