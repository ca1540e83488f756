"""Metamorphic checks: the same deals played again, transformed, must give the same play.

:func:`check_rotation` shifts the seats (every shift that maps sides onto sides) and
:func:`check_relabelling` swaps two non-trump suits; both compare every decision and
every hand with the untransformed match.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import attrs

from spadeskit.core.actions import Action, Discard, Exchange, Play
from spadeskit.core.cards import COPY, STANDARD_DECK, Suit, card_at, iter_mask
from spadeskit.core.errors import SpadesError
from spadeskit.core.state import GameState
from spadeskit.engine.rules import Rules
from spadeskit.testing.declarations import reading
from spadeskit.testing.invariants import fail

__all__ = ["rotations", "check_rotation", "suit_relabellings", "check_relabelling"]


def rotations(rules: Rules) -> list[tuple[int, tuple[int, ...]]]:
    """Return every seat shift that maps sides onto sides, with the side map it induces.

    At a four-seat partnership table that is shift 1 (the partnerships swap places),
    shift 2 (partners swap seats) and shift 3; at a table of players alone, every shift.
    """
    n, side_of = rules.table.players, rules.side_of
    found = []
    for shift in range(1, n):
        mapping: dict[int, int] = {}
        if all(
            mapping.setdefault(side_of[s], side_of[(s + shift) % n]) == side_of[(s + shift) % n]
            for s in range(n)
        ):
            found.append((shift, tuple(mapping[side] for side in range(len(rules.table.sides)))))
    return found


def _rotate_action(action: Action, sides: Sequence[int]) -> Action:
    if "side" in attrs.fields_dict(type(action)):
        changes: dict[str, Any] = {"side": sides[getattr(action, "side")]}
        return attrs.evolve(action, **changes)
    return action


def check_rotation(rules: Rules, seed: int, *, max_actions: int = 20_000) -> None:
    """Assert that rotating the seats rotates the result, decision by decision and hand by
    hand.

    For each seat shift that maps sides onto sides (:func:`rotations`; at a partnership
    table this swaps the partnerships and, with shift 2, the partners), the same match
    is played twice: once with the first dealer at the last seat, once with every seat
    shifted (so every deal rotates with it), each action taken by the shifted seat.  At
    every decision the shifted seat must hold the same cards and be offered the same
    actions; after every hand each side must score what the matching side scored.  A
    failure names the seat, the shift and the hand.
    """
    n = rules.table.players
    shifts = rotations(rules)
    for turn, (shift, sides) in enumerate(shifts):
        rng = random.Random(seed * len(shifts) + turn)
        game = rules.new_game(seed=seed, dealer=n - 1)
        turned = rules.new_game(seed=seed, dealer=(n - 1 + shift) % n)
        names = rules.table.seat_names
        steps = 0
        while not game.is_over:
            actor = game.to_act
            assert actor is not None
            moved = (actor + shift) % n
            where = (
                f"hand {game.hand.number + 1}, {names[actor]} (seat {actor}) against "
                f"{names[moved]} with the seats shifted by {shift}"
            )
            if game.cards(actor) != turned.cards(moved):
                raise fail(
                    game, "rotation", f"{where}: the cards differ once the seats are rotated"
                )
            legal = game.legal_actions()
            offered = turned.legal_actions(moved) if turned.to_act == moved else ()
            if [_rotate_action(a, sides) for a in legal] != list(offered):
                raise fail(
                    game,
                    "rotation",
                    f"{where}: offered {len(legal)} actions, but {len(offered)} once the seats "
                    f"are rotated ({_difference(legal, offered, sides)})",
                )
            action = rng.choice(legal)
            results = len(game.hand_results)
            game = game.apply(action)
            try:
                turned = turned.apply(_rotate_action(action, sides), moved)
            except SpadesError as exc:
                raise fail(
                    game,
                    "rotation",
                    f"{where}: {action} is refused once the seats are rotated: {exc}",
                ) from exc
            if len(game.hand_results) > results:
                mine, theirs = game.hand_results[-1], turned.hand_results[-1]
                if tuple(mine.points) != tuple(theirs.points[sides[s]] for s in range(len(sides))):
                    raise fail(
                        game,
                        "rotation",
                        f"hand {mine.number + 1} scores {mine.points}, but {theirs.points} with "
                        f"the seats shifted by {shift} (side map {sides})",
                    )
            steps += 1
            if steps > max_actions:
                raise fail(game, "end", f"the match did not end within {max_actions} actions")
        if not turned.is_over or game.winner is None or turned.winner != sides[game.winner]:
            raise fail(
                game, "rotation", f"the match ends differently with the seats shifted by {shift}"
            )


def _difference(mine: Sequence[Action], theirs: Sequence[Action], sides: Sequence[int]) -> str:
    rotated = [_rotate_action(a, sides) for a in mine]
    only_mine = [str(a) for a in mine if _rotate_action(a, sides) not in theirs]
    only_theirs = [str(a) for a in theirs if a not in rotated]
    return f"only unrotated: {', '.join(only_mine) or 'none'}; only rotated: " + (
        ", ".join(only_theirs) or "none"
    )


_OTHER_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


def suit_relabellings(rules: Rules) -> list[dict[int, int]]:
    """Return the card maps that swap two non-trump suits and keep the deck, card for card.

    A card ranked as a spade stays (Jokers-and-Deuces' 2♦); a swap that would bring in a
    card the deck lacks (the ``jokers`` house rule takes out the 2♦ and the 2♣, so only
    swapping those two suits keeps the deck) is left out.
    """
    deck = {card.index for card in rules.table.deck}
    ranking = rules.ranking
    found = []
    for a, b in itertools.combinations(_OTHER_SUITS, 2):
        swap = {a: b, b: a}
        mapping = {}
        for index in deck:
            card = card_at(index)
            suit = card.suit
            if suit in swap and ranking.suit_of[index] == suit:
                target = next(
                    (c for c in STANDARD_DECK if c.suit is swap[suit] and c.rank == card.rank)
                )
                mapping[index] = target.index
            else:
                mapping[index] = index
        if set(mapping.values()) == deck and all(
            ranking.suit_of[mapping[i]] == swap.get(Suit(ranking.suit_of[i]), ranking.suit_of[i])
            for i in deck
        ):
            found.append(mapping)
    return found


def _relabel(action: Action, mapping: dict[int, int]) -> Action:
    if isinstance(action, Play):
        return Play(mapping[action.card.index])
    if isinstance(action, (Discard, Exchange)):
        return attrs.evolve(action, cards=tuple(card_at(mapping[c.index]) for c in action.cards))
    return action


def _as_dealt(game: GameState) -> tuple[list[int], int]:
    """Return the hands and the blind of ``game``'s new hand as an explicit deal gives
    them: where a kitty was picked up at the deal, its seat's cards split again into a
    hand and a blind (any split deals the same game: the kitty joins the hand at once)."""
    hands, blind = list(game.hands), game.blind
    plan = game.rules.table.deal
    seat = plan.kitty_seat(game.dealer, game.rules.table.players)
    if seat is not None and not game.log:
        for _ in range(plan.blind):
            top = 1 << (hands[seat].bit_length() - 1)
            hands[seat] ^= top
            blind |= top
    return hands, blind


def check_relabelling(rules: Rules, seed: int) -> None:
    """Assert that swapping two non-trump suits in a deal swaps them in play, and nothing else.

    The seeded first deal is played twice, once as dealt and once with the suits swapped
    (for each swap :func:`suit_relabellings` finds), the second game taking the same
    actions with the cards relabelled.  At every decision the offered actions must match,
    card for card, and the hand must score the same.  Skipped for a hand whose contract
    makes a suit other than spades trump or ranks the suits (a ladder), and for rules
    declaring ``"suits": "own"`` in their ``ORACLES`` (a rule about one suit, such as
    the lowest club leading).
    """
    if reading(rules).values["suits"] == "own":
        return
    dealt = rules.new_game(seed=seed)
    hand = dealt.hand
    hands, blind = _as_dealt(dealt)
    for mapping in suit_relabellings(rules):

        def deal(m: dict[int, int]) -> GameState:
            # Cards are mapped, not copies (a deck may hold a card twice: index + COPY).
            return rules.new_game(
                seed=seed,
                deal=[[card_at(m[c % COPY]) for c in iter_mask(h)] for h in hands],
                dealer=hand.dealer,
                blind=[card_at(m[c % COPY]) for c in iter_mask(blind)],
                pile=[card_at(m[c % COPY]) for c in hand.pile],
            )

        rng = random.Random(seed)
        game = deal({c: c for c in mapping})
        swapped = deal(mapping)
        while not game.is_over and not game.hand_results:
            contract = game.hand.contract
            if contract is not None and contract.trump != "spades":
                return
            legal = game.legal_actions()
            offered = swapped.legal_actions()
            if sorted(map(str, (_relabel(a, mapping) for a in legal))) != sorted(map(str, offered)):
                seat = game.to_act
                raise fail(
                    game,
                    "relabelling",
                    f"hand 1, seat {seat}: swapping two non-trump suits changes what the seat "
                    f"is offered ({len(legal)} actions against {len(offered)})",
                )
            action = rng.choice(legal)
            game = game.apply(action)
            swapped = swapped.apply(_relabel(action, mapping))
        mine, theirs = game.hand_results[0], swapped.hand_results[0]
        if (mine.points, mine.books) != (theirs.points, theirs.books):
            raise fail(
                game,
                "relabelling",
                f"hand 1 scores {mine.points} (books {mine.books}), but {theirs.points} (books "
                f"{theirs.books}) with two non-trump suits swapped",
            )
