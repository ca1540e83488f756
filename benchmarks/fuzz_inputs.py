"""Throw generated bad and odd inputs at every public entry point (not a test; run by hand).

For each input, the entry point must either succeed or raise a ``SpadesError``
subclass (the adapters: the framework's documented exception); when it raises, the state
it was given must be unchanged; and an input known to be invalid (a record the shipped
schema refuses, a hand summary with a bid that is no bid, a transfer between sides that
do not exist) must not be accepted.  The script prints how many inputs it tried, how
many raised something other than a ``SpadesError`` (must be 0), how many invalid inputs
were accepted (must be 0) and how many changed a state while refusing it (must be 0),
with the first examples of each.

Entry points: card and action parsing (``parse_card``, ``parse_action``,
``action_from_json``), ``load_rules``, ``new_game``, ``apply``, ``legal_actions``,
``view``, ``to_record`` and ``replay`` (with and without keys), ``score_hand`` (by
lists and by ``HandSummary``), the score sheet (with transfers), ``trick_winner``,
``simulate``, ``rollout``, the arena's ``make_bot``, the command line, the table service
(``Table``, whose protocol ``Connection.receive`` must answer every message without
raising, and the ``TableStore``, given altered rows), and, when their extras are
installed, the OpenSpiel game and the PettingZoo environment.

    python benchmarks/fuzz_inputs.py [--inputs 1000000] [--seed 0]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import random
import time
from collections.abc import Callable
from typing import Any

import spadeskit
from spadeskit.apps import cli
from spadeskit.arena import evaluate, evaluate_hands, gauntlet, make_bot, play_match
from spadeskit.bots.pointcount import PointCountBot
from spadeskit.bots.suretricks import SureTricksBot
from spadeskit.core import actions
from spadeskit.core.cards import ALL_CARDS
from spadeskit.core.errors import shown
from spadeskit.core.records import record_schema
from spadeskit.core.results import BookTransfer, HandSummary

try:
    import jsonschema
except ImportError:  # the schema comparison needs the test extra
    jsonschema = None
try:
    import numpy as np

    from spadeskit.interop import pettingzoo as pz_adapter
except ImportError:
    pz_adapter = None  # type: ignore[assignment]
try:
    import pyspiel

    from spadeskit.interop import openspiel as os_adapter

    os_adapter.register()
except ImportError:
    pyspiel = None

VARIANTS = ("standard", "jjdd", "cutthroat", "two-handed", "three-suit-trump")
WORDS = [
    "AS",
    "10H",
    "TS",
    "A♠",
    "BJ",
    "LJ",
    "1S",
    "",
    " ",
    "nil",
    "blind nil",
    "pick up",
    "pass",
    "ZZ",
    "standard",
    "jjdd",
    "no-bags",
    "blind-nil",
    "target",
    "floor",
    "\x00",
    "é",
    "AS AS",
    "-1",
]


class Odd:
    """An object whose equality always says yes and whose repr fails."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class SpoofBid(spadeskit.Bid):
    """A subclass of Bid that claims to equal anything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = spadeskit.Bid.__hash__


def junk(rng: random.Random, depth: int = 0) -> Any:
    """Return a random odd value: numbers of every size, strings, containers, objects."""
    kind = rng.randrange(14)
    if kind == 0:
        return rng.randint(-5, 60)
    if kind == 1:
        return rng.choice([10**5000, -(10**40), 2**63, 1.0, 0.5, float("nan"), float("inf")])
    if kind == 2:
        return rng.choice([True, False, None])
    if kind == 3:
        return rng.choice(WORDS)
    if kind == 4:
        return "".join(rng.choice("AKQJT98765432SHDC♠♥♦♣ x10") for _ in range(rng.randrange(6)))
    if kind == 5 and depth < 3:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(6))]
    if kind == 6 and depth < 3:
        return {rng.choice(WORDS): junk(rng, depth + 1) for _ in range(rng.randrange(4))}
    if kind == 7:
        return Odd()
    if kind == 8:
        return rng.choice(
            [spadeskit.Card.of("AS"), spadeskit.Play("2C"), spadeskit.Nil(), spadeskit.Pass()]
        )
    if kind == 9:
        return SpoofBid(3)
    if kind == 10:
        return b"AS"
    if kind == 11:
        return object()
    if kind == 12 and depth < 3:
        return tuple(junk(rng, depth + 1) for _ in range(rng.randrange(5)))
    return rng.randrange(-3, 30)


def an_action(rng: random.Random, fuzzer: Fuzzer) -> Any:
    kind = rng.randrange(8)
    if kind < 3:
        cls = rng.choice(list(actions.ACTION_TYPES.values()))
        fields = [f.name for f in cls.__attrs_attrs__]  # type: ignore[attr-defined]
        made: list[Any] = []
        fuzzer.attempt(
            f"{cls.__name__}(...)", lambda: made.append(cls(**{f: junk(rng) for f in fields}))
        )
        return (
            made[0]
            if made
            else rng.choice([spadeskit.Bid(4), spadeskit.Nil(), spadeskit.Play("AS")])
        )
    if kind == 3:
        return SpoofBid(rng.randrange(0, 30))
    return junk(rng)


class Fuzzer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.tried = 0
        self.raw: list[str] = []
        self.changed: list[str] = []
        self.accepted: list[str] = []
        self.schema = (
            jsonschema.validators.validator_for(record_schema())(record_schema())
            if jsonschema is not None
            else None
        )
        self.ospiel = (
            [pyspiel.load_game("python_spadeskit", {"variant": v}) for v in VARIANTS]
            if pyspiel is not None
            else []
        )
        self.envs = [pz_adapter.env(variant=v) for v in VARIANTS] if pz_adapter else []
        for number, e in enumerate(self.envs):
            e.reset(seed=number)
        self.states: list[spadeskit.GameState] = []
        for variant in VARIANTS:
            rules = spadeskit.load_rules(variant)
            game = rules.new_game(seed=seed)
            for _ in range(40):
                self.states.append(game)
                if game.is_over:
                    break
                game = game.apply(self.rng.choice(game.legal_actions()))
        self.records = [s.to_record() for s in self.states[::7]]

    def attempt(
        self,
        what: str,
        call: Callable[[], object],
        state: spadeskit.GameState | None = None,
        invalid: bool = False,
        framework: tuple[type[BaseException], ...] = (),
    ) -> None:
        """Call ``call``; count a raw exception, a refused call that changed ``state``,
        and an ``invalid`` input that was accepted."""
        self.tried += 1
        before = (state.to_record(), state.legal_actions()) if state is not None else None
        try:
            call()
            if invalid:
                self.accepted.append(what)
        except (spadeskit.SpadesError, *framework):
            if state is not None and (state.to_record(), state.legal_actions()) != before:
                self.changed.append(what)
        except (RecursionError, MemoryError):
            pass  # passed through unchanged, on purpose
        except Exception as exc:  # noqa: BLE001 - counting what escapes
            self.raw.append(f"{what}: {type(exc).__name__}: {str(exc)[:100]}")

    def step(self) -> None:
        rng = self.rng
        state = rng.choice(self.states)
        kind = rng.randrange(18)
        if kind >= 10:
            self.more(kind, state)
            return
        if kind == 0:
            value = junk(rng)
            self.attempt(f"parse_card({type(value).__name__})", lambda: spadeskit.parse_card(value))
        elif kind == 1:
            args = (
                rng.choice(list(VARIANTS) + [junk(rng)]),
                rng.choice([(), ["no-bags"], junk(rng)]),
                rng.choice([None, {}, {"target": junk(rng)}, junk(rng)]),
            )
            self.attempt("load_rules", lambda: spadeskit.load_rules(*args))
        elif kind == 2:
            kwargs = {
                k: junk(rng)
                for k in rng.sample(
                    ["seed", "deal", "dealer", "blind", "pile"], rng.randrange(1, 4)
                )
            }
            self.attempt("new_game", lambda: state.rules.new_game(**kwargs))
        elif kind in (3, 4):
            action, seat = (
                an_action(rng, self),
                rng.choice([None, junk(rng), spadeskit.REFEREE, 0, 1]),
            )
            self.attempt(
                f"apply({type(action).__name__})", lambda: state.apply(action, seat), state
            )
        elif kind == 5:
            seat = junk(rng)
            self.attempt("legal_actions", lambda: state.legal_actions(seat), state)
            self.attempt("view", lambda: state.view(seat), state)
        elif kind == 6:
            record = copy.deepcopy(rng.choice(self.records))
            for _ in range(rng.randrange(1, 4)):
                key = rng.choice(list(record) + ["extra"])
                record[key] = junk(rng) if rng.random() < 0.7 else record.get(key)
            if record.get("actions") and isinstance(record["actions"], list) and rng.random() < 0.5:
                record["actions"][rng.randrange(len(record["actions"]))] = junk(rng)
            invalid = self.schema is not None and not _schema_valid(self.schema, record)
            self.attempt(
                f"replay({_brief(record)})",
                lambda: spadeskit.replay(record, key=rng.choice([None, b"0123456789abcdef!"])),
                invalid=invalid,
            )
        elif kind == 7:
            bids, books = junk(rng), junk(rng)
            if rng.random() < 0.5:
                bids = [rng.choice([3, "nil", junk(rng)]) for _ in range(state.rules.table.players)]
                books = [rng.randrange(-2, 15) for _ in range(state.rules.table.players)]
            self.attempt("score_hand", lambda: state.rules.score_hand(bids=bids, books=books))
            self.attempt("score_sheet", lambda: state.rules.score_sheet().add_hand(bids, books))
        elif kind == 8:
            self.attempt("action_from_json", lambda: spadeskit.action_from_json(junk(rng)))
            cards = rng.choice([["AS", "AS"], "AS KS", ["AS", "as"], ["7C"], ["AS", "KS"]])
            data = {"type": rng.choice(["exchange", "discard"]), "cards": cards}
            bad = not isinstance(cards, list) or len({c.upper() for c in cards}) < len(cards)
            self.attempt(
                f"action_from_json({data})", lambda: spadeskit.action_from_json(data), invalid=bad
            )
        else:
            argv = [
                str(
                    rng.choice(
                        [
                            "demo",
                            "list",
                            "replay",
                            "--seed",
                            "--variant",
                            "x",
                            "--option",
                            "a=b",
                            "/nonexistent",
                            "jjdd",
                            "--bots",
                        ]
                    )
                )
                for _ in range(rng.randrange(1, 4))
            ]
            if "demo" in argv:
                return  # a whole match: too slow for a fuzz loop, and covered by the tests
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                self.attempt("cli", lambda: _exit_code(argv))

    def more(self, kind: int, state: spadeskit.GameState) -> None:
        """The entry points added in hardening round 3."""
        rng = self.rng
        rules = state.rules
        n = rules.table.players
        if kind == 10:
            text = rng.choice([junk(rng), " ".join(rng.choice(WORDS) for _ in range(2))])
            seat = rng.choice([state.to_act, 0, 1, None, junk(rng)])
            view: Any = rng.choice([None, junk(rng)])
            if rng.random() < 0.8:
                with contextlib.suppress(spadeskit.SpadesError):
                    view = state.view(seat)
            self.attempt("parse_action", lambda: spadeskit.parse_action(text, view), state)
        elif kind == 11:
            bids: Any = [rng.choice([spadeskit.Bid(3), spadeskit.Nil(), None, junk(rng)])]
            bids = bids * n if rng.random() < 0.7 else junk(rng)
            books: Any = [rng.randrange(-1, 14) for _ in range(n)]
            books = books if rng.random() < 0.7 else junk(rng)
            summary = HandSummary(bids, books)
            # A bid is an action, a number or a text ("nil"); None (a seat never asked)
            # only where the auction can end early (three-suit-trump's widow).
            invalid = isinstance(bids, list) and any(
                (b is None and rules.variant != "three-suit-trump")
                or not isinstance(b, (spadeskit.Action, int, str, type(None)))
                for b in bids
            )
            self.attempt(
                "score_hand(HandSummary)", lambda: rules.score_hand(summary), invalid=invalid
            )
            self.attempt(
                "score_hand(scores=)",
                lambda: rules.score_hand(bids=[3] * n, books=[3] * n, scores=junk(rng)),
            )
        elif kind == 12:
            sides = len(rules.table.sides)
            a, b = rng.randrange(-1, sides + 1), rng.randrange(-1, sides + 1)
            moved = rng.choice([rng.randrange(-2, 5), junk(rng)])
            transfer = BookTransfer(a, b, moved, "fuzz")
            invalid = not (0 <= a < sides and 0 <= b < sides and a != b) or not (
                type(moved) is int and moved >= 0
            )
            split = [13 // n] * n
            split[0] += 13 - sum(split)
            self.attempt(
                f"score_sheet transfers({a}, {b}, {shown(moved, 20)})",
                lambda: rules.score_sheet().add_hand([3] * n, split, transfers=[transfer]),
                invalid=invalid and rules.variant == "jjdd",
            )
            self.attempt("trick_winner", lambda: rules.trick_winner(junk(rng)))
            trump = junk(rng)
            self.attempt(
                f"trick_winner(trump={shown(trump, 30)})",
                lambda: rules.trick_winner([(0, "AS"), (1, "KS")], trump=trump),
                invalid=not isinstance(trump, str) or len(trump) > 40,
            )
            deck = {c.index for c in rules.table.deck}
            plays = [
                (rng.choice([*range(n), -1, n, junk(rng)]), rng.choice(ALL_CARDS))
                for _ in range(rng.randrange(1, n + 2))
            ]
            seats = [s for s, _ in plays]
            bad = (
                len(plays) > n
                or any(type(s) is not int or not 0 <= s < n for s in seats)
                or any(c.index not in deck for _, c in plays)
                or len(set(map(repr, seats))) < len(seats)
                or len({c for _, c in plays}) < len(plays)
            )
            self.attempt(
                f"trick_winner({shown(plays, 60)})",
                lambda: rules.trick_winner(plays),
                invalid=bad,
            )
        elif kind == 13:
            hands, start = rng.choice([1, 0, -1, junk(rng)]), rng.choice([0, 1, junk(rng)])
            self.attempt("simulate", lambda: list(rules.simulate(hands, seed=1, start=start)))
            seed = junk(rng)
            self.attempt("rollout", lambda: state.rollout(seed=seed), state)
        elif kind == 14:
            spec = rng.choice(
                ["random", "greedy", "heuristic", "ismcts:iterations=2", ":", "..:x", junk(rng)]
            )
            if isinstance(spec, str) and rng.random() < 0.3:
                spec = f"{spec}:{rng.choice(WORDS)}={rng.choice(WORDS + ['9' * 5000, '2', 'x'])}"
            self.attempt(
                "make_bot", lambda: make_bot(spec, rng.choice([0, 1, junk(rng)]), rules, rng)
            )
            key = junk(rng)
            self.attempt("to_record(key=)", lambda: state.to_record(key=key), state)
            record = state.to_record(key=b"0123456789abcdef!")
            record["mac"] = rng.choice([junk(rng), "é" * 64, record["mac"][::-1]])
            signer = rng.choice([key, b"0123456789abcdef!"])
            self.attempt(
                f"replay(mac={shown(record['mac'])}, key={shown(signer)})",
                lambda: spadeskit.replay(record, key=signer),
                invalid=signer is not None,
            )
        elif kind == 15:
            self.adapters()
        elif kind == 16:
            self.bots(state)
        else:
            self.tables(state)

    def bots(self, state: spadeskit.GameState) -> None:
        """Bots given bad settings, bad seats, rules or generators, and things that are
        not views."""
        rng = self.rng
        rules = state.rules
        settings = {
            spadeskit.HeuristicBot: ["rules", "table_bids", "set_slack", "version"],
            spadeskit.SimpleBot: ["rules"],
            PointCountBot: ["rules"],
            SureTricksBot: ["rules"],
            spadeskit.RandomBot: ["seed"],
            spadeskit.PIMCBot: ["iterations", "seconds", "seed", "rollout", "bid_by", "veto"],
            spadeskit.ISMCTSBot: ["iterations", "seconds", "rollout", "exploration", "bid_deals"],
        }
        cls = rng.choice(list(settings))
        name = rng.choice(settings[cls])
        value = junk(rng)
        self.attempt(f"{cls.__name__}({name}={shown(value)})", lambda: cls(**{name: value}))
        bot = cls() if cls is not spadeskit.PIMCBot else cls(iterations=2)
        seat = rng.choice([0, junk(rng)])
        how = rng.choice([rules, junk(rng)])
        draw = rng.choice([random.Random(1), junk(rng)])
        self.attempt(f"{cls.__name__}.reset", lambda: bot.reset(seat, how, draw))
        view = rng.choice([junk(rng), state, state.view(state.to_act or 0)])
        if not isinstance(view, spadeskit.View) or cls in (
            spadeskit.RandomBot,
            spadeskit.SimpleBot,
            PointCountBot,
            SureTricksBot,
        ):
            self.attempt(f"{cls.__name__}.choose({type(view).__name__})", lambda: bot.choose(view))

    def tables(self, state: spadeskit.GameState) -> None:
        """The arena and the table service given bad settings and objects."""
        rng = self.rng
        rules = state.rules
        n = rules.table.players
        what = rng.randrange(6)
        if what == 0:
            args = [rng.choice([rules, junk(rng)]), rng.choice(["random", junk(rng)])]
            args.append(rng.choice(["simple", junk(rng)]))
            deals = rng.choice([-1, junk(rng), "3"])
            self.attempt(
                "evaluate", lambda: evaluate(*args, deals=deals, batch=rng.choice([0, junk(rng)]))
            )
            self.attempt(
                "evaluate_hands", lambda: evaluate_hands(*args, deals=deals, contexts=junk(rng))
            )
            self.attempt(
                "gauntlet",
                lambda: gauntlet(args[0], rng.choice([args[1:], junk(rng), "heuristic"]), deals),
            )
        elif what == 1:
            bots = rng.choice([[spadeskit.RandomBot(1)] * n, [junk(rng)] * n, junk(rng)])
            self.attempt(
                "play_match",
                lambda: play_match(
                    rng.choice([rules, junk(rng)]),
                    bots,
                    rng.choice([1, junk(rng)]),
                    max_actions=rng.choice([5, -1, junk(rng)]),
                ),
            )
        elif what == 2:
            bots = rng.choice(
                [
                    {0: junk(rng)},
                    {rng.choice([-1, 9, "x", None]): spadeskit.RandomBot(1)},
                    junk(rng),
                ]
            )
            self.attempt(
                "Table",
                lambda: spadeskit.Table(rng.choice([rules, junk(rng)]), seed=1, bots=bots),
            )
        elif what == 3:
            table = spadeskit.Table(rules, seed=rng.randrange(5))
            self.attempt("Table.act", lambda: table.act(junk(rng), junk(rng)))
            self.attempt("Table.events", lambda: table.events(junk(rng), junk(rng)))
            self.attempt("Table.join", lambda: table.join(junk(rng), junk(rng)))
            self.attempt("Table.news", lambda: table.news(junk(rng), junk(rng)))
            self.attempt("Table.play_bots", lambda: table.play_bots(junk(rng)))
            self.attempt("Table.reap", lambda: table.reap(junk(rng)))
            settings = {
                name: junk(rng)
                for name in rng.sample(
                    ["key", "bots", "bot_moves", "abandon_after", "stand_in", "dealer"],
                    rng.randrange(1, 3),
                )
            }
            self.attempt(
                f"Table({shown(settings, 60)})", lambda: spadeskit.Table(rules, **settings)
            )
        elif what == 4:
            self.connection(rules)
        else:
            self.store(rules)

    def connection(self, rules: spadeskit.Rules) -> None:
        """A table's protocol given what a hostile client sends: ``receive`` must never
        raise, and a refused message must leave the table as it was."""
        rng = self.rng
        table = spadeskit.Table(rules, seed=rng.randrange(5), bots={1: "random"})
        client = spadeskit.Connection(table)
        if rng.random() < 0.6:
            client.receive({"join": "Ann", "seat": rng.choice([0, 2])})
        for _ in range(rng.randrange(1, 4)):
            keys = rng.sample(
                ["join", "rejoin", "watch", "act", "seat", "since", "hello"], rng.randrange(1, 4)
            )
            message: Any = {k: rng.choice([junk(rng), "4", "AS", True, 0]) for k in keys}
            form = rng.randrange(4)
            if form == 1:
                with contextlib.suppress(TypeError, ValueError, RecursionError):
                    message = json.dumps(message)
            elif form == 2:
                depth = rng.choice([3, 5, 50, 5000])
                message = '{"act": ' + "[" * depth + "]" * depth + "}"
            elif form == 3:
                message = rng.choice(['{"join": "' + "x" * 10_000 + '"}', b"\xff", "{", "[]"])
            before = table.game
            self.tried += 1
            try:
                replies, changed = client.receive(message)
            except Exception as exc:  # noqa: BLE001 - receive must answer, never raise
                self.raw.append(f"Connection.receive: {type(exc).__name__}: {str(exc)[:100]}")
                continue
            if replies and "error" in replies[0] and table.game is not before:
                self.changed.append(f"Connection.receive({shown(message, 40)})")

    def store(self, rules: spadeskit.Rules) -> None:
        """The table store given bad settings, tables, names and rows."""
        rng = self.rng
        key = b"0123456789abcdef!"
        self.attempt("SQLiteStore(key=)", lambda: spadeskit.SQLiteStore(":memory:", key=junk(rng)))
        store = spadeskit.SQLiteStore(":memory:", key=key)
        self.attempt("TableStore.add", lambda: store.add(junk(rng)))
        table = spadeskit.Table(rules, key=key, bots={1: "random"})
        name = store.add(table)
        for _ in range(rng.randrange(0, 12)):
            with contextlib.suppress(spadeskit.SpadesError):
                if table.bot_due:
                    table.play_bots(1)
                elif table.to_act is not None:
                    table.act(table.to_act, rng.choice(table.game.legal_actions()))
        column = rng.choice(["snapshot", "over", "written", "name"])
        value = rng.choice(["{}", '{"record": 5}', "not json", 7, "[1, 2]", None])
        with contextlib.suppress(Exception):
            store._db.execute(
                f"UPDATE spadeskit_tables SET {column} = ? WHERE name = ?", (value, name)
            )
        if rng.random() < 0.5:
            action = rng.choice(['{"type": "bid", "tricks": 2}', "[]", "7", "{"])
            with contextlib.suppress(Exception):
                store._db.execute("UPDATE spadeskit_actions SET action = ?", (action,))
        self.attempt(f"TableStore.load({column}={shown(value, 30)})", store.load)
        self.attempt("TableStore.expire", lambda: store.expire(junk(rng)))
        self.attempt("TableStore.remove", lambda: store.remove(junk(rng)))
        store.close()

    def adapters(self) -> None:
        rng = self.rng
        if self.ospiel and rng.random() < 0.5:
            game = rng.choice(self.ospiel)
            st = game.new_initial_state()
            for _ in range(rng.randrange(0, 70)):
                if st.is_terminal():
                    break
                ids = (
                    [a for a, _ in st.chance_outcomes()]
                    if st.is_chance_node()
                    else (st.legal_actions())
                )
                st.apply_action(rng.choice(ids))
            legal = (
                {a for a, _ in st.chance_outcomes()}
                if st.is_chance_node()
                else set(st.legal_actions())
            )
            action = rng.choice([rng.randrange(-5, 3100), junk(rng)])
            text = str(st)
            # pybind11 hands the adapter True and False as the ints 1 and 0.
            ok = type(action) in (int, bool) and action in legal
            self.attempt(
                f"openspiel apply_action({shown(action)}) at {st}",
                lambda: st.apply_action(action),
                invalid=not ok,
                framework=(TypeError, pyspiel.SpielError),
            )
            if str(st) != text and not ok:
                self.changed.append(f"openspiel apply_action({shown(action)})")
            name = rng.choice(["variant", "house_rules", "options"])
            params = {name: rng.choice(WORDS + ['{"target": ' + "9" * 5000 + "}", "{", "[]"])}
            self.attempt(
                "openspiel load_game",
                lambda: pyspiel.load_game("python_spadeskit", params),
                framework=(pyspiel.SpielError, TypeError),
            )
        elif self.envs:
            e = rng.choice(self.envs)
            if e.game is None or e.game.is_over:
                e.reset(seed=rng.randrange(100))
            agent = rng.choice([e.agent_selection, junk(rng)])
            self.attempt("pettingzoo observe", lambda: e.observe(agent))
            mask = e.observe(e.agent_selection)["action_mask"]
            action = rng.choice(
                [int(rng.choice(list(np.flatnonzero(mask)))), np.int64(3), junk(rng)]
            )
            legal = type(action) is int or isinstance(action, np.integer)
            record = e.game.to_record() if e.game is not None else None
            self.attempt("pettingzoo step", lambda: e.step(action), invalid=not legal)
            if not legal and e.game is not None and e.game.to_record() != record:
                self.changed.append("pettingzoo step")


def _brief(record: dict[str, Any]) -> str:
    """Return a record's top level in short, for a report."""
    return ", ".join(f"{k}={shown(v, 40)}" for k, v in record.items() if k != "actions")


