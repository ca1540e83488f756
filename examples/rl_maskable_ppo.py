"""Train sb3-contrib's MaskablePPO at the learning seat against random players, then
compare its side's share of hands won with a random player's on hands it never saw.

Needs stable-baselines3, sb3-contrib and torch (not part of any spadeskit extra)::

    pip install -e '.[rl]' stable-baselines3 sb3-contrib
    python examples/rl_maskable_ppo.py --steps 200000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks

from spadeskit.rl import random_actions
from spadeskit.rl.sb3 import SpadesVecEnv


def share_won(choose: object, hands: int, seed: int, tables: int = 256) -> float:
    """Return the share of ``hands`` held-out hands (of ``seed``) the learning seat's side
    wins when ``choose(observations, masks)`` picks its actions."""
    env = SpadesVecEnv(tables)
    env.seed(seed)
    observations = env.reset()
    won: list[bool] = []
    while len(won) < hands:
        env.step_async(choose(observations, get_action_masks(env)))  # type: ignore[operator]
        observations, rewards, dones, _ = env.step_wait()
        if dones.all():
            won += (rewards > 0).tolist()
    return float(np.mean(won[:hands]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="agent steps to train")
    parser.add_argument("--tables", type=int, default=64, help="tables stepped together")
    parser.add_argument("--hands", type=int, default=4096, help="held-out hands to judge")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    env = SpadesVecEnv(args.tables)
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=128, batch_size=1024, learning_rate=3e-4, seed=args.seed
    )
    start = time.process_time()
    model.learn(args.steps)
    spent = time.process_time() - start
    rng = np.random.default_rng(args.seed)
    held_out = args.seed + 10**6
    chance = share_won(lambda _, masks: random_actions(masks, rng), args.hands, held_out)
    trained = share_won(
        lambda obs, masks: model.predict(obs, action_masks=masks, deterministic=True)[0],
        args.hands,
        held_out,
    )
    print(
        f"MaskablePPO, {args.steps:,} agent steps at {args.tables} tables "
        f"({spent:.0f} CPU s): its side wins {trained:.1%} of {args.hands:,} held-out hands; "
        f"a random player's side {chance:.1%}"
    )


if __name__ == "__main__":
    main()
