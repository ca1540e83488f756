"""Learning agents (the ``rl`` extra: Gymnasium and numpy).

It owns :class:`VectorSpadesEnv` (:mod:`spadeskit.rl.vector`): many tables stepped
together as numpy arrays over the batched engine, the same learning seats (one, a side,
or all four) at each; :class:`SpadesEnv` (:mod:`spadeskit.rl.single`): one table through
the step API, with the same actions and observations; and :class:`~spadeskit.rl.sb3.
SpadesVecEnv` (:mod:`spadeskit.rl.sb3`), the vector environment as a Stable-Baselines3
``VecEnv``.  Actions and observations are the rule set's encoding
(:mod:`spadeskit.engine.encoding`), which the OpenSpiel and PettingZoo adapters of
:mod:`spadeskit.interop` share.  Importing it registers
``spadeskit/Spades-v0`` with Gymnasium: ``gymnasium.make`` builds a :class:`SpadesEnv`,
``gymnasium.make_vec`` a :class:`VectorSpadesEnv` (or, with ``vectorization_mode="sync"``,
Gymnasium's vector of :class:`SpadesEnv`).

It may import every layer below it (:mod:`spadeskit.core`, :mod:`spadeskit.engine`,
:mod:`spadeskit.batch`, :mod:`spadeskit.bots`, :mod:`spadeskit.arena`); the layers
below never import it, and it imports neither :mod:`spadeskit.apps` nor
:mod:`spadeskit.interop`.
"""

import gymnasium

from spadeskit.rl.single import ILLEGAL_ACTIONS, SpadesEnv
from spadeskit.rl.vector import (
    EPISODES,
    OPPONENTS,
    RENDER_MODES,
    STRIDE,
    VectorSpadesEnv,
    random_actions,
)

__all__ = [
    "ENV_ID",
    "EPISODES",
    "ILLEGAL_ACTIONS",
    "OPPONENTS",
    "RENDER_MODES",
    "STRIDE",
    "SpadesEnv",
    "VectorSpadesEnv",
    "random_actions",
]

ENV_ID = "spadeskit/Spades-v0"
"""The id :mod:`spadeskit.rl` registers with Gymnasium."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        ENV_ID,
        entry_point="spadeskit.rl.single:SpadesEnv",
        vector_entry_point="spadeskit.rl.vector:VectorSpadesEnv",
    )
