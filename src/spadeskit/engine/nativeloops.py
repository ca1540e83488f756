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


def _play_exact(kit: Kit, hand: Any, draw: Callable[[int], int], rows: Rows) -> Any:
    _N = kit.n
    _DRAW = kit.draw
    _pairs = kit.pairs
    _entries = kit.entries
    _next = kit.next_seat
    _suit_of = kit.suit_of
    _side_of = kit.side_of
    _filter = kit.allowed_of
    _bad = kit.bad
    _after = kit.after
    _bad_after = kit.bad_after
    _follow = kit.follow
    _k_hands: list[int] = list(hand.hands)
    _k_books: list[int] = list(hand.books)
    _k_won: list[int] = list(hand.won)
    _k_trick: tuple[Any, ...] = hand.trick
    _k_tricks: tuple[Any, ...] = hand.tricks
    _k_played: int = hand.played
    _k_log: Any = hand._log
    _k_leader: int = hand.leader
    _k_pile: tuple[int, ...] = hand.pile
    seat: int = hand.to_act
    while True:
        _k_held = _k_hands[seat]
        allowed = _k_held
        _k_got: object = _filter(allowed, _k_trick, _k_played, _k_tricks)
        if type(_k_got) is not int:
            raise _bad(seat, _k_held, _k_got)
        allowed = _k_got
        if type(allowed) is not int or allowed & ~_k_held or not allowed:
            raise _bad(seat, _k_held, allowed)
        for _ in range(draw(allowed.bit_count())):
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
        if _after is not None:
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
            _k_changed = _after(_freeze(_copy(hand)), _k_done)
            if _k_changed is not None:
                if not isinstance(_k_changed, _GameState):
                    raise _bad_after(_k_changed)
                hand = _copy(_k_changed)
                hand._legal = None
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
        if not _k_pile and not any(_k_hands):
            break
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
    return hand


def _play_floats(kit: Kit, hand: Any, draw: Callable[[], float], rows: Rows) -> Any:
    _N = kit.n
    _DRAW = kit.draw
    _pairs = kit.pairs
    _entries = kit.entries
    _next = kit.next_seat
    _suit_of = kit.suit_of
    _side_of = kit.side_of
    _filter = kit.allowed_of
    _bad = kit.bad
    _after = kit.after
    _bad_after = kit.bad_after
    _follow = kit.follow
    _k_hands: list[int] = list(hand.hands)
    _k_books: list[int] = list(hand.books)
    _k_won: list[int] = list(hand.won)
    _k_trick: tuple[Any, ...] = hand.trick
    _k_tricks: tuple[Any, ...] = hand.tricks
    _k_played: int = hand.played
    _k_log: Any = hand._log
    _k_leader: int = hand.leader
    _k_pile: tuple[int, ...] = hand.pile
    seat: int = hand.to_act
    while True:
        _k_held = _k_hands[seat]
        allowed = _k_held
        _k_got: object = _filter(allowed, _k_trick, _k_played, _k_tricks)
        if type(_k_got) is not int:
            raise _bad(seat, _k_held, _k_got)
        allowed = _k_got
        if type(allowed) is not int or allowed & ~_k_held or not allowed:
            raise _bad(seat, _k_held, allowed)
        for _ in range(int(draw() * allowed.bit_count())):
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
        if _after is not None:
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
            _k_changed = _after(_freeze(_copy(hand)), _k_done)
            if _k_changed is not None:
                if not isinstance(_k_changed, _GameState):
                    raise _bad_after(_k_changed)
                hand = _copy(_k_changed)
                hand._legal = None
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
        if not _k_pile and not any(_k_hands):
            break
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
    return hand


def _play_follower(kit: Kit, hand: Any, draw: Callable[[], float], rows: Rows) -> Any:
    _N = kit.n
    _DRAW = kit.draw
    _pairs = kit.pairs
    _entries = kit.entries
    _next = kit.next_seat
    _suit_of = kit.suit_of
    _side_of = kit.side_of
    _filter = kit.allowed_of
    _bad = kit.bad
    _after = kit.after
    _bad_after = kit.bad_after
    _follow = kit.follow
    _k_hands: list[int] = list(hand.hands)
    _k_books: list[int] = list(hand.books)
    _k_won: list[int] = list(hand.won)
    _k_trick: tuple[Any, ...] = hand.trick
    _k_tricks: tuple[Any, ...] = hand.tricks
    _k_played: int = hand.played
    _k_log: Any = hand._log
    _k_leader: int = hand.leader
    _k_pile: tuple[int, ...] = hand.pile
    seat: int = hand.to_act
    while True:
        _k_held = _k_hands[seat]
        allowed = _k_held
        _k_got: object = _filter(allowed, _k_trick, _k_played, _k_tricks)
        if type(_k_got) is not int:
            raise _bad(seat, _k_held, _k_got)
        allowed = _k_got
        if type(allowed) is not int or allowed & ~_k_held or not allowed:
            raise _bad(seat, _k_held, allowed)
        if _k_trick:
            allowed = _follow(_k_trick, allowed, seat, rows, _suit_of, _side_of)
        for _ in range(0 if _k_trick else int(draw() * allowed.bit_count())):
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
        if _after is not None:
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
            _k_changed = _after(_freeze(_copy(hand)), _k_done)
            if _k_changed is not None:
                if not isinstance(_k_changed, _GameState):
                    raise _bad_after(_k_changed)
                hand = _copy(_k_changed)
                hand._legal = None
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
        if not _k_pile and not any(_k_hands):
            break
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
    return hand
