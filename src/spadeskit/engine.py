"""The state machine: deal, auction, exchanges, tricks, review, scoring, next hand.

The engine knows no variant.  It asks the hooks (through the compiled :class:`Rules`)
who speaks, what may be bid, what a card means, and how a hand scores.  Play is the hot
path: a legal play is checked against the compiled play filters and the trick winner
read from the compiled strength table, without a pluggy call.

Every public entry point validates its input before building anything, so a refused
action leaves the state it was applied to untouched (states are immutable anyway).
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .actions import Action, Bid, Discard, Exchange, Nil, Play
from .cards import CardLike, card_at, cards_of, iter_mask, parse_cards
from .errors import (
    DealError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    PluginError,
    SpadesError,
    WrongPhase,
)
from .results import HandResult, HandSummary, MatchEnd, ScoreLine, Trick
from .state import Breach, GameState, HandState, MatchState, Phase
from .table import Contract, FrozenMap, Step

if TYPE_CHECKING:
    from .rules import HandScore, Rules

__all__ = ["REFEREE", "Engine"]

_NO_ACTIONS: tuple[Action, ...] = ()
REFEREE = -1
"""The seat number of the referee, for rulings such as table talk: ``apply(a, REFEREE)``."""
_HAND_FIELDS = tuple(f.name for f in attrs.fields(HandState))
_KEEP = object()


def _make_evolve(*changed: str) -> Any:
    # Generated like attrs' own methods, so rebuilding a hand on the hot path is one
    # constructor call.  With field names, the result takes exactly those fields as
    # positional arguments (the play path's shapes); without, any of them by keyword.
    if changed:
        params = ", ".join(changed)
        values = ", ".join(n if n in changed else f"hand.{n}" for n in _HAND_FIELDS)
    else:
        params = "*, " + ", ".join(f"{n}=_KEEP" for n in _HAND_FIELDS)
        values = ", ".join(f"hand.{n} if {n} is _KEEP else {n}" for n in _HAND_FIELDS)
    namespace: dict[str, Any] = {"_KEEP": _KEEP, "HandState": HandState}
    exec(f"def evolve(hand, {params}):\n    return HandState({values})\n", namespace)
    return namespace["evolve"]


_evolve = _make_evolve()
"""Return a copy of a hand with some fields changed; the one place hands are rebuilt."""
_next_card = _make_evolve("to_act", "hands", "trick", "played", "log", "breaches")
_next_trick = _make_evolve("to_act", "leader", "hands", "trick", "tricks", "books", "won", "played",
                           "log", "breaches")


def _replace(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]


class Engine:
    """Plays games under one compiled :class:`Rules`; reached through ``GameState``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.hook = rules.hook
        self.table = rules.table
        self.options = rules.options
        self.n = rules.table.players
        self.side_of = rules.side_of
        self.suit_of = rules.ranking.suit_of
        self.checks = tuple(f.check for f in rules.filters if f.enforced)
        self.advisory = tuple(f for f in rules.filters if not f.enforced)
        self.plays = tuple(Play(i) for i in range(54))
        self._plays_cache: dict[int, tuple[Action, ...]] = {}
        self._chunks: dict[int, tuple[Action, ...]] = {}

        def implemented(name: str) -> bool:
            return bool(getattr(rules.hook, name).get_hookimpls())

        self.has_after_trick = implemented("spadeskit_after_trick")
        self.has_penalties = implemented("spadeskit_penalty_actions")
        self.has_review = implemented("spadeskit_before_scoring")

    # ----------------------------------------------------------------------------------
    # Naming, for messages
    # ----------------------------------------------------------------------------------

    def seat_name(self, seat: int | None) -> str:
        """Return ``"seat 2 (S)"``, or ``"the referee"`` for ``None``."""
        if seat is None:
            return "the referee"
        return f"seat {seat} ({self.table.seat_names[seat]})"

    def _call(self, hook: str, **kwargs: Any) -> Any:
        return self.rules._call(hook, table=self.table, options=self.options, **kwargs)

    # ----------------------------------------------------------------------------------
    # Starting games and hands
    # ----------------------------------------------------------------------------------

    def new_game(
        self,
        seed: int | None,
        deal: Sequence[Iterable[CardLike] | str] | None,
        dealer: int | None,
        blind: Iterable[CardLike] | str,
        pile: Iterable[CardLike] | str,
    ) -> GameState:
        if seed is None:
            seed = secrets.randbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise SpadesError(f"a seed is a whole number, not {seed!r}")
        if dealer is None:
            dealer = self.n - 1
        self._check_seat(dealer, "dealer")
        first = None if deal is None else self._check_deal(deal, blind, pile)
        sides = len(self.table.sides)
        match = MatchState((0,) * sides, (0,) * sides, (), (), None, FrozenMap())
        return self._start_hand(seed, first, match, 0, dealer, first)

    def _check_seat(self, seat: object, what: str = "seat") -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(f"{what} {seat!r} does not exist: seats are 0 to {self.n - 1}")
        return seat

    def _check_deal(
        self,
        deal: Sequence[Iterable[CardLike] | str],
        blind: Iterable[CardLike] | str,
        pile: Iterable[CardLike] | str,
    ) -> tuple[tuple[int, ...], ...]:
        plan = self.table.deal
        if isinstance(deal, str) or len(deal) != self.n:
            raise DealError(f"a deal for {self.rules.name!r} is {self.n} hands, one per seat")
        hands = [tuple(c.index for c in parse_cards(h)) for h in deal]
        extra = [tuple(c.index for c in parse_cards(blind)), tuple(c.index for c in parse_cards(pile))]
        deck = {c.index for c in self.table.deck}
        if plan.blind and not extra[0] and not plan.pile:
            dealt = {c for h in hands for c in h}
            extra[0] = tuple(sorted(deck - dealt))
        seen: dict[int, str] = {}
        for where, cards in [(self.seat_name(s), h) for s, h in enumerate(hands)] + [
            ("the blind", extra[0]), ("the pile", extra[1])
        ]:
            for c in cards:
                if c not in deck:
                    raise DealError(f"{card_at(c)} in {where} is not in the deck of {self.rules.name!r}")
                if c in seen:
                    raise DealError(f"{card_at(c)} is dealt twice: to {seen[c]} and to {where}")
                seen[c] = where
        if not self._call("spadeskit_misdeal_allowed"):
            for seat, h in enumerate(hands):
                if len(h) != plan.hand_size:
                    raise DealError(f"{self.seat_name(seat)} is dealt {len(h)} cards; a hand is {plan.hand_size}")
        elif {c for h in hands for c in h} != deck - set(extra[0]) - set(extra[1]):
            raise DealError(f"the deal must use every card of the deck of {self.rules.name!r}")
        for name, cards, size in (("blind", extra[0], plan.blind), ("pile", extra[1], plan.pile)):
            if len(cards) != size:
                raise DealError(f"the {name} has {len(cards)} cards; it must have {size}")
        return tuple(hands) + tuple(extra)

    def _shuffle(self, seed: int, number: int, dealer: int) -> tuple[tuple[int, ...], ...]:
        # Sort by random keys: as reproducible as Random.shuffle and several times faster.
        rng = random.Random((seed << 20) | number).random
        deck = [c for _, c in sorted((rng(), c.index) for c in self.table.deck)]
        plan = self.table.deal
        hands: list[list[int]] = [[] for _ in range(self.n)]
        pos = 0
        for packet in plan.rounds():
            for step in range(1, self.n + 1):
                hands[(dealer + step) % self.n].extend(deck[pos:pos + packet])
                pos += packet
        blind = tuple(deck[pos:pos + plan.blind])
        return tuple(tuple(h) for h in hands) + (blind, tuple(deck[pos + plan.blind:]))

    def _start_hand(
        self,
        seed: int,
        first: tuple[tuple[int, ...], ...] | None,
        match: MatchState,
        number: int,
        dealer: int,
        deal: tuple[tuple[int, ...], ...] | None,
    ) -> GameState:
        if deal is None:
            deal = self._shuffle(seed, number, dealer)
        masks = []
        for cards in deal[: self.n + 1]:
            mask = 0
            for c in cards:
                mask |= 1 << c
            masks.append(mask)
        n = self.n
        hand = HandState(
            number=number, dealer=dealer, phase=Phase.AUCTION, to_act=None,
            hands=tuple(masks[:n]), blind=masks[n], pile=tuple(deal[n + 1]),
            auction=(), bids=(None,) * n, contract=None, steps=(), leader=(dealer + 1) % n,
            trick=(), tricks=(), books=(0,) * n, won=(0,) * n, played=0, breaches=(),
            transfers=(), log=(), extra=FrozenMap(),
        )
        return self._advance_auction(GameState(self.rules, seed, first, match, hand))

    # ----------------------------------------------------------------------------------
    # Legal actions
    # ----------------------------------------------------------------------------------

    def legal_mask(self, game: GameState) -> int:
        """Return the mask of cards the seat to act may play (its filters applied)."""
        mask = game._legal
        if mask is None:
            hand = game.hand
            seat = hand.to_act
            assert seat is not None
            mask = hand.hands[seat]
            for check in self.checks:
                mask = check(hand, seat, mask)
            object.__setattr__(game, "_legal", mask)
        return int(mask)

    def _plays(self, mask: int) -> tuple[Action, ...]:
        actions = self._plays_cache.get(mask)
        if actions is None:
            chunks = self._chunks
            actions = ()
            for shift in (0, 13, 26, 39, 52):
                bits = (mask >> shift) & 0x1FFF
                if bits:
                    part = chunks.get(bits << shift)
                    if part is None:
                        part = chunks[bits << shift] = tuple(self.plays[i] for i in iter_mask(bits << shift))
                    actions += part
            if len(self._plays_cache) > 200_000:
                self._plays_cache.clear()
            self._plays_cache[mask] = actions
        return actions

    def legal_actions(self, game: GameState, seat: int | None) -> tuple[Action, ...]:
        hand = game.hand
        if game.match.end is not None:
            return _NO_ACTIONS
        if seat == REFEREE:
            return self._penalty_actions(game, None)
        if seat is None or seat == hand.to_act:
            if hand.phase is Phase.PLAY and not self.has_penalties:
                return self._plays(self.legal_mask(game))
            seat = hand.to_act
            assert seat is not None
            own = self._turn_actions(game, seat)
        else:
            self._check_seat(seat)
            own = _NO_ACTIONS
        return own + self._penalty_actions(game, seat)

    def _turn_actions(self, game: GameState, seat: int) -> tuple[Action, ...]:
        hand = game.hand
        phase = hand.phase
        if phase is Phase.PLAY:
            return self._plays(self.legal_mask(game))
        if phase is Phase.AUCTION:
            return self._auction_actions(game, seat)
        if phase is Phase.EXCHANGE:
            step = hand.steps[0]
            kind = Discard if step.kind == "discard" else Exchange
            held = cards_of(hand.hands[seat])
            return tuple(kind(combo) for combo in itertools.combinations(held, step.count))
        return _NO_ACTIONS

    def _auction_actions(self, game: GameState, seat: int) -> tuple[Action, ...]:
        # Cached on the state like the legal-play mask: asked once, then read by apply().
        cached = game._legal
        if isinstance(cached, tuple):
            return cached
        actions = self._call("spadeskit_auction_actions", game=game, seat=seat)
        if actions is None:
            raise PluginError(f"no plugin of {self.rules.name!r} lists the auction actions")
        actions = tuple(actions)
        object.__setattr__(game, "_legal", actions)
        return actions

    def _penalty_actions(self, game: GameState, seat: int | None) -> tuple[Action, ...]:
        if not self.has_penalties:
            return _NO_ACTIONS
        found = self._call("spadeskit_penalty_actions", game=game, seat=seat)
        return tuple(a for group in found if group for a in group)

    # ----------------------------------------------------------------------------------
    # Applying actions
    # ----------------------------------------------------------------------------------

    def apply(self, game: GameState, action: Action, seat: int | None) -> GameState:
        hand = game.hand
        actor = hand.to_act
        if seat is None:
            seat = actor
        if type(action) is Play and actor is not None and seat == actor and hand.phase is Phase.PLAY:
            index = action.card.index
            if not (self.legal_mask(game) >> index) & 1:
                raise self._refuse_play(game, actor, action)
            return self._play(game, actor, index)
        return self._apply_slow(game, action, seat)

    def _apply_slow(self, game: GameState, action: Action, seat: int | None) -> GameState:
        if game.match.end is not None:
            raise GameOver(f"{action} refused: the match is over ({game.match.end.reason})")
        if not isinstance(action, Action):
            raise IllegalAction(f"{action!r} is not an action (use spadeskit.Bid(4), spadeskit.Play('AS') …)")
        referee = seat == REFEREE
        if seat is not None and not referee:
            self._check_seat(seat)
        hand = game.hand
        claimant = None if referee else seat
        if self.has_penalties and action in self._penalty_actions(game, claimant):
            # Logged in the hand where it happened, before the plugin may close that hand.
            logged = _evolve(hand, log=hand.log + ((REFEREE if referee else seat, action),))
            game = GameState(self.rules, game.seed, game.first_deal, game.match, logged)
            new = self._call("spadeskit_apply_penalty", game=game, seat=claimant, action=action)
            if not isinstance(new, GameState):
                raise PluginError(f"no plugin of {self.rules.name!r} applied the offered action {action}")
            return new
        if referee:
            raise IllegalAction(
                f"{action} refused: the referee may only "
                f"{', '.join(map(str, self._penalty_actions(game, None))) or 'watch now'}"
            )
        if seat != hand.to_act:
            raise NotYourTurn(
                f"{action} by {self.seat_name(seat)} refused: it is {self.seat_name(hand.to_act)}'s "
                f"turn ({hand.phase.value})"
            )
        assert seat is not None
        phase = hand.phase
        if phase is Phase.AUCTION:
            return self._bid(game, seat, action)
        if phase is Phase.EXCHANGE:
            return self._exchange(game, seat, action)
        if phase is Phase.PLAY:
            raise WrongPhase(f"{action} by {self.seat_name(seat)} refused: it is time to play a card")
        raise WrongPhase(
            f"{action} by {self.seat_name(seat)} refused in the {phase.value}: "
            f"allowed are {', '.join(map(str, self.legal_actions(game, seat))) or 'none'}"
        )

    def _refuse_play(self, game: GameState, seat: int, action: Play) -> SpadesError:
        hand = game.hand
        card = action.card
        who = self.seat_name(seat)
        if not (hand.hands[seat] >> card.index) & 1:
            return IllegalAction(f"{who} cannot play {card}: it is not in their hand")
        mask = hand.hands[seat]
        for f in self.rules.filters:
            if f.enforced:
                mask = f.check(hand, seat, mask)
                if not (mask >> card.index) & 1:
                    return IllegalAction(f"{who} cannot play {card}: {f.reason or f.name}")
        return IllegalAction(f"{who} cannot play {card}")

    def _bid(self, game: GameState, seat: int, action: Action) -> GameState:
        legal = self._auction_actions(game, seat)
        if action not in legal:
            who = self.seat_name(seat)
            if isinstance(action, Play):
                raise WrongPhase(f"{action} by {who} refused: the auction is not over; bid first")
            hint = ""
            if isinstance(action, Bid) and action.tricks == 0 and Nil() in legal:
                hint = " (a bid of 0 is nil here: use Nil())"
            raise IllegalAction(
                f"{action} by {who} refused{hint}; allowed: {', '.join(map(str, legal))}"
            )
        hand = game.hand
        bids = hand.bids[:seat] + (action,) + hand.bids[seat + 1:]
        hand = _evolve(hand, auction=hand.auction + ((seat, action),), bids=bids,
                       log=hand.log + ((seat, action),))
        return self._advance_auction(GameState(self.rules, game.seed, game.first_deal, game.match, hand))

    def _advance_auction(self, game: GameState) -> GameState:
        nxt = self._call("spadeskit_auction_next", game=game)
        if isinstance(nxt, Contract):
            return self._begin_play(game, nxt)
        if isinstance(nxt, bool) or not isinstance(nxt, int) or not 0 <= nxt < self.n:
            raise PluginError(f"spadeskit_auction_next of {self.rules.name!r} gave {nxt!r}, not a seat or Contract")
        hand = _evolve(game.hand, to_act=nxt)
        return GameState(self.rules, game.seed, game.first_deal, game.match, hand)

    def _begin_play(self, game: GameState, contract: Contract) -> GameState:
        hand = game.hand
        hands, blind = hand.hands, hand.blind
        if contract.declarer is not None and contract.blind_to == "declarer":
            hands = _replace(hands, contract.declarer, hands[contract.declarer] | blind)
            blind = 0
        if contract.steps:
            phase, to_act = Phase.EXCHANGE, contract.steps[0].seat
        else:
            phase, to_act = Phase.PLAY, contract.leader
        hand = _evolve(hand, contract=contract, hands=hands, blind=blind, steps=contract.steps,
                       phase=phase, to_act=to_act, leader=contract.leader)
        return GameState(self.rules, game.seed, game.first_deal, game.match, hand)

    def _exchange(self, game: GameState, seat: int, action: Action) -> GameState:
        hand = game.hand
        step: Step = hand.steps[0]
        kind = Discard if step.kind == "discard" else Exchange
        who = self.seat_name(seat)
        if not isinstance(action, kind):
            raise WrongPhase(f"{action} by {who} refused: {who} must {step.kind} {step.count} cards first")
        cards = action.cards
        mask = 0
        for card in cards:
            if not (hand.hands[seat] >> card.index) & 1:
                raise IllegalAction(f"{action} by {who} refused: {card} is not in their hand")
            mask |= card.bit
        if len(cards) != step.count:
            raise IllegalAction(f"{action} by {who} refused: give exactly {step.count} cards")
        hands = _replace(hand.hands, seat, hand.hands[seat] & ~mask)
        won = hand.won
        if step.kind == "discard":
            won = _replace(won, seat, won[seat] | mask)
        else:
            assert step.to is not None
            hands = _replace(hands, step.to, hands[step.to] | mask)
        steps = hand.steps[1:]
        contract = hand.contract
        assert contract is not None
        phase, to_act = (Phase.EXCHANGE, steps[0].seat) if steps else (Phase.PLAY, contract.leader)
        hand = _evolve(hand, hands=hands, won=won, steps=steps, phase=phase, to_act=to_act,
                       log=hand.log + ((seat, action),))
        return GameState(self.rules, game.seed, game.first_deal, game.match, hand)

    def _play(self, game: GameState, seat: int, index: int) -> GameState:
        hand = game.hand
        bit = 1 << index
        held = hand.hands[seat]
        breaches = hand.breaches
        if self.advisory:
            proper = held
            for f in self.advisory:
                proper = f.check(hand, seat, proper)
                if not proper & bit:
                    breaches = breaches + (Breach(len(hand.tricks), seat, index, f.name),)
                    break
        hands = hand.hands[:seat] + (held ^ bit,) + hand.hands[seat + 1:]
        trick = hand.trick + ((seat, index),)
        log = hand.log + ((seat, self.plays[index]),)
        if len(trick) < self.n:
            hand = _next_card(hand, (seat + 1) % self.n, hands, trick, hand.played | bit, log, breaches)
            return GameState(self.rules, game.seed, game.first_deal, game.match, hand)
        contract = hand.contract
        assert contract is not None
        row = self.rules.strength_table(contract.trump)[self.suit_of[trick[0][1]]]
        winner, best, taken = seat, -1, 0
        for s, c in trick:
            taken |= 1 << c
            if row[c] > best:
                winner, best = s, row[c]
        done = Trick(hand.leader, trick, winner)
        books = hand.books[:winner] + (hand.books[winner] + 1,) + hand.books[winner + 1:]
        won = hand.won[:winner] + (hand.won[winner] | taken,) + hand.won[winner + 1:]
        hand = _next_trick(hand, winner, winner, hands, (), hand.tricks + (done,), books, won,
                           hand.played | bit, log, breaches)
        if self.has_after_trick:
            changed = self._call("spadeskit_after_trick", hand=hand, trick=done)
            if changed is not None:
                if not isinstance(changed, HandState):
                    raise PluginError(f"spadeskit_after_trick of {self.rules.name!r} gave {changed!r}")
                hand = changed
        game = GameState(self.rules, game.seed, game.first_deal, game.match, hand)
        if any(hand.hands) or hand.pile:
            return game
        return self._end_play(game)

    def _end_play(self, game: GameState) -> GameState:
        hand = game.hand
        contract = hand.contract
        assert contract is not None
        if contract.blind_to == "last-trick" and hand.blind:
            last = hand.tricks[-1].winner
            hand = _evolve(hand, won=_replace(hand.won, last, hand.won[last] | hand.blind), blind=0)
            game = GameState(self.rules, game.seed, game.first_deal, game.match, hand)
        return self.review_or_score(game)

    def review_or_score(self, game: GameState) -> GameState:
        """Ask for a review seat after the last trick; score the hand when there is none.

        Plugins with a review step call this after each review action.
        """
        if self.has_review:
            seat = self._call("spadeskit_before_scoring", game=game)
            if seat is not None:
                self._check_seat(seat, "review seat")
                hand = _evolve(game.hand, phase=Phase.REVIEW, to_act=seat)
                return GameState(self.rules, game.seed, game.first_deal, game.match, hand)
        return self._finish_hand(game)

    # ----------------------------------------------------------------------------------
    # Scoring and the next hand
    # ----------------------------------------------------------------------------------

    def summary(self, hand: HandState) -> HandSummary:
        """Return the hand's :class:`HandSummary` for the scoring hooks."""
        contract = hand.contract
        return HandSummary(
            hand.bids, hand.books, tuple(cards_of(m) for m in hand.won), hand.transfers,
            contract.trump if contract else "spades", contract.declarer if contract else None,
        )

    def score(self, summary: HandSummary, match: MatchState) -> HandScore:
        from .rules import HandScore

        found = self._call("spadeskit_score_hand", summary=summary, match=match)
        lines: list[ScoreLine] = []
        for group in reversed(found):
            for line in group or ():
                if not isinstance(line, ScoreLine) or not 0 <= line.side < len(self.table.sides):
                    raise PluginError(f"spadeskit_score_hand of {self.rules.name!r} gave {line!r}")
                lines.append(line)
        sides = range(len(self.table.sides))
        points = tuple(sum(line.points for line in lines if line.side == s) for s in sides)
        bag_delta = tuple(sum(line.bags for line in lines if line.side == s) for s in sides)
        return HandScore(
            tuple(lines), points,
            tuple(a + b for a, b in zip(match.scores, points)),
            tuple(a + b for a, b in zip(match.bags, bag_delta)),
        )

    def _finish_hand(self, game: GameState) -> GameState:
        hand = game.hand
        match = game.match
        scored = self.score(self.summary(hand), match)
        result = HandResult(hand.number, hand.dealer, hand.bids, hand.books, scored.lines,
                            scored.points, scored.scores, scored.bags, transfers=hand.transfers,
                            last_trick_winner=hand.tricks[-1].winner if hand.tricks else None)
        return self.close_hand(game, result)

    def void_hand(self, game: GameState, note: str) -> GameState:
        """End the hand in progress unscored (a misdeal) and deal the next one."""
        hand, match = game.hand, game.match
        sides = len(self.table.sides)
        result = HandResult(hand.number, hand.dealer, hand.bids, hand.books, (), (0,) * sides,
                            match.scores, match.bags, void=True, note=note)
        return self.close_hand(game, result)

    def close_hand(self, game: GameState, result: HandResult) -> GameState:
        """Record ``result``, then end the match or deal the next hand.

        Plugins that void a hand (a misdeal) call this with a ``void=True`` result.
        """
        hand = game.hand
        match = game.match
        match = MatchState(result.scores, result.bags, match.results + (result,),
                           match.logs + (hand.log,), None, match.extra)
        end = None if result.void else self._call("spadeskit_match_end", match=match, result=result)
        if end is not None:
            if not isinstance(end, MatchEnd):
                raise PluginError(f"spadeskit_match_end of {self.rules.name!r} gave {end!r}")
            match = attrs.evolve(match, end=end)
            hand = _evolve(hand, phase=Phase.OVER, to_act=None, log=())
            return GameState(self.rules, game.seed, game.first_deal, match, hand)
        dealer = self._call("spadeskit_next_dealer", dealer=hand.dealer, result=result)
        self._check_seat(dealer, "next dealer")
        return self._start_hand(game.seed, game.first_deal, match, hand.number + 1, dealer, None)

