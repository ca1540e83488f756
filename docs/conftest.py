"""The docs' doctests import the example plugins in ``docs/examples`` by name (``import
kitty``), as a reader who saved the file beside their code would."""

from __future__ import annotations

import pathlib
import sys

EXAMPLES = str(pathlib.Path(__file__).resolve().parent / "examples")
if EXAMPLES not in sys.path:
    sys.path.insert(0, EXAMPLES)
