"""Hypothesis strategies for any rules, and the rules state machine (re-exported by
:mod:`spadeskit.testing`; they need ``hypothesis``: ``pip install 'spadeskit[test]'``, or
``pip install -e '.[test]'`` from a clone).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from spadeskit.core.actions import Action
from spadeskit.core.errors import SpadesError
from spadeskit.core.state import GameState
from spadeskit.engine.loader import available, load_rules
from spadeskit.engine.replay import replay
from spadeskit.engine.rules import Rules
from spadeskit.testing.invariants import (
    PROBES,
    check_inference,
    check_state,
    check_views,
    decision_kind,
    fail,
    legal_or_fail,
)

if TYPE_CHECKING:
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine


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
    :class:`~spadeskit.core.state.GameState` reached so far (set by its ``deal`` step, a new
    match from a drawn seed and dealer).  Its rules take a legal action
    (``take_a_legal_action``) and try an illegal one, which must be refused with the state
    unchanged (``refuse_an_illegal_action``); its invariant checks ``self.game`` after
    every step (the views and what a seat could infer, at the first decision of each
    kind and at the end).  Subclass it to add rules of your own that read and replace
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
            action = data.draw(st.sampled_from(legal_or_fail(self.game)), label="action")
            try:
                self.game = self.game.apply(action)
            except SpadesError as exc:
                raise fail(self.game, "legal", f"legal action {action} was refused: {exc}") from exc

        @precondition(lambda self: hasattr(self, "game"))
        @rule(action=st.sampled_from(PROBES), seat=st.integers(0, n - 1))
        def refuse_an_illegal_action(self, action: Action, seat: int) -> None:
            game = self.game
            if action in game.legal_actions(seat):
                return
            snapshot = (game.hand, game.match)
            try:
                game.apply(action, seat)
            except SpadesError:
                if (game.hand, game.match) != snapshot:
                    raise fail(game, "legal", f"refusing {action} changed the state") from None
                return
            raise fail(
                game, "legal", f"{action} by seat {seat} is not listed as legal but was accepted"
            )

        @invariant()
        def consistent(self) -> None:
            if hasattr(self, "game"):
                check_state(self.game, getattr(self, "checked", None))
                self.checked = self.game
                kind = decision_kind(self.game)
                if kind not in self.inferred:
                    # Views and what a seat could infer, once for each kind of decision
                    # (as play_match does): the JSON of every view is what costs here.
                    self.inferred.add(kind)
                    shown = check_views(self.game)
                    check_inference(self.game, random.Random(len(self.inferred)), shown)

        def teardown(self) -> None:
            if not hasattr(self, "game"):
                return
            check_views(self.game)
            if replay(self.game.to_record(), rules) != self.game:
                raise fail(self.game, "replay", "replaying the record does not give an equal state")

    SpadesMachine.__name__ = SpadesMachine.__qualname__ = f"SpadesMachine[{rules.name}]"
    return SpadesMachine
