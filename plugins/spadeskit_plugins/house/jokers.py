"""``jokers``: Big Joker > Little Joker > A♠ as the top spades.

The deck stays 52 cards, so two cards leave it: the 2♦ and the 2♣ (option
``jokers_remove``, any two cards, e.g. ``"2D 2H"``): adding two jokers and removing one
card would leave 53 cards for 4 × 13.  The jokers count as spades for following suit and
for breaking spades.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spadeskit.core.cards import BIG_JOKER, LITTLE_JOKER, Card, Suit, parse_cards
from spadeskit.core.errors import SpadesError
from spadeskit.core.seating import CardRank, TableSpec
from spadeskit.engine.hookspecs import Options
from spadeskit.plugin import Option, PluginInfo, hookimpl


def two_cards(value: object) -> str | None:
    """Validate ``jokers_remove``: two different, non-joker cards."""
    try:
        cards = parse_cards(value) if isinstance(value, str) else ()
    except SpadesError as exc:
        return str(exc)
    if len(set(cards)) != 2 or any(c.suit is None for c in cards):
        return "must name two different cards of the standard deck, like '2D 2C'"
    return None


PLUGIN = PluginInfo(
    name="jokers",
    kind="house-rule",
    summary="Big Joker and Little Joker are the top two spades; two deuces leave the deck.",
    options=(
        Option(
            "jokers_remove",
            "2D 2C",
            "The two cards taken out to keep 52 cards, e.g. '2D 2C'.",
            two_cards,
        ),
    ),
    fits=("standard",),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "trumps": "BJ LJ",
    "options": {"jokers_remove": "'2D 2C'|'2D 2H'|'3C 4H'|!'2D 2D'|!'BJ 2C'|!'2D'|!'2D 2X'"},
    "defaults": {"jokers_remove": "2D 2C"},
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
_DEAL = (
    "AS 2S 3S AH KH AC KC QC AD KD QD JD 10D",
    "KS QS JS 10S QH JH 10H JC 10C 9D 8D 7D 6D",
    "9S 8S 7S 9H 8H 7H 6H 9C 8C 7C 6C 5D 4D",
    "6S 5S 4S 5H 4H 3H 2H 5C 4C 3C BJ 3D LJ",
)
EXAMPLES = (
    {
        "rule": "the Little Joker is a spade: it trumps a diamond lead",
        "deal": _DEAL,
        "actions": [
            *("bid 3", "bid 3", "bid 3", "bid 3"),
            *("play AD", "play 6D", "play 4D", "play 3D"),
            *("play KD", "play 7D", "play 5D", "play LJ"),
        ],
        "winner": "W",
    },
)

_RANKS = {LITTLE_JOKER: CardRank(Suit.SPADES, 15), BIG_JOKER: CardRank(Suit.SPADES, 16)}


@hookimpl(wrapper=True)
def spadeskit_table(options: Options) -> Generator[None, TableSpec, TableSpec]:
    table = yield
    removed = set(parse_cards(options["jokers_remove"]))
    deck = tuple(c for c in table.deck if c not in removed) + (LITTLE_JOKER, BIG_JOKER)
    return attrs.evolve(table, deck=deck)


@hookimpl
def spadeskit_card_rank(card: Card) -> CardRank | None:
    return _RANKS.get(card)
