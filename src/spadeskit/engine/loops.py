"""The playout loops a rule set compiles: its cards played in one generated loop, the
hand kept in locals, when every enforced play filter is one of the library's building
blocks (their statements inlined).  :class:`~spadeskit.engine.playouts.Playouts` runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spadeskit.core import codegen
from spadeskit.core.state import (
    GameState,
    copy_to_builder,
    freeze,
)
from spadeskit.engine.filters import STATE_READS
from spadeskit.engine.tricks import make_trick
from spadeskit.engine.turns import Turns

# The playout loop the rules compile (see Playouts._compile_playouts).  The hand lives in
# locals (named _k_..., which no building block may assign: filters.Block.check_names);
# _LOAD reads them from the scratch state, _STORE writes them back.  $filters is the
# enforced building blocks' statements, reading the hand through the locals in _LOOP_READS;
# $pick skips to the chosen card; $after_trick is _AFTER_TRICK where the rules have a
# spadeskit_after_trick hook.
_LOOP_READS = {name: f"_k_{name}" for name in STATE_READS}


_LOAD = """\
_k_hands = list(hand.hands)
_k_books = list(hand.books)
_k_won = list(hand.won)
_k_trick = hand.trick
_k_tricks = hand.tricks
_k_played = hand.played
_k_log = hand._log
_k_leader = hand.leader
_k_pile = hand.pile
seat = hand.to_act
"""


_STORE = """\
hand.hands = tuple(_k_hands)
hand.books = tuple(_k_books)
hand.won = tuple(_k_won)
hand.trick = _k_trick
hand.tricks = _k_tricks
hand.played = _k_played
hand._log = _k_log
hand.leader = _k_leader
hand.to_act = seat
hand.pile = _k_pile
"""


_PLAYOUT = """\
def play(hand, draw, rows):
$load\
    while True:
        _k_held = _k_hands[seat]
        allowed = _k_held
$filters\
        if type(allowed) is not int or allowed & ~_k_held or not allowed:
            raise _bad(seat, _k_held, allowed)
$pick
            allowed &= allowed - 1
        _k_bit = allowed & -allowed
        _k_index = _k_bit.bit_length() - 1
        _k_hands[seat] = _k_held ^ _k_bit
        _k_trick = _k_trick + (_pairs[seat][_k_index],)
        _k_played |= _k_bit
        _k_log = (_k_log, _entries[seat][_k_index])
        if len(_k_trick) < _N:
            seat = _next[seat]
            continue
        _k_row = rows[_suit_of[_k_trick[0][1]]]
        _k_winner, _k_best, _k_taken = -1, -1, 0
        for _k_who, _k_card in _k_trick:
            _k_taken |= 1 << _k_card
            if _k_row[_k_card] > _k_best:
                _k_winner, _k_best = _k_who, _k_row[_k_card]
        _k_done = _make_trick(_k_leader, _k_trick, _k_winner)
        _k_tricks = _k_tricks + (_k_done,)
        _k_books[_k_winner] += 1
        _k_won[_k_winner] |= _k_taken
        _k_trick = ()
        _k_leader = seat = _k_winner
        if _k_pile and _DRAW:
            _k_taken = 0
            for _k_step in range(_N):
                _k_seat = (_k_winner + _k_step) % _N
                for _ in range(_DRAW):
                    if _k_taken < len(_k_pile):
                        _k_hands[_k_seat] |= 1 << _k_pile[_k_taken]
                        _k_taken += 1
            _k_pile = _k_pile[_k_taken:]
$after_trick\
        if not _k_pile and not any(_k_hands):
            break
$store\
    return hand
