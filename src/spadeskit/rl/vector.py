"""Many tables stepped together as numpy arrays: :class:`VectorSpadesEnv`, a Gymnasium
vector environment over the batched engine (the ``rl`` extra).

Each of the ``num_envs`` tables has the same learning seats: one (``seat=0``, the
default), a side (``seat=(0, 2)``), or every seat (``seat=(0, 1, 2, 3)``: self-play,
one policy at every seat).  The other seats are played by the opponents' policy:
``"random"`` (every bid and card uniformly among the legal ones), ``"greedy"`` (bids and
leads at random, following cards as :func:`spadeskit.bots.greedy_card` would), both on
the arrays, or ``"heuristic"``: :class:`~spadeskit.bots.HeuristicBot` at every other
seat, each table also kept as a step-API state for the bots' views (a few thousand
steps a second, not hundreds of thousands).  Each step is one decision of a learning
seat at every table: the opponents act in between, so at every table the learning seat
to act is the one whose observation was returned (``info["seat"]`` names it; its
one-hot is in the observation too).  In each hand every learning seat bids once, then
plays its cards; at the hand's end the reward is the side's points less the best other
side's, in hundreds (a hand scored in tenths counts in tenths of that): ``rewards[i]``
is that of the seat that acted at table ``i``, and ``info["seat_rewards"]`` (tables x
seats) gives every seat's, for learning at several seats.  Every table finishes its
hand on the same step.  What comes next is Gymnasium's autoreset (``autoreset_mode``,
also in ``metadata["autoreset_mode"]``):

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

**Actions and observations** are the rule set's :class:`~spadeskit.engine.encoding.
Encoding` (``env.encoding``), the ids and slots every spadeskit front end shares: for
standard Spades 66 actions (the 52 cards by index, then nil and the bids 1 to 13, as in
OpenSpiel's own ``spades``) and 563 floats.  ``info["action_mask"]`` (``num_envs`` x
:attr:`~VectorSpadesEnv.num_actions`, bool) marks the legal ones; an illegal action
raises :class:`~spadeskit.core.errors.IllegalAction` naming the table, and changes
nothing.  An episode's last observation shows its hand played out (no seat to act, every
trick finished), by the seat that acted last.

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
from spadeskit.core.errors import IllegalAction, SpadesError, shown
from spadeskit.core.state import MatchState
from spadeskit.engine.encoding import encoding_for
from spadeskit.engine.loader import load_rules
from spadeskit.rl.observing import Observing
from spadeskit.rl.tables import STRIDE

__all__ = ["EPISODES", "OPPONENTS", "RENDER_MODES", "STRIDE", "VectorSpadesEnv", "random_actions"]

OPPONENTS = ("random", "greedy", "heuristic")
"""The opponents' policies."""

EPISODES = ("hand", "match")
"""What an episode is."""


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
    # Counts in the narrowest integers that hold them: cumsum's pass is most of the cost.
    counts: NDArray[np.integer[Any]] = np.cumsum(
        mask, axis=1, dtype=np.int8 if mask.shape[1] < 128 else np.int64
    )
    k = (rng.random(len(mask)) * counts[:, -1].astype(np.float64)).astype(counts.dtype)
    chosen: NDArray[np.int64] = np.argmax(counts > k[:, None], axis=1)
    return chosen


