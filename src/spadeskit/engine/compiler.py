"""Compile pluggy hook implementations into plain Python calls, once per rules.

pluggy registers the plugins, validates their hook implementations and orders them;
this module turns each hook's ordered implementations into one generated function, so
that play never goes through pluggy.  The semantics are pluggy's own:

* implementations are called in pluggy's order (the reverse of registration, with
  ``tryfirst``/``trylast`` honoured), each with only the arguments it names; an
  argument it gives a default receives the hook's value where the installed pluggy
  passes one (1.7 on) and keeps its default where it does not (earlier releases);
* a ``firstresult`` hook returns the first result that is not ``None``; any other
  hook returns the list of results that are not ``None``;
* ``wrapper=True`` implementations wrap the others, outermost first, and see (and may
  replace) the result or the exception; old-style ``hookwrapper=True`` implementations
  are honoured by calling the hook through pluggy itself (correct, only slower);
* a hook that no plugin implements compiles to ``None``, so it costs nothing: the
  engine skips it.

Arguments that never change for a rules object (``table``, ``options``) are bound at
compile time; a compiled call takes the remaining arguments positionally, in the order
of the hookspec.  An exception escaping an implementation becomes a
:class:`~spadeskit.core.errors.PluginError` naming the plugin and the hook, except a
:class:`~spadeskit.core.errors.SpadesError` (a plugin refusing input on purpose),
``RecursionError`` and ``MemoryError``, which pass through unchanged.

Out-of-turn action hooks (``spadeskit_out_of_turn_actions``) are compiled once per phase
and per kind of asker (a player or the referee), from the phases each implementation
declares with :func:`spadeskit.plugin.acts_in`; an implementation that declares nothing
is called in every phase.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any, cast

import pluggy

from spadeskit.core import codegen
from spadeskit.core.errors import PluginError, SpadesError

__all__ = ["ACTS_IN", "answered_by", "compile_hook"]

ACTS_IN = "spadeskit_acts_in"
"""The attribute :func:`spadeskit.plugin.acts_in` sets on a hook implementation."""

PASS_THROUGH = (SpadesError, RecursionError, MemoryError)
"""Exceptions from a hook that reach the caller unchanged."""

Compiled = Callable[..., Any]


def _failure(hook: str, plugin: str, rules: str, exc: BaseException) -> PluginError:
    return PluginError(
        f"plugin {plugin!r} failed in hook {hook} ({rules}): {type(exc).__name__}: {exc}"
    )


def _passes_defaulted() -> bool:
    """Return whether the installed pluggy passes an implementation's defaulted
    arguments that the hook offers (pluggy 1.7 on) or only its positional ones."""
    spec, mark = pluggy.HookspecMarker("probe"), pluggy.HookimplMarker("probe")

    class Spec:
        @spec
        def probe(self, value: Any) -> Any:
            """Probe."""

    class Impl:
        @mark
        def probe(self, value: Any = None) -> Any:
            return value

    pm = pluggy.PluginManager("probe")
    pm.add_hookspecs(Spec)
    pm.register(Impl())
    return bool(pm.hook.probe(value=True) == [True])


PASSES_DEFAULTED = _passes_defaulted()
"""Whether pluggy hands defaulted arguments to implementations: compiled calls do the same."""


def _keywords(impl: pluggy.HookImpl, offered: Sequence[str]) -> list[str]:
    """Return the defaulted arguments of ``impl`` a call passes, as pluggy does."""
    return [a for a in impl.kwargnames if a in offered] if PASSES_DEFAULTED else []


def _arguments(impl: pluggy.HookImpl, params: Sequence[str], bound: Mapping[str, Any]) -> str:
    """Return the argument list of a generated call to ``impl``."""

    def value(name: str) -> str:
        return name if name in params else f"_bound_{name}"

    parts = [value(a) for a in impl.argnames]
    parts += [f"{a}={value(a)}" for a in _keywords(impl, [*params, *bound])]
    return ", ".join(parts)


def _namespace(
    name: str, bound: Mapping[str, Any], rules: str, failed: list[str] | None, **more: Any
) -> dict[str, Any]:
    """Return the globals of a generated hook call: the bound values (``_bound_x``), what
    its failure handling needs, and ``more``."""
    namespace: dict[str, Any] = {f"_bound_{k}": v for k, v in bound.items()}
    namespace.update(
        _pass=PASS_THROUGH, _failure=_failure, _hook=name, _rules=rules, _failed=failed, **more
    )
    return namespace


def _straight(
    name: str,
    impls: Sequence[pluggy.HookImpl],
    params: Sequence[str],
    bound: Mapping[str, Any],
    firstresult: bool,
    rules: str,
    failed: list[str] | None = None,
    sources: codegen.Sources | None = None,
) -> Compiled:
    """Return a generated function calling plain implementations in pluggy's order.

    An exception becomes a :class:`PluginError`, unless ``failed`` is given: then it
    passes unchanged (for wrappers to see, as pluggy hands it to them) and the name of
    the plugin that raised it is left in ``failed[0]``.
    """
    answered: list[Any] = [None]
    namespace = _namespace(name, bound, rules, failed, _answered=answered)
    lines = [f"def {name}({', '.join(params)}):", "    try:"]
    if not firstresult:
        lines.append("        out = []")
        lines.append("        names = _answered[0] = []")
    for k, impl in enumerate(reversed(impls)):
        namespace[f"_f{k}"] = impl.function
        namespace[f"_p{k}"] = impl.plugin_name
        lines.append(f"        who = _p{k}")
        lines.append(f"        r = _f{k}({_arguments(impl, params, bound)})")
        lines.append("        if r is not None:")
        if firstresult:
            lines.append("            _answered[0] = who")
            lines.append("            return r")
        else:
            lines.append("            out.append(r)")
            lines.append("            names.append(who)")
    lines.append("        return None" if firstresult else "        return out")
    if failed is None:
        lines += [
            "    except _pass:",
            "        raise",
            "    except Exception as exc:",
            "        raise _failure(_hook, who, _rules, exc) from exc",
        ]
    else:
        lines += ["    except BaseException:", "        _failed[0] = who", "        raise"]
    function = codegen.function(
        name, "\n".join(lines) + "\n", namespace, label=f"hook {name}", sources=sources
    )
    function.answered = answered  # type: ignore[attr-defined]
    return function


def _wrapped(
    name: str,
    wrappers: Sequence[pluggy.HookImpl],
    inner: Compiled | None,
    params: Sequence[str],
    bound: Mapping[str, Any],
    firstresult: bool,
    rules: str,
    failed: list[str],
) -> Compiled:
    """Return a call running new-style wrappers (outermost first) around ``inner``.

    ``inner`` raises its plugins' exceptions unchanged and names the plugin in
    ``failed[0]``; an exception still escaping the wrappers becomes a PluginError.
    """
    outermost_first = list(reversed(wrappers))
    # Each wrapper's arguments, as positions in (call arguments + bound values).
    names = list(params) + list(bound)
    values = tuple(bound.values())
    positions = [[names.index(a) for a in impl.argnames] for impl in outermost_first]
    keywords = [[(a, names.index(a)) for a in _keywords(impl, names)] for impl in outermost_first]

    def call(*args: Any) -> Any:
        given = args + values
        running: list[tuple[pluggy.HookImpl, Generator[None, Any, Any]]] = []
        # A new list each call: a wrapper may change the one it is given.
        result: Any = None if firstresult else []
        error: BaseException | None = None
        who = ""
        try:
            for impl, where, named in zip(outermost_first, positions, keywords):
                who = impl.plugin_name
                gen = cast(
                    "Generator[None, Any, Any]",
                    impl.function(*[given[i] for i in where], **{a: given[i] for a, i in named}),
                )
                next(gen)
                running.append((impl, gen))
            if inner is not None:
                who = ""
                result = inner(*args)
        except BaseException as exc:  # handed to the wrappers, as pluggy does
            error = exc
            who = who or failed[0]
        for impl, gen in reversed(running):
            try:
                if error is None:
                    gen.send(result)
                else:
                    gen.throw(error)
            except StopIteration as stop:
                result, error = stop.value, None
                continue
            except BaseException as exc:
                if exc is not error:  # the wrapper's own failure, not one passing through
                    who = impl.plugin_name
                error = exc
                continue
            who = impl.plugin_name
            error = RuntimeError(f"the wrapper of {impl.plugin_name!r} yields twice")
        if error is None:
            return result
        if isinstance(error, PASS_THROUGH) or not isinstance(error, Exception):
            raise error
        raise _failure(name, who, rules, error) from error

    call.__name__ = name
    call.answered = inner.answered if inner is not None else [None]  # type: ignore[attr-defined]
    call.wrappers = [impl.plugin_name for impl in outermost_first]  # type: ignore[attr-defined]
    return call


_ONE_WRAPPER = """\
def $name($params):
    try:
        gen = _w($wargs)
        next(gen)
    except _pass:
        raise
    except StopIteration:
        raise _failure(_hook, _wp, _rules, RuntimeError("the wrapper did not yield")) from None
    except Exception as exc:
        raise _failure(_hook, _wp, _rules, exc) from exc
    try:
        result = $inner
    except BaseException as exc:  # handed to the wrapper, as pluggy does
        try:
            gen.throw(exc)
        except StopIteration as stop:
            return stop.value
        except BaseException as raised:
            if isinstance(raised, _pass) or not isinstance(raised, Exception):
                raise
            raise _failure(_hook, _failed[0] if raised is exc else _wp, _rules, raised) from raised
        raise _failure(_hook, _wp, _rules, RuntimeError("the wrapper yields twice")) from None
    try:
        gen.send(result)
    except StopIteration as stop:
        return stop.value
    except _pass:
        raise
    except Exception as exc:
        raise _failure(_hook, _wp, _rules, exc) from exc
    raise _failure(_hook, _wp, _rules, RuntimeError("the wrapper yields twice"))
