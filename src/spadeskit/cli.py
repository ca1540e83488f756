"""The ``spadeskit`` command: a thin client of the public API.

    spadeskit demo [--seed N] [--variant standard] [--house-rule NAME] [--option K=V]
    spadeskit play [--variant V] [--seat S] [--record FILE] [--resume FILE]
    spadeskit list
    spadeskit replay RECORD.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from . import available, load_rules, replay
from .bots import Bot, RandomBot, SimpleBot
from .actions import Action, Bid
from .errors import SpadesError
from .rules import Rules
from .state import GameState


_NONE = {"none", "null"}


def _option(text: str) -> tuple[str, Any]:
    """Read ``NAME=VALUE``: a JSON value (``4``, ``true``, ``"x"``), ``none``/``None``/
    ``null`` for an option that can be switched off, else the text as a string."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"options are NAME=VALUE, like target=300 or floor=none, not {text!r}")
    name, value = text.split("=", 1)
    if value.strip().lower() in _NONE:
        return name, None
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def _bid_word(bid: Action | None) -> str:
    """Return a bid as a score sheet shows it: ``4``, ``nil``, ``pick up``; ``-`` for none."""
    if bid is None:
        return "-"
    if isinstance(bid, Bid):
        return str(bid.tricks)
    return str(bid)


def _counts_bags(game: GameState) -> bool:
    """Return whether the match has bags to show: a score line carried some."""
    return any(any(r.bags) or any(line.bags for line in r.lines) for r in game.hand_results)


def print_match(game: GameState, out: Any = None) -> None:
    """Print every finished hand of ``game`` and the score sheet (to stdout by default)."""
    out = out or sys.stdout
    table = game.rules.table
    names = table.seat_names
    bags = _counts_bags(game)
    for result in game.hand_results:
        print(f"Hand {result.number + 1} (dealer {names[result.dealer]})", file=out)
        print("  bids:  " + ", ".join(f"{names[s]} {_bid_word(b)}" for s, b in enumerate(result.bids)), file=out)
        print(f"  books: {', '.join(f'{names[s]} {b}' for s, b in enumerate(result.books))}", file=out)
        for line in result.lines:
            print(f"  {line.text}", file=out)
        totals = "   ".join(f"{table.side_names[s]} {result.scores[s]}" + (f" (bags {result.bags[s]})" if bags else "")
                           for s in range(len(table.sides)))
        print(f"  score: {totals}", file=out)
    print("\nScore sheet", file=out)
    header = "  hand | " + " | ".join(f"{name:>7}" for name in table.side_names)
    print(header, file=out)
    print("  " + "-" * (len(header) - 2), file=out)
    for result in game.hand_results:
        print(f"  {result.number + 1:>4} | " + " | ".join(f"{s:>7}" for s in result.scores), file=out)
    if game.match.end is not None:
        print(f"\nMatch over: {game.match.end.reason}", file=out)


def play_match(rules: Rules, bots: Sequence[Bot], seed: int | None) -> GameState:
    """Play a whole match between ``bots`` (one per seat) and return the final state."""
    game = rules.new_game(seed=seed)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game = game.apply(bots[seat].choose(game.view(seat)), seat)
    return game


def _seat(text: str | None, names: Sequence[str]) -> int:
    if text is None:
        return names.index("S") if "S" in names else len(names) - 1
    for seat, name in enumerate(names):
        if text.strip().upper() == name.upper() or text.strip() == str(seat):
            return seat
    raise SpadesError(f"there is no seat {text!r} at this table; seats: {', '.join(names)} (or 0-{len(names) - 1})")


def _play(args: argparse.Namespace) -> int:
    from .prompt import PromptTable, resume

    if args.resume:
        game = resume(args.resume)
    else:
        game = load_rules(args.variant, args.house_rules, dict(args.options)).new_game(seed=args.seed)
    rules = game.rules
    seat = _seat(args.seat, rules.table.seat_names)
    bots: list[Bot | None] = [
        None if s == seat else (SimpleBot(rules) if args.bots == "simple" else RandomBot(s))
        for s in range(rules.table.players)
    ]
    PromptTable(game, seat, bots, sys.stdin, sys.stdout, record=args.record or args.resume).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="spadeskit", description="The rules of Spades: watch bots play a match, play one yourself, "
        "list the installed variants and house rules, or replay a saved record.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="bots play a whole match, printed hand by hand",
                          description="Bots play a whole match, printed hand by hand, then the score sheet.")
    demo.add_argument("--seed", type=int, default=7,
                      help="seed for the deals and the bots; the same seed plays the same match (default 7)")
    demo.add_argument("--variant", default="standard", metavar="NAME",
                      help="the variant to play (default standard; 'spadeskit list' shows them all)")
    demo.add_argument("--house-rule", action="append", default=[], dest="house_rules", metavar="NAME",
                      help="add a house rule; repeat for several (e.g. --house-rule blind-nil)")
    demo.add_argument("--option", action="append", default=[], type=_option, dest="options", metavar="NAME=VALUE",
                      help="set an option, e.g. target=300 or floor=none; repeat for several")
    demo.add_argument("--bots", choices=["simple", "random"], default="simple",
                      help="which bot plays every seat (default simple)")
    demo.add_argument("--record", metavar="FILE", help="write the match record (JSON) to this file")
    sub.add_parser("list", help="list installed variants and house rules with their options",
                   description="List installed variants and house rules with their options.")
    rep = sub.add_parser("replay", help="replay a record file and print the match",
                         description="Replay a record file, checking every action, and print the match.")
    rep.add_argument("record", metavar="FILE", help="a record written by 'demo --record' or GameState.to_record()")
    play = sub.add_parser("play", help="play one seat yourself against bots, at a text prompt",
                          description="Play one seat against bots: type bids and cards at the prompt "
                                      "('help' lists what you can type).")
    play.add_argument("--variant", default="standard", metavar="NAME", help="the variant to play (default standard)")
    play.add_argument("--house-rule", action="append", default=[], dest="house_rules", metavar="NAME",
                      help="add a house rule; repeat for several")
    play.add_argument("--option", action="append", default=[], type=_option, dest="options", metavar="NAME=VALUE",
                      help="set an option, e.g. target=300 or floor=none; repeat for several")
    play.add_argument("--seat", default=None, metavar="SEAT",
                      help="your seat, by name (N, E, S, W) or number (default S, or the last seat)")
    play.add_argument("--bots", choices=["simple", "random"], default="simple",
                      help="which bot plays the other seats (default simple)")
    play.add_argument("--seed", type=int, default=None,
                      help="seed for the deals, to play the same cards again (default: a secret shuffle)")
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE after the match or on quit")
    play.add_argument("--resume", metavar="FILE", help="continue the game saved in FILE instead of a new one")
    args = parser.parse_args(argv)
    try:
        if args.command == "play":
            return _play(args)
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
    except BrokenPipeError:
        # Output piped into a program that stopped reading (``| head``): not an error.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (stdout is closed by exit)
        return 0
    except (SpadesError, OSError, ValueError, RecursionError) as exc:
        # Bad input (a file that is not JSON, not text, or nested too deep included) is
        # one line and exit status 2, never a traceback.
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"spadeskit: {text}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
