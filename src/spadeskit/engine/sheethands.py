"""Hands written on paper, read and checked: bids as a scorekeeper writes them, books,
cards won and penalty transfers, turned into the :class:`~spadeskit.core.results.HandSummary`
the variant's scoring reads (bids through the variant's own auction).
:mod:`spadeskit.engine.scoresheet` re-exports :class:`SheetHand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from spadeskit.core.actions import Action, Bid, BlindNil, Nil, Pass, PickUp, SeeCards
from spadeskit.core.cards import (
    CardLike,
    card_at,
    misplaced,
    parse_cards,
    place_copies,
    points_won,
)
from spadeskit.core.errors import IllegalAction, SpadesError, shown
from spadeskit.core.results import BookTransfer, HandSummary
from spadeskit.core.seating import FrozenMap
from spadeskit.core.state import MatchState, Phase, evolve

if TYPE_CHECKING:
    from spadeskit.core.results import HandScore
    from spadeskit.engine.playing import Engine


BidLike = Action | int | str | None
"""A bid as a scorekeeper writes it: ``4``, ``"nil"``, ``"blind nil"``, ``"pick up"``,
``"pass"``, an action, or ``None`` for a seat that was not asked (three-suit-trump)."""


_WORDS: dict[str, Action] = {
    "nil": Nil(),
    "blind nil": BlindNil(),
    "blind-nil": BlindNil(),
    "blindnil": BlindNil(),
    "pick up": PickUp(),
    "pick-up": PickUp(),
    "pickup": PickUp(),
    "pass": Pass(),
}


def _as_action(value: BidLike, who: str) -> Action | str | None:
    """Return the bid ``value`` names, or its words (lower case, single spaces) when only
    the seat's choices can tell (a plugin's bid, read by its label: ``"blind 6"``)."""
    if value is None or isinstance(value, Action):
        return value
    if type(value) is int:
        return Bid(value) if value >= 0 else _refuse_bid(value, who)
    if isinstance(value, str):
        text = " ".join(value.strip().lower().split())
        if text in _WORDS:
            return _WORDS[text]
        if text.isdigit() and len(text) <= 3:
            return Bid(int(text))
        if 0 < len(text) <= 40:
            return text
    return _refuse_bid(value, who)


def _refuse_bid(value: object, who: str, legal: Sequence[Action] = ()) -> Action:
    also = f", or one of: {', '.join(map(str, legal))}" if legal else ""
    raise IllegalAction(
        f"{who}: cannot read the bid {shown(value, 40)}; write a number, 'nil', "
        f"'blind nil', 'pick up' or 'pass'{also}"
    )


@attrs.frozen
class SheetHand:
    """What was written down for one hand: the bids, the books, and where the variant
    needs them, the cards each seat won and the penalty transfers."""

    bids: tuple[Action | str | None, ...]
    books: tuple[int, ...]
    won: tuple[tuple[int, ...], ...] | None = None
    transfers: tuple[BookTransfer, ...] = ()


def checked_summary(
    engine: Engine, bids: Sequence[BidLike], books: Sequence[int], match: MatchState, dealer: int
) -> HandSummary:
    """Return the :class:`HandSummary` of a hand written as bids and books, checked as a
    score sheet checks them (the bids through the variant's own auction under ``match``
    with ``dealer`` dealing, the books adding up to the hand's tricks)."""
    return sheet_summary(
        engine, SheetHand(checked_bids(engine, bids), checked_books(engine, books)), match, dealer
    )


def checked_hand_summary(
    engine: Engine, summary: object, match: MatchState, dealer: int
) -> HandSummary:
    """Return ``summary`` checked as a score sheet checks a hand (bids through the
    variant's auction, books adding up, cards won and transfers possible), or raise a
    :class:`~spadeskit.core.errors.SpadesError` saying what is wrong with it."""
    if not isinstance(summary, HandSummary):
        raise SpadesError(f"expected a HandSummary, not {shown(summary, 40)}")
    won = summary.won
    entry = SheetHand(
        checked_bids(engine, summary.bids),
        checked_books(engine, summary.books),
        None if won is None else checked_won(engine, won),
        checked_transfers(engine, summary.transfers),
    )
    return sheet_summary(engine, entry, match, dealer)


def checked_transfers(engine: Engine, transfers: object) -> tuple[BookTransfer, ...]:
    """Return the book transfers, each between two different sides of this table and of
    0 or more books; raise SpadesError if one is not."""
    if isinstance(transfers, (str, bytes)) or not isinstance(transfers, Iterable):
        raise SpadesError(
            f"transfers are a list of BookTransfer values, not {shown(transfers, 40)}"
        )
    moved = tuple(transfers)
    sides = range(len(engine.rules.table.sides))
    for transfer in moved:
        if not isinstance(transfer, BookTransfer):
            raise SpadesError(
                f"a transfer is a spadeskit.core.results.BookTransfer, not {shown(transfer, 40)}"
            )
        ends = (transfer.from_side, transfer.to_side)
        if not all(type(side) is int and side in sides for side in ends) or ends[0] == ends[1]:
            raise SpadesError(
                f"a transfer moves books between two different sides of {engine.rules.name!r} "
                f"(0-{len(sides) - 1}), not from {shown(ends[0], 20)} to {shown(ends[1], 20)}"
            )
        if type(transfer.books) is not int or transfer.books < 0:
            raise SpadesError(f"a transfer moves 0 books or more, not {shown(transfer.books, 20)}")
    return moved


def _one_per_seat(value: object, n: int) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes)) and len(value) == n


