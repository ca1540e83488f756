"""Oracles: the kit's own reading of the rules, compared with what the plugins decide.

The invariants in :mod:`~spadeskit.testing.invariants` check the rules against
themselves (cards conserved, replay equal), so they catch code that breaks, not a rule
that is wrong.  An oracle holds a second, independent statement of a rule, written
here from the published rules of Spades, and compares every played hand with it:

``legal``
    the cards a seat may play: follow the led (effective) suit if able; spades led only
    once broken (or the leader holds nothing else); and what a plugin declares instead
    (spades any time, no spade on the first trick, heading the trick).
``bids``
    the bids offered: nil or 1 to the tricks in a hand, or a declared auction (team
    board, calls, a count of spades).
``leader``
    who leads each hand's first trick: the dealer's left, or a declared rule.
``tricks``
    the trick winner: the highest card of the trump suit (spades by default, a suit
    ladder or none where the contract says so) in the trick, else the highest card of
    the led suit, by the printed ranks and the cards a plugin declares above the ace.
``score``
    each side's points for the hand, scored from its bids and books by the published
    scoring (standard's contract, nil and bag penalty; Jokers-and-Deuces; Call Break),
    with the options the rule set documents.
``sheet``
    the same hand scored on paper (:meth:`spadeskit.Rules.score_hand`) gives the points
    play gave: a rule that scores the table and the sheet differently is caught.
``bags``
    each side's bag counter: the books over the contract, less the limit each time it
    is reached.
``end``
    whether the match ends after a hand, and who wins: the target, the floor, ties
    playing on, Boston and three sets in a row, or a number of rounds.
``penalties``
    each table-talk ruling or renege claim moves the declared number of books.
``options``
    each option's validator accepts its documented range and refuses what lies outside.

Every failure names the oracle's rule, the seat (or side) and the hand.

A plugin that changes one of these rules says so in a module-level dict ``ORACLES``
(see :func:`reading`); a value the kit has no reference for, ``"own"``, switches that
oracle off, and :func:`relies_on` says what the kit then relies on for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from spadeskit.core.actions import Action, Bid, BlindNil, CallRenege, Nil, Play, TableTalk
from spadeskit.core.cards import Suit, card_at, iter_mask, parse_cards
from spadeskit.core.errors import SpadesError
from spadeskit.core.phase import Phase
from spadeskit.core.results import HandResult, HandSummary
from spadeskit.core.state import GameState
from spadeskit.engine.loader import load_rules
from spadeskit.engine.rules import Rules, rules_of

__all__ = [
    "ORACLES",
    "Reading",
    "reading",
    "relies_on",
    "reference_plays",
    "reference_winner",
    "reference_bids",
    "reference_score",
    "reference_end",
    "Watcher",
    "check_options",
    "check_end_on_paper",
    "draw_options",
]

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
    "options",
)
"""The oracles, by the key a plugin's ``ORACLES`` declaration and a failure use."""

DEFAULTS: Mapping[str, Any] = {
    "trumps": "",
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
    "sealed_bids": False,
}
"""What the kit assumes when no plugin declares otherwise: standard Spades."""

# Which oracle each declaration key feeds: a key declared "own" switches that oracle off.
_FEEDS: Mapping[str, tuple[str, ...]] = {
    "trumps": ("tricks", "legal"),
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
    "sealed_bids": ("bids",),
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
    "options": "the validators as written",
}


