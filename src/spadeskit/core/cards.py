"""Cards, suits and their parsing.

A card is one of 54 interned :class:`Card` values: the 52 of a standard deck and the two
jokers.  Each has a compact index (``suit * 13 + rank - 2``; Little Joker 52, Big Joker
53) so that hands can be kept as int bitmasks on the hot path.  Parsing accepts the
forms players write: ``"AS"``, ``"10S"``, ``"TS"``, ``"A♠"``, ``"as"``, ``"BJ"``, ``"LJ"``.

A deck may hold a card twice (two decks shuffled together, as six-handed Spades plays).
The second copy is the same :class:`Card` (one ``AS``, one ``Play("AS")``) at its own
index, the card's index + :data:`COPY`, so a mask still holds each copy as one bit and
cards are conserved copy by copy: :func:`card_at` and :func:`cards_of` read both
indices, :func:`fold_copies` counts a mask's cards once each.

What a card *means* in a game (its effective suit, its strength) is not decided here but
by the variant's card-ranking hook: the 2♦ is a spade in Jokers-and-Deuces.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any, Union

import attrs

from spadeskit.core.errors import CardParseError, shown

__all__ = [
    "ALL_CARDS",
    "BIG_JOKER",
    "CARD_OF",
    "COPY",
    "LITTLE_JOKER",
    "RANK_NAMES",
    "STANDARD_DECK",
    "Card",
    "CardLike",
    "Suit",
    "card_at",
    "cards_of",
    "deck_indices",
    "fold_copies",
    "held_copy",
    "iter_mask",
    "mask_of",
    "misplaced",
    "parse_card",
    "parse_cards",
    "place_copies",
    "points_won",
]


class Suit(enum.IntEnum):
    """The four suits, in the order of their compact indices (not of their rank)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """Return the one-letter code: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """Return the suit symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]


