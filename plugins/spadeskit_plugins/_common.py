"""Pieces shared by the partnership variants shipped with spadeskit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from spadeskit import Bid, BlindNil, MatchEnd, Nil, ScoreLine
from spadeskit.core.actions import Action
from spadeskit.core.cards import Card, Suit
from spadeskit.core.results import HandSummary
from spadeskit.core.seating import CardRank, DealPlan, TableSpec
from spadeskit.core.state import GameState, MatchState
from spadeskit.plugin import (
    Option,
    choice,
    evolve_hand,
    int_range,
    optional,
    side_contract,
    with_hand,
)


def target_option(default: int) -> Option:
    """Return the ``target`` option: the score that wins at the end of a hand."""
    return Option(
        "target",
        default,
        "Score that wins the match at the end of a hand (1 to 10000).",
        int_range(1, 10000),
    )


def floor_option(who: str) -> Option:
    """Return the ``floor`` option (−200; ``None`` switches it off); ``who`` is "side" or "
    ""player"."""
    return Option(
        "floor",
        -200,
        f"A {who} at or below this score loses (-10000 to 0; None: no floor).",
        optional(int_range(-10000, 0)),
    )


NIL_VALUE = Option(
    "nil_value",
    100,
    "Points won by a nil that takes no trick, lost otherwise (0 to 1000).",
    int_range(0, 1000),
)
BAG_LIMIT = Option(
    "bag_limit", 10, "Bags that trigger the bag penalty (1 to 100).", int_range(1, 100)
)
BAG_PENALTY = Option(
    "bag_penalty",
    100,
    "Points lost each time the bag counter reaches the limit (0 to 1000).",
    int_range(0, 1000),
)

STANDARD_RANGES = {
    "target": "1..10000",
    "floor": "-10000..0|None",
    "nil_value": "0..1000",
    "nil_tricks": "'bags'|'partner'|'none'",
    "bag_limit": "1..100",
    "bag_penalty": "0..1000",
}
"""The documented ranges of the shared options, for the kit's option oracle."""
SOLO_RANGES = {k: v for k, v in STANDARD_RANGES.items() if k != "nil_tricks"}
"""The same, for the variants without the ``nil_tricks`` option."""

DEAL = (
    "AS 2S 3S AH KH AC KC QC AD KD QD JD 10D",
    "KS QS JS 10S QH JH 10H JC 10C 9D 8D 7D 6D",
    "9S 8S 7S 9H 8H 7H 6H 9C 8C 7C 6C 5D 4D",
    "6S 5S 4S 5H 4H 3H 2H 5C 4C 3C 2C 3D 2D",
)
"""A deal the worked examples of the partnership variants and house rules start from."""


SEATS = ("N", "E", "S", "W")
SIDES = ((0, 2), (1, 3))
SIDE_NAMES = ("N/S", "E/W")


def partnership_table(deck: Sequence[Card]) -> TableSpec:
    """Return four seats N, E, S, W, partners across, 13 cards each from ``deck``."""
    return TableSpec(4, SEATS, SIDES, SIDE_NAMES, tuple(deck), DealPlan(hand_size=13))


def individual_table(seat_names: Sequence[str], deck: Sequence[Card], plan: DealPlan) -> TableSpec:
    """Return a table where every seat plays (and scores) on its own."""
    seats = tuple(seat_names)
    return TableSpec(
        len(seats), seats, tuple((s,) for s in range(len(seats))), seats, tuple(deck), plan
    )


def nil_and_bids(most: int) -> tuple[Action, ...]:
    """Return the auction choices ``Nil(), Bid(1) … Bid(most)``."""
    return (Nil(),) + tuple(Bid(n) for n in range(1, most + 1))


def printed_rank(card: Card) -> CardRank | None:
    """Return the card's printed suit and rank (ace 14); ``None`` for a joker."""
    suit = card.suit
    return None if suit is None else CardRank(suit, card.rank)


def spades_trump_strength(rank: CardRank, led: Suit, trump: str) -> int | None:
    """Return a card's trick strength when spades (effective suit) are trump."""
    if trump != "spades":
        return None
    if rank.suit is Suit.SPADES:
        return 100 + rank.strength
    return rank.strength if rank.suit == led else 0


def each_bids_once(game: GameState, table: TableSpec) -> int | None:
    """Return the next seat to bid, clockwise from the dealer's left, or None when all have."""
    hand = game.hand
    spoken = len(hand.auction)
    if spoken < table.players:
        return (hand.dealer + 1 + spoken) % table.players
    return None


NIL_TRICKS = Option(
    "nil_tricks",
    "bags",
    "What a nil bidder's tricks do: 'bags' (they never count toward the partner's "
    "contract, always add to the bag counter, and score +1 each only when the side's "
    "contract is made), 'partner' (they count toward the partner's contract) or 'none' "
    "(neither bags nor contract).",
    choice("bags", "partner", "none"),
)


def with_seen(game: GameState, seat: int, key: str) -> GameState:
    """Return ``game`` with ``seat`` added to the seats that looked at their cards (a
    :class:`~spadeskit.SeeCards` applied), kept in the hand's plugin data under ``key``."""
    hand = game.hand
    seen = hand.extra.get(key, ()) + (seat,)
    return with_hand(game, evolve_hand(hand, extra=hand.extra.set(**{key: seen})))


