"""What a variant declares about its table: seats, sides, deck, deal, card meanings.

These are the values the table-setup and card-ranking hooks return.  They are read once,
when a :class:`~spadeskit.engine.rules.Rules` object is built, and compiled into lookup tables.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import attrs

from spadeskit.core.cards import COPY, Card, Suit, deck_indices

if TYPE_CHECKING:
    from spadeskit.core.actions import Action

__all__ = [
    "CardRank",
    "Contract",
    "DealPlan",
    "FrozenMap",
    "Ranking",
    "Step",
    "TableSpec",
    "show_points",
]


@attrs.frozen
class DealPlan:
    """How the cards are dealt: packets per round, hand size, blind, kitty and draw pile.

    Cards go clockwise from the dealer's left, ``packets[i]`` cards to each seat in round
    ``i``; then ``blind`` cards are set aside as the blind (widow) and the remaining
    ``pile`` cards form a face-down draw pile, top card first.  After every trick, each
    seat draws ``draw`` cards from the pile, the trick's winner first and then clockwise,
    while the pile lasts; a drawn card is seen only by the seat that draws it.

    ``kitty_to`` gives the blind to a seat at the deal, as a kitty: the seat
    ``kitty_to`` places clockwise from the dealer (0: the dealer, 1: the dealer's left
    …) picks the blind's cards up before the auction, and its first decision of the hand
    is to discard as many, face down (see :meth:`deal_steps`).  No other seat sees the
    kitty or the discards.  ``None`` (the default) leaves the blind aside, for a
    :class:`Contract` to give.

    >>> plan = DealPlan(hand_size=17, blind=1, kitty_to=0)
    >>> plan.deal_steps(dealer=2, players=3)
    (Step(seat=2, kind='discard', count=1, to=None, simultaneous=False, chosen=None),)
    """

    hand_size: int
    packets: tuple[int, ...] = ()
    blind: int = 0
    pile: int = 0
    draw: int = 0
    kitty_to: int | None = None

    def rounds(self) -> tuple[int, ...]:
        """Return the packet size of every round (one card at a time if none given)."""
        return self.packets if self.packets else (1,) * self.hand_size

    def kitty_seat(self, dealer: int, players: int) -> int | None:
        """Return the seat that picks up the kitty when ``dealer`` deals, or ``None``."""
        if self.kitty_to is None:
            return None
        return (dealer + self.kitty_to) % players

    def deal_steps(self, dealer: int, players: int) -> tuple[Step, ...]:
        """Return the steps owed after the deal, before the auction: the kitty's discard
        (none without a kitty)."""
        seat = self.kitty_seat(dealer, players)
        return () if seat is None else (Step(seat, "discard", self.blind),)


def show_points(points: int, unit: int = 1) -> str:
    """Return stored ``points`` in shown units: ``show_points(41, 10) == "4.1"``."""
    if unit == 1:
        return str(points)
    digits = len(str(unit)) - 1
    whole, part = divmod(abs(points), unit)
    return f"{'-' if points < 0 else ''}{whole}.{part:0{digits}d}"


@attrs.frozen
class TableSpec:
    """Seats, sides and deck of a variant.

    ``sides`` lists the seats of each scoring side: ``((0, 2), (1, 3))`` for partnerships,
    ``((0,), (1,), (2,))`` for three players on their own.

    ``score_unit`` is how many stored points make one shown point: scores, score lines
    and totals are whole numbers, so a game scored in tenths (call-break: 4.1) stores
    tenths and declares ``score_unit=10``; :meth:`show_score` writes a score for people.

    ``deck`` may hold a card twice (two decks together: six-handed Spades); each copy
    then has its own index (:data:`~spadeskit.core.cards.COPY`), listed in ``indices``.
    """

    players: int
    seat_names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    side_names: tuple[str, ...]
    deck: tuple[Card, ...]
    deal: DealPlan
    score_unit: int = 1

    side_of: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    """For each seat, the index of its side (derived from ``sides``)."""
    indices: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    """The card index of each card of ``deck``, in order: a card's own index, and for its
    second copy the index + :data:`~spadeskit.core.cards.COPY` (derived from ``deck``)."""
    size: int = attrs.field(init=False, eq=False, repr=False)
    """How many card indices the deck's cards use: 54, or 108 where it holds a card
    twice (the length of every table kept by card index)."""

    def __attrs_post_init__(self) -> None:
        owner = [0] * self.players
        for side, seats in enumerate(self.sides):
            for seat in seats:
                if type(seat) is int and 0 <= seat < self.players:
                    owner[seat] = side
        object.__setattr__(self, "side_of", tuple(owner))
        indices = deck_indices(self.deck) if all(isinstance(c, Card) for c in self.deck) else ()
        object.__setattr__(self, "indices", indices)
        object.__setattr__(self, "size", 2 * COPY if any(i >= COPY for i in indices) else COPY)

    @property
    def copies(self) -> bool:
        """Return whether the deck holds a card twice (two decks together)."""
        return self.size > COPY

    def show_score(self, points: int) -> str:
        """Return stored ``points`` as people read them: ``41`` is ``"4.1"`` when scores
        are kept in tenths, ``"41"`` otherwise.

        >>> TableSpec(1, ("N",), ((0,),), ("N",), (), DealPlan(0), score_unit=10).show_score(-50)
        '-5.0'
        """
        return show_points(points, self.score_unit)

    def problems(self) -> list[str]:
        """Return what is inconsistent in this table (empty when it is sound)."""
        found = []
        if self.score_unit not in (1, 10, 100, 1000):
            found.append(f"score_unit {self.score_unit!r} is not 1, 10, 100 or 1000")
        if len(self.seat_names) != self.players:
            found.append(f"{len(self.seat_names)} seat names for {self.players} players")
        seats = sorted(s for side in self.sides for s in side)
        if seats != list(range(self.players)):
            found.append(f"sides {self.sides} do not hold every seat exactly once")
        if len(self.side_names) != len(self.sides):
            found.append(f"{len(self.side_names)} side names for {len(self.sides)} sides")
        if not all(isinstance(c, Card) for c in self.deck):
            found.append("the deck holds something that is not a Card")
        elif -1 in self.indices:
            thrice = next(c for c, i in zip(self.deck, self.indices) if i < 0)
            found.append(f"the deck holds {thrice} more than twice (at most two decks together)")
        plan = self.deal
        if sum(plan.rounds()) != plan.hand_size:
            found.append(f"packets {plan.packets} do not add up to {plan.hand_size}")
        if plan.draw < 0 or (plan.draw and not plan.pile):
            found.append(f"draw {plan.draw} needs a draw pile and must not be negative")
        if plan.kitty_to is not None and (
            type(plan.kitty_to) is not int
            or not 0 <= plan.kitty_to < self.players
            or plan.blind < 1
        ):
            found.append(
                f"kitty_to {plan.kitty_to!r} must count 0 to {self.players - 1} seats from the "
                "dealer, and needs a blind of at least one card"
            )
        need = self.players * plan.hand_size + plan.blind + plan.pile
        if need != len(self.deck):
            found.append(f"the deal needs {need} cards but the deck has {len(self.deck)}")
        return found


@attrs.frozen
class CardRank:
    """What a card means in a variant: the suit it follows as, and its strength in it.

    The 2♦ of Jokers-and-Deuces is ``CardRank(Suit.SPADES, 17)``.  Strength orders the
    cards of one effective suit; higher beats lower.
    """

    suit: Suit
    strength: int


@attrs.frozen
class Step:
    """A card movement owed before the auction or before play: a discard, or cards
    passed to another seat.

    Steps are taken one after another, each seat seeing what the steps before moved,
    unless they are ``simultaneous``: a run of consecutive simultaneous steps is one
    group, in which every seat chooses blind of the others' choices, and the cards
    move only when the last of the group has chosen (each seat chooses from the cards
    it held when the group began).  A seat has at most one step in a group; put a
    plain step between two groups.  Any seat of the group may choose first; the
    state's ``to_act`` is the first of the group, in order, still to choose, and a
    record lists the group's choices in the group's order, whatever order they came in.

    ``chosen`` is the engine's: the seat's :class:`~spadeskit.core.actions.Discard` or
    :class:`~spadeskit.core.actions.Exchange` while the rest of its group has not
    chosen (``game.steps`` holds it then; only that seat's view shows it).  A plugin
    never sets it.
    """

    seat: int
    kind: Literal["discard", "exchange"]
    count: int
    to: int | None = None
    simultaneous: bool = False
    chosen: Action | None = None


@attrs.frozen
class Contract:
    """How the auction ended, as decided by the auction hook.

    ``trump`` names the trump mode handed to the trick-strength hook (``"spades"``,
    ``"ladder"``, ``"none"`` …); ``leader`` leads the first trick; ``declarer`` is the
    seat that took the blind (if any); ``blind_to`` says who gets the blind's cards:
    ``"declarer"`` (into hand), ``"last-trick"`` (to the winner of the last trick, as won
    cards) or ``None``; ``steps`` are the discards and exchanges owed before play.
    """

    leader: int
    trump: str = "spades"
    declarer: int | None = None
    blind_to: Literal["declarer", "last-trick"] | None = None
    steps: tuple[Step, ...] = ()


class FrozenMap(Mapping[str, Any]):
    """An immutable, hashable mapping: where plugins keep their own state."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        # A read-only view of a private dict: nothing reachable from a state can change it.
        self._data: Mapping[str, Any] = MappingProxyType({**(data or {}), **kwargs})
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    # The Mapping mixins implement these in Python; the dict's own are C calls.
    def get(self, key: str, default: Any = None) -> Any:
        """Return the value for ``key``, or ``default``."""
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._data == other._data
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({dict(self._data)!r})"

    def __reduce__(self) -> tuple[type[FrozenMap], tuple[dict[str, Any]]]:
        return FrozenMap, (dict(self._data),)

    def set(self, **changes: Any) -> FrozenMap:
        """Return a copy with these keys set."""
        return FrozenMap(self._data, **changes)


@attrs.frozen
class Ranking:
    """The compiled card ranking, handed to play filters and bots.

    ``suit_of[i]`` is the effective suit of card index ``i`` (``-1`` if not in the deck),
    ``strength[i]`` its strength within it, ``suit_mask[s]`` the mask of every deck card
    of effective suit ``s``, ``deck_mask`` the whole deck.
    """

    suit_of: tuple[int, ...]
    strength: tuple[int, ...]
    suit_mask: tuple[int, ...]
    deck_mask: int
