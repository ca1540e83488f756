"""The ``spadeskit`` command: a thin client of the public API.

    spadeskit demo [--seed N] [--variant standard] [--house-rule NAME] [--option K=V]
    spadeskit list
    spadeskit replay RECORD.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from . import available, load_rules, replay
from .bots import Bot, RandomBot, SimpleBot
from .errors import SpadesError
from .rules import Rules
from .state import GameState


def _option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"options are NAME=VALUE, not {text!r}")
    name, value = text.split("=", 1)
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def _bid_text(game: GameState, result_bids: Sequence[Any]) -> str:
    names = game.rules.table.seat_names
    return ", ".join(f"{names[s]} {b}" for s, b in enumerate(result_bids))


def print_match(game: GameState, out: Any = None) -> None:
    """Print every finished hand of ``game`` and the score sheet (to stdout by default)."""
    out = out or sys.stdout
    table = game.rules.table
    names = table.seat_names
    for result in game.hand_results:
        print(f"Hand {result.number + 1} (dealer {names[result.dealer]})", file=out)
        print(f"  bids:  {_bid_text(game, [str(b).replace('bid ', '') for b in result.bids])}", file=out)
        print(f"  books: {', '.join(f'{names[s]} {b}' for s, b in enumerate(result.books))}", file=out)
        for line in result.lines:
            print(f"  {line.text}", file=out)
        totals = "   ".join(f"{table.side_names[s]} {result.scores[s]} (bags {result.bags[s]})"
                           for s in range(len(table.sides)))
        print(f"  score: {totals}", file=out)
    print("\nScore sheet", file=out)
    header = "  hand | " + " | ".join(f"{name:>7}" for name in table.side_names)
    print(header, file=out)
    print("  " + "-" * (len(header) - 2), file=out)
    for result in game.hand_results:
        print(f"  {result.number + 1:>4} | " + " | ".join(f"{s:>7}" for s in result.scores), file=out)
    if game.match.end is not None:
        print(f"\nWinner: {game.match.end.reason}", file=out)


def play_match(rules: Rules, bots: Sequence[Bot], seed: int | None) -> GameState:
    """Play a whole match between ``bots`` (one per seat) and return the final state."""
    game = rules.new_game(seed=seed)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game = game.apply(bots[seat].choose(game.view(seat)), seat)
    return game


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="spadeskit", description="The rules of Spades.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="bots play a whole match, printed hand by hand")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--variant", default="standard")
    demo.add_argument("--house-rule", action="append", default=[], dest="house_rules")
    demo.add_argument("--option", action="append", default=[], type=_option, dest="options")
    demo.add_argument("--bots", choices=["simple", "random"], default="simple")
    demo.add_argument("--record", help="write the match record (JSON) to this file")
    sub.add_parser("list", help="list installed variants and house rules")
    rep = sub.add_parser("replay", help="replay a record file and print the match")
    rep.add_argument("record")
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            for plugin in available():
                print(f"{plugin.name:24} {plugin.kind:11} {plugin.summary}")
                if plugin.kind == "broken":
                    continue
                for label, names in (("fits", plugin.fits), ("requires", plugin.requires),
                                     ("conflicts with", plugin.conflicts)):
                    if names:
                        print(f"    {label}: {', '.join(names)}")
                for option in plugin.options:
                    print(f"    {option.name} = {option.default!r}: {option.doc}")
            return 0
        if args.command == "replay":
            with open(args.record, encoding="utf-8") as handle:
                game = replay(json.load(handle))
            print_match(game)
            return 0
        rules = load_rules(args.variant, args.house_rules, dict(args.options))
        seats = range(rules.table.players)
        bots: list[Bot] = ([SimpleBot(rules) for _ in seats] if args.bots == "simple"
                           else [RandomBot(args.seed * 10 + s) for s in seats])
        print(f"{rules.name}: {' v '.join(rules.table.side_names)}, seed {args.seed}\n")
        game = play_match(rules, bots, args.seed)
        print_match(game)
        if args.record:
            with open(args.record, "w", encoding="utf-8") as handle:
                json.dump(game.to_record(), handle)
        return 0
    except (SpadesError, OSError, ValueError, RecursionError) as exc:
        # Bad input (a file that is not JSON, not text, or nested too deep included) is
        # one line and exit status 2, never a traceback.
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"spadeskit: {text}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
