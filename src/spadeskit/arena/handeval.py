"""Single hands played by two bots on duplicate deals: :func:`evaluate_hands`.

Far cheaper than whole matches (:func:`spadeskit.arena.evaluate`); each hand starts
from 0-0 with no bags, from hands drawn from real matches (``contexts="matches"``) or
from given states.  The arena (:mod:`spadeskit.arena.evaluation`) re-exports the public names.
"""

from __future__ import annotations

import concurrent.futures
import functools
import math
import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from spadeskit.arena.intervals import clopper_pearson, sign_test
from spadeskit.arena.matchplay import (
    BotSpec,
    Clock,
    aligned,
    cpu_summary,
    cpu_text,
    loaded_rules,
    make_bot,
    mix_seed,
    run_deals,
    seated,
    seatings,
    spec_name,
)
from spadeskit.core.errors import SpadesError, shown
from spadeskit.core.state import GameState, Phase
from spadeskit.engine.rules import Rules


@attrs.frozen
class HandOutcome:
    """One hand of :func:`evaluate_hands`: the deal, the seating, and the challenger
    side's points against the best other side's (in stored points)."""

    deal: int
    seating: int
    challenger_seats: tuple[int, ...]
    points: tuple[int, ...]
    margin: int
    cpu: tuple[float, int, float, int] = (0.0, 0, 0.0, 0)
    """CPU seconds and decisions of the challenger's bots, then of the baseline's."""
    hand: int = 0
    """The hand's number in its match (0: a match's first hand)."""

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


CONTEXT_HANDS = 40
"""Hands at most of the match a context is drawn from (see :func:`evaluate_hands`)."""


def match_context(rules: Rules, baseline: BotSpec, seed: int, label: str) -> GameState:
    """Return the start of a hand drawn from a real match: the baseline's bots play a
    match from ``seed`` (at most :data:`CONTEXT_HANDS` hands) and one of its hand starts
    is picked at random, the first hand only if the match had no other."""
    bots = [
        make_bot(baseline, s, rules, random.Random(f"{label} context {s}"))
        for s in range(rules.table.players)
    ]
    game = rules.new_game(seed=seed)
    starts = []
    while not game.is_over and len(game.hand_results) < CONTEXT_HANDS:
        if not game.auction and game.phase is Phase.AUCTION and game.number:
            starts.append(game)
        seat = game.to_act
        assert seat is not None
        game = game.apply(bots[seat].choose(game.view(seat)), seat)
    return random.Random(f"{label} context").choice(starts) if starts else rules.new_game(seed=seed)


def _check_contexts(rules: Rules, contexts: Sequence[GameState]) -> None:
    if not contexts:
        raise SpadesError("contexts is a non-empty list of states at the start of a hand")
    for state in contexts:
        if (
            not isinstance(state, GameState)
            or state.rules != rules
            or state.is_over
            or state.phase is not Phase.AUCTION
            or state.auction
        ):
            raise SpadesError(
                f"a context is a state of {rules.name!r} at the start of a hand (before its "
                f"first bid, the match not over), not {shown(state, 40)}"
            )


def _play_hands(
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    seed: int,
    deals: Sequence[int],
    contexts: str | Sequence[GameState] | None = None,
) -> list[HandOutcome]:
    outcomes = []
    for deal in deals:
        if isinstance(contexts, str):  # "matches", as evaluate_hands checked
            start = match_context(
                rules, baseline, mix_seed(seed, deal), f"spadeskit arena hand {seed} {deal}"
            )
        elif contexts is not None:  # states at hand starts, checked there too
            start = contexts[deal % len(contexts)]
        else:
            start = rules.new_game(seed=mix_seed(seed, deal))
        done = len(start.hand_results)
        for number, seats in enumerate(seatings(rules)):
            clock = Clock()
            bots = seated(
                rules,
                challenger,
                baseline,
                seats,
                f"spadeskit arena hand {seed} {deal} {number}",
                clock,
            )
            game = start
            while len(game.hand_results) == done and not game.is_over:
                seat = game.to_act
                assert seat is not None
                game = game.apply(bots[seat].choose(game.view(seat)), seat)
            result = game.hand_results[done]
            side = rules.side_of[seats[0]]
            others = [p for i, p in enumerate(result.points) if i != side]
            outcomes.append(
                HandOutcome(
                    deal,
                    number,
                    seats,
                    result.points,
                    result.points[side] - max(others) if others else 0,
                    clock.totals(),
                    done,
                )
            )
    return outcomes


