"""The auction: what a seat may bid, a bid recorded, the contract, the steps (discards
and exchanges, one after another or simultaneous) before the auction or before play,
and the first lead (and a paper score sheet's bids)."""

from __future__ import annotations

from typing import Any, Final

import attrs

from spadeskit.core.actions import Action, Bid, Discard, Exchange, Nil, Play
from spadeskit.core.errors import (
    IllegalAction,
    PluginError,
    WrongPhase,
)
from spadeskit.core.seating import Contract, Step
from spadeskit.core.state import (
    GameState,
    Phase,
    evolve,
    evolver,
)
from spadeskit.engine.base import Shared, listed
from spadeskit.engine.combos import combos_of

# Phase members bound once (enum lookups cost about 0.1 µs each on the hot path), and
# Final, as every module global the hot path reads: the native core then reads them as
# constants instead of looking them up in the module dict.
_PLAY: Final = Phase.PLAY
_AUCTION: Final = Phase.AUCTION
_EXCHANGE: Final = Phase.EXCHANGE

_with_bid: Final = evolver("auction", "bids", "_log")


_next_bidder: Final = evolver("to_act")


_CARD_ACTIONS: Final = (Play, Discard, Exchange)

_ASK: Final = object()  # "ask the hook" (an answer of None is the hook's, and refused)


