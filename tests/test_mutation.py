"""Mutation testing for plugin authors: mutants are made from the module's syntax tree,
run in a fresh process against the kit, and the survivors are the lines no check pins."""

from __future__ import annotations

import importlib.util

import pytest

from spadeskit.testing.mutation import Mutant, main, mutants, run_mutant

SOURCE = '''
"""A module docstring."""
PLUGIN = {"target": 500}
ORACLES = {"lead": "anytime"}


def score(took: int, bid: int) -> int:
    """A docstring is never mutated."""
    if took >= bid and not took == 13:
        return 10 * bid + took - bid
    return -10 * bid
'''


def test_mutants_cover_comparisons_arithmetic_constants_logic_and_dropped_statements() -> None:
    found = {m.what for m in mutants(SOURCE)}
    for expected in (
        "GtE -> Lt",
        "Eq -> NotEq",
        "Add -> Sub",
        "Sub -> Add",
        "Mult -> FloorDiv",
        "10 -> 11",
        "13 -> 12",
        "-> or",
        "not dropped",
        "return negated",
        "statement on line 11 dropped",
    ):
        assert expected in found, expected


def test_the_statement_of_the_rules_and_docstrings_are_not_mutated() -> None:
    assert all(m.line > 5 for m in mutants(SOURCE))
    assert all("A docstring is never mutated." in m.source for m in mutants(SOURCE))


BOSTON = "spadeskit_plugins.house.boston"


def _boston() -> str:
    spec = importlib.util.find_spec(BOSTON)
    assert spec is not None and spec.origin is not None
    with open(spec.origin) as handle:
        return handle.read()


@pytest.mark.slow
def test_an_unchanged_module_survives_and_a_wrong_bonus_is_killed_by_the_kit() -> None:
    source = _boston()
    assert run_mutant(BOSTON, Mutant(0, "none", source), ["standard+boston"], level="quick") == (
        "survived"
    )
    wrong = source.replace('options["boston_bonus"]', 'options["boston_bonus"] + 1')
    assert run_mutant(
        BOSTON, Mutant(0, "bonus + 1", wrong), ["standard+boston"], level="quick"
    ) == ("killed by the kit")


def test_the_command_lists_what_it_ran_and_the_kill_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["mutate", "boston", "--quick", "--sample", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "spadeskit_plugins.house.boston: 14 mutants, running 1 against standard+boston" in out
    assert "of 1 killed" in out


@pytest.mark.slow
def test_a_mutant_that_loops_is_stopped_by_its_cpu_limit_and_counts_as_a_timeout() -> None:
    looping = _boston() + "\nwhile True:\n    pass\n"
    outcome = run_mutant(BOSTON, Mutant(0, "loop", looping), ["standard+boston"], timeout=1)
    assert outcome == "timeout"