class VectorSpadesEnv(Observing, VectorEnv):  # type: ignore[misc,unused-ignore]
    """``num_envs`` tables of a spadeskit rule set, the same learning seats at each (see
    the module)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": RENDER_MODES}

    def __init__(
        self,
        num_envs: int = 1024,
        variant: str = "standard",
        house_rules: Sequence[str] = (),
        options: dict[str, Any] | None = None,
        *,
        seat: int | Sequence[int] = 0,
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
        learners = _learners(seat, n, rules.name)
        encoding = encoding_for(rules)
        self.rules, self.engine, self.n, self.encoding = rules, engine, n, encoding
        """The action ids and observation slots (:mod:`spadeskit.engine.encoding`)."""
        self.learners = learners
        """The learning seats, where the agent acts (the opponents play the others)."""
        self.seat = learners[0]
        """The first learning seat (the only one, unless ``seat`` named several)."""
        self.learns = np.zeros(n, dtype=bool)
        self.learns[list(learners)] = True
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
        """The bids, in the order of the batched engine's menu."""
        self.tricks = engine.tricks
        self.num_actions = encoding.num_actions
        self.observation_size = encoding.observation_size
        missing = [bid for bid in self.menu if bid not in encoding.calls]
        if missing or engine.tricks != encoding.tricks:
            raise BatchUnsupported(
                f"{rules.name!r}: the batched engine's bids {missing} or tricks have no "
                "place in the rule set's encoding"
            )
        self.menu_ids = np.array([encoding.action_id(bid) for bid in self.menu], np.int64)
        """Each bid of :attr:`menu` as its action id."""
        self._menu_of = np.full(self.num_actions, -1, dtype=np.int64)
        self._menu_of[self.menu_ids] = np.arange(len(self.menu))
        # Each seat's bid as its observation column, at seat * (menu + 1) + choice + 1
        # (choice -1, no bid yet: the seat's last bid slot, "none").
        width = len(encoding.bids) + 1
        slots = [width - 1] + [encoding.bid_slots[bid] for bid in self.menu]
        start = encoding.slots["bids"].start
        self._bid_column = np.array(
            [start + width * s + slot for s in range(engine.n) for slot in slots], np.int64
        )
        self._bid_base = np.arange(engine.n, dtype=np.int64) * len(slots) + 1
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.num_actions))
        low = np.zeros(self.observation_size, np.float32)
        low[encoding.slots["scores"]] = -1.0  # the scores, which may be negative
        high = np.ones(self.observation_size, np.float32)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.observation_space = spaces.Box(
            np.tile(low, (num_envs, 1)), np.tile(high, (num_envs, 1)), dtype=np.float32
        )
        self.sides = len(rules.table.sides)
        self.side_of = engine.side_of.astype(np.int64)
        self.side = int(engine.side_of[self.seat])
        self.unit = 100 * rules.table.score_unit
        self._order = np.array(engine.order, dtype=np.int64)
        self._rows = np.arange(num_envs)
        self._row_base = self._rows * self.observation_size  # each row's first flat index
        self._seed = 0
        self._hand = 0
        self._started = False
        self._waiting: NDArray[np.int64] | None = None
        self._last_mask: NDArray[np.bool_] = np.zeros((num_envs, self.num_actions), bool)
        self._who = np.full(num_envs, self.seat, dtype=np.int64)
        self._bidding = True
        self._fresh = MatchState.fresh(self.sides)
        self._match_slots = np.zeros((num_envs, 2 * self.sides + 1), np.float32)

    # -- Gymnasium -------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal every table a new hand and start new matches; return the observations
        and ``{"action_mask": ..., "seat": ...}``.

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
                if not self.learns[other]:
                    bot = self._bots[other] = HeuristicBot()
                    bot.reset(other, self.rules, random.Random(self._seed * self.n + other))
        self._started = True
        self.match = [self._fresh] * self.num_envs
        """Each table's match so far (the rules' :class:`MatchState`)."""
        self._match_slots[:] = 0.0
        self._deal(None)
        info = self._info()
        return self._observe(), info

    def step(
        self, actions: Any
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], Any, Any, dict[str, Any]]:
        """Take each table's action; return observations, rewards, terminations,
        truncations and ``{"action_mask": ..., "seat": ...}`` (see the module for
        autoreset and for the rewards of several learning seats)."""
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
            info = self._info()
            return self._observe(), rewards, ended, ended.copy(), info
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
        who = self._who
        if not legal.all():
            table = int(np.flatnonzero(~legal)[0])
            raise IllegalAction(
                f"table {table}: action {int(chosen[table])} is not legal for seat "
                f"{int(who[table])} now (info['action_mask'] marks the legal ones)",
                seat=int(who[table]),
            )
        if self._bidding:
            picks = self._menu_of[chosen]
            self.choice[self._rows, who] = picks
            if self.heuristic:
                for table, (seat, k) in enumerate(zip(who.tolist(), picks.tolist(), strict=True)):
                    self._games[table] = self._games[table].apply(self.menu[k], seat)
            self._bid_turn += 1
            self._opponents_bid()
            if self._bid_turn[0] < self.n:  # a learning seat bids next, at every table
                info = self._info()
                return self._observe(), rewards, ended, ended.copy(), info
            self._start_play()
        else:
            self._play(self._turn(self._rows, who), chosen.astype(np.int64))
        self._advance()
        if self.trick_no[0] < self.tricks:
            info = self._info()
            return self._observe(), rewards, ended, ended.copy(), info
        # Every table's hand is over: score it, keep it (hand_actions), start the next.
        dealers = self._score_hands(ended)
        seat_rewards = self._margins()[:, self.side_of]
        rewards = seat_rewards[self._rows, who]
        self.last = {
            name: getattr(self, name) for name in ("deals", "dealer", "choice", "plays", "seats")
        }
        self.last_books, self.last_points = self.books, self.points
        final = self._observe(final=True)
        if self.matches:
            self._update_match_slots()
        if self.autoreset_mode is AutoresetMode.NEXT_STEP and ended.all():
            self._waiting = dealers if dealers is not None else np.empty(0, dtype=np.int64)
            # Any action is taken (and ignored) on the step that deals the next hands.
            self._last_mask = np.ones((size, self.num_actions), dtype=bool)
            info = {"action_mask": self._last_mask.copy(), "seat": who.copy()}
            info["seat_rewards"] = seat_rewards
            return final, rewards, ended, np.zeros(size, dtype=bool), info
        self._hand += 1
        self._deal(dealers)
        info = self._info()
        info["seat_rewards"] = seat_rewards
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            info["final_obs"], info["_final_obs"] = final, ended.copy()
        return self._observe(), rewards, ended, np.zeros(size, dtype=bool), info

    def render(self) -> tuple[str, ...] | None:
        """Return each table as its learning seat to act sees it, a few lines of text a
        table (``render_mode="ansi"``), or print them (``"human"``); ``None`` without a
        render mode."""
        if self.render_mode is None:
            return None
        texts = tuple(self._text(table) for table in range(self.num_envs))
        if self.render_mode == "human":
            print("\n\n".join(texts))
            return None
        return texts


def _learners(seat: object, n: int, name: str) -> tuple[int, ...]:
    """Return the learning seats ``seat`` names: one seat, or several (no repeats)."""
    chosen = [seat] if type(seat) is int else seat
    if (
        isinstance(chosen, (str, bytes))
        or not isinstance(chosen, Sequence)
        or not chosen
        or any(type(s) is not int or not 0 <= s < n for s in chosen)
        or len(set(chosen)) != len(chosen)
    ):
        raise SpadesError(
            f"seat is one of {name!r}'s seats, 0 to {n - 1}, or a list of them, not "
            f"{shown(seat, 30)}"
        )
    return tuple(sorted(chosen))
