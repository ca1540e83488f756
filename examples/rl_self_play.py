"""Four-seat self-play: one shared policy learns at every seat (numpy only).

A linear softmax policy (the observation times a weight matrix, illegal actions masked
out) plays all four seats of 256 standard tables at once: the vector environment with
``seat=(0, 1, 2, 3)`` asks it for one decision a table at each step, by whichever seat
is to act there (the observation says which).  After each hand every decision's
log-probability is pushed up or down by how far its own seat's reward (its side's
points less the other side's, ``info["seat_rewards"]``) beat the average of all seats'
(REINFORCE with Adam steps).  So every seat learns, from both sides of the table.

After 1, 2, 4, 8 … rounds of hands the policy, playing greedily (its most likely legal
action), takes one side (seats 0 and 2) of tables whose other side is played by a
uniformly random player (1,024 tables), by the greedy policy (random bids and leads,
following with :func:`spadeskit.bots.greedy_card`; 1,024 tables) and by
:class:`~spadeskit.bots.HeuristicBot` (256 tables).  The learning curve is the share of
those hands its side wins (more points than the other side), on deals the training
never sees.  It prints the curve, saves it as CSV, and draws it as a PNG when
matplotlib is installed.

    pip install -e '.[rl]'                       # matplotlib too, for the picture
    python examples/rl_self_play.py [--rounds 400] [--tables 256] [--bots 256]
                                    [--png curve.png]

One run (seed 0, ``--rounds 400``: 102,400 hands of self-play, 5.7 million decisions;
189 CPU seconds with the judging, on two shared cores, 2026-12-05) gave, as the share
of held-out hands its side won against a side of:

============== ======== ======== =============
hands trained  random   greedy   HeuristicBots
============== ======== ======== =============
0 (at random)  47.6%    46.2%     1.6%
256            90.5%    86.2%     9.4%
1,024          91.7%    86.4%     8.2%
4,096          90.0%    86.5%     3.9%
16,384         91.8%    88.7%    17.6%
32,768         91.3%    89.0%    20.7%
102,400        92.0%    88.4%    16.4%
============== ======== ======== =============

Random and greedy sides bid at random, mostly far too high: one round teaches the
policy to bid low, which wins most hands against them; its card play then creeps up.
HeuristicBots bid and play well: the linear policy wins about a fifth of hands against
them at best (256 hands a point: about ±2.5 points of noise).
"""

from __future__ import annotations

import argparse
import csv
import os
import time

# The matrices here are small: BLAS threads cost more than they give, and on a shared
# machine their spinning burns CPU time.  (Only takes effect before numpy is imported.)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from spadeskit.rl import VectorSpadesEnv  # noqa: E402

SEATS = (0, 1, 2, 3)
SIDE = (0, 2)
EVALUATION_SEED = 10**6  # far from the training seeds: hands the training never sees


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Return each row's action probabilities, zero where the mask is false."""
    logits = np.where(mask, logits, -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=1, keepdims=True)


def with_bias(observations: np.ndarray) -> np.ndarray:
    """Return the observations with a constant input appended (the bias)."""
    return np.hstack([observations, np.ones((len(observations), 1), dtype=np.float32)])


class Adam:
    """Adam steps for one array of parameters (ascent: the return goes up)."""

    def __init__(self, shape: tuple[int, ...], rate: float) -> None:
        self.rate, self.m, self.v, self.t = rate, np.zeros(shape), np.zeros(shape), 0

    def step(self, params: np.ndarray, grad: np.ndarray) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad**2
        m = self.m / (1 - 0.9**self.t)
        v = self.v / (1 - 0.999**self.t)
        params += self.rate * m / (np.sqrt(v) + 1e-8)


def judge_env(opponents: str, tables: int) -> VectorSpadesEnv:
    """Return tables where the policy plays seats 0 and 2, and ``opponents``
    (``"random"``, ``"greedy"`` or ``"heuristic"``) the other side."""
    return VectorSpadesEnv(tables, "standard", seat=SIDE, opponents=opponents)


def evaluate(weights: np.ndarray | None, env: VectorSpadesEnv, seed: int) -> float:
    """Return the share of hands the side of seats 0 and 2 wins at the tables ``env``
    (:func:`judge_env`) dealt by ``seed``, the policy ``weights`` playing it greedily
    (``None``: uniformly random legal actions)."""
    rng = np.random.default_rng(seed)
    observations, info = env.reset(seed=seed)
    while True:
        mask = info["action_mask"]
        if weights is None:
            scores = np.where(mask, rng.random(mask.shape), -1.0)
        else:
            scores = np.where(mask, with_bias(observations) @ weights, -np.inf)
        observations, rewards, ended, _, info = env.step(scores.argmax(axis=1))
        if ended.all():
            return float((rewards > 0).mean())


