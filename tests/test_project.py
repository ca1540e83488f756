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
