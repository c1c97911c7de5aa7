"""The differential run (``verification/differential.py``, ``make
differential``) in miniature: random games of every ruleset, played in
process with ``push`` and through ONE long-lived protocol adapter process,
agree at every step; an adapter broken on purpose
(``tests/conformance/broken_adapter.py``) is caught, with a reproducer and
the script that shows the disagreement.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import budget
from ._support import impl

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "verification" / "differential.py"
#: games per ruleset in make test-long (tests/budget.py: a quarter in make
#: test): Premium games are about three times as long; online matches (one
#: to three rounds, then the players leave) a little longer
GAMES = {
    ruleset: budget.games(count)
    for ruleset, count in {"2019": 150, "2019-classic": 150, "premium": 60, "online": 60}.items()
}
#: an adapter whose engine ranks the players who went out backwards (the
#: first one out highest): an online-only mistake, patched in its process
RANKS_REVERSED = " ".join(
    [
        shlex.quote(sys.executable),
        "-c",
        shlex.quote(
            "import sys\n"
            "import loveletter.consequences as consequences\n"
            "import loveletter.fastpath as fastpath\n"
            "from loveletter.conformance import adapter\n"
            "real = vars(consequences)['round_ranks']\n"
            "def ranks(ruleset, n, revealed, live, exits, piles):\n"
            "    return real(ruleset, n, revealed, live, tuple(reversed(exits)), piles)\n"
            "for module in (consequences, fastpath):\n"
            "    if 'round_ranks' in vars(module):\n"
            "        vars(module)['round_ranks'] = ranks\n"
            "sys.exit(adapter.main())\n"
        ),
    ]
)


def run_differential(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def figures(output: str) -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = {}
    current: dict[str, int] = {}
    for line in output.splitlines():
        heading = re.fullmatch(r"== (\S+) ==", line)
        if heading:
            current = found.setdefault(heading.group(1), {})
        figure = re.fullmatch(r"  (games|commands|steps|agreements|disagreements) +(\d+).*", line)
        if figure:
            current[figure.group(1)] = int(figure.group(2))
    return found


@pytest.mark.budgeted
@pytest.mark.parametrize("ruleset", list(GAMES))
def test_the_adapter_agrees_with_the_engine_at_every_step(ruleset: str) -> None:
    games = GAMES[ruleset]
    result = run_differential("--games", str(games), "--rulesets", ruleset, "--seed", "5")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    found = figures(result.stdout)[ruleset]
    assert found["games"] == found["agreements"] == games
    assert found["disagreements"] == 0
    # every game has many commands, refused ones included, and an
    # observation after each accepted one
    assert found["commands"] > 20 * games
    assert found["steps"] > found["commands"] + 10 * games
    assert "the adapter broke" not in result.stdout


@pytest.mark.parametrize(
    ("bug", "ruleset"),
    [
        ("protected-targetable", "2019"),
        ("chancellor-returns-reversed", "2019"),
        ("baron-tie-eliminates", "2019-classic"),
        ("guard-may-name-guard", "premium"),
        ("sycophant-does-not-bind", "online"),
        ("online-ranks-reversed", "online"),
    ],
)
def test_a_broken_adapter_is_caught_with_its_reproducer_and_script(bug: str, ruleset: str) -> None:
    adapter = RANKS_REVERSED if bug == "online-ranks-reversed" else impl("broken_adapter.py", bug)
    result = run_differential(
        "--games", "60", "--rulesets", ruleset, "--fail-fast", "--adapter", adapter
    )
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert figures(result.stdout)[ruleset]["disagreements"] == 1
    assert "DISAGREEMENT" in result.stdout
    reproduce = re.search(r"reproduce:  python verification/differential\.py (.*)", result.stdout)
    script = re.search(r"script:     (\{.*\})$", result.stdout, re.MULTILINE)
    assert reproduce and script, result.stdout
    case = json.loads(script.group(1))
    assert case["ruleset"] == ruleset and case["steps"]
    # the reproducer plays the same game: the broken adapter disagrees
    # again, the real one agrees
    again = run_differential(*reproduce.group(1).split(), "--adapter", adapter)
    assert again.returncode == 1 and "DISAGREEMENT" in again.stdout
    fixed = run_differential(*reproduce.group(1).split())
    assert fixed.returncode == 0, fixed.stdout[-3000:]
