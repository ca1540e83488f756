"""What every part of the batched engine shares: the limits, the typed refusal, the
random numbers of a block of hands, and bit tricks on arrays of card masks.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from spadeskit.core.errors import install_hint

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - the fast extra is missing
    raise ImportError(f"spadeskit.batch needs numpy: {install_hint('fast')}") from exc

from spadeskit.core.actions import Action, Discard, Play
from spadeskit.core.cards import card_at, cards_of
from spadeskit.core.errors import SpadesError
from spadeskit.core.state import MatchState

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from spadeskit.engine.rules import Rules


POLICIES = ("random", "greedy")
"""``random``: every bid and card uniformly among the legal ones; ``greedy``: bids and
leads at random, every following card by :func:`spadeskit.bots.greedy_card` (the
cheapest card that takes the trick unless the partner already holds it, else the
cheapest card), as search's greedy playouts play."""


CHUNK = 8192
"""Hands played in lockstep at a time: enough to keep numpy busy, small enough to stay
in the CPU's cache (a chunk's arrays take a few MB)."""


PROBES = 24
"""Probe hands the auction and the scoring are derived from and checked on."""


_VECTOR_READS = {
    "leading": "_b_leading",
    "following": "_b_following",
    "lead": "_b_lead",
    "played": "_b_played",
    "done": "_b_done",
    "top": "_b_top",
}


class BatchUnsupported(SpadesError):
    """The batched engine cannot derive this rule set (the message says which part);
    :meth:`Rules.simulate <spadeskit.engine.rules.Rules.simulate>` plays it."""

    code = "not-batched"


BLOCK = 1024
"""Hands whose random numbers one generator draws: hand ``i`` takes row ``i % BLOCK`` of
block ``i // BLOCK``, whose generator is seeded by ``(seed, i // BLOCK)`` alone, so any
split of the hands gives the same hands.  (NumPy's generators may change their streams
between NumPy releases, so hands repeat exactly under one NumPy version.)"""


def _entropy(seed: int) -> int:
    digest = hashlib.blake2b(f"spadeskit batch {seed}".encode(), digest_size=16).digest()
    return int.from_bytes(digest, "little")


