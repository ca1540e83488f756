"""The tables of :class:`~spadeskit.rl.VectorSpadesEnv` as arrays (part of
:mod:`spadeskit.rl`): dealing, the opponents' bids, the card play in step, scoring and
the match moving on, and each finished hand as the step API would replay it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from spadeskit.batch.common import TopReads, kth_bit
from spadeskit.batch.engine import BatchEngine
from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.core.actions import PLAYS as _PLAYS
from spadeskit.core.actions import Action, Play
from spadeskit.core.cards import card_at
from spadeskit.core.errors import SpadesError
from spadeskit.core.results import HandSummary
from spadeskit.core.state import GameState, MatchState, evolve
from spadeskit.engine.rules import Rules

__all__ = ["STRIDE", "Tables"]

STRIDE = 2**20
"""Table ``i``'s ``j``-th hand is the batched engine's hand ``i + j * STRIDE``."""

_ONE = np.uint64(1)


class _Turn(NamedTuple):
    """A seat's turn to play at some tables: the tables (``rows``), the seat at each,
    each ``(table, seat)``'s index in the by-seat arrays flattened (``at``), and each
    play's position in its trick and column in its hand's plays."""

    rows: NDArray[np.int64]
    seat: NDArray[np.int64]
    at: NDArray[np.int64]
    position: NDArray[np.int64]
    column: NDArray[np.int64]


class Tables:
    """``num_envs`` tables of one rule set as numpy arrays, the same learning seats at
    each (a few, or all: then no opponent plays)."""

    rules: Rules
    engine: BatchEngine
    n: int
    learns: NDArray[np.bool_]
    """By seat: whether the agent learns (acts) there; the opponents play the others."""
    num_envs: int
    sides: int
    tricks: int
    menu: tuple[Action, ...]
    greedy: bool
    heuristic: bool
    matches: bool
    match: list[MatchState]
    points: NDArray[np.int64]
    last: dict[str, Any]
    """The last finished hand's arrays (deals, dealer, bids, cards played and seats)."""
    last_books: NDArray[np.int64]
    """Each table's books in its last finished hand, by seat."""
    last_points: NDArray[np.int64]
    """Each table's points in its last finished hand, by side."""
    _bots: dict[int, HeuristicBot]
    _games: list[GameState]
    _rows: NDArray[np.int64]
    _seed: int
    _hand: int
    _bidding: bool
    _bid_turn: NDArray[np.int64]
    """Each table's turn in the auction's order (``n``: the auction is over)."""
    _order: NDArray[np.int64]
    """The auction's order, as seats relative to the dealer."""
    _fresh: MatchState

    def _score_hands(self, ended: NDArray[np.bool_]) -> NDArray[np.int64] | None:
        """Score every table's finished hand into :attr:`points`; in matches, move each
        table's match on by the rules (the next dealer, the end) and mark in ``ended``
        the tables whose match ended.  Return the next dealers (``None``: by number)."""
        if not self.matches:
            self.points, _, _ = self.engine._score(self.choice, self.books, self._fresh)
            ended[:] = True
            return None
        engine = self.rules.engine
        menu, trump = self.menu, self.engine.trump
        self.points = np.zeros((self.num_envs, self.sides), dtype=np.int64)
        dealers = np.empty(self.num_envs, dtype=np.int64)
        for table, (match, bids, books) in enumerate(
            zip(self.match, self.choice.tolist(), self.books.tolist(), strict=True)
        ):
            summary = HandSummary(tuple(menu[b] for b in bids), tuple(books), trump=trump)
            result, after, following = engine.scoring.settle_summary(
                summary, match, int(self.dealer[table])
            )
            self.points[table] = result.points
            if following is None:
                ended[table] = True
                self.match[table] = self._fresh
                dealers[table] = -1
            else:
                self.match[table] = after
                dealers[table] = following
        return dealers

    # -- dealing and bidding ---------------------------------------------------------------

    def _deal(self, dealers: NDArray[np.int64] | None) -> None:
        """Deal every table its next hand: dealt by ``dealers`` (``-1``, or ``None`` for
        every table: the dealer rotating with the hand's number)."""
        engine, n, size = self.engine, self.n, self.num_envs
        numbers = self._rows.astype(np.int64) + self._hand * STRIDE
        if dealers is not None:
            dealers = np.where(dealers >= 0, dealers, engine.dealers(numbers))
        self.dealer, self.held, _, self.bid_draws, self.card_draws = engine.deal(
            numbers, self._seed, n, dealers
        )
        # _play reads and writes the arrays by seat through flat views: contiguous
        self.held = np.ascontiguousarray(self.held)
        self.card_draws = np.ascontiguousarray(self.card_draws)
        self.deals = self.held.copy()
        self.choice = np.full((size, n), -1, dtype=np.int64)
        self.played = np.zeros(size, dtype=np.uint64)
        self.on_table = np.zeros((size, n), dtype=np.uint64)
        self.books = np.zeros((size, n), dtype=np.int64)
        self.trick_no = np.zeros(size, dtype=np.int64)
        self.position = np.zeros(size, dtype=np.int64)
        self.leader = np.full(size, -1, dtype=np.int64)
        self.lead = np.zeros(size, dtype=np.int64)
        self.best = np.full(size, -1, dtype=np.int64)
        self.winner = np.zeros(size, dtype=np.int64)
        self.top = np.full((size, engine.suits), -1, dtype=np.int64)
        self.plays = np.full((size, self.tricks * n), -1, dtype=np.int64)
        self.seats = np.full((size, self.tricks * n), -1, dtype=np.int64)
        self._bidding = True
        if self.heuristic:
            self._games = []
            for table in range(size):
                deal, dealer = self._deal_of(self.deals, self.dealer, table)
                game = self.rules.new_game(deal=deal, dealer=dealer)
                if self.match[table] is not self._fresh:
                    game = evolve(game, match=self.match[table])
                self._games.append(game)
        self._bid_turn = np.zeros(size, dtype=np.int64)
        self._opponents_bid()

    def _bidder(self) -> NDArray[np.int64]:
        """Return the seat whose turn it is to bid at every table (the auction not over)."""
        bidder: NDArray[np.int64] = (self.dealer + self._order[self._bid_turn]) % self.n
        return bidder

    def _opponents_bid(self) -> None:
        """Let the opponents bid, in the auction's order, until a learning seat is to bid
        at every table or the auction is over: each uniformly from the menu by its
        hand's draws (or as the heuristic bot at its seat bids)."""
        n, m = self.n, len(self.menu)
        while True:
            rows = np.flatnonzero(self._bid_turn < n)
            if not len(rows):
                return
            turn = self._bid_turn[rows]
            seat = (self.dealer[rows] + self._order[turn]) % n
            other = ~self.learns[seat]
            if not other.any():
                return
            rows, turn, seat = rows[other], turn[other], seat[other]
            if self.heuristic:
                for table, who in zip(rows.tolist(), seat.tolist(), strict=True):
                    self._bot_bids(table, who)
            else:
                self.choice[rows, seat] = (self.bid_draws[rows, turn] * m).astype(np.int64)
            self._bid_turn[rows] += 1

    def _bot_bids(self, table: int, seat: int) -> None:
        """Let the heuristic bot at ``seat`` bid at ``table`` (state and arrays)."""
        game = self._games[table]
        bid = self._bots[seat].choose(game.view(seat))
        self._games[table] = game.apply(bid, seat)
        self.choice[table, seat] = self.engine.menu_index[bid]

    def _start_play(self) -> None:
        self._bidding = False
        self.leader = (self.dealer + self.engine.leader) % self.n

    # -- card play -------------------------------------------------------------------------

    def _to_act(self) -> NDArray[np.int64]:
        to_act: NDArray[np.int64] = (self.leader + self.position) % self.n
        return to_act

    def _turn(self, rows: NDArray[np.int64], seat: NDArray[np.int64]) -> _Turn:
        """Return the turn of ``seat`` to play at each table of ``rows``."""
        position = self.position[rows]  # each read once: fancy indexing copies
        column = self.trick_no[rows] * self.n + position
        return _Turn(rows, seat, rows * self.n + seat, position, column)

    def _allowed(self, turn: _Turn) -> NDArray[np.uint64]:
        """Each turn's legal cards, from the batched play filters (leaders and followers
        in one call)."""
        rows, position = turn.rows, turn.position
        allowed: NDArray[np.uint64] = self.engine._filters(
            self.held.reshape(-1)[turn.at],
            position == 0,
            position != 0,
            self.lead[rows],
            self.played[rows],
            self.trick_no[rows],
            TopReads(self.top, rows),
        )
        return allowed

    def _play(self, turn: _Turn, cards: NDArray[np.int64]) -> None:
        """Play ``cards`` (indices), one a turn, in place.  The arrays by table and seat
        are contiguous (:meth:`_deal`): flat views of them index by ``turn.at``."""
        engine, n = self.engine, self.n
        rows, seat, at, position = turn.rows, turn.seat, turn.at, turn.position
        if self.heuristic:
            for table, who, card in zip(rows.tolist(), seat.tolist(), cards.tolist(), strict=True):
                self._games[table] = self._games[table].apply(_PLAYS[card], who)
        bit = _ONE << cards.astype(np.uint64)
        self.held.reshape(-1)[at] ^= bit
        self.on_table.reshape(-1)[at] = bit
        self.played[rows] |= bit
        column = rows * self.plays.shape[1] + turn.column
        self.plays.reshape(-1)[column] = cards
        self.seats.reshape(-1)[column] = seat
        lead = np.where(position == 0, engine.suit_of[cards], self.lead[rows])
        self.lead[rows] = lead
        # A trick starts with best -1, below every power: its first card is the best.
        power = engine.rows.reshape(-1)[lead * engine.rows.shape[1] + cards]
        best = self.best[rows]
        better = power > best
        self.best[rows] = np.maximum(power, best)
        self.winner[rows[better]] = seat[better]
        if engine.reads_top:
            suit = engine.suit_of[cards]
            self.top[rows, suit] = np.maximum(self.top[rows, suit], engine.strength[cards])
        position = position + 1
        self.position[rows] = position
        full = rows[position == n]
        if len(full):
            winner = self.winner[full]
            self.books.reshape(-1)[full * n + winner] += 1
            self.leader[full] = winner
            self.position[full] = 0
            self.trick_no[full] += 1
            self.on_table[full] = 0
            self.top[full] = -1
            self.best[full] = -1

    def _advance(self) -> None:
        """Let the opponents play until a learning seat is to act at every table (or
        every table's hand is over)."""
        engine = self.engine
        while True:
            to_act = self._to_act()
            live = (self.trick_no < self.tricks) & ~self.learns[to_act]
            rows = np.flatnonzero(live)
            if not len(rows):
                return
            turn = self._turn(rows, to_act[rows])
            if self.heuristic:
                chosen = [
                    self._bots[s].choose(self._games[table].view(s))
                    for table, s in zip(rows.tolist(), turn.seat.tolist(), strict=True)
                ]
                cards = [a.card.index if isinstance(a, Play) else -1 for a in chosen]
                if min(cards) < 0:
                    raise SpadesError(f"a heuristic bot answered {chosen} where a card was due")
                self._play(turn, np.array(cards, dtype=np.int64))
                continue
            allowed = self._allowed(turn)
            draws = self.card_draws.reshape(-1)[rows * self.card_draws.shape[1] + turn.column]
            bit = kth_bit(allowed, draws)
            if self.greedy:
                following = turn.position != 0
                if following.any():
                    f = rows[following]
                    bit[following] = engine._greedy(
                        allowed[following],
                        self.lead[f],
                        self.best[f],
                        self.winner[f],
                        turn.seat[following],
                    )
            self._play(turn, np.bitwise_count(bit - _ONE).astype(np.int64))

    # -- checking ----------------------------------------------------------------------------

    def _deal_of(self, deals: Any, dealers: Any, table: int) -> tuple[list[list[str]], int]:
        """Return a table's deal as each seat's card codes, and its dealer."""
        deal = [
            [card_at(i).code for i in range(54) if int(deals[table, s]) >> i & 1]
            for s in range(self.n)
        ]
        return deal, int(dealers[table])

    def hand_actions(self, table: int) -> tuple[list[list[str]], int, list[tuple[int, Action]]]:
        """Return table ``table``'s last finished hand, to replay through the step API:
        the deal (each seat's card codes), the dealer, and every action as ``(seat,
        action)`` (the bids in the auction's order, then the cards).  Its books and
        points are in :attr:`last_books` and :attr:`last_points`."""
        n, last = self.n, self.last
        deal, dealer = self._deal_of(last["deals"], last["dealer"], table)
        actions: list[tuple[int, Action]] = []
        for relative in self.engine.order:
            seat = (dealer + relative) % n
            if last["choice"][table, seat] >= 0:
                actions.append((seat, self.menu[int(last["choice"][table, seat])]))
        for card, seat in zip(last["plays"][table], last["seats"][table], strict=True):
            if card >= 0:
                actions.append((int(seat), Play(card_at(int(card)))))
        return deal, dealer, actions
