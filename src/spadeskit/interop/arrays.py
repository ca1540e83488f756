"""Observations as numpy arrays, read straight from a state (numpy; used by the PettingZoo
environment).

:func:`observe` gives exactly the float32 array of :func:`spadeskit.interop.encoding.
observation` on the seat's view, field for field (a test compares them on every state
of random games under every shipped variant and house rule), without building the view:
no event list, no card objects, the seat's cards and the cards played read as bit masks.
It reads only what the view shows: the seat's own hand, the cards played, the trick,
the bids, the books, how many cards each seat holds, the phase, whose turn it is and the
match.  Where the rules change what a view shows (a ``spadeskit_view`` hook, such as
``hidden-bids`` sealing bids), it builds the view and encodes that instead, so nothing a
plugin hides is ever read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from spadeskit.core.actions import Action, Bid, BlindNil, Nil, Pass, PickUp
from spadeskit.core.errors import SpadesError
from spadeskit.core.state import GameState
from spadeskit.engine.loaded import loaded_rules
from spadeskit.engine.viewing import make_view
from spadeskit.interop.encoding import (
    BID_SLOTS,
    NUM_ACTIONS,
    PHASES,
    action_id,
    observation,
    observation_size,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["action_mask", "observe"]

_BITS = np.arange(54, dtype=np.uint64)
_ONE = np.uint64(1)
_PHASE = {phase: index for index, phase in enumerate(PHASES)}
_EXTRA = {Nil: 27, BlindNil: 28, PickUp: 29, Pass: 30}
_SIZES: dict[int, int] = {}


_IDS: dict[Action, int | None] = {}
"""Each action's id (``None``: an action with no number), as looked up once."""


def action_mask(actions: Sequence[Action]) -> NDArray[np.int8]:
    """Return the int8 mask of the numbered actions among ``actions`` (1: legal)."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    ids = _IDS
    for action in actions:
        number = ids.get(action, -1)
        if number == -1:
            try:
                number = ids[action] = action_id(action)
            except SpadesError:
                number = ids[action] = None
        if number is not None:
            mask[number] = 1
    return mask


def _bits(mask: int) -> NDArray[np.uint64]:
    """Return a card mask as 54 zeros and ones, by card index."""
    return (np.uint64(mask) >> _BITS) & _ONE


def observe(game: GameState, seat: int) -> NDArray[np.float32]:
    """Return ``seat``'s observation of ``game`` as a float32 array (see the module)."""
    if loaded_rules(game).calls.view is not None:
        view = make_view(game, seat, events=False)
        return np.asarray(observation(view), np.float32)
    n = len(game.hands)
    size = _SIZES.get(n)
    if size is None:
        size = _SIZES[n] = observation_size(n)
    out = np.zeros(size, np.float32)
    out[:54] = _bits(game.hands[seat])
    out[54:108] = _bits(game.played)
    base = 108
    for s, card in game.trick:
        out[base + 54 * s + card] = 1.0
    base += 54 * n
    for s, bid in enumerate(game.bids):
        slot = base + s * (BID_SLOTS + 1)
        if bid is None:
            out[slot + BID_SLOTS] = 1.0
        elif type(bid) is Bid:
            out[slot + min(bid.tricks, 26)] = 1.0
        else:
            extra = _EXTRA.get(type(bid))
            if extra is not None:
                out[slot + extra] = 1.0
    base += n * (BID_SLOTS + 1)
    for s, (books, held) in enumerate(zip(game.books, game.hands, strict=True)):
        out[base + s] = books / 26
        out[base + n + s] = held.bit_count() / 26
    base += 2 * n
    out[base + _PHASE[game.phase]] = 1.0
    base += len(PHASES)
    if game.to_act is not None:
        out[base + game.to_act] = 1.0
    out[base + n + seat] = 1.0
    base += 2 * n
    out[base + game.dealer] = 1.0
    match = game.match
    for side, (score, bags) in enumerate(zip(match.scores, match.bags, strict=True)):
        out[base + n + side] = max(-1.0, min(1.0, score / 1000))
        out[base + 2 * n + side] = min(1.0, bags / 10)
    out[base + 3 * n] = min(1.0, game.number / 50)
    return out
