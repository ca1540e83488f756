"""The public API for writing a variant or a house rule.

A plugin is a module with ``@hookimpl`` functions (see :mod:`spadeskit.engine.hookspecs`) and a
module attribute ``PLUGIN``, a :class:`PluginInfo` naming it, its kind, its options and
how it composes.  It is found through the ``spadeskit`` entry-point group::

    [project.entry-points.spadeskit]
    suicide = "my_package.suicide"

spadeskit's own variants are plugins of exactly this kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar

import attrs
import pluggy

from spadeskit.core.state import GameState, HandState, Phase, evolve
from spadeskit.engine.compiler import ACTS_IN
from spadeskit.engine.filters import (
    PlayCheck,
    PlayFilter,
    Ranking,
    compile_filters,
    first_trick_ban,
    follow_suit,
    head_the_trick,
    no_lead_until_broken,
)

__all__ = [
    "ActsIn",
    "Option",
    "PlayCheck",
    "PlayFilter",
    "PluginInfo",
    "Ranking",
    "acts_in",
    "choice",
    "clockwise",
    "compile_filters",
    "evolve_hand",
    "first_trick_ban",
    "follow_suit",
    "head_the_trick",
    "hookimpl",
    "int_range",
    "optional",
    "no_lead_until_broken",
    "review_or_score",
    "void_hand",
    "with_hand",
]

hookimpl = pluggy.HookimplMarker("spadeskit")
"""Marker for hook implementations: ``@hookimpl``, ``@hookimpl(wrapper=True)`` …"""


Validator = Callable[[Any], "str | None"]


class choice:  # noqa: N801  (used like a function: choice("a", "b"))
    """A validator accepting only the given values; ``allowed`` lists them."""

    def __init__(self, *allowed: Any) -> None:
        self.allowed = allowed

    def __call__(self, value: Any) -> str | None:
        # Exact types: 1 is not True, 1.0 is not 1.
        if any(type(value) is type(a) and value == a for a in self.allowed):
            return None
        return f"must be one of {', '.join(map(repr, self.allowed))}"


def int_range(low: int | None = None, high: int | None = None) -> Validator:
    """Return a validator accepting whole numbers within ``[low, high]`` (open if None)."""

    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be a whole number"
        if low is not None and value < low:
            return f"must be at least {low}"
        if high is not None and value > high:
            return f"must be at most {high}"
        return None

    return check


def optional(check: Validator) -> Validator:
    """Return a validator that also accepts ``None`` (an option that can be turned off)."""

    def check_optional(value: Any) -> str | None:
        return None if value is None else check(value)

    return check_optional


@attrs.frozen
class Option:
    """A named option of a plugin, with its default, a docstring and a validator."""

    name: str
    default: Any
    doc: str
    validator: Validator | None = attrs.field(default=None, eq=False)

    def problem(self, value: Any) -> str | None:
        """Return why ``value`` is refused, or ``None`` if it is fine."""
        return self.validator(value) if self.validator is not None else None


@attrs.frozen
class PluginInfo:
    """What a plugin is and how it composes with others.

    ``kind`` is ``"variant"`` (exactly one per rules) or ``"house-rule"``.  ``fits``
    lists the variants a house rule works with (empty: any).  ``requires`` and
    ``conflicts`` name other plugins.  ``order`` places a house rule among others when
    their hooks combine (lower is registered earlier, so its wrappers sit further in).
    """

    name: str
    kind: Literal["variant", "house-rule"]
    summary: str
    options: tuple[Option, ...] = ()
    fits: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    order: int = 100


def clockwise(seat: int, players: int, steps: int = 1) -> int:
    """Return the seat ``steps`` places clockwise (to the left) of ``seat``."""
    return (seat + steps) % players


def evolve_hand(hand: HandState, **changes: Any) -> HandState:
    """Return a copy of ``hand`` with the given fields changed.

    ``hand`` is the state itself (see :data:`~spadeskit.core.state.HandState`), so the copy
    keeps the match; the legal-action cache is cleared.
    """
    return evolve(hand, **changes)


def with_hand(game: GameState, hand: HandState) -> GameState:
    """Return ``game`` with its hand in progress replaced by ``hand`` (match and rules kept)."""
    if hand.match is game.match and hand.rules is game.rules:
        return hand
    return evolve(hand, match=game.match, rules=game.rules, _dealing=game._dealing)


def void_hand(game: GameState, note: str) -> GameState:
    """Return the state after voiding the hand in progress (a misdeal): nothing is scored,
    the result says ``note``, and the next hand is dealt by the next dealer."""
    return game.rules.engine.void_hand(game, note)


def review_or_score(game: GameState) -> GameState:
    """Return the state after the last trick's review step is settled: ask the next review
    seat (``spadeskit_before_scoring``) or, when there is none, score the hand."""
    return game.rules.engine.review_or_score(game)


Who = Literal["players", "referee", "any"]


@attrs.frozen
class ActsIn:
    """When an out-of-turn hook implementation can offer anything (see :func:`acts_in`)."""

    phases: frozenset[Phase]
    who: Who
    when: Callable[[Mapping[str, Any]], bool] | None = attrs.field(default=None, eq=False)

    def active(self, phase: Phase, referee: bool, options: Mapping[str, Any]) -> bool:
        """Return whether the implementation is asked in ``phase``, by a player or the referee."""
        if phase not in self.phases or self.who == ("players" if referee else "referee"):
            return False
        return self.when is None or bool(self.when(options))


F = TypeVar("F", bound=Callable[..., Any])


def acts_in(
    *phases: Phase, who: Who = "players", when: Callable[[Mapping[str, Any]], bool] | None = None
) -> Callable[[F], F]:
    """Declare when a ``spadeskit_out_of_turn_actions`` implementation can offer anything.

    Out-of-turn actions (claims, penalties, ``SeeCards``) are asked for whenever legal
    actions are listed, which is on every turn.  An implementation declared with
    ``@acts_in(Phase.AUCTION)`` is asked only during the auction, ``who="referee"``
    only when the referee asks (``who="any"``: both), and ``when`` (a function of the
    options) can leave it out of the rules altogether, decided once when the rules are
    loaded.  Outside what it declares the implementation costs nothing.  An
    implementation that declares nothing is asked in every phase, by everyone.

    Put it under ``@hookimpl``::

        @hookimpl
        @acts_in(Phase.PLAY, Phase.REVIEW, when=lambda options: options["enforcement"] == "table")
        def spadeskit_out_of_turn_actions(game, seat): ...
    """
    declared = ActsIn(frozenset(phases), who, when)

    def mark(function: F) -> F:
        setattr(function, ACTS_IN, declared)
        return function

    return mark