@attrs.frozen
class Reading:
    """The kit's reading of a rule set: the reference each oracle compares play with.

    ``values`` maps each declaration key to its value (``"own"``: no reference),
    ``score_extras`` lists the scoring house rules declared with ``"+name"`` (e.g.
    ``"+boston"``), ``owners`` maps each key to the plugin that set it, ``ranges``
    the documented option ranges and ``options`` the rule set's option values.
    """

    values: Mapping[str, Any]
    score_extras: tuple[str, ...]
    owners: Mapping[str, str]
    ranges: Mapping[str, tuple[str, str]]
    options: Mapping[str, Any]
    top_trumps: tuple[int, ...]

    def with_options(self, options: Mapping[str, Any]) -> Reading:
        """Return this reading with the rule set's option values replaced by ``options``."""
        return attrs.evolve(self, options=dict(options))

    def runs(self, oracle: str) -> bool:
        """Return whether ``oracle`` has a reference here (no plugin declared it ``"own"``)."""
        if oracle == "sheet":
            return True
        if oracle == "options":
            return bool(self.ranges)
        if oracle == "penalties":
            return self.values["penalty_books"] not in (0, "own")
        return not any(
            self.values[key] == "own" for key, feeds in _FEEDS.items() if oracle in feeds
        )

    def suit(self, card: int) -> Suit | None:
        """Return a card's effective suit: printed, or spades for a declared top trump."""
        if card in self.top_trumps:
            return Suit.SPADES
        return card_at(card).suit

    def strength(self, card: int) -> int:
        """Return a card's order within its effective suit: printed rank (ace 14), and the
        declared top trumps above the ace, highest first."""
        if card in self.top_trumps:
            return 15 + len(self.top_trumps) - self.top_trumps.index(card)
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
        ``"whiz"``.
    ``score``
        ``"contract"``, ``"jjdd"`` or ``"call-break"``; a house rule adds to it with
        ``"+boston"``, ``"+no-bags"``, ``"+partnership-nil"`` or ``"+blind-nil"``.
    ``end``
        ``"target"`` (target and floor options), ``"jjdd"`` (also Boston and three sets
        in a row) or ``"rounds"`` (the ``rounds`` option).
    ``penalty_books``
        the books a side owes the other for each table-talk ruling or renege claim
        against it (right or wrong), or ``0`` where the rules have none.
    ``renege_calls``
        whether a side may call a renege in any finished trick of the hand, each trick
        once (``True``), or never (``False``).
    ``sealed_bids``
        ``True`` where no view shows another seat's bid until every seat has bid.
    ``suits``
        ``"symmetric"`` (swapping two non-trump suits in a deal swaps them in play) or
        ``"own"`` (a rule names a suit, so the relabelling check is skipped).
    ``options``
        documented ranges, ``{"target": "1..", "floor": "..0|None", "pass": "0|1|2"}``.

    Any key may be ``"own"``: the plugin changes that rule in a way the kit has no
    reference for, and the oracles it feeds are not run (see :func:`relies_on`).
    """
    values = dict(DEFAULTS)
    owners = dict.fromkeys(DEFAULTS, "")
    extras: list[str] = []
    ranges: dict[str, tuple[str, str]] = {}
    pm = rules.plugin_manager
    for name in (rules.variant, *rules.house_rules):
        for key, value in _declared(pm.get_plugin(name), rules.options).items():
            if key == "options":
                ranges.update({option: (name, text) for option, text in value.items()})
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
    return Reading(values, tuple(extras), owners, ranges, dict(rules.options), top)


def relies_on(rules: Rules) -> dict[str, str]:
    """Return, for each oracle, what the kit compares that rule with on ``rules``."""
    read = reading(rules)
    said: dict[str, str] = {}
    for oracle in ORACLES:
        if read.runs(oracle):
            said[oracle] = {
                "sheet": "the score sheet, wherever it can score a hand from bids and books",
                "options": "documented ranges",
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
# The references
# ------------------------------------------------------------------------------------------


def _seat(rules: Rules, seat: int) -> str:
    return f"seat {seat} ({rules.table.seat_names[seat]})"


def _spades(read: Reading, mask: int) -> list[int]:
    return [c for c in iter_mask(mask) if read.suit(c) is Suit.SPADES]


def reference_plays(read: Reading, game: GameState) -> dict[int, str | None]:
    """Return each card the seat to act holds, mapped to the rule that bars it (or None)."""
    hand = game.hand
    seat = hand.to_act
    assert seat is not None
    held = list(iter_mask(hand.hands[seat]))
    barred: dict[int, str | None] = dict.fromkeys(held)
    follow = read.values["follow"]
    if follow == "any":
        return barred

    def bar(cards: Iterable[int], rule: str) -> None:
        allowed = [c for c in held if barred[c] is None]
        cards = set(cards) & set(allowed)
        if cards and len(cards) < len(allowed):
            for card in cards:
                barred[card] = rule

    trick = hand.trick
    if trick:
        led = read.suit(trick[0][1])
        same = [c for c in held if read.suit(c) is led]
        bar([c for c in held if read.suit(c) is not led], "follow suit: follow the led suit")
        if follow in ("head", "follow"):
            trumped = led is not Suit.SPADES and any(read.suit(c) is Suit.SPADES for _, c in trick)
            if same and follow == "head" and not trumped:
                top = max(read.strength(c) for _, c in trick if read.suit(c) is led)
                bar(
                    [c for c in same if read.strength(c) < top],
                    "head the trick: beat every card of the led suit",
                )
            if not same:
                spades = _spades(read, hand.hands[seat])
                bar(
                    [c for c in held if c not in spades],
                    "trump when void: play a spade if able",
                )
                played = [read.strength(c) for _, c in trick if read.suit(c) is Suit.SPADES]
                if played:
                    bar(
                        [c for c in spades if read.strength(c) < max(played)],
                        "over-trump: beat every spade in the trick",
                    )
        if read.values["first_trick"] == "no-spades" and not hand.tricks:
            bar(_spades(read, hand.hands[seat]), "no spade on the first trick")
    else:
        broken = any(read.suit(c) is Suit.SPADES for c in iter_mask(hand.played))
        if read.values["lead"] == "broken" and not broken:
            bar(_spades(read, hand.hands[seat]), "spades are led only once broken")
        if read.values["first_trick"] == "no-spades" and not hand.tricks:
            bar(_spades(read, hand.hands[seat]), "no spade on the first trick")
    return barred


_LADDER = (Suit.SPADES, Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS)


def reference_winner(read: Reading, plays: Sequence[tuple[int, int]], trump: str) -> int:
    """Return the seat that wins ``plays`` under the trump mode ``trump``: ``"spades"``,
    ``"ladder"`` (spades > clubs > hearts > diamonds) or ``"none"``."""
    led = read.suit(plays[0][1])
    suit: Suit | None
    if trump == "ladder":
        suit = next(s for s in _LADDER if any(read.suit(c) is s for _, c in plays))
    elif trump == "spades" and any(read.suit(c) is Suit.SPADES for _, c in plays):
        suit = Suit.SPADES
    elif trump in ("spades", "none"):
        suit = led
    else:
        raise SpadesError(f"the kit has no reference for the trump mode {trump!r}")
    return max((read.strength(c), seat) for seat, c in plays if read.suit(c) is suit)[1]


def _tricks_in_hand(rules: Rules) -> int:
    return len(rules.table.deck) // rules.table.players


def reference_bids(read: Reading, game: GameState) -> set[Action] | None:
    """Return the bids (nil and numbers) the seat to act may make, or None for no reference."""
    mode = read.values["auction"]
    seat = game.to_act
    assert seat is not None
    rules = rules_of(game)
    most = _tricks_in_hand(rules)
    if mode == "nil-or-count":
        return {Nil(), *(Bid(n) for n in range(1, most + 1))}
    if mode == "calls":
        return {Bid(n) for n in range(1, read.options["max_call"] + 1)}
    if mode in ("mirror", "whiz"):
        count = len(_spades(read, game.hands[seat]))
        if not count:
            return {Nil()}
        return {Bid(count)} if mode == "mirror" else {Nil(), Bid(count)}
    if mode == "board":
        partner = next(s for s in rules.table.sides[rules.side_of[seat]] if s != seat)
        said = game.bids[partner]
        board, nil = read.options["board"], read.options["nil"]
        if said is None:
            return {*(Bid(n) for n in range(0, most + 1)), *((Nil(),) if nil else ())}
        already = said.tricks if isinstance(said, Bid) else 0
        low = max(0, board - already)
        offered: set[Action] = {Bid(n) for n in range(low, most + 1 - already)}
        return offered | ({Nil()} if nil and already >= board else set())
    raise SpadesError(f"the kit has no reference for the auction {mode!r}")


def _nil(bid: Action | None) -> bool:
    return isinstance(bid, (Nil, BlindNil)) or (isinstance(bid, Bid) and bid.tricks == 0)


def _contract_side(
    read: Reading, seats: Sequence[int], bids: Sequence[Action | None], books: Sequence[int]
) -> tuple[int, int, list[str]]:
    """Score one side by standard's contract: return its points, bags and the rules used."""
    options = read.options
    extras = read.score_extras
    mode = options.get("nil_tricks", "bags")
    nils = [s for s in seats if _nil(bids[s])]
    bidders = [s for s in seats if s not in nils]
    contract = sum(b.tricks for s in bidders if isinstance(b := bids[s], Bid))
    took = sum(books[s] for s in bidders) + (
        sum(books[s] for s in nils) if mode == "partner" else 0
    )
    made = took >= contract
    points = bags = 0
    rules: list[str] = []
    all_tricks = sum(books)
    if (
        bidders
        and options.get("all_tricks") == "score-200"
        and len(seats) == 1
        and took == all_tricks
    ):
        return 200, 0, ["a bid taking every trick scores 200 instead of its contract"]
    if bidders and made:
        points += 10 * contract + took - contract
        bags += took - contract
        rules.append(f"a made contract of {contract} scores +10 a trick and +1 a bag")
    elif bidders:
        points -= 10 * contract
        rules.append(f"a set contract of {contract} scores -10 a trick, no bags")
    for seat in nils:
        blind = isinstance(bids[seat], BlindNil)
        value = options["blind_nil_value"] if blind else options["nil_value"]
        points += value if books[seat] == 0 else -value
        rules.append(f"a {'blind ' if blind else ''}nil scores +/-{value}")
        if mode == "bags" or (mode == "partner" and not bidders):
            bags += books[seat]
            points += books[seat] if made else 0
            if books[seat]:
                rules.append("a nil bidder's tricks are bags, +1 each beside a made contract")
    if "boston" in extras and contract == 13:
        won = sum(books[s] for s in bidders) >= 13
        points += options["boston_bonus"] if won else -options["boston_bonus"]
        rules.append("a Boston wins or loses the boston bonus")
    if "partnership-nil" in extras and all(_nil(bids[s]) and books[s] == 0 for s in seats):
        points += options["partnership_nil_bonus"]
        rules.append("two nils made by partners score the partnership bonus")
    if "no-bags" in extras and bags:
        points -= bags if made else 0
        bags = 0
        rules.append("no bags: overtricks score nothing")
    return points, bags, rules


