"""Issue 49 (9): a broken plugin is named, on both cores.

Every hook of :mod:`spadeskit.engine.hookspecs`, answered wrongly in the ways a real
plugin gets it wrong (the wrong type, a float, a string, a seat past the table, a card
where a bid belongs, a negative count, an exception raised inside the hook, a state with
a card moved …).  Each case loads THREE plugins beside the variant, two well-behaved ones
that implement the same hook and the faulty one between them, drives a game to where the
hook is called (loading, the step API, the playout loop, a simulation, a view, a score
sheet), and asserts that the fault is a :class:`spadeskit.PluginError` whose message
names the faulty plugin and the hook; that the state it was applied to is unchanged;
that no raw ``TypeError``/``IndexError``/… escapes; and that nothing is accepted that
loses, adds or leaks a card.

``outcome`` sorts a case into ``named`` (what every case must give), ``raw`` (a bare
exception escaped), ``unnamed`` (a SpadesError that is no PluginError naming the plugin
and the hook), ``changed`` (the state it was applied to changed), ``corrupt`` (accepted, and a
card is lost, doubled or leaked) or ``accepted`` (accepted silently);
``python tests/test_plugin_fault_matrix.py`` prints the counts per hook.
"""

from __future__ import annotations

import random
import types
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from typing import Any

import attrs
import pytest

import spadeskit
from spadeskit import PluginError, SpadesError
from spadeskit.plugin import (
    Action,
    Bid,
    CardRank,
    Contract,
    DealPlan,
    Discard,
    Exchange,
    GameState,
    HandState,
    MatchEnd,
    Phase,
    Play,
    PlayFilter,
    PluginInfo,
    ScoreLine,
    SeeCards,
    Step,
    Suit,
    Trick,
    View,
    acts_in,
    card_at,
    evolve_hand,
    hookimpl,
    parse_card,
    with_hand,
)

HOOKS = (
    "spadeskit_table",
    "spadeskit_action_types",
    "spadeskit_card_rank",
    "spadeskit_card_points",
    "spadeskit_trick_strength",
    "spadeskit_trick_winner",
    "spadeskit_play_filters",
    "spadeskit_misdeal_allowed",
    "spadeskit_auction_next",
    "spadeskit_contract_steps",
    "spadeskit_auction_actions",
    "spadeskit_paper_bids",
    "spadeskit_first_leader",
    "spadeskit_after_trick",
    "spadeskit_before_scoring",
    "spadeskit_out_of_turn_actions",
    "spadeskit_apply_out_of_turn",
    "spadeskit_score_hand",
    "spadeskit_match_end",
    "spadeskit_next_dealer",
    "spadeskit_view",
)

FAULTY = "faulty"
AS = parse_card("AS")
TWO_CLUBS = parse_card("2C")


class Boom(Exception):
    """What a hook raises in the ``raises`` cases."""


def _raise(*_: Any) -> Any:
    raise Boom("the plugin's own bug")


@attrs.frozen
class Unregistered(Action):
    """An action type no plugin declares (``spadeskit_action_types``)."""

    kind = "unregistered"


# --------------------------------------------------------------------------------------
# The well-behaved plugins: each implements the hook and answers rightly
# --------------------------------------------------------------------------------------


def _keep_all(hand: Any, seat: int, allowed: int) -> int:
    return allowed


def _good(hook: str, name: str) -> Callable[..., Any]:
    """Return a well-behaved implementation of ``hook`` for the plugin ``name``."""
    if hook == "spadeskit_play_filters":
        return lambda: [PlayFilter(f"{name}-any-card", _keep_all)]
    if hook == "spadeskit_score_hand":
        return lambda: [ScoreLine(0, 0, f"{name}: nothing", kind="bonus")]
    if hook in ("spadeskit_action_types", "spadeskit_contract_steps", "spadeskit_paper_bids"):
        return lambda: []
    return lambda: None  # a first-result hook: leave it to another plugin


