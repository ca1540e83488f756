"""What the solver reads of the rules and of a state: the one adapter over the engine.

The solver plays cards on bitmasks, not on states, so it needs three things of a rule
set, each taken from its public API and nothing else:

* the legal plays of a hand given the trick so far, the cards played and the tricks
  finished: the rule set's enforced play filters, compiled into one check
  (:func:`spadeskit.engine.filters.compile_filters`), which the search calls on a small
  object holding exactly what filters read (:class:`~spadeskit.analysis.search.Reads`);
* the trick winner: the engine's one trick-winner function (``trick_won``) on the
  strength of each card given the suit led, under the hand's trump mode
  (``rules.strength_table(trump)``);
* each card's effective suit and strength within it (``rules.ranking``), to merge
  equivalent cards.

A rule set the solver cannot follow is refused with :class:`AnalysisUnsupported`: a
filter that is not enforced (table enforcement, where a player may renege), a plain
Python filter (it may read anything of a state), a hook that acts after each trick, a
deck that holds a card twice (six-handed Spades), or a hand with cards still to be drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit.core.errors import SpadesError
from spadeskit.core.phase import Phase
from spadeskit.core.state import GameState
from spadeskit.engine.filters import (
    PlayCheck,
    compile_filters,
    first_trick_ban,
    follow_suit,
    no_lead_until_broken,
)
from spadeskit.engine.rules import Rules, rules_of
from spadeskit.engine.winner import trick_won

__all__ = [
    "FIRST_TRICK",
    "FOLLOW",
    "UNBROKEN",
    "AnalysisUnsupported",
    "PlayModel",
    "Position",
    "play_model",
    "position_of",
]


class AnalysisUnsupported(SpadesError):
    """The solver cannot follow the play of this rule set or position (the message says
    why); nothing was analysed."""

    code = "not-analysable"


_ORDERED_FILTERS = frozenset(
    {"follow-suit", "break-spades", "no-trump-first-trick", "head-the-trick"}
)
"""The library's building blocks whose refusals depend only on a card's effective suit
and its strength within it, so that cards adjacent in strength within a suit (nothing
between them still in play) are always both legal or both not."""


class PlayModel:
    """The play of one rule set under one trump mode, as the solver reads it.

    ``rows[led][card]`` is a card's strength in a trick led in effective suit ``led``;
    ``suit_of`` and ``strength`` are the ranking; ``order[suit]`` lists the cards of
    each effective suit strongest first; ``merges`` says whether cards adjacent in that
    order may be merged (see :data:`_ORDERED_FILTERS`), and ``relative`` whether, on top
    of that, only the order of the cards still in play matters (every row ranks whole
    suits against each other), so that positions with the same pattern of holders in
    each suit play alike.  ``by_row[led]`` lists the deck strongest first in a trick
    led in ``led``.  ``dominates[card]`` holds the cards it beats whatever is led;
    ``masters`` lists the cards that beat any, those that beat most first.
    """

    def __init__(self, rules: Rules, trump: str) -> None:
        if rules.table.copies:
            raise AnalysisUnsupported(
                f"the deck of {rules.name!r} holds a card twice (two decks); the solver "
                "merges and orders cards as one of each"
            )
        for f in rules.filters:
            if not f.enforced:
                raise AnalysisUnsupported(
                    f"{rules.name!r} accepts a card its filter {f.name!r} refuses and "
                    "records a renege (table enforcement): double-dummy play assumes "
                    "every rule is kept; load the rules with strict enforcement",
                    code="not-analysable",
                )
            if f.block is None:
                raise AnalysisUnsupported(
                    f"the play filter {f.name!r} of {rules.name!r} is plain Python and may "
                    "read any part of a state; the solver follows filters made of the "
                    "library's building blocks only"
                )
        if rules.calls.after_trick is not None:
            raise AnalysisUnsupported(
                f"a plugin of {rules.name!r} changes the state after each trick "
                "(spadeskit_after_trick), which the solver cannot follow"
            )
        if rules.calls.trick_winner is not None:
            raise AnalysisUnsupported(
                f"a plugin of {rules.name!r} names trick winners by seat "
                "(spadeskit_trick_winner); the solver ranks cards by the strength table alone"
            )
        ranking = rules.ranking
        self.name = rules.name
        self.players = rules.table.players
        self.side_of: tuple[int, ...] = tuple(rules.side_of)
        self.suit_of: tuple[int, ...] = tuple(ranking.suit_of)
        self.strength: tuple[int, ...] = tuple(ranking.strength)
        self.suit_mask: tuple[int, ...] = tuple(ranking.suit_mask)
        self.rows: tuple[tuple[int, ...], ...] = rules.strength_table(trump)
        self.check: PlayCheck = compile_filters(list(rules.filters))
        order = []
        for suit, mask in enumerate(self.suit_mask):
            cards = [c for c in range(54) if mask >> c & 1]
            order.append(tuple(sorted(cards, key=lambda c: -self.strength[c])))
        self.order: tuple[tuple[int, ...], ...] = tuple(order)
        self.merges = all(f.name in _ORDERED_FILTERS for f in rules.filters) and all(
            _monotone(row, suit_cards) for row in self.rows for suit_cards in self.order
        )
        self.relative = self.merges and all(_by_suit(row, self.order) for row in self.rows)
        deck = [c for c in range(54) if self.suit_of[c] >= 0]
        self.by_row: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(deck, key=lambda c: -row[c])) for row in self.rows
        )
        dominates = [0] * 54
        for card in deck:
            for other in deck:
                if all(row[card] > row[other] for row in self.rows):
                    dominates[card] |= 1 << other
        self.dominates: tuple[int, ...] = tuple(dominates)
        self.masters: tuple[int, ...] = tuple(
            sorted((c for c in deck if dominates[c]), key=lambda c: -dominates[c].bit_count())
        )
        suits = range(len(self.order))
        self.ruffs: tuple[int, ...] = tuple(
            _ruffs(row, self.order, led) for led, row in enumerate(self.rows)
        )
        self.suit_rules = _suit_rules(rules, self.suit_mask) if self.relative else None
        self.by_suits = (
            self.suit_rules is not None
            and len(self.order) == 4
            and [kind for kind, _, _ in self.suit_rules]
            == sorted({kind for kind, _, _ in self.suit_rules})
            and 2 <= self.players <= 4
            and all(ruff >= 0 for ruff in self.ruffs)
        )
        trumps = [
            t
            for t in suits
            if self.by_suits
            and self.ruffs[t] == 0
            and all(self.ruffs[s] >> t & 1 for s in suits if s != t and self.order[s])
        ]
        self.trump_suit = trumps[0] if len(trumps) == 1 else -1

    def winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        """Return the seat that wins a full ``trick`` of ``(seat, card index)`` plays:
        the engine's one trick-winner function on the row of the suit led."""
        return trick_won(self.rows[self.suit_of[trick[0][1]]], trick)[0]


