"""The kit's reading of a rule set: standard Spades, changed by what plugins declare.

Each loaded plugin may declare, in a module-level dict ``ORACLES``, what it changes of
the rules the oracles (:mod:`~spadeskit.testing.oracles`) compare play with; this
module reads those declarations (:func:`reading`) and says what the kit relies on for
each oracle (:func:`relies_on`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from spadeskit.core.cards import COPY, Suit, card_at, parse_cards
from spadeskit.core.errors import SpadesError
from spadeskit.engine.rules import Rules

__all__ = ["ORACLES", "DEFAULTS", "Reading", "reading", "relies_on"]

ORACLES: tuple[str, ...] = (
    "legal",
    "bids",
    "leader",
    "tricks",
    "score",
    "sheet",
    "bags",
    "end",
    "penalties",
    "steps",
    "shown",
    "options",
)
"""The oracles, by the key a plugin's ``ORACLES`` declaration and a failure use."""

DEFAULTS: Mapping[str, Any] = {
    "trumps": "",
    "winner": "strength",
    "identical": "first",
    "follow": "suit",
    "lead": "broken",
    "first_trick": "any",
    "first_lead": "left-of-dealer",
    "auction": "nil-or-count",
    "score": "contract",
    "end": "target",
    "suits": "symmetric",
    "penalty_books": 0,
    "renege_calls": False,
    "review": False,
    "sealed_bids": False,
    "blind_nil": None,
    "blind_nil_pass": 0,
    "steps": "declared",
    "own_cards": "shown",
}
"""What the kit assumes when no plugin declares otherwise: standard Spades."""

# Which oracle each declaration key feeds: a key declared "own" switches that oracle off.
_FEEDS: Mapping[str, tuple[str, ...]] = {
    "trumps": ("tricks", "legal"),
    "winner": ("tricks",),
    "identical": ("tricks",),
    "follow": ("legal",),
    "lead": ("legal",),
    "first_trick": ("legal",),
    "first_lead": ("leader",),
    "auction": ("bids",),
    "score": ("score", "bags"),
    "end": ("end",),
    "suits": (),
    "penalty_books": ("penalties",),
    "renege_calls": ("penalties",),
    "review": ("penalties",),
    "sealed_bids": ("bids",),
    "blind_nil": ("bids",),
    "blind_nil_pass": ("steps",),
    "steps": ("steps",),
    "own_cards": ("shown",),
}

_RELIED: Mapping[str, str] = {
    "legal": "the invariants (every listed play applies, others raise) and pinned examples",
    "bids": "the invariants (every listed bid applies) and pinned examples",
    "leader": "seat rotation and pinned examples",
    "tricks": "seat rotation, suit relabelling and pinned examples",
    "score": "the score sheet agreeing with play, seat rotation and pinned examples",
    "bags": "the score sheet agreeing with play and pinned examples",
    "end": "seat rotation and pinned examples",
    "penalties": "pinned examples",
    "steps": "card conservation, the views and pinned examples",
    "shown": "the views invariants (no card shown that a seat may not know)",
    "options": "the validators as written",
}


