"""Batched simulation: many independent hands at once, as numpy arrays (the ``fast``
extra: ``pip install 'spadeskit[fast]'``).

:meth:`Rules.simulate_batch <spadeskit.rules.Rules.simulate_batch>` deals, bids, plays
and scores thousands of hands in lockstep: every hand of a chunk plays its ``k``-th card
at the same step, each seat's cards an unsigned 64-bit mask.  Nothing in it is a second
copy of a rule.  The engine is derived from the rules themselves when it is first asked
for:

* the deal from the table's deal plan, the trick winner from the rules' strength tables
  and the effective suits from their ranking;
* which cards a seat may play from the play filters' building blocks: each block's
  steps (:class:`spadeskit.filters.Narrow`) are the text the step engine runs, compiled
  here to run on arrays;
* the auction by asking the rules: the seats that speak and what each may bid are read
  from the step engine on probe hands, and must not depend on the cards or on earlier
  bids, except that a seat's menu may depend on its own cards alone (``mirror``,
  ``whiz``), which the rules are then asked for hand by hand (a rule set where more
  depends on the deal, such as ``suicide`` or ``blind-nil``, is refused);
* each side's score by calling the rules' own scoring once for each side's bids and
  books (kept for the next call), after checking on probe hands that a side's score
  does not depend on the other sides.

A rule set the engine cannot derive is refused with :class:`BatchUnsupported`, naming
the part (and the plugin or filter) it cannot take; use :meth:`Rules.simulate
<spadeskit.rules.Rules.simulate>` for it.  Hand ``i`` depends only on ``(seed, i)``
(its random numbers are row ``i % BLOCK`` of a generator seeded by ``(seed, i //
BLOCK)``), so chunks split across processes give the same hands.  A hand's deal and
choices are not those :meth:`~spadeskit.rules.Rules.simulate` would make, but follow
the same distribution (the tests compare them), and every batched hand replays through
the step API to the same books and points (:meth:`BatchResult.actions`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - the fast extra is missing
    raise ImportError("spadeskit.batch needs numpy: pip install 'spadeskit[fast]'") from exc

from . import codegen
from .actions import Action, Bid, Nil, Play
from .cards import card_at
from .errors import SpadesError, shown
from .filters import READS
from .results import HandSummary
from .seeding import check_range, check_seed
from .state import GameState, MatchState, Phase, copy_to_builder, freeze

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from .rules import Rules

__all__ = ["POLICIES", "BatchEngine", "BatchResult", "BatchUnsupported", "engine_for"]

POLICIES = ("random", "greedy")
"""``random``: every bid and card uniformly among the legal ones; ``greedy``: bids and
leads at random, every following card by :func:`spadeskit.bots.greedy_card` (the
cheapest card that takes the trick unless the partner already holds it, else the
cheapest card), as search's greedy playouts play."""

CHUNK = 8192
"""Hands played in lockstep at a time: enough to keep numpy busy, small enough to stay
in the CPU's cache (a chunk's arrays take a few MB)."""

PROBES = 24
"""Probe hands the auction and the scoring are derived from and checked on."""


_VECTOR_READS = {
    "leading": "_b_leading",
    "following": "(not _b_leading)",
    "lead": "_b_lead",
    "played": "_b_played",
    "done": "_b_done",
    "top": "_b_top",
}


class BatchUnsupported(SpadesError):
    """The batched engine cannot derive this rule set (the message says which part);
    :meth:`Rules.simulate <spadeskit.rules.Rules.simulate>` plays it."""

    code = "not-batched"


BLOCK = 1024
"""Hands whose random numbers one generator draws: hand ``i`` takes row ``i % BLOCK`` of
block ``i // BLOCK``, whose generator is seeded by ``(seed, i // BLOCK)`` alone, so any
split of the hands gives the same hands.  (NumPy's generators may change their streams
between NumPy releases, so hands repeat exactly under one NumPy version.)"""


def _entropy(seed: int) -> int:
    digest = hashlib.blake2b(f"spadeskit batch {seed}".encode(), digest_size=16).digest()
    return int.from_bytes(digest, "little")