def _monotone(row: Sequence[int], cards: Sequence[int]) -> bool:
    """Return whether ``row`` never ranks a card above a stronger one of its suit."""
    return all(row[a] >= row[b] for a, b in zip(cards, cards[1:]))


def _by_suit(row: Sequence[int], order: Sequence[Sequence[int]]) -> bool:
    """Return whether ``row`` ranks whole suits against each other (every card of one
    suit above every card of another, or both suits all equal) and the cards within
    each suit either all equal or strictly by strength."""
    for cards in order:
        values = [row[c] for c in cards]
        if len(set(values)) not in (1, len(values)):
            return False
    for a, first in enumerate(order):
        for second in order[a + 1 :]:
            if not first or not second:
                continue
            one = [row[c] for c in first]
            two = [row[c] for c in second]
            if not (min(one) > max(two) or max(one) < min(two) or len(set(one + two)) == 1):
                return False
    return True


FOLLOW = 0
"""A suit rule: a follower keeps to the suit led when able."""
UNBROKEN = 1
"""A suit rule: a leader keeps to its ``keep`` suits while no card of its ``when`` suits
has been played, when able."""
FIRST_TRICK = 2
"""A suit rule: the first trick's players keep to its ``keep`` suits when able."""


def _suits(mask: int, suit_mask: Sequence[int]) -> int:
    """Return the suits (a bit each) that make up the card ``mask``, or -1 when it holds
    part of a suit."""
    found = 0
    for suit, cards in enumerate(suit_mask):
        if mask & cards == cards and cards:
            found |= 1 << suit
        elif mask & cards:
            return -1
    return found


