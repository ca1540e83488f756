"""Hand reviews and par: what each card played cost, double-dummy, and what best play
would have scored.

:func:`review` replays a record and solves the position before every card played: the
seat's goal (its side's tricks; its own tricks for the fewest when it bid nil) with the
card it chose against the best card.  :func:`par` plays a hand out double-dummy from a
position (each seat in turn playing a best card for its goal) and scores it with the
rules, bids as they were made: the par of the deal for duplicate evaluation.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from spadeskit.analysis.position import AnalysisUnsupported, position_of
from spadeskit.analysis.solver import Goal, Tables, search_for, solution_of
from spadeskit.core.actions import BlindNil, Nil, Play
from spadeskit.core.cards import Card, card_at
from spadeskit.core.errors import SpadesError
from spadeskit.core.phase import Phase
from spadeskit.core.results import HandResult
from spadeskit.core.state import GameState
from spadeskit.engine.replay import iter_replay
from spadeskit.engine.rules import Rules

__all__ = ["Par", "Review", "ReviewedPlay", "goal_of", "par", "review"]


def goal_of(game: GameState, seat: int) -> Goal:
    """Return what ``seat`` plays for in ``game``: the fewest tricks of its own when it
    bid nil (or blind nil), its side's tricks otherwise."""
    bid = game.bids[seat] if seat < len(game.bids) else None
    return Goal(seat, "nil" if isinstance(bid, (Nil, BlindNil)) else "side")


@attrs.frozen
class ReviewedPlay:
    """One card played, reviewed double-dummy.

    ``hand`` numbers the hand as ``HandResult.number`` does (from 0), ``trick`` the
    trick within it (from 1); ``goal`` is what the
    seat played for; ``result`` is the goal's tricks in the hand with best play after
    the card, ``best`` the same after the best card, and ``best_cards`` the cards that
    keep it.
    """

    hand: int
    trick: int
    seat: int
    card: Card
    goal: Goal
    result: int
    best: int
    best_cards: tuple[Card, ...]

    @property
    def cost(self) -> int:
        """Return the tricks the card cost against the best card (0 for a best card)."""
        return abs(self.best - self.result)

    def to_json(self) -> dict[str, Any]:
        """Return the reviewed card as JSON data (cards as codes, such as ``"10S"``)."""
        return {
            "hand": self.hand,
            "trick": self.trick,
            "seat": self.seat,
            "card": self.card.code,
            "goal": {"seat": self.goal.seat, "count": self.goal.count},
            "result": self.result,
            "best": self.best,
            "best_cards": [card.code for card in self.best_cards],
            "cost": self.cost,
        }


@attrs.frozen
class Review:
    """The review of a record's hands: every card played from where the solver could
    follow the play (two-handed Spades: once its draw pile is empty)."""

    seat_names: tuple[str, ...]
    plays: tuple[ReviewedPlay, ...]

    def costs(self) -> tuple[int, ...]:
        """Return the tricks each seat's cards cost in all, by seat."""
        totals = [0] * len(self.seat_names)
        for play in self.plays:
            totals[play.seat] += play.cost
        return tuple(totals)

    def lines(self) -> Iterator[str]:
        """Yield the review as text: each trick's cards, a costly card marked with its
        cost and the best cards, then each seat's total per hand."""
        names = self.seat_names
        hand = trick = -1
        words: list[str] = []
        totals = [0] * len(names)
        for play in self.plays:
            if (play.hand, play.trick) != (hand, trick) and words:
                yield f"  trick {trick}: " + ", ".join(words)
                words = []
            if play.hand != hand:
                if hand >= 0:
                    yield _totals(names, totals)
                    totals = [0] * len(names)
                yield f"Hand {play.hand + 1}"
            hand, trick = play.hand, play.trick
            word = f"{names[play.seat]} {play.card}"
            if play.cost:
                best = " ".join(str(card) for card in play.best_cards)
                word += f" (cost {play.cost}: best {best})"
            words.append(word)
            totals[play.seat] += play.cost
        if words:
            yield f"  trick {trick}: " + ", ".join(words)
            yield _totals(names, totals)

    def text(self) -> str:
        """Return :meth:`lines` as one text."""
        return "\n".join(self.lines())

    def to_json(self) -> dict[str, Any]:
        """Return the review as JSON data: the seat names, every reviewed card (see
        :meth:`ReviewedPlay.to_json`) and the tricks each seat's cards cost in all."""
        return {
            "seat_names": list(self.seat_names),
            "plays": [play.to_json() for play in self.plays],
            "costs": list(self.costs()),
        }


