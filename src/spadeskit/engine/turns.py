"""Turns: the legal actions of a seat or the referee, ``apply`` with its checks, and
out-of-turn actions (claims, rulings, "see cards")."""

from __future__ import annotations

from typing import Any, Final

from spadeskit.core.actions import PLAY_SETS, Action, Discard, Exchange, Play
from spadeskit.core.cards import COPY, held_copy
from spadeskit.core.errors import (
    GameOver,
    IllegalAction,
    NotYourTurn,
    PluginError,
    SpadesError,
    WrongPhase,
    shown,
)
from spadeskit.core.state import (
    REFEREE,
    GameState,
    Phase,
    evolver,
)
from spadeskit.engine.auction import Auction
from spadeskit.engine.base import Shared, listed
from spadeskit.engine.compiler import answered_by
from spadeskit.engine.steps import Steps
from spadeskit.engine.tricks import Tricks

# Phase members bound once (enum lookups cost about 0.1 µs each on the hot path), and
# Final, as every module global the hot path reads: the native core then reads them as
# constants instead of looking them up in the module dict.
_PLAY: Final = Phase.PLAY
_AUCTION: Final = Phase.AUCTION
_EXCHANGE: Final = Phase.EXCHANGE

_NO_ACTIONS: Final[tuple[Action, ...]] = ()

_CARD_ACTIONS: Final = (Play, Discard, Exchange)


_logged: Final = evolver("_log")


