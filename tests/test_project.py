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
