"""The references of scoring: each hand's points and bags, and the match end.

Standard's contract with its house rules, Jokers-and-Deuces, Call Break and the
three-suit game's card points, and when a match ends and who wins, written from the
published rules of Spades and independent of the plugins' hooks (see
:mod:`~spadeskit.testing.oracles`).
"""

from __future__ import annotations

from collections.abc import Sequence

from spadeskit.core.actions import Action, Bid, BlindNil, Nil
from spadeskit.core.cards import Suit, card_at, iter_mask
from spadeskit.core.errors import SpadesError
from spadeskit.core.results import HandResult, HandSummary
from spadeskit.engine.rules import Rules
from spadeskit.testing.declarations import Reading

__all__ = ["reference_score", "reference_card_points", "card_points", "reference_end"]


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
    # A blind bid (the blind-bids house rule, read by its kind) is the side's contract,
    # scored +20 a trick made and -20 (or -10 with set single) a trick set.
    blind = "blind-bids" in extras and any(
        getattr(bids[s], "kind", "") == "blind-bid" for s in seats
    )
    if bidders and made:
        points += (20 if blind else 10) * contract + took - contract
        bags += took - contract
        rules.append(
            f"a made {'blind bid' if blind else 'contract'} of {contract} scores "
            f"+{20 if blind else 10} a trick and +1 a bag"
        )
    elif bidders:
        per = 10 if not blind or options["set"] == "single" else 20
        points -= per * contract
        rules.append(
            f"a set {'blind bid' if blind else 'contract'} of {contract} scores -{per} a "
            "trick, no bags"
        )
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


def card_points(card: int) -> int:
    """Return a card's points in the three-suit game: the ace of spades 40, other aces
    20, kings, queens and jacks 10, tens, nines, eights and sevens 5."""
    c = card_at(card)
    if c.rank == 14:
        return 40 if c.suit is Suit.SPADES else 20
    return 10 if c.rank in (11, 12, 13) else 5


def _game_points(points: int) -> int:
    for least, earned in ((300, 4), (250, 3), (200, 2), (150, 1)):
        if points >= least:
            return earned
    return 0


def reference_card_points(
    read: Reading, won: Sequence[int], books: Sequence[int], declarer: int | None
) -> list[tuple[int, int, list[str]]]:
    """Return each seat's ``(game points, 0, rules used)`` for a hand of the three-suit
    game, from the cards each seat won (``won``, masks: the bidder's discards with the
    bidder's, the blind with the last trick's winner when all passed), the tricks each
    took and the bidder (None when all passed)."""
    n = len(won)
    points = [sum(card_points(c) for c in iter_mask(mask)) for mask in won]
    earned = [0] * n
    if declarer is not None:
        earned[declarer] = _game_points(points[declarer])
        used = [
            f"the bidder took {points[declarer]} card points: 150-195 score 1 game point, "
            "200-245 2, 250-295 3, 300 4"
        ]
        if not earned[declarer]:
            earned = [0 if seat == declarer else 1 for seat in range(n)]
            used = [
                f"the bidder took {points[declarer]} card points, under 150: each opponent scores 1"
            ]
    else:
        fewest = min(points)
        tied = [s for s in range(n) if points[s] == fewest]
        rule = read.options["for_least_ties"]
        used = [f"all passed: the fewest card points ({fewest}) score 1 (ties: {rule})"]
        if len(tied) > 1 and rule == "nobody-scores":
            tied = []
        elif len(tied) > 1 and rule == "fewest-tricks":
            least = min(books[s] for s in tied)
            tied = [s for s in tied if books[s] == least]
        for seat in tied:
            earned[seat] = 1
    return [(earned[seat], 0, used) for seat in range(n)]


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
