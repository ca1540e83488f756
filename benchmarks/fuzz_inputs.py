"""Throw generated bad and odd inputs at every public entry point (not a test; run by hand).

For each input, the entry point must either succeed or raise a ``SpadesError``
subclass; when it raises, the state it was given must be unchanged.  The script prints
how many inputs it tried, how many raised something other than a ``SpadesError`` (must
be 0) and how many changed a state while refusing it (must be 0), with the first
examples of each.

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
from spadeskit import actions, cli

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
        self, what: str, call: Callable[[], object], state: spadeskit.GameState | None = None
    ) -> None:
        self.tried += 1
        before = (state.to_record(), state.legal_actions()) if state is not None else None
        try:
            call()
        except spadeskit.SpadesError:
            if state is not None and (state.to_record(), state.legal_actions()) != before:
                self.changed.append(what)
        except (RecursionError, MemoryError):
            pass  # passed through unchanged, on purpose
        except Exception as exc:  # noqa: BLE001 - counting what escapes
            self.raw.append(f"{what}: {type(exc).__name__}: {str(exc)[:100]}")

    def step(self) -> None:
        rng = self.rng
        state = rng.choice(self.states)
        kind = rng.randrange(10)
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
            self.attempt(
                "replay",
                lambda: spadeskit.replay(record, key=rng.choice([None, b"0123456789abcdef!"])),
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
    print(f"states changed by a refused input: {len(fuzzer.changed)}")
    for line in sorted(set(fuzzer.changed))[:20]:
        print(f"  {line}")
    print(
        json.dumps({"inputs": fuzzer.tried, "raw": len(fuzzer.raw), "changed": len(fuzzer.changed)})
    )


if __name__ == "__main__":
    main()
