"""The ``loveletter`` command line, driven through ``main(argv)``."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, cast

import pytest

import loveletter as ll
from loveletter import cli
from loveletter.cli import DEMO_SECTIONS, ProgressBar, main
from loveletter.commands import StartRound
from loveletter.interactive import HumanPlayer
from loveletter.simulation import random_bots, simulate

Capture = pytest.CaptureFixture[str]


def test_rulesets(capsys: Capture) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["name", "title", "players", "cards"]
    assert re.match(r"2019\s+Love Letter \(Z-Man Games, 2019\)\s+2-6\s+21", out[1])
    assert re.match(r"2019-classic\s+.*Classic Version\s+2-4\s+16", out[2])
    assert re.match(
        r"premium\s+Love Letter Premium Edition \(AEG, 2016\)\s+2-8\s+16/32\s+premium-2016",
        out[3],
    )


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
        assert re.search(rf"^Player {seat}\s+{report.game_wins[seat]} \(", out, re.MULTILINE)
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
    assert "Round 1 begins. Player 0 starts." in lines
    assert re.fullmatch(r"Winners?: Player \d(, Player \d)*\.", lines[-1])
    assert lines[-2].startswith("Final favor tokens: Player 0 ")
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


class _Script:
    """``play``'s input: the script's lines in turn, except that a move
    that knocks the player out, asked again ("Really ...? (y/N)"), is made
    (``y``) without taking a line, as a script of "1"s means it."""

    def __init__(self, script: str, out: io.StringIO) -> None:
        self.lines = io.StringIO(script)
        self.out = out

    def readline(self, size: int = -1) -> str:
        if self.out.getvalue().endswith("(y/N): "):
            return "y\n"
        return self.lines.readline(size)

    def isatty(self) -> bool:
        return False


def _play(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, script: str, *argv: str
) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stdin", _Script(script, out))
    status = main(["play", *argv])
    return status, out.getvalue()


def test_play_a_whole_game_choosing_option_one(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = _play(capsys, monkeypatch, "1\n" * 2000, "--seed", "5")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("You are Player 0 (P0 in the move notation; seats are numbered")
    assert "Your choice (1-" in out
    assert "Which card will you play?\n   1. " in out
    assert "Press Enter to deal round 2 (? for help, q to quit): 1" in lines
    assert re.search(r"wins? the game", out)
    assert lines[-1].endswith("(Seed 5: play this deal again with --seed 5.)")
    assert lines[-1].startswith(("You win!", "You lose."))
    # Only what Player 0 may know: other players' draws and deals stay hidden.
    assert not re.search(r"Player [12] draws the (?!last card)", out)
    assert not re.search(r"dealt to each player: .*Player [12] the ", out)
    assert "(Seed 5.)" not in out  # the seed is told only once the game is over


def test_play_as_another_seat_in_a_two_player_game(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("--seed", "2", "--players", "2", "--seat", "1", "--ruleset", "2019-classic")
    status, out = _play(capsys, monkeypatch, "1\n" * 2000, *argv)
    assert status == 0
    assert out.startswith("You are Player 1 (P1 in the move notation;")
    assert "your move, Player 1 ---" in out
    assert "  Player 1 (you)  " in out
    assert "Face up, out of play:" in out
    assert not re.search(r"Player 0 draws the (?!last card)", out)


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


def test_play_from_a_script_saves_its_record_and_helps(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    script = "? 5\nP9 Guard\n" + "1\n" * 2000
    status, out = _play(capsys, monkeypatch, script, "--seed", "5", "--save", str(path))
    assert status == 0
    assert "Your choice (1-2, ? for help, q to quit): ? 5\n\nPrince (5): 2 in the deck\n" in out
    assert "P9 Guard: not allowed now, you are P0, not P9." in out
    record = ll.load_record(path)
    outcome = record.outcome()
    assert outcome is not None and record.seed == 5
    lines = out.splitlines()
    assert lines[-1] == f"The game is saved in {path} (loveletter replay {path})."
    assert lines[-2].startswith("You win!" if 0 in outcome.winners else "You lose.")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--ruleset", "1999"], "unknown ruleset '1999'"),
        (["simulate", "--players", "7"], "2019 is for 2-6 players, not 7"),
        (["demo", "--ruleset", "2019-classic", "--players", "5"], "2-4 players, not 5"),
        (["play", "--players", "1"], "2019 is for 2-6 players, not 1"),
        (["play", "--players", "3", "--seat", "3"], "--seat must be from 0 to 2, not 3"),
        (["play", "--seat", "-1"], "--seat must be from 0 to 2, not -1"),
        (["play", "--seed", str(2**256)], "--seed must be below 2**256"),
        (["play", "--save", "no/such/folder/game.json"], "--save: there is no folder no/such"),
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
    HumanPlayer([f"Player {n}" for n in (0, 1, 2)], io.StringIO(), out).show(ll.view(state, seat))
    seen = ll.view(state, seat).sightings[0]
    assert f"Seen on turn {seen.turn} " in out.getvalue()
    assert f"{seen.card}" in out.getvalue()


# --------------------------------------------------------------------------
# Premium


@pytest.mark.parametrize("players", range(2, 9))
def test_premium_demo_tells_a_whole_game(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    # the game only: the conformance section is the same for every ruleset
    monkeypatch.setattr("loveletter.cli.DEMO_SECTIONS", [cli._demo_game])
    argv = ["demo", "--ruleset", "premium", "--players", str(players), "--seed", "3"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(
        f"A game of Love Letter Premium Edition (AEG, 2016) begins with {players} players"
    )
    tokens = {2: 7, 3: 5}.get(players, 4)
    assert f"The first to {tokens} Tokens of Affection wins." in lines[0]
    assert re.fullmatch(r"Winners?: Player \d(, Player \d)*\.", lines[-1])
    assert any(re.search(r"wins?( the tie-break and)? the game", line) for line in lines)
    text = "\n".join(lines)
    assert "DowagerQueen" not in text
    assert not any(line.startswith("(") for line in lines)  # every event has its sentence
    assert (
        main(["demo", "--ruleset", "premium-2016", "--players", str(players), "--seed", "3"]) == 0
    )
    assert capsys.readouterr().out.splitlines() == lines  # the alias is the same edition


@pytest.mark.parametrize("players", range(2, 9))
def test_premium_simulate(capsys: Capture, players: int) -> None:
    argv = ["simulate", "--ruleset", "premium", "--players", str(players), "--games", "8"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    report = simulate("premium", players, 8, seed=0)
    assert out.startswith(f"Love Letter Premium Edition (AEG, 2016): {players} players")
    assert re.search(r"^games\s+8$", out, re.MULTILINE)
    assert re.search(rf"^rounds\s+{report.rounds}\s", out, re.MULTILINE)
    assert re.search(rf"^tied games\s+{report.tied_games}\s", out, re.MULTILINE)
    assert re.search(rf"^mid-round wins\s+{report.mid_round_wins}\s", out, re.MULTILINE)
    assert "shared wins" not in out  # Premium breaks ties with a round
    full_deck = players >= 5
    for column in ("bishop tokens", "constable tokens", "jester tokens"):
        assert (column in out) is full_deck
    for reason in ("assassin", "dowager comparison"):
        assert (reason in out) is full_deck
    assert "spy tokens" not in out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == report.to_data()
    assert data["bonus_tokens"]["spy"] == [0] * players


def test_simulate_2019_keeps_its_columns(capsys: Capture) -> None:
    assert main(["simulate", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "spy tokens" in out and "shared wins" in out
    assert "bishop tokens" not in out and "tied games" not in out and "assassin" not in out
    assert not re.search(r"^\s+left\s", out, re.MULTILINE)  # only online players leave


PARTIAL = ("bishop", "constable", "jester")


@pytest.mark.parametrize(("players", "decks"), [(3, 1), (4, 3), (5, 2), (8, 1)])
def test_simulate_online_prints_the_scoreboard(capsys: Capture, players: int, decks: int) -> None:
    argv = ["simulate", "--ruleset", "online", "--players", str(players)]
    argv += ["--decks", str(decks), "--rounds", "4", "--games", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    report = simulate("online", players, 3, seed=0, rounds=4, decks=decks)
    plural = "deck" if decks == 1 else "decks"
    assert out.startswith(
        f"Love Letter online, perpetual variant (ranks and win counters): "
        f"{players} players, {decks} {plural}, random bots, seed 0\n"
    )
    assert re.search(r"^matches\s+3\s+4 rounds each$", out, re.MULTILINE)
    assert re.search(r"^rounds\s+12$", out, re.MULTILINE)
    header = r"\s+".join(["seat", *(f"rank {rank}" for rank in range(1, players + 1))])
    assert re.search(rf"^{header}$", out, re.MULTILINE)
    for seat in range(players):
        shares = [f"{100 * n / 12:.1f}%" for n in report.ranks[seat]]
        assert re.search(rf"^Player {seat}\s+" + r"\s+".join(shares) + "$", out, re.MULTILINE)
        counter = report.win_counters[seat]
        partial = [str(report.bonus_tokens[ll.TokenReason(r)][seat]) for r in PARTIAL]
        cells = [str(counter), f"{counter / 3:.2f}", str(report.round_wins[seat]), *partial]
        assert re.search(rf"^Player {seat}\s+" + r"\s+".join(cells) + "$", out, re.MULTILINE)
    assert re.search(
        r"^seat\s+win counter\s+per match\s+rank 1\s+bishop\s+constable\s+jester$",
        out,
        re.MULTILINE,
    )
    assert "deck empty" in out and "one player left" in out
    assert re.search(r"^  left\s+0\s+0\.00$", out, re.MULTILINE)
    assert ("assassin" in out) is (players >= 5)
    assert "game wins" not in out and "favor" not in out and "shared wins" not in out
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == report.to_data()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ruleset", "online"], "online matches never end by themselves: give --rounds N"),
        (["--ruleset", "online", "--players", "2", "--rounds", "3"], "3-8 players, not 2"),
        (["--ruleset", "online", "--rounds", "0"], "--rounds must be at least 1, not 0"),
        (["--ruleset", "online", "--rounds", "3", "--decks", "4"], "--decks must be from 1 to 3"),
        (["--ruleset", "online", "--rounds", "3", "--decks", "0"], "--decks must be from 1 to 3"),
        (["--rounds", "5"], "--rounds is for online matches: 2019 games end by themselves"),
        (["--ruleset", "premium", "--decks", "1"], "--decks is for online matches"),
    ],
)
def test_simulate_refuses_rounds_and_decks_where_they_do_not_apply(
    capsys: Capture, argv: list[str], message: str
) -> None:
    assert main(["simulate", *argv, "--games", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith("loveletter simulate: error: ") and message in captured.err


def _first_prompt(out: str) -> str:
    """The transcript up to the first narrated move after the first prompt."""
    start = out.index("Your choice")
    return out[: out.index(" plays the ", start)]


@pytest.mark.parametrize("players", [2, 5, 8])
def test_play_premium_to_the_end(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    argv = ("--ruleset", "premium", "--players", str(players), "--seed", "3")
    status, out = _play(capsys, monkeypatch, "1\n" * 5000, *argv)
    assert status == 0
    assert out.splitlines()[-1].startswith(("You win!", "You lose."))
    assert "Game abandoned." not in out
    assert "Your hand: " in out and "DowagerQueen" not in out
    # Only what Player 0 may know.
    assert not re.search(r"Player [1-7] draws the (?!last card)", out)
    assert not re.search(r"Player [1-7] looks at .* and sees", out)


def test_play_premium_asks_the_bishops_target_out_of_turn(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 68, 5 players: a bot's Bishop names Player 0's number in round 5;
    Player 0 (the human, answering "1" to everything) is asked whether to
    redraw during that bot's turn, and later takes a Cardinal's look."""
    argv = ("--ruleset", "premium", "--players", "5", "--seed", "68")
    status, out = _play(capsys, monkeypatch, "1\n" * 5000, *argv)
    assert status == 0
    lines = out.splitlines()
    asked = next(i for i, line in enumerate(lines) if "Bishop named your number" in line)
    bishop = re.fullmatch(
        r"--- Round \d+, turn \d+: Player (\d)'s Bishop named your number, Player 0 ---",
        lines[asked],
    )
    assert bishop and bishop.group(1) != "0"  # not the human's turn
    before = lines[asked - 4 : asked]
    assert re.fullmatch(
        rf"Player {bishop.group(1)} plays the Bishop on Player 0,"
        r" naming \d \([\w ]+\) — right number!",
        before[0],
    )
    assert before[2] == "Player 0 may discard their card and draw a new one, or keep it."
    menu = lines[asked : asked + 25]
    assert "Redraw, or keep your card?" in menu
    assert re.sub(r"\s+", " ", "\n".join(menu)).count(
        " 1. Discard your card and draw a new one P0 redraw 2. Keep your card P0 decline "
    )
    answered = lines.index("Your choice (1-2, ? for help, q to quit): 1", asked)
    assert lines[answered + 1].startswith("Player 0 discards the ")
    assert re.fullmatch(
        r"Player 0 (draws the \w+( \w+)?|takes the set-aside card, .*)\.", lines[answered + 2]
    )
    look = next(i for i, line in enumerate(lines) if "your Cardinal's look" in line)
    menu = lines[look : look + 25]
    assert any(
        re.fullmatch(r"   \d\. Look at (your own|Player \d's) hand +P0 look at P\d", m)
        for m in menu
    )
    assert any(re.fullmatch(r"   3\. Look at neither hand +P0 decline", m) for m in menu)
    assert any("you may look at one of them." in m for m in menu)
    assert out.splitlines()[-1].startswith(("You win!", "You lose."))


