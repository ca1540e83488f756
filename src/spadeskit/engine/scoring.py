"""Scoring: a hand's summary for the scoring hooks, its score lines and totals, and the
match after it (the end of the match, the next dealer, the next hand)."""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from spadeskit.core import _fast
from spadeskit.core.cards import Card, cards_of, points_won
from spadeskit.core.results import (
    LINE_KINDS,
    HandResult,
    HandScore,
    HandSummary,
    MatchEnd,
    ScoreLine,
    Trick,
    is_score_line,
)
from spadeskit.core.state import (
    Dealt,
    GameState,
    MatchState,
    Phase,
    evolve,
)
from spadeskit.engine.base import Shared
from spadeskit.engine.dealing import Dealer

# Phase members bound once (enum lookups cost about 0.1 µs each on the hot path), and
# Final, as every module global the hot path reads: the native core then reads them as
# constants instead of looking them up in the module dict.
_OVER: Final = Phase.OVER

_make_summary: Final = _fast.maker(HandSummary)


_make_result: Final = _fast.maker(HandResult)


_make_match: Final = _fast.maker(MatchState)


_make_score: Final = _fast.maker(HandScore)


def _scored_result(
    number: int, dealer: int, hand: Any, scored: HandScore, last: int | None
) -> HandResult:
    """Return the result of hand ``number`` dealt by ``dealer``, scored ``scored``, its
    bids, books and transfers read from ``hand`` (a state, or a summary written on paper)
    and ``last`` the winner of its last trick (``None`` where there were no tricks)."""
    result: HandResult = _make_result(
        number=number,
        dealer=dealer,
        bids=hand.bids,
        books=hand.books,
        lines=scored.lines,
        points=scored.points,
        scores=scored.scores,
        bags=scored.bags,
        void=False,
        note="",
        transfers=hand.transfers,
        last_trick_winner=last,
    )
    return result


def _tricks_of(game: GameState) -> tuple[Trick, ...]:
    """Return the tricks of ``game`` (a hand summary's ``tricks``, marked read when read)."""
    return game.tricks


