"""The frozen game state, at match level and at hand level.

A :class:`GameState` holds everything, including what no seat may see; show a seat
:meth:`GameState.view` instead.  States are immutable: :meth:`GameState.apply` returns a
new state that shares every unchanged part with the old one.  Hands are int bitmasks of
card indices (see :mod:`spadeskit.cards`); the properties turn them into cards.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import attrs

from .actions import Action
from .cards import Card, card_at, cards_of
from .results import BookTransfer, HandResult, MatchEnd, Trick
from .table import Contract, FrozenMap, Step

if TYPE_CHECKING:
    from .rules import Rules
    from .views import View

__all__ = ["Breach", "GameState", "HandState", "MatchState", "Phase"]

LogEntry = tuple["int | None", Action]


class Phase(enum.Enum):
    """Where a hand stands."""

    AUCTION = "auction"
    EXCHANGE = "exchange"
    PLAY = "play"
    REVIEW = "review"
    OVER = "over"


@attrs.frozen
class Breach:
    """A play the rules would have refused, accepted under table enforcement.

    Breaches are secret: no view shows them; a plugin's penalty hook may act on a claim.
    """

    trick: int
    seat: int
    card: int
    rule: str


@attrs.frozen
class HandState:
    """One hand: cards held, auction, tricks, and plugin data (``extra``)."""

    number: int
    dealer: int
    phase: Phase
    to_act: int | None
    hands: tuple[int, ...]
    blind: int
    pile: tuple[int, ...]
    auction: tuple[tuple[int, Action], ...]
    bids: tuple[Action | None, ...]
    contract: Contract | None
    steps: tuple[Step, ...]
    leader: int
    trick: tuple[tuple[int, int], ...]
    tricks: tuple[Trick, ...]
    books: tuple[int, ...]
    won: tuple[int, ...]
    played: int
    breaches: tuple[Breach, ...]
    transfers: tuple[BookTransfer, ...]
    log: tuple[LogEntry, ...]
    extra: FrozenMap

    @property
    def trick_number(self) -> int:
        """Return the index (from 0) of the trick being played."""
        return len(self.tricks)

    @property
    def led_card(self) -> Card | None:
        """Return the card led to the current trick, if any."""
        return card_at(self.trick[0][1]) if self.trick else None

    def cards(self, seat: int) -> tuple[Card, ...]:
        """Return the cards a seat holds."""
        return cards_of(self.hands[seat])


@attrs.frozen
class MatchState:
    """The running match: scores, bag counters, finished hands, and how it ended."""

    scores: tuple[int, ...]
    bags: tuple[int, ...]
    results: tuple[HandResult, ...]
    logs: tuple[tuple[LogEntry, ...], ...]
    end: MatchEnd | None
    extra: FrozenMap


@attrs.frozen(weakref_slot=False)
class GameState:
    """A whole game: the rules, the match so far and the hand in progress.

    Build one with :meth:`Rules.new_game`.  Every method that changes something returns
    a new state; the one it was called on is never altered.
    """

    rules: Rules = attrs.field(repr=False)
    seed: int = attrs.field(repr=False)
    first_deal: tuple[tuple[int, ...], ...] | None = attrs.field(repr=False)
    match: MatchState
    hand: HandState
    # Private cache of what the seat to act may do (a play mask or auction actions),
    # derived from the state itself and excluded from equality.
    _legal: Any = attrs.field(default=None, eq=False, repr=False, hash=False)

    @property
    def to_act(self) -> int | None:
        """Return the seat whose decision is pending, or ``None`` once the match is over."""
        return self.hand.to_act

    @property
    def phase(self) -> Phase:
        """Return the phase of the hand in progress (``Phase.OVER`` at the end)."""
        return self.hand.phase

    @property
    def is_over(self) -> bool:
        """Return whether the match has ended."""
        return self.match.end is not None

    @property
    def winner(self) -> int | None:
        """Return the winning side's index (see ``rules.table.side_names``), or ``None``."""
        return self.match.end.winner if self.match.end is not None else None

    @property
    def scores(self) -> tuple[int, ...]:
        """Return each side's score."""
        return self.match.scores

    @property
    def bags(self) -> tuple[int, ...]:
        """Return each side's bag counter."""
        return self.match.bags

    @property
    def hand_results(self) -> tuple[HandResult, ...]:
        """Return the finished hands, oldest first, with their score lines."""
        return self.match.results

    def cards(self, seat: int) -> tuple[Card, ...]:
        """Return the cards a seat holds now."""
        return cards_of(self.hand.hands[seat])

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Return what ``seat`` (default: the seat to act) may do now.

        The seat to act gets its decisions; any seat may also get actions it can take
        out of turn, such as a penalty claim, where the variant offers them.
        """
        return self.rules._engine.legal_actions(self, seat)

    def apply(self, action: Action, seat: int | None = None) -> GameState:
        """Return the state after ``seat`` (default: the seat to act) takes ``action``.

        Raises a :class:`~spadeskit.errors.SpadesError` subclass, naming the action, the
        seat and the reason, if the action is not allowed; this state is unchanged.
        """
        return self.rules._engine.apply(self, action, seat)

    def view(self, seat: int | None) -> View:
        """Return what ``seat`` may see (``None``: a spectator, who sees no hand)."""
        from .views import make_view

        return make_view(self, seat)

    def to_record(self) -> dict[str, Any]:
        """Return a versioned, JSON-serialisable record that :func:`replay` rebuilds."""
        from .views import make_record

        return make_record(self)
