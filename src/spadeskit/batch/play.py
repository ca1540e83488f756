"""The batched card play (part of :mod:`spadeskit.batch`): every hand of a chunk plays
its ``k``-th card at the same step, for simulations and for search playouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np  # the package checked for it (spadeskit.batch.common)

from spadeskit.batch.common import (
    BatchResult,
    BatchUnsupported,
    TopReads,
    draws,
    kth_bit,
)
from spadeskit.batch.scoring import BatchScoring
from spadeskit.core.errors import SpadesError
from spadeskit.core.results import HandResult
from spadeskit.core.state import GameState, Phase

if TYPE_CHECKING:
    from numpy.typing import NDArray


class BatchPlay(BatchScoring):
    """The card play of a chunk of hands in lockstep, for simulations and for search
    playouts."""

    def dealers(self, numbers: NDArray[np.int64]) -> NDArray[np.int64]:
        """Return the dealer of each hand ``numbers`` when none is given: rotating with
        the hand's number, the last seat dealing hand 0."""
        rotating: NDArray[np.int64] = (self.n - 1 + numbers) % self.n
        return rotating

    def deal(
        self, numbers: NDArray[np.int64], seed: int, choices: int, dealer: Any = None
    ) -> tuple[Any, ...]:
        """Deal the hands ``numbers``: return each hand's dealer (given, or rotating with
        the hand's number), the seats' cards (masks), the blind (a mask), ``choices``
        floats a hand for its auction, and the floats for its cards."""
        n, size = self.n, len(numbers)
        rows = np.arange(size)
        if dealer is None:
            dealer = self.dealers(numbers)
        first, last = int(numbers[0]), int(numbers[-1]) + 1
        shuffled, auction, cards = draws(seed, first, last, self.deck, choices, self.tricks * n)
        held = np.zeros((size, n), dtype=np.uint64)
        one = np.uint64(1)
        for step, positions in enumerate(self.deal_map):
            seat = (dealer + 1 + step) % n
            dealt = shuffled[:, positions].astype(np.uint64)
            held[rows, seat] = np.bitwise_or.reduce(one << dealt, axis=1)
        blind = np.zeros(size, dtype=np.uint64)
        if len(self.blind_map):
            dealt = shuffled[:, self.blind_map].astype(np.uint64)
            blind = np.bitwise_or.reduce(one << dealt, axis=1)
        return dealer, held, blind, auction, cards

    def play(self, numbers: NDArray[np.int64], seed: int, policy: str) -> BatchResult:
        """Play the hands ``numbers`` (one chunk) and return them."""
        n, size = self.n, len(numbers)
        dealer, held, _, bid_draws, draws_ = self.deal(numbers, seed, n)
        deals = held.copy()
        # The auction: each seat's bid, drawn uniformly among what it is offered.
        choice = self._choose_bids(held, dealer, bid_draws)
        played = np.zeros(size, dtype=np.uint64)
        books = np.zeros((size, n), dtype=np.int64)
        plays = np.zeros((size, self.tricks * n), dtype=np.int8)
        seats = np.zeros((size, self.tricks * n), dtype=np.int8)
        leader = (dealer + self.leader) % n
        self._play_cards(
            held, played, books, leader, 0, [], draws_, policy == "greedy", plays, seats
        )
        points, bags, _ = self._score(choice, books, self.match)
        return BatchResult(
            self.rules,
            seed,
            numbers,
            dealer,
            deals,
            choice,
            self.menu_tricks[choice],
            self.menu_nil[choice],
            books,
            points,
            bags,
            plays,
            seats,
            self.menu,
            self.order,
        )

    def _play_cards(
        self,
        held: Any,
        played: Any,
        books: Any,
        leader: Any,
        first_trick: int,
        started: Sequence[tuple[Any, Any]],
        draws_: Any,
        greedy: bool,
        plays: Any = None,
        seats: Any = None,
        tbase: Any = 0,
        points: Any = None,
    ) -> Any:
        """Play every card left, in place: from trick ``first_trick``, whose first cards
        ``started`` (``(seat, card index)`` arrays, already out of ``held`` and in
        ``played``) are on the table, led by ``leader``.  Each random choice takes the
        next column of ``draws_``; ``plays`` and ``seats`` record each card and its seat.
        ``tbase`` is each hand's first row of :attr:`rows` (its trump mode's); given
        ``points`` (card points by seat), each trick's card points go to its winner.
        Return the seat that took the last trick.

        A block's steps only ever keep cards of ``allowed`` and never leave it empty
        (:class:`~spadeskit.engine.filters.Narrow`), so every card chosen is held and legal."""
        n, size = self.n, len(played)
        rows = np.arange(size)
        flat = held.reshape(-1)
        base = rows * n
        one = np.uint64(1)
        top = np.full((size, self.suits), -1, dtype=np.int64)
        tops = TopReads(top, rows)
        column = 0
        for trick in range(first_trick, self.tricks):
            lead = np.zeros(size, dtype=np.int64)
            if self.reads_top:
                top.fill(-1)
            best = np.full(size, -1, dtype=np.int64)
            winner = leader
            worth = 0
            row = tbase + lead
            on_table = started if trick == first_trick else ()
            for position in range(n):
                if position < len(on_table):
                    seat, card = on_table[position]
                else:
                    seat = leader + position
                    if position:
                        seat %= n
                    index = base + seat
                    hand = flat[index]
                    allowed = self._filters(
                        hand, position == 0, position != 0, lead, played, trick, tops
                    )
                    if greedy and position:
                        bit = self._greedy(allowed, row, best, winner, seat)
                    else:
                        bit = kth_bit(allowed, draws_[:, column])
                    card = np.bitwise_count(bit - one).astype(np.intp)
                    flat[index] = hand ^ bit
                    played |= bit
                    if plays is not None:
                        plays[:, trick * n + position] = card
                        seats[:, trick * n + position] = seat
                    column += 1
                if points is not None:
                    worth = worth + self.values[card]
                if position == 0:
                    lead = self.suit_of[card]
                    row = tbase + lead
                    best = self.rows[row, card]
                    winner = seat
                else:
                    power = self.rows[row, card]
                    better = power > best
                    best = np.where(better, power, best)
                    winner = np.where(better, seat, winner)
                if self.reads_top:
                    suit = self.suit_of[card]
                    top[rows, suit] = np.maximum(top[rows, suit], self.strength[card])
            books[rows, winner] += 1
            if points is not None:
                points[rows, winner] += worth
            leader = winner
        return leader

    def play_out(
        self,
        game: GameState,
        hands: Any,
        cards: Any,
        policy: str,
        generator: Any,
        record: dict[str, Any] | None = None,
        match_weight: float = 0.0,
    ) -> Any:
        """Play ``game``'s hand out once per row of ``hands`` (each seat's cards, one
        determinization a row), each row after its seat to act plays ``cards[row]``
        (a card index), and return each row's rewards per side (as search scores them:
        points, less 10 a bag taken, less the best other side's, in hundreds; with
        ``match_weight``, plus that much for the side that wins the match with the
        hand and less as much for the others, as the rules' match-end hook says).

        ``game`` is in its play, with cards of this rule set; ``generator`` is a
        ``numpy.random.Generator``; ``policy`` is ``"random"`` or ``"greedy"``.  Given a
        dict as ``record``, the cards played after ``cards`` (``"plays"``, ``"seats"``:
        index and seat, ``-1`` before) and the books (``"books"``) are put in it."""
        if game.phase is not Phase.PLAY or game.to_act is None or game.contract is None:
            raise SpadesError("play_out needs a state in its play, a seat to act")
        if self.tree is not None:
            raise BatchUnsupported(f"search playouts of {self.rules.name!r} are not batched")
        try:
            bid_rows = [self.menu.index(b) for b in game.bids]
        except ValueError:
            raise BatchUnsupported(f"a bid of {game.bids} is not on the batched menu") from None
        size, n = len(hands), self.n
        seat = game.to_act
        held = np.array(hands, dtype=np.uint64).reshape(size, n)
        cards = np.asarray(cards, dtype=np.int64)
        bits = np.uint64(1) << cards.astype(np.uint64)
        held[:, seat] ^= bits
        played = np.full(size, game.played, dtype=np.uint64) | bits
        books = np.tile(np.array(game.books, dtype=np.int64), (size, 1))
        started = [(s, np.full(size, c, dtype=np.intp)) for s, c in game.trick]
        started.append((seat, cards))
        leader = np.full(size, game.trick[0][0] if game.trick else seat, dtype=np.int64)
        draws_ = generator.random((size, (self.tricks - len(game.tricks)) * n))
        plays = seats = None
        if record is not None:
            plays = np.full((size, self.tricks * n), -1, dtype=np.int8)
            seats = np.full((size, self.tricks * n), -1, dtype=np.int8)
            record.update(plays=plays, seats=seats, books=books)
        self._play_cards(
            held,
            played,
            books,
            leader,
            len(game.tricks),
            started,
            draws_,
            policy == "greedy",
            plays,
            seats,
        )
        choice = np.tile(np.array(bid_rows, dtype=np.int64), (size, 1))
        points, bags, taken = self._score(choice, books, game.match)
        value = points - 10 * taken
        rewards = np.empty_like(value, dtype=np.float64)
        for side in range(value.shape[1]):
            others = np.delete(value, side, axis=1)
            best = others.max(axis=1) if others.shape[1] else value[:, side]
            rewards[:, side] = (value[:, side] - best) / (100 * self.rules.table.score_unit)
        if match_weight:
            rewards += self._match_ends(game, books, points, bags, match_weight)
        return rewards

    def _match_ends(
        self, game: GameState, books: Any, points: Any, bags: Any, weight: float
    ) -> NDArray[np.float64]:
        """Each row's reward for the match's end (see :class:`~spadeskit.bots.search.PIMCBot`'s
        ``match_weight``): the rules' own match-end hook asked once per distinct books."""
        unique, first, inverse = np.unique(books, axis=0, return_index=True, return_inverse=True)
        sides = points.shape[1]
        bonus = np.zeros((len(unique), sides))
        match = game.match
        for k, row in enumerate(first.tolist()):
            result = HandResult(
                game.number,
                game.dealer,
                game.bids,
                tuple(books[row].tolist()),
                (),
                tuple(points[row].tolist()),
                tuple((np.array(match.scores) + points[row]).tolist()),
                tuple(bags[row].tolist()),
                transfers=game.transfers,
            )
            end = self.rules.engine.scoring.settle(match, result, (), game.dealer)[0].end
            if end is not None:
                bonus[k] = [weight if s == end.winner else -weight for s in range(sides)]
        found: NDArray[np.float64] = bonus[inverse.reshape(-1)]
        return found

    def _greedy(
        self,
        allowed: NDArray[np.uint64],
        row: NDArray[np.int64],
        best: NDArray[np.int64],
        winner: NDArray[np.int64],
        seat: NDArray[np.int64],
    ) -> NDArray[np.uint64]:
        """:func:`spadeskit.bots.greedy_card` on arrays: the cheapest card that takes
        the trick unless the seat's side already holds it (or none can), else the
        cheapest card; ties go to the lower card index, as there."""
        taking = allowed & self.beats[row, best + 1]
        take = (taking != 0) & (self.side_of[winner] != self.side_of[seat])
        # One search: the first card of the taking cards by power where the seat takes
        # the trick, else the first of the allowed cards by cheapness.
        return self._first(np.where(take, taking, allowed), row * 2 + take)

    def _first(self, mask: NDArray[np.uint64], order: NDArray[np.int64]) -> NDArray[np.uint64]:
        """Return the first card of each (non-empty) ``mask`` in its ``order`` (a row of
        :attr:`orders`): the shortest prefix of the order that meets the mask, by a
        binary search."""
        prefix, cards, width = self.orders
        row = order * width
        low = np.zeros(len(mask), dtype=np.int64)
        high = np.full(len(mask), width - 1, dtype=np.int64)
        for _ in range(int(width - 1).bit_length()):
            middle = (low + high) >> 1
            meets = (mask & prefix[row + middle]) != 0
            high = np.where(meets, middle, high)
            low = np.where(meets, low, middle)
        first: NDArray[np.uint64] = np.uint64(1) << cards[row + high - 1]
        return first
