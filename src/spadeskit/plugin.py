"""The public API for writing a variant or a house rule.

A plugin is a module with ``@hookimpl`` functions (see :mod:`spadeskit.hookspecs`) and a
module attribute ``PLUGIN``, a :class:`PluginInfo` naming it, its kind, its options and
how it composes.  It is found through the ``spadeskit`` entry-point group::

    [project.entry-points.spadeskit]
    suicide = "my_package.suicide"

spadeskit's own variants are plugins of exactly this kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypeVar

import attrs
import pluggy

from .cards import Suit
from .compiler import ACTS_IN
from .state import GameState, HandState, Phase, evolve

__all__ = [
    "ActsIn",
    "Option",
    "PlayFilter",
    "PluginInfo",
    "Ranking",
    "acts_in",
    "choice",
    "clockwise",
    "compile_filters",
    "evolve_hand",
    "follow_suit",
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


@attrs.frozen
class Ranking:
    """The compiled card ranking, handed to play filters and bots.

    ``suit_of[i]`` is the effective suit of card index ``i`` (``-1`` if not in the deck),
    ``strength[i]`` its strength within it, ``suit_mask[s]`` the mask of every deck card
    of effective suit ``s``, ``deck_mask`` the whole deck.
    """

    suit_of: tuple[int, ...]
    strength: tuple[int, ...]
    suit_mask: tuple[int, ...]
    deck_mask: int


PlayCheck = Callable[["HandState", int, int], int]


@attrs.frozen
class PlayFilter:
    """One restriction on plays: ``check(hand, seat, allowed) -> allowed``.

    ``hand`` is the state (:data:`~spadeskit.state.HandState`), ``allowed`` an int mask
    of the cards still allowed; the check returns the narrowed mask and must never
    return an empty one when ``allowed`` was not empty, nor add cards to it.  Filters
    run sorted by ``(order, name)``.

    ``source`` optionally gives the same check as Python statements that narrow the
    local ``allowed`` (reading ``hand`` and ``seat``), with ``{name}`` placeholders for
    the values in ``constants``.  The rules then compile every filter into one function
    and inline those statements instead of calling ``check`` (the ready-made filters
    below do this); ``check`` stays the reference and is used for error messages.
    """

    name: str
    check: PlayCheck = attrs.field(eq=False)
    reason: str = ""
    order: int = 100
    enforced: bool = True
    source: str | None = attrs.field(default=None, eq=False)
    constants: Mapping[str, Any] = attrs.field(factory=dict, eq=False)


_FOLLOW_SOURCE = """\
trick = hand.trick
if trick:
    following = allowed & {suit_mask}[{suit_of}[trick[0][1]]]
    if following:
        allowed = following
"""

_UNBROKEN_SOURCE = """\
if not hand.trick and not hand.played & {trump}:
    rest = allowed & {others}
    if rest:
        allowed = rest
"""


def follow_suit(ranking: Ranking, *, enforced: bool = True, order: int = 10) -> PlayFilter:
    """Return the filter "follow the led (effective) suit if able"."""
    suit_of, suit_mask = ranking.suit_of, ranking.suit_mask

    def check(hand: HandState, seat: int, allowed: int) -> int:
        trick = hand.trick
        if trick:
            following = allowed & suit_mask[suit_of[trick[0][1]]]
            if following:
                return following
        return allowed

    return PlayFilter("follow-suit", check, "a player must follow the led suit when able",
                      order=order, enforced=enforced, source=_FOLLOW_SOURCE,
                      constants={"suit_mask": suit_mask, "suit_of": suit_of})


def no_lead_until_broken(ranking: Ranking, suit: Suit = Suit.SPADES, *, enforced: bool = True,
                         order: int = 20) -> PlayFilter:
    """Return the filter "no leading ``suit`` until one has been played, unless only it is held".

    With ``enforced=False`` a lead outside it is accepted and recorded as a secret
    :class:`~spadeskit.state.Breach` (table enforcement).
    """
    trump = ranking.suit_mask[suit]
    others = ranking.deck_mask & ~trump

    def check(hand: HandState, seat: int, allowed: int) -> int:
        if not hand.trick and not hand.played & trump:
            rest = allowed & others
            if rest:
                return rest
        return allowed

    name = suit.name.lower()
    return PlayFilter(f"break-{name}", check,
                      f"{name} may not be led until broken, unless the leader holds only {name}",
                      order=order, enforced=enforced, source=_UNBROKEN_SOURCE,
                      constants={"trump": trump, "others": others})


def compile_filters(filters: Sequence[PlayFilter]) -> PlayCheck:
    """Return one function applying ``filters`` in order, with their sources inlined."""
    namespace: dict[str, Any] = {}
    lines = ["def check(hand, seat, allowed):"]
    for k, f in enumerate(filters):
        if f.source is None:
            namespace[f"_check{k}"] = f.check
            lines.append(f"    allowed = _check{k}(hand, seat, allowed)")
            continue
        names = {}
        for key, value in f.constants.items():
            names[key] = f"_c{k}_{key}"
            namespace[names[key]] = value
        lines += ["    " + line for line in f.source.format(**names).splitlines()]
    lines.append("    return allowed")
    exec(compile("\n".join(lines) + "\n", "<spadeskit play filters>", "exec"), namespace)
    check: PlayCheck = namespace["check"]
    return check


def clockwise(seat: int, players: int, steps: int = 1) -> int:
    """Return the seat ``steps`` places clockwise (to the left) of ``seat``."""
    return (seat + steps) % players


def evolve_hand(hand: HandState, **changes: Any) -> HandState:
    """Return a copy of ``hand`` with the given fields changed.

    ``hand`` is the state itself (see :data:`~spadeskit.state.HandState`), so the copy
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
    return game.rules._engine.void_hand(game, note)


def review_or_score(game: GameState) -> GameState:
    """Return the state after the last trick's review step is settled: ask the next review
    seat (``spadeskit_before_scoring``) or, when there is none, score the hand."""
    return game.rules._engine.review_or_score(game)


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


def acts_in(*phases: Phase, who: Who = "players",
            when: Callable[[Mapping[str, Any]], bool] | None = None) -> Callable[[F], F]:
    """Declare when a ``spadeskit_penalty_actions`` implementation can offer anything.

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
        def spadeskit_penalty_actions(game, seat): ...
    """
    declared = ActsIn(frozenset(phases), who, when)

    def mark(function: F) -> F:
        setattr(function, ACTS_IN, declared)
        return function

    return mark
