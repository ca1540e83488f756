"""Play filters: which of its cards a seat may play, each rule written once.

A play filter narrows the mask of cards a seat may play: ``check(hand, seat, allowed)``
returns the cards of ``allowed`` (an int mask) that stay allowed.  There are two kinds,
and neither is ever written twice:

* **A plain Python filter**, ``PlayFilter(name, check, reason)``: what a plugin author
  writes.  Its ``check`` runs, as written, on every path: the step API, rollouts,
  simulations and search playouts.  It receives frozen states only.
* **A building block**: :func:`follow_suit`, :func:`no_lead_until_broken`,
  :func:`first_trick_ban` and :func:`head_the_trick`, or one of your own made with
  :func:`building_block`.  Each is defined once, as a :class:`Block` of
  :class:`Narrow` steps ("when these hold, keep only these cards, unless none"),
  written as expressions that run on one hand and on arrays of hands alike.  The
  library derives from those steps the filter's ``check``, the code it inlines into
  the playout loop's filter function (generated, see :mod:`spadeskit.core.codegen`)
  and the code of the batched engine (:mod:`spadeskit.batch`), so no path can differ.

A rule set whose enforced filters are all building blocks plays its rollouts and
simulations in the one playout loop, and its batches in arrays; one with any plain Python
filter plays them card by card through the step API's own code, so a third-party
filter is always correct (the batched engine refuses it, saying which).
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from spadeskit.core import codegen
from spadeskit.core.cards import Suit
from spadeskit.core.errors import PluginError
from spadeskit.core.seating import Ranking

if TYPE_CHECKING:
    from spadeskit.core.state import HandState

__all__ = [
    "Block",
    "Narrow",
    "PlayCheck",
    "PlayFilter",
    "Ranking",
    "compile_filters",
    "first_trick_ban",
    "follow_suit",
    "head_the_trick",
    "building_block",
    "no_lead_until_broken",
]

PlayCheck = Callable[["HandState", int, int], int]


STATE_READS = ("trick", "played", "tricks")
"""What the statements derived from a block read of the hand in play: ``$trick`` (the
trick so far, ``(seat, card index)`` pairs), ``$played`` (mask of the cards played this
hand) and ``$tricks`` (the finished tricks); each path spells them its own way."""

REFERENCE = {name: f"hand.{name}" for name in STATE_READS}
"""How the reads are written in the reference check (from the state)."""

READS = ("leading", "following", "lead", "played", "done", "top")
"""What a building block may read of the hand in play, as ``$name``:

