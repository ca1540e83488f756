"""The playout loop's filter functions of the shipped rule sets, compiled ahead of time.

Generated from the building blocks' definitions (:func:`spadeskit.engine.loop.filter_function`)
by ``SPADESKIT_WRITE_FILTERS=1 pytest tests/test_one_rulebook.py -k compiled_filters``;
do not edit: the tests fail if this file is not what its generator writes now.  Each
factory takes a rule set's constants and returns its ``allowed_of``, the very source
:func:`~spadeskit.engine.loop.build_loop` would run, typed, so the native core compiles it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["FACTORIES"]

Filter = Callable[[int, Any, int, Any], int]


def _filters_0(_c0__suit_of: tuple[int, ...], _c0__top_of: Any, _c0_suit_mask: tuple[int, ...], _c1__suit_of: tuple[int, ...], _c1__top_of: Any, _c1_others: int, _c1_trump: int, _c2__suit_of: tuple[int, ...], _c2__top_of: Any, _c2_others: int) -> Filter:
    def allowed_of(
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
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
    return allowed_of


def _filters_1(_c0__suit_of: tuple[int, ...], _c0__top_of: Any, _c0_suit_mask: tuple[int, ...]) -> Filter:
    def allowed_of(
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
        if (_k_trick):
            _kept = allowed & (_c0_suit_mask[_c0__suit_of[_k_trick[0][1]]])
            if _kept:
                allowed = _kept
        return allowed
    return allowed_of


def _filters_2(_c0__suit_of: tuple[int, ...], _c0__top_of: Any, _c0_suit_mask: tuple[int, ...], _c1__suit_of: tuple[int, ...], _c1__top_of: Any, _c1_others: int, _c1_trump: int) -> Filter:
    def allowed_of(
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
        if (_k_trick):
            _kept = allowed & (_c0_suit_mask[_c0__suit_of[_k_trick[0][1]]])
            if _kept:
                allowed = _kept
        if (not _k_trick) and (_k_played & _c1_trump == 0):
            _kept = allowed & (_c1_others)
            if _kept:
                allowed = _kept
        return allowed
    return allowed_of


def _filters_3(_c0__suit_of: tuple[int, ...], _c0__top_of: Any, _c0_above: tuple[int, ...], _c0_suit_mask: tuple[int, ...], _c0_trump_suit: int, _c0_trumps: int, _c0_width: int) -> Filter:
    def allowed_of(
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
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
    return allowed_of


FACTORIES: dict[str, Callable[..., Filter]] = {
    '0707ec62c366a9c929fd67a4': _filters_0,
    '95fb6a25c4a0d39ceca04321': _filters_1,
    'a80aeb92be2b051ab404e5ae': _filters_2,
    'b20956411b446d8fcac59f4f': _filters_3,
}
"""The factories by :func:`~spadeskit.engine.loop.filter_key` of the source they compile."""
