"""The rules engine: what turns plugins into a game that can be played.

It owns the hookspecs (:mod:`~spadeskit.engine.hookspecs`), the plugin author's API
(:mod:`~spadeskit.engine.authoring`, published as :mod:`spadeskit.plugin`), finding and
loading plugins (:mod:`~spadeskit.engine.loader`), compiling hooks into plain calls
(:mod:`~spadeskit.engine.compiler`, :mod:`~spadeskit.engine.hookcalls`), the play
filters, the state machine split by phase (auction, dealing, tricks, turns, scoring,
playouts, assembled in :mod:`~spadeskit.engine.machine`), the compiled
:class:`~spadeskit.engine.rules.Rules`, building views, replaying records and the score
sheet.  It may import :mod:`spadeskit.core` only.
"""

from typing import Any

_MACHINE = ("Engine", "PLAYS", "REFEREE", "mix")


def __getattr__(name: str) -> Any:
    # 0.2.0's spadeskit.engine was the module now at spadeskit.engine.machine.
    if name in _MACHINE:
        import warnings

        from spadeskit.engine import machine

        warnings.warn(
            f"spadeskit.engine.{name} moved to spadeskit.engine.machine.{name} in spadeskit "
            "0.3 (spadeskit.engine is now the rules engine's layer); the old name goes in 0.4",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(machine, name)
    raise AttributeError(f"module 'spadeskit.engine' has no attribute {name!r}")
