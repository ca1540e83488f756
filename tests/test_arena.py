"""The arena: bot specs, duplicate seatings, statistics, and results that do not depend
on batches or executors."""

from __future__ import annotations

import concurrent.futures
import json
import random
from typing import Any

import pytest

import spadeskit
from spadeskit.arena import (
    Evaluation,
    clopper_pearson,
    evaluate,
    make_bot,
    play_match,
    seatings,
    sign_test,
)
from spadeskit.bots import RandomBot, SimpleBot
from spadeskit.bots.heuristic import HeuristicBot


def test_bots_are_named_by_short_name_module_and_class_or_given_as_a_class() -> None:
    rules = spadeskit.load_rules("standard")
    rng = random.Random(1)
    assert isinstance(make_bot("random", 0, rules, rng), RandomBot)
    assert isinstance(make_bot("simple", 0, rules, rng), SimpleBot)
    assert isinstance(make_bot("heuristic", 0, rules, rng), HeuristicBot)
    assert isinstance(
        make_bot("spadeskit.bots.heuristic:HeuristicBot", 0, rules, rng), HeuristicBot
    )
    assert isinstance(make_bot(SimpleBot, 0, rules, rng), SimpleBot)
    for bad, why in (
        ("genius", "no bot named 'genius'"),
        ("nowhere.at_all:Bot", "cannot import"),
        ("spadeskit.bots:Nobody", "has no class 'Nobody'"),
        (42, "a bot is a name"),
    ):
        with pytest.raises(spadeskit.SpadesError, match=why):
            make_bot(bad, 0, rules, rng)


def test_seatings_put_the_challenger_on_every_side_or_in_every_seat_order() -> None:
    assert seatings(spadeskit.load_rules("standard")) == [(0, 2), (1, 3)]
    assert len(seatings(spadeskit.load_rules("cutthroat"))) == 6
    assert sorted(seatings(spadeskit.load_rules("two-handed"))) == [(0,), (1,)]


def test_play_match_plays_to_the_end_and_names_a_bot_that_cheats() -> None:
    rules = spadeskit.load_rules("standard", options={"target": 100})
    game = play_match(rules, [RandomBot(s) for s in range(4)], seed=1)
    assert game.is_over

    class Cheat:
        def choose(self, view: spadeskit.View) -> spadeskit.Action:
            return (
                spadeskit.Bid(13)
                if spadeskit.Bid(13) not in view.legal_actions
                else spadeskit.Play("AS")
            )

    with pytest.raises(spadeskit.SpadesError, match=r"the bot at seat 0 \(Cheat\) chose"):
        play_match(rules, [Cheat(), *(RandomBot(s) for s in range(3))], seed=1)
    with pytest.raises(spadeskit.SpadesError, match="needs 4 bots"):
        play_match(rules, [RandomBot()], seed=1)


def test_clopper_pearson_matches_known_intervals() -> None:
    low, high = clopper_pearson(0, 10)
    assert low == 0 and abs(high - 0.3085) < 1e-3
    low, high = clopper_pearson(10, 10)
    assert abs(low - 0.6915) < 1e-3 and high == 1
    low, high = clopper_pearson(50, 100)
    assert abs(low - 0.3983) < 1e-3 and abs(high - 0.6017) < 1e-3
    assert abs(sign_test(10, 0) - 2 * 0.5**10) < 1e-12
    assert sign_test(5, 5) == 1.0 and sign_test(0, 0) == 1.0


def small(rules: spadeskit.Rules, **kwargs: object) -> Evaluation:
    return evaluate(rules, "heuristic", "random", deals=4, seed=3, **kwargs)  # type: ignore[arg-type]


def played(evaluation: Any) -> dict[str, Any]:
    """An evaluation's JSON without the CPU times (measured, so never the same twice),
    keeping how many decisions each bot made."""
    data = evaluation.to_json()
    cpu = data.pop("cpu_per_decision")
    data["decisions"] = (cpu["challenger_decisions"], cpu["baseline_decisions"])
    data["outcomes"] = [{**o, "cpu": (o["cpu"][1], o["cpu"][3])} for o in data["outcomes"]]
    return data