"""


def _one_wrapper(
    name: str,
    wrapper: pluggy.HookImpl,
    inner: Compiled | None,
    params: Sequence[str],
    bound: Mapping[str, Any],
    firstresult: bool,
    rules: str,
    failed: list[str],
    sources: codegen.Sources | None = None,
) -> Compiled:
    """Return a generated call for the common case of one wrapper (as :func:`_wrapped`)."""
    namespace = _namespace(
        name, bound, rules, failed, _w=wrapper.function, _wp=wrapper.plugin_name, _inner=inner
    )
    # Without plain implementations the wrapper sees what pluggy would give: None or a new [].
    result = (
        f"_inner({', '.join(params)})" if inner is not None else "None" if firstresult else "[]"
    )
    source = codegen.render(
        _ONE_WRAPPER,
        name=name,
        params=", ".join(params),
        wargs=_arguments(wrapper, params, bound),
        inner=result,
    )
    call = codegen.function(name, source, namespace, label=f"hook {name}", sources=sources)
    call.answered = inner.answered if inner is not None else [None]  # type: ignore[attr-defined]
    call.wrappers = [wrapper.plugin_name]  # type: ignore[attr-defined]
    return call


def answered_by(call: Compiled | None, index: int | None = None) -> str:
    """Return which plugin gave the last answer of a compiled hook, for error messages.

    ``index`` picks the ``index``-th answer of a collected hook.  Wrappers that could
    have changed the answer are named too.
    """
    noted = getattr(call, "answered", [None])[0]
    if isinstance(noted, list):
        noted = noted[index] if index is not None and 0 <= index < len(noted) else None
    wrappers = getattr(call, "wrappers", [])
    names = ([f"plugin {noted!r}"] if noted else []) + [f"wrapper {w!r}" for w in wrappers]
    return " or ".join(names) if names else "no plugin"


def _through_pluggy(
    name: str,
    caller: pluggy.HookCaller,
    params: Sequence[str],
    bound: Mapping[str, Any],
    rules: str,
) -> Compiled:
    """Return a call that goes through pluggy (for old-style hookwrappers)."""

    def call(*args: Any) -> Any:
        try:
            return caller(**dict(zip(params, args)), **bound)
        except PASS_THROUGH:
            raise
        except Exception as exc:
            raise PluginError(f"hook {name} failed ({rules}): {type(exc).__name__}: {exc}") from exc

    call.__name__ = name
    return call


def compile_hook(
    pm: pluggy.PluginManager,
    name: str,
    bound: Mapping[str, Any],
    rules: str,
    keep: Callable[[pluggy.HookImpl], bool] | None = None,
    sources: codegen.Sources | None = None,
) -> Compiled | None:
    """Return hook ``name`` compiled into one call, or ``None`` if nothing implements it.

    ``bound`` gives the values of arguments fixed for these rules (``table``,
    ``options``), used only where the hookspec has them.  ``keep`` selects the
    implementations to include (all by default).  ``sources`` collects the generated
    source (see :func:`spadeskit.core.codegen.function`).
    """
    caller: pluggy.HookCaller = getattr(pm.hook, name)
    spec = caller.spec
    assert spec is not None, name
    firstresult = bool(spec.opts.get("firstresult"))
    bound = {k: v for k, v in bound.items() if k in spec.argnames}
    params = [a for a in spec.argnames if a not in bound]
    impls = [i for i in caller.get_hookimpls() if keep is None or keep(i)]
    if not impls:
        return None
    if any(i.hookwrapper for i in impls):
        return _through_pluggy(name, caller, params, bound, rules)
    plain = [i for i in impls if not i.wrapper]
    wrappers = [i for i in impls if i.wrapper]
    if not wrappers:
        return (
            _straight(name, plain, params, bound, firstresult, rules, sources=sources)
            if plain
            else None
        )
    failed = [""]
    inner = (
        _straight(name, plain, params, bound, firstresult, rules, failed, sources)
        if plain
        else None
    )
    if len(wrappers) == 1:
        return _one_wrapper(
            name, wrappers[0], inner, params, bound, firstresult, rules, failed, sources
        )
    return _wrapped(name, wrappers, inner, params, bound, firstresult, rules, failed)