class Auction:
    """The auction and the exchanges before play (see :mod:`spadeskit.engine.base`)."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        # Auction tuples already checked, by id (each kept alive here, so ids stay unique).
        self._checked_auction: dict[int, tuple[Action, ...]] = {}

    # ----------------------------------------------------------------------------------
    # What a seat may bid
    # ----------------------------------------------------------------------------------

    def _auction_actions(self, game: GameState, seat: int) -> tuple[Action, ...]:
        # Cached on the state like the legal-play mask: asked once, then read by apply().
        cached = game._legal
        if type(cached) is tuple:
            return cached
        found = self.shared.calls.auction_actions(game, seat)
        if found is None:
            raise PluginError(
                f"no plugin of {self.shared.rules.name!r} lists the auction actions "
                f"(spadeskit_auction_actions answered None)"
            )
        if type(found) is tuple:
            actions = found
        elif isinstance(found, (str, bytes)) or not hasattr(found, "__iter__"):
            raise self.shared._bad(
                "spadeskit_auction_actions", self.shared.calls.auction_actions, found, "not a list"
            )
        else:
            actions = tuple(found)
        if self._checked_auction.get(id(actions)) is not actions:
            for action in actions:
                if not isinstance(action, Action) or isinstance(action, _CARD_ACTIONS):
                    # A card action is never a bid, and listing one would show the card
                    # in the seat's view of its legal actions.
                    raise self.shared._bad(
                        "spadeskit_auction_actions",
                        self.shared.calls.auction_actions,
                        action,
                        "not an auction action (a bid, nil, pass …; never a card played, "
                        "discarded or passed)",
                    )
            # Plugins mostly return a few constant tuples (blind-nil alternates two): check
            # each once.  A plugin building a new tuple each time has it checked each time.
            if len(self._checked_auction) >= 16:
                self._checked_auction.clear()
            self._checked_auction[id(actions)] = actions
        object.__setattr__(game, "_legal", actions)
        return actions

    def paper_bids(self, game: GameState, seat: int) -> tuple[Action, ...]:
        """Return the bids a score sheet accepts from ``seat`` on ``game``: every bid a
        rule lists as possible with some hand (``spadeskit_paper_bids``), then the
        auction's own actions that none of them listed."""
        own = self._auction_actions(game, seat)
        extra = self.shared.calls.paper_bids
        if extra is None:
            return own
        found: list[Action] = []
        for index, action in self.shared._answers("spadeskit_paper_bids", extra, extra(game, seat)):
            if not isinstance(action, Action):
                raise self.shared._bad(
                    "spadeskit_paper_bids", extra, action, "not an action", index
                )
            if not listed(action, found):
                found.append(action)
        return tuple(found) + tuple(action for action in own if not listed(action, found))

    def paper_bid(self, game: GameState, seat: int, action: Action) -> GameState:
        """Return ``game`` after ``seat``'s bid ``action``, which the caller checked
        against :meth:`paper_bids`."""
        return self._bid_state(game, seat, action)

    def _step_actions(self, game: GameState, seat: int) -> tuple[Action, ...]:
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

    def _check_steps(self, steps: tuple[Step, ...], hook: str, call: Any) -> None:
        """Raise a PluginError for steps the engine cannot take: a seat or receiver that
        is not a seat, a step already chosen, or a seat twice in one simultaneous group."""
        group: list[int] = []
        for step in steps:
            if not isinstance(step, Step):
                raise self.shared._bad(hook, call, step, "not a Step")
            self.shared._plugin_seat(step.seat, f"{hook} (a step's seat)", call)
            if step.kind == "exchange":
                self.shared._plugin_seat(step.to, f"{hook} (an exchange's receiver)", call)
            elif step.kind != "discard":
                raise self.shared._bad(hook, call, step, "neither a discard nor an exchange")
            if type(step.count) is not int or step.count < 0:
                raise self.shared._bad(hook, call, step, "a step of a negative number of cards")
            if step.chosen is not None:
                raise self.shared._bad(
                    hook, call, step, "a step already chosen (chosen is the engine's to set)"
                )
            if not step.simultaneous:
                group = []
            elif step.seat in group:
                raise self.shared._bad(
                    hook,
                    call,
                    step,
                    "a second step for one seat in a group of simultaneous steps (a seat "
                    "chooses once in a group: put a plain step between two groups)",
                )
            else:
                group.append(step.seat)

    # ----------------------------------------------------------------------------------
    # A bid, and the auction moving on
    # ----------------------------------------------------------------------------------

    def _bid(self, game: GameState, seat: int, action: Action) -> GameState:
        legal = self._auction_actions(game, seat)
        if not listed(action, legal):
            who = self.shared.seat_name(seat)
            if isinstance(action, Play):
                raise WrongPhase(
                    f"{action} by {who} refused: the auction is not over; bid first",
                    seat=seat,
                    action=action,
                )
            hint = ""
            if type(action) is Bid and action.tricks == 0 and listed(Nil(), legal):
                hint = " (a bid of 0 is nil here: use Nil())"
            raise IllegalAction(
                f"{action} by {who} refused{hint}; allowed: {', '.join(map(str, legal))}",
                code="bid-not-allowed",
                seat=seat,
                action=action,
            )
        return self._bid_state(game, seat, action)

    def _bid_state(self, game: GameState, seat: int, action: Action) -> GameState:
        """Return the state after ``seat``'s (checked) bid: a new state holding the bid,
        about which ``spadeskit_auction_next`` is asked, then the auction moved on.  The
        hook sees a frozen state, never one that changes after it answered."""
        entry = (seat, action)
        bids = game.bids
        new = _with_bid(
            game,
            auction=game.auction + (entry,),
            bids=bids[:seat] + (action,) + bids[seat + 1 :],
            _log=(game._log, entry),
        )
        nxt = self.shared.calls.auction_next(new)
        if type(nxt) is int and 0 <= nxt < self.shared.n:  # the next seat bids: the common case
            return _next_bidder(new, to_act=nxt)
        return evolve(new, **self._auction_step(new, nxt))

    def _auction_step(self, game: GameState, nxt: object = _ASK) -> dict[str, Any]:
        """Return the fields that change when the auction moves on (a seat, or play
        begins), given ``spadeskit_auction_next``'s answer or asking it."""
        if nxt is _ASK:
            nxt = self.shared.calls.auction_next(game)
        if isinstance(nxt, Contract):
            return self._begin_play(game, nxt)
        return {
            "to_act": self.shared._plugin_seat(
                nxt, "spadeskit_auction_next", self.shared.calls.auction_next
            )
        }

    def _begin_play(self, game: GameState, contract: Contract) -> dict[str, Any]:
        hook, call = "spadeskit_auction_next", self.shared.calls.auction_next
        self.shared._plugin_seat(contract.leader, f"{hook} (the contract's leader)", call)
        hands, blind = game.hands, game.blind
        declarer = contract.declarer
        if declarer is not None:
            self.shared._plugin_seat(declarer, f"{hook} (the contract's declarer)", call)
            if contract.blind_to == "declarer":
                hands = hands[:declarer] + (hands[declarer] | blind,) + hands[declarer + 1 :]
                blind = 0
        if self.shared.calls.contract_steps is not None:
            contract = self._more_steps(game, contract)
        if contract.steps:
            self._check_steps(contract.steps, hook, call)
        changes = {
            "contract": contract,
            "hands": hands,
            "blind": blind,
            "steps": contract.steps,
            "phase": _EXCHANGE,
            "to_act": None,
            "leader": contract.leader,
        }
        if contract.steps:
            changes["to_act"] = contract.steps[0].seat
            return changes
        changes["phase"] = _PLAY
        if self.shared.calls.first_leader is not None:
            changes["leader"] = self._first_leader(evolve(game, **changes))
        changes["to_act"] = changes["leader"]
        return changes

    def _more_steps(self, game: GameState, contract: Contract) -> Contract:
        """Return ``contract`` with the steps of ``spadeskit_contract_steps`` appended."""
        call = self.shared.calls.contract_steps
        assert call is not None
        found = call(game, contract)
        steps = list(contract.steps)
        for index, step in self.shared._answers("spadeskit_contract_steps", call, found):
            if not isinstance(step, Step):
                raise self.shared._bad("spadeskit_contract_steps", call, step, "not a Step", index)
            if step.chosen is not None:
                raise self.shared._bad(
                    "spadeskit_contract_steps",
                    call,
                    step,
                    "a step already chosen (chosen is the engine's to set)",
                    index,
                )
            steps.append(step)
        if len(steps) == len(contract.steps):
            return contract
        return attrs.evolve(contract, steps=tuple(steps))

    def _first_leader(self, game: GameState) -> int:
        """Return who leads the first trick of ``game``, whose play is about to begin
        (the ``spadeskit_first_leader`` hook, which the caller knows exists)."""
        contract = game.contract
        assert contract is not None and self.shared.calls.first_leader is not None
        seat = self.shared.calls.first_leader(game)
        return (
            contract.leader
            if seat is None
            else self.shared._plugin_seat(
                seat, "spadeskit_first_leader", self.shared.calls.first_leader
            )
        )

    # ----------------------------------------------------------------------------------
    # Exchanges and discards
    # ----------------------------------------------------------------------------------

    def _exchange(self, game: GameState, seat: int, action: Action) -> GameState:
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
            if not (game.hands[seat] >> card.index) & 1:
                raise IllegalAction(
                    f"{action} by {who} refused: {card} is not in their hand",
                    code="not-in-hand",
                    seat=seat,
                    action=action,
                )
            mask |= card.bit
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
                mask |= card.bit
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
            return evolve(new, **self._auction_step(new))
        leader = contract.leader
        if self.shared.calls.first_leader is not None:
            leader = self._first_leader(evolve(game, hands=hands, won=won, steps=steps, _log=log))
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