* ``$leading`` / ``$following``: whether the seat leads the trick or follows;
* ``$lead``: the effective suit (an int) of the card led, when following;
* ``$played``: the mask of the cards played this hand;
* ``$done``: how many tricks of the hand are finished;
* ``$top[s]``: the greatest strength within effective suit ``s`` among the trick's
  cards of that suit (``-1`` if none)."""

_SCALAR = {
    "leading": "not $trick",
    "following": "$trick",
    "lead": "$_suit_of[$trick[0][1]]",
    "played": "$played",
    "done": "len($tricks)",
    "top": "$_top_of($trick)",
}

_OPERATORS = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.Add, ast.Sub, ast.Mult, ast.LShift)


def _strings(texts: Iterable[str]) -> tuple[str, ...]:
    return tuple(texts)


def _steps(steps: Iterable[Narrow]) -> tuple[Narrow, ...]:
    return tuple(steps)


@attrs.frozen
class Narrow:
    """One step of a building block: when every condition of ``when`` holds (in order),
    keep only the cards of ``allowed`` that are also in ``keep``, unless none is.

    Conditions and ``keep`` are expressions on ``allowed`` (an int mask), the reads
    (:data:`READS`) and the block's constants (``$name``), with ``& | ^ + - * <<``,
    comparisons and indexing: no ``and``, ``or``, ``not``, calls or ``~``, because the
    same text also runs on arrays of hands (:mod:`spadeskit.batch`).
    """

    when: tuple[str, ...] = attrs.field(converter=_strings)
    keep: str


@attrs.frozen
class Block:
    """A building block's one definition: the :class:`Narrow` steps it takes, in order,
    and the constants they read (``$name``).

    Every path derives its code from these steps: the reference check and the playout
    loop's filter function from :attr:`statements`, the batched engine from
    :meth:`vector_statements`.
    """

    steps: tuple[Narrow, ...] = attrs.field(converter=_steps)
    constants: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def statements(self) -> str:
        """The steps as Python statements on one hand, reading ``$trick``, ``$played``
        and ``$tricks`` (:data:`STATE_READS`) and the constants."""
        out = []
        for step in self.steps:
            when = " and ".join(f"({_spell(c, _SCALAR)})" for c in step.when) or "True"
            out.append(
                f"if {when}:\n"
                f"    _kept = allowed & ({_spell(step.keep, _SCALAR)})\n"
                "    if _kept:\n"
                "        allowed = _kept\n"
            )
        return "".join(out)

    def vector_statements(self, reads: Mapping[str, str], where: str) -> str:
        """The steps as statements on arrays of hands: ``reads`` spells each read (a
        name bound to a scalar or an array), ``where`` names ``numpy.where``; the
        constants stay ``$name`` placeholders."""
        out = []
        for step in self.steps:
            when = " & ".join(f"({_spell(c, reads)})" for c in step.when) or "True"
            out.append(
                f"_w = {when}\n"
                "if _w is True or (_w is not False and _w.any()):\n"
                f"    _kept = allowed & ({_spell(step.keep, reads)})\n"
                f"    allowed = {where}(_w & (_kept != 0), _kept, allowed)\n"
            )
        return "".join(out)

    def render(self, reads: Mapping[str, str], names: Mapping[str, str]) -> str:
        """Return :attr:`statements` with the reads and constant names filled in."""
        return codegen.render(self.statements, **reads, **names)

    def inline(self, prefix: str, reads: Mapping[str, str], namespace: dict[str, Any]) -> str:
        """Return the statements ready to inline in generated code: the reads filled in,
        each constant bound in ``namespace`` as ``prefix + name``."""
        names = {key: f"{prefix}{key}" for key in self.constants}
        namespace.update({names[key]: value for key, value in self.constants.items()})
        return self.render(reads, names)

    def check_names(self, name: str) -> None:
        """Raise :class:`PluginError` unless every step is an expression of the kind
        :class:`Narrow` describes, reading only ``allowed``, the reads and the block's
        constants."""
        known = set(READS) | set(self.constants)
        for step in self.steps:
            for text in (*step.when, step.keep):
                _check_expression(name, text, known)


def _spell(text: str, reads: Mapping[str, str]) -> str:
    """Replace the reads in ``text`` by ``reads``' spellings, leaving constants as ``$name``."""
    return codegen.render_partial(text, reads)


def _check_expression(block: str, text: str, known: set[str]) -> None:
    def refuse(why: str) -> PluginError:
        return PluginError(f"building block {block!r}: {text!r} {why}")

    for ref in codegen.placeholders(text):
        if ref not in known:
            raise refuse(
                f"reads ${ref}, which is neither a read ({', '.join(READS)}) nor a constant"
            )
    try:
        tree = ast.parse(codegen.render(text, **{k: f"_v_{k}" for k in known}), mode="eval")
    except SyntaxError:
        raise refuse("is not one Python expression") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id != "allowed" and not node.id.startswith("_v_"):
            raise refuse(
                f"reads {node.id!r}: read the hand in play only through ${', $'.join(READS)}"
            )
        if isinstance(node, (ast.BoolOp, ast.Call, ast.Lambda, ast.NamedExpr, ast.IfExp)) or (
            isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.USub)
        ):
            raise refuse(
                "uses and/or/not, ~, a call or a conditional: a block's expressions also "
                "run on arrays; write a condition as a comparison (x & y == 0)"
            )
        if isinstance(node, ast.BinOp) and not isinstance(node.op, _OPERATORS):
            raise refuse(f"uses {type(node.op).__name__}, which blocks do not allow")