def _schema_valid(schema: Any, record: Any) -> bool:
    """Return whether the shipped schema accepts ``record`` (a record holding values JSON
    cannot hold is not valid)."""
    try:
        json.dumps(record)
    except (TypeError, ValueError, RecursionError, RuntimeError):
        return False
    return bool(schema.is_valid(record))


def _exit_code(argv: list[str]) -> int:
    try:
        return cli.main(argv)
    except SystemExit as exc:  # argparse's own usage errors exit 2 with one line
        if exc.code not in (0, 2):
            raise RuntimeError(f"exit {exc.code}") from None
        return int(exc.code or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    fuzzer = Fuzzer(args.seed)
    start = time.perf_counter()
    while fuzzer.tried < args.inputs:
        fuzzer.step()
    spent = time.perf_counter() - start
    print(f"inputs tried: {fuzzer.tried:,} in {spent:,.0f} s")
    print(f"exceptions that are not SpadesError: {len(fuzzer.raw)}")
    for line in sorted(set(fuzzer.raw))[:20]:
        print(f"  {line}")
    print(f"invalid inputs accepted: {len(fuzzer.accepted)}")
    for line in sorted(set(fuzzer.accepted))[:20]:
        print(f"  {line}")
    print(f"states changed by a refused input: {len(fuzzer.changed)}")
    for line in sorted(set(fuzzer.changed))[:20]:
        print(f"  {line}")
    print(
        json.dumps(
            {
                "inputs": fuzzer.tried,
                "raw": len(fuzzer.raw),
                "accepted": len(fuzzer.accepted),
                "changed": len(fuzzer.changed),
            }
        )
    )


if __name__ == "__main__":
    main()
