"""``blind-bids``: a side that is well behind may bid 6 or more tricks blind, for double.

A side behind the other by at least ``behind`` points (default 100) may bid blind: one
partner announces "blind N" for the side, N from 6 to ``max_blind`` (default 7, at most
8), before either partner has seen a card of the hand.  While the side may still do so,
neither partner sees its cards: the first of them to bid is offered only the blind bids,
and either may look at their cards first (:class:`~spadeskit.SeeCards`, at any time
before bidding), which gives the chance up for the side.

A blind bid is the side's whole contract: the partner does not bid (it may only pass),
and no nil is scored for that side in the hand.  Made (the side takes at least N books):
+20 × N, books over N are bags as usual; set: −20 × N, or −10 × N with the option
``set`` = ``"single"``.  The other side bids as usual.  The blind bid is public at once,
even with ``hidden-bids``: it is announced before anyone sees a card.

:class:`BlindBid` is an action type of this plugin (``spadeskit_action_types``):
records write it ``{"type": "blind-bid", "tricks": 6}`` and people read it "blind 6".
It is a :class:`~spadeskit.Bid` (its tricks are the side's contract, so every rule that
sums a side's bids counts them) of its own type, so no record or view mistakes it for
an ordinary bid.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, ClassVar

import attrs

from spadeskit.plugin import (
    Action,
    Bid,
    GameState,
    HandSummary,
    Option,
    Pass,
    Phase,
    PluginInfo,
    ScoreLine,
    SeeCards,
    TableSpec,
    View,
    acts_in,
    choice,
    hookimpl,
    int_range,
)

from .._common import with_seen

PLUGIN = PluginInfo(
    name="blind-bids",
    kind="house-rule",
    summary="A side 100 or more behind may bid 6 or 7 tricks blind, for double.",
    options=(
        Option(
            "behind",
            100,
            "A side may bid blind when the other side leads it by at least this many points "
            "at the start of the hand (0 to 10000; 0: whenever it does not lead).",
            int_range(0, 10000),
        ),
        Option(
            "max_blind",
            7,
            "The most tricks a blind bid may name: 6, 7 or 8 (a blind bid names 6 or more).",
            choice(6, 7, 8),
        ),
        Option(
            "set",
            "double",
            "What a failed blind bid of N costs: 'double' (-20 x N) or 'single' (-10 x N).",
            choice("double", "single"),
        ),
    ),
    fits=("standard",),
    conflicts=("blind-nil",),
    # After ``hidden-bids`` (order 100), so this rule's view wrapper runs outside its and
    # shows the blind bid that one seals.
    order=200,
)


@attrs.frozen
class BlindBid(Bid):
    """Bid ``tricks`` (6 or more) for the side before either partner sees a card."""

    kind: ClassVar[str] = "blind-bid"

    def __str__(self) -> str:
        return f"blind {self.tricks}"


# What the kit (spadeskit.testing) checks these rules against: see its oracles.  The
# partner of a blind bidder may only pass, which the kit's auction reference does not
# model; the scoring is its reference plus the doubled blind contract.  Both partners'
# cards are hidden while their side may still bid blind, which the kit's ``shown``
# oracle (blind nil's rule: the seat itself may still bid blind) does not model either:
# it checks the cards shown from the auction's end on; tests/test_blind_bids.py checks
# the auction.
ORACLES = {
    "auction": "own",
    "own_cards": "own-in-auction",
    "score": "+blind-bids",
    "options": {"behind": "0..10000", "max_blind": "6|7|8", "set": "'double'|'single'"},
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
# With ``behind`` 0 a side that does not lead may bid blind, so at 0-0 both sides may.
EXAMPLES = (
    {
        "rule": "a blind bid made scores +20 a trick, books over it are bags",
        "options": {"behind": 0},
        "bids": "blind_6 4 pass 3",
        "books": "4 3 3 3",
        "points": (121, -70),
    },
    {
        "rule": "a blind bid set loses 20 a trick",
        "options": {"behind": 0},
        "bids": "blind_7 4 pass 3",
        "books": "3 4 3 3",
        "points": (-140, 70),
    },
    {
        "rule": "a blind bid set loses 10 a trick with set single",
        "options": {"behind": 0, "set": "single"},
        "bids": "blind_7 4 pass 3",
        "books": "3 4 3 3",
        "points": (-70, 70),
    },
)

SEEN = "blind_bids_seen"
"""Key in ``HandState.extra``: the seats that chose to see their cards, in order."""

_PASS: tuple[Action, ...] = (Pass(),)
_SEE: tuple[Action, ...] = (SeeCards(),)
_OFFERS: dict[int, tuple[Action, ...]] = {
    most: tuple(BlindBid(n) for n in range(6, most + 1)) for most in (6, 7, 8)
}
_AUCTION = Phase.AUCTION


def behind_enough(game: GameState, side: int, options: Any) -> bool:
    """Return whether ``side`` trails the best other side by at least ``behind`` points."""
    scores = game.match.scores
    best_other = max(score for other, score in enumerate(scores) if other != side)
    need: int = options["behind"]
    return best_other - scores[side] >= need


def may_bid_blind(game: GameState, seat: int, table: TableSpec, options: Any) -> bool:
    """Return whether ``seat``'s side may still bid blind: it is behind enough, and no
    partner has bid or seen their cards (so ``seat`` does not see its own)."""
    if game.phase is not _AUCTION:
        return False
    side = table.side_of[seat]
    seen = game.extra.get(SEEN, ())
    bids = game.bids
    if any(bids[s] is not None or s in seen for s in table.sides[side]):
        return False
    return behind_enough(game, side, options)


def blind_bidder(game: GameState, seat: int, table: TableSpec) -> int | None:
    """Return the partner of ``seat`` who bid blind this hand, or ``None``."""
    for partner in table.sides[table.side_of[seat]]:
        if isinstance(game.bids[partner], BlindBid):
            return partner
    return None


@hookimpl
def spadeskit_action_types() -> Sequence[type[Action]]:
    return (BlindBid,)


@hookimpl(tryfirst=True)
def spadeskit_auction_actions(
    game: GameState, seat: int, table: TableSpec, options: Any
) -> Sequence[Action] | None:
    """The partner of a blind bidder may only pass; a seat whose side may still bid blind
    may only bid blind (or look first, out of turn); otherwise the variant's bids."""
    if blind_bidder(game, seat, table) is not None:
        return _PASS
    if may_bid_blind(game, seat, table, options):
        return _OFFERS[options["max_blind"]]
    return None