"""


# How each loop picks its card: the draw(k)-th allowed card (rollouts, as random.choice
# does), int(draw() * k)-th for a float source (simulate), or a follower policy's card
# (search's greedy playouts: spadeskit.bots.greedy_card; a lead stays random).  Each
# ends in the header of the loop that skips the cards before the chosen one.
_PICKS = {
    "exact": "        for _ in range(draw(allowed.bit_count())):",
    "floats": "        for _ in range(int(draw() * allowed.bit_count())):",
    "follower": """\
        if _k_trick:
            allowed = _follow(_k_trick, allowed, seat, rows, _suit_of, _side_of)
        for _ in range(0 if _k_trick else int(draw() * allowed.bit_count())):""",
}


# The hook is handed a frozen copy of the hand (hooks never see a mutable state); the
# locals are read back from what it returns.
_AFTER_TRICK = """\
$store\
        _k_changed = _after(_freeze(_copy(hand)), _k_done)
        if _k_changed is not None:
            if not isinstance(_k_changed, _GameState):
                raise _bad_after(_k_changed)
            hand = _copy(_k_changed)
            hand._legal = None
$load\
"""


class PlayoutLoops(Turns):
    """The compiled playout loops (see :mod:`spadeskit.engine.base`)."""

    def _compile_playouts(self) -> None:
        """Build the playout loops on plain locals (drawing exact indices, drawing floats),
        or leave them ``None`` where the rules play card by card instead.

        Possible when every enforced play filter is a building block (its statements are
        inlined, reading the hand in play from locals) and no filter is advisory: then
        nothing outside this loop sees the hand during a trick, so it is kept in locals and
        written to a state at the end of the hand, and to a frozen copy before each
        ``spadeskit_after_trick`` call where the rules have one.
        """
        self._follower_loops = {}
        self._playout = None
        self.compiled_play = self.compiled_play_fast = None
        filters = [f for f in self.rules.filters if f.enforced]
        if self.advisory or any(f.block is None for f in filters):
            return
        namespace: dict[str, Any] = {}
        body = []
        for k, f in enumerate(filters):
            assert f.block is not None
            body.append(f.block.inline(f"_c{k}_", _LOOP_READS, namespace))
        after = (
            ""
            if self.calls.after_trick is None
            else codegen.render(
                _AFTER_TRICK, load=codegen.indent(_LOAD, 3), store=codegen.indent(_STORE, 2)
            )
        )
        namespace.update(
            _N=self.n,
            _DRAW=self.draw,
            _pairs=self.pairs,
            _entries=self.entries,
            _next=self.next_seat,
            _suit_of=self.suit_of,
            _make_trick=make_trick,
            _bad=self._bad_filters,
            _after=self.calls.after_trick,
            _bad_after=self._bad_after_trick,
            _copy=copy_to_builder,
            _freeze=freeze,
            _GameState=GameState,
            _side_of=self.rules.side_of,
        )
        template = codegen.render(
            _PLAYOUT,
            load=codegen.indent(_LOAD, 1),
            store=codegen.indent(_STORE, 1),
            filters=codegen.indent("".join(body), 2),
            pick="$pick",
            after_trick=after,
        )
        self._playout = (template, namespace)
        self.compiled_play = self._playout_loop("exact")
        self.compiled_play_fast = self._playout_loop("floats")

    def _playout_loop(
        self, pick: str, follower: Callable[..., int] | None = None
    ) -> Callable[..., Any]:
        """Return the compiled loop that picks each card as ``_PICKS[pick]`` says."""
        assert self._playout is not None
        template, namespace = self._playout
        source = codegen.render(template, pick=_PICKS[pick])
        label = f"{pick} playout {self.rules.name}"
        return codegen.function(
            "play", source, {**namespace, "_follow": follower}, label=label, sources=self.sources
        )

    def _follower_loop(self, follower: Callable[..., int]) -> Callable[..., Any] | None:
        """Return the compiled loop in which ``follower`` chooses each following card
        (leads stay random), built the first time it is asked for; ``None`` where the
        rules have no compiled loops."""
        loop = self._follower_loops.get(follower)
        if loop is None and self._playout is not None:
            loop = self._follower_loops[follower] = self._playout_loop("follower", follower)
        return loop
