"""The vector environment (spadeskit.rl, the ``rl`` extra) is the same game: its hands
replay through the step API to the same books and points, a random agent's outcomes
follow ``simulate``'s, table ``i`` depends only on ``(seed, i)``, and no observation
shows a hidden card."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium.wrappers.vector as wrappers
from gymnasium.utils.env_checker import check_action_space, check_observation_space
from gymnasium.vector import AutoresetMode

import spadeskit
from spadeskit.rl import VectorSpadesEnv, random_actions
from tests.test_batch import homogeneity_p


def _hands(env: VectorSpadesEnv, hands: int, seed: int) -> list[tuple[object, ...]]:
    """Play ``hands`` hands at every table with a random agent; return, per table and
    hand, the replayed hand's result beside the environment's books, points and reward."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    out = []
    for _ in range(hands):
        while True:
            _, reward, ended, _, info = env.step(random_actions(info["action_mask"], rng))
            if ended.all():
                break
        for table in range(env.num_envs):
            deal, dealer, actions = env.hand_actions(table)
            game = env.rules.new_game(deal=deal, dealer=dealer)
            for seat, action in actions:
                game = game.apply(action, seat)
            out.append(
                (game.hand_results[0], env.last_books[table], env.last_points[table], reward[table])
            )
    return out


@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_a_thousand_vectorized_hands_replay_to_the_same_books_and_points(opponents: str) -> None:
    env = VectorSpadesEnv(250, opponents=opponents, seat=2)
    played = _hands(env, 4, seed=7)
    assert len(played) == 1000
    for result, books, points, reward in played:
        assert list(result.books) == books.tolist() and list(result.points) == points.tolist()
        side = env.side
        best = max(p for s, p in enumerate(result.points) if s != side)
        assert reward == pytest.approx((result.points[side] - best) / 100)


@pytest.mark.parametrize(
    "variant, house", [("cutthroat", ()), ("call-break", ()), ("standard", ("jokers",))]
)
def test_other_rule_sets_replay_too(variant: str, house: tuple[str, ...]) -> None:
    env = VectorSpadesEnv(40, variant, house, opponents="greedy", seat=1)
    for result, books, points, _ in _hands(env, 2, seed=3):
        assert list(result.books) == books.tolist() and list(result.points) == points.tolist()


