"""The optional native core: which modules compile, and which copy of them runs.

The modules in :data:`NATIVE_MODULES` are plain, typed Python, and they are the only
source of the rules they hold.  When a C compiler is present, ``pip install`` also
compiles them with mypyc into extension modules that sit beside the ``.py`` files; Python
then imports the extension.  :data:`spadeskit.NATIVE` says which copy runs.

They run as one unit: every one compiled, or every one pure Python (a compiled class
cannot inherit from an interpreted one, nor the other way round).  The pure copies run
when

* ``SPADESKIT_PURE=1`` is set (a debugger can step through them, a profiler sees them);
* any compiled module is missing, or older than its ``.py`` file (an edited checkout
  whose extensions were not rebuilt): the edited source runs, with one warning.

This module imports only the standard library: ``setup.py`` reads it before spadeskit
is installed.  Importing it makes the choice (:func:`install`); the package imports it
before anything else.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

__all__ = [
    "NATIVE_MODULES",
    "PURE_VARIABLE",
    "correct_paths",
    "install",
    "native_now",
    "source_paths",
]

NATIVE_MODULES: tuple[str, ...] = (
    "spadeskit.core.playsets",
    "spadeskit.engine.winner",
    "spadeskit.engine.base",
    "spadeskit.engine.auction",
    "spadeskit.engine.steps",
    "spadeskit.engine.dealing",
    "spadeskit.engine.scoring",
    "spadeskit.engine.tricks",
    "spadeskit.engine.compiledfilters",
    "spadeskit.engine.turns",
    "spadeskit.engine.loop",
    "spadeskit.engine.playouts",
    "spadeskit.engine.playing",
    "spadeskit.analysis.search",
    "spadeskit.analysis.suitboard",
    "spadeskit.analysis.suitmoves",
    "spadeskit.analysis.suits",
)
"""The engine: its parts (the auction, the steps, the dealer, scoring, tricks, turns,
playouts and the one playout loop, and the shipped rule sets' filter functions the loop
calls, ``spadeskit.engine.compiledfilters``), the one trick winner and the
:class:`~spadeskit.engine.playing.Engine` that holds them; and the loop that lists a
mask's plays (``spadeskit.core.playsets``), and the double-dummy solver's two searches
(``spadeskit.analysis.search``, and ``spadeskit.analysis.suits`` on its board and move
ordering, ``suitboard`` and ``suitmoves``).  Plugins, states,
views, actions, generated code and everything above the engine stay pure Python."""

PURE_VARIABLE = "SPADESKIT_PURE"
"""Set it to ``1`` (before spadeskit is imported) to run the pure-Python core."""

_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
_SLACK = 2.0
"""Seconds a source may be newer than its extension and still count as compiled (an
installer writes the two files one after the other, in either order)."""


def source_paths(root: str) -> list[str]:
    """Return the ``.py`` file of each compiled module under ``root``, the folder that
    holds the ``spadeskit`` package (``src`` in a clone)."""
    return [os.path.join(root, *name.split(".")) + ".py" for name in NATIVE_MODULES]


def _wants_pure() -> bool:
    return os.environ.get(PURE_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


def _extension_beside(source: str) -> str | None:
    """Return the extension module built from ``source`` (``x.py``), if there is one."""
    stem = source[: -len(".py")]
    for suffix in _SUFFIXES:
        if os.path.exists(stem + suffix):
            return stem + suffix
    return None


def _stale(sources: Sequence[str]) -> str | None:
    """Return why the compiled copies cannot run (one missing or older than its
    source), or ``None`` when every one is there and current."""
    for source in sources:
        built = _extension_beside(source)
        if built is None:
            return f"{source} has no compiled copy"
        if os.path.getmtime(source) > os.path.getmtime(built) + _SLACK:
            return f"{source} changed after it was compiled"
    return None


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Import the compiled modules' ``.py`` files, skipping their extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in NATIVE_MODULES or not path:
            return None
        tail = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, tail + ".py")
            if os.path.exists(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _package_dir() -> str:
    return os.path.dirname(os.path.abspath(__file__))


def install() -> None:
    """Choose the copy of the compiled modules that runs (called by ``spadeskit``'s
    ``__init__`` before it imports them): the extensions when all are present and
    current and ``SPADESKIT_PURE`` is not set, else the ``.py`` files."""
    if any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        return
    root = os.path.dirname(_package_dir())
    sources = source_paths(root)
    if _wants_pure():
        sys.meta_path.insert(0, _SourceFinder())
        return
    if not any(_extension_beside(source) for source in sources):
        return  # a pure install: nothing to choose between
    why = _stale(sources)
    if why is not None:
        warnings.warn(
            f"spadeskit runs its pure-Python core: {why}. Rebuild the native core "
            f"(pip install -e .) or set {PURE_VARIABLE}=1 to silence this.",
            RuntimeWarning,
            stacklevel=3,
        )
        sys.meta_path.insert(0, _SourceFinder())


def correct_paths() -> None:
    """Point each native module's ``__file__`` at its extension module.

    mypyc gives a compiled module the ``__file__`` it had in the build folder, relative
    to the package's root (``…/spadeskit/engine/base.cpython-311-….so``), which in an
    editable install from a ``src`` layout names a file that does not exist; tools that
    locate a module by its ``__file__`` then fail.  To read the engine's sources (a
    debugger, a profiler, coverage), run the pure core: ``SPADESKIT_PURE=1``.
    """
    root = os.path.dirname(_package_dir())
    for name, source in zip(NATIVE_MODULES, source_paths(root), strict=True):
        module = sys.modules.get(name)
        built = _extension_beside(source)
        if module is not None and built is not None and (module.__file__ or "").endswith(_SUFFIXES):
            module.__file__ = built


def native_now() -> bool:
    """Return whether the compiled modules are the ones imported (all of them)."""
    loaded = [sys.modules.get(name) for name in NATIVE_MODULES]
    return all(
        module is not None and (module.__file__ or "").endswith(_SUFFIXES) for module in loaded
    )


if __name__ == "spadeskit._native":  # not when setup.py reads the list above
    install()
