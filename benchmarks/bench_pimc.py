"""PIMC's rollouts a second, unbatched and batched (not a test): CPU time over the play
decisions with a choice of card in a few standard hands played by the heuristic bot.

    python benchmarks/bench_pimc.py [--hands 6] [--rounds 3] [--specs "pimc,pimc[batched=True]"]

Each round times every spec on the same decisions, in turn (the machine is shared:
compare the specs within a round; the table shows the median of the rounds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import spadeskit
from spadeskit.arena import make_bot


def decisions(rules: spadeskit.Rules, hands: int) -> list[spadeskit.View]:
    """Return the views of every play decision with more than one legal card."""
    views = []
    for seed in range(hands):
        bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(4)]
        game = rules.new_game(seed=seed)
        match = game.match
        while game.match is match:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if game.phase is spadeskit.Phase.PLAY and len(view.legal_actions) > 1:
                views.append(view)
            game = game.apply(bots[seat].choose(view), seat)
    return views


def measure(rules: spadeskit.Rules, spec: str, views: list[spadeskit.View]) -> tuple[float, float]:
    """Return (CPU seconds a decision, rollouts a CPU second) of ``spec`` over ``views``."""
    spent = 0.0
    rollouts = 0
    for k, view in enumerate(views):
        assert view.seat is not None
        bot = make_bot(spec, view.seat, rules, random.Random(k))
        start = time.process_time()
        bot.choose(view)
        spent += time.process_time() - start
        rollouts += getattr(bot, "last_iterations", 0)
    return spent / len(views), rollouts / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--specs", default="pimc,pimc[batched=true]")
    args = parser.parse_args()
    rules = spadeskit.load_rules("standard")
    views = decisions(rules, args.hands)
    specs = args.specs.split(",") if "[" not in args.specs else _split(args.specs)
    results: dict[str, list[tuple[float, float]]] = {spec: [] for spec in specs}
    for _ in range(args.rounds):
        for spec in specs:
            results[spec].append(measure(rules, spec, views))
    print(f"{len(views)} decisions of {args.hands} standard hands, {args.rounds} rounds")
    base = statistics.median(r for _, r in results[specs[0]])
    for spec in specs:
        ms = statistics.median(s for s, _ in results[spec]) * 1000
        rate = statistics.median(r for _, r in results[spec])
        print(f"{spec:40} {ms:7.1f} ms a decision {rate:9,.0f} rollouts/s {rate / base:5.1f}x")


def _split(text: str) -> list[str]:
    """Split specs at the commas outside brackets."""
    specs, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            specs.append(text[start:i])
            start = i + 1
    specs.append(text[start:])
    return specs


if __name__ == "__main__":
    main()
