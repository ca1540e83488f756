"""Loaded rules: a variant's table, rankings, play filters and hook calls, built once.

:class:`LoadedRules` is what the engine plays from: the table and card meanings the
plugins declare, their play filters, and every event hook turned into one plain call.
:class:`spadeskit.Rules` (:mod:`spadeskit.engine.rules`) adds to it what starts games and
scores hands.  A rules object is built once by :func:`spadeskit.load_rules` from a pluggy
plugin manager that already holds the variant and house rules.  Building it asks the
configuration hooks (the table, every card's rank, the play filters) and compiles every
event hook into one plain call (:mod:`spadeskit.engine.compiler`), so that nothing at play
time goes through pluggy.  Trick strengths are tabled per trump mode the first time
that mode is played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs
import pluggy

from spadeskit.core import codegen
from spadeskit.core.actions import ACTION_TYPES, Action, action_from_json, action_type_problem
from spadeskit.core.cards import COPY, Card, CardLike, Suit, card_at, cards_of, parse_card
from spadeskit.core.errors import PluginError, RecordError, SpadesError, shown
from spadeskit.core.seating import CardRank, FrozenMap, TableSpec
from spadeskit.core.state import GameState
from spadeskit.engine.authoring import PlayFilter, PluginInfo, Ranking
from spadeskit.engine.compiler import PASS_THROUGH, Compiled, answered_by, compile_hook
from spadeskit.engine.hookcalls import HookCalls
from spadeskit.engine.winner import Decide, trick_won

__all__ = [
    "HookCalls",
    "LoadedRules",
    "compile_card_points",
    "compile_ranking",
    "loaded_rules",
]


def _guarded(f: PlayFilter, owner: str, rules: str) -> PlayFilter:
    """Return ``f`` with its check raising a :class:`PluginError` naming the filter and its
    plugin (the original exception as its cause) instead of any other exception."""
    check, enforced = f.check, f.enforced

    def guarded(hand: Any, seat: int, allowed: int) -> int:
        try:
            kept = check(hand, seat, allowed)
        except PASS_THROUGH:
            raise
        except Exception as exc:
            raise PluginError(
                f"play filter {f.name!r} ({owner}) failed in {rules!r} (from "
                f"spadeskit_play_filters): {type(exc).__name__}: {exc}"
            ) from exc
        if type(kept) is not int or kept < 0:
            raise PluginError(
                f"play filter {f.name!r} ({owner}) of {rules!r} returned {shown(kept, 40)}, "
                "not a card mask (an int with a bit set for each card it allows; "
                "from spadeskit_play_filters)"
            )
        if kept & ~allowed or (enforced and allowed and not kept):
            extra = kept & ~allowed
            held = hand.hands[seat]
            why = (
                f"allows {' '.join(c.code for c in cards_of(extra))}, which "
                + (
                    "the seat does not hold"
                    if extra & ~held
                    else "an earlier filter refused (a filter only narrows)"
                )
                if extra
                else "leaves nothing to play from a hand that is not empty"
            )
            raise PluginError(
                f"play filter {f.name!r} ({owner}) of {rules!r} {why} (seat {seat}; from "
                "spadeskit_play_filters)"
            )
        return kept

    return attrs.evolve(f, check=guarded, source=None)


def compile_ranking(table: TableSpec, card_rank: Compiled | None, name: str) -> Ranking:
    """Return the ranking the card-rank hook gives every card of ``table``'s deck."""
    suit_of = [-1] * table.size
    strength = [0] * table.size
    masks = [0, 0, 0, 0]
    deck = 0
    ranks: dict[Card, CardRank] = {}  # a card held twice is ranked once: it is one card
    for card, index in zip(table.deck, table.indices):
        rank = ranks.get(card)
        if rank is None:
            rank = card_rank(card) if card_rank is not None else None
            if rank is None:
                raise PluginError(
                    f"no plugin of {name!r} ranks the card {card} (spadeskit_card_rank "
                    "answered None)"
                )
            if (
                not isinstance(rank, CardRank)
                or not isinstance(rank.suit, Suit)
                or type(rank.strength) is not int
                or rank.strength < 0
            ):
                raise PluginError(
                    f"spadeskit_card_rank answered {shown(rank, 60)} for the card {card}, not "
                    "a CardRank of a Suit and a whole-number strength, 0 or more "
                    f"({answered_by(card_rank)}, in {name!r})"
                )
            ranks[card] = rank
        suit_of[index] = int(rank.suit)
        strength[index] = rank.strength
        masks[rank.suit] |= 1 << index
        deck |= 1 << index
    return Ranking(tuple(suit_of), tuple(strength), tuple(masks), deck)


