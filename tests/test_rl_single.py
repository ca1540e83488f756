"""The single-table Gymnasium environment (spadeskit.rl.SpadesEnv, the ``rl`` extra): it
passes Gymnasium's checker, is registered for ``gymnasium.make`` and ``make_vec``, keeps
its policy for an illegal action, resets as Gymnasium says, and lets several seats
learn (tests/test_encoding.py shows its observations and action ids mean what the other
front ends' mean)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium as gym
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit.core.cards import cards_of
from spadeskit.rl import ENV_ID, SpadesEnv, VectorSpadesEnv, random_actions


def _play_out(env: SpadesEnv, seed: int, rng: np.random.Generator) -> list[float]:
    """Play one episode with random legal actions; return the rewards."""
    _, info = env.reset(seed=seed)
    rewards = []
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, ended, truncated, info = env.step(action)
        rewards.append(reward)
        assert not truncated
        if ended:
            return rewards


@pytest.mark.parametrize("policy", ["penalty", "random-legal"])
def test_gymnasiums_env_checker_passes(policy: str) -> None:
    """``check_env`` samples unmasked actions, so it runs with the two policies that
    take any action; the checker's warnings are errors here."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make(ENV_ID, illegal_action=policy, render_mode="ansi").unwrapped)
        check_env(gym.make(ENV_ID, illegal_action=policy, episode="match").unwrapped)


def test_make_and_make_vec_build_the_environments() -> None:
    env = gym.make(ENV_ID, variant="cutthroat", seat=1, opponents="greedy")
    assert isinstance(env.unwrapped, SpadesEnv) and env.unwrapped.seat == 1
    _, info = env.reset(seed=0)
    assert info["action_mask"].dtype == np.int8
    env.step(env.action_space.sample(info["action_mask"]))
    vector = gym.make_vec(ENV_ID, num_envs=16, opponents="greedy")
    assert isinstance(vector, VectorSpadesEnv) and vector.num_envs == 16
    sync = gym.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync")
    observations, info = sync.reset(seed=0)
    assert observations.shape == (3, vector.observation_size)
    rng = np.random.default_rng(0)
    for _ in range(30):
        _, _, ended, _, info = sync.step(random_actions(info["action_mask"] == 1, rng))
    sync.close()


def test_an_illegal_action_raises_by_default_and_changes_nothing() -> None:
    env = SpadesEnv()
    observation, info = env.reset(seed=3)
    game = env.game
    with pytest.raises(spadeskit.IllegalAction, match="not legal for seat 0"):
        env.step(0)  # a card, during the auction
    assert env.game is game and np.array_equal(env._observe(), observation)
    for bad in (-1, 68, 2.0, "AS", True, np.array([54])):
        with pytest.raises(spadeskit.IllegalAction):
            env.step(bad)
    with pytest.raises(spadeskit.SpadesError):
        SpadesEnv(illegal_action="ignore")
    with pytest.raises(spadeskit.SpadesError):
        SpadesEnv(penalty=-1)
    with pytest.raises(spadeskit.SpadesError, match="render_mode"):
        SpadesEnv(render_mode="rgb_array")


def test_the_penalty_policy_leaves_the_table_and_costs_the_penalty() -> None:
    env = SpadesEnv(illegal_action="penalty", penalty=0.5)
    observation, _ = env.reset(seed=3)
    game = env.game
    after, reward, ended, truncated, info = env.step(0)
    assert reward == -0.5 and not ended and not truncated and info["illegal"]
    assert env.game is game and np.array_equal(after, observation)
    _, _, _, _, info = env.step(54 + 3)
    assert "illegal" not in info


def test_the_random_legal_policy_takes_a_legal_action_instead() -> None:
    env = SpadesEnv(illegal_action="random-legal")
    env.reset(seed=3)
    _, _, _, _, info = env.step(0)  # a card during the auction: a random bid instead
    assert info["illegal"]
    game = env.game
    assert game is not None and game.bids[0] in env.menu


def test_action_masks_are_what_sb3_contrib_asks_for() -> None:
    """``action_masks()``: a bool vector over the actions, the legal ones true, equal to
    ``info["action_mask"]`` and to the step API's legal actions."""
    env = SpadesEnv(seat=2)
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(14):
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and np.array_equal(mask, info["action_mask"] == 1)
        game = env.game
        assert game is not None and game.to_act == 2
        legal = {env._action(int(i)) for i in np.flatnonzero(mask)}
        assert legal == set(game.legal_actions(2))
        _, _, ended, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert ended


