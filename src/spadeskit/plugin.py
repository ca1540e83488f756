"""The public API for writing a variant or a house rule: the author's toolbox in one place.

A plugin is a module with ``@hookimpl`` functions (the rule points are listed in
:mod:`spadeskit.engine.hookspecs`) and a ``PLUGIN`` :class:`PluginInfo` naming it, its
kind, its options and what it fits or conflicts with.  This module gathers what a
plugin author writes with: the marker, the metadata, option validators, the play-filter
building blocks and the helpers that change a hand (defined in
:mod:`spadeskit.engine.authoring`), and the values a hook reads and returns: the table
and its deal plan, card ranks, contracts and steps, the state and the match, hand
summaries, score lines, tricks and the match's end, actions, cards and card masks.

Cards in a state are *indices* (0-51 for the 52 cards, 52 and 53 for the Little and Big
Joker), and a hand or a set of cards is an int *mask* with bit ``i`` set for card ``i``:
``game.hands[seat]`` is a mask, ``game.trick`` and ``Trick.plays`` hold
``(seat, card index)`` pairs.  :func:`card_at` turns an index into a :class:`Card`,
:func:`cards_of` a mask into cards, :func:`iter_mask` a mask into indices, and
:func:`mask_of` cards into a mask.  A deck may hold a card twice (six-handed Spades):
the second copy is the same card at index + :data:`COPY` (54), and
:func:`fold_copies` gives a mask's distinct cards.

>>> from spadeskit.plugin import card_at, cards_of, iter_mask, mask_of, parse_cards
>>> mask = mask_of(parse_cards("AS KH"))
>>> [card_at(i).code for i in iter_mask(mask)], [c.code for c in cards_of(mask)]
(['KH', 'AS'], ['KH', 'AS'])
"""

from spadeskit.core.actions import (
    Action,
    Bid,
    BlindNil,
    Discard,
    Exchange,
    Nil,
    Pass,
    PickUp,
    Play,
    SeeCards,
    is_nil,
)
from spadeskit.core.cards import (
    BIG_JOKER,
    COPY,
    LITTLE_JOKER,
    STANDARD_DECK,
    Card,
    CardLike,
    Suit,
    card_at,
    cards_of,
    fold_copies,
    iter_mask,
    mask_of,
    parse_card,
    parse_cards,
)
from spadeskit.core.errors import SpadesError
from spadeskit.core.results import (
    LINE_KINDS,
    BookTransfer,
    HandResult,
    HandScore,
    HandSummary,
    MatchEnd,
    ScoreLine,
    SideContract,
    Trick,
    side_contract,
)
from spadeskit.core.seating import CardRank, Contract, DealPlan, FrozenMap, Step, TableSpec
from spadeskit.core.state import GameState, HandState, MatchState, Phase
from spadeskit.core.views import View
from spadeskit.engine.authoring import *  # noqa: F403  (the API is authoring's, whole)
from spadeskit.engine.authoring import Validator as Validator
from spadeskit.engine.authoring import __all__ as _names

__all__ = [
    *_names,
    "BIG_JOKER",
    "COPY",
    "LINE_KINDS",
    "LITTLE_JOKER",
    "STANDARD_DECK",
    "Action",
    "Bid",
    "BlindNil",
    "BookTransfer",
    "Card",
    "CardLike",
    "CardRank",
    "Contract",
    "DealPlan",
    "Discard",
    "Exchange",
    "FrozenMap",
    "GameState",
    "HandResult",
    "HandScore",
    "HandState",
    "HandSummary",
    "MatchEnd",
    "MatchState",
    "Nil",
    "Pass",
    "Phase",
    "PickUp",
    "Play",
    "ScoreLine",
    "SeeCards",
    "SideContract",
    "SpadesError",
    "Step",
    "Suit",
    "TableSpec",
    "Trick",
    "Validator",
    "View",
    "card_at",
    "cards_of",
    "fold_copies",
    "is_nil",
    "iter_mask",
    "mask_of",
    "parse_card",
    "parse_cards",
    "side_contract",
]
