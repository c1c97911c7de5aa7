"""The suite's move-generation claims, recomputed by an independent oracle.

``perft_oracle.py`` implements the rules again without importing
``loveletter``. Here it replays every case that claims a ``perft``, a
``legal_command_count`` or an exact ``legal_commands`` set, and must reach
the same numbers and the same sets: a wrong case, or a case written to fit
an engine bug, fails here even though the engine passes it.

No perft depth is capped: the deepest case (``2019/perft/perft-deal-5p-stacked``,
119046 sequences at depth 4) takes about a second in the oracle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import pytest

from loveletter.conformance import Case

from ._support import suite
from .perft_oracle import (
    Checkpoint,
    Command,
    OracleError,
    OutOfReach,
    from_start,
    legal_commands,
    parse_command,
    perft,
    replay,
)

#: Cases the oracle cannot replay, by name, with the reason. None today: the
#: only shape beyond it (a StartRound with no stacked deck, or with tied
#: winners and no first_player, both random) appears in no case with checks.
#: A ``start_rejected`` case has no steps, hence no checks to recompute.
OUT_OF_REACH: Final[Mapping[str, str]] = {}


def _has_check(case: Case, *keys: str) -> bool:
    return any(key in step.get("checks", {}) for step in case.data["steps"] for key in keys)


PERFT_CASES: Final = tuple(c for c in suite() if _has_check(c, "perft", "legal_command_count"))
LEGAL_SET_CASES: Final = tuple(c for c in suite() if _has_check(c, "legal_commands"))


def _checkpoints(case: Case) -> list[Checkpoint]:
    """Every checks step of the case with the oracle's state there."""
    if case.start_rejected:
        pytest.skip(f"{case.name}: start_rejected, there is no state to replay")
    if case.name in OUT_OF_REACH:
        pytest.skip(f"{case.name}: {OUT_OF_REACH[case.name]}")
    try:
        return list(replay(case.data))
    except OutOfReach as reason:
        pytest.fail(f"{case.name}: {reason}; teach the oracle, or list it in OUT_OF_REACH")


def _expected_set(case: Case, step: int, commands: Iterable[Mapping[str, Any]]) -> set[Command]:
    """A case's ``legal_commands``; an absent target or guess is null."""
    expected: set[Command] = set()
    for data in commands:
        command = parse_command(data)
        assert command is not None, f"{case.name} steps[{step}]: cannot read {data}"
        expected.add(command)
    return expected


def test_the_oracle_is_independent_of_the_engine() -> None:
    tree = ast.parse(Path(__file__).with_name("perft_oracle.py").read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." if node.level else (node.module or "").split(".")[0])
    stdlib = {"__future__", "collections", "dataclasses", "itertools", "sys", "typing"}
    assert imported <= stdlib | {"yaml"}, imported


def test_the_oracle_covers_the_whole_perft_topic() -> None:
    perft_topic = {c.name for c in suite() if c.name.split("/")[1] == "perft"}
    assert len(perft_topic) >= 16
    assert perft_topic <= {c.name for c in PERFT_CASES}
    assert set(OUT_OF_REACH) <= {c.name for c in suite()}


@pytest.mark.parametrize("case", PERFT_CASES, ids=lambda case: case.name)
def test_oracle_perft_and_legal_command_count_match_the_case(case: Case) -> None:
    for step, checks, state in _checkpoints(case):
        if "perft" in checks:
            expected = checks["perft"]
            assert perft(state, len(expected)) == expected, f"steps[{step}] perft"
        if "legal_command_count" in checks:
            count = len(legal_commands(state))
            assert count == checks["legal_command_count"], f"steps[{step}] legal_command_count"


def test_oracle_legal_command_sets_match_every_case() -> None:
    """Every checks step with an exact ``legal_commands``, in every case."""
    checked, mismatches = 0, []
    for case in LEGAL_SET_CASES:
        if case.name in OUT_OF_REACH:
            continue  # skipped, with its reason, in OUT_OF_REACH
        for step, checks, state in replay(case.data):
            if "legal_commands" not in checks:
                continue
            expected = _expected_set(case, step, checks["legal_commands"])
            got = legal_commands(state)
            checked += 1
            if got != expected:
                missing = sorted(map(repr, expected - got))
                extra = sorted(map(repr, got - expected))
                mismatches.append(f"{case.name} steps[{step}]: missing {missing}, extra {extra}")
    assert not mismatches, "\n".join(mismatches)
    assert checked >= len(LEGAL_SET_CASES) - len(OUT_OF_REACH)


def test_oracle_refuses_every_start_the_suite_refuses() -> None:
    refused = [c for c in suite() if c.start_rejected]
    assert refused
    for case in refused:
        with pytest.raises(OracleError):
            from_start(case.data)