def _module(name: str, hooks: dict[str, Callable[..., Any]]) -> types.ModuleType:
    module = types.ModuleType(name.replace("-", "_"))
    module.PLUGIN = PluginInfo(  # type: ignore[attr-defined]
        name=name, kind="house-rule", summary=f"{name}: a plugin of the fault matrix."
    )
    for hook, function in hooks.items():
        if getattr(function, "spadeskit_impl", None) is None:
            function = hookimpl(function)
        setattr(module, hook, function)
    return module


@attrs.frozen
class Fault:
    """One wrong answer: the hook, what is wrong, the faulty plugin's implementations,
    and the paths that reach the hook (``load``, ``step``, ``rollout``, ``simulate``,
    ``view``, ``sheet``, ``deal``, ``claim``)."""

    hook: str
    kind: str
    impls: dict[str, Callable[..., Any]]
    paths: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.hook.removeprefix('spadeskit_')}-{self.kind}"

    def rules(self) -> spadeskit.Rules:
        good = {self.hook: None}
        a = _module("good-a", {h: _good(h, "good-a") for h in good})
        b = _module("good-b", {h: _good(h, "good-b") for h in good})
        return spadeskit.load_rules("standard", [a, _module(FAULTY, self.impls), b])


# --------------------------------------------------------------------------------------
# Driving a game to the hook, checking every state on the way
# --------------------------------------------------------------------------------------


class Corrupt(AssertionError):
    """A fault was accepted and lost, doubled or leaked a card."""


class Changed(AssertionError):
    """A refused action changed the state it was applied to."""


def _snapshot(game: GameState) -> tuple[Any, ...]:
    return tuple(
        getattr(game, f.name) for f in attrs.fields(type(game)) if not f.name.startswith("_")
    )


def _conserved(game: GameState) -> None:
    """Raise Corrupt unless every card of the deck is in exactly one place."""
    if game.match.end is not None:
        return
    places = [*game.hands, *game.won, game.blind, *(1 << c for _, c in game.trick)]
    places += [1 << c for c in game.pile]
    seen = 0
    count = 0
    for mask in places:
        if type(mask) is not int:
            raise Corrupt(f"a place holds {mask!r}, not a card mask")
        seen |= mask
        count += mask.bit_count()
    deck = sum(1 << i for i in game.rules.table.indices)
    if seen != deck or count != len(game.rules.table.indices):
        raise Corrupt(f"the cards are not each in one place ({count} cards placed)")


def _no_leak(game: GameState, seat: int) -> None:
    """Raise Corrupt if seat's view shows a card it does not hold or a seat it is not."""
    view = game.view(seat)
    held = {card_at(i) for i in range(game.rules.table.size) if game.hands[seat] >> i & 1}
    if view.seat != seat or not set(view.cards) <= held:
        raise Corrupt(f"the view of seat {seat} shows cards it does not hold")
    for action in view.legal_actions:
        cards = set(getattr(action, "cards", ())) | {getattr(action, "card", None)} - {None}
        if not cards <= held:
            raise Corrupt(f"the view of seat {seat} offers {action}, a card it does not hold")


def _step(rules: spadeskit.Rules, views: bool, hands: int = 2) -> None:
    """Play with the step API (random legal actions) until ``hands`` hands are over,
    checking each state; a refused action must leave its state unchanged."""
    rng = random.Random(5)
    game = rules.new_game(seed=11)
    for _ in range(80 * hands):
        if game.match.end is not None or game.number >= hands:
            return
        _conserved(game)
        if views:
            for seat in range(rules.table.players):
                _no_leak(game, seat)
        legal = game.legal_actions()
        # Bid 3 where one may, so that no side falls to the mercy rule's -200 at once.
        action = Bid(3) if Bid(3) in legal else rng.choice(legal)
        before = _snapshot(game)
        try:
            after = game.apply(action)
        except BaseException:
            if _snapshot(game) != before:
                raise Changed("a refused action changed the state") from None
            raise
        game = after
    raise AssertionError("the game did not move on")


