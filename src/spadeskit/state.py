"""The frozen game state: one object per decision point.

A :class:`GameState` holds everything, including what no seat may see; show a seat
:meth:`GameState.view` instead.  States are immutable: :meth:`GameState.apply` returns a
new state that shares every unchanged part with the old one.  Hands are int bitmasks of
card indices (see :mod:`spadeskit.cards`); the methods turn them into cards.

One object holds the hand in progress and the match around it.  The hand's fields
(``hands``, ``trick``, ``bids`` …) are read directly, and ``game.hand`` is the same
object, so plugin code reads ``game.hand.<field>`` as it always did; :data:`HandState`
is another name for :class:`GameState`.  The match (scores, bag counters, finished
hands) is the :class:`MatchState` in ``game.match``, which changes once per hand.

The action log of the hand in progress is a linked list (each action adds one link, the
earlier ones are shared); :attr:`GameState.log` reads it as a tuple.  When a hand is
scored, the next hand is dealt only when something reads it: a state just after scoring
costs no shuffle unless someone plays on from it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Optional

import attrs

from . import _fast
from .actions import Action
from .cards import Card, card_at, cards_of
from .records import make_record
from .results import BookTransfer, HandResult, MatchEnd, Trick
from .table import Contract, FrozenMap, Step, show_points

if TYPE_CHECKING:
    from .rules import Rules
    from .views import View

__all__ = [
    "REFEREE",
    "Breach",
    "Deal",
    "Dealing",
    "Dealt",
    "GameState",
    "HandState",
    "LogEntry",
    "MatchState",
    "Phase",
    "Policy",
]

REFEREE = -1
"""The seat number of the referee, for rulings such as table talk: ``apply(a, REFEREE)``."""

LogEntry = tuple["int | None", Action]
"""One logged action: ``(seat, action)``; the referee's seat is ``spadeskit.REFEREE``."""

Log = Optional[tuple["Log", LogEntry]]
"""The linked log: ``None``, or ``(earlier log, newest entry)``."""


class Phase(enum.Enum):
    """Where a hand stands."""

    AUCTION = "auction"
    EXCHANGE = "exchange"
    PLAY = "play"
    REVIEW = "review"
    OVER = "over"

    # Members are singletons, so identity hashing is sound, and it is a C call; Enum's
    # own hashes the name in Python, and the engine looks phases up on every turn.
    __hash__ = object.__hash__


@attrs.frozen
class Breach:
    """A play the rules would have refused, accepted under table enforcement.

    Breaches are secret: no view shows them; a plugin's penalty hook may act on a claim.
    """

    trick: int
    seat: int
    card: int
    rule: str


Deal = tuple[tuple[int, ...], ...]
"""A hand's deal as given: card indices per seat, then the blind's, then the pile's (top first)."""

Dealt = tuple[tuple[int, ...], int, tuple[int, ...]]
"""A hand's deal as dealt: the hand masks by seat, the blind mask, the pile (top first)."""


@attrs.frozen(weakref_slot=False)
class MatchState:
    """The running match: scores, bag counters, finished hands, and how it ended.

    ``deals`` holds the deal of every finished hand (see :data:`Dealt`), so that the
    record of a game dealt from a secret can show the hands already played.
    """

    scores: tuple[int, ...]
    bags: tuple[int, ...]
    results: tuple[HandResult, ...]
    logs: tuple[tuple[LogEntry, ...], ...]
    end: MatchEnd | None
    extra: FrozenMap
    deals: tuple[Dealt, ...] = ()

    @classmethod
    def fresh(cls, sides: int) -> MatchState:
        """Return a match before its first hand: ``sides`` zero scores and bag counts."""
        return cls((0,) * sides, (0,) * sides, (), (), None, _NO_EXTRA)


_NO_EXTRA = FrozenMap()