@attrs.frozen
class HandEvaluation:
    """The result of :func:`evaluate_hands`: the challenger side's mean margin a hand,
    paired by deal (the mean over a deal's seatings), with a 95% interval (normal
    approximation over deals), in shown points."""

    rules: str
    challenger: str
    baseline: str
    deals: int
    seed: int
    unit: int
    outcomes: tuple[HandOutcome, ...] = attrs.field(repr=False)
    context: str = "first hands"

    def per_deal(self) -> list[float]:
        by: dict[int, list[int]] = {}
        for o in self.outcomes:
            by.setdefault(o.deal, []).append(o.margin)
        return [sum(v) / len(v) / self.unit for _, v in sorted(by.items())]

    @property
    def mean_margin(self) -> float:
        values = self.per_deal()
        return sum(values) / len(values) if values else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        values = self.per_deal()
        if len(values) < 2:
            return -math.inf, math.inf
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        half = 1.96 * sd / math.sqrt(len(values))
        return mean - half, mean + half

    @property
    def deals_won(self) -> tuple[int, int]:
        """Return how many deals the challenger's side came out ahead on (its mean margin
        over the deal's seatings above zero) and how many behind; the rest were even."""
        values = self.per_deal()
        return sum(1 for v in values if v > 0), sum(1 for v in values if v < 0)

    @property
    def win_rate(self) -> tuple[float, float, float]:
        """Return the share of decided deals (not even) the challenger came out ahead on,
        with its 95% Clopper–Pearson interval: 0.5 for a bot as strong as the baseline."""
        plus, minus = self.deals_won
        if not plus + minus:
            return 0.5, 0.0, 1.0
        low, high = clopper_pearson(plus, plus + minus)
        return plus / (plus + minus), low, high

    def summary(self) -> dict[str, Any]:
        low, high = self.interval
        plus, minus = self.deals_won
        return {
            "rules": self.rules,
            "challenger": self.challenger,
            "baseline": self.baseline,
            "deals": self.deals,
            "hands": len(self.outcomes),
            "seed": self.seed,
            "context": self.context,
            "mean_margin_per_hand": self.mean_margin,
            "margin_interval_95": [low, high],
            "cpu_per_decision": cpu_summary(self.outcomes),
            "sign_test": {
                "deals_for": plus,
                "deals_against": minus,
                "p_value": sign_test(plus, minus),
            },
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.summary(), "outcomes": [o.to_json() for o in self.outcomes]}

    def table(self) -> str:
        low, high = self.interval
        data = self.summary()["sign_test"]
        rows = [
            ("rules", self.rules),
            ("challenger v baseline", f"{self.challenger} v {self.baseline}"),
            (
                "hands",
                f"{self.deals} deals x {len(self.outcomes) // max(1, self.deals)} seatings "
                f"= {len(self.outcomes)} hands",
            ),
            ("hands from", self.context),
            ("mean margin a hand", f"{self.mean_margin:+.2f} (95% CI {low:+.2f} to {high:+.2f})"),
            (
                "paired sign test",
                f"{data['deals_for']} deals for, {data['deals_against']} against: "
                f"p = {data['p_value']:.3g}",
            ),
            ("CPU a decision", cpu_text(self.outcomes)),
        ]
        return aligned(rows)


def evaluate_hands(
    rules: Rules,
    challenger: BotSpec,
    baseline: BotSpec,
    deals: int = 100,
    seed: int = 0,
    *,
    executor: concurrent.futures.Executor | None = None,
    batch: int = 5,
    contexts: str | Sequence[GameState] | None = None,
) -> HandEvaluation:
    """Play one hand of each of ``deals`` deals in every seating and return the
    challenger's mean score margin a hand (:class:`HandEvaluation`): the measure for
    slow bots, where whole matches cost too much.  Independent of executor and batch.

    Which hand: by default the first of a new match (0 to 0, no bags, so the bag
    penalty never fires and nobody plays to a target).  ``contexts="matches"`` draws
    each deal's hand from a real match instead: the baseline's bots play a match from
    the deal's seed and one of its hand starts after the first is picked at random
    (:func:`match_context`), scores and bags as they stood; then both bots play that
    hand from there.  Or give ``contexts``, a list of states at the start of a hand
    (deal ``i`` plays ``contexts[i % len(contexts)]``).  The margin is the points the
    hand scored, the bag penalty included when it fires."""
    loaded_rules(rules)
    label = "first hands"
    if type(contexts) is str and contexts == "matches":
        label = "hand starts of real matches (scores and bags as they stood)"
    elif contexts is not None:
        if isinstance(contexts, (str, bytes)) or not isinstance(contexts, Iterable):
            raise SpadesError(f"contexts is 'matches' or a list of states, not {shown(contexts)}")
        contexts = tuple(contexts)
        _check_contexts(rules, contexts)
        label = f"{len(contexts)} given hand starts"
    outcomes = run_deals(
        functools.partial(_play_hands, contexts=contexts),
        rules,
        challenger,
        baseline,
        deals,
        seed,
        executor,
        batch,
        False,
    )
    return HandEvaluation(
        rules.name,
        spec_name(challenger),
        spec_name(baseline),
        deals,
        seed,
        rules.table.score_unit,
        tuple(outcomes),
        label,
    )