def _rollout(rules: spadeskit.Rules) -> None:
    start = rules.new_game(seed=12)
    before = _snapshot(start)
    try:
        start.rollout(seed=3)
    finally:
        if _snapshot(start) != before:
            raise Changed("a rollout changed the state it started from")


def _simulate(rules: spadeskit.Rules) -> None:
    list(rules.simulate(2, seed=4))


def _sheet(rules: spadeskit.Rules) -> None:
    sheet = rules.score_sheet(dealer=0)
    sheet.add_hand([3, 4, 3, 3], [3, 4, 3, 3])


DEAL = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"]
DEAL += ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]


def _deal(rules: spadeskit.Rules) -> None:
    rules.new_game(deal=DEAL)


def _claim(rules: spadeskit.Rules) -> None:
    """Take the faulty plugin's out-of-turn action (see cards) as seat 1."""
    game = rules.new_game(seed=13)
    _conserved(game)
    before = _snapshot(game)
    try:
        after = game.apply(SeeCards(), 1)
    except BaseException:
        if _snapshot(game) != before:
            raise Changed("a refused action changed the state") from None
        raise
    _conserved(after)
    for seat in range(rules.table.players):
        _no_leak(after, seat)
    _step(rules, views=True, hands=1)


PATHS: dict[str, Callable[[spadeskit.Rules], None]] = {
    "step": lambda rules: _step(rules, views=False),
    "view": lambda rules: _step(rules, views=True, hands=1),
    "rollout": _rollout,
    "simulate": _simulate,
    "sheet": _sheet,
    "deal": _deal,
    "claim": _claim,
}


def outcome(fault: Fault) -> tuple[str, str]:
    """Return ``(verdict, detail)`` for ``fault`` on every path that reaches its hook."""
    hook_named = fault.hook
    named = (f"plugin '{FAULTY}'", f"wrapper '{FAULTY}'")
    try:
        rules = fault.rules()
    except SpadesError as exc:
        if "load" not in fault.paths:
            return "unnamed", f"refused at load, unexpectedly: {exc}"
        text = f"{type(exc).__name__}: {exc}"
        ok = isinstance(exc, PluginError) and hook_named in text and any(n in text for n in named)
        return ("named" if ok else "unnamed"), text
    except Exception as exc:
        return "raw", f"{type(exc).__name__}: {exc}"
    if "load" in fault.paths:
        return "accepted", "loaded"
    for path in fault.paths:
        try:
            PATHS[path](rules)
        except Corrupt as exc:
            return "corrupt", f"{path}: {exc}"
        except Changed as exc:
            return "changed", f"{path}: {exc}"
        except SpadesError as exc:
            text = str(exc)
            if not (
                isinstance(exc, PluginError)
                and hook_named in text
                and any(n in text for n in named)
            ):
                return "unnamed", f"{path}: {type(exc).__name__}: {text}"
            continue
        except Exception as exc:
            return "raw", f"{path}: {type(exc).__name__}: {exc}"
        return "accepted", f"{path}: nothing raised"
    return "named", ""


# --------------------------------------------------------------------------------------
# The faults, hook by hook
# --------------------------------------------------------------------------------------

PLAY_PATHS = ("step", "rollout", "simulate")
FAULTS: list[Fault] = []


def fault(hook: str, paths: tuple[str, ...], **kinds: Callable[..., Any]) -> None:
    """Add one Fault per keyword: its kind and the faulty implementation of ``hook``."""
    for kind, impl in kinds.items():
        FAULTS.append(Fault(hook, kind.replace("_", "-"), {hook: impl}, paths))


def _standard_table() -> spadeskit.plugin.TableSpec:
    return spadeskit.load_rules("standard").table


