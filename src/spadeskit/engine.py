"""The state machine: deal, auction, exchanges, tricks, review, scoring, next hand.

The engine knows no variant.  It asks the compiled hooks of its :class:`Rules` (plain
calls, see :mod:`spadeskit.compiler`) who speaks, what may be bid and how a hand
scores.  Play is the hot path: a legal play is checked against the compiled play
filters and the trick winner read from the compiled strength table, and the new state
is one generated constructor call that shares every unchanged field.

Two speeds, one rulebook: :meth:`Engine.apply` builds one immutable state per action;
:meth:`Engine.rollout` plays random cards on one mutable scratch copy of the state (the
same filters, strength table and hooks, in the same order) and freezes it at the end
of the hand, so it gives exactly what ``apply`` gives with the same choices.

Every public entry point validates its input before building anything, so a refused
action leaves the state it was applied to untouched (states are immutable anyway).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import math
import random
import secrets
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import attrs

from . import _fast, codegen
from .actions import PLAYS, Action, Bid, Discard, Exchange, Nil, Play, plays_of
from .cards import ALL_CARDS, Card, CardLike, card_at, cards_of, iter_mask, misplaced, parse_cards
from .compiler import answered_by
from .errors import (
    shown,
    DealError,
    Deadlock,
    GameOver,
    IllegalAction,
    NotYourTurn,
    PluginError,
    SpadesError,
    WrongPhase,
)
from .filters import READS, compile_filters
from .results import HandResult, HandSummary, MatchEnd, ScoreLine, Trick
from .rules import HandScore
from .state import (
    DEALT_LATER,
    REFEREE,
    Dealing,
    Dealt,
    Breach,
    Builder,
    GameState,
    MatchState,
    Phase,
    Policy,
    copy_to_builder,
    evolve,
    evolver,
    freeze,
)
from .table import Contract, FrozenMap, Step
from .views import View, make_view

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["PLAYS", "REFEREE", "Engine", "greedy_card"]

# Enum members are slow to look up (about 0.1 µs each on CPython 3.11) and the hot
# path asks for them on every action, so they are bound once here.
_PLAY, _AUCTION, _EXCHANGE, _REVIEW, _OVER = Phase.PLAY, Phase.AUCTION, Phase.EXCHANGE, Phase.REVIEW, Phase.OVER
_NO_ACTIONS: tuple[Action, ...] = ()


_EMPTY = FrozenMap()
_next_card = evolver("to_act", "hands", "trick", "played", "_log", "breaches")
_next_trick = evolver("to_act", "leader", "hands", "trick", "tricks", "books", "won", "played",
                      "_log", "breaches", "pile")
_logged = evolver("_log")
_with_bid = evolver("auction", "bids", "_log")
_next_bidder = evolver("to_act")
_make_trick = _fast.maker(Trick)  # (leader, plays, winner)
_make_summary = _fast.maker(HandSummary)
_make_result = _fast.maker(HandResult)
_make_match = _fast.maker(MatchState)
_make_score = _fast.maker(HandScore)

_combos: dict[tuple[type, tuple[int, ...]], Action] = {}


_singles: dict[type, tuple[Action, ...]] = {}
_pairs: dict[type, tuple[tuple[Action, ...], ...]] = {}


def _single_table(kind: type[Discard] | type[Exchange]) -> tuple[Action, ...]:
    table = _singles.get(kind)
    if table is None:
        table = _singles[kind] = tuple(kind([card]) for card in ALL_CARDS)
    return table


def _pair_table(kind: type[Discard] | type[Exchange]) -> tuple[tuple[Action, ...], ...]:
    """Return ``table[i][j]`` (i < j): the shared two-card action, built once per kind."""
    table = _pairs.get(kind)
    if table is None:
        table = _pairs[kind] = tuple(tuple(kind([ALL_CARDS[i], ALL_CARDS[j]]) if i < j else PLAYS[0]
                                           for j in range(54)) for i in range(54))
    return table


def combos_of(kind: type[Discard] | type[Exchange], held: int, count: int) -> tuple[Action, ...]:
    """Return every ``kind`` action giving ``count`` cards of the mask ``held``, in
    ``itertools.combinations`` order.  Each value is built once and shared."""
    cards = tuple(iter_mask(held))
    if count == 1:
        row = _single_table(kind)
        return tuple([row[i] for i in cards])
    if count == 2:
        table = _pair_table(kind)
        return tuple([table[i][j] for k, i in enumerate(cards) for j in cards[k + 1:]])
    return tuple(_combo(kind, combo) for combo in itertools.combinations(cards, count))


def nth_combo(kind: type[Discard] | type[Exchange], held: int, count: int, index: int) -> Action:
    """Return ``combos_of(kind, held, count)[index]`` without building the others.

    Combinations come in ``itertools.combinations`` (lexicographic) order; this walks
    that order by counting, as in the itertools recipe ``nth_combination``.
    """
    pool = tuple(iter_mask(held))
    n = len(pool)
    chosen = []
    start = 0
    for left in range(count, 0, -1):
        for i in range(start, n - left + 1):
            block = math.comb(n - i - 1, left - 1)
            if index < block:
                chosen.append(pool[i])
                start = i + 1
                break
            index -= block
    return _combo(kind, tuple(chosen)) if count > 2 else combos_cached(kind, tuple(chosen))


def combos_cached(kind: type[Discard] | type[Exchange], indices: tuple[int, ...]) -> Action:
    """Return the shared one- or two-card ``kind`` action for these card indices."""
    if len(indices) == 1:
        return _single_table(kind)[indices[0]]
    return _pair_table(kind)[indices[0]][indices[1]]


def _combo(kind: type[Discard] | type[Exchange], indices: tuple[int, ...]) -> Action:
    key = (kind, indices)
    action = _combos.get(key)
    if action is None:
        action = kind([ALL_CARDS[i] for i in indices])
        if len(_combos) < 100_000:
            _combos[key] = action
    return action


def _cards_won(masks: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    """Return the cards in each mask (a hand summary's ``won``, listed when read)."""
    return tuple([cards_of(m) for m in masks])


def _trick_won(row: Sequence[int], trick: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """Return the seat that wins ``trick`` (the highest card in ``row``, the strength of
    each card given the suit led) and the mask of its cards.  The compiled random-play
    loop inlines the same lines."""
    winner, best, taken = -1, -1, 0
    for who, card in trick:
        taken |= 1 << card
        if row[card] > best:
            winner, best = who, row[card]
    return winner, taken


def _won_with_blind(game: GameState) -> tuple[int, ...]:
    """Return the cards each seat won, the blind added to the last trick's winner's
    (``Contract.blind_to == "last-trick"``)."""
    last = game.tricks[-1].winner
    won = list(game.won)
    won[last] |= game.blind
    return tuple(won)


def _check_policy(policy: object) -> None:
    if policy is not None and not callable(policy):
        raise SpadesError(f"a policy is a function (state, legal_actions) -> action, not {shown(policy, 40)}")


def _listed(action: Action, legal: Sequence[Action]) -> bool:
    """Return whether ``action`` is one of ``legal``: same exact type, equal fields.

    The comparison is made by the listed action (a spadeskit class), never by the
    caller's object, so a subclass with its own ``__eq__`` cannot pass for another.
    """
    for a in legal:
        if a is action:
            return True
    kind = type(action)
    for a in legal:
        if type(a) is kind and a == action:
            return True
    return False


# The playout loop the rules compile (see Engine._compile_playouts).  The hand lives in
# locals (named _k_..., which no building block may assign: filters.Block.check_names);
# _LOAD reads them from the scratch state, _STORE writes them back.  $filters is the
# enforced building blocks' statements, reading the hand through the locals in _LOOP_READS;
# $pick skips to the chosen card; $after_trick is _AFTER_TRICK where the rules have a
# spadeskit_after_trick hook.
_LOOP_READS = {name: f"_k_{name}" for name in READS}
_LOAD = """\
_k_hands = list(hand.hands)
_k_books = list(hand.books)
_k_won = list(hand.won)
_k_trick = hand.trick
_k_tricks = hand.tricks
_k_played = hand.played
_k_log = hand._log
_k_leader = hand.leader
_k_pile = hand.pile
seat = hand.to_act
"""
_STORE = """\
hand.hands = tuple(_k_hands)
hand.books = tuple(_k_books)
hand.won = tuple(_k_won)
hand.trick = _k_trick
hand.tricks = _k_tricks
hand.played = _k_played
hand._log = _k_log
hand.leader = _k_leader
hand.to_act = seat
hand.pile = _k_pile
"""
_PLAYOUT = """\
def play(hand, draw, rows):
$load\
    while True:
        _k_held = _k_hands[seat]
        allowed = _k_held
$filters\
        if type(allowed) is not int or allowed & ~_k_held or not allowed:
            raise _bad(seat, _k_held, allowed)
$pick
            allowed &= allowed - 1
        _k_bit = allowed & -allowed
        _k_index = _k_bit.bit_length() - 1
        _k_hands[seat] = _k_held ^ _k_bit
        _k_trick = _k_trick + (_pairs[seat][_k_index],)
        _k_played |= _k_bit
        _k_log = (_k_log, _entries[seat][_k_index])
        if len(_k_trick) < _N:
            seat = _next[seat]
            continue
        _k_row = rows[_suit_of[_k_trick[0][1]]]
        _k_winner, _k_best, _k_taken = -1, -1, 0
        for _k_who, _k_card in _k_trick:
            _k_taken |= 1 << _k_card
            if _k_row[_k_card] > _k_best:
                _k_winner, _k_best = _k_who, _k_row[_k_card]
        _k_done = _make_trick(_k_leader, _k_trick, _k_winner)
        _k_tricks = _k_tricks + (_k_done,)
        _k_books[_k_winner] += 1
        _k_won[_k_winner] |= _k_taken
        _k_trick = ()
        _k_leader = seat = _k_winner
        if _k_pile and _DRAW:
            _k_taken = 0
            for _k_step in range(_N):
                _k_seat = (_k_winner + _k_step) % _N
                for _ in range(_DRAW):
                    if _k_taken < len(_k_pile):
                        _k_hands[_k_seat] |= 1 << _k_pile[_k_taken]
                        _k_taken += 1
            _k_pile = _k_pile[_k_taken:]
$after_trick\
        if not _k_pile and not any(_k_hands):
            break
$store\
    return hand
"""

# How each loop picks its card: the draw(k)-th allowed card (rollouts, as random.choice
# does), int(draw() * k)-th for a float source (simulate), or greedy_card for a follower
# (search's greedy playouts; a lead stays random).  Each ends in the header of the loop
# that skips the cards before the chosen one.
_PICKS = {
    "exact": "        for _ in range(draw(allowed.bit_count())):",
    "floats": "        for _ in range(int(draw() * allowed.bit_count())):",
    "greedy": """\
        if _k_trick:
            allowed = _greedy(_k_trick, allowed, seat, rows, _suit_of, _side_of)
        for _ in range(0 if _k_trick else int(draw() * allowed.bit_count())):""",
}

# The hook is handed a frozen copy of the hand (hooks never see a mutable state); the
# locals are read back from what it returns.
_AFTER_TRICK = """\
$store\
        _k_changed = _after(_freeze(_copy(hand)), _k_done)
        if _k_changed is not None:
            if not isinstance(_k_changed, _GameState):
                raise _bad_after(_k_changed)
            hand = _copy(_k_changed)
            hand._legal = None
$load\
"""


_ASK = object()  # "ask the hook" (an answer of None is the hook's, and refused)


def greedy_card(trick: Sequence[tuple[int, int]], allowed: int, seat: int, rows: Sequence[Sequence[int]],
                suit_of: Sequence[int], side_of: Sequence[int]) -> int:
    """Return the mask of the card a greedy player follows ``trick`` with, from the
    ``allowed`` mask: the cheapest card that takes the trick, unless the seat's side is
    already winning it or no card can; then the cheapest card.  Cheapest: the least power
    in this trick, then the least power in its own suit (a low discard before a high one,
    a side suit before a trump).  The rules' compiled greedy playouts call it."""
    if not allowed & (allowed - 1):
        return allowed
    row = rows[suit_of[trick[0][1]]]
    best_who, best = -1, -1
    for who, card in trick:
        if row[card] > best:
            best_who, best = who, row[card]
    low = win = -1
    low_key = win_power = 1 << 30
    mask = allowed
    while mask:
        bit = mask & -mask
        mask ^= bit
        index = bit.bit_length() - 1
        power = row[index]
        key = (power << 10) + rows[suit_of[index]][index]
        if key < low_key:
            low, low_key = index, key
        if best < power < win_power:
            win, win_power = index, power
    if win < 0 or side_of[best_who] == side_of[seat]:
        return 1 << low
    return 1 << win


def _index_drawer(rng: random.Random) -> Callable[[int], int]:
    """Return ``draw(k)``: the index ``rng.choice`` draws from a sequence of length ``k``."""
    # random.Random.choice(seq) is seq[rng._randbelow(len(seq))]; randrange(k) draws the
    # same number through public API, only slower, where _randbelow is missing.
    draw: Callable[[int], int] = getattr(rng, "_randbelow", rng.randrange)
    return draw


SEED_BITS = 256
"""Seeds are whole numbers of at most this many bits (either sign)."""


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is a whole number within :data:`SEED_BITS`; raise SpadesError if not."""
    if type(seed) is not int or seed.bit_length() > SEED_BITS:
        raise SpadesError(f"a seed is a whole number of at most {SEED_BITS} bits, not {shown(seed)}")
    return seed


def mix(seed: int, number: int) -> int:
    """Return a 64-bit seed for item ``number`` of a batch seeded with ``seed``."""
    data = hashlib.blake2b(f"{seed}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(data, "big")


class Engine:
    """Plays games under one compiled :class:`Rules`; reached through ``GameState``."""

    def __init__(self, rules: Rules) -> None:
        rules._engine = self
        self.rules = rules
        self.calls = rules.calls
        self.table = rules.table
        n = self.n = rules.table.players
        self.suit_of = rules.ranking.suit_of
        self.sources: codegen.Sources = rules.sources
        self.check = compile_filters([f for f in rules.filters if f.enforced], self.sources)
        self.advisory = tuple(f for f in rules.filters if not f.enforced)
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.pairs = tuple(tuple((s, i) for i in range(54)) for s in range(n))
        self.entries = tuple(tuple((s, PLAYS[i]) for i in range(54)) for s in range(n))
        offers = self.calls.offers
        self.player_offers = {phase: offers[(phase, False)] for phase, referee in offers if not referee}
        self.referee_offers = {phase: offers[(phase, True)] for phase, referee in offers if referee}
        self.play_offer = self.player_offers[_PLAY]
        self.draw = rules.table.deal.draw
        self.deck = tuple(c.index for c in rules.table.deck)
        self.deal_map = self._deal_map()
        loops = self._compile_playouts()
        self.compiled_play: Callable[..., Any] | None = loops[0] if loops is not None else None
        self.compiled_play_fast: Callable[..., Any] | None = loops[1] if loops is not None else None
        self.compiled_play_greedy: Callable[..., Any] | None = loops[2] if loops is not None else None
        # Auction tuples already checked, by id (each kept alive here, so ids stay unique).
        self._checked_auction: dict[int, tuple[Action, ...]] = {}

    def _compile_playouts(self) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]] | None:
        """Return generated playout loops on plain locals (drawing exact indices, drawing
        floats, greedy followers), or ``None`` where the rules play card by card instead.

        Possible when every enforced play filter is a building block (its statements are
        inlined, reading the hand in play from locals) and no filter is advisory: then
        nothing outside this loop sees the hand during a trick, so it is kept in locals and
        written to a state at the end of the hand, and before each
        ``spadeskit_after_trick`` call where the rules have one.
        """
        filters = [f for f in self.rules.filters if f.enforced]
        if self.advisory or any(f.block is None for f in filters):
            return None
        namespace: dict[str, Any] = {}
        body = []
        for k, f in enumerate(filters):
            assert f.block is not None
            names = {key: f"_c{k}_{key}" for key in f.block.constants}
            namespace.update({names[key]: value for key, value in f.block.constants.items()})
            body.append(f.block.render(_LOOP_READS, names))
        load, store = codegen.indent(_LOAD, 1), codegen.indent(_STORE, 1)
        after = "" if self.calls.after_trick is None else codegen.render(
            _AFTER_TRICK, load=codegen.indent(_LOAD, 3), store=codegen.indent(_STORE, 2))
        namespace.update(_N=self.n, _DRAW=self.draw, _pairs=self.pairs, _entries=self.entries, _next=self.next_seat,
                         _suit_of=self.suit_of, _make_trick=_make_trick, _bad=self._bad_filters,
                         _after=self.calls.after_trick, _bad_after=self._bad_after_trick,
                         _copy=copy_to_builder, _freeze=freeze, _GameState=GameState, _greedy=greedy_card,
                         _side_of=self.rules.side_of)
        loops = []
        for kind, pick in _PICKS.items():
            source = codegen.render(_PLAYOUT, load=load, store=store, filters=codegen.indent("".join(body), 2),
                                    pick=pick, after_trick=after)
            loops.append(codegen.function("play", source, namespace, label=f"{kind} playout {self.rules.name}",
                                          sources=self.sources))
        return loops[0], loops[1], loops[2]

    def _deal_map(self) -> tuple[tuple[int, ...], ...]:
        """Return the shuffled-deck positions dealt to each seat left of the dealer in
        turn (first the dealer's left), then the blind's, then the pile's."""
        plan = self.table.deal
        seats: list[list[int]] = [[] for _ in range(self.n)]
        pos = 0
        for packet in plan.rounds():
            for seat in seats:
                seat.extend(range(pos, pos + packet))
                pos += packet
        blind = tuple(range(pos, pos + plan.blind))
        return tuple(tuple(p) for p in seats) + (blind, tuple(range(pos + plan.blind, len(self.deck))))

    # ----------------------------------------------------------------------------------
    # Naming and checking, for messages
    # ----------------------------------------------------------------------------------

    def seat_name(self, seat: int | None) -> str:
        """Return ``"seat 2 (S)"``, or ``"the referee"`` for ``None``."""
        if seat is None:
            return "the referee"
        return f"seat {seat} ({self.table.seat_names[seat]})"

    def check_seat(self, seat: object, what: str = "seat") -> int:
        """Return ``seat`` if it is a seat of this table; raise :class:`IllegalAction` if not."""
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction(f"{what} {shown(seat, 40)} does not exist: seats are 0 to {self.n - 1}")
        return seat

    def _plugin_seat(self, seat: object, hook: str, call: Any) -> int:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise self._bad(hook, call, seat, "not a seat")
        return seat

    def _bad(self, hook: str, call: Any, value: object, what: str, index: int | None = None) -> PluginError:
        """Return the error for a hook answer the engine cannot use, naming who gave it."""
        return PluginError(f"{hook} answered {shown(value, 60)}, {what} ({answered_by(call, index)}, "
                           f"in {self.rules.name!r})")

    # ----------------------------------------------------------------------------------
    # Starting games and hands
    # ----------------------------------------------------------------------------------

    def new_game(
        self,
        seed: int | None,
        deal: Sequence[Iterable[CardLike] | str] | None,
        dealer: int | None,
        blind: Iterable[CardLike] | str,
        pile: Iterable[CardLike] | str,
    ) -> GameState:
        if seed is not None:
            check_seed(seed)
        if dealer is None:
            dealer = self.n - 1
        self.check_seat(dealer, "dealer")
        explicit = (self._check_deal(deal, blind, pile),) if deal is not None else ()
        return self.start(Dealing(seed, secrets.token_bytes(32) if seed is None else None, explicit), dealer)

    def start(self, dealing: Dealing, dealer: int) -> GameState:
        """Return a new match dealt as ``dealing`` says, ``dealer`` dealing the first hand."""
        match = MatchState.fresh(len(self.table.sides))
        game = self._hand(dealing, match, 0, dealer)
        self.deal_now(game)
        return game

    def _check_deal(
        self,
        deal: Sequence[Iterable[CardLike] | str],
        blind: Iterable[CardLike] | str,
        pile: Iterable[CardLike] | str,
    ) -> tuple[tuple[int, ...], ...]:
        plan = self.table.deal
        if isinstance(deal, Sequence) and not isinstance(deal, (str, bytes)) and len(deal) == self.n + 2:
            # A record's deal: the hands, then the blind and the pile.
            if (blind and list(parse_cards(blind)) != list(parse_cards(deal[-2]))) or \
                    (pile and list(parse_cards(pile)) != list(parse_cards(deal[-1]))):
                raise DealError("the deal already lists the blind and the pile: do not give them again")
            deal, blind, pile = deal[:self.n], deal[-2], deal[-1]
        if isinstance(deal, (str, bytes)) or not isinstance(deal, Sequence) or len(deal) != self.n:
            raise DealError(f"a deal for {self.rules.name!r} is {self.n} hands, one per seat (optionally "
                            f"followed by the blind and the pile, as a record holds it), not {shown(deal, 40)}")
        hands = [tuple(c.index for c in parse_cards(h)) for h in deal]
        extra = [tuple(c.index for c in parse_cards(blind)), tuple(c.index for c in parse_cards(pile))]
        deck = {c.index for c in self.table.deck}
        if plan.blind and not extra[0] and not plan.pile:
            dealt = {c for h in hands for c in h}
            extra[0] = tuple(sorted(deck - dealt))
        groups = [(self.seat_name(s), h) for s, h in enumerate(hands)] + [("the blind", extra[0]),
                                                                           ("the pile", extra[1])]
        problem = misplaced(groups, deck, "dealt", "to")
        if problem:
            raise DealError(f"{problem} of {self.rules.name!r}" if problem.endswith("deck") else problem)
        misdeal = self.calls.misdeal_allowed
        if misdeal is None or not misdeal():
            for seat, h in enumerate(hands):
                if len(h) != plan.hand_size:
                    raise DealError(f"{self.seat_name(seat)} is dealt {len(h)} cards; a hand is {plan.hand_size}")
        elif {c for h in hands for c in h} != deck - set(extra[0]) - set(extra[1]):
            raise DealError(f"the deal must use every card of the deck of {self.rules.name!r}")
        for name, cards, size in (("blind", extra[0], plan.blind), ("pile", extra[1], plan.pile)):
            if len(cards) != size:
                raise DealError(f"the {name} has {len(cards)} cards; it must have {size}")
        return tuple(hands) + tuple(extra)

    def _shuffle(self, rng: random.Random, dealer: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
        """Return the hand masks (by seat), the blind mask and the pile of a deal drawn
        from ``rng``: the deck sorted by 64-bit random keys (all drawn in one call)."""
        deck = self.deck
        size = len(deck)
        keys = array("Q", rng.getrandbits(64 * size).to_bytes(8 * size, "little"))
        order = [deck[i] for i in sorted(range(size), key=keys.__getitem__)]
        n = self.n
        masks = [0] * n
        deal_map = self.deal_map
        for step in range(n):
            mask = 0
            for pos in deal_map[step]:
                mask |= 1 << order[pos]
            masks[(dealer + 1 + step) % n] = mask
        blind = 0
        for pos in deal_map[n]:
            blind |= 1 << order[pos]
        return tuple(masks), blind, tuple(order[pos] for pos in deal_map[n + 1])

    @staticmethod
    def _hand_rng(game: GameState) -> random.Random:
        """Return the generator that shuffles the hand in progress.

        Seeded: from the string ``(seed, hand)``, hashed (SHA-512) into the generator's
        seed, so different pairs never share a deal.  Unseeded: from an HMAC of the hand
        number under the game's secret, which no state, view or record shows.
        """
        dealing = game._dealing
        if dealing.seed is not None:
            return random.Random(f"spadeskit deal {dealing.seed} {game.number}")
        assert dealing.secret is not None
        return random.Random(hmac.new(dealing.secret, f"hand {game.number}".encode(), hashlib.sha256).digest())

    def _hand(self, dealing: Dealing, match: MatchState, number: int, dealer: int) -> GameState:
        """Return a new hand whose deal waits until something reads it (see ``deal_now``)."""
        n = self.n
        o: Any = object.__new__(Builder)
        o.rules, o._dealing, o.match = self.rules, dealing, match
        o.number, o.dealer = number, dealer
        o.auction, o.bids, o.trick, o.tricks = (), (None,) * n, (), ()
        o.books = o.won = (0,) * n
        o.played, o.breaches, o.transfers, o.extra = 0, (), (), _EMPTY
        o._log = o._legal = None
        return freeze(o)

    def deal_now(self, game: GameState, rng: random.Random | None = None) -> None:
        """Deal the hand of a new ``game`` in place and start its auction.

        Called once per hand, when something first reads a dealt field; the state
        counts as immutable because what it is filled with follows from it alone.
        The deal is the game's explicit one for this hand if it has one, else shuffled by
        ``rng`` or by the game's own generator for this hand.
        """
        n = self.n
        explicit = game._dealing.explicit
        deal = explicit[game.number] if game.number < len(explicit) else None
        if deal is None:
            hands, blind, pile = self._shuffle(rng or self._hand_rng(game), game.dealer)
        else:
            masks = []
            for cards in deal[: n + 1]:
                mask = 0
                for c in cards:
                    mask |= 1 << c
                masks.append(mask)
            hands, blind, pile = tuple(masks[:n]), masks[n], tuple(deal[n + 1])
        put = object.__setattr__
        put(game, "hands", hands)
        put(game, "blind", blind)
        put(game, "pile", pile)
        put(game, "phase", _AUCTION)
        put(game, "to_act", None)
        put(game, "contract", None)
        put(game, "steps", ())
        put(game, "leader", (game.dealer + 1) % n)
        put(game, "_dealt", (hands, blind, pile))
        try:
            # The hooks are asked about a frozen copy: ``game`` itself changes just below.
            for name, value in self._auction_step(evolve(game)).items():
                put(game, name, value)
        except BaseException:
            for name in DEALT_LATER:
                object.__delattr__(game, name)
            raise
        put(game, "_legal", None)

    # ----------------------------------------------------------------------------------
    # Legal actions
    # ----------------------------------------------------------------------------------

    def legal_mask(self, game: GameState) -> int:
        """Return the mask of cards the seat to act may play (its filters applied)."""
        mask = game._legal
        if mask is None:
            seat = game.to_act
            assert seat is not None
            held = game.hands[seat]
            mask = self.check(game, seat, held)
            if type(mask) is not int or mask & ~held or not mask:
                raise self._bad_filters(seat, held, mask)
            object.__setattr__(game, "_legal", mask)
        return int(mask)

    def _bad_after_trick(self, changed: object) -> PluginError:
        return self._bad("spadeskit_after_trick", self.calls.after_trick, changed, "not a state")

    def _bad_filters(self, seat: int, held: int, mask: object) -> PluginError:
        names = ", ".join(f.name for f in self.rules.filters if f.enforced)
        if type(mask) is not int:
            why = f"returned {shown(mask, 40)}, not a card mask"
        elif not mask:
            why = "leave nothing to play from a hand that is not empty"
        else:
            why = f"allow {', '.join(c.code for c in cards_of(mask & ~held))}, which the seat does not hold"
        return PluginError(f"the play filters of {self.rules.name!r} ({names}) {why} "
                           f"for {self.seat_name(seat)}")

    def legal_actions(self, game: GameState, seat: int | None) -> tuple[Action, ...]:
        if game.match.end is not None:
            return _NO_ACTIONS
        actor = game.to_act
        phase = game.phase
        if seat is None or (seat == actor and type(seat) is int):
            assert actor is not None
            if phase is _PLAY:
                mask = game._legal
                own = plays_of(mask if mask is not None else self.legal_mask(game))
                if self.play_offer is None:
                    return own
            elif phase is _AUCTION:
                own = self._auction_actions(game, actor)
            elif phase is _EXCHANGE:
                own = self._step_actions(game, actor)
            else:
                own = _NO_ACTIONS
            offer = self.player_offers.get(phase)
            found = own if offer is None else own + self._offered(offer, game, actor)
            if not found:
                raise self._stuck(game, actor)
            return found
        if seat == REFEREE and type(seat) is int:
            offer = self.referee_offers.get(phase)
            return self._offered(offer, game, None) if offer is not None else _NO_ACTIONS
        self.check_seat(seat)
        offer = self.player_offers.get(phase)
        return self._offered(offer, game, seat) if offer is not None else _NO_ACTIONS

    def _stuck(self, game: GameState, seat: int) -> Deadlock:
        """Return the error for a state in which the seat to act has no action at all."""
        names = ", ".join(info.name for info in self.rules.plugins)
        return Deadlock(f"{self.seat_name(seat)} has no legal action in the {game.phase.value} of hand "
                        f"{game.number + 1}: the rules {self.rules.name!r} leave the game stuck "
                        f"(plugins {names}; two of them probably cannot be combined)")

    def _offered(self, offer: Any, game: GameState, seat: int | None) -> tuple[Action, ...]:
        found = offer(game, seat)
        actions: list[Action] = []
        for index, group in enumerate(found):
            for action in group or ():
                if not isinstance(action, Action):
                    raise self._bad("spadeskit_out_of_turn_actions", offer, action, "not an action", index)
                actions.append(action)
        return tuple(actions)

    def _auction_actions(self, game: GameState, seat: int) -> tuple[Action, ...]:
        # Cached on the state like the legal-play mask: asked once, then read by apply().
        cached = game._legal
        if type(cached) is tuple:
            return cached
        found = self.calls.auction_actions(game, seat)
        if found is None:
            raise PluginError(f"no plugin of {self.rules.name!r} lists the auction actions "
                              f"(spadeskit_auction_actions answered None)")
        actions = tuple(found)
        if self._checked_auction.get(id(actions)) is not actions:
            for action in actions:
                if not isinstance(action, Action):
                    raise self._bad("spadeskit_auction_actions", self.calls.auction_actions, action,
                                    "not an action")
            # Plugins mostly return a few constant tuples (blind-nil alternates two): check
            # each once.  A plugin building a new tuple each time has it checked each time.
            if len(self._checked_auction) >= 16:
                self._checked_auction.clear()
            self._checked_auction[id(actions)] = actions
        object.__setattr__(game, "_legal", actions)
        return actions

    def paper_bids(self, game: GameState, seat: int) -> tuple[Action, ...]:
        """Return the bids a score sheet accepts from ``seat`` on ``game``: every bid a
        rule lists as possible with some hand (``spadeskit_paper_bids``), then the
        auction's own actions that none of them listed."""
        own = self._auction_actions(game, seat)
        extra = self.calls.paper_bids
        if extra is None:
            return own
        found: list[Action] = []
        for index, group in enumerate(extra(game, seat)):
            for action in group or ():
                if not isinstance(action, Action):
                    raise self._bad("spadeskit_paper_bids", extra, action, "not an action", index)
                if not _listed(action, found):
                    found.append(action)
        return tuple(found) + tuple(action for action in own if not _listed(action, found))

    def paper_bid(self, game: GameState, seat: int, action: Action) -> GameState:
        """Return ``game`` after ``seat``'s bid ``action``, which the caller checked
        against :meth:`paper_bids`."""
        return self._bid_state(game, seat, action)

    def _step_actions(self, game: GameState, seat: int) -> tuple[Action, ...]:
        cached = game._legal
        if type(cached) is tuple:
            return cached
        step = game.steps[0]
        actions = combos_of(Discard if step.kind == "discard" else Exchange, game.hands[seat], step.count)
        object.__setattr__(game, "_legal", actions)
        return actions

    # ----------------------------------------------------------------------------------
    # Applying actions
    # ----------------------------------------------------------------------------------

    def apply(self, game: GameState, action: Action, seat: int | None) -> GameState:
        if type(action) is Play and game.phase is _PLAY:
            actor = game.to_act
            if actor is not None and (seat is None or (seat == actor and type(seat) is int)):
                index = action.card.index
                mask = game._legal
                if mask is None:
                    mask = self.legal_mask(game)
                if not (mask >> index) & 1:
                    raise self._refuse_play(game, actor, action)
                return self._play(game, actor, index)
        return self._apply_slow(game, action, seat)

    def _apply_slow(self, game: GameState, action: Action, seat: int | None) -> GameState:
        if game.match.end is not None:
            raise GameOver(f"{action} refused: the match is over ({game.match.end.reason})")
        if not isinstance(action, Action):
            raise IllegalAction(f"{shown(action, 60)} is not an action (use spadeskit.Bid(4), spadeskit.Play('AS') …)")
        referee = seat == REFEREE and type(seat) is int
        if seat is None:
            seat = game.to_act
        elif not referee:
            self.check_seat(seat)
        claimant = None if referee else seat
        phase = game.phase
        offer = (self.referee_offers if referee else self.player_offers).get(phase)
        if offer is not None and _listed(action, self._offered(offer, game, claimant)):
            return self._take_offered(game, claimant, action)
        if referee:
            offered = self._offered(offer, game, None) if offer is not None else ()
            raise IllegalAction(
                f"{action} refused: the referee may only {', '.join(map(str, offered)) or 'watch now'}"
            )
        if seat != game.to_act:
            raise NotYourTurn(
                f"{action} by {self.seat_name(seat)} refused: it is {self.seat_name(game.to_act)}'s "
                f"turn ({phase.value})"
            )
        assert seat is not None
        if phase is _AUCTION:
            return self._bid(game, seat, action)
        if phase is _EXCHANGE:
            return self._exchange(game, seat, action)
        if phase is _PLAY:
            raise WrongPhase(f"{action} by {self.seat_name(seat)} refused: it is time to play a card")
        raise WrongPhase(
            f"{action} by {self.seat_name(seat)} refused in the {phase.value}: "
            f"allowed are {', '.join(map(str, self.legal_actions(game, seat))) or 'none'}"
        )

    def _take_offered(self, game: GameState, claimant: int | None, action: Action) -> GameState:
        """Return the state after an offered out-of-turn action (``claimant`` ``None``: the
        referee): logged in the hand where it happened, before the plugin that offered
        it applies it (and perhaps closes that hand)."""
        logged = _logged(game, (game._log, (REFEREE if claimant is None else claimant, action)))
        hook = self.calls.apply_out_of_turn
        new = hook(logged, claimant, action) if hook is not None else None
        if new is None:
            raise PluginError(f"no plugin of {self.rules.name!r} applied the offered action {action}")
        if not isinstance(new, GameState):
            raise self._bad("spadeskit_apply_out_of_turn", hook, new, "not a state")
        return new

    def _refuse_play(self, game: GameState, seat: int, action: Play) -> SpadesError:
        card = action.card
        who = self.seat_name(seat)
        mask = game.hands[seat]
        if not (mask >> card.index) & 1:
            return IllegalAction(f"{who} cannot play {card}: it is not in their hand")
        for f in self.rules.filters:
            if f.enforced:
                mask = f.check(game, seat, mask)
                if not (mask >> card.index) & 1:
                    return IllegalAction(f"{who} cannot play {card}: {f.reason or f.name}")
        return IllegalAction(f"{who} cannot play {card}")

    def _bid(self, game: GameState, seat: int, action: Action) -> GameState:
        legal = self._auction_actions(game, seat)
        if not _listed(action, legal):
            who = self.seat_name(seat)
            if isinstance(action, Play):
                raise WrongPhase(f"{action} by {who} refused: the auction is not over; bid first")
            hint = ""
            if type(action) is Bid and action.tricks == 0 and _listed(Nil(), legal):
                hint = " (a bid of 0 is nil here: use Nil())"
            raise IllegalAction(
                f"{action} by {who} refused{hint}; allowed: {', '.join(map(str, legal))}"
            )
        return self._bid_state(game, seat, action)

    def _bid_state(self, game: GameState, seat: int, action: Action) -> GameState:
        """Return the state after ``seat``'s (checked) bid: a new state holding the bid,
        about which ``spadeskit_auction_next`` is asked, then the auction moved on.  The
        hook sees a frozen state, never one that changes after it answered."""
        entry = (seat, action)
        bids = game.bids
        new = _with_bid(game, game.auction + (entry,), bids[:seat] + (action,) + bids[seat + 1:],
                        (game._log, entry))
        nxt = self.calls.auction_next(new)
        if type(nxt) is int and 0 <= nxt < self.n:  # the next seat bids: the common case
            return _next_bidder(new, nxt)
        return evolve(new, **self._auction_step(new, nxt))

    def _auction_step(self, game: GameState, nxt: object = _ASK) -> dict[str, Any]:
        """Return the fields that change when the auction moves on (a seat, or play
        begins), given ``spadeskit_auction_next``'s answer or asking it."""
        if nxt is _ASK:
            nxt = self.calls.auction_next(game)
        if isinstance(nxt, Contract):
            return self._begin_play(game, nxt)
        return {"to_act": self._plugin_seat(nxt, "spadeskit_auction_next", self.calls.auction_next)}

    def _begin_play(self, game: GameState, contract: Contract) -> dict[str, Any]:
        hook, call = "spadeskit_auction_next", self.calls.auction_next
        self._plugin_seat(contract.leader, f"{hook} (the contract's leader)", call)
        hands, blind = game.hands, game.blind
        declarer = contract.declarer
        if declarer is not None:
            self._plugin_seat(declarer, f"{hook} (the contract's declarer)", call)
            if contract.blind_to == "declarer":
                hands = hands[:declarer] + (hands[declarer] | blind,) + hands[declarer + 1:]
                blind = 0
        if self.calls.contract_steps is not None:
            contract = self._more_steps(game, contract)
        for step in contract.steps:
            self._plugin_seat(step.seat, f"{hook} (a step's seat)", call)
        changes = {"contract": contract, "hands": hands, "blind": blind, "steps": contract.steps,
                   "phase": _EXCHANGE, "to_act": None, "leader": contract.leader}
        if contract.steps:
            changes["to_act"] = contract.steps[0].seat
            return changes
        changes["phase"] = _PLAY
        if self.calls.first_leader is not None:
            changes["leader"] = self._first_leader(evolve(game, **changes))
        changes["to_act"] = changes["leader"]
        return changes

    def _more_steps(self, game: GameState, contract: Contract) -> Contract:
        """Return ``contract`` with the steps of ``spadeskit_contract_steps`` appended."""
        call = self.calls.contract_steps
        assert call is not None
        found = call(game, contract)
        steps = list(contract.steps)
        for index, group in enumerate(found):
            for step in group or ():
                if not isinstance(step, Step):
                    raise self._bad("spadeskit_contract_steps", call, step, "not a Step", index)
                steps.append(step)
        if len(steps) == len(contract.steps):
            return contract
        return attrs.evolve(contract, steps=tuple(steps))

    def _first_leader(self, game: GameState) -> int:
        """Return who leads the first trick of ``game``, whose play is about to begin
        (the ``spadeskit_first_leader`` hook, which the caller knows exists)."""
        contract = game.contract
        assert contract is not None and self.calls.first_leader is not None
        seat = self.calls.first_leader(game)
        return contract.leader if seat is None else self._plugin_seat(seat, "spadeskit_first_leader",
                                                                      self.calls.first_leader)

    def _exchange(self, game: GameState, seat: int, action: Action) -> GameState:
        step: Step = game.steps[0]
        kind = Discard if step.kind == "discard" else Exchange
        if type(action) is not kind:
            who = self.seat_name(seat)
            raise WrongPhase(f"{action} by {who} refused: {who} must {step.kind} {step.count} cards first")
        assert isinstance(action, (Discard, Exchange))
        cards = action.cards
        mask = 0
        for card in cards:
            if not (game.hands[seat] >> card.index) & 1:
                raise IllegalAction(f"{action} by {self.seat_name(seat)} refused: {card} is not in their hand")
            mask |= card.bit
        if len(cards) != step.count:
            raise IllegalAction(f"{action} by {self.seat_name(seat)} refused: give exactly {step.count} cards")
        hands = game.hands[:seat] + (game.hands[seat] & ~mask,) + game.hands[seat + 1:]
        won = game.won
        if step.kind == "discard":
            won = won[:seat] + (won[seat] | mask,) + won[seat + 1:]
        else:
            to = self._plugin_seat(step.to, "spadeskit_auction_next (an exchange's receiver)", self.calls.auction_next)
            hands = hands[:to] + (hands[to] | mask,) + hands[to + 1:]
        steps = game.steps[1:]
        log = (game._log, (seat, action))
        if steps:
            return evolve(game, hands=hands, won=won, steps=steps, to_act=steps[0].seat, _log=log)
        contract = game.contract
        assert contract is not None
        leader = contract.leader
        if self.calls.first_leader is not None:
            leader = self._first_leader(evolve(game, hands=hands, won=won, steps=steps, _log=log))
        return evolve(game, hands=hands, won=won, steps=steps, phase=_PLAY, to_act=leader, leader=leader,
                      _log=log)

    def _breach(self, game: Any, seat: int, held: int, bit: int, index: int) -> Breach | None:
        proper = held
        for f in self.advisory:
            proper = f.check(game, seat, proper)
            if not proper & bit:
                return Breach(len(game.tricks), seat, index, f.name)
        return None

    def _play(self, game: GameState, seat: int, index: int) -> GameState:
        bit = 1 << index
        hands = game.hands
        held = hands[seat]
        breaches = game.breaches
        if self.advisory:
            breach = self._breach(game, seat, held, bit, index)
            if breach is not None:
                breaches = breaches + (breach,)
        changed = list(hands)  # half the cost of slicing and joining three tuples
        changed[seat] = held ^ bit
        hands = tuple(changed)
        trick = game.trick + (self.pairs[seat][index],)
        log = (game._log, self.entries[seat][index])
        played = game.played | bit
        if len(trick) < self.n:
            return _next_card(game, self.next_seat[seat], hands, trick, played, log, breaches)
        contract = game.contract
        assert contract is not None
        winner, taken = _trick_won(self.rules.strength_table(contract.trump)[self.suit_of[trick[0][1]]], trick)
        done = _make_trick(game.leader, trick, winner)
        counts, taken_by = list(game.books), list(game.won)
        counts[winner] += 1
        taken_by[winner] |= taken
        books, won = tuple(counts), tuple(taken_by)
        pile = game.pile
        if pile and self.draw:
            hands, pile = self._draw(hands, pile, winner)
        new = _next_trick(game, winner, winner, hands, (), game.tricks + (done,), books, won, played,
                          log, breaches, pile)
        if self.calls.after_trick is not None:
            changed = self.calls.after_trick(new, done)
            if changed is not None:
                if not isinstance(changed, GameState):
                    raise self._bad_after_trick(changed)
                new = changed
        if any(new.hands) or new.pile:
            return new
        after = self._end_play(new)
        assert isinstance(after, GameState)
        return after

    def _draw(self, hands: tuple[int, ...], pile: tuple[int, ...], winner: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Return the hands and pile after each seat draws, the trick's winner first."""
        drawn = list(hands)
        taken = 0
        for step in range(self.n):
            seat = (winner + step) % self.n
            for _ in range(self.draw):
                if taken < len(pile):
                    drawn[seat] |= 1 << pile[taken]
                    taken += 1
        return tuple(drawn), pile[taken:]

    def _end_play(self, game: GameState, close: bool = True) -> GameState | HandResult:
        """Settle the blind, then ask for a review or score the hand: the state after
        that, or (``close=False``, for :meth:`simulate`) only the hand's result where no
        review follows, without recording it or starting the next hand."""
        contract = game.contract
        assert contract is not None
        if contract.blind_to == "last-trick" and game.blind:
            game = evolve(game, won=_won_with_blind(game), blind=0)
        return self._review_or_result(game, close)

    def review_or_score(self, game: GameState) -> GameState:
        """Ask for a review seat after the last trick; score the hand when there is none.

        Plugins with a review step call this after each review action.
        """
        after = self._review_or_result(game, True)
        assert isinstance(after, GameState)
        return after

    def _review_or_result(self, game: GameState, close: bool) -> GameState | HandResult:
        hook = self.calls.before_scoring
        if hook is not None:
            seat = hook(game)
            if seat is not None:
                self._plugin_seat(seat, "spadeskit_before_scoring", hook)
                return evolve(game, phase=_REVIEW, to_act=seat)
        result = self._result(game)
        return self.close_hand(game, result) if close else result

    # ----------------------------------------------------------------------------------
    # Rollouts and simulations
    # ----------------------------------------------------------------------------------

    def rollout(self, game: GameState, seed: int | None, policy: Policy | None) -> GameState:
        if seed is not None:
            check_seed(seed)
        _check_policy(policy)
        rng = random.Random(seed)
        return self._rollout(game, rng.choice, _index_drawer(rng), policy)

    def _rollout(self, game: GameState, choice: Callable[[Sequence[Action]], Action],
                 draw: Callable[[int], int], policy: Policy | None,
                 fraction: Callable[[], float] | None = None) -> GameState:
        """Play to the end of the hand, choosing with ``choice`` (of a sequence) or
        ``draw`` (an index below ``n``), which must agree with each other, and with
        ``fraction`` (``draw(n) == int(fraction() * n)``) where it is given."""
        end = self._play_out(game, choice, draw, policy, fraction, True)
        assert isinstance(end, GameState)
        return end

    def rollout_floats(self, game: GameState, fraction: Callable[[], float]) -> GameState:
        """Play ``game``'s hand to its end at random, every choice drawn from ``fraction``
        (floats in [0, 1): the ``int(fraction() * n)``-th of ``n`` options), and return
        the state just after scoring: :meth:`GameState.rollout` for callers that keep one
        generator across many rollouts (search)."""
        end = self._play_out_floats(game, fraction, None, True)
        assert isinstance(end, GameState)
        return end

    def _play_out_floats(self, game: GameState, fraction: Callable[[], float], policy: Policy | None,
                         close: bool) -> GameState | HandResult:
        """:meth:`_play_out` with every random choice drawn from ``fraction``."""

        def draw(count: int) -> int:
            return int(fraction() * count)

        def choice(options: Sequence[Action]) -> Action:
            return options[int(fraction() * len(options))]

        return self._play_out(game, choice, draw, policy, fraction, close)

    def _play_out(self, game: GameState, choice: Callable[[Sequence[Action]], Action],
                  draw: Callable[[int], int], policy: Policy | None,
                  fraction: Callable[[], float] | None, close: bool) -> GameState | HandResult:
        """:meth:`_rollout`; with ``close=False``, the hand's result instead where the
        random play ends it with no review (nothing recorded, no next hand built)."""
        match = game.match
        while game.match is match and match.end is None:
            if policy is None:
                phase = game.phase
                if phase is _PLAY and self.play_offer is None:
                    after = self._random_play(game, draw, fraction, close)
                    if type(after) is HandResult:
                        return after
                    game = after  # type: ignore[assignment]
                    continue
                if phase is _AUCTION:
                    game = self._random_auction(game, choice)
                    continue
                if phase is _EXCHANGE and self.player_offers[_EXCHANGE] is None:
                    game = self._random_step(game, draw)
                    continue
            legal = game.legal_actions()
            game = game.apply(choice(legal) if policy is None else policy(game, legal))
        return game

    def _random_auction(self, game: GameState, choice: Callable[[Sequence[Action]], Action]) -> GameState:
        """Bid at random to the end of the auction.

        Each choice is ``choice`` of exactly what ``legal_actions()`` lists: the auction
        actions, then anything offered out of turn.  A bid goes through the step API's
        own code (:meth:`_bid_state`, the legality check aside); an offered action
        through :meth:`_take_offered`, as :meth:`apply` decides it.
        """
        offer = self.player_offers[_AUCTION]
        match = game.match
        while game.phase is _AUCTION:
            seat = game.to_act
            assert seat is not None
            own = self._auction_actions(game, seat)
            if offer is None:
                if not own:
                    raise self._stuck(game, seat)
                action = choice(own)
            else:
                offered = self._offered(offer, game, seat)
                if not own and not offered:
                    raise self._stuck(game, seat)
                action = choice(own + offered)
                if _listed(action, offered):  # as apply() decides: offered actions first
                    game = self._take_offered(game, seat, action)
                    if game.match is not match:
                        return game
                    continue
            game = self._bid_state(game, seat, action)
        return game

    def _random_step(self, game: GameState, randbelow: Callable[[int], int]) -> GameState:
        """Take one random discard or exchange: the action ``choice(legal_actions())``
        would pick, found by its index without building the others."""
        seat = game.to_act
        assert seat is not None
        step = game.steps[0]
        kind = Discard if step.kind == "discard" else Exchange
        held = game.hands[seat]
        action = nth_combo(kind, held, step.count, randbelow(math.comb(held.bit_count(), step.count)))
        return self._exchange(game, seat, action)

    def _random_play(self, game: GameState, randbelow: Callable[[int], int],
                     fraction: Callable[[], float] | None = None, close: bool = True) -> GameState | HandResult:
        """Play random cards to the end of the hand's play: each the ``randbelow(k)``-th
        legal card, or, given ``fraction`` (floats in [0, 1)), the ``int(fraction() * k)``-th."""
        if self.compiled_play is not None and (not game.pile or self.draw or self.calls.after_trick is not None):
            s = copy_to_builder(game)
            s._legal = None
            rows = self.rules.strength_table(s.contract.trump)
            if fraction is not None and self.compiled_play_fast is not None:
                s = self.compiled_play_fast(s, fraction, rows)
            else:
                s = self.compiled_play(s, randbelow, rows)
            return self._end_play(freeze(s), close)
        return self._step_play(game, randbelow)

    def random_play_score(self, game: GameState, fraction: Callable[[], float],
                          memo: dict[Any, HandScore] | None = None, greedy: bool = False) -> HandScore | None:
        """Play the rest of the hand's cards at random (``fraction`` gives floats in
        [0, 1)) and return the hand's :class:`HandScore`, without closing the hand (no
        result, match or next hand is built): the fast path for search.  ``None`` where
        the rules need the full path (a review step, out-of-turn offers during play, no
        compiled loop); call :meth:`GameState.rollout` then.

        ``memo``, a dict shared by calls on states of one hand's play (the same bids,
        contract and match), keeps each score the scoring hooks gave without reading the
        cards won, by books and book transfers, and answers from it: scoring hooks are
        functions of what they are given, so the same books score the same.

        ``greedy=True`` plays the cards greedily instead (:func:`greedy_card` for each
        card that follows; leads at random): playouts that look more like play, for search."""
        if game.phase is not _PLAY or self.play_offer is not None or self.compiled_play_fast is None \
                or (game.pile and not self.draw and self.calls.after_trick is None):
            return None
        s = copy_to_builder(game)
        s._legal = None
        loop = self.compiled_play_greedy if greedy else self.compiled_play_fast
        assert loop is not None
        s = loop(s, fraction, self.rules.strength_table(s.contract.trump))
        contract = s.contract
        if contract.blind_to == "last-trick" and s.blind:
            s.won, s.blind = _won_with_blind(s), 0
        end = freeze(s)  # hooks see frozen states only
        review = self.calls.before_scoring
        if review is not None and review(end) is not None:
            return None  # a review step follows the play: only the full path has it
        if memo is None:
            return self.score(self.summary(end), end.match)
        key = (end.books, end.transfers)
        found = memo.get(key)
        if found is None:
            summary = self.summary(end)
            found = self.score(summary, end.match)
            if callable(summary._won):  # the cards won were never read
                memo[key] = found
        return found

    def _step_play(self, game: GameState, randbelow: Callable[[int], int]) -> GameState:
        """Play random cards to the end of the hand's play through the step API's own
        code (:meth:`_play`): the path for rules whose filters do not all compile (a plain
        Python filter, table enforcement).  Each card is the ``randbelow(k)``-th legal
        play in index order, what ``rng.choice(legal_actions())`` picks with the same
        generator, so the result equals stepping with ``apply``; every hook and filter
        sees the frozen states ``apply`` builds."""
        match = game.match
        while True:
            seat = game.to_act
            assert seat is not None
            mask = self.legal_mask(game)
            for _ in range(randbelow(mask.bit_count())):
                mask &= mask - 1
            game = self._play(game, seat, (mask & -mask).bit_length() - 1)
            if game.phase is not _PLAY or game.match is not match:
                return game

    def simulate(self, hands: int, seed: int, policy: Policy | None, start: int) -> Iterator[HandResult]:
        for what, value in (("a number of hands", hands), ("a start", start)):
            if type(value) is not int or value < 0:
                raise SpadesError(f"{what} is a whole number, 0 or more, not {shown(value, 40)}")
        check_seed(seed)
        _check_policy(policy)
        return self._simulate(hands, seed, policy, start)

    def _simulate(self, hands: int, seed: int, policy: Policy | None, start: int,
                  close: bool = False) -> Iterator[HandResult]:
        """The hands of :meth:`simulate`; each result is taken from the finished play
        without recording it in a match (``close=True`` records each, as stepping does,
        for the tests that compare the two)."""
        n = self.n
        match = MatchState.fresh(len(self.table.sides))
        for number in range(start, start + hands):
            # One generator per hand deals it and makes its random choices.  Choices are
            # drawn from 53-bit floats (uniform to within n / 2**53): random.Random's own
            # integer draw is Python code, a third of the cost of a simulated card.
            rng = random.Random(f"spadeskit simulate {seed} {number}")
            game = self._hand(Dealing(mix(seed, number), None), match, 0, (n - 1 + number) % n)
            self.deal_now(game, rng=rng)
            end = self._play_out_floats(game, rng.random, policy, close)
            yield end if type(end) is HandResult else end.match.results[-1]  # type: ignore[union-attr]

    # ----------------------------------------------------------------------------------
    # Scoring and the next hand
    # ----------------------------------------------------------------------------------

    def summary(self, game: GameState) -> HandSummary:
        """Return the hand's :class:`HandSummary` for the scoring hooks."""
        contract = game.contract
        summary: HandSummary = _make_summary(
            game.bids, game.books, partial(_cards_won, game.won), game.transfers,
            contract.trump if contract else "spades", contract.declarer if contract else None,
        )
        return summary

    def score(self, summary: HandSummary, match: MatchState) -> HandScore:
        found = self.calls.score_hand(summary, match)
        lines: list[ScoreLine] = []
        sides = range(len(self.table.sides))
        for index in reversed(range(len(found))):
            for line in found[index] or ():
                if not isinstance(line, ScoreLine) or type(line.side) is not int or line.side not in sides \
                        or type(line.points) is not int or type(line.bags) is not int:
                    raise self._bad("spadeskit_score_hand", self.calls.score_hand, line,
                                    "not a ScoreLine of whole numbers for a side of this table", index)
                lines.append(line)
        points = [0] * len(sides)
        bag_delta = [0] * len(sides)
        for line in lines:
            points[line.side] += line.points
            bag_delta[line.side] += line.bags
        score: HandScore = _make_score(
            tuple(lines), tuple(points),
            tuple([a + b for a, b in zip(match.scores, points)]),
            tuple([a + b for a, b in zip(match.bags, bag_delta)]),
        )
        return score

    def _result(self, game: GameState) -> HandResult:
        """Return the scored result of ``game``'s finished play."""
        scored = self.score(self.summary(game), game.match)
        result: HandResult = _make_result(game.number, game.dealer, game.bids, game.books, scored.lines,
                                          scored.points, scored.scores, scored.bags, False, "", game.transfers,
                                          game.tricks[-1].winner if game.tricks else None)
        return result

    def void_hand(self, game: GameState, note: str) -> GameState:
        """End the hand in progress unscored (a misdeal) and deal the next one."""
        match = game.match
        sides = len(self.table.sides)
        result = HandResult(game.number, game.dealer, game.bids, game.books, (), (0,) * sides,
                            match.scores, match.bags, void=True, note=note)
        return self.close_hand(game, result)

    def close_hand(self, game: GameState, result: HandResult) -> GameState:
        """Record ``result``, then end the match or start the next hand (dealt when read).

        Plugins that void a hand (a misdeal) call this with a ``void=True`` result.
        """
        match, dealer = self.settle(game.match, result, game.log, game.dealer, game._dealt)
        if match.end is not None:
            return evolve(game, match=match, phase=_OVER, to_act=None, _log=None)
        assert dealer is not None
        return self._hand(game._dealing, match, game.number + 1, dealer)

    def settle(self, old: MatchState, result: HandResult, log: tuple[Any, ...],
               dealer: int, dealt: Dealt | None = None) -> tuple[MatchState, int | None]:
        """Return the match after a finished hand and the next dealer (``None`` once the
        match is over): the one place the match-end and next-dealer hooks are asked."""
        deals = old.deals if dealt is None else old.deals + (dealt,)
        match = _make_match(result.scores, result.bags, old.results + (result,), old.logs + (log,),
                            None, old.extra, deals)
        end = None if result.void else self.calls.match_end(match, result)
        if end is not None:
            if not isinstance(end, MatchEnd) or type(end.winner) is not int \
                    or not 0 <= end.winner < len(self.table.sides):
                raise self._bad("spadeskit_match_end", self.calls.match_end, end, "not a MatchEnd naming a side")
            return MatchState(match.scores, match.bags, match.results, match.logs, end, match.extra,
                              match.deals), None
        return match, self._plugin_seat(self.calls.next_dealer(dealer, result), "spadeskit_next_dealer",
                                        self.calls.next_dealer)

    # ----------------------------------------------------------------------------------
    # What a seat sees
    # ----------------------------------------------------------------------------------

    def view(self, game: GameState, seat: int | None) -> View:
        """Return what ``seat`` may see (checked first)."""
        if seat is not None:
            self.check_seat(seat)
        return make_view(game, seat)
