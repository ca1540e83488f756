"""The native core and the pure-Python core are one rulebook.

When the engine runs compiled (``spadeskit.NATIVE``), this plays the same games here
and in a second Python with ``SPADESKIT_PURE=1`` and compares them: every shipped
variant and house rule, seeded random play through the step API, search bots'
choices, a whole match between bots, ``Rules.simulate``, a rollout and the records,
each hashed action by action, and each core loads the other's pickles as states equal
to its own.
A plugin written in plain Python (here, and the example package when installed) runs
on the native core.  Run this file as a script to print the fingerprints.

Without a compiled build (no C compiler, or ``SPADESKIT_PURE=1``) the comparison has
nothing to compare and is skipped; the choosing of the core is tested either way.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import spadeskit
from spadeskit import _native
from spadeskit.arena import make_bot, play_match

HOUSE_RULES = [p for p in spadeskit.available() if p.kind == "house-rule"]
CONFIGS: list[tuple[str, tuple[str, ...], dict[str, Any]]] = [
    *((p.name, (), {}) for p in spadeskit.available() if p.kind == "variant"),
    *(((p.fits or ("standard",))[0], (p.name,), {}) for p in HOUSE_RULES),
    ("jjdd", (), {"enforcement": "table"}),
    ("jjdd", (), {"nil": True, "first_lead": "last-book"}),
    ("standard", ("blind-nil", "hidden-bids", "partnership-nil"), {"blind_nil_pass": 1}),
    ("cutthroat", ("no-trump-first-trick",), {"all_tricks": "score-200"}),
    ("two-handed", ("spades-anytime", "no-bags"), {}),
]
"""Every variant alone, every house rule on the first variant it fits, and a few
combinations and options that take other paths (table enforcement, draws, trades)."""


def _name(variant: str, house: tuple[str, ...], options: dict[str, Any]) -> str:
    return " + ".join((variant, *house)) + (f" {options}" if options else "")


def _digest(*parts: Any) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def fingerprint(variant: str, house: tuple[str, ...], options: dict[str, Any]) -> dict[str, str]:
    """Return hashes of what the engine does with one rule set: random step play of
    two hands (every action, every state's legal actions), the choices of both search
    bots on three of its states, a bot match, simulate, a rollout, the record, and the
    pickle of the finished states."""
    rules = spadeskit.load_rules(variant, house, options)
    rng = random.Random(_name(variant, house, options))
    game = rules.new_game(seed=11)
    steps: list[Any] = []
    positions: list[spadeskit.GameState] = []
    while game.match.end is None and len(game.hand_results) < 2:
        legal = game.legal_actions()
        action = rng.choice(legal)
        steps.append((game.to_act, legal, action))
        if game.phase is spadeskit.Phase.PLAY and len(steps) % 9 == 0 and len(positions) < 3:
            positions.append(game)
        game = game.apply(action)
    searched = []  # search's playouts, memo and rewards, seeded
    for spec in ("pimc[iterations=24]", "ismcts[iterations=40]"):
        for position in positions:
            seat = position.to_act
            assert seat is not None
            searcher = make_bot(spec, seat, rules, random.Random(seat))
            searched.append(searcher.choose(position.view(seat)))
    bots = [
        make_bot("heuristic", seat, rules, random.Random(seat))
        for seat in range(rules.table.players)
    ]
    match = play_match(rules, bots, seed=5)
    rolled = rules.new_game(seed=3).rollout(seed=4)
    return {
        "steps": _digest(steps, game.scores, game.hand_results),
        "search": _digest(searched),
        "match": _digest(match.scores, match.hand_results, match.winner),
        "simulate": _digest(list(rules.simulate(30, seed=2))),
        "rollout": _digest(rolled.scores, rolled.hand_results, rolled.log),
        "record": _digest(json.dumps(game.to_record(), sort_keys=True)),
        "pickle": base64.b64encode(pickle.dumps((game, match), protocol=5)).decode(),
    }


def fingerprints(other: dict[str, dict[str, str]] | None = None) -> dict[str, dict[str, str]]:
    """Return every rule set's fingerprint.  With ``other`` (another core's), each
    pickle that core made is loaded here: ``"loads"`` says whether it gives states equal
    to this core's own."""
    found = {}
    for config in CONFIGS:
        name = _name(*config)
        mine = found[name] = fingerprint(*config)
        if other is not None:
            theirs = pickle.loads(base64.b64decode(other[name]["pickle"]))
            ours = pickle.loads(base64.b64decode(mine["pickle"]))
            mine["loads"] = str(theirs == ours)
    return found


