"""One encoding for learning agents: the action ids and the observation slots of a rule
set, shared by every front end (the OpenSpiel game, the PettingZoo environment and the
Gymnasium environments of :mod:`spadeskit.rl`).  Pure Python; the front ends that hold
numpy arrays fill the same slots their own faster way, and the tests hold them to
:meth:`Encoding.observation`.

:func:`encoding_for` gives a rule set's :class:`Encoding`.  Ids depend on the rule set
alone (its variant, house rules and options), never on a table or a process: a policy
trained through one front end acts through any other.

**Actions** come first as cards, then as calls:

* ``0`` … ``cards - 1``: a card by its index (2♣ is 0 … A♠ is 51, the little joker 52,
  the big joker 53); ``cards`` is 52, or 54 when the deck holds a joker.  In the play
  a card id plays the card.  Where the rules owe a discard or an exchange of ``k``
  cards, the seat picks them one id at a time, in any order; the ``k``-th pick makes
  the discard or exchange (the cards picked so far are in the observation, and a picked
  card is not legal again).
* ``cards + j``: the ``j``-th of :attr:`Encoding.calls`, the rule set's other actions in
  this order, each only if the rules offer it: ``Nil``, ``Bid(0)``, ``Bid(1)`` … up to the
  highest bid, ``BlindNil``, ``SeeCards``, ``PickUp``, ``Pass``, ``Accept``,
  ``DeclareMisdeal``, ``CallRenege(1)`` … one a trick, then the actions of the types a
  plugin adds (``spadeskit_action_types``), by kind, then by their fields (``blind-bids``:
  blind 6, blind 7).  A plugin's action that stands as a bid has a bid slot too.

Standard Spades has 66 ids, as OpenSpiel's own ``spades`` has, and the same ones: the
52 cards, nil at 52 and a bid of ``k`` at ``52 + k``.

Which calls a rule set offers is read from the rules by playing probe hands at random
(seeded, so always the same; some of them with a side far behind, for offers that depend
on the score), together with the bids a score sheet accepts (``spadeskit_paper_bids``);
the bids between the lowest and the highest met are all numbered.  An action the probes
never met has no id: the front ends refuse such a rule set's state with a
:class:`~spadeskit.core.errors.SpadesError` naming the action, never silently.  A deck
that holds a card twice (six-handed Spades, two decks) has no encoding: a card is one
slot here, and :class:`Encoding` refuses it.

**Observations** are flat lists of floats, what one seat may know, in these slots
(``n`` seats, ``s`` sides, ``b`` the calls that are bids, :attr:`Encoding.slots` gives
each block's place):

==================== ======================================================================
slots                what
==================== ======================================================================
cards                the seat's own cards (1: held)
cards per seat       the cards each seat has played this hand, seat by seat
cards per seat       the trick in progress: the card each seat put on it, seat by seat
b + 1 per seat       each seat's bid, one-hot over the bids (the last slot: none yet, or
                     sealed)
1 per seat           the tricks each seat has taken, divided by the tricks of a hand
1 per seat           the cards each seat holds, divided by the largest hand (the deal's
                     hand size plus the blind)
1 per seat           the observing seat (one-hot)
1 per seat           the seat to act (one-hot; none when nobody is)
1 per seat           the dealer (one-hot)
1 per seat           the trick's leader (one-hot during the play; 0 otherwise)
5                    the phase: auction, exchange, play, review, over
1                    the tricks finished, divided by the tricks of a hand
cards                only where the rules owe discards or exchanges: the cards the seat
                     has picked so far for the one it owes
s                    each side's score, divided by 1,000 and clipped to [-1, 1]
s                    each side's bags, divided by 10, at most 1
1                    the hand's number in the match, divided by 50, at most 1
==================== ======================================================================

Everything in it comes from the seat's :class:`~spadeskit.core.views.View`, so rules
that hide part of a view (sealed bids, a blind nil bidder's unseen cards) hide it here.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from spadeskit.core.actions import (
    Accept,
    Action,
    Bid,
    BlindNil,
    CallRenege,
    DeclareMisdeal,
    Discard,
    Exchange,
    Nil,
    Pass,
    PickUp,
    Play,
    SeeCards,
)
from spadeskit.core.cards import card_at
from spadeskit.core.errors import IllegalAction, SpadesError, shown
from spadeskit.core.phase import Phase
from spadeskit.core.seating import Step
from spadeskit.core.state import GameState, evolve
from spadeskit.core.views import View
from spadeskit.engine.rules import Rules, rules_of

__all__ = ["PHASES", "PROBE_HANDS", "Encoding", "encoding_for"]

PHASES = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY, Phase.REVIEW, Phase.OVER)
"""The phases in the order of an observation's phase slots."""

