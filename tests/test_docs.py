"""The documentation keeps up with the code: every hook and every option is documented."""

from __future__ import annotations

import inspect
import pathlib
import re

import spadeskit
from spadeskit.engine import hookspecs
from tests.conftest import shipped

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"
HOOKS = {name: fn for name, fn in vars(hookspecs).items() if name.startswith("spadeskit_")}


def test_every_hook_is_in_the_hook_reference_with_a_docstring() -> None:
    reference = (DOCS / "hooks.rst").read_text(encoding="utf-8")
    assert len(HOOKS) >= 15
    for name, fn in HOOKS.items():
        assert f".. autofunction:: spadeskit.engine.hookspecs.{name}" in reference, (
            f"{name} is not in docs/hooks.rst"
        )
        assert f"``{name}``" in reference, f"{name} is missing from the table in docs/hooks.rst"
        doc = inspect.getdoc(fn) or ""
        assert len(doc.split()) >= 15, f"{name} has no real docstring"


def test_every_option_of_every_shipped_plugin_is_on_a_rules_page() -> None:
    pages = "\n".join(
        p.read_text(encoding="utf-8") for p in [*DOCS.glob("rules/*.rst"), DOCS / "house_rules.rst"]
    )
    for plugin in spadeskit.available():
        if plugin.name not in shipped(plugin.kind):
            continue
        for option in plugin.options:
            assert f"``{option.name}``" in pages, (
                f"option {option.name!r} of {plugin.name!r} is undocumented"
            )


def test_every_shipped_plugin_has_a_page_or_a_section() -> None:
    pages = "\n".join(
        p.read_text(encoding="utf-8") for p in [*DOCS.glob("rules/*.rst"), DOCS / "house_rules.rst"]
    )
    for name in shipped("variant") + shipped("house-rule"):
        assert f"(``{name}``)" in pages or f"``{name}``\n---" in pages, f"{name} has no docs"


def test_the_hook_table_says_which_hooks_offer_table() -> None:
    """hooks.rst names exactly the hooks that do not offer ``table``."""
    import inspect

    from spadeskit.engine import hookspecs

    text = (DOCS / "hooks.rst").read_text(encoding="utf-8")
    without = sorted(
        name
        for name, fn in vars(hookspecs).items()
        if name.startswith("spadeskit_")
        and callable(fn)
        and "table" not in inspect.signature(fn).parameters
    )
    assert without == ["spadeskit_table", "spadeskit_trick_strength", "spadeskit_view"]
    assert (
        "``table`` to every\nhook but ``spadeskit_table``, ``spadeskit_trick_strength`` and "
        "``spadeskit_view``" in text
    )


def test_the_plugins_page_names_the_file_after_its_rule() -> None:
    text = (DOCS / "plugins.rst").read_text(encoding="utf-8")
    assert "# my_rules/bonus_for_ten.py" in text and 'name="bonus-for-ten"' in text
    assert 'bonus-for-ten = "my_rules.bonus_for_ten"' in text


def test_load_rules_reports_a_bad_hook_argument_in_the_lints_words() -> None:
    """The tutorial says both load_rules and the lint report it: in the same words."""
    import types

    import pytest

    import spadeskit
    from spadeskit.testing import lint

    rule = types.ModuleType("bad_argument")
    rule.PLUGIN = spadeskit.PluginInfo(name="bad-argument", kind="house-rule", summary="x")  # type: ignore[attr-defined]
    rule.spadeskit_score_hand = spadeskit.hookimpl(lambda summary, bogus: [])  # type: ignore[attr-defined]
    said = lint(rule)[0].message
    assert said.startswith("asks for bogus, which the hook does not offer")
    with pytest.raises(spadeskit.PluginError) as refused:
        spadeskit.load_rules("standard", [rule])
    assert str(refused.value) == f"plugin 'bad-argument': spadeskit_score_hand {said}"


def test_the_testing_page_strategies_example_is_a_file_the_tests_run() -> None:
    text = (DOCS / "testing.rst").read_text(encoding="utf-8")
    assert ".. literalinclude:: examples/test_strategies.py" in text
    source = (DOCS / "examples" / "test_strategies.py").read_text(encoding="utf-8")
    assert "import spadeskit" in source and "suicide" not in source


def test_every_hookspec_documents_its_parameters_return_kind_and_when_it_is_called() -> None:
    """One template for every hook, as in pytest's hookspec.py."""
    import inspect

    for name, fn in HOOKS.items():
        doc = inspect.getdoc(fn) or ""
        for field in (":returns:", ":kind:", ":called:"):
            assert field in doc, f"{name} does not document {field}"
        assert ("first result" in doc) != ("collected" in doc.split(":kind:")[1].split("\n")[0]), (
            name
        )
        for param in inspect.signature(fn).parameters:
            assert f":param {param}:" in doc, f"{name} does not document its parameter {param}"


ROOT = DOCS.parent
_EXTRA = re.compile(r"spadeskit\[([a-z,]+)\]|['\"]\.\[([a-z,]+)\]")
_BARE = re.compile(r"pip install (?:-e )?\.(?:\s|$|`|')")


def _install_texts() -> list[pathlib.Path]:
    texts = [ROOT / "README.md", *DOCS.rglob("*.rst"), *ROOT.glob("examples/*/README.md")]
    texts += [*(ROOT / "src").rglob("*.py")]
    return [p for p in texts if "_build" not in p.parts]


def test_every_install_line_works_from_a_clone_and_from_the_package_index() -> None:
    """An extra installed from the package index (``pip install 'spadeskit[fast]'``) is
    also shown as a clone installs it (``pip install -e '.[fast]'``), and the other way
    round, within a few lines; a bare ``pip install .`` says it is for a clone."""
    wrong = []
    for path in _install_texts():
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if "pip install" not in line:
                continue
            window = "\n".join(lines[max(0, number - 3) : number + 4])
            for match in _EXTRA.finditer(line):
                extra = match.group(1) or match.group(2)
                if f"spadeskit[{extra}]" not in window or f".[{extra}]" not in window.replace(
                    f"spadeskit[{extra}]", ""
                ):
                    wrong.append(f"{path.relative_to(ROOT)}:{number + 1}: {line.strip()}")
            if _BARE.search(line) and "clone" not in window and "folder" not in window:
                wrong.append(f"{path.relative_to(ROOT)}:{number + 1}: {line.strip()}")
    assert not wrong, "give both install forms (index and clone):\n" + "\n".join(wrong)