def _suit_rules(rules: Rules, suit_mask: Sequence[int]) -> tuple[tuple[int, int, int], ...] | None:
    """Return the rule set's play filters as suit rules ``(kind, when, keep)`` (see
    :data:`FOLLOW`, :data:`UNBROKEN`, :data:`FIRST_TRICK`), in their order, when each is
    one of the library's building blocks, unchanged, on whole suits; otherwise ``None``.

    Such filters refuse a card for its effective suit alone, so the solver can ask them
    of suits rather than cards (and treat cards below every rank that decided a trick
    as interchangeable)."""
    ranking = rules.ranking
    steps = {
        FOLLOW: follow_suit(ranking).block,
        UNBROKEN: no_lead_until_broken(ranking).block,
        FIRST_TRICK: first_trick_ban(ranking).block,
    }
    found = []
    for f in rules.filters:
        if f.name == "follow-suit":
            kind = FOLLOW
        elif f.name.startswith("break-"):
            kind = UNBROKEN
        elif f.name == "no-trump-first-trick":
            kind = FIRST_TRICK
        else:
            return None
        block, model = f.block, steps[kind]
        if block is None or model is None or block.steps != model.steps:
            return None
        constants = block.constants
        if kind == FOLLOW:
            if tuple(constants["suit_mask"]) != tuple(suit_mask):
                return None
            found.append((kind, 0, 0))
            continue
        when = _suits(constants["trump"], suit_mask) if kind == UNBROKEN else 0
        keep = _suits(constants["others"], suit_mask)
        if when < 0 or keep < 0:
            return None
        found.append((kind, when, keep))
    return tuple(found)


def _ruffs(row: Sequence[int], order: Sequence[Sequence[int]], led: int) -> int:
    """Return the suits (a bit each) whose every card beats every card of the suit
    ``led`` in ``row``, when the others' every card loses to it and the suit led and
    those suits rank their cards strictly; otherwise -1."""
    mine = [row[c] for c in order[led]]
    if not mine:
        return 0
    if any(a <= b for a, b in zip(mine, mine[1:])):
        return -1
    ruffs = 0
    for suit, cards in enumerate(order):
        values = [row[c] for c in cards]
        if suit == led or not values:
            continue
        if min(values) > mine[0]:
            if any(a <= b for a, b in zip(values, values[1:])):
                return -1
            ruffs |= 1 << suit
        elif max(values) >= mine[-1]:
            return -1
    return ruffs


_MODELS: dict[tuple[Rules, str], PlayModel] = {}


def play_model(rules: Rules, trump: str) -> PlayModel:
    """Return the (cached) :class:`PlayModel` of ``rules`` under the trump mode ``trump``."""
    key = (rules, trump)
    model = _MODELS.get(key)
    if model is None:
        if len(_MODELS) > 64:
            _MODELS.clear()
        model = _MODELS[key] = PlayModel(rules, trump)
    return model


class Position:
    """A position in the play of a hand with every card known: what the solver starts from.

    ``hands`` are the seats' card masks, ``trick`` the plays of the trick so far,
    ``played`` the mask of cards played this hand, ``done`` the number of finished
    tricks, ``to_act`` the seat to play and ``books`` the tricks each seat has won.
    """

    __slots__ = ("books", "done", "hands", "model", "played", "to_act", "trick")

    def __init__(
        self,
        model: PlayModel,
        hands: tuple[int, ...],
        trick: tuple[tuple[int, int], ...],
        played: int,
        done: int,
        to_act: int,
        books: tuple[int, ...],
    ) -> None:
        self.model = model
        self.hands = hands
        self.trick = trick
        self.played = played
        self.done = done
        self.to_act = to_act
        self.books = books


def position_of(game: GameState) -> Position:
    """Return the solver's position for ``game``, a state in the play of the cards.

    Raise :class:`AnalysisUnsupported` when the state is not in play, when cards are
    still to be drawn (two-handed Spades before its pile is empty), or when the rules
    cannot be followed (see :class:`PlayModel`).
    """
    if game.phase is not Phase.PLAY or game.to_act is None or game.contract is None:
        raise AnalysisUnsupported(
            f"double-dummy analysis starts from a state in the play of the cards; this "
            f"one is in the {game.phase.value} phase",
            code="not-in-play",
        )
    if game.pile:
        raise AnalysisUnsupported(
            f"{len(game.pile)} cards are still to be drawn from the pile: the play is "
            "double-dummy only once the draw pile is empty",
            code="not-analysable",
        )
    model = play_model(rules_of(game), game.contract.trump)
    return Position(
        model,
        tuple(game.hands),
        tuple(game.trick),
        game.played,
        len(game.tricks),
        game.to_act,
        tuple(game.books),
    )