class MatchTotals:
    """Readings of a ``match`` (:class:`MatchState`) shared by games and score sheets."""

    __slots__ = ()
    match: MatchState

    @property
    def is_over(self) -> bool:
        """Return whether the match has ended."""
        return self.match.end is not None

    @property
    def end(self) -> MatchEnd | None:
        """Return how the match ended (winner and reason), or ``None``."""
        return self.match.end

    @property
    def winner(self) -> int | None:
        """Return the winning side's index (see ``rules.table.side_names``), or ``None``."""
        end = self.match.end
        return end.winner if end is not None else None

    @property
    def scores(self) -> tuple[int, ...]:
        """Return each side's score."""
        return self.match.scores

    @property
    def bags(self) -> tuple[int, ...]:
        """Return each side's bag counter."""
        return self.match.bags


@attrs.frozen(eq=False)
class Dealing:
    """Where a game's deals come from: never shown in a view or a record.

    A seeded game shuffles hand ``i`` from ``(seed, i)``, so anyone who knows the seed
    can predict every deal: reproducible by design.  An unseeded game has ``seed`` None
    and shuffles hand ``i`` from an HMAC of ``i`` under ``secret`` (32 bytes from the
    OS), which no record holds.  ``explicit`` gives the deals of the first hands
    outright: an explicit first deal, or the deals a record replays.
    """

    seed: int | None
    secret: bytes | None = attrs.field(repr=False)
    explicit: tuple[Deal, ...] = ()