PROBE_HANDS = 24
"""Hands played at random to read the calls a rule set offers (and one more for each
side, with that side 10,000 points behind)."""

_BEHIND = 10_000
_BID_TYPES = (Nil, Bid, BlindNil, PickUp, Pass)
_FIXED: dict[type[Action], int] = {
    Nil: 0,
    Bid: 1,
    BlindNil: 2,
    SeeCards: 3,
    PickUp: 4,
    Pass: 5,
    Accept: 6,
    DeclareMisdeal: 7,
    CallRenege: 8,
}


def _order(action: Action) -> tuple[Any, ...]:
    """Return where ``action`` stands among the calls (see the module): a plugin's action
    types after the core's, by kind, then by their fields (numbers as numbers)."""
    rank = _FIXED.get(type(action))
    if rank is None:
        fields = action.to_json()
        kind = fields.pop("type")
        return (9, kind, tuple(sorted(fields.items())))
    number = action.tricks if isinstance(action, Bid) else 0
    if isinstance(action, CallRenege):
        number = action.trick
    return (rank, number)


@attrs.frozen
class _Probed:
    """What the probe hands met."""

    calls: frozenset[Action]
    bids: frozenset[Action]
    steps: bool


def _probe(rules: Rules) -> _Probed:
    """Play probe hands at random and collect the calls the seat to act was offered, the
    calls that stood as bids, and whether any discard or exchange was owed."""
    n = rules.table.players
    rng = random.Random(0)
    starts = [rules.new_game(seed=k, dealer=k % n) for k in range(PROBE_HANDS)]
    for side in range(len(rules.table.sides)):
        game = rules.new_game(seed=PROBE_HANDS + side, dealer=side % n)
        scores = tuple(-_BEHIND if s == side else 0 for s in range(len(rules.table.sides)))
        starts.append(evolve(game, match=attrs.evolve(game.match, scores=scores)))
    calls: set[Action] = set()
    bids: set[Action] = set()
    steps = False
    for game in starts:
        hands = len(game.match.results)
        while not game.is_over and len(game.match.results) == hands:
            seat = game.to_act
            legal = game.legal_actions(seat) if seat is not None else ()
            if not legal:
                break
            for action in legal:
                kind = type(action)
                if kind is Exchange or kind is Discard:
                    steps = True
                elif kind is not Play:
                    calls.add(action)
            bids.update(bid for bid in game.bids if bid is not None)
            game = game.apply(rng.choice(legal), seat)
    paper = rules.engine.auction.paper_bids
    for dealer in range(n):
        game = rules.new_game(seed=0, dealer=dealer)
        if game.phase is Phase.AUCTION and game.to_act is not None:
            calls.update(paper(game, game.to_act))
    return _Probed(frozenset(calls), frozenset(bids), steps)


