"""Whole matches of one bot against another in chunks that survive an interruption (not a
test): each chunk of ``--chunk`` duplicate deals (both seatings) is one
:func:`~spadeskit.arena.evaluate` call with its own seed (``--seed`` plus the chunk's
number), its result appended to a JSON lines file as it ends; ``--summary`` adds up
whatever chunks have finished.  Two chunks are in play at a time, so that the processes
that finish one chunk's last deals early start on the next chunk's instead of waiting;
a chunk's result does not depend on what else runs.  A rerun plays the chunks the file
does not hold yet.

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
    seeds = [args.seed + k for k in range(-(-args.deals // args.chunk))]
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as lines:
            done = {json.loads(line)["seed"] for line in lines if line.strip()}
    if done and (min(done) < args.seed or done.isdisjoint(seeds)):
        raise SystemExit(
            f"{args.out} holds chunks of seeds {min(done)} to {max(done)}, not those of "
            f"--seed {args.seed}: give the seed it was started with, or another file"
        )

    def play(seed: int, pool: concurrent.futures.Executor) -> dict[str, object]:
        started = time.time()
        result = evaluate(
            rules,
            args.challenger,
            args.baseline,
            deals=args.chunk,
            seed=seed,
            executor=pool,
            batch=1,
        )
        data = result.to_json()
        data.pop("outcomes", None)
        data["started"], data["ended"] = started, time.time()
        return data

    with (
        concurrent.futures.ProcessPoolExecutor(args.jobs) as pool,
        concurrent.futures.ThreadPoolExecutor(2) as chunks,
    ):
        futures = [chunks.submit(play, seed, pool) for seed in seeds if seed not in done]
        for future in concurrent.futures.as_completed(futures):
            with open(args.out, "a") as out:
                out.write(json.dumps(future.result()) + "\n")


def wall_minutes(chunks: list[dict[str, float]]) -> float:
    """Return the minutes in which some chunk was playing: chunks overlap, so their
    spans are merged (a chunk written before they did has its ``wall_seconds``)."""
    total, reach = 0.0, float("-inf")
    spans = sorted((c["started"], c["ended"]) for c in chunks if "started" in c)
    for start, end in spans:
        if end > max(start, reach):
            total += end - max(start, reach)
            reach = end
    total += sum(c["wall_seconds"] for c in chunks if "started" not in c)
    return total / 60


def summary(path: str) -> None:
    if not os.path.exists(path):
        raise SystemExit(f"{path} does not exist: no run has written to it yet")
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
        f"{min(c['seed'] for c in chunks)}-{max(c['seed'] for c in chunks)}, {deals} "
        f"deals x 2 seatings = {matches} matches\n"
        f"challenger won {wins} ({100 * wins / matches:.1f}%, 95% CI {100 * low:.1f}-"
        f"{100 * high:.1f}%); deals for {sum(s['deals_for'] for s in signs)}, against "
        f"{sum(s['deals_against'] for s in signs)}, even {sum(s['ties'] for s in signs)}; "
        f"mean margin {margin:+.1f} a match\n"
        f"CPU a decision: challenger {cpu['challenger'][0]:.1f} ms ({cpu['challenger'][1]:,} "
        f"decisions), baseline {cpu['baseline'][0]:.1f} ms ({cpu['baseline'][1]:,}); "
        f"{wall_minutes(chunks):.0f} minutes of wall time"
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
