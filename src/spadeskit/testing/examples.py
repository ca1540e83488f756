"""Rules as pinned examples: worked examples a plugin states and the kit runs.

A plugin module may hold ``EXAMPLES``, a sequence of dicts, each pinning one clause of
its rules page to a worked example.  Plain data, so a plugin needs nothing from the
kit to state them.  Every example has ``"rule"`` (the clause it pins, which a failure
quotes) and may have ``"options"`` and, for a house rule, ``"variant"`` (default
``"standard"``) and ``"house_rules"`` (others loaded beside it).  Then one of:

A hand scored on paper
    ``"bids"`` and ``"books"`` (one entry a seat: ``"3 1 2 nil"``, ``"4 1 3 5"``), the
    sides' ``"scores"`` and ``"bags"`` before the hand (default zero), the books owed
    for rulings (``"transfers"``: ``[["E/W", 3, "E/W talked across the board"]]``, from
    that side to the other), and what must
    come out: ``"points"`` (a side each), ``"after"`` (the scores after),
    ``"bags_after"`` or ``"lines"`` (the score lines' texts, as a score sheet reads).

A position
    ``"deal"`` (one string of cards a seat; ``"blind"``, ``"pile"`` where the variant
    has them), ``"dealer"`` (default the last seat) and ``"actions"``, the labels of
    the actions taken, in order (``"bid 3"``, ``"nil"``, ``"play AS"``), each of which
    must be legal; an action out of turn or by the referee names its seat first
    (``"E: call a renege in trick 2"``, ``"referee: table talk by side 0"``,
    ``"N: declare a misdeal"``).  Then ``"legal"``: the cards the seat to act may play
    (``"2C 7C"``), or the labels of every legal action (``["nil", "bid 1", ...]``);
    ``"offered"``: for some seats (or ``"referee"``), the labels of every action
    they may take, in turn or out of it (``{"W": ["call a renege in trick 1"]}``);
    ``"winner"``: the seat name that won the last trick; ``"perft"``: ``[depth,
    count]``, the number of action sequences of that length from the position (the
    python-chess habit of pinning the move generator with counts); ``"owed"``: the
    books each side owes the other so far for rulings against it; ``"rulings"``: the
    hand's rulings so far, as ``[side, books, reason]``; ``"void"``: whether
    the last finished hand is void (a misdeal: nothing scored), or the note it reads
    if void; ``"dealing"``: the seat
    name dealing the hand now in progress.

A match on paper
    ``"hands"``: ``[[bids, books], ...]`` entered on a score sheet (a third entry gives
    the cards each seat won, for card-point variants; ``-`` is a seat never asked to
    bid), and ``"winner"``: the side name that has won after the last of them, or
    ``None`` if play goes on; ``"after"``: the scores then; ``"lines"``: the last
    hand's score lines.

Any example may say ``"refused": True`` instead: its bids, books or actions must be
refused with a :class:`~spadeskit.SpadesError` (what the rule forbids); a string instead
of ``True`` is what the error must say.

:func:`run_examples` runs the examples of every plugin a rule set loads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spadeskit.core.actions import Action, Play
from spadeskit.core.errors import SpadesError
from spadeskit.core.phase import REFEREE
from spadeskit.core.results import BookTransfer, HandSummary
from spadeskit.core.state import GameState
from spadeskit.engine.loader import load_rules
from spadeskit.engine.rules import Rules

__all__ = ["examples_of", "run_example", "run_examples", "perft"]

Fail = Callable[[Rules, str, str], AssertionError]


def examples_of(rules: Rules) -> list[tuple[str, Mapping[str, Any]]]:
    """Return ``(plugin name, example)`` for every example of the plugins ``rules`` loads."""
    pm = rules.plugin_manager
    found = []
    for name in (rules.variant, *rules.house_rules):
        for example in getattr(pm.get_plugin(name), "EXAMPLES", ()):
            found.append((name, example))
    return found


def _rules_for(rules: Rules, plugin: str, example: Mapping[str, Any]) -> Rules:
    """Return the rule set an example is stated for: its plugin alone, with its options."""
    pm = rules.plugin_manager
    module = pm.get_plugin(plugin)
    options = dict(example.get("options", {}))
    if plugin == rules.variant:
        return load_rules(module, list(example.get("house_rules", ())), options)
    variant = example.get("variant", "standard")
    house = [module, *example.get("house_rules", ())]
    return load_rules(variant, house, options)


def perft(game: GameState, depth: int) -> int:
    """Return the number of legal action sequences of length ``depth`` from ``game``."""
    if depth == 0:
        return 1
    if game.is_over:
        return 0
    return sum(perft(game.apply(action), depth - 1) for action in game.legal_actions())


def _seat_named(game: GameState, name: str) -> int:
    if name == "referee":
        return REFEREE
    names = game.rules.table.seat_names
    if name not in names:
        raise SpadesError(f"no seat is named {name!r} (seats: {', '.join(names)}, referee)")
    return names.index(name)


def _take(game: GameState, label: str) -> GameState:
    seat: int | None = None
    name, colon, rest = label.partition(": ")
    if colon:
        seat, label = _seat_named(game, name), rest
    legal = game.legal_actions(seat)
    for action in legal:
        if str(action) == label:
            return game.apply(action, seat)
    raise SpadesError(f"{label!r} is not legal here: {', '.join(map(str, legal)) or 'nothing'}")


def _words(value: str | Sequence[Any]) -> list[str]:
    return value.split() if isinstance(value, str) else [str(v) for v in value]


def _bid(word: str) -> int | str:
    return int(word) if word.isdigit() else word.replace("_", " ")


def run_example(rules: Rules, plugin: str, example: Mapping[str, Any], fail: Fail) -> None:
    """Run one example of ``plugin``; raise ``fail(rules, "examples", what)`` if it fails."""
    rule = example["rule"]
    try:
        stated = _rules_for(rules, plugin, example)
    except SpadesError as exc:
        raise fail(rules, "examples", f"{plugin}: example {rule!r} does not load: {exc}") from exc

    def wrong(what: str) -> AssertionError:
        return fail(stated, "examples", f"{plugin}: {rule}: {what}")

    names = stated.table.side_names
    try:
        if "hands" in example:
            sheet = stated.score_sheet()
            for bids, books, *won in example["hands"]:
                sheet = sheet.add_hand(
                    [None if b == "-" else _bid(b) for b in _words(bids)],
                    _words(books),
                    won=won[0] if won else None,
                )
            if "after" in example and tuple(sheet.match.scores) != tuple(example["after"]):
                lines = "; ".join(line.text for line in sheet.results[-1].lines)
                raise wrong(f"after {tuple(sheet.match.scores)}, not {example['after']} ({lines})")
            _check_lines(sheet.results[-1].lines, example, wrong)
            end = sheet.match.end
            got = names[end.winner] if end is not None else None
            if "winner" in example and got != example["winner"]:
                raise wrong(
                    f"after {len(example['hands'])} hands the winner is {got}, not "
                    f"{example['winner']} (scores {sheet.match.scores})"
                )
        elif "bids" in example:
            sides = len(stated.table.sides)
            bids = [_bid(b) for b in _words(example["bids"])]
            books = [int(b) for b in _words(example["books"])]
            transfers = tuple(
                BookTransfer(names.index(side), 1 - names.index(side), count, reason)
                for side, count, reason in example.get("transfers", ())
            )
            scored = stated.score_hand(
                HandSummary(tuple(bids), tuple(books), transfers=transfers),
                scores=example.get("scores", (0,) * sides),
                bags=example.get("bags", (0,) * sides),
            )
            for key, value in (
                ("points", scored.points),
                ("after", scored.scores),
                ("bags_after", scored.bags),
            ):
                if key in example and tuple(value) != tuple(example[key]):
                    lines = "; ".join(line.text for line in scored.lines)
                    raise wrong(f"{key} {tuple(value)}, not {tuple(example[key])} ({lines})")
            _check_lines(scored.lines, example, wrong)
        else:
            game = stated.new_game(
                deal=example["deal"],
                dealer=example.get("dealer"),
                blind=example.get("blind", ()),
                pile=example.get("pile", ()),
            )
            for label in example.get("actions", ()):
                game = _take(game, label)
            if "legal" in example:
                _check_legal(game, example["legal"], wrong)
            if "winner" in example:
                tricks = game.hand.tricks
                if not tricks:
                    raise wrong("no trick has been played")
                got = stated.table.seat_names[tricks[-1].winner]
                if got != example["winner"]:
                    raise wrong(f"the last trick was won by {got}, not {example['winner']}")
            if "perft" in example:
                depth, count = example["perft"]
                got_count = perft(game, depth)
                if got_count != count:
                    raise wrong(f"perft({depth}) is {got_count}, not {count}")
            _check_position(game, example, wrong)
    except SpadesError as exc:
        reason = example.get("refused")
        if isinstance(reason, str) and reason not in str(exc):
            raise wrong(f"refused, but not because {reason!r}: {exc}") from exc
        if reason:
            return
        raise wrong(f"refused: {exc}") from exc
    except AssertionError:
        raise
    except Exception as exc:  # a plugin that crashes instead of refusing with a reason
        raise wrong(f"raised {type(exc).__name__}: {exc} (not a SpadesError)") from exc
    if example.get("refused"):
        raise wrong("accepted, but the rule refuses it")


def _check_lines(
    lines: Sequence[Any], example: Mapping[str, Any], wrong: Callable[[str], AssertionError]
) -> None:
    if "lines" in example and [line.text for line in lines] != list(example["lines"]):
        said = "; ".join(line.text for line in lines)
        raise wrong(f"the score lines read {said!r}, not {'; '.join(example['lines'])!r}")


def _check_position(
    game: GameState, example: Mapping[str, Any], wrong: Callable[[str], AssertionError]
) -> None:
    """Check the ``offered``, ``owed``, ``rulings``, ``void`` and ``dealing`` of a position."""
    table = game.rules.table
    for name, labels in example.get("offered", {}).items():
        got = sorted(map(str, game.legal_actions(_seat_named(game, name))))
        if got != sorted(labels):
            raise wrong(f"{name} is offered {', '.join(got) or 'nothing'}, not {', '.join(labels)}")
    if "owed" in example:
        owed = [0] * len(table.sides)
        for transfer in game.hand.transfers:
            if len(owed) == 2 and transfer.to_side != 1 - transfer.from_side:
                raise wrong(f"books owed by side {transfer.from_side} go to {transfer.to_side}")
            owed[transfer.from_side] += transfer.books
        if tuple(owed) != tuple(example["owed"]):
            raise wrong(f"the sides owe {tuple(owed)} books, not {tuple(example['owed'])}")
    if "rulings" in example:
        names = table.side_names
        ruled = [[names[t.from_side], t.books, t.reason] for t in game.hand.transfers]
        if ruled != [list(r) for r in example["rulings"]]:
            raise wrong(
                f"the hand's rulings are {ruled}, not {[list(r) for r in example['rulings']]}"
            )
    if "void" in example:
        results = game.hand_results
        void = bool(results) and results[-1].void and not any(results[-1].points)
        if void != bool(example["void"]):
            said = "void" if void else ("scored" if results else "not finished")
            raise wrong(f"the last hand is {said}, not {'void' if example['void'] else 'scored'}")
        if isinstance(example["void"], str) and results[-1].note != example["void"]:
            raise wrong(f"the void hand reads {results[-1].note!r}, not {example['void']!r}")
    if "dealing" in example and table.seat_names[game.hand.dealer] != example["dealing"]:
        raise wrong(f"{table.seat_names[game.hand.dealer]} deals, not {example['dealing']}")


def _check_legal(game: GameState, legal: Any, wrong: Callable[[str], AssertionError]) -> None:
    actions: Sequence[Action] = game.legal_actions()
    seat = game.rules.table.seat_names[game.to_act] if game.to_act is not None else "nobody"
    if isinstance(legal, str):
        got = sorted(a.card.code for a in actions if isinstance(a, Play))
        want = sorted(legal.split())
    else:
        got = sorted(map(str, actions))
        want = sorted(legal)
    if got != want:
        raise wrong(f"{seat} may play {' '.join(got) or 'nothing'}, not {' '.join(want)}")


def run_examples(rules: Rules, fail: Fail) -> int:
    """Run the examples of every plugin ``rules`` loads; return how many ran."""
    found = examples_of(rules)
    for plugin, example in found:
        run_example(rules, plugin, example, fail)
    return len(found)