@attrs.frozen
class PlayFilter:
    """One restriction on plays: ``check(hand, seat, allowed) -> allowed``.

    ``hand`` is the state (:data:`~spadeskit.core.state.HandState`), ``allowed`` an int mask
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
    steps: Sequence[Narrow | tuple[Sequence[str], str]],
    constants: Mapping[str, Any],
    *,
    ranking: Ranking,
    order: int,
    enforced: bool = True,
) -> PlayFilter:
    """Return a play filter defined by ``steps`` alone (each a :class:`Narrow`, or a
    pair ``(when, keep)``): its ``check`` is derived from them, and so is the code the
    playout loop's filter function and the batched engine inline, so no path can differ.
    ``ranking`` is the rules' ranking, which ``$lead`` and ``$top`` read.

    >>> import spadeskit
    >>> ranking = spadeskit.load_rules("standard").ranking
    >>> clubs = ranking.suit_mask[spadeskit.Suit.CLUBS]
    >>> no_club_leads = building_block(
    ...     "no-club-leads", "clubs may not be led", [(["$leading"], "$others")],
    ...     {"others": ranking.deck_mask & ~clubs}, ranking=ranking, order=40)
    >>> hand = spadeskit.load_rules("standard").new_game(seed=1)
    >>> no_club_leads.check(hand, 0, clubs | 1 << 50) == 1 << 50
    True
    """
    block = Block(
        [step if isinstance(step, Narrow) else Narrow(step[0], step[1]) for step in steps],
        {**constants, "_suit_of": ranking.suit_of, "_top_of": _top_of(ranking)},
    )
    block.check_names(name)
    namespace: dict[str, Any] = {}
    source = (
        "def check(hand, seat, allowed):\n"
        + codegen.indent(block.inline("_c_", REFERENCE, namespace), 1)
        + "    return allowed\n"
    )
    check = codegen.function("check", source, namespace, label=f"play filter {name}")
    return PlayFilter(name, check, reason, order=order, enforced=enforced, block=block)


def _top_of(ranking: Ranking) -> Callable[[Sequence[tuple[int, int]]], list[int]]:
    """Return ``top_of(trick)``: for each effective suit, the greatest strength within
    it among the trick's cards of that suit (``-1`` if none): what ``$top`` reads."""
    suit_of, strength, suits = ranking.suit_of, ranking.strength, len(ranking.suit_mask)

    def top_of(trick: Sequence[tuple[int, int]]) -> list[int]:
        tops = [-1] * suits
        for _, card in trick:
            suit = suit_of[card]
            if strength[card] > tops[suit]:
                tops[suit] = strength[card]
        return tops

    return top_of


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


def follow_suit(ranking: Ranking, *, enforced: bool = True, order: int = 10) -> PlayFilter:
    """Return the filter "follow the led (effective) suit if able"."""
    return building_block(
        "follow-suit",
        "a player must follow the led suit when able",
        [(["$following"], "$suit_mask[$lead]")],
        {"suit_mask": ranking.suit_mask},
        ranking=ranking,
        order=order,
        enforced=enforced,
    )


def no_lead_until_broken(
    ranking: Ranking, suit: Suit = Suit.SPADES, *, enforced: bool = True, order: int = 20
) -> PlayFilter:
    """Return the filter "no leading ``suit`` until one has been played, unless only it is held".

    With ``enforced=False`` a lead outside it is accepted and recorded as a secret
    :class:`~spadeskit.core.state.Breach` (table enforcement).
    """
    trump = ranking.suit_mask[suit]
    name = suit.name.lower()
    return building_block(
        f"break-{name}",
        f"{name} may not be led until broken, unless the leader holds only {name}",
        [(["$leading", "$played & $trump == 0"], "$others")],
        {"trump": trump, "others": ranking.deck_mask & ~trump},
        ranking=ranking,
        order=order,
        enforced=enforced,
    )


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
        [(["$done == 0"], "$others")],
        {"others": ranking.deck_mask & ~ranking.suit_mask[suit]},
        ranking=ranking,
        order=order,
    )


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
    width = max(strength) + 2
    # above[s * width + t + 1]: the cards of effective suit s stronger than strength t.
    above = [0] * (len(ranking.suit_mask) * width)
    for s in range(len(ranking.suit_mask)):
        for t in range(-1, width - 1):
            mask = 0
            for card, card_suit in enumerate(suit_of):
                if card_suit == s and strength[card] > t:
                    mask |= 1 << card
            above[s * width + t + 1] = mask
    void = "allowed & $suit_mask[$lead] == 0"
    steps = [(["$following"], "$suit_mask[$lead]")]
    if must_head:
        untrumped = "($lead == $trump_suit) | ($top[$trump_suit] < 0)"
        steps.append(
            (
                ["$following", "allowed & $suit_mask[$lead] != 0", untrumped],
                "$above[$lead * $width + $top[$lead] + 1]",
            )
        )
    steps += [
        (["$following", void], "$trumps"),
        (
            ["$following", void, "allowed & $trumps != 0"],
            "$above[$trump_suit * $width + $top[$trump_suit] + 1]",
        ),
    ]
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
        steps,
        {
            "suit_mask": ranking.suit_mask,
            "trump_suit": int(suit),
            "trumps": ranking.suit_mask[suit],
            "above": tuple(above),
            "width": width,
        },
        ranking=ranking,
        order=order,
    )
