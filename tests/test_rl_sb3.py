"""The Stable-Baselines3 adapter (spadeskit.rl.sb3): SB3 and sb3-contrib take the vector
environment with no glue.  Runs where stable-baselines3 and sb3-contrib are installed
(they pull in torch, so CI does not install them)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

import spadeskit
from spadeskit.rl import VectorSpadesEnv, random_actions
from spadeskit.rl.sb3 import SpadesVecEnv


def test_it_steps_as_sb3_says_and_keeps_each_finished_hands_last_observation() -> None:
    env = SpadesVecEnv(5, seat=1)
    twin = VectorSpadesEnv(5, seat=1, autoreset_mode="SameStep")
    env.seed(3)
    observations = env.reset()
    same, info = twin.reset(seed=3)
    assert np.array_equal(observations, same)
    assert is_masking_supported(env)
    rng = np.random.default_rng(0)
    for step in range(28):
        masks = get_action_masks(env)
        assert np.array_equal(masks, info["action_mask"])
        actions = random_actions(masks, rng)
        env.step_async(actions)
        observations, rewards, dones, infos = env.step_wait()
        same, reward, _, _, info = twin.step(actions)
        assert np.array_equal(observations, same) and np.allclose(rewards, reward)
        assert dones.all() == (step % 14 == 13)
        if dones.all():
            for table, extra in enumerate(infos):
                assert np.array_equal(extra["terminal_observation"], info["final_obs"][table])
                assert extra["TimeLimit.truncated"] is False


def test_a_reset_without_a_seed_deals_new_hands() -> None:
    env = SpadesVecEnv(4)
    first = env.reset()
    assert not np.array_equal(env.reset()[:, :54], first[:, :54])


def test_maskable_ppo_and_sb3s_wrappers_take_it_as_it_is() -> None:
    env = VecNormalize(VecMonitor(SpadesVecEnv(8)), norm_reward=False)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    observations = env.reset()
    actions, _ = model.predict(observations, action_masks=get_action_masks(env))
    assert get_action_masks(env)[np.arange(8), actions].all()


def test_attributes_and_methods_reach_the_vector_environment() -> None:
    env = SpadesVecEnv(3, opponents="greedy")
    assert env.get_attr("num_actions") == [env.env.num_actions] * 3
    assert env.get_attr("seat", indices=[1]) == [0]
    assert env.env_is_wrapped(VecMonitor) == [False] * 3
    env.reset()
    assert len(env.env_method("action_masks", indices=[0, 2])) == 2
    with pytest.raises(spadeskit.SpadesError):
        env.set_attr("seat", 2)
    with pytest.raises(spadeskit.SpadesError):
        SpadesVecEnv(3, autoreset_mode="NextStep")
