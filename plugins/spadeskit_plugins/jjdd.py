"""Jokers-and-Deuces ("hood") Spades.

Two jokers and two deuces on top of the spades (BJ > LJ > 2♦ > 2♠ > A♠ … 3♠; the 2♦ and
the jokers are spades for every purpose), 2♥ and 2♣ out of the deck.  Team bids with a
board minimum of 4, bids of 10 or more doubled either way, double over, sandbags and the
sandbag penalty, Boston, three sets in a row, and the table's penalties: renege claims
(under table enforcement), table talk and misdeals.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from spadeskit import (
    Accept,
    Bid,
    CallRenege,
    DeclareMisdeal,
    MatchEnd,
    Nil,
    ScoreLine,
    TableTalk,
)
from spadeskit.core.actions import Action
from spadeskit.core.cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    STANDARD_DECK,
    Card,
    Suit,
    parse_card,
)
from spadeskit.core.results import BookTransfer, HandResult, HandSummary
from spadeskit.core.seating import CardRank, Contract, TableSpec
from spadeskit.core.state import GameState, MatchState, Phase
from spadeskit.plugin import (
    Option,
    PlayFilter,
    PluginInfo,
    Ranking,
    acts_in,
    choice,
    evolve_hand,
    follow_suit,
    hookimpl,
    int_range,
    no_lead_until_broken,
    review_or_score,
    void_hand,
    with_hand,
)

from ._common import (
    FAILED_BOSTON,
    OTHER_LOSS,
    bags_text,
    count,
    each_bids_once,
    match_end,
    partnership_table,
    printed_rank,
    signed,
    spades_trump_strength,
)

PLUGIN = PluginInfo(
    name="jjdd",
    kind="variant",
    summary="Jokers and Deuces: BJ > LJ > 2D > 2S top the spades, team bids of 4+, "
    "table penalties.",
    options=(
        Option(
            "target",
            500,
            "Score that wins the match (300, 350, 500 ...; 1 to 10000).",
            int_range(1, 10000),
        ),
        Option("board", 4, "Minimum team bid.", int_range(0, 13)),
        Option("sandbags", True, "Each book over the bid scores 1 point.", choice(True, False)),
        Option(
            "sandbag_penalty", True, "Each 10 books over the bids cost 100.", choice(True, False)
        ),
        Option(
            "double_over", True, "Taking twice the bid scores minus the bid.", choice(True, False)
        ),
        Option("nil", False, "Allow nil bids (+/-100).", choice(True, False)),
        Option(
            "nil_value", 100, "Points of a nil when nil is allowed (0 to 1000).", int_range(0, 1000)
        ),
        Option(
            "first_lead",
            "left-of-dealer",
            "Who leads each hand's first book.",
            choice("left-of-dealer", "last-book"),
        ),
        Option(
            "enforcement",
            "strict",
            "strict refuses a renege; table accepts it secretly.",
            choice("strict", "table"),
        ),
    ),
)

# What the kit (spadeskit.testing) checks these rules against: see its oracles.  Under
# table enforcement any card may be played (a renege is penalised when called).
ORACLES = {
    "trumps": "BJ LJ 2D 2S",
    "follow": lambda options: "suit" if options["enforcement"] == "strict" else "any",
    "lead": lambda options: "broken" if options["enforcement"] == "strict" else "anytime",
    "first_lead": lambda options: options["first_lead"],
    "auction": "board",
    "score": "jjdd",
    "end": "jjdd",
    "penalty_books": 3,
    "renege_calls": lambda options: options["enforcement"] == "table",
    "review": lambda options: options["enforcement"] == "table",
    "options": {
        "target": "1..10000",
        "board": "0..13",
        "sandbags": "True|False",
        "sandbag_penalty": "True|False",
        "double_over": "True|False",
        "nil": "True|False",
        "nil_value": "0..1000",
        "first_lead": "'left-of-dealer'|'last-book'",
        "enforcement": "'strict'|'table'",
    },
    "defaults": {
        "target": 500,
        "board": 4,
        "sandbags": True,
        "sandbag_penalty": True,
        "double_over": True,
        "nil": False,
        "nil_value": 100,
        "first_lead": "left-of-dealer",
        "enforcement": "strict",
    },
}

# Worked examples the kit runs (spadeskit.testing.examples): the rules page, pinned.
_DEAL = (
    "AS 2S 3S AH KH AC KC QC AD KD QD JD 10D",
    "KS QS JS 10S QH JH 10H JC 10C 9D 8D 7D 6D",
    "9S 8S 7S 9H 8H 7H 6H 9C 8C 7C 6C 5D 4D",
    "6S 5S 4S 5H 4H 3H BJ 5C 4C 3C LJ 3D 2D",
)
EXAMPLES = (
    {
        "rule": "made: +10 a book bid, +1 a sandbag",
        "bids": "3 2 2 2",
        "books": "4 3 2 4",
        "points": (51, 43),
        "lines": [
            "N/S bid 5, took 6: +50, 1 bag (+1)",
            "E/W bid 4, took 7: +40, 3 bags (+3)",
        ],
    },
    {
        "rule": "a bid of 10 or more scores double",
        "bids": "6 2 4 2",
        "books": "5 1 5 2",
        "points": (200, -40),
        "lines": [
            "N/S bid 10, took 10: +200",
            "E/W bid 4, took 3: set, -40",
        ],
    },
    {
        "rule": "set: -10 a book bid, doubled from 10",
        "bids": "6 2 5 2",
        "books": "5 2 5 1",
        "points": (-220, -40),
        "lines": [
            "N/S bid 11, took 10: set, -220",
            "E/W bid 4, took 3: set, -40",
        ],
    },
    {
        "rule": "double over: taking twice the bid scores -10 a book bid",
        "bids": "2 2 2 2",
        "books": "4 1 4 4",
        "points": (-40, 41),
        "lines": [
            "N/S bid 4, took 8: double over, -40, 4 sandbags",
            "E/W bid 4, took 5: +40, 1 bag (+1)",
        ],
    },
    {
        "rule": "the first partner may bid 0 to 13",
        "deal": _DEAL,
        "legal": [f"bid {n}" for n in range(14)],
        "perft": (1, 14),
    },
    {
        "rule": "the second partner brings the team to the board of 4",
        "deal": _DEAL,
        "actions": ["bid 1", "bid 0"],
        "legal": [f"bid {n}" for n in range(3, 13)],
    },
    {
        "rule": "the 2 of diamonds is a spade: it trumps a diamond lead",
        "deal": _DEAL,
        "actions": [
            *("bid 3", "bid 2", "bid 3", "bid 2"),
            *("play AD", "play 6D", "play 4D", "play 3D"),
            *("play KD", "play 7D", "play 5D", "play 2D"),
        ],
        "winner": "W",
    },
    {
        "rule": "a Boston (bid 13, took 13) wins at once",
        "hands": [["7 0 6 4", "7 0 6 0"]],
        "winner": "N/S",
    },
    {
        "rule": "a team set three hands in a row loses",
        "hands": [["3 2 2 2", "1 5 2 5"]] * 3,
        "winner": "E/W",
    },
    {
        "rule": "both teams lose outright in one hand: the failed Boston loses first",
        "hands": [["4 2 4 2", "8 1 2 2"]] * 2 + [["7 2 6 2", "6 0 6 1"]],
        "after": (-96, -120),
        "winner": "E/W",
    },
    {
        "rule": "a team set two hands in a row plays on",
        "hands": [["3 2 2 2", "1 5 2 5"]] * 2,
        "winner": None,
        "lines": [
            "N/S bid 5, took 3: set, -50",
            "E/W bid 4, took 10: double over, -40, 6 sandbags",
            "E/W reached 10 sandbags: -100",
        ],
    },
    {
        "rule": "double over counts from a bid of 1 (board 0): bid 1, took 2 scores -10",
        "options": {"board": 0},
        "bids": "1 2 0 2",
        "books": "2 5 0 6",
        "points": (-10, -40),
        "lines": [
            "N/S bid 1, took 2: double over, -10, 1 sandbag",
            "E/W bid 4, took 11: double over, -40, 7 sandbags",
        ],
    },
    {
        "rule": "rulings settle at scoring, all together: the books owed are netted first",
        "bids": "3 2 3 2",
        "books": "4 3 2 4",
        "transfers": [
            ["E/W", 3, "E/W talked across the board"],
            ["N/S", 3, "N/S called a renege in trick 2 wrongly"],
            ["E/W", 6, "E/W talked across the board 2 times"],
        ],
        "points": (-60, -40),
        "lines": [
            "E/W talked across the board: 3 books owed to N/S",
            "N/S called a renege in trick 2 wrongly: 3 books owed to E/W",
            "E/W talked across the board 2 times: 6 books owed to N/S",
            "net: E/W give 6 books to N/S",
            "N/S bid 6, took 12: double over, -60, 6 sandbags",
            "E/W bid 4, took 1: set, -40",
        ],
    },
    {
        "rule": "a team gives no more books than it holds at the end of the hand",
        "bids": "3 2 3 2",
        "books": "1 3 1 8",
        "transfers": [["N/S", 3, "N/S talked across the board"]],
        "points": (-60, -40),
        "lines": [
            "N/S talked across the board: 3 books owed to E/W",
            "net: N/S give 2 books to E/W (all they hold of 3 owed)",
            "N/S bid 6, took 0: set, -60",
            "E/W bid 4, took 13: double over, -40, 9 sandbags",
        ],
    },
    {
        "rule": "a team bid of 0 (board 0) is made with its sandbags, never doubled over",
        "options": {"board": 0},
        "bids": "0 2 0 2",
        "books": "3 5 0 5",
        "points": (3, -40),
        "lines": [
            "N/S bid 0, took 3: +0, 3 bags (+3)",
            "E/W bid 4, took 10: double over, -40, 6 sandbags",
        ],
    },
    {
        "rule": "a player holding the wrong number of cards: any player may declare a misdeal",
        "deal": (_DEAL[0].removesuffix(" 10D"), *_DEAL[1:3], _DEAL[3] + " 10D"),
        "legal": ["declare a misdeal"],
        "offered": {"E": ["declare a misdeal"], "referee": []},
    },
    {
        "rule": "a misdeal voids the hand, scores nothing, and the deal passes",
        "deal": (_DEAL[0].removesuffix(" 10D"), *_DEAL[1:3], _DEAL[3] + " 10D"),
        "actions": ["E: declare a misdeal"],
        "void": "misdeal declared by E: the hand is void and the deal passes",
        "dealing": "N",
    },
    {
        "rule": "table talk: the side loses 3 books to the other, each time it is ruled",
        "deal": _DEAL,
        "actions": [
            *("bid 3", "bid 2", "bid 3", "bid 2"),
            "referee: table talk by side 1",
            "referee: table talk by side 0",
            "referee: table talk by side 1",
        ],
        "owed": (3, 6),
        "rulings": [
            ["E/W", 6, "E/W talked across the board 2 times"],
            ["N/S", 3, "N/S talked across the board"],
        ],
    },
    {
        "rule": "renege (table enforcement): a right call takes 3 books; each trick is "
        "called once a team, by the team that did not renege",
        "options": {"enforcement": "table"},
        "deal": _DEAL,
        "actions": [
            *("bid 3", "bid 2", "bid 3", "bid 2"),
            *("play AD", "play QH", "play 4D", "play 3D", "play KD"),
            "N: call a renege in trick 1",
        ],
        "owed": (0, 3),
        "rulings": [["E/W", 3, "E/W reneged in trick 1"]],
        "offered": {"N": [], "W": ["call a renege in trick 1"]},
    },
    {
        "rule": "renege (table enforcement): a wrong call costs the callers 3 books",
        "options": {"enforcement": "table"},
        "deal": _DEAL,
        "actions": [
            *("bid 3", "bid 2", "bid 3", "bid 2"),
            *("play AD", "play 6D", "play 4D", "play 3D", "play KD"),
            "E: call a renege in trick 1",
        ],
        "owed": (0, 3),
        "rulings": [["E/W", 3, "E/W called a renege in trick 1 wrongly"]],
    },
)

_OUT = {parse_card("2H"), parse_card("2C")}
DECK: tuple[Card, ...] = tuple(c for c in STANDARD_DECK if c not in _OUT) + (
    LITTLE_JOKER,
    BIG_JOKER,
)
_TOP_SPADES = {BIG_JOKER: 18, LITTLE_JOKER: 17, parse_card("2D"): 16, parse_card("2S"): 15}
PENALTY_BOOKS = 3
SANDBAG_LIMIT = 10
SANDBAG_COST = 100


@hookimpl
def spadeskit_table() -> TableSpec:
    return partnership_table(DECK)


@hookimpl
def spadeskit_misdeal_allowed() -> bool:
    return True


@hookimpl
def spadeskit_card_rank(card: Card) -> CardRank | None:
    if card in _TOP_SPADES:
        return CardRank(Suit.SPADES, _TOP_SPADES[card])
    return printed_rank(card)


@hookimpl
def spadeskit_trick_strength(rank: CardRank, led: Suit, trump: str) -> int | None:
    return spades_trump_strength(rank, led, trump)


@hookimpl
def spadeskit_play_filters(ranking: Ranking, options: Any) -> Sequence[PlayFilter]:
    strict = options["enforcement"] == "strict"
    return (
        follow_suit(ranking, enforced=strict),
        no_lead_until_broken(ranking, Suit.SPADES, enforced=strict),
    )


# --------------------------------------------------------------------------------------
# Auction: team bids, the second partner brings the side to the board
# --------------------------------------------------------------------------------------


def _uneven(game: GameState) -> bool:
    size = game.rules.table.deal.hand_size
    return game.hand.phase is Phase.AUCTION and any(m.bit_count() != size for m in game.hand.hands)


def _last_book_leader(game: GameState) -> int | None:
    for result in reversed(game.match.results):
        if not result.void:
            return result.last_trick_winner
    return None


@hookimpl
def spadeskit_auction_next(game: GameState, table: TableSpec, options: Any) -> int | Contract:
    seat = each_bids_once(game, table)
    if seat is not None:
        return seat
    leader = (game.hand.dealer + 1) % table.players
    if options["first_lead"] == "last-book":
        previous = _last_book_leader(game)
        leader = leader if previous is None else previous
    return Contract(leader=leader)


@functools.cache
def _bid_choices(nil_ok: bool, low: int, high: int) -> tuple[Action, ...]:
    """Return the auction actions ``Nil()`` (if allowed) and ``Bid(low)`` … ``Bid(high - 1)``."""
    return ((Nil(),) if nil_ok else ()) + tuple(Bid(n) for n in range(low, high))


@hookimpl
def spadeskit_auction_actions(
    game: GameState, seat: int, table: TableSpec, options: Any
) -> Sequence[Action]:
    if _uneven(game):
        return ()
    partner = table.sides[table.side_of[seat]]
    other = next(s for s in partner if s != seat)
    said = game.hand.bids[other]
    board = options["board"]
    if said is None:
        already, low, nil_ok = 0, 0, options["nil"]
    else:
        already = said.tricks if isinstance(said, Bid) else 0
        low = max(0, board - already)
        nil_ok = options["nil"] and already >= board
    return _bid_choices(nil_ok, low, 14 - already)


# --------------------------------------------------------------------------------------
# Penalties: renege claims, table talk, misdeal, and the review step
# --------------------------------------------------------------------------------------


def _called(game: GameState) -> tuple[tuple[int, int], ...]:
    """Return the renege calls made this hand, as ``(calling side, trick number)``."""
    called: tuple[tuple[int, int], ...] = game.hand.extra.get("called", ())
    return called


def _reviewed(game: GameState) -> tuple[int, ...]:
    reviewed: tuple[int, ...] = game.hand.extra.get("reviewed", ())
    return reviewed


def _table_mode(options: Any) -> bool:
    return bool(options["enforcement"] == "table")


@hookimpl(specname="spadeskit_out_of_turn_actions")
@acts_in(Phase.AUCTION)
def misdeal_call(game: GameState) -> Sequence[Action]:
    """Any player may declare a misdeal while a seat holds the wrong number of cards."""
    return (DeclareMisdeal(),) if _uneven(game) else ()


@hookimpl(specname="spadeskit_out_of_turn_actions")
@acts_in(Phase.PLAY, Phase.REVIEW, when=_table_mode)
def renege_calls(game: GameState, seat: int | None, table: TableSpec) -> Sequence[Action]:
    """Under table enforcement, a team may call a renege in any finished trick, each once."""
    if seat is None:
        return ()
    side = table.side_of[seat]
    called = {trick for who, trick in _called(game) if who == side}
    return tuple(CallRenege(t) for t in range(1, len(game.hand.tricks) + 1) if t not in called)


@hookimpl(specname="spadeskit_out_of_turn_actions")
@acts_in(Phase.REVIEW)
def review_accept(game: GameState, seat: int | None) -> Sequence[Action]:
    """The seat asked at the review step may accept the hand as played."""
    return (Accept(),) if seat == game.hand.to_act else ()


@hookimpl(specname="spadeskit_out_of_turn_actions")
@acts_in(Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY, Phase.REVIEW, who="referee")
def table_talk_rulings(game: GameState, table: TableSpec) -> Sequence[Action]:
    """The referee may rule that a side talked across the board (not during a misdeal)."""
    if _uneven(game):
        return ()
    return tuple(TableTalk(side) for side in range(len(table.sides)))


def _transfer(game: GameState, transfer: BookTransfer, **extra: Any) -> GameState:
    hand = game.hand
    return with_hand(
        game,
        evolve_hand(hand, transfers=hand.transfers + (transfer,), extra=hand.extra.set(**extra)),
    )


def _talk_ruling(game: GameState, side: int, table: TableSpec) -> GameState:
    """Add a table-talk ruling against ``side``: repeated rulings against one side add to
    one transfer ("talked across the board 3 times: 9 books owed"), so a hand's transfers
    stay a handful however many rulings the referee makes and replay stays linear."""
    hand = game.hand
    what = f"{table.side_names[side]} talked across the board"
    found = [
        i for i, t in enumerate(hand.transfers) if t.from_side == side and t.reason.startswith(what)
    ]
    times = hand.transfers[found[0]].books // PENALTY_BOOKS + 1 if found else 1
    transfer = BookTransfer(
        side, 1 - side, PENALTY_BOOKS * times, what if times == 1 else f"{what} {times} times"
    )
    if not found:
        return _transfer(game, transfer)
    at = found[0]
    transfers = hand.transfers[:at] + (transfer,) + hand.transfers[at + 1 :]
    return with_hand(game, evolve_hand(hand, transfers=transfers))


@hookimpl
def spadeskit_apply_out_of_turn(
    game: GameState, seat: int | None, action: Action, table: TableSpec
) -> GameState | None:
    names = table.side_names
    if isinstance(action, DeclareMisdeal):
        who = "a player" if seat is None else table.seat_names[seat]
        return void_hand(game, f"misdeal declared by {who}: the hand is void and the deal passes")
    if isinstance(action, TableTalk):
        side = action.side
        if not 0 <= side < len(table.sides):
            return None
        return _talk_ruling(game, side, table)
    if seat is None:
        return None
    side = table.side_of[seat]
    other = 1 - side
    if isinstance(action, CallRenege):
        trick = action.trick
        right = any(
            b.trick == trick - 1 and table.side_of[b.seat] == other for b in game.hand.breaches
        )
        called = _called(game) + ((side, trick),)
        if right:
            transfer = BookTransfer(
                other, side, PENALTY_BOOKS, f"{names[other]} reneged in trick {trick}"
            )
        else:
            transfer = BookTransfer(
                side,
                other,
                PENALTY_BOOKS,
                f"{names[side]} called a renege in trick {trick} wrongly",
            )
        return _transfer(game, transfer, called=called)
    if isinstance(action, Accept) and game.hand.phase is Phase.REVIEW:
        hand = game.hand
        new = with_hand(
            game, evolve_hand(hand, extra=hand.extra.set(reviewed=_reviewed(game) + (side,)))
        )
        return review_or_score(new)
    return None


@hookimpl
def spadeskit_before_scoring(game: GameState, table: TableSpec, options: Any) -> int | None:
    if options["enforcement"] != "table":
        return None
    first = (game.hand.dealer + 1) % table.players
    reviewed = _reviewed(game)
    for seat in (first, (first + 1) % table.players):
        if table.side_of[seat] not in reviewed:
            return seat
    return None


# --------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------


def side_books(summary: HandSummary, table: TableSpec) -> tuple[list[int], list[tuple[int, str]]]:
    """Return each side's books after penalty transfers, and the transfer lines'
    ``(side, text)``: one for each ruling, then the net settlement.

    Transfers settle at scoring, all together: the books each team owes the other are
    netted first, and only the net amount is limited to the books the paying team holds
    at the end of the hand, so the order of the rulings never changes the result.
    """
    books = [sum(summary.books[s] for s in seats) for seats in table.sides]
    if not summary.transfers:
        return books, []
    owed = [0, 0]
    texts = []
    for transfer in summary.transfers:
        owed[transfer.from_side] += transfer.books
        texts.append(
            (
                transfer.from_side,
                f"{transfer.reason}: {count(transfer.books, 'book')} "
                f"owed to {table.side_names[transfer.to_side]}",
            )
        )
    payer = 0 if owed[0] > owed[1] else 1
    net = abs(owed[0] - owed[1])
    moved = min(net, books[payer])
    books[payer] -= moved
    books[1 - payer] += moved
    texts.append(
        (
            payer,
            f"net: {table.side_names[payer]} give {count(moved, 'book')} "
            f"to {table.side_names[1 - payer]}"
            + (f" (all they hold of {net} owed)" if moved < net else ""),
        )
    )
    return books, texts


def team_bid(bids: Sequence[Action | None], seats: Sequence[int]) -> int:
    """Return a side's contract: the sum of its partners' numeric bids."""
    return sum(b.tricks for s in seats if isinstance(b := bids[s], Bid))


def counting_books(summary: HandSummary, table: TableSpec, books: Sequence[int], side: int) -> int:
    """Return the books that count toward ``side``'s bid: its ``books`` after penalty
    transfers, less the books its nil bidders took themselves (never below 0)."""
    nil_books = sum(summary.books[s] for s in table.sides[side] if isinstance(summary.bids[s], Nil))
    return max(0, books[side] - nil_books)


def was_set(summary: HandSummary, table: TableSpec, side: int) -> bool:
    """Return whether ``side`` took fewer books than it bid (after penalties)."""
    books, _ = side_books(summary, table)
    return counting_books(summary, table, books, side) < team_bid(summary.bids, table.sides[side])


def sandbags_text(over: int, bonus: int) -> str | None:
    """Return what a line says of ``over`` sandbags worth ``bonus`` points, if any."""
    if not over:
        return None
    return bags_text(over) if bonus else count(over, "sandbag")


@hookimpl
def spadeskit_score_hand(
    summary: HandSummary, match: MatchState, table: TableSpec, options: Any
) -> Sequence[ScoreLine]:
    books, texts = side_books(summary, table)
    lines = [ScoreLine(side, 0, text, kind="penalty") for side, text in texts]
    for side, seats in enumerate(table.sides):
        name = table.side_names[side]
        bid = team_bid(summary.bids, seats)
        nils = [
            (seat, summary.books[seat]) for seat in seats if isinstance(summary.bids[seat], Nil)
        ]
        nil_books = sum(took for _, took in nils)
        took = counting_books(summary, table, books, side)
        factor = 2 if bid >= 10 else 1
        over = max(0, took - bid)
        made = took >= bid
        doubled_over = made and options["double_over"] and bid > 0 and took >= 2 * bid
        for seat, took_nil in nils:
            # The nil bidder's books never count toward the bid; they are sandbags, worth
            # a point each (with sandbags on) when the bid is made.
            value = options["nil_value"] if took_nil == 0 else -options["nil_value"]
            bonus = took_nil if made and not doubled_over and options["sandbags"] else 0
            text = f"{table.seat_names[seat]} nil, took {took_nil}: {signed(value)}"
            lines.append(
                ScoreLine(
                    side,
                    value + bonus,
                    text,
                    bags=took_nil,
                    bag_points=bonus,
                    bag_text=sandbags_text(took_nil, bonus),
                    kind="nil",
                )
            )
        label = f"{name} bid {bid}, took {took}"
        if not made:
            lines.append(
                ScoreLine(
                    side,
                    -10 * bid * factor,
                    f"{label}: set, {signed(-10 * bid * factor)}",
                    kind="contract",
                )
            )
        elif doubled_over:
            lines.append(
                ScoreLine(
                    side,
                    -10 * bid,
                    f"{label}: double over, {signed(-10 * bid)}, {count(over, 'sandbag')}",
                    bags=over,
                    bag_points=0,
                    kind="contract",
                )
            )
        else:
            points = 10 * bid * factor
            bonus = over if options["sandbags"] else 0
            lines.append(
                ScoreLine(
                    side,
                    points + bonus,
                    f"{label}: {signed(points)}",
                    bags=over,
                    bag_points=bonus,
                    bag_text=sandbags_text(over, bonus),
                    kind="contract",
                )
            )
        counted = match.bags[side] + over + nil_books
        if options["sandbag_penalty"] and counted >= SANDBAG_LIMIT:
            times = counted // SANDBAG_LIMIT
            lines.append(
                ScoreLine(
                    side,
                    -SANDBAG_COST * times,
                    f"{name} reached {SANDBAG_LIMIT * times} sandbags: "
                    f"{signed(-SANDBAG_COST * times)}",
                    bags=-SANDBAG_LIMIT * times,
                    kind="bag-penalty",
                )
            )
    return lines


# --------------------------------------------------------------------------------------
# End of the match: Boston, three sets in a row, the target
# --------------------------------------------------------------------------------------


def _summary(result: HandResult) -> HandSummary:
    return HandSummary(result.bids, result.books, transfers=result.transfers)


@hookimpl(tryfirst=True)
def spadeskit_match_end(
    match: MatchState, result: HandResult, table: TableSpec, options: Any
) -> MatchEnd | None:
    """A Boston made wins at once; a Boston failed or a third set in a row loses outright
    (a failed Boston counting first when both teams lose at once); else the target.

    A Boston counts only the books that count toward the bid of 13: beside a nil, the
    partner's own books after transfers, never the nil bidder's.
    """
    names = table.side_names
    summary = _summary(result)
    books, _ = side_books(summary, table)
    outright: dict[int, tuple[int, str]] = {}
    for side, seats in enumerate(table.sides):
        if team_bid(result.bids, seats) == 13:
            took = counting_books(summary, table, books, side)
            if took == 13:
                return MatchEnd(side, f"{names[side]} ran a Boston: bid 13 and took all 13")
            outright[side] = (
                FAILED_BOSTON,
                f"{names[side]} bid 13 and took {took}, an automatic loss",
            )
    played = [r for r in match.results if not r.void][-3:]
    for side in range(len(table.sides)):
        if (
            side not in outright
            and len(played) == 3
            and all(was_set(_summary(r), table, side) for r in played)
        ):
            outright[side] = (OTHER_LOSS, f"{names[side]} were set three hands in a row")
    return match_end(match.scores, names, options["target"], None, outright)


@hookimpl
def spadeskit_next_dealer(dealer: int, table: TableSpec) -> int:
    return (dealer + 1) % table.players
