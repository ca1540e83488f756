"""Auctions as trees (part of :mod:`spadeskit.batch`): for rule sets whose auction is
not "each seat bids a number once", such as three-suit-trump's pick-up-or-pass.

The tree is read from the step engine: every path of actions from the deal to the end of
the auction is played through ``apply`` on a probe hand, and each end (a *leaf*) keeps
what the rules decided there: the contract (leader, trump, declarer, who takes the blind)
and the discards owed before play.  It is then checked on other probe hands, dealt
differently by other dealers, that every path offers the same actions and ends the same
way, so that neither depends on the cards.  A batched hand walks the tree with one random
number a turn.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np  # the package checked for it (spadeskit.batch.common)

from spadeskit.batch.common import PROBES, AuctionTree, BatchUnsupported, Leaf
from spadeskit.core.actions import Action
from spadeskit.core.state import GameState, Phase

if TYPE_CHECKING:
    from spadeskit.engine.rules import Rules

MAX_NODES = 4096
"""The largest auction tree derived (three-suit-trump's has 3 turns and 4 ends)."""


def _menu(game: GameState) -> tuple[Action, ...]:
    seat = game.to_act
    assert seat is not None
    return tuple(game.legal_actions(seat))


def _leaf(rules: Rules, game: GameState, path: tuple[tuple[int, Action], ...]) -> Leaf:
    """Return what the auction ``path`` decided on ``game``, where it ended."""
    n, dealer = rules.table.players, game.dealer
    contract = game.contract
    if game.phase not in (Phase.PLAY, Phase.EXCHANGE) or contract is None:
        raise BatchUnsupported(
            f"the auction of {rules.name!r} ends in the {game.phase.value}, not in play"
        )
    discards = []
    for step in game.steps:
        if step.kind != "discard":
            raise BatchUnsupported(
                f"the auction of {rules.name!r} is followed by an exchange, which batches "
                "do not play"
            )
        discards.append(((step.seat - dealer) % n, step.count))
    declarer = contract.declarer
    return Leaf(
        path,
        (contract.leader - dealer) % n,
        contract.trump,
        None if declarer is None else (declarer - dealer) % n,
        contract.blind_to,
        tuple(discards),
    )


def derive_tree(rules: Rules) -> AuctionTree:
    """Read the auction tree of ``rules`` from the step engine (see the module docs)."""
    n = rules.table.players
    seats: list[int] = []
    sizes: list[int] = []
    children: list[list[int]] = []
    menus: list[tuple[Action, ...]] = []
    leaves: list[Leaf] = []
    depth = 0
    first = rules.new_game(seed=0, dealer=n - 1)

    def explore(game: GameState, path: tuple[tuple[int, Action], ...]) -> int:
        nonlocal depth
        if game.phase is not Phase.AUCTION:
            leaves.append(_leaf(rules, game, path))
            return ~(len(leaves) - 1)
        if len(seats) >= MAX_NODES:
            raise BatchUnsupported(
                f"the auction of {rules.name!r} has more than {MAX_NODES} ways to go: "
                "batches cannot derive it"
            )
        depth = max(depth, len(path) + 1)
        seat = game.to_act
        assert seat is not None
        node = len(seats)
        menu = _menu(game)
        seats.append((seat - game.dealer) % n)
        sizes.append(len(menu))
        menus.append(menu)
        children.append([])
        for action in menu:
            step = ((seat - game.dealer) % n, action)
            children[node].append(explore(game.apply(action, seat), (*path, step)))
        return node

    explore(first, ())
    width = max(sizes)
    child = np.zeros((len(seats), width), dtype=np.int64)
    for node, row in enumerate(children):
        child[node, : len(row)] = row
    tree = AuctionTree(
        np.array(seats, dtype=np.int64),
        np.array(sizes, dtype=np.int64),
        child,
        tuple(menus),
        tuple(leaves),
        depth,
    )
    _check_tree(rules, tree)
    return tree


def _check_tree(rules: Rules, tree: AuctionTree) -> None:
    """Refuse unless every probe hand, whoever deals, offers the same actions along each
    path and ends it the same way."""
    n = rules.table.players
    rng = random.Random(3)
    for number in range(1, PROBES):
        dealer = number % n
        start = rules.new_game(seed=number, dealer=dealer)
        leaves = list(tree.leaves)
        if len(leaves) > 16:  # a large tree: 16 of its paths a probe hand
            leaves = rng.sample(leaves, 16)
        for leaf in leaves:
            _check_path(rules, tree, start, leaf)


def _check_path(rules: Rules, tree: AuctionTree, game: GameState, leaf: Leaf) -> None:
    """Refuse unless ``leaf``'s path, played on ``game``, offers what the tree says and
    ends as ``leaf`` does."""
    n, dealer = rules.table.players, game.dealer
    node = 0
    for seat, action in leaf.path:
        if (
            node < 0
            or game.phase is not Phase.AUCTION
            or (game.to_act - dealer) % n != seat  # type: ignore[operator]
            or _menu(game) != tree.menus[node]
        ):
            raise BatchUnsupported(
                f"in the auction of {rules.name!r} who speaks or what they may do "
                "differs between deals: batches need it fixed"
            )
        node = int(tree.child[node, tree.menus[node].index(action)])
        game = game.apply(action, game.to_act)
    if node >= 0 or _leaf(rules, game, leaf.path) != leaf:
        raise BatchUnsupported(
            f"in the auction of {rules.name!r} the contract differs between deals with "
            "the same bids: batches need it fixed"
        )


def leaf_bids(leaf: Leaf, n: int, dealer: int) -> tuple[Action | None, ...]:
    """Return each seat's last auction action along ``leaf``'s path (as ``GameState.bids``
    holds them) for a hand dealt by ``dealer``."""
    bids: list[Action | None] = [None] * n
    for seat, action in leaf.path:
        bids[(dealer + seat) % n] = action
    return tuple(bids)