def _jjdd_books(summary: HandSummary, sides: Sequence[Sequence[int]]) -> list[int]:
    books = [sum(summary.books[s] for s in seats) for seats in sides]
    owed = [0] * len(sides)
    for transfer in summary.transfers:
        owed[transfer.from_side] += transfer.books
    if summary.transfers and len(sides) == 2:
        payer = 0 if owed[0] > owed[1] else 1
        moved = min(abs(owed[0] - owed[1]), books[payer])
        books[payer] -= moved
        books[1 - payer] += moved
    return books


def _jjdd_side(
    read: Reading, side: int, seats: Sequence[int], summary: HandSummary, books: Sequence[int]
) -> tuple[int, int, list[str]]:
    options = read.options
    bid = sum(b.tricks for s in seats if isinstance(b := summary.bids[s], Bid))
    nils = [s for s in seats if isinstance(summary.bids[s], Nil)]
    nil_books = sum(summary.books[s] for s in nils)
    took = max(0, books[side] - nil_books)
    factor = 2 if bid >= 10 else 1
    made = took >= bid
    over = max(0, took - bid)
    doubled = made and options["double_over"] and bid > 0 and took >= 2 * bid
    points, rules = 0, []
    for seat in nils:
        points += options["nil_value"] if summary.books[seat] == 0 else -options["nil_value"]
        if made and not doubled and options["sandbags"]:
            points += summary.books[seat]
        rules.append("a nil scores +/-nil_value; its books are sandbags")
    if not made:
        points -= 10 * bid * factor
        rules.append(f"a set bid of {bid} scores -10 a book" + (", doubled" if factor > 1 else ""))
    elif doubled:
        points -= 10 * bid
        rules.append(f"taking twice the bid of {bid} (double over) scores -10 a book")
    else:
        points += 10 * bid * factor + (over if options["sandbags"] else 0)
        rules.append(
            f"a made bid of {bid} scores +10 a book"
            + (", doubled" if factor > 1 else "")
            + (", +1 a sandbag" if options["sandbags"] else "")
        )
    return points, over + nil_books, rules


