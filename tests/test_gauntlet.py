"""The gauntlet: every bot against every other, its table, CSV, heat map and command."""

from __future__ import annotations

import csv
import io
import shlex
from pathlib import Path

import pytest

import spadeskit
from spadeskit.apps.cli import main
from spadeskit.apps.cliargs import bot_list
from spadeskit.arena import evaluate
from spadeskit.arena.strength import CSV_COLUMNS, Gauntlet, gauntlet

STANDARD = spadeskit.load_rules("standard", options={"target": 200})
BOTS = ("heuristic", "pointcount", "simple")


@pytest.fixture(scope="module")
def played() -> Gauntlet:
    return gauntlet(STANDARD, BOTS, deals=3, seed=4)


def test_two_sides_play_each_pair_once_and_read_it_both_ways(
    played: Gauntlet,
) -> None:
    assert len(played.evaluations) == 3  # pairs, not ordered pairs
    for a in BOTS:
        for b in BOTS:
            if a != b:
                assert played.share(a, b) + played.share(b, a) == pytest.approx(1.0)
    assert played.share("heuristic", "heuristic") == 0.5
    rows = played.rows()
    assert len(rows) == 6 and all(set(r) == set(CSV_COLUMNS) for r in rows)
    forward = next(r for r in rows if (r["challenger"], r["baseline"]) == BOTS[:2])
    back = next(r for r in rows if (r["challenger"], r["baseline"]) == BOTS[1::-1])
    assert forward["wins"] + back["wins"] == forward["matches"]
    assert (forward["deals_for"], forward["deals_against"]) == (
        back["deals_against"],
        back["deals_for"],
    )
    assert forward["challenger_ms"] == back["baseline_ms"]


def test_each_row_is_the_evaluation_its_command_runs(
    played: Gauntlet, capsys: pytest.CaptureFixture[str]
) -> None:
    row = played.rows()[0]
    words = shlex.split(row["command"])
    assert words[:2] == ["spadeskit", "arena"] and "--option" in words  # target=200
    alone = evaluate(STANDARD, row["challenger"], row["baseline"], deals=3, seed=4)
    assert alone.wins == row["wins"]
    assert main(words[1:] + ["--quiet"]) == 0
    assert f"challenger won         {row['wins']} " in capsys.readouterr().out


def test_players_alone_play_every_ordered_pair() -> None:
    rules = spadeskit.load_rules("cutthroat", options={"target": 150})
    result = gauntlet(rules, ["heuristic", "simple"], deals=1, seed=1)
    assert [(e.challenger, e.baseline) for e in result.evaluations] == [
        ("heuristic", "simple"),
        ("simple", "heuristic"),
    ]
    assert result.share("heuristic", "heuristic") == pytest.approx(1 / 3)


def test_csv_and_table_hold_every_row(played: Gauntlet, tmp_path: Path) -> None:
    path = tmp_path / "g.csv"
    played.write_csv(str(path))
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert [r["challenger"] for r in rows] == [r["challenger"] for r in played.rows()]
    assert tuple(rows[0]) == CSV_COLUMNS
    text = played.table()
    assert "heuristic v pointcount" in text and "95% CI" in text


def test_heat_map_is_a_png(played: Gauntlet, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "g.png"
    played.write_png(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_gauntlets_are_refused_before_any_match() -> None:
    with pytest.raises(spadeskit.SpadesError, match="no bot named"):
        gauntlet(STANDARD, ["heuristic", "nobody"], deals=1)
    with pytest.raises(spadeskit.SpadesError, match="two bots or more, each once"):
        gauntlet(STANDARD, ["heuristic", "heuristic"], deals=1)
    with pytest.raises(spadeskit.SpadesError, match="a list of bots"):
        gauntlet(STANDARD, "heuristic", deals=1)  # type: ignore[arg-type]
    with pytest.raises(spadeskit.SpadesError, match="deals is a whole number"):
        gauntlet(STANDARD, BOTS, deals=0)
    with pytest.raises(spadeskit.SpadesError, match="a bot is a name"):
        gauntlet(STANDARD, ["heuristic", 7], deals=1)
    with pytest.raises(spadeskit.SpadesError, match="rules from spadeskit.load_rules"):
        gauntlet("standard", BOTS, deals=1)  # type: ignore[arg-type]


def test_command_line_gauntlet_writes_csv_and_heat_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    csv_path, png_path = tmp_path / "t.csv", tmp_path / "t.png"
    argv = ["arena", "--gauntlet", "--bots", "heuristic,simple", "--deals", "1"]
    argv += ["--option", "target=150", "--csv", str(csv_path), "--png", str(png_path)]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "heuristic v simple" in out and "matches" in err  # the progress bar
    assert csv_path.exists() and png_path.exists()


def test_bot_lists_split_at_commas_outside_settings() -> None:
    assert bot_list("heuristic,pimc[iterations=3,veto=0]") == [
        "heuristic",
        "pimc[iterations=3,veto=0]",
    ]
    with pytest.raises(Exception, match="empty bot"):
        bot_list("heuristic,,simple")
