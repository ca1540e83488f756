"""The auction: what a seat may bid, a bid recorded, the contract and the steps it owes
(checked; :mod:`spadeskit.engine.steps` takes them), and the first lead (and a paper
score sheet's bids)."""

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

# Phase members bound once (enum lookups cost about 0.1 µs each on the hot path), and
# Final, as every module global the hot path reads: the native core then reads them as
# constants instead of looking them up in the module dict.
_PLAY: Final = Phase.PLAY
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
                self._check_bid(
                    action, "spadeskit_auction_actions", self.shared.calls.auction_actions
                )
            # Plugins mostly return a few constant tuples (blind-nil alternates two): check
            # each once.  A plugin building a new tuple each time has it checked each time.
            if len(self._checked_auction) >= 16:
                self._checked_auction.clear()
            self._checked_auction[id(actions)] = actions
        object.__setattr__(game, "_legal", actions)
        return actions

    def _check_bid(self, action: object, hook: str, call: Any, index: int | None = None) -> None:
        """Raise a PluginError unless ``action``, listed by ``hook``, is an auction action
        of these rules."""
        if not isinstance(action, Action) or isinstance(action, _CARD_ACTIONS):
            # A card action is never a bid, and listing one would show the card in the
            # seat's view of its legal actions.
            raise self.shared._bad(
                hook,
                call,
                action,
                "not an auction action (a bid, nil, pass …; never a card played, discarded "
                "or passed)",
                index,
            )
        self.shared.check_action_type(action, hook, call, index)

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
            self._check_bid(action, "spadeskit_paper_bids", extra, index)
            if not listed(action, found):
                found.append(action)
        return tuple(found) + tuple(action for action in own if not listed(action, found))

    def paper_bid(self, game: GameState, seat: int, action: Action) -> GameState:
        """Return ``game`` after ``seat``'s bid ``action``, which the caller checked
        against :meth:`paper_bids`."""
        return self._bid_state(game, seat, action)

    def _check_step(
        self, step: object, counts: list[int], hook: str, call: Any, index: int | None = None
    ) -> None:
        """Raise a PluginError for a step the engine cannot take: not a Step, a seat or
        receiver that is not a seat, a count that is no whole number or more cards than
        the seat will hold (``counts``, each seat's cards, updated here), or a step
        already chosen.  Read untyped: the native core would raise a bare TypeError."""
        if not isinstance(step, Step):
            raise self.shared._bad(hook, call, step, "not a Step", index)
        got: Any = step
        kind, count, seat, to = got.kind, got.count, got.seat, got.to
        if type(seat) is not int or not 0 <= seat < self.shared.n:
            raise self.shared._bad(hook, call, step, "a step of a seat that is not one", index)
        if kind == "exchange":
            if type(to) is not int or not 0 <= to < self.shared.n:
                raise self.shared._bad(
                    hook, call, step, "an exchange to a receiver that is not a seat", index
                )
        elif kind != "discard":
            raise self.shared._bad(hook, call, step, "neither a discard nor an exchange", index)
        if type(count) is not int or count < 0:
            raise self.shared._bad(
                hook, call, step, "a step whose count is not a whole number, 0 or more", index
            )
        if count > counts[seat]:
            raise self.shared._bad(
                hook,
                call,
                step,
                f"a step of {count} cards from a seat that will hold {counts[seat]}",
                index,
            )
        if got.chosen is not None:
            raise self.shared._bad(
                hook, call, step, "a step already chosen (chosen is the engine's to set)", index
            )
        counts[seat] -= count
        if kind == "exchange":
            counts[to] += count

    def _check_groups(self, steps: tuple[Step, ...], hook: str, call: Any) -> None:
        """Raise a PluginError for a seat twice in one group of simultaneous steps."""
        group: list[int] = []
        for step in steps:
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

    def _check_contract(self, contract: Any, hands: tuple[int, ...], blind: int) -> None:
        """Raise a PluginError for a contract (from ``spadeskit_auction_next``) the engine
        cannot play: a leader or declarer that is no seat, a trump mode that is no short
        text, a blind given to nobody, or steps it cannot take."""
        hook, call = "spadeskit_auction_next", self.shared.calls.auction_next
        self.shared._plugin_seat(contract.leader, f"{hook} (the contract's leader)", call)
        if contract.declarer is not None:
            self.shared._plugin_seat(contract.declarer, f"{hook} (the contract's declarer)", call)
        trump = contract.trump
        if type(trump) is not str or not trump or len(trump) > 40:
            raise self.shared._bad(
                hook, call, contract, 'a contract whose trump is not a short text ("spades")'
            )
        if contract.blind_to not in (None, "declarer", "last-trick"):
            raise self.shared._bad(
                hook,
                call,
                contract,
                'a contract giving the blind to neither "declarer" nor "last-trick"',
            )
        if contract.blind_to == "declarer" and contract.declarer is None:
            raise self.shared._bad(
                hook, call, contract, "a contract giving the blind to a declarer it does not name"
            )
        steps = contract.steps
        if type(steps) is not tuple:
            raise self.shared._bad(hook, call, contract, "a contract whose steps are no tuple")
        counts = [h.bit_count() for h in hands]
        if contract.blind_to == "declarer":
            counts[contract.declarer] += blind.bit_count()
        for step in steps:
            self._check_step(step, counts, hook, call)

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
        hands, blind = game.hands, game.blind
        self._check_contract(contract, hands, blind)
        declarer = contract.declarer
        if declarer is not None and contract.blind_to == "declarer":
            hands = hands[:declarer] + (hands[declarer] | blind,) + hands[declarer + 1 :]
            blind = 0
        if self.shared.calls.contract_steps is not None:
            contract = self._more_steps(game, contract, hands)
        if contract.steps:
            self._check_groups(
                contract.steps, "spadeskit_auction_next", self.shared.calls.auction_next
            )
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

    def _more_steps(self, game: GameState, contract: Contract, hands: tuple[int, ...]) -> Contract:
        """Return ``contract`` with the steps of ``spadeskit_contract_steps`` appended,
        each checked (``hands``: the cards each seat holds before the steps)."""
        call = self.shared.calls.contract_steps
        assert call is not None
        found = call(game, contract)
        hook = "spadeskit_contract_steps"
        steps = list(contract.steps)
        counts = [h.bit_count() for h in hands]
        for step in steps:  # the contract's own, checked: only the counts move on
            self._check_step(step, counts, "spadeskit_auction_next", self.shared.calls.auction_next)
        for index, step in self.shared._answers(hook, call, found):
            self._check_step(step, counts, hook, call, index)
            steps.append(step)
        if len(steps) == len(contract.steps):
            return contract
        more = tuple(steps)
        self._check_groups(more[len(contract.steps) :], hook, call)
        return attrs.evolve(contract, steps=more)

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
