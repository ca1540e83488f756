"""Oracles of the auction and of the table's rulings, watched decision by decision.

:class:`TableWatch` is the part of :class:`~spadeskit.testing.oracles.Watcher` that
compares the auction (who is asked, the bids and blind nils offered, what the views show
of the bids, the exchanges owed when it ends) and the rulings (table talk, renege calls
and the books they move) with the kit's references
(:mod:`~spadeskit.testing.references`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spadeskit.core.actions import (
    Accept,
    Action,
    Bid,
    BlindNil,
    CallRenege,
    Nil,
    Pass,
    PickUp,
    SeeCards,
    TableTalk,
)
from spadeskit.core.phase import Phase
from spadeskit.core.state import GameState
from spadeskit.engine.rules import Rules
from spadeskit.testing.declarations import Reading
from spadeskit.testing.references import (
    _seat,
    offers_blind_nil,
    reference_auction,
    reference_steps,
    reference_turn,
)

__all__ = ["TableWatch"]

Fail = Callable[[GameState, str, str], AssertionError]

_AUCTION_ACTIONS = (Bid, Nil, BlindNil, PickUp, Pass)


class TableWatch:
    """Compare the auction and the table's rulings of one match with the references.

    ``runs`` says which oracles run (see :meth:`Reading.runs
    <spadeskit.testing.declarations.Reading.runs>`); ``fail(game, oracle, what)`` builds
    the error to raise.
    """

    def __init__(self, rules: Rules, read: Reading, fail: Fail, runs: dict[str, bool]) -> None:
        self.rules = rules
        self.read = read
        self.fail = fail
        self.runs = runs
        self._called: dict[tuple[int, int], set[int]] = {}
        self._seen: set[tuple[int, int]] = set()
        self._accepted: dict[int, set[int]] = {}

    # The auction ----------------------------------------------------------------------

    def before(self, game: GameState) -> None:
        """Check an auction decision: the seat asked, what it is offered, what is shown."""
        if not self.runs["bids"]:
            return
        hand = game.hand
        offered = {a for a in game.legal_actions() if isinstance(a, _AUCTION_ACTIONS)}
        if not offered:
            return  # a misdeal pending: nothing to bid until it is declared
        seat = game.to_act
        assert seat is not None
        where = f"hand {hand.number + 1}, {_seat(self.rules, seat)}"
        turn = reference_turn(self.read, game)
        if turn != seat:
            asked = "nobody (the auction is over)" if turn is None else _seat(self.rules, turn)
            raise self.fail(
                game,
                "bids",
                f"bidding order (each seat once, clockwise from the dealer's left): hand "
                f"{hand.number + 1}, after {len(hand.auction)} bids: the rules ask "
                f"{_seat(self.rules, seat)}, the reference {asked}",
            )
        seen = {s for number, s in self._seen if number == hand.number}
        self._check_look(game, seat, game.legal_actions(), seen)
        expected = reference_auction(self.read, game, seen)
        if expected is not None and offered != expected:
            extra = sorted(map(str, offered - expected))
            missing = sorted(map(str, expected - offered))
            rule = f"{self.read.values['auction']} auction"
            if BlindNil() in offered ^ expected:
                rule += "; blind nil alone to a seat that has not seen its cards"
                if self.read.values["blind_nil"]:
                    rule += f", when its side trails by {self.read.values['blind_nil']} or more"
            raise self.fail(
                game,
                "bids",
                f"bids ({rule}): {where} (scores {game.match.scores}): the rules "
                f"offer {extra or 'nothing'} beyond the reference and lack {missing or 'nothing'}",
            )
        self._check_shown(game, sealed=self.read.values["sealed_bids"])

    def may_go_blind(self, game: GameState, seat: int) -> bool:
        """Return whether ``seat`` may still bid blind nil this hand (it has not looked)."""
        seen = {s for number, s in self._seen if number == game.hand.number}
        return offers_blind_nil(self.read, game, seat, seen)

    def _check_look(
        self, game: GameState, seat: int, offered: Sequence[Action], seen: set[int]
    ) -> None:
        """Check that a seat may choose to see its cards exactly while it may still bid
        blind nil: during the auction, before it has bid or looked."""
        if self.read.values["blind_nil"] is None:
            return
        may = game.hand.phase is Phase.AUCTION and offers_blind_nil(self.read, game, seat, seen)
        if (SeeCards() in offered) != may:
            raise self.fail(
                game,
                "bids",
                f"seeing one's cards (offered until the seat bids, looks, or may not bid blind "
                f"nil): hand {game.hand.number + 1}, {_seat(self.rules, seat)} (bid "
                f"{game.bids[seat]}, {'looked' if seat in seen else 'not looked'}, scores "
                f"{game.match.scores}) is "
                f"{'not ' if may else ''}offered it, the reference "
                f"{'does' if may else 'does not'}",
            )

    def _check_shown(self, game: GameState, sealed: bool) -> None:
        """Check what each view shows of the bids: while they are sealed, each seat its
        own only; otherwise every bid made."""
        viewers: list[int | None] = [*range(self.rules.table.players), None]
        for viewer in viewers:
            shown = game.view(viewer).bids
            for seat, bid in enumerate(game.bids):
                expected = bid if seat == viewer or not sealed else None
                if shown[seat] != expected:
                    rule = (
                        "sealed bids (no view shows another seat's bid until all have bid)"
                        if sealed
                        else "open bids (every view shows every bid made)"
                    )
                    who = "a spectator" if viewer is None else _seat(self.rules, viewer)
                    raise self.fail(
                        game,
                        "bids",
                        f"{rule}: hand {game.hand.number + 1}, the view of {who} shows "
                        f"{shown[seat]} for {_seat(self.rules, seat)}, the reference {expected}",
                    )

    def _auction_over(self, new: GameState) -> None:
        """Check the state right after the auction: every bid shown, the exchanges owed."""
        if self.runs["bids"]:
            self._check_shown(new, sealed=False)
        if not self.runs["steps"] or new.hand.contract is None:
            return
        expected = reference_steps(self.read, new)
        steps = [(s.seat, s.kind, s.count, s.to) for s in new.hand.contract.steps]
        if steps != expected:
            raise self.fail(
                new,
                "steps",
                f"exchanges before play (a pick-up bidder discards 2; a blind nil bidder's "
                f"partner passes {self.read.values['blind_nil_pass']} and gets as many back): "
                f"hand {new.hand.number + 1}, bids {[str(b) for b in new.bids]}: the rules owe "
                f"{_steps(self.rules, steps)}, the reference {_steps(self.rules, expected)}",
            )

    def after(self, game: GameState, action: Action, new: GameState, seat: int | None) -> None:
        """Check what ``action`` by ``seat`` changed: the end of an auction, a ruling."""
        hand = game.hand
        if isinstance(action, SeeCards) and seat is not None:
            self._seen.add((hand.number, seat))
        if (
            hand.phase is Phase.AUCTION
            and new.hand.phase is not Phase.AUCTION
            and new.hand.number == hand.number
            and not new.is_over
        ):
            self._auction_over(new)
        ends_play = hand.phase is Phase.PLAY and (
            new.hand.phase is not Phase.PLAY or new.hand.number != hand.number
        )
        if self.runs["penalties"] and (hand.phase is Phase.REVIEW or ends_play):
            self._check_review(game, action, new, seat)
        if isinstance(action, (TableTalk, CallRenege)) and self.runs["penalties"]:
            self._check_penalty(game, action, seat, new)
            if isinstance(action, CallRenege) and len(new.hand_results) == len(game.hand_results):
                for other in range(self.rules.table.players):
                    self.out_of_turn(new, other, new.legal_actions(other))

    # The table's rulings --------------------------------------------------------------

    def _check_review(
        self, game: GameState, action: Action, new: GameState, seat: int | None
    ) -> None:
        """Check the review step after the last trick: there where declared, each side
        asked in turn (the dealer's left first) until both have accepted."""
        hand = game.hand
        accepted = self._accepted.setdefault(hand.number, set())
        if isinstance(action, Accept) and hand.phase is Phase.REVIEW and seat is not None:
            accepted.add(self.rules.side_of[seat])
        in_review = new.hand.number == hand.number and new.hand.phase is Phase.REVIEW
        first = (hand.dealer + 1) % self.rules.table.players
        order = [first, (first + 1) % self.rules.table.players]
        waiting = [s for s in order if self.rules.side_of[s] not in accepted]
        if not self.read.values["review"]:
            expected: int | None = None
            rule = "no review step: the hand is scored after its last trick"
        else:
            expected = waiting[0] if waiting else None
            rule = "a review step: each side in turn, the dealer's left first, accepts"
        asked = self.rules.side_of[new.to_act] if in_review and new.to_act is not None else None
        want = self.rules.side_of[expected] if expected is not None else None
        if in_review != (expected is not None) or asked != want:
            names = self.rules.table.side_names
            got = f"asks {names[asked]}" if asked is not None else "does not ask anyone"
            said = f"asks {names[want]}" if want is not None else "asks nobody"
            raise self.fail(
                new,
                "penalties",
                f"{rule}: hand {hand.number + 1}, after {action} (accepted by "
                f"{sorted(names[s] for s in accepted) or 'nobody'}): the rules' review "
                f"{got}, the reference {said}",
            )

    def out_of_turn(self, game: GameState, seat: int, offered: Sequence[Action]) -> None:
        """Check what ``seat`` is offered out of turn: seeing its cards (blind nil), and the
        renege calls, each finished trick once a side."""
        if seat >= 0 and self.runs["bids"]:
            seen = {s for number, s in self._seen if number == game.hand.number}
            self._check_look(game, seat, offered, seen)
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
        """Check that a ruling moves the declared books, owed by the offending side."""
        owed = self.read.values["penalty_books"]
        rules = self.rules
        sides = len(rules.table.sides)

        def by_side(state: GameState, to: bool) -> list[int]:
            counted = [0] * sides
            for transfer in state.hand.transfers:
                side = transfer.to_side if to else transfer.from_side
                if not 0 <= side < sides or transfer.to_side == transfer.from_side:
                    raise self.fail(
                        new,
                        "penalties",
                        f"penalty books: hand {game.hand.number + 1}: {transfer.books} books "
                        f"are owed by side {transfer.from_side} to side {transfer.to_side}: "
                        f"the sides are 0 to {sides - 1}, and books go to another side",
                    )
                counted[side] += transfer.books
            return counted

        moved = [b - a for a, b in zip(by_side(game, False), by_side(new, False))]
        received = [b - a for a, b in zip(by_side(game, True), by_side(new, True))]
        if isinstance(action, TableTalk):
            debtor, why = action.side, f"{rules.table.side_names[action.side]} talked"
        else:
            assert isinstance(action, CallRenege)
            if seat is None:
                seat = game.to_act
            assert seat is not None
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


def _steps(rules: Rules, steps: Sequence[tuple[int, str, int, int | None]]) -> str:
    names = rules.table.seat_names
    if not steps:
        return "none"
    return ", ".join(
        f"{names[seat]} {kind}s {count}" + (f" to {names[to]}" if to is not None else "")
        for seat, kind, count, to in steps
    )