def reference_score(
    read: Reading, rules: Rules, result: HandResult, before: Sequence[int]
) -> list[tuple[int, int, list[str]]]:
    """Return each side's ``(points, bag counter after, rules used)`` for a played hand.

    ``before`` is each side's bag counter before the hand.
    """
    table = rules.table
    mode = read.values["score"]
    scored: list[tuple[int, int, list[str]]] = []
    summary = HandSummary(result.bids, result.books, transfers=result.transfers)
    if mode == "call-break":
        for seat in range(table.players):
            bid = result.bids[seat]
            call = bid.tricks if isinstance(bid, Bid) else 0
            took = result.books[seat]
            if took >= call:
                scored.append(
                    (10 * call + took - call, 0, ["a made call scores +call, +0.1 a trick over"])
                )
            else:
                scored.append((-10 * call, 0, ["a failed call scores -call"]))
        return scored
    books = _jjdd_books(summary, table.sides) if mode == "jjdd" else []
    for side, seats in enumerate(table.sides):
        # Each time the counter reaches the limit, the penalty applies and the counter
        # drops by the limit (even at a penalty of 0); with jjdd's sandbag penalty off
        # there is no limit at all.
        limited = True
        if mode == "jjdd":
            points, bags, used = _jjdd_side(read, side, seats, summary, books)
            limit, penalty = 10, 100
            limited = bool(read.options["sandbag_penalty"])
        elif mode == "contract":
            points, bags, used = _contract_side(read, seats, result.bids, result.books)
            limit, penalty = read.options["bag_limit"], read.options["bag_penalty"]
        else:
            raise SpadesError(f"the kit has no reference for the scoring {mode!r}")
        counter = before[side] + bags
        if limited and counter >= limit:
            times = counter // limit
            points -= penalty * times
            counter -= limit * times
            used.append(f"each {limit} bags cost {penalty}")
        scored.append((points, counter, used))
    return scored


def _best(candidates: Sequence[int], scores: Sequence[int]) -> int | None:
    top = max(scores[s] for s in candidates)
    leaders = [s for s in candidates if scores[s] == top]
    return leaders[0] if len(leaders) == 1 else None


def reference_end(
    read: Reading, rules: Rules, results: Sequence[HandResult]
) -> tuple[bool, int | None, str]:
    """Return ``(ends, winner, rule)`` for the match after the last of ``results``."""
    mode = read.values["end"]
    last = results[-1]
    scores = last.scores
    sides = range(len(scores))
    options = read.options
    played = [r for r in results if not r.void]
    if mode == "rounds":
        if len(played) < options["rounds"]:
            return False, None, f"the match lasts {options['rounds']} rounds"
        winner = _best(list(sides), scores)
        return winner is not None, winner, "after the rounds, the highest total wins; ties play on"
    losers: dict[int, int] = {}
    if mode == "jjdd":
        summary = HandSummary(last.bids, last.books, transfers=last.transfers)
        books = _jjdd_books(summary, rules.table.sides)
        for side, seats in enumerate(rules.table.sides):
            if last.void:
                break
            bid = sum(b.tricks for s in seats if isinstance(b := last.bids[s], Bid))
            nil_books = sum(last.books[s] for s in seats if isinstance(last.bids[s], Nil))
            if bid == 13:
                if books[side] - nil_books == 13:
                    return True, side, "a Boston (bid 13, took 13) wins at once"
                losers[side] = 0
        for side, seats in enumerate(rules.table.sides):
            if side in losers or len(played) < 3:
                continue
            if all(_jjdd_set(r, rules, side) for r in played[-3:]):
                losers[side] = 1
    elif mode == "target":
        if options.get("all_tricks") == "win" and not last.void:
            for seat, took in enumerate(last.books):
                if took == sum(last.books) and not _nil(last.bids[seat]):
                    return True, seat, "a bid that takes every trick wins at once"
    else:
        raise SpadesError(f"the kit has no reference for the match end {mode!r}")
    floor = options.get("floor") if mode == "target" else None
    if floor is not None:
        for side in sides:
            if side not in losers and scores[side] <= floor:
                losers[side] = 1
    if losers:
        rest = [s for s in sides if s not in losers]
        if not rest:
            first = min(losers.values())
            rest = [s for s in sides if losers[s] != first] or list(sides)
        winner = _best(rest, scores)
        return winner is not None, winner, "a side that loses outright loses; ties play on"
    reached = [s for s in sides if scores[s] >= options["target"]]
    if reached:
        winner = _best(reached, scores)
        return (
            winner is not None,
            winner,
            f"the highest score at or above the target {options['target']} wins; ties play on",
        )
    return False, None, f"the match goes on below the target {options['target']}"