def test_rewards_are_the_sides_points_less_the_best_other_sides() -> None:
    env = SpadesEnv(seat=1, opponents="greedy")
    rng = np.random.default_rng(1)
    for seed in range(6):
        rewards = _play_out(env, seed, rng)
        assert not any(rewards[:-1]) and len(rewards) == 14
        game = env.game
        assert game is not None
        points = game.match.results[0].points
        assert rewards[-1] == pytest.approx((points[1] - points[0]) / 100)


def test_match_episodes_run_until_the_rules_end_the_match() -> None:
    env = SpadesEnv(episode="match", options={"target": 200})
    rewards = _play_out(env, 2, np.random.default_rng(2))
    game = env.game
    assert game is not None and game.is_over
    hands = len(game.match.results)
    assert len(rewards) == 14 * hands and sum(r != 0 for r in rewards) <= hands


def test_heuristic_opponents_play_whole_hands() -> None:
    env = SpadesEnv(opponents="heuristic", seat=3)
    assert len(_play_out(env, 0, np.random.default_rng(0))) == 14


def test_resets_deal_new_hands_and_seeds_repeat_them() -> None:
    """``reset()`` after ``reset(seed=s)`` deals the same hands in any environment;
    two environments never seeded deal different hands."""

    def hands(env: SpadesEnv, seed: int | None) -> list[tuple[int, ...]]:
        env.reset(seed=seed)
        seen = []
        for _ in range(3):
            assert env.game is not None
            seen.append(env.game.hands)
            env.reset()
        return seen

    a, b = SpadesEnv(), SpadesEnv()
    b.reset()
    assert hands(a, 9) == hands(b, 9)
    assert len(set(hands(a, 9))) == 3
    assert not set(hands(SpadesEnv(), None)) & set(hands(SpadesEnv(), None))


def test_every_seat_can_learn_at_one_table() -> None:
    """``seat=(0, 1, 2, 3)``: each step is the decision of the seat to act, named by
    ``info["seat"]`` and by the observation; a hand is 4 bids and 52 cards; at its end
    the reward is the last seat's and ``info["seat_rewards"]`` every seat's."""
    env = SpadesEnv(seat=(0, 1, 2, 3))
    observation, info = env.reset(seed=2)
    slots = env.encoding.slots
    rng = np.random.default_rng(2)
    for step in range(56):
        game = env.game
        assert game is not None and info["seat"] == game.to_act
        assert observation[slots["seat"]].argmax() == game.to_act
        who = info["seat"]
        legal = np.flatnonzero(info["action_mask"])
        observation, reward, ended, _, info = env.step(int(rng.choice(legal)))
        assert ended == (step == 55)
    margins = info["seat_rewards"]
    assert margins[0] == margins[2] == -margins[1] == -margins[3] and reward == margins[who]


def test_render_shows_the_table_as_the_learning_seat_sees_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = SpadesEnv(seat=1, render_mode="ansi")
    env.reset(seed=6)
    text = env.render()
    game = env.game
    assert text is not None and game is not None
    words = set(text.replace(",", " ").split())
    own = {c.code for c in cards_of(game.hands[1])}
    hidden = {c.code for s in (0, 2, 3) for c in cards_of(game.hands[s])}
    assert len(own) == 13 and own <= words and not hidden & words
    loud = SpadesEnv(render_mode="human")
    loud.reset(seed=6)
    assert loud.render() is None and "hand:" in capsys.readouterr().out


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**63),
    seat=st.integers(0, 3),
    opponents=st.sampled_from(["random", "greedy"]),
)
def test_every_hand_is_fourteen_steps_inside_the_spaces(
    seed: int, seat: int, opponents: str
) -> None:
    """Whatever the seed and seat: every observation lies in the observation space,
    some action is always legal, the hand ends after a bid and 13 cards with the only
    reward, and the learning seat has played every card it was dealt."""
    env = SpadesEnv(seat=seat, opponents=opponents)
    observation, info = env.reset(seed=seed)
    dealt = observation[:52].copy()
    rng = np.random.default_rng(seed)
    for step in range(14):
        assert env.observation_space.contains(observation)
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) and (legal >= 52).all() == (step == 0)
        observation, reward, ended, _, info = env.step(int(rng.choice(legal)))
        assert ended == (step == 13) and (reward == 0 or ended)
    assert env.observation_space.contains(observation) and not observation[:52].any()
    played = env.encoding.slots["played"].start + 52 * seat
    assert np.array_equal(observation[played : played + 52], dealt)
