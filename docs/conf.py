"""Sphinx configuration for the spadeskit documentation."""

from __future__ import annotations

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "plugins")]
# Document the engine's pure-Python copies: its compiled copies keep no docstrings.
os.environ["SPADESKIT_PURE"] = "1"

project = "spadeskit"
author = "the spadeskit developers"
copyright = "2026, the spadeskit developers"
release = "0.8.2"

extensions = ["sphinx.ext.autodoc", "sphinx.ext.doctest", "sphinx.ext.viewcode"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
html_theme = "furo"
# The optional extras' modules are documented whether or not they are installed.
autodoc_mock_imports = [
    "pyspiel",
    "open_spiel",
    "pettingzoo",
    "gymnasium",
    "textual",
    "numpy",
    "ray",
    "stable_baselines3",
]
exclude_patterns = ["_build"]
