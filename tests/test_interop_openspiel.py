"""The OpenSpiel adapter (the ``openspiel`` extra; CI installs it and runs this file)."""

from __future__ import annotations

import copy
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import spadeskit  # noqa: E402
import spadeskit.interop.openspiel  # noqa: E402, F401  (registers the game)

VARIANTS = ["standard", "jjdd", "cutthroat", "two-handed", "three-suit-trump", "call-break"]


def load(variant: str, house: str = "", options: str = "{}", match: bool = False) -> object:
    return pyspiel.load_game(
        "python_spadeskit",
        {"variant": variant, "house_rules": house, "options": options, "match": match},
    )


def deal(state: object, rng: random.Random) -> object:
    while state.is_chance_node():  # type: ignore[attr-defined]
        outcomes, _ = zip(*state.chance_outcomes())  # type: ignore[attr-defined]
        state.apply_action(rng.choice(outcomes))  # type: ignore[attr-defined]
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiels_random_simulation_checks_pass_on_every_variant(variant: str) -> None:
    pyspiel.random_sim_test(load(variant), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(
    "house", ["blind-nil", "hidden-bids+partnership-nil", "mirror", "jokers;no-bags"]
)
def test_house_rules_load_through_the_parameters(house: str) -> None:
    pyspiel.random_sim_test(load("standard", house), num_sims=1, serialize=False, verbose=False)


def test_whole_matches_return_plus_or_minus_one() -> None:
    game = load("standard", options='{"target": 150}', match=True)
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert sorted(returns) == [-1.0, -1.0, 1.0, 1.0] and returns[0] == returns[2]


def test_one_hand_returns_are_score_margins_and_the_action_numbering_is_the_documented_one() -> (
    None
):
    game = load("standard")
    encoding = game.encoding
    assert game.num_distinct_actions() == 66 == pyspiel.load_game("spades").num_distinct_actions()
    state = deal(game.new_initial_state(), random.Random(1))
    assert state.legal_actions() == sorted(
        encoding.action_id(a) for a in state.game.legal_actions()
    )
    assert state.action_to_string(state.current_player(), 52 + 4) == "bid 4"
    assert state.action_to_string(state.current_player(), 52) == "nil"
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    result = state.game.hand_results[0]
    assert state.returns()[0] == result.points[0] - result.points[1] == -state.returns()[1]


def test_observations_and_information_states_come_from_the_players_view() -> None:
    game = load("standard")
    state = deal(game.new_initial_state(), random.Random(3))
    tensor = np.asarray(state.observation_tensor(0))
    assert tensor.shape == (game.encoding.observation_size,)
    held = [c.index for c in state.game.cards(0)]
    assert all(tensor[i] == 1 for i in held) and tensor[:52].sum() == 13
    assert "p1" in state.information_state_string(1)
    assert np.asarray(state.information_state_tensor(1))[:52].sum() == 13


def test_states_copy_cheaply_and_independently() -> None:
    state = deal(load("standard").new_initial_state(), random.Random(5))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.game is not clone.game and len(state.history()) + 1 == len(clone.history())
    assert copy.deepcopy(state).game is state.game


def test_openspiels_python_mcts_and_ismcts_play_whole_hands() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("standard")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    uct = mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=np.random.RandomState(1))
    infoset = ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=np.random.RandomState(1))
    state = deal(game.new_initial_state(), random.Random(6))
    while not state.is_terminal():
        bot = infoset if state.current_player() % 2 == 0 else uct
        state.apply_action(bot.step(state))
    assert sum(state.returns()) == 0


def test_resampling_keeps_what_the_player_saw_and_redraws_the_rest() -> None:
    state = deal(load("jjdd").new_initial_state(), random.Random(7))
    rng = random.Random(8)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    draws = [state.resample_from_infostate(player, random.random) for _ in range(20)]
    for other in draws:
        assert other.game.cards(player) == state.game.cards(player)
        assert (
            other.game.tricks == state.game.tricks
            and other.legal_actions() == state.legal_actions()
        )
    assert len({other.game.hands for other in draws}) > 1


def test_bad_parameters_are_refused_with_a_spadeskit_error() -> None:
    with pytest.raises(spadeskit.SpadesError):
        load("bridge")
    with pytest.raises(spadeskit.SpadesError, match="options must be a JSON object"):
        load("standard", options="{target: 3")
    game = pyspiel.load_game(
        "python_spadeskit(variant=standard,house_rules=blind-nil+no-bags,"
        "options=target:300;floor:none,match=True)"
    )
    assert game.rules.options["target"] == 300 and game.rules.options["floor"] is None
    assert game.rules.house_rules == ("blind-nil", "no-bags")


