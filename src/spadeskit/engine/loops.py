"""The playout loops a rule set compiles: its cards played in one generated loop, the
hand kept in locals, when every enforced play filter is one of the library's building
blocks (their statements inlined).  :class:`~spadeskit.engine.playouts.Playouts` runs them.

The compiled core runs the same template rendered ahead of time into
:mod:`spadeskit.engine.nativeloops` (:func:`native_loops_source`), which calls the
filters as one function generated when rules load.
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
from spadeskit.engine import nativeloops
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


_PLAYOUT_BODY = """\
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

_PLAYOUT = "def play(hand, draw, rows):\n" + _PLAYOUT_BODY


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


# The same loops for the compiled core (spadeskit.engine.nativeloops): rendered once from
# the same template by native_loops_source() and compiled with the engine.  Compiled code
# runs the loop itself about 1.6x as fast, but cannot inline a rule set's filters (they
# are known only when rules load): it calls them as one generated function instead, and
# binds what the exec'd loops read as globals from the Kit that holds them.
_NATIVE_FILTERS = """\
_k_got: object = _filter(allowed, _k_trick, _k_played, _k_tricks)
if type(_k_got) is not int:
    raise _bad(seat, _k_held, _k_got)
allowed = _k_got
"""

_LOOP_FILTER = "def allowed_of(allowed, _k_trick, _k_played, _k_tricks):\n$body    return allowed\n"
"""The enforced building blocks as one function of the locals they read (native loops)."""

_NATIVE_TYPES = {
    "_k_hands": "list[int]",
    "_k_books": "list[int]",
    "_k_won": "list[int]",
    "_k_trick": "tuple[Any, ...]",
    "_k_tricks": "tuple[Any, ...]",
    "_k_played": "int",
    "_k_log": "Any",
    "_k_leader": "int",
    "_k_pile": "tuple[int, ...]",
    "seat": "int",
}

_NATIVE_BINDINGS = {
    "_N": "n",
    "_DRAW": "draw",
    "_pairs": "pairs",
    "_entries": "entries",
    "_next": "next_seat",
    "_suit_of": "suit_of",
    "_side_of": "side_of",
    "_filter": "allowed_of",
    "_bad": "bad",
    "_after": "after",
    "_bad_after": "bad_after",
    "_follow": "follow",
}
"""The names the template reads as globals, and the Kit attribute each is bound from."""

_NATIVE_DRAWS = {
    "exact": "Callable[[int], int]",
    "floats": "Callable[[], float]",
    "follower": "Callable[[], float]",
}

_NATIVE_HEADER = '''\
"""The playout loops of the compiled core: generated, do not edit.

:mod:`spadeskit.engine.loops` renders this module from the template its exec'd loops
come from (``native_loops_source``), and a test checks that it is up to date; mypyc
compiles it with the engine.  A :class:`Kit` holds what one rule set's loops read; the
enforced play filters are one generated function it calls.  The pure-Python core runs
the exec'd loops instead, which inline the filters.

After editing the template, render this module again from the clone's root::

    python -c "import pathlib, spadeskit.engine.loops as l; pathlib.Path(
        'src/spadeskit/engine/nativeloops.py').write_text(l.native_loops_source())"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spadeskit.core.state import GameState as _GameState
from spadeskit.core.state import copy_to_builder as _copy
from spadeskit.core.state import freeze as _freeze
from spadeskit.engine.tricks import make_trick as _make_trick

__all__ = ["COMPILED", "Kit"]

COMPILED: bool = not __file__.endswith(".py")
"""Whether this module runs compiled (the engine uses these loops only then)."""

Rows = tuple[tuple[int, ...], ...]


def _no_follower(*args: Any) -> int:
    raise AssertionError("this kit has no follower")


class Kit:
    """What one rule set's playout loops read, and the loops (one method per pick)."""

    def __init__(
        self,
        n: int,
        draw: int,
        pairs: tuple[tuple[Any, ...], ...],
        entries: tuple[tuple[Any, ...], ...],
        next_seat: tuple[int, ...],
        suit_of: tuple[int, ...],
        side_of: tuple[int, ...],
        allowed_of: Callable[[int, Any, int, Any], object],
        bad: Callable[[int, int, object], Exception],
        after: Callable[[Any, Any], Any] | None,
        bad_after: Callable[[object], Exception],
        follow: Callable[..., int] = _no_follower,
    ) -> None:
        self.n = n
        self.draw = draw
        self.pairs = pairs
        self.entries = entries
        self.next_seat = next_seat
        self.suit_of = suit_of
        self.side_of = side_of
        self.allowed_of = allowed_of
        self.bad = bad
        self.after = after
        self.bad_after = bad_after
        self.follow = follow

    def play_exact(self, hand: Any, draw: Callable[[int], int], rows: Rows) -> Any:
        """Play ``hand`` (a builder) to the end, each card the ``draw(k)``-th allowed."""
        return _play_exact(self, hand, draw, rows)

    def play_floats(self, hand: Any, draw: Callable[[], float], rows: Rows) -> Any:
        """Play ``hand`` to the end, each card the ``int(draw() * k)``-th allowed."""
        return _play_floats(self, hand, draw, rows)

    def play_follower(self, hand: Any, draw: Callable[[], float], rows: Rows) -> Any:
        """Play ``hand`` to the end: leads as :meth:`play_floats`, the rest as
        ``follow`` chooses."""
        return _play_follower(self, hand, draw, rows)
'''


