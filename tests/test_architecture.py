"""A house with rooms: the layers, no import cycle, 0.2.0's top-level names kept, and
pluggy's calling convention for defaulted hook arguments."""

from __future__ import annotations

import ast
import json
import pathlib
import shutil
import subprocess
import sys
from typing import Any

import pluggy
import pytest

import spadeskit
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
