"""Adapters to other frameworks: :mod:`spadeskit.interop.openspiel` (the ``openspiel``
extra) and :mod:`spadeskit.interop.pettingzoo` (the ``pettingzoo`` extra).  The core
never imports them; :mod:`spadeskit.interop.encoding` (no dependencies) holds the
action numbering and the observation both use."""
