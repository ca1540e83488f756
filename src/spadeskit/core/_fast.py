"""Generated constructors for frozen attrs classes on the hot path.

An attrs frozen class sets each field through ``object.__setattr__`` in ``__init__``,
which costs about four times a plain attribute store.  For the values the engine builds
on every action (states, tricks, views) this module generates functions that fill a
*builder* (a mutable class with exactly the same slots) with plain stores (a subclass
that restores ``object.__setattr__``), then turn it into the frozen class by assigning
``__class__``: a layout-compatible switch that copies
nothing.  The result is an ordinary instance of the frozen class, equal to one built by
``__init__`` from the same values.  No validators or converters run, so only the engine
uses these, with values it has already checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from spadeskit.core import codegen

__all__ = ["builder_class", "constructor", "copier", "evolver", "keyword_evolver", "maker"]


def builder_class(cls: type) -> type:
    """Return a mutable subclass of the frozen ``cls``: the same slots, plain stores.

    ``cls`` must be slotted without a ``__weakref__`` slot (``weakref_slot=False``):
    CPython refuses to switch ``__class__`` between classes that have one after
    their named slots.  A builder is an instance of ``cls`` too, so code handed one
    (a hook during a rollout) reads it as it would the frozen value.
    """
    if "__weakref__" in cls.__dict__.get("__slots__", ("__weakref__",)):
        raise TypeError(
            f"{cls.__qualname__} needs attrs.frozen(weakref_slot=False) for a fast constructor"
        )
    namespace = {
        "__slots__": (),
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
        "__qualname__": f"{cls.__qualname__}Builder",
        "__module__": cls.__module__,
    }
    builder = type(f"{cls.__name__}Builder", (cls,), namespace)
    probe: Any = object.__new__(builder)
    probe.__class__ = cls  # fails now, at import, if the layouts ever differ
    return builder


def _compile(source: str, name: str, namespace: dict[str, Any]) -> Any:
    return codegen.function(name, source, namespace, label=f"constructor {name}")


def constructor(cls: type, builder: type, fields: Sequence[str]) -> Callable[..., Any]:
    """Return ``make(**values)``: a new frozen ``cls`` with ``fields`` set by keyword
    (every one required, so a field left out or misnamed fails at once)."""
    body = "".join(f"    o.{f} = {f}\n" for f in fields)
    source = (
        f"def make(*, {', '.join(fields)}):\n    o = _new(_B)\n{body}"
        "    o.__class__ = _C\n    return o\n"
    )
    return _compile(source, "make", {"_new": object.__new__, "_B": builder, "_C": cls})  # type: ignore[no-any-return]


def maker(cls: type) -> Callable[..., Any]:
    """Return ``make(**values)`` for the attrs class ``cls``: every field, by keyword."""
    return constructor(cls, builder_class(cls), [f.name for f in attrs.fields(cls)])


def evolver(
    cls: type,
    builder: type,
    fields: Sequence[str],
    changed: Sequence[str],
    reset: dict[str, Any] | None = None,
) -> Callable[..., Any]:
    """Return ``evolve(old, **new_values)``: a copy of ``old`` with ``changed`` replaced,
    each given by keyword (every one required).

    ``reset`` names fields set to a constant in every copy (a cache cleared on change).
    """
    reset = reset or {}
    lines = []
    for f in fields:
        if f in changed:
            lines.append(f"    o.{f} = {f}\n")
        elif f in reset:
            lines.append(f"    o.{f} = _reset_{f}\n")
        else:
            lines.append(f"    o.{f} = old.{f}\n")
    params = ", ".join(("old", "*", *changed))
    body = "".join(lines)
    source = f"def evolve({params}):\n    o = _new(_B)\n{body}    o.__class__ = _C\n    return o\n"
    namespace = {"_new": object.__new__, "_B": builder, "_C": cls}
    namespace.update({f"_reset_{k}": v for k, v in reset.items()})
    return _compile(source, "evolve", namespace)  # type: ignore[no-any-return]


def keyword_evolver(
    cls: type, builder: type, fields: Sequence[str], reset: dict[str, Any]
) -> Callable[..., Any]:
    """Return ``evolve(old, **changes)``: a copy of ``old`` with the named fields changed.

    An unknown field name is a ``TypeError`` (an unexpected keyword argument).
    """
    settable = [f for f in fields if f not in reset]
    params = ", ".join(f"{f}=_KEEP" for f in settable)
    lines = [f"    o.{f} = old.{f} if {f} is _KEEP else {f}\n" for f in settable]
    lines += [f"    o.{f} = _reset_{f}\n" for f in reset]
    body = "".join(lines)
    source = (
        f"def evolve(old, *, {params}):\n    o = _new(_B)\n"
        f"{body}    o.__class__ = _C\n    return o\n"
    )
    namespace = {"_new": object.__new__, "_B": builder, "_C": cls, "_KEEP": object()}
    namespace.update({f"_reset_{k}": v for k, v in reset.items()})
    return _compile(source, "evolve", namespace)  # type: ignore[no-any-return]


def copier(builder: type, fields: Sequence[str]) -> Callable[[Any], Any]:
    """Return ``copy(old)``: a mutable builder holding every field of ``old``."""
    body = "".join(f"    o.{f} = old.{f}\n" for f in fields)
    source = f"def copy(old):\n    o = _new(_B)\n{body}    return o\n"
    return _compile(source, "copy", {"_new": object.__new__, "_B": builder})  # type: ignore[no-any-return]
