"""The ``loveletter`` command line, driven through ``main(argv)``."""

from __future__ import annotations

import io
import json
import re

import pytest

import loveletter as ll
from loveletter.cli import DEMO_SECTIONS, HumanPlayer, ProgressBar, main
from loveletter.commands import StartRound
from loveletter.simulation import random_bots, simulate

Capture = pytest.CaptureFixture[str]


def test_rulesets(capsys: Capture) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["name", "title", "players", "cards"]
    assert re.match(r"2019\s+Love Letter \(Z-Man Games, 2019\)\s+2-6\s+21", out[1])
    assert re.match(r"2019-classic\s+.*Classic Version\s+2-4\s+16", out[2])


def test_simulate_prints_a_table(capsys: Capture) -> None:
    assert main(["simulate", "--ruleset", "2019", "--players", "4", "--games", "10"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar when stderr is not a terminal
    out = captured.out
    report = simulate("2019", 4, 10, seed=0)
    assert re.search(r"^games\s+10$", out, re.MULTILINE)
    assert re.search(rf"^rounds\s+{report.rounds}\s+[\d.]+ per game$", out, re.MULTILINE)
    assert re.search(rf"^turns\s+{report.turns}\s+[\d.]+ per round$", out, re.MULTILINE)
    for seat in range(4):
        assert re.search(rf"^Player {seat + 1}\s+{report.game_wins[seat]} \(", out, re.MULTILINE)
    assert "deck empty" in out and "one player left" in out
    for reason in ("guard guess", "baron comparison", "princess discarded"):
        assert reason in out


def test_simulate_json_is_one_object_equal_to_the_report(capsys: Capture) -> None:
    assert main(["simulate", "--games", "6", "--seed", "3", "--players", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == simulate("2019", 3, 6, seed=3).to_data()
    assert data["games"] == 6 and data["rounds"] >= 6
    assert sum(data["game_wins"]) >= 6


def test_simulate_progress_goes_to_stderr_only(capsys: Capture) -> None:
    argv = ["simulate", "--games", "4", "--json", "--progress", "always"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 4  # stdout untouched by the bar
    assert captured.err.endswith("] 4/4\n")
    assert "[" + "#" * 30 + "] 4/4" in captured.err


def test_progress_bar_draws_in_place() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, width=10, interval=0)
    bar(5, 10)
    bar(10, 10)
    assert stream.getvalue() == "\r[#####     ] 5/10\r[##########] 10/10\n"


def test_demo_tells_a_game_and_ends_with_the_winners(capsys: Capture) -> None:
    assert main(["demo", "--ruleset", "2019", "--players", "4", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    # the demo ends by running the conformance suite against the engine
    assert re.fullmatch(r"\d{3,} passed, 0 failed, 0 skipped", lines[-1])
    lines = lines[: lines.index("Conformance suite, against this engine:") - 1]
    assert lines[0].startswith("A game of Love Letter (Z-Man Games, 2019) begins with 4 players")
    assert "Round 1 begins. Player 1 starts." in lines
    assert re.fullmatch(r"Winners?: Player \d(, Player \d)*\.", lines[-1])
    assert lines[-2].startswith("Final favor tokens: Player 1 ")
    assert any("wins the game" in line or "win the game" in line for line in lines)
    assert main(["demo", "--seed", "7"]) == 0
    assert capsys.readouterr().out == out  # the defaults are those of `make demo`


def test_demo_sections_are_extensible(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "loveletter.cli.DEMO_SECTIONS",
        [*DEMO_SECTIONS, lambda args, rules: print(f"extra for {rules.name}")],
    )
    assert main(["demo", "--players", "2", "--seed", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "extra for 2019"


def _play(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, script: str, *argv: str
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    status = main(["play", *argv])
    return status, capsys.readouterr().out


def test_play_a_whole_game_choosing_option_one(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = _play(capsys, monkeypatch, "1\n" * 2000, "--seed", "5")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "You are Player 1. Choose each move by its number."
    assert "Your choice (1-" in out
    assert "   1. Play the " in out
    assert re.search(r"wins? the game", out)
    assert lines[-1].endswith("(Seed 5: play this deal again with --seed 5.)")
    assert lines[-1].startswith(("You win!", "You lose."))
    # Only what Player 1 may know: other players' draws and deals stay hidden.
    assert not re.search(r"Player [23] draws the (?!last card)", out)
    assert not re.search(r"dealt to each player: .*Player [23] the ", out)
    assert "(Seed 5.)" not in out  # the seed is told only once the game is over


def test_play_as_another_seat_in_a_two_player_game(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("--seed", "2", "--players", "2", "--seat", "1", "--ruleset", "2019-classic")
    status, out = _play(capsys, monkeypatch, "1\n" * 2000, *argv)
    assert status == 0
    assert out.startswith("You are Player 2.")
    assert "your move, Player 2" in out
    assert "Face up, out of play:" in out
    assert not re.search(r"Player 1 draws the (?!last card)", out)


def test_play_stops_cleanly_at_end_of_input(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = _play(capsys, monkeypatch, "", "--seed", "1")
    assert status == 0
    assert out.splitlines()[-1] == "Game abandoned."


def test_play_asks_again_after_bad_input_and_quits_on_q(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = _play(capsys, monkeypatch, "x\n999\n0\nq\n", "--seed", "1")
    assert status == 0
    assert out.count("Please enter 1 to ") == 3
    assert out.splitlines()[-1] == "Game abandoned."


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--ruleset", "1999"], "unknown ruleset '1999'"),
        (["simulate", "--players", "7"], "2019 is for 2-6 players, not 7"),
        (["demo", "--ruleset", "2019-classic", "--players", "5"], "2-4 players, not 5"),
        (["play", "--players", "1"], "2019 is for 2-6 players, not 1"),
        (["play", "--players", "3", "--seat", "3"], "--seat must be from 0 to 2, not 3"),
        (["simulate", "--games", "0"], "--games must be at least 1"),
        (["simulate", "--seed", "-1"], "--seed must not be negative"),
    ],
)
def test_errors_are_one_line_with_status_2(capsys: Capture, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(f"loveletter {argv[0]}: error: ")
    assert message in captured.err


def test_usage_errors_return_instead_of_exiting(capsys: Capture) -> None:
    assert main([]) == 2
    assert main(["simulate", "--games", "many"]) == 2
    assert main(["fly"]) == 2
    assert "usage: loveletter" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "simulate" in capsys.readouterr().out


def test_the_human_is_told_what_they_have_seen() -> None:
    """Sightings (Priest, Baron, King) are part of a player's view."""
    state = ll.new_game("2019", 3, seed=1)
    bots = random_bots(3, 1)
    while not any(ll.view(state, seat).sightings for seat in range(3)):
        actor = state.to_act
        command = bots[actor].choose(ll.view(state, actor)) if actor is not None else StartRound()
        state = ll.push(state, command)
    seat = next(seat for seat in range(3) if ll.view(state, seat).sightings)
    out = io.StringIO()
    HumanPlayer([f"Player {n}" for n in (1, 2, 3)], io.StringIO(), out).show(ll.view(state, seat))
    seen = ll.view(state, seat).sightings[0]
    assert f"Seen on turn {seen.turn} " in out.getvalue()
    assert f"{seen.card}" in out.getvalue()