fault(
    "spadeskit_table",
    ("load",),
    a_string=lambda: "four seats",
    an_int=lambda: 4,
    a_dict=lambda: {"players": 4},
    a_deal_plan=lambda: DealPlan(13),
    raises=_raise,
    hands_too_big=lambda: attrs.evolve(_standard_table(), deal=DealPlan(14)),
    a_seat_past_the_table=lambda: attrs.evolve(_standard_table(), sides=((0, 2), (1, 5))),
    seat_names_short=lambda: attrs.evolve(_standard_table(), seat_names=("N", "E")),
    empty_deck=lambda: attrs.evolve(_standard_table(), deck=()),
)


@attrs.frozen
class Claim(Action):
    kind = "bid"  # a built-in kind


@attrs.frozen
class BadField(Action):
    kind = "bad-field"
    where: dict[str, int] = attrs.field(factory=dict)


fault(
    "spadeskit_action_types",
    ("load",),
    a_string=lambda: "blind-bid",
    an_int=lambda: 4,
    an_action_not_a_type=lambda: [Bid(4)],
    not_an_action_type=lambda: [int],
    a_built_in_kind=lambda: [Claim],
    a_field_records_cannot_hold=lambda: [BadField],
    raises=_raise,
)


def _ranks(answer: Any) -> Callable[..., Any]:
    return lambda card: answer if card == TWO_CLUBS else None


fault(
    "spadeskit_card_rank",
    ("load",),
    an_int=_ranks(5),
    a_string=_ranks("clubs"),
    a_tuple=_ranks((Suit.CLUBS, 3)),
    a_card=_ranks(TWO_CLUBS),
    suit_past_the_suits=_ranks(CardRank(7, 3)),  # type: ignore[arg-type]
    suit_a_string=_ranks(CardRank("C", 3)),  # type: ignore[arg-type]
    strength_a_float=_ranks(CardRank(Suit.CLUBS, 1.5)),  # type: ignore[arg-type]
    strength_a_string=_ranks(CardRank(Suit.CLUBS, "2")),  # type: ignore[arg-type]
    strength_a_bool=_ranks(CardRank(Suit.CLUBS, True)),
    strength_negative=_ranks(CardRank(Suit.CLUBS, -1)),
    raises=lambda card: _raise() if card == TWO_CLUBS else None,
)

fault(
    "spadeskit_card_points",
    ("load",),
    a_float=lambda card: 1.5,
    a_string=lambda card: "10" if card == AS else None,
    a_bool=lambda card: True if card == AS else None,
    a_card=lambda card: card,
    a_list=lambda card: [1],
    raises=lambda card: _raise() if card == AS else None,
)


def _strength(answer: Any) -> Callable[..., Any]:
    return lambda card: answer if card == AS else None


fault(
    "spadeskit_trick_strength",
    PLAY_PATHS,
    negative=_strength(-1),
    a_float=_strength(14.0),
    a_string=_strength("14"),
    a_bool=_strength(True),
    a_card=_strength(AS),
    a_card_rank=_strength(CardRank(Suit.SPADES, 14)),
    raises=lambda card: _raise() if card == AS else None,
)

fault(
    "spadeskit_trick_winner",
    PLAY_PATHS,
    a_seat_past_the_table=lambda: 7,
    negative=lambda: -1,
    a_string=lambda: "0",
    a_float=lambda: 0.0,
    a_bool=lambda: True,
    a_card=lambda plays: plays[0][1],
    a_one_tuple=lambda plays: (plays[0][0],),
    raises=_raise,
)


def _filter(check: Callable[[Any, int, int], Any], enforced: bool = True) -> Callable[..., Any]:
    return lambda: [PlayFilter("broken-filter", check, enforced=enforced)]


_ALL_CARDS = (1 << 52) - 1

