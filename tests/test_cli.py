"""The command line: help on every option, none for optional options, suggestions, and
demo output that fits each variant."""

from __future__ import annotations

import pytest

from spadeskit.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_every_option_of_every_command_has_help_text(capsys: pytest.CaptureFixture[str]) -> None:
    for command, options in (
        ("demo", ("--seed", "--variant", "--house-rule", "--option", "--bots", "--record")),
        ("replay", ("FILE",)),
    ):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
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