def _cards_won(masks: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    """Return the cards in each mask (a hand summary's ``won``, listed when read)."""
    return tuple([cards_of(m) for m in masks])


class Scoring:
    """A hand scored and the match moved on (see :mod:`spadeskit.engine.base`)."""

    def __init__(self, shared: Shared, dealer: Dealer) -> None:
        self.shared = shared
        self.dealer = dealer

    # ----------------------------------------------------------------------------------
    # Scoring and the next hand
    # ----------------------------------------------------------------------------------

    def summary(self, game: GameState) -> HandSummary:
        """Return the hand's :class:`HandSummary` for the scoring hooks."""
        contract = game.contract
        summary: HandSummary = _make_summary(
            bids=game.bids,
            books=game.books,
            _won=partial(_cards_won, game.won),
            transfers=game.transfers,
            trump=contract.trump if contract else "spades",
            declarer=contract.declarer if contract else None,
            points=None
            if self.shared.card_points is None
            else points_won(self.shared.card_points, game.won),
            _tricks=partial(_tricks_of, game),
            extra=game.extra,
        )
        return summary

    def score(self, summary: HandSummary, match: MatchState) -> HandScore:
        """Return the score of the hand ``summary`` sums up, under ``match`` as it stood:
        the score lines the scoring hooks give, each side's points, scores and bags."""
        found = self.shared.calls.score_hand(summary, match)
        lines: list[ScoreLine] = []
        sides = range(len(self.shared.table.sides))
        call = self.shared.calls.score_hand
        # Backwards: pluggy called later registrations first; lines go in registration order.
        for index, line in self.shared._answers(
            "spadeskit_score_hand", call, found, backwards=True
        ):
            if not is_score_line(line, len(sides)):
                raise self.shared._bad(
                    "spadeskit_score_hand",
                    call,
                    line,
                    "not a ScoreLine of whole numbers for a side of this table "
                    f"(bag_text: a string or None; kind: one of {', '.join(LINE_KINDS)})",
                    index,
                )
            lines.append(line)
        points = [0] * len(sides)
        bag_delta = [0] * len(sides)
        for line in lines:
            points[line.side] += line.points
            bag_delta[line.side] += line.bags
        score: HandScore = _make_score(
            lines=tuple(lines),
            points=tuple(points),
            scores=tuple([a + b for a, b in zip(match.scores, points)]),
            bags=tuple([a + b for a, b in zip(match.bags, bag_delta)]),
        )
        return score

    def _result(self, game: GameState) -> HandResult:
        """Return the scored result of ``game``'s finished play."""
        return self.result_of(game, self.score(self.summary(game), game.match))

    def result_of(self, game: GameState, scored: HandScore) -> HandResult:
        """Return the result of ``game``'s finished play scored ``scored``."""
        last = game.tricks[-1].winner if game.tricks else None
        return _scored_result(game.number, game.dealer, game, scored, last)

    def void_hand(self, game: GameState, note: str) -> GameState:
        """End the hand in progress unscored (a misdeal) and deal the next one."""
        match = game.match
        sides = len(self.shared.table.sides)
        result = HandResult(
            game.number,
            game.dealer,
            game.bids,
            game.books,
            (),
            (0,) * sides,
            match.scores,
            match.bags,
            void=True,
            note=note,
        )
        return self.close_hand(game, result)

    def close_hand(self, game: GameState, result: HandResult) -> GameState:
        """Record ``result``, then end the match or start the next hand (dealt now).

        Plugins that void a hand (a misdeal) call this with a ``void=True`` result.
        """
        match, dealer = self.settle(game.match, result, game.log, game.dealer, game._dealt)
        if match.end is not None:
            return evolve(game, match=match, phase=_OVER, to_act=None, _log=None)
        assert dealer is not None
        return self.dealer._hand(game._dealing, match, game.number + 1, dealer)

    def settle_summary(
        self, summary: HandSummary, match: MatchState, dealer: int
    ) -> tuple[HandResult, MatchState, int | None]:
        """Score a hand known by its summary alone (a score sheet's, a batched table's)
        under ``match`` as it stood, and move the match on: return the hand's result,
        the match after it and the next dealer (``None`` once the match is over)."""
        scored = self.score(summary, match)
        result = _scored_result(len(match.results), dealer, summary, scored, None)
        after, following = self.settle(match, result, (), dealer)
        return result, after, following

    def settle(
        self,
        old: MatchState,
        result: HandResult,
        log: tuple[Any, ...],
        dealer: int,
        dealt: Dealt | None = None,
    ) -> tuple[MatchState, int | None]:
        """Return the match after a finished hand and the next dealer (``None`` once the
        match is over): the one place the match-end and next-dealer hooks are asked."""
        deals = old.deals if dealt is None else old.deals + (dealt,)
        match = _make_match(
            scores=result.scores,
            bags=result.bags,
            results=old.results + (result,),
            logs=old.logs + (log,),
            end=None,
            extra=old.extra,
            deals=deals,
        )
        end = None if result.void else self.shared.calls.match_end(match, result)
        if end is not None:
            got: Any = end  # read untyped: the native core would raise a bare TypeError
            if (
                not isinstance(end, MatchEnd)
                or type(got.winner) is not int
                or not 0 <= got.winner < len(self.shared.table.sides)
                or type(got.reason) is not str
            ):
                raise self.shared._bad(
                    "spadeskit_match_end",
                    self.shared.calls.match_end,
                    end,
                    "not a MatchEnd naming a side and saying why in words",
                )
            return MatchState(
                match.scores, match.bags, match.results, match.logs, end, match.extra, match.deals
            ), None
        return match, self.shared._plugin_seat(
            self.shared.calls.next_dealer(dealer, result),
            "spadeskit_next_dealer",
            self.shared.calls.next_dealer,
        )
