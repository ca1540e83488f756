"""The project keeps its promises to a fresh machine."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```console\n(.+?)\n```", readme)
    assert len(commands) == 2, "the README gives exactly two commands for a fresh machine"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[1] in ci


def test_the_example_scripts_run(tmp_path: pathlib.Path) -> None:
    import runpy
    import sys

    for name, argv in [
        ("play_random_game.py", ["3"]),
        ("keep_score.py", []),
        ("replay_record.py", [str(tmp_path / "m.json")]),
    ]:
        old = sys.argv
        sys.argv = [name, *argv]
        try:
            runpy.run_path(str(ROOT / "examples" / name), run_name="__main__")
        finally:
            sys.argv = old
    assert (tmp_path / "m.json").exists()


MODULE_LINES = 500
CLASS_LINES = 300


def test_no_core_module_over_500_lines_and_no_class_over_300() -> None:
    """One rulebook, the engine in rooms: every module of ``src/spadeskit`` stays small
    enough to read, each class doing one job."""
    import ast

    too_long = []
    for path in sorted((ROOT / "src" / "spadeskit").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT / "src").as_posix()
        lines = len(text.splitlines())
        if lines > MODULE_LINES:
            too_long.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > CLASS_LINES:
                    too_long.append(f"{name}: class {node.name}, {size} lines")
    assert not too_long, "split these by job: " + "; ".join(too_long)


def _private_names(path: pathlib.Path) -> list[str]:
    """Return the private names of spadeskit that a file imports or reads."""
    import ast

    def private(dotted: str) -> bool:
        return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))

    found, inner = [], set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            root = node.module.split(".")[0]
            if root == "spadeskit":
                names = [f"{node.module}.{alias.name}" for alias in node.names]
                found += [name for name in names if private(name)]
        elif isinstance(node, ast.Import):
            found += [
                a.name for a in node.names if a.name.startswith("spadeskit.") and private(a.name)
            ]
        elif isinstance(node, ast.Attribute) and id(node) not in inner:
            chain = [node.attr]
            value = node.value
            while isinstance(value, ast.Attribute):
                inner.add(id(value))  # read as part of this chain, not on its own
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id == "spadeskit":
                dotted = ".".join(["spadeskit", *reversed(chain)])
                if private(dotted):
                    found.append(dotted)
    return [
        f"{path.name if not path.is_relative_to(ROOT) else path.relative_to(ROOT)}: {name}"
        for name in found
    ]


def test_plugins_and_examples_reach_no_private_name_of_spadeskit() -> None:
    """What ships as a plugin, and what the examples teach, uses only the public API (a
    private name they need means the plugin API is missing something)."""
    files = sorted((ROOT / "plugins").rglob("*.py")) + sorted((ROOT / "examples").rglob("*.py"))
    files += sorted((ROOT / "docs" / "examples").rglob("*.py"))
    assert len(files) > 30
    assert [name for path in files for name in _private_names(path)] == []


def test_the_private_name_check_sees_imports_and_attributes(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import spadeskit\nfrom spadeskit.engine import _x\nfrom spadeskit._native import y\n"
        "spadeskit.core._cards.z\nfrom spadeskit.plugin import hookimpl\n"
    )
    names = [line.split(": ")[1] for line in _private_names(bad)]
    assert names == ["spadeskit.engine._x", "spadeskit._native.y", "spadeskit.core._cards.z"]