def _totals(names: tuple[str, ...], totals: list[int]) -> str:
    costs = ", ".join(f"{name} {cost}" for name, cost in zip(names, totals))
    return f"  tricks lost double-dummy: {costs}"


def review(
    record: Mapping[str, Any],
    rules: Rules | None = None,
    *,
    key: bytes | str | None = None,
    last: int | None = None,
    hand: int | None = None,
) -> Review:
    """Review every card played in ``record`` double-dummy (see :class:`ReviewedPlay`).

    The record is replayed and checked as :func:`spadeskit.replay` checks it (``rules``
    and ``key`` as there).  ``last=k`` reviews only the cards of each hand's last ``k``
    tricks (a whole hand is the solver's slowest work); ``hand=n`` only those of the hand
    numbered ``n`` (from 0).  Rules whose play the solver cannot follow raise
    :class:`~spadeskit.analysis.position.AnalysisUnsupported`.
    """
    if last is not None and (type(last) is not int or last < 1):
        raise SpadesError(f"last is a number of tricks, at least 1, not {last!r}")
    if hand is not None and (type(hand) is not int or hand < 0):
        raise SpadesError(f"hand is a hand's number, 0 or more, not {hand!r}")
    reviewed: list[ReviewedPlay] = []
    before: GameState | None = None
    names: tuple[str, ...] = ()
    tables: Tables = {}
    for step in iter_replay(record, rules, key=key):
        state = step.state
        names = state.rules.table.seat_names
        if (
            before is not None
            and isinstance(step.action, Play)
            and before.phase is Phase.PLAY
            and not before.pile
            and (hand is None or before.number == hand)
        ):
            players = before.rules.table.players
            cards_left = sum(hand.bit_count() for hand in before.hands) + len(before.trick)
            if last is None or cards_left <= last * players:
                reviewed.append(_reviewed(before, step.action.card, tables))
        if before is not None and state.number != before.number:
            tables = {}  # what the searches of a hand proved holds for that hand only
        before = state
    return Review(names, tuple(reviewed))


def _reviewed(game: GameState, card: Card, tables: Tables) -> ReviewedPlay:
    seat = game.to_act
    assert seat is not None
    goal = goal_of(game, seat)
    solution = solution_of(position_of(game), goal, values=True, tables=tables)
    result = dict(solution.values)[card]
    return ReviewedPlay(
        game.number,
        len(game.tricks) + 1,
        seat,
        card,
        goal,
        result,
        solution.tricks,
        solution.best(),
    )


@attrs.frozen
class Par:
    """A hand played out double-dummy: the cards in order and the hand's result as the
    rules score it (bids as they were made; ``result.books`` holds each seat's books)."""

    plays: tuple[Card, ...]
    result: HandResult


def par(game: GameState) -> Par:
    """Play the hand in progress out double-dummy from ``game`` (a state in play) and
    score it: each seat in turn plays a best card for its goal (:func:`goal_of`; of
    equally good cards, the first suit's lowest).

    With two sides this is the double-dummy result of both sides' contracts, the par of
    the deal for duplicate evaluation; with more sides each seat plays best against a
    coalition of the others.
    """
    number = game.number
    plays: list[Card] = []
    tables: Tables = {}
    while True:
        position = position_of(game)
        search, _ = search_for(position, goal_of(game, position.to_act), tables)
        target = search.value()
        card = card_at(
            next(
                run[-1]
                for run in search.runs(search.legal())
                if search.value_after(run[-1], target) == target
            )
        )
        plays.append(card)
        game = game.apply(Play(card))
        if game.number != number or game.phase is not Phase.PLAY:
            if game.phase is Phase.REVIEW or not game.hand_results:
                raise AnalysisUnsupported(
                    "the hand did not end in a score after its last card (a review step "
                    "follows): par needs a hand the rules score at once"
                )
            return Par(tuple(plays), game.hand_results[-1])
