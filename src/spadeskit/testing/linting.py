"""The plugin lint of the kit: :func:`lint` reads a plugin or a rules object and reports
what would break at load or play time, with the plugin's name (re-exported by
:mod:`spadeskit.testing`).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

import attrs

from spadeskit.engine.authoring import PluginInfo
from spadeskit.engine.loader import hook_argument_problem, resolve
from spadeskit.engine.rules import Rules

if TYPE_CHECKING:
    pass


@attrs.frozen
class LintProblem:
    """One problem :func:`lint` found: the plugin, the hook (if any) and what is wrong."""

    plugin: str
    hook: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.plugin}" + (f" ({self.hook})" if self.hook else "")
        return f"{where}: {self.message}"


def _hookspecs() -> dict[str, inspect.Signature]:
    from spadeskit.engine import hookspecs

    return {
        name: inspect.signature(fn)
        for name, fn in vars(hookspecs).items()
        if name.startswith("spadeskit_") and callable(fn)
    }


def _lint_plugin(plugin: object, info: PluginInfo) -> list[LintProblem]:
    problems: list[LintProblem] = []
    specs = _hookspecs()
    name = info.name
    for attr in dir(plugin):
        fn = getattr(plugin, attr, None)
        marked = getattr(fn, "spadeskit_impl", None)
        if not attr.startswith("spadeskit_") and marked is None:
            continue
        if not callable(fn) or inspect.isclass(fn):
            continue
        hook = marked.get("specname") or attr if isinstance(marked, dict) else attr
        if hook not in specs:
            problems.append(
                LintProblem(
                    name, hook, "no hook of this name exists (a typo?) so it is never called"
                )
            )
            continue
        if marked is None:
            problems.append(LintProblem(name, hook, "not marked @hookimpl, so pluggy ignores it"))
            continue
        problem = hook_argument_problem(fn, hook)
        if problem:
            problems.append(LintProblem(name, hook, problem))
    seen: set[str] = set()
    for option in info.options:
        if option.name in seen:
            problems.append(LintProblem(name, None, f"option {option.name!r} is declared twice"))
        seen.add(option.name)
        if not option.doc.strip():
            problems.append(LintProblem(name, None, f"option {option.name!r} has no docstring"))
        why = option.problem(option.default)
        if why:
            problems.append(
                LintProblem(
                    name,
                    None,
                    f"option {option.name!r} has a default its own "
                    f"validator refuses: {why}, not {option.default!r}",
                )
            )
    if not info.summary.strip():
        problems.append(LintProblem(name, None, "PLUGIN has no summary"))
    return problems


def _firstresult_clashes(rules: Rules) -> list[LintProblem]:
    problems = []
    orders = {info.name: info.order for info in rules.plugins}
    for hook in _hookspecs():
        caller = getattr(rules.hook, hook)
        if not caller.spec or not caller.spec.opts.get("firstresult"):
            continue
        answering: dict[tuple[bool, bool, int], list[str]] = {}
        for impl in caller.get_hookimpls():
            if impl.wrapper or impl.hookwrapper or impl.plugin_name == rules.variant:
                continue
            answering.setdefault(
                (impl.tryfirst, impl.trylast, orders[impl.plugin_name]), []
            ).append(impl.plugin_name)
        for names in answering.values():
            if len(names) > 1:
                problems.append(
                    LintProblem(
                        " and ".join(sorted(names)),
                        hook,
                        "both answer this first-result hook with the same order, so which "
                        "answer wins "
                        "depends on their names: give one a PluginInfo order, tryfirst or trylast",
                    )
                )
    return problems


def lint(target: Rules | object | str) -> list[LintProblem]:
    """Return the problems of a plugin, or of every plugin in a :class:`Rules`.

    Checks that every ``spadeskit_*`` function is a known hook marked ``@hookimpl``, asks
    only for arguments the hook offers, that every option has a docstring and a default
    its validator accepts, and (for rules) that no two house rules answer a first-result
    hook at the same order without ``tryfirst``/``trylast``.

    >>> lint("standard")
    []
    """
    if isinstance(target, Rules):
        pm = target.plugin_manager
        problems = [
            p for info in target.plugins for p in _lint_plugin(pm.get_plugin(info.name), info)
        ]
        return problems + _firstresult_clashes(target)
    plugin, info = resolve(target)
    return _lint_plugin(plugin, info)