def checked_bids(engine: Engine, bids: Sequence[BidLike]) -> tuple[Action | str | None, ...]:
    n = engine.rules.table.players
    if not _one_per_seat(bids, n):
        raise SpadesError(f"{engine.rules.name!r} has {n} seats: give {n} bids, one per seat")
    return tuple(_as_action(b, engine.shared.seat_name(s)) for s, b in enumerate(bids))


def sheet_summary(engine: Engine, entry: SheetHand, match: MatchState, dealer: int) -> HandSummary:
    game = _auction(engine, entry.bids, match, dealer)
    contract = game.contract
    won = (
        None
        if entry.won is None
        else tuple(tuple(card_at(c) for c in cards) for cards in entry.won)
    )
    return HandSummary(
        game.bids,
        entry.books,
        won,
        entry.transfers,
        contract.trump if contract else "spades",
        contract.declarer if contract else None,
        None
        if entry.won is None or engine.rules.card_points is None
        else points_won(
            engine.rules.card_points, [sum(1 << c for c in cards) for cards in entry.won]
        ),
    )


def _book_count(took: object) -> object:
    """Return a book count given as a number or as text (``"4"``, ``" 4 "``); anything
    else as it is, for the check to refuse."""
    if isinstance(took, str) and took.strip().isdecimal() and len(took.strip()) <= 3:
        return int(took.strip())
    return took


def checked_books(engine: Engine, books: Sequence[int | str]) -> tuple[int, ...]:
    table = engine.rules.table
    n = table.players
    if not _one_per_seat(books, n):
        raise SpadesError(
            f"{engine.rules.name!r} has {n} seats: give {n} book counts, one per seat"
        )
    counts: list[int] = []
    for seat, given in enumerate(books):
        took = _book_count(given)
        if type(took) is not int or took < 0:
            raise SpadesError(
                f"{engine.shared.seat_name(seat)} took {shown(given, 20)} books: books are whole "
                "numbers, 0 or more"
            )
        counts.append(took)
    tricks = (n * table.deal.hand_size + table.deal.pile) // n
    if sum(counts) != tricks:
        raise SpadesError(
            f"the books add up to {shown(sum(counts))}, but a hand of {engine.rules.name!r} has "
            f"{tricks} tricks"
        )
    return tuple(counts)


def checked_won(
    engine: Engine, won: Sequence[Iterable[CardLike] | str] | None
) -> tuple[tuple[int, ...], ...] | None:
    if won is None:
        return None
    n = engine.rules.table.players
    if not _one_per_seat(won, n):
        raise SpadesError(f"give the cards each of the {n} seats won")
    deck = set(engine.rules.table.indices)
    # A card won twice is its two copies (a deck that holds it twice).
    found = tuple(place_copies([tuple(c.index for c in parse_cards(cards)) for cards in won]))
    problem = misplaced(
        [(engine.shared.seat_name(s), cards) for s, cards in enumerate(found)], deck, "won", "by"
    )
    if problem:
        raise SpadesError(problem)
    taken = {c for cards in found for c in cards}
    if taken != deck:
        missing = sorted(deck - taken)
        raise SpadesError(
            f"every card is won by someone; missing: {' '.join(card_at(c).code for c in missing)}"
        )
    return found


