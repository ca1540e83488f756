"""The one playout loop: a hand's remaining cards played on plain ints.

Rollouts, simulations and the search bots' playouts (:mod:`spadeskit.engine.playouts`)
play the cards of a hand in :class:`CardLoop`, the hand kept in locals and written back
to a state at the end; ISMCTS walks its tree down in it too (:class:`Descent`).  Every
card is checked by the rule set's enforced play filters, which :func:`build_loop` turns
into one function when rules load (where every one is a library building block,
:mod:`spadeskit.engine.filters`): generated, or for the shipped rule sets compiled ahead
of time from the same source (:mod:`spadeskit.engine.compiledfilters`).  Every trick is
decided by the one trick winner (:func:`~spadeskit.engine.winner.trick_won`).  The loop
is hand-written, typed Python: the pure core runs it as it is, the native core
(:mod:`spadeskit._native`) compiles it.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from typing import Any, Final

from spadeskit.core import codegen
from spadeskit.core.state import copy_to_builder, freeze
from spadeskit.engine.base import Shared
from spadeskit.engine.compiledfilters import FACTORIES, PlayoutFilter
from spadeskit.engine.filters import STATE_READS
from spadeskit.engine.tricks import draw_cards, make_trick
from spadeskit.engine.winner import trick_won

__all__ = [
    "CardLoop",
    "Descent",
    "Follow",
    "Rows",
    "SearchNode",
    "build_loop",
    "compiled_filters_source",
    "filter_function",
    "filter_key",
    "greedy_follow",
]

Rows = tuple[tuple[int, ...], ...]
"""A strength table: ``rows[led suit][card index]``."""

Follow = Callable[..., int]
"""``follow(trick, allowed, seat, rows, suit_of, side_of)``: the mask of one card of
``allowed`` to follow ``trick`` with (see :func:`spadeskit.bots.greedy_card`)."""

_FILTERS: Final = (
    "def allowed_of(allowed, _k_trick, _k_played, _k_tricks):\n$body    return allowed\n"
)
"""The enforced building blocks as one function of what they read of the hand in play."""

_FILTER_READS: Final = {name: f"_k_{name}" for name in STATE_READS}


class CardLoop:
    """The one playout loop of a rule set: its tables (:class:`Shared`) and its enforced
    play filters as one function, ``filters``: compiled ahead of time (a
    :class:`~spadeskit.engine.compiledfilters.PlayoutFilter`, whose ``allowed`` method
    the compiled loop calls natively, kept as :attr:`compiled`), or generated when rules
    load, ``allowed_of(allowed, trick, played, tricks)`` (kept as :attr:`allowed_of`).

    :meth:`play` plays a hand's remaining cards on plain ints: the hand in locals,
    written back to the builder at the end (and before each ``spadeskit_after_trick``
    call, which sees a frozen copy).  Nothing outside the loop sees the hand during a
    trick, which is why it runs only where every enforced filter is a building block
    and none is advisory.
    """

    def __init__(
        self, shared: Shared, filters: PlayoutFilter | Callable[[int, Any, int, Any], object]
    ) -> None:
        self.shared = shared
        self.compiled: PlayoutFilter | None = None
        self.allowed_of: Callable[[int, Any, int, Any], object] | None = None
        if isinstance(filters, PlayoutFilter):
            self.compiled = filters
        else:
            self.allowed_of = filters

    def play(
        self,
        hand: Any,
        rows: Rows,
        randbelow: Callable[[int], int] | None,
        fraction: Callable[[], float] | None,
        follow: Follow | None = None,
        descent: Descent | None = None,
    ) -> Any:
        """Play ``hand`` (a builder, in play) to the end of its cards and return it.

        Each card is the ``randbelow(k)``-th of the ``k`` allowed, or with ``fraction``
        the ``int(fraction() * k)``-th; with ``follow``, a card that follows a lead is
        ``follow``'s choice instead (a lead stays random).  With ``descent`` (and
        ``fraction``), the first cards are the search tree's choice
        (:meth:`Descent.choose`), until it adds a node.
        """
        shared, compiled, allowed_of = self.shared, self.compiled, self.allowed_of
        n, draw, pairs, entries = shared.n, shared.draw, shared.pairs, shared.entries
        next_seat, suit_of, side_of = shared.next_seat, shared.suit_of, shared.rules.side_of
        after, decide = shared.calls.after_trick, shared.decide
        # The greedy follower, called directly (compiled, a native call with no boxing).
        greedy = follow is greedy_follow
        trump: str = hand.contract.trump
        hands: list[int] = list(hand.hands)
        books: list[int] = list(hand.books)
        won: list[int] = list(hand.won)
        trick: tuple[Any, ...] = hand.trick
        tricks: tuple[Any, ...] = hand.tricks
        played: int = hand.played
        log: Any = hand._log
        leader: int = hand.leader
        pile: tuple[int, ...] = hand.pile
        seat: int = hand.to_act
        while True:
            held = hands[seat]
            if compiled is not None:
                allowed: int = compiled.allowed(held, trick, played, tricks)
                if allowed & ~held or not allowed:
                    raise shared._bad_filters(seat, held, allowed)
            else:
                assert allowed_of is not None
                got: object = allowed_of(held, trick, played, tricks)
                if type(got) is not int or got & ~held or not got:
                    raise shared._bad_filters(seat, held, got)
                allowed = got
            if descent is not None and descent.node is not None:
                assert fraction is not None
                allowed = descent.choose(seat, allowed, fraction)
            elif greedy and trick:
                allowed = greedy_follow(trick, allowed, seat, rows, suit_of, side_of)
            elif follow is not None and trick:
                allowed = follow(trick, allowed, seat, rows, suit_of, side_of)
            else:
                count = 0  # allowed.bit_count(), which compiled code would call as a method
                rest = allowed
                while rest:
                    rest &= rest - 1
                    count += 1
                if fraction is not None:
                    skip = int(fraction() * count)
                else:
                    assert randbelow is not None
                    skip = randbelow(count)
                for _ in range(skip):
                    allowed &= allowed - 1
            bit = allowed & -allowed
            index = bit.bit_length() - 1
            hands[seat] = held ^ bit
            trick = trick + (pairs[seat][index],)
            played |= bit
            log = (log, entries[seat][index])
            if len(trick) < n:
                seat = next_seat[seat]
                continue
            winner, taken = trick_won(rows[suit_of[trick[0][1]]], trick, decide, trump)
            done = make_trick(leader=leader, plays=trick, winner=winner)
            tricks = tricks + (done,)
            books[winner] += 1
            won[winner] |= taken
            trick = ()
            leader = seat = winner
            if pile and draw:
                pile = draw_cards(hands, pile, winner, draw)
            if after is not None:
                _store(hand, hands, books, won, trick, tricks, played, log, leader, seat, pile)
                changed = shared.after_trick(freeze(copy_to_builder(hand)), done)
                if changed is not None:
                    hand = copy_to_builder(changed)
                    hand._legal = None
                    hands, books, won = list(hand.hands), list(hand.books), list(hand.won)
                    trick, tricks, played = hand.trick, hand.tricks, hand.played
                    log, leader, pile, seat = hand._log, hand.leader, hand.pile, hand.to_act
            if not pile and not any(hands):
                break
        _store(hand, hands, books, won, trick, tricks, played, log, leader, seat, pile)
        return hand


class SearchNode:
    """A node of a search tree over one seat's information sets (see
    :class:`~spadeskit.bots.ISMCTSBot`): the seat whose action leads to it (``-1`` at
    the root), how often it was visited and available, the rewards backed up to it (for
    that seat's side), and its children by action (a play by its card index)."""

    __slots__ = ("actor", "avail", "children", "reward", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.children: dict[Any, SearchNode] = {}


class Descent:
    """One walk down a search tree, taken in the playout loop: each card is the tree's
    choice (:meth:`choose`) until the walk adds a node; the rest of the hand is the
    playout's.  :attr:`path` holds the nodes walked, root first, for the backup."""

    def __init__(self, root: SearchNode, exploration: float) -> None:
        self.node: SearchNode | None = root
        self.path: list[SearchNode] = [root]
        self.exploration = exploration

    def choose(self, seat: int, allowed: int, fraction: Callable[[], float]) -> int:
        """Return the mask of the card ``seat`` plays from ``allowed``, one step down the
        tree: every allowed child counts one more availability; if some allowed card has
        no child yet, the ``int(fraction() * k)``-th of those ``k`` (in card order) gets a
        new one and the walk ends there; else the child of greatest UCB value,
        ``reward / visits + exploration * sqrt(log(avail) / visits)`` (the first in card
        order on a tie)."""
        node = self.node
        assert node is not None
        children = node.children
        untried = 0
        count = 0
        mask = allowed
        while mask:
            bit = mask & -mask
            mask ^= bit
            child = children.get(bit.bit_length() - 1)
            if child is None:
                untried |= bit
                count += 1
            else:
                child.avail += 1
        if untried:
            for _ in range(int(fraction() * count)):
                untried &= untried - 1
            bit = untried & -untried
            added = SearchNode(seat)
            added.avail = 1
            children[bit.bit_length() - 1] = added
            self.path.append(added)
            self.node = None
            return bit
        c = self.exploration
        best_value = -math.inf
        chosen = allowed & -allowed
        best = children[chosen.bit_length() - 1]
        mask = allowed
        while mask:
            bit = mask & -mask
            mask ^= bit
            child = children[bit.bit_length() - 1]
            value = child.reward / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if value > best_value:
                best_value, best, chosen = value, child, bit
        self.node = best
        self.path.append(best)
        return chosen


def greedy_follow(
    trick: tuple[tuple[int, int], ...],
    allowed: int,
    seat: int,
    rows: tuple[tuple[int, ...], ...],
    suit_of: tuple[int, ...],
    side_of: tuple[int, ...],
) -> int:
    """Return the mask of the card a greedy player follows ``trick`` with, from the
    ``allowed`` mask: the cheapest card that takes the trick, unless the seat's side is
    already winning it or no card can; then the cheapest card.  Cheapest: the least
    power in this trick, then the least power in its own suit (a low discard before a
    high one, a side suit before a trump).  Every argument is a tuple, as the rules
    give them (typed so, the compiled follower indexes them natively: a quarter off a
    greedy playout); :func:`spadeskit.bots.greedy_card` takes any sequences and calls
    this.  Passed as ``follower`` to ``Engine.random_play_score``, the loop the rules
    compile recognises it and follows inline."""
    if not allowed & (allowed - 1):
        return allowed
    row = rows[suit_of[trick[0][1]]]
    best_who = -1
    best = -1
    for who, card in trick:
        power = row[card]
        if power > best:
            best_who, best = who, power
    low = win = -1
    low_key = win_power = 1 << 30
    mask = allowed
    while mask:
        bit = mask & -mask
        mask ^= bit
        index = bit.bit_length() - 1
        power = row[index]
        key = (power << 10) + rows[suit_of[index]][index]
        if key < low_key:
            low, low_key = index, key
        if best < power < win_power:
            win, win_power = index, power
    if win < 0 or side_of[best_who] == side_of[seat]:
        return 1 << low
    return 1 << win


def _store(
    hand: Any,
    hands: list[int],
    books: list[int],
    won: list[int],
    trick: tuple[Any, ...],
    tricks: tuple[Any, ...],
    played: int,
    log: Any,
    leader: int,
    seat: int,
    pile: tuple[int, ...],
) -> None:
    """Write the loop's locals back to the builder ``hand``."""
    hand.hands, hand.books, hand.won = tuple(hands), tuple(books), tuple(won)
    hand.trick, hand.tricks, hand.played, hand._log = trick, tricks, played, log
    hand.leader, hand.to_act, hand.pile = leader, seat, pile


def build_loop(shared: Shared) -> CardLoop | None:
    """Return the playout loop of ``shared``'s rule set, or ``None`` where its rules play
    card by card instead: where a filter is advisory, or an enforced filter is plain
    Python rather than a building block, or the deck holds a card twice (a play names a
    card, and the loop picks card indices).

    Its filter function is the one :mod:`spadeskit.engine.compiledfilters` holds for the
    same source where there is one (compiled with the native core), else the source
    run as it is."""
    made = filter_function(shared)
    if made is None:
        return None
    source, namespace = made
    label = f"playout filters {shared.rules.name}"
    compiled = FACTORIES.get(filter_key(source, namespace))
    if compiled is None:
        return CardLoop(
            shared,
            codegen.function("allowed_of", source, namespace, label=label, sources=shared.sources),
        )
    shared.sources.append((f"{label} (compiled ahead of time)", source))
    return CardLoop(shared, compiled(**namespace))


def filter_function(shared: Shared) -> tuple[str, dict[str, Any]] | None:
    """Return the source of the playout loop's filter function for ``shared``'s rule set,
    ``allowed_of(allowed, _k_trick, _k_played, _k_tricks)``, and the constants it reads
    (by name); ``None`` where the rules have no playout loop (see :func:`build_loop`)."""
    filters = [f for f in shared.rules.filters if f.enforced]
    if shared.advisory or shared.copies or any(f.block is None for f in filters):
        return None
    namespace: dict[str, Any] = {}
    body = []
    for k, f in enumerate(filters):
        assert f.block is not None
        body.append(f.block.inline(f"_c{k}_", _FILTER_READS, namespace))
    return codegen.render(_FILTERS, body=codegen.indent("".join(body), 1)), namespace


def _constant_type(value: object) -> str:
    """The type a compiled filter function declares for a constant: an int, a tuple of
    ints, or anything."""
    if type(value) is int:
        return "int"
    if type(value) is tuple and all(type(item) is int for item in value):
        return "tuple[int, ...]"
    return "Any"


def filter_key(source: str, namespace: dict[str, Any]) -> str:
    """Return the key of a filter function in :data:`FACTORIES`: a digest of its source
    and of its constants' names and types."""
    typed = "".join(f"{name}: {_constant_type(namespace[name])}\n" for name in sorted(namespace))
    return hashlib.sha256((source + typed).encode()).hexdigest()[:24]


_MODULE: Final = '''"""The shipped rule sets' playout filter functions, compiled ahead of time.

Generated from the building blocks' definitions (:func:`spadeskit.engine.loop.filter_function`)
by ``SPADESKIT_WRITE_FILTERS=1 pytest tests/test_one_rulebook.py -k compiled_filters``;
do not edit: the tests fail if this file is not what its generator writes now.  Each
class holds a rule set's constants, and its ``allowed`` method runs the very source
:func:`~spadeskit.engine.loop.build_loop` would otherwise run as generated, typed, so
the native core compiles it and the compiled loop calls it natively.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FACTORIES", "PlayoutFilter"]


class PlayoutFilter:
    """A rule set's play filters compiled: :meth:`allowed` narrows the mask of a seat's
    cards, ``allowed``, to those it may play, reading the trick so far, the cards played
    this hand and the finished tricks."""

    def allowed(
        self,
        allowed: int,
        _k_trick: tuple[tuple[int, int], ...],
        _k_played: int,
        _k_tricks: tuple[Any, ...],
    ) -> int:
        raise NotImplementedError
$classes

FACTORIES: dict[str, type[PlayoutFilter]] = {
$entries}
"""The compiled filters by :func:`~spadeskit.engine.loop.filter_key` of their source."""
'''


def compiled_filters_source(functions: list[tuple[str, dict[str, Any]]]) -> str:
    """Return the source of :mod:`spadeskit.engine.compiledfilters` for ``functions``
    (:func:`filter_function`'s answers): one :class:`PlayoutFilter
    <spadeskit.engine.compiledfilters.PlayoutFilter>` class per distinct key, in key
    order, taking the constants by name."""
    by_key = {filter_key(source, namespace): (source, namespace) for source, namespace in functions}
    parts = []
    entries = []
    for number, key in enumerate(sorted(by_key)):
        source, namespace = by_key[key]
        names = sorted(namespace)
        header, body = source.split("\n", 1)
        assert header == "def allowed_of(allowed, _k_trick, _k_played, _k_tricks):"
        params = "".join(f"        {name}: {_constant_type(namespace[name])},\n" for name in names)
        stores = "".join(f"        self.{name} = {name}\n" for name in names)
        read = [name for name in names if re.search(rf"\b{name}\b", body)]
        loads = "".join(f"        {name} = self.{name}\n" for name in read)
        parts.append(
            f"\n\nclass _Filters{number}(PlayoutFilter):\n"
            "    def __init__(\n"
            "        self,\n"
            f"{params}"
            "    ) -> None:\n"
            f"{stores}"
            "\n"
            "    def allowed(\n"
            "        self,\n"
            "        allowed: int,\n"
            "        _k_trick: tuple[tuple[int, int], ...],\n"
            "        _k_played: int,\n"
            "        _k_tricks: tuple[Any, ...],\n"
            "    ) -> int:\n"
            f"{loads}"
            f"{codegen.indent(body, 1)}"
        )
        entries.append(f"    {key!r}: _Filters{number},\n")
    return codegen.render(_MODULE, classes="".join(parts), entries="".join(entries))
