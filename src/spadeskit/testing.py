"""Rule-consistency checks for any variant or house rule.

:func:`check_state` asserts the invariants every game of every variant keeps;
:func:`play_random_match` plays a seeded random match and checks them at every step.
The core's own tests run these on every shipped variant; a plugin author runs them on
theirs::

    from spadeskit.testing import play_random_match
    rules = spadeskit.load_rules("standard", ["my-house-rule"])
    for seed in range(50):
        play_random_match(rules, seed)

A broken invariant raises :class:`InvariantError` naming the rules, the invariant and a
record of the game up to that point, which :func:`spadeskit.replay` rebuilds.
"""

from __future__ import annotations

import json
import random

from .actions import Accept, Action, Bid, Nil, Pass, PickUp, Play
from .cards import card_at, mask_of
from .errors import SpadesError
from .rules import Rules
from .state import GameState
from .views import replay

__all__ = ["InvariantError", "check_moves", "check_state", "check_views", "play_random_match"]

_PROBES: tuple[Action, ...] = (
    tuple(Play(i) for i in range(54)) + tuple(Bid(n) for n in range(28)) + (Nil(), Pass(), PickUp(), Accept())
)


class InvariantError(AssertionError):
    """A rule invariant does not hold; the message carries a replayable record."""


def _fail(game: GameState, what: str) -> InvariantError:
    record = json.dumps(game.to_record())
    return InvariantError(f"{game.rules.name}: {what}\nrecord: {record}")


def check_state(game: GameState) -> None:
    """Assert the invariants of one state: cards, tricks, turns and scores."""
    rules, hand = game.rules, game.hand
    deck = rules.ranking.deck_mask
    pile = 0
    for card in hand.pile:
        pile |= 1 << card
    parts = list(hand.hands) + [hand.played, hand.blind, pile]
    won = 0
    for mask in hand.won:
        won |= mask
    parts.append(won & ~hand.played)
    union = 0
    for mask in parts:
        union |= mask
    if union != deck or sum(m.bit_count() for m in parts) != deck.bit_count():
        raise _fail(game, "cards are not conserved: every card must be in exactly one place")
    n = rules.table.players
    trump = hand.contract.trump if hand.contract else "spades"
    for number, trick in enumerate(hand.tricks):
        seats = [s for s, _ in trick.plays]
        if len(seats) != n or seats[0] != trick.leader or seats != [(trick.leader + i) % n for i in range(n)]:
            raise _fail(game, f"trick {number + 1} is not one card from each seat clockwise from its leader")
        if trick.winner != rules.trick_winner(trick.plays, trump):
            raise _fail(game, f"trick {number + 1} has the wrong winner")
    if sum(hand.books) != len(hand.tricks):
        raise _fail(game, "books do not add up to the tricks played")
    if any(hand.books[s] != sum(t.winner == s for t in hand.tricks) for s in range(n)):
        raise _fail(game, "books do not match the trick winners")
    legal = game.legal_actions()
    if game.is_over != (not legal) or game.is_over != (game.to_act is None):
        raise _fail(game, "legal actions must be non-empty exactly until the match ends")
    for side in range(len(rules.table.sides)):
        if game.scores[side] != sum(r.points[side] for r in game.hand_results):
            raise _fail(game, f"side {side}'s score is not the sum of its hands")
        for result in game.hand_results:
            if result.points[side] != sum(line.points for line in result.lines_for(side)):
                raise _fail(game, f"hand {result.number + 1}: points are not the sum of the score lines")


def check_views(game: GameState) -> None:
    """Assert that no seat's view (or its JSON) shows another seat's unplayed cards."""
    hand = game.hand
    n = game.rules.table.players
    hidden_everywhere = hand.blind
    for card in hand.pile:
        hidden_everywhere |= 1 << card
    for viewer in list(range(n)) + [None]:
        view = game.view(viewer)
        own = hand.hands[viewer] if viewer is not None else 0
        if mask_of(view.cards) & ~own:
            raise _fail(game, f"the view of seat {viewer} shows cards the seat does not hold")
        text = json.dumps(view.to_json())
        secret = hidden_everywhere
        for seat in range(n):
            if seat != viewer:
                secret |= hand.hands[seat]
        secret &= ~own
        for index in range(54):
            if secret >> index & 1:
                code = json.dumps(card_at(index).code)
                if code in text:
                    raise _fail(game, f"the view of seat {viewer} leaks {code}")


def check_moves(game: GameState, rng: random.Random, probes: int = 6) -> None:
    """Assert that every legal action applies and that illegal ones raise, changing nothing."""
    snapshot = (game.hand, game.match)
    legal = game.legal_actions()
    for action in legal:
        if not isinstance(game.apply(action), GameState):
            raise _fail(game, f"legal action {action} did not give a state")
    illegal = [a for a in _PROBES if a not in legal]
    for action in rng.sample(illegal, min(probes, len(illegal))):
        try:
            game.apply(action)
        except SpadesError:
            pass
        else:
            raise _fail(game, f"{action} is not listed as legal but was accepted")
        if (game.hand, game.match) != snapshot:
            raise _fail(game, f"refusing {action} changed the state")
    if game.to_act is not None:
        other = (game.to_act + 1) % game.rules.table.players
        for action in legal[:2]:
            if action not in game.legal_actions(other):
                try:
                    game.apply(action, other)
                except SpadesError:
                    continue
                raise _fail(game, f"{action} was accepted out of turn")


def play_random_match(
    rules: Rules,
    seed: int,
    *,
    max_actions: int = 20_000,
    check_every: int = 1,
    deep_every: int = 7,
) -> GameState:
    """Play a seeded random match, checking invariants; return the final state.

    Every ``check_every`` steps the state invariants are checked; every ``deep_every``
    steps also the views and every legal and some illegal actions.  At the end, replaying
    the record must give an equal state.
    """
    rng = random.Random(seed)
    game = rules.new_game(seed=seed)
    steps = 0
    while not game.is_over:
        if steps % check_every == 0:
            check_state(game)
        if steps % deep_every == 0:
            check_views(game)
            check_moves(game, rng)
        legal = game.legal_actions()
        game = game.apply(rng.choice(legal))
        steps += 1
        if steps > max_actions:
            raise _fail(game, f"the match did not end within {max_actions} actions")
    check_state(game)
    check_views(game)
    if replay(game.to_record()) != game:
        raise _fail(game, "replaying the record does not give an equal state")
    return game

