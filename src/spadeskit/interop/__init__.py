"""Adapters to other frameworks: :mod:`spadeskit.interop.openspiel` (the ``openspiel``
extra) and :mod:`spadeskit.interop.pettingzoo` (the ``pettingzoo`` extra).  The core
never imports them.  Both number actions and lay out observations as
:mod:`spadeskit.engine.encoding` says, as :mod:`spadeskit.rl` does; both read observations
straight from states with :mod:`spadeskit.interop.arrays`.

This layer may import every layer below it (:mod:`spadeskit.core`,
:mod:`spadeskit.engine`, :mod:`spadeskit.batch`, :mod:`spadeskit.bots`,
:mod:`spadeskit.arena`), never :mod:`spadeskit.apps`; the layers below never import it.
"""
