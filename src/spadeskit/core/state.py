"""The frozen game state: one object per decision point.

A :class:`GameState` holds everything, including what no seat may see; show a seat
:meth:`GameState.view` instead.  States are immutable: :meth:`GameState.apply` returns a
new state that shares every unchanged part with the old one.  Hands are int bitmasks of
card indices (see :mod:`spadeskit.core.cards`); the methods turn them into cards.

One object holds the hand in progress and the match around it.  The hand's fields
(``hands``, ``trick``, ``bids`` …) are read directly, and ``game.hand`` is the same
object, so plugin code reads ``game.hand.<field>`` as it always did; :data:`HandState`
is another name for :class:`GameState`.  The match (scores, bag counters, finished
hands) is the :class:`MatchState` in ``game.match``, which changes once per hand.

The action log of the hand in progress is a linked list (each action adds one link, the
earlier ones are shared); :attr:`GameState.log` reads it as a tuple.  A hand is dealt
when it starts (when the hand before it is scored); a state never changes after it is
built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from spadeskit.core import _fast
from spadeskit.core.actions import Action
from spadeskit.core.cards import Card, CardLike, card_at, cards_of
from spadeskit.core.match import (
    Breach,
    Deal,
    Dealing,
    Dealt,
    Log,
    LogEntry,
    MatchState,
    MatchTotals,
)
from spadeskit.core.phase import REFEREE, Phase
from spadeskit.core.results import BookTransfer, HandResult, Trick
from spadeskit.core.seating import Contract, FrozenMap, Ranking, Step, TableSpec, show_points

if TYPE_CHECKING:
    from spadeskit.core.views import View

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
    "MatchTotals",
    "Phase",
    "Policy",
    "RuleSet",
    "Stepper",
]


class Stepper(Protocol):
    """What plays a state: the engine of its rules (:class:`spadeskit.engine.playing.Engine`).

    The core declares what it asks of the engine here, so that it imports nothing above
    it; a state's methods (:meth:`GameState.apply` …) hand themselves to these.
    """

    def legal_actions(self, game: GameState, seat: int | None) -> tuple[Action, ...]:
        """Return what ``seat`` may do in ``game`` (``None``: the seat to act)."""

    def apply(self, game: GameState, action: Action, seat: int | None) -> GameState:
        """Return the state after ``seat`` takes ``action`` (checked first)."""

    def rollout(self, game: GameState, seed: int | None, policy: Policy | None) -> GameState:
        """Return the state just after the hand in progress is scored."""

    def view(self, game: GameState, seat: int | None) -> View:
        """Return what ``seat`` may see of ``game``."""

    def record(
        self, game: GameState, key: bytes | str | None, current_deal: bool
    ) -> dict[str, Any]:
        """Return the record of ``game`` (signed with ``key`` if given)."""

    def void_hand(self, game: GameState, note: str) -> GameState:
        """Return ``game`` with the hand in progress void (a misdeal): no score."""

    def review_or_score(self, game: GameState) -> GameState:
        """Return ``game`` after its last trick: to review, or scored."""


class RuleSet(Protocol):
    """What a state knows of the rules it is played under (:class:`spadeskit.Rules` is one).

    ``game.rules`` is the :class:`~spadeskit.Rules` object that started the game; the
    core types it by what it reads, so that it imports nothing above it.
    """

    @property
    def name(self) -> str:
        """``"variant"`` or ``"variant + house rule + …"``."""

    @property
    def variant(self) -> str:
        """The variant's plugin name."""

    @property
    def house_rules(self) -> tuple[str, ...]:
        """The house rules' plugin names, in order."""

    @property
    def options(self) -> FrozenMap:
        """Every option's value."""

    @property
    def table(self) -> TableSpec:
        """The table the variant declares."""

    @property
    def side_of(self) -> tuple[int, ...]:
        """Each seat's side."""

    @property
    def ranking(self) -> Ranking:
        """Every card's effective suit and strength, as the rules rank them."""

    @property
    def card_points(self) -> tuple[int, ...] | None:
        """Each card's points by index, or ``None`` where the variant counts none."""

    @property
    def engine(self) -> Stepper:
        """The engine that plays these rules."""

    def strength_table(self, trump: str) -> tuple[tuple[int, ...], ...]:
        """Return ``table[led suit][card index]``: each card's power in a trick."""

    def trick_winner(self, plays: Sequence[tuple[int, CardLike]], trump: str = "spades") -> int:
        """Return the seat that wins a trick of ``(seat, card)`` plays, led by the first."""


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
    ``tricks`` (finished :class:`~spadeskit.core.results.Trick` values), ``books`` and
    ``won`` (per seat: tricks taken, mask of cards taken), ``played`` (mask of cards
    played this hand), ``breaches``, ``transfers`` and ``extra`` (plugin data).
    """

    rules: RuleSet = attrs.field(repr=False)
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

    def __eq__(self, other: object) -> bool:
        # As attrs would compare, except that the deal of a hand in which nothing has
        # happened yet is left out where either game dealt it from a secret: a record
        # does not hold it (see deal_is_known), so two games dealt from different
        # secrets are equal until something happens in the hand.
        if other.__class__ is not GameState or self.__class__ is not GameState:
            return NotImplemented
        assert isinstance(other, GameState)
        known = deal_is_known(self) and deal_is_known(other)
        return _compared(self, known) == _compared(other, known)

    def __hash__(self) -> int:
        return hash(_compared(self, False))  # equal states hash alike, known deal or not

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

        Raises a :class:`~spadeskit.core.errors.SpadesError` subclass, naming the action, the
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

    def to_record(
        self, key: bytes | str | None = None, *, current_deal: bool = False
    ) -> dict[str, Any]:
        """Return a versioned, JSON-serialisable record that :func:`spadeskit.replay` rebuilds.

        With ``key`` (the app's secret, 16 bytes or more), the record carries an
        HMAC-SHA256 signature that ``replay(record, key=key)`` checks: a record a player
        altered, truncated or extended is refused.  Without a key, its digest only
        detects accidents (anyone can recompute it).

        A game dealt from a secret leaves out of its record the deal of a hand in which
        nobody has acted yet, so a record never predicts a deal.  ``current_deal=True``
        keeps it in, for a server's own store (the players have seen their cards, and a
        restart must deal them the same): never give such a record to a player.
        """
        return self.rules.engine.record(self, key, current_deal)


HandState = GameState
"""The hand in progress: the same object as the state (``game.hand is game``).

