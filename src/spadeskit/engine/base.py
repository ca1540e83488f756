"""The engine's shared ground: what it keeps, how it names seats, and its errors.

The engine is one class, :class:`~spadeskit.engine.machine.Engine`, split by job into a chain
of classes, each in its own module and each using only what the classes before it
define: :class:`EngineBase` (this module: the engine's fields, seat names, the errors
it raises about plugins), :class:`~spadeskit.engine.auction.AuctionRules` (bids, contracts,
exchanges), :class:`~spadeskit.engine.dealing.Dealer` (shuffles, explicit deals, the lazy
deal of each hand), :class:`~spadeskit.engine.scoring.Scoring` (a hand's summary, its score
lines, the match after it), :class:`~spadeskit.engine.tricks.Tricks` (legal plays, a card
played, the end of play), :class:`~spadeskit.engine.turns.Turns` (legal actions and
``apply``, out-of-turn actions), :class:`~spadeskit.engine.loops.PlayoutLoops` (the compiled
playout loops) and :class:`~spadeskit.engine.playouts.Playouts` (rollouts and simulations).

These modules are the compiled core (:mod:`spadeskit._native`): mypyc compiles them
where it can, and compiled code checks each argument's declared type on entry.  So an
argument that comes from a caller unchecked (a seat, a seed, a count) is typed ``Any``
at the entry point that checks it: a bad one raises the engine's own
:class:`~spadeskit.core.errors.SpadesError`, compiled or not, never a ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from spadeskit.core import codegen
from spadeskit.core.actions import Action
from spadeskit.core.cards import cards_of
from spadeskit.core.errors import (
    Deadlock,
    IllegalAction,
    PluginError,
    shown,
)
from spadeskit.core.seating import TableSpec
from spadeskit.core.state import (
    GameState,
    Phase,
)
from spadeskit.engine.compiler import Compiled, answered_by
from spadeskit.engine.filters import PlayCheck, PlayFilter

if TYPE_CHECKING:
    from spadeskit.engine.compiled import CompiledRules
    from spadeskit.engine.hookcalls import CompiledHooks
    from spadeskit.engine.playouts import CardLoop


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


class EngineBase:
    """The engine's fields, seat names and checks, and the errors it raises about plugins.

    :class:`~spadeskit.engine.machine.Engine` fills the fields when rules are built.
    """

    rules: CompiledRules
    calls: CompiledHooks
    table: TableSpec
    n: int
    suit_of: tuple[int, ...]
    card_points: tuple[int, ...] | None
    sources: codegen.Sources
    check: PlayCheck
    advisory: tuple[PlayFilter, ...]
    next_seat: tuple[int, ...]
    # Each seat's (seat, card) pair and log entry per card, built once and shared by
    # every trick and log.  Typed Any: compiled code would rebuild a fixed-length tuple
    # each time it stored one, and every state would hold its own copies.
    pairs: tuple[tuple[Any, ...], ...]
    entries: tuple[tuple[Any, ...], ...]
    player_offers: dict[Phase, Compiled | None]
    referee_offers: dict[Phase, Compiled | None]
    play_offer: Compiled | None
    draw: int
    deck: tuple[int, ...]
    deal_map: tuple[tuple[int, ...], ...]
    loop: CardLoop | None
    _checked_auction: dict[int, tuple[Action, ...]]

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
        order = range(len(found) - 1, -1, -1) if backwards else range(len(found))
        for index in order:
            group = found[index]
            if group is None:
                continue
            try:
                items = iter(group)  # type: ignore[call-overload]
            except TypeError:
                raise self._bad(hook, call, group, "not a list", index) from None
            for item in items:
                yield index, item

    def _bad_after_trick(self, changed: object) -> PluginError:
        return self._bad("spadeskit_after_trick", self.calls.after_trick, changed, "not a state")

    def _bad_filters(self, seat: int, held: int, mask: object) -> PluginError:
        names = ", ".join(f.name for f in self.rules.filters if f.enforced)
        if type(mask) is not int:
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
        return Deadlock(
            f"{self.seat_name(seat)} has no legal action in the {game.phase.value} of hand "
            f"{game.number + 1}: the rules {self.rules.name!r} leave the game stuck "
            f"(plugins {names}; two of them probably cannot be combined)"
        )
