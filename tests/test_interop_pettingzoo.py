"""The PettingZoo AEC environment (the ``pettingzoo`` extra; CI installs it and runs this file)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import spadeskit  # noqa: E402
from spadeskit.interop.pettingzoo import env  # noqa: E402

VARIANTS = ["standard", "jjdd", "cutthroat", "two-handed", "three-suit-trump", "call-break"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoos_api_test_passes_on_every_variant(variant: str) -> None:
    api_test(
        env(variant=variant, options={"target": 100} if variant in ("standard", "jjdd") else None),
        num_cycles=60,
        verbose_progress=False,
    )


def test_pettingzoos_seed_test_passes() -> None:
    seed_test(lambda: env(options={"target": 100}), num_cycles=100)


def test_random_agents_play_a_whole_match_with_rewards_and_ansi_rendering() -> None:
    e = env(
        variant="standard", house_rules=["blind-nil"], options={"target": 150}, render_mode="ansi"
    )
    e.reset(seed=3)
    total = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter(max_iter=20_000):
        observation, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        action = (
            None
            if termination or truncation
            else e.action_space(agent).sample(observation["action_mask"])
        )
        e.step(action)
        steps += 1
    assert e.game is not None and e.game.is_over and steps > 50
    assert (
        total["player_0"] == total["player_2"] and abs(total["player_0"] + total["player_1"]) < 1e-9
    )
    assert "Match over" in (e.render() or "")


def test_the_random_agents_example_plays_a_whole_match(capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib
    import runpy
    import sys

    script = (
        pathlib.Path(__file__).resolve().parents[1] / "examples" / "pettingzoo_random_agents.py"
    )
    old = sys.argv
    sys.argv = [str(script), "cutthroat", "3"]
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = old
    assert "Match over" in capsys.readouterr().out


def test_actions_must_be_int_ids_and_bad_agents_and_arguments_are_typed_errors() -> None:
    """Hardening (round 3): ``step("55")`` or ``step(55.9)`` were applied as 55."""
    e = env("standard")
    e.reset(seed=3)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    for bad in (
        None,
        str(legal),
        float(legal) + 0.9,
        [legal],
        np.array([legal]),
        complex(legal),
        True,
    ):
        with pytest.raises(spadeskit.IllegalAction, match="int id"):
            e.step(bad)
    with pytest.raises(spadeskit.SpadesError, match="no agent 'player_9'"):
        e.observe("player_9")
    with pytest.raises(spadeskit.SpadesError, match="house_rules is a list"):
        env("standard", house_rules=None)  # type: ignore[arg-type]
    e.step(np.int64(legal))  # numpy ints are ints


def test_an_unseeded_reset_deals_from_the_librarys_secret() -> None:
    e = env("standard")
    e.reset()
    assert e.game is not None and e.game.seed is None


def test_match_observations_include_scores_bags_hand_and_dealer() -> None:
    """The observation carries the match: after the first hand the scores and bags show."""
    e = env(options={"target": 1000, "floor": -10000})
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    while e.game is not None and e.game.number == 0:
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    game = e.game
    assert game is not None and game.scores != (0, 0)
    seen = e.observe("player_0")["observation"]
    assert e.observation_space("player_0")["observation"].contains(seen)
    slots = e.encoding.slots
    assert seen[slots["dealer"].start + game.dealer] == 1.0
    assert seen[slots["scores"].start] == pytest.approx(max(-1, min(1, game.scores[0] / 1000)))
    assert seen[slots["hand"].start] == pytest.approx(1 / 50)


def test_pettingzoos_render_test_passes_in_both_modes(capsys: pytest.CaptureFixture[str]) -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: env(match=False, render_mode=render_mode))
    assert "to act" in capsys.readouterr().out
    with pytest.raises(spadeskit.SpadesError, match="render_mode"):
        env(render_mode="rgb_array")


def test_a_done_agent_steps_with_none_and_nothing_else() -> None:
    """PettingZoo's AEC rule: once terminated, each agent is selected once more, takes
    ``None`` and leaves; any other action is refused (GameOver), changing nothing."""
    e = env(match=False)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            break
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    left = list(e.agents)
    assert len(left) == 4
    with pytest.raises(spadeskit.GameOver, match="step\\(None\\)"):
        e.step(0)
    assert e.agents == left and e.agent_selection == agent
    for agent in e.agent_iter():
        assert e.last()[2]
        e.step(None)
    assert e.agents == []
