"""A score sheet for paper games: bids and books in, the variant's score lines out.

Players at a real table keep score on paper; an app that only records what each seat
bid and how many books (tricks) it took uses :meth:`Rules.score_sheet
<spadeskit.rules.Rules.score_sheet>`:

>>> import spadeskit
>>> sheet = spadeskit.load_rules("standard").score_sheet()
>>> sheet = sheet.add_hand(bids=[3, 2, 4, "nil"], books=[4, 3, 5, 1])
>>> sheet.scores, sheet.bags
((72, -78), (2, 2))
>>> sheet.is_over
False

A sheet is immutable: :meth:`ScoreSheet.add_hand` and :meth:`ScoreSheet.undo` return a
new one.  It scores with exactly the variant's own rules, house rules included: the
bids go through the variant's auction (a seat that may not bid that, in that order,
is refused with the reason), the hand through its scoring hook and the match through
its match-end hook, so a sheet and a game played card by card agree to the point.
:meth:`ScoreSheet.to_json` saves it; :func:`spadeskit.load_score_sheet` rebuilds it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .actions import Action, Bid, BlindNil, Nil, Pass, PickUp, SeeCards, action_from_json
from .cards import CardLike, card_at, misplaced, parse_cards
from .errors import GameOver, IllegalAction, RecordError, SpadesError, shown
from .results import BookTransfer, HandResult, HandSummary
from .state import MatchState, MatchTotals, Phase, evolve

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["SCORE_SHEET_FORMAT", "ScoreSheet", "SheetHand"]

SCORE_SHEET_FORMAT = "spadeskit-score-sheet"
SCORE_SHEET_VERSION = 1

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


def _as_action(value: BidLike, who: str) -> Action | None:
    if value is None or type(value) in (Bid, Nil, BlindNil, PickUp, Pass):
        return value  # type: ignore[return-value]
    if type(value) is int:
        return Bid(value) if value >= 0 else _refuse_bid(value, who)
    if isinstance(value, str):
        text = " ".join(value.strip().lower().split())
        if text in _WORDS:
            return _WORDS[text]
        if text.isdigit() and len(text) <= 3:
            return Bid(int(text))
    return _refuse_bid(value, who)


def _refuse_bid(value: object, who: str) -> Action:
    raise IllegalAction(
        f"{who}: cannot read the bid {shown(value, 40)}; write a number, 'nil', "
        "'blind nil', 'pick up' or 'pass'"
    )


@attrs.frozen
class SheetHand:
    """What was written down for one hand: the bids, the books, and where the variant
    needs them, the cards each seat won and the penalty transfers."""

    bids: tuple[Action | None, ...]
    books: tuple[int, ...]
    won: tuple[tuple[int, ...], ...] | None = None
    transfers: tuple[BookTransfer, ...] = ()


@attrs.frozen
class ScoreSheet(MatchTotals):
    """The score sheet of a match kept on paper (see the module docs).

    ``hands`` holds what was entered, ``results`` the scored hands (with their score
    lines), ``match`` the running totals; ``dealer`` deals the next hand.
    """

    rules: Rules = attrs.field(repr=False)
    first_dealer: int
    hands: tuple[SheetHand, ...]
    match: MatchState = attrs.field(repr=False)
    dealer: int | None

    @classmethod
    def start(cls, rules: Rules, dealer: int | None = None) -> ScoreSheet:
        """Return an empty sheet; ``dealer`` deals the first hand (default: the last seat)."""
        first = (
            rules.table.players - 1 if dealer is None else rules.engine.check_seat(dealer, "dealer")
        )
        return cls(rules, first, (), MatchState.fresh(len(rules.table.sides)), first)

    # ------------------------------------------------------------------------------------
    # Reading it
    # ------------------------------------------------------------------------------------

    @property
    def results(self) -> tuple[HandResult, ...]:
        """Return the scored hands, oldest first."""
        return self.match.results

    @property
    def reason(self) -> str | None:
        """Return why the match ended (``"won by N/S with 512: reached 500"``), or ``None``."""
        return self.match.end.reason if self.match.end is not None else None

    # ------------------------------------------------------------------------------------
    # Writing to it
    # ------------------------------------------------------------------------------------

    def add_hand(
        self,
        bids: Sequence[BidLike],
        books: Sequence[int | str],
        *,
        won: Sequence[Iterable[CardLike] | str] | None = None,
        transfers: Iterable[BookTransfer] = (),
    ) -> ScoreSheet:
        """Return the sheet with one more hand scored.

        ``bids`` and ``books`` give one entry per seat, in seat order.  A bid is a number,
        ``"nil"``, ``"blind nil"``, ``"pick up"`` or ``"pass"`` (or an action); ``None``
        for a seat that was never asked.  Books are whole numbers, 0 or more (as numbers
        or as text, like bids: ``"4"``), adding up to the tricks of a hand.  ``won``
        gives, for variants that count card points, the cards each seat took (tricks,
        discards, the blind); ``transfers`` the books moved by penalties.  Raises
        :class:`~spadeskit.errors.IllegalAction` naming the seat when a bid is not
        allowed, a :class:`~spadeskit.errors.SpadesError` for anything else unreadable,
        :class:`~spadeskit.errors.GameOver` once the match
        has ended; this sheet is unchanged.
        """
        return self._entered(bids, books, won, transfers)

    def _entered(
        self,
        bids: Sequence[BidLike],
        books: Sequence[int | str],
        won: Sequence[Iterable[CardLike] | str] | None,
        transfers: Iterable[BookTransfer],
    ) -> ScoreSheet:
        if self.match.end is not None:
            raise GameOver(f"no more hands: the match is over ({self.match.end.reason})")
        rules = self.rules
        wanted = _checked_bids(rules, bids)
        counted = _checked_books(rules, books)
        cards = _checked_won(rules, won)
        moved = _checked_transfers(rules, transfers)
        entry = SheetHand(wanted, counted, cards, moved)
        return self._scored(entry)

    def undo(self) -> ScoreSheet:
        """Return the sheet without its last hand; raise
        :class:`~spadeskit.errors.SpadesError` if it has none."""
        if not self.hands:
            raise SpadesError("nothing to undo: no hand is on the sheet yet", code="empty-sheet")
        return self._rescored(self.hands[:-1])

    def replace_hand(
        self,
        number: int,
        bids: Sequence[BidLike],
        books: Sequence[int | str],
        *,
        won: Sequence[Iterable[CardLike] | str] | None = None,
        transfers: Iterable[BookTransfer] = (),
    ) -> ScoreSheet:
        """Return the sheet with hand ``number`` (from 0, as in ``results``) entered again,
        and every later hand scored again after it (bags, totals, a match that now ends
        sooner or later).  The arguments are those of :meth:`add_hand`.  Raises as
        :meth:`add_hand` does, naming the hand, if the new entry or a later hand no longer
        fits (a board bid, blind nil allowed only when trailing); this sheet is
        unchanged.

        >>> import spadeskit
        >>> sheet = spadeskit.load_rules("standard").score_sheet()
        >>> sheet = sheet.add_hand([4, 3, 3, 3], [4, 3, 3, 3]).add_hand([4, 3, 3, 3], [4, 3, 3, 3])
        >>> sheet.replace_hand(0, [4, 3, 3, 3], ["5", "3", "3", "2"]).scores
        (141, 0)
        """
        if type(number) is not int or not 0 <= number < len(self.hands):
            raise SpadesError(
                f"there is no hand {shown(number, 20)} on the sheet: hands are 0 to "
                f"{len(self.hands) - 1}"
                if self.hands
                else "there is no hand on the sheet to replace",
                code="no-such-hand",
            )
        before = self._rescored(self.hands[:number])
        try:
            sheet = before._entered(bids, books, won, transfers)
        except SpadesError as exc:
            raise type(exc)(f"hand {number}: {exc}", code=exc.code) from exc
        for later, entry in enumerate(self.hands[number + 1 :], start=number + 1):
            if sheet.match.end is not None:
                raise GameOver(
                    f"the match now ends after hand {len(sheet.hands) - 1} "
                    f"({sheet.match.end.reason}): undo the hands after it first",
                    code="match-ends-sooner",
                )
            try:
                sheet = sheet._entered(entry.bids, entry.books, entry.won, entry.transfers)
            except SpadesError as exc:
                raise type(exc)(
                    f"hand {later} no longer fits after the change: {exc}", code=exc.code
                ) from exc
        return sheet

    def _rescored(self, hands: Sequence[SheetHand]) -> ScoreSheet:
        sheet = ScoreSheet.start(self.rules, self.first_dealer)
        for entry in hands:
            sheet = sheet._scored(entry)
        return sheet

    def _scored(self, entry: SheetHand) -> ScoreSheet:
        rules = self.rules
        engine = rules.engine
        assert self.dealer is not None
        summary = _summary(rules, entry, self.match, self.dealer)
        scored = engine.score(summary, self.match)
        result = HandResult(
            len(self.match.results),
            self.dealer,
            summary.bids,
            entry.books,
            scored.lines,
            scored.points,
            scored.scores,
            scored.bags,
            transfers=entry.transfers,
        )
        match, dealer = engine.settle(self.match, result, (), self.dealer)
        recorded = SheetHand(summary.bids, entry.books, entry.won, entry.transfers)
        return ScoreSheet(rules, self.first_dealer, self.hands + (recorded,), match, dealer)

    # ------------------------------------------------------------------------------------
    # Saving and showing it
    # ------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Return the sheet as JSON data; :func:`spadeskit.load_score_sheet` rebuilds it."""
        rules = self.rules
        return {
            "format": SCORE_SHEET_FORMAT,
            "version": SCORE_SHEET_VERSION,
            "variant": rules.variant,
            "house_rules": list(rules.house_rules),
            "options": dict(rules.options),
            "dealer": self.first_dealer,
            "hands": [
                {
                    "bids": [b.to_json() if b is not None else None for b in hand.bids],
                    "books": list(hand.books),
                    "won": None
                    if hand.won is None
                    else [[card_at(c).code for c in cards] for cards in hand.won],
                    "transfers": [attrs.asdict(t) for t in hand.transfers],
                }
                for hand in self.hands
            ],
        }

    @classmethod
    def from_json(cls, data: Any, rules: Rules) -> ScoreSheet:
        """Return the sheet saved by :meth:`to_json`, under ``rules`` (every hand is
        scored again); raise :class:`~spadeskit.errors.RecordError` if it is bad."""
        if not isinstance(data, dict) or data.get("format") != SCORE_SHEET_FORMAT:
            raise RecordError(
                f"not a spadeskit score sheet (its 'format' is not {SCORE_SHEET_FORMAT!r})"
            )
        if data.get("version") != SCORE_SHEET_VERSION or not isinstance(data.get("hands"), list):
            raise RecordError(
                f"score sheet version {shown(data.get('version'), 20)} is not supported, or "
                "it has no hands"
            )
        try:
            sheet = cls.start(rules, data.get("dealer"))
            for number, hand in enumerate(data["hands"], start=1):
                if not isinstance(hand, dict):
                    raise RecordError(f"hand {number} of the score sheet is not an object")
                bids = hand.get("bids")
                if not isinstance(bids, list):
                    raise RecordError(f"hand {number} of the score sheet has no list of bids")
                transfers = hand.get("transfers") or []
                if not isinstance(transfers, list) or not all(
                    isinstance(t, dict) for t in transfers
                ):
                    raise RecordError(f"hand {number}: transfers must be a list of objects")
                try:
                    moved = [BookTransfer(**t) for t in transfers]
                except TypeError as exc:
                    raise RecordError(f"hand {number}: a transfer is not readable: {exc}") from exc
                sheet = sheet.add_hand(
                    [None if b is None else action_from_json(b) for b in bids],
                    hand.get("books"),  # type: ignore[arg-type]
                    won=hand.get("won"),
                    transfers=moved,
                )
        except RecordError:
            raise
        except SpadesError as exc:
            raise RecordError(f"the score sheet does not score again: {exc}") from exc
        return sheet

    def table(self) -> str:
        """Return the sheet as a text table: each hand's bids, books and points, and totals."""
        table = self.rules.table
        seats, sides = table.seat_names, table.side_names
        show = table.show_score
        cols = 4 * len(seats)
        head = f"{'hand':>4}  {'dealer':6}  {'bids':>{cols}}  {'books':>{cols}}"
        lines = [head + "".join(f"  {name:>13}" for name in sides)]
        lines.append("-" * len(lines[0]))
        for result in self.results:
            bids = "".join(f"{_bid_text(b):>4}" for b in result.bids)
            books = "".join(f"{b:>4}" for b in result.books)
            cells = "".join(
                f"  {_plus(show(points)):>6} {show(total):>6}"
                for points, total in zip(result.points, result.scores)
            )
            lines.append(
                f"{result.number + 1:>4}  {seats[result.dealer]:6}  {bids}  {books}{cells}"
            )
        lines.append("-" * len(lines[0]))
        bags = "".join(f"  {f'bags {b}':>13}" for b in self.bags)
        lines.append(
            f"{'total':>4}  {'':6}  {'':{cols}}  {'':{cols}}"
            + "".join(f"  {show(score):>13}" for score in self.scores)
        )
        if any(self.bags) or any(line.bags for result in self.results for line in result.lines):
            lines.append(f"{'':>4}  {'':6}  {'':{cols}}  {'':{cols}}{bags}")
        if self.match.end is not None:
            lines.append(f"Match over: {self.match.end.reason}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def checked_summary(
    rules: Rules, bids: Sequence[BidLike], books: Sequence[int], match: MatchState, dealer: int
) -> HandSummary:
    """Return the :class:`HandSummary` of a hand written as bids and books, checked as a
    score sheet checks them (the bids through the variant's own auction under ``match``
    with ``dealer`` dealing, the books adding up to the hand's tricks)."""
    return _summary(
        rules, SheetHand(_checked_bids(rules, bids), _checked_books(rules, books)), match, dealer
    )


