"""Measure the learning-agent interfaces in agent steps per CPU second (not a test).

Rows, each in interleaved rounds of ``--round`` CPU seconds (the median of the per-round
ratios, and their range, as bench_core.py does):

* the PettingZoo AEC environment (``spadeskit.interop.pettingzoo``, one hand an episode),
  its observations read straight from the state (:mod:`spadeskit.interop.arrays`),
  against the same environment observing as 0.2.0 did: building the seat's view, with
  its event list, and encoding it (:meth:`spadeskit.engine.encoding.Encoding.observation`);
* :class:`spadeskit.rl.VectorSpadesEnv` (the ``rl`` extra), 1,024 tables stepped together,
  a uniformly random legal action a table, against random and against greedy opponents,
  in self-play (every seat learning; an agent step is then one seat's decision), and 64
  tables against HeuristicBot opponents;
* :class:`spadeskit.rl.SpadesEnv`, the single-table Gymnasium environment, one hand an
  episode against random opponents, a uniformly random legal action from
  ``info["action_mask"]`` at each of the learning seat's steps;
* OpenSpiel's ``spades`` played at random from Python, each decision with its
  ``observation_tensor()`` (the anchor every row is also compared with); chance is
  sampled from ``chance_outcomes()``.

A second table puts the single-table environment beside OpenSpiel's ``spades`` in hands
per CPU second (the same work: a hand dealt, bid, played and scored; OpenSpiel's 56
decisions each observed, the environment's 14 observed and its opponents' 42 chosen),
from the same rounds.  Last come the speed guards of issue 52: the vector environment
at 200,000 agent steps per CPU second or more (1,024 tables, random opponents), and the
single-table environment within 3x of OpenSpiel's ``spades`` in hands per CPU second.
The first guard is absolute, so the vector environment's ratio to OpenSpiel's ``spades``
in the same rounds is printed beside it (the machine's speed cancels out of a ratio).

An agent step is one decision: ``env.last()`` (the observation and its action mask)
then ``env.step(action)`` with a uniformly random legal action.

    pip install -e '.[openspiel,pettingzoo,rl]'
    python benchmarks/bench_rl.py [--round 1.0] [--rounds 5]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_core import rate

import spadeskit
from spadeskit.interop.pettingzoo import SpadeskitEnv

SINGLE = "SpadesEnv (one table), random opponents"
VECTOR = "VectorSpadesEnv, 1,024 tables, random opponents"
ANCHOR = "OpenSpiel spades, with observation_tensor"

Unit = Callable[[], int]
"""Does some work and returns how many agent steps it took."""


class ViewObservingEnv(SpadeskitEnv):
    """The environment observing as 0.2.0 did: a full view, then its encoding."""

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        view = self.game.view(seat)
        encoding = self.encoding
        mask = np.zeros(encoding.num_actions, np.int8)
        if not self.game.is_over and self.game.to_act == seat:
            mask[encoding.ids_of(self.game.legal_actions(seat))] = 1
        return {
            "observation": np.asarray(encoding.observation(view), np.float32),
            "action_mask": mask,
        }


def pettingzoo_unit(cls: type[SpadeskitEnv]) -> Unit:
    """Return a unit playing one hand (an episode) of the environment at random."""
    env = cls(match=False)
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def unit() -> int:
        env.reset(seed=next(seeds))
        steps = 0
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps

    return unit


def vector_unit(opponents: str, tables: int = 1024) -> Unit | None:
    """Return a unit taking one step of ``tables`` tables of the vector environment with
    a uniformly random legal action each (``opponents="self"``: every seat learns), or
    None without Gymnasium."""
    try:
        from spadeskit.rl import VectorSpadesEnv, random_actions
    except ImportError:
        return None
    seats = (0, 1, 2, 3) if opponents == "self" else 0
    others = "random" if opponents == "self" else opponents
    env = VectorSpadesEnv(tables, opponents=others, seat=seats, autoreset_mode="SameStep")
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    state = {"info": info}

    def unit() -> int:
        *_, state["info"] = env.step(random_actions(state["info"]["action_mask"], rng))
        return tables

    return unit


def single_unit() -> Unit | None:
    """Return a unit playing one hand (an episode) of the single-table environment with
    a uniformly random legal action at each step, or None without Gymnasium."""
    try:
        from spadeskit.rl import SpadesEnv
    except ImportError:
        return None
    env = SpadesEnv()
    rng = random.Random(0)
    env.reset(seed=0)

    def unit() -> int:
        _, info = env.reset()
        steps = 0
        while True:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            _, _, ended, _, info = env.step(action)
            steps += 1
            if ended:
                return steps

    return unit


def openspiel_unit() -> Unit | None:
    """Return a unit playing one random hand of OpenSpiel's spades with observations."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(0)

    def unit() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            state.observation_tensor()
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return unit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=float, default=1.0, help="CPU seconds per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    args = parser.parse_args()
    contenders: dict[str, Unit] = {
        "PettingZoo, observing from the state": pettingzoo_unit(SpadeskitEnv),
        "PettingZoo, observing a view (0.2.0)": pettingzoo_unit(ViewObservingEnv),
    }
    for opponents, tables in (
        ("random", 1024),
        ("greedy", 1024),
        ("self", 1024),
        ("heuristic", 64),
    ):
        vector = vector_unit(opponents, tables)
        if vector is not None:
            label = "self-play" if opponents == "self" else f"{opponents} opponents"
            contenders[f"VectorSpadesEnv, {tables:,} tables, {label}"] = vector
    single = single_unit()
    if single is not None:
        contenders[SINGLE] = single
    anchor = openspiel_unit()
    if anchor is not None:
        contenders[ANCHOR] = anchor
    # Warm every contender up once.  The two that play one hand a call give their steps
    # per hand (always the same: a bid and 13 cards; 4 bids and 52 cards).
    per_hand = {name: unit() for name, unit in contenders.items()}
    print(f"spadeskit {spadeskit.__version__} RL benchmark, {datetime.date.today()}")
    print(
        f"machine: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}; {args.rounds} interleaved rounds of {args.round} "
        "CPU s; agent steps per CPU second, medians (range of the per-round ratios); "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, unit in contenders.items():
            rates[name].append(rate(unit, args.round))
    base = "PettingZoo, observing a view (0.2.0)"
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print()
    print(f"| {'contender':<48} | {'steps/s':>9} | {'vs 0.2.0 env':>18} |")
    print(f"|{'-' * 50}|{'-' * 11}|{'-' * 20}|")
    for name, values in rates.items():
        ratios = [v / b for v, b in zip(values, rates[base], strict=True)]
        spread = f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
        print(f"| {name:<48} | {statistics.median(values):>9,.0f} | {spread:>18} |")
    if SINGLE in rates and ANCHOR in rates:
        hands = {name: [v / per_hand[name] for v in rates[name]] for name in (SINGLE, ANCHOR)}
        ratios = [a / b for a, b in zip(hands[SINGLE], hands[ANCHOR], strict=True)]
        print()
        print(f"| {'one hand, deal to score':<48} | {'hands/s':>9} | {'vs OpenSpiel':>18} |")
        print(f"|{'-' * 50}|{'-' * 11}|{'-' * 20}|")
        for name in (SINGLE, ANCHOR):
            mine = statistics.median(hands[name])
            spread = (
                f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
                if name == SINGLE
                else "1.00x"
            )
            print(f"| {name:<48} | {mine:>9,.0f} | {spread:>18} |")
        guard = statistics.median(ratios) >= 1 / 3
        print(f"\nguard: the single table within 3x of OpenSpiel: {'met' if guard else 'MISSED'}")
    if VECTOR in rates:
        speed = statistics.median(rates[VECTOR])
        guard = speed >= 200_000
        print(f"guard: the vector env at 200,000 steps/s or more: {'met' if guard else 'MISSED'}")
        if ANCHOR in rates:
            # The guard is absolute, so a loaded or throttled machine misses it; beside
            # OpenSpiel in the same rounds the machine's speed cancels out.
            ratios = [v / a for v, a in zip(rates[VECTOR], rates[ANCHOR], strict=True)]
            print(
                f"  the vector env steps {statistics.median(ratios):.2f}x OpenSpiel's agent "
                f"steps per CPU second ({min(ratios):.2f}-{max(ratios):.2f}): the guard is "
                f"{200_000 / statistics.median(rates[ANCHOR]):.2f}x OpenSpiel's on this "
                "machine now"
            )


if __name__ == "__main__":
    main()
