"""How fast the search bots think (not a test): ISMCTS iterations per second in the middle
of standard hands, and how many fit in 0.25 s; with ``--openspiel``, ISMCTS beside
OpenSpiel's C++ ``MCTSBot`` on its own ``spades``, in the same run.

    python benchmarks/bench_search.py [--positions 8] [--iterations 1500] [--rollout greedy]
                                      [--tricks 6] [--openspiel [--rounds 5]]

Positions are random deals after six tricks; each is searched once with a fixed number
of iterations and timed in CPU time (``time.process_time``); the table shows the
median and the range, since the machine is shared.

``--openspiel`` (needs the ``openspiel`` extra) times, round after round, one decision
of ``ISMCTSBot(iterations=N)`` (its defaults otherwise: greedy playouts, veto 0.2) at
each position, then one of OpenSpiel's C++ ``MCTSBot`` (UCT constant 2, ``N``
simulations, one random rollout each, no solver) at the same point of its own
``spades`` hands (dealt and bid at random, chance sampled through
``chance_outcomes()``), ``--tricks`` tricks in.  It prints the median decision of each
per round, the median of the per-round ratios and their range.  MCTSBot searches the
true state (it sees every hand), ISMCTS the seat's information set, each drawing a
deal per iteration.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from typing import Any

import spadeskit
from spadeskit.bots.search import ISMCTSBot, PIMCBot


def positions(rules: spadeskit.Rules, count: int, tricks: int) -> list[spadeskit.GameState]:
    found = []
    for seed in range(count):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while game.phase is not spadeskit.Phase.PLAY or len(game.tricks) < tricks:
            game = game.apply(rng.choice(game.legal_actions()))
        found.append(game)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=1500)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--tricks", type=int, default=6, help="tricks played before each position")
    parser.add_argument("--rollout", default="random", help="random or greedy playouts")
    parser.add_argument("--openspiel", action="store_true", help="ISMCTS beside MCTSBot")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of --openspiel")
    args = parser.parse_args()
    if args.openspiel:
        beside_openspiel(args)
        return
    print(f"core: {'native (mypyc)' if spadeskit.NATIVE else 'pure Python'}")
    rules = spadeskit.load_rules(args.variant)
    for cls in (ISMCTSBot, PIMCBot):
        rates = []
        spent = []
        for game in positions(rules, args.positions, args.tricks):
            seat = game.to_act
            assert seat is not None
            bot = cls(iterations=args.iterations, rollout=args.rollout)
            bot.reset(seat, rules, random.Random(1))
            start = time.process_time()
            bot.choose(game.view(seat))
            spent.append(time.process_time() - start)
            rates.append(bot.last_iterations / spent[-1])
        median = statistics.median(rates)
        print(
            f"{cls.__name__:10} {args.variant} ({args.rollout} playouts): {median:,.0f} "
            "iterations/s median "
            f"({min(rates):,.0f}-{max(rates):,.0f}); {median * 0.25:,.0f} in 0.25 s; "
            f"{1000 * statistics.median(spent):.1f} ms a decision at {args.iterations} "
            f"iterations after {args.tricks} tricks"
        )


def openspiel_positions(count: int, tricks: int) -> list[Any]:
    """Return OpenSpiel ``spades`` states dealt and bid at random, ``tricks`` tricks in."""
    import pyspiel

    game = pyspiel.load_game("spades")
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node() or state.legal_actions()[0] >= 52:  # deal, bids
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        for _ in range(4 * tricks):
            state.apply_action(rng.choice(state.legal_actions()))
        found.append(state)
    return found


def beside_openspiel(args: argparse.Namespace) -> None:
    import pyspiel

    rules = spadeskit.load_rules("standard")
    ours = positions(rules, args.positions, args.tricks)
    theirs = openspiel_positions(args.positions, args.tricks)
    game = pyspiel.load_game("spades")

    def ismcts(k: int) -> float:
        state = ours[k]
        seat = state.to_act
        assert seat is not None
        bot = ISMCTSBot(iterations=args.iterations)
        bot.reset(seat, rules, random.Random(k))
        start = time.process_time()
        bot.choose(state.view(seat))
        return time.process_time() - start

    def mcts(k: int) -> float:
        evaluator = pyspiel.RandomRolloutEvaluator(1, k)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, args.iterations, 1000, False, k, False)
        start = time.process_time()
        bot.step(theirs[k])
        return time.process_time() - start

    ismcts(0), mcts(0)  # warm up
    rows = []
    for _ in range(args.rounds):
        a = statistics.median(ismcts(k) for k in range(args.positions))
        b = statistics.median(mcts(k) for k in range(args.positions))
        rows.append((a, b))
    ratios = [b / a for a, b in rows]
    print(
        f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}, core: {'native (mypyc)' if spadeskit.NATIVE else 'pure'}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{args.iterations} iterations a decision after {args.tricks} tricks, "
        f"{args.positions} positions, {args.rounds} rounds (medians of each round):"
    )
    for k, (a, b) in enumerate(rows):
        print(f"  round {k + 1}: ISMCTSBot {1000 * a:6.1f} ms   MCTSBot (C++) {1000 * b:5.1f} ms")
    print(
        f"ISMCTSBot {1000 * statistics.median(a for a, _ in rows):.1f} ms, MCTSBot "
        f"{1000 * statistics.median(b for _, b in rows):.1f} ms a decision; speed ratio "
        f"(MCTSBot time / ISMCTS time) {statistics.median(ratios):.3f}x "
        f"(range {min(ratios):.3f}-{max(ratios):.3f})"
    )


if __name__ == "__main__":
    main()
