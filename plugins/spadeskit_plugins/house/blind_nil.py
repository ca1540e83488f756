"""``blind-nil``: bid nil before seeing one's cards, then trade cards with the partner.

Until a seat has decided, its own cards are hidden from its view.  At its bidding turn
an undecided seat may bid :class:`~spadeskit.BlindNil` or take :class:`~spadeskit.SeeCards`
(which it may also do at any time before its turn); once it has seen its cards it bids
as usual.  A blind nil scores ±``blind_nil_value`` (default 200).
After all bids, the partner passes ``blind_nil_pass`` cards (0, 1 or 2; default 2) to
the blind nil bidder, who then passes as many back: two
:class:`~spadeskit.core.seating.Step` exchanges before the first lead.  With the option
``blind_nil_exchange="simultaneous"`` the two choose their cards at the same time,
blind of each other (simultaneous steps: neither sees what the other passes before
choosing, and the cards change hands once both have chosen).

Both partners may bid blind nil (so what a seat is offered never shows a partner's
sealed bid); when both do, no cards are exchanged.  With the option
``blind_nil_trailing`` set to N > 0, blind nil is offered only to a side that trails
the best other side by at least N points at the start of the hand.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

import attrs

from spadeskit import BlindNil, SeeCards
from spadeskit.core.actions import Action
from spadeskit.core.seating import Step, TableSpec
from spadeskit.core.state import GameState, Phase
from spadeskit.core.views import View
from spadeskit.engine.hookspecs import Options
from spadeskit.plugin import (
    Option,
    PluginInfo,
    acts_in,
    choice,
    hookimpl,
    int_range,
)

from .._common import with_seen

PLUGIN = PluginInfo(
    name="blind-nil",
    kind="house-rule",
    summary="Bid nil before seeing your cards for double; partners then trade cards.",
    options=(
        Option(
            "blind_nil_value",
            200,
            "Points won by a blind nil that takes no trick, lost by one that takes any "
            "(0 to 1000).",
            int_range(0, 1000),
        ),
        Option(
            "blind_nil_trailing",
            0,
            "Blind nil is offered only to a side trailing the best other side by at least "
            "this many points at the start of the hand (0 to 10000; 0: always offered).",
            int_range(0, 10000),
        ),
        Option(
            "blind_nil_pass",
            2,
            "Cards the partner passes to a blind nil bidder, who passes as many back: 0, 1 or 2.",
            choice(0, 1, 2),
        ),
        Option(
            "blind_nil_exchange",
            "partner-first",
            "How the two pass: 'partner-first' (the partner passes, then the blind nil bidder "
            "passes back, having seen what came) or 'simultaneous' (both choose at once, "
            "blind of each other).",
            choice("partner-first", "simultaneous"),
        ),
    ),
    fits=("standard",),
    conflicts=("blind-bids",),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.
ORACLES = {
    "score": "+blind-nil",
    "blind_nil": lambda options: options["blind_nil_trailing"],
    "blind_nil_pass": lambda options: options["blind_nil_pass"],
    "options": {
        "blind_nil_value": "0..1000",
        "blind_nil_trailing": "0..10000",
        "blind_nil_pass": "0|1|2",
        "blind_nil_exchange": "'partner-first'|'simultaneous'",
    },
    "defaults": {"blind_nil_value": 200, "blind_nil_trailing": 0, "blind_nil_pass": 2},
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
EXAMPLES = (
    {
        "rule": "a blind nil made scores +200",
        "bids": "blind_nil 3 4 3",
        "books": "0 5 6 2",
        "points": (242, 61),
        "lines": [
            "N/S bid 4, took 6: +40, 2 bags (+2)",
            "N blind nil, took 0: +200",
            "E/W bid 6, took 7: +60, 1 bag (+1)",
        ],
    },
)

SEEN = "blind_nil_seen"
"""Key in ``HandState.extra``: the seats that chose to see their cards, in order."""

_BLIND: tuple[Action, ...] = (BlindNil(),)
_SEE: tuple[Action, ...] = (SeeCards(),)
_AUCTION = Phase.AUCTION


def may_go_blind(game: GameState, seat: int, table: TableSpec, options: Options) -> bool:
    """Return whether ``seat``'s side may bid blind nil this hand (the trailing rule)."""
    need: int = options["blind_nil_trailing"]
    if need == 0:
        return True
    scores = game.match.scores
    side = table.side_of[seat]
    best_other: int = max(score for other, score in enumerate(scores) if other != side)
    return best_other - scores[side] >= need


def undecided(game: GameState, seat: int, table: TableSpec, options: Options) -> bool:
    """Return whether ``seat`` has not yet chosen between blind nil and seeing its cards."""
    # ``game`` holds the hand's fields itself (``game.hand is game``): read them directly.
    if (
        game.phase is not _AUCTION
        or game.bids[seat] is not None
        or seat in game.extra.get(SEEN, ())
    ):
        return False
    return not options["blind_nil_trailing"] or may_go_blind(game, seat, table, options)


@hookimpl(tryfirst=True)
def spadeskit_auction_actions(
    game: GameState, seat: int, table: TableSpec, options: Options
) -> Sequence[Action] | None:
    """An undecided seat may only bid blind nil (or look, out of turn); otherwise the
    variant's bids stand (``None`` leaves them to it)."""
    return _BLIND if undecided(game, seat, table, options) else None


@hookimpl
@acts_in(Phase.AUCTION)
def spadeskit_out_of_turn_actions(
    game: GameState, seat: int | None, table: TableSpec, options: Options
) -> Sequence[Action] | None:
    if seat is not None and undecided(game, seat, table, options):
        return _SEE
    return None


@hookimpl
def spadeskit_apply_out_of_turn(
    game: GameState, seat: int | None, action: Action
) -> GameState | None:
    if not isinstance(action, SeeCards) or seat is None:
        return None
    return with_seen(game, seat, SEEN)


@hookimpl
def spadeskit_contract_steps(game: GameState, table: TableSpec, options: Options) -> list[Step]:
    """Each blind nil bidder's partner passes cards to them, and they pass as many back
    (after seeing the partner's, or at the same time: ``blind_nil_exchange``)."""
    count = options["blind_nil_pass"]
    together = options["blind_nil_exchange"] == "simultaneous"
    steps: list[Step] = []
    if not count:
        return steps
    bids = game.bids
    for bidder, bid in game.auction:  # in bidding order, so no seat number is favoured
        if isinstance(bid, BlindNil):
            partner = next(s for s in table.sides[table.side_of[bidder]] if s != bidder)
            if isinstance(bids[partner], BlindNil):
                continue  # both partners bid blind nil: no cards are exchanged
            steps += [
                Step(partner, "exchange", count, to=bidder, simultaneous=together),
                Step(bidder, "exchange", count, to=partner, simultaneous=together),
            ]
    return steps


@hookimpl(wrapper=True)
def spadeskit_view(
    view: View, game: GameState, seat: int | None, options: Any
) -> Generator[None, View | None, View | None]:
    redacted = yield
    if seat is None or not undecided(game, seat, game.rules.table, options):
        return redacted
    return attrs.evolve(redacted or view, cards=())