class Turns:
    """Legal actions and applying them (see :mod:`spadeskit.engine.base`)."""

    def __init__(self, shared: Shared, auction: Auction, steps: Steps, tricks: Tricks) -> None:
        self.shared = shared
        self.auction = auction
        self.steps = steps
        self.tricks = tricks

    # ----------------------------------------------------------------------------------
    # Legal actions
    # ----------------------------------------------------------------------------------

    def legal_actions(self, game: GameState, seat: Any) -> tuple[Action, ...]:
        if game.match.end is not None:
            return _NO_ACTIONS
        actor = game.to_act
        phase = game.phase
        if seat is None or (seat == actor and type(seat) is int):
            assert actor is not None
            if phase is _PLAY:
                mask = game._legal
                own = PLAY_SETS.of(mask if mask is not None else self.tricks.legal_mask(game))
                if self.shared.play_offer is None:
                    return own
            elif phase is _AUCTION:
                own = self.auction._auction_actions(game, actor)
            elif phase is _EXCHANGE:
                own = self.steps.step_actions(game, actor)
            else:
                own = _NO_ACTIONS
            offer = self.shared.player_offers.get(phase)
            found = own if offer is None else own + self._offered(offer, game, actor)
            if not found:
                raise self.shared._stuck(game, actor)
            return found
        if seat == REFEREE and type(seat) is int:
            offer = self.shared.referee_offers.get(phase)
            return self._offered(offer, game, None) if offer is not None else _NO_ACTIONS
        self.shared.check_seat(seat)
        offer = self.shared.player_offers.get(phase)
        offered = self._offered(offer, game, seat) if offer is not None else _NO_ACTIONS
        if phase is _EXCHANGE:  # a seat of a simultaneous group may choose before its turn
            return self.steps.choice_actions(game, seat) + offered
        return offered

    def _offered(self, offer: Any, game: GameState, seat: int | None) -> tuple[Action, ...]:
        found = offer(game, seat)
        actions: list[Action] = []
        hook = "spadeskit_out_of_turn_actions"
        for index, action in self.shared._answers(hook, offer, found):
            if not isinstance(action, Action):
                raise self.shared._bad(hook, offer, action, "not an action", index)
            if isinstance(action, _CARD_ACTIONS):
                # A card is played, discarded or passed in turn; offering one out of turn
                # would show it in the seat's view.
                raise self.shared._bad(
                    hook,
                    offer,
                    action,
                    "a card action, never offered out of turn (a claim, a ruling, see cards …)",
                    index,
                )
            self.shared.check_action_type(action, hook, offer, index)
            actions.append(action)
        return tuple(actions)

    def _offerer(self, offer: Any, game: GameState, seat: int | None, action: Action) -> str:
        """Return which plugin offered ``action`` (for a message about applying it)."""
        for index, offered in self.shared._answers(
            "spadeskit_out_of_turn_actions", offer, offer(game, seat)
        ):
            if listed(action, (offered,)):
                return answered_by(offer, index)
        return answered_by(offer)

    # ----------------------------------------------------------------------------------
    # Applying actions
    # ----------------------------------------------------------------------------------

    def apply(self, game: GameState, action: Action, seat: Any) -> GameState:
        if type(action) is Play and game.phase is _PLAY:
            actor = game.to_act
            if actor is not None and (seat is None or (seat == actor and type(seat) is int)):
                index = action.card.index
                mask = game._legal
                if mask is None:
                    mask = self.tricks.legal_mask(game)
                if not (mask >> index) & 1:
                    # The card's second copy, where the deck holds it twice (two decks).
                    index += COPY
                    if not (mask >> index) & 1:
                        raise self._refuse_play(game, actor, action)
                return self.tricks._play(game, actor, index)
        return self._apply_slow(game, action, seat)

    def _apply_slow(self, game: GameState, action: Action, seat: Any) -> GameState:
        if game.match.end is not None:
            raise GameOver(
                f"{shown(action, 60)} refused: the match is over ({game.match.end.reason})",
                seat=seat if type(seat) is int else None,
                action=action if isinstance(action, Action) else None,
            )
        if not isinstance(action, Action):
            raise IllegalAction(
                f"{shown(action, 60)} is not an action (use spadeskit.Bid(4), "
                "spadeskit.Play('AS') …)",
                code="not-an-action",
            )
        referee = seat == REFEREE and type(seat) is int
        if seat is None:
            seat = game.to_act
        elif not referee:
            self.shared.check_seat(seat)
        claimant = None if referee else seat
        phase = game.phase
        offer = (self.shared.referee_offers if referee else self.shared.player_offers).get(phase)
        if offer is not None and listed(action, self._offered(offer, game, claimant)):
            return self._take_offered(game, claimant, action, offer)
        if referee:
            offered = self._offered(offer, game, None) if offer is not None else ()
            raise IllegalAction(
                f"{action} refused: the referee may only "
                f"{', '.join(map(str, offered)) or 'watch now'}",
                code="not-offered",
                seat=REFEREE,
                action=action,
            )
        if seat != game.to_act:
            if phase is _EXCHANGE and self.steps.choice_actions(game, seat):
                return self.steps.take(game, seat, action)
            raise NotYourTurn(
                f"{action} by {self.shared.seat_name(seat)} refused: it is "
                f"{self.shared.seat_name(game.to_act)}'s "
                f"turn ({phase.value})",
                seat=seat,
                action=action,
            )
        assert seat is not None
        if phase is _AUCTION:
            return self.auction._bid(game, seat, action)
        if phase is _EXCHANGE:
            return self.steps.take(game, seat, action)
        if phase is _PLAY:
            raise WrongPhase(
                f"{action} by {self.shared.seat_name(seat)} refused: it is time to play a card",
                seat=seat,
                action=action,
            )
        raise WrongPhase(
            f"{action} by {self.shared.seat_name(seat)} refused in the {phase.value}: "
            f"allowed are {', '.join(map(str, self.legal_actions(game, seat))) or 'none'}",
            seat=seat,
            action=action,
        )

    def _take_offered(
        self, game: GameState, claimant: int | None, action: Action, offer: Any
    ) -> GameState:
        """Return the state after an offered out-of-turn action (``claimant`` ``None``: the
        referee): logged in the hand where it happened, before the plugin that offered
        it applies it (and perhaps closes that hand).

        The answer is checked: a state of this game (these rules, this match's deal)
        whose every card is in one place and whose seats are seats."""
        logged = _logged(
            game, _log=(game._log, (REFEREE if claimant is None else claimant, action))
        )
        name = "spadeskit_apply_out_of_turn"
        hook = self.shared.calls.apply_out_of_turn
        new = hook(logged, claimant, action) if hook is not None else None
        if new is None:
            raise PluginError(
                f"no plugin of {self.shared.rules.name!r} applied the offered action {action} "
                f"({name} answered None; spadeskit_out_of_turn_actions of "
                f"{self._offerer(offer, game, claimant, action)} offered it)"
            )
        if not isinstance(new, GameState):
            raise self.shared._bad(name, hook, new, "not a state")
        if new.rules is not game.rules or new._dealing is not game._dealing:
            raise self.shared._bad(
                name, hook, new, "a state of another game (use with_hand on the one given)"
            )
        problem = self.shared.hand_problem(new) or self.shared.cards_problem(new)
        if problem:
            raise self.shared._bad(name, hook, new, f"a state whose {problem}")
        return new

    def play_refusals(self, game: GameState, seat: int) -> dict[int, tuple[str, str]]:
        """Return, for each card ``seat`` holds that a rule of play refuses now, the rule
        that refuses it: its name (the error code) and its reason, by card index.

        The enforced play filters run in order on the seat's cards; a card is refused
        by the first filter that leaves it out.  ``apply`` refuses a play by this, and a
        view shows it (:attr:`View.refused <spadeskit.core.views.View.refused>`).
        """
        mask = game.hands[seat]
        refused: dict[int, tuple[str, str]] = {}
        for f in self.shared.rules.filters:
            if f.enforced:
                kept = f.check(game, seat, mask)
                gone = mask & ~kept
                while gone:
                    low = gone & -gone
                    refused[low.bit_length() - 1] = (f.name, f.reason or f.name)
                    gone ^= low
                mask = kept
        if self.shared.copies:  # a second copy (two decks) is refused as its card
            refused = {i % COPY: why for i, why in sorted(refused.items(), reverse=True)}
        return refused

    def _refuse_play(self, game: GameState, seat: int, action: Play) -> SpadesError:
        card = action.card
        who = self.shared.seat_name(seat)
        if held_copy(game.hands[seat], card) < 0:
            return IllegalAction(
                f"{who} cannot play {card}: it is not in their hand",
                code="not-in-hand",
                seat=seat,
                action=action,
            )
        rule = self.play_refusals(game, seat).get(card.index)
        if rule is not None:
            return IllegalAction(
                f"{who} cannot play {card}: {rule[1]}", code=rule[0], seat=seat, action=action
            )
        return IllegalAction(f"{who} cannot play {card}", seat=seat, action=action)