def pure_fingerprints(compiled: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """Return :func:`fingerprints` computed by a second Python running pure, which
    also loads the native core's pickles."""
    env = dict(os.environ, **{_native.PURE_VARIABLE: "1"})
    out = subprocess.run(
        [sys.executable, __file__],
        env=env,
        input=json.dumps(compiled),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: dict[str, dict[str, str]] = json.loads(out)
    return found


needs_compiled = pytest.mark.skipif(
    not spadeskit.NATIVE, reason="the native core is not built here (pure Python only)"
)


@needs_compiled
@pytest.mark.slow
def test_compiled_and_pure_cores_play_every_rule_set_alike() -> None:
    assert _native.native_now()
    compiled = fingerprints()
    pure = pure_fingerprints(compiled)
    compiled = fingerprints(pure)  # and the native core loads the pure core's pickles
    assert set(compiled) == set(pure) == {_name(*config) for config in CONFIGS}
    # Pickles hold equal values, though not byte for byte: the pure core shares some
    # equal tuples between fields where the compiled one builds each anew.
    differ = {
        name: [part for part in parts if part != "pickle" and pure[name][part] != parts[part]]
        for name, parts in compiled.items()
    }
    assert all(parts["loads"] == "True" for parts in (*compiled.values(), *pure.values()))
    assert not any(differ.values()), f"compiled and pure cores differ: {differ}"


def test_spadeskit_pure_runs_the_source_of_every_compiled_module() -> None:
    code = (
        "import spadeskit, sys\n"
        "from spadeskit import _native\n"
        "files = [sys.modules[m].__file__ for m in _native.NATIVE_MODULES]\n"
        "assert all(f.endswith('.py') for f in files), files\n"
        "assert spadeskit.NATIVE is False\n"
    )
    env = dict(os.environ, **{_native.PURE_VARIABLE: "1"})
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def test_compiled_says_which_core_runs() -> None:
    files = [sys.modules[name].__file__ or "" for name in _native.NATIVE_MODULES]
    assert spadeskit.NATIVE == all(not f.endswith(".py") for f in files)
    assert spadeskit.NATIVE == _native.native_now()


def test_a_compiled_module_missing_or_older_than_its_source_is_stale(tmp_path: Path) -> None:
    # A copy of the engine's sources, each with an "extension" built long before it:
    # an edited checkout whose native core was not rebuilt (install() then runs the
    # sources, with one warning naming the module _stale returns).
    originals = _native.source_paths(str(Path(_native.__file__).parent.parent))
    sources = _native.source_paths(str(tmp_path))
    built = [path[: -len(".py")] + _native._SUFFIXES[0] for path in sources]
    for original, source, extension in zip(originals, sources, built, strict=True):
        Path(source).parent.mkdir(parents=True, exist_ok=True)
        Path(source).write_text(Path(original).read_text())
        Path(extension).write_bytes(b"")
        os.utime(extension, (1, 1))
    why = _native._stale(sources)
    assert why is not None and "changed after it was compiled" in why
    for extension in built:  # now current: nothing is stale
        os.utime(extension)
    assert _native._stale(sources) is None
    Path(built[5]).unlink()
    assert "has no compiled copy" in (_native._stale(sources) or "")


def test_a_plain_python_plugin_runs_on_whichever_core_is_built() -> None:
    # The example third-party package, when installed, is a house rule in plain Python.
    try:
        rules = spadeskit.load_rules("standard", ["suicide"])
    except spadeskit.UnknownPlugin:
        pytest.skip("the example plugin package is not installed")
    game = rules.new_game(seed=1).rollout(seed=1)
    assert game.hand_results


if __name__ == "__main__":
    # Given another core's fingerprints on stdin, load its pickles too.
    given = sys.stdin.read() if not sys.stdin.isatty() else ""
    json.dump(fingerprints(json.loads(given) if given.strip() else None), sys.stdout)


def test_both_cores_play_through_the_one_playout_loop() -> None:
    # The loop is hand-written once (spadeskit.engine.playouts): the pure core runs it as
    # it is, the native core compiles it; no template, no rendered copy.
    from spadeskit.engine import playouts

    rules = spadeskit.load_rules("standard")
    assert isinstance(rules.engine.playouts.loop, playouts.CardLoop)
    assert (not (playouts.__file__ or "").endswith(".py")) == spadeskit.NATIVE


def test_every_engine_module_names_a_file_that_exists() -> None:
    # mypyc gives a compiled module its build folder's path (no src/ in an editable
    # install); spadeskit points __file__ at the extension module beside the source.
    for name in _native.NATIVE_MODULES:
        module = sys.modules[name]
        assert module.__file__ is not None and Path(module.__file__).exists(), name
        assert module.__file__.endswith(".py") != spadeskit.NATIVE, name
