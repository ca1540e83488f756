"""The plugin author's kit: rule-consistency checks, hypothesis strategies and a lint.

This layer owns the invariants (:mod:`~spadeskit.testing.invariants`), the hypothesis
strategies (:mod:`~spadeskit.testing.strategies`), the plugin lint
(:mod:`~spadeskit.testing.linting`) and the pytest plugin
(:mod:`~spadeskit.testing.pytest_plugin`).  It may import :mod:`spadeskit.core` and
:mod:`spadeskit.engine` only, so checking a rule set never depends on a bot.

One call checks a variant or house rule against the invariants every game of Spades
keeps and against the kit's own reading of the rules (the oracles)::

    import spadeskit
    from spadeskit.testing import check_rules

    report = check_rules(spadeskit.load_rules("standard", ["my-house-rule"]))

:func:`check_rules` lints the plugins (:func:`lint`), probes the documented option
ranges, plays seeded matches at random and with the kit's policies
(:mod:`~spadeskit.testing.policies`) checking every state and comparing every decision
and hand with the oracles (:mod:`~spadeskit.testing.oracles`), checks that rotating
the seats rotates the result (:func:`check_rotation`) and runs a hypothesis state
machine (:func:`rules_state_machine`) that shrinks any failure to a short action
sequence.

The invariants check the rules against themselves: cards are conserved; every trick
has one card per seat clockwise from its leader and the winner the rules' own ranking
gives; books match the tricks; legal actions are non-empty exactly until the match
ends; every legal action applies; an illegal one raises a
:class:`~spadeskit.SpadesError` and changes nothing; the match ends; replaying the
record gives an equal state; no view shows a card its seat may not know.  The oracles
compare play with references the plugins did not compute: legal plays and bids, the
first leader, trick winners, scores, bags, the match end and option ranges.

A broken invariant or oracle raises :class:`InvariantError`.  Its message names the rules, the
invariant, the hooks that could have broken it and the plugins implementing them
(a house rule is named as *the* culprit when the same check passes without it), and
carries the game's record up to the failure, which :func:`spadeskit.replay` rebuilds.

The strategies (:func:`rule_sets`, :func:`dealt_games`, :func:`action_sequences`,
:func:`reachable_states`, :func:`records`) and the state machine need ``hypothesis``
(``pip install 'spadeskit[test]'``, or ``pip install -e '.[test]'`` from a clone).  The
pytest plugin (:mod:`spadeskit.testing.pytest_plugin`) wraps all of this in fixtures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from spadeskit.core.errors import SpadesError, install_hint
from spadeskit.core.state import GameState
from spadeskit.engine.loader import load_rules
from spadeskit.engine.rules import Rules
from spadeskit.testing.declarations import ORACLES, Reading, reading, relies_on
from spadeskit.testing.examples import perft, run_examples
from spadeskit.testing.invariants import (
    InvariantError,
    check_inference,
    check_moves,
    check_playouts,
    check_state,
    check_views,
    play_match,
    play_random_match,
)
from spadeskit.testing.linting import LintProblem, lint
from spadeskit.testing.metamorphic import check_relabelling, check_rotation
from spadeskit.testing.oracles import Watcher
from spadeskit.testing.policies import POLICIES, Policy
from spadeskit.testing.ranges import check_end_on_paper, check_options, draw_options
from spadeskit.testing.strategies import (
    action_sequences,
    dealt_games,
    reachable_states,
    records,
    rule_sets,
    rules_state_machine,
)

if TYPE_CHECKING:
    pass

_T = TypeVar("_T")

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
    "check_relabelling",
    "check_playouts",
    "play_random_match",
    "play_match",
    "LEVELS",
    "ORACLES",
    "Reading",
    "Watcher",
    "reading",
    "relies_on",
    "check_options",
    "check_end_on_paper",
    "POLICIES",
    "Policy",
    "run_examples",
    "perft",
    "lint",
    "rule_sets",
    "dealt_games",
    "action_sequences",
    "reachable_states",
    "records",
    "rules_state_machine",
]


# ------------------------------------------------------------------------------------------
# The one call
# ------------------------------------------------------------------------------------------


LEVELS: dict[str, dict[str, int]] = {
    "quick": {
        "matches": 2,
        "policy_matches": 1,
        "hands": 8,
        "rotations": 1,
        "playouts": 1,
        "machine_examples": 0,
    },
    "default": {
        "matches": 6,
        "policy_matches": 2,
        "hands": 20,
        "rotations": 3,
        "playouts": 2,
        "machine_examples": 3,
    },
    "thorough": {
        "matches": 40,
        "policy_matches": 8,
        "hands": 40,
        "rotations": 10,
        "playouts": 6,
        "machine_examples": 100,
    },
}
"""How much :func:`check_rules` plays at each level (``level=``): ``quick`` for an
editing loop (about a CPU second), ``default`` for CI (under 10 CPU seconds per shipped
variant on an idle machine), ``thorough`` for a release.  ``hands`` is the longest match
a policy plays, in hands of one deck: a table of two decks (``six-handed``), whose hands
are twice as long, plays half as many."""


@attrs.frozen
class CheckReport:
    """What :func:`check_rules` did: matches, hands and actions checked, and how.

    ``str(report)`` says it in words: what was played, with which seeds, what was
    checked, and for each oracle what it compared play with (``oracles``, from
    :func:`~spadeskit.testing.declarations.relies_on`).
    """

    rules: str
    matches: int
    hands: int
    actions: int
    machine_examples: int
    seed: int = 0
    rotations: int = 0
    playouts: int = 0
    policy_matches: int = 0
    options_probed: int = 0
    oracles: Mapping[str, str] = attrs.field(factory=dict)
    examples: int = 0
    options_matches: int = 0

    def __str__(self) -> str:
        seeds = (
            f"seed {self.seed}"
            if self.matches == 1
            else (f"seeds {self.seed}-{self.seed + self.matches - 1}")
        )
        relied = "; ".join(f"{name}: {how}" for name, how in self.oracles.items())
        return (
            f"{self.rules}: no check failed.  Played {self.matches} matches of uniformly "
            f"random legal actions ({seeds}) and {self.policy_matches} with each of the "
            f"kit's policies ({', '.join(p for p in POLICIES if p != 'random')}) and "
            f"{self.options_matches} with option values drawn from their documented ranges, "
            f"asking for out-of-turn and referee actions now and then ({self.hands:,} hands, "
            f"{self.actions:,} actions), checking every state, view and record and "
            "comparing every decision and hand with the oracles; ran "
            f"{self.examples} pinned examples of the plugins' rules; probed "
            f"{self.options_probed} option values against their documented ranges; "
            f"{self.rotations} matches again with the seats rotated (every shift keeping the "
            "sides) and their first hands with two non-trump suits swapped; "
            f"{self.playouts} "
            "played by rollout and simulation against the step API; then "
            f"{self.machine_examples} hypothesis state-machine runs of random action "
            f"sequences (up to 120 steps each).  Oracles: {relied}."
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


def _run(rules: Rules, check: Callable[[Rules], _T]) -> _T:
    """Run ``check``; on an :class:`InvariantError`, name the house rule to blame."""
    try:
        return check(rules)
    except InvariantError as error:
        raise _blame(rules, error, check) from None


def _reloaded(rules: Rules, options: Mapping[str, object]) -> Rules:
    """Return ``rules`` with those of ``options`` it has (unchanged if they do not load)."""
    pm = rules.plugin_manager
    mine = {**rules.options, **{k: v for k, v in options.items() if k in rules.options}}
    try:
        return load_rules(
            pm.get_plugin(rules.variant), [pm.get_plugin(h) for h in rules.house_rules], mine
        )
    except SpadesError:
        return rules


def _options_fail(rules: Rules, oracle: str, what: str) -> InvariantError:
    return InvariantError(rules, oracle, what, rules.new_game(seed=0).to_record())


def check_rules(
    rules: Rules,
    *,
    level: str = "default",
    matches: int | None = None,
    seed: int = 0,
    rotations: int | None = None,
    playouts: int | None = None,
    machine_examples: int | None = None,
    policy_matches: int | None = None,
    max_actions: int = 20_000,
) -> CheckReport:
    """Check ``rules`` in one call; raise :class:`InvariantError` on the first failure.

    Lints every loaded plugin (a :class:`LintProblem` is raised as an
    :class:`InvariantError` of kind ``"lint"``); probes each documented option range
    (:func:`~spadeskit.testing.ranges.check_options`) and ties at the target on a
    score sheet; runs the plugins' pinned examples
    (:func:`~spadeskit.testing.examples.run_examples`); plays ``matches`` seeded
    random matches and ``policy_matches`` with each of the kit's policies
    (:mod:`~spadeskit.testing.policies`), checking every state against the
    invariants and every decision and hand against the oracles
    (:mod:`~spadeskit.testing.oracles`); checks ``rotations`` matches for seat
    rotation decision by decision (:func:`check_rotation`) and as many first hands
    for swapped non-trump suits (:func:`check_relabelling`), and ``playouts`` for
    rollouts, simulations and pickling equal to the step API (:func:`check_playouts`);
    and runs the hypothesis state machine for ``machine_examples`` examples (0 to
    skip).  ``level`` (``"quick"``, ``"default"`` or ``"thorough"``, see
    :data:`LEVELS`) sets the counts not given.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    counts = LEVELS[level]
    matches = counts["matches"] if matches is None else matches
    rotations = counts["rotations"] if rotations is None else rotations
    playouts = counts["playouts"] if playouts is None else playouts
    machine_examples = counts["machine_examples"] if machine_examples is None else machine_examples
    policy_matches = counts["policy_matches"] if policy_matches is None else policy_matches
    decks = -(-len(rules.table.deck) // 54)  # a deck of 52 and its two jokers at most
    max_hands = max(1, counts["hands"] // decks)
    problems = lint(rules)
    if problems:
        start = rules.new_game(seed=seed)
        raise InvariantError(rules, "lint", "; ".join(map(str, problems)), start.to_record())
    probed = _run(rules, lambda r: check_options(r, _options_fail))
    examples = run_examples(rules, _options_fail)
    _run(rules, lambda r: check_end_on_paper(r, _options_fail))
    hands = actions = options_matches = 0
    played: list[GameState] = []
    for number in range(matches):
        match_seed = seed + number
        played.append(
            _run(rules, lambda r: play_random_match(r, match_seed, max_actions=max_actions))
        )
    for name, policy in POLICIES.items():
        if name == "random":
            continue
        # Each policy's matches deep-check each kind of decision once between them.
        kinds: set[tuple[object, ...]] = set()
        for number in range(policy_matches):
            match_seed = seed + number

            def with_policy(
                r: Rules, s: int = match_seed, p: Policy = policy, k: set[Any] = kinds
            ) -> GameState:
                return play_match(
                    r,
                    s,
                    p,
                    max_actions=max_actions,
                    deep_every=0,
                    out_of_turn=0.02,
                    max_hands=max_hands,
                    kinds=k if r is rules else None,  # blame reruns check every kind
                )

            played.append(_run(rules, with_policy))
    # Option values from their documented ranges, by the nil policy (nils reach the
    # options about nil tricks); consecutive seeds go through every documented value.
    drawn_kinds: set[tuple[object, ...]] = set()
    for number in range(policy_matches + 1):
        drawn = draw_options(rules, seed + number)
        if drawn is None:
            break

        def with_options(r: Rules, s: int = seed + number, d: Rules = drawn) -> GameState:
            return play_match(
                _reloaded(r, d.options),
                s,
                POLICIES["nil"],
                max_actions=max_actions,
                deep_every=0,
                out_of_turn=0.02,
                max_hands=max_hands,
                kinds=drawn_kinds if r is rules else None,
            )

        played.append(_run(rules, with_options))
        options_matches += 1
    for game in played:
        hands += len(game.hand_results)
        actions += sum(len(log) for log in game.match.logs)
    for number in range(playouts):
        match_seed = seed + number
        _run(rules, lambda r: check_playouts(r, match_seed))
    for number in range(rotations):
        match_seed = seed + number
        _run(rules, lambda r: check_rotation(r, match_seed, max_actions=max_actions))
        _run(rules, lambda r: check_relabelling(r, match_seed))
    if machine_examples:
        try:
            from hypothesis import HealthCheck, Phase, settings
            from hypothesis.stateful import run_state_machine_as_test
        except ImportError as exc:
            raise ImportError(
                "check_rules runs a hypothesis state machine: install it with "
                f"{install_hint('testing')} (or pass machine_examples=0)"
            ) from exc

        run_state_machine_as_test(
            rules_state_machine(rules),
            settings=settings(
                max_examples=machine_examples,
                stateful_step_count=120,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                database=None,
                derandomize=True,  # the same examples on every run: a check that passed passes
                phases=(Phase.generate, Phase.shrink),
            ),
        )
    return CheckReport(
        rules.name,
        matches,
        hands,
        actions,
        machine_examples,
        seed,
        rotations,
        playouts,
        policy_matches,
        probed,
        relies_on(rules),
        examples,
        options_matches,
    )
