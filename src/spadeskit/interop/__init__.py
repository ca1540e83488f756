"""Adapters to other frameworks: :mod:`spadeskit.interop.openspiel` (the ``openspiel``
extra) and :mod:`spadeskit.interop.pettingzoo` (the ``pettingzoo`` extra).  The core
never imports them; :mod:`spadeskit.interop.encoding` (no dependencies) holds the
action numbering and the observation both use.

This layer may import every layer below it (:mod:`spadeskit.core`,
:mod:`spadeskit.engine`, :mod:`spadeskit.batch`, :mod:`spadeskit.bots`,
:mod:`spadeskit.arena`), never :mod:`spadeskit.apps`; the layers below never import it.
"""
