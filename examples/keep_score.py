"""Keep score of real games from bids and books alone, with the same rules as play.

python examples/keep_score.py
"""

from __future__ import annotations

import spadeskit

# (bids N, E, S, W) and (books N, E, S, W) for each hand played at the table
HANDS = [
    ([3, 2, 4, "nil"], [4, 3, 5, 1]),
    ([4, 4, 2, 3], [5, 3, 3, 2]),
    (["nil", 5, 6, 2], [0, 5, 6, 2]),
]


def main() -> None:
    rules = spadeskit.load_rules("standard")
    scores, bags = (0, 0), (0, 0)
    for number, (bids, books) in enumerate(HANDS, start=1):
        result = rules.score_hand(bids=bids, books=books, scores=scores, bags=bags)
        print(f"hand {number}")
        for line in result.lines:
            print(f"  {line.text}")
        scores, bags = result.scores, result.bags
        print(f"  N/S {scores[0]} (bags {bags[0]}), E/W {scores[1]} (bags {bags[1]})")


if __name__ == "__main__":
    main()