def test_play_premium_asks_each_choice_as_a_short_menu(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight players: a Guard (63 commands) is asked as card, then player,
    then number, each a short menu; "b" goes back one question."""
    argv = ("--ruleset", "premium", "--players", "8", "--seed", "3")
    status, out = _play(capsys, monkeypatch, "1\nb\n1\n3\n5\nq\n", *argv)
    assert status == 0
    first = _first_prompt(out)
    assert first.count("Which card will you play?\n   1. Guard (1)\n   2. Sycophant (4)\n") == 2
    assert first.count("Whom does the Guard choose?\n   1. Player 1\n") == 2  # again after "b"
    assert "   7. Player 7\nYour choice (1-7, b to go back, ? for help, q to quit): b" in first
    assert re.search(r"   5\. 5: Prince, Count +P0 Guard on P3 naming 5\n", first)
    assert "   9. 9: Bishop " in first and "  10. " not in first
    assert "Player 0 plays the Guard on Player 3, naming 5 (Prince or Count) — " in out
    assert out.splitlines()[-1] == "Game abandoned."


def _premium_state_with(
    players: int, seed: int, found: Callable[[ll.PlayerView], object]
) -> tuple[ll.GameState, int]:
    """The first state of a random Premium game where ``found(view)`` holds
    for some seat's view."""
    state = ll.new_game("premium", players, seed=seed)
    bots = random_bots(players, seed)
    while not state.is_over:
        for seat in range(players):
            if found(ll.view(state, seat)):
                return state, seat
        actor = state.to_act
        command = bots[actor].choose(ll.view(state, actor)) if actor is not None else StartRound()
        state = ll.push(state, command)
    raise AssertionError("not found")


def test_the_human_is_told_the_premium_table() -> None:
    names = [f"Player {n}" for n in range(6)]

    def shown(view: ll.PlayerView) -> str:
        out = io.StringIO()
        HumanPlayer(names, io.StringIO(), out).show(view)
        return out.getvalue()

    state, seat = _premium_state_with(
        6, 2, lambda v: v.marks and v.required is not None and v.decision is ll.Decision.PLAY
    )
    text = shown(ll.view(state, seat))
    (jester, marked), *_ = state.marks
    whom = "you" if marked == seat else f"Player {marked}"
    assert f"Jester: Player {jester} bets on {whom} to win this round." in text
    assert state.required is not None
    required = "you" if state.required == seat else f"Player {state.required}"
    assert f"must choose {required}." in text
    assert re.search(r"Your hand: [A-Z][a-z]+( [A-Z][a-z]+)? \(\d\)", text)

    state, seat = _premium_state_with(
        6,
        2,
        lambda v: any(
            s.via in (ll.Card.BARONESS, ll.Card.CARDINAL, ll.Card.DOWAGER_QUEEN)
            for s in v.sightings
        ),
    )
    text = shown(ll.view(state, seat))
    assert re.search(
        r"Seen on turn \d+ (with your Baroness|through a Cardinal|in a Dowager Queen"
        r" comparison): Player \d had the ",
        text,
    )


# --------------------------------------------------------------------------
# online


class _Answering:
    """A script for ``play`` that answers by what it was last asked: ``rule``
    gets the output so far and returns the next line, ``None`` to end."""

    def __init__(self, out: io.StringIO, rule: Callable[[str], str | None]) -> None:
        self.out = out
        self.rule = rule

    def readline(self, size: int = -1) -> str:
        answer = self.rule(self.out.getvalue())
        return "" if answer is None else answer + "\n"

    def isatty(self) -> bool:
        return False


def _play_online(
    rule: Callable[[str], str | None], *args: str, **options: object
) -> tuple[int, str]:
    from loveletter import interactive

    out = io.StringIO()
    status = interactive.play(
        "online",
        int(args[0]) if args else 4,
        seed=3,
        stdin=cast(TextIO, _Answering(out, rule)),
        stdout=out,
        **options,  # type: ignore[arg-type]
    )
    return status, out.getvalue()


def test_play_an_online_match_of_a_few_rounds(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "match.json"
    argv = ("--ruleset", "online", "--players", "5", "--seed", "3", "--rounds", "3")
    status, out = _play(
        capsys, monkeypatch, "1\n" * 5000, *argv, "--decks", "2", "--save", str(path)
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[1] == "An online match of 3 rounds; l leaves the match at any prompt."
    assert "Your choice (1-2, ? for help, l to leave, q to quit): 1" in lines
    assert "Press Enter to deal round 2 (? for help, l to leave, q to quit): 1" in lines
    assert "Press Enter to deal round 4" not in out
    assert "=== 3 rounds played: the match stops here. ===" in lines
    assert re.fullmatch(
        r"Your win counter: \d+[, ].*\. \(Seed 3: play this deal again with --seed 3\.\)",
        lines[-2],
    )
    assert out.count("(Seed 3") == 1  # the seed is told once, at the end
    assert "favor token" not in out and "You win!" not in out and "You lose." not in out
    assert "Players: win counters, and discard piles (oldest first):" in lines
    assert re.search(r"Turn order this round: (you|Player \d)(, (you|Player \d)){4}\.", out)
    # the scoreboard after the third round: a row per round, a rank per seat
    board = lines.index("Ranks by round (1 is first, - not dealt in):", -20)
    assert lines[board + 1].split()[:6] == ["round", "P0", "P1", "P2", "P3", "P4"]
    record = ll.load_record(path)
    rows = [line.split()[:6] for line in lines[board + 2 : board + 5]]
    ranks = [e.ranks or () for e in record.events if isinstance(e, ll.RoundEnded)]
    assert rows == [[str(n), *map(str, r)] for n, r in enumerate(ranks, 1)]
    state = record.state
    assert state.round_over and state.round_number == 3 and state.table.decks == 2
    for seat, count in enumerate(state.tokens):
        you = " (you)" if seat == 0 else ""
        assert re.search(rf"\n  Player {seat}{re.escape(you)} +{count} wins? ", out)
    # only what Player 0 may know
    assert not re.search(r"Player [1-4] draws the ", out)
    assert not re.search(r"Player [1-4] looks at .* and sees", out)


def test_play_online_goes_on_until_the_player_quits() -> None:
    def rule(out: str) -> str | None:
        return None if "Round 4 begins." in out else "1"

    status, out = _play_online(rule)
    assert status == 0
    assert "An online match of as many rounds as you like (q stops);" in out
    assert out.splitlines()[-1] == "Game abandoned."
    assert "=== Round 3 is over ===" in out and "(Seed" not in out


def test_play_online_leaving_in_a_turn_and_between_rounds(tmp_path: Path) -> None:
    path = tmp_path / "left.json"

    def in_turn(out: str) -> str | None:
        if out.endswith("(y/n): "):
            return "y"
        return "l" if "Your choice" in out else "1"

    status, out = _play_online(in_turn, save=path)
    assert status == 0
    assert "Player 0 leaves the match and will be dealt into no later round." in out
    assert "=== You have left the match; the others would play on without you. ===" in out
    assert out.splitlines()[-1] == f"The game so far is saved in {path} (loveletter replay {path})."
    record = ll.load_record(path)
    assert record.commands()[-1] == ll.Leave(0) and 0 in record.state.table.left

    def between(out: str) -> str | None:
        if out.endswith("(y/n): "):
            return "n" if out.count("(y/n): ") == 1 else "y"
        return (
            "l"
            if out.endswith("Press Enter to deal round 2 (? for help, l to leave, q to quit): ")
            else "1"
        )

    status, out = _play_online(between, save=path)
    assert status == 0
    assert "You stay in the match." in out
    assert out.count("Press Enter to deal round 2") == 2  # asked again after "n"
    assert "Player 0 leaves the match and will be dealt into no later round." in out
    assert "Round 2 begins" not in out
    record = ll.load_record(path)
    assert record.commands()[-1] == ll.Leave(0) and record.state.round_number == 1


def test_play_online_leaving_a_three_player_match_leaves_it_open() -> None:
    def rule(out: str) -> str | None:
        return "y" if out.endswith("(y/n): ") else "l"

    status, out = _play_online(rule, "3")
    assert status == 0
    assert "Player 0 is out of the round" in out
    assert re.search(r"Your win counter: 0 and no one has a win yet\. \(Seed 3: ", out)


def _online_view_to_play(card: ll.Card, players: int, choosable: int = 2) -> ll.PlayerView:
    """Seat 0's first view in a bots' online match where it may play ``card``
    choosing among at least ``choosable`` players."""
    for seed in range(100):
        state = ll.new_game("online", players, seed=seed)
        bots = random_bots(players, seed)
        for _ in range(200):
            if state.to_act == 0 and state.decision is ll.Decision.PLAY and card in state.hands[0]:
                seen = ll.view(state, 0)
                chosen = {
                    c.target
                    for c in seen.legal_commands
                    if isinstance(c, ll.PlayCard) and c.card is card and c.target is not None
                }
                if len(chosen) >= choosable:
                    return seen
            actor = state.to_act
            command = (
                bots[actor].choose(ll.view(state, actor)) if actor is not None else StartRound()
            )
            state = ll.push(state, command)
    raise AssertionError("not found")


def _ask(view: ll.PlayerView, card: ll.Card, *answers: str) -> tuple[ll.Command, str]:
    cards = list(dict.fromkeys(c.card for c in view.legal_commands if isinstance(c, ll.PlayCard)))
    script = "\n".join([str(cards.index(card) + 1), *answers]) + "\n"
    out = io.StringIO()
    names = [f"Player {seat}" for seat in range(view.players)]
    command = HumanPlayer(names, io.StringIO(script), out).choose(view)
    return command, out.getvalue()


def test_the_online_cardinal_is_asked_as_an_ordered_pair() -> None:
    view = _online_view_to_play(ll.Card.CARDINAL, 6, choosable=3)
    cardinals = [
        c for c in view.legal_commands if isinstance(c, ll.PlayCard) and c.card is ll.Card.CARDINAL
    ]
    assert any(c.target == 0 for c in cardinals) and any(c.second_target == 0 for c in cardinals)
    firsts = sorted({c.target for c in cardinals if c.target is not None})
    other = firsts[-1]
    assert other != 0
    command, out = _ask(view, ll.Card.CARDINAL, str(len(firsts)), *(["1"] * 5))
    assert (
        "Whom does the Cardinal choose first? (After the swap you see that player's new card.)"
        in out
    )
    assert isinstance(command, ll.PlayCard) and command.target == other  # chosen first
    assert command in view.legal_commands
    # the player first, then the last of the others asked second
    seconds = sorted(
        c.second_target for c in cardinals if c.target == 0 and c.second_target is not None
    )
    assert len(seconds) >= 2
    command, out = _ask(view, ll.Card.CARDINAL, "1", str(len(seconds)))
    assert re.search(r"   1\. yourself \(Player 0\)", out)
    assert "And whose hand does the Cardinal swap with theirs?" in out
    assert command == ll.PlayCard(0, ll.Card.CARDINAL, 0, second_target=seconds[-1])
    # the same two the other way round: the other player's new card is seen
    command, out = _ask(view, ll.Card.CARDINAL, str(firsts.index(seconds[-1]) + 1), "1")
    assert command == ll.PlayCard(0, ll.Card.CARDINAL, seconds[-1], second_target=0)


def test_the_online_baroness_may_choose_one_player_twice() -> None:
    view = _online_view_to_play(ll.Card.BARONESS, 6)
    command, out = _ask(view, ll.Card.BARONESS, "1", "1")
    first = out[out.index("And whom does the Baroness choose second?") :]
    assert re.search(
        r"   1\. Player (\d) again \(that hand twice\) +P0 Baroness on P\1 and P\1", first
    )
    assert isinstance(command, ll.PlayCard) and command.target == command.second_target
    assert command in view.legal_commands


def test_online_menus_describe_the_ordered_cardinal() -> None:
    from loveletter.narrative import describe_command

    online = ll.get_ruleset("online")
    assert describe_command(
        ll.PlayCard(0, ll.Card.CARDINAL, 2, second_target=3), ruleset=online
    ) == (
        "Play the Cardinal on Player 2, then Player 3: they trade hands and you see Player 2's"
        " new card"
    )
    assert describe_command(
        ll.PlayCard(0, ll.Card.CARDINAL, 0, second_target=3), ruleset=online
    ) == ("Play the Cardinal on yourself, then Player 3: you trade hands and you see your new card")
    assert describe_command(
        ll.PlayCard(0, ll.Card.BARONESS, 2, second_target=2), ruleset=online
    ) == ("Play the Baroness on Player 2, twice")


def test_the_human_is_told_the_online_table() -> None:
    state = ll.new_game("online", 5, seed=2)
    first = state.current
    state = ll.push(state, ll.Leave(first))
    seat = state.current
    out = io.StringIO()
    HumanPlayer([f"Player {n}" for n in range(5)], io.StringIO(), out).show(ll.view(state, seat))
    text = out.getvalue()
    order = ", ".join("you" if s == seat else f"Player {s}" for s in state.table.order)
    assert f"Turn order this round: {order}." in text
    assert f"Out of this round, in the order they went out: Player {first}." in text
    assert re.search(rf"  Player {first} +0 wins .*\[left the match\]", text)
    assert "favor tokens" not in text and "Pile: " in text


@pytest.mark.parametrize(("players", "decks"), [(3, 1), (5, 2), (8, 3)])
def test_online_demo_tells_a_few_rounds(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, players: int, decks: int
) -> None:
    monkeypatch.setattr("loveletter.cli.DEMO_SECTIONS", [cli._demo_game])
    argv = ["demo", "--ruleset", "online", "--players", str(players), "--decks", str(decks)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(
        "A match of Love Letter online, perpetual variant (ranks and win counters) begins with"
        f" {players} players"
    )
    assert (
        sum(re.match(r"Round \d begins\.", line) is not None for line in lines) == cli.DEMO_ROUNDS
    )
    assert re.fullmatch(
        rf"Win counters after {cli.DEMO_ROUNDS} rounds: Player 0 \d+, .*\.", lines[-1]
    )
    assert not any(line.startswith("(") for line in lines)
    assert "favor token" not in "\n".join(lines)
    assert main([*argv, "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"Win counters after 1 round: Player 0 \d+, .*\.", lines[-1])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--rounds", "2"], "--rounds is for online matches, not 2019"),
        (
            ["play", "--decks", "2", "--ruleset", "premium"],
            "--decks is for online matches, not premium",
        ),
        (["play", "--ruleset", "online", "--decks", "4"], "--decks must be from 1 to 3, not 4"),
        (["play", "--ruleset", "online", "--rounds", "0"], "--rounds must be at least 1, not 0"),
        (["play", "--ruleset", "online", "--players", "2"], "online is for 3-8 players, not 2"),
        (["demo", "--decks", "2"], "--decks is for online matches, not 2019"),
        (["demo", "--ruleset", "online", "--decks", "0"], "--decks must be from 1 to 3, not 0"),
    ],
)
def test_online_option_errors(capsys: Capture, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert message in captured.err
