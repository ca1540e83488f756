"""Many tables stepped together as numpy arrays: :class:`VectorSpadesEnv`, a Gymnasium
vector environment over the batched engine (the ``rl`` extra).

Each of the ``num_envs`` tables has one learning seat (``seat``, 0 by default); the other
seats are played by the opponents' policy: ``"random"`` (every bid and card uniformly
among the legal ones), ``"greedy"`` (bids and leads at random, following cards as
:func:`spadeskit.bots.greedy_card` would), both on the arrays, or ``"heuristic"``:
:class:`~spadeskit.bots.HeuristicBot` at every other seat, each table also kept as a
step-API state for the bots' views (a few thousand steps a second, not hundreds of
thousands).  In each hand the learning seat bids once,
then plays its cards; at the hand's end the reward is its side's points less the best
other side's, in hundreds (a hand scored in tenths counts in tenths of that).  Every
table finishes its hand on the same step.  What comes next is Gymnasium's autoreset
(``autoreset_mode``, also in ``metadata["autoreset_mode"]``):

* ``AutoresetMode.NEXT_STEP`` (the default, as in Gymnasium): the step that ends the hands
  returns their last observations, the rewards and ``terminations``; the next step ignores
  its actions (``info["action_mask"]`` allows any) and returns the next hands' first
  observations, with no reward.  Gymnasium's observation wrappers
  (``NormalizeObservation``, ``DtypeObservation`` ...) need this mode.
* ``AutoresetMode.SAME_STEP``: the step that ends the hands also deals the next; the
  observation returned is the next hand's first, the finished hand's last is
  ``info["final_obs"]``, marked by ``info["_final_obs"]``.

:meth:`~VectorSpadesEnv.reset` with a seed starts the deals of that seed; without one
it deals the next hands, as a finished episode's autoreset would (an environment never
seeded deals from a secret of its own).  ``render_mode="ansi"`` makes
:meth:`~VectorSpadesEnv.render` return each table as text (the learning seat's cards,
the bids, the books, the trick), ``"human"`` prints it.

An episode is one hand (``episode="hand"``), or a whole match (``episode="match"``):
each table then keeps its match (scores, bags, dealer) from hand to hand, scored and
ended by the rules' own hooks (:meth:`Engine.settle_summary
<spadeskit.engine.playing.Engine.settle_summary>`, as a score sheet is), and a table is
terminated when its match ends, to start a new one on the same step (tables end their
matches at different hands, so with more than one table this needs ``SAME_STEP``).

Rules are those of :func:`spadeskit.load_rules`, as the batched engine derives them (the
deal, the legal cards from the play filters' building blocks, the trick winner, the
scoring): a rule set whose auction is not "each seat bids once from one menu" (a tree
auction, bids that depend on one's cards, blind bids) is refused with
:class:`~spadeskit.batch.BatchUnsupported`, and so is one whose views hide more than the
cards (a ``spadeskit_view`` hook, as ``hidden-bids`` seals bids): the observations below
would show it.

**Actions** are ``0``-``53``, a card by index (2♣ is 0 … A♠ is 51, the jokers 52 and 53),
then ``54 + k`` for the ``k``-th bid of :attr:`VectorSpadesEnv.menu`.  ``info
["action_mask"]`` (``num_envs`` x :attr:`~VectorSpadesEnv.num_actions`, bool) marks the
legal ones; an illegal action raises :class:`~spadeskit.core.errors.IllegalAction`
naming the table, and changes nothing.

**Observations** are float32 rows of :attr:`~VectorSpadesEnv.observation_size` values,
built from public facts and the learning seat's own cards only:

==================== ==========================================================
slots                what
==================== ==========================================================
54                   the seat's cards (1: held)
54 per seat          the cards each seat has played this hand, seat by seat
54 per seat          the cards on the table in the trick in progress, by seat
menu + 1 per seat    each seat's bid, one-hot over the menu (last slot: none yet)
1 per seat           the tricks each seat has taken, divided by the hand size
1 per seat           the learning seat (one-hot)
1 per seat           the dealer (one-hot)
1 per seat           the trick's leader (one-hot; all 0 during the auction)
2                    the phase: the auction, the play
1                    the number of finished tricks, divided by the hand size
2 per side           each side's score (÷ 1,000, clipped to [-1, 1]) and bags (÷ 10, at
                     most 1): the match so far (0 in one-hand episodes)
==================== ==========================================================

Table ``i``'s hands depend only on ``(seed, i)``: its ``j``-th hand since
``reset(seed=seed)`` (resets without a seed go on counting) is hand number ``i + j *
2**20`` of the batched engine's deals (:func:`spadeskit.batch.common.draws`),
with its dealer rotating by that number (in a match, the first hand's; the rules choose
the next dealers), and the opponents' random choices come from the same numbers.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from numpy.typing import NDArray

from spadeskit.batch.common import BatchUnsupported
from spadeskit.batch.engine import engine_for
from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.core.actions import Action
from spadeskit.core.cards import card_at
from spadeskit.core.errors import IllegalAction, SpadesError, shown
from spadeskit.core.state import MatchState
from spadeskit.engine.loader import load_rules
from spadeskit.rl.tables import STRIDE, Tables

__all__ = ["EPISODES", "OPPONENTS", "RENDER_MODES", "STRIDE", "VectorSpadesEnv", "random_actions"]

OPPONENTS = ("random", "greedy", "heuristic")
"""The opponents' policies."""