def draws(
    seed: int, first: int, last: int, deck: NDArray[np.int64], bids: int, cards: int
) -> tuple[Any, Any, Any]:
    """Return the random numbers of hands ``first`` … ``last - 1``: each hand's shuffled
    deck, ``bids`` floats for its auction and ``cards`` floats for its play (each in
    [0, 1)), drawn block by block (:data:`BLOCK`)."""
    entropy = _entropy(seed)
    decks, auction, play = [], [], []
    for block in range(first // BLOCK, (last - 1) // BLOCK + 1):
        generator = np.random.Generator(
            np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=(block,)))
        )
        shuffled = np.tile(deck, (BLOCK, 1))
        generator.permuted(shuffled, axis=1, out=shuffled)
        decks.append(shuffled)
        auction.append(generator.random((BLOCK, bids)))
        play.append(generator.random((BLOCK, cards)))
    low = first - (first // BLOCK) * BLOCK
    high = low + last - first
    return (
        np.concatenate(decks)[low:high],
        np.concatenate(auction)[low:high],
        np.concatenate(play)[low:high],
    )


class TopReads:
    """``$top[s]`` on arrays: the greatest strength within effective suit ``s`` among
    each hand's trick cards of that suit."""

    def __init__(self, top: NDArray[np.int64], rows: NDArray[np.int64]) -> None:
        self.top, self.rows = top, rows

    def __getitem__(self, suit: Any) -> NDArray[np.int64]:
        return self.top[self.rows, suit]  # type: ignore[no-any-return]


def _indices(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


@functools.cache
def _bit_places() -> NDArray[np.uint8]:
    """Return the table of :func:`kth_bit`: at ``value << 4 | j``, the place of the
    ``j``-th set bit (from the lowest) of the 16-bit ``value`` (1 MB, built at the first
    call)."""
    values = np.arange(1 << 16, dtype=np.uint64)
    table = np.zeros(1 << 20, dtype=np.uint8)
    below = np.zeros(1 << 16, dtype=np.uint64)  # each value's set bits below bit b
    for b in range(16):
        on = (values >> np.uint64(b)) & _U1
        table[(values[on == 1] << _U4) | below[on == 1]] = b
        below += on
    return table


_U1, _U4, _U16 = np.uint64(1), np.uint64(4), np.uint64(16)
_LOW16, _LOW32, _LOW48 = np.uint64(0xFFFF), np.uint64(0xFFFF_FFFF), np.uint64(0xFFFF_FFFF_FFFF)


def kth_bit(allowed: NDArray[np.uint64], u: NDArray[np.float64]) -> NDArray[np.uint64]:
    """Return each mask's ``int(u * popcount)``-th set bit (counting from the lowest):
    find its 16-bit quarter by the set bits below each, then look its place up in
    that quarter (a fixed number of array passes, whatever the masks).  An empty
    mask gives 0."""
    k = (u * np.bitwise_count(allowed)).astype(np.uint64)
    quarter = (k >= np.bitwise_count(allowed & _LOW16)).view(np.uint8)
    quarter = quarter + (k >= np.bitwise_count(allowed & _LOW32)).view(np.uint8)
    quarter += (k >= np.bitwise_count(allowed & _LOW48)).view(np.uint8)
    shift = quarter.astype(np.uint64) * _U16
    k -= np.bitwise_count(allowed & ((_U1 << shift) - _U1))
    place = _bit_places()[(((allowed >> shift) & _LOW16) << _U4) | k] + shift
    bit: NDArray[np.uint64] = (_U1 << place) & allowed  # an empty mask gives 0
    return bit


@attrs.frozen
class Leaf:
    """One way an auction ends, seats counted clockwise from the dealer (0: the dealer).

    ``path`` is the auction, ``(seat, action)`` in order; ``discards`` the discards owed
    before play, ``(seat, count)`` in order.
    """

    path: tuple[tuple[int, Action], ...]
    leader: int
    trump: str
    declarer: int | None
    blind_to: str | None
    discards: tuple[tuple[int, int], ...]


@attrs.frozen(eq=False)
class AuctionTree:
    """The auction of a rule set as a tree on arrays: node ``k``'s seat (from the
    dealer), how many actions it offers, and after its ``j``-th action the next node, or
    ``~leaf`` where the auction ends there."""

    seat: NDArray[np.int64]
    size: NDArray[np.int64]
    child: NDArray[np.int64]
    menus: tuple[tuple[Action, ...], ...]
    leaves: tuple[Leaf, ...]
    depth: int

    def walk(self, u: NDArray[np.float64]) -> NDArray[np.int64]:
        """Return the leaf each hand reaches, its ``t``-th action the
        ``int(u[:, t] * offered)``-th of those offered (``u``: one column a turn)."""
        node = np.zeros(len(u), dtype=np.int64)
        for turn in range(self.depth):
            live = node >= 0
            at = np.where(live, node, 0)
            pick = (u[:, turn] * self.size[at]).astype(np.int64)
            node = np.where(live, self.child[at, pick], node)
        leaf: NDArray[np.int64] = ~node
        return leaf


@attrs.frozen
class BatchResult:
    """Hands played by :meth:`Rules.simulate_batch`, as arrays (one row per hand).

    ``numbers`` are the hands' numbers (``start`` …), ``dealer`` each hand's dealer,
    ``deals`` each seat's dealt cards (a mask of card indices), ``bid_choice`` which
    entry of :attr:`menu` each seat bid (by seat), ``bids`` the tricks each seat bid
    (0 for a nil), ``nil`` whether it was a nil, ``books`` the tricks each seat took,
    ``points`` each side's points, ``bags`` each side's bag counter after the hand (the
    hand is the first of a match, as in :meth:`~spadeskit.engine.rules.Rules.simulate`),
    ``plays`` the index of every card in the order played and ``seats`` who played it.

    Where the auction is not each seat bidding a number once (three-suit-trump's pick up
    or pass), ``bid_choice`` is -1 and ``bids`` 0 throughout; each hand's auction is
    then ``leaves[leaf[i]]`` (a :class:`~spadeskit.batch.tree.Leaf`: its actions, seats
    counted from the dealer, and the contract they made), ``declarer`` the seat that
    took the contract (-1: nobody), ``discards`` the cards of each discard step (masks,
    in order) and ``card_points`` each seat's card points where the variant counts them.
    :meth:`actions` lists every action either way.
    """

    rules: Rules = attrs.field(repr=False)
    seed: int
    numbers: Any = attrs.field(repr=False)
    dealer: Any = attrs.field(repr=False)
    deals: Any = attrs.field(repr=False)
    bid_choice: Any = attrs.field(repr=False)
    bids: Any = attrs.field(repr=False)
    nil: Any = attrs.field(repr=False)
    books: Any = attrs.field(repr=False)
    points: Any = attrs.field(repr=False)
    bags: Any = attrs.field(repr=False)
    plays: Any = attrs.field(repr=False)
    seats: Any = attrs.field(repr=False)
    menu: tuple[Action, ...] = attrs.field(repr=False)
    order: tuple[int, ...] = attrs.field(repr=False)
    leaf: Any = attrs.field(default=None, repr=False)
    leaves: tuple[Leaf, ...] = attrs.field(default=(), repr=False)
    declarer: Any = attrs.field(default=None, repr=False)
    discards: Any = attrs.field(default=None, repr=False)
    card_points: Any = attrs.field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.numbers)

    def columns(self) -> dict[str, Any]:
        """Return the results as named one-dimensional columns (``pandas.DataFrame``
        takes the dict as it is): ``hand``, ``dealer``, ``bid_N`` …, ``nil_N`` …,
        ``books_N`` …, ``points_N/S`` …, ``bags_N/S`` …."""
        table = self.rules.table
        out: dict[str, Any] = {"hand": self.numbers, "dealer": self.dealer}
        if self.leaves:
            out["declarer"] = self.declarer
        for seat, name in enumerate(table.seat_names):
            if not self.leaves:
                out[f"bid_{name}"] = self.bids[:, seat]
                out[f"nil_{name}"] = self.nil[:, seat]
            out[f"books_{name}"] = self.books[:, seat]
            if self.card_points is not None:
                out[f"card_points_{name}"] = self.card_points[:, seat]
        for side, name in enumerate(table.side_names):
            out[f"points_{name}"] = self.points[:, side]
            out[f"bags_{name}"] = self.bags[:, side]
        return out

    def deal(self, i: int) -> list[list[str]]:
        """Return hand ``i``'s deal (row ``i``), one list of card codes per seat."""
        return [
            [card_at(c).code for c in range(64) if int(mask) >> c & 1] for mask in self.deals[i]
        ]

    def actions(self, i: int) -> list[tuple[int, Action]]:
        """Return hand ``i``'s actions, ``(seat, action)`` in order: the bids, then the
        cards.  ``rules.new_game(deal=result.deal(i), dealer=int(result.dealer[i]))``
        stepped through them plays the same hand."""
        n = self.rules.table.players
        dealer = int(self.dealer[i])
        out: list[tuple[int, Action]] = [
            ((dealer + relative) % n, self.menu[int(self.bid_choice[i, (dealer + relative) % n])])
            for relative in self.order
        ]
        if self.leaves:
            leaf = self.leaves[int(self.leaf[i])]
            out = [((dealer + seat) % n, action) for seat, action in leaf.path]
            for j, (seat, _) in enumerate(leaf.discards):
                out.append(((dealer + seat) % n, Discard(cards_of(int(self.discards[i, j])))))
        out += [
            (int(seat), Play(card_at(int(card))))
            for seat, card in zip(self.seats[i], self.plays[i], strict=True)
        ]
        return out


class BatchFields:
    """What the batched engine knows of its rules, set when it is derived: each part of
    the engine (``batch.auction``, ``batch.scoring``,
    ``batch.play``) reads these."""

    rules: Rules
    n: int
    """Players at the table."""
    tricks: int
    """Tricks in a hand (the hand size)."""
    deck: NDArray[np.int64]
    deal_map: list[NDArray[np.int64]]
    suit_of: NDArray[Any]
    strength: NDArray[Any]
    suits: int
    side_of: NDArray[np.int64]
    rows: NDArray[np.int64]
    """Each card's strength in a trick: row ``trump_base[trump] + led suit``."""
    order: tuple[int, ...]
    """The seats that bid, in order, counted from the dealer (empty for a tree)."""
    menu: tuple[Action, ...]
    """What a seat may bid (empty for a tree)."""
    leader: int
    trump: str
    trumps: tuple[str, ...]
    """The trump modes a hand may have (one, unless the auction is a tree)."""
    trump_base: dict[str, int]
    led_rows: int
    tree: AuctionTree | None
    """The auction as a tree, where it is not each seat bidding a number once."""
    blind_map: NDArray[np.int64]
    values: NDArray[np.int64]
    """Each card's points (``Rules.card_points``; 0 where the variant counts none)."""
    orders: Any
    beats: NDArray[np.uint64]
    reads_top: bool
    match: MatchState
    _filters: Callable[..., Any]
    _tables: dict[Any, list[tuple[Any, Any]]]
