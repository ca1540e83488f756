"""The rules engine: what turns plugins into a game that can be played.

It owns the hookspecs (:mod:`~spadeskit.engine.hookspecs`), the plugin author's API
(:mod:`~spadeskit.engine.authoring`, published as :mod:`spadeskit.plugin`), finding and
loading plugins (:mod:`~spadeskit.engine.loader`), compiling hooks into plain calls
(:mod:`~spadeskit.engine.compiler`, :mod:`~spadeskit.engine.hookcalls`), the play
filters, the engine's parts (auction, dealing, scoring, tricks, turns, playouts, held by
the :class:`~spadeskit.engine.playing.Engine` of :mod:`~spadeskit.engine.playing`), the
one trick winner (:mod:`~spadeskit.engine.winner`), the loaded
:class:`~spadeskit.engine.rules.Rules`, building views, replaying records, the score
sheet, and the encoding of a rule set for learning agents
(:mod:`~spadeskit.engine.encoding`: action ids and observation slots, shared by
:mod:`spadeskit.interop` and :mod:`spadeskit.rl`).  It may import :mod:`spadeskit.core`
only.
"""
