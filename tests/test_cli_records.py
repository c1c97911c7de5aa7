"""``loveletter replay``, ``loveletter show`` and ``simulate --save``: saved
games from the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import loveletter as ll
from loveletter.cli import main
from loveletter.simulation import random_bots

Capture = pytest.CaptureFixture[str]


def _saved(tmp_path: Path, ruleset: str = "2019", players: int = 3, seed: int = 4) -> Path:
    record = ll.play_game(ruleset, players, random_bots(players, seed), seed=seed)
    path = tmp_path / "game.json"
    ll.save_record(record, path)
    return path


def test_replay_tells_a_saved_game_to_its_end(tmp_path: Path, capsys: Capture) -> None:
    path = _saved(tmp_path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    record = ll.load_record(path)
    outcome = record.outcome()
    assert outcome is not None
    assert out.startswith("A game of Love Letter")
    winners = ", ".join(f"Player {seat}" for seat in outcome.winners)
    assert f"Won by {winners} after {outcome.rounds} rounds." in out
    # a spectator sees every hand: the seed and the set-aside cards are told
    assert f"Seed {record.seed}" in out and "is set aside face down" in out


def test_replay_as_one_player_tells_only_what_they_saw(tmp_path: Path, capsys: Capture) -> None:
    path = _saved(tmp_path, "premium", 4, 6)
    assert main(["replay", str(path), "--as", "2"]) == 0
    out = capsys.readouterr().out
    record = ll.load_record(path)
    assert f"Seed {record.seed}" not in out
    for line in out.splitlines():
        if " draws the " in line:  # only seat 2's own draws name a card
            assert "Player 2 draws" in line or "You draw" in line, line


def test_replay_with_notation_shows_each_move_in_it(tmp_path: Path, capsys: Capture) -> None:
    path = _saved(tmp_path)
    assert main(["replay", str(path), "--notation"]) == 0
    out = capsys.readouterr().out
    record = ll.load_record(path)
    plays = [c for c in record.commands() if isinstance(c, ll.PlayCard)]
    from loveletter.notation import format_command

    for command in plays:
        assert f"[{format_command(command)}]" in out


def test_replay_refuses_a_forged_record_naming_the_event(tmp_path: Path, capsys: Capture) -> None:
    path = _saved(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    index = next(i for i, e in enumerate(data["events"]) if e["type"] == "CardDealt")
    data["events"][index]["card"] = "Princess"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 3
    err = capsys.readouterr().err
    assert f"events[{index}]" in err and "game.json" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not text", "UTF-8"),
        (b"[" * 100_000, "nested"),
        (b'{"type": "GameState"}', "missing field"),
        (b"", "not JSON"),
    ],
)
def test_replay_and_show_refuse_unreadable_files(
    tmp_path: Path, capsys: Capture, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for command in ("replay", "show"):
        assert main([command, str(path)]) == 3
        err = capsys.readouterr().err
        assert str(path) in err and message in err, err


def test_replay_of_a_missing_file_says_so(tmp_path: Path, capsys: Capture) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 3
    assert "cannot read" in capsys.readouterr().err


def test_show_prints_the_whole_state_of_a_record(tmp_path: Path, capsys: Capture) -> None:
    path = _saved(tmp_path)
    record = ll.load_record(path)
    assert main(["show", str(path)]) == 0
    assert capsys.readouterr().out.strip() == str(record.state).strip()
    assert main(["show", str(path), "--at", "3", "--moves"]) == 0
    out = capsys.readouterr().out
    partial = ll.GameRecord(record.events[:1])
    for command in record.commands()[:3]:
        partial = partial.push(command)
    assert out.rstrip().endswith(str(partial.state).rstrip())
    assert "   1. deal" in out
    assert main(["show", str(path), "--at", "100000"]) == 3


def test_show_prints_a_saved_state_and_a_position(tmp_path: Path, capsys: Capture) -> None:
    state = ll.new_game("2019-classic", 2, seed=3)
    for value in (state, ll.to_position(state)):
        path = tmp_path / "value.json"
        path.write_text(ll.dumps(value), encoding="utf-8")
        assert main(["show", str(path)]) == 0
        assert capsys.readouterr().out.strip() == str(state).strip()


def _saved_match(tmp_path: Path, players: int = 5, seed: int = 3, rounds: int = 3) -> Path:
    record = ll.play_game("online", players, random_bots(players, seed), seed=seed, rounds=rounds)
    path = tmp_path / "match.json"
    ll.save_record(record, path)
    return path


def _board_lines(record: ll.GameRecord) -> list[str]:
    board = record.scoreboard()
    lines = board.lines()
    # the text says what the events say: every round's ranks and the counters
    for score in board.rounds:
        assert score.ranks is not None
        cells = ["-" if rank is None else str(rank) for rank in score.ranks]
        assert any(line.split()[: 1 + len(cells)] == [str(score.number), *cells] for line in lines)
    counters = ", ".join(f"Player {seat} {n}" for seat, n in enumerate(record.state.tokens))
    assert f"Win counters: {counters}." in lines
    return lines


@pytest.mark.parametrize("seat", [None, 1])
def test_replay_of_an_online_match_ends_with_its_scoreboard(
    tmp_path: Path, capsys: Capture, seat: int | None
) -> None:
    path = _saved_match(tmp_path)
    record = ll.load_record(path)
    argv = ["replay", str(path)] + ([] if seat is None else ["--as", str(seat)])
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = _board_lines(record)
    assert out.rstrip().endswith("\n".join(lines))  # public: the same for every viewer
    assert "Scoreboard: 3 rounds ended." in out
    assert "Partial wins: Player 0 1 (bishop 1)" in out  # seed 3's Bishop hit
    assert "The match is still open" in out
    assert "favor tokens" not in out.lower() and "Won by" not in out


def test_show_of_an_online_match_adds_the_scoreboard_at_any_point(
    tmp_path: Path, capsys: Capture
) -> None:
    path = _saved_match(tmp_path)
    record = ll.load_record(path)
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(str(record.state).rstrip())
    assert out.rstrip().endswith("\n".join(_board_lines(record)))
    # at the first command no round has ended yet: only the counters
    assert main(["show", str(path), "--at", "1"]) == 0
    out = capsys.readouterr().out
    assert "Scoreboard: 0 rounds ended." in out and "Ranks by round" not in out
    assert "Win counters: Player 0 0, Player 1 0" in out


def test_replay_and_show_of_a_closed_match(tmp_path: Path, capsys: Capture) -> None:
    record = ll.GameRecord.new("online", 3, seed=1)
    actor = record.state.to_act
    for seat in range(3):
        if seat != actor:
            record = record.push(ll.Leave(seat))
    assert record.is_over
    path = tmp_path / "closed.json"
    ll.save_record(record, path)
    for command in ("replay", "show"):
        assert main([command, str(path)]) == 0
        out = capsys.readouterr().out
        assert "The match is closed: fewer than two players are present." in out
        assert "Left the match: Player" in out


def test_show_of_other_editions_is_the_state_alone(tmp_path: Path, capsys: Capture) -> None:
    path = _saved(tmp_path, "premium", 5, 2)
    assert main(["show", str(path)]) == 0
    assert "Scoreboard" not in capsys.readouterr().out


def test_simulate_saves_every_game_it_plays(tmp_path: Path, capsys: Capture) -> None:
    folder = tmp_path / "games"
    argv = ["simulate", "--players", "3", "--games", "4", "--seed", "2", "--save", str(folder)]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"game-{i:05}.json" for i in range(1, 5)]
    records = [ll.load_record(f) for f in files]
    assert all(r.is_over for r in records)
    wins = [0, 0, 0]
    for record in records:
        outcome = record.outcome()
        assert outcome is not None
        for seat in outcome.winners:
            wins[seat] += 1
    assert wins == report["game_wins"]