def checked_hand_summary(
    rules: Rules, summary: object, match: MatchState, dealer: int
) -> HandSummary:
    """Return ``summary`` checked as a score sheet checks a hand (bids through the
    variant's auction, books adding up, cards won and transfers possible), or raise a
    :class:`~spadeskit.errors.SpadesError` saying what is wrong with it."""
    if not isinstance(summary, HandSummary):
        raise SpadesError(f"expected a HandSummary, not {shown(summary, 40)}")
    won = summary.won
    entry = SheetHand(
        _checked_bids(rules, summary.bids),
        _checked_books(rules, summary.books),
        None if won is None else _checked_won(rules, won),
        _checked_transfers(rules, summary.transfers),
    )
    return _summary(rules, entry, match, dealer)


def _checked_transfers(rules: Rules, transfers: object) -> tuple[BookTransfer, ...]:
    """Return the book transfers, each between two different sides of this table and of
    0 or more books; raise SpadesError if one is not."""
    if isinstance(transfers, (str, bytes)) or not isinstance(transfers, Iterable):
        raise SpadesError(
            f"transfers are a list of BookTransfer values, not {shown(transfers, 40)}"
        )
    moved = tuple(transfers)
    sides = range(len(rules.table.sides))
    for transfer in moved:
        if not isinstance(transfer, BookTransfer):
            raise SpadesError(
                f"a transfer is a spadeskit.results.BookTransfer, not {shown(transfer, 40)}"
            )
        ends = (transfer.from_side, transfer.to_side)
        if not all(type(side) is int and side in sides for side in ends) or ends[0] == ends[1]:
            raise SpadesError(
                f"a transfer moves books between two different sides of {rules.name!r} "
                f"(0-{len(sides) - 1}), not from {shown(ends[0], 20)} to {shown(ends[1], 20)}"
            )
        if type(transfer.books) is not int or transfer.books < 0:
            raise SpadesError(f"a transfer moves 0 books or more, not {shown(transfer.books, 20)}")
    return moved


