"""The ``loveletter`` command when its streams or files misbehave: standard
output full, closed or read by a program that goes away, standard input
closed or fed lines no person types, a FIFO where a file was expected.

Most cases run the installed program in a subprocess with a deadline (a
program that hangs fails the test instead of blocking the run); each must
end with at most one line on stderr and a stated exit status, never a
traceback.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import loveletter as ll
from loveletter.cli import IO_ERROR, READER_GONE, USAGE_ERROR, main
from loveletter.cli_records import BAD_FILE
from loveletter.interactive import MAX_LINE, HumanPlayer, Quit
from loveletter.simulation import random_bots

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX streams and FIFOs")

#: the installed command, next to the interpreter running the tests
PROGRAM = Path(sys.executable).with_name("loveletter")
#: the longest any of these runs may take, in seconds
DEADLINE = 60


def _run(
    args: Sequence[str],
    *,
    stdout: int | io.TextIOWrapper | None = subprocess.DEVNULL,
    input: bytes = b"",
    env: dict[str, str] | None = None,
    shell_redirect: str = "",
    timeout: float = DEADLINE,
) -> subprocess.CompletedProcess[bytes]:
    """``loveletter ARGS``, with stdout where asked; ``shell_redirect`` (such
    as ``>&-``) is applied by a shell, for a stream closed from the start."""
    command = [str(PROGRAM), *args]
    if shell_redirect:
        command = ["sh", "-c", f'exec "$0" "$@" {shell_redirect}', *command]
    return subprocess.run(
        command,
        input=input,
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        check=False,
    )


def _one_line(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text, text
    assert text.count("\n") == 1 and text.endswith("\n"), text
    return text.rstrip("\n")


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    record = ll.play_game("2019", 3, random_bots(3, 4), seed=4)
    path = tmp_path_factory.mktemp("records") / "game.json"
    ll.save_record(record, path)
    return path


#: every command that prints, as (name, arguments); ``{record}`` is a saved game
PRINTING = [
    ("rulesets", ["rulesets"]),
    ("rules", ["rules", "prince"]),
    ("simulate", ["simulate", "--games", "2"]),
    ("demo", ["demo", "--players", "2"]),
    ("play", ["play", "--seed", "1"]),
    ("replay", ["replay", "{record}"]),
    ("show", ["show", "{record}"]),
    ("conformance", ["conformance", "run", "-q", "--run", "2019/guard*"]),
    ("tournament", ["tournament", "--bots", "counter,random", "--games", "2"]),
]


def _args(args: Sequence[str], record: Path) -> list[str]:
    return [arg.replace("{record}", str(record)) for arg in args]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(("name", "args"), PRINTING, ids=[name for name, _ in PRINTING])
def test_a_full_standard_output_is_one_line_and_an_io_error(
    name: str, args: list[str], record_file: Path
) -> None:
    with open("/dev/full", "w") as full:
        done = _run(_args(args, record_file), stdout=full, input=b"q\n")
    assert done.returncode == IO_ERROR
    line = _one_line(done.stderr)
    assert line == f"loveletter {name}: cannot write to standard output: No space left on device"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_help_to_a_full_standard_output_is_not_lost_without_a_word() -> None:
    # argparse itself swallows the error of writing the help
    with open("/dev/full", "w") as full:
        done = _run(["rules", "--help"], stdout=full)
    assert done.returncode == IO_ERROR
    line = _one_line(done.stderr)
    assert line == "loveletter rules: cannot write to standard output: No space left on device"


@pytest.mark.parametrize(("name", "args"), PRINTING, ids=[name for name, _ in PRINTING])
def test_a_closed_standard_output_is_one_line_and_an_io_error(
    name: str, args: list[str], record_file: Path
) -> None:
    done = _run(_args(args, record_file), shell_redirect=">&-", input=b"q\n")
    assert done.returncode == IO_ERROR
    assert (
        _one_line(done.stderr)
        == f"loveletter {name}: cannot write to standard output: it is closed"
    )


@pytest.mark.parametrize("args", [["rulesets"], ["rules", "prince"], ["demo"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(args: list[str]) -> None:
    """As before standard output was guarded: no message, status 1."""
    # the reader is gone before the program writes a byte: every write fails
    process = subprocess.Popen(
        [str(PROGRAM), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    try:
        status = process.wait(DEADLINE)
    finally:
        process.kill()
    assert process.stderr.read() == b""
    process.stderr.close()
    assert status == READER_GONE


def test_play_with_standard_input_closed_says_so_and_at_its_end_stops() -> None:
    closed = _run(["play", "--seed", "1"], shell_redirect="<&-")
    assert closed.returncode == IO_ERROR
    assert _one_line(closed.stderr) == "loveletter play: cannot read standard input: it is closed"
    empty = _run(["play", "--seed", "1"], stdout=subprocess.PIPE)
    assert (empty.returncode, empty.stderr) == (0, b"")
    assert empty.stdout.decode().splitlines()[-1] == "Game abandoned."


def test_play_refuses_a_line_of_millions_of_digits_and_goes_on() -> None:
    digits = b"9" * 5_000_000
    done = _run(["play", "--seed", "1"], stdout=subprocess.PIPE, input=digits + b"\n1\nq\n")
    assert (done.returncode, done.stderr) == (0, b"")
    out = done.stdout.decode()
    assert f"That line is over {MAX_LINE} characters long: ignored.\n" in out
    # the next answer is read as usual
    assert "Your choice (1-2, ? for help, q to quit): 1\n" in out
    assert out.splitlines()[-1] == "Game abandoned."


def test_play_bounds_what_it_reads_of_an_endless_line() -> None:
    done = _run(["play", "--seed", "1"], stdout=subprocess.PIPE, input=b"1" * (70 << 20))
    assert (done.returncode, done.stderr) == (0, b"")
    out = done.stdout.decode()
    assert "characters: it is no answer.\n" in out
    assert out.splitlines()[-1] == "Game abandoned."


def _answer(line: str) -> str:
    """What seat 0 is told when it answers ``line``, then ``q``, to the
    first question of a game (which card to play, of two)."""
    out = io.StringIO()
    view = ll.view(ll.new_game("2019", 3, seed=1), 0)
    names = [f"Player {seat}" for seat in range(3)]
    with pytest.raises(Quit):
        HumanPlayer(names, io.StringIO(f"{line}\nq\n"), out).choose(view)
    text = out.getvalue()
    assert "Your choice (1-2, ? for help, q to quit): " in text
    return text


def test_a_line_just_within_the_bound_is_read() -> None:
    assert "characters long" not in _answer("1" * MAX_LINE)
    assert f"over {MAX_LINE} characters long: ignored" in _answer("1" * (MAX_LINE + 1))


@pytest.mark.parametrize("answer", ["\u00b2", "\u2460", "? \u00b2", "? --5"])
def test_digits_int_refuses_are_answered_not_raised(answer: str) -> None:
    """``str.isdigit`` takes superscripts and other scripts' digits, which
    ``int`` refuses: they are answers like any other unknown one."""
    text = _answer(answer)
    assert "Please enter 1 to 2" in text or "No help topic or card" in text


def test_play_reads_bytes_that_are_not_text_as_an_unknown_answer() -> None:
    env = {"PYTHONIOENCODING": "utf-8"}  # strict: the default locale would escape them
    done = _run(["play", "--seed", "1"], stdout=subprocess.PIPE, input=b"\xff\xfe\nq\n", env=env)
    assert (done.returncode, done.stderr) == (0, b"")
    assert "Please enter 1 to 2" in done.stdout.decode()


def test_output_in_an_encoding_without_some_characters_is_not_a_traceback() -> None:
    done = _run(
        ["rules", "--edition", "premium"], stdout=subprocess.PIPE, env={"PYTHONIOENCODING": "ascii"}
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert b"Premium" in done.stdout


# --------------------------------------------------------------------------
# files


@pytest.mark.parametrize("command", ["replay", "show"])
def test_replay_and_show_of_a_fifo_fail_at_once(command: str, tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    try:
        done = _run([command, str(fifo)], timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this test is for
        pytest.fail(f"loveletter {command} of a FIFO waits for a writer forever")
    assert done.returncode == BAD_FILE
    assert _one_line(done.stderr).startswith(f"loveletter {command}: {fifo}: ")


@pytest.mark.parametrize("option", [["--at", "3"], ["--at", "0"], ["--moves"]])
def test_show_refuses_record_options_for_a_state_or_position(
    option: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = ll.new_game("2019-classic", 2, seed=3)
    for value in (state, ll.to_position(state)):
        path = tmp_path / "value.json"
        path.write_text(ll.dumps(value), encoding="utf-8")
        assert main(["show", str(path), *option]) == USAGE_ERROR
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == (
            f"loveletter show: error: {option[0]} is for a game record;"
            f" {path} holds a {type(value).__name__}\n"
        )


def test_simulate_save_makes_only_the_last_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "no" / "such" / "games"
    argv = ["simulate", "--games", "2", "--json", "--save"]
    assert main([*argv, str(deep)]) == USAGE_ERROR
    assert capsys.readouterr().err == (
        f"loveletter simulate: error: --save: there is no folder {deep.parent}\n"
    )
    assert not (tmp_path / "no").exists()
    assert main([*argv, str(tmp_path / "games")]) == 0  # the last folder is made
    assert main([*argv, str(tmp_path / "games")]) == 0  # and may exist already
    assert len(list((tmp_path / "games").iterdir())) == 2
    (tmp_path / "file").touch()
    assert main([*argv, str(tmp_path / "file")]) == USAGE_ERROR
    assert "--save: cannot make" in capsys.readouterr().err


def test_simulate_save_that_cannot_write_a_game_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "game-00001.json").mkdir()  # where the first game would go
    done = _run(["simulate", "--games", "2", "--save", str(tmp_path)])
    assert done.returncode == IO_ERROR
    assert _one_line(done.stderr) == (
        f"loveletter simulate: --save: cannot write {tmp_path / 'game-00001.json'}: Is a directory"
    )
