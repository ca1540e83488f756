"""The events of the hand in progress, told from a state as one seat may know them.

:func:`hand_events` reads a state's log and tells each action as an
:class:`~spadeskit.core.events.Event` (the values themselves live in
:mod:`spadeskit.core.events`); :func:`final_events` tells the action that ended a hand,
which no view shows.
"""

from __future__ import annotations

from typing import Any

from spadeskit.core.actions import Action, Discard, Exchange, Play
from spadeskit.core.cards import CARD_OF
from spadeskit.core.events import (
    BIDS,
    BidMade,
    CardsDiscarded,
    CardsDrawn,
    CardsPassed,
    Event,
    OutOfTurn,
    bid_text,
    card_played,
    cards_text,
    out_of_turn_text,
    seat_label,
    trick_won,
)
from spadeskit.core.phase import REFEREE
from spadeskit.core.results import HandResult
from spadeskit.core.seating import Step
from spadeskit.core.state import GameState

__all__ = ["final_events", "hand_events", "hand_steps", "last_trick"]


# Events per (log node, seat): a log is a linked list whose earlier links every later
# state shares, so each state's events are its parent's plus those of one action.  The
# node is kept alive beside its events (so an id is never reused while it is a key).
# events, cards played, cards drawn, steps taken, and the choices of a simultaneous group
# not complete yet (told once the group is: what its seats chose stays secret till then).
_Progress = tuple[tuple[Event, ...], int, int, int, tuple[tuple[int, Action], ...]]
_CACHE: dict[tuple[int, int | None], tuple[Any, _Progress]] = {}
_START: _Progress = ((), 0, 0, 0, ())


def hand_events(game: GameState, seat: int | None) -> tuple[Event, ...]:
    """Return the events of the hand in progress as ``seat`` may know them (``None``: a
    spectator), bids shown as they stand in the state (the view hides sealed ones)."""
    pending = []
    node = game._log
    progress = _START
    while node is not None:
        hit = _CACHE.get((id(node), seat))
        if hit is not None and hit[0] is node:
            progress = hit[1]
            break
        pending.append(node)
        node = node[0]
    if len(_CACHE) > 20_000:
        _CACHE.clear()
    for node in reversed(pending):
        progress = _advance(game, seat, progress, node[1])
        _CACHE[(id(node), seat)] = (node, progress)
    return progress[0]


def _advance(
    game: GameState, seat: int | None, progress: _Progress, entry: tuple[int | None, Action]
) -> _Progress:
    """Return ``progress`` after one logged action (the hand's tricks, contract and pile
    tell what followed it)."""
    events, plays, drawn, taken_steps, choices = progress
    table = game.rules.table
    names = table.seat_names
    n = table.players
    who, action = entry
    kind = type(action)
    new: list[Event] = []
    if kind is Play and who is not None:
        assert isinstance(action, Play)
        number = plays // n + 1
        new.append(card_played(names, who, action.card, number))
        plays += 1
        tricks = game.tricks
        if plays % n == 0 and plays // n <= len(tricks):
            done = tricks[plays // n - 1]
            new.append(trick_won(names, number, done.winner, done.plays))
            draw = table.deal.draw
            pile = game._dealt[2] if draw else ()
            for step in range(n):
                got = tuple(CARD_OF[c] for c in pile[drawn : drawn + draw])
                if not got:
                    break
                drawn += len(got)
                taker = (done.winner + step) % n
                shown = got if taker == seat else None
                new.append(
                    CardsDrawn(
                        taker,
                        len(got),
                        shown,
                        text=f"{names[taker]} draws {cards_text(shown, len(got))}",
                    )
                )
    elif (
        (kind is Discard or kind is Exchange)
        and who is not None
        and taken_steps < len(steps := hand_steps(game))
    ):
        size = 1
        if steps[taken_steps].simultaneous:
            while taken_steps + size < len(steps) and steps[taken_steps + size].simultaneous:
                size += 1
        choices += ((who, action),)
        if len(choices) == size:  # the group is complete: its cards moved
            chosen = dict(choices)
            for planned in steps[taken_steps : taken_steps + size]:
                given = chosen.get(planned.seat)
                if isinstance(given, (Discard, Exchange)):
                    new.append(_told_step(names, seat, planned.seat, planned.to, given))
            taken_steps += size
            choices = ()
    elif isinstance(action, BIDS) and who is not None:
        new.append(BidMade(who, action, text=bid_text(names[who], action)))
    else:
        seat_of = REFEREE if who is None else who
        new.append(
            OutOfTurn(
                seat_of,
                action,
                text=out_of_turn_text(seat_label(names, seat_of), action, table.side_names),
            )
        )
    return events + tuple(new), plays, drawn, taken_steps, choices


def hand_steps(game: GameState) -> tuple[Step, ...]:
    """Return every step of the hand in progress, in order: the deal's (a kitty's
    discard), then the contract's."""
    table = game.rules.table
    steps = table.deal.deal_steps(game.dealer, table.players)
    return steps + game.contract.steps if game.contract is not None else steps


def _told_step(
    names: tuple[str, ...], seat: int | None, who: int, to: int | None, action: Discard | Exchange
) -> Event:
    """Return the event of a step taken, as ``seat`` may know it: a discard's cards only
    for the seat that laid them aside, a pass's only for its two seats."""
    count = len(action.cards)
    if type(action) is Discard or to is None:
        cards = action.cards if who == seat else None
        return CardsDiscarded(
            who, count, cards, text=f"{names[who]} discards {cards_text(cards, count)}"
        )
    cards = action.cards if seat in (who, to) else None
    return CardsPassed(
        who,
        to,
        count,
        cards,
        text=f"{names[who]} passes {cards_text(cards, count)} to {names[to]}",
    )


def final_events(
    before: GameState, who: int, action: Action, result: HandResult, seat: int | None
) -> tuple[Event, ...]:
    """Return the events of the action that ended a hand, as ``seat`` may know them.

    No view shows them: once a hand ends, the next view is the next hand's.  ``before``
    is the state the action was applied to and ``result`` the hand it finished; a last
    card gives its ``CardPlayed`` and the last trick's ``TrickWon``.
    """
    names = before.rules.table.seat_names
    if isinstance(action, Play) and result.last_trick_winner is not None:
        number = len(before.tricks) + 1
        return (
            card_played(names, who, action.card, number),
            trick_won(
                names, number, result.last_trick_winner, last_trick(before, who, action, result)
            ),
        )
    done = hand_events(before, seat)
    progress = _advance(before, seat, (done, 0, 0, 0, ()), (who, action))
    return progress[0][len(done) :]


def last_trick(
    before: GameState, who: int, action: Action, result: HandResult
) -> tuple[tuple[int, int], ...]:
    """Return the last trick of the hand ``action`` ended, as ``(seat, card index)``
    plays: completed by that card, or the hand's last finished trick when the hand
    ended otherwise (a review's acceptance); ``()`` for a hand with no trick (a misdeal).
    """
    if isinstance(action, Play) and result.last_trick_winner is not None:
        return (*before.trick, (who, action.card.index))
    return before.tricks[-1].plays if before.tricks else ()
