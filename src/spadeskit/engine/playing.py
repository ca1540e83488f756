"""The engine of a rule set: its parts built once, and the operations a state asks of it.

The engine knows no variant.  It asks the compiled hooks of its :class:`Rules` (plain
calls, see :mod:`spadeskit.engine.compiler`) who speaks, what may be bid and how a hand
scores.  Play is the hot path: a legal play is checked against the rule set's play
filters, the trick decided by the one trick winner (:mod:`spadeskit.engine.winner`), and
the new state is one generated constructor call that shares every unchanged field.

:class:`Engine` holds the engine's parts, each an object in its own module (see
:mod:`spadeskit.engine.base`): the auction, the steps (discards and exchanges), the
dealer, scoring, tricks, turns (legal actions and ``apply``) and playouts.  It answers
what a state asks of it (:class:`~spadeskit.core.state.Stepper`) by handing each
question to the part that owns it.

Three speeds, one rulebook: :meth:`Engine.apply` builds one immutable state per
action; :meth:`Engine.rollout` and :meth:`Engine.simulate` play the same rules through
the same code, or the one playout loop (:mod:`spadeskit.engine.playouts`), so they give
exactly what ``apply`` gives with the same choices.  Every hook sees frozen states only.

Every public entry point validates its input before building anything, so a refused
action leaves the state it was applied to untouched (states are immutable anyway).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from spadeskit.core.actions import PLAYS, Action
from spadeskit.core.cards import ALL_CARDS, Card, CardLike
from spadeskit.core.phase import REFEREE, Phase
from spadeskit.core.records import make_record
from spadeskit.core.results import HandResult
from spadeskit.core.seeding import mix
from spadeskit.core.state import GameState, Policy
from spadeskit.core.views import View
from spadeskit.engine.auction import Auction
from spadeskit.engine.base import Shared
from spadeskit.engine.dealing import Dealer
from spadeskit.engine.playouts import Playouts
from spadeskit.engine.scoring import Scoring
from spadeskit.engine.steps import Steps
from spadeskit.engine.tricks import Tricks
from spadeskit.engine.turns import Turns
from spadeskit.engine.viewing import make_view

if TYPE_CHECKING:
    from spadeskit.engine.loaded import LoadedRules

__all__ = ["PLAYS", "REFEREE", "Engine", "mix"]


class Engine:
    """Plays games under one :class:`~spadeskit.engine.loaded.LoadedRules`; reached
    through ``GameState``.

    Its parts are public attributes, for the library's own layers (the score sheet,
    search, the batched engine): ``shared``, ``auction``, ``steps``, ``dealer``,
    ``scoring``, ``tricks``, ``turns`` and ``playouts``.  ``legal_actions(game, seat)`` and
    ``apply(game, action, seat)`` are :class:`~spadeskit.engine.turns.Turns`' own.
    """

    def __init__(self, rules: LoadedRules) -> None:
        shared = self.shared = Shared(rules)
        self.rules = rules
        auction = self.auction = Auction(shared)
        steps = self.steps = Steps(shared, auction)
        dealer = self.dealer = Dealer(shared, auction)
        scoring = self.scoring = Scoring(shared, dealer)
        tricks = self.tricks = Tricks(shared, scoring)
        turns = self.turns = Turns(shared, auction, steps, tricks)
        self.playouts = Playouts(shared, auction, steps, dealer, scoring, tricks, turns)
        # The step API's two calls go straight to the part that owns them: a delegating
        # method would add a Python call to every action.
        self.legal_actions: Callable[[GameState, Any], tuple[Action, ...]] = turns.legal_actions
        self.apply: Callable[[GameState, Action, Any], GameState] = turns.apply

    # ----------------------------------------------------------------------------------
    # What a state asks (spadeskit.core.state.Stepper)
    # ----------------------------------------------------------------------------------

    def rollout(self, game: GameState, seed: Any, policy: Policy | None) -> GameState:
        """Return the state just after the hand in progress is scored."""
        return self.playouts.rollout(game, seed, policy)

    def void_hand(self, game: GameState, note: str) -> GameState:
        """Return ``game`` with the hand in progress void (a misdeal): no score."""
        return self.scoring.void_hand(game, note)

    def review_or_score(self, game: GameState) -> GameState:
        """Return ``game`` after its last trick: to review, or scored."""
        return self.tricks.review_or_score(game)

    def view(self, game: GameState, seat: Any) -> View:
        """Return what ``seat`` may see (checked first)."""
        refused: tuple[tuple[Card, str, str], ...] = ()
        if seat is not None:
            self.shared.check_seat(seat)
            if seat == game.to_act and game.phase is Phase.PLAY:
                found = self.turns.play_refusals(game, seat)
                refused = tuple((ALL_CARDS[i], *found[i]) for i in sorted(found))
        return make_view(game, seat, refused=refused)

    def record(self, game: GameState, key: Any, current_deal: bool = False) -> dict[str, Any]:
        """Return the record of ``game`` (see :meth:`GameState.to_record`)."""
        return make_record(game, key, current_deal=current_deal)

    # ----------------------------------------------------------------------------------
    # What Rules asks
    # ----------------------------------------------------------------------------------

    def new_game(
        self,
        seed: Any,
        deal: Sequence[Iterable[CardLike] | str] | None,
        dealer: Any,
        blind: Iterable[CardLike] | str,
        pile: Iterable[CardLike] | str,
    ) -> GameState:
        """Return a new match (see :meth:`Rules.new_game`)."""
        return self.dealer.new_game(seed, deal, dealer, blind, pile)

    def simulate(
        self, hands: Any, seed: Any, policy: Policy | None, start: Any
    ) -> Iterator[HandResult]:
        """Return the results of simulated hands (see :meth:`Rules.simulate`)."""
        return self.playouts.simulate(hands, seed, policy, start)
