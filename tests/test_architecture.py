"""A house with rooms: the layers, no import cycle, 0.2.0's names and paths kept, and
pluggy's calling convention for defaulted hook arguments."""

from __future__ import annotations

import ast
import importlib
import json
import pathlib
import pickle
import shutil
import subprocess
import sys
import types
import warnings
from typing import Any

import pluggy
import pytest

import spadeskit
from spadeskit import _compat
from spadeskit.core.seating import TableSpec
from spadeskit.core.state import GameState
from spadeskit.engine import hookspecs
from spadeskit.plugin import PluginInfo, hookimpl

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = pathlib.Path(spadeskit.__file__).parent
API_0_2_0: dict[str, list[str]] = json.loads(
    (pathlib.Path(__file__).parent / "data" / "api_0_2_0.json").read_text(encoding="utf-8")
)
"""Every 0.2.0 module's ``__all__``, read from the 0.2.0 sources."""

LAYERS = (
    "core",
    "engine",
    "batch",
    "testing",
    "analysis",
    "bots",
    "arena",
    "apps",
    "interop",
    "rl",
)

# Modules that need an optional extra to import, and the one 0.2.0 name that moved to
# a layer its old home may not import (the batched engine cannot reach the bots).
NEEDS_EXTRA = {"spadeskit.interop.openspiel", "spadeskit.interop.pettingzoo", "spadeskit.tui"}
MOVED_UP = {("spadeskit.batch", "draw_hands"): "spadeskit.bots.deals"}


def _cycles() -> list[set[str]]:
    """Return every import cycle among spadeskit's modules (strongly connected groups),
    imports inside functions and under ``TYPE_CHECKING`` included."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("spadeskit", cache_dir=None)
    modules = sorted(graph.modules)
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                top = stack.pop()
                group.add(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(group)

    for module in modules:
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_anywhere_in_the_package() -> None:
    assert _cycles() == []


def test_at_most_fourteen_modules_at_the_top_and_every_layer_a_subpackage() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 14, top
    for layer in LAYERS:
        assert (PACKAGE / layer / "__init__.py").is_file(), layer


def test_every_layer_says_what_it_owns_and_what_it_may_import() -> None:
    for layer in LAYERS:  # read, not imported: a layer may need an optional extra
        source = (PACKAGE / layer / "__init__.py").read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(source)) or ""
        assert "import" in doc and len(doc.split()) > 30, layer


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter not installed")
def test_the_import_contracts_hold() -> None:
    done = subprocess.run(
        ["lint-imports", "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" not in done.stdout.split("Contracts:")[-1].replace("0 broken", "")


def test_every_name_spadeskit_exported_in_0_2_0_still_imports() -> None:
    for name in API_0_2_0["spadeskit"]:
        assert hasattr(spadeskit, name), name


def test_the_bots_import_from_spadeskit_and_from_spadeskit_bots() -> None:
    from spadeskit.bots import HeuristicBot, ISMCTSBot, PIMCBot, RandomBot, SimpleBot

    assert spadeskit.HeuristicBot is HeuristicBot and spadeskit.SimpleBot is SimpleBot
    assert {spadeskit.PIMCBot, spadeskit.ISMCTSBot, spadeskit.RandomBot} == {
        PIMCBot,
        ISMCTSBot,
        RandomBot,
    }


def _forget_old_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drop the old paths from the module cache, so that importing one warns again."""
    for name in _compat.MOVED:
        monkeypatch.delitem(sys.modules, f"spadeskit.{name}", raising=False)
        if name in vars(spadeskit):
            monkeypatch.delattr(spadeskit, name)