EPISODES = ("hand", "match")
"""What an episode is."""


_ONE = np.uint64(1)
_BITS = np.arange(54, dtype=np.uint64)


RENDER_MODES = ["ansi", "human"]
"""What :meth:`VectorSpadesEnv.render` gives: text a table, returned or printed."""


def _autoreset_mode(mode: object) -> AutoresetMode:
    """Return ``mode`` as one of the two autoreset modes the environment keeps."""
    modes = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
    for known in modes:
        if mode is known or mode == known.value:
            return known
    raise SpadesError(
        f"autoreset_mode is AutoresetMode.NEXT_STEP or SAME_STEP, not {shown(mode, 30)}"
    )


def random_actions(mask: NDArray[np.bool_], rng: np.random.Generator) -> NDArray[np.int64]:
    """Return a uniformly random legal action for every table (each row of ``mask``,
    as ``info["action_mask"]`` gives it, has one at least): a random agent."""
    k = (rng.random(len(mask)) * mask.sum(axis=1)).astype(np.int64)
    chosen: NDArray[np.int64] = np.argmax(np.cumsum(mask, axis=1) > k[:, None], axis=1)
    return chosen


class VectorSpadesEnv(Tables, VectorEnv):  # type: ignore[misc,unused-ignore]
    """``num_envs`` tables of a spadeskit rule set, one learning seat each (see the module)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": RENDER_MODES}

    def __init__(
        self,
        num_envs: int = 1024,
        variant: str = "standard",
        house_rules: Sequence[str] = (),
        options: dict[str, Any] | None = None,
        *,
        seat: int = 0,
        opponents: str = "random",
        episode: str = "hand",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        render_mode: str | None = None,
    ) -> None:
        if type(num_envs) is not int or not 1 <= num_envs <= STRIDE:
            raise SpadesError(f"num_envs is a whole number, 1 to {STRIDE}, not {shown(num_envs)}")
        if opponents not in OPPONENTS:
            raise SpadesError(f"opponents are {' or '.join(OPPONENTS)}, not {shown(opponents)}")
        if episode not in EPISODES:
            raise SpadesError(f"an episode is a {' or a '.join(EPISODES)}, not {shown(episode)}")
        mode = _autoreset_mode(autoreset_mode)
        if mode is AutoresetMode.NEXT_STEP and episode == "match" and num_envs > 1:
            raise SpadesError(
                "tables end their matches at different hands but are dealt together, so "
                "match episodes at more than one table need autoreset_mode=SAME_STEP"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise SpadesError(
                f"render_mode is None, 'ansi' or 'human', not {shown(render_mode, 30)}"
            )
        rules = load_rules(variant, list(house_rules), options or {})
        engine = engine_for(rules)
        if engine.tree is not None or engine.templates is not None:
            raise BatchUnsupported(
                f"{rules.name!r}: the vector environment plays auctions where each seat bids "
                "once from one menu, and this one is not"
            )
        if rules.calls.view is not None:
            raise BatchUnsupported(
                f"{rules.name!r} hides part of what a seat sees (a spadeskit_view hook, as "
                "hidden-bids has), which the vector environment's observations do not"
            )
        n = engine.n
        if type(seat) is not int or not 0 <= seat < n:
            raise SpadesError(f"seat is one of {rules.name!r}'s seats, 0 to {n - 1}")
        self.rules, self.engine, self.n, self.seat = rules, engine, n, seat
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.autoreset_mode = mode
        """When a finished episode's table starts its next (see the module)."""
        self.greedy = opponents == "greedy"
        self.heuristic = opponents == "heuristic"
        self._bots: dict[int, HeuristicBot] = {}
        self.matches = episode == "match"
        self.menu: tuple[Action, ...] = tuple(engine.menu)
        """The bids, in the order of their actions (``54 + k``)."""
        self.tricks = engine.tricks
        self.num_actions = 54 + len(self.menu)
        self.sides = len(rules.table.sides)
        self.observation_size = (
            54 + 54 * n * 2 + n * (len(self.menu) + 1) + 4 * n + 3 + 2 * self.sides
        )
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.num_actions))
        low = np.zeros(self.observation_size, np.float32)
        low[-2 * self.sides : -self.sides] = -1.0  # the scores, which may be negative
        high = np.ones(self.observation_size, np.float32)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.observation_space = spaces.Box(
            np.tile(low, (num_envs, 1)), np.tile(high, (num_envs, 1)), dtype=np.float32
        )
        self.side = int(engine.side_of[seat])
        self.unit = 100 * rules.table.score_unit
        self._rows = np.arange(num_envs)
        self._seed = 0
        self._hand = 0
        self._started = False
        self._waiting: NDArray[np.int64] | None = None
        self._last_mask: NDArray[np.bool_] = np.zeros((num_envs, self.num_actions), bool)
        self._bidding = True
        self._fresh = MatchState.fresh(self.sides)

    # -- Gymnasium -------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal every table a new hand and start new matches; return the observations
        and ``{"action_mask": ...}``.

        With ``seed``, table ``i`` is dealt its first hand of ``seed``'s deals.  Without
        one, the deals go on where they stand (the next hand of every table, never one
        dealt before); an environment never seeded deals from a secret of its own, as
        :meth:`Rules.new_game <spadeskit.engine.rules.Rules.new_game>` does without a
        seed, so two such environments deal different hands."""
        if seed is not None:
            if type(seed) is not int or seed < 0:
                raise SpadesError(f"seed is a whole number, 0 or more, not {shown(seed)}")
            self._seed, self._hand = seed, 0
        elif not self._started:
            # 128 bits from the OS: no observation shows it, so no hand predicts the next.
            self._seed, self._hand = secrets.randbits(128), 0
        else:
            self._hand += 1
        self._waiting = None
        if self.heuristic and (seed is not None or not self._started):
            self._bots = {}
            for other in range(self.n):
                if other != self.seat:
                    bot = self._bots[other] = HeuristicBot()
                    bot.reset(other, self.rules, random.Random(self._seed * self.n + other))
        self._started = True
        self.match = [self._fresh] * self.num_envs
        """Each table's match so far (the rules' :class:`MatchState`)."""
        self._deal(None)
        return self._observe(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], Any, Any, dict[str, Any]]:
        """Take each table's action; return observations, rewards, terminations,
        truncations and ``{"action_mask": ...}`` (see the module for autoreset)."""
        size = self.num_envs
        rewards = np.zeros(size, dtype=np.float64)
        ended = np.zeros(size, dtype=bool)
        if self._waiting is not None:
            # Next-step autoreset: every table's episode ended on the last step; this
            # step ignores the actions and deals the next hands.
            dealers = self._waiting if len(self._waiting) else None
            self._waiting = None
            self._hand += 1
            self._deal(dealers)
            return self._observe(), rewards, ended, ended.copy(), self._info()
        chosen = np.asarray(actions)
        if chosen.shape != (size,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalAction(
                f"give one action id a table: an array of {size} whole numbers, not "
                f"{shown(actions, 40)}",
                code="not-an-action",
            )
        mask = self._last_mask
        inside = (chosen >= 0) & (chosen < self.num_actions)
        legal = inside & mask[self._rows, np.clip(chosen, 0, self.num_actions - 1)]
        if not legal.all():
            table = int(np.flatnonzero(~legal)[0])
            raise IllegalAction(
                f"table {table}: action {int(chosen[table])} is not legal for seat "
                f"{self.seat} now (info['action_mask'] marks the legal ones)",
                seat=self.seat,
            )
        if self._bidding:
            self.choice[:, self.seat] = chosen - 54
            if self.heuristic:
                for table, k in enumerate(self.choice[:, self.seat].tolist()):
                    self._games[table] = self._games[table].apply(self.menu[k], self.seat)
            self._opponents_bid(after=True)
            self._start_play()
        else:
            self._play(self._rows, chosen.astype(np.int64))
        self._advance()
        if self.trick_no[0] < self.tricks:
            return self._observe(), rewards, ended, ended.copy(), self._info()
        # Every table's hand is over: score it, keep it (hand_actions), start the next.
        dealers = self._score_hands(ended)
        mine = self.points[:, self.side]
        others = np.delete(self.points, self.side, axis=1)
        best = others.max(axis=1) if others.shape[1] else mine
        rewards = (mine - best) / self.unit
        self.last = {
            name: getattr(self, name) for name in ("deals", "dealer", "choice", "plays", "seats")
        }
        self.last_books, self.last_points = self.books, self.points
        final = self._observe()
        if self.autoreset_mode is AutoresetMode.NEXT_STEP and ended.all():
            self._waiting = dealers if dealers is not None else np.empty(0, dtype=np.int64)
            # Any action is taken (and ignored) on the step that deals the next hands.
            self._last_mask = np.ones((size, self.num_actions), dtype=bool)
            return (
                final,
                rewards,
                ended,
                np.zeros(size, dtype=bool),
                {"action_mask": self._last_mask.copy()},
            )
        self._hand += 1
        self._deal(dealers)
        info = self._info()
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            info["final_obs"], info["_final_obs"] = final, ended.copy()
        return self._observe(), rewards, ended, np.zeros(size, dtype=bool), info

    def render(self) -> tuple[str, ...] | None:
        """Return each table as its learning seat sees it, a few lines of text a table
        (``render_mode="ansi"``), or print them (``"human"``); ``None`` without a
        render mode."""
        if self.render_mode is None:
            return None
        texts = tuple(self._text(table) for table in range(self.num_envs))
        if self.render_mode == "human":
            print("\n\n".join(texts))
            return None
        return texts

    # -- what the learning seat sees ---------------------------------------------------------

    def _text(self, table: int) -> str:
        """Return table ``table`` as its learning seat sees it, in a few lines."""
        names = self.rules.table.seat_names

        def cards(mask: int) -> str:
            return " ".join(card_at(i).code for i in range(53, -1, -1) if mask >> i & 1) or "-"

        bids = [int(k) for k in self.choice[table]]
        lines = [
            f"table {table}, hand {self._hand + 1}, {names[self.seat]} learning; "
            f"dealer {names[int(self.dealer[table])]}",
            f"hand: {cards(int(self.held[table, self.seat]))}",
            "bids: "
            + ", ".join(
                f"{names[s]} {self.menu[k] if k >= 0 else '-'}" for s, k in enumerate(bids)
            ),
            "books: " + ", ".join(f"{names[s]} {int(b)}" for s, b in enumerate(self.books[table])),
        ]
        if not self._bidding:
            order = [(int(self.leader[table]) + k) % self.n for k in range(self.n)]
            trick = [
                f"{names[s]} {cards(int(self.on_table[table, s]))}"
                for s in order
                if self.on_table[table, s]
            ]
            lines.append(f"trick {int(self.trick_no[table]) + 1}: " + (", ".join(trick) or "-"))
        if self.matches:
            match = self.match[table]
            show = self.rules.table.show_score
            lines.append("scores: " + ", ".join(show(s) for s in match.scores))
        return "\n".join(lines)

    def _mask(self) -> NDArray[np.bool_]:
        mask = np.zeros((self.num_envs, self.num_actions), dtype=bool)
        if self._bidding:
            mask[:, 54:] = True
            return mask
        allowed = self._allowed(self._rows)
        mask[:, :54] = ((allowed[:, None] >> _BITS) & _ONE).astype(bool)
        return mask

    def _info(self) -> dict[str, Any]:
        self._last_mask = self._mask()
        return {"action_mask": self._last_mask.copy()}

    def _observe(self) -> NDArray[np.float32]:
        n, size, m = self.n, self.num_envs, len(self.menu)
        out = np.zeros((size, self.observation_size), dtype=np.float32)
        out[:, :54] = (self.held[:, self.seat, None] >> _BITS) & _ONE
        base = 54
        for block in (self.played_by, self.on_table):
            for s in range(n):
                out[:, base : base + 54] = (block[:, s, None] >> _BITS) & _ONE
                base += 54
        for s in range(n):
            slot = np.where(self.choice[:, s] >= 0, self.choice[:, s], m)
            out[self._rows, base + slot] = 1.0
            base += m + 1
        out[:, base : base + n] = self.books / self.tricks
        base += n
        out[:, base + self.seat] = 1.0
        base += n
        out[self._rows, base + self.dealer] = 1.0
        base += n
        if not self._bidding:
            out[self._rows, base + self.leader] = 1.0
        base += n
        out[:, base + (0 if self._bidding else 1)] = 1.0
        out[:, base + 2] = self.trick_no / self.tricks
        base += 3
        if self.matches:
            scores = np.array([m.scores for m in self.match], dtype=np.float32)
            bags = np.array([m.bags for m in self.match], dtype=np.float32)
            out[:, base : base + self.sides] = np.clip(scores / 1000, -1.0, 1.0)
            out[:, base + self.sides :] = np.minimum(bags / 10, 1.0)
        return out
