"""The plugin author's kit: rule-consistency checks, hypothesis strategies and a lint.

One call checks a variant or house rule against every invariant a game of Spades keeps::

    import spadeskit
    from spadeskit.testing import check_rules

    report = check_rules(spadeskit.load_rules("standard", ["my-house-rule"]))

:func:`check_rules` lints the plugins (:func:`lint`), plays seeded random matches
checking every state (:func:`play_random_match`), checks that rotating the seats
rotates the result (:func:`check_rotation`) and runs a hypothesis state machine
(:func:`rules_state_machine`) that shrinks any failure to a short action sequence.

The invariants: cards are conserved; every trick has one card per seat clockwise from
its leader and the right winner; books match the tricks; legal actions are non-empty
exactly until the match ends; every legal action applies; an illegal one raises a
:class:`~spadeskit.SpadesError` and changes nothing; a side's score is the sum of its
hands and a hand's points the sum of its score lines; the match ends; replaying the
record gives an equal state; no view shows a card its seat may not know.

A broken invariant raises :class:`InvariantError`.  Its message names the rules, the
invariant, the hooks that could have broken it and the plugins implementing them
(a house rule is named as *the* culprit when the same check passes without it), and
carries the game's record up to the failure, which :func:`spadeskit.replay` rebuilds.

The strategies (:func:`rule_sets`, :func:`dealt_games`, :func:`action_sequences`,
:func:`reachable_states`, :func:`records`) and the state machine need ``hypothesis``
(``pip install 'spadeskit[test]'``).  The pytest plugin (:mod:`spadeskit.pytest_plugin`)
wraps all of this in fixtures.
"""

from __future__ import annotations

import inspect
import json
import pickle
import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .actions import Accept, Action, Bid, Discard, Exchange, Nil, Pass, PickUp, Play
from .cards import card_at, iter_mask, mask_of
from .errors import Deadlock, SpadesError
from .loader import available, hook_argument_problem, load_rules, resolve
from .plugin import PluginInfo
from .replay import replay
from .rules import Rules
from .state import GameState, evolve

if TYPE_CHECKING:
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine

__all__ = [
    "InvariantError",
    "LintProblem",
    "CheckReport",
    "check_rules",
    "check_state",
    "check_views",
    "check_inference",
    "check_moves",
    "check_rotation",
    "check_playouts",
    "play_random_match",
    "lint",
    "rule_sets",
    "dealt_games",
    "action_sequences",
    "reachable_states",
    "records",
    "rules_state_machine",
]

