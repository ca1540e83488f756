"""Find plugins, check that they fit together, and build :class:`~spadeskit.engine.rules.Rules`.

This is the only place that talks to pluggy's plugin manager: :func:`load_rules`
discovers plugins through the ``spadeskit`` entry-point group, validates the variant,
house rules and options, registers them in a fixed order, builds the compiled
:class:`~spadeskit.engine.rules.Rules` and the :class:`~spadeskit.engine.playing.Engine` that plays
under them.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import inspect
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs
import pluggy

from spadeskit.core.errors import (
    OptionError,
    PluginError,
    RuleConflict,
    SpadesError,
    UnknownPlugin,
    shown,
)
from spadeskit.core.seating import FrozenMap
from spadeskit.engine import hookspecs
from spadeskit.engine.authoring import Option, PluginInfo
from spadeskit.engine.playing import Engine
from spadeskit.engine.rules import Rules

__all__ = ["CACHE_SIZE", "ENTRY_POINT_GROUP", "PluginSummary", "available", "load_rules", "resolve"]

ENTRY_POINT_GROUP = "spadeskit"


@attrs.frozen
class PluginSummary:
    """An installed plugin, as :func:`available` lists it."""

    name: str
    kind: str
    summary: str
    options: tuple[Option, ...]
    fits: tuple[str, ...]
    requires: tuple[str, ...]
    conflicts: tuple[str, ...]


_ENTRY_POINTS: dict[str, importlib.metadata.EntryPoint] | None = None


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        _ENTRY_POINTS = {ep.name: ep for ep in found}
    return _ENTRY_POINTS


def _did_you_mean(name: str, known: Iterable[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest of ``known``, or ``""``."""
    guess = difflib.get_close_matches(
        name.lower().replace("_", "-"), [k.replace("_", "-") for k in known], n=1, cutoff=0.6
    )
    if not guess:
        return ""
    original = next(k for k in known if k.replace("_", "-") == guess[0])
    return f" (did you mean {original!r}?)"


def _info_of(plugin: object, where: str) -> PluginInfo:
    info = getattr(plugin, "PLUGIN", None)
    if not isinstance(info, PluginInfo):
        raise PluginError(f"plugin {where} has no PLUGIN = spadeskit.PluginInfo(...) attribute")
    return info


def resolve(ref: object) -> tuple[object, PluginInfo]:
    """Return the plugin object and its :class:`PluginInfo` for a name or a plugin object."""
    if isinstance(ref, str):
        eps = _entry_points()
        if ref not in eps:
            raise UnknownPlugin(
                f"no spadeskit plugin named {shown(ref)} is installed{_did_you_mean(ref, eps)}; "
                f"installed: {', '.join(sorted(eps))}"
            )
        try:
            plugin = eps[ref].load()
        except Exception as exc:
            raise PluginError(f"plugin {shown(ref)} failed to import: {exc}") from exc
        info = _info_of(plugin, shown(ref))
        if info.name != ref:
            raise PluginError(f"entry point {ref!r} loads a plugin that calls itself {info.name!r}")
        return plugin, info
    return ref, _info_of(ref, shown(ref))


def available() -> tuple[PluginSummary, ...]:
    """Return every installed variant and house rule, variants first, by name.

    A plugin that cannot be loaded (it fails to import, or has no valid ``PLUGIN``) is
    listed last, with kind ``"broken"`` and the reason as its summary; the others are
    listed as usual.
    """
    rows = []
    for name in _entry_points():
        try:
            info = resolve(name)[1]
        except SpadesError as exc:
            rows.append(PluginSummary(name, "broken", str(exc), (), (), (), ()))
            continue
        rows.append(
            PluginSummary(
                info.name,
                info.kind,
                info.summary,
                info.options,
                info.fits,
                info.requires,
                info.conflicts,
            )
        )
    order = {"variant": 0, "house-rule": 1}
    return tuple(sorted(rows, key=lambda r: (order.get(r.kind, 2), r.name)))


CACHE_SIZE = 256
"""How many rules objects :func:`load_rules` keeps (least recently used go first)."""

_CACHE: OrderedDict[tuple[Any, ...], Rules] = OrderedDict()
_CACHE_LOCK = threading.RLock()
"""Held while a configuration is looked up and built, so threads loading the same
configuration at once get one rules object (building is rare; reading is cheap)."""


def _typed(value: Any) -> Any:
    """Return a hashable key for an option value that tells ``1``, ``1.0`` and ``True`` apart."""
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_typed(v) for v in value))
    return (type(value), value)