def _jjdd_set(result: HandResult, rules: Rules, side: int) -> bool:
    summary = HandSummary(result.bids, result.books, transfers=result.transfers)
    books = _jjdd_books(summary, rules.table.sides)
    seats = rules.table.sides[side]
    bid = sum(b.tricks for s in seats if isinstance(b := result.bids[s], Bid))
    nil_books = sum(result.books[s] for s in seats if isinstance(result.bids[s], Nil))
    return max(0, books[side] - nil_books) < bid


# ------------------------------------------------------------------------------------------
# Watching a match
# ------------------------------------------------------------------------------------------


Fail = Callable[[GameState, str, str], AssertionError]


def _cards(cards: Iterable[int]) -> str:
    return " ".join(card_at(c).code for c in sorted(cards))


class Watcher:
    """Compare every decision and every hand of a match with the oracles.

    Call :meth:`before` with each state before an action is chosen, and :meth:`after`
    with the state before and after each action.  ``fail(game, oracle, what)`` builds
    the error to raise (the kit's :class:`~spadeskit.testing.InvariantError`).
    """

    def __init__(self, rules: Rules, fail: Fail) -> None:
        self.rules = rules
        self.read = reading(rules)
        self.fail = fail
        self.runs = {oracle: self.read.runs(oracle) for oracle in ORACLES}
        self._called: dict[tuple[int, int], set[int]] = {}

    def before(self, game: GameState) -> None:
        """Check the decision pending in ``game``: the legal plays, bids or the leader."""
        seat = game.to_act
        if seat is None:
            return
        hand = game.hand
        where = f"hand {hand.number + 1}, {_seat(self.rules, seat)}"
        if hand.phase is Phase.PLAY and self.runs["legal"]:
            self._check_plays(game, where)
        if hand.phase is Phase.AUCTION and self.runs["bids"]:
            self._check_bids(game, where)
            if self.read.values["sealed_bids"]:
                self._check_sealed(game)

    def _check_plays(self, game: GameState, where: str) -> None:
        hand = game.hand
        barred = reference_plays(self.read, game)
        offered = {a.card.index for a in game.legal_actions() if isinstance(a, Play)}
        expected = {c for c, why in barred.items() if why is None}
        if offered == expected:
            return
        trick = f"trick {len(hand.tricks) + 1}"
        led = f"{card_at(hand.trick[0][1]).code} led" if hand.trick else "leading"
        if offered - expected:
            card = min(offered - expected)
            what = (
                f"{barred.get(card) or 'a card not held'}: {where}, {trick} ({led}), holding "
                f"{_cards(barred)}: the rules allow {card_at(card).code}"
            )
        else:
            card = min(expected - offered)
            what = (
                f"no rule bars {card_at(card).code}: {where}, {trick} ({led}), holding "
                f"{_cards(barred)}: the rules refuse it (they allow {_cards(offered)})"
            )
        raise self.fail(game, "legal", f"legal plays: {what}")

    def _check_sealed(self, game: GameState) -> None:
        """Check that, during the auction, each seat's view shows its own bid only."""
        for viewer in range(self.rules.table.players):
            shown = game.view(viewer).bids
            for seat, bid in enumerate(game.bids):
                expected = bid if seat == viewer else None
                if shown[seat] != expected:
                    raise self.fail(
                        game,
                        "bids",
                        f"sealed bids (no view shows another seat's bid until all have bid): "
                        f"hand {game.hand.number + 1}, the view of "
                        f"{_seat(self.rules, viewer)} shows {shown[seat]} for "
                        f"{_seat(self.rules, seat)}, the reference {expected}",
                    )

    def _check_bids(self, game: GameState, where: str) -> None:
        offered = {a for a in game.legal_actions() if isinstance(a, (Bid, Nil))}
        if not offered:
            return  # a blind decision or a misdeal pending: nothing to bid yet
        expected = reference_bids(self.read, game)
        if expected is None or offered == expected:
            return
        extra = sorted(map(str, offered - expected))
        missing = sorted(map(str, expected - offered))
        rule = self.read.values["auction"]
        raise self.fail(
            game,
            "bids",
            f"bids ({rule} auction): {where}: the rules offer {extra or 'nothing'} beyond the "
            f"reference and lack {missing or 'nothing'}",
        )

    def after(
        self, game: GameState, action: Action, new: GameState, seat: int | None = None
    ) -> None:
        """Check what ``action`` (taken by ``seat``, default the seat to act) changed: a
        finished trick, a first lead, a penalty, a scored hand."""
        hand = game.hand
        if hand.phase is Phase.PLAY and isinstance(action, Play) and self.runs["tricks"]:
            if len(hand.trick) == self.rules.table.players - 1:
                self._check_trick(game, action, new)
        if new.hand.phase is Phase.PLAY and not new.hand.tricks and not new.hand.trick:
            if hand.phase is not Phase.PLAY or hand.number != new.hand.number:
                self._check_leader(new)
        if len(new.hand_results) > len(game.hand_results):
            self._check_hand(game, new)
        elif isinstance(action, (TableTalk, CallRenege)) and self.runs["penalties"]:
            self._check_penalty(game, action, game.to_act if seat is None else seat, new)

    def out_of_turn(self, game: GameState, seat: int, offered: Sequence[Action]) -> None:
        """Check the renege calls offered to ``seat`` out of turn: every finished trick of
        the hand its side has not called yet, where renege calls are declared."""
        if not self.runs["penalties"] or seat < 0:
            return
        calls = {a.trick for a in offered if isinstance(a, CallRenege)}
        expected: set[int] = set()
        if self.read.values["renege_calls"] and game.hand.phase in (Phase.PLAY, Phase.REVIEW):
            side = self.rules.side_of[seat]
            done = self._called.get((game.hand.number, side), set())
            expected = set(range(1, len(game.hand.tricks) + 1)) - done
        if calls != expected:
            raise self.fail(
                game,
                "penalties",
                f"renege calls (each finished trick, each once): hand {game.hand.number + 1}, "
                f"{_seat(self.rules, seat)} is offered tricks {sorted(calls)}, the reference "
                f"{sorted(expected)}",
            )

    def _check_penalty(
        self, game: GameState, action: Action, seat: int | None, new: GameState
    ) -> None:
        """Check the books a ruling moves: the declared number, owed by the side
        that talked, reneged, or called a renege wrongly."""
        owed = self.read.values["penalty_books"]
        rules = self.rules
        sides = len(rules.table.sides)

        def owing(state: GameState) -> list[int]:
            by = [0] * sides
            for transfer in state.hand.transfers:
                by[transfer.from_side] += transfer.books
            return by

        def owed_to(state: GameState) -> list[int]:
            by = [0] * sides
            for transfer in state.hand.transfers:
                by[transfer.to_side] += transfer.books
            return by

        before, after = owing(game), owing(new)
        moved = [b - a for a, b in zip(before, after)]
        received = [b - a for a, b in zip(owed_to(game), owed_to(new))]
        if isinstance(action, TableTalk):
            debtor, why = action.side, f"{rules.table.side_names[action.side]} talked"
        else:
            assert isinstance(action, CallRenege) and seat is not None
            caller = rules.side_of[seat]
            self._called.setdefault((game.hand.number, caller), set()).add(action.trick)
            reneged = [
                rules.side_of[b.seat]
                for b in game.hand.breaches
                if b.trick == action.trick - 1 and rules.side_of[b.seat] != caller
            ]
            debtor = reneged[0] if reneged else caller
            why = f"{rules.table.seat_names[seat]} called a renege in trick {action.trick} " + (
                "rightly" if reneged else "wrongly"
            )
        expected = [owed if side == debtor else 0 for side in range(sides)]
        # At two sides, the books go to the other side.
        to_other = sides != 2 or received == [owed if side != debtor else 0 for side in range(2)]
        if moved != expected or not to_other:
            raise self.fail(
                new,
                "penalties",
                f"penalty books ({owed} books a ruling, owed by the offending side): hand "
                f"{game.hand.number + 1}, {why}: the sides now owe {moved} more books and "
                f"are owed {received} more, the reference {expected} owed to the other side",
            )

    def _check_trick(self, game: GameState, action: Action, new: GameState) -> None:
        hand = game.hand
        assert isinstance(action, Play) and hand.to_act is not None
        plays = hand.trick + ((hand.to_act, action.card.index),)
        trump = hand.contract.trump if hand.contract else "spades"
        expected = reference_winner(self.read, plays, trump)
        if new.hand_results != game.hand_results:
            actual = new.hand_results[-1].last_trick_winner
        elif new.hand.tricks:
            actual = new.hand.tricks[-1].winner
        else:
            return
        if actual != expected:
            shown = ", ".join(
                f"{self.rules.table.seat_names[s]} {card_at(c).code}" for s, c in plays
            )
            rule = {
                "spades": "the highest spade wins, else the highest card of the led suit",
                "ladder": "the highest card of the highest suit (S > C > H > D) wins",
                "none": "the highest card of the led suit wins",
            }[trump]
            raise self.fail(
                game,
                "tricks",
                f"trick winner ({rule}): hand {hand.number + 1}, trick {len(hand.tricks) + 1} "
                f"({shown}): the rules give it to {_seat(self.rules, actual or 0)}, the "
                f"reference to {_seat(self.rules, expected)}",
            )

    def _check_leader(self, game: GameState) -> None:
        if not self.runs["leader"]:
            return
        rule = self.read.values["first_lead"]
        hand = game.hand
        n = self.rules.table.players
        expected: int | None = (hand.dealer + 1) % n
        if rule == "last-book":
            previous = [r for r in game.hand_results if not r.void]
            if previous:
                expected = previous[-1].last_trick_winner
        elif rule == "lowest-club":
            dealt = [hand.hands[s] | _won_by(game, s) for s in range(n)]
            clubs = [
                (card_at(c).rank, s)
                for s in range(n)
                for c in iter_mask(dealt[s])
                if self.read.suit(c) is Suit.CLUBS
            ]
            expected = min(clubs)[1] if clubs else expected
        elif rule != "left-of-dealer":
            raise SpadesError(f"the kit has no reference for the first lead {rule!r}")
        if hand.to_act != expected:
            raise self.fail(
                game,
                "leader",
                f"first lead ({rule}): hand {hand.number + 1}: the rules have "
                f"{_seat(self.rules, hand.to_act or 0)} lead, the reference "
                f"{_seat(self.rules, expected or 0)}",
            )

    def _check_hand(self, game: GameState, new: GameState) -> None:
        rules = self.rules
        result = new.hand_results[-1]
        results = new.hand_results
        before_scores = game.scores
        before_bags = results[-2].bags if len(results) > 1 else (0,) * len(result.bags)
        number = result.number + 1
        names = rules.table.side_names
        if result.void:
            if any(result.points):
                raise self.fail(new, "score", f"hand {number} is void but scores {result.points}")
        elif self.runs["score"]:
            scored = reference_score(self.read, rules, result, before_bags)
            for side, (points, bags, used) in enumerate(scored):
                seats = ", ".join(rules.table.seat_names[s] for s in rules.table.sides[side])
                if result.points[side] != points:
                    lines = (
                        "; ".join(line.text for line in result.lines if line.side == side)
                        or "no line"
                    )
                    raise self.fail(
                        new,
                        "score",
                        f"score ({'; '.join(used) or 'no rule applies'}): hand {number}, "
                        f"{names[side]} (seats {seats}), bids {_bids(result, side, rules)}, "
                        f"books {_books(result, side, rules)}: the reference scores "
                        f"{points:+d}, the rules {result.points[side]:+d} ({lines})",
                    )
                if result.bags[side] != bags:
                    raise self.fail(
                        new,
                        "bags",
                        f"bags (books over the contract, less the limit each time it is "
                        f"reached): hand {number}, {names[side]} (seats {seats}): from "
                        f"{before_bags[side]} the reference counts {bags}, the rules "
                        f"{result.bags[side]}",
                    )
        if not result.void and self.runs["sheet"]:
            self._check_sheet(new, result, before_scores, before_bags)
        if self.runs["end"]:
            ends, winner, rule = reference_end(self.read, rules, results)
            if ends != new.is_over or (ends and new.winner != winner):
                said = f"ends, won by {names[winner]}" if ends and winner is not None else "goes on"
                got = (
                    f"ends, won by {names[new.winner]}"
                    if new.is_over and new.winner is not None
                    else "goes on"
                )
                raise self.fail(
                    new,
                    "end",
                    f"match end ({rule}): after hand {number} (scores {result.scores}): the "
                    f"reference says the match {said}, the rules that it {got}",
                )

    def _check_sheet(
        self,
        new: GameState,
        result: HandResult,
        scores: Sequence[int],
        bags: Sequence[int],
    ) -> None:
        summary = HandSummary(result.bids, result.books, transfers=result.transfers)
        try:
            paper = self.rules.score_hand(summary, scores=scores, bags=bags, dealer=result.dealer)
        except SpadesError:
            self.runs["sheet"] = False  # hands the sheet cannot take (card points, a blind)
            return
        if tuple(paper.points) != tuple(result.points) or tuple(paper.bags) != tuple(result.bags):
            raise self.fail(
                new,
                "sheet",
                f"score sheet: hand {result.number + 1}: scored on paper from the same bids "
                f"and books it gives {paper.points} (bags {paper.bags}), play gave "
                f"{result.points} (bags {result.bags})",
            )


