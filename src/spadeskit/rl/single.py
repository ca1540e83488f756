"""One table as a Gymnasium environment: :class:`SpadesEnv` (the ``rl`` extra), registered
as ``spadeskit/Spades-v0`` when :mod:`spadeskit.rl` is imported.

It is the game of :class:`~spadeskit.rl.VectorSpadesEnv` at one table, played through the
step API (:meth:`GameState.apply <spadeskit.core.state.GameState.apply>`): the same rule
sets, the same learning seats (one, a side, or all of them) and opponents (``"random"``,
``"greedy"``, ``"heuristic"``), the same episodes (a hand, or with ``episode="match"`` a
match), the same rewards (``info["seat"]`` names the learning seat to act,
``info["seat_rewards"]`` gives every seat's at a hand's end), and the same action ids
and observation slots: the rule set's :class:`~spadeskit.engine.encoding.Encoding`
(``env.encoding``), shared by every spadeskit front end (a test plays the same hands
through the four of them and compares every observation and action).

``info["action_mask"]`` (int8, as :meth:`Discrete.sample
<gymnasium.spaces.Discrete.sample>` takes it) and :meth:`SpadesEnv.action_masks` (bool, as
sb3-contrib's ``MaskablePPO`` asks for it) mark the legal actions.  An action outside
the action space always raises :class:`~spadeskit.core.errors.IllegalAction`.  A legal
id that is not legal now is handled by ``illegal_action``:

* ``"raise"`` (the default): :class:`~spadeskit.core.errors.IllegalAction`, naming the
  action and the seat; nothing changes.
* ``"penalty"``: nothing changes, the reward is ``-penalty`` (1.0 by default) and
  ``info["illegal"]`` is true.
* ``"random-legal"``: a uniformly random legal action (from the environment's
  ``np_random``) is taken instead, and ``info["illegal"]`` is true.

The last two let checkers that sample unmasked actions, such as Gymnasium's
:func:`~gymnasium.utils.env_checker.check_env`, run.

:meth:`~SpadesEnv.reset` with a seed starts the deals (and the opponents' choices) of
that seed; without one it deals the next hand of the environment's generator, and an
environment never seeded takes its generator's seed from the OS, so its deals cannot be
predicted.  After an episode ends, call :meth:`~SpadesEnv.reset` (a vector of these
environments does so itself).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from numpy.typing import NDArray

from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.core.actions import PLAYS, Action, Play
from spadeskit.core.cards import card_at
from spadeskit.core.errors import IllegalAction, SpadesError, shown
from spadeskit.core.phase import Phase
from spadeskit.core.state import GameState
from spadeskit.engine.encoding import PHASES
from spadeskit.engine.loop import greedy_follow
from spadeskit.rl.vector import RENDER_MODES, VectorSpadesEnv

__all__ = ["ILLEGAL_ACTIONS", "SpadesEnv"]

ILLEGAL_ACTIONS = ("raise", "penalty", "random-legal")
"""What :class:`SpadesEnv` does with an action that is not legal now."""


_PLAY_SLOT = PHASES.index(Phase.PLAY)


def _bits(mask: int, width: int) -> NDArray[np.uint8]:
    """Return a card mask as ``width`` zeros and ones, by card index (one unpacking of
    its bytes: a few times faster than shifting a numpy array for one row)."""
    packed = np.frombuffer(mask.to_bytes(7, "little"), np.uint8)
    bits: NDArray[np.uint8] = np.unpackbits(packed, count=width, bitorder="little")
    return bits


class SpadesEnv(gym.Env[NDArray[np.float32], np.int64]):  # type: ignore[misc,unused-ignore]
    """One table of a spadeskit rule set, its learning seats (see the module)."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        variant: str = "standard",
        house_rules: Sequence[str] = (),
        options: dict[str, Any] | None = None,
        *,
        seat: int | Sequence[int] = 0,
        opponents: str = "random",
        episode: str = "hand",
        illegal_action: str = "raise",
        penalty: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise SpadesError(
                f"illegal_action is {', '.join(map(repr, ILLEGAL_ACTIONS))}, not "
                f"{shown(illegal_action, 30)}"
            )
        if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or penalty < 0:
            raise SpadesError(f"penalty is a number, 0 or more, not {shown(penalty, 30)}")
        # The vector environment at one table checks the rule set and the options, and
        # holds the layout both share (the menu, the spaces, the scaling).
        self.layout = VectorSpadesEnv(
            1,
            variant,
            house_rules,
            options,
            seat=seat,
            opponents=opponents,
            episode=episode,
            render_mode=render_mode,
        )
        """The same game at one table of the vector environment: its rules, menu, spaces
        and scaling are this environment's (it is never stepped)."""
        layout = self.layout
        self.rules, self.seat, self.n = layout.rules, layout.seat, layout.n
        self.learners = layout.learners
        """The learning seats, where the agent acts (the opponents play the others)."""
        self.encoding = layout.encoding
        """The action ids and observation slots (:mod:`spadeskit.engine.encoding`)."""
        self.menu, self.num_actions = layout.menu, layout.num_actions
        self.opponents, self.matches = opponents, episode == "match"
        self.illegal_action, self.penalty = illegal_action, float(penalty)
        self.render_mode = render_mode
        self.action_space = layout.single_action_space
        self.observation_space = layout.single_observation_space
        cards = self.encoding.cards
        self._ids: dict[Action, int] = {play: play.card.index for play in PLAYS[:cards]}
        self._ids.update({bid: self.encoding.action_id(bid) for bid in self.menu})
        self._bid_slot = {
            number: self.encoding.bid_slots[bid]
            for bid, number in self._ids.items()
            if number >= cards
        }
        engine = layout.engine
        self._rows = tuple(map(tuple, engine.rows.tolist()))
        self._suit_of = tuple(engine.suit_of.tolist())
        self._side_of = tuple(engine.side_of.tolist())
        self._tricks = layout.tricks
        self._bots: dict[int, HeuristicBot] = {}
        self._rng = random.Random()
        self._legal = np.ones(self.num_actions, dtype=bool)
        self._who = self.seat
        self._seat_rewards: list[float] | None = None
        self.game: GameState | None = None
        """The table now, as the step API holds it (``None`` before :meth:`reset`)."""

    # -- Gymnasium -------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal a new hand (a new match in match episodes); return the learning seat's
        first observation and ``{"action_mask": ...}``."""
        if seed is not None and (type(seed) is not int or seed < 0):
            raise SpadesError(f"seed is a whole number, 0 or more, not {shown(seed)}")
        super().reset(seed=seed)
        draw = self.np_random.integers(2**63, size=2).tolist()
        self._rng = random.Random(draw[1])
        if self.opponents == "heuristic":
            self._bots = {}
            for other in range(self.n):
                if other not in self.learners:
                    self._bots[other] = HeuristicBot()
                    self._bots[other].reset(other, self.rules, random.Random(draw[1] + other))
        self.game = self.rules.new_game(seed=draw[0])
        self._new_hand()
        self._reward = 0.0
        self._over = False
        self._advance()
        info = self._info()
        return self._observe(), info

    def step(self, action: Any) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Take the learning seat's action, let the opponents play until it is to act
        again (or the episode ends); return the observation, the reward, whether the
        episode ended, ``False`` (no truncation) and ``{"action_mask": ...}``."""
        if self.game is None or self._over:
            raise SpadesError("the episode is over (or never began): call reset() first")
        number = _action_number(action, self.num_actions)
        mask, who = self._legal, self._who
        illegal = not mask[number]
        if illegal:
            if self.illegal_action == "raise":
                raise IllegalAction(
                    f"action {number} ({self._action(number)}) is not legal for seat "
                    f"{who} now (info['action_mask'] marks the legal ones)",
                    seat=who,
                    action=self._action(number),
                )
            if self.illegal_action == "penalty":
                info = self._info()
                info["illegal"] = True
                return self._observe(), -self.penalty, False, False, info
            number = int(self.np_random.choice(np.flatnonzero(mask)))
        self._reward = 0.0
        self._seat_rewards = None
        self._apply(self._action(number), who)
        self._advance()
        if self._over:
            observation = self._observe(final=True)
            info = self._info()
        else:
            info = self._info()
            observation = self._observe()
        if self._seat_rewards is not None:
            info["seat_rewards"] = np.array(self._seat_rewards)
        if illegal:
            info["illegal"] = True
        return observation, self._reward, self._over, False, info

    def action_masks(self) -> NDArray[np.bool_]:
        """Return the legal actions now, as sb3-contrib's ``MaskablePPO`` asks for them
        (bool; every action once the episode is over)."""
        return self._legal.copy()

    def render(self) -> str | None:
        """Return the table as the learning seat sees it, a few lines of text
        (``render_mode="ansi"``), or print it (``"human"``); ``None`` without a render
        mode."""
        if self.render_mode is None or self.game is None:
            return None
        text = _text(self)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- the table -------------------------------------------------------------------------

    def _action(self, number: int) -> Action:
        return self.encoding.action_of(number)

    def _new_hand(self) -> None:
        """Start tracking the hand the game now holds, as its observations show it."""
        game = self.game
        assert game is not None
        self._hand_number = game.number
        self._dealer = game.dealer
        self._held = list(game.hands)
        self._played_by = [0] * self.n
        self._trick: list[tuple[int, int]] = []
        self._bids = [-1] * self.n
        self._books = [0] * self.n
        self._leader = -1
        self._trick_no = 0
        self._bidding = True
        self._scores = game.match.scores if self.matches else (0,) * self.layout.sides
        self._bags = game.match.bags if self.matches else (0,) * self.layout.sides

    def _apply(self, action: Action, seat: int) -> None:
        """Apply ``seat``'s action to the game and to what the observations track; at a
        hand's end, add its reward and start the next hand (or end the episode)."""
        game = self.game
        assert game is not None
        results = len(game.match.results)
        game = self.game = game.apply(action, seat)
        index = self._ids.get(action)
        if index is None:
            return
        if index >= self.encoding.cards:
            self._bids[seat] = self._bid_slot[index]
            if game.phase is Phase.PLAY and self._bidding:
                self._bidding = False
                self._leader = game.leader
            return
        if self._bidding:
            self._bidding = False
        self._held[seat] &= ~(1 << index)
        self._played_by[seat] |= 1 << index
        self._trick.append((seat, index))
        if len(self._trick) < self.n:
            return
        if len(game.match.results) > results:
            result = game.match.results[-1]
            winner = next(s for s in range(self.n) if result.books[s] > self._books[s])
            self._finish_hand(result.points)
        else:
            winner = game.tricks[-1].winner
        self._books[winner] += 1
        self._leader = winner
        self._trick = []
        self._trick_no += 1

    def _finish_hand(self, points: Sequence[int]) -> None:
        """Add the finished hand's reward (the learning seat's that acted last; every
        seat's in ``info["seat_rewards"]``); end the episode, or go on to the next hand."""
        margins = []
        for side, mine in enumerate(points):
            others = [p for s, p in enumerate(points) if s != side]
            margins.append((mine - max(others)) / self.layout.unit if others else 0.0)
        self._seat_rewards = [margins[self._side_of[s]] for s in range(self.n)]
        self._reward += self._seat_rewards[self._who]
        game = self.game
        assert game is not None
        if not self.matches or game.is_over:
            self._over = True

    def _advance(self) -> None:
        """Let the opponents act until the learning seat is to act (or the episode is
        over); a new hand of the match starts on the way."""
        while not self._over:
            game = self.game
            assert game is not None
            if game.number != self._hand_number and self._trick_no == self._tricks:
                self._new_hand()
            seat = game.to_act
            if seat is None or seat in self.learners:
                return
            self._apply(self._opponent(game, seat), seat)

    def _opponent(self, game: GameState, seat: int) -> Action:
        """Return the opponent's choice at ``seat``."""
        if self.opponents == "heuristic":
            return self._bots[seat].choose(game.view(seat))
        legal = game.legal_actions(seat)
        if self.opponents == "greedy" and self._trick and game.phase is Phase.PLAY:
            allowed = 0
            for action in legal:
                if type(action) is Play:
                    allowed |= 1 << action.card.index
            bit = greedy_follow(
                tuple(self._trick), allowed, seat, self._rows, self._suit_of, self._side_of
            )
            return PLAYS[bit.bit_length() - 1]
        return self._rng.choice(legal)

    # -- what the learning seat sees -------------------------------------------------------

    def _mask(self) -> NDArray[np.bool_]:
        mask = np.zeros(self.num_actions, dtype=bool)
        game = self.game
        if self._over or game is None:
            mask[:] = True
            return mask
        ids = self._ids
        for action in game.legal_actions(self._who):
            index = ids.get(action)
            if index is not None:
                mask[index] = True
        return mask

    def _info(self) -> dict[str, Any]:
        game = self.game
        if not self._over and game is not None and game.to_act is not None:
            self._who = game.to_act
        self._legal = self._mask()
        return {"action_mask": self._legal.astype(np.int8), "seat": self._who}

    def _observe(self, final: bool = False) -> NDArray[np.float32]:
        """Return the learning seat to act's observation (``final``: the hand just played
        out, by the seat that acted last), slot for slot as the vector environment's."""
        return _observation(self, final)