@attrs.frozen
class Reading:
    """The kit's reading of a rule set: the reference each oracle compares play with.

    ``values`` maps each declaration key to its value (``"own"``: no reference),
    ``score_extras`` lists the scoring house rules declared with ``"+name"`` (e.g.
    ``"+boston"``), ``owners`` maps each key to the plugin that set it, ``ranges``
    the documented option ranges, ``defaults`` the documented default values and
    ``options`` the rule set's option values.
    """

    values: Mapping[str, Any]
    score_extras: tuple[str, ...]
    owners: Mapping[str, str]
    ranges: Mapping[str, tuple[str, str]]
    options: Mapping[str, Any]
    top_trumps: tuple[int, ...]
    defaults: Mapping[str, tuple[str, Any]] = attrs.field(factory=dict)
    _suits: tuple[Suit | None, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # Each card index's effective suit, both copies (read for every card of a play).
        suits = tuple(
            Suit.SPADES if i % COPY in self.top_trumps else card_at(i % COPY).suit
            for i in range(2 * COPY)
        )
        object.__setattr__(self, "_suits", suits)

    def with_options(self, options: Mapping[str, Any]) -> Reading:
        """Return this reading with the rule set's option values replaced by ``options``."""
        return attrs.evolve(self, options=dict(options))

    def runs(self, oracle: str) -> bool:
        """Return whether ``oracle`` has a reference here (no plugin declared it ``"own"``)."""
        if oracle == "sheet":
            return True
        if oracle == "options":
            return bool(self.ranges or self.defaults)
        if oracle == "penalties":
            return self.values["penalty_books"] not in (0, "own")
        return not any(
            self.values[key] == "own" for key, feeds in _FEEDS.items() if oracle in feeds
        )

    def suit(self, card: int) -> Suit | None:
        """Return a card's effective suit: printed, or spades for a declared top trump (a
        card's second copy, in a deck that holds it twice, as the card)."""
        return self._suits[card]

    def strength(self, card: int) -> int:
        """Return a card's order within its effective suit: printed rank (ace 14), and the
        declared top trumps above the ace, highest first."""
        if card % COPY in self.top_trumps:
            return 15 + len(self.top_trumps) - self.top_trumps.index(card % COPY)
        return card_at(card).rank


def _declared(module: object, options: Mapping[str, Any]) -> Mapping[str, Any]:
    found = getattr(module, "ORACLES", None) or {}
    if not isinstance(found, Mapping):
        raise SpadesError(f"{module!r}: ORACLES must be a dict of declarations")
    return {key: value(options) if callable(value) else value for key, value in found.items()}


def reading(rules: Rules) -> Reading:
    """Return the kit's reading of ``rules``: the defaults of standard Spades, changed by
    what each loaded plugin declares in its module's ``ORACLES`` dict.

    Keys (a value may also be a function of the rule set's options, returning one):

    ``trumps``
        cards ranked as spades above the ace, highest first (``"BJ LJ 2D 2S"``).
    ``winner``
        ``"strength"`` (the strongest card takes the trick) or ``"own"``, for a rule
        that names trick winners by seat (``spadeskit_trick_winner``).
    ``identical``
        where the deck holds a card twice and both copies of the best card fall in one
        trick: ``"first"`` (the first played wins) or ``"second"``.
    ``follow``
        ``"suit"`` (follow the led suit if able), ``"head"`` (also beat every card of the
        led suit if able, unless trumped, and trump and over-trump when void),
        ``"follow"`` (only following suit is checked when heading is off) or ``"any"``
        (any card: reneges are accepted and penalised later).
    ``lead``
        ``"broken"`` (spades led only once broken, unless the leader holds only spades)
        or ``"anytime"``.
    ``first_trick``
        ``"any"`` or ``"no-spades"`` (no spade on the first trick unless nothing else).
    ``first_lead``
        ``"left-of-dealer"``, ``"last-book"`` (the winner of the previous hand's last
        trick) or ``"lowest-club"`` (the holder of the lowest club dealt).
    ``auction``
        ``"nil-or-count"`` (nil or 1 to the tricks in a hand), ``"board"`` (team bids of
        at least the ``board`` option), ``"calls"`` (1 to ``max_call``), ``"mirror"``,
        ``"whiz"``, or ``"pick-up"`` (each seat picks up the blind or passes; the first
        to pick it up is the bidder, plays with the suit ladder trump and discards 2;
        if all pass, no trump).  Every auction but ``"pick-up"`` asks each seat once,
        clockwise from the dealer's left.
    ``blind_nil``
        ``None`` (no blind nil), or N: a seat that has not seen its cards is offered
        blind nil alone at its turn when its side trails the best other side by at
        least N points at the start of the hand (always, for 0).
    ``blind_nil_pass``
        the cards a blind nil bidder's partner passes, and gets back (0 for none; none
        when both partners bid blind nil).
    ``steps``
        ``"declared"`` (the exchanges before play are exactly those of the declared
        auction and blind nil) or ``"own"``.
    ``own_cards``
        ``"shown"`` (the seat to act is shown all of its cards, and none while it may
        still bid blind nil), ``"own-in-auction"`` (the plugin settles what a seat sees
        of its own cards during the auction, as a blind bid that hides a whole side's
        does; from the auction's end on, every card) or ``"own"``.
    ``score``
        ``"contract"``, ``"jjdd"``, ``"call-break"`` or ``"card-points"`` (the
        three-suit game: the bidder's card points taken, discards included, in game
        points; else each opponent 1; all passing, the fewest card points score 1,
        ties by the ``for_least_ties`` option); a house rule adds to it with
        ``"+boston"``, ``"+no-bags"``, ``"+partnership-nil"``, ``"+blind-nil"`` or
        ``"+blind-bids"``.
    ``end``
        ``"target"`` (target and floor options), ``"jjdd"`` (also Boston and three sets
        in a row) or ``"rounds"`` (the ``rounds`` option).
    ``penalty_books``
        the books a side owes the other for each table-talk ruling or renege claim
        against it (right or wrong), or ``0`` where the rules have none.
    ``renege_calls``
        whether a side may call a renege in any finished trick of the hand, each trick
        once (``True``), or never (``False``).
    ``review``
        whether the last trick is followed by a review step in which each side in
        turn, the dealer's left first, accepts the hand before it is scored.
    ``sealed_bids``
        ``True`` where no view shows another seat's bid until every seat has bid.
    ``suits``
        ``"symmetric"`` (swapping two non-trump suits in a deal swaps them in play) or
        ``"own"`` (a rule names a suit, so the relabelling check is skipped).
    ``options``
        documented ranges, ``{"target": "1..", "floor": "..0|None", "pass": "0|1|2"}``;
        ``"!'x'"`` names a value that must be refused (``"'2D 2C'|!'2D 2D'"``).
    ``defaults``
        documented default values, ``{"target": 500, "floor": -200}``: a rule set
        loaded without options must have them.

    Any key may be ``"own"``: the plugin changes that rule in a way the kit has no
    reference for, and the oracles it feeds are not run (see :func:`relies_on`).
    """
    values = dict(DEFAULTS)
    owners = dict.fromkeys(DEFAULTS, "")
    extras: list[str] = []
    ranges: dict[str, tuple[str, str]] = {}
    defaults: dict[str, tuple[str, Any]] = {}
    pm = rules.plugin_manager
    for name in (rules.variant, *rules.house_rules):
        for key, value in _declared(pm.get_plugin(name), rules.options).items():
            if key == "options":
                ranges.update({option: (name, text) for option, text in value.items()})
            elif key == "defaults":
                defaults.update({option: (name, text) for option, text in value.items()})
            elif key == "score" and isinstance(value, str) and value.startswith("+"):
                extras.append(value[1:])
            elif key == "score" and isinstance(value, tuple):
                extras += [v[1:] for v in value]
            elif key in values:
                values[key] = value
                owners[key] = name
            else:
                raise SpadesError(f"plugin {name!r} declares an unknown oracle key {key!r}")
    top = tuple(card.index for card in parse_cards(values["trumps"])) if values["trumps"] else ()
    return Reading(values, tuple(extras), owners, ranges, dict(rules.options), top, defaults)


def relies_on(rules: Rules) -> dict[str, str]:
    """Return, for each oracle, what the kit compares that rule with on ``rules``."""
    read = reading(rules)
    said: dict[str, str] = {}
    for oracle in ORACLES:
        if read.runs(oracle):
            said[oracle] = {
                "sheet": "the score sheet, wherever it can score a hand from bids and books",
                "options": "documented ranges and defaults",
            }.get(oracle, "reference")
            continue
        if oracle == "options":
            said[oracle] = f"no documented ranges declared: relies on {_RELIED[oracle]}"
            continue
        if oracle == "penalties" and read.values["penalty_books"] == 0:
            said[oracle] = "no book penalties declared"
            continue
        keys = [k for k, feeds in _FEEDS.items() if oracle in feeds and read.values[k] == "own"]
        by = ", ".join(sorted({read.owners[k] or rules.variant for k in keys})) or rules.variant
        said[oracle] = f"declared own by {by}: relies on {_RELIED[oracle]}"
    return said


# ------------------------------------------------------------------------------------------