def _auction(
    engine: Engine, wanted: Sequence[Action | str | None], match: MatchState, dealer: int
) -> Any:
    """Return a throwaway game whose auction took the bids, checked by the variant's own
    auction (order, ranges, the board, blind nil) under ``match``.

    The sheet knows no cards: the auction runs on a fixed deal, and a rule whose bids
    depend on the cards (``mirror``, ``whiz``) adds what it allows for some hand
    (``spadeskit_paper_bids``), so no bid is refused because of that deal's cards.
    """
    game = evolve(engine.dealer.new_game(0, None, dealer, (), ()), match=match)
    while game.phase is Phase.EXCHANGE:  # a kitty's discard before the auction: any will do
        game = game.apply(game.legal_actions()[0])
    asked = set()
    while game.phase is Phase.AUCTION:
        seat = game.to_act
        assert seat is not None
        asked.add(seat)
        want = wanted[seat]
        who = engine.shared.seat_name(seat)
        if want is None:
            raise IllegalAction(f"{who} bids in this hand: give their bid")
        legal = engine.auction.paper_bids(game, seat)
        if isinstance(want, str):
            want = _by_label(want, legal, game, who)
        if want not in legal and SeeCards() in game.legal_actions() and want != BlindNil():
            game = game.apply(SeeCards())  # a bid made after looking at one's cards
            legal = engine.auction.paper_bids(game, seat)
        if want not in legal and want == Bid(0) and Nil() in legal:
            want = Nil()  # a scorekeeper's 0 is nil where the variant says so
        if want not in legal:
            allowed = ", ".join(str(a) for a in legal)
            raise IllegalAction(f"{who} cannot bid {want} here; allowed: {allowed}")
        game = engine.auction.paper_bid(game, seat, want)
    for seat, want in enumerate(wanted):
        if want is not None and seat not in asked:
            raise IllegalAction(
                f"{engine.shared.seat_name(seat)} was not asked to bid in this hand (the auction "
                f"ended before their turn): write None"
            )
    return game


def _by_label(text: str, legal: tuple[Action, ...], game: Any, who: str) -> Action:
    """Return the bid whose label is ``text``, among the seat's choices before and (when
    it may look at its cards first) after looking."""
    choices = legal
    if SeeCards() in game.legal_actions():
        choices += tuple(a for a in game.apply(SeeCards()).legal_actions() if a not in legal)
    for action in choices:
        if str(action) == text:
            return action
    return _refuse_bid(text, who, choices)


def bid_text(bid: Action | None) -> str:
    if bid is None:
        return "-"
    if type(bid) is Bid:
        return str(bid.tricks)
    return {"nil": "nil", "blind-nil": "bnil", "pick-up": "up", "pass": "pass"}.get(
        bid.kind, bid.kind
    )


def score_written(
    engine: Engine,
    summary: HandSummary | None,
    bids: Sequence[BidLike] | None,
    books: Sequence[int] | None,
    scores: Sequence[int] | None,
    bags: Sequence[int] | None,
    dealer: int | None,
) -> HandScore:
    """Score a hand written down, checked as a score sheet checks it (see
    :meth:`Rules.score_hand <spadeskit.engine.rules.Rules.score_hand>`)."""
    n = engine.rules.table.players
    before = MatchState(
        _totals(engine, scores, "scores"), _totals(engine, bags, "bags"), (), (), None, FrozenMap()
    )
    if summary is None and (bids is None or books is None):
        raise SpadesError("score_hand needs a HandSummary, or both bids= and books=")
    dealt_by = engine.shared.check_seat(dealer, "dealer") if dealer is not None else n - 1
    if summary is None:
        assert bids is not None and books is not None
        summary = checked_summary(engine, bids, books, before, dealt_by)
    else:
        summary = checked_hand_summary(engine, summary, before, dealt_by)
    return engine.scoring.score(summary, before)


def _totals(engine: Engine, values: Sequence[int] | None, what: str) -> tuple[int, ...]:
    sides = len(engine.rules.table.sides)
    if values is None:
        return (0,) * sides
    if (
        isinstance(values, (str, bytes))
        or not isinstance(values, Sequence)
        or len(values) != sides
        or any(type(v) is not int for v in values)
    ):
        raise SpadesError(
            f"{what} before the hand are {sides} whole numbers, one per side, not "
            f"{shown(values, 40)}"
        )
    return tuple(values)
