"""Play filters: which of its cards a seat may play, each rule written once.

A play filter narrows the mask of cards a seat may play: ``check(hand, seat, allowed)``
returns the cards of ``allowed`` (an int mask) that stay allowed.  There are two kinds,
and neither is ever written twice:

* **A plain Python filter**, ``PlayFilter(name, check, reason)``: what a plugin author
  writes.  Its ``check`` runs, as written, on every path: the step API, rollouts,
  simulations and search playouts.  It receives frozen states only.
* **A building block** the library ships: :func:`follow_suit`,
  :func:`no_lead_until_broken`, :func:`first_trick_ban` and :func:`head_the_trick`.
  Each is defined once, as a :class:`Block` of statements; the library derives from
  those same statements both the filter's ``check`` and the code it inlines into the
  compiled playout loops (see :mod:`spadeskit.codegen`), so the two cannot differ.

A rule set whose enforced filters are all building blocks plays its rollouts and
simulations in a compiled loop; one with any plain Python filter plays them card by
card through the step API's own code, so a third-party filter is always correct.
"""

from __future__ import annotations

import dis
import types
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from . import codegen
from .cards import Suit
from .errors import PluginError

if TYPE_CHECKING:
    from .state import HandState

__all__ = [
    "Block",
    "PlayCheck",
    "PlayFilter",
    "Ranking",
    "compile_filters",
    "first_trick_ban",
    "follow_suit",
    "head_the_trick",
    "no_lead_until_broken",
]

PlayCheck = Callable[["HandState", int, int], int]


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


READS = ("trick", "played", "tricks")
"""What a building block may read of the hand in play: ``$trick`` (the trick so far,
``(seat, card index)`` pairs), ``$played`` (mask of the cards played this hand) and
``$tricks`` (the finished tricks)."""

REFERENCE = {name: f"hand.{name}" for name in READS}
"""How a block's reads are written in the reference check (from the state)."""

_RESERVED = frozenset({"hand", "seat", "draw", "rows"})


@attrs.frozen
class Block:
    """A building block's one definition: Python statements that narrow ``allowed``.

    The statements read the seat as ``seat`` and the cards still allowed as
    ``allowed``; they read the hand in play only through ``$trick``, ``$played`` and
    ``$tricks`` (see :data:`READS`), and each of ``constants`` as ``$name``.  They must
    never leave ``allowed`` empty when it was not, nor add a card to it.
    """

    statements: str
    constants: Mapping[str, Any] = attrs.field(factory=dict)

    def render(self, reads: Mapping[str, str], names: Mapping[str, str]) -> str:
        """Return the statements with the reads and constant names filled in."""
        return codegen.render(self.statements, **reads, **names)

    def inline(self, prefix: str, reads: Mapping[str, str], namespace: dict[str, Any]) -> str:
        """Return the statements ready to inline in generated code: the reads filled in,
        each constant bound in ``namespace`` as ``prefix + name``."""
        names = {key: f"{prefix}{key}" for key in self.constants}
        namespace.update({names[key]: value for key, value in self.constants.items()})
        return self.render(reads, names)

    def check_names(self, name: str) -> None:
        """Raise :class:`PluginError` if the statements read ``hand`` or assign a name
        the playout loops keep their state in (they are inlined there)."""
        rendered = self.inline("_c_", {k: f"_k_{k}" for k in READS}, {})
        for code in _code_objects(compile(rendered, f"<block {name}>", "exec")):
            for ins in dis.get_instructions(code):
                target = ins.argval if isinstance(ins.argval, str) else ""
                if target == "hand" and ins.opname.startswith("LOAD"):
                    raise PluginError(
                        f"building block {name!r} reads 'hand': read the hand in play "
                        "through $trick, $played and $tricks"
                    )
                if ins.opname.startswith(("STORE", "DELETE")) and (
                    target in _RESERVED or target.startswith("_k_")
                ):
                    raise PluginError(
                        f"building block {name!r} assigns {target!r}, which the playout "
                        "loops keep their state in; use another name"
                    )


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


@attrs.frozen
class PlayFilter:
    """One restriction on plays: ``check(hand, seat, allowed) -> allowed``.

    ``hand`` is the state (:data:`~spadeskit.state.HandState`), ``allowed`` an int mask
    of the cards still allowed; the check returns the narrowed mask and must never
    return an empty one when ``allowed`` was not empty, nor add cards to it.  Filters
    run sorted by ``(order, name)``.  ``enforced=False`` accepts a card the filter
    refuses and records it as a secret breach (table enforcement).

    ``block`` is set only by the library's building blocks (see the module docs): the
    statements ``check`` was derived from.  Write a filter of your own as ``check``
    alone; it runs as written everywhere.  (``source`` and ``constants``, which once
    let a filter give its check a second time as text, are ignored, with a warning.)
    """

    name: str
    check: PlayCheck = attrs.field(eq=False)
    reason: str = ""
    order: int = 100
    enforced: bool = True
    source: str | None = attrs.field(default=None, eq=False, repr=False)
    constants: Mapping[str, Any] = attrs.field(factory=dict, eq=False, repr=False)
    block: Block | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if self.source is not None:
            warnings.warn(
                f"PlayFilter {self.name!r}: 'source' is ignored since spadeskit 0.2; the "
                "filter's check runs on every path (write the rule once, as check)",
                DeprecationWarning,
                stacklevel=3,
            )


