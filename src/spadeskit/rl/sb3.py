"""The vector environment as a Stable-Baselines3 ``VecEnv``: :class:`SpadesVecEnv` (needs
``stable-baselines3``, which :mod:`spadeskit.rl` itself never imports)::

    from sb3_contrib import MaskablePPO
    from spadeskit.rl.sb3 import SpadesVecEnv

    env = SpadesVecEnv(64, opponents="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=128).learn(100_000)

It steps a :class:`~spadeskit.rl.VectorSpadesEnv` (same-step autoreset, as SB3 expects:
a finished table's last observation is in its ``infos[i]["terminal_observation"]``) and
answers sb3-contrib's ``env_method("action_masks")`` with each table's legal actions,
so ``MaskablePPO`` and its ``evaluate_policy`` take it with no wrapper.  :meth:`seed
<stable_baselines3.common.vec_env.VecEnv.seed>` then :meth:`~SpadesVecEnv.reset` deals
``seed``'s hands (table ``i`` depends only on the seed and ``i``); a reset without a seed
deals the next hands.  Attributes read with ``get_attr`` are the vector environment's,
the same for every table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from stable_baselines3.common.vec_env import VecEnv

from spadeskit.core.errors import SpadesError, shown
from spadeskit.rl.vector import VectorSpadesEnv

__all__ = ["SpadesVecEnv"]


class SpadesVecEnv(VecEnv):  # type: ignore[misc,unused-ignore]
    """``num_envs`` tables as an SB3 ``VecEnv``; the other arguments are
    :class:`~spadeskit.rl.VectorSpadesEnv`'s (see the module)."""

    def __init__(self, num_envs: int = 64, *args: Any, **kwargs: Any) -> None:
        if "autoreset_mode" in kwargs:
            raise SpadesError("SB3's VecEnv resets on the same step; autoreset_mode is not taken")
        self.env = VectorSpadesEnv(num_envs, *args, autoreset_mode="SameStep", **kwargs)
        """The vector environment stepped."""
        super().__init__(num_envs, self.env.single_observation_space, self.env.single_action_space)
        self._actions: NDArray[np.int64] | None = None
        self._masks = np.ones((num_envs, self.env.num_actions), dtype=bool)

    def reset(self) -> NDArray[np.float32]:
        """Deal every table a hand (of the seed given to :meth:`seed`, once); return the
        observations."""
        seed = self._seeds[0] if self._seeds else None
        observations, info = self.env.reset(seed=seed)
        self._reset_seeds()
        self._masks = info["action_mask"]
        return observations

    def step_async(self, actions: NDArray[Any]) -> None:
        """Keep every table's action for :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(
        self,
    ) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_], list[dict[str, Any]]]:
        """Step every table; return observations, rewards, dones and one info a table."""
        if self._actions is None:
            raise SpadesError("step_wait() comes after step_async(actions)")
        actions, self._actions = self._actions, None
        observations, rewards, ended, truncated, info = self.env.step(actions)
        self._masks = info["action_mask"]
        done = ended | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if done.any():
            final = info["final_obs"]
            for table in np.flatnonzero(done).tolist():
                infos[table] = {
                    "terminal_observation": final[table],
                    "TimeLimit.truncated": bool(truncated[table] and not ended[table]),
                }
        return observations, rewards.astype(np.float32), done, infos

    def action_masks(self) -> NDArray[np.bool_]:
        """Return every table's legal actions (tables x actions, bool)."""
        return self._masks.copy()

    def close(self) -> None:
        """Nothing to release: the tables are arrays in this process."""

    def _tables(self, indices: None | int | Iterable[int]) -> list[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: None | int | Iterable[int] = None) -> list[Any]:
        """Return the vector environment's attribute (or this one's, such as
        ``action_masks``) once for each table asked for."""
        source = self.env if hasattr(self.env, attr_name) else self
        return [getattr(source, attr_name)] * len(self._tables(indices))

    def set_attr(
        self, attr_name: str, value: Any, indices: None | int | Iterable[int] = None
    ) -> None:
        """Refuse: the tables share one environment, so no table's attribute is its own."""
        raise SpadesError(
            f"the tables share one environment; set {shown(attr_name, 30)} on "
            "SpadesVecEnv(...).env for all of them"
        )

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: None | int | Iterable[int] = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Return each table's legal actions for ``"action_masks"`` (as sb3-contrib asks);
        any other method is the vector environment's, called once, its result given for
        each table asked for."""
        tables = self._tables(indices)
        if method_name == "action_masks":
            return list(self._masks[tables])
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result] * len(tables)

    def env_is_wrapped(
        self, wrapper_class: type[Any], indices: None | int | Iterable[int] = None
    ) -> list[bool]:
        """Return ``False`` for each table: no Gymnasium wrapper is inside."""
        return [False] * len(self._tables(indices))