def _one_per_seat(value: object, n: int) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes)) and len(value) == n


def _checked_bids(rules: Rules, bids: Sequence[BidLike]) -> tuple[Action | None, ...]:
    n = rules.table.players
    if not _one_per_seat(bids, n):
        raise SpadesError(f"{rules.name!r} has {n} seats: give {n} bids, one per seat")
    return tuple(_as_action(b, rules.engine.seat_name(s)) for s, b in enumerate(bids))


def _summary(rules: Rules, entry: SheetHand, match: MatchState, dealer: int) -> HandSummary:
    game = _auction(rules, entry.bids, match, dealer)
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
    )


def _book_count(took: object) -> object:
    """Return a book count given as a number or as text (``"4"``, ``" 4 "``); anything
    else as it is, for the check to refuse."""
    if isinstance(took, str) and took.strip().isdecimal() and len(took.strip()) <= 3:
        return int(took.strip())
    return took


def _checked_books(rules: Rules, books: Sequence[int | str]) -> tuple[int, ...]:
    table = rules.table
    engine = rules.engine
    n = table.players
    if not _one_per_seat(books, n):
        raise SpadesError(f"{rules.name!r} has {n} seats: give {n} book counts, one per seat")
    counts: list[int] = []
    for seat, given in enumerate(books):
        took = _book_count(given)
        if type(took) is not int or took < 0:
            raise SpadesError(
                f"{engine.seat_name(seat)} took {shown(given, 20)} books: books are whole "
                "numbers, 0 or more"
            )
        counts.append(took)
    tricks = (n * table.deal.hand_size + table.deal.pile) // n
    if sum(counts) != tricks:
        raise SpadesError(
            f"the books add up to {shown(sum(counts))}, but a hand of {rules.name!r} has "
            f"{tricks} tricks"
        )
    return tuple(counts)


