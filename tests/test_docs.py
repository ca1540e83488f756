"""The documentation keeps up with the code: every hook and every option is documented."""

from __future__ import annotations

import inspect
import pathlib

import spadeskit
from spadeskit import hookspecs
from tests.conftest import shipped

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"
HOOKS = {name: fn for name, fn in vars(hookspecs).items() if name.startswith("spadeskit_")}


def test_every_hook_is_in_the_hook_reference_with_a_docstring() -> None:
    reference = (DOCS / "hooks.rst").read_text(encoding="utf-8")
    assert len(HOOKS) >= 15
    for name, fn in HOOKS.items():
        assert f".. autofunction:: spadeskit.hookspecs.{name}" in reference, f"{name} is not in docs/hooks.rst"
        assert f"``{name}``" in reference, f"{name} is missing from the table in docs/hooks.rst"
        doc = inspect.getdoc(fn) or ""
        assert len(doc.split()) >= 15, f"{name} has no real docstring"


def test_every_option_of_every_shipped_plugin_is_on_a_rules_page() -> None:
    pages = "\n".join(p.read_text(encoding="utf-8") for p in [*DOCS.glob("rules/*.rst"), DOCS / "house_rules.rst"])
    for plugin in spadeskit.available():
        if plugin.name not in shipped(plugin.kind):
            continue
        for option in plugin.options:
            assert f"``{option.name}``" in pages, f"option {option.name!r} of {plugin.name!r} is undocumented"


def test_every_shipped_plugin_has_a_page_or_a_section() -> None:
    pages = "\n".join(p.read_text(encoding="utf-8") for p in [*DOCS.glob("rules/*.rst"), DOCS / "house_rules.rst"])
    for name in shipped("variant") + shipped("house-rule"):
        assert f"(``{name}``)" in pages or f"``{name}``\n---" in pages, f"{name} has no docs"