@attrs.frozen(weakref_slot=False, eq=False)
class GameState(MatchTotals):
    """A whole game: the rules, the match so far and the hand in progress.

    Build one with :meth:`Rules.new_game`.  Every method that changes something returns
    a new state; the one it was called on is never altered.

    The hand's fields: ``number`` (from 0; show people ``number + 1``), ``dealer``,
    ``phase``, ``to_act``, ``hands`` (a card mask per seat), ``blind`` (mask),
    ``pile`` (card indices, top first), ``auction`` (``(seat, action)`` in order),
    ``bids`` (per seat), ``contract``, ``steps`` (discards and exchanges still owed),
    ``leader`` (of the trick in progress), ``trick`` (``(seat, card index)`` so far),
    ``tricks`` (finished :class:`~spadeskit.results.Trick` values), ``books`` and
    ``won`` (per seat: tricks taken, mask of cards taken), ``played`` (mask of cards
    played this hand), ``breaches``, ``transfers`` and ``extra`` (plugin data).
    """

    rules: Rules = attrs.field(repr=False)
    _dealing: Dealing = attrs.field(repr=False, eq=False)
    match: MatchState
    number: int
    dealer: int
    phase: Phase
    to_act: int | None
    hands: tuple[int, ...]
    blind: int
    pile: tuple[int, ...]
    auction: tuple[tuple[int, Action], ...]
    bids: tuple[Action | None, ...]
    contract: Contract | None
    steps: tuple[Step, ...]
    leader: int
    trick: tuple[tuple[int, int], ...]
    tricks: tuple[Trick, ...]
    books: tuple[int, ...]
    won: tuple[int, ...]
    played: int
    breaches: tuple[Breach, ...]
    transfers: tuple[BookTransfer, ...]
    extra: FrozenMap
    _dealt: Dealt = attrs.field(repr=False, eq=False)
    _log: Log = attrs.field(repr=False)
    # Private cache of what the seat to act may do (a play mask or a tuple of actions),
    # derived from the state itself and excluded from equality.
    _legal: Any = attrs.field(default=None, eq=False, repr=False, hash=False)

    def __getattr__(self, name: str) -> Any:
        # Reached only for a slot that is not set: the deal of a hand that nobody has
        # looked at yet (see DEALT_LATER).  Deal it now, once, then read the slot.
        if name in DEALT_LATER:
            rules = object.__getattribute__(self, "rules")
            rules.engine.deal_now(self)
            return object.__getattribute__(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __eq__(self, other: object) -> bool:
        # As attrs would compare, except that a hand nobody has looked at yet is not dealt
        # to compare it: two games dealt from different secrets are equal up to their
        # next deal.  A seeded game deals the same either way, so it is dealt.
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, GameState)
        return _compared(self) == _compared(other)

    def __hash__(self) -> int:
        return hash(_compared(self))

    def __getstate__(self) -> dict[str, Any]:
        # The log is a linked list one link per action: pickle it flat, so that a state
        # with any number of actions pickles without deep recursion.
        state = {name: getattr(self, name) for name in FIELDS}
        state["_log"] = _LogEntries(self.log)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        put = object.__setattr__
        for name, value in state.items():
            put(self, name, _linked(value) if type(value) is _LogEntries else value)

    def __copy__(self) -> GameState:
        return self  # immutable: a copy is the state itself

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self

    def _is_dealt(self) -> bool:
        return is_dealt(self)

    def _deal_is_known(self) -> bool:
        return deal_is_known(self)

    @property
    def seed(self) -> int | None:
        """Return the seed the game's deals come from, or ``None`` for a secret."""
        return self._dealing.seed

    @property
    def first_deal(self) -> Deal | None:
        """Return the first hand's deal if it was given explicitly, else ``None``."""
        explicit = self._dealing.explicit
        return explicit[0] if explicit else None

    @property
    def hand(self) -> GameState:
        """Return the hand in progress: this same object (its fields are the hand's)."""
        return self

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Return the actions of the hand in progress, oldest first, as ``(seat, action)``."""
        entries: list[LogEntry] = []
        append = entries.append
        node = self._log
        while node is not None:
            node, entry = node
            append(entry)
        entries.reverse()
        return tuple(entries)

    @property
    def trick_number(self) -> int:
        """Return the index (from 0) of the trick being played."""
        return len(self.tricks)

    @property
    def led_card(self) -> Card | None:
        """Return the card led to the current trick, if any."""
        return card_at(self.trick[0][1]) if self.trick else None

    @property
    def hand_results(self) -> tuple[HandResult, ...]:
        """Return the finished hands, oldest first, with their score lines."""
        return self.match.results

    def cards(self, seat: int) -> tuple[Card, ...]:
        """Return the cards a seat holds now."""
        return cards_of(self.hands[seat])

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Return what ``seat`` (default: the seat to act) may do now.

        The seat to act gets its decisions; any seat may also get actions it can take
        out of turn, such as a penalty claim, where the variant offers them.
        """
        return self.rules.engine.legal_actions(self, seat)

    def apply(self, action: Action, seat: int | None = None) -> GameState:
        """Return the state after ``seat`` (default: the seat to act) takes ``action``.

        Raises a :class:`~spadeskit.errors.SpadesError` subclass, naming the action, the
        seat and the reason, if the action is not allowed; this state is unchanged.
        """
        return self.rules.engine.apply(self, action, seat)

    def rollout(self, seed: int | None = None, policy: Policy | None = None) -> GameState:
        """Play the hand in progress to its end and return the state just after scoring.

        Every decision (bids, exchanges, plays, review) is a uniformly random choice
        among :meth:`legal_actions`, drawn with ``random.Random(seed)`` (no seed: the
        OS's entropy), or ``policy(state, legal_actions)`` when given.  The result is
        exactly what :meth:`apply` step by step gives with the same choices: the random
        choices are ``rng.choice(state.legal_actions())`` at each step.  Random play
        runs on plain ints without building the states in between, where the rules
        allow (when no out-of-turn action can be taken during play); a policy sees
        every state.  On a finished match, returns this state.
        """
        return self.rules.engine.rollout(self, seed, policy)

    def __str__(self) -> str:
        """Return the state in a line for people (``repr`` shows every field):
        ``standard, hand 1, auction: E to act; N/S 0, E/W 0``."""
        table = self.rules.table
        scores = ", ".join(
            f"{name} {show_points(points, table.score_unit)}"
            for name, points in zip(table.side_names, self.match.scores, strict=True)
        )
        if self.match.end is not None:
            where = f"over, {self.match.end.reason}"
        else:
            who = table.seat_names[self.to_act] if self.to_act is not None else "nobody"
            where = f"{self.phase.value}: {who} to act"
        return f"{self.rules.name}, hand {self.number + 1}, {where}; {scores}"

    def view(self, seat: int | None) -> View:
        """Return what ``seat`` may see (``None``: a spectator, who sees no hand)."""
        return self.rules.engine.view(self, seat)

    def to_record(self, key: bytes | str | None = None) -> dict[str, Any]:
        """Return a versioned, JSON-serialisable record that :func:`spadeskit.replay` rebuilds.

        With ``key`` (the app's secret, 16 bytes or more), the record carries an
        HMAC-SHA256 signature that ``replay(record, key=key)`` checks: a record a player
        altered, truncated or extended is refused.  Without a key, its digest only
        detects accidents (anyone can recompute it).
        """
        return make_record(self, key)


