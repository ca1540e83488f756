"""Doctest collection of the package: modules that need an optional extra (Textual,
OpenSpiel, PettingZoo, Gymnasium, Stable-Baselines3) are skipped when it is not
installed, and the native core's modules when their compiled copies run (they hold no
doctests; pytest would import them by path, beside the extension Python already
imported).  The docs' doctests import the example plugins of ``docs/examples`` by name
(``import kitty``), as a reader who saved the file beside their code would."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import spadeskit
from spadeskit import _native

_OPTIONAL = {
    "src/spadeskit/apps/tui.py": "textual",
    "src/spadeskit/interop/openspiel.py": "pyspiel",
    "src/spadeskit/interop/pettingzoo.py": "pettingzoo",
    "src/spadeskit/rl/sb3.py": "stable_baselines3",
}
# Every module of the learning package imports Gymnasium through its ``__init__``, so a
# module added there later is skipped too, without a line here.
_HERE = pathlib.Path(__file__).resolve().parent
for _path in sorted((_HERE / "src" / "spadeskit" / "rl").glob("*.py")):
    _OPTIONAL.setdefault(_path.relative_to(_HERE).as_posix(), "gymnasium")

collect_ignore = [
    path for path, module in _OPTIONAL.items() if importlib.util.find_spec(module) is None
]

if spadeskit.NATIVE:
    collect_ignore += _native.source_paths("src")

_EXAMPLES = str(pathlib.Path(__file__).resolve().parent / "docs" / "examples")
if _EXAMPLES not in sys.path:
    sys.path.insert(0, _EXAMPLES)