@pytest.mark.slow
def test_a_random_agents_outcomes_follow_simulate() -> None:
    """Chi-square: the learning seat's tricks and its side's points under a random agent
    against random opponents are distributed as in ``simulate``'s random hands."""
    env = VectorSpadesEnv(1000, seat=0)
    played = _hands(env, 2, seed=11)
    rules = spadeskit.load_rules("standard")
    simulated = list(rules.simulate(2000, seed=5))
    ours_books = [int(books[0]) for _, books, _, _ in played]
    their_books = [r.books[0] for r in simulated]
    assert homogeneity_p(ours_books, their_books) > 0.001
    ours_points = [int(points[0]) // 10 for _, _, points, _ in played]
    their_points = [r.points[0] // 10 for r in simulated]
    assert homogeneity_p(ours_points, their_points) > 0.001


def test_table_i_depends_only_on_the_seed_and_i() -> None:
    small, large = VectorSpadesEnv(3), VectorSpadesEnv(7)
    a, _ = small.reset(seed=4)
    b, _ = large.reset(seed=4)
    assert np.array_equal(a, b[:3]) and np.array_equal(small.deals, large.deals[:3])
    for _ in range(14):
        actions = np.argmax(large._last_mask, axis=1)
        a, *_ = small.step(actions[:3])
        b, *_ = large.step(actions)
        assert np.array_equal(a, b[:3])
    assert np.array_equal(small.last_points, large.last_points[:3])


def test_hidden_cards_never_change_an_observation() -> None:
    """Swap the hands of two other seats (cards not yet played) where they hold as many
    cards: the learning seat's observation is the same, in the auction and at every card."""
    env = VectorSpadesEnv(16, seat=0)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(1)
    for _ in range(14):
        seen = env._observe()
        kept, dealt = env.held.copy(), env.deals.copy()
        played = env.deals & ~env.held  # each seat keeps the cards it played
        env.held[:, [1, 2]] = env.held[:, [2, 1]]
        env.deals = played | env.held
        alike = np.bitwise_count(kept[:, 1]) == np.bitwise_count(kept[:, 2])
        assert alike.any() and np.array_equal(env._observe()[alike], seen[alike])
        env.held, env.deals = kept, dealt
        _, _, ended, _, info = env.step(random_actions(info["action_mask"], rng))
        if ended.all():
            break


def test_spaces_masks_and_refusals() -> None:
    env = VectorSpadesEnv(5)
    check_observation_space(env.single_observation_space)
    check_action_space(env.single_action_space)
    obs, info = env.reset(seed=1)
    assert obs.dtype == np.float32 and env.observation_space.contains(obs)
    assert info["action_mask"].shape == (5, env.num_actions)
    assert env.num_actions == 66 and env.observation_size == 563  # OpenSpiel's 66 ids
    assert info["action_mask"][:, 52:].all() and not info["action_mask"][:, :52].any()
    with pytest.raises(spadeskit.IllegalAction, match="table 0"):
        env.step(np.zeros(5, dtype=np.int64))  # a card during the auction
    assert np.array_equal(env._observe(), obs)
    with pytest.raises(spadeskit.IllegalAction):
        env.step(np.array([54, 55]))
    with pytest.raises(spadeskit.SpadesError):
        VectorSpadesEnv(0)
    with pytest.raises(spadeskit.SpadesError):
        VectorSpadesEnv(4, opponents="clever")
    with pytest.raises(spadeskit.SpadesError, match="bids once"):
        VectorSpadesEnv(4, "three-suit-trump")
    with pytest.raises(spadeskit.SpadesError, match="hides part of what a seat sees"):
        VectorSpadesEnv(4, "standard", ["hidden-bids"])


def _example(name: str) -> Any:
    """Return the example ``examples/<name>.py`` as a module."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


@pytest.mark.slow
def test_the_reinforce_example_learns_to_beat_random_play() -> None:
    """examples/rl_reinforce.py: after 40 rounds of 256 hands the policy's side wins
    clearly more hands than a random player's (seeded, so the same every run)."""
    example = _example("rl_reinforce")
    chance = example.random_share(256, 0, rounds=10)
    curve = example.train(40, 256, 0)
    assert 0.4 < chance < 0.55
    assert curve[-1][1] > chance + 0.15, (chance, curve)


def test_the_self_play_example_trains_and_judges_a_few_rounds() -> None:
    """examples/rl_self_play.py: one policy at every seat trains a few rounds at a few
    tables and is judged against a random and a greedy side (its docstring gives the
    curve of a long run, against HeuristicBots too)."""
    example = _example("rl_self_play")
    weights, curve = example.train(2, 4, 0, judge=4, bots=0)
    assert [hands for hands, _, _ in curve] == [0, 4, 8]
    assert all(0 <= share <= 1 for _, *shares in curve for share in shares)
    assert weights.shape == (563 + 1, 66) and weights.any()


@pytest.mark.parametrize("seats, steps", [((0, 2), 2 * 14), ((0, 1, 2, 3), 4 * 14)])
def test_several_learning_seats_take_their_turns_and_get_their_rewards(
    seats: tuple[int, ...], steps: int
) -> None:
    """With several learning seats each step is one decision at every table, by the
    learning seat to act there: ``info["seat"]`` names it, its observation is that
    seat's, the hand takes one bid and 13 cards of each learning seat, and at its end
    ``info["seat_rewards"]`` holds every seat's reward (its side's margin) and the hand
    replays through the step API."""
    env = VectorSpadesEnv(6, seat=seats, opponents="greedy")
    slots = env.encoding.slots
    rng = np.random.default_rng(3)
    observations, info = env.reset(seed=3)
    acted = []
    for step in range(steps):
        who = info["seat"]
        assert set(who.tolist()) <= set(seats)
        assert (observations[:, slots["seat"]].argmax(axis=1) == who).all()
        assert (observations[:, slots["to_act"]].argmax(axis=1) == who).all()
        acted.append(who)
        observations, rewards, ended, _, info = env.step(random_actions(info["action_mask"], rng))
        assert ended.all() == (step == steps - 1)
    per_seat = np.bincount(np.concatenate(acted), minlength=4)
    assert [int(per_seat[s]) for s in seats] == [6 * 14] * len(seats)
    margins = info["seat_rewards"]
    assert (rewards == margins[np.arange(6), acted[-1]]).all()
    for table in range(6):
        deal, dealer, actions = env.hand_actions(table)
        game = env.rules.new_game(deal=deal, dealer=dealer)
        for seat, action in actions:
            game = game.apply(action, seat)
        points = game.hand_results[0].points
        assert margins[table].tolist() == pytest.approx(
            [(points[s % 2] - points[1 - s % 2]) / 100 for s in range(4)]
        )
    with pytest.raises(spadeskit.SpadesError, match="a list of them"):
        VectorSpadesEnv(2, seat=(0, 0))


def test_match_episodes_score_and_end_as_the_rules_do() -> None:
    """In match episodes each table keeps its match: a hand scores as
    ``Rules.score_hand`` scores it from the scores and bags as they stood, the match
    goes on until the rules end it, and the table then starts a new one."""
    env = VectorSpadesEnv(
        24, episode="match", opponents="greedy", seat=3, autoreset_mode=AutoresetMode.SAME_STEP
    )
    rules = env.rules
    rng = np.random.default_rng(5)
    _, info = env.reset(seed=9)
    before = list(env.match)
    finished = 0
    for _ in range(40 * 14):
        _, reward, ended, _, info = env.step(random_actions(info["action_mask"], rng))
        if "final_obs" not in info:
            assert not ended.any()
            continue
        for table in range(env.num_envs):
            deal, dealer, actions = env.hand_actions(table)
            game = rules.new_game(deal=deal, dealer=dealer)
            for seat, action in actions:
                game = game.apply(action, seat)
            assert list(game.hand_results[0].books) == env.last_books[table].tolist()
            bids = [None] * env.n
            for seat, action in actions[: env.n]:
                bids[seat] = action
            books = env.last_books[table].tolist()
            old = before[table]
            expected = rules.score_hand(
                bids=bids, books=books, scores=old.scores, bags=old.bags, dealer=dealer
            )
            assert list(expected.points) == env.last_points[table].tolist()
            if ended[table]:
                finished += 1
                assert env.match[table].scores == (0,) * env.sides
            else:
                assert env.match[table].scores == expected.scores
                assert env.match[table].bags == expected.bags
        before = list(env.match)
    assert finished >= 10


def test_heuristic_opponents_play_legal_hands_that_replay() -> None:
    """With ``opponents="heuristic"`` every other seat is a HeuristicBot deciding from
    its view; the hands still replay to the same books and points."""
    env = VectorSpadesEnv(6, opponents="heuristic", seat=2)
    played = _hands(env, 2, seed=4)
    assert len(played) == 12
    for result, books, points, _ in played:
        assert list(result.books) == books.tolist() and list(result.points) == points.tolist()
    bids = [env.menu[k] for k in env.last["choice"][0].tolist()]
    assert all(b in env.menu for b in bids)


def _deals_of(env: VectorSpadesEnv) -> list[tuple[int, ...]]:
    return [tuple(row) for row in env.deals.tolist()]


def test_a_reset_without_a_seed_deals_new_hands() -> None:
    """Gymnasium's rule: ``reset(seed=None)`` carries on with the environment's deals,
    so every reset, seeded once or never, deals every table a hand it has not had."""
    for seed in (5, None):
        env = VectorSpadesEnv(8)
        env.reset(seed=seed)
        seen = set(_deals_of(env))
        for _ in range(3):
            env.reset()
            deals = set(_deals_of(env))
            assert len(deals) == 8 and not deals & seen
            seen |= deals


def test_two_environments_never_seeded_deal_different_hands() -> None:
    """An environment never seeded deals from a secret of its own, as ``new_game()``
    does without a seed."""
    a, b = VectorSpadesEnv(4), VectorSpadesEnv(4)
    a.reset()
    b.reset()
    assert not set(_deals_of(a)) & set(_deals_of(b))


def test_a_seeded_environment_still_depends_only_on_the_seed_and_i() -> None:
    """``reset(seed=s)`` then resets without a seed deal the same hands in any two
    environments, whatever came before, and table ``i`` is the same at any size."""
    a, b = VectorSpadesEnv(3), VectorSpadesEnv(6)
    b.reset()
    b.reset()
    rounds = []
    for env in (a, b):
        env.reset(seed=11)
        hands = [_deals_of(env)[:3]]
        for _ in range(2):
            env.reset()
            hands.append(_deals_of(env)[:3])
        rounds.append(hands)
    assert rounds[0] == rounds[1]
    assert len({deal for hands in rounds[0] for deal in hands}) == 9


def test_next_step_autoreset_is_the_default_and_same_step_an_option() -> None:
    """NEXT_STEP (Gymnasium's default): the step that ends the hands returns their last
    observations and the rewards; the next step ignores the actions and returns the next
    hands' first observations.  SAME_STEP does both on one step, the last observations in
    ``info["final_obs"]``.  Both deal the same hands."""
    nxt = VectorSpadesEnv(6, seat=1)
    same = VectorSpadesEnv(6, seat=1, autoreset_mode="SameStep")
    assert nxt.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert same.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert VectorSpadesEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    rng = np.random.default_rng(3)
    _, info = nxt.reset(seed=8)
    same.reset(seed=8)
    for _ in range(2):
        for _ in range(14):
            actions = random_actions(info["action_mask"], rng)
            a, reward_a, ended_a, _, info = nxt.step(actions)
            b, reward_b, ended_b, _, info_b = same.step(actions)
            assert np.array_equal(reward_a, reward_b) and np.array_equal(ended_a, ended_b)
        assert ended_a.all() and "final_obs" not in info
        assert np.array_equal(a, info_b["final_obs"]) and info_b["_final_obs"].all()
        first, reward, ended, truncated, info = nxt.step(np.full(6, 10**6))
        assert not reward.any() and not ended.any() and not truncated.any()
        assert np.array_equal(first, b)
        assert np.array_equal(info["action_mask"], info_b["action_mask"])


def test_match_episodes_at_many_tables_need_same_step_autoreset() -> None:
    with pytest.raises(spadeskit.SpadesError, match="SAME_STEP"):
        VectorSpadesEnv(4, episode="match")
    with pytest.raises(spadeskit.SpadesError, match="autoreset_mode"):
        VectorSpadesEnv(4, autoreset_mode="Disabled")
    VectorSpadesEnv(1, episode="match")


def _masks(info: Any) -> Any:
    """Return the action masks from ``info`` (a dict, or a list of dicts)."""
    if isinstance(info, list):
        return np.array([i["action_mask"] for i in info])
    return info["action_mask"]


STANDARD_WRAPPERS = {
    "RecordEpisodeStatistics": wrappers.RecordEpisodeStatistics,
    "NormalizeObservation": wrappers.NormalizeObservation,
    "NormalizeReward": wrappers.NormalizeReward,
    "DtypeObservation": lambda env: wrappers.DtypeObservation(env, np.float64),
    "RescaleObservation": lambda env: wrappers.RescaleObservation(env, -1.0, 1.0),
    "FlattenObservation": wrappers.FlattenObservation,
    "TransformObservation": lambda env: wrappers.TransformObservation(env, lambda o: 2 * o),
    "ClipReward": lambda env: wrappers.ClipReward(env, -1.0, 1.0),
    "TransformReward": lambda env: wrappers.TransformReward(env, lambda r: r / 2),
    "DictInfoToList": wrappers.DictInfoToList,
}


@pytest.mark.parametrize("name", sorted(STANDARD_WRAPPERS))
def test_gymnasiums_vector_wrappers_run_on_the_environment(name: str) -> None:
    env = STANDARD_WRAPPERS[name](VectorSpadesEnv(8, seat=3))
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    ends = 0
    for _ in range(45):
        observations, _, ended, _, info = env.step(random_actions(_masks(info), rng))
        ends += int(ended.all())
        assert observations.shape == (8, env.unwrapped.observation_size)
    assert ends == 3


def test_record_episode_statistics_counts_a_hand_and_its_reward() -> None:
    env = wrappers.RecordEpisodeStatistics(VectorSpadesEnv(8))
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=2)
    for _ in range(14):
        _, reward, ended, _, info = env.step(random_actions(info["action_mask"], rng))
    assert ended.all() and info["_episode"].all()
    assert info["episode"]["l"].tolist() == [14] * 8
    assert np.allclose(info["episode"]["r"], reward)


def test_render_shows_each_table_as_its_learning_seat_sees_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = VectorSpadesEnv(3, seat=2, render_mode="ansi")
    env.reset(seed=4)
    texts = env.render()
    assert texts is not None and len(texts) == 3
    for table, text in enumerate(texts):
        own = [c for c in range(54) if int(env.held[table, 2]) >> c & 1]
        others = [c for s in (0, 1, 3) for c in range(54) if int(env.held[table, s]) >> c & 1]
        words = set(text.replace(",", " ").split())
        assert set(_codes(own)) <= words
        assert not set(_codes(others)) & words
    loud = VectorSpadesEnv(2, render_mode="human")
    loud.reset(seed=4)
    assert loud.render() is None and "table 1" in capsys.readouterr().out
    assert VectorSpadesEnv(2).render() is None
    with pytest.raises(spadeskit.SpadesError, match="render_mode"):
        VectorSpadesEnv(2, render_mode="rgb_array")


def _codes(indices: list[int]) -> list[str]:
    from spadeskit.core.cards import card_at

    return [card_at(i).code for i in indices]


def test_one_table_plays_match_episodes_with_next_step_autoreset() -> None:
    """At one table a match episode ends on the step its last hand ends; only then does
    the next step ignore its action and start a new match."""
    env = VectorSpadesEnv(1, episode="match", options={"target": 200}, seat=1)
    rng = np.random.default_rng(6)
    _, info = env.reset(seed=6)
    steps = hands = 0
    while True:
        _, reward, ended, _, info = env.step(random_actions(info["action_mask"], rng))
        steps += 1
        hands += steps % 14 == 0
        assert (reward[0] == 0 or steps % 14 == 0) and (not ended[0] or steps % 14 == 0)
        if ended[0]:
            break
    assert hands >= 2 and env.match[0].scores == (0,) * env.sides
    first, reward, ended, _, info = env.step(np.array([0]))
    match = first[0, env.encoding.slots["scores"].start :].tolist()
    assert not reward.any() and not ended.any() and match == [0] * (2 * env.sides + 1)
    assert info["action_mask"][0, 52:].all() and not info["action_mask"][0, :52].any()
