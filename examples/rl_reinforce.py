"""Train a small policy with REINFORCE in the vector environment (numpy only).

A linear softmax policy (the observation times a weight matrix, illegal actions masked
out) plays the learning seat of 512 standard tables against random players (its
partner included), one hand an episode; after each hand every decision's log-probability
is pushed up or down by how far the hand's reward beat the average (Adam steps).  It
prints, and saves as CSV, the share of hands its side won (more points than the other
side) in blocks of hands, and draws the learning curve as a PNG when matplotlib is
installed.

    pip install -e '.[rl]'                     # matplotlib too, for the picture
    python examples/rl_reinforce.py [--hands 300] [--tables 512] [--png curve.png]
"""

from __future__ import annotations

import argparse
import csv
import time

import numpy as np

from spadeskit.rl import VectorSpadesEnv, random_actions


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Return each row's action probabilities, zero where the mask is false."""
    logits = np.where(mask, logits, -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=1, keepdims=True)


class Adam:
    """Adam steps for one array of parameters."""

    def __init__(self, shape: tuple[int, ...], rate: float) -> None:
        self.rate, self.m, self.v, self.t = rate, np.zeros(shape), np.zeros(shape), 0

    def step(self, params: np.ndarray, grad: np.ndarray) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad**2
        m = self.m / (1 - 0.9**self.t)
        v = self.v / (1 - 0.999**self.t)
        params += self.rate * m / (np.sqrt(v) + 1e-8)  # ascent: maximize the return


def train(hands: int, tables: int, seed: int) -> list[tuple[int, float, float]]:
    """Train for ``hands`` rounds of ``tables`` hands; return (hands played, share of
    hands won, mean reward) every 10 rounds."""
    env = VectorSpadesEnv(tables, "standard", opponents="random", seat=0, autoreset_mode="SameStep")
    rng = np.random.default_rng(seed)
    size = env.observation_size + 1  # a constant input: the bias
    weights = np.zeros((size, env.num_actions))
    optimizer = Adam(weights.shape, 0.01)
    observations, info = env.reset(seed=seed)
    curve: list[tuple[int, float, float]] = []
    won: list[float] = []
    rewards: list[float] = []
    for round_ in range(1, hands + 1):
        trail = []
        while True:
            x = np.hstack([observations, np.ones((tables, 1), dtype=np.float32)])
            probs = masked_softmax(x @ weights, info["action_mask"])
            cumulative = probs.cumsum(axis=1)
            pick = (cumulative < rng.random((tables, 1))).sum(axis=1)
            actions = np.minimum(pick, env.num_actions - 1)
            trail.append((x, probs, actions))
            observations, reward, ended, _, info = env.step(actions)
            if ended.all():
                break
        advantage = reward - reward.mean()
        advantage /= advantage.std() + 1e-8
        grad = np.zeros_like(weights)
        for x, probs, actions in trail:
            push = -probs
            push[np.arange(tables), actions] += 1.0
            grad += x.T @ (push * advantage[:, None])
        optimizer.step(weights, grad / tables)
        won.append(float((reward > 0).mean()))
        rewards.append(float(reward.mean()))
        if round_ % 10 == 0:
            curve.append((round_ * tables, float(np.mean(won)), float(np.mean(rewards))))
            won, rewards = [], []
    return curve


def random_share(tables: int, seed: int, rounds: int = 20) -> float:
    """Return the share of hands a uniformly random player's side wins, for comparison."""
    env = VectorSpadesEnv(tables, "standard", opponents="random", seat=0, autoreset_mode="SameStep")
    rng = np.random.default_rng(seed + 1)
    _, info = env.reset(seed=seed + 1)
    won = []
    for _ in range(rounds):
        while True:
            _, reward, ended, _, info = env.step(random_actions(info["action_mask"], rng))
            if ended.all():
                break
        won.append(float((reward > 0).mean()))
    return float(np.mean(won))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="rounds of hands to train")
    parser.add_argument("--tables", type=int, default=512, help="tables played together")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--csv", default="reinforce_curve.csv", help="where the curve goes")
    parser.add_argument("--png", default="", help="draw the curve here (needs matplotlib)")
    args = parser.parse_args()
    start = time.process_time()
    chance = random_share(args.tables, args.seed)
    curve = train(args.hands, args.tables, args.seed)
    spent = time.process_time() - start
    print(f"a uniformly random player's side wins {chance:.1%} of hands")
    with open(args.csv, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["hands", "won", "mean_reward"])
        writer.writerows(curve)
    for hands, share, mean in curve:
        print(f"{hands:>8,} hands: side won {share:6.1%} of hands, mean reward {mean:+.3f}")
    print(f"{spent:.0f} CPU seconds; curve in {args.csv}")
    if args.png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axis = plt.subplots(figsize=(6, 3.2))
        axis.plot([h for h, _, _ in curve], [100 * s for _, s, _ in curve], label="REINFORCE")
        axis.axhline(100 * chance, color="grey", linestyle=":", label="a random player")
        axis.set_xlabel("hands played")
        axis.set_ylabel("hands won by its side (%)")
        axis.set_title("A linear policy against random players (standard)")
        axis.legend(loc="lower right")
        figure.tight_layout()
        figure.savefig(args.png, dpi=110)
        print(f"picture in {args.png}")


if __name__ == "__main__":
    main()
