"""CPU seconds of ``check_rules`` per shipped variant, at each level.

Run: ``python benchmarks/kit_levels.py``; prints the CPU time (process_time) of one
``check_rules`` call per variant and level.  The CI budget is the ``default`` level
under 10 CPU seconds per rule set.
"""

from __future__ import annotations

import sys
import time

import spadeskit
from spadeskit.testing import check_rules


def main(levels: list[str]) -> None:
    variants = [p.name for p in spadeskit.available() if p.kind == "variant"]
    for level in levels:
        for name in variants:
            start = time.process_time()
            check_rules(spadeskit.load_rules(name), level=level)
            print(f"{level:8} {name:18} {time.process_time() - start:6.2f} CPU s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["quick", "default"])