def _remember(key: tuple[Any, ...], rules: Rules) -> None:
    _CACHE[key] = rules
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)


def load_rules(
    variant: object,
    house_rules: Iterable[object] = (),
    options: Mapping[str, Any] | None = None,
) -> Rules:
    """Return the compiled rules of a variant with house rules and options.

    ``variant`` and each house rule are plugin names (see :func:`available`) or plugin
    modules/objects carrying a ``PLUGIN`` attribute.  Raises :class:`UnknownPlugin`,
    :class:`RuleConflict` or :class:`OptionError` naming what is wrong.  Rules built from
    names are cached (the last :data:`CACHE_SIZE` configurations), keyed by the
    validated option values and their types: loading the same configuration twice,
    with options given or left at their defaults, returns the same object.

    >>> rules = load_rules("standard", options={"target": 300})
    >>> rules.options["target"], rules.table.players
    (300, 4)
    >>> load_rules("standard", options={"target": 500}) is load_rules("standard")
    True
    """
    if isinstance(house_rules, (str, bytes)) or not isinstance(house_rules, Iterable):
        raise UnknownPlugin(
            f"house_rules is a list of house-rule names, not {shown(house_rules, 40)}"
        )
    if options is not None and not isinstance(options, Mapping):
        raise OptionError(
            f"options is a mapping of option names to values, not {shown(options, 40)}"
        )
    house = tuple(house_rules)
    plan = _plan(variant, house, dict(options or {}))
    named = isinstance(variant, str) and all(isinstance(h, str) for h in house)
    key = None
    if named:
        base_info, extras, resolved = plan
        try:
            key = (
                base_info.name,
                tuple(info.name for _, info in extras),
                tuple(sorted((name, _typed(value)) for name, value in resolved.items())),
            )
            hash(key)
        except TypeError:
            key = None
    if key is None:
        return _build(*plan, named=False)
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
        rules = _build(*plan, named=True)
        _remember(key, rules)
        return rules


Plan = tuple[PluginInfo, list[tuple[object, PluginInfo]], FrozenMap]


def _plan(variant: object, house: Sequence[object], user_options: dict[str, Any]) -> Plan:
    """Resolve the plugins and options and check that they fit; build nothing yet."""
    base, base_info = resolve(variant)
    if base_info.kind != "variant":
        raise UnknownPlugin(
            f"{base_info.name!r} is a house rule, not a variant; pass it in house_rules="
        )
    extras = [(base, base_info)]
    seen = {base_info.name}
    for ref in house:
        plugin, info = resolve(ref)
        if info.kind != "house-rule":
            raise UnknownPlugin(f"{info.name!r} is a variant, not a house rule")
        if info.name in seen:
            raise RuleConflict(f"house rule {info.name!r} is listed twice")
        seen.add(info.name)
        extras.append((plugin, info))
    extras[1:] = sorted(extras[1:], key=lambda pair: (pair[1].order, pair[1].name))
    infos = [info for _, info in extras]
    for info in infos[1:]:
        if info.fits and base_info.name not in info.fits:
            raise RuleConflict(
                f"house rule {info.name!r} does not fit variant {base_info.name!r} "
                f"(it fits {', '.join(info.fits)})"
            )
    for info in infos:
        for needed in info.requires:
            if needed not in seen:
                raise RuleConflict(f"{info.name!r} requires {needed!r}, which is not loaded")
        for other in info.conflicts:
            if other in seen:
                raise RuleConflict(f"{info.name!r} conflicts with {other!r}; load only one of them")
    return base_info, extras, _resolve_options(infos, user_options)


