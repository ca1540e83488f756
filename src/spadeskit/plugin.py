"""The public API for writing a variant or a house rule.

A plugin is a module with ``@hookimpl`` functions (the rule points are listed in
:mod:`spadeskit.engine.hookspecs`) and a ``PLUGIN`` :class:`PluginInfo` naming it, its
kind, its options and what it fits or conflicts with.  This module gathers what a
plugin author writes with: the marker, the metadata, option validators, the play-filter
building blocks and the helpers that change a hand.  It is the stable path for them;
they are defined in :mod:`spadeskit.engine.authoring`.  The values a hook reads (states,
tables, cards, actions, results) come from :mod:`spadeskit` and :mod:`spadeskit.core`.
"""

from spadeskit.engine.authoring import *  # noqa: F403  (the API is authoring's, whole)
from spadeskit.engine.authoring import Validator as Validator
from spadeskit.engine.authoring import __all__ as _names

__all__ = [*_names, "Validator"]