def native_loops_source() -> str:
    """Return the source of :mod:`spadeskit.engine.nativeloops`: the playout template
    as a compiled module, one function per pick, typed so that mypyc keeps ints native."""
    after = codegen.render(
        _AFTER_TRICK, load=codegen.indent(_LOAD, 3), store=codegen.indent(_STORE, 2)
    )
    typed = "".join(
        f"{name}: {_NATIVE_TYPES[name]} = {value}\n"
        for name, value in (line.split(" = ", 1) for line in _LOAD.splitlines())
    )
    body = codegen.render(
        _PLAYOUT_BODY,
        load=codegen.indent(typed, 1),
        store=codegen.indent(_STORE, 1),
        filters=codegen.indent(_NATIVE_FILTERS, 2),
        pick="$pick",
        after_trick="        if _after is not None:\n" + codegen.indent(after, 1),
    )
    bind = "".join(f"    {name} = kit.{attr}\n" for name, attr in _NATIVE_BINDINGS.items())
    functions = [
        f"def _play_{pick}(kit: Kit, hand: Any, draw: {draw}, rows: Rows) -> Any:\n"
        + bind
        + codegen.render(body, pick=_PICKS[pick])
        for pick, draw in _NATIVE_DRAWS.items()
    ]
    return _NATIVE_HEADER + "\n\n" + "\n\n".join(functions)


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

        On the compiled core the loops are :mod:`~spadeskit.engine.nativeloops`' (the
        same template, compiled), given the statements as one generated function.
        """
        self._follower_loops = {}
        self._playout = None
        self._kit = None
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
        if nativeloops.COMPILED:
            allowed_of = codegen.function(
                "allowed_of",
                codegen.render(_LOOP_FILTER, body=codegen.indent("".join(body), 1)),
                namespace,
                label=f"playout filters {self.rules.name}",
                sources=self.sources,
            )
            self._kit = self._native_kit(allowed_of)
            self.compiled_play = self._kit.play_exact
            self.compiled_play_fast = self._kit.play_floats
            return
        self.compiled_play = self._playout_loop("exact")
        self.compiled_play_fast = self._playout_loop("floats")

    def _native_kit(
        self, allowed_of: Callable[..., object], follow: Callable[..., int] | None = None
    ) -> Any:
        """Return the compiled core's :class:`~spadeskit.engine.nativeloops.Kit` for
        these rules, its filters ``allowed_of``, its follower loop calling ``follow``."""
        return nativeloops.Kit(
            self.n,
            self.draw,
            self.pairs,
            self.entries,
            self.next_seat,
            self.suit_of,
            self.rules.side_of,
            allowed_of,
            self._bad_filters,
            self.calls.after_trick,
            self._bad_after_trick,
            *(() if follow is None else (follow,)),
        )

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
            if self._kit is not None:
                loop = self._native_kit(self._kit.allowed_of, follower).play_follower
            else:
                loop = self._playout_loop("follower", follower)
            self._follower_loops[follower] = loop
        return loop