fault(
    "spadeskit_play_filters",
    ("load",),
    an_int=lambda: 5,
    a_string=lambda: "follow suit",
    a_function=lambda: [_keep_all],
    raises=_raise,
)
fault(
    "spadeskit_play_filters",
    PLAY_PATHS,
    check_none=_filter(lambda hand, seat, allowed: None),
    check_negative=_filter(lambda hand, seat, allowed: -1),
    check_a_float=_filter(lambda hand, seat, allowed: float(allowed)),
    check_a_string=_filter(lambda hand, seat, allowed: "AS"),
    check_a_bool=_filter(lambda hand, seat, allowed: True),
    check_cards_not_held=_filter(lambda hand, seat, allowed: _ALL_CARDS),
    check_no_card=_filter(lambda hand, seat, allowed: 0),
    check_a_list_of_cards=_filter(lambda hand, seat, allowed: [AS]),
    check_raises=_filter(_raise),
    advisory_check_none=_filter(lambda hand, seat, allowed: None, enforced=False),
    advisory_check_cards_not_held=_filter(lambda hand, seat, allowed: _ALL_CARDS, enforced=False),
    advisory_check_raises=_filter(_raise, enforced=False),
)

fault(
    "spadeskit_misdeal_allowed",
    ("deal",),
    a_string=lambda: "yes",
    an_int=lambda: 1,
    a_list=lambda: [True],
    raises=_raise,
)


def _after_first_bid(answer: Any) -> Callable[..., Any]:
    """Answer ``answer`` once the auction has begun (so there is a state to refuse on)."""
    return lambda game: answer if game.auction else None


fault(
    "spadeskit_auction_next",
    PLAY_PATHS,
    a_seat_past_the_table=_after_first_bid(4),
    negative=_after_first_bid(-1),
    a_string=_after_first_bid("1"),
    a_float=_after_first_bid(1.0),
    a_bool=_after_first_bid(True),
    a_card=_after_first_bid(AS),
    a_list=_after_first_bid([1]),
    raises=lambda game: _raise() if game.auction else None,
    contract_leader_past_the_table=_after_first_bid(Contract(9)),
    contract_leader_a_string=_after_first_bid(Contract("N")),  # type: ignore[arg-type]
    contract_declarer_past_the_table=_after_first_bid(Contract(0, declarer=7)),
    contract_trump_an_int=_after_first_bid(Contract(0, trump=3)),  # type: ignore[arg-type]
    contract_blind_to_nobody=_after_first_bid(Contract(0, blind_to="nobody")),  # type: ignore[arg-type]
    contract_steps_not_steps=_after_first_bid(Contract(0, steps=("discard",))),  # type: ignore[arg-type]
    contract_step_seat_past=_after_first_bid(Contract(0, steps=(Step(9, "discard", 1),))),
)

fault(
    "spadeskit_contract_steps",
    PLAY_PATHS,
    an_int=lambda: 5,
    a_string=lambda: "discard",
    a_step_of_a_seat_past_the_table=lambda: [Step(9, "discard", 1)],
    a_receiver_past_the_table=lambda: [Step(0, "exchange", 1, to=9)],
    a_negative_count=lambda: [Step(0, "discard", -1)],
    a_float_count=lambda: [Step(0, "discard", 1.0)],  # type: ignore[arg-type]
    more_cards_than_held=lambda: [Step(0, "discard", 20)],
    a_kind_not_a_step=lambda: [Step(0, "steal", 1)],  # type: ignore[arg-type]
    already_chosen=lambda: [Step(0, "discard", 1, chosen=Discard(["2C"]))],
    raises=_raise,
)


def _second_turn(answer: Any) -> Callable[..., Any]:
    return lambda game: answer if game.auction else None


fault(
    "spadeskit_auction_actions",
    PLAY_PATHS,
    a_card_played=_second_turn((Play("AS"),)),
    a_card_discarded=_second_turn((Bid(3), Discard(["AS"]))),
    a_card_passed=_second_turn((Bid(3), Exchange(["AS"]))),
    a_string=_second_turn("bid 4"),
    an_int=_second_turn(4),
    strings_not_actions=_second_turn(["4", "nil"]),
    none_in_the_list=_second_turn((Bid(3), None)),
    nothing_at_all=_second_turn(()),
    an_unregistered_action=_second_turn((Bid(3), Unregistered())),
    raises=lambda game: _raise() if game.auction else None,
)

