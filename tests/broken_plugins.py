"""Deliberately broken house rules: the kit (spadeskit.testing) must catch every one.

Each is an in-memory plugin module, loaded the way a third-party module would be.
"""

from __future__ import annotations

import types
from collections.abc import Generator, Sequence
from typing import Any

import attrs

from spadeskit import Option, PluginInfo, ScoreLine, hookimpl
from spadeskit.core.results import Trick
from spadeskit.core.state import GameState, HandState
from spadeskit.core.views import View
from spadeskit.plugin import evolve_hand


def plugin(name: str, *functions: Any, **info: Any) -> types.ModuleType:
    """Return a house-rule module named ``name`` holding ``functions``."""
    module = types.ModuleType(f"broken_{name.replace('-', '_')}")
    module.PLUGIN = PluginInfo(name=name, kind="house-rule", summary=f"broken: {name}", **info)  # type: ignore[attr-defined]
    for fn in functions:
        setattr(module, fn.__name__, fn)
    return module


@hookimpl
def spadeskit_after_trick(hand: HandState, trick: Trick) -> HandState | None:
    """Give the trick's winner back the card it played: that card can be played twice."""
    if len(hand.tricks) != 1:
        return None
    card = next(c for s, c in trick.plays if s == trick.winner)
    hands = list(hand.hands)
    hands[trick.winner] |= 1 << card
    return evolve_hand(hand, hands=tuple(hands))


CARD_TWICE = plugin("card-twice", spadeskit_after_trick)


@hookimpl(wrapper=True)
def spadeskit_view(
    view: View, game: GameState, seat: int | None
) -> Generator[None, View | None, View | None]:
    """Show every seat its left-hand opponent's cards too."""
    shown = (yield) or view
    if seat is None:
        return shown
    neighbour = game.cards((seat + 1) % game.rules.table.players)
    return attrs.evolve(shown, cards=shown.cards + neighbour)


LEAKY_VIEW = plugin("leaky-view", spadeskit_view)


@hookimpl
def spadeskit_score_hand(table: Any) -> Sequence[ScoreLine]:
    """Give N/S ten points a hand: scores depend on where you sit."""
    return [ScoreLine(0, 10, f"{table.side_names[0]} sit North-South: +10")]


NORTH_BONUS = plugin("north-bonus", spadeskit_score_hand)


def _bad_args() -> types.ModuleType:
    @hookimpl
    def spadeskit_score_hand(summary: Any, weather: Any) -> Sequence[ScoreLine]:
        return []

    @hookimpl
    def spadeskit_score_hands(summary: Any) -> Sequence[ScoreLine]:
        return []

    return plugin(
        "bad-args",
        spadeskit_score_hand,
        spadeskit_score_hands,
        options=(
            Option("undocumented", 3, ""),
            Option(
                "bad_default", -1, "must be positive", lambda v: None if v > 0 else "must be > 0"
            ),
        ),
    )


BAD_ARGS = _bad_args()


def _ranker(name: str) -> types.ModuleType:
    @hookimpl
    def spadeskit_card_rank(card: Any) -> None:
        return None

    return plugin(name, spadeskit_card_rank)


RANKER_A, RANKER_B = _ranker("ranker-a"), _ranker("ranker-b")


def _sealed_bid_revealer() -> types.ModuleType:
    """A suicide-like rule that does not declare its conflict with hidden-bids: what a seat
    may bid depends on its partner's bid, which hidden-bids seals."""

    @hookimpl(wrapper=True)
    def spadeskit_auction_actions(game: Any, seat: int, table: Any) -> Any:
        offered = yield
        partner = next(s for s in table.sides[table.side_of[seat]] if s != seat)
        said = game.hand.bids[partner]
        if said is None:
            return offered
        return tuple(b for b in offered if type(b) is not type(said)) or offered

    return plugin("sealed-bid-revealer", spadeskit_auction_actions)


SEALED_BID_REVEALER = _sealed_bid_revealer()