def _action_number(action: Any, size: int) -> int:
    """Return ``action`` as an action id, or raise if it is not one of the space's."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalAction(
            f"an action is a whole number, 0 to {size - 1}, not {shown(action, 40)}",
            code="not-an-action",
        )
    if not 0 <= action < size:
        raise IllegalAction(
            f"action {int(action)} is not one of the ids 0 to {size - 1}", code="not-an-action"
        )
    return int(action)


def _observation(env: SpadesEnv, final: bool) -> NDArray[np.float32]:
    """Return ``env``'s observation (see :meth:`SpadesEnv._observe`), from what it
    tracks of the hand."""
    encoding = env.encoding
    n, c, tricks, slots = env.n, encoding.cards, env._tricks, encoding.slots
    who = env._who
    out = np.zeros(encoding.observation_size, dtype=np.float32)
    out[:c] = _bits(env._held[who], c)
    base = slots["played"].start
    for s in range(n):
        out[base : base + c] = _bits(env._played_by[s], c)
        base += c
    for s, card in env._trick:
        out[base + c * s + card] = 1.0
    base, width = slots["bids"].start, len(encoding.bids) + 1
    for s in range(n):
        k = env._bids[s]
        out[base + width * s + (k if k >= 0 else width - 1)] = 1.0
    books, held = slots["books"].start, slots["held"].start
    for s in range(n):
        out[books + s] = env._books[s] / tricks
        out[held + s] = env._held[s].bit_count() / encoding.largest_hand
    out[slots["seat"].start + who] = 1.0
    if not final:
        out[slots["to_act"].start + who] = 1.0
    out[slots["dealer"].start + env._dealer] = 1.0
    if not env._bidding and not final:
        out[slots["leader"].start + env._leader] = 1.0
    out[slots["phase"].start + (0 if env._bidding else _PLAY_SLOT)] = 1.0
    out[slots["tricks"].start] = env._trick_no / tricks
    if env.matches:
        sides, scores, bags = env.layout.sides, slots["scores"].start, slots["bags"].start
        for side in range(sides):
            out[scores + side] = max(-1.0, min(1.0, env._scores[side] / 1000))
            out[bags + side] = min(1.0, env._bags[side] / 10)
        out[slots["hand"].start] = min(1.0, env._hand_number / 50)
    return out


def _text(env: SpadesEnv) -> str:
    """Return the table as the learning seat of ``env`` sees it, in a few lines."""
    names = env.rules.table.seat_names

    def cards(mask: int) -> str:
        return " ".join(card_at(i).code for i in range(53, -1, -1) if mask >> i & 1) or "-"

    lines = [
        f"{env.rules.name}, {names[env._who]} learning; dealer {names[env._dealer]}",
        f"hand: {cards(env._held[env._who])}",
        "bids: "
        + ", ".join(
            f"{names[s]} {env.menu[k] if k >= 0 else '-'}" for s, k in enumerate(env._bids)
        ),
        "books: " + ", ".join(f"{names[s]} {b}" for s, b in enumerate(env._books)),
    ]
    if not env._bidding:
        trick = ", ".join(f"{names[s]} {card_at(c).code}" for s, c in env._trick)
        lines.append(f"trick {min(env._trick_no + 1, env._tricks)}: {trick or '-'}")
    if env.matches:
        show = env.rules.table.show_score
        lines.append("scores: " + ", ".join(show(s) for s in env._scores))
    return "\n".join(lines)
