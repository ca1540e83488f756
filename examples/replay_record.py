"""Save a match as a JSON record, load it back, and check that it replays exactly.

python examples/replay_record.py match.json
"""

from __future__ import annotations

import json
import sys

import spadeskit
from spadeskit.bots import SimpleBot


def main(path: str) -> None:
    rules = spadeskit.load_rules("standard", options={"target": 250})
    bots = [SimpleBot(rules) for _ in range(4)]
    game = rules.new_game(seed=42)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game = game.apply(bots[seat].choose(game.view(seat)), seat)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(game.to_record(), handle, indent=1)
    with open(path, encoding="utf-8") as handle:
        again = spadeskit.replay(json.load(handle))
    print(f"replayed {len(again.hand_results)} hands: equal = {again == game}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "match.json")
