"""One encoding (spadeskit.engine.encoding): a rule set's action ids and observation
slots, the same in every front end.  An observation and an action id mean the same in
the vector environment, the single-table environment, the PettingZoo environment and the
OpenSpiel game; standard Spades has OpenSpiel's own 66 ids; discards and exchanges are
picked card by card."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spadeskit
from spadeskit.core.actions import Bid, Discard, Exchange, Nil, Play
from spadeskit.core.cards import card_at
from spadeskit.engine.encoding import PHASES, encoding_for


def test_standard_has_openspiels_66_ids_and_every_rule_set_numbers_cards_by_index() -> None:
    encoding = encoding_for(spadeskit.load_rules("standard"))
    assert encoding.num_actions == 66 and encoding.cards == 52
    assert encoding.action_id(Nil()) == 52
    assert [encoding.action_id(Bid(k)) for k in range(1, 14)] == list(range(53, 66))
    assert encoding.action_of(0) == Play("2C") and encoding.action_of(51) == Play("AS")
    jokers = encoding_for(spadeskit.load_rules("standard", ["jokers"]))
    assert (
        jokers.cards == 54
        and jokers.action_of(52) == Play("LJ")
        and jokers.action_of(53) == Play("BJ")
    )
    for number in range(encoding.num_actions):
        assert encoding.action_id(encoding.action_of(number)) == number
    with pytest.raises(spadeskit.IllegalAction):
        encoding.action_of(66)
    with pytest.raises(spadeskit.SpadesError, match="card by card"):
        encoding.action_id(Discard(["AS", "KS"]))


def test_the_slots_tile_the_observation_and_equal_rules_share_one_encoding() -> None:
    rules = spadeskit.load_rules("three-suit-trump")
    encoding = encoding_for(rules)
    assert encoding is encoding_for(spadeskit.load_rules("three-suit-trump"))
    assert encoding.picks and "picked" in encoding.slots
    at = 0
    for block in encoding.slots.values():
        assert block.start == at
        at = block.stop
    assert at == encoding.observation_size
    assert encoding.slots["phase"].stop - encoding.slots["phase"].start == len(PHASES)
    assert "picked" not in encoding_for(spadeskit.load_rules("standard")).slots


def test_offers_that_depend_on_the_score_and_plugin_actions_are_numbered() -> None:
    """Blind nil offered only to a side 10,000 points behind: the probe hands with a side
    that far behind meet it, so it has an id.  A plugin's own action type (blind-bids'
    blind bids, offered to a side 100 behind) is numbered after the core's actions, in
    order, with a bid slot."""
    rules = spadeskit.load_rules("standard", ["blind-nil"], {"blind_nil_trailing": 10_000})
    calls = {str(call) for call in encoding_for(rules).calls}
    assert {"blind nil", "see cards"} <= calls
    blind = encoding_for(spadeskit.load_rules("standard", ["blind-bids"], {"max_blind": 8}))
    assert [str(call) for call in blind.calls[-3:]] == ["blind 6", "blind 7", "blind 8"]
    assert all(call in blind.bid_slots for call in blind.calls[-3:])


@pytest.mark.parametrize(
    "variant, house, seat",
    [("standard", (), 0), ("standard", ("jokers",), 3), ("cutthroat", (), 1)],
)
def test_an_observation_and_an_action_mean_the_same_in_the_four_front_ends(
    variant: str, house: tuple[str, ...], seat: int
) -> None:
    """Play hands in the vector environment, then replay each, action by action, through
    the single-table environment, the PettingZoo environment and the OpenSpiel game: at
    every decision of the learning seat all four show the observation its view encodes
    to and the same legal ids, the id the vector environment took is the action replayed,
    and the hand ends with the same reward everywhere."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    pyspiel = pytest.importorskip("pyspiel")
    import spadeskit.interop.openspiel  # noqa: F401  (registers the game)
    from spadeskit.interop.pettingzoo import env as pettingzoo_env
    from spadeskit.rl import SpadesEnv, VectorSpadesEnv, random_actions

    vector = VectorSpadesEnv(3, variant, house, seat=seat, opponents="greedy")
    single = SpadesEnv(variant, house, seat=seat)
    zoo = pettingzoo_env(variant, house, match=False)
    spiel = pyspiel.load_game(
        "python_spadeskit",
        {"variant": variant, "house_rules": "+".join(house), "options": "{}", "match": False},
    )
    encoding = vector.encoding
    assert single.encoding is encoding and zoo.encoding is encoding
    assert spiel.encoding is encoding and spiel.num_distinct_actions() == encoding.num_actions
    rng = np.random.default_rng(4)
    observations, info = vector.reset(seed=4)
    seen = [(observations, info["action_mask"])]
    taken = []
    for _ in range(vector.tricks + 1):
        actions = random_actions(info["action_mask"], rng)
        taken.append(actions)
        observations, rewards, ended, _, info = vector.step(actions)
        seen.append((observations, info["action_mask"]))
    assert ended.all()
    agent = f"player_{seat}"
    for table in range(vector.num_envs):
        deal, dealer, actions = vector.hand_actions(table)
        game = vector.rules.new_game(deal=deal, dealer=dealer)
        single.game, single._over, single._reward = game, False, 0.0
        single._new_hand()
        zoo.reset(seed=0)
        zoo.game = game
        zoo.agent_selection = zoo._agent_to_act()
        state = spiel.new_initial_state()
        state.game = game
        turn = 0
        for who, action in actions:
            number = encoding.action_id(action)
            if who == seat:
                single._info()
                wanted, mask = seen[turn][0][table], seen[turn][1][table]
                fronts = {
                    "view": np.asarray(encoding.observation(game.view(seat)), np.float32),
                    "single": single._observe(),
                    "pettingzoo": zoo.observe(agent)["observation"],
                    "openspiel": np.asarray(state.observation_tensor(seat), np.float32),
                }
                for name, observation in fronts.items():
                    assert np.array_equal(observation, wanted), (name, turn)
                legal = np.flatnonzero(mask).tolist()
                assert np.flatnonzero(single._legal).tolist() == legal
                assert np.flatnonzero(zoo.observe(agent)["action_mask"]).tolist() == legal
                assert state.legal_actions() == legal
                assert int(taken[turn][table]) == number
                turn += 1
            single._apply(action, who)
            assert zoo.agent_selection == f"player_{who}" and state.current_player() == who
            zoo.step(number)
            state.apply_action(number)
            game = game.apply(action, who)
        assert turn == vector.tricks + 1 and single._over and state.is_terminal()
        assert np.array_equal(single._observe(final=True), seen[-1][0][table])
        assert single._reward == pytest.approx(rewards[table])
        assert zoo.rewards[agent] == pytest.approx(rewards[table])
        assert state.returns()[seat] == pytest.approx(100 * rewards[table])


