"""Discards and exchanges: the actions of ``count`` cards from a hand, listed or the
``k``-th of them, built from tables made once (the legal-action lists of a step)."""

from __future__ import annotations

import itertools
import math

from spadeskit.core.actions import PLAYS, Action, Discard, Exchange
from spadeskit.core.cards import ALL_CARDS, fold_copies, iter_mask

__all__ = ["combos_of", "combos_cached", "nth_combo"]

_combos: dict[tuple[type, tuple[int, ...]], Action] = {}

_singles: dict[type, tuple[Action, ...]] = {}

_pairs: dict[type, tuple[tuple[Action, ...], ...]] = {}


def _single_table(kind: type[Discard] | type[Exchange]) -> tuple[Action, ...]:
    table = _singles.get(kind)
    if table is None:
        table = _singles[kind] = tuple(kind([card]) for card in ALL_CARDS)
    return table


def _pair_table(kind: type[Discard] | type[Exchange]) -> tuple[tuple[Action, ...], ...]:
    """Return ``table[i][j]`` (i < j): the shared two-card action, built once per kind."""
    table = _pairs.get(kind)
    if table is None:
        table = _pairs[kind] = tuple(
            tuple(kind([ALL_CARDS[i], ALL_CARDS[j]]) if i < j else PLAYS[0] for j in range(54))
            for i in range(54)
        )
    return table


def combos_of(kind: type[Discard] | type[Exchange], held: int, count: int) -> tuple[Action, ...]:
    """Return every ``kind`` action giving ``count`` cards of the mask ``held``, in
    ``itertools.combinations`` order.  Each value is built once and shared.  An action
    names each card once: a card held twice (two decks) is one card to choose."""
    cards = tuple(iter_mask(fold_copies(held)))
    if count == 1:
        row = _single_table(kind)
        return tuple([row[i] for i in cards])
    if count == 2:
        table = _pair_table(kind)
        return tuple([table[i][j] for k, i in enumerate(cards) for j in cards[k + 1 :]])
    return tuple(_combo(kind, combo) for combo in itertools.combinations(cards, count))


def nth_combo(kind: type[Discard] | type[Exchange], held: int, count: int, index: int) -> Action:
    """Return ``combos_of(kind, held, count)[index]`` without building the others.

    Combinations come in ``itertools.combinations`` (lexicographic) order; this walks
    that order by counting, as in the itertools recipe ``nth_combination``.
    """
    pool = tuple(iter_mask(fold_copies(held)))
    n = len(pool)
    chosen = []
    start = 0
    for left in range(count, 0, -1):
        for i in range(start, n - left + 1):
            block = math.comb(n - i - 1, left - 1)
            if index < block:
                chosen.append(pool[i])
                start = i + 1
                break
            index -= block
    return _combo(kind, tuple(chosen)) if count > 2 else combos_cached(kind, tuple(chosen))


def combos_cached(kind: type[Discard] | type[Exchange], indices: tuple[int, ...]) -> Action:
    """Return the shared one- or two-card ``kind`` action for these card indices."""
    if len(indices) == 1:
        return _single_table(kind)[indices[0]]
    return _pair_table(kind)[indices[0]][indices[1]]


def _combo(kind: type[Discard] | type[Exchange], indices: tuple[int, ...]) -> Action:
    key = (kind, indices)
    action = _combos.get(key)
    if action is None:
        action = kind([ALL_CARDS[i] for i in indices])
        if len(_combos) < 100_000:
            _combos[key] = action
    return action
