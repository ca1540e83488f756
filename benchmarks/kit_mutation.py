"""How many mutants of the shipped plugins does the kit alone kill?

Runs ``spadeskit-kit mutate`` on every shipped plugin module with a seeded sample
(``--fraction`` of the module's mutants, at least two), against every rule set that
loads the module, at ``--level`` (default: the CI level), and prints each outcome, the
survivors and the kill rate.  A reader marks the equivalent survivors (a change that
does not change the rules).

Run: ``python benchmarks/kit_mutation.py --fraction 0.09 --seed 2026``.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import resource
import subprocess
import sys
import time

from spadeskit.testing.mutation import mutants

VARIANTS = ["standard", "jjdd", "cutthroat", "two-handed", "call-break", "three-suit-trump"]
MODULES = {
    "_common": VARIANTS,
    "_spades": ["standard", "cutthroat", "two-handed", "call-break"],
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
    parser.add_argument("--fraction", type=float, default=0.09)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--level", choices=["quick", "default", "thorough"], default="default")
    parser.add_argument("--timeout", type=float, default=300.0, help="CPU seconds a mutant")
    args = parser.parse_args()
    totals = {"ran": 0, "killed": 0}
    survivors: list[str] = []
    begun = time.monotonic()
    for short, rule_sets in MODULES.items():
        module = f"spadeskit_plugins.{short}"
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None
        with open(spec.origin) as handle:
            found = len(mutants(handle.read()))
        size = min(found, max(2, round(found * args.fraction)))
        command = [
            sys.executable,
            "-m",
            "spadeskit.testing.mutation",
            "mutate",
            rule_sets[0].split("+")[-1],
            "--module",
            module,
            *(f"--rules={r}" for r in rule_sets),
            "--sample",
            str(size),
            "--seed",
            str(args.seed),
            "--timeout",
            str(args.timeout),
        ]
        if args.level != "default":
            command.append(f"--{args.level}")
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        print(out, end="", flush=True)
        summary = re.search(r"^(\d+) of (\d+) killed", out, re.MULTILINE)
        assert summary is not None, out
        totals["killed"] += int(summary.group(1))
        totals["ran"] += int(summary.group(2))
        survivors += [line.strip() for line in out.splitlines() if line.startswith("  spadeskit")]
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"\nran {totals['ran']} mutants, the kit killed {totals['killed']} "
        f"({100 * totals['killed'] / max(1, totals['ran']):.1f}%) in "
        f"{time.monotonic() - begun:.0f} s ({used.ru_utime + used.ru_stime:.0f} CPU s)"
    )
    print("survivors:")
    for line in survivors:
        print(f"  {line}")


if __name__ == "__main__":
    main()
