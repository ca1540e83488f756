"""Whole matches of one bot against another in chunks that survive an interruption (not a
test): each chunk of ``--chunk`` duplicate deals (both seatings) is one
:func:`~spadeskit.arena.evaluate` call with its own seed, its result appended to a JSON
lines file as it ends; ``--summary`` adds up whatever chunks have finished.

    python benchmarks/dd_strength.py --challenger "pimc[solve_last=8]" --baseline pimc \\
        --deals 150 --out /tmp/dd.jsonl [--chunk 4] [--seed 5000] [--jobs 2]
    python benchmarks/dd_strength.py --out /tmp/dd.jsonl --summary

A long comparison on a shared machine may not finish: the summary of the chunks done is
an honest interim figure (a smaller sample, with its wider interval).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import time

import spadeskit
from spadeskit.arena import evaluate
from spadeskit.arena.intervals import clopper_pearson


def run(args: argparse.Namespace) -> None:
    rules = spadeskit.load_rules(args.variant)
    done = 0
    if os.path.exists(args.out):
        with open(args.out) as lines:
            done = sum(json.loads(line)["deals"] for line in lines if line.strip())
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        chunk = done // args.chunk
        while done < args.deals:
            start = time.time()
            result = evaluate(
                rules,
                args.challenger,
                args.baseline,
                deals=args.chunk,
                seed=args.seed + chunk,
                executor=pool,
                batch=1,
            )
            data = result.to_json()
            data["wall_seconds"] = time.time() - start
            data.pop("outcomes", None)
            with open(args.out, "a") as out:
                out.write(json.dumps(data) + "\n")
            done += args.chunk
            chunk += 1


def summary(path: str) -> None:
    with open(path) as lines:
        chunks = [json.loads(line) for line in lines if line.strip()]
    if not chunks:
        print("no chunk has finished yet")
        return
    matches = sum(c["matches"] for c in chunks)
    wins = sum(c["wins"] for c in chunks)
    deals = sum(c["deals"] for c in chunks)
    low, high = clopper_pearson(wins, matches)
    signs = [c["sign_test"] for c in chunks]
    cpu = {}
    for who in ("challenger", "baseline"):
        times = [c["cpu_per_decision"] for c in chunks]
        seconds = sum(t[f"{who}_seconds"] * t[f"{who}_decisions"] for t in times)
        decisions = sum(t[f"{who}_decisions"] for t in times)
        cpu[who] = (1000 * seconds / decisions, decisions)
    margin = sum(c["mean_margin"] * c["matches"] for c in chunks) / matches
    first = chunks[0]
    print(
        f"{first['rules']}: {first['challenger']} v {first['baseline']}, seeds "
        f"{chunks[0]['seed']}-{chunks[-1]['seed']}, {deals} deals x 2 seatings = "
        f"{matches} matches\n"
        f"challenger won {wins} ({100 * wins / matches:.1f}%, 95% CI {100 * low:.1f}-"
        f"{100 * high:.1f}%); deals for {sum(s['deals_for'] for s in signs)}, against "
        f"{sum(s['deals_against'] for s in signs)}, even {sum(s['ties'] for s in signs)}; "
        f"mean margin {margin:+.1f} a match\n"
        f"CPU a decision: challenger {cpu['challenger'][0]:.1f} ms ({cpu['challenger'][1]:,} "
        f"decisions), baseline {cpu['baseline'][0]:.1f} ms ({cpu['baseline'][1]:,}); "
        f"{sum(c['wall_seconds'] for c in chunks) / 60:.0f} minutes of wall time"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--challenger", default="pimc[solve_last=8]")
    parser.add_argument("--baseline", default="pimc")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--chunk", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True)
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args()
    if args.summary:
        summary(args.out)
    else:
        run(args)


if __name__ == "__main__":
    main()
