"""The scripts of the package: the long differential run and the speed
figures, run small (what they print, never how fast)."""

from __future__ import annotations

import pytest

from loveletter.fast import differential, speed


def test_the_differential_script_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    status = differential.main(["--ruleset", "premium", "--players", "5", "--games", "12"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("premium: 12 games, ") and out.rstrip().endswith("no mismatch")


def test_the_differential_script_runs_every_table_of_an_edition(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert differential.main(["--ruleset", "online", "--games", "18", "--max-rounds", "2"]) == 0
    assert "online: 18 games, 36 rounds" in capsys.readouterr().out


def test_the_speed_script_prints_rounds_and_turns_per_second(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert speed.main(["--rounds", "3000", "--repeats", "1", "2019-classic:2"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("2019-classic 2:") and line.endswith("turns/s")
    assert "rounds/s" in line