def _won_by(game: GameState, seat: int) -> int:
    mask = 0
    for trick in game.hand.tricks:
        for s, card in trick.plays:
            if s == seat:
                mask |= 1 << card
    return mask


def _bids(result: HandResult, side: int, rules: Rules) -> str:
    return " ".join(
        f"{rules.table.seat_names[s]} {result.bids[s]}" for s in rules.table.sides[side]
    )


def _books(result: HandResult, side: int, rules: Rules) -> str:
    return " ".join(
        f"{rules.table.seat_names[s]} {result.books[s]}" for s in rules.table.sides[side]
    )


# ------------------------------------------------------------------------------------------
# Options
# ------------------------------------------------------------------------------------------


def _range_values(text: str) -> tuple[list[Any], list[Any]]:
    """Return ``(inside, outside)`` probe values for a documented range.

    ``"1.."``, ``"..0"``, ``"1..13"``, alternatives ``"0|1|2"`` or ``"True|False"``,
    quoted strings ``"'a'|'b'"``, and ``"|None"`` for an option that can be turned off.
    """
    inside: list[Any] = []
    outside: list[Any] = []
    for part in text.split("|"):
        part = part.strip()
        if ".." in part:
            low_text, high_text = part.split("..")
            low = int(low_text) if low_text else None
            high = int(high_text) if high_text else None
            inside += [v for v in (low, high) if v is not None]
            if low is not None and high is not None and high - low > 1:
                inside.append((low + high) // 2)
            elif low is not None and high is None:
                inside.append(low + 100)  # well inside an open range, away from its end
            elif high is not None and low is None:
                inside.append(high - 100)
            outside += [
                v
                for v in (
                    (low - 1) if low is not None else None,
                    (high + 1) if high is not None else None,
                )
                if v is not None
            ]
            outside.append("1")
        elif part == "None":
            inside.append(None)
        elif part in ("True", "False"):
            inside.append(part == "True")
        elif part[:1] in "'\"":
            inside.append(part[1:-1])
            outside.append(part[1:-1] + "?")
        else:
            inside.append(int(part))
            outside.append(int(part) + 1000)
    if "None" not in text.split("|") and ".." in text:
        outside.append(None)
    return inside, [v for v in outside if v not in inside]


def check_options(rules: Rules, fail: Callable[[Rules, str, str], AssertionError]) -> int:
    """Check every documented option range against the validators; return values probed.

    Each value inside a range must load; each value just outside (and a value of the
    wrong type) must raise a :class:`~spadeskit.SpadesError` naming the option.
    """
    read = reading(rules)
    pm = rules.plugin_manager
    keep = [pm.get_plugin(h) for h in rules.house_rules]
    variant = pm.get_plugin(rules.variant)
    probed = 0
    for option, (plugin, text) in sorted(read.ranges.items()):
        inside, outside = _range_values(text)
        for value in inside:
            probed += 1
            try:
                _load(variant, keep, {**rules.options, option: value})
            except SpadesError as exc:
                raise fail(
                    rules,
                    "options",
                    f"option {option!r} of {plugin} (documented {text}): {value!r} is in range "
                    f"but refused: {exc}",
                ) from exc
        for value in outside:
            probed += 1
            try:
                _load(variant, keep, {**rules.options, option: value})
            except SpadesError as exc:
                if option not in str(exc):
                    raise fail(
                        rules,
                        "options",
                        f"option {option!r} of {plugin}: refusing {value!r}, the error does not "
                        f"name the option: {exc}",
                    ) from exc
                continue
            raise fail(
                rules,
                "options",
                f"option {option!r} of {plugin} (documented {text}): {value!r} is out of range "
                "but accepted",
            )
    return probed


def _load(variant: object, house: Sequence[object], options: Mapping[str, Any]) -> Rules:
    return load_rules(variant, list(house), dict(options))


# Two hands that leave partnership sides tied: N/S bid 6 and take 7, E/W bid 6 and take 6,
# then the other way round (61 + 60 each, one bag each).
_TIE = (((3, 3, 3, 3), (4, 3, 3, 3)), ((3, 3, 3, 3), (3, 4, 3, 3)))


def check_end_on_paper(rules: Rules, fail: Callable[[Rules, str, str], AssertionError]) -> bool:
    """Check ties at the target on a score sheet; return whether the check applied.

    With the target set to 121, two hands tie the sides at 121: the match must go on
    (an exact tie at the top plays another hand) and end after a third hand, won by the
    side ahead.  Applies to rule sets of two partnership sides scored on paper with a
    ``target`` option and the ``target`` or ``jjdd`` match end.
    """
    read = reading(rules)
    if (
        len(rules.table.sides) != 2
        or rules.table.players != 4
        or "target" not in rules.options
        or read.values["end"] not in ("target", "jjdd")
    ):
        return False
    options = {**rules.options, "target": 121}
    pm = rules.plugin_manager
    try:
        tied = _load(
            pm.get_plugin(rules.variant), [pm.get_plugin(h) for h in rules.house_rules], options
        )
        sheet = tied.score_sheet()
        for number, (bids, books) in enumerate(_TIE + _TIE[:1]):
            sheet = sheet.add_hand(bids, books)
            ends, winner, rule = reference_end(read.with_options(options), tied, sheet.results)
            end = sheet.match.end
            if ends != (end is not None) or (end is not None and end.winner != winner):
                names = rules.table.side_names
                got = f"ends, won by {names[end.winner]}" if end is not None else "goes on"
                said = f"ends, won by {names[winner or 0]}" if ends else "goes on"
                raise fail(
                    rules,
                    "end",
                    f"match end ({rule}): on a score sheet with the target at 121, after hand "
                    f"{number + 1} (scores {sheet.match.scores}): the reference says the "
                    f"match {said}, the rules that it {got}",
                )
    except SpadesError:
        return False  # these bids are not allowed here (mirror, a board): nothing to check
    return True


def draw_options(rules: Rules, seed: int) -> Rules | None:
    """Return ``rules`` with option values taken from their documented ranges.

    Option ``i`` takes the ``(seed + i)``-th of the values :func:`check_options` probes
    inside its range and its current value (cyclically), so consecutive seeds go
    through every documented value of every option.  If that combination does not
    load, the next seed's is tried (five at most); None if none loads or no option is
    documented.
    """
    read = reading(rules)
    if not read.ranges:
        return None
    pm = rules.plugin_manager
    house = [pm.get_plugin(h) for h in rules.house_rules]
    for attempt in range(seed, seed + 5):
        options = dict(rules.options)
        for index, (option, (_, text)) in enumerate(sorted(read.ranges.items())):
            inside, _ = _range_values(text)
            if rules.options.get(option) not in inside:
                inside.append(rules.options.get(option))  # the default is in range too
            options[option] = inside[(attempt + index) % len(inside)]
        try:
            return _load(pm.get_plugin(rules.variant), house, options)
        except SpadesError:
            continue
    return None
