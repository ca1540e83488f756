"""The module paths of spadeskit 0.2.0, kept working for one release with a warning.

Until 0.3, spadeskit's modules sat in one folder (``spadeskit.cards``,
``spadeskit.rules``, ``spadeskit.heuristic`` …).  They now live in the subpackage of
their layer (``spadeskit.core.cards``, ``spadeskit.engine.rules``,
``spadeskit.bots.heuristic`` …).  Importing an old path, or reading it as an attribute
of ``spadeskit``, gives the module at its new home, the same module object (so a
pickle made by 0.2.0 still loads), and a :class:`DeprecationWarning` naming the new
path.  The old paths go in 0.4.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings

__all__ = ["MOVED", "SPLIT", "install", "moved_module"]

MOVED: dict[str, str] = {
    "_fast": "core._fast",
    "actions": "core.actions",
    "auction": "engine.auction",
    "bidsearch": "bots.bidsearch",
    "cards": "core.cards",
    "cli": "apps.cli",
    "cliargs": "apps.cliargs",
    "codegen": "core.codegen",
    "combos": "engine.combos",
    "compiler": "engine.compiler",
    "dealing": "engine.dealing",
    "determinize": "bots.determinize",
    "enginebase": "engine.base",
    "errors": "core.errors",
    "events": "core.events",
    "filters": "engine.filters",
    "handeval": "arena.handeval",
    "heuristic": "bots.heuristic",
    "heuristic_bidding": "bots.bidding",
    "hookcalls": "engine.hookcalls",
    "hookspecs": "engine.hookspecs",
    "inference": "bots.inference",
    "intervals": "arena.intervals",
    "invariants": "testing.invariants",
    "linting": "testing.linting",
    "loader": "engine.loader",
    "loops": "engine.loops",
    "matchplay": "arena.matchplay",
    "playouts": "engine.playouts",
    "prompt": "apps.prompt",
    "pytest_plugin": "testing.pytest_plugin",
    "records": "core.records",
    "results": "core.results",
    "rules": "engine.rules",
    "schemas": "core.schemas",
    "scoresheet": "engine.scoresheet",
    "scoring": "engine.scoring",
    "search": "bots.search",
    "seeding": "core.seeding",
    "service": "apps.service",
    "sheethands": "engine.sheethands",
    "simulating": "arena.simulating",
    "state": "core.state",
    "strategies": "testing.strategies",
    "table": "core.seating",
    "text_input": "apps.text_input",
    "tricks": "engine.tricks",
    "tui": "apps.tui",
    "turns": "engine.turns",
    "views": "core.views",
}
"""Each 0.2.0 module (under ``spadeskit.``) and its new home (under ``spadeskit.``)."""

SPLIT: dict[str, dict[str, str]] = {
    "events": {
        "final_events": "engine.telling",
        "hand_events": "engine.telling",
        "last_trick": "engine.telling",
    },
    "service": {
        "Connection": "apps.connection",
        "Seat": "apps.seating",
        "SeatError": "apps.seating",
    },
    "views": {"make_view": "engine.viewing"},
}
"""Names a 0.2.0 module held that now live elsewhere than the rest of it."""

_PREFIX = "spadeskit."


def moved_module(old: str) -> types.ModuleType:
    """Return the module that 0.2.0 called ``spadeskit.<old>``, warning that it moved."""
    new = _PREFIX + MOVED[old]
    warnings.warn(
        f"spadeskit.{old} moved to {new} in spadeskit 0.3; import {new} (the old path goes in 0.4)",
        DeprecationWarning,
        stacklevel=3,
    )
    return importlib.import_module(new)


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolve an old module path to the module at its new home."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(_PREFIX) or fullname[len(_PREFIX) :] not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        old = module.__name__[len(_PREFIX) :]
        home = moved_module(old)
        split = SPLIT.get(old)
        if split is None:
            # The import system hands back whatever sys.modules holds under the old name
            # once this returns: the module at its new home, not the empty placeholder.
            sys.modules[module.__name__] = home
            return

        def find(name: str) -> object:
            # A module split in two: the rest of it, then the names that went elsewhere.
            if name in split:
                return getattr(importlib.import_module(_PREFIX + split[name]), name)
            return getattr(home, name)

        module.__getattr__ = find  # type: ignore[method-assign]
        module.__doc__ = home.__doc__


def install() -> None:
    """Let the old module paths import (once per process)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Alias())
    # ``spadeskit.replay`` is the function; importing the old module path through the
    # finder would rebind the package's attribute to the module, so the path is taken
    # here, without a warning.
    sys.modules.setdefault(_PREFIX + "replay", importlib.import_module(_PREFIX + "engine.replay"))