@hookimpl
@acts_in(Phase.AUCTION)
def spadeskit_out_of_turn_actions(
    game: GameState, seat: int | None, table: TableSpec, options: Any
) -> Sequence[Action] | None:
    if seat is not None and may_bid_blind(game, seat, table, options):
        return _SEE
    return None


@hookimpl
def spadeskit_apply_out_of_turn(
    game: GameState, seat: int | None, action: Action
) -> GameState | None:
    if not isinstance(action, SeeCards) or seat is None:
        return None
    return with_seen(game, seat, SEEN)


def blind_line(line: ScoreLine, summary: HandSummary, table: TableSpec, options: Any) -> ScoreLine:
    """Return the contract ``line`` of a side that bid blind, scored as the blind bid."""
    bid = next(b for s in table.sides[line.side] if isinstance(b := summary.bids[s], BlindBid))
    n = bid.tricks
    took = sum(summary.books[s] for s in table.sides[line.side])
    name = table.side_names[line.side]
    if took >= n:
        return attrs.evolve(
            line, points=line.points + 10 * n, text=f"{name} blind {n}, took {took}: +{20 * n}"
        )
    lost = 20 * n if options["set"] == "double" else 10 * n
    return attrs.evolve(line, points=-lost, text=f"{name} blind {n}, took {took}: -{lost}")


Groups = list["Sequence[ScoreLine] | None"]


@hookimpl(wrapper=True)
def spadeskit_score_hand(
    summary: HandSummary, table: TableSpec, options: Any
) -> Generator[None, Groups, Groups]:
    """Score a blind side's contract line as its blind bid (the variant scored it as an
    ordinary bid of N: +10 × N and bags, or −10 × N)."""
    groups = yield
    blind = {table.side_of[s] for s, b in enumerate(summary.bids) if isinstance(b, BlindBid)}
    if not blind:
        return groups
    return [
        [
            blind_line(line, summary, table, options)
            if line.kind == "contract" and line.side in blind
            else line
            for line in group or ()
        ]
        for group in groups
    ]


@hookimpl(wrapper=True)
def spadeskit_view(
    view: View, game: GameState, seat: int | None, options: Any
) -> Generator[None, View | None, View | None]:
    """Hide the cards of a seat whose side may still bid blind; show every blind bid
    (and its partner's pass) even where bids are sealed."""
    redacted = yield
    shown = redacted or view
    table = game.rules.table
    if seat is not None and may_bid_blind(game, seat, table, options):
        shown = attrs.evolve(shown, cards=())
    bids = game.bids
    if shown.bids != bids and any(isinstance(b, BlindBid) for b in bids):
        shown = attrs.evolve(
            shown,
            bids=tuple(
                b if b is not None or blind_bidder(game, s, table) is None else bids[s]
                for s, b in enumerate(shown.bids)
            ),
        )
    return shown if shown is not view else redacted
