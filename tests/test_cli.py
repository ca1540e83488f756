"""The command line: help on every option, none for optional options, suggestions, and
demo output that fits each variant."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

import spadeskit
from spadeskit.apps.cli import main
from spadeskit.arena import make_bot, play_match


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_every_option_of_every_command_has_help_text(capsys: pytest.CaptureFixture[str]) -> None:
    for command, options in (
        ("demo", ("--seed", "--variant", "--house-rule", "--option", "--bots", "--record")),
        ("replay", ("RECORD", "--tricks", "--seat", "--review", "--last", "--key ", "--key-file")),
    ):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out.split("\n\n", 1)[1]  # past the usage lines
        for option in options:
            line = next(line for line in text.splitlines() if line.strip().startswith(option))
            rest = line.strip()[len(option) :].strip()
            assert rest or text.split(line, 1)[1].splitlines()[0].strip(), (
                f"{command} {option} has no help"
            )


@pytest.mark.parametrize("none", ["None", "none", "null"])
def test_none_switches_off_an_optional_option(
    capsys: pytest.CaptureFixture[str], none: str
) -> None:
    status, out, err = run(capsys, "demo", "--option", f"floor={none}", "--option", "target=150")
    assert status == 0 and err == "" and "Match over: won by" in out


@pytest.mark.parametrize(
    "args, hint",
    [
        (("--variant", "standrd"), "did you mean 'standard'?"),
        (("--house-rule", "blind-nill"), "did you mean 'blind-nil'?"),
        (("--option", "targt=300"), "did you mean 'target'?"),
    ],
)
def test_a_misspelt_name_gets_a_suggestion(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], hint: str
) -> None:
    status, out, err = run(capsys, "demo", *args)
    assert status == 2 and hint in err and "Traceback" not in err


def test_three_suit_trump_demo_shows_pick_up_and_pass_and_no_bags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "demo", "--variant", "three-suit-trump", "--seed", "7")
    assert status == 0
    assert "None" not in out and "bags" not in out
    assert "pick up" in out and "game point" in out
    bids = [line for line in out.splitlines() if line.strip().startswith("bids:")]
    assert all(
        word in ("pick", "up,", "up", "-,", "-", "pass,", "pass")
        or word.endswith(",")
        or len(word) <= 2
        for line in bids
        for word in line.split()[1:]
    )


def test_the_end_line_names_the_winner_with_its_own_score(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "demo", "--seed", "3", "--option", "floor=-50", "--bots", "random")
    last = out.strip().splitlines()[-1]
    assert last.startswith("Match over: won by ")
    totals = out.strip().splitlines()[-3]  # the last row of the score sheet
    scores = [int(x) for x in totals.split("|")[1:]]
    winner = "N/S" if last.startswith("Match over: won by N/S") else "E/W"
    assert f"with {scores[0 if winner == 'N/S' else 1]}:" in last
    if "fell to" in last:
        loser = scores[1 if winner == "N/S" else 0]
        assert f"fell to {loser} (at or below -50)" in last


def test_standard_demo_shows_bags(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "--seed", "7")
    assert status == 0 and "(bags " in out and "None" not in out


def test_arena_prints_the_result_table_and_writes_json(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    import json
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "result.json"
    status, out, err = run(
        capsys,
        "arena",
        "--deals",
        "3",
        "--option",
        "target=150",
        "--json",
        str(path),
        "--challenger",
        "heuristic",
        "--baseline",
        "random",
        "--jobs",
        "2",
    )
    assert status == 0
    assert "challenger won" in out and "3 x 2 = 6 matches" in out
    assert "3/3 deals" in err  # the progress bar
    data = json.loads(path.read_text())
    assert data["matches"] == 6 and len(data["outcomes"]) == 6
    status, out, err = run(capsys, "arena", "--deals", "1", "--challenger", "wizard")
    assert status == 2 and "no bot named 'wizard'" in err


def test_demo_takes_a_bot_for_each_seat(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "demo",
        "--bot",
        "N=random",
        "--bot",
        "S=spadeskit.bots:RandomBot",
        "--option",
        "target=200",
    )
    assert status == 0 and "Match over" in out
    status, out, err = run(capsys, "demo", "--bot", "Q=random")
    assert status == 2 and "there is no seat 'Q'" in err


KEY = "the table's secret key"


def _signed_match(tmp_path: pathlib.Path) -> tuple[pathlib.Path, spadeskit.GameState]:
    rules = spadeskit.load_rules("standard", options={"target": 150})
    bots = [make_bot("simple", s, rules, random.Random(s)) for s in range(4)]
    game = play_match(rules, bots, seed=4)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(game.to_record(key=KEY)))
    return path, game


def test_replay_tricks_shows_each_deal_and_every_trick_on_a_line(
    capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path
) -> None:
    path, game = _signed_match(tmp_path)
    code, out, err = run(capsys, "replay", str(path), "--tricks", "--key", KEY)
    assert code == 0, err
    names = game.rules.table.seat_names
    hands = len(game.hand_results)
    assert out.count("  trick 13: ") == hands and out.count("Hand ") == hands
    first = game.match.logs[0]
    plays = [f"{names[s]} {a.card.symbol}" for s, a in first if isinstance(a, spadeskit.Play)]
    assert f"  trick  1: {', '.join(plays[:4])}; " in out
    # Every seat's dealt hand is shown, as the owner of the record may see everything.
    assert all(f"\n  {name}: " in out for name in names)
    assert "Match over:" in out


def test_replay_seat_shows_only_what_that_seat_saw(
    capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path
) -> None:
    path, game = _signed_match(tmp_path)
    code, out, err = run(capsys, "replay", str(path), "--seat", "E", "--key", KEY)
    assert code == 0, err
    assert out.count("  E holds ") == len(game.hand_results)
    assert "  N: " not in out and "  S holds" not in out and "E plays" in out
    start = spadeskit.replay(json.loads(path.read_text()), key=KEY)
    first_hand = [line for line in out.splitlines() if line.startswith("  E holds ")][0]
    dealt = spadeskit.load_rules("standard", options={"target": 150}).new_game(seed=4)
    assert all(c.code[:-1] in first_hand for c in dealt.cards(1))
    assert start == game


def test_replay_refuses_a_wrong_key_or_an_altered_record(
    capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path
) -> None:
    path, _ = _signed_match(tmp_path)
    key_file = tmp_path / "key"
    key_file.write_text("the table's secret key\n")
    assert run(capsys, "replay", str(path), "--tricks", "--key-file", str(key_file))[0] == 0
    code, _, err = run(capsys, "replay", str(path), "--key", "another key")
    assert code == 2 and "spadeskit:" in err and "Traceback" not in err
    record = json.loads(path.read_text())
    record["actions"][0][1] = {"type": "bid", "tricks": 13}
    path.write_text(json.dumps(record))
    code, _, err = run(capsys, "replay", str(path), "--seat", "N", "--key", KEY)
    assert code == 2 and "spadeskit:" in err


def test_simulate_prints_a_summary_and_a_histogram(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numpy")
    code, out, err = run(capsys, "simulate", "--hands", "3000", "--quiet", "--seed", "2")
    assert code == 0, err
    assert "standard: 3,000 hands, random play, seed 2 (batched:" in out
    assert "N/S " in out and "mean books" in out and "points of E/W (bins of 50):" in out
    rules = spadeskit.load_rules("standard")
    books = sum(int(b.books[:, 0].sum()) for b in rules.simulate_batch(3000, seed=2))
    [north] = [line for line in out.splitlines() if line.startswith("N  ")]
    assert north.endswith(f"{books / 3000:>11.2f}")
    code, out, err = run(capsys, "simulate", "--hands", "3000", "--policy", "greedy", "--quiet")
    assert code == 0 and "greedy play" in out


def test_simulate_plays_a_rule_set_it_cannot_batch_hand_by_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("numpy")
    code, out, err = run(capsys, "simulate", "--variant", "two-handed", "--hands", "300", "--quiet")
    assert code == 0, err
    assert "draw pile" in err and "hand by hand" in out
    code, _, err = run(
        capsys, "simulate", "--variant", "two-handed", "--policy", "greedy", "--hands", "10"
    )
    assert code == 2 and "only --policy random" in err