fault(
    "spadeskit_paper_bids",
    ("sheet",),
    an_int=lambda: 4,
    strings_not_bids=lambda: ["5"],
    none_in_the_list=lambda: [None],
    a_card=lambda: [Play("AS")],
    an_unregistered_action=lambda: [Unregistered()],
    raises=_raise,
)

fault(
    "spadeskit_first_leader",
    PLAY_PATHS,
    a_seat_past_the_table=lambda: 4,
    negative=lambda: -1,
    a_string=lambda: "0",
    a_float=lambda: 1.0,
    a_bool=lambda: True,
    a_card=lambda: AS,
    a_list=lambda: [0],
    raises=_raise,
)


def _after_trick(change: Callable[[HandState, Trick], Any]) -> Callable[..., Any]:
    def spadeskit_after_trick(hand: HandState, trick: Trick) -> Any:
        return change(hand, trick)

    return spadeskit_after_trick


def _card_back(hand: HandState, trick: Trick) -> HandState:
    hands = list(hand.hands)
    hands[trick.winner] |= 1 << trick.plays[0][1]
    return evolve_hand(hand, hands=tuple(hands))


def _card_added_to_won(hand: HandState, trick: Trick) -> HandState:
    held = next(h for h in hand.hands if h)
    won = list(hand.won)
    won[trick.winner] |= held & -held
    return evolve_hand(hand, won=tuple(won))


fault(
    "spadeskit_after_trick",
    PLAY_PATHS,
    a_string=_after_trick(lambda hand, trick: "next"),
    an_int=_after_trick(lambda hand, trick: 1),
    the_match=_after_trick(lambda hand, trick: hand.match),
    raises=_after_trick(_raise),
    gives_a_card_back=_after_trick(_card_back),
    adds_a_card_to_the_winners_trick=_after_trick(_card_added_to_won),
    to_act_past_the_table=_after_trick(lambda hand, trick: evolve_hand(hand, to_act=9)),
    to_act_a_string=_after_trick(lambda hand, trick: evolve_hand(hand, to_act="N")),
    leader_past_the_table=_after_trick(lambda hand, trick: evolve_hand(hand, leader=-1)),
    books_of_the_wrong_length=_after_trick(
        lambda hand, trick: evolve_hand(hand, books=hand.books[:2])
    ),
    books_negative=_after_trick(
        lambda hand, trick: evolve_hand(hand, books=(-1,) + hand.books[1:])
    ),
    books_strings=_after_trick(
        lambda hand, trick: evolve_hand(hand, books=tuple(str(b) for b in hand.books))
    ),
    plugin_data_not_a_map=_after_trick(lambda hand, trick: evolve_hand(hand, extra=5)),
    the_phase_changed=_after_trick(lambda hand, trick: evolve_hand(hand, phase=Phase.OVER)),
)

fault(
    "spadeskit_before_scoring",
    PLAY_PATHS,
    a_seat_past_the_table=lambda: 4,
    negative=lambda: -1,
    a_string=lambda: "0",
    a_float=lambda: 0.0,
    a_bool=lambda: True,
    a_card=lambda: AS,
    raises=_raise,
)


def _offers(answer: Any) -> Callable[..., Any]:
    return lambda game, seat: answer if game.auction and seat is not None else None


fault(
    "spadeskit_out_of_turn_actions",
    ("view", "step"),
    an_int=_offers(5),
    a_string=_offers("claim"),
    none_in_the_list=_offers([None]),
    strings_not_actions=_offers(["renege"]),
    a_card_played=_offers([Play("AS")]),
    a_card_discarded=_offers([Discard(["AS"])]),
    an_unregistered_action=_offers([Unregistered()]),
    raises=lambda game, seat: _raise() if game.auction else None,
)


@hookimpl
@acts_in(Phase.AUCTION)
def _offer_see_cards(game: GameState, seat: int | None) -> Any:
    return (SeeCards(),) if seat == 1 and not game.auction else None


