"""Steps: the discards and card exchanges owed before the auction (a kitty picked up at
the deal) or before play (a contract's, blind nil's exchange), one after another or as
a group of simultaneous steps chosen blind of each other; then the auction or play
begins."""

from __future__ import annotations

from typing import Any, Final

import attrs

from spadeskit.core.actions import Action, Discard, Exchange
from spadeskit.core.cards import held_copy
from spadeskit.core.errors import (
    IllegalAction,
    PluginError,
    WrongPhase,
)
from spadeskit.core.seating import Step
from spadeskit.core.state import (
    GameState,
    Phase,
    evolve,
)
from spadeskit.engine.auction import Auction
from spadeskit.engine.base import Shared
from spadeskit.engine.combos import combos_of

# Phase members bound once (enum lookups cost about 0.1 µs each on the hot path), and
# Final, as every module global the hot path reads: the native core then reads them as
# constants instead of looking them up in the module dict.
_PLAY: Final = Phase.PLAY
_AUCTION: Final = Phase.AUCTION


class Steps:
    """Discards and exchanges before the auction or play (see :mod:`spadeskit.engine.base`)."""

    def __init__(self, shared: Shared, auction: Auction) -> None:
        self.shared = shared
        self.auction = auction

    def step_actions(self, game: GameState, seat: int) -> tuple[Action, ...]:
        """Return the discards or exchanges of the seat to act (kept on the state)."""
        cached = game._legal
        if type(cached) is tuple:
            return cached
        step = game.steps[self.step_of(game, seat)]
        actions = combos_of(
            Discard if step.kind == "discard" else Exchange, game.hands[seat], step.count
        )
        object.__setattr__(game, "_legal", actions)
        return actions

    def step_of(self, game: GameState, seat: int) -> int:
        """Return the index in ``game.steps`` of the step ``seat`` may take now, or -1: the
        first step, or, in a group of simultaneous steps, the seat's own while it has
        not chosen."""
        steps = game.steps
        if not steps:
            return -1
        if not steps[0].simultaneous:
            return 0 if steps[0].seat == seat else -1
        for index, step in enumerate(steps):
            if not step.simultaneous:
                break
            if step.seat == seat:
                return index if step.chosen is None else -1
        return -1

    def choice_actions(self, game: GameState, seat: int) -> tuple[Action, ...]:
        """Return what ``seat``, which is not the seat to act, may choose now: its step in
        a group of simultaneous steps, if it has not chosen yet (else nothing)."""
        steps = game.steps
        if not steps or not steps[0].simultaneous:
            return ()
        index = self.step_of(game, seat)
        if index < 0:
            return ()
        step = steps[index]
        return combos_of(
            Discard if step.kind == "discard" else Exchange, game.hands[seat], step.count
        )

    def take(self, game: GameState, seat: int, action: Action) -> GameState:
        """Return the state after ``seat`` takes its step with ``action``: the seat to
        act, or (see :meth:`step_of`) a seat of a simultaneous group still to choose."""
        index = self.step_of(game, seat)
        step: Step = game.steps[index]
        kind = Discard if step.kind == "discard" else Exchange
        who = self.shared.seat_name(seat)
        if type(action) is not kind:
            raise WrongPhase(
                f"{action} by {who} refused: {who} must {step.kind} {step.count} cards first",
                seat=seat,
                action=action,
            )
        assert isinstance(action, (Discard, Exchange))
        cards = action.cards
        mask = 0
        for card in cards:
            copy = held_copy(game.hands[seat], card)  # a card held twice: its first copy
            if copy < 0:
                raise IllegalAction(
                    f"{action} by {who} refused: {card} is not in their hand",
                    code="not-in-hand",
                    seat=seat,
                    action=action,
                )
            mask |= 1 << copy
        if len(cards) != step.count:
            raise IllegalAction(
                f"{action} by {who} refused: give exactly {step.count} cards",
                code="wrong-card-count",
                seat=seat,
                action=action,
            )
        if step.simultaneous:
            return self._choose(game, index, seat, action)
        hands = game.hands[:seat] + (game.hands[seat] & ~mask,) + game.hands[seat + 1 :]
        won = game.won
        if step.kind == "discard":
            won = won[:seat] + (won[seat] | mask,) + won[seat + 1 :]
        else:
            to = self._receiver(step)
            hands = hands[:to] + (hands[to] | mask,) + hands[to + 1 :]
        return self._steps_taken(game, hands, won, game.steps[1:], (game._log, (seat, action)))

    def _receiver(self, step: Step) -> int:
        return self.shared._plugin_seat(
            step.to,
            "spadeskit_auction_next (an exchange's receiver)",
            self.shared.calls.auction_next,
        )

    def _choose(self, game: GameState, index: int, seat: int, action: Action) -> GameState:
        """Return the state after ``seat`` chose ``action`` (checked) for the step at
        ``index`` of a group of simultaneous steps: kept on the step until the whole
        group has chosen, then every card of the group moved at once."""
        steps = game.steps
        size = 1
        while size < len(steps) and steps[size].simultaneous:
            size += 1
        group = list(steps[:size])
        group[index] = attrs.evolve(group[index], chosen=action)
        waiting = [step.seat for step in group if step.chosen is None]
        if waiting:
            return evolve(
                game,
                steps=tuple(group) + steps[size:],
                to_act=waiting[0],
                _log=(game._log, (seat, action)),
            )
        # Every seat chose from the cards it held when the group began: take all the
        # cards out first, then hand them on.
        hands = list(game.hands)
        won = list(game.won)
        masks = []
        for step in group:
            chosen = step.chosen
            assert isinstance(chosen, (Discard, Exchange))
            mask = 0
            for card in chosen.cards:
                index = held_copy(hands[step.seat], card)  # a card held twice: one copy
                mask |= 1 << index if index >= 0 else card.bit
            if hands[step.seat] & mask != mask:
                raise PluginError(
                    f"the cards {self.shared.seat_name(step.seat)} chose for a simultaneous "
                    f"step ({chosen}) left their hand before the group was complete, in "
                    f"{self.shared.rules.name!r}"
                )
            hands[step.seat] &= ~mask
            masks.append(mask)
        for step, mask in zip(group, masks, strict=True):
            if step.kind == "discard":
                won[step.seat] |= mask
            else:
                to = self._receiver(step)
                hands[to] |= mask
        return self._steps_taken(
            game, tuple(hands), tuple(won), steps[size:], _group_logged(game._log, group, seat)
        )

    def _steps_taken(
        self,
        game: GameState,
        hands: tuple[int, ...],
        won: tuple[int, ...],
        steps: tuple[Step, ...],
        log: Any,
    ) -> GameState:
        """Return the state after a step (or a group of them) moved its cards: the next
        step's seat to act, or, when none is left, the auction (after the deal's steps)
        or play (after the contract's) begins."""
        if steps:
            return evolve(game, hands=hands, won=won, steps=steps, to_act=steps[0].seat, _log=log)
        contract = game.contract
        if contract is None:  # the deal's steps (a kitty's discard): now the auction
            new = evolve(
                game, hands=hands, won=won, steps=steps, phase=_AUCTION, to_act=None, _log=log
            )
            return evolve(new, **self.auction._auction_step(new))
        leader = contract.leader
        if self.shared.calls.first_leader is not None:
            leader = self.auction._first_leader(
                evolve(game, hands=hands, won=won, steps=steps, _log=log)
            )
        return evolve(
            game,
            hands=hands,
            won=won,
            steps=steps,
            phase=_PLAY,
            to_act=leader,
            leader=leader,
            _log=log,
        )


def _group_logged(log: Any, group: list[Step], seat: int) -> Any:
    """Return ``log`` (the linked log, ``seat``'s own choice not in it yet) with the
    group's choices at its end in the group's order: the earlier choices, logged as
    they came, are taken out from where they are, and every other entry keeps its
    place.  So a group's record is the same whatever order its seats chose in."""
    earlier: list[tuple[int, Any]] = [
        (step.seat, step.chosen) for step in group if step.seat != seat
    ]
    others: list[Any] = []
    node: Any = log
    while earlier and node is not None:
        entry: Any = node[1]
        node = node[0]
        found = -1
        for position in range(len(earlier)):
            if entry[0] == earlier[position][0] and entry[1] == earlier[position][1]:
                found = position
                break
        if found < 0:
            others.append(entry)
        else:
            del earlier[found]
    for index in range(len(others) - 1, -1, -1):
        node = (node, others[index])
    for step in group:
        node = (node, (step.seat, step.chosen))
    return node
