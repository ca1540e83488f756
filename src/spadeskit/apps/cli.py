"""The ``spadeskit`` command: a thin client of the public API.

spadeskit demo [--seed N] [--variant standard] [--house-rule NAME] [--option K=V]
spadeskit play [--variant V] [--seat S] [--record FILE] [--resume FILE]
spadeskit arena [--variant V] [--challenger BOT] [--baseline BOT] [--deals N] [--jobs N]
                [--ray [ADDRESS]]
spadeskit arena --gauntlet [--bots BOT,BOT,...] [--deals N] [--csv FILE] [--png FILE]
spadeskit simulate [--hands N] [--policy random|greedy] [--plot FILE]
spadeskit list
spadeskit replay RECORD.json [--tricks] [--seat S] [--review [--last K]]
                 [--key KEY | --key-file FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

from spadeskit.analysis.review import review
from spadeskit.apps.cliargs import command_parser
from spadeskit.apps.prompt import by_suit
from spadeskit.apps.service import Table
from spadeskit.arena.evaluation import make_bot, play_match
from spadeskit.bots.basic import Bot
from spadeskit.core.actions import Action, Bid
from spadeskit.core.cards import Card, card_at
from spadeskit.core.errors import SpadesError, install_hint
from spadeskit.core.state import GameState
from spadeskit.engine.loader import available, load_rules
from spadeskit.engine.replay import iter_replay, replay
from spadeskit.engine.rules import Rules, rules_of


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
        print(
            "  bids:  "
            + ", ".join(f"{names[s]} {_bid_word(b)}" for s, b in enumerate(result.bids)),
            file=out,
        )
        print(
            f"  books: {', '.join(f'{names[s]} {b}' for s, b in enumerate(result.books))}", file=out
        )
        for line in result.lines:
            print(f"  {line.text}", file=out)
        totals = "   ".join(
            f"{table.side_names[s]} {table.show_score(result.scores[s])}"
            + (f" (bags {result.bags[s]})" if bags else "")
            for s in range(len(table.sides))
        )
        print(f"  score: {totals}", file=out)
    print("\nScore sheet", file=out)
    header = "  hand | " + " | ".join(f"{name:>7}" for name in table.side_names)
    print(header, file=out)
    print("  " + "-" * (len(header) - 2), file=out)
    for result in game.hand_results:
        print(
            f"  {result.number + 1:>4} | "
            + " | ".join(f"{table.show_score(s):>7}" for s in result.scores),
            file=out,
        )
    if game.match.end is not None:
        print(f"\nMatch over: {game.match.end.reason}", file=out)


def _simulate(args: argparse.Namespace) -> int:
    try:
        from spadeskit.arena import simulating
    except ImportError:
        raise SpadesError(f"simulate needs numpy: {install_hint('fast')}") from None
    if args.hands < 1:
        raise SpadesError(f"--hands is 1 or more, not {args.hands}")
    rules = load_rules(args.variant, args.house_rules, dict(args.options))
    progress = None if args.quiet else sys.stderr
    simulating.run(rules, args.hands, args.seed, args.policy, progress=progress, plot=args.plot)
    return 0


def _replay(args: argparse.Namespace) -> int:
    """``spadeskit replay``: the match as a summary, trick by trick, or as one seat saw it."""
    with open(args.record, encoding="utf-8") as handle:
        record = json.load(handle)
    key: str | bytes | None = args.key
    if args.key_file:
        with open(args.key_file, "rb") as handle:
            key = handle.read().strip()
    if args.review:
        for line in review(record, key=key, last=args.last).lines():
            print(line)
        return 0
    if not args.tricks and args.seat is None:
        print_match(replay(record, key=key))
        return 0
    table = Table.from_record(record, key=key)  # checked as replay checks it
    rules = table.rules
    seat = None if args.seat is None else _seat(args.seat, rules.table.seat_names)
    deals = {} if seat is not None else _deals(record, key)
    stream, _ = table.events(seat)
    for line in stream_lines(rules, stream, seat, args.tricks, deals):
        print(line)
    return 0


def _deals(record: Any, key: str | bytes | None) -> dict[int, tuple[int, ...]]:
    """Return each hand's cards as dealt (masks by seat), by hand number."""
    deals: dict[int, tuple[int, ...]] = {}
    for step in iter_replay(record, key=key):
        state = step.state
        if state.number not in deals and not state.is_over:
            deals[state.number] = state.hands
    return deals


def cards_text(cards: Sequence[Card]) -> str:
    """Return cards grouped by suit, highest first: ``♠ A K 4  ♥ Q 10``."""
    return (
        "  ".join(
            mark + " " + " ".join(c.code if c.suit is None else c.code[:-1] for c in group)
            for mark, group in by_suit(cards)
        )
        or "-"
    )


def stream_lines(
    rules: Rules,
    stream: Sequence[dict[str, Any]],
    seat: int | None,
    tricks: bool,
    deals: dict[int, tuple[int, ...]],
) -> list[str]:
    """Return a table's event stream (:meth:`spadeskit.Table.events`) as lines to print:
    each hand's cards (the seat's own, or everyone's from ``deals``), then its events,
    with ``tricks`` the cards of each trick on one line, then its score."""
    names = rules.table.seat_names
    lines: list[str] = []
    trick: list[str] = []
    for event in stream:
        kind = event["type"]
        if kind == "hand-started":
            lines.append(f"Hand {event['hand'] + 1} (dealer {names[event['dealer']]})")
            if seat is not None:
                cards = [Card.of(c) for c in event["cards"]]
                lines.append(f"  {names[seat]} holds {cards_text(cards)}")
            for who, mask in enumerate(deals.get(event["hand"], ())):
                held = [card_at(i) for i in range(mask.bit_length()) if mask >> i & 1]
                lines.append(f"  {names[who]}: {cards_text(held)}")
        elif kind == "card-played" and tricks:
            trick.append(f"{names[event['seat']]} {Card.of(event['card']).symbol}")
        elif kind == "trick-won" and tricks:
            winner = names[event["winner"]]
            lines.append(f"  trick {event['trick']:>2}: {', '.join(trick)}; {winner} wins")
            trick = []
        elif kind == "hand-ended":
            books = ", ".join(f"{names[s]} {b}" for s, b in enumerate(event["books"]))
            lines.append(f"  books: {books}")
            lines += [f"  {line['text']}" for line in event["lines"]]
            lines.append(f"  {event['text']}")
        else:
            lines.append(
                f"Match over: {event['text']}" if kind == "match-over" else f"  {event['text']}"
            )
    return lines