def judgement_rounds(rounds: int) -> set[int]:
    """Return the rounds after which the policy is judged: 1, 2, 4, 8 … and the last."""
    return {2**k for k in range(rounds.bit_length()) if 2**k <= rounds} | {rounds}


OPPONENTS = ("random", "greedy", "heuristic")
"""The sides the policy is judged against."""


def train(
    rounds: int, tables: int, seed: int, judge: int = 1024, bots: int = 256
) -> tuple[np.ndarray, list[tuple[float, ...]]]:
    """Train for ``rounds`` hands at ``tables`` tables; return the policy's weights and
    the learning curve: (hands trained, then the share of hands won against each of
    :data:`OPPONENTS`), first for the untrained policy's random play, then after the
    :func:`judgement_rounds`, judged on ``judge`` held-out hands (``bots`` against the
    HeuristicBots, which are slower; 0: not judged against them)."""
    env = VectorSpadesEnv(tables, "standard", seat=SEATS, autoreset_mode="SameStep")
    rng = np.random.default_rng(seed)
    weights = np.zeros((env.observation_size + 1, env.num_actions))
    optimizer = Adam(weights.shape, 0.01)
    sizes = {"random": judge, "greedy": judge, "heuristic": bots}
    judges = [judge_env(name, sizes[name]) for name in OPPONENTS if sizes[name]]

    def judged(hands: int, policy: np.ndarray | None) -> tuple[float, ...]:
        shares = [evaluate(policy, env, EVALUATION_SEED + k) for k, env in enumerate(judges)]
        return (hands, *shares)

    curve = [judged(0, None)]
    observations, info = env.reset(seed=seed)
    rows = np.arange(tables)
    judged_after = judgement_rounds(rounds)
    for round_ in range(1, rounds + 1):
        trail = []
        while True:
            x = with_bias(observations)
            probs = masked_softmax(x @ weights, info["action_mask"])
            pick = (probs.cumsum(axis=1) < rng.random((tables, 1))).sum(axis=1)
            actions = np.minimum(pick, env.num_actions - 1)
            trail.append((x, probs, actions, info["seat"]))
            observations, _, ended, _, info = env.step(actions)
            if ended.all():
                break
        seat_rewards = info["seat_rewards"]  # tables x seats: each seat's reward
        scale = seat_rewards.std() + 1e-8
        advantage = (seat_rewards - seat_rewards.mean()) / scale
        grad = np.zeros_like(weights)
        for x, probs, actions, seats in trail:
            push = -probs
            push[rows, actions] += 1.0
            grad += x.T @ (push * advantage[rows, seats][:, None])
        optimizer.step(weights, grad / (tables * len(SEATS)))
        if round_ in judged_after:
            curve.append(judged(round_ * tables, weights))
    return weights, curve


def draw(curve: list[tuple[float, ...]], names: tuple[str, ...], path: str) -> None:
    """Draw the learning curve as a PNG at ``path`` (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 3.4))
    hands = [row[0] for row in curve]
    for k, name in enumerate(names, start=1):
        axis.plot(hands, [100 * row[k] for row in curve], marker=".", label=f"against {name}")
    axis.axhline(50, color="grey", linestyle=":", label="even")
    axis.set_xscale("symlog", linthresh=hands[1] if len(hands) > 1 else 1)
    axis.set_xlim(left=0)
    axis.set_ylim(0, 100)
    axis.set_xlabel("hands of self-play (0: playing at random)")
    axis.set_ylabel("hands won by its side (%)")
    axis.set_title("One linear policy learning at all four seats (standard)")
    axis.legend(loc="center right", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400, help="rounds of hands to train")
    parser.add_argument("--tables", type=int, default=256, help="tables played together")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--bots", type=int, default=256, help="hands judged against HeuristicBots (0: none)"
    )
    parser.add_argument("--csv", default="self_play_curve.csv", help="where the curve goes")
    parser.add_argument("--png", default="", help="draw the curve here (needs matplotlib)")
    args = parser.parse_args()
    start = time.process_time()
    _, curve = train(args.rounds, args.tables, args.seed, bots=args.bots)
    spent = time.process_time() - start
    names = OPPONENTS if args.bots else OPPONENTS[:2]
    with open(args.csv, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["hands", *(f"won_against_{name}" for name in names)])
        writer.writerows(curve)
    print("hands trained | share of hands its side won against a side of")
    print(f"{'':13} | " + " | ".join(f"{name:>9}" for name in names))
    for hands, *shares in curve:
        print(f"{int(hands):>13,} | " + " | ".join(f"{share:9.1%}" for share in shares))
    print(f"{spent:.0f} CPU seconds of training and judging; curve in {args.csv}")
    if args.png:
        draw(curve, names, args.png)
        print(f"picture in {args.png}")


if __name__ == "__main__":
    main()
