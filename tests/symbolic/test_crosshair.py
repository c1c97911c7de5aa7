"""CrossHair on the card and evolve contracts, within the tier's budget.

Runs verification/crosshair_check.py in subprocesses (the contracts in
four shards, which make test's pytest workers share): every contract must
hold, and, to show the harness is not vacuous, every deliberately wrong
contract (broken_contract.py) and every deliberately broken engine (the
script's MUTANTS) must be reported with a counterexample within the same
budget: CPU seconds per condition from ``tests/budget.py`` (2 in make
test, about 90 CPU seconds in all; 4 in make test-long, about 170).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from loveletter.spec import load_spec

import budget

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "verification" / "crosshair_check.py"
CARDS = REPO / "loveletter" / "cards"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("crosshair_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # NamedTuple classes need their module registered
    spec.loader.exec_module(module)
    return module


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    seconds = ["--budget", str(budget.CROSSHAIR_SECONDS)]
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args, *seconds],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )


def test_contracts_cite_rules_of_the_spec() -> None:
    script = _script()
    found = script.conditions(script.contract_modules())
    assert len(found) >= 30
    rules = load_spec().rules
    for condition in found:
        assert condition.rules, f"{condition.label} cites no rule"
        unknown = [r for r in condition.rules if r not in rules]
        assert not unknown, f"{condition.label} cites unknown rules {unknown}"


def test_every_card_function_is_under_a_contract() -> None:
    """Each public function of a card module is called by some contract."""
    contracts = "\n".join(
        p.read_text() for p in (REPO / "tests" / "symbolic").glob("contracts_*.py")
    )
    skipped = {"__init__.py", "base.py", "registry.py"}
    missing = []
    for path in sorted(CARDS.glob("*.py")):
        if path.name in skipped:
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                module = path.stem
                called = re.search(rf"\b{module}\.{node.name}\(|\b{node.name}\(", contracts)
                # inert cards are reached through their rules (RULES.effect)
                if not called and not (node.name == "played" and "_INERT" in contracts):
                    missing.append(f"{module}.{node.name}")
    assert not missing, f"no contract calls {missing}"


#: the contracts are checked in this many shards, so that make test's pytest
#: workers share them (every N-th condition from the K-th: the shards cover
#: every condition exactly once)
SHARDS = 4


def _jobs() -> str:
    # under pytest-xdist each worker already has a core: one condition at a
    # time per shard; run alone, two at a time as the script's default
    return "1" if os.environ.get("PYTEST_XDIST_WORKER") else "2"


@pytest.mark.budgeted
@pytest.mark.parametrize("shard", range(1, SHARDS + 1))
def test_contracts_hold_within_the_budget(shard: int) -> None:
    script = _script()
    count = len(range(shard - 1, len(script.conditions(script.contract_modules())), SHARDS))
    result = _run("--shard", f"{shard}/{SHARDS}", "--jobs", _jobs())
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{count} conditions checked" in result.stdout
    assert "COUNTEREXAMPLE" not in result.stdout and "ERROR" not in result.stdout


@pytest.mark.budgeted
def test_wrong_contracts_are_falsified_within_the_budget() -> None:
    result = _run("--broken")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("broken_contract.")]
    assert len(lines) >= 5 and all("COUNTEREXAMPLE" in line for line in lines), result.stdout


@pytest.mark.budgeted
def test_broken_engines_are_caught_within_the_budget() -> None:
    result = _run("--mutants")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"every one of the {len(_script().MUTANTS)} mutants was caught" in result.stdout
