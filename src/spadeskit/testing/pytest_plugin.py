"""The spadeskit pytest plugin: fixtures and a marker for testing rules and plugins.

Installed with spadeskit and loaded by pytest through the ``pytest11`` entry point, so a
plugin author's test suite needs no conftest::

    import pytest

    pytestmark = pytest.mark.spadeskit("standard", house_rules=["suicide"])

    def test_suicide_keeps_every_invariant(spadeskit_check):
        spadeskit_check()

    def test_a_hand(spadeskit_rules, spadeskit_game):
        assert spadeskit_game.rules is spadeskit_rules

The marker ``spadeskit(variant, house_rules=(), options=None)`` says which rules the
fixtures build; put it on a test, a class or a module (``pytestmark``).

Fixtures:

``spadeskit_rules``
    the :class:`~spadeskit.Rules` the marker names.
``spadeskit_game``
    a new game under those rules (seed 0).
``spadeskit_check``
    a function running :func:`spadeskit.testing.check_rules` on those rules (or on the
    rules given as its first argument), with any of its keyword arguments; the command
    line options ``--quick`` and ``--thorough`` set its level, and
    ``--spadeskit-matches N`` how many random matches it plays.
``spadeskit_lint``
    a function returning :func:`spadeskit.testing.lint` of those rules (or of a plugin).

Nothing here imports hypothesis until a check runs, so the plugin costs nothing in test
suites that do not use it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from spadeskit.engine.loader import load_rules
from spadeskit.engine.rules import Rules

__all__ = [
    "pytest_addoption",
    "pytest_configure",
    "spadeskit_rules",
    "spadeskit_game",
    "spadeskit_check",
    "spadeskit_lint",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("spadeskit")
    group.addoption(
        "--spadeskit-matches",
        type=int,
        default=None,
        help="random matches spadeskit_check plays per rules (default: the level's)",
    )
    group.addoption(
        "--quick",
        action="store_const",
        const="quick",
        dest="spadeskit_level",
        default=None,
        help="spadeskit_check plays its quick level (for an editing loop)",
    )
    group.addoption(
        "--thorough",
        action="store_const",
        const="thorough",
        dest="spadeskit_level",
        default=None,
        help="spadeskit_check plays its thorough level (for a release)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("SPADESKIT_MUTANT"):  # a run of ``spadeskit-kit mutate --tests``
        from spadeskit.testing.mutation import install_from_env

        install_from_env()
    config.addinivalue_line(
        "markers",
        "spadeskit(variant, house_rules=(), options=None): the rules the spadeskit fixtures build",
    )


def _marked_rules(request: pytest.FixtureRequest) -> Rules:
    marker = request.node.get_closest_marker("spadeskit")
    if marker is None:
        raise pytest.UsageError(
            f"{request.node.nodeid} uses a spadeskit fixture without saying which rules: add "
            "@pytest.mark.spadeskit('standard', house_rules=[...], options={...})"
        )
    args, kwargs = marker.args, dict(marker.kwargs)
    if not args and "variant" not in kwargs:
        raise pytest.UsageError(
            "pytest.mark.spadeskit needs a variant name: mark.spadeskit('standard')"
        )
    variant = args[0] if args else kwargs.pop("variant")
    house = kwargs.pop("house_rules", args[1] if len(args) > 1 else ())
    options = kwargs.pop("options", args[2] if len(args) > 2 else None)
    if kwargs:
        raise pytest.UsageError(f"pytest.mark.spadeskit got unknown arguments {sorted(kwargs)}")
    return load_rules(variant, house, options)


@pytest.fixture
def spadeskit_rules(request: pytest.FixtureRequest) -> Rules:
    """The rules named by the ``spadeskit`` marker."""
    return _marked_rules(request)


@pytest.fixture
def spadeskit_game(spadeskit_rules: Rules) -> Any:
    """A new game (seed 0) under the marker's rules."""
    return spadeskit_rules.new_game(seed=0)


@pytest.fixture
def spadeskit_check(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """A function that runs the rule-consistency suite (``check_rules``)."""
    matches = request.config.getoption("--spadeskit-matches")
    level = request.config.getoption("spadeskit_level")

    def check(rules: Rules | None = None, **kwargs: Any) -> Any:
        from spadeskit.testing import check_rules

        if matches is not None:
            kwargs.setdefault("matches", matches)
        if level is not None:
            kwargs.setdefault("level", level)
        return check_rules(rules if rules is not None else _marked_rules(request), **kwargs)

    return check


@pytest.fixture
def spadeskit_lint(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """A function returning the lint problems of the marker's rules or of a given plugin."""

    def run(target: object = None) -> Any:
        from spadeskit.testing import lint

        return lint(target if target is not None else _marked_rules(request))

    return run
