"""Every spadeskit rule set as a PettingZoo AEC environment (the ``pettingzoo`` extra)::

    from spadeskit.interop.pettingzoo import env
    e = env(variant="standard", house_rules=["blind-nil"], render_mode="ansi")
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else \\
            e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are ``player_0`` … one per seat.  Each observation is ``{"observation":
float32 vector, "action_mask": int8 vector}``: what the agent's own
:class:`~spadeskit.core.views.View` shows, in the slots of the rule set's
:class:`~spadeskit.engine.encoding.Encoding` (``env.encoding``), whose action ids every
spadeskit front end shares (a discard or an exchange is picked card by card, one step a
card), read straight from the state by :mod:`spadeskit.interop.arrays`.  Rewards come when a hand
is scored: each agent gets its side's points minus the best other side's, in hundreds.
By default the episode is a whole match (``match=False``: one hand).  Only the agent
to act may act; out-of-turn claims are not offered.  Once the episode ends, each agent
comes up once more with its termination, and takes ``None`` (PettingZoo's rule for a
done agent; any other action raises :class:`~spadeskit.core.errors.GameOver`).
``render_mode="ansi"`` makes :meth:`~SpadeskitEnv.render` return the table as text,
``"human"`` prints it; another mode raises :class:`~spadeskit.core.errors.SpadesError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from spadeskit.core.errors import GameOver, IllegalAction, SpadesError, shown
from spadeskit.core.state import GameState
from spadeskit.engine.encoding import Encoding, encoding_for
from spadeskit.engine.loader import load_rules
from spadeskit.interop import arrays

__all__ = ["SpadeskitEnv", "env", "raw_env"]


def env(
    variant: str = "standard",
    house_rules: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    match: bool = True,
    render_mode: str | None = None,
) -> SpadeskitEnv:
    """Return the environment for a rule set (see the module)."""
    return SpadeskitEnv(variant, house_rules, options, match, render_mode)


raw_env = env
"""The same environment under PettingZoo's usual name for an unwrapped one: it needs no
wrapper (it checks the agent order itself, and an illegal action raises
:class:`~spadeskit.core.errors.IllegalAction` with the environment unchanged; mask with
``observation["action_mask"]``)."""


class SpadeskitEnv(AECEnv):  # type: ignore[misc]
    """A spadeskit match (or hand) as a PettingZoo AEC environment."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "spadeskit_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "standard",
        house_rules: Sequence[str] = (),
        options: dict[str, Any] | None = None,
        match: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise SpadesError(
                f"render_mode is None, 'ansi' or 'human', not {shown(render_mode, 30)}"
            )
        if isinstance(house_rules, str) or not isinstance(house_rules, Sequence):
            raise SpadesError(f"house_rules is a list of names, not {shown(house_rules, 40)}")
        self.rules = load_rules(variant, list(house_rules), options or {})
        self.encoding: Encoding = encoding_for(self.rules)
        """The action ids and observation slots (:mod:`spadeskit.engine.encoding`)."""
        self.match = match
        self.render_mode = render_mode
        n = self.rules.table.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        size, actions = self.encoding.observation_size, self.encoding.num_actions
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(actions)
        self.game: GameState | None = None
        self._picked: tuple[int, ...] = ()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Without a seed the deals come from the library's secret (256 bits from the OS),
        # which no observation reveals; a seeded episode is reproducible by design.
        self.game = self.rules.new_game(seed=seed)
        self._picked = ()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self) -> str:
        assert self.game is not None
        seat = self.game.to_act if not self.game.is_over else None
        return self.possible_agents[seat if seat is not None else 0]

    def _seat_of(self, agent: object) -> int:
        if agent not in self.possible_agents:
            raise SpadesError(
                f"there is no agent {shown(agent, 30)}; agents: {', '.join(self.possible_agents)}"
            )
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.game is not None
        seat = self._seat_of(agent)
        game, encoding = self.game, self.encoding
        picked: tuple[int, ...] = ()
        if not game.is_over and game.to_act == seat:
            picked = self._picked
            mask = arrays.action_mask(encoding, encoding.legal_ids(game, seat, picked))
        else:
            mask = np.zeros(encoding.num_actions, np.int8)
        return {"observation": arrays.observe(encoding, game, seat, picked), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # PettingZoo's rule: a done agent's step takes None, and removes the agent.
            if action is not None:
                raise GameOver(
                    f"{agent} is done (its episode ended): step(None) removes it, and no "
                    f"other action is taken, not {shown(action, 40)}"
                )
            self._was_dead_step(action)
            return
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        encoding = self.encoding
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalAction(
                f"{agent}'s action is an int id (0-{encoding.num_actions - 1}), "
                f"not {shown(action, 40)}",
                code="not-an-action",
            )
        number = int(action)
        if number not in encoding.legal_ids(self.game, seat, self._picked):
            raise encoding.refusal(self.game, seat, number, self._picked)
        chosen, self._picked = encoding.decide(self.game, seat, number, self._picked)
        self._clear_rewards()
        if chosen is None:  # a card picked for a discard or exchange that wants more
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
            return
        hands = len(self.game.match.results)
        self.game = self.game.apply(chosen, seat)
        if len(self.game.match.results) > hands:
            result = self.game.match.results[-1]
            side_of = self.rules.side_of
            unit = 100 * self.rules.table.score_unit
            for s, name in enumerate(self.possible_agents):
                others = [p for i, p in enumerate(result.points) if i != side_of[s]]
                self.rewards[name] = (
                    (result.points[side_of[s]] - max(others)) / unit if others else 0.0
                )
            if not self.match or self.game.is_over:
                for name in self.agents:
                    self.terminations[name] = True
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        if not all(self.terminations.values()):
            self.agent_selection = self._agent_to_act()

    def render(self) -> str | None:
        """Return the table as text (``render_mode="ansi"``: the hand, the scores, the
        last events, whose turn it is), or print it (``"human"``)."""
        if self.render_mode is None or self.game is None:
            return None
        game = self.game
        names = self.rules.table.seat_names
        lines = [
            f"{self.rules.name}: hand "
            f"{game.number + 1 if not game.is_over else len(game.hand_results)}, "
            f"scores {', '.join(self.rules.table.show_score(s) for s in game.scores)}"
        ]
        if not game.is_over:
            view = game.view(None)
            lines += [e.text for e in view.events[-8:]]
            if view.to_act is not None:
                lines.append(f"{names[view.to_act]} to act")
        elif game.match.end is not None:
            lines.append(f"Match over: {game.match.end.reason}")
        if self.render_mode == "human":
            print("\n".join(lines))
            return None
        return "\n".join(lines)

    def close(self) -> None:
        pass
