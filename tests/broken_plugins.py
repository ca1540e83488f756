"""Deliberately broken house rules: the kit (spadeskit.testing) must catch every one.

Each is an in-memory plugin module, loaded the way a third-party module would be.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Generator, Sequence
from typing import Any

import attrs

from spadeskit import Bid, MatchEnd, Nil, Option, PluginInfo, ScoreLine, TableTalk, hookimpl
from spadeskit.core.cards import Suit, card_at, iter_mask
from spadeskit.core.results import BookTransfer, Trick
from spadeskit.core.seating import CardRank, Contract
from spadeskit.core.state import GameState, HandState
from spadeskit.core.views import View
from spadeskit.plugin import PlayFilter, evolve_hand, int_range, with_hand


def plugin(
    name: str, *functions: Any, oracles: dict[str, Any] | None = None, **info: Any
) -> types.ModuleType:
    """Return a house-rule module named ``name`` holding ``functions``, declaring
    ``oracles`` (what the kit checks it against) as its ``ORACLES``."""
    module = types.ModuleType(f"broken_{name.replace('-', '_')}")
    if oracles is not None:
        module.ORACLES = oracles  # type: ignore[attr-defined]
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

    return plugin("sealed-bid-revealer", spadeskit_auction_actions, oracles={"auction": "own"})


SEALED_BID_REVEALER = _sealed_bid_revealer()


# ------------------------------------------------------------------------------------------
# Wrong rules that play without crashing: each is caught by one of the kit's oracles.
# ------------------------------------------------------------------------------------------


def _boston_to_the_wrong_side() -> types.ModuleType:
    """Boston, but the bonus goes to the other side."""

    @hookimpl
    def spadeskit_score_hand(summary: Any, table: Any, options: Any) -> Sequence[ScoreLine]:
        lines = []
        for side, seats in enumerate(table.sides):
            bidders = [s for s in seats if not isinstance(summary.bids[s], Nil)]
            contract = sum(b.tricks for s in bidders if isinstance(b := summary.bids[s], Bid))
            if contract == 13:
                won = sum(summary.books[s] for s in bidders) >= 13
                bonus = options["boston_bonus"] if won else -options["boston_bonus"]
                lines.append(ScoreLine(1 - side, bonus, "Boston bonus"))
        return lines

    return plugin(
        "boston-wrong-side",
        spadeskit_score_hand,
        options=(Option("boston_bonus", 100, "Bonus for a Boston.", int_range(0)),),
        fits=("standard",),
        conflicts=("boston",),
        oracles={"score": "+boston"},
    )


BOSTON_WRONG_SIDE = _boston_to_the_wrong_side()


def _board_counting_partner_twice() -> types.ModuleType:
    """Jokers-and-Deuces' board, but the partner's bid counts twice toward it."""

    @hookimpl(tryfirst=True)
    def spadeskit_auction_actions(game: Any, seat: int, table: Any, options: Any) -> Any:
        partner = next(s for s in table.sides[table.side_of[seat]] if s != seat)
        said = game.hand.bids[partner]
        if said is None:
            return None
        already = said.tricks if isinstance(said, Bid) else 0
        low = max(0, options["board"] - 2 * already)
        return tuple(Bid(n) for n in range(low, 14 - already))

    return plugin("board-twice", spadeskit_auction_actions, fits=("jjdd",))


BOARD_TWICE = _board_counting_partner_twice()


def _club_leads(name: str, pick: Any) -> types.ModuleType:
    """The holder of the lowest club leads the first trick (``pick`` chooses the club)."""

    @hookimpl(wrapper=True)
    def spadeskit_auction_next(game: Any, table: Any) -> Generator[None, Any, Any]:
        decided = yield
        if not isinstance(decided, Contract):
            return decided
        clubs = [
            (card_at(c).rank, s)
            for s in range(table.players)
            for c in iter_mask(game.hand.hands[s])
            if card_at(c).suit is Suit.CLUBS
        ]
        return attrs.evolve(decided, leader=pick(clubs)[1]) if clubs else decided

    return plugin(
        name,
        spadeskit_auction_next,
        fits=("standard",),
        oracles={"first_lead": "lowest-club", "suits": "own"},
    )


LOW_CLUB_LEADS = _club_leads("low-club-leads", min)
HIGH_CLUB_LEADS = _club_leads("high-club-leads", max)


def _two_sets_lose() -> types.ModuleType:
    """Jokers-and-Deuces, but two sets in a row lose instead of three."""

    @hookimpl(tryfirst=True)
    def spadeskit_match_end(match: Any, table: Any) -> MatchEnd | None:
        from spadeskit_plugins.jjdd import _summary, was_set

        played = [r for r in match.results if not r.void][-2:]
        for side in range(len(table.sides)):
            if len(played) == 2 and all(was_set(_summary(r), table, side) for r in played):
                return MatchEnd(1 - side, f"{table.side_names[side]} were set twice in a row")
        return None

    return plugin("two-sets", spadeskit_match_end, fits=("jjdd",))


TWO_SETS = _two_sets_lose()


def _west_only() -> types.ModuleType:
    """No spade on the first trick, but only West is held to it."""

    @hookimpl
    def spadeskit_play_filters(ranking: Any) -> Sequence[PlayFilter]:
        others = ranking.deck_mask & ~ranking.suit_mask[Suit.SPADES]

        def check(hand: Any, seat: int, allowed: int) -> int:
            if seat == 3 and not hand.tricks and allowed & others:
                return allowed & others
            return allowed

        return (PlayFilter("west-no-trump-first-trick", check, "no spade first", order=30),)

    return plugin(
        "west-only",
        spadeskit_play_filters,
        fits=("standard",),
        conflicts=("spades-anytime",),
        oracles={"first_trick": "no-spades"},
    )


WEST_ONLY = _west_only()


def _ties_to_the_first_side() -> types.ModuleType:
    """Standard's match end, but a tie at the top goes to the side with the lower number."""

    @hookimpl(tryfirst=True)
    def spadeskit_match_end(match: Any, options: Any) -> MatchEnd | None:
        scores = match.scores
        reached = [s for s in range(len(scores)) if scores[s] >= options["target"]]
        if len(reached) > 1 and len({scores[s] for s in reached}) == 1:
            return MatchEnd(reached[0], "tie: the first side wins")
        return None

    return plugin("seat-ties", spadeskit_match_end, fits=("standard",))


