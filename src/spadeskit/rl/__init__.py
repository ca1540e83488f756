"""Learning agents at array speed (the ``rl`` extra: Gymnasium and numpy).

It owns :class:`VectorSpadesEnv` (:mod:`spadeskit.rl.vector`): many tables stepped
together as numpy arrays over the batched engine, one learning seat a table.  It may
import every layer below it (:mod:`spadeskit.core`, :mod:`spadeskit.engine`,
:mod:`spadeskit.batch`, :mod:`spadeskit.bots`, :mod:`spadeskit.arena`); the layers
below never import it, and it imports neither :mod:`spadeskit.apps` nor
:mod:`spadeskit.interop`.
"""

from spadeskit.rl.vector import EPISODES, OPPONENTS, STRIDE, VectorSpadesEnv, random_actions

__all__ = ["EPISODES", "OPPONENTS", "STRIDE", "VectorSpadesEnv", "random_actions"]
