"""The one place spadeskit turns generated source into functions.

spadeskit is fast because it writes some code when rules load: each hook becomes one
straight-line call (:mod:`spadeskit.engine.compiler`), the play filters one function
(:mod:`spadeskit.engine.filters`), each rule set's playout loops one function
(:mod:`spadeskit.engine.playing`), and the hot constructors of frozen values plain stores
(:mod:`spadeskit.core._fast`).  Every such function is built by :func:`function` here, from
a template filled by :func:`render` (``string.Template``: ``$name`` placeholders), so
there is one ``exec`` in the package and one templating style.

Generated source is registered with :mod:`linecache`, so a traceback through it shows
its lines; each rules object keeps what was generated for it, which
:meth:`Rules.generated_source() <spadeskit.engine.rules.Rules.generated_source>` prints.
"""

from __future__ import annotations

import collections
import itertools
import linecache
import string
import textwrap
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Sources", "function", "indent", "placeholders", "render", "render_partial"]

Sources = list[tuple[str, str]]
"""What was generated for one rules object: ``(label, source)`` in the order built."""

_counter = itertools.count(1)
_registered: collections.deque[str] = collections.deque()
KEPT_IN_LINECACHE = 4096
"""Generated sources kept for tracebacks; older ones are dropped (rules are rebuilt
rarely, but an app building many distinct rule sets must not grow without bound)."""


def render(template: str, **values: object) -> str:
    """Return ``template`` with each ``$name`` (or ``${name}``) replaced by ``values[name]``.

    >>> render("allowed &= $mask", mask="_c_mask")
    'allowed &= _c_mask'
    """
    return string.Template(template).substitute({k: str(v) for k, v in values.items()})


def render_partial(template: str, values: Mapping[str, object]) -> str:
    """Return ``template`` with the placeholders named in ``values`` replaced, the
    others left as they are.

    >>> render_partial("$a & $b", {"a": "x"})
    'x & $b'
    """
    return string.Template(template).safe_substitute({k: str(v) for k, v in values.items()})


def placeholders(template: str) -> list[str]:
    """Return the names of the ``$name`` placeholders in ``template``, in order.

    >>> placeholders("$a & $suit_mask[$lead]")
    ['a', 'suit_mask', 'lead']
    """
    return string.Template(template).get_identifiers()


def indent(source: str, levels: int) -> str:
    """Return ``source`` indented by ``levels`` steps of four spaces."""
    return textwrap.indent(source, "    " * levels)


def function(
    name: str,
    source: str,
    namespace: Mapping[str, Any],
    *,
    label: str,
    sources: Sources | None = None,
) -> Callable[..., Any]:
    """Return the function ``name`` that ``source`` defines, run in a copy of ``namespace``.

    ``label`` says what the code is for; it names the code in tracebacks
    (``File "<spadeskit play filters #3>", line 4``), whose lines show, since the source
    is registered with :mod:`linecache`.  ``sources`` collects ``(label, source)`` for
    :meth:`Rules.generated_source <spadeskit.engine.rules.Rules.generated_source>`.
    """
    filename = f"<spadeskit {label} #{next(_counter)}>"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    _registered.append(filename)
    if len(_registered) > KEPT_IN_LINECACHE:
        linecache.cache.pop(_registered.popleft(), None)
    scope = dict(namespace)
    exec(compile(source, filename, "exec"), scope)  # noqa: S102  (the package's one exec)
    if sources is not None:
        sources.append((label, source))
    made: Callable[..., Any] = scope[name]
    return made