def draws(
    seed: int, first: int, last: int, deck: NDArray[np.int64], bids: int, cards: int
) -> tuple[Any, Any, Any]:
    """Return the random numbers of hands ``first`` … ``last - 1``: each hand's shuffled
    deck, ``bids`` floats for its auction and ``cards`` floats for its play (each in
    [0, 1)), drawn block by block (:data:`BLOCK`)."""
    entropy = _entropy(seed)
    decks, auction, play = [], [], []
    for block in range(first // BLOCK, (last - 1) // BLOCK + 1):
        generator = np.random.Generator(
            np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=(block,)))
        )
        shuffled = np.tile(deck, (BLOCK, 1))
        generator.permuted(shuffled, axis=1, out=shuffled)
        decks.append(shuffled)
        auction.append(generator.random((BLOCK, bids)))
        play.append(generator.random((BLOCK, cards)))
    low = first - (first // BLOCK) * BLOCK
    high = low + last - first
    return (
        np.concatenate(decks)[low:high],
        np.concatenate(auction)[low:high],
        np.concatenate(play)[low:high],
    )


class _Top:
    """``$top[s]`` on arrays: the greatest strength within effective suit ``s`` among
    each hand's trick cards of that suit."""

    def __init__(self, top: NDArray[np.int64], rows: NDArray[np.int64]) -> None:
        self.top, self.rows = top, rows

    def __getitem__(self, suit: Any) -> NDArray[np.int64]:
        return self.top[self.rows, suit]  # type: ignore[no-any-return]


@attrs.frozen
class BatchResult:
    """Hands played by :meth:`Rules.simulate_batch`, as arrays (one row per hand).

    ``numbers`` are the hands' numbers (``start`` …), ``dealer`` each hand's dealer,
    ``deals`` each seat's dealt cards (a mask of card indices), ``bid_choice`` which
    entry of :attr:`menu` each seat bid (by seat), ``bids`` the tricks each seat bid
    (0 for a nil), ``nil`` whether it was a nil, ``books`` the tricks each seat took,
    ``points`` each side's points, ``bags`` each side's bag counter after the hand (the
    hand is the first of a match, as in :meth:`~spadeskit.rules.Rules.simulate`),
    ``plays`` the index of every card in the order played and ``seats`` who played it.
    """

    rules: Rules = attrs.field(repr=False)
    seed: int
    numbers: Any = attrs.field(repr=False)
    dealer: Any = attrs.field(repr=False)
    deals: Any = attrs.field(repr=False)
    bid_choice: Any = attrs.field(repr=False)
    bids: Any = attrs.field(repr=False)
    nil: Any = attrs.field(repr=False)
    books: Any = attrs.field(repr=False)
    points: Any = attrs.field(repr=False)
    bags: Any = attrs.field(repr=False)
    plays: Any = attrs.field(repr=False)
    seats: Any = attrs.field(repr=False)
    menu: tuple[Action, ...] = attrs.field(repr=False)
    order: tuple[int, ...] = attrs.field(repr=False)

    def __len__(self) -> int:
        return len(self.numbers)

    def columns(self) -> dict[str, Any]:
        """Return the results as named one-dimensional columns (``pandas.DataFrame``
        takes the dict as it is): ``hand``, ``dealer``, ``bid_N`` …, ``nil_N`` …,
        ``books_N`` …, ``points_N/S`` …, ``bags_N/S`` …."""
        table = self.rules.table
        out: dict[str, Any] = {"hand": self.numbers, "dealer": self.dealer}
        for seat, name in enumerate(table.seat_names):
            out[f"bid_{name}"] = self.bids[:, seat]
            out[f"nil_{name}"] = self.nil[:, seat]
            out[f"books_{name}"] = self.books[:, seat]
        for side, name in enumerate(table.side_names):
            out[f"points_{name}"] = self.points[:, side]
            out[f"bags_{name}"] = self.bags[:, side]
        return out

    def deal(self, i: int) -> list[list[str]]:
        """Return hand ``i``'s deal (row ``i``), one list of card codes per seat."""
        return [
            [card_at(c).code for c in range(64) if int(mask) >> c & 1] for mask in self.deals[i]
        ]

    def actions(self, i: int) -> list[tuple[int, Action]]:
        """Return hand ``i``'s actions, ``(seat, action)`` in order: the bids, then the
        cards.  ``rules.new_game(deal=result.deal(i), dealer=int(result.dealer[i]))``
        stepped through them plays the same hand."""
        n = self.rules.table.players
        dealer = int(self.dealer[i])
        out: list[tuple[int, Action]] = [
            ((dealer + relative) % n, self.menu[int(self.bid_choice[i, (dealer + relative) % n])])
            for relative in self.order
        ]
        out += [
            (int(seat), Play(card_at(int(card))))
            for seat, card in zip(self.seats[i], self.plays[i], strict=True)
        ]
        return out


class BatchEngine:
    """The batched engine of one rule set, derived from it (see the module docs)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        engine = rules.engine
        table = rules.table
        self.n = n = table.players
        plan = table.deal
        if plan.blind or plan.pile or engine.draw:
            part = "a blind" if plan.blind else "a draw pile"
            raise BatchUnsupported(f"{rules.name!r} deals {part}, which batches do not play")
        for f in rules.filters:
            if not f.enforced:
                raise BatchUnsupported(
                    f"{rules.name!r} has the advisory play filter {f.name!r} (table "
                    "enforcement): only enforced building blocks are batched"
                )
            if f.block is None:
                raise BatchUnsupported(
                    f"the play filter {f.name!r} of {rules.name!r} is plain Python, not a "
                    "building block (spadeskit.filters.building_block): it runs only "
                    "card by card"
                )
        for what, present in (
            ("an out-of-turn action during play", engine.play_offer is not None),
            ("an after-trick hook", engine.calls.after_trick is not None),
            ("a review before scoring", engine.calls.before_scoring is not None),
        ):
            if present:
                raise BatchUnsupported(f"{rules.name!r} has {what}, which batches do not play")
        self.deck = np.array(engine.deck, dtype=np.int64)
        self.deal_map = [np.array(p, dtype=np.int64) for p in engine.deal_map[:n]]
        self.tricks = plan.hand_size
        ranking = rules.ranking
        self.suit_of = np.array(list(ranking.suit_of) + [-1] * (64 - len(ranking.suit_of)))
        self.strength = np.array(list(ranking.strength) + [0] * (64 - len(ranking.strength)))
        self.suits = len(ranking.suit_mask)
        self.side_of = np.array(rules.side_of, dtype=np.int64)
        self._derive_auction()
        rows = rules.strength_table(self.trump)
        self.rows = np.zeros((len(rows), 64), dtype=np.int64)
        self.rows[:, : len(rows[0])] = rows
        # greedy_card's orders, by led suit: cheapness (power in the trick, then in
        # its own suit) and power, ties to the lower index; and the cards beating a power.
        own = self.rows[np.clip(self.suit_of, 0, None), np.arange(64)]
        cheap = (self.rows << 10) + own
        deck_cards = [int(c) for c in self.deck]
        self.orders = self._orders(
            lambda order, c: (
                (int(cheap[order // 2, c]), c)
                if order % 2 == 0
                else (int(self.rows[order // 2, c]), c)
            ),
            deck_cards,
        )
        strongest = int(self.rows.max())
        self.beats = np.zeros((len(rows), strongest + 2), dtype=np.uint64)
        for led in range(len(rows)):
            for level in range(-1, strongest + 1):
                mask = sum(1 << c for c in deck_cards if self.rows[led, c] > level)
                self.beats[led, level + 1] = mask
        self._filters = self._compile_filters()
        self.reads_top = any(
            "top" in codegen.placeholders(text)
            for f in rules.filters
            if f.block is not None
            for step in f.block.steps
            for text in (*step.when, step.keep)
        )
        self.match = MatchState.fresh(len(table.sides))
        for seats in table.sides:
            if (len(self.menu) * (self.tricks + 1)) ** len(seats) > 1 << 24:
                raise BatchUnsupported(f"the sides of {rules.name!r} are too large to batch")
        self._tables: dict[Any, list[tuple[Any, Any]]] = {}
        self._check_scoring()

    # -- derived from the rules -------------------------------------------------------------

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
            if game.phase is not Phase.PLAY or game.steps:
                raise BatchUnsupported(
                    f"the auction of {rules.name!r} is followed by an exchange or discard, "
                    "which batches do not play"
                )
            contract = game.contract
            assert contract is not None
            if contract.declarer is not None:
                raise BatchUnsupported(
                    f"the auction of {rules.name!r} names a declarer, which batches do not keep"
                )
            probes.append((dealer, turns, states, (contract.leader - dealer) % n, contract.trump))
        shapes = {
            (tuple(r for r, _ in turns), leader, trump) for _, turns, _, leader, trump in probes
        }
        if len(shapes) != 1:
            raise BatchUnsupported(
                f"in the auction of {rules.name!r} who speaks, who leads or what is trump "
                "differs between deals: batches need them fixed"
            )
        ((self.order, self.leader, self.trump),) = shapes
        if sorted(self.order) != list(range(n)):
            raise BatchUnsupported(
                f"in the auction of {rules.name!r} the seats do not each bid once, which "
                "batches need"
            )
        menus = {menu for _, turns, _, _, _ in probes for _, menu in turns}
        offered = {action for menu in menus for action in menu}
        for action in offered:
            if not isinstance(action, (Bid, Nil)):
                raise BatchUnsupported(
                    f"the auction of {rules.name!r} offers {action}: batches bid only "
                    "numbers and nil"
                )
        self.templates: list[tuple[GameState, int, int]] | None = None
        if len(menus) == 1:
            (self.menu,) = menus
        else:
            self._check_own_cards(probes)
            numbers = {a.tricks for a in offered if isinstance(a, Bid)} | set(
                range(1, self.tricks + 1)
            )
            self.menu = (Nil(), *(Bid(k) for k in sorted(numbers)))
            dealer, _, states, _, _ = probes[0]
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
        for dealer, turns, states, _, _ in probes[:8]:
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
        ask = self.rules.engine._auction_actions
        index = self.menu_index
        dealers = dealer.tolist()
        first = self.templates[0][2]
        # Each hand's cards, seat by seat as the templates' seats sit relative to the
        # dealer (the templates are one probe hand's auction, turn by turn).
        rotated = [
            tuple(cards[(s + d - first) % n] for s in range(n))
            for cards, d in zip(held.tolist(), dealers, strict=True)
        ]
        for turn, (template, seat, _) in enumerate(self.templates):
            relative = self.order[turn]
            picks = draws_[:, turn].tolist()
            column = np.empty(size, dtype=np.int64)
            for i, cards in enumerate(rotated):
                builder = copy_to_builder(template)
                builder.hands, builder._legal = cards, None
                menu = ask(freeze(builder), seat)
                column[i] = index[menu[int(picks[i] * len(menu))]]
            choice[rows, (dealer + relative) % n] = column
        return choice

    def _orders(
        self, key: Callable[[int, int], tuple[int, int]], deck: list[int]
    ) -> tuple[Any, Any, int]:
        """Return ``(prefix, cards, width)``: for each order ``o`` (led suit ``o // 2``;
        by cheapness when ``o`` is even, by power when odd), ``prefix[o * width + j]``
        the mask of its first ``j`` cards and ``cards[o * width + j]`` its ``j + 1``-th."""
        orders, width = 2 * self.rows.shape[0], len(deck) + 1
        prefix = np.zeros(orders * width, dtype=np.uint64)
        cards = np.zeros(orders * width, dtype=np.uint64)
        for order in range(orders):
            mask = 0
            for j, card in enumerate(sorted(deck, key=lambda c: key(order, c))):
                mask |= 1 << card
                prefix[order * width + j + 1] = mask
                cards[order * width + j] = card
        return prefix, cards, width

    def _compile_filters(self) -> Callable[..., Any]:
        """Compile the enforced filters' steps into one function on arrays of hands."""
        namespace: dict[str, Any] = {"_where": np.where}
        body = []
        for k, f in enumerate(self.rules.filters):
            assert f.block is not None
            for name, value in f.block.constants.items():
                if name.startswith("_"):
                    continue  # the reads' own helpers ($lead, $top) are arrays here
                if isinstance(value, (tuple, list)):
                    value = np.array(value, dtype=np.uint64)
                elif isinstance(value, bool) or not isinstance(value, int):
                    raise BatchUnsupported(
                        f"the building block {f.name!r} has the constant {name} = "
                        f"{shown(value, 30)}, which batches cannot hold"
                    )
                namespace[f"_c{k}_{name}"] = value
            text = f.block.vector_statements(_VECTOR_READS, "_where")
            names = {name: f"_c{k}_{name}" for name in f.block.constants}
            body.append(codegen.render(text, **names))
        source = (
            "def allowed_cards(allowed, _b_leading, _b_lead, _b_played, _b_done, _b_top):\n"
            + codegen.indent("".join(body), 1)
            + "    return allowed\n"
        )
        assert set(_VECTOR_READS) == set(READS)
        made: Callable[..., Any] = codegen.function(
            "allowed_cards", source, namespace, label=f"batched filters {self.rules.name}"
        )
        return made

    def _side_key(self, side: int, choice: Any, books: Any) -> Any:
        """Encode each hand's bids (menu entries) and books of ``side``'s seats as one int."""
        key = np.zeros(len(choice), dtype=np.int64)
        m = len(self.menu)
        for seat in self.rules.table.sides[side]:
            key = (key * m + choice[:, seat]) * (self.tricks + 1) + books[:, seat]
        return key

    def _score_side(
        self,
        side: int,
        choice: Sequence[int],
        books: Sequence[int],
        filler: int,
        match: MatchState | None = None,
    ) -> tuple[int, int, int]:
        """Score one side by the rules' own scoring under ``match`` (default: a new
        match): its seats' bids and books as given, the other seats' taken from
        ``filler`` (the side's score must not depend on them).  Return its points, its
        bag counter after the hand and the bags its lines took."""
        n, table = self.n, self.rules.table
        mine = set(table.sides[side])
        rng = random.Random(filler)
        bids = [self.menu[choice[s]] if s in mine else rng.choice(self.menu) for s in range(n)]
        left = self.tricks - sum(books[s] for s in mine)
        others = [s for s in range(n) if s not in mine]
        took = [books[s] if s in mine else 0 for s in range(n)]
        for _ in range(left):
            took[rng.choice(others)] += 1
        summary = HandSummary(
            tuple(bids), tuple(took), won=self._no_cards, trump=self.trump, declarer=None
        )
        score = self.rules.engine.score(summary, match or self.match)
        taken = sum(line.bags for line in score.lines if line.side == side and line.bags > 0)
        return score.points[side], score.bags[side], taken

    def _no_cards(self) -> Any:
        raise BatchUnsupported(
            f"the scoring of {self.rules.name!r} reads the cards won, which batches do not keep"
        )

    def _check_scoring(self) -> None:
        """Check on probe hands that each side's score depends on its own seats alone."""
        if len(self.rules.table.sides) == 1:
            return
        rng = random.Random(1)
        for probe in range(PROBES):
            choice = [rng.randrange(len(self.menu)) for _ in range(self.n)]
            books = [0] * self.n
            for _ in range(self.tricks):
                books[rng.randrange(self.n)] += 1
            for side in range(len(self.rules.table.sides)):
                first = self._score_side(side, choice, books, probe)
                if self._score_side(side, choice, books, probe + 1000) != first:
                    raise BatchUnsupported(
                        f"the scoring of {self.rules.name!r} scores a side by the other "
                        "sides' bids or books, which batches do not derive"
                    )

    def _score(self, choice: Any, books: Any, match: MatchState) -> tuple[Any, Any, Any]:
        """Each side's points, bag counter after the hand and bags taken, from the
        rules' own scoring under ``match``: each side's table (one entry per bids and
        books of its seats) is filled the first time an entry is needed, then read."""
        sides = len(self.rules.table.sides)
        out = np.empty((3, len(choice), sides), dtype=np.int64)
        tables = self._tables.get((match.scores, match.bags))
        if tables is None:
            if len(self._tables) > 64:
                self._tables.clear()
            tables = self._tables[(match.scores, match.bags)] = self._new_tables()
        for side in range(sides):
            keys = self._side_key(side, choice, books)
            known, values = tables[side]
            missing = ~known[keys]
            if missing.any():
                new, rows = np.unique(keys[missing], return_index=True)
                where = np.flatnonzero(missing)[rows]
                for key, row in zip(new.tolist(), where.tolist(), strict=True):
                    values[key] = self._score_side(
                        side, choice[row].tolist(), books[row].tolist(), 0, match
                    )
                known[new] = True
            out[:, :, side] = values[keys].T
        return out[0], out[1], out[2]

    def _new_tables(self) -> list[tuple[Any, Any]]:
        """Empty score tables, one per side (see :meth:`_score`)."""
        tables = []
        for seats in self.rules.table.sides:
            size = (len(self.menu) * (self.tricks + 1)) ** len(seats)
            tables.append((np.zeros(size, dtype=bool), np.zeros((size, 3), dtype=np.int64)))
        return tables

    # -- playing -------------------------------------------------------------------------

    def play(self, numbers: NDArray[np.int64], seed: int, policy: str) -> BatchResult:
        """Play the hands ``numbers`` (one chunk) and return them."""
        n, size = self.n, len(numbers)
        rows = np.arange(size)
        dealer = (n - 1 + numbers) % n
        shuffled, bid_draws, draws_ = draws(
            seed,
            int(numbers[0]),
            int(numbers[-1]) + 1,
            self.deck,
            n,
            self.tricks * n,
        )
        held = np.zeros((size, n), dtype=np.uint64)
        one = np.uint64(1)
        for step, positions in enumerate(self.deal_map):
            seat = (dealer + 1 + step) % n
            cards = shuffled[:, positions].astype(np.uint64)
            held[rows, seat] = np.bitwise_or.reduce(one << cards, axis=1)
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
    ) -> None:
        """Play every card left, in place: from trick ``first_trick``, whose first cards
        ``started`` (``(seat, card index)`` arrays, already out of ``held`` and in
        ``played``) are on the table, led by ``leader``.  Each random choice takes the
        next column of ``draws_``; ``plays`` and ``seats`` record each card and its seat.

        A block's steps only ever keep cards of ``allowed`` and never leave it empty
        (:class:`~spadeskit.filters.Narrow`), so every card chosen is held and legal."""
        n, size = self.n, len(played)
        rows = np.arange(size)
        flat = held.reshape(-1)
        base = rows * n
        one = np.uint64(1)
        top = np.full((size, self.suits), -1, dtype=np.int64)
        tops = _Top(top, rows)
        column = 0
        for trick in range(first_trick, self.tricks):
            lead = np.zeros(size, dtype=np.int64)
            if self.reads_top:
                top.fill(-1)
            best = np.full(size, -1, dtype=np.int64)
            winner = leader
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
                    allowed = self._filters(hand, position == 0, lead, played, trick, tops)
                    if greedy and position:
                        bit = self._greedy(allowed, lead, best, winner, seat)
                    else:
                        bit = _kth_bit(allowed, draws_[:, column])
                    card = np.bitwise_count(bit - one).astype(np.intp)
                    flat[index] = hand ^ bit
                    played |= bit
                    if plays is not None:
                        plays[:, trick * n + position] = card
                        seats[:, trick * n + position] = seat
                    column += 1
                if position == 0:
                    lead = self.suit_of[card]
                    best = self.rows[lead, card]
                    winner = seat
                else:
                    power = self.rows[lead, card]
                    better = power > best
                    best = np.where(better, power, best)
                    winner = np.where(better, seat, winner)
                if self.reads_top:
                    suit = self.suit_of[card]
                    top[rows, suit] = np.maximum(top[rows, suit], self.strength[card])
            books[rows, winner] += 1
            leader = winner

    def play_out(
        self,
        game: GameState,
        hands: Any,
        cards: Any,
        policy: str,
        generator: Any,
        record: dict[str, Any] | None = None,
    ) -> Any:
        """Play ``game``'s hand out once per row of ``hands`` (each seat's cards, one
        determinization a row), each row after its seat to act plays ``cards[row]``
        (a card index), and return each row's rewards per side (as search scores them:
        points, less 10 a bag taken, less the best other side's, in hundreds).

        ``game`` is in its play, with cards of this rule set; ``generator`` is a
        ``numpy.random.Generator``; ``policy`` is ``"random"`` or ``"greedy"``.  Given a
        dict as ``record``, the cards played after ``cards`` (``"plays"``, ``"seats"``:
        index and seat, ``-1`` before) and the books (``"books"``) are put in it."""
        if game.phase is not Phase.PLAY or game.to_act is None or game.contract is None:
            raise SpadesError("play_out needs a state in its play, a seat to act")
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
        points, _, taken = self._score(choice, books, game.match)
        value = points - 10 * taken
        rewards = np.empty_like(value, dtype=np.float64)
        for side in range(value.shape[1]):
            others = np.delete(value, side, axis=1)
            best = others.max(axis=1) if others.shape[1] else value[:, side]
            rewards[:, side] = (value[:, side] - best) / (100 * self.rules.table.score_unit)
        return rewards

    def _greedy(
        self,
        allowed: NDArray[np.uint64],
        lead: NDArray[np.int64],
        best: NDArray[np.int64],
        winner: NDArray[np.int64],
        seat: NDArray[np.int64],
    ) -> NDArray[np.uint64]:
        """:func:`spadeskit.bots.greedy_card` on arrays: the cheapest card that takes
        the trick unless the seat's side already holds it (or none can), else the
        cheapest card; ties go to the lower card index, as there."""
        taking = allowed & self.beats[lead, best + 1]
        take = (taking != 0) & (self.side_of[winner] != self.side_of[seat])
        # One search: the first card of the taking cards by power where the seat takes
        # the trick, else the first of the allowed cards by cheapness.
        return self._first(np.where(take, taking, allowed), lead * 2 + take)

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

    def simulate(
        self, hands: int, seed: int, policy: str, start: int, chunk: int = CHUNK
    ) -> Iterator[BatchResult]:
        """Yield the hands ``start`` … ``start + hands - 1`` in chunks of ``chunk``."""
        for first in range(start, start + hands, chunk):
            last = min(start + hands, first + chunk)
            yield self.play(np.arange(first, last, dtype=np.int64), seed, policy)