_PROBES: tuple[Action, ...] = (
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
    "tricks": ("spadeskit_trick_strength", "spadeskit_card_rank", "spadeskit_after_trick"),
    "legal": (
        "spadeskit_play_filters",
        "spadeskit_auction_actions",
        "spadeskit_auction_next",
        "spadeskit_out_of_turn_actions",
        "spadeskit_apply_out_of_turn",
        "spadeskit_match_end",
    ),
    "scores": ("spadeskit_score_hand",),
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


def _fail(game: GameState, invariant: str, what: str) -> InvariantError:
    return InvariantError(game.rules, invariant, what, game.to_record())


def _legal_or_fail(game: GameState) -> tuple[Action, ...]:
    """Return the legal actions; a state where nobody can act fails the ``legal`` invariant."""
    try:
        return game.legal_actions()
    except Deadlock as exc:
        raise _fail(game, "legal", f"a reachable state offers no legal action: {exc}") from exc


def _decision_kind(game: GameState) -> tuple[Any, ...]:
    """Return what kind of decision is pending: the phase and the place in it (the n-th
    bid, the n-th card of a trick, the n-th exchange step)."""
    hand = game.hand
    return (hand.phase, len(hand.auction), len(hand.trick), len(hand.steps), game.to_act)


# ------------------------------------------------------------------------------------------
# Checks of one state
# ------------------------------------------------------------------------------------------


def check_state(game: GameState) -> None:
    """Assert the invariants of one state: cards, tricks, turns and scores."""
    rules, hand = game.rules, game.hand
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
        raise _fail(
            game, "cards", "cards are not conserved: every card must be in exactly one place"
        )
    n = rules.table.players
    trump = hand.contract.trump if hand.contract else "spades"
    for number, trick in enumerate(hand.tricks):
        seats = [s for s, _ in trick.plays]
        if len(seats) != n or seats != [(trick.leader + i) % n for i in range(n)]:
            raise _fail(
                game,
                "tricks",
                f"trick {number + 1} is not one card from each seat clockwise from its leader",
            )
        if trick.winner != rules.trick_winner(trick.plays, trump):
            raise _fail(game, "tricks", f"trick {number + 1} has the wrong winner")
    if sum(hand.books) != len(hand.tricks) or any(
        hand.books[s] != sum(t.winner == s for t in hand.tricks) for s in range(n)
    ):
        raise _fail(game, "tricks", "books do not match the trick winners")
    legal = _legal_or_fail(game)
    if game.is_over != (not legal) or game.is_over != (game.to_act is None):
        raise _fail(game, "legal", "legal actions must be non-empty exactly until the match ends")
    for side in range(len(rules.table.sides)):
        if game.scores[side] != sum(r.points[side] for r in game.hand_results):
            raise _fail(game, "scores", f"side {side}'s score is not the sum of its hands")
        for result in game.hand_results:
            if result.points[side] != sum(line.points for line in result.lines_for(side)):
                raise _fail(
                    game,
                    "scores",
                    f"hand {result.number + 1}: points are not the sum of the score lines",
                )


def _passed_with(game: GameState, viewer: int | None) -> int:
    """Return the mask of cards ``viewer`` passed or was passed in an exchange this hand."""
    steps = game.contract.steps if game.contract is not None else ()
    exchanges = [entry for entry in game.log if isinstance(entry[1], (Discard, Exchange))]
    known = 0
    for step, (who, action) in zip(steps, exchanges):
        if isinstance(action, Exchange) and viewer is not None and viewer in (who, step.to):
            known |= mask_of(action.cards)
    return known


def check_views(game: GameState) -> None:
    """Assert that no view (or its JSON) shows a card its seat may not know.

    A seat sees at most its own cards (a plugin may hide some of those too) and never
    another seat's, the blind's or the draw pile's unplayed cards, except the cards it
    passed to another seat or was passed in an exchange.
    """
    hand = game.hand
    n = game.rules.table.players
    hidden_everywhere = hand.blind | mask_of(card_at(c) for c in hand.pile)
    for viewer in list(range(n)) + [None]:
        view = game.view(viewer)
        own = hand.hands[viewer] if viewer is not None else 0
        if mask_of(view.cards) & ~own:
            raise _fail(
                game, "views", f"the view of seat {viewer} shows cards the seat does not hold"
            )
        text = json.dumps(view.to_json())
        secret = hidden_everywhere
        for seat in range(n):
            if seat != viewer:
                secret |= hand.hands[seat]
        secret &= ~own & ~_passed_with(game, viewer)
        for index in range(54):
            if secret >> index & 1 and json.dumps(card_at(index).code) in text:
                raise _fail(game, "views", f"the view of seat {viewer} leaks {card_at(index).code}")


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


def check_inference(game: GameState, rng: random.Random) -> None:
    """Assert that no seat can infer what it may not know from its view or its actions.

    For each seat, states that differ from ``game`` only in other seats' unplayed cards
    or in bids still sealed from that seat must give it the same view and the same
    legal actions; otherwise what it is shown or offered reveals them.
    """
    if game.is_over:
        return

    def shown_to(state: GameState, viewer: int) -> tuple[dict[str, Any], tuple[Action, ...]]:
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
                raise _fail(
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
            raise _fail(game, "legal", f"legal action {action} was refused: {exc}") from exc
    illegal = [a for a in _PROBES if a not in legal]
    for action in rng.sample(illegal, min(probes, len(illegal))):
        try:
            game.apply(action)
        except SpadesError:
            pass
        else:
            raise _fail(game, "legal", f"{action} is not listed as legal but was accepted")
        if (game.hand, game.match) != snapshot:
            raise _fail(game, "legal", f"refusing {action} changed the state")
    if game.to_act is not None:
        other = (game.to_act + 1) % game.rules.table.players
        for action in legal[:2]:
            if action not in game.legal_actions(other):
                try:
                    game.apply(action, other)
                except SpadesError:
                    continue
                raise _fail(game, "legal", f"{action} was accepted out of turn")


# ------------------------------------------------------------------------------------------
# Whole matches
# ------------------------------------------------------------------------------------------


def play_random_match(
    rules: Rules,
    seed: int,
    *,
    max_actions: int = 20_000,
    check_every: int = 1,
    deep_every: int = 7,
) -> GameState:
    """Play a seeded random match, checking invariants; return the final state.

    Every ``check_every`` steps the state invariants are checked.  The deep checks
    (views, what a seat could infer from its view and its legal actions, every legal
    and some illegal actions) run on the first decision of every kind in the match
    (each phase, each place in the auction, in a trick, in the exchanges, each seat to
    act) and on about one decision in ``deep_every`` after that, drawn at random, so
    every kind of decision is checked.  At the end, replaying the record must give an
    equal state.  The first failing state is reported, so the record in the error is
    the shortest prefix that fails.
    """
    rng = random.Random(seed)
    sample = random.Random(f"deep checks {seed}")  # its own stream: the match stays the same
    checked: set[tuple[Any, ...]] = set()
    game = rules.new_game(seed=seed)
    steps = 0
    while not game.is_over:
        if steps % check_every == 0:
            check_state(game)
        kind = _decision_kind(game)
        if kind not in checked or sample.random() * deep_every < 1:
            checked.add(kind)
            check_views(game)
            check_inference(game, rng)
            check_moves(game, rng)
        game = game.apply(rng.choice(_legal_or_fail(game)))
        steps += 1
        if steps > max_actions:
            raise _fail(game, "end", f"the match did not end within {max_actions} actions")
    check_state(game)
    check_views(game)
    if replay(game.to_record(), game.rules) != game:
        raise _fail(game, "replay", "replaying the record does not give an equal state")
    return game


def _to_hand_end(game: GameState, rng: random.Random) -> GameState:
    """Apply ``rng.choice(legal_actions())`` until the hand in progress is scored."""
    match = game.match
    while game.match is match and not game.is_over:
        game = game.apply(rng.choice(_legal_or_fail(game)))
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
        game = game.apply(rng.choice(_legal_or_fail(game)))
    picklable = rules._reload is not None
    for number, state in enumerate(sampled):
        k = seed * 1000 + number
        if state.rollout(seed=k) != _to_hand_end(state, random.Random(k)):
            raise _fail(
                state, "playouts", f"rollout(seed={k}) differs from stepping with the same choices"
            )
        if picklable and pickle.loads(pickle.dumps(state)) != state:
            raise _fail(state, "playouts", "a pickled state does not load equal")
    fast = list(rules.simulate(hands, seed=seed))
    stepped = list(rules.engine._simulate(hands, seed, None, 0, close=True))
    if fast != stepped:
        raise _fail(
            rules.new_game(seed=seed),
            "playouts",
            f"simulate({hands}, seed={seed}) differs from the same hands played action by action",
        )


def _rotation(rules: Rules) -> tuple[int, tuple[int, ...]] | None:
    """Return a seat shift and the side map it induces, or None if no shift keeps sides."""
    n, side_of = rules.table.players, rules.side_of
    for shift in range(1, n):
        mapping: dict[int, int] = {}
        if all(
            mapping.setdefault(side_of[s], side_of[(s + shift) % n]) == side_of[(s + shift) % n]
            for s in range(n)
        ):
            return shift, tuple(mapping[side] for side in range(len(rules.table.sides)))
    return None


def _rotate_action(action: Action, sides: Sequence[int]) -> Action:
    if "side" in attrs.fields_dict(type(action)):
        changes: dict[str, Any] = {"side": sides[getattr(action, "side")]}
        return attrs.evolve(action, **changes)
    return action


def check_rotation(rules: Rules, seed: int, *, max_actions: int = 20_000) -> None:
    """Assert that rotating the seats rotates the result.

    The same match is played twice: once with the first dealer at the last seat, once
    with every seat shifted (so every deal rotates with it), each action taken by the
    shifted seat.  Every hand must then give each side what the matching side got.
    """
    found = _rotation(rules)
    if found is None:
        return
    shift, sides = found
    n = rules.table.players
    rng = random.Random(seed)
    game = rules.new_game(seed=seed, dealer=n - 1)
    turned = rules.new_game(seed=seed, dealer=(n - 1 + shift) % n)
    steps = 0
    while not game.is_over:
        for seat in range(n):
            if game.cards(seat) != turned.cards((seat + shift) % n):
                raise _fail(
                    game, "rotation", f"seat {seat}'s cards differ once the seats are rotated"
                )
        actor = game.to_act
        assert actor is not None
        action = rng.choice(game.legal_actions())
        game = game.apply(action)
        try:
            turned = turned.apply(_rotate_action(action, sides), (actor + shift) % n)
        except SpadesError as exc:
            raise _fail(
                game, "rotation", f"{action} is refused once the seats are rotated: {exc}"
            ) from exc
        steps += 1
        if steps > max_actions:
            raise _fail(game, "end", f"the match did not end within {max_actions} actions")
    for mine, theirs in zip(game.hand_results, turned.hand_results):
        if tuple(mine.points) != tuple(theirs.points[sides[s]] for s in range(len(sides))):
            raise _fail(
                game,
                "rotation",
                f"hand {mine.number + 1} scores {mine.points}, but "
                f"{theirs.points} with the seats rotated",
            )
    if not turned.is_over or game.winner is None or turned.winner != sides[game.winner]:
        raise _fail(game, "rotation", "the match ends differently with the seats rotated")


# ------------------------------------------------------------------------------------------
# The one call
# ------------------------------------------------------------------------------------------


@attrs.frozen
class CheckReport:
    """What :func:`check_rules` did: matches, hands and actions checked."""

    rules: str
    matches: int
    hands: int
    actions: int
    machine_examples: int

    def __str__(self) -> str:
        return (
            f"{self.rules}: {self.matches} random matches ({self.hands} hands, {self.actions} "
            "actions) "
            f"and {self.machine_examples} state-machine runs kept every invariant"
        )


def _without(rules: Rules, name: str) -> Rules | None:
    """Return ``rules`` without house rule ``name``, or None if the rest cannot load."""
    pm = rules.plugin_manager
    keep = [pm.get_plugin(h) for h in rules.house_rules if h != name]
    dropped = {o.name for info in rules.plugins if info.name == name for o in info.options}
    options = {k: v for k, v in rules.options.items() if k not in dropped}
    try:
        return load_rules(pm.get_plugin(rules.variant), keep, options)
    except SpadesError:
        return None


def _blame(rules: Rules, error: InvariantError, check: Callable[[Rules], object]) -> InvariantError:
    """Find the house rule without which ``check`` passes, and name it in ``error``."""
    for name in reversed(rules.house_rules):
        reduced = _without(rules, name)
        if reduced is None:
            continue
        try:
            check(reduced)
        except InvariantError:
            continue
        return error.blamed(name)
    return error


def check_rules(
    rules: Rules,
    *,
    matches: int = 20,
    seed: int = 0,
    rotations: int = 3,
    playouts: int = 3,
    machine_examples: int = 20,
    max_actions: int = 20_000,
) -> CheckReport:
    """Check ``rules`` for consistency in one call; raise :class:`InvariantError` if broken.

    Lints every loaded plugin (a :class:`LintProblem` is raised as an
    :class:`InvariantError` of kind ``"lint"``), plays ``matches`` seeded random
    matches checking every state (a state where nobody can act fails), checks
    ``rotations`` matches for seat rotation and ``playouts`` for rollouts, simulations
    and pickling equal to the step API (:func:`check_playouts`), and runs the
    hypothesis state machine for ``machine_examples`` examples (0 to skip).
    """
    problems = lint(rules)
    if problems:
        start = rules.new_game(seed=seed)
        raise InvariantError(rules, "lint", "; ".join(map(str, problems)), start.to_record())
    hands = actions = 0
    for number in range(matches):
        match_seed = seed + number
        try:
            game = play_random_match(rules, match_seed, max_actions=max_actions)
        except InvariantError as error:
            raise _blame(
                rules, error, lambda r: play_random_match(r, match_seed, max_actions=max_actions)
            ) from None
        hands += len(game.hand_results)
        actions += sum(len(log) for log in game.match.logs)
    for number in range(playouts):
        match_seed = seed + number
        try:
            check_playouts(rules, match_seed)
        except InvariantError as error:
            raise _blame(rules, error, lambda r: check_playouts(r, match_seed)) from None
    for number in range(rotations):
        match_seed = seed + number
        try:
            check_rotation(rules, match_seed, max_actions=max_actions)
        except InvariantError as error:
            raise _blame(
                rules, error, lambda r: check_rotation(r, match_seed, max_actions=max_actions)
            ) from None
    if machine_examples:
        try:
            from hypothesis import HealthCheck, Phase, settings
            from hypothesis.stateful import run_state_machine_as_test
        except ImportError as exc:
            raise ImportError(
                "check_rules runs a hypothesis state machine: install it with "
                "pip install 'spadeskit[testing]' (or pass machine_examples=0)"
            ) from exc

        run_state_machine_as_test(
            rules_state_machine(rules),
            settings=settings(
                max_examples=machine_examples,
                stateful_step_count=120,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                database=None,
                phases=(Phase.generate, Phase.shrink),
            ),
        )
    return CheckReport(rules.name, matches, hands, actions, machine_examples)


# ------------------------------------------------------------------------------------------
# Lint
# ------------------------------------------------------------------------------------------


@attrs.frozen
class LintProblem:
    """One problem :func:`lint` found: the plugin, the hook (if any) and what is wrong."""

    plugin: str
    hook: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.plugin}" + (f" ({self.hook})" if self.hook else "")
        return f"{where}: {self.message}"


def _hookspecs() -> dict[str, inspect.Signature]:
    from . import hookspecs

    return {
        name: inspect.signature(fn)
        for name, fn in vars(hookspecs).items()
        if name.startswith("spadeskit_") and callable(fn)
    }


def _lint_plugin(plugin: object, info: PluginInfo) -> list[LintProblem]:
    problems: list[LintProblem] = []
    specs = _hookspecs()
    name = info.name
    for attr in dir(plugin):
        fn = getattr(plugin, attr, None)
        marked = getattr(fn, "spadeskit_impl", None)
        if not attr.startswith("spadeskit_") and marked is None:
            continue
        if not callable(fn) or inspect.isclass(fn):
            continue
        hook = marked.get("specname") or attr if isinstance(marked, dict) else attr
        if hook not in specs:
            problems.append(
                LintProblem(
                    name, hook, "no hook of this name exists (a typo?) so it is never called"
                )
            )
            continue
        if marked is None:
            problems.append(LintProblem(name, hook, "not marked @hookimpl, so pluggy ignores it"))
            continue
        problem = hook_argument_problem(fn, hook)
        if problem:
            problems.append(LintProblem(name, hook, problem))
    seen: set[str] = set()
    for option in info.options:
        if option.name in seen:
            problems.append(LintProblem(name, None, f"option {option.name!r} is declared twice"))
        seen.add(option.name)
        if not option.doc.strip():
            problems.append(LintProblem(name, None, f"option {option.name!r} has no docstring"))
        why = option.problem(option.default)
        if why:
            problems.append(
                LintProblem(
                    name,
                    None,
                    f"option {option.name!r} has a default its own "
                    f"validator refuses: {why}, not {option.default!r}",
                )
            )
    if not info.summary.strip():
        problems.append(LintProblem(name, None, "PLUGIN has no summary"))
    return problems


def _firstresult_clashes(rules: Rules) -> list[LintProblem]:
    problems = []
    orders = {info.name: info.order for info in rules.plugins}
    for hook in _hookspecs():
        caller = getattr(rules.hook, hook)
        if not caller.spec or not caller.spec.opts.get("firstresult"):
            continue
        answering: dict[tuple[bool, bool, int], list[str]] = {}
        for impl in caller.get_hookimpls():
            if impl.wrapper or impl.hookwrapper or impl.plugin_name == rules.variant:
                continue
            answering.setdefault(
                (impl.tryfirst, impl.trylast, orders[impl.plugin_name]), []
            ).append(impl.plugin_name)
        for names in answering.values():
            if len(names) > 1:
                problems.append(
                    LintProblem(
                        " and ".join(sorted(names)),
                        hook,
                        "both answer this first-result hook with the same order, so which "
                        "answer wins "
                        "depends on their names: give one a PluginInfo order, tryfirst or trylast",
                    )
                )
    return problems


def lint(target: Rules | object | str) -> list[LintProblem]:
    """Return the problems of a plugin, or of every plugin in a :class:`Rules`.

    Checks that every ``spadeskit_*`` function is a known hook marked ``@hookimpl``, asks
    only for arguments the hook offers, that every option has a docstring and a default
    its validator accepts, and (for rules) that no two house rules answer a first-result
    hook at the same order without ``tryfirst``/``trylast``.

    >>> lint("standard")
    []
    """
    if isinstance(target, Rules):
        pm = target.plugin_manager
        problems = [
            p for info in target.plugins for p in _lint_plugin(pm.get_plugin(info.name), info)
        ]
        return problems + _firstresult_clashes(target)
    plugin, info = resolve(target)
    return _lint_plugin(plugin, info)


# ------------------------------------------------------------------------------------------
# Hypothesis strategies and the state machine
# ------------------------------------------------------------------------------------------


def _option_values(rules: Rules) -> dict[str, list[Any]]:
    """Return a few valid values for each option of a rules object (defaults first)."""
    values: dict[str, list[Any]] = {}
    for info in rules.plugins:
        for option in info.options:
            default = option.default
            candidates = [default]
            if isinstance(default, bool):
                candidates.append(not default)
            elif isinstance(default, int):
                candidates += [default // 2, default * 2, default + 1, 0, 1]
            candidates += list(getattr(option.validator, "allowed", ()))
            values[option.name] = [
                c
                for i, c in enumerate(candidates)
                if c not in candidates[:i] and option.problem(c) is None
            ]
    return values


def rule_sets(
    variants: Sequence[str] | None = None, *, max_house_rules: int = 3
) -> st.SearchStrategy[Rules]:
    """Return a strategy for :class:`Rules`: a variant, compatible house rules, valid options.

    House rules are drawn among the installed ones that fit the variant, without
    conflicts; options are drawn among their defaults and nearby valid values.
    """
    from hypothesis import strategies as st

    plugins = available()
    names = (
        list(variants) if variants is not None else [p.name for p in plugins if p.kind == "variant"]
    )
    house = [p for p in plugins if p.kind == "house-rule"]

    @st.composite
    def build(draw: st.DrawFn) -> Rules:
        variant = draw(st.sampled_from(names))
        fitting = sorted(h.name for h in house if not h.fits or variant in h.fits)
        chosen = (
            draw(st.lists(st.sampled_from(fitting), unique=True, max_size=max_house_rules))
            if fitting
            else []
        )
        picked: list[str] = []
        for name in chosen:
            info = next(h for h in house if h.name == name)
            if not any(c in picked for c in info.conflicts) and not any(
                name in next(h for h in house if h.name == p).conflicts for p in picked
            ):
                picked.append(name)
        base = load_rules(variant, picked)
        options = {
            name: draw(st.sampled_from(values))
            for name, values in _option_values(base).items()
            if draw(st.booleans())
        }
        return load_rules(variant, picked, options)

    return build()


def dealt_games(rules: Rules) -> st.SearchStrategy[GameState]:
    """Return a strategy for new games under ``rules``: any seed, any first dealer."""
    from hypothesis import strategies as st

    return st.builds(
        lambda seed, dealer: rules.new_game(seed=seed, dealer=dealer),
        st.integers(0, 2**63 - 1),
        st.integers(0, rules.table.players - 1),
    )


def action_sequences(
    rules: Rules, *, max_actions: int = 200
) -> st.SearchStrategy[tuple[GameState, list[tuple[int, Action]]]]:
    """Return a strategy for ``(start, [(seat, action), ...])``: legal sequences from a new game."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw: st.DrawFn) -> tuple[GameState, list[tuple[int, Action]]]:
        start = game = draw(dealt_games(rules))
        steps: list[tuple[int, Action]] = []
        for _ in range(draw(st.integers(0, max_actions))):
            if game.is_over:
                break
            seat = game.to_act
            assert seat is not None
            action = draw(st.sampled_from(game.legal_actions()))
            game = game.apply(action)
            steps.append((seat, action))
        return start, steps

    return build()


def reachable_states(rules: Rules, *, max_actions: int = 200) -> st.SearchStrategy[GameState]:
    """Return a strategy for states reached by legal action sequences under ``rules``."""

    def play(pair: tuple[GameState, list[tuple[int, Action]]]) -> GameState:
        game = pair[0]
        for seat, action in pair[1]:
            game = game.apply(action, seat)
        return game

    return action_sequences(rules, max_actions=max_actions).map(play)


def records(rules: Rules, *, max_actions: int = 200) -> st.SearchStrategy[dict[str, Any]]:
    """Return a strategy for game records (:meth:`GameState.to_record`) of reachable states."""
    return reachable_states(rules, max_actions=max_actions).map(lambda game: game.to_record())


def rules_state_machine(rules: Rules) -> type[RuleBasedStateMachine]:
    """Return a hypothesis state machine that plays ``rules`` and checks every invariant.

    Run it with ``run_state_machine_as_test(machine)`` or expose ``machine.TestCase`` to
    pytest.  Hypothesis shrinks a failure to a short sequence of steps; the
    :class:`InvariantError` it reports carries that sequence's record.

    The machine keeps its state in one attribute, ``self.game``: the
    :class:`~spadeskit.state.GameState` reached so far (set by its ``deal`` step, a new
    match from a drawn seed and dealer).  Its rules take a legal action
    (``take_a_legal_action``) and try an illegal one, which must be refused with the state
    unchanged (``refuse_an_illegal_action``); its invariant checks ``self.game`` after
    every step.  Subclass it to add rules of your own that read and replace
    ``self.game``.
    """
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

    n = rules.table.players

    class SpadesMachine(RuleBasedStateMachine):
        game: GameState

        @initialize(seed=st.integers(0, 2**63 - 1), dealer=st.integers(0, n - 1))
        def deal(self, seed: int, dealer: int) -> None:
            self.game = rules.new_game(seed=seed, dealer=dealer)
            self.inferred: set[tuple[Any, ...]] = set()

        @precondition(lambda self: hasattr(self, "game") and not self.game.is_over)
        @rule(data=st.data())
        def take_a_legal_action(self, data: st.DataObject) -> None:
            action = data.draw(st.sampled_from(_legal_or_fail(self.game)), label="action")
            try:
                self.game = self.game.apply(action)
            except SpadesError as exc:
                raise _fail(
                    self.game, "legal", f"legal action {action} was refused: {exc}"
                ) from exc

        @precondition(lambda self: hasattr(self, "game"))
        @rule(action=st.sampled_from(_PROBES), seat=st.integers(0, n - 1))
        def refuse_an_illegal_action(self, action: Action, seat: int) -> None:
            game = self.game
            if action in game.legal_actions(seat):
                return
            snapshot = (game.hand, game.match)
            try:
                game.apply(action, seat)
            except SpadesError:
                if (game.hand, game.match) != snapshot:
                    raise _fail(game, "legal", f"refusing {action} changed the state") from None
                return
            raise _fail(
                game, "legal", f"{action} by seat {seat} is not listed as legal but was accepted"
            )

        @invariant()
        def consistent(self) -> None:
            if hasattr(self, "game"):
                check_state(self.game)
                check_views(self.game)
                kind = _decision_kind(self.game)
                if kind not in self.inferred:
                    self.inferred.add(kind)
                    check_inference(self.game, random.Random(len(self.inferred)))

        def teardown(self) -> None:
            if hasattr(self, "game") and replay(self.game.to_record(), rules) != self.game:
                raise _fail(
                    self.game, "replay", "replaying the record does not give an equal state"
                )

    SpadesMachine.__name__ = SpadesMachine.__qualname__ = f"SpadesMachine[{rules.name}]"
    return SpadesMachine