def building_block(
    name: str,
    reason: str,
    statements: str,
    constants: Mapping[str, Any],
    *,
    order: int,
    enforced: bool = True,
) -> PlayFilter:
    """Return a play filter defined by ``statements`` alone (see :class:`Block`): its
    ``check`` is derived from them, and compiled playout loops inline the same text."""
    block = Block(statements, dict(constants))
    block.check_names(name)
    namespace: dict[str, Any] = {}
    source = (
        "def check(hand, seat, allowed):\n"
        + codegen.indent(block.inline("_c_", REFERENCE, namespace), 1)
        + "    return allowed\n"
    )
    check = codegen.function("check", source, namespace, label=f"play filter {name}")
    return PlayFilter(name, check, reason, order=order, enforced=enforced, block=block)


def compile_filters(
    filters: Sequence[PlayFilter], sources: codegen.Sources | None = None
) -> PlayCheck:
    """Return one function applying ``filters`` in order: building blocks inlined, every
    other filter's ``check`` called in its place."""
    namespace: dict[str, Any] = {}
    body = []
    for k, f in enumerate(filters):
        if f.block is None:
            namespace[f"_check{k}"] = f.check
            body.append(f"allowed = _check{k}(hand, seat, allowed)\n")
            continue
        body.append(f.block.inline(f"_c{k}_", REFERENCE, namespace))
    source = (
        "def check(hand, seat, allowed):\n"
        + codegen.indent("".join(body), 1)
        + "    return allowed\n"
    )
    check: PlayCheck = codegen.function(
        "check", source, namespace, label="play filters", sources=sources
    )
    return check


# --------------------------------------------------------------------------------------
# The building blocks
# --------------------------------------------------------------------------------------

_FOLLOW = """\
if $trick:
    following = allowed & $suit_mask[$suit_of[$trick[0][1]]]
    if following:
        allowed = following
"""


def follow_suit(ranking: Ranking, *, enforced: bool = True, order: int = 10) -> PlayFilter:
    """Return the filter "follow the led (effective) suit if able"."""
    return building_block(
        "follow-suit",
        "a player must follow the led suit when able",
        _FOLLOW,
        {"suit_mask": ranking.suit_mask, "suit_of": ranking.suit_of},
        order=order,
        enforced=enforced,
    )


_UNBROKEN = """\
if not $trick and not $played & $trump:
    rest = allowed & $others
    if rest:
        allowed = rest
"""


def no_lead_until_broken(
    ranking: Ranking, suit: Suit = Suit.SPADES, *, enforced: bool = True, order: int = 20
) -> PlayFilter:
    """Return the filter "no leading ``suit`` until one has been played, unless only it is held".

    With ``enforced=False`` a lead outside it is accepted and recorded as a secret
    :class:`~spadeskit.state.Breach` (table enforcement).
    """
    trump = ranking.suit_mask[suit]
    name = suit.name.lower()
    return building_block(
        f"break-{name}",
        f"{name} may not be led until broken, unless the leader holds only {name}",
        _UNBROKEN,
        {"trump": trump, "others": ranking.deck_mask & ~trump},
        order=order,
        enforced=enforced,
    )


_FIRST_TRICK = """\
if not $tricks and allowed & $others:
    allowed = allowed & $others
"""


def first_trick_ban(
    ranking: Ranking,
    suit: Suit = Suit.SPADES,
    *,
    name: str = "no-trump-first-trick",
    order: int = 30,
) -> PlayFilter:
    """Return the filter "no ``suit`` may be played to the first trick unless the player
    holds nothing else"."""
    plural = suit.name.lower()
    return building_block(
        name,
        f"no {plural[:-1]} may be played to the first trick unless the player holds nothing else",
        _FIRST_TRICK,
        {"others": ranking.deck_mask & ~ranking.suit_mask[suit]},
        order=order,
    )


_HEAD = """\
if $trick:
    led = $suit_of[$trick[0][1]]
    following = allowed & $suit_mask[led]
    if following:
        trumped = led != $trump_suit and any($suit_of[c] == $trump_suit for _, c in $trick)
        if $must_head and not trumped:
            allowed = $beating(following, led, $trick) or following
        else:
            allowed = following
    else:
        trumps = allowed & $trumps
        if trumps:
            allowed = $beating(trumps, $trump_suit, $trick) or trumps
"""


def head_the_trick(
    ranking: Ranking, must_head: bool = True, suit: Suit = Suit.SPADES, *, order: int = 10
) -> PlayFilter:
    """Return the heading filter (Call Break), with ``suit`` trumps.

    Following suit: the led suit if able and, with ``must_head``, a card beating every
    card of the led suit in the trick if able, unless the trick has been trumped.  Void
    in the led suit: a trump if able, and one beating every trump in the trick if able;
    otherwise any card.  Any card may be led.
    """
    suit_of, strength = ranking.suit_of, ranking.strength

    def beating(allowed: int, led: int, trick: Sequence[tuple[int, int]]) -> int:
        """Return the cards of ``allowed`` beating every card of suit ``led`` in the trick."""
        top = max((strength[c] for _, c in trick if suit_of[c] == led), default=-1)
        mask, rest = 0, allowed
        while rest:
            bit = rest & -rest
            if strength[bit.bit_length() - 1] > top:
                mask |= bit
            rest ^= bit
        return mask

    reason = (
        (
            "follow suit and beat the led suit's best card if able (unless trumped); "
            "void: play a spade, beating the best spade if able"
        )
        if must_head
        else "follow suit if able; void: play a spade, beating the best spade if able"
    )
    return building_block(
        "head-the-trick",
        reason,
        _HEAD,
        {
            "suit_of": suit_of,
            "suit_mask": ranking.suit_mask,
            "must_head": must_head,
            "trump_suit": int(suit),
            "trumps": ranking.suit_mask[suit],
            "beating": beating,
        },
        order=order,
    )
