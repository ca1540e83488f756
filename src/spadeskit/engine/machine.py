"""The state machine: deal, auction, exchanges, tricks, review, scoring, next hand.

The engine knows no variant.  It asks the compiled hooks of its :class:`Rules` (plain
calls, see :mod:`spadeskit.engine.compiler`) who speaks, what may be bid and how a hand
scores.  Play is the hot path: a legal play is checked against the compiled play
filters and the trick winner read from the compiled strength table, and the new state
is one generated constructor call that shares every unchanged field.

:class:`Engine` is split by job into a chain of classes, each in its own module and
each using only what the ones before it define (see :mod:`spadeskit.engine.base`):
auction, dealing, scoring, tricks, turns (legal actions and ``apply``) and playouts.

Three speeds, one rulebook: :meth:`Engine.apply` builds one immutable state per
action; :meth:`Engine.rollout` and :meth:`Engine.simulate` play the same rules through
the same code, or a loop compiled from the same rule definitions
(:mod:`spadeskit.engine.playouts`), so they give exactly what ``apply`` gives with the same
choices.  Every hook sees frozen states only.

Every public entry point validates its input before building anything, so a refused
action leaves the state it was applied to untouched (states are immutable anyway).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spadeskit.core.actions import PLAYS, Action
from spadeskit.core.cards import ALL_CARDS, Card
from spadeskit.core.phase import REFEREE, Phase
from spadeskit.core.records import make_record
from spadeskit.core.seeding import mix
from spadeskit.core.state import GameState
from spadeskit.core.views import View
from spadeskit.engine.filters import compile_filters
from spadeskit.engine.playouts import Playouts
from spadeskit.engine.viewing import make_view

if TYPE_CHECKING:
    from spadeskit.engine.compiled import CompiledRules

__all__ = ["PLAYS", "REFEREE", "Engine", "mix"]


class Engine(Playouts):
    """Plays games under one :class:`~spadeskit.engine.compiled.CompiledRules`; reached
    through ``GameState``."""

    def __init__(self, rules: CompiledRules) -> None:
        self.rules = rules
        self.calls = rules.calls
        self.table = rules.table
        n = self.n = rules.table.players
        self.suit_of = rules.ranking.suit_of
        self.card_points = rules.card_points
        self.sources = rules.sources
        self.check = compile_filters([f for f in rules.filters if f.enforced], self.sources)
        self.advisory = tuple(f for f in rules.filters if not f.enforced)
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.pairs = tuple(tuple((s, i) for i in range(54)) for s in range(n))
        self.entries = tuple(tuple((s, PLAYS[i]) for i in range(54)) for s in range(n))
        offers = self.calls.offers
        self.player_offers = {
            phase: offers[(phase, False)] for phase, referee in offers if not referee
        }
        self.referee_offers = {phase: offers[(phase, True)] for phase, referee in offers if referee}
        self.play_offer = self.player_offers[Phase.PLAY]
        self.draw = rules.table.deal.draw
        self.deck = tuple(c.index for c in rules.table.deck)
        self.deal_map = self._deal_map()
        # Auction tuples already checked, by id (each kept alive here, so ids stay unique).
        self._checked_auction: dict[int, tuple[Action, ...]] = {}
        self._build_loop()

    def view(self, game: GameState, seat: Any) -> View:
        """Return what ``seat`` may see (checked first)."""
        refused: tuple[tuple[Card, str, str], ...] = ()
        if seat is not None:
            self.check_seat(seat)
            if seat == game.to_act and game.phase is Phase.PLAY:
                found = self.play_refusals(game, seat)
                refused = tuple((ALL_CARDS[i], *found[i]) for i in sorted(found))
        return make_view(game, seat, refused=refused)

    def record(self, game: GameState, key: Any) -> dict[str, Any]:
        """Return the record of ``game`` (see :meth:`GameState.to_record`)."""
        return make_record(game, key)
