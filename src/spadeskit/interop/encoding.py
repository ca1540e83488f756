"""One action numbering and one observation for every rule set (used by the OpenSpiel and
PettingZoo adapters; no dependency of its own).

**Actions** are numbered the same way under every variant and house rule, so a trained
policy's output layer never moves:

============= ===============================================================
ids           action
============= ===============================================================
0-53          ``Play(card)``, by card index (2♣ is 0 … A♠ is 51, then BJ 52, LJ 53)
54-80         ``Bid(0)`` … ``Bid(26)``
81-87         ``Nil``, ``BlindNil``, ``SeeCards``, ``PickUp``, ``Pass``, ``Accept``,
              ``DeclareMisdeal``
88-113        ``CallRenege(1)`` … ``CallRenege(26)``
114-167       ``Exchange`` of one card, by card index
168-1598      ``Exchange`` of two cards, pairs (i, j), i < j, in order
1599-3029     ``Discard`` of two cards, pairs in the same order
============= ===============================================================

The referee's rulings (``TableTalk``) are not a player's actions and have no number.

**Observations** are flat lists of 0/1 floats (and a few counts scaled to [0, 1]) built
from a seat's :class:`~spadeskit.core.views.View` only: the seat's cards, every card played
this hand, the trick in progress by seat, each seat's bid, books and cards held, the
phase, whose turn it is, and the seat itself; then the match: the dealer, each side's
score (scaled by 1,000 and clipped to [-1, 1]) and bags (scaled by 10, at most 1), and
the hand's number (scaled by 50, at most 1), so two positions of different matches never
look alike. Sides take one slot per seat (a table has at most as many sides as seats);
the unused slots stay 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from spadeskit.core.actions import (
    Accept,
    Action,
    Bid,
    BlindNil,
    CallRenege,
    DeclareMisdeal,
    Discard,
    Exchange,
    Nil,
    Pass,
    PickUp,
    Play,
    SeeCards,
)
from spadeskit.core.cards import card_at
from spadeskit.core.errors import IllegalAction, SpadesError, shown
from spadeskit.core.state import Phase
from spadeskit.core.views import View

__all__ = [
    "BID_SLOTS",
    "NUM_ACTIONS",
    "PHASES",
    "action_id",
    "action_of",
    "observation",
    "observation_size",
]

_PAIRS = list(itertools.combinations(range(54), 2))
_PAIR_ID = {pair: k for k, pair in enumerate(_PAIRS)}
_SIMPLE: tuple[Action, ...] = (
    Nil(),
    BlindNil(),
    SeeCards(),
    PickUp(),
    Pass(),
    Accept(),
    DeclareMisdeal(),
)
BID0, SIMPLE0, RENEGE0, EXCHANGE1, EXCHANGE2, DISCARD2 = 54, 81, 88, 114, 168, 168 + len(_PAIRS)
NUM_ACTIONS = DISCARD2 + len(_PAIRS)
"""How many action ids there are (3,030)."""


def action_id(action: Action) -> int:
    """Return the number of ``action`` (see the module's table)."""
    if isinstance(action, Play):
        return action.card.index
    if isinstance(action, Bid) and action.tricks <= 26:
        return BID0 + action.tricks
    if action in _SIMPLE:
        return SIMPLE0 + _SIMPLE.index(action)
    if isinstance(action, CallRenege) and 1 <= action.trick <= 26:
        return RENEGE0 + action.trick - 1
    if isinstance(action, (Exchange, Discard)):
        cards = tuple(c.index for c in action.cards)
        if isinstance(action, Exchange) and len(cards) == 1:
            return EXCHANGE1 + cards[0]
        if len(cards) == 2:
            return (EXCHANGE2 if isinstance(action, Exchange) else DISCARD2) + _PAIR_ID[
                (cards[0], cards[1])
            ]
    raise SpadesError(f"{action} has no action number (see spadeskit.interop.encoding)")


def action_of(number: int) -> Action:
    """Return the action numbered ``number``."""
    if type(number) is not int or not 0 <= number < NUM_ACTIONS:
        raise IllegalAction(
            f"an action number is 0 to {NUM_ACTIONS - 1}, not {shown(number, 30)}",
            code="not-an-action",
        )
    if number < BID0:
        return Play(number)
    if number < SIMPLE0:
        return Bid(number - BID0)
    if number < RENEGE0:
        return _SIMPLE[number - SIMPLE0]
    if number < EXCHANGE1:
        return CallRenege(number - RENEGE0 + 1)
    if number < EXCHANGE2:
        return Exchange([card_at(number - EXCHANGE1)])
    if number < DISCARD2:
        return Exchange([card_at(i) for i in _PAIRS[number - EXCHANGE2]])
    return Discard([card_at(i) for i in _PAIRS[number - DISCARD2]])


def legal_ids(actions: Sequence[Action]) -> list[int]:
    """Return the numbers of the numbered actions among ``actions``, ascending."""
    found = []
    for action in actions:
        try:
            found.append(action_id(action))
        except SpadesError:
            continue
    return sorted(found)


PHASES = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY, Phase.REVIEW, Phase.OVER)
"""The phases in the order an observation's phase slots give them."""
BID_SLOTS = 27 + 4
"""A seat's bid slots in an observation: Bid(0..26), nil, blind nil, pick up, pass (and
one more after them: no bid yet)."""


def observation_size(players: int) -> int:
    """Return the length of an observation at a table of ``players`` seats."""
    return (
        54
        + 54
        + 54 * players
        + players * (BID_SLOTS + 1)
        + players * 2
        + len(PHASES)
        + players * 2
        + players * 3
        + 1
    )


def observation(view: View) -> list[float]:
    """Return the observation of ``view`` (a seat's view; see the module)."""
    n = len(view.seat_names)
    out = [0.0] * observation_size(n)
    for c in view.cards:
        out[c.index] = 1.0
    base = 54
    for t in view.tricks:
        for _, c in t.plays:
            out[base + c.index] = 1.0
    for _, c in view.trick:
        out[base + c.index] = 1.0
    base += 54
    for s, c in view.trick:
        out[base + 54 * s + c.index] = 1.0
    base += 54 * n
    for s, bid in enumerate(view.bids):
        slot = base + s * (BID_SLOTS + 1)
        if bid is None:
            out[slot + BID_SLOTS] = 1.0
        elif isinstance(bid, Bid):
            out[slot + min(bid.tricks, 26)] = 1.0
        else:
            extra = {Nil: 27, BlindNil: 28, PickUp: 29, Pass: 30}.get(type(bid))
            if extra is not None:
                out[slot + extra] = 1.0
    base += n * (BID_SLOTS + 1)
    for s in range(n):
        out[base + s] = view.books[s] / 26
        out[base + n + s] = view.card_counts[s] / 26
    base += 2 * n
    out[base + PHASES.index(view.phase)] = 1.0
    base += len(PHASES)
    if view.to_act is not None:
        out[base + view.to_act] = 1.0
    if view.seat is not None:
        out[base + n + view.seat] = 1.0
    base += 2 * n
    out[base + view.dealer] = 1.0
    for side, (score, bags) in enumerate(zip(view.scores, view.bags, strict=True)):
        out[base + n + side] = max(-1.0, min(1.0, score / 1000))
        out[base + 2 * n + side] = min(1.0, bags / 10)
    out[base + 3 * n] = min(1.0, view.hand_number / 50)
    return out