def test_results_do_not_depend_on_batch_size_or_executor() -> None:
    rules = spadeskit.load_rules("standard", options={"target": 200})
    here = small(rules, batch=4)
    assert played(small(rules, batch=1)) == played(here)
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        assert played(small(rules, batch=3, executor=pool)) == played(here)
    with concurrent.futures.ThreadPoolExecutor(2) as threads:
        assert played(small(rules, batch=1, executor=threads)) == played(here)


def test_an_evaluation_pairs_deals_and_reports_its_statistics() -> None:
    rules = spadeskit.load_rules("standard", options={"target": 200})
    result = evaluate(rules, "heuristic", "random", deals=5, seed=1)
    assert result.matches == 10 and {o.deal for o in result.outcomes} == set(range(5))
    assert [o.seating for o in result.outcomes] == [0, 1] * 5
    data = json.loads(json.dumps(result.to_json()))
    assert (
        data["matches"] == 10
        and 0 <= data["win_interval_95"][0] <= data["win_rate"] <= data["win_interval_95"][1]
    )
    assert result.wins >= 9 and result.sign[0] >= 4 and result.mean_margin > 0
    assert "challenger won" in result.table() and "paired sign test" in result.table()


def test_evaluate_refuses_bad_arguments_before_playing() -> None:
    rules = spadeskit.load_rules("standard")
    with pytest.raises(spadeskit.SpadesError, match="deals is a whole number"):
        evaluate(rules, "simple", "random", deals=0)
    with pytest.raises(spadeskit.SpadesError, match="no bot named 'smart'"):
        evaluate(rules, "smart", "random", deals=1)


def test_three_player_evaluations_use_all_six_seatings() -> None:
    result = evaluate(
        spadeskit.load_rules("three-suit-trump", options={"target": 3}),
        "heuristic",
        "random",
        deals=2,
        seed=2,
    )
    assert result.matches == 12 and abs(result.fair_share - 1 / 3) < 1e-12
    assert sorted({o.challenger_seats[0] for o in result.outcomes}) == [0, 1, 2]


def test_hand_evaluation_counts_deals_won_by_their_mean_margin_and_gives_a_win_rate() -> None:
    """A deal counts for the challenger when its margin averaged over the seatings is
    above zero, against when below, and not at all when even; the win rate is the share
    of decided deals, with a Clopper-Pearson interval."""
    from spadeskit.arena import HandEvaluation, HandOutcome

    margins = {0: (30, -10), 1: (-40, 20), 2: (10, -10), 3: (50, 0)}
    outcomes = tuple(
        HandOutcome(deal, k, (0, 1, 2, 3), (0, 0), m)
        for deal, pair in margins.items()
        for k, m in enumerate(pair)
    )
    result = HandEvaluation("standard", "a", "b", 4, 0, 1, outcomes)
    assert result.deals_won == (2, 1)
    rate, low, high = result.win_rate
    assert rate == pytest.approx(2 / 3)
    assert (low, high) == pytest.approx(clopper_pearson(2, 3))
    assert result.summary()["sign_test"]["deals_for"] == 2


class _ZeroBidder(HeuristicBot):
    """Bids 0 whenever the auction offers it; otherwise the heuristic bot."""

    def choose(self, view: spadeskit.View) -> spadeskit.Action:
        zero = spadeskit.Bid(0)
        return zero if zero in view.legal_actions else super().choose(view)


def test_a_zero_bid_without_nil_is_a_contract_bid_in_the_arena_counts() -> None:
    """jjdd has no nil by default: a bid of 0 is part of the side's contract, its books
    count toward it, and the arena counts it as a contract, never as a nil."""
    from spadeskit.arena.evaluation import _outcome
    from spadeskit.arena.matchplay import Clock

    rules = spadeskit.load_rules("jjdd", options={"target": 100})
    bots: list[Any] = [_ZeroBidder(), HeuristicBot(), HeuristicBot(), HeuristicBot()]
    for seat, bot in enumerate(bots):
        bot.reset(seat, rules, random.Random(seat))
    game = play_match(rules, bots, seed=2)
    results = [r for r in game.hand_results if not r.void]
    assert any(r.bids[0] == spadeskit.Bid(0) for r in results)
    outcome = _outcome(0, 0, (0, 2), game, Clock())
    assert outcome.nils == 0
    assert outcome.contracts == len(results)
    made = sum(r.books[0] + r.books[2] >= r.bids[0].tricks + r.bids[2].tricks for r in results)
    assert outcome.contracts_made == made