def _to_the_cards_owed(env: object, rng: random.Random) -> bool:
    """Play a PettingZoo environment at random until a seat owes a discard or an
    exchange; return whether one does."""
    for _ in range(400):
        game = env.game  # type: ignore[attr-defined]
        if game.steps:
            return True
        if game.is_over:
            return False
        observation = env.observe(env.agent_selection)  # type: ignore[attr-defined]
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        env.step(rng.choice(legal))  # type: ignore[attr-defined]
    return False


def _kitty() -> object:
    """Return the kitty house rule of ``docs/examples/kitty.py`` (a discard before the
    auction)."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "docs" / "examples" / "kitty.py"
    spec = importlib.util.spec_from_file_location("kitty_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "variant, house, options",
    [
        ("three-suit-trump", (), {}),
        ("standard", ("blind-nil",), {}),
        ("standard", ("blind-nil",), {"blind_nil_exchange": "simultaneous"}),
        ("cutthroat", ("kitty",), {}),
    ],
)
def test_discards_and_exchanges_are_picked_card_by_card(
    variant: str, house: tuple[str, ...], options: dict[str, str]
) -> None:
    """Each seat that owes cards (in turn, or in a group of simultaneous steps, or a
    kitty's discard before the auction) picks them one id at a time: a pick shows in
    its observation and is no longer legal, a card it does not hold is refused with
    nothing changed, and the last pick makes the discard or exchange."""
    pytest.importorskip("pettingzoo")
    from spadeskit.interop.pettingzoo import env as pettingzoo_env

    env = pettingzoo_env(variant, [_kitty() if h == "kitty" else h for h in house], options)
    rng = random.Random(3)
    assert any(env.reset(seed=seed) or _to_the_cards_owed(env, rng) for seed in range(40))
    encoding, picked = env.encoding, env.encoding.slots["picked"]
    made = 0
    while env.game.steps:
        game = env.game
        seat = int(game.to_act)
        agent = f"player_{seat}"
        step = next(s for s in game.steps if s.seat == seat and s.chosen is None)
        held = [c.index for c in game.cards(seat)]
        assert np.flatnonzero(env.observe(agent)["action_mask"]).tolist() == held
        stranger = next(i for i in range(encoding.cards) if i not in held)
        with pytest.raises(spadeskit.IllegalAction, match=f"pick {card_at(stranger)}"):
            env.step(stranger)
        chosen = rng.sample(held, step.count)
        for pick in chosen[:-1]:
            env.step(pick)
            observation = env.observe(agent)
            assert env.game is game and env.agent_selection == agent
            assert pick in np.flatnonzero(observation["observation"][picked]).tolist()
            assert pick not in np.flatnonzero(observation["action_mask"]).tolist()
        env.step(chosen[-1])
        kind = Discard if step.kind == "discard" else Exchange
        assert env.game == game.apply(kind([card_at(i) for i in chosen]), seat)
        made += 1
    assert made >= 1