def compile_card_points(
    table: TableSpec, card_points: Compiled | None, name: str
) -> tuple[int, ...] | None:
    """Return each card's points by index (0 for a card nobody values), or ``None``
    where no plugin implements ``spadeskit_card_points``."""
    if card_points is None:
        return None
    values = [0] * table.size
    for card, index in zip(table.deck, table.indices):
        value = card_points(card)
        if value is None:
            continue
        if type(value) is not int:
            raise PluginError(
                f"spadeskit_card_points of {name!r} values {card} at {shown(value, 30)}, "
                f"not a whole number ({answered_by(card_points)})"
            )
        values[index] = value
    return tuple(values)


def action_types(
    pm: pluggy.PluginManager, table: TableSpec, options: FrozenMap, name: str
) -> dict[str, type[Action]]:
    """Return the built-in action types and those the plugins of ``name`` declare
    (``spadeskit_action_types``), by kind, each checked."""
    offered = {"table": table, "options": options}
    found: dict[str, type[Action]] = dict(ACTION_TYPES)
    owners: dict[str, str] = {}
    for impl in pm.hook.spadeskit_action_types.get_hookimpls():
        who = impl.plugin_name
        if impl.wrapper or impl.hookwrapper:
            raise PluginError(
                f"plugin {who!r} wraps spadeskit_action_types: declare your action types "
                "with a plain implementation (the hook is collected)"
            )
        try:
            answer = impl.function(*(offered[a] for a in impl.argnames))
        except Exception as exc:
            raise PluginError(f"plugin {who!r} failed in spadeskit_action_types: {exc!r}") from exc
        if answer is None:
            continue
        if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
            raise PluginError(
                f"plugin {who!r} answered spadeskit_action_types with {shown(answer, 40)}, "
                "not a list of action types"
            )
        for cls in answer:
            problem = action_type_problem(cls)
            if problem is None and cls.kind in owners and found[cls.kind] is not cls:
                problem = f"its kind {cls.kind!r} is also declared by plugin {owners[cls.kind]!r}"
            if problem is not None:
                raise PluginError(
                    f"plugin {who!r} of {name!r} declares in spadeskit_action_types an action "
                    f"type spadeskit cannot record: {problem}"
                )
            found[cls.kind] = cls
            owners[cls.kind] = who
    return found


def compile_filters(hook: Compiled | None, ranking: Ranking, name: str) -> tuple[PlayFilter, ...]:
    """Return the play filters the hook gives, in order; any filter but a building
    block guarded so that its failure names it and its plugin."""
    found = hook(ranking) if hook is not None else []
    filters = []
    for index, group in enumerate(found):
        if group is not None and not isinstance(group, Iterable):
            raise PluginError(
                f"spadeskit_play_filters of {name!r} answered {shown(group, 40)}, not a "
                f"list of PlayFilter ({answered_by(hook, index)})"
            )
        for f in group or ():
            if not isinstance(f, PlayFilter):
                raise PluginError(
                    f"spadeskit_play_filters of {name!r} returned {f!r}, not a "
                    f"PlayFilter ({answered_by(hook, index)})"
                )
            # A building block's check is the library's; any other is guarded, on every path.
            filters.append(
                f if f.block is not None else _guarded(f, answered_by(hook, index), name)
            )
    return tuple(sorted(filters, key=lambda f: (f.order, f.name)))


