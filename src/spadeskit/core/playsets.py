"""The legal plays of a card mask as shared ``Play`` values: the one loop behind
:func:`spadeskit.core.actions.plays_of`, compiled with the engine on the native core
(``legal_actions`` calls it for every state in play).

It holds no value classes, so that it compiles (mypyc), and it does not import
:mod:`spadeskit.core.actions`: that module hands it the ``Play`` of each card index.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["PlaySets"]

_FIRST_COPIES: Final = (1 << 54) - 1
"""The indices of the cards themselves: a second copy's is its card's + 54
(:data:`spadeskit.core.cards.COPY`, not imported: this module compiles alone)."""

_CHUNK_OF: Final = tuple(((1 << 13) - 1) << (13 * (i // 13)) for i in range(54))
"""The mask of the 13 card indices each index shares a chunk with (a suit's cards, in
index order; the jokers are a chunk of their own)."""


class PlaySets:
    """The ``Play`` of every card in a mask, by index, built from per-chunk tuples kept
    in a bounded cache (at most 2**13 per chunk): a mask of one suit, as when following,
    is one look-up."""

    def __init__(self, plays: tuple[Any, ...]) -> None:
        self.plays = plays
        self.chunks: dict[int, tuple[Any, ...]] = {}

    def of(self, mask: int) -> tuple[Any, ...]:
        """Return the ``Play`` of every card in ``mask``, by index (shared values); a
        card held twice (a deck that holds it twice) has one ``Play``."""
        if mask >= 1 << 54:  # second copies (index + 54) play as their cards
            mask = (mask | mask >> 54) & _FIRST_COPIES
        actions: tuple[Any, ...] = ()
        while mask:
            chunk = mask & _CHUNK_OF[(mask & -mask).bit_length() - 1]
            part = self.chunks.get(chunk)
            if part is None:
                found = []
                rest = chunk
                while rest:
                    low = rest & -rest
                    found.append(self.plays[low.bit_length() - 1])
                    rest ^= low
                part = self.chunks[chunk] = tuple(found)
            actions = actions + part if actions else part
            mask ^= chunk
        return actions