def _build(
    base_info: PluginInfo, plugins: list[tuple[object, PluginInfo]], options: FrozenMap, named: bool
) -> Rules:
    pm = pluggy.PluginManager("spadeskit")
    pm.add_hookspecs(hookspecs)
    for plugin, info in plugins:
        _check_hook_names(plugin, info)
        try:
            pm.register(plugin, name=info.name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise PluginError(f"plugin {info.name!r} cannot be registered: {exc}") from exc
    house = tuple(info for _, info in plugins[1:])
    reload = (
        (load_rules, (base_info.name, tuple(i.name for i in house), dict(options)))
        if named
        else None
    )
    rules = Rules(base_info, house, options, pm, reload)
    rules.engine = Engine(rules)
    return rules


HOOK_NAMES = frozenset(name for name in vars(hookspecs) if name.startswith("spadeskit_"))
"""The names of every hook a plugin may implement."""


def _check_hook_names(plugin: object, info: PluginInfo) -> None:
    """Refuse a plugin with a ``spadeskit_*`` function, or a ``@hookimpl(specname=...)``,
    that names no hook: pluggy would silently never call it.  A hook implemented under
    its old name is pointed at its new one, with a ``DeprecationWarning``."""
    for attr in dir(plugin):
        function = getattr(plugin, attr, None)
        marked = getattr(function, "spadeskit_impl", None)
        if isinstance(marked, dict) and callable(function):
            old = marked.get("specname") or attr
            if old in hookspecs.RENAMED:
                marked["specname"] = hookspecs.RENAMED[old]
                warnings.warn(
                    f"plugin {info.name!r} implements {old}, now called {hookspecs.RENAMED[old]}: "
                    "rename it (the old name will go in a later release)",
                    DeprecationWarning,
                    stacklevel=4,
                )
    for attr in dir(plugin):
        function = getattr(plugin, attr, None)
        marked = getattr(function, "spadeskit_impl", None)
        name = marked.get("specname") or attr if isinstance(marked, dict) else attr
        if not name.startswith("spadeskit_") or not callable(function) or name in HOOK_NAMES:
            continue
        guess = difflib.get_close_matches(name, HOOK_NAMES | hookspecs.RENAMED.keys(), n=1)
        hint = f"; did you mean {hookspecs.RENAMED.get(guess[0], guess[0])}?" if guess else ""
        raise PluginError(
            f"plugin {info.name!r} implements {name}, which is not a spadeskit hook, "
            f"so it would never be called{hint}"
        )
    for attr in dir(plugin):
        function = getattr(plugin, attr, None)
        marked = getattr(function, "spadeskit_impl", None)
        if not isinstance(marked, dict) or not callable(function):
            continue
        name = marked.get("specname") or attr
        problem = hook_argument_problem(function, name) if name in HOOK_NAMES else None
        if problem:
            raise PluginError(f"plugin {info.name!r}: {name} {problem}")


def hook_argument_problem(function: Callable[..., Any], hook: str) -> str | None:
    """Return what is wrong with the arguments an implementation of ``hook`` asks for
    (``"asks for x, which the hook does not offer (it offers ...)"``), or ``None``.

    Shared by :func:`load_rules` and :func:`spadeskit.testing.lint`, so both say it alike.
    """
    offered = set(inspect.signature(getattr(hookspecs, hook)).parameters)
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return None
    asked = [
        p
        for p, param in parameters.items()
        if param.default is inspect.Parameter.empty
        and param.kind not in (param.VAR_KEYWORD, param.VAR_POSITIONAL)
    ]
    unknown = [p for p in asked if p not in offered]
    if not unknown:
        return None
    offers = ", ".join(sorted(offered))
    return f"asks for {', '.join(unknown)}, which the hook does not offer (it offers {offers})"


def _declared_elsewhere(name: str) -> str:
    """Return ``" (it is an option of the house rule 'x': add 'x')"`` when another
    installed plugin declares option ``name``, else ``""`` (only on the error path)."""
    for summary in available():
        if any(option.name == name for option in summary.options):
            kind = summary.kind.replace("-", " ")
            return f" (it is an option of the {kind} {summary.name!r}: add {summary.name!r})"
    return ""


def _resolve_options(infos: Sequence[PluginInfo], given: Mapping[str, Any]) -> FrozenMap:
    declared: dict[str, tuple[PluginInfo, Option]] = {}
    for info in infos:
        for option in info.options:
            if option.name in declared:
                raise RuleConflict(
                    f"{info.name!r} and {declared[option.name][0].name!r} both declare option "
                    f"{option.name!r}"
                )
            declared[option.name] = (info, option)
    values = {name: option.default for name, (_, option) in declared.items()}
    for name, value in given.items():
        if not isinstance(name, str):
            raise OptionError(f"option names are strings, not {shown(name, 40)}")
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            names = " + ".join(i.name for i in infos)
            raise OptionError(
                f"unknown option {shown(name)} for {names}"
                f"{_declared_elsewhere(name) or _did_you_mean(name, declared)}; options: {known}"
            )
        info, option = declared[name]
        try:
            problem = option.problem(value)
        except Exception as exc:
            raise PluginError(
                f"the validator of option {name!r} of {info.name!r} failed on {shown(value, 40)}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        if problem:
            raise OptionError(f"option {name!r} of {info.name!r} {problem}, not {shown(value, 40)}")
        values[name] = value
    return FrozenMap(values)