def _applies(change: Callable[[GameState], Any]) -> dict[str, Callable[..., Any]]:
    def spadeskit_apply_out_of_turn(game: GameState, seat: int | None, action: Action) -> Any:
        return change(game) if isinstance(action, SeeCards) else None

    return {
        "spadeskit_out_of_turn_actions": _offer_see_cards,
        "spadeskit_apply_out_of_turn": spadeskit_apply_out_of_turn,
    }


def _doubles_a_card(game: GameState) -> GameState:
    hands = list(game.hands)
    hands[1] |= hands[0] & -hands[0]
    return with_hand(game, evolve_hand(game.hand, hands=tuple(hands)))


def _drops_a_card(game: GameState) -> GameState:
    hands = list(game.hands)
    hands[2] &= hands[2] - 1
    return with_hand(game, evolve_hand(game.hand, hands=tuple(hands)))


for _kind, _change in {
    "a-string": lambda game: "seen",
    "an-int": lambda game: 1,
    "the-match": lambda game: game.match,
    "nothing": lambda game: None,
    "raises": _raise,
    "doubles-a-card": _doubles_a_card,
    "drops-a-card": _drops_a_card,
    "to-act-past-the-table": lambda game: evolve_hand(game, to_act=7),
    "another-games-state": lambda game: game.rules.new_game(seed=99),
}.items():
    FAULTS.append(Fault("spadeskit_apply_out_of_turn", _kind, _applies(_change), ("claim",)))


def _line(**fields: Any) -> Callable[..., Any]:
    line = {"side": 0, "points": 10, "text": "a bonus", "kind": "bonus", **fields}
    return lambda: [ScoreLine(**line)]


fault(
    "spadeskit_score_hand",
    PLAY_PATHS,
    an_int=lambda: 5,
    a_string=lambda: "N/S +10",
    none_in_the_list=lambda: [None],
    a_dict=lambda: [{"side": 0, "points": 10}],
    a_tuple=lambda: [(0, 10, "a bonus")],
    points_a_string=_line(points="10"),
    points_a_float=_line(points=10.0),
    points_a_bool=_line(points=True),
    side_past_the_table=_line(side=2),
    side_negative=_line(side=-1),
    bags_a_string=_line(bags="1"),
    kind_unknown=_line(kind="prize"),
    raises=_raise,
)


def _end(answer: Any) -> Callable[..., Any]:
    return lambda: answer


fault(
    "spadeskit_match_end",
    ("step", "rollout"),
    a_string=_end("N/S win"),
    an_int=_end(0),
    winner_past_the_sides=_end(MatchEnd(5, "a bonus")),
    winner_negative=_end(MatchEnd(-1, "a bonus")),
    winner_a_string=_end(MatchEnd("N/S", "a bonus")),  # type: ignore[arg-type]
    winner_a_bool=_end(MatchEnd(True, "a bonus")),
    reason_not_text=_end(MatchEnd(0, 5)),  # type: ignore[arg-type]
    raises=_raise,
)

fault(
    "spadeskit_next_dealer",
    ("step", "rollout"),
    a_seat_past_the_table=lambda: 4,
    negative=lambda: -1,
    a_string=lambda: "1",
    a_float=lambda: 1.0,
    a_bool=lambda: True,
    a_card=lambda: AS,
    raises=_raise,
)


def _viewed(change: Callable[[View, GameState, int | None], Any]) -> Callable[..., Any]:
    def spadeskit_view(view: View, game: GameState, seat: int | None) -> Any:
        return change(view, game, seat)

    return spadeskit_view


def _neighbours_cards(view: View, game: GameState, seat: int | None) -> View:
    if seat is None:
        return view
    return attrs.evolve(view, cards=view.cards + game.cards((seat + 1) % 4))


def _neighbours_play(view: View, game: GameState, seat: int | None) -> View:
    if seat is None or not game.hands[(seat + 1) % 4]:
        return view
    card = game.cards((seat + 1) % 4)[0]
    return attrs.evolve(view, legal_actions=view.legal_actions + (Play(card),))