SEAT_TIES = _ties_to_the_first_side()


def _score_wrapper(name: str, change: Any, **info: Any) -> types.ModuleType:
    @hookimpl(wrapper=True)
    def spadeskit_score_hand() -> Generator[None, Any, Any]:
        groups = yield
        return [[new for line in group or () if (new := change(line))] for group in groups]

    return plugin(name, spadeskit_score_hand, **info)


SET_PLUS_TEN = _score_wrapper(
    "set-plus-ten",
    lambda line: attrs.evolve(line, points=-line.points) if ": set," in line.text else line,
)
NO_CONTRACT_LINE = _score_wrapper(
    "no-contract-line", lambda line: None if " bid " in line.text and line.side == 1 else line
)
JJDD_MADE_SET_SWAPPED = _score_wrapper(
    "made-set-swapped",
    lambda line: attrs.evolve(line, points=-line.points) if " bid " in line.text else line,
    fits=("jjdd",),
)


def _upside_down(suit: Suit) -> types.ModuleType:
    """Rank one suit upside down: the 2 high, the ace low."""

    @hookimpl(tryfirst=True)
    def spadeskit_card_rank(card: Any) -> CardRank | None:
        return CardRank(suit, 16 - card.rank) if card.suit is suit else None

    return plugin(f"{suit.name.lower()}-upside-down", spadeskit_card_rank, fits=("standard",))


SPADES_UPSIDE_DOWN = _upside_down(Suit.SPADES)
HEARTS_UPSIDE_DOWN = _upside_down(Suit.HEARTS)


def _anytime_without_following() -> types.ModuleType:
    """Spades any time, but the wrapper drops following suit as well."""

    @hookimpl(wrapper=True)
    def spadeskit_play_filters() -> Generator[None, Any, Any]:
        groups = yield
        keep = ("break-spades", "follow-suit")
        return [[f for f in group if f.name not in keep] for group in groups if group]

    return plugin(
        "spades-anytime-broken",
        spadeskit_play_filters,
        fits=("standard",),
        oracles={"lead": "anytime"},
    )


