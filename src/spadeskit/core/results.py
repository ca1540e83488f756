"""Hand summaries, score lines and results: what scoring hooks read and write.

Scoring works from a :class:`HandSummary` (bids and books per seat, cards won where a
variant counts card points, book transfers from penalties, the tricks in order and the
hand's plugin data).  A scorekeeping app with pen-and-paper results uses the same
rules: its summaries have no tricks, and only a rule that reads them cannot score it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from spadeskit.core.actions import Action, Bid, is_nil
from spadeskit.core.cards import Card, card_at
from spadeskit.core.errors import PluginError, SpadesError, shown
from spadeskit.core.seating import FrozenMap

__all__ = [
    "LINE_KINDS",
    "BookTransfer",
    "HandResult",
    "HandSummary",
    "MatchEnd",
    "ScoreLine",
    "SideContract",
    "Trick",
    "is_score_line",
    "side_contract",
]


@attrs.frozen
class BookTransfer:
    """Books moved from one side to another by a penalty (renege, table talk)."""

    from_side: int
    to_side: int
    books: int
    reason: str


def _won_of(value: Any) -> Any:
    return value() if callable(value) else value


@attrs.frozen(weakref_slot=False, repr=False)
class HandSummary:
    """Everything a hand's score depends on.

    ``bids`` holds each seat's auction action (``Bid``, ``Nil``, ``PickUp``, ``Pass`` …),
    ``books`` the tricks each seat took, ``won`` the cards each seat took (tricks, and
    discards or blind where a variant counts them) when a variant scores card points,
    ``transfers`` the penalty book transfers, and ``trump`` the hand's trump mode.

    ``won`` may be given as a function returning the cards: they are then listed the
    first time a scoring hook reads them (most variants never do).  ``tricks`` holds the
    hand's tricks in order, ``None`` on a score sheet (reading it then raises), and may
    be given as a function too; ``extra`` is the hand's plugin data
    (the state's ``extra`` when it was scored).
    ``points`` holds each seat's card points, the cards in ``won`` valued as the variant's
    ``spadeskit_card_points`` declares; the engine and :meth:`Rules.score_hand
    <spadeskit.engine.rules.Rules.score_hand>` fill it in from ``won`` (``None`` where the
    variant values no card, or the cards won are not given).
    """

    bids: tuple[Action | None, ...]
    books: tuple[int, ...]
    _won: tuple[tuple[Card, ...], ...] | Callable[[], tuple[tuple[Card, ...], ...]] | None = (
        attrs.field(default=None, alias="won", eq=_won_of)
    )
    transfers: tuple[BookTransfer, ...] = ()
    trump: str = "spades"
    declarer: int | None = None
    points: tuple[int, ...] | None = None
    _tricks: tuple[Trick, ...] | Callable[[], tuple[Trick, ...]] | None = attrs.field(
        default=None, alias="tricks", eq=_won_of
    )
    extra: FrozenMap = attrs.field(factory=FrozenMap)

    @property
    def won(self) -> tuple[tuple[Card, ...], ...] | None:
        """Return the cards each seat took, or ``None`` where the variant does not count them."""
        value = self._won
        if callable(value):
            value = value()
            object.__setattr__(self, "_won", value)
        return value

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Return the hand's tricks in the order they were played (who led, the plays as
        ``(seat, card index)``, who won).

        Raises :class:`~spadeskit.core.errors.SpadesError` for a hand written on a score
        sheet, which has bids and books but no tricks: a scoring rule that reads them
        cannot score it.
        """
        value = self._tricks
        if callable(value):
            value = value()
            object.__setattr__(self, "_tricks", value)
        if value is None:
            raise SpadesError(
                "this hand was written on a score sheet: it has bids and books but no "
                "tricks, so a scoring rule that reads the tricks (HandSummary.tricks) cannot "
                "score it; score it from a game played card by card",
                code="no-tricks",
            )
        return value

    def __repr__(self) -> str:
        return (
            f"HandSummary(bids={self.bids!r}, books={self.books!r}, won={self.won!r}, "
            f"transfers={self.transfers!r}, trump={self.trump!r}, declarer={self.declarer!r}, "
            f"points={self.points!r}, extra={self.extra!r})"
        )


@attrs.frozen
class SideContract:
    """A side's contract in a hand and the books that count for it, as
    :func:`side_contract` reads them from a :class:`HandSummary`."""

    side: int
    bid: int
    """The sum of the side's contract bids (every :class:`~spadeskit.core.actions.Bid`,
    a plugin's subclass of it included; nils add nothing)."""
    bidders: tuple[int, ...]
    """The side's seats that did not bid nil, in seat order."""
    nils: tuple[int, ...]
    """The side's seats that bid nil or blind nil, in seat order."""
    took: int
    """The books that count toward the contract."""

    @property
    def made(self) -> bool:
        """Whether the counted books reach the contract (a side of nils only: yes)."""
        return self.took >= self.bid

    @property
    def over(self) -> int:
        """The counted books beyond the contract (overtricks, bags), 0 when set."""
        return max(0, self.took - self.bid)


def side_contract(
    summary: HandSummary, side: int, sides: Sequence[Sequence[int]], nil_tricks: str = "bags"
) -> SideContract:
    """Return ``side``'s contract in the hand ``summary`` sums up: the sum of its seats'
    non-nil bids, and the books that count for it.

    ``sides`` is the table's partnerships (``table.sides``).  A nil is a
    :class:`~spadeskit.core.actions.Nil` or :class:`~spadeskit.core.actions.BlindNil`
    (:func:`~spadeskit.core.actions.is_nil`; a ``Bid(0)``, where a variant offers one,
    is a contract of nothing).  A nil bidder's books count for the contract only with
    ``nil_tricks="partner"`` (the standard option of that name).

    >>> from spadeskit.core.actions import Bid, Nil
    >>> summary = HandSummary((Bid(4), Bid(3), Nil(), Bid(2)), (5, 3, 1, 4))
    >>> c = side_contract(summary, 0, ((0, 2), (1, 3)))
    >>> c.bid, c.bidders, c.nils, c.took, c.made, c.over
    (4, (0,), (2,), 5, True, 1)
    """
    seats = sides[side]
    bids, books = summary.bids, summary.books
    nils = tuple(s for s in seats if is_nil(bids[s]))
    bidders = tuple(s for s in seats if s not in nils)
    bid = sum(b.tricks for s in bidders if isinstance(b := bids[s], Bid))
    took = sum(books[s] for s in (seats if nil_tricks == "partner" else bidders))
    return SideContract(side, bid, bidders, nils, took)


LINE_KINDS: tuple[str, ...] = (
    "contract",
    "nil",
    "bag-penalty",
    "bonus",
    "penalty",
    "game-points",
    "other",
)
"""What a :class:`ScoreLine` may be for: a side's (or seat's) contract made or set, a
nil or blind nil, a bag (sandbag) penalty, a bonus, a penalty, game points (a variant
scored in points per hand won), or anything else."""


def is_score_line(line: object, sides: int) -> bool:
    """Return whether ``line`` is a :class:`ScoreLine` the engine can add up: whole
    numbers (not ``True``, ``1.5`` or ``"1"``) for one of ``sides`` sides, a ``bag_text``
    that is a string or ``None`` and a kind of :data:`LINE_KINDS`.

    Plain Python on purpose: the native core would turn a field of the wrong type into
    a bare ``TypeError`` when reading it, before it could name the plugin.
    """
    return (
        isinstance(line, ScoreLine)
        and type(line.side) is int
        and 0 <= line.side < sides
        and type(line.points) is int
        and type(line.bags) is int
        and type(line.bag_points) is int
        and (line.bag_text is None or type(line.bag_text) is str)
        and line.kind in LINE_KINDS
    )


def _text_of(value: str | Callable[[], str]) -> str:
    return value if isinstance(value, str) else value()


@attrs.frozen(repr=False)
class ScoreLine:
    """One line of a hand's score sheet, for one side.

    ``points`` is what the line adds to the side's score; ``bags`` what it adds to the
    side's bag counter (negative when a bag penalty takes the counter down); ``text`` is
    what a person reads: ``"N/S bid 7, took 8: +70, 1 bag (+1)"``.  ``bag_points`` is
    the part of ``points`` those bags scored: one a bag by default, 0 for bags that
    score nothing (a failed nil's tricks beside a set contract), so a house rule that
    takes bag scoring away knows what to take off.  ``bag_text`` is what the text says
    about those bags (``"1 bag (+1)"``), kept apart so that such a rule rewrites that
    part alone and never edits another rule's text: :attr:`text` reads
    ``"<text>, <bag_text>"``.  A line that says everything in ``text`` leaves it ``None``.

    ``text`` may be given as a function returning the text: it is then built the first
    time it is read, so simulations that never read score lines never format them.

    ``kind`` says what the line is for, so a rule that wraps the scoring can find what it
    adjusts without reading another rule's words: one of :data:`LINE_KINDS`
    (``"contract"``, ``"nil"``, ``"bag-penalty"``, ``"bonus"``, ``"penalty"``,
    ``"game-points"``, ``"other"``).  It is a label: two lines that score alike are
    equal whatever their kinds.

    >>> ScoreLine(0, 70, lambda: "N/S bid 7: +70").text
    'N/S bid 7: +70'
    >>> ScoreLine(0, 71, "N/S bid 7, took 8: +70", bags=1, bag_text="1 bag (+1)").text
    'N/S bid 7, took 8: +70, 1 bag (+1)'
    """

    side: int
    points: int
    _text: str | Callable[[], str] = attrs.field(alias="text", eq=_text_of)
    bags: int = 0
    bag_points: int = attrs.field(
        default=attrs.Factory(lambda line: max(line.bags, 0), takes_self=True)
    )
    bag_text: str | None = None
    kind: str = attrs.field(default="other", eq=False)

    def __repr__(self) -> str:
        return (
            f"ScoreLine(side={self.side!r}, points={self.points!r}, text={self._base()!r}, "
            f"bags={self.bags!r}, "
            f"bag_points={self.bag_points!r}, bag_text={self.bag_text!r}, kind={self.kind!r})"
        )

    @property
    def text(self) -> str:
        """Return what a person reads for this line (its bag text included)."""
        base = self._base()
        return base if self.bag_text is None else f"{base}, {self.bag_text}"

    def _base(self) -> str:
        value = self._text
        if not isinstance(value, str):
            try:
                value = value()
            except Exception as exc:
                raise PluginError(
                    f"a score line (side {self.side!r}, points {self.points!r}) could not "
                    f"build its text: {type(exc).__name__}: {exc}"
                ) from exc
            if not isinstance(value, str):
                raise PluginError(f"a score line's text is {shown(value, 40)}, not a string")
            object.__setattr__(self, "_text", value)
        return value


@attrs.frozen(weakref_slot=False)
class Trick:
    """A finished trick: who led, the plays as ``(seat, card index)``, who won it."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        """Return the cards in the order they were played."""
        return tuple(card_at(c) for _, c in self.plays)


@attrs.frozen
class MatchEnd:
    """Why a match ended and which side won."""

    winner: int
    reason: str


@attrs.frozen(weakref_slot=False)
class HandResult:
    """A finished (or voided) hand: bids, books, score lines and the totals after it.

    ``void`` hands (a misdeal) score nothing and say why in ``note``; ``transfers`` are
    the penalty book transfers; ``last_trick_winner`` took the hand's last book.
    """

    number: int
    dealer: int
    bids: tuple[Action | None, ...]
    books: tuple[int, ...]
    lines: tuple[ScoreLine, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    void: bool = False
    note: str = ""
    transfers: tuple[BookTransfer, ...] = ()
    last_trick_winner: int | None = None

    def lines_for(self, side: int) -> tuple[ScoreLine, ...]:
        """Return this hand's score lines for one side."""
        return tuple(line for line in self.lines if line.side == side)


@attrs.frozen(weakref_slot=False)
class HandScore:
    """The score of one hand: its lines, each side's points and bag counters after it."""

    lines: tuple[ScoreLine, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    bags: tuple[int, ...]