class Encoding:
    """The action ids and observation slots of one rule set (see the module)."""

    rules_name: str
    """The rule set's name, as :attr:`Rules.name <spadeskit.engine.rules.Rules.name>`."""
    cards: int
    """The card ids: ``0`` to ``cards - 1``, a card's index (52, or 54 with jokers)."""
    calls: tuple[Action, ...]
    """The actions numbered after the cards: ``calls[j]`` is id ``cards + j``."""
    bids: tuple[Action, ...]
    """The calls that stand as a seat's bid, in the order of the bid slots."""
    bid_slots: dict[Action, int]
    """Each bid's slot among a seat's bid slots (``len(bids)``: no bid yet)."""
    picks: bool
    """Whether the rules owe discards or exchanges (picked card by card)."""
    players: int
    sides: int
    tricks: int
    """The tricks of a hand (the hand size, plus the draw pile shared out)."""
    largest_hand: int
    """The most cards a seat holds at once (the hand size plus the blind)."""
    num_actions: int
    """How many action ids there are."""
    observation_size: int
    """How many floats an observation has."""
    slots: dict[str, slice]
    """Each block of an observation by name: ``cards``, ``played``, ``trick``, ``bids``,
    ``books``, ``held``, ``seat``, ``to_act``, ``dealer``, ``leader``, ``phase``,
    ``tricks``, ``picked`` (only with :attr:`picks`), ``scores``, ``bags``, ``hand``."""

    def __init__(self, rules: Rules) -> None:
        table = rules.table
        if table.copies:
            raise SpadesError(
                f"the deck of {rules.name!r} holds a card twice (two decks), and the "
                "encoding gives each card one slot; play it through spadeskit's own API"
            )
        probed = _probe(rules)
        self.rules_name = rules.name
        self.cards = max(card.index for card in table.deck) + 1
        self.players = n = table.players
        self.sides = len(table.sides)
        plan = table.deal
        self.tricks = plan.hand_size + plan.pile // n
        self.largest_hand = plan.hand_size + plan.blind
        found = set(probed.calls)
        numbers = [a.tricks for a in found if type(a) is Bid and a.tricks > 0]
        if numbers:
            found.update(Bid(k) for k in range(min(numbers), max(numbers) + 1))
        if any(type(a) is CallRenege for a in found):
            found.update(CallRenege(t) for t in range(1, self.tricks + 1))
        self.calls = tuple(sorted(found, key=_order))
        self.bids = tuple(a for a in self.calls if isinstance(a, _BID_TYPES) or a in probed.bids)
        self.picks = probed.steps
        self.num_actions = self.cards + len(self.calls)
        self._ids = {action: self.cards + j for j, action in enumerate(self.calls)}
        self.bid_slots = {action: j for j, action in enumerate(self.bids)}
        c, b = self.cards, len(self.bids)
        sizes = [
            ("cards", c),
            ("played", c * n),
            ("trick", c * n),
            ("bids", (b + 1) * n),
            ("books", n),
            ("held", n),
            ("seat", n),
            ("to_act", n),
            ("dealer", n),
            ("leader", n),
            ("phase", len(PHASES)),
            ("tricks", 1),
            ("picked", c if self.picks else 0),
            ("scores", self.sides),
            ("bags", self.sides),
            ("hand", 1),
        ]
        self.slots = {}
        at = 0
        for name, size in sizes:
            if size or name != "picked":
                self.slots[name] = slice(at, at + size)
            at += size
        self.observation_size = at

    def __repr__(self) -> str:
        return (
            f"<Encoding of {self.rules_name}: {self.num_actions} actions, "
            f"{self.observation_size} observation slots>"
        )

    # -- actions ---------------------------------------------------------------------------

    def action_id(self, action: Action) -> int:
        """Return the id of ``action``: a card played, or a call (a discard or an
        exchange has no id of its own: its cards are picked one by one)."""
        if type(action) is Play:
            index: int = action.card.index
            if index < self.cards:
                return index
        number = self._ids.get(action)
        if number is not None:
            return number
        raise SpadesError(
            f"{action} has no action id under {self.rules_name!r}"
            + (
                " (a discard or an exchange is picked card by card: its cards' ids)"
                if isinstance(action, (Discard, Exchange))
                else " (the encoding's probe hands never met it)"
            )
        )

    def action_of(self, number: int) -> Action:
        """Return the action id ``number`` stands for: a card id as the card played (in
        a discard or an exchange it is the card picked), a call as the call."""
        if type(number) is not int:
            try:
                if isinstance(number, bool):
                    raise TypeError
                number = operator.index(number)  # a numpy integer
            except TypeError:
                raise IllegalAction(
                    f"an action id is a whole number, not {shown(number, 30)}",
                    code="not-an-action",
                ) from None
        if not 0 <= number < self.num_actions:
            raise IllegalAction(
                f"an action id of {self.rules_name!r} is 0 to {self.num_actions - 1}, not {number}",
                code="not-an-action",
            )
        if number < self.cards:
            return Play(card_at(number))
        return self.calls[number - self.cards]

    def ids_of(self, actions: Iterable[Action], picked: Sequence[int] = ()) -> list[int]:
        """Return the ids of ``actions`` (what a seat may do), ascending; a discard or an
        exchange counts as its cards not yet in ``picked``, when it holds every card
        picked so far."""
        ids: set[int] = set()
        chosen = set(picked)
        for action in actions:
            kind = type(action)
            if kind is Play:
                ids.add(action.card.index)  # type: ignore[attr-defined]
            elif kind is Discard or kind is Exchange:
                cards = {card.index for card in action.cards}  # type: ignore[attr-defined]
                if chosen <= cards:
                    ids.update(cards - chosen)
            else:
                ids.add(self.action_id(action))
        return sorted(ids)

    def legal_ids(self, game: GameState, seat: int, picked: Sequence[int] = ()) -> list[int]:
        """Return the ids ``seat`` may take in ``game`` now, ascending (``picked``: the
        cards it has picked so far for a discard or exchange it owes)."""
        return self.ids_of(game.legal_actions(seat), picked)

    def decide(
        self, game: GameState, seat: int, number: int, picked: Sequence[int] = ()
    ) -> tuple[Action | None, tuple[int, ...]]:
        """Return what id ``number`` does when ``seat`` takes it in ``game``, which the
        caller checked against :meth:`legal_ids`: the action to apply (``None`` while a
        discard or an exchange still wants cards) and the cards picked after it."""
        step = _owed(game, seat)
        if number >= self.cards or step is None:
            return self.action_of(number), tuple(picked)
        picks = (*picked, number)
        if len(picks) < step.count:
            return None, picks
        kind = Discard if step.kind == "discard" else Exchange
        return kind([card_at(i) for i in picks]), ()

    def refusal(
        self, game: GameState, seat: int, number: int, picked: Sequence[int] = ()
    ) -> IllegalAction:
        """Return the error for id ``number``, which ``seat`` may not take in ``game``
        now: as the step API refuses the action (the same class and reason code), or, for
        a card picked for a discard or exchange, why it cannot be picked."""
        name = rules_of(game).table.seat_names[seat]
        action = self.action_of(number)  # an id of no action is refused here
        step = _owed(game, seat)
        if step is not None and number < self.cards:
            why = "picked already" if number in picked else "not in their hand"
            return IllegalAction(
                f"action {number} (pick {card_at(number)} to {step.kind}) is not legal for "
                f"{name} now: the card is {why}",
                code="not-in-hand",
                seat=seat,
            )
        refused = game.view(seat).refusal(action)
        return type(refused or IllegalAction(""))(
            f"action {number} ({action}) is not legal for {name} now"
            + (f": {refused}" if refused else ""),
            code=refused.code if refused else None,
            seat=seat,
            action=action,
        )

    # -- observations ----------------------------------------------------------------------

    def observation(self, view: View, picked: Iterable[int] = ()) -> list[float]:
        """Return the observation of ``view`` (a seat's view; ``picked``: the cards the
        seat has picked so far for a discard or exchange it owes)."""
        n, c, slots = self.players, self.cards, self.slots
        out = [0.0] * self.observation_size
        for card in view.cards:
            out[card.index] = 1.0
        base = slots["played"].start
        for trick in view.tricks:
            for seat, card in trick.plays:
                out[base + c * seat + card.index] = 1.0
        for seat, card in view.trick:
            out[base + c * seat + card.index] = 1.0
        base = slots["trick"].start
        for seat, card in view.trick:
            out[base + c * seat + card.index] = 1.0
        base, width = slots["bids"].start, len(self.bids) + 1
        for seat, bid in enumerate(view.bids):
            slot = self.bid_slots.get(bid, -1) if bid is not None else len(self.bids)
            if slot >= 0:
                out[base + width * seat + slot] = 1.0
        for seat in range(n):
            out[slots["books"].start + seat] = view.books[seat] / self.tricks
            out[slots["held"].start + seat] = view.card_counts[seat] / self.largest_hand
        if view.seat is not None:
            out[slots["seat"].start + view.seat] = 1.0
        if view.to_act is not None:
            out[slots["to_act"].start + view.to_act] = 1.0
        out[slots["dealer"].start + view.dealer] = 1.0
        if view.phase is Phase.PLAY:
            out[slots["leader"].start + view.leader] = 1.0
        out[slots["phase"].start + PHASES.index(view.phase)] = 1.0
        out[slots["tricks"].start] = len(view.tricks) / self.tricks
        if self.picks:
            for index in picked:
                out[slots["picked"].start + index] = 1.0
        for side, (score, bags) in enumerate(zip(view.scores, view.bags, strict=True)):
            out[slots["scores"].start + side] = max(-1.0, min(1.0, score / 1000))
            out[slots["bags"].start + side] = min(1.0, bags / 10)
        out[slots["hand"].start] = min(1.0, view.hand_number / 50)
        return out


def _owed(game: GameState, seat: int) -> Step | None:
    """Return the discard or exchange ``seat`` may make in ``game`` now (the first step
    owed, or in a group of simultaneous steps its own until it has chosen), or ``None``."""
    if not game.steps:
        return None
    index = rules_of(game).engine.steps.step_of(game, seat)
    return game.steps[index] if index >= 0 else None


@functools.lru_cache(maxsize=64)
def encoding_for(rules: Rules) -> Encoding:
    """Return the :class:`Encoding` of ``rules`` (built once per rule set)."""
    return Encoding(rules)
