"""Find plugins, check that they fit together, and compile them into a :class:`Rules`.

This is the only place that talks to pluggy's plugin manager: :func:`load_rules`
discovers plugins through the ``spadeskit`` entry-point group, validates the variant,
house rules and options, registers them in a fixed order and compiles the
configuration hooks into tables.  The resulting :class:`Rules` object starts games.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import attrs
import pluggy

from . import hookspecs
from .actions import Action, Bid, Nil
from .cards import CardLike, Suit, card_at, parse_card
from .errors import OptionError, PluginError, RuleConflict, SpadesError, UnknownPlugin
from .plugin import Option, PlayFilter, PluginInfo, Ranking
from .results import HandSummary, ScoreLine
from .state import GameState, MatchState
from .table import CardRank, FrozenMap, TableSpec

__all__ = ["ENTRY_POINT_GROUP", "HandScore", "PluginSummary", "Rules", "available", "load_rules"]

ENTRY_POINT_GROUP = "spadeskit"


@attrs.frozen
class PluginSummary:
    """An installed plugin, as :func:`available` lists it."""

    name: str
    kind: str
    summary: str
    options: tuple[Option, ...]
    fits: tuple[str, ...]
    requires: tuple[str, ...]
    conflicts: tuple[str, ...]


@attrs.frozen
class HandScore:
    """The score of one hand: its lines, each side's points and bag counters after it."""

    lines: tuple[ScoreLine, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    bags: tuple[int, ...]


_ENTRY_POINTS: dict[str, importlib.metadata.EntryPoint] | None = None


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        _ENTRY_POINTS = {ep.name: ep for ep in found}
    return _ENTRY_POINTS


def _info_of(plugin: object, where: str) -> PluginInfo:
    info = getattr(plugin, "PLUGIN", None)
    if not isinstance(info, PluginInfo):
        raise PluginError(f"plugin {where} has no PLUGIN = spadeskit.PluginInfo(...) attribute")
    return info


def _resolve(ref: object) -> tuple[object, PluginInfo]:
    if isinstance(ref, str):
        eps = _entry_points()
        if ref not in eps:
            raise UnknownPlugin(
                f"no spadeskit plugin named {ref!r} is installed; installed: {', '.join(sorted(eps))}"
            )
        try:
            plugin = eps[ref].load()
        except Exception as exc:
            raise PluginError(f"plugin {ref!r} failed to import: {exc}") from exc
        info = _info_of(plugin, repr(ref))
        if info.name != ref:
            raise PluginError(f"entry point {ref!r} loads a plugin that calls itself {info.name!r}")
        return plugin, info
    return ref, _info_of(ref, repr(ref))


def available() -> tuple[PluginSummary, ...]:
    """Return every installed variant and house rule, variants first, by name."""
    rows = []
    for name in _entry_points():
        info = _resolve(name)[1]
        rows.append(PluginSummary(info.name, info.kind, info.summary, info.options,
                                  info.fits, info.requires, info.conflicts))
    return tuple(sorted(rows, key=lambda r: (r.kind != "variant", r.name)))


_CACHE: dict[tuple[Any, ...], Rules] = {}


def load_rules(
    variant: object,
    house_rules: Iterable[object] = (),
    options: Mapping[str, Any] | None = None,
) -> Rules:
    """Return the compiled rules of a variant with house rules and options.

    ``variant`` and each house rule are plugin names (see :func:`available`) or plugin
    modules/objects carrying a ``PLUGIN`` attribute.  Raises :class:`UnknownPlugin`,
    :class:`RuleConflict` or :class:`OptionError` naming what is wrong.  Rules built from
    names are cached: loading the same configuration twice returns the same object.

    >>> rules = load_rules("standard", options={"target": 300})
    >>> rules.options["target"], rules.table.players
    (300, 4)
    """
    house = tuple(house_rules)
    opts = dict(options or {})
    key = None
    if isinstance(variant, str) and all(isinstance(h, str) for h in house):
        try:
            names = cast("tuple[str, ...]", house)
            key = (variant, tuple(sorted(set(names))), len(names), tuple(sorted(opts.items())))
        except TypeError:
            key = None
        if key is not None and key in _CACHE:
            return _CACHE[key]
    rules = _build(variant, house, opts)
    if key is not None:
        _CACHE[key] = rules
    return rules


def _build(variant: object, house: Sequence[object], user_options: dict[str, Any]) -> Rules:
    base, base_info = _resolve(variant)
    if base_info.kind != "variant":
        raise UnknownPlugin(f"{base_info.name!r} is a house rule, not a variant; pass it in house_rules=")
    extras = []
    seen = {base_info.name}
    for ref in house:
        plugin, info = _resolve(ref)
        if info.kind != "house-rule":
            raise UnknownPlugin(f"{info.name!r} is a variant, not a house rule")
        if info.name in seen:
            raise RuleConflict(f"house rule {info.name!r} is listed twice")
        seen.add(info.name)
        extras.append((plugin, info))
    extras.sort(key=lambda pair: (pair[1].order, pair[1].name))
    infos = [base_info] + [info for _, info in extras]
    for info in infos[1:]:
        if info.fits and base_info.name not in info.fits:
            raise RuleConflict(
                f"house rule {info.name!r} does not fit variant {base_info.name!r} "
                f"(it fits {', '.join(info.fits)})"
            )
    for info in infos:
        for needed in info.requires:
            if needed not in seen:
                raise RuleConflict(f"{info.name!r} requires {needed!r}, which is not loaded")
        for other in info.conflicts:
            if other in seen:
                raise RuleConflict(f"{info.name!r} conflicts with {other!r}; load only one of them")
    options = _resolve_options(infos, user_options)
    pm = pluggy.PluginManager("spadeskit")
    pm.add_hookspecs(hookspecs)
    for plugin, info in [(base, base_info)] + extras:
        try:
            pm.register(plugin, name=info.name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise PluginError(f"plugin {info.name!r} cannot be registered: {exc}") from exc
    return Rules(base_info, tuple(info for _, info in extras), options, pm)


def _resolve_options(infos: Sequence[PluginInfo], given: Mapping[str, Any]) -> FrozenMap:
    declared: dict[str, tuple[PluginInfo, Option]] = {}
    for info in infos:
        for option in info.options:
            if option.name in declared:
                raise RuleConflict(
                    f"{info.name!r} and {declared[option.name][0].name!r} both declare option {option.name!r}"
                )
            declared[option.name] = (info, option)
    values = {name: option.default for name, (_, option) in declared.items()}
    for name, value in given.items():
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            names = " + ".join(i.name for i in infos)
            raise OptionError(f"unknown option {name!r} for {names}; options: {known}")
        info, option = declared[name]
        problem = option.problem(value)
        if problem:
            raise OptionError(f"option {name!r} of {info.name!r} {problem}, not {value!r}")
        values[name] = value
    return FrozenMap(values)


class Rules:
    """A variant with its house rules and options, compiled for play.

    Build it with :func:`load_rules`.  It starts games (:meth:`new_game`) and scores
    hands from summaries (:meth:`score_hand`).  Two rules objects are equal when they
    were built from the same variant, house rules and options.
    """

    def __init__(self, variant: PluginInfo, house: tuple[PluginInfo, ...], options: FrozenMap,
                 pm: pluggy.PluginManager) -> None:
        self.variant = variant.name
        self.house_rules = tuple(info.name for info in house)
        self.plugins = (variant,) + house
        self.options = options
        self.plugin_manager = pm
        self.hook = pm.hook
        table = self._call("spadeskit_table", options=options)
        if not isinstance(table, TableSpec):
            raise PluginError(f"no plugin set up the table for {self.name!r} (spadeskit_table gave {table!r})")
        problems = table.problems()
        if problems:
            raise PluginError(f"the table of {self.name!r} is inconsistent: {'; '.join(problems)}")
        self.table = table
        self.side_of = table.side_of
        self.ranking = self._compile_ranking()
        self.filters = self._compile_filters()
        self._strength: dict[str, tuple[tuple[int, ...], ...]] = {}
        from .engine import Engine

        self._engine = Engine(self)

    @property
    def name(self) -> str:
        """Return ``"variant"`` or ``"variant + house rule + …"``."""
        return " + ".join((self.variant,) + self.house_rules)

    def _call(self, hook: str, **kwargs: Any) -> Any:
        try:
            return getattr(self.hook, hook)(**kwargs)
        except SpadesError:
            raise
        except Exception as exc:
            raise PluginError(f"hook {hook} failed in {self.name!r}: {type(exc).__name__}: {exc}") from exc

    def _compile_ranking(self) -> Ranking:
        suit_of = [-1] * 54
        strength = [0] * 54
        masks = [0, 0, 0, 0]
        deck = 0
        for card in self.table.deck:
            rank = self._call("spadeskit_card_rank", card=card, table=self.table, options=self.options)
            if not isinstance(rank, CardRank):
                raise PluginError(f"no plugin of {self.name!r} ranks the card {card} (got {rank!r})")
            suit_of[card.index] = int(rank.suit)
            strength[card.index] = rank.strength
            masks[rank.suit] |= card.bit
            deck |= card.bit
        return Ranking(tuple(suit_of), tuple(strength), tuple(masks), deck)

    def _compile_filters(self) -> tuple[PlayFilter, ...]:
        found = self._call("spadeskit_play_filters", table=self.table, ranking=self.ranking,
                           options=self.options)
        filters = [f for group in found if group for f in group]
        for f in filters:
            if not isinstance(f, PlayFilter):
                raise PluginError(f"spadeskit_play_filters of {self.name!r} returned {f!r}, not a PlayFilter")
        return tuple(sorted(filters, key=lambda f: (f.order, f.name)))

    def strength_table(self, trump: str) -> tuple[tuple[int, ...], ...]:
        """Return ``table[led suit][card index]``: each card's power in a trick under ``trump``."""
        table = self._strength.get(trump)
        if table is None:
            rows = []
            for led in Suit:
                row = [0] * 54
                for card in self.table.deck:
                    rank = CardRank(Suit(self.ranking.suit_of[card.index]), self.ranking.strength[card.index])
                    value = self._call("spadeskit_trick_strength", card=card, rank=rank, led=led,
                                       trump=trump, options=self.options)
                    if not isinstance(value, int) or value < 0:
                        raise PluginError(
                            f"no plugin of {self.name!r} gives the trick strength of {card} "
                            f"led {led.name.lower()} under trump {trump!r} (got {value!r})"
                        )
                    row[card.index] = value
                rows.append(tuple(row))
            table = self._strength[trump] = tuple(rows)
        return table

    def trick_winner(self, plays: Sequence[tuple[int, CardLike]], trump: str = "spades") -> int:
        """Return the seat that wins a trick of ``(seat, card)`` plays, led by the first.

        >>> load_rules("standard").trick_winner([(0, "KH"), (1, "AH"), (2, "2S"), (3, "3C")])
        2
        """
        cards = [(seat, parse_card(card)) for seat, card in plays]
        if not cards:
            raise SpadesError("an empty trick has no winner")
        row = self.strength_table(trump)[self.ranking.suit_of[cards[0][1].index]]
        return max(cards, key=lambda pair: row[pair[1].index])[0]

    def effective_suit(self, card: CardLike) -> Suit:
        """Return the suit a card follows as in this variant (the 2♦ is a spade in jjdd)."""
        index = parse_card(card).index
        if self.ranking.suit_of[index] < 0:
            raise SpadesError(f"{card_at(index)} is not in the deck of {self.name!r}")
        return Suit(self.ranking.suit_of[index])

    def new_game(
        self,
        seed: int | None = None,
        *,
        deal: Sequence[Iterable[CardLike] | str] | None = None,
        dealer: int | None = None,
        blind: Iterable[CardLike] | str = (),
        pile: Iterable[CardLike] | str = (),
    ) -> GameState:
        """Start a match.

        ``seed`` makes every shuffle reproducible (without one, the OS's entropy is
        used).  ``deal`` gives the first hand's cards explicitly, one list per seat in
        seat order (``["AS", "10D", ...]`` or a string ``"AS 10D ..."``); a variant with
        a blind takes it as ``blind=``, a draw pile as ``pile=`` (top card first).
        Later hands are shuffled from the seed.  ``dealer`` is the first dealer (default:
        the last seat, so seat 0 speaks first).
        """
        return self._engine.new_game(seed, deal, dealer, blind, pile)

    def score_hand(
        self,
        summary: HandSummary | None = None,
        *,
        bids: Sequence[Action | int | str | None] | None = None,
        books: Sequence[int] | None = None,
        scores: Sequence[int] | None = None,
        bags: Sequence[int] | None = None,
    ) -> HandScore:
        """Score a hand from a summary, without any card play (for scorekeeping apps).

        Give a :class:`HandSummary`, or ``bids`` (ints, ``"nil"`` or actions) and
        ``books`` per seat.  ``scores`` and ``bags`` are the sides' totals before the hand
        (default zero); the bag penalty depends on them.

        >>> rules = load_rules("standard")
        >>> result = rules.score_hand(bids=[3, 2, 4, "nil"], books=[4, 3, 5, 1])
        >>> result.points
        (72, -78)
        >>> [line.text for line in result.lines]
        ['N/S bid 7, took 9: +70, 2 bags (+2)', 'E/W bid 2, took 3: +20, 1 bag (+1)', 'W nil, took 1: -100, 1 bag (+1)']
        """
        if summary is None:
            if bids is None or books is None:
                raise SpadesError("score_hand needs a HandSummary, or both bids= and books=")
            summary = HandSummary(tuple(_as_bid(b) for b in bids), tuple(books))
        n, sides = self.table.players, len(self.table.sides)
        if len(summary.bids) != n or len(summary.books) != n:
            raise SpadesError(f"{self.name!r} has {n} seats: give {n} bids and {n} book counts")
        before = MatchState(tuple(scores or (0,) * sides), tuple(bags or (0,) * sides), (), (), None,
                            FrozenMap())
        return self._engine.score(summary, before)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return (self.variant, self.house_rules, self.options) == (other.variant, other.house_rules, other.options)

    def __hash__(self) -> int:
        return hash((self.variant, self.house_rules, self.options))

    def __repr__(self) -> str:
        return f"<Rules {self.name} {dict(self.options)}>"


def _as_bid(value: Action | int | str | None) -> Action | None:
    if value is None or isinstance(value, Action):
        return value
    if isinstance(value, str):
        if value.strip().lower() == "nil":
            return Nil()
        try:
            value = int(value)
        except ValueError:
            raise SpadesError(f"cannot read the bid {value!r}: give a number or 'nil'") from None
    return Bid(value)

