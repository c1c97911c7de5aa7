"""``loveletter conformance fuzz``: every deliberately broken engine is found
within a stated number of games, its disagreement shrunk to a short case
that fails that engine and passes ours; our own engine, in process and
through the protocol, never disagrees; the same seed gives the same games
and the same case; a hanging implementation costs bounded time."""

from __future__ import annotations

import random
import shlex
import sys
import time
from pathlib import Path

import pytest

from loveletter.cli import main
from loveletter.conformance import External, InProcess, run_case
from loveletter.conformance.cases import load_case
from loveletter.conformance.fuzz import case_data, fuzz, random_game
from loveletter.rulesets import RULESETS

from ._support import ADAPTER, impl

#: each broken engine, the ruleset and player count it is fuzzed with, and
#: the games within which the fuzzer must find it
BROKEN = [
    ("baron-tie-eliminates", "2019", None, 10),
    ("protected-targetable", "2019", None, 10),
    ("countess-not-forced", "2019", None, 10),
    ("guard-may-name-guard", "2019", None, 10),
    ("prince-does-nothing-on-empty-deck", "2019", None, 10),
    ("chancellor-returns-reversed", "2019", None, 10),
    ("tie-won-by-first-seat", "2019", None, 20),
    ("spy-token-shared", "2019", None, 10),
    ("princess-play-harmless", "2019-classic", None, 10),
    ("assassin-ignored", "premium", 6, 10),
    ("count-not-added", "premium", 5, 10),
    ("sycophant-does-not-bind", "premium", 6, 10),
    ("constable-scores-from-hand", "premium", 6, 10),
]
#: the longest shrunk case accepted (its steps: commands and checks)
MAX_STEPS = 4


@pytest.mark.parametrize(
    ("bug", "ruleset", "players", "budget"), BROKEN, ids=[b[0] for b in BROKEN]
)
def test_each_broken_engine_is_found_and_shrunk_to_a_short_case(
    bug: str, ruleset: str, players: int | None, budget: int, tmp_path: Path
) -> None:
    broken = External(impl("broken_adapter.py", bug))
    try:
        result = fuzz(broken, ruleset, players=players, games=budget, out=tmp_path)
        found = result.disagreement
        assert found is not None, f"{bug}: no disagreement in {budget} games"
        assert found.length <= MAX_STEPS, (bug, found.length)
        # the written case: a suite case file, failing that engine, passing ours
        written = load_case(found.case.path)
        assert Path(found.case.path).is_relative_to(tmp_path / "cases" / ruleset / "fuzz")
        assert run_case(written, broken).status in ("failed", "errored")
    finally:
        broken.close()
    assert run_case(written, InProcess()).status == "passed"
    assert written.rules and written.title.startswith("Fuzzed game ")


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_our_engine_never_disagrees_with_itself(ruleset: str) -> None:
    result = fuzz(InProcess(), ruleset, games=6)
    assert result.disagreement is None
    assert result.games == 6 and result.commands > 100 and result.refusals_tried > 5
    assert all(outcome.status == "passed" for outcome in result.outcomes)


def test_our_adapter_through_the_protocol_never_disagrees() -> None:
    adapter = External(ADAPTER)
    try:
        result = fuzz(adapter, "premium", games=3)
    finally:
        adapter.close()
    assert result.disagreement is None and result.games == 3


def test_the_same_seed_gives_the_same_games_and_the_same_case(tmp_path: Path) -> None:
    first = random_game(random.Random("s/2019/0"), "2019", 4, 80)
    assert first == random_game(random.Random("s/2019/0"), "2019", 4, 80)
    assert first != random_game(random.Random("s/2019/1"), "2019", 4, 80)
    texts = []
    for run in ("a", "b"):
        broken = External(impl("broken_adapter.py", "protected-targetable"))
        try:
            found = fuzz(broken, "2019", games=10, seed="7", out=tmp_path / run).disagreement
        finally:
            broken.close()
        assert found is not None
        texts.append(Path(found.case.path).read_text(encoding="utf-8"))
    assert texts[0] == texts[1]


def test_a_fuzzed_game_is_a_case_of_the_suite() -> None:
    game = random_game(random.Random("x"), "online", 5, 60)
    data = case_data(game, "fuzzed", "a fuzzed game", ["game.rules-enforced"])
    steps = data["steps"]
    assert any("rejected" in step for step in steps), "illegal commands are mixed in"
    assert any("checks" in step and "legal_commands" in step["checks"] for step in steps)


def test_a_hanging_implementation_costs_bounded_time() -> None:
    hanging = External(impl("fake_impls.py", "hang-all"), timeout=0.5)
    try:
        started = time.monotonic()
        result = fuzz(hanging, "2019", games=3, shrink_seconds=2.0, shrink_budget=50)
        spent = time.monotonic() - started
    finally:
        hanging.close()
    assert result.disagreement is not None
    assert result.disagreement.outcome.status == "errored"
    assert spent < 30


def test_the_command_line_writes_the_case_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = impl("broken_adapter.py", "count-not-added")
    args = ["conformance", "fuzz", "--impl", command, "--ruleset", "premium"]
    status = main([*args, "--players", "5", "--games", "5", "--out", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0].startswith("fuzz premium: 1 games, ")
    assert any(line.startswith("DISAGREEMENT BY RULE ") and "count" in line for line in out)
    assert len(list((tmp_path / "cases" / "premium" / "fuzz").glob("*.yaml"))) == 1
    status = main(["conformance", "run", "-q", "--cases", str(tmp_path / "cases")])
    assert status == 0  # ours passes it
    status = main(["conformance", "fuzz", "--games", "2", "--out", str(tmp_path / "ours")])
    assert status == 0
    assert main(["conformance", "fuzz", "--ruleset", "2019", "--players", "9"]) == 2


def test_the_tutorial_shows_what_the_fuzzer_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fuzzing section of the implementers' tutorial is a real run."""
    page = Path(__file__).parents[2] / "docs" / "implementers" / "tutorial.md"
    lines = page.read_text(encoding="utf-8").splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("$ loveletter conformance fuzz")
    )
    end = lines.index("```", start)
    command, shown = lines[start], lines[start + 1 : end]
    words = shlex.split(command[2:])
    here = str(Path(__file__).parent)
    words[words.index("--impl") + 1] = impl("broken_adapter.py", "protected-targetable")
    monkeypatch.chdir(tmp_path)
    status = main(words[1:])
    printed = capsys.readouterr().out.replace(sys.executable, "python")
    printed = printed.replace(here, "tests/conformance")
    assert status == 1
    assert printed.splitlines() == shown


def test_the_model_engine_written_from_scratch_never_disagrees() -> None:
    """An independent engine without seeded chance: every chance step of a
    fuzzed game is stacked (decks, orders, the first player between tied
    winners), so it meets no draw it cannot share."""
    model = External(f"{sys.executable} -m loveletter.conformance.model_engine")
    try:
        result = fuzz(model, "2019-classic", games=15)
    finally:
        model.close()
    assert result.disagreement is None, result.disagreement and result.disagreement.outcome.lines