RANK_NAMES = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
_RANK_WORDS = {
    "T": 10,
    "10": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": 14,
    **{str(r): r for r in range(2, 10)},
}
_SUIT_WORDS = {
    "C": Suit.CLUBS,
    "D": Suit.DIAMONDS,
    "H": Suit.HEARTS,
    "S": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
_JOKER_WORDS = {"LJ": 52, "BJ": 53, "LITTLE JOKER": 52, "BIG JOKER": 53}


@attrs.frozen(repr=False)
class Card:
    """One playing card, identified by its compact ``index`` (0–53).

    Cards are interned: use :func:`parse_card` or :meth:`Card.of`, never build two for
    the same index.

    >>> Card.of("10S").index, str(Card.of("TS")), Card.of("A♠").rank
    (47, '10S', 14)
    >>> Card.of("BJ").is_joker, Card.of("BJ").suit is None
    (True, True)
    """

    index: int = attrs.field(validator=lambda _card, _field, value: _check_index(value))

    @classmethod
    def of(cls, value: CardLike) -> Card:
        """Return the interned card for a :class:`Card`, a card string or an index."""
        return parse_card(value)

    @property
    def is_joker(self) -> bool:
        """Return whether this is the Little or the Big Joker."""
        return self.index >= 52

    @property
    def suit(self) -> Suit | None:
        """Return the printed suit, or ``None`` for a joker."""
        return None if self.index >= 52 else Suit(self.index // 13)

    @property
    def rank(self) -> int:
        """Return the printed rank, 2–14 (ace 14); 15 and 16 for Little and Big Joker."""
        return self.index % 13 + 2 if self.index < 52 else self.index - 37

    @property
    def code(self) -> str:
        """Return the canonical short code, e.g. ``"10S"``, ``"AH"``, ``"BJ"``."""
        return _CODES[self.index]

    @property
    def symbol(self) -> str:
        """Return the code with a suit symbol, e.g. ``"10♠"``; jokers stay ``BJ``/``LJ``."""
        if self.index >= 52:
            return self.code
        return RANK_NAMES[self.rank] + Suit(self.index // 13).symbol

    @property
    def bit(self) -> int:
        """Return ``1 << index``: this card as a one-card mask."""
        return 1 << self.index

    def __str__(self) -> str:
        return _CODES[self.index]

    def __repr__(self) -> str:
        return f"Card.of({_CODES[self.index]!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return card_at, (self.index,)


CardLike = Union[Card, str, int]


def _check_index(value: object) -> None:
    if type(value) is not int or not 0 <= value < 54:
        raise CardParseError(
            f"a card index is a whole number from 0 to 53, not {shown(value, 20)}; "
            "use spadeskit.parse_card('AS') for a card"
        )


_CODES = tuple([RANK_NAMES[i % 13 + 2] + "CDHS"[i // 13] for i in range(52)] + ["LJ", "BJ"])
_CARDS = tuple(Card(i) for i in range(54))
ALL_CARDS: tuple[Card, ...] = _CARDS
"""Every card, by index: ``ALL_CARDS[i]`` is the card with index ``i``."""
COPY = 54
"""How far a card's second copy is from it: in a deck that holds a card twice, the
second copy of the card with index ``i`` has index ``i + COPY``."""
_FIRST_COPIES = (1 << COPY) - 1
CARD_OF: tuple[Card, ...] = _CARDS + _CARDS
"""The card of every index, a second copy's included: ``CARD_OF[i] is card_at(i)``."""
LITTLE_JOKER = _CARDS[52]
BIG_JOKER = _CARDS[53]
STANDARD_DECK: tuple[Card, ...] = _CARDS[:52]
_PARSED: dict[str, Card] = {}
_CACHED_LENGTH = 4
"""Card texts this short ("AS", "10♠", "q♥") are remembered once parsed (at most 4,096
of them); a longer text is parsed each time, so no cache keeps a caller's long string."""


def _parse_text(text: str) -> Card:
    key = text.strip().upper()
    if key in _JOKER_WORDS:
        return _CARDS[_JOKER_WORDS[key]]
    if len(key) >= 2:
        suit = _SUIT_WORDS.get(key[-1])
        rank = _RANK_WORDS.get(key[:-1].strip())
        if suit is not None and rank is not None:
            return _CARDS[suit * 13 + rank - 2]
    raise CardParseError(
        f"cannot read {shown(text)} as a card: write rank then suit, "
        "like 'AS', '10S', 'TS' or 'A♠', or 'BJ'/'LJ' for the jokers"
    )


def parse_card(value: CardLike) -> Card:
    """Return the :class:`Card` a string, an index or a card stands for.

    >>> parse_card("qh"), parse_card("T♦"), parse_card(53)
    (Card.of('QH'), Card.of('10D'), Card.of('BJ'))
    >>> parse_card("1S")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    spadeskit.core.errors.CardParseError: cannot read '1S' as a card: write rank then suit, like ...
    """
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        if len(value) > _CACHED_LENGTH:  # padded or odd text: parsed, never kept
            return _parse_text(value)
        card = _PARSED.get(value)
        if card is None:
            card = _parse_text(value)
            if len(_PARSED) < 4096:
                _PARSED[value] = card
        return card
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 54:
        return _CARDS[value]
    raise CardParseError(f"cannot read {shown(value)} as a card: expected a card string like 'AS'")


def parse_cards(values: Iterable[CardLike] | str) -> tuple[Card, ...]:
    """Return the cards of a list, or of one string of codes separated by spaces/commas.

    >>> parse_cards("AS 10H, BJ")
    (Card.of('AS'), Card.of('10H'), Card.of('BJ'))
    """
    if isinstance(values, str):
        values = [v for v in values.replace(",", " ").split() if v]
    elif isinstance(values, (bytes, bytearray, Card, int)) or not isinstance(values, Iterable):
        raise CardParseError(
            f"expected a list of cards or a string like 'AS 10H', not {shown(values)}"
        )
    return tuple(parse_card(v) for v in values)


def mask_of(cards: Iterable[Card]) -> int:
    """Return the bitmask holding exactly these cards; a card listed twice is held twice
    (its second copy, at ``index + COPY``), as in a deck that holds it twice.

    >>> mask_of(parse_cards("AS KS AS")) == mask_of(parse_cards("AS KS")) | 1 << (51 + COPY)
    True
    """
    mask = 0
    for card in cards:
        bit = 1 << card.index
        mask |= bit << COPY if mask & bit else bit
    return mask


def fold_copies(mask: int) -> int:
    """Return ``mask`` with each card once, at its own index, whichever copies it holds:
    the distinct cards of a mask from a deck that holds a card twice.

    >>> fold_copies(1 << (51 + COPY)) == parse_card("AS").bit
    True
    """
    return (mask | mask >> COPY) & _FIRST_COPIES


def held_copy(mask: int, card: Card) -> int:
    """Return the index of the copy of ``card`` that ``mask`` holds (the first copy when
    it holds both), or ``-1`` when it holds none."""
    index = card.index
    if mask >> index & 1:
        return index
    if mask >> (index + COPY) & 1:
        return index + COPY
    return -1


def deck_indices(deck: Iterable[Card]) -> tuple[int, ...]:
    """Return the index of each card of ``deck``: a card's own, and ``index + COPY`` for
    its second copy (a third is refused by :meth:`TableSpec.problems
    <spadeskit.core.seating.TableSpec.problems>`, and given ``-1`` here).

    >>> deck_indices(parse_cards("AS KS AS"))
    (51, 50, 105)
    """
    seen: set[int] = set()
    found = []
    for card in deck:
        index = card.index
        if index in seen:
            index = -1 if index + COPY in seen else index + COPY
        seen.add(index)
        found.append(index)
    return tuple(found)


def iter_mask(mask: int) -> Iterator[int]:
    """Yield the card indices set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_CHUNKS: dict[int, tuple[Card, ...]] = {}


def points_won(values: Sequence[int], won: Iterable[int]) -> tuple[int, ...]:
    """Return the card points (``values`` by card index) in each mask of ``won``."""
    totals = []
    for mask in won:
        total = 0
        while mask:
            low = mask & -mask
            total += values[low.bit_length() - 1]
            mask ^= low
        totals.append(total)
    return tuple(totals)


def cards_of(mask: int) -> tuple[Card, ...]:
    """Return the cards in ``mask``, in index order; a card held twice (both copies, in
    a deck that holds it twice) is listed twice, side by side.

    >>> cards_of(mask_of(parse_cards("AS 2C")))
    (Card.of('2C'), Card.of('AS'))
    >>> cards_of(mask_of(parse_cards("AS 2C AS")))
    (Card.of('2C'), Card.of('AS'), Card.of('AS'))
    """
    if mask >= 1 << 54:  # second copies (1 << COPY, folded into a constant: no lookup)
        return tuple(sorted(cards_of(mask & _FIRST_COPIES) + cards_of(mask >> COPY)))
    found: tuple[Card, ...] = ()
    for shift in (0, 13, 26, 39, 52):
        bits = (mask >> shift) & 0x1FFF
        if bits:
            chunk = _CHUNKS.get(bits << shift)
            if chunk is None:
                chunk = _CHUNKS[bits << shift] = tuple(_CARDS[i] for i in iter_mask(bits << shift))
            found += chunk
    return found


def misplaced(
    groups: Iterable[tuple[str, Iterable[int]]], deck: Collection[int], verb: str, preposition: str
) -> str | None:
    """Return why the cards of named ``groups`` cannot all come from ``deck`` at once (a
    card that is not in it, or one that is in two groups), or ``None``.

    ``verb`` and ``preposition`` say what the groups did with their cards (``"dealt"``,
    ``"to"``; ``"won"``, ``"by"``).  In a deck that holds a card twice, the groups give
    each copy its own index (:func:`place_copies`).

    >>> misplaced([("N", [0, 1]), ("E", [1])], range(52), "dealt", "to")
    '3C is dealt twice: to N and to E'
    """
    seen: dict[int, str] = {}
    for where, cards in groups:
        for index in cards:
            first = index - COPY
            if index in seen or (index not in deck and first in seen and first in deck):
                # Once more than the deck holds it (a second copy the deck lacks, or a
                # third): name every place it went.
                places = [seen[i] for i in (first, index) if i >= 0 and i in seen] + [where]
                times = "twice" if len(places) == 2 else "three times"
                each = dict.fromkeys(places)
                listed = " and ".join(
                    f"{preposition} {p}"
                    + (" twice" if len(each) > 1 and places.count(p) > 1 else "")
                    for p in each
                )
                return f"{card_at(index)} is {verb} {times}: {listed}"
            if index not in deck:
                return f"{card_at(index)} {verb} {preposition} {where} is not in the deck"
            seen[index] = where
    return None


def place_copies(groups: Iterable[Iterable[int]]) -> list[tuple[int, ...]]:
    """Return the card indices of ``groups`` (hands, the blind, the pile) with each card's
    first listing at its own index and the next at its second copy's (``index + COPY``):
    the one way a deck that holds a card twice is placed, whether it was shuffled or
    given card by card, so that the same cards always give the same masks.  A third
    listing keeps the second copy's index (:func:`misplaced` names it).

    >>> place_copies([[51, 50], [51]])
    [(51, 50), (105,)]
    """
    seen: set[int] = set()
    placed = []
    for cards in groups:
        found = []
        for index in cards:
            if index in seen and index < COPY:
                index += COPY
            seen.add(index)
            found.append(index)
        placed.append(tuple(found))
    return placed


def card_at(index: int) -> Card:
    """Return the interned card with this compact index, or of the second copy at this
    index (no parsing, no checks)."""
    return CARD_OF[index]