SPADES_ANYTIME_BROKEN = _anytime_without_following()


def _bad_range() -> types.ModuleType:
    """An option documented as 1 to 13 whose validator stops at 12."""
    return plugin(
        "bad-range",
        options=(Option("limit", 5, "From 1 to 13.", int_range(1, 12)),),
        oracles={"options": {"limit": "1..13"}},
    )


BAD_RANGE = _bad_range()


def _talk_costs_two() -> types.ModuleType:
    """Jokers-and-Deuces' table talk, but a ruling moves 2 books instead of 3."""

    @hookimpl(tryfirst=True)
    def spadeskit_apply_out_of_turn(game: Any, action: Any, table: Any) -> Any:
        if not isinstance(action, TableTalk):
            return None
        side = action.side
        transfer = BookTransfer(side, 1 - side, 2, f"{table.side_names[side]} talked")
        hand = game.hand
        return with_hand(game, evolve_hand(hand, transfers=hand.transfers + (transfer,)))

    return plugin("talk-two", spadeskit_apply_out_of_turn, fits=("jjdd",))


TALK_TWO = _talk_costs_two()


def _sealed_but_shown() -> types.ModuleType:
    """Hidden bids, but each seat sees the others' bids and not its own."""

    @hookimpl(wrapper=True)
    def spadeskit_view(
        view: View, game: GameState, seat: int | None
    ) -> Generator[None, View | None, View | None]:
        shown = (yield) or view
        if game.hand.phase.value != "auction":
            return shown
        return attrs.evolve(
            shown, bids=tuple(b if s != seat else None for s, b in enumerate(game.bids))
        )

    return plugin(
        "sealed-but-shown", spadeskit_view, fits=("standard",), oracles={"sealed_bids": True}
    )


SEALED_BUT_SHOWN = _sealed_but_shown()


def edited(module: str, old: str, new: str) -> types.ModuleType:
    """Return a copy of the shipped plugin ``module`` with the one occurrence of ``old`` in
    its source replaced by ``new``: a wrong rule as a slip in the plugin's own code."""
    import importlib.util
    import pathlib

    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    source = pathlib.Path(spec.origin).read_text(encoding="utf-8")
    assert source.count(old) == 1, f"{old!r} must occur once in {module}"
    copy = types.ModuleType(f"{module}_edited")
    copy.__package__ = module.rpartition(".")[0]
    # Registered, so that the annotations of the classes it declares (plugin action
    # types) resolve in its namespace, as the original's do.
    sys.modules[copy.__name__] = copy
    exec(compile(source.replace(old, new), spec.origin, "exec"), copy.__dict__)
    return copy


def _counter_clockwise() -> types.ModuleType:
    """Standard, but the auction goes counter-clockwise from the dealer's right."""

    @hookimpl(tryfirst=True)
    def spadeskit_auction_next(game: Any, table: Any) -> int | None:
        spoken = len(game.hand.auction)
        if spoken < table.players:
            return (game.hand.dealer - 1 - spoken) % table.players
        return None

    return plugin("counter-clockwise", spadeskit_auction_next, fits=("standard",))


COUNTER_CLOCKWISE = _counter_clockwise()


def _wrong_default() -> types.ModuleType:
    """An option documented with a default of 10 that defaults to 5."""
    return plugin(
        "wrong-default",
        options=(Option("limit", 5, "From 1 to 13 (default 10).", int_range(1, 13)),),
        oracles={"options": {"limit": "1..13"}, "defaults": {"limit": 10}},
    )


WRONG_DEFAULT = _wrong_default()


def _deal_stays() -> types.ModuleType:
    """Standard, but a side that made its contract keeps the deal."""

    @hookimpl(tryfirst=True)
    def spadeskit_next_dealer(dealer: int, result: Any, table: Any) -> int | None:
        side = table.side_of[dealer]
        return dealer if result.points[side] > 0 else None

    return plugin("deal-stays", spadeskit_next_dealer, fits=("standard",))


DEAL_STAYS = _deal_stays()
