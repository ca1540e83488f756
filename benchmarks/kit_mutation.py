"""How many mutants of the shipped plugins does the kit alone kill?

Draws a seeded sample (``--fraction`` of each module's mutants, at least two) of the
mutants :mod:`spadeskit.testing.mutation` makes of every shipped plugin module, runs
``check_rules`` at ``--level`` (default: the CI level) on the rule sets that load the
module, and prints each outcome and the kill rate.  Survivors are listed so a reader
can mark the equivalent ones (a change that does not change the rules).

Run: ``python benchmarks/kit_mutation.py --fraction 0.12 --seed 1``.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time

from spadeskit.testing.mutation import mutants, run_mutant

MODULES = {
    "_common": ["standard", "jjdd", "cutthroat", "call-break"],
    "_spades": ["standard", "cutthroat", "two-handed"],
    "standard": ["standard"],
    "jjdd": ["jjdd"],
    "call_break": ["call-break"],
    "cutthroat": ["cutthroat"],
    "two_handed": ["two-handed"],
    "three_suit_trump": ["three-suit-trump"],
    "house.boston": ["standard+boston"],
    "house.no_bags": ["standard+no-bags"],
    "house.partnership_nil": ["standard+partnership-nil"],
    "house.blind_nil": ["standard+blind-nil"],
    "house.jokers": ["standard+jokers"],
    "house.mirror": ["standard+mirror"],
    "house.whiz": ["standard+whiz"],
    "house.spades_anytime": ["standard+spades-anytime"],
    "house.no_trump_first_trick": ["standard+no-trump-first-trick"],
    "house.hidden_bids": ["standard+hidden-bids"],
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fraction", type=float, default=0.12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="default")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    totals: dict[str, int] = {}
    for short, rule_sets in MODULES.items():
        module = f"spadeskit_plugins.{short}"
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None
        with open(spec.origin) as handle:
            found = mutants(handle.read())
        size = min(len(found), max(2, round(len(found) * args.fraction)))
        for mutant in sorted(rng.sample(found, size), key=lambda m: m.line):
            begun = time.monotonic()
            outcome = run_mutant(module, mutant, rule_sets, level=args.level, timeout=300)
            totals[outcome] = totals.get(outcome, 0) + 1
            print(f"{module} {mutant}: {outcome} ({time.monotonic() - begun:.0f} s)", flush=True)
    ran = sum(totals.values())
    print(f"ran {ran}: " + ", ".join(f"{n} {k}" for k, n in sorted(totals.items())))


if __name__ == "__main__":
    main()