def loaded_rules(game: GameState) -> LoadedRules:
    """Return the rules ``game`` is played under, as the engine knows them.

    ``game.rules`` is typed by what the core reads of it
    (:class:`~spadeskit.core.state.RuleSet`); every rules object spadeskit builds is a
    :class:`LoadedRules`.
    """
    rules = game.rules
    if not isinstance(rules, LoadedRules):
        raise PluginError(f"the game's rules {rules!r} were not built by spadeskit.load_rules")
    return rules


class LoadedRules:
    """A variant with its house rules and options, loaded for play.

    The engine's view of :class:`spadeskit.Rules`: the table, the ranking, the play
    filters, card points, trick strengths and the hook calls.  Two rules objects
    are equal when they were built from the same variant, house rules and options.
    Rules pickle by those names and options (the receiving process loads the same
    installed plugins), so states can be sent to other processes.
    """

    def __init__(
        self,
        variant: PluginInfo,
        house: tuple[PluginInfo, ...],
        options: FrozenMap,
        pm: pluggy.PluginManager,
        reload: tuple[Callable[..., LoadedRules], tuple[Any, ...]] | None,
    ) -> None:
        self.variant = variant.name
        self.house_rules = tuple(info.name for info in house)
        self.plugins = (variant,) + house
        self.options = options
        self.plugin_manager = pm
        self.hook = pm.hook
        self._reload = reload
        self.sources: codegen.Sources = []
        """Every function generated for these rules (see :meth:`generated_source`)."""
        table_hook = compile_hook(
            pm, "spadeskit_table", {"options": options}, self.name, sources=self.sources
        )
        table = table_hook() if table_hook is not None else None
        if table is None:
            raise PluginError(
                f"no plugin set up the table for {self.name!r} (spadeskit_table answered None)"
            )
        if not isinstance(table, TableSpec):
            raise PluginError(
                f"spadeskit_table answered {shown(table, 60)}, not a TableSpec "
                f"({answered_by(table_hook)}, in {self.name!r})"
            )
        problems = table.problems()
        if problems:
            raise PluginError(
                f"the table spadeskit_table gave for {self.name!r} is inconsistent: "
                f"{'; '.join(problems)} ({answered_by(table_hook)})"
            )
        self.table = table
        self.side_of = table.side_of
        self.action_types: FrozenMap = FrozenMap(action_types(pm, table, options, self.name))
        """Every action type these rules know, by ``kind``: the built-in ones and those
        their plugins declare (``spadeskit_action_types``)."""
        bound = {"table": table, "options": options}
        self._card_rank = compile_hook(
            pm, "spadeskit_card_rank", bound, self.name, sources=self.sources
        )
        self._trick_strength = compile_hook(
            pm, "spadeskit_trick_strength", bound, self.name, sources=self.sources
        )
        self.ranking = compile_ranking(table, self._card_rank, self.name)
        self.card_points = compile_card_points(
            table,
            compile_hook(pm, "spadeskit_card_points", bound, self.name, sources=self.sources),
            self.name,
        )
        """Each card's points by index (``spadeskit_card_points``), or ``None``."""
        self.filters = compile_filters(
            compile_hook(pm, "spadeskit_play_filters", bound, self.name, sources=self.sources),
            self.ranking,
            self.name,
        )
        self.calls = HookCalls(pm, table, options, self.name, self.sources)
        self.decide_winner: Decide | None = (
            None if self.calls.trick_winner is None else self._decide_winner
        )
        """The seat-aware trick winner (``spadeskit_trick_winner``, checked), or ``None``
        where no plugin implements it: see :func:`~spadeskit.engine.winner.trick_won`."""
        self._strength: dict[str, tuple[tuple[int, ...], ...]] = {}

    def action_from_json(self, data: Any) -> Action:
        """Return the action a :meth:`~spadeskit.core.actions.Action.to_json` dict
        describes, reading the action types of these rules (its plugins' too).

        Raises :class:`~spadeskit.core.errors.RecordError` for data that is no action
        of these rules, naming them when its type comes from a plugin they do not load.

        >>> import spadeskit
        >>> spadeskit.load_rules("standard").action_from_json({"type": "bid", "tricks": 4})
        Bid(tricks=4)
        """
        kind = data.get("type") if isinstance(data, dict) else None
        if isinstance(kind, str) and kind not in self.action_types:
            raise RecordError(
                f"unknown action type {shown(kind, 40)} for {self.name!r}: no plugin of these "
                "rules declares it (load the plugin that does); its action types are "
                f"{', '.join(sorted(self.action_types))}",
                code="unknown-action",
            )
        return action_from_json(data, self.action_types)

    @property
    def name(self) -> str:
        """Return ``"variant"`` or ``"variant + house rule + …"``."""
        return " + ".join((self.variant,) + self.house_rules)

    def generated_source(self) -> str:
        """Return the source of every function generated for these rules, as it runs.

        spadeskit generates each hook call as one plain call, the play filters as one
        function and the playout loop's filters as one function when rules load (see
        :mod:`spadeskit.core.codegen`); this shows that code, each piece under a comment
        naming it.  A traceback through it shows the same lines, except through the
        playout filters marked "compiled ahead of time": the shipped rule sets' filters
        run as the same source compiled (:mod:`spadeskit.engine.compiledfilters`).

        >>> import spadeskit
        >>> text = spadeskit.load_rules("standard").generated_source()
        >>> "# play filters" in text and "def check(hand, seat, allowed):" in text
        True
        """
        return "\n".join(f"# {label}\n{source}" for label, source in self.sources)

    def strength_table(self, trump: str) -> tuple[tuple[int, ...], ...]:
        """Return ``table[led suit][card index]``: each card's power in a trick under ``trump``."""
        table = self._strength.get(trump)
        if table is None:
            rows = []
            for led in Suit:
                row = [0] * self.table.size
                for card, index in zip(self.table.deck, self.table.indices):
                    if index >= COPY:  # a second copy is as strong as its card
                        row[index] = row[card.index]
                        continue
                    rank = CardRank(
                        Suit(self.ranking.suit_of[card.index]), self.ranking.strength[card.index]
                    )
                    value = None
                    if self._trick_strength is not None:
                        value = self._trick_strength(card, rank, led, trump)
                    if value is None:
                        raise PluginError(
                            f"no plugin of {self.name!r} gives the trick strength of {card} "
                            f"led {led.name.lower()} under trump {shown(trump, 40)} "
                            "(spadeskit_trick_strength answered None)"
                        )
                    if type(value) is not int or value < 0:
                        raise PluginError(
                            f"spadeskit_trick_strength answered {shown(value, 40)} for {card} "
                            f"led {led.name.lower()} under trump {shown(trump, 40)}, not a whole "
                            f"number, 0 or more ({answered_by(self._trick_strength)}, in "
                            f"{self.name!r})"
                        )
                    row[card.index] = value
                rows.append(tuple(row))
            table = self._strength[trump] = tuple(rows)
        return table

    def trick_winner(self, plays: Sequence[tuple[int, CardLike]], trump: str = "spades") -> int:
        """Return the seat that wins a trick of ``(seat, card)`` plays, led by the first.

        Of two equally strong cards (a card and its copy, in a deck that holds it
        twice), the one played first wins, unless the rules' ``spadeskit_trick_winner``
        says otherwise.

        >>> import spadeskit
        >>> rules = spadeskit.load_rules("standard")
        >>> rules.trick_winner([(0, "KH"), (1, "AH"), (2, "2S"), (3, "3C")])
        2
        """
        if isinstance(plays, (str, bytes)) or not isinstance(plays, Iterable):
            raise SpadesError(f"a trick is a list of (seat, card) pairs, not {shown(plays, 40)}")
        if type(trump) is not str or len(trump) > 40:
            raise SpadesError(f'trump is a short text ("spades"), not {shown(trump, 40)}')
        cards: list[tuple[int, Card]] = []
        players = self.table.players
        suit_of = self.ranking.suit_of
        for pair in plays:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise SpadesError(
                    f"a play in a trick is a (seat, card) pair, not {shown(pair, 40)}"
                )
            seat, card = pair[0], pair[1]
            # A state's trick holds card indices, a second copy's too (index + COPY).
            card = card_at(card) if type(card) is int and 0 <= card < len(suit_of) else card
            card = parse_card(card)
            if type(seat) is not int or not 0 <= seat < players:
                raise SpadesError(
                    f"{shown(seat, 20)} is not a seat of {self.name!r}: seats are 0 to "
                    f"{players - 1}"
                )
            if self.ranking.suit_of[card.index] < 0:
                raise SpadesError(f"{card} is not in the deck of {self.name!r}")
            second = card.index + COPY
            copies = 2 if second < len(suit_of) and suit_of[second] >= 0 else 1
            if any(seat == s for s, _ in cards) or sum(card == c for _, c in cards) >= copies:
                raise SpadesError(
                    f"seat {seat} or {card} plays twice in one trick: each seat plays one card"
                    + (", each card at most twice (two decks)" if copies == 2 else "")
                )
            cards.append((seat, card))
        if not cards:
            raise SpadesError("an empty trick has no winner")
        if len(cards) > players:
            raise SpadesError(f"a trick of {self.name!r} has at most {players} plays")
        row = self.strength_table(trump)[self.ranking.suit_of[cards[0][1].index]]
        trick = tuple((seat, card.index) for seat, card in cards)
        return trick_won(row, trick, self.decide_winner, trump)[0]

    def _decide_winner(self, trick: tuple[Any, ...], strongest: int, trump: str) -> int:
        """Ask ``spadeskit_trick_winner`` who wins ``trick`` (``(seat, card index)``
        plays), the strength table naming ``strongest``; check the answer."""
        call = self.calls.trick_winner
        assert call is not None
        plays = tuple((seat, card_at(index)) for seat, index in trick)
        led = Suit(self.ranking.suit_of[trick[0][1]])
        seat = call(plays, led, trump, strongest)
        if seat is None:
            return strongest
        if type(seat) is not int or all(seat != who for who, _ in trick):
            raise PluginError(
                f"spadeskit_trick_winner answered {shown(seat, 40)}, not a seat that played "
                f"to the trick {' '.join(f'{s}:{c.code}' for s, c in plays)} "
                f"({answered_by(call)}, in {self.name!r})"
            )
        return seat

    def effective_suit(self, card: CardLike) -> Suit:
        """Return the suit a card follows as in this variant (the 2♦ is a spade in jjdd)."""
        index = parse_card(card).index
        if self.ranking.suit_of[index] < 0:
            raise SpadesError(f"{card_at(index)} is not in the deck of {self.name!r}")
        return Suit(self.ranking.suit_of[index])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LoadedRules):
            return NotImplemented
        return (self.variant, self.house_rules, self.options) == (
            other.variant,
            other.house_rules,
            other.options,
        )

    def __hash__(self) -> int:
        return hash((self.variant, self.house_rules, self.options))

    def __repr__(self) -> str:
        return f"<Rules {self.name} {dict(self.options)}>"

    def __reduce__(self) -> tuple[Callable[..., LoadedRules], tuple[Any, ...]]:
        if self._reload is None:
            raise SpadesError(
                f"rules {self.name!r} were built from plugin objects, not installed plugin "
                "names, so they cannot be pickled: load them by name"
            )
        return self._reload
