"""Where a bot loses: the deals it loses by the widest margins, hand by hand.

Plays ``--deals`` duplicate deals (each in every seating, whole matches, exactly as
``spadeskit arena`` does: the same seeds give the same matches), ranks the deals by the
challenger's summed margin, and for the worst ``--worst`` prints every hand of every
seating: both sides' bids (nils marked), tricks taken, points and bags, with the
challenger's side first, so a pattern (a nil that keeps failing, bids a trick short,
bags piling up to a penalty) shows at a glance.  A summary counts, over every hand
of every match, how often each side was set, failed a nil and paid a bag penalty.

    python benchmarks/loss_analysis.py --challenger heuristic --baseline pointcount \\
        --deals 400 --worst 8 --jobs 2
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import sys
from collections.abc import Sequence

import spadeskit
from spadeskit.arena.evaluation import evaluate
from spadeskit.arena.matchplay import Clock, mix_seed, play_match, seated, seatings
from spadeskit.core.actions import Bid, is_nil
from spadeskit.core.results import HandResult
from spadeskit.engine.rules import Rules


def replay_match(
    rules: Rules, challenger: str, baseline: str, seed: int, deal: int, number: int
) -> spadeskit.GameState:
    """Play again the match ``evaluate`` played for ``deal`` in seating ``number``."""
    seats = seatings(rules)[number]
    bots = seated(
        rules, challenger, baseline, seats, f"spadeskit arena {seed} {deal} {number}", Clock()
    )
    return play_match(rules, bots, mix_seed(seed, deal))


def bid_text(result: HandResult, seats: Sequence[int]) -> str:
    parts = []
    for s in seats:
        bid = result.bids[s]
        if is_nil(bid):
            parts.append(("nil" if result.books[s] == 0 else "NIL-FAILED") + f"({result.books[s]})")
        elif isinstance(bid, Bid):
            parts.append(f"{bid.tricks}({result.books[s]})")
        else:
            parts.append(f"{bid}({result.books[s]})")
    return " ".join(parts)


def hand_lines(rules: Rules, game: spadeskit.GameState, side: int) -> list[str]:
    """One line a hand: each side's bids (books), points and bags, challenger first."""
    sides = rules.table.sides
    order = [side] + [s for s in range(len(sides)) if s != side]
    lines = []
    for result in game.hand_results:
        if result.void:
            lines.append(f"  hand {result.number + 1:2}: void ({result.note})")
            continue
        cells = []
        for s in order:
            cells.append(
                f"{'C' if s == side else 'B'} {bid_text(result, sides[s]):<22} "
                f"{result.points[s]:+5} bags {result.bags[s]:2}"
            )
        lines.append(f"  hand {result.number + 1:2}: " + " | ".join(cells))
    return lines


def tally(
    rules: Rules, game: spadeskit.GameState, side: int, counts: collections.Counter[str]
) -> None:
    """Count sets, failed nils and bag penalties for the challenger (C) and baseline (B)."""
    sides = rules.table.sides
    for result in game.hand_results:
        if result.void:
            continue
        for s, seats in enumerate(sides):
            who = "C" if s == side else "B"
            need = sum(b.tricks for x in seats if isinstance(b := result.bids[x], Bid))
            took = sum(result.books[x] for x in seats if not is_nil(result.bids[x]))
            counts[f"{who} hands"] += 1
            counts[f"{who} set"] += need > 0 and took < need
            counts[f"{who} nils"] += sum(is_nil(result.bids[x]) for x in seats)
            counts[f"{who} nils failed"] += sum(
                is_nil(result.bids[x]) and result.books[x] > 0 for x in seats
            )
            counts[f"{who} bag penalties"] += any(line.bags < 0 for line in result.lines_for(s))
            counts[f"{who} bid"] += need
            counts[f"{who} took"] += took


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--house", default="", help="house rules, comma-separated")
    parser.add_argument("--challenger", default="heuristic")
    parser.add_argument("--baseline", default="pointcount")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worst", type=int, default=8, help="deals to print hand by hand")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    house = [h for h in args.house.split(",") if h]
    rules = spadeskit.load_rules(args.variant, house)
    executor = concurrent.futures.ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        result = evaluate(
            rules,
            args.challenger,
            args.baseline,
            deals=args.deals,
            seed=args.seed,
            executor=executor,
            progress=sys.stderr.isatty(),
        )
    finally:
        if executor is not None:
            executor.shutdown()
    print(result.table())
    by_deal: dict[int, list[int]] = collections.defaultdict(list)
    for outcome in result.outcomes:
        by_deal[outcome.deal].append(outcome.margin)
    worst = sorted(by_deal, key=lambda d: sum(by_deal[d]))[: args.worst]
    counts: collections.Counter[str] = collections.Counter()
    for outcome in result.outcomes:
        game = replay_match(
            rules, args.challenger, args.baseline, args.seed, outcome.deal, outcome.seating
        )
        tally(rules, game, outcome.side, counts)
    print("\nper hand, challenger (C) and baseline (B):")
    for who in "CB":
        hands = counts[f"{who} hands"] or 1
        print(
            f"  {who}: bid {counts[f'{who} bid'] / hands:.2f}, took "
            f"{counts[f'{who} took'] / hands:.2f}, set {counts[f'{who} set'] / hands:.1%}, "
            f"nils {counts[f'{who} nils']} ({counts[f'{who} nils failed']} failed), "
            f"bag penalties {counts[f'{who} bag penalties']}"
        )
    for deal in worst:
        print(f"\ndeal {deal}: challenger's margin {sum(by_deal[deal]):+} over its seatings")
        for outcome in result.outcomes:
            if outcome.deal != deal:
                continue
            game = replay_match(
                rules, args.challenger, args.baseline, args.seed, deal, outcome.seating
            )
            verdict = "won" if outcome.won else "lost"
            print(
                f" seating {outcome.seating} (challenger at {outcome.challenger_seats}): "
                f"{verdict} {outcome.scores}, margin {outcome.margin:+}"
            )
            print("\n".join(hand_lines(rules, game, outcome.side)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
