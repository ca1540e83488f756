"""The shipped rule sets' playout filter functions, compiled ahead of time.

Generated from the building blocks' definitions (:func:`spadeskit.engine.loop.filter_function`)
by ``SPADESKIT_WRITE_FILTERS=1 pytest tests/test_one_rulebook.py -k compiled_filters``;
do not edit: the tests fail if this file is not what its generator writes now.  Each
class holds a rule set's constants, and its ``allowed`` method runs the very source
:func:`~spadeskit.engine.loop.build_loop` would otherwise run as generated, typed, so
the native core compiles it and the compiled loop calls it natively.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FACTORIES", "PlayoutFilter"]


class PlayoutFilter:
    """A rule set's play filters compiled: :meth:`allowed` narrows the mask of a seat's
    cards, ``allowed``, to those it may play, reading the trick so far, the cards played
    this hand and the finished tricks."""

    def allowed(
        self,
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
        raise NotImplementedError


class _Filters0(PlayoutFilter):
    def __init__(
        self,
        _c0__suit_of: tuple[int, ...],
        _c0__top_of: Any,
        _c0_suit_mask: tuple[int, ...],
        _c1__suit_of: tuple[int, ...],
        _c1__top_of: Any,
        _c1_others: int,
        _c1_trump: int,
        _c2__suit_of: tuple[int, ...],
        _c2__top_of: Any,
        _c2_others: int,
    ) -> None:
        self._c0__suit_of = _c0__suit_of
        self._c0__top_of = _c0__top_of
        self._c0_suit_mask = _c0_suit_mask
        self._c1__suit_of = _c1__suit_of
        self._c1__top_of = _c1__top_of
        self._c1_others = _c1_others
        self._c1_trump = _c1_trump
        self._c2__suit_of = _c2__suit_of
        self._c2__top_of = _c2__top_of
        self._c2_others = _c2_others

    def allowed(
        self,
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
        _c0__suit_of = self._c0__suit_of
        _c0_suit_mask = self._c0_suit_mask
        _c1_others = self._c1_others
        _c1_trump = self._c1_trump
        _c2_others = self._c2_others
        if (_k_trick):
            _kept = allowed & (_c0_suit_mask[_c0__suit_of[_k_trick[0][1]]])
            if _kept:
                allowed = _kept
        if (not _k_trick) and (_k_played & _c1_trump == 0):
            _kept = allowed & (_c1_others)
            if _kept:
                allowed = _kept
        if (len(_k_tricks) == 0):
            _kept = allowed & (_c2_others)
            if _kept:
                allowed = _kept
        return allowed


class _Filters1(PlayoutFilter):
    def __init__(
        self,
        _c0__suit_of: tuple[int, ...],
        _c0__top_of: Any,
        _c0_suit_mask: tuple[int, ...],
    ) -> None:
        self._c0__suit_of = _c0__suit_of
        self._c0__top_of = _c0__top_of
        self._c0_suit_mask = _c0_suit_mask

    def allowed(
        self,
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
        _c0__suit_of = self._c0__suit_of
        _c0_suit_mask = self._c0_suit_mask
        if (_k_trick):
            _kept = allowed & (_c0_suit_mask[_c0__suit_of[_k_trick[0][1]]])
            if _kept:
                allowed = _kept
        return allowed


class _Filters2(PlayoutFilter):
    def __init__(
        self,
        _c0__suit_of: tuple[int, ...],
        _c0__top_of: Any,
        _c0_suit_mask: tuple[int, ...],
        _c1__suit_of: tuple[int, ...],
        _c1__top_of: Any,
        _c1_others: int,
        _c1_trump: int,
    ) -> None:
        self._c0__suit_of = _c0__suit_of
        self._c0__top_of = _c0__top_of
        self._c0_suit_mask = _c0_suit_mask
        self._c1__suit_of = _c1__suit_of
        self._c1__top_of = _c1__top_of
        self._c1_others = _c1_others
        self._c1_trump = _c1_trump

    def allowed(
        self,
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
        _c0__suit_of = self._c0__suit_of
        _c0_suit_mask = self._c0_suit_mask
        _c1_others = self._c1_others
        _c1_trump = self._c1_trump
        if (_k_trick):
            _kept = allowed & (_c0_suit_mask[_c0__suit_of[_k_trick[0][1]]])
            if _kept:
                allowed = _kept
        if (not _k_trick) and (_k_played & _c1_trump == 0):
            _kept = allowed & (_c1_others)
            if _kept:
                allowed = _kept
        return allowed


class _Filters3(PlayoutFilter):
    def __init__(
        self,
        _c0__suit_of: tuple[int, ...],
        _c0__top_of: Any,
        _c0_above: tuple[int, ...],
        _c0_suit_mask: tuple[int, ...],
        _c0_trump_suit: int,
        _c0_trumps: int,
        _c0_width: int,
    ) -> None:
        self._c0__suit_of = _c0__suit_of
        self._c0__top_of = _c0__top_of
        self._c0_above = _c0_above
        self._c0_suit_mask = _c0_suit_mask
        self._c0_trump_suit = _c0_trump_suit
        self._c0_trumps = _c0_trumps
        self._c0_width = _c0_width

    def allowed(
        self,
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
        _c0__suit_of = self._c0__suit_of
        _c0__top_of = self._c0__top_of
        _c0_above = self._c0_above
        _c0_suit_mask = self._c0_suit_mask
        _c0_trump_suit = self._c0_trump_suit
        _c0_trumps = self._c0_trumps
        _c0_width = self._c0_width
        if (_k_trick):
            _kept = allowed & (_c0_suit_mask[_c0__suit_of[_k_trick[0][1]]])
            if _kept:
                allowed = _kept
        if (_k_trick) and (allowed & _c0_suit_mask[_c0__suit_of[_k_trick[0][1]]] != 0) and ((_c0__suit_of[_k_trick[0][1]] == _c0_trump_suit) | (_c0__top_of(_k_trick)[_c0_trump_suit] < 0)):
            _kept = allowed & (_c0_above[_c0__suit_of[_k_trick[0][1]] * _c0_width + _c0__top_of(_k_trick)[_c0__suit_of[_k_trick[0][1]]] + 1])
            if _kept:
                allowed = _kept
        if (_k_trick) and (allowed & _c0_suit_mask[_c0__suit_of[_k_trick[0][1]]] == 0):
            _kept = allowed & (_c0_trumps)
            if _kept:
                allowed = _kept
        if (_k_trick) and (allowed & _c0_suit_mask[_c0__suit_of[_k_trick[0][1]]] == 0) and (allowed & _c0_trumps != 0):
            _kept = allowed & (_c0_above[_c0_trump_suit * _c0_width + _c0__top_of(_k_trick)[_c0_trump_suit] + 1])
            if _kept:
                allowed = _kept
        return allowed


FACTORIES: dict[str, type[PlayoutFilter]] = {
    '0707ec62c366a9c929fd67a4': _Filters0,
    '95fb6a25c4a0d39ceca04321': _Filters1,
    'a80aeb92be2b051ab404e5ae': _Filters2,
    'b20956411b446d8fcac59f4f': _Filters3,
}
"""The compiled filters by :func:`~spadeskit.engine.loop.filter_key` of their source."""
