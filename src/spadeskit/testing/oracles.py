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
    who is asked to bid (each seat once, clockwise from the dealer's left) and the bids
    offered: nil or 1 to the tricks in a hand, or a declared auction (team board,
    calls, a count of spades, picking up the blind), blind nil where declared (to a
    seat that has not seen its cards, when its side trails by the declared margin);
    and what the views show of the bids: sealed ones to nobody else, every bid to
    everyone once the auction is over.
``leader``
    who deals each hand (the deal passes clockwise, after a misdeal too) and who leads
    its first trick: the dealer's left, or a declared rule.
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
    each table-talk ruling or renege claim moves the declared number of books, and
    each side is offered a renege call on every finished trick, each once.
``steps``
    the exchanges owed before play: the pick-up bidder's discard, the cards passed
    to and from a blind nil bidder.
``shown``
    the seat to act is shown all of its own cards (none while it may still bid blind
    nil): before each decision outside the play, and each seat's first card of a hand
    (a view costs as much as a dozen steps, and its cards follow the hand's).
``options``
    each option's validator accepts its documented range and refuses what lies outside.

Every failure names the oracle's rule, the seat (or side) and the hand.

A plugin that changes one of these rules says so in a module-level dict ``ORACLES``
(see :func:`reading`); a value the kit has no reference for, ``"own"``, switches that
oracle off, and :func:`relies_on` says what the kit then relies on for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from spadeskit.core.actions import Action, Discard, PickUp, Play
from spadeskit.core.cards import Suit, card_at, cards_of, iter_mask, mask_of
from spadeskit.core.errors import SpadesError
from spadeskit.core.phase import Phase
from spadeskit.core.results import HandResult, HandScore, HandSummary
from spadeskit.core.state import GameState
from spadeskit.engine.rules import Rules
from spadeskit.testing.auctions import TableWatch
from spadeskit.testing.declarations import ORACLES, Reading, reading, relies_on
from spadeskit.testing.ranges import check_end_on_paper, check_options, draw_options
from spadeskit.testing.references import (
    _seat,
    reference_bids,
    reference_plays,
    reference_trump,
    reference_winner,
)
from spadeskit.testing.scores import reference_card_points, reference_end, reference_score

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
        self.table = TableWatch(rules, self.read, fail, self.runs)

    def before(self, game: GameState) -> None:
        """Check the decision pending in ``game``: the legal plays, bids or the leader."""
        seat = game.to_act
        if seat is None:
            return
        hand = game.hand
        if hand.phase is Phase.PLAY and self.runs["legal"]:
            self._check_plays(game, f"hand {hand.number + 1}, {_seat(self.rules, seat)}")
        elif hand.phase is Phase.AUCTION:
            self.table.before(game)
        if self.runs["shown"] and (hand.phase is not Phase.PLAY or not hand.tricks):
            if hand.phase is not Phase.AUCTION or self.read.values["own_cards"] == "shown":
                self._check_own_cards(game, seat)

    def _check_own_cards(self, game: GameState, seat: int) -> None:
        """Check that the seat to act is shown its cards: all of them, or none while it
        may still bid blind nil (it has not looked)."""
        shown = mask_of(game.view(seat).cards)
        hidden = game.hand.phase is Phase.AUCTION and self.table.may_go_blind(game, seat)
        # As counts of each card: a view cannot say which copy of a card held once it is.
        expected = 0 if hidden else mask_of(cards_of(game.hand.hands[seat]))
        if shown != expected:
            rule = "none while it may still bid blind nil" if hidden else "all of them"
            raise self.fail(
                game,
                "shown",
                f"own cards shown ({rule}): hand {game.hand.number + 1}, the view of "
                f"{_seat(self.rules, seat)} shows {_cards(iter_mask(shown)) or 'no card'}, "
                f"the reference {_cards(iter_mask(expected)) or 'no card'}",
            )

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

    def after(
        self, game: GameState, action: Action, new: GameState, seat: int | None = None
    ) -> None:
        """Check what ``action`` (taken by ``seat``, default the seat to act) changed: a
        finished trick, a first lead, the end of an auction, a ruling, a scored hand."""
        hand = game.hand
        if hand.phase is Phase.PLAY and isinstance(action, Play) and self.runs["tricks"]:
            if len(hand.trick) == self.rules.table.players - 1:
                self._check_trick(game, action, new)
        if new.hand.number != hand.number and not new.is_over and self.runs["leader"]:
            self._check_dealer(game, new)
        if new.hand.phase is Phase.PLAY and not new.hand.tricks and not new.hand.trick:
            if hand.phase is not Phase.PLAY or hand.number != new.hand.number:
                self._check_leader(new)
        if len(new.hand_results) > len(game.hand_results):
            self._check_hand(game, action, new)
        self.table.after(game, action, new, game.to_act if seat is None else seat)

    def out_of_turn(self, game: GameState, seat: int, offered: Sequence[Action]) -> None:
        """Check the renege calls offered to ``seat``: each finished trick, once a side."""
        self.table.out_of_turn(game, seat, offered)

    def _check_trick(self, game: GameState, action: Action, new: GameState) -> None:
        hand = game.hand
        assert isinstance(action, Play) and hand.to_act is not None
        plays = hand.trick + ((hand.to_act, action.card.index),)
        trump = reference_trump(self.read, game)
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

    def _check_dealer(self, game: GameState, new: GameState) -> None:
        n = self.rules.table.players
        if new.hand.dealer != (game.hand.dealer + 1) % n:
            names = self.rules.table.seat_names
            raise self.fail(
                new,
                "leader",
                f"the deal passes clockwise, after a misdeal too: hand {game.hand.number + 1} "
                f"was dealt by {names[game.hand.dealer]}, the rules have hand "
                f"{new.hand.number + 1} dealt by {names[new.hand.dealer]}, the reference by "
                f"{names[(game.hand.dealer + 1) % n]}",
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

    def _won(self, game: GameState, action: Action) -> tuple[list[int], list[int], int | None]:
        """Return the cards each seat won in the hand ``action`` ends (by the reference
        trick winners; the pick-up bidder's discards with the bidder's, the blind with the
        last trick's winner when all passed), the tricks each took, and the bidder."""
        hand = game.hand
        n = self.rules.table.players
        tricks = [trick.plays for trick in hand.tricks]
        if isinstance(action, Play) and len(hand.trick) == n - 1:
            tricks.append(hand.trick + ((game.to_act or 0, action.card.index),))
        won, books = [0] * n, [0] * n
        trump = reference_trump(self.read, game)
        winner = None
        for plays in tricks:
            winner = reference_winner(self.read, plays, trump)
            books[winner] += 1
            for _, card in plays:
                won[winner] |= 1 << card
        bidder = next((s for s, a in hand.auction if isinstance(a, PickUp)), None)
        if bidder is not None:
            for seat, taken in game.log:
                if seat == bidder and isinstance(taken, Discard):
                    won[bidder] |= mask_of(taken.cards)
        elif winner is not None:
            won[winner] |= hand.blind
        return won, books, bidder

    def _check_hand(self, game: GameState, action: Action, new: GameState) -> None:
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
            if self.read.values["score"] == "card-points":
                won, books, bidder = self._won(game, action)
                scored = reference_card_points(self.read, won, books, bidder)
            else:
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
        self, new: GameState, result: HandResult, scores: Sequence[int], bags: Sequence[int]
    ) -> None:
        paper = on_paper(self.rules, result, scores, bags)
        if paper is None:
            self.runs["sheet"] = False  # hands the sheet cannot take (card points, a blind)
        elif (paper.points, paper.bags) != (tuple(result.points), tuple(result.bags)):
            raise self.fail(
                new,
                "sheet",
                f"score sheet: hand {result.number + 1}: scored on paper from the same bids "
                f"and books it gives {paper.points} (bags {paper.bags}), play gave "
                f"{result.points} (bags {result.bags})",
            )


def on_paper(
    rules: Rules, result: HandResult, scores: Sequence[int], bags: Sequence[int]
) -> HandScore | None:
    """Return a played hand scored on paper from its bids, books and transfers, or None
    if a score sheet cannot take it (card points, a blind)."""
    summary = HandSummary(result.bids, result.books, transfers=result.transfers)
    try:
        return rules.score_hand(summary, scores=scores, bags=bags, dealer=result.dealer)
    except SpadesError:
        return None


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
