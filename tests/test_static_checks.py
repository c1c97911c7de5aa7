"""The checks ``make test`` runs besides the tests themselves, run as tests so
that pytest's workers share them with everything else (one at a time they
would leave a core idle for about 25 s): ruff's lint and format, ``mypy
--strict``, and the conformance suite through the command line as the
README gives it (in process, through the protocol adapter, and from every
replay start). ``make lint``, ``make typecheck`` and ``make conformance``
run the same commands alone.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

#: what each check runs: the same commands as the Makefile's targets
COMMANDS = {
    "ruff-check": [str(BIN / "ruff"), "check", "."],
    "ruff-format": [str(BIN / "ruff"), "format", "--check", "."],
    "mypy-strict": [str(BIN / "mypy")],
    "suite-in-process": [str(BIN / "loveletter"), "conformance", "run", "--quiet"],
    "suite-through-adapter": [
        str(BIN / "loveletter"),
        "conformance",
        "run",
        "--quiet",
        "--impl",
        shlex.join([sys.executable, "-m", "loveletter.conformance.adapter"]),
    ],
    "suite-from-replay-starts": [
        str(BIN / "loveletter"),
        "conformance",
        "run",
        "--quiet",
        "--starts",
        "replay",
    ],
}


@pytest.mark.parametrize("check", list(COMMANDS))
def test_the_check_passes(check: str) -> None:
    done = subprocess.run(
        COMMANDS[check], cwd=REPO, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{shlex.join(COMMANDS[check])}\n{done.stdout}\n{done.stderr}"


def test_the_makefile_runs_the_same_commands() -> None:
    """``make lint``, ``make typecheck`` and ``make conformance`` and these
    tests must not drift apart."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    expected = [
        "$(BIN)/ruff check .",
        "$(BIN)/ruff format --check .",
        "$(BIN)/mypy",
        "$(BIN)/loveletter conformance run --quiet",
        '$(BIN)/loveletter conformance run --quiet --impl "$(BIN)/python -m'
        ' loveletter.conformance.adapter"',
        "$(BIN)/loveletter conformance run --quiet --starts replay",
    ]
    recipes = [line.strip() for line in makefile.splitlines() if line.startswith("\t")]
    for command in expected:
        assert command in recipes, command
    assert len(expected) == len(COMMANDS)