def _another_seat(view: View, game: GameState, seat: int | None) -> View:
    if seat is None:
        return view
    other = (seat + 1) % 4
    return attrs.evolve(view, seat=other, cards=game.cards(other))


fault(
    "spadeskit_view",
    ("view",),
    a_string=_viewed(lambda view, game, seat: "hidden"),
    a_dict=_viewed(lambda view, game, seat: {"seat": seat}),
    raises=_viewed(_raise),
    shows_a_neighbours_cards=_viewed(_neighbours_cards),
    offers_a_neighbours_card=_viewed(_neighbours_play),
    another_seats_view=_viewed(_another_seat),
)


# Wrappers (``wrapper=True``) that get the shapes wrong: a collected hook's wrapper gets
# one list per plugin and returns that shape.


def _wrapper(hook: str, body: Callable[[Any], Any]) -> dict[str, Callable[..., Any]]:
    def wrap() -> Generator[None, Any, Any]:
        groups = yield
        return body(groups)

    return {hook: hookimpl(wrapper=True)(wrap)}


def _flattened(groups: Any) -> Any:
    return [item for group in groups or () for item in group or ()]


def _no_yield() -> Generator[None, Any, Any]:
    if False:  # pragma: no cover - a generator that never yields
        yield
    return None


SCORE, FILTERS = "spadeskit_score_hand", "spadeskit_play_filters"
FAULTS += [
    Fault(SCORE, "wrapper-flattens", _wrapper(SCORE, _flattened), PLAY_PATHS),
    Fault(SCORE, "wrapper-answers-an-int", _wrapper(SCORE, lambda groups: 3), PLAY_PATHS),
    Fault(FILTERS, "wrapper-flattens", _wrapper(FILTERS, _flattened), ("load",)),
    Fault(
        "spadeskit_auction_actions",
        "wrapper-answers-a-string",
        _wrapper("spadeskit_auction_actions", lambda actions: "pass"),
        PLAY_PATHS,
    ),
    Fault(
        "spadeskit_view",
        "wrapper-answers-a-string",
        _wrapper("spadeskit_view", lambda view: "view"),
        ("view",),
    ),
    Fault(
        "spadeskit_next_dealer",
        "wrapper-never-yields",
        {"spadeskit_next_dealer": hookimpl(wrapper=True)(_no_yield)},
        ("step",),
    ),
]


def _ids() -> Iterator[str]:
    return (f.id for f in FAULTS)


def test_every_hook_is_driven_with_many_faults() -> None:
    assert {f.hook for f in FAULTS} == set(HOOKS)
    assert len(FAULTS) > 130
    assert len(set(_ids())) == len(FAULTS)


@pytest.mark.parametrize("fault", FAULTS, ids=list(_ids()))
def test_a_faulty_plugin_is_named_with_its_hook(fault: Fault) -> None:
    verdict, detail = outcome(fault)
    assert verdict == "named", detail


def main() -> None:  # pragma: no cover - the matrix's counts, for people
    table: dict[str, Counter[str]] = {}
    for f in FAULTS:
        verdict, detail = outcome(f)
        table.setdefault(f.hook, Counter())[verdict] += 1
        if verdict != "named":
            print(f"{f.id}: {verdict}: {detail[:160]}")
    kinds = ("named", "raw", "unnamed", "changed", "corrupt", "accepted")
    print(f"{'hook':32} {'faults':>6} " + " ".join(f"{k:>8}" for k in kinds))
    total: Counter[str] = Counter()
    for hook in HOOKS:
        counts = table.get(hook, Counter())
        total.update(counts)
        print(f"{hook:32} {sum(counts.values()):6} " + " ".join(f"{counts[k]:8}" for k in kinds))
    print(f"{'all':32} {sum(total.values()):6} " + " ".join(f"{total[k]:8}" for k in kinds))


if __name__ == "__main__":  # pragma: no cover
    main()