def _bots(
    rules: Rules, default: str, settings: Sequence[tuple[str, str]], seed: int | None
) -> list[Bot]:
    """Return one bot per seat: ``default`` everywhere but where ``settings`` says."""
    specs = [default] * rules.table.players
    for seat, spec in settings:
        specs[_seat(seat, rules.table.seat_names)] = spec
    return [
        make_bot(spec, s, rules, random.Random(f"spadeskit demo {seed} {s}"))
        for s, spec in enumerate(specs)
    ]


def _seat(text: str | None, names: Sequence[str]) -> int:
    if text is None:
        return names.index("S") if "S" in names else len(names) - 1
    for seat, name in enumerate(names):
        if text.strip().upper() == name.upper() or text.strip() == str(seat):
            return seat
    raise SpadesError(
        f"there is no seat {text!r} at this table; seats: {', '.join(names)} (or "
        f"0-{len(names) - 1})"
    )


def _play(args: argparse.Namespace) -> int:
    from spadeskit.apps.prompt import PromptTable, Session, load_saved

    saved_seat, game_id = None, None
    if args.resume:
        saved = load_saved(args.resume)
        game, saved_seat, game_id = saved.game, saved.seat, saved.game_id
    else:
        game = load_rules(args.variant, args.house_rules, dict(args.options)).new_game(
            seed=args.seed
        )
    rules = rules_of(game)
    if args.seat is None and saved_seat is not None:
        seat = saved_seat
    else:
        seat = _seat(args.seat, rules.table.seat_names)
    chosen = _bots(rules, args.bots, [], args.seed)
    bots: list[Bot | None] = [None if s == seat else bot for s, bot in enumerate(chosen)]
    record = args.record or args.resume
    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
        try:
            from spadeskit.apps.tui import TableApp
        except ImportError:
            pass  # the tui extra is not installed: the plain prompt below
        else:
            TableApp(Session(game, seat, bots, record, game_id)).run()
            return 0
    PromptTable(game, seat, bots, sys.stdin, sys.stdout, record=record, game_id=game_id).run()
    return 0


def _arena(args: argparse.Namespace) -> int:
    from concurrent.futures import ProcessPoolExecutor

    from spadeskit.arena.evaluation import RayExecutor, evaluate, write_json

    rules = load_rules(args.variant, args.house_rules, dict(args.options))
    executor: Executor | None = None
    if args.ray:
        executor = RayExecutor(None if args.ray == "local" else args.ray)
    elif args.jobs > 1:
        executor = ProcessPoolExecutor(args.jobs)
    if args.gauntlet:
        try:
            return _gauntlet(args, rules, executor)
        finally:
            if executor is not None:
                executor.shutdown()
    try:
        result = evaluate(
            rules,
            args.challenger,
            args.baseline,
            deals=args.deals,
            seed=args.seed,
            executor=executor,
            progress=not args.quiet,
        )
    finally:
        if executor is not None:
            executor.shutdown()
    print(result.table())
    if args.json:
        write_json(result, args.json)
    return 0


def _gauntlet(args: argparse.Namespace, rules: Rules, executor: Executor | None) -> int:
    from spadeskit.arena.strength import GAUNTLET_BOTS, gauntlet

    png = args.png
    if png is None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print(
                f"spadeskit: no heat map without matplotlib: {install_hint('plot')}",
                file=sys.stderr,
            )
        else:
            png = "gauntlet.png"
    result = gauntlet(
        rules,
        args.bots or GAUNTLET_BOTS,
        deals=args.deals,
        seed=args.seed,
        executor=executor,
        progress=not args.quiet,
    )
    print(result.table())
    result.write_csv(args.csv)
    written = [args.csv]
    if png is not None:
        result.write_png(png)
        written.append(png)
    print(f"\nwrote {' and '.join(written)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    # A bot given as 'module:Class' is imported from the current folder too, as
    # `python -m spadeskit` does (the console script's own folder is on the path instead).
    here = os.getcwd()
    if "" not in sys.path and here not in sys.path:
        sys.path.append(here)
    args = command_parser().parse_args(argv)
    try:
        if args.command == "play":
            return _play(args)
        if args.command == "arena":
            return _arena(args)
        if args.command == "simulate":
            return _simulate(args)
        if args.command == "list":
            for plugin in available():
                print(f"{plugin.name:24} {plugin.kind:11} {plugin.summary}")
                if plugin.kind == "broken":
                    continue
                for label, names in (
                    ("fits", plugin.fits),
                    ("requires", plugin.requires),
                    ("conflicts with", plugin.conflicts),
                ):
                    if names:
                        print(f"    {label}: {', '.join(names)}")
                for option in plugin.options:
                    print(f"    {option.name} = {option.default!r}: {option.doc}")
            return 0
        if args.command == "replay":
            return _replay(args)
        rules = load_rules(args.variant, args.house_rules, dict(args.options))
        bots = _bots(rules, args.bots, args.seat_bots, args.seed)
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
