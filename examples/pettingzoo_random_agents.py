"""Random agents play a whole spadeskit match through the PettingZoo AEC API.

Trains nothing: it shows the loop a learning agent would sit in.  Needs the
``pettingzoo`` extra: ``pip install 'spadeskit[pettingzoo]'``.

    python examples/pettingzoo_random_agents.py [VARIANT] [SEED]
"""

from __future__ import annotations

import sys

from spadeskit.interop.pettingzoo import env


def main() -> None:
    variant = sys.argv[1] if len(sys.argv) > 1 else "standard"
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    e = env(variant=variant, render_mode="ansi")
    e.reset(seed=seed)
    e.action_space(e.possible_agents[0]).seed(seed)
    totals = {agent: 0.0 for agent in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        action = (
            None
            if termination or truncation
            else e.action_space(agent).sample(observation["action_mask"])
        )
        e.step(action)
    print(e.render())
    print("rewards (side points minus the best other side's, in hundreds, summed over hands):")
    for agent, total in totals.items():
        print(f"  {agent}: {total:+.2f}")


if __name__ == "__main__":
    main()
