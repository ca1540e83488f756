"""Seeds: checking them, mixing a batch seed with an item number, drawing indices."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from spadeskit.core.errors import SpadesError, shown

__all__ = ["SEED_BITS", "check_range", "check_seed", "index_drawer", "mix"]

SEED_BITS = 256
"""Seeds are whole numbers of at most this many bits (either sign)."""


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is a whole number within :data:`SEED_BITS`; raise SpadesError if "
    "not."""
    if type(seed) is not int or seed.bit_length() > SEED_BITS:
        raise SpadesError(
            f"a seed is a whole number of at most {SEED_BITS} bits, not {shown(seed)}"
        )
    return seed


def check_range(hands: object, start: object, limit: int) -> None:
    """Raise SpadesError unless a number of hands and a start are whole numbers from 0
    to ``limit - 1``, ``limit`` a power of two (what a simulation of hands ``start`` …
    takes)."""
    for what, value in (("a number of hands", hands), ("a start", start)):
        if type(value) is not int or not 0 <= value < limit:
            raise SpadesError(
                f"{what} is a whole number from 0 to 2**{limit.bit_length() - 1} - 1, "
                f"not {shown(value, 40)}"
            )


def mix(seed: int, number: int) -> int:
    """Return a 64-bit seed for item ``number`` of a batch seeded with ``seed``."""
    data = hashlib.blake2b(f"{seed}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(data, "big")


def index_drawer(rng: random.Random) -> Callable[[int], int]:
    """Return ``draw(k)``: the index ``rng.choice`` draws from a sequence of length ``k``."""
    # random.Random.choice(seq) is seq[rng._randbelow(len(seq))]; randrange(k) draws the
    # same number through public API, only slower, where _randbelow is missing.
    draw: Callable[[int], int] = getattr(rng, "_randbelow", rng.randrange)
    return draw
