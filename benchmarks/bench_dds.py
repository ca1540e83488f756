"""How fast the double-dummy solver is (not a test): CPU time and positions searched per
solve, over random standard deals, and beside endplay's DDS (C++) when it is installed.

    python benchmarks/bench_dds.py [--deals 200] [--left 6] [--full 3] [--endplay]
    SPADESKIT_PURE=1 python benchmarks/bench_dds.py ...   # the pure-Python core

Each deal is played at random (bids of 3, random legal cards) to the start of a trick
with ``--left`` tricks to play; :func:`spadeskit.analysis.solve` then finds the tricks
of the side on lead, timed in CPU time (``time.process_time``).  The table gives the
median, the 90th percentile and the maximum, and the same for the positions searched.
``--full`` solves that many whole deals (13 tricks) at the first lead, with the same
table (the issue's targets: a whole deal within 1 s, 6 tricks left within 20 ms).  ``--endplay``
times endplay's ``solve_board`` on the same positions (it also gives every card's
result, so the cost of ``values=True`` is timed beside it) and prints the ratio of the
medians.  The machine is shared: compare figures from one run only.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

import spadeskit
from spadeskit import GameState, Phase
from spadeskit.analysis import solve


def position(seed: int, left: int) -> GameState:
    """Return a standard deal played at random to the start of a trick, ``left`` to play."""
    rng = random.Random(seed)
    game = spadeskit.load_rules("standard").new_game(seed=seed)
    for _ in range(4):
        game = game.apply(spadeskit.Bid(3))
    while len(game.tricks) < 13 - left or game.trick:
        game = game.apply(rng.choice(game.legal_actions()))
    assert game.phase is Phase.PLAY
    return game


def quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    return (
        statistics.median(ordered),
        ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        ordered[-1],
    )


def timed(
    games: list[GameState], solver: Callable[[GameState], int]
) -> tuple[list[float], list[int]]:
    spent, nodes = [], []
    for game in games:
        start = time.process_time()
        nodes.append(solver(game))
        spent.append(time.process_time() - start)
    return spent, nodes


def endplay_solver() -> Callable[[GameState], int] | None:
    try:
        from endplay import dds, types
    except ImportError:
        return None
    ranks = "23456789TJQKA"

    def pbn(game: GameState) -> str:
        hands = []
        for mask in game.hands:
            suits = []
            for suit in (3, 2, 1, 0):
                cards = [ranks[i % 13] for i in range(suit * 13, suit * 13 + 13) if mask >> i & 1]
                suits.append("".join(reversed(cards)))
            hands.append(".".join(suits))
        return "N:" + " ".join(hands)

    def run(game: GameState) -> int:
        deal = types.Deal(pbn(game), first=types.Player(game.to_act), trump=types.Denom.spades)
        dds.solve_board(deal)
        return 0

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--left", type=int, default=6, help="tricks left to play")
    parser.add_argument("--full", type=int, default=20, help="whole deals to solve")
    parser.add_argument("--endplay", action="store_true", help="time endplay's DDS beside it")
    args = parser.parse_args()
    print(
        f"machine: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}; {time.strftime('%Y-%m-%d')}; core: "
        f"{'native (mypyc)' if spadeskit.NATIVE else 'pure Python'}; load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    games = [position(seed, args.left) for seed in range(args.deals)]
    solve(games[0])  # warm up: the rules' play model is built once

    def tricks_only(game: GameState) -> int:
        return solve(game).nodes

    def with_values(game: GameState) -> int:
        return solve(game, values=True).nodes

    rows = [("spadeskit solve", tricks_only), ("spadeskit values", with_values)]
    other = endplay_solver() if args.endplay else None
    if other is not None:
        rows.append(("endplay solve_board", other))
    medians = {}
    for name, solver in rows:
        spent, nodes = timed(games, solver)
        p50, p90, most = quantiles(spent)
        medians[name] = p50
        line = (
            f"{name:20} {args.left} tricks left, {len(games)} deals: "
            f"p50 {p50 * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, max {most * 1000:.1f} ms"
        )
        if any(nodes):
            n50, n90, nmax = quantiles([float(n) for n in nodes])
            line += f"; nodes p50 {n50:,.0f}, p90 {n90:,.0f}, max {nmax:,.0f}"
        print(line)
    if other is not None:
        ratio = medians["spadeskit values"] / medians["endplay solve_board"]
        print(f"spadeskit values / endplay solve_board (medians): {ratio:.1f}x the time")
    if args.full:
        spent, nodes = timed([position(seed, 13) for seed in range(args.full)], tricks_only)
        p50, p90, most = quantiles(spent)
        n50, n90, nmax = quantiles([float(n) for n in nodes])
        print(
            f"{'whole deals':20} 13 tricks, {args.full} deals: p50 {p50:.2f} s, p90 {p90:.2f} s, "
            f"max {most:.2f} s; nodes p50 {n50:,.0f}, p90 {n90:,.0f}, max {nmax:,.0f}; "
            f"load average {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
