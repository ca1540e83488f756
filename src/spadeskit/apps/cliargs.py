"""The ``spadeskit`` command's arguments: one parser for every subcommand, and the
argument types they share (``--option NAME=VALUE``, ``--bot SEAT=BOT``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

_NONE = {"none", "null"}


def option_setting(text: str) -> tuple[str, Any]:
    """Read ``NAME=VALUE``: a JSON value (``4``, ``true``, ``"x"``), ``none``/``None``/
    ``null`` for an option that can be switched off, else the text as a string."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(
            f"options are NAME=VALUE, like target=300 or floor=none, not {text!r}"
        )
    name, value = text.split("=", 1)
    if value.strip().lower() in _NONE:
        return name, None
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def bot_setting(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"give a bot as SEAT=BOT, like S=heuristic, not {text!r}")
    seat, spec = text.split("=", 1)
    return seat, spec


def rule_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --variant, --house-rule and --option, which every playing command takes."""
    parser.add_argument(
        "--variant",
        default="standard",
        metavar="NAME",
        help="the variant to play (default standard; 'spadeskit list' shows them all)",
    )
    parser.add_argument(
        "--house-rule",
        action="append",
        default=[],
        dest="house_rules",
        metavar="NAME",
        help="add a house rule; repeat for several (e.g. --house-rule blind-nil)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        type=option_setting,
        dest="options",
        metavar="NAME=VALUE",
        help="set an option, e.g. target=300 or floor=none; repeat for several",
    )


def bot_list(text: str) -> list[str]:
    """Read ``--bots``: bot specs separated by commas outside their ``[...]`` settings
    (``heuristic,pimc[iterations=300,veto=0]`` is two bots)."""
    bots, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            bots.append(text[start:at].strip())
            start = at + 1
    bots.append(text[start:].strip())
    if any(not bot for bot in bots):
        raise argparse.ArgumentTypeError(f"{text!r} names an empty bot")
    return bots


def command_parser() -> argparse.ArgumentParser:
    """Return the parser of the ``spadeskit`` command and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="spadeskit",
        description="The rules of Spades: watch bots play a match, play one yourself, "
        "list the installed variants and house rules, or replay a saved record.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="bots play a whole match, printed hand by hand",
        description="Bots play a whole match, printed hand by hand, then the score sheet.",
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=7,
        help="seed for the deals and the bots; the same seed plays the same match (default 7)",
    )
    rule_arguments(demo)
    demo.add_argument(
        "--bots",
        default="heuristic",
        metavar="BOT",
        help="the bot for every seat: heuristic (default), simple, random, or module:Class",
    )
    demo.add_argument(
        "--bot",
        action="append",
        default=[],
        type=bot_setting,
        dest="seat_bots",
        metavar="SEAT=BOT",
        help="the bot for one seat, e.g. --bot N=simple; repeat for several",
    )
    demo.add_argument("--record", metavar="FILE", help="write the match record (JSON) to this file")
    sub.add_parser(
        "list",
        help="list installed variants and house rules with their options",
        description="List installed variants and house rules with their options.",
    )
    rep = sub.add_parser(
        "replay",
        help="replay a record file and print the match",
        description="Replay a record file, checking every action, and print the match.",
    )
    rep.add_argument(
        "record",
        metavar="RECORD",
        help="a record written by 'demo --record' or GameState.to_record()",
    )
    rep.add_argument(
        "--tricks",
        action="store_true",
        help="show every hand trick by trick (each hand's deal first, unless --seat)",
    )
    rep.add_argument(
        "--seat",
        default=None,
        help="show only what this seat saw (by name or number): its own cards, the "
        "bids and plays as they came, each hand's score",
    )
    rep.add_argument(
        "--review",
        action="store_true",
        help="review every card played double-dummy: each trick's cards, a costly card "
        "marked with the tricks it cost and the best cards, each seat's total per hand",
    )
    rep.add_argument(
        "--last",
        type=int,
        default=None,
        metavar="K",
        help="with --review, review only the last K tricks of each hand (a whole hand "
        "takes the solver seconds to minutes)",
    )
    keys = rep.add_mutually_exclusive_group()
    keys.add_argument("--key", help="the key the record was signed with: refuse it if altered")
    keys.add_argument("--key-file", metavar="FILE", help="read the signing key from FILE")
    play = sub.add_parser(
        "play",
        help="play one seat yourself against bots, at a text prompt",
        description="Play one seat against bots: type bids and cards at the prompt "
        "('help' lists what you can type).",
    )
    rule_arguments(play)
    play.add_argument(
        "--seat",
        default=None,
        metavar="SEAT",
        help="your seat, by name (N, E, S, W) or number (default: the saved game's seat, "
        "else S, or the last seat)",
    )
    play.add_argument(
        "--bots",
        default="heuristic",
        metavar="BOT",
        help="the bot for the other seats: heuristic (default), simple, random, or module:Class",
    )
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed for the deals, to play the same cards again (default: a secret shuffle)",
    )
    play.add_argument(
        "--record",
        metavar="FILE",
        help="save the game to FILE on quit and after the match (a game in progress "
        "shows only your view there; its record is kept in spadeskit's games folder)",
    )
    play.add_argument(
        "--resume", metavar="FILE", help="continue the game saved in FILE instead of a new one"
    )
    play.add_argument(
        "--plain",
        action="store_true",
        help="a plain text prompt even where the full-screen table (the tui extra) is available",
    )
    simulate = sub.add_parser(
        "simulate",
        help="simulate many independent hands and summarize them (the fast extra)",
        description="Simulate independent hands in batches (numpy) and print each side's "
        "points, bags and each seat's bids and books, with a histogram.",
    )
    rule_arguments(simulate)
    simulate.add_argument(
        "--hands", type=int, default=100_000, help="hands to play (default 100000)"
    )
    simulate.add_argument("--seed", type=int, default=0, help="seed of the hands (default 0)")
    simulate.add_argument(
        "--policy",
        choices=("random", "greedy"),
        default="random",
        help="random play, or greedy followers (bids and leads stay random)",
    )
    simulate.add_argument("--plot", metavar="FILE", help="draw the points (needs matplotlib)")
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    arena = sub.add_parser(
        "arena",
        help="measure one bot against another on duplicate deals",
        description="Play DEALS match seeds, each in every seating, challenger against "
        "baseline, and print the win rate with its 95% interval, a paired "
        "sign test, score margins, contracts and nils made and bags.",
    )
    rule_arguments(arena)
    arena.add_argument(
        "--challenger",
        default="heuristic",
        metavar="BOT",
        help="the bot measured: heuristic (default), simple, random or module:Class",
    )
    arena.add_argument(
        "--baseline",
        default="simple",
        metavar="BOT",
        help="the bot it plays against (default simple)",
    )
    arena.add_argument(
        "--deals",
        type=int,
        default=100,
        help="match seeds to play, each in every seating (default 100)",
    )
    arena.add_argument(
        "--seed", type=int, default=0, help="seed of the match seeds and the bots' RNGs (default 0)"
    )
    arena.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    arena.add_argument(
        "--ray",
        metavar="ADDRESS",
        nargs="?",
        const="local",
        help="play on Ray: 'local' (or no value) starts it here, else a cluster address",
    )
    arena.add_argument(
        "--json", metavar="FILE", help="write every match and the statistics to FILE"
    )
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.add_argument(
        "--gauntlet",
        action="store_true",
        help="play every bot of --bots against every other (the strength table) and "
        "write it to --csv, and to --png as a heat map when matplotlib is installed",
    )
    arena.add_argument(
        "--bots",
        type=bot_list,
        default=None,
        metavar="BOT,BOT,...",
        help="the gauntlet's bots (default heuristic, heuristic[version=3], pointcount, "
        "suretricks, simple)",
    )
    arena.add_argument(
        "--csv", default="gauntlet.csv", metavar="FILE", help="the gauntlet's table as CSV"
    )
    arena.add_argument(
        "--png",
        default=None,
        metavar="FILE",
        help="the gauntlet's heat map (default gauntlet.png when matplotlib is installed)",
    )
    return parser
