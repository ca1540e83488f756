"""Observations as numpy arrays, read straight from a state (numpy; used by the PettingZoo
environment and the OpenSpiel game's observer).

:func:`observe` gives exactly the float32 array of :meth:`Encoding.observation
<spadeskit.engine.encoding.Encoding.observation>` on the seat's view, slot for slot (a
test compares them on every state of random games under every shipped variant and
house rule), without building the view: no event list, no card objects, the seat's cards
read as a bit mask.  It reads only what the view shows: the seat's own hand, the cards
played, the trick, the bids, the books, how many cards each seat holds, the phase, whose
turn it is and the match.  Where the rules change what a view shows (a ``spadeskit_view``
hook, such as ``hidden-bids`` sealing bids), it builds the view and encodes that
instead, so nothing a plugin hides is ever read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from spadeskit.core.state import GameState
from spadeskit.engine.encoding import PHASES, Encoding
from spadeskit.engine.loaded import loaded_rules
from spadeskit.engine.viewing import make_view

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["action_mask", "observe"]

_BITS = np.arange(54, dtype=np.uint64)
_ONE = np.uint64(1)
_PHASE = {phase: index for index, phase in enumerate(PHASES)}
_PLAY = PHASES[2]


def action_mask(encoding: Encoding, ids: Sequence[int]) -> NDArray[np.int8]:
    """Return the int8 mask of ``ids`` over ``encoding``'s actions (1: legal)."""
    mask = np.zeros(encoding.num_actions, np.int8)
    mask[list(ids)] = 1
    return mask


def _bits(mask: int, width: int) -> NDArray[np.uint64]:
    """Return a card mask as ``width`` zeros and ones, by card index."""
    return (np.uint64(mask) >> _BITS[:width]) & _ONE


def observe(
    encoding: Encoding, game: GameState, seat: int, picked: Sequence[int] = ()
) -> NDArray[np.float32]:
    """Return ``seat``'s observation of ``game`` as a float32 array (see the module;
    ``picked``: the cards the seat has picked so far for a discard or exchange)."""
    if loaded_rules(game).calls.view is not None:
        view = make_view(game, seat, events=False)
        return np.asarray(encoding.observation(view, picked), np.float32)
    c, slots = encoding.cards, encoding.slots
    out = np.zeros(encoding.observation_size, np.float32)
    out[:c] = _bits(game.hands[seat], c)
    base = slots["played"].start
    for trick in game.tricks:
        for s, card in trick.plays:
            out[base + c * s + card] = 1.0
    trick_base = slots["trick"].start
    for s, card in game.trick:
        out[base + c * s + card] = 1.0
        out[trick_base + c * s + card] = 1.0
    base, width = slots["bids"].start, len(encoding.bids) + 1
    slot_of = encoding.bid_slots
    for s, bid in enumerate(game.bids):
        slot = slot_of.get(bid, -1) if bid is not None else width - 1
        if slot >= 0:
            out[base + width * s + slot] = 1.0
    books, held = slots["books"].start, slots["held"].start
    for s, (taken, hand) in enumerate(zip(game.books, game.hands, strict=True)):
        out[books + s] = taken / encoding.tricks
        out[held + s] = hand.bit_count() / encoding.largest_hand
    out[slots["seat"].start + seat] = 1.0
    if game.to_act is not None:
        out[slots["to_act"].start + game.to_act] = 1.0
    out[slots["dealer"].start + game.dealer] = 1.0
    if game.phase is _PLAY:
        out[slots["leader"].start + game.leader] = 1.0
    out[slots["phase"].start + _PHASE[game.phase]] = 1.0
    out[slots["tricks"].start] = len(game.tricks) / encoding.tricks
    if picked:
        out[[slots["picked"].start + card for card in picked]] = 1.0
    match = game.match
    scores, bags = slots["scores"].start, slots["bags"].start
    for side, (score, bag) in enumerate(zip(match.scores, match.bags, strict=True)):
        out[scores + side] = max(-1.0, min(1.0, score / 1000))
        out[bags + side] = min(1.0, bag / 10)
    out[slots["hand"].start] = min(1.0, game.number / 50)
    return out
