"""Play one seeded match between random bots and print the final score.

python examples/play_random_game.py [seed]
"""

from __future__ import annotations

import random
import sys

import spadeskit


def main(seed: int) -> None:
    rules = spadeskit.load_rules("standard")
    rng = random.Random(seed)
    game = rules.new_game(seed=seed)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    names = rules.table.side_names
    print(
        f"{len(game.hand_results)} hands; "
        + ", ".join(f"{n} {s}" for n, s in zip(names, game.scores))
    )
    assert game.match.end is not None
    print(game.match.end.reason)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
