"""Play random complete hands and print hands per second (not a test; run by hand).

Each hand is dealt from a seed and played to its end through ``legal_actions()`` and
``apply()`` with uniformly random choices, the way a simulation drives the library.
If OpenSpiel is installed (``pip install '.[bench]'``), its ``spades`` game is driven the
same way from Python in the same run (random legal actions, the deal included as its
chance moves), and the ratio is printed.

    python benchmarks/bench_random_hands.py [--seconds 5] [--variant standard] [--house jokers,no-bags]
"""

from __future__ import annotations

import argparse
import random
import time

import spadeskit


def spadeskit_hands(variant: str, seconds: float, house: tuple[str, ...] = ()) -> float:
    """Return random hands per second for ``variant``, each hand started with new_game."""
    rules = spadeskit.load_rules(variant, house)
    rng = random.Random(0)
    choice = rng.choice
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = rules.new_game(seed=hands)
        number = game.hand.number
        while game.hand.number == number and not game.is_over:
            game = game.apply(choice(game.legal_actions()))
        hands += 1
    return hands / (time.perf_counter() - start)


def openspiel_hands(seconds: float) -> float | None:
    """Return random hands per second of OpenSpiel's ``spades``, or None if not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(0)
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        hands += 1
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--house", default="", help="house rules, comma-separated")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel run")
    args = parser.parse_args()
    house = tuple(h for h in args.house.split(",") if h)
    ours = spadeskit_hands(args.variant, args.seconds, house)
    print(f"spadeskit {' + '.join((args.variant,) + house)}: {ours:,.0f} random hands/s")
    if args.no_openspiel:
        return
    theirs = openspiel_hands(args.seconds)
    if theirs is None:
        print("open_spiel not installed: pip install '.[bench]' to compare")
    else:
        print(f"OpenSpiel spades (Python-driven): {theirs:,.0f} random hands/s")
        print(f"ratio spadeskit / OpenSpiel: {ours / theirs:.2f}x")


if __name__ == "__main__":
    main()