def _indices(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _kth_bit(allowed: NDArray[np.uint64], u: NDArray[np.float64]) -> NDArray[np.uint64]:
    """Return each mask's ``int(u * popcount)``-th set bit (counting from the lowest)."""
    k = (u * np.bitwise_count(allowed)).astype(np.int64)
    one = np.uint64(1)
    for j in range(int(k.max(initial=0))):
        allowed = np.where(k > j, allowed & (allowed - one), allowed)
    return allowed & (~allowed + one)


_ENGINES: dict[Rules, BatchEngine] = {}


def engine_for(rules: Rules) -> BatchEngine:
    """Return the batched engine of ``rules``, derived the first time (and kept)."""
    found = _ENGINES.get(rules)
    if found is None:
        found = _ENGINES[rules] = BatchEngine(rules)
    return found


def simulate_batch(
    rules: Rules,
    hands: int,
    seed: int = 0,
    policy: str = "random",
    *,
    start: int = 0,
    chunk: int = CHUNK,
) -> Iterator[BatchResult]:
    """See :meth:`Rules.simulate_batch <spadeskit.rules.Rules.simulate_batch>`."""
    check_range(hands, start, 2**62)
    if type(chunk) is not int or not 1 <= chunk <= 1 << 20:
        raise SpadesError(f"chunk is a whole number from 1 to 2**20, not {shown(chunk, 40)}")
    check_seed(seed)
    if policy not in POLICIES:
        raise SpadesError(
            f"policy {shown(policy, 30)} is not one of {', '.join(POLICIES)}", code="bad-policy"
        )
    return engine_for(rules).simulate(hands, seed, policy, start, chunk)
