"""Tricks: the legal plays of a seat, a card played (the hot path of the step API), the
draw after a trick, and the end of play (the blind, a review step, the score)."""

from __future__ import annotations

from typing import Any, Final

from spadeskit.core import _fast
from spadeskit.core.results import HandResult, Trick
from spadeskit.core.state import (
    Breach,
    GameState,
    Phase,
    evolve,
    evolver,
)
from spadeskit.engine.base import Shared
from spadeskit.engine.scoring import Scoring
from spadeskit.engine.winner import trick_won

# Phase members bound once (enum lookups cost about 0.1 µs each on the hot path), and
# Final, as every module global the hot path reads: the native core then reads them as
# constants instead of looking them up in the module dict.
_REVIEW: Final = Phase.REVIEW

_next_card: Final = evolver("to_act", "hands", "trick", "played", "_log", "breaches")


_next_trick: Final = evolver(
    "to_act",
    "leader",
    "hands",
    "trick",
    "tricks",
    "books",
    "won",
    "played",
    "_log",
    "breaches",
    "pile",
)


make_trick: Final = _fast.maker(Trick)


def draw_cards(hands: list[int], pile: tuple[int, ...], winner: int, count: int) -> tuple[int, ...]:
    """Give each seat ``count`` cards from the top of ``pile``, the trick's ``winner``
    first, then clockwise, while cards remain; change ``hands`` (one mask per seat) in
    place and return what is left of the pile."""
    n = len(hands)
    taken = 0
    for step in range(n):
        seat = (winner + step) % n
        for _ in range(count):
            if taken < len(pile):
                hands[seat] |= 1 << pile[taken]
                taken += 1
    return pile[taken:]


def won_with_blind(game: GameState) -> tuple[int, ...]:
    """Return the cards each seat won, the blind added to the last trick's winner's
    (``Contract.blind_to == "last-trick"``)."""
    last = game.tricks[-1].winner
    won = list(game.won)
    won[last] |= game.blind
    return tuple(won)


class Tricks:
    """Legal plays and cards played (see :mod:`spadeskit.engine.base`)."""

    def __init__(self, shared: Shared, scoring: Scoring) -> None:
        self.shared = shared
        self.scoring = scoring

    # ----------------------------------------------------------------------------------
    # Legal plays
    # ----------------------------------------------------------------------------------

    def legal_mask(self, game: GameState) -> int:
        """Return the mask of cards the seat to act may play (its filters applied)."""
        mask = game._legal
        if mask is None:
            seat = game.to_act
            assert seat is not None
            held = game.hands[seat]
            got = self.shared.check(game, seat, held)
            if type(got) is not int or got & ~held or not got:
                raise self.shared._bad_filters(seat, held, got)
            mask = got
            object.__setattr__(game, "_legal", mask)
        return int(mask)

    # ----------------------------------------------------------------------------------
    # A card played
    # ----------------------------------------------------------------------------------

    def _breach(self, game: Any, seat: int, held: int, bit: int, index: int) -> Breach | None:
        proper = held
        for f in self.shared.advisory:
            check: Any = f.check  # untyped: a plugin's answer is checked, not converted
            got: object = check(game, seat, proper)
            if type(got) is not int or got & ~proper:
                raise self.shared._bad_filters(seat, held, got)
            proper = got
            if not proper & bit:
                return Breach(len(game.tricks), seat, index, f.name)
        return None

    def _play(self, game: GameState, seat: int, index: int) -> GameState:
        shared = self.shared  # one read: the step API's hot path
        bit = 1 << index
        hands = game.hands
        held = hands[seat]
        breaches = game.breaches
        if shared.advisory:
            breach = self._breach(game, seat, held, bit, index)
            if breach is not None:
                breaches = breaches + (breach,)
        changed = list(hands)  # half the cost of slicing and joining three tuples
        changed[seat] = held ^ bit
        hands = tuple(changed)
        trick = game.trick + (shared.pairs[seat][index],)
        log = (game._log, shared.entries[seat][index])
        played = game.played | bit
        if len(trick) < shared.n:
            return _next_card(
                game,
                to_act=shared.next_seat[seat],
                hands=hands,
                trick=trick,
                played=played,
                _log=log,
                breaches=breaches,
            )
        contract = game.contract
        assert contract is not None
        trump = contract.trump
        winner, taken = trick_won(
            shared.rules.strength_table(trump)[shared.suit_of[trick[0][1]]],
            trick,
            shared.decide,
            trump,
        )
        done = make_trick(leader=game.leader, plays=trick, winner=winner)
        counts, taken_by = list(game.books), list(game.won)
        counts[winner] += 1
        taken_by[winner] |= taken
        books, won = tuple(counts), tuple(taken_by)
        pile = game.pile
        if pile and shared.draw:
            drawn = list(hands)
            pile = draw_cards(drawn, pile, winner, shared.draw)
            hands = tuple(drawn)
        new = _next_trick(
            game,
            to_act=winner,
            leader=winner,
            hands=hands,
            trick=(),
            tricks=game.tricks + (done,),
            books=books,
            won=won,
            played=played,
            _log=log,
            breaches=breaches,
            pile=pile,
        )
        if shared.calls.after_trick is not None:
            hooked = shared.after_trick(new, done)
            if hooked is not None:
                new = hooked
        if any(new.hands) or new.pile:
            return new
        after = self._end_play(new)
        assert isinstance(after, GameState)
        return after

    # ----------------------------------------------------------------------------------
    # The end of play
    # ----------------------------------------------------------------------------------

    def _end_play(self, game: GameState, close: bool = True) -> GameState | HandResult:
        """Settle the blind, then ask for a review or score the hand: the state after
        that, or (``close=False``, for :meth:`simulate`) only the hand's result where no
        review follows, without recording it or starting the next hand."""
        contract = game.contract
        assert contract is not None
        if contract.blind_to == "last-trick" and game.blind:
            game = evolve(game, won=won_with_blind(game), blind=0)
        return self._review_or_result(game, close)

    def review_or_score(self, game: GameState) -> GameState:
        """Ask for a review seat after the last trick; score the hand when there is none.

        Plugins with a review step call this after each review action.
        """
        after = self._review_or_result(game, True)
        assert isinstance(after, GameState)
        return after

    def _review_or_result(self, game: GameState, close: bool) -> GameState | HandResult:
        hook = self.shared.calls.before_scoring
        if hook is not None:
            seat = hook(game)
            if seat is not None:
                self.shared._plugin_seat(seat, "spadeskit_before_scoring", hook)
                return evolve(game, phase=_REVIEW, to_act=seat)
        result = self.scoring._result(game)
        return self.scoring.close_hand(game, result) if close else result