def _checked_won(
    rules: Rules, won: Sequence[Iterable[CardLike] | str] | None
) -> tuple[tuple[int, ...], ...] | None:
    if won is None:
        return None
    n = rules.table.players
    if not _one_per_seat(won, n):
        raise SpadesError(f"give the cards each of the {n} seats won")
    deck = {c.index for c in rules.table.deck}
    found = tuple(tuple(c.index for c in parse_cards(cards)) for cards in won)
    problem = misplaced(
        [(rules.engine.seat_name(s), cards) for s, cards in enumerate(found)], deck, "won", "by"
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


def _auction(rules: Rules, wanted: Sequence[Action | None], match: MatchState, dealer: int) -> Any:
    """Return a throwaway game whose auction took the bids, checked by the variant's own
    auction (order, ranges, the board, blind nil) under ``match``.

    The sheet knows no cards: the auction runs on a fixed deal, and a rule whose bids
    depend on the cards (``mirror``, ``whiz``) adds what it allows for some hand
    (``spadeskit_paper_bids``), so no bid is refused because of that deal's cards.
    """
    engine = rules.engine
    game = evolve(rules.new_game(seed=0, dealer=dealer), match=match)
    asked = set()
    while game.phase is Phase.AUCTION:
        seat = game.to_act
        assert seat is not None
        asked.add(seat)
        want = wanted[seat]
        who = engine.seat_name(seat)
        if want is None:
            raise IllegalAction(f"{who} bids in this hand: give their bid")
        legal = engine.paper_bids(game, seat)
        if want not in legal and SeeCards() in game.legal_actions() and want != BlindNil():
            game = game.apply(SeeCards())  # a bid made after looking at one's cards
            legal = engine.paper_bids(game, seat)
        if want not in legal and want == Bid(0) and Nil() in legal:
            want = Nil()  # a scorekeeper's 0 is nil where the variant says so
        if want not in legal:
            allowed = ", ".join(str(a) for a in legal)
            raise IllegalAction(f"{who} cannot bid {want} here; allowed: {allowed}")
        game = engine.paper_bid(game, seat, want)
    for seat, want in enumerate(wanted):
        if want is not None and seat not in asked:
            raise IllegalAction(
                f"{engine.seat_name(seat)} was not asked to bid in this hand (the auction "
                f"ended before their turn): write None"
            )
    return game


def _bid_text(bid: Action | None) -> str:
    if bid is None:
        return "-"
    if type(bid) is Bid:
        return str(bid.tricks)
    return {"nil": "nil", "blind-nil": "bnil", "pick-up": "up", "pass": "pass"}.get(
        bid.kind, bid.kind
    )


def _plus(text: str) -> str:
    """Return a shown score with its sign: ``"+4.1"``, ``"-5"``."""
    return text if text.startswith("-") else "+" + text
