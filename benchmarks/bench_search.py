"""How fast the search bots think (not a test): ISMCTS iterations per second in the middle
of standard hands, and how many fit in 0.25 s.

    python benchmarks/bench_search.py [--positions 8] [--iterations 1500] [--rollout greedy]
                                      [--tricks 6]

Positions are random deals after six tricks; each is searched once with a fixed number
of iterations and timed in CPU time (``time.process_time``); the table shows the
median and the range, since the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

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
    args = parser.parse_args()
    print(f"core: {'compiled (mypyc)' if spadeskit.NATIVE else 'pure Python'}")
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


if __name__ == "__main__":
    main()