def test_standard_agrees_with_openspiels_own_spades_wherever_the_rules_coincide() -> None:
    """Same deal, same choices, same action ids: OpenSpiel's ``spades`` and
    ``python_spadeskit`` offer the same plays whenever a player follows to a trick, and
    the same score margin at the end.  They differ, as documented, where OpenSpiel's
    rules do: it restricts a side's bids (a subset of ours) and never lets a player lead
    a spade after spades are broken; and it counts a failed nil's tricks for the partner,
    which is our option ``nil_tricks="partner"``."""
    theirs_game = pyspiel.load_game("spades")
    ours_game = load("standard", options='{"nil_tricks": "partner"}')
    follows = 0
    for seed in range(12):
        rng = random.Random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        theirs, ours = theirs_game.new_initial_state(), ours_game.new_initial_state()
        for card in deck:  # OpenSpiel deals round robin; we deal hands in seat order
            theirs.apply_action(card)
        for seat in range(4):
            for k in range(13):
                ours.apply_action(deck[4 * k + seat])
        while not theirs.is_terminal():
            assert theirs.current_player() == ours.current_player()
            their_legal, our_legal = theirs.legal_actions(), ours.legal_actions()
            if their_legal[0] >= 52:  # a bid: 52 is nil, 52 + k bids k, in both games
                assert set(their_legal) <= set(our_legal)
                choice = rng.choice(their_legal)
                theirs.apply_action(choice)
                ours.apply_action(choice)
                continue
            if ours.game.trick:
                assert their_legal == our_legal
                follows += 1
            else:
                assert set(their_legal) <= set(our_legal)
                assert all(
                    spadeskit.core.cards.card_at(a).suit is spadeskit.Suit.SPADES
                    for a in set(our_legal) - set(their_legal)
                )
            choice = rng.choice(sorted(set(their_legal) & set(our_legal)))
            theirs.apply_action(choice)
            ours.apply_action(choice)
        assert ours.is_terminal()
        their_returns = theirs.returns()
        assert ours.returns()[0] == their_returns[0] - their_returns[1]
    assert follows > 400


def test_every_id_that_is_not_legal_is_refused_with_the_state_unchanged() -> None:
    """Hardening (round 3): duplicate cards, non-cards, illegal moves and moves after the
    end raise a typed error, and the state is as it was."""
    state = load("standard").new_initial_state()
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    for bad in (first, 54, 3000):
        before = str(state), len(state.history())
        with pytest.raises(spadeskit.SpadesError):
            state.apply_action(bad)
        assert (str(state), len(state.history())) == before
    with pytest.raises(Exception):  # OpenSpiel refuses -1 (kInvalidAction) itself
        state.apply_action(-1)
    assert len(state.history()) == 1
    deal(state, random.Random(1))
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.get_game().num_distinct_actions()) if a not in legal)
    before = str(state)
    with pytest.raises(spadeskit.IllegalAction, match="is not legal"):
        state.apply_action(illegal)
    assert str(state) == before
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(spadeskit.GameOver):
        state.apply_action(state.history()[-1])


def _second_hand(rng_seed: int) -> object:
    """Play a match's first hand at random (its deal the same every time), then deal the
    second hand the same way every time: only the match so far differs."""
    game = load("standard", options='{"floor": -10000}', match=True)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    rng, chance = random.Random(rng_seed), random.Random(0)
    while state.is_chance_node() or state.game.number == 0:
        if state.is_chance_node():
            state.apply_action(chance.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_match_mode_observations_include_the_match_so_far() -> None:
    """In match mode the information state and tensor hold the scores, bags, hand number
    and dealer: two matches that differ only in their first hand never look alike."""
    seen: dict[tuple[int, ...], tuple[str, tuple[float, ...]]] = {}
    for seed in range(8):
        state = _second_hand(seed)
        game = state.game  # type: ignore[attr-defined]
        assert game.number == 1
        text = state.information_state_string(0)  # type: ignore[attr-defined]
        tensor = tuple(state.information_state_tensor(0))  # type: ignore[attr-defined]
        assert f"scores {'/'.join(map(str, game.scores))}" in text
        seen[tuple(game.scores) + tuple(game.bags)] = (text, tensor)
    assert len(seen) >= 3
    assert len({text for text, _ in seen.values()}) == len(seen)
    assert len({tensor for _, tensor in seen.values()}) == len(seen)


def test_importing_the_adapter_registers_the_game_and_register_is_idempotent() -> None:
    """As OpenSpiel's own Python games do: a fresh interpreter that imports the adapter
    loads ``python_spadeskit`` with no other call; ``register()`` again does nothing."""
    import subprocess
    import sys

    code = (
        "import pyspiel, spadeskit.interop.openspiel as a; a.register(); a.register(); "
        "g = pyspiel.load_game('python_spadeskit'); print(g.num_distinct_actions())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "66"
    assert "python_spadeskit" in pyspiel.registered_names()