HandState = GameState
"""The hand in progress: the same object as the state (``game.hand is game``).

Plugin hooks that receive a ``hand`` (play filters, ``spadeskit_after_trick``) read the
same fields; :func:`spadeskit.plugin.evolve_hand` returns a changed copy.
"""

Policy = Callable[[GameState, "tuple[Action, ...]"], Action]
"""A rollout policy: given a state and its legal actions, return one of them."""

FIELDS: tuple[str, ...] = tuple(f.name for f in attrs.fields(GameState))
"""Every slot of a state, in order (``_log`` and ``_legal`` included)."""

DEALT_LATER = frozenset(
    {"phase", "to_act", "hands", "blind", "pile", "contract", "steps", "leader", "_dealt"}
)
"""The fields of a new hand that wait for its deal (see :meth:`GameState.__getattr__`)."""

Builder = _fast.builder_class(GameState)
"""A mutable twin of :class:`GameState` with the same slots: the engine fills one, then
turns it into a frozen state; rollouts play on one without building states between."""

evolve: Callable[..., GameState] = _fast.keyword_evolver(
    GameState, Builder, FIELDS, {"_legal": None}
)
"""``evolve(state, **changes)``: a copy of ``state`` with some fields changed (the
legal-action cache cleared); an unknown field is a ``TypeError``."""


def evolver(*changed: str) -> Callable[..., GameState]:
    """Return a generated ``evolve(state, *values)`` for a fixed set of changed fields."""
    return _fast.evolver(GameState, Builder, FIELDS, changed, {"_legal": None})


copy_to_builder: Callable[[GameState], Any] = _fast.copier(Builder, FIELDS)
"""Return a mutable :data:`Builder` holding every field of a state."""


_EQ_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.eq)
_UNDEALT = object()


def is_dealt(game: GameState) -> bool:
    """Return whether the hand in progress has been dealt (see :data:`DEALT_LATER`)."""
    try:
        object.__getattribute__(game, "hands")
    except AttributeError:
        return False
    return True


def deal_is_known(game: GameState) -> bool:
    """Return whether the hand in progress is dealt, or follows from what the game holds
    (a seed, or an explicit deal): false only for a secret deal nobody has looked at."""
    return (
        game._dealing.seed is not None
        or game.number < len(game._dealing.explicit)
        or is_dealt(game)
    )


def _compared(game: GameState) -> tuple[Any, ...]:
    """Return what equality compares: every field, the undealt ones of a secret deal as
    such, the log flat (comparing the linked list would recurse once per action)."""
    known = deal_is_known(game)
    return tuple(
        game.log
        if name == "_log"
        else _UNDEALT
        if not known and name in DEALT_LATER
        else getattr(game, name)
        for name in _EQ_FIELDS
    )


class _LogEntries(tuple):  # type: ignore[type-arg]
    """A hand's log, flat, as a pickled state holds it (rebuilt as links on load)."""

    __slots__ = ()


def _linked(entries: Iterable[LogEntry]) -> Log:
    """Return the linked log of ``entries``, oldest first."""
    node: Log = None
    for entry in entries:
        node = (node, entry)
    return node


def freeze(builder: Any) -> GameState:
    """Turn a filled :data:`Builder` into a frozen :class:`GameState` (no copy)."""
    builder.__class__ = GameState
    state: GameState = builder
    return state