def contract_lines(
    side: int, summary: HandSummary, match: MatchState, table: TableSpec, options: Any
) -> list[ScoreLine]:
    """Return one side's score lines: contract, each nil, and the bag penalty.

    The side's contract is the sum of its non-nil bids (0 when every seat bid nil, which
    is then made).  Made: +10 per contracted trick and +1 per overtrick (a bag); set:
    -10 per contracted trick and no bag points.  A nil scores its value when its bidder
    takes no trick and loses it otherwise; what the nil bidder's tricks do is the
    ``nil_tricks`` option (``bags`` where a variant does not declare it).
    """
    name = table.side_names[side]
    bids, books = summary.bids, summary.books
    mode = options.get("nil_tricks", "bags")
    counted = side_contract(summary, side, table.sides, mode)
    nils, bidders = counted.nils, counted.bidders
    contract, took, made = counted.bid, counted.took, counted.made
    lines = []
    bags = 0
    if bidders:
        if made:
            over = took - contract
            bags += over
            lines.append(
                ScoreLine(
                    side,
                    10 * contract + over,
                    partial(_made, name, contract, took),
                    bags=over,
                    bag_points=over,
                    bag_text=bags_text(over) if over else None,
                    kind="contract",
                )
            )
        else:
            lines.append(
                ScoreLine(
                    side, -10 * contract, partial(_set, name, contract, took), 0, 0, kind="contract"
                )
            )
    for seat in nils:
        bid = bids[seat]
        blind = isinstance(bid, BlindNil)
        value = (
            options.get("blind_nil_value", 2 * options["nil_value"])
            if blind
            else options["nil_value"]
        )
        took_nil = books[seat]
        label = f"{table.seat_names[seat]} {'blind nil' if blind else 'nil'}"
        points = value if took_nil == 0 else -value
        extra = took_nil if mode == "bags" or (mode == "partner" and not bidders) else 0
        bonus = extra if made else 0
        bags += extra
        lines.append(
            ScoreLine(
                side,
                points + bonus,
                partial(_nil, label, took_nil, points),
                bags=extra,
                bag_points=bonus,
                bag_text=_nil_bags_text(extra, made),
                kind="nil",
            )
        )
    limit, penalty = options["bag_limit"], options["bag_penalty"]
    times = (match.bags[side] + bags) // limit if match.bags[side] + bags >= limit else 0
    if times:
        lines.append(
            ScoreLine(
                side,
                -penalty * times,
                partial(_bag_penalty, name, limit * times, -penalty * times),
                bags=-limit * times,
                bag_points=0,
                kind="bag-penalty",
            )
        )
    return lines


# Score-line texts, built only when read (ScoreLine accepts a function for its text).


def _made(name: str, contract: int, took: int) -> str:
    return f"{name} bid {contract}, took {took}: {signed(10 * contract)}"


def _set(name: str, contract: int, took: int) -> str:
    return f"{name} bid {contract}, took {took}: set, {signed(-10 * contract)}"


def _nil(label: str, took: int, points: int) -> str:
    return f"{label}, took {took}: {signed(points)}"


def _nil_bags_text(bags: int, made: bool) -> str | None:
    """What a nil line says of its bidder's tricks: bags scoring one each beside a made
    contract, nothing beside a set one."""
    if not bags:
        return None
    return bags_text(bags) if made else f"{count(bags, 'bag')} (contract set: +0)"


def _bag_penalty(name: str, bags: int, points: int) -> str:
    return f"{name} reached {bags} bags: {signed(points)}"


def bags_text(n: int) -> str:
    """Return ``"1 bag (+1)"`` / ``"3 bags (+3)"``."""
    return f"{count(n, 'bag')} ({n:+d})"


def count(n: int, word: str) -> str:
    """Return ``"1 book"`` / ``"3 books"``: ``n`` and ``word``, plural unless ``n`` is 1."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def signed(points: int) -> str:
    """Return points with their sign: ``"+70"``, ``"-100"``."""
    return f"{points:+d}"


FAILED_BOSTON = 0
"""Priority of an outright loss decided by the hand's own contract (a failed Boston)."""
OTHER_LOSS = 1
"""Priority of any other outright loss (a third set in a row, the floor)."""


def match_end(
    scores: Sequence[int],
    names: Sequence[str],
    target: int,
    floor: int | None,
    outright: Mapping[int, tuple[int, str]] | None = None,
) -> MatchEnd | None:
    """Return how a match ends after a hand, or None to play on.

    ``outright`` maps sides that lost outright this hand to ``(priority, why)``; a side
    at or below ``floor`` loses outright too.  An outright loss beats reaching the
    target.  When every side loses outright, those whose loss has the lowest priority
    (a failed Boston) lose first; if that is all of them, the higher score wins.  The
    losers drop out and the best of the rest wins; an exact tie at the top plays on.
    Without outright losses, the sides at or above ``target`` compete the same way.
    """
    sides = range(len(scores))
    losers = dict(outright or {})
    if floor is not None:
        for side in sides:
            if side not in losers and scores[side] <= floor:
                losers[side] = (
                    OTHER_LOSS,
                    f"{names[side]} fell to {scores[side]} (at or below {floor})",
                )
    if losers:
        rest = [s for s in sides if s not in losers]
        if not rest:
            first = min(priority for priority, _ in losers.values())
            rest = [s for s in sides if losers[s][0] != first] or list(sides)
        why = "; ".join(losers[s][1] for s in sorted(losers))
        return _best(rest, scores, names, why)
    reached = [s for s in sides if scores[s] >= target]
    if reached:
        return _best(reached, scores, names, f"reached {target}")
    return None


def _best(
    candidates: Sequence[int], scores: Sequence[int], names: Sequence[str], why: str
) -> MatchEnd | None:
    top = max(scores[s] for s in candidates)
    leaders = [s for s in candidates if scores[s] == top]
    if len(leaders) > 1:
        return None
    return MatchEnd(leaders[0], f"won by {names[leaders[0]]} with {top}: {why}")
