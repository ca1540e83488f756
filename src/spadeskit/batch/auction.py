"""The batched auction, derived from the rules (part of :mod:`spadeskit.batch`).

Who bids, in what order, from what menu, and who leads are read from the step engine on
probe hands; a menu that depends on the bidder's own cards alone is asked of the rules
hand by hand.  The batched policies' bids are drawn here.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np  # the package checked for it (spadeskit.batch.common)

from spadeskit.batch.common import (
    PROBES,
    AuctionTree,
    BatchFields,
    BatchUnsupported,
    _indices,
)
from spadeskit.batch.tree import derive_tree
from spadeskit.core.actions import Action, Bid, Nil
from spadeskit.core.cards import card_at
from spadeskit.core.state import GameState, Phase, copy_to_builder, freeze


class BatchAuction(BatchFields):
    """The auction, derived from the step engine on probe hands: who bids, in what order,
    from what menu, who leads; and the batched policies' bids."""

    def _probe(self, number: int, dealer: int) -> GameState:
        return self.rules.new_game(seed=number, dealer=dealer)

    def _derive_auction(self) -> None:
        """Read who bids, in what order, from what menu, and who leads, from the step
        engine on probe hands.  The order, the leader and the trump must not depend on
        the deal; each seat's menu must be one fixed menu, or depend on nothing but the
        seat's own cards (``mirror``, ``whiz``), in which case the rules are asked for
        each hand's menus."""
        rules, n = self.rules, self.n
        rng = random.Random(0)
        probes = []
        for number in range(PROBES):
            dealer = number % n
            game = self._probe(number, dealer)
            turns, states = [], []
            while game.phase is Phase.AUCTION:
                seat = game.to_act
                assert seat is not None
                menu = tuple(game.legal_actions())
                turns.append(((seat - dealer) % n, menu))
                states.append(game)
                game = game.apply(rng.choice(menu), seat)
            contract = game.contract
            simple = (
                game.phase is Phase.PLAY
                and not game.steps
                and contract is not None
                and contract.declarer is None
                and not self.rules.table.deal.blind
            )
            probes.append(
                (
                    dealer,
                    turns,
                    states,
                    (contract.leader - dealer) % n if contract else None,
                    contract.trump if contract else None,
                    simple,
                )
            )
        shapes = {
            (tuple(r for r, _ in turns), leader, trump) for _, turns, _, leader, trump, _ in probes
        }
        menus = {menu for _, turns, _, _, _, _ in probes for _, menu in turns}
        offered = {action for menu in menus for action in menu}
        self.tree: AuctionTree | None = None
        if (
            len(shapes) != 1
            or not all(simple for *_, simple in probes)
            or not all(isinstance(action, (Bid, Nil)) for action in offered)
            or sorted(next(iter(shapes))[0]) != list(range(n))
        ):
            # Not "each seat bids a number once": read the auction as a tree instead.
            self.tree = derive_tree(rules)
            self.order, self.menu = (), ()
            self.trumps = tuple(sorted({leaf.trump for leaf in self.tree.leaves}))
            return
        ((order, leader, trump),) = shapes
        assert leader is not None and trump is not None  # every probe ended in play
        self.order, self.leader, self.trump = order, leader, trump
        self.trumps = (trump,)
        self.templates: list[tuple[GameState, int, int]] | None = None
        if len(menus) == 1:
            (self.menu,) = menus
        else:
            self._check_own_cards(probes)
            numbers = {a.tricks for a in offered if isinstance(a, Bid)} | set(
                range(1, self.tricks + 1)
            )
            self.menu = (Nil(), *(Bid(k) for k in sorted(numbers)))
            dealer, _, states, _, _, _ = probes[0]
            self.templates = [
                (state, state.to_act, dealer)  # type: ignore[misc]
                for state in states
            ]
        self.menu_index = {action: k for k, action in enumerate(self.menu)}
        self.menu_tricks = np.array(
            [a.tricks if isinstance(a, Bid) else 0 for a in self.menu], dtype=np.int64
        )
        self.menu_nil = np.array([not isinstance(a, Bid) for a in self.menu])

    def _check_own_cards(self, probes: list[Any]) -> None:
        """Refuse unless every menu depends on the bidder's own cards alone: asked again
        with the other seats' cards dealt afresh and the earlier bids chosen anew, each
        seat must be offered the same bids."""
        rules, n = self.rules, self.n
        rng = random.Random(2)
        for dealer, turns, states, _, _, _ in probes[:8]:
            for turn, (_, menu) in enumerate(turns):
                seat = states[turn].to_act
                assert seat is not None
                hands = list(states[0].hands)
                others = [c for s in range(n) if s != seat for c in _indices(hands[s])]
                rng.shuffle(others)
                start = 0
                for s in range(n):
                    if s != seat:
                        size = len(_indices(hands[s]))
                        hands[s] = sum(1 << c for c in others[start : start + size])
                        start += size
                deal = [[card_at(c).code for c in _indices(mask)] for mask in hands]
                game = rules.new_game(deal=deal, dealer=dealer)
                for _ in range(turn):
                    game = game.apply(rng.choice(game.legal_actions()))
                if tuple(game.legal_actions()) != menu:
                    raise BatchUnsupported(
                        f"the auction of {rules.name!r} depends on the cards or on earlier "
                        "bids beyond the bidder's own cards: batches cannot derive it"
                    )

    def _choose_bids(self, held: Any, dealer: Any, draws_: Any) -> Any:
        """Each seat's bid (an index into :attr:`menu`), uniformly among what the rules
        offer it: from the one fixed menu, or, where a seat's menu depends on its cards,
        by asking the rules for each hand's menus."""
        size, n = len(held), self.n
        rows = np.arange(size)
        choice = np.zeros((size, n), dtype=np.int64)
        if self.templates is None:
            m = len(self.menu)
            for turn, relative in enumerate(self.order):
                seat = (dealer + relative) % n
                choice[rows, seat] = (draws_[:, turn] * m).astype(np.int64)
            return choice
        ask = self.rules.engine.auction._auction_actions
        index = self.menu_index
        dealers = dealer.tolist()
        first = self.templates[0][2]
        # Each hand's cards, seat by seat as the templates' seats sit relative to the
        # dealer (the templates are one probe hand's auction, turn by turn).
        rotated = [
            tuple(cards[(s + d - first) % n] for s in range(n))
            for cards, d in zip(held.tolist(), dealers, strict=True)
        ]
        # Each menu the rules answer with, by identity (plugins mostly answer with a few
        # constant tuples), with the menu positions of its actions; each kept alive here.
        known: dict[int, tuple[tuple[Action, ...], tuple[int, ...]]] = {}
        for turn, (template, seat, _) in enumerate(self.templates):
            relative = self.order[turn]
            picks = draws_[:, turn].tolist()
            column = []
            for pick, cards in zip(picks, rotated, strict=True):
                # A fresh state for each hand, filled before anything sees it: a hook
                # may keep the state it is shown, which then never changes.
                fresh = copy_to_builder(template)
                fresh.hands, fresh._legal = cards, None
                state = freeze(fresh)
                menu = ask(state, seat)
                entry = known.get(id(menu))
                if entry is None or entry[0] is not menu:
                    if len(known) > 4096:
                        known.clear()
                    entry = known[id(menu)] = (menu, tuple(index[a] for a in menu))
                positions = entry[1]
                column.append(positions[int(pick * len(positions))])
            choice[rows, (dealer + relative) % n] = column
        return choice
