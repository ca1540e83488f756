"""Building what one seat may see: :func:`make_view`.

A :class:`~spadeskit.core.views.View` is built only from public facts (bids, played
cards, scores, counts of cards held) and the viewing seat's own cards; a plugin may hide
more through the ``spadeskit_view`` hook, checked here.
"""

from __future__ import annotations

from collections import Counter

import attrs

from spadeskit.core import _fast
from spadeskit.core.cards import CARD_OF, Card, cards_of
from spadeskit.core.errors import PluginError, shown
from spadeskit.core.events import sealed
from spadeskit.core.state import GameState, Phase
from spadeskit.core.views import View, shown_tricks
from spadeskit.engine.compiler import answered_by
from spadeskit.engine.loaded import loaded_rules
from spadeskit.engine.telling import hand_events

__all__ = ["make_view"]

_make = _fast.maker(View)
_EXCHANGE = Phase.EXCHANGE  # bound once: an enum attribute lookup on every view costs


def make_view(
    game: GameState,
    seat: int | None,
    events: bool = True,
    refused: tuple[tuple[Card, str, str], ...] = (),
) -> View:
    """Return what ``seat`` may see of ``game`` (the seat is checked by the caller).

    ``refused`` lists the cards the seat holds that a rule of play refuses now, with
    the rule's name and reason (the engine gives them: :meth:`Engine.view
    <spadeskit.engine.playing.Engine.view>`).

    ``events=False`` leaves the hand's events out (``()``): for bots inside a playout
    that read the rest of the view only, where rebuilding the events is a quarter of
    the time a decision takes."""
    rules = loaded_rules(game)
    table = rules.table
    contract = game.contract
    chosen = None
    if seat is not None and game.phase is _EXCHANGE:  # a simultaneous step, waiting
        chosen = next(
            (s.chosen for s in game.steps if s.seat == seat and s.chosen is not None), None
        )
    match = game.match
    hands = game.hands
    side = partner = None
    if seat is not None:
        side = table.side_of[seat]
        mates = [s for s in table.sides[side] if s != seat]
        partner = mates[0] if len(mates) == 1 else None
    view: View = _make(
        seat=seat,
        variant=rules.variant,
        seat_names=table.seat_names,
        side_names=table.side_names,
        hand_number=game.number,
        dealer=game.dealer,
        phase=game.phase,
        to_act=game.to_act,
        cards=cards_of(hands[seat]) if seat is not None else (),
        card_counts=tuple([m.bit_count() for m in hands]),
        bids=game.bids,
        trump=contract.trump if contract else None,
        leader=game.leader,
        trick=tuple([(s, CARD_OF[c]) for s, c in game.trick]),
        tricks=shown_tricks(game.tricks),
        books=game.books,
        blind_size=game.blind.bit_count(),
        pile_size=len(game.pile),
        scores=match.scores,
        bags=match.bags,
        hand_results=match.results,
        legal_actions=game.legal_actions(seat) if seat is not None else (),
        is_over=match.end is not None,
        winner=match.end.winner if match.end is not None else None,
        side=side,
        partner=partner,
        events=hand_events(game, seat) if events else (),
        score_unit=table.score_unit,
        house_rules=rules.house_rules,
        options=rules.options,
        refused=refused,
        chosen=chosen,
    )
    hook = rules.calls.view
    if hook is None:
        return view
    answer = hook(view, game, seat)
    if answer is None:
        return view
    problem = "not a View" if not isinstance(answer, View) else _shows_more(answer, view)
    if problem:
        raise PluginError(
            f"spadeskit_view answered {shown(answer, 60)}, {problem} "
            f"({answered_by(hook, None)}, in {rules.name!r})"
        )
    redacted: View = answer
    # A bid the hook hid is hidden in the events too.
    hidden = frozenset(
        s for s, bid in enumerate(game.bids) if bid is not None and redacted.bids[s] is None
    )
    if hidden and redacted.events is view.events:
        redacted = attrs.evolve(redacted, events=sealed(view.events, hidden, table.seat_names))
    return redacted


def _shows_more(redacted: View, view: View) -> str:
    """Return how a view ``spadeskit_view`` gave shows more than the ``view`` it was given
    (another seat's, a card or an action the seat was not shown), or ``""``.  The hook
    hides; it never shows."""
    if redacted.seat != view.seat:
        return f"the view of seat {redacted.seat}, not of seat {view.seat} (a hook only hides)"
    if redacted.cards is not view.cards:
        if Counter(redacted.cards) - Counter(view.cards):
            return "a view showing cards the seat does not hold (a hook only hides)"
    if redacted.legal_actions is not view.legal_actions:
        if any(a not in view.legal_actions for a in redacted.legal_actions):
            return "a view offering actions the seat does not have (a hook only hides)"
    if redacted.chosen is not None and redacted.chosen != view.chosen:
        return "a view showing a choice the seat did not make (a hook only hides)"
    return ""
