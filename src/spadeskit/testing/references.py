"""The references of play: the kit's own statement of each rule, from a reading.

Legal plays, the trick winner and trump, who bids and what, and the exchanges owed,
written from the published rules of Spades and independent of the plugins' hooks (see
:mod:`~spadeskit.testing.oracles`; the scores and the match end are in
:mod:`~spadeskit.testing.scores`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spadeskit.core.actions import Action, Bid, BlindNil, Nil, Pass, PickUp
from spadeskit.core.cards import Suit, fold_copies, iter_mask
from spadeskit.core.errors import SpadesError
from spadeskit.core.state import GameState
from spadeskit.engine.rules import Rules, rules_of
from spadeskit.testing.declarations import Reading

__all__ = [
    "reference_plays",
    "reference_winner",
    "reference_trump",
    "reference_turn",
    "reference_bids",
    "reference_auction",
    "offers_blind_nil",
    "reference_steps",
]

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
    # A card held twice (a deck that holds it twice) is one card to play.
    cards = fold_copies(hand.hands[seat])
    held = list(iter_mask(cards))
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
                spades = _spades(read, cards)
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
            bar(_spades(read, cards), "no spade on the first trick")
    else:
        broken = any(read.suit(c) is Suit.SPADES for c in iter_mask(hand.played))
        if read.values["lead"] == "broken" and not broken:
            bar(_spades(read, cards), "spades are led only once broken")
        if read.values["first_trick"] == "no-spades" and not hand.tricks:
            bar(_spades(read, cards), "no spade on the first trick")
    return barred


_LADDER = (Suit.SPADES, Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS)


def reference_winner(read: Reading, plays: Sequence[tuple[int, int]], trump: str) -> int:
    """Return the seat that wins ``plays`` under the trump mode ``trump``: ``"spades"``,
    ``"ladder"`` (spades > clubs > hearts > diamonds) or ``"none"``.  Of two copies of
    the best card (a deck that holds it twice), the first played wins, or the second
    where the rules declare ``identical="second"``."""
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
    best = max(read.strength(c) for _, c in plays if read.suit(c) is suit)
    equal = [seat for seat, c in plays if read.suit(c) is suit and read.strength(c) == best]
    return equal[-1] if read.values["identical"] == "second" else equal[0]


def reference_trump(read: Reading, game: GameState) -> str:
    """Return the trump mode of the hand in ``game`` once its auction is over: spades,
    or under the ``"pick-up"`` auction the suit ladder when a seat picked up the blind
    and none when all passed."""
    if read.values["auction"] != "pick-up":
        return "spades"
    return "ladder" if _picked_up(game) is not None else "none"


def _picked_up(game: GameState) -> int | None:
    return next((s for s, a in game.hand.auction if isinstance(a, PickUp)), None)


def reference_turn(read: Reading, game: GameState) -> int | None:
    """Return the seat the reference asks to speak next in the auction, or None when
    the auction is over: each seat once, clockwise from the dealer's left (under
    ``"pick-up"``, until a seat picks up the blind)."""
    hand = game.hand
    n = rules_of(game).table.players
    if read.values["auction"] == "pick-up" and _picked_up(game) is not None:
        return None
    if len(hand.auction) >= n:
        return None
    return (hand.dealer + 1 + len(hand.auction)) % n


def _trails(game: GameState, seat: int, by: int) -> bool:
    rules = rules_of(game)
    scores = game.match.scores
    side = rules.side_of[seat]
    others = [score for other, score in enumerate(scores) if other != side]
    return not by or (bool(others) and max(others) - scores[side] >= by)


def offers_blind_nil(read: Reading, game: GameState, seat: int, seen: Iterable[int]) -> bool:
    """Return whether ``seat`` may still bid blind nil (and so choose to see its cards):
    blind nil is declared, the seat has neither bid nor looked, and its side trails by the
    declared margin."""
    trailing = read.values["blind_nil"]
    return (
        trailing is not None
        and game.bids[seat] is None
        and seat not in seen
        and _trails(game, seat, trailing)
    )


def reference_auction(
    read: Reading, game: GameState, seen: Iterable[int], seat: int | None = None
) -> set[Action] | None:
    """Return every auction action ``seat`` (default: the seat to act) may take at its
    turn (bids, blind nil, pick up or pass), or None for no reference.  ``seen`` are the
    seats that chose to see their cards this hand (a blind nil decision is then over)."""
    seat = game.to_act if seat is None else seat
    assert seat is not None
    if offers_blind_nil(read, game, seat, seen):
        return {BlindNil()}
    if read.values["auction"] == "pick-up":
        return {PickUp(), Pass()}
    return reference_bids(read, game)


def reference_steps(read: Reading, game: GameState) -> list[tuple[int, str, int, int | None]]:
    """Return the exchanges owed before play once the auction in ``game`` is over, as
    ``(seat, kind, count, to)``: the pick-up bidder discards 2; each blind nil bidder
    (in bidding order) is passed ``blind_nil_pass`` cards by the partner and passes as
    many back, unless both partners bid blind nil."""
    rules = rules_of(game)
    hand = game.hand
    steps: list[tuple[int, str, int, int | None]] = []
    bidder = _picked_up(game) if read.values["auction"] == "pick-up" else None
    if bidder is not None:
        steps.append((bidder, "discard", 2, None))
    count = read.values["blind_nil_pass"]
    if read.values["blind_nil"] is None or not count:
        return steps
    for seat, bid in hand.auction:
        if not isinstance(bid, BlindNil):
            continue
        partner = next(s for s in rules.table.sides[rules.side_of[seat]] if s != seat)
        if isinstance(hand.bids[partner], BlindNil):
            continue
        steps += [(partner, "exchange", count, seat), (seat, "exchange", count, partner)]
    return steps


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
