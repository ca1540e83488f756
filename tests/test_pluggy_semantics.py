"""Compiled hooks keep pluggy's semantics: generated plugin sets, each compiled call
checked against ``pm.hook.<name>(...)`` on the same arguments."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import pluggy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spadeskit.core.errors import PluginError
from spadeskit.engine.compiler import PASSES_DEFAULTED, compile_hook

hookspec = pluggy.HookspecMarker("spadeskit")
hookimpl = pluggy.HookimplMarker("spadeskit")

BOUND = {"table": "T", "options": {"o": 1}}
ARGS = ("game", "seat")
SPEC_ARGS = ("game", "seat", "table", "options")


class Specs:
    @hookspec(firstresult=True)
    def first(self, game: Any, seat: Any, table: Any, options: Any) -> Any:
        """A first-result hook."""

    @hookspec
    def collect(self, game: Any, seat: Any, table: Any, options: Any) -> Any:
        """A collected hook."""


class Boom(Exception):
    """Raised by a generated implementation."""


IMPLEMENTATION = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["plain", "plain", "plain", "wrapper", "hookwrapper"]),
        "order": st.sampled_from([None, "tryfirst", "trylast"]),
        "args": st.lists(st.sampled_from(SPEC_ARGS), unique=True, max_size=4),
        "defaulted": st.sampled_from((None,) + SPEC_ARGS),
        "answer": st.one_of(st.none(), st.integers(0, 9), st.just("raise")),
        "specname": st.booleans(),
    }
)


def _make(index: int, hook: str, spec: dict[str, Any]) -> tuple[Callable[..., Any], str]:
    """Return one implementation of ``hook`` as ``spec`` describes it, and its name."""
    args = list(spec["args"])
    defaulted = [] if spec["defaulted"] in (None, *args) else [spec["defaulted"]]
    answer, kind = spec["answer"], spec["kind"]
    tag = f"p{index}"

    def outcome(values: dict[str, Any]) -> Any:
        if answer == "raise":
            raise Boom(tag)
        return None if answer is None else (tag, answer, tuple(sorted(map(repr, values.items()))))

    # The function's signature matters to pluggy (it passes only the named arguments and
    # never a defaulted one), so the implementation is written out as source.
    params = ", ".join(args + [f"{name}=None" for name in defaulted])
    if kind == "plain":
        body = "    return outcome(dict(values))\n"
    elif kind == "wrapper":
        body = (
            "    result = yield\n"
            "    extra = outcome(dict(values))\n"
            "    return result if extra is None else (result, extra)\n"
        )
    else:  # an old-style hookwrapper: it may replace the result through the outcome
        body = (
            "    out = yield\n"
            "    extra = outcome(dict(values))\n"
            "    if extra is not None:\n"
            "        out.force_result((out.get_result(), extra))\n"
        )
    received = args + defaulted
    values = ", ".join(f"{a!r}: {a}" for a in received)
    source = f"def impl({params}):\n    values = {{{values}}}\n" + body
    namespace: dict[str, Any] = {"outcome": outcome}
    exec(compile(source, f"<generated {tag}>", "exec"), namespace)
    function = namespace["impl"]
    options: dict[str, Any] = {}
    if spec["order"]:
        options[spec["order"]] = True
    if kind == "wrapper":
        options["wrapper"] = True
    elif kind == "hookwrapper":
        options["hookwrapper"] = True
    if spec["specname"]:
        options["specname"] = hook
        name = f"renamed_{index}"
    else:
        name = hook
    function.__name__ = name
    return hookimpl(**options)(function), name


def _manager(hook: str, specs: list[dict[str, Any]]) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("spadeskit")
    pm.add_hookspecs(Specs)
    for index, spec in enumerate(specs):
        function, name = _make(index, hook, spec)
        pm.register(types.SimpleNamespace(**{name: function}), name=f"p{index}")
    return pm


def _run(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "value", call()
    except PluginError as exc:
        cause = exc.__cause__
        return "raised", (type(cause).__name__, str(cause))
    except Exception as exc:  # pluggy's own path raises the plugin's exception as is
        return "raised", (type(exc).__name__, str(exc))


@pytest.mark.filterwarnings("ignore::pluggy.PluggyTeardownRaisedWarning")
@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["first", "collect"]),
    st.lists(IMPLEMENTATION, min_size=1, max_size=5),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_every_compiled_call_answers_as_pluggy_does(
    hook: str, specs: list[dict[str, Any]], game: int, seat: int
) -> None:
    pm = _manager(hook, specs)
    compiled = compile_hook(pm, hook, BOUND, "test")
    assert compiled is not None
    caller = getattr(pm.hook, hook)
    mine = _run(lambda: compiled(game, seat))
    theirs = _run(lambda: caller(game=game, seat=seat, **BOUND))
    assert mine == theirs


def test_a_defaulted_argument_keeps_its_default_compiled_as_through_pluggy() -> None:
    """An argument given a default receives the hook's value exactly when the installed
    pluggy passes it (1.7 on), and keeps its default otherwise, compiled or not."""
    seen: list[Any] = []

    class Plugin:
        @hookimpl
        def collect(self, game: Any, options: Any = None) -> Any:
            seen.append(options)
            return game

    pm = pluggy.PluginManager("spadeskit")
    pm.add_hookspecs(Specs)
    pm.register(Plugin(), name="defaulted")
    compiled = compile_hook(pm, "collect", BOUND, "test")
    assert compiled is not None
    assert compiled(1, 2) == pm.hook.collect(game=1, seat=2, **BOUND) == [1]
    assert seen == [BOUND["options"] if PASSES_DEFAULTED else None] * 2