Plugin hooks that receive a ``hand`` (play filters, ``spadeskit_after_trick``) read the
same fields; :func:`spadeskit.plugin.evolve_hand` returns a changed copy.
"""

Policy = Callable[[GameState, "tuple[Action, ...]"], Action]
"""A rollout policy: given a state and its legal actions, return one of them."""

FIELDS: tuple[str, ...] = tuple(f.name for f in attrs.fields(GameState))
"""Every slot of a state, in order (``_log`` and ``_legal`` included)."""

DEALT = frozenset(
    {"phase", "to_act", "hands", "blind", "pile", "contract", "steps", "leader", "_dealt"}
)
"""The fields of a new hand that follow from its deal (see :func:`deal_is_known`)."""


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
_SECRET = object()


def deal_is_known(game: GameState) -> bool:
    """Return whether the deal of the hand in progress is part of the game's record: it
    follows from the seed, was given explicitly, or something has happened in the hand.

    False only for a hand dealt from the game's secret in which nobody has acted yet and
    which has not ended (the state just after the hand before it was scored): its
    record leaves the deal
    out, so a record never predicts a deal nobody has played, and a game replayed from
    it deals that hand from a new secret.
    """
    return (
        game._dealing.seed is not None
        or game.number < len(game._dealing.explicit)
        or game._log is not None
        or game.number < len(game.match.deals)
    )


def _compared(game: GameState, known: bool) -> tuple[Any, ...]:
    """Return what equality compares: every field, the dealt ones left out unless
    ``known`` (both deals are part of their games' records), the log flat (comparing
    the linked list would recurse once per action)."""
    return tuple(
        game.log
        if name == "_log"
        else _SECRET
        if not known and name in DEALT
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
