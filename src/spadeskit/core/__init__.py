"""The core: the values a game of Spades is made of, and nothing that plays it.

It owns cards and their parsing (:mod:`~spadeskit.core.cards`), actions
(:mod:`~spadeskit.core.actions`), what a variant declares about its table
(:mod:`~spadeskit.core.seating`), hand results (:mod:`~spadeskit.core.results`), the
frozen game state (:mod:`~spadeskit.core.state`), what one seat may see
(:mod:`~spadeskit.core.views`, :mod:`~spadeskit.core.events`), records
(:mod:`~spadeskit.core.records`), the errors (:mod:`~spadeskit.core.errors`), seeds
(:mod:`~spadeskit.core.seeding`) and the one code-generation seam
(:mod:`~spadeskit.core.codegen`).  It is the bottom layer: it imports no other part of
spadeskit.  A state reaches the engine that plays it only through the
:class:`~spadeskit.core.state.RuleSet` protocol it declares itself.
"""
