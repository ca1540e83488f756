"""A score sheet for paper games: bids and books in, the variant's score lines out.

Players at a real table keep score on paper; an app that only records what each seat
bid and how many books (tricks) it took uses :meth:`Rules.score_sheet
<spadeskit.engine.rules.Rules.score_sheet>`:

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
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from spadeskit.core.actions import Action
from spadeskit.core.cards import CardLike, card_at
from spadeskit.core.errors import GameOver, RecordError, SpadesError, shown
from spadeskit.core.results import BookTransfer, HandResult
from spadeskit.core.state import MatchState, MatchTotals
from spadeskit.engine.sheethands import (
    BidLike,
    SheetHand,
    bid_text,
    checked_bids,
    checked_books,
    checked_transfers,
    checked_won,
    sheet_summary,
)

if TYPE_CHECKING:
    from spadeskit.engine.loaded import LoadedRules
    from spadeskit.engine.playing import Engine


class Playable(Protocol):
    """Rules with the engine that plays them (:class:`spadeskit.Rules` is one)."""

    @property
    def engine(self) -> Engine:
        """The engine that plays these rules."""


__all__ = ["SCORE_SHEET_FORMAT", "Playable", "ScoreSheet", "SheetHand"]

SCORE_SHEET_FORMAT = "spadeskit-score-sheet"
SCORE_SHEET_VERSION = 1


@attrs.frozen
class ScoreSheet(MatchTotals):
    """The score sheet of a match kept on paper (see the module docs).

    ``hands`` holds what was entered, ``results`` the scored hands (with their score
    lines), ``match`` the running totals; ``dealer`` deals the next hand.
    """

    rules: LoadedRules = attrs.field(repr=False)
    first_dealer: int
    hands: tuple[SheetHand, ...]
    match: MatchState = attrs.field(repr=False)
    dealer: int | None
    engine: Engine = attrs.field(repr=False, eq=False)

    @classmethod
    def start(cls, rules: Playable, dealer: int | None = None) -> ScoreSheet:
        """Return an empty sheet; ``dealer`` deals the first hand (default: the last seat)."""
        engine = rules.engine
        table = engine.rules.table
        first = table.players - 1 if dealer is None else engine.shared.check_seat(dealer, "dealer")
        return cls(engine.rules, first, (), MatchState.fresh(len(table.sides)), first, engine)

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
        :class:`~spadeskit.core.errors.IllegalAction` naming the seat when a bid is not
        allowed, a :class:`~spadeskit.core.errors.SpadesError` for anything else unreadable,
        :class:`~spadeskit.core.errors.GameOver` once the match
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
        engine = self.engine
        wanted = checked_bids(engine, bids)
        counted = checked_books(engine, books)
        cards = checked_won(engine, won)
        moved = checked_transfers(engine, transfers)
        entry = SheetHand(wanted, counted, cards, moved)
        return self._scored(entry)

    def undo(self) -> ScoreSheet:
        """Return the sheet without its last hand; raise
        :class:`~spadeskit.core.errors.SpadesError` if it has none."""
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
        sheet = ScoreSheet.start(self, self.first_dealer)
        for entry in hands:
            sheet = sheet._scored(entry)
        return sheet

    def _scored(self, entry: SheetHand) -> ScoreSheet:
        rules = self.rules
        engine = self.engine
        assert self.dealer is not None
        summary = sheet_summary(engine, entry, self.match, self.dealer)
        _, match, dealer = engine.scoring.settle_summary(summary, self.match, self.dealer)
        recorded = SheetHand(summary.bids, entry.books, entry.won, entry.transfers)
        return ScoreSheet(rules, self.first_dealer, self.hands + (recorded,), match, dealer, engine)

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
                    # A hand on the sheet holds the bids its auction read (never text).
                    "bids": [b.to_json() if isinstance(b, Action) else None for b in hand.bids],
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
    def from_json(cls, data: Any, rules: Playable) -> ScoreSheet:
        """Return the sheet saved by :meth:`to_json`, under ``rules`` (every hand is
        scored again); raise :class:`~spadeskit.core.errors.RecordError` if it is bad."""
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
                    [None if b is None else sheet.rules.action_from_json(b) for b in bids],
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
            bids = "".join(f"{bid_text(b):>4}" for b in result.bids)
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


def _plus(text: str) -> str:
    """Return a shown score with its sign: ``"+4.1"``, ``"-5"``."""
    return text if text.startswith("-") else "+" + text
