"""The engine's shared ground: the rule set's tables, seat names, and its errors.

The engine is made of parts, each an object in its own module that can be read alone
(:class:`~spadeskit.engine.playing.Engine` builds them and holds them):
:class:`Shared` (this module: what every part reads, seat names, the errors about
plugins), :class:`~spadeskit.engine.auction.Auction` (bids, contracts),
:class:`~spadeskit.engine.steps.Steps` (discards and exchanges, one after another or
simultaneous), :class:`~spadeskit.engine.dealing.Dealer` (shuffles, explicit deals,
each hand dealt when it starts), :class:`~spadeskit.engine.scoring.Scoring` (a hand's summary, its
score lines, the match after it), :class:`~spadeskit.engine.tricks.Tricks` (legal
plays, a card played, the end of play), :class:`~spadeskit.engine.turns.Turns` (legal
actions and ``apply``, out-of-turn actions) and
:class:`~spadeskit.engine.playouts.Playouts` (the playout loop, rollouts and
simulations).  Each part is handed the parts it asks, so the dependencies run one way:
auction, steps, dealer, scoring, tricks, turns, playouts.

These modules are the native core (:mod:`spadeskit._native`): mypyc compiles them
where it can, and compiled code checks each argument's declared type on entry.  So an
argument that comes from a caller unchecked (a seat, a seed, a count) is typed ``Any``
at the entry point that checks it: a bad one raises the engine's own
:class:`~spadeskit.core.errors.SpadesError`, compiled or not, never a ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from spadeskit.core import codegen
from spadeskit.core.actions import PLAYS, Action
from spadeskit.core.cards import COPY, cards_of
from spadeskit.core.errors import (
    Deadlock,
    IllegalAction,
    PluginError,
    shown,
)
from spadeskit.core.seating import FrozenMap, TableSpec
from spadeskit.core.state import (
    GameState,
    Phase,
)
from spadeskit.engine.compiler import Compiled, answered_by
from spadeskit.engine.filters import PlayFilter, compile_filters
from spadeskit.engine.winner import Decide

if TYPE_CHECKING:
    from spadeskit.engine.hookcalls import HookCalls
    from spadeskit.engine.loaded import LoadedRules


def _places(game: GameState) -> tuple[Any, ...]:
    """Return where every card is: each hand, each seat's cards won, the blind, the pile
    and the cards played (what ``spadeskit_after_trick`` may not change)."""
    return (game.hands, game.won, game.blind, game.pile, game.played, game.trick)


def _fixed(game: GameState) -> tuple[Any, ...]:
    """Return what ``spadeskit_after_trick`` may not change besides the cards: the phase,
    the hand, its auction, contract and tricks, the match and the rules."""
    return (
        game.phase,
        game.number,
        game.dealer,
        game.bids,
        game.auction,
        game.contract,
        game.steps,
        game.tricks,
        game.match,
        game.rules,
    )


def listed(action: Action, legal: Sequence[Action]) -> bool:
    """Return whether ``action`` is one of ``legal``: same exact type, equal fields.

    The comparison is made by the listed action (a spadeskit class), never by the
    caller's object, so a subclass with its own ``__eq__`` cannot pass for another.
    """
    for a in legal:
        if a is action:
            return True
    kind = type(action)
    for a in legal:
        if type(a) is kind and a == action:
            return True
    return False


class Shared:
    """What every part of the engine reads: the rule set's tables and compiled hooks, the
    seats, and the errors the engine raises about plugins.

    Built once per rule set by :class:`~spadeskit.engine.playing.Engine`, which hands it
    to each of its parts.
    """

    def __init__(self, rules: LoadedRules) -> None:
        self.rules = rules
        self.calls: HookCalls = rules.calls
        self.table: TableSpec = rules.table
        n = self.n = rules.table.players
        self.suit_of: tuple[int, ...] = rules.ranking.suit_of
        self.card_points: tuple[int, ...] | None = rules.card_points
        self.sources: codegen.Sources = rules.sources
        # Typed to return object: a plugin's filter may answer anything, and the native
        # core would raise a bare TypeError converting it to int before it is checked.
        self.check: Callable[[Any, int, int], object] = compile_filters(
            [f for f in rules.filters if f.enforced], self.sources
        )
        self.advisory: tuple[PlayFilter, ...] = tuple(f for f in rules.filters if not f.enforced)
        self.next_seat: tuple[int, ...] = tuple((s + 1) % n for s in range(n))
        # Each seat's (seat, card) pair and log entry per card, built once and shared by
        # every trick and log.  Typed Any: compiled code would rebuild a fixed-length
        # tuple each time it stored one, and every state would hold its own copies.
        # A card's second copy (a deck that holds it twice) logs the card's own Play.
        size = rules.table.size
        self.pairs: tuple[tuple[Any, ...], ...] = tuple(
            tuple((s, i) for i in range(size)) for s in range(n)
        )
        self.entries: tuple[tuple[Any, ...], ...] = tuple(
            tuple((s, PLAYS[i % COPY]) for i in range(size)) for s in range(n)
        )
        self.copies: bool = rules.table.copies
        """Whether the deck holds a card twice: a play then names a card, not a copy."""
        offers = self.calls.offers
        self.player_offers: dict[Phase, Compiled | None] = {
            phase: offers[(phase, False)] for phase, referee in offers if not referee
        }
        self.referee_offers: dict[Phase, Compiled | None] = {
            phase: offers[(phase, True)] for phase, referee in offers if referee
        }
        self.play_offer: Compiled | None = self.player_offers[Phase.PLAY]
        self.deck: int = sum(1 << i for i in set(rules.table.indices))
        """The mask of every card index of the deck."""
        self.draw: int = rules.table.deal.draw
        self.decide: Decide | None = rules.decide_winner

    # ----------------------------------------------------------------------------------
    # Naming and checking, for messages
    # ----------------------------------------------------------------------------------

    def seat_name(self, seat: int | None) -> str:
        """Return ``"seat 2 (S)"``, or ``"the referee"`` for ``None``."""
        if seat is None:
            return "the referee"
        return f"seat {seat} ({self.table.seat_names[seat]})"

    def check_seat(self, seat: object, what: str = "seat") -> int:
        """Return ``seat`` if it is a seat of this table; raise :class:`IllegalAction` if not."""
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction(
                f"{what} {shown(seat, 40)} does not exist: seats are 0 to {self.n - 1}",
                code="no-such-seat",
            )
        return seat

    def _plugin_seat(self, seat: object, hook: str, call: Any) -> int:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise self._bad(hook, call, seat, "not a seat")
        return seat

    def _bad(
        self, hook: str, call: Any, value: object, what: str, index: int | None = None
    ) -> PluginError:
        """Return the error for a hook answer the engine cannot use, naming who gave it."""
        return PluginError(
            f"{hook} answered {shown(value, 60)}, {what} ({answered_by(call, index)}, "
            f"in {self.rules.name!r})"
        )

    def _answers(
        self, hook: str, call: Any, found: Sequence[object], backwards: bool = False
    ) -> Iterator[tuple[int, Any]]:
        """Yield ``(index, item)`` for each item of each plugin's answer to a collected
        hook (the answers last to first with ``backwards``); an answer that is not a
        list of items is a PluginError naming the plugin."""
        if type(found) is not list:  # a wrapper's answer: pluggy's shape is one list
            raise self._bad(
                hook,
                call,
                found,
                "not one list per plugin (a wrapper of a collected hook returns the shape it got)",
            )
        order = range(len(found) - 1, -1, -1) if backwards else range(len(found))
        for index in order:
            group = found[index]
            if group is None:
                continue
            try:
                items = iter(group)
            except TypeError:
                raise self._bad(hook, call, group, "not a list", index) from None
            for item in items:
                yield index, item

    def after_trick(self, hand: GameState, done: Any) -> GameState | None:
        """Ask ``spadeskit_after_trick`` (which the rules implement) about ``hand`` after
        the trick ``done``; return its checked answer, or ``None`` where it changed nothing.

        The hook may change the hand's plugin data, books and who acts, never where the
        cards are: an answer that is not a state, or that holds a card in two places, or
        loses or adds one, is a :class:`PluginError` naming the plugin.
        """
        call = self.calls.after_trick
        assert call is not None
        changed = call(hand, done)
        if changed is None:
            return None
        if not isinstance(changed, GameState):
            raise self._bad("spadeskit_after_trick", call, changed, "not a state")
        if _places(changed) != _places(hand):
            raise self._bad(
                "spadeskit_after_trick",
                call,
                changed,
                "a state whose cards are not where the trick left them (a hook may not "
                "move, add or remove cards)",
            )
        if _fixed(changed) != _fixed(hand):
            raise self._bad(
                "spadeskit_after_trick",
                call,
                changed,
                "a state of another phase, hand, contract or match (a hook may change the "
                "plugin data, the books and who acts, nothing else)",
            )
        problem = self.hand_problem(changed)
        if problem:
            raise self._bad("spadeskit_after_trick", call, changed, f"a state whose {problem}")
        return changed

    def hand_problem(self, game: Any) -> str:
        """Return what makes a state a plugin gave unplayable (its seat to act, leader,
        books or plugin data of the wrong kind), or ``""``.  Read untyped: the native
        core would raise a bare TypeError on a field of the wrong type."""
        n = self.n
        to_act, leader, books = game.to_act, game.leader, game.books
        if to_act is not None and (type(to_act) is not int or not 0 <= to_act < n):
            return f"seat to act {shown(to_act, 20)} is not a seat"
        if type(leader) is not int or not 0 <= leader < n:
            return f"leader {shown(leader, 20)} is not a seat"
        if (
            type(books) is not tuple
            or len(books) != n
            or any(type(b) is not int or b < 0 for b in books)
        ):
            return f"books {shown(books, 40)} are not {n} whole numbers, 0 or more"
        if not isinstance(game.extra, FrozenMap):
            return f"plugin data {shown(game.extra, 40)} is not a FrozenMap"
        return ""

    def cards_problem(self, game: Any) -> str:
        """Return how a state a plugin gave loses, doubles or invents a card (each card of
        the deck is in one place: a hand, a seat's cards won, the blind, the pile or the
        trick), or ``""``."""
        places = [*game.hands, *game.won, game.blind]
        places += [1 << card for _, card in game.trick] + [1 << card for card in game.pile]
        seen = count = 0
        for mask in places:
            if type(mask) is not int or mask < 0:
                return f"cards {shown(mask, 30)} are not a card mask"
            seen |= mask
            count += mask.bit_count()
        if seen != self.deck or count != len(self.table.deck):
            return (
                f"cards are not each in one place ({count} placed, the deck holds "
                f"{len(self.table.deck)})"
            )
        return ""

    def check_action_type(self, action: Action, hook: str, call: Any, index: int | None) -> None:
        """Raise a PluginError for an action of a type these rules do not know (no loaded
        plugin declares it: records, replays and views could not read it)."""
        kind = type(action).kind
        if self.rules.action_types.get(kind) is not type(action):
            raise self._bad(
                hook,
                call,
                action,
                f"an action of a type these rules do not declare ({type(action).__name__}, "
                "kind " + shown(kind, 30) + "; declare it with spadeskit_action_types)",
                index,
            )

    def _bad_filters(self, seat: int, held: int, mask: object) -> PluginError:
        names = ", ".join(f.name for f in self.rules.filters if f.enforced)
        if type(mask) is not int or mask < 0:
            why = f"returned {shown(mask, 40)}, not a card mask"
        elif not mask:
            why = "leave nothing to play from a hand that is not empty"
        else:
            extra = ", ".join(c.code for c in cards_of(mask & ~held))
            why = f"allow {extra}, which the seat does not hold"
        return PluginError(
            f"the play filters of {self.rules.name!r} ({names}) {why} for {self.seat_name(seat)}"
        )

    def _stuck(self, game: GameState, seat: int) -> Deadlock:
        """Return the error for a state in which the seat to act has no action at all."""
        names = ", ".join(info.name for info in self.rules.plugins)
        why = ""
        if game.phase is Phase.AUCTION:  # the hook listed nothing for the seat to speak
            why = (
                f"spadeskit_auction_actions answered no action at all for it "
                f"({answered_by(self.calls.auction_actions)}) and no plugin offers another; "
            )
        return Deadlock(
            f"{self.seat_name(seat)} has no legal action in the {game.phase.value} of hand "
            f"{game.number + 1}: {why}the rules {self.rules.name!r} leave the game stuck "
            f"(plugins {names}; two of them probably cannot be combined)"
        )
