"""The invariants of a game of Spades, checked on any rules: the checks behind the kit.

:func:`check_state` checks one state; :func:`play_random_match` plays a seeded random
match checking every state, view and decision; :func:`check_views`,
:func:`check_inference`, :func:`check_moves`, :func:`check_playouts` and
:func:`check_rotation` check one promise each.  A broken invariant raises
:class:`InvariantError`.  :mod:`spadeskit.testing` re-exports them; ``check_rules`` runs all."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterable
from typing import Any

from spadeskit.core.actions import Accept, Action, Bid, Discard, Exchange, Nil, Pass, PickUp, Play
from spadeskit.core.cards import card_at, cards_of, fold_copies, iter_mask, mask_of
from spadeskit.core.errors import Deadlock, SpadesError
from spadeskit.core.phase import REFEREE
from spadeskit.core.state import GameState, evolve
from spadeskit.engine.replay import replay
from spadeskit.engine.rules import Rules, rules_of
from spadeskit.testing.oracles import Watcher
from spadeskit.testing.policies import Policy, random_policy

PROBES: tuple[Action, ...] = (
    tuple(Play(i) for i in range(54))
    + tuple(Bid(n) for n in range(0, 28))
    + (Nil(), Pass(), PickUp(), Accept())
)


# Which hooks can break which invariant: named in failure reports.
SUSPECTS: dict[str, tuple[str, ...]] = {
    "cards": (
        "spadeskit_after_trick",
        "spadeskit_apply_out_of_turn",
        "spadeskit_auction_next",
        "spadeskit_table",
    ),
    "tricks": (
        "spadeskit_trick_strength",
        "spadeskit_card_rank",
        "spadeskit_after_trick",
        "spadeskit_table",
    ),
    "legal": (
        "spadeskit_play_filters",
        "spadeskit_card_rank",
        "spadeskit_auction_actions",
        "spadeskit_auction_next",
        "spadeskit_out_of_turn_actions",
        "spadeskit_apply_out_of_turn",
        "spadeskit_match_end",
    ),
    "scores": ("spadeskit_score_hand", "spadeskit_card_points"),
    "end": ("spadeskit_match_end", "spadeskit_score_hand", "spadeskit_next_dealer"),
    "replay": ("spadeskit_apply_out_of_turn", "spadeskit_after_trick", "spadeskit_auction_next"),
    "playouts": (
        "spadeskit_play_filters",
        "spadeskit_after_trick",
        "spadeskit_auction_actions",
        "spadeskit_auction_next",
        "spadeskit_before_scoring",
    ),
    "views": ("spadeskit_view",),
    "shown": ("spadeskit_view",),
    "relabelling": ("spadeskit_card_rank", "spadeskit_play_filters", "spadeskit_trick_strength"),
    "bids": ("spadeskit_auction_actions", "spadeskit_auction_next", "spadeskit_view"),
    "leader": ("spadeskit_auction_next", "spadeskit_next_dealer"),
    "steps": ("spadeskit_contract_steps", "spadeskit_auction_next"),
    "score": ("spadeskit_score_hand", "spadeskit_card_points"),
    "sheet": ("spadeskit_score_hand", "spadeskit_before_scoring"),
    "bags": ("spadeskit_score_hand",),
    "options": (),
    "examples": (),
    "penalties": ("spadeskit_apply_out_of_turn", "spadeskit_out_of_turn_actions"),
    "rotation": (
        "spadeskit_score_hand",
        "spadeskit_match_end",
        "spadeskit_auction_next",
        "spadeskit_next_dealer",
        "spadeskit_play_filters",
    ),
}


class InvariantError(AssertionError):
    """A rule invariant does not hold.

    ``invariant`` is its key in :data:`SUSPECTS`, ``hooks`` the hooks that could break
    it, ``plugins`` the loaded plugins implementing them (house rules first), ``culprit``
    the house rule without which the check passes (if one was found) and ``record`` the
    game up to the failure, for :func:`spadeskit.replay`.
    """

    def __init__(
        self,
        rules: Rules,
        invariant: str,
        what: str,
        record: dict[str, Any],
        culprit: str | None = None,
    ) -> None:
        self.rules_name = rules.name
        self.invariant = invariant
        self.what = what
        self.record = record
        self.hooks = SUSPECTS.get(invariant, ())
        self.plugins = _implementers(rules, self.hooks)
        self.culprit = culprit
        super().__init__(self._message())

    def _message(self) -> str:
        lines = [f"{self.rules_name}: {self.what}"]
        if self.culprit:
            lines.append(f"culprit: house rule {self.culprit!r} (the same check passes without it)")
        if self.hooks:
            lines.append(f"hooks that decide this: {', '.join(self.hooks)}")
        if self.plugins:
            lines.append(f"implemented here by: {', '.join(self.plugins)}")
        lines.append(f"{len(self.record['actions'])} actions; replay with spadeskit.replay(record)")
        lines.append(f"record: {json.dumps(self.record)}")
        return "\n".join(lines)

    def blamed(self, culprit: str) -> InvariantError:
        """Return the same error naming ``culprit``."""
        error = InvariantError.__new__(InvariantError)
        error.__dict__.update(self.__dict__)
        error.culprit = culprit
        AssertionError.__init__(error, error._message())
        return error


def _implementers(rules: Rules, hooks: Iterable[str]) -> tuple[str, ...]:
    found: list[str] = []
    for hook in hooks:
        caller = getattr(rules.hook, hook, None)
        for impl in reversed(caller.get_hookimpls()) if caller is not None else ():
            label = f"{impl.plugin_name} ({hook})"
            if label not in found:
                found.append(label)
    variant = rules.variant
    return tuple(sorted(found, key=lambda label: label.startswith(variant + " ")))


def fail(game: GameState, invariant: str, what: str) -> InvariantError:
    return InvariantError(rules_of(game), invariant, what, game.to_record())


def legal_or_fail(game: GameState) -> tuple[Action, ...]:
    """Return the legal actions; a state where nobody can act fails the ``legal`` invariant."""
    try:
        return game.legal_actions()
    except Deadlock as exc:
        raise fail(game, "legal", f"a reachable state offers no legal action: {exc}") from exc


def decision_kind(game: GameState) -> tuple[Any, ...]:
    """Return what kind of decision is pending: the phase and the place in it (the n-th
    bid, the n-th card of a trick, the n-th exchange step)."""
    hand = game.hand
    return (hand.phase, len(hand.auction), len(hand.trick), len(hand.steps), game.to_act)


def check_state(game: GameState, since: GameState | None = None) -> None:
    """Assert the invariants of one state: cards, tricks, turns and scores.

    ``since`` is an earlier state of the same match already checked: tricks and hand
    results it holds are not checked again (a match checked state by state stays linear).
    """
    rules, hand = game.rules, game.hand
    old_tricks = old_results = 0
    if since is not None:
        old_results = len(since.hand_results)
        old_tricks = len(since.hand.tricks) if since.hand.number == hand.number else 0
    deck = rules.ranking.deck_mask
    pile = 0
    for card in hand.pile:
        pile |= 1 << card
    parts = list(hand.hands) + [hand.played, hand.blind, pile]
    won = 0
    for mask in hand.won:
        won |= mask
    parts.append(won & ~hand.played)
    union = 0
    for mask in parts:
        union |= mask
    if union != deck or sum(m.bit_count() for m in parts) != deck.bit_count():
        raise fail(
            game, "cards", "cards are not conserved: every card must be in exactly one place"
        )
    n = rules.table.players
    trump = hand.contract.trump if hand.contract else "spades"
    for number, trick in enumerate(hand.tricks[old_tricks:], old_tricks):
        seats = [s for s, _ in trick.plays]
        if len(seats) != n or seats != [(trick.leader + i) % n for i in range(n)]:
            raise fail(
                game,
                "tricks",
                f"trick {number + 1} is not one card from each seat clockwise from its leader",
            )
        if trick.winner != rules.trick_winner(trick.plays, trump):
            raise fail(game, "tricks", f"trick {number + 1} has the wrong winner")
    if sum(hand.books) != len(hand.tricks) or any(
        hand.books[s] != sum(t.winner == s for t in hand.tricks) for s in range(n)
    ):
        raise fail(game, "tricks", "books do not match the trick winners")
    legal = legal_or_fail(game)
    if game.is_over != (not legal) or game.is_over != (game.to_act is None):
        raise fail(game, "legal", "legal actions must be non-empty exactly until the match ends")
    for side in range(len(rules.table.sides)):
        if game.scores[side] != sum(r.points[side] for r in game.hand_results):
            raise fail(game, "scores", f"side {side}'s score is not the sum of its hands")
        for result in game.hand_results[old_results:]:
            if result.points[side] != sum(line.points for line in result.lines_for(side)):
                raise fail(
                    game,
                    "scores",
                    f"hand {result.number + 1}: points are not the sum of the score lines",
                )


def _passed_with(game: GameState, viewer: int | None) -> int:
    """Return the mask of cards ``viewer`` passed or was passed in an exchange this hand
    (a choice still waiting for the rest of its simultaneous group has passed nothing)."""
    hand = game.hand
    plan = game.rules.table.deal.deal_steps(hand.dealer, game.rules.table.players)
    if hand.contract is not None:
        plan += hand.contract.steps
    waiting = [(step.seat, step.chosen) for step in hand.steps if step.chosen is not None]
    moved = [
        (who, action)
        for who, action in game.log
        if isinstance(action, (Discard, Exchange))
        and not any(who == seat and action == chosen for seat, chosen in waiting)
    ]
    known = 0
    for step, (who, action) in zip(plan, moved):
        if isinstance(action, Exchange) and viewer is not None and viewer in (who, step.to):
            known |= mask_of(action.cards)
    return known


def check_views(game: GameState) -> dict[int | None, dict[str, Any]]:
    """Assert that no view (or its JSON) shows a card its seat may not know.

    A seat sees at most its own cards (a plugin may hide some of those too) and never
    another seat's, the blind's or the draw pile's unplayed cards, except the cards it
    passed to another seat or was passed in an exchange.  Returns each view's JSON, by
    seat (``None``: a spectator's).
    """
    hand = game.hand
    n = game.rules.table.players
    hidden_everywhere = hand.blind | mask_of(card_at(c) for c in hand.pile)
    shown: dict[int | None, dict[str, Any]] = {}
    for viewer in list(range(n)) + [None]:
        view = game.view(viewer)
        own = hand.hands[viewer] if viewer is not None else 0
        if mask_of(view.cards) & ~mask_of(cards_of(own)):  # as counts of each card
            raise fail(
                game, "views", f"the view of seat {viewer} shows cards the seat does not hold"
            )
        shown[viewer] = view.to_json()
        text = json.dumps(shown[viewer])
        secret = hidden_everywhere
        for seat in range(n):
            if seat != viewer:
                secret |= hand.hands[seat]
        known = own | _passed_with(game, viewer) | hand.played  # no copy of a secret
        for index in iter_mask(fold_copies(secret) & ~fold_copies(known)):
            if json.dumps(card_at(index).code) in text:
                raise fail(game, "views", f"the view of seat {viewer} leaks {card_at(index).code}")
    return shown


def _hidden_variants(game: GameState, viewer: int, rng: random.Random) -> list[GameState]:
    """Return states that differ from ``game`` only in what ``viewer`` may not know: a
    card swapped between two other seats' hands, or a bid the viewer cannot see."""
    n = game.rules.table.players
    variants = []
    others = [s for s in range(n) if s != viewer and game.hands[s]]
    if len(others) >= 2:
        a, b = rng.sample(others, 2)
        card_a = rng.choice(list(iter_mask(game.hands[a])))
        card_b = rng.choice(list(iter_mask(game.hands[b])))
        hands = list(game.hands)
        hands[a] ^= (1 << card_a) | (1 << card_b)
        hands[b] ^= (1 << card_a) | (1 << card_b)
        variants.append(evolve(game, hands=tuple(hands)))
    sealed = game.view(viewer).bids
    for seat, bid in enumerate(game.bids):
        if bid is not None and sealed[seat] is None and seat != viewer:
            for other in (Nil(), Bid(1), Bid(4), Bid(7)):
                if other != bid:
                    bids = game.bids[:seat] + (other,) + game.bids[seat + 1 :]
                    auction = tuple((s, other if s == seat else a) for s, a in game.auction)
                    variants.append(evolve(game, bids=bids, auction=auction))
    return variants


def check_inference(
    game: GameState, rng: random.Random, shown: dict[int | None, dict[str, Any]] | None = None
) -> None:
    """Assert that no seat can infer what it may not know from its view or its actions.

    For each seat, states that differ from ``game`` only in other seats' unplayed cards
    or in bids still sealed from that seat must give it the same view and the same
    legal actions; otherwise what it is shown or offered reveals them.  ``shown`` is
    what :func:`check_views` returned for ``game``, if it ran (its views are not built
    again).
    """
    if game.is_over:
        return

    def shown_to(state: GameState, viewer: int) -> tuple[dict[str, Any], tuple[Action, ...]]:
        if state is game and shown is not None:
            view = dict(shown[viewer])
        else:
            view = state.view(viewer).to_json()
        view.pop("legal_actions")  # compared on their own, to name what leaks
        view.pop("legal_labels")  # (their labels with them)
        return view, state.legal_actions(viewer)

    for viewer in range(game.rules.table.players):
        seen = shown_to(game, viewer)
        for variant in _hidden_variants(game, viewer, rng):
            try:
                other = shown_to(variant, viewer)
            except SpadesError:
                continue  # a variant the rules cannot even show is not a leak of this state
            if other != seen:
                what = "view changes" if other[0] != seen[0] else "legal actions change"
                raise fail(
                    game,
                    "views",
                    f"seat {viewer}'s {what} with what the seat may not know "
                    "(another seat's cards or a sealed bid): they reveal it",
                )


def check_moves(game: GameState, rng: random.Random, probes: int = 6) -> None:
    """Assert that every legal action applies and that illegal ones raise, changing nothing."""
    snapshot = (game.hand, game.match)
    legal = game.legal_actions()
    for action in legal:
        try:
            game.apply(action)
        except SpadesError as exc:
            raise fail(game, "legal", f"legal action {action} was refused: {exc}") from exc
    illegal = [a for a in PROBES if a not in legal]
    for action in rng.sample(illegal, min(probes, len(illegal))):
        try:
            game.apply(action)
        except SpadesError:
            pass
        else:
            raise fail(game, "legal", f"{action} is not listed as legal but was accepted")
        if (game.hand, game.match) != snapshot:
            raise fail(game, "legal", f"refusing {action} changed the state")
    if game.to_act is not None:
        other = (game.to_act + 1) % game.rules.table.players
        for action in legal[:2]:
            if action not in game.legal_actions(other):
                try:
                    game.apply(action, other)
                except SpadesError:
                    continue
                raise fail(game, "legal", f"{action} was accepted out of turn")


def play_match(
    rules: Rules,
    seed: int,
    policy: Policy = random_policy,
    *,
    max_actions: int = 20_000,
    check_every: int = 1,
    deep_every: int = 7,
    out_of_turn: float = 0.0,
    oracles: bool = True,
    max_hands: int | None = None,
    kinds: set[tuple[Any, ...]] | None = None,
) -> GameState:
    """Play a seeded match with ``policy``, checking invariants and oracles; return the end.

    State invariants every ``check_every`` steps; deep checks (views, inference, every
    legal and some illegal actions) on the first decision of each kind (phase, place in
    auction, trick or exchanges, seat; ``kinds`` shares "first" between matches) and on
    about one in ``deep_every`` after (``0``: first only).  ``oracles``: every decision
    and hand is compared with the kit's references.  About once in ``1 / out_of_turn``
    a seat or the referee acts out of turn (rulings repeated half the time, to add up).
    The record must replay to an equal state; the first failing state is reported.
    """
    rng = random.Random(seed)
    sample = random.Random(f"deep checks {seed}")  # its own stream: the match stays the same
    checked: set[tuple[Any, ...]] = set() if kinds is None else kinds
    watcher = Watcher(rules, fail) if oracles else None
    game = rules.new_game(seed=seed)
    n = rules.table.players
    steps = 0
    checked_state: GameState | None = None
    again: tuple[int, Action] | None = None
    while not game.is_over and (max_hands is None or len(game.hand_results) < max_hands):
        if steps % check_every == 0:
            check_state(game, checked_state)
            checked_state = game
        kind = decision_kind(game)
        if kind not in checked or (deep_every and sample.random() * deep_every < 1):
            checked.add(kind)
            check_inference(game, rng, check_views(game))
            check_moves(game, rng)
        if watcher is not None:
            watcher.before(game)
        seat: int | None = None
        action: Action | None = None
        if again is not None:
            if again[1] in game.legal_actions(again[0]):
                seat, action = again  # the same ruling once more: rulings add up
            again = None
        elif out_of_turn and sample.random() < out_of_turn:
            seat = sample.choice([s for s in range(n) if s != game.to_act] + [REFEREE])
            offered = game.legal_actions(seat)
            if watcher is not None:
                watcher.out_of_turn(game, seat, offered)
            action = sample.choice(offered) if offered else None
            if seat == REFEREE and action is not None and sample.random() < 0.5:
                again = (seat, action)
        if action is None:
            seat = None
            action = policy(game, legal_or_fail(game), rng)
        before, game = game, game.apply(action, seat)
        if watcher is not None:
            watcher.after(before, action, game, seat)
        steps += 1
        if steps > max_actions:
            raise fail(game, "end", f"the match did not end within {max_actions} actions")
    check_state(game, checked_state)
    check_views(game)
    if replay(game.to_record(), rules_of(game)) != game:
        raise fail(game, "replay", "replaying the record does not give an equal state")
    return game


def play_random_match(
    rules: Rules,
    seed: int,
    *,
    max_actions: int = 20_000,
    check_every: int = 1,
    deep_every: int = 7,
) -> GameState:
    """Play a seeded match of uniformly random legal actions (see :func:`play_match`)."""
    return play_match(
        rules, seed, max_actions=max_actions, check_every=check_every, deep_every=deep_every
    )


def _to_hand_end(game: GameState, rng: random.Random) -> GameState:
    """Apply ``rng.choice(legal_actions())`` until the hand in progress is scored."""
    match = game.match
    while game.match is match and not game.is_over:
        game = game.apply(rng.choice(legal_or_fail(game)))
    return game


def check_playouts(rules: Rules, seed: int, *, states: int = 6, hands: int = 4) -> None:
    """Assert that the fast paths play exactly as the step API, and that states pickle.

    From ``states`` states sampled along a seeded random match, ``rollout(seed=k)`` must
    equal stepping with ``random.Random(k).choice(legal_actions())`` to the end of the
    hand, and a pickled state must load equal.  ``rules.simulate(hands, seed)`` must
    give the results of the same hands played and recorded action by action.
    """
    rng = random.Random(seed)
    game = rules.new_game(seed=seed)
    sampled: list[GameState] = []
    while not game.is_over and len(sampled) < states:
        if rng.random() < 0.08:
            sampled.append(game)
        game = game.apply(rng.choice(legal_or_fail(game)))
    picklable = rules._reload is not None
    for number, state in enumerate(sampled):
        k = seed * 1000 + number
        if state.rollout(seed=k) != _to_hand_end(state, random.Random(k)):
            raise fail(
                state, "playouts", f"rollout(seed={k}) differs from stepping with the same choices"
            )
        if picklable and pickle.loads(pickle.dumps(state)) != state:
            raise fail(state, "playouts", "a pickled state does not load equal")
    fast = list(rules.simulate(hands, seed=seed))
    stepped = list(rules.engine.playouts._simulate(hands, seed, None, 0, close=True))
    if fast != stepped:
        raise fail(
            rules.new_game(seed=seed),
            "playouts",
            f"simulate({hands}, seed={seed}) differs from the same hands played action by action",
        )