@pytest.mark.parametrize("module", sorted(m for m in API_0_2_0 if m not in NEEDS_EXTRA))
def test_every_0_2_0_module_path_still_gives_its_names(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _forget_old_paths(monkeypatch)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = importlib.import_module(module)
        for name in API_0_2_0[module]:
            home = MOVED_UP.get((module, name))
            where = importlib.import_module(home) if home else found
            assert hasattr(where, name), f"{module}.{name}"
    old = module.removeprefix("spadeskit.")
    if old in _compat.MOVED:
        assert any(
            issubclass(w.category, DeprecationWarning) and _compat.MOVED[old] in str(w.message)
            for w in caught
        ), f"no deprecation warning for {module}"


def test_an_old_path_is_the_module_at_its_new_home(monkeypatch: pytest.MonkeyPatch) -> None:
    _forget_old_paths(monkeypatch)
    with pytest.warns(DeprecationWarning, match=r"spadeskit\.table moved to spadeskit\.core"):
        import spadeskit.table as old
    import spadeskit.core.seating as new

    assert old is new and old.TableSpec is TableSpec
    with pytest.warns(DeprecationWarning, match="spadeskit.cards moved"):
        assert spadeskit.cards.Card is spadeskit.Card  # type: ignore[attr-defined]


def test_spadeskit_replay_stays_the_function_when_its_old_module_path_is_imported() -> None:
    importlib.import_module("spadeskit.replay")
    assert callable(spadeskit.replay)
    game = spadeskit.load_rules("standard").new_game(seed=3)
    assert spadeskit.replay(game.to_record()) == game


def test_an_old_engine_name_warns_and_gives_the_engine() -> None:
    from spadeskit.engine import machine

    with pytest.warns(DeprecationWarning, match="spadeskit.engine.machine.Engine"):
        assert spadeskit.engine.Engine is machine.Engine  # type: ignore[attr-defined]


def test_a_state_pickled_under_the_0_2_0_paths_loads() -> None:
    """A pickle names classes by module; 0.2.0's names were spadeskit.state, … ."""
    game = spadeskit.load_rules("standard").new_game(seed=5)
    game = game.apply(game.legal_actions()[2])
    data = pickle.dumps(game, protocol=2)
    old = data
    for name, home in _compat.MOVED.items():
        old = old.replace(f"spadeskit.{home}\n".encode(), f"spadeskit.{name}\n".encode())
    assert old != data and b"spadeskit.state\n" in old
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert pickle.loads(old) == game


def test_a_third_party_plugin_written_for_0_2_0_loads_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The example suicide plugin imports 0.2.0's paths (spadeskit.table, spadeskit.state …)."""
    source = ROOT / "examples" / "spadeskit-suicide" / "src" / "spadeskit_suicide" / "__init__.py"
    text = source.read_text(encoding="utf-8")
    assert "from spadeskit.table import TableSpec" in text
    module = types.ModuleType("suicide_0_2_0")
    _forget_old_paths(monkeypatch)
    with pytest.warns(DeprecationWarning):
        exec(compile(text, str(source), "exec"), module.__dict__)
    rules = spadeskit.load_rules("standard", [module])
    game = rules.new_game(seed=1)
    assert set(game.legal_actions()) <= {spadeskit.Nil(), *(spadeskit.Bid(n) for n in range(14))}


# ------------------------------------------------------------------------------------------
# pluggy's calling convention: a defaulted argument
# ------------------------------------------------------------------------------------------


class Leader:
    """A plugin whose first_leader gives ``options`` a default: it records what it gets."""

    PLUGIN = PluginInfo(name="leader-probe", kind="house-rule", summary="records its options")

    def __init__(self) -> None:
        self.seen: list[Any] = []

    @hookimpl
    def spadeskit_first_leader(
        self, game: GameState, table: TableSpec, options: Any = None
    ) -> None:
        self.seen.append(options)


def test_a_defaulted_hook_argument_is_passed_as_plain_pluggy_passes_it() -> None:
    """pluggy gives an implementation only the arguments it names without a default
    (its ``varnames``; releases that also pass defaulted ones are followed too): the
    compiled hook call gives exactly what a plain ``pluggy.PluginManager`` gives."""
    ours = Leader()
    rules = spadeskit.load_rules("standard", [ours])
    game = rules.new_game(seed=2)
    while game.phase is spadeskit.Phase.AUCTION:
        game = game.apply(game.legal_actions()[3])
    assert len(ours.seen) == 1

    plain = Leader()
    pm = pluggy.PluginManager("spadeskit")
    pm.add_hookspecs(hookspecs)
    pm.register(plain)
    assert (
        pm.hook.spadeskit_first_leader(game=game, table=rules.table, options=rules.options) is None
    )
    assert ours.seen == plain.seen
    assert plain.seen == [rules.options if "options" in _passed_by_pluggy() else None]


def _passed_by_pluggy() -> tuple[str, ...]:
    """Return the defaulted arguments the installed pluggy passes (none, as of 1.6)."""
    pm = pluggy.PluginManager("spadeskit")
    pm.add_hookspecs(hookspecs)
    probe = Leader()
    pm.register(probe)
    pm.hook.spadeskit_first_leader(game=None, table=None, options="given")
    return ("options",) if probe.seen == ["given"] else ()


def test_the_package_imports_without_numpy_and_without_the_apps_extras() -> None:
    """The core and the engine need no optional extra: import them with numpy hidden."""
    code = (
        "import sys; sys.modules['numpy'] = None; import spadeskit; "
        "g = spadeskit.load_rules('standard').new_game(seed=1); g.apply(g.legal_actions()[0]); "
        "print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr
