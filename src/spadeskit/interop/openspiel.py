"""Every spadeskit rule set as an OpenSpiel game (the ``openspiel`` extra)::

    import pyspiel
    import spadeskit.interop.openspiel  # registers "python_spadeskit" on import

    game = pyspiel.load_game("python_spadeskit", {"variant": "jjdd", "house_rules": "",
                                                  "options": "{}", "match": False})

Parameters: ``variant``, ``house_rules`` (names separated by ``+``, ``;`` or ``,``:
OpenSpiel game strings cannot hold commas, so write ``blind-nil+hidden-bids`` there),
``options`` (a JSON object, or ``target:300;floor:none`` in game strings) and ``match``
(``False``: one hand, returns are each player's side's points minus the best other
side's; ``True``: a whole match, +1 to the winner's players and -1 to the others).  The
deal is a chance node per card (hands in seat order, then the blind, then the pile, top
card first), uniform over the cards not yet dealt.  Actions are the rule set's
:class:`~spadeskit.engine.encoding.Encoding` (``game.encoding``), the ids every spadeskit
front end shares: for standard Spades, the 66 of OpenSpiel's own ``spades``; a discard or
an exchange is picked card by card, one decision a card.  Observation tensors are that
encoding's slots, and strings come from the player's own
:class:`~spadeskit.core.views.View`, through an observer.

``resample_from_infostate`` draws a deal uniformly among those consistent with the
player's view (:mod:`spadeskit.bots.inference`), for OpenSpiel's Python ISMCTS; one-hand games
of the variants without a draw pile.  OpenSpiel's C++ MCTS and ISMCTS do not run on
Python games: use ``open_spiel.python.algorithms.mcts`` and ``.ismcts``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import numpy as np
import pyspiel

from spadeskit.bots.search import Determinizer
from spadeskit.core.cards import card_at
from spadeskit.core.errors import GameOver, IllegalAction, SpadesError, shown
from spadeskit.core.state import GameState
from spadeskit.engine.encoding import Encoding, encoding_for
from spadeskit.engine.loader import load_rules
from spadeskit.engine.rules import Rules
from spadeskit.interop import arrays

__all__ = ["GAME_TYPE", "SpadeskitGame", "SpadeskitState", "register"]

DEFAULTS = {"variant": "standard", "house_rules": "", "options": "{}", "match": False}

GAME_TYPE = pyspiel.GameType(
    short_name="python_spadeskit",
    long_name="spadeskit Spades (every variant and house rule)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)


def register() -> None:
    """Register ``python_spadeskit`` with OpenSpiel (importing this module already has;
    calling it again does nothing)."""
    if "python_spadeskit" not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, SpadeskitGame)


def _rules(params: dict[str, Any]) -> tuple[Rules, bool]:
    merged = {**DEFAULTS, **(params or {})}
    house = [h.strip() for h in re.split(r"[+;,]", str(merged["house_rules"])) if h.strip()]
    return load_rules(str(merged["variant"]), house, _options(merged["options"])), bool(
        merged["match"]
    )


def _options(text: Any) -> dict[str, Any]:
    """Read options given as a JSON object or as ``name:value;name:value`` (the form to
    use in OpenSpiel game strings, which cannot hold commas or ``=``; ``=`` works in a
    parameter dictionary)."""
    if isinstance(text, dict):
        return text
    text = str(text).strip()
    if text.startswith("{"):
        try:
            found = json.loads(text)
        except ValueError as exc:  # bad JSON, or a number of thousands of digits
            raise SpadesError(
                f"options must be a JSON object, like '{{\"target\": 300}}', or "
                f"'target:300;floor:none': {exc}"
            ) from exc
        if not isinstance(found, dict):
            raise SpadesError("options must be a JSON object")
        return found
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, eq, value = part.partition("=") if "=" in part else part.partition(":")
        if not eq:
            raise SpadesError(f"options are name:value;name:value or a JSON object, not {part!r}")
        if value.strip().lower() in ("none", "null"):
            options[name.strip()] = None
            continue
        try:
            options[name.strip()] = json.loads(value)
        except ValueError:  # a word, or a number of thousands of digits: the text itself
            options[name.strip()] = value.strip()
    return options


class SpadeskitGame(pyspiel.Game):  # type: ignore[misc]
    """A spadeskit rule set as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules, self.match = _rules(params or {})
        self.encoding: Encoding = encoding_for(self.rules)
        """The action ids and observation slots (:mod:`spadeskit.engine.encoding`)."""
        table = self.rules.table
        deck = len(table.deck)
        hands = 1 if not self.match else 60
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=54,
            num_players=table.players,
            min_utility=-1.0 if self.match else -5000.0,
            max_utility=1.0 if self.match else 5000.0,
            utility_sum=None,
            max_game_length=hands * (deck + 80),
        )
        super().__init__(GAME_TYPE, info, params or dict(DEFAULTS))

    def new_initial_state(self) -> SpadeskitState:
        return SpadeskitState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpadeskitObserver:
        return SpadeskitObserver(self.encoding, iig_obs_type, params)


class SpadeskitState(pyspiel.State):  # type: ignore[misc]
    """The state: the cards dealt so far (chance), then a spadeskit :class:`GameState`
    (and the cards picked so far for a discard or exchange owed)."""

    def __init__(self, game: SpadeskitGame) -> None:
        super().__init__(game)
        self._spec = game
        self.rules = game.rules
        self.encoding = game.encoding
        self.match = game.match
        self.game: GameState | None = None  # None while the first hand is dealt
        self.dealt: list[int] = []  # the hand being dealt by chance
        self.picked: tuple[int, ...] = ()  # cards picked for a discard or exchange owed
        self.hands_done = 0

    # -- chance ------------------------------------------------------------------------

    def _dealing(self) -> bool:
        return len(self.dealt) < len(self.rules.table.deck) and (
            self.game is None or len(self.game.match.results) > self.hands_done
        )

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c.index for c in self.rules.table.deck if c.index not in self.dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _deal_lists(self) -> tuple[list[list[str]], list[str], list[str]]:
        table = self.rules.table
        size, n = table.deal.hand_size, table.players
        codes = [card_at(c).code for c in self.dealt]
        hands = [codes[s * size : (s + 1) * size] for s in range(n)]
        rest = codes[n * size :]
        return hands, rest[: table.deal.blind], rest[table.deal.blind :]

    def _finish_deal(self) -> None:
        hands, blind, pile = self._deal_lists()
        if self.game is None:
            self.game = self.rules.new_game(deal=hands, blind=blind, pile=pile)
        else:
            # The next hand of a match: replay the record with this deal added.
            record = self.game.to_record()
            record["deals"] = list(record["deals"] or []) + [hands + [blind, pile]]
            self.game = _replay_unchecked(record, self.rules)
            self.hands_done = len(self.game.match.results)
        self.dealt = []

    # -- the OpenSpiel API -------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.game is None or self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.game.to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None
        return self.encoding.legal_ids(self.game, player, self.picked)

    def _apply_action(self, action: int) -> None:
        """Apply an action id; one that is not legal here (a card already dealt, a move
        after the end, an id of no action) raises a typed error and changes nothing."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalAction(f"an OpenSpiel action is an int id, not {shown(action, 40)}")
        action = int(action)
        if self.is_terminal():
            raise GameOver(f"action {action} refused: the game is over")
        if self.game is None or self._dealing():
            if action not in {card for card, _ in self.chance_outcomes()}:
                raise IllegalAction(
                    f"chance outcome {action} is not a card left to deal "
                    f"(cards are ids 0-53; {len(self.dealt)} dealt so far)",
                    code=None if 0 <= action < 54 else "not-an-action",
                )
            self.dealt.append(action)
            if len(self.dealt) == len(self.rules.table.deck):
                try:
                    self._finish_deal()
                except BaseException:
                    self.dealt.pop()
                    raise
            return
        seat = self.game.to_act
        assert seat is not None
        if action not in self._legal_actions(seat):
            # Refused as the step API refuses it: the same class and reason code.
            raise self.encoding.refusal(self.game, seat, action, self.picked)
        chosen, self.picked = self.encoding.decide(self.game, seat, action, self.picked)
        if chosen is None:
            return  # a card picked for a discard or exchange that wants more
        self.game = self.game.apply(chosen, seat)
        if not self.match and self.game.match.results:
            return
        if self.match and len(self.game.match.results) > self.hands_done and not self.game.is_over:
            self.dealt = []  # the next hand is dealt by chance nodes

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {card_at(action).code}"
        try:
            chosen = self.encoding.action_of(action)
        except SpadesError:
            return "no action"
        game = self.game
        if game is not None and action < self.encoding.cards and game.steps:
            step = game.steps[0]
            if step.seat == player and game.to_act == player:
                return f"pick {card_at(action).code} to {step.kind}"
        return str(chosen)

    def is_terminal(self) -> bool:
        if self.game is None:
            return False
        if self.match:
            return self.game.is_over
        return bool(self.game.match.results)

    def returns(self) -> list[float]:
        n = self.rules.table.players
        if not self.is_terminal() or self.game is None:
            return [0.0] * n
        side_of = self.rules.side_of
        if self.match:
            winner = self.game.winner
            return [1.0 if side_of[s] == winner else -1.0 for s in range(n)]
        result = self.game.match.results[0]
        unit = self.rules.table.score_unit
        out = []
        for s in range(n):
            side = side_of[s]
            others = [p for i, p in enumerate(result.points) if i != side]
            out.append((result.points[side] - max(others)) / unit if others else 0.0)
        return out

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpadeskitState:
        """Return a state the player cannot tell from this one, its hidden cards drawn
        uniformly among those consistent with the player's view."""
        if self.game is None or self._dealing() or self.match:
            raise SpadesError("resampling works on one-hand games, after the deal")
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else 0
        rng = random.Random(seed)
        view = self.game.view(player_id)
        sampled = Determinizer(view, self.rules, rng).sample(rng)
        state = SpadeskitState(self._spec)
        state.game = sampled
        state.picked = self.picked
        return state

    def __deepcopy__(self, memo: Any) -> SpadeskitState:
        # States are immutable underneath: a copy shares them.
        copy = SpadeskitState(self._spec)
        copy.game = self.game
        copy.dealt = list(self.dealt)
        copy.picked = self.picked
        copy.hands_done = self.hands_done
        return copy

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: {len(self.dealt)} cards dealt"
        game = self.game
        names = self.rules.table.seat_names
        hands = "  ".join(
            f"{names[s]}: {' '.join(c.code for c in game.cards(s))}" for s in range(len(names))
        )
        where = f"hand {game.number + 1}, {game.phase.value}"
        return f"{self.rules.name} {where}; {hands}; scores {game.scores}"


def _replay_unchecked(record: dict[str, Any], rules: Rules) -> GameState:
    """Replay a record to which a deal was just added (its digest describes the record
    before that deal, so it is not checked; every action still is)."""
    from spadeskit.engine.replay import replay_steps

    last = None
    for step in replay_steps(record, rules, None, check_digest=False):
        last = step.state
    assert last is not None
    return last


class SpadeskitObserver:
    """Observations of what a player may know: a tensor (the slots of
    :mod:`spadeskit.engine.encoding`) and a string (the view's hand, trick and events)."""

    def __init__(self, encoding: Encoding, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, not {params!r}")
        self.encoding = encoding
        self.tensor = np.zeros(encoding.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpadeskitState, player: int) -> None:
        self.tensor.fill(0)
        if state.game is not None and not state._dealing():
            picked = state.picked if state.game.to_act == player else ()
            self.tensor[:] = arrays.observe(self.encoding, state.game, player, picked)

    def string_from(self, state: SpadeskitState, player: int) -> str:
        if state.game is None:
            return f"p{player} waiting for the deal"
        game = state.game
        match = (
            f"hand {game.number + 1}, dealer {game.dealer}, scores "
            f"{'/'.join(map(str, game.scores))}, bags {'/'.join(map(str, game.bags))}"
        )
        if state._dealing():
            return f"p{player} waiting for the deal; {match}"
        view = game.view(player)
        cards = " ".join(c.code for c in view.cards)
        events = "; ".join(e.text for e in view.events)
        picked = ""
        if state.picked and game.to_act == player:
            picked = " picked " + " ".join(card_at(c).code for c in state.picked)
        return f"p{player} {match} [{cards}]{picked} {events}"


# As OpenSpiel's own Python games do: importing the adapter registers the game.
register()
