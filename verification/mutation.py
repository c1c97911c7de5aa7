"""Mutation testing of the rules code with mutmut (``make mutation``).

Scope: ``loveletter/cards/*.py``, ``kinds.py``, the engine (its public
verbs, ``engine.py``, and the modules of the reference path: ``dealing.py``,
``deciding.py``, ``targeting.py``, ``consequences.py``, ``legal.py``,
``replaying.py``, ``evolution.py``), the fast path ``fastpath.py``,
``rulesets.py``, ``ranking.py`` (the online edition's ranks and hand bonus)
and ``views.py``. Results and the reasoning about
the survivors are in ``verification/mutation-report.md``.

mutmut never runs in the checkout. The script copies what the tests need
(``loveletter/``, ``tests/``, ``spec/``, ``conformance/``, ``pyproject.toml``,
``setup.py``) into a work directory (``--workdir``, default
``/tmp/loveletter-mutation``) and prepares the copy:

* mutmut 3 leaves every decorated function alone (a decorator runs at
  definition time, and copying one for its trampolines could repeat its side
  effects), and most rule functions carry ``@implements(...)``. That
  decorator only records a citation and returns the function unchanged, so
  the copy moves each one after its function as a plain call,
  ``implements(...)(name)``: same citations, same function, now mutable.
* Other decorators stay: in scope only ``@property`` (``Card.code``,
  ``Card.value``, ``Card.title``, ``PlayerView.to_act``), which mutmut's
  trampolines cannot wrap (the script counts and names what it skips). A
  function decorated with a cache would be skipped rightly: a cache shared
  by every mutant forked from the same process answers with the original
  code's values and hides the mutant. The fast path caches the
  reference's functions by wrapping them at load time instead
  (``interned(options)``), so the reference stays mutable and the wrappers
  call its trampolines.
* ``tests/conftest.py`` gets an autouse fixture that empties the fast
  path's caches (:func:`loveletter.fastpath.forget`: its ``legal_commands``
  table and its shared instances) before each test, for that reason: mutmut
  forks each mutant from the process that ran the clean tests. It also
  refuses to run if ``loveletter`` is not imported from the mutated copy
  (every mutant would then "survive"), and registers a Hypothesis profile
  with a small budget (``--examples``, default 2; derandomized, so every
  mutant replays the same games) for ``--properties``.
* ``pyproject.toml`` gets the ``[tool.mutmut]`` table: the modules to mutate,
  the test selection, ``spec``/``conformance`` copied beside the package (the
  package finds them there, as in a checkout).

Code that runs only at import (the edition tables of ``rulesets.py``, the
redactors of ``views.py``, constants of the card modules) runs before
mutmut switches a mutant on, so only a test that calls it again can see a
mutant there; ``tests/rules/test_edition_tables_rebuilt.py`` and
``tests/rules/test_tables_built_at_import.py`` do.

Test selection (mutmut runs, with ``-x``, fastest first, only the selected
tests that called the mutated function in the clean run): ``tests/rules``,
``tests/test_card_modules.py``, ``tests/test_views.py``,
``tests/test_view_helpers.py`` (the bot writers' helpers and ``str(view)``),
``tests/test_validation.py``, ``tests/conformance/test_suite.py`` (every
conformance case in process), ``tests/conformance/test_both_paths.py``
(the fast path against the reference) and ``tests/test_fastpath.py`` (the
fast path covering every card and accepting every legal command, so that
a mutant handing its work to the reference is seen), less the slow tests in
``DESELECTED``; about 30 s of CPU for the whole selection under mutmut's
trampolines. ``--properties`` adds ``tests/properties``. Left out: the docs,
wheel, CLI, pseudo-terminal and subprocess tests, slow and not about the
rules.

Counts: ``killed`` is what a test failed on; a ``timeout`` (the tests ran far
longer than on the original code, so a loop no longer ends) counts as
detected too; ``survived`` and ``no tests`` (no selected test calls the
function) count as not detected; ``suspicious``/``skipped``/``segfault``
would be printed apart and count as not detected. The score is
detected / total.

Usage::

    .venv/bin/python verification/mutation.py                 # the whole scope
    .venv/bin/python verification/mutation.py --paths loveletter/cards/baron.py
    .venv/bin/python verification/mutation.py --reuse          # print the last run again
    .venv/bin/python verification/mutation.py --rerun          # new tests: retest the survivors
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from mutmut.stats import status_by_exit_code

REPO = Path(__file__).resolve().parent.parent
DEFAULT_WORKDIR = Path("/tmp/loveletter-mutation")
MUTMUT = Path(sys.executable).parent / "mutmut"

SCOPE = (
    "loveletter/cards/*.py",
    "loveletter/kinds.py",
    "loveletter/engine.py",
    "loveletter/dealing.py",
    "loveletter/deciding.py",
    "loveletter/targeting.py",
    "loveletter/consequences.py",
    "loveletter/legal.py",
    "loveletter/replaying.py",
    "loveletter/evolution.py",
    "loveletter/fastpath.py",
    "loveletter/rulesets.py",
    "loveletter/ranking.py",
    "loveletter/views.py",
)
COPIED = ("loveletter", "tests", "spec", "conformance", "pyproject.toml", "setup.py")
TESTS = (
    "tests/rules",
    "tests/test_card_modules.py",
    "tests/test_views.py",
    "tests/test_view_helpers.py",
    "tests/test_validation.py",
    "tests/conformance/test_suite.py",
    "tests/conformance/test_both_paths.py",
    "tests/test_fastpath.py",
)
#: added by --properties: random games with every invariant checked, at the
#: --examples budget. Worth it for mutants the curated cases miss, but each
#: surviving mutant then costs minutes of CPU (every engine call goes through
#: mutmut's trampolines), so the default run leaves them out.
PROPERTY_TESTS = ("tests/properties",)
# The first three start subprocesses (the protocol adapter, a broken
# implementation), and the in-process cases check the same rules; the last
# plays random games of every ruleset and count at a fixed budget, which
# tests/properties does too, scaled to --examples. Each costs seconds to
# every surviving mutant.
DESELECTED = (
    "tests/conformance/test_suite.py::test_whole_suite_through_the_protocol_adapter",
    "tests/conformance/test_suite.py::test_cli_fails_with_a_diff_against_a_broken_implementation",
    "tests/conformance/test_suite.py::test_cli_reports_an_implementation_that_cannot_start",
    "tests/test_validation.py::test_every_state_of_random_games_of_every_ruleset_and_count_is_accepted",
    # reads the source of the engine's modules, which mutmut has grown tenfold;
    # runs no rule
    "tests/test_card_modules.py::test_the_engine_names_no_card",
)
DEFAULT_EXAMPLES = 2
PROGRESS_EVERY = 60.0

DETECTED = ("killed", "timeout", "caught by type check")

CONFTEST_ADDITION = """

# -- added by verification/mutation.py for the mutation run -----------------
import loveletter as _mutated_package  # noqa: E402
import pytest as _pytest  # noqa: E402

_COPY = Path(__file__).resolve().parent.parent
if not Path(_mutated_package.__file__).resolve().is_relative_to(_COPY):
    raise RuntimeError(f"loveletter imported from {_mutated_package.__file__}, not the copy")

settings.register_profile(
    "mutation",
    parent=settings.get_profile("default"),
    max_examples=int(os.environ.get("LOVELETTER_MUTATION_EXAMPLES", "10")),
)
settings.load_profile("mutation")


@_pytest.fixture(autouse=True)
def _fresh_fast_path_caches() -> None:
    from loveletter import fastpath

    fastpath.forget()
"""


def scope_files(root: Path, patterns: Sequence[str]) -> list[str]:
    found: set[str] = set()
    for pattern in patterns:
        matches = sorted(root.glob(pattern))
        if not matches:
            raise SystemExit(f"{pattern}: no such module")
        found.update(str(p.relative_to(root)) for p in matches if p.suffix == ".py")
    return sorted(found)


def _is_implements(decorator: ast.expr) -> bool:
    if not isinstance(decorator, ast.Call):
        return False
    func = decorator.func
    return (isinstance(func, ast.Name) and func.id == "implements") or (
        isinstance(func, ast.Attribute) and func.attr == "implements"
    )


def move_implements(source: str) -> tuple[str, int]:
    """``source`` with each ``@implements(...)`` decorator turned into a call
    right after its function; and how many were moved. The decorator returns
    the function unchanged, so the module defines the same names."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    removed: set[int] = set()
    # original line index -> (indentation, statement), deepest first
    after: dict[int, list[tuple[int, str]]] = {}
    moved = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            if not _is_implements(decorator):
                continue
            first, last = decorator.lineno - 1, (decorator.end_lineno or decorator.lineno) - 1
            # ruff format gives every decorator lines of its own; anything
            # else would need a finer edit than removing whole lines
            assert lines[first].strip().startswith("@"), (first, lines[first])
            assert lines[last].rstrip().endswith(")"), (last, lines[last])
            call = ast.get_source_segment(source, decorator)
            assert call is not None
            removed.update(range(first, last + 1))
            end = (node.end_lineno or node.lineno) - 1
            after.setdefault(end, []).append(
                (node.col_offset, " " * node.col_offset + f"{call}({node.name})\n")
            )
            moved += 1
    out: list[str] = []
    for index, line in enumerate(lines):
        if index not in removed:
            out.append(line)
        for _, statement in sorted(after.get(index, ()), key=lambda item: -item[0]):
            if not out[-1].endswith("\n"):
                out[-1] += "\n"
            out.append(statement)
    return "".join(out), moved


def decorated_functions(source: str) -> Iterator[tuple[str, int, list[str]]]:
    """(qualified name, line, decorators) of the functions mutmut skips for
    their decorators, once ``@implements`` is moved away: any but a lone
    ``staticmethod`` or ``classmethod``."""

    def visit(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, int, list[str]]]:
        for node in body:
            if isinstance(node, ast.ClassDef):
                yield from visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [ast.unparse(d) for d in node.decorator_list if not _is_implements(d)]
                if names and names not in (["staticmethod"], ["classmethod"]):
                    yield f"{prefix}{node.name}", node.lineno, names

    yield from visit(ast.parse(source).body, "")


def mutmut_table(modules: Sequence[str], tests: Sequence[str]) -> str:
    def strings(items: Sequence[str]) -> str:
        return "[" + ", ".join(json.dumps(i) for i in items) + "]"

    selection = [*tests, *(arg for test in DESELECTED for arg in ("--deselect", test))]

    return (
        "\n\n[tool.mutmut]\n"
        'source_paths = ["loveletter"]\n'
        f"only_mutate = {strings(modules)}\n"
        'also_copy = ["spec", "conformance", "setup.py"]\n'
        f"pytest_add_cli_args_test_selection = {strings(selection)}\n"
        # the copy's own addopts collect doctests; the cache would be shared
        'pytest_add_cli_args = ["-p", "no:cacheprovider"]\n'
        # mutmut's default CPU limit (30 times the tests' time) lets a mutant
        # that loops forever (a seat search that never ends) hold a worker for
        # a quarter of an hour; 6 times is still far above any honest run
        "timeout_multiplier = 3.0\n"
    )


def prepare(workdir: Path, modules: Sequence[str], tests: Sequence[str]) -> None:
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "_data", "*.egg-info", ".hypothesis")
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, workdir / name, ignore=ignore)
        else:
            shutil.copy2(source, workdir / name)
    moved = 0
    for module in modules:
        path = workdir / module
        text, count = move_implements(path.read_text(encoding="utf-8"))
        path.write_text(text, encoding="utf-8")
        moved += count
    print(f"moved {moved} @implements decorators after their functions")
    with (workdir / "tests" / "conftest.py").open("a", encoding="utf-8") as f:
        f.write(CONFTEST_ADDITION)
    with (workdir / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write(mutmut_table(modules, tests))


def refresh_tests(workdir: Path, modules: Sequence[str], tests: Sequence[str]) -> None:
    """Copy the checkout's tests into the work directory again (mutmut
    copies them on into its ``mutants/``) and write the test selection
    again (mutmut collects the stats of the tests new to it), for
    ``--rerun``."""
    shutil.rmtree(workdir / "tests")
    shutil.copytree(REPO / "tests", workdir / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    with (workdir / "tests" / "conftest.py").open("a", encoding="utf-8") as f:
        f.write(CONFTEST_ADDITION)
    config = workdir / "pyproject.toml"
    text = config.read_text(encoding="utf-8")
    text = text[: text.index("\n\n[tool.mutmut]\n")] + mutmut_table(modules, tests)
    config.write_text(text, encoding="utf-8")


def run_mutmut(
    workdir: Path, env: dict[str, str], max_children: int, mutants: Sequence[str] = ()
) -> int:
    """``mutmut run``, its output without the spinner it redraws (with
    carriage returns) even when the output is not a terminal: each finished
    line, and the progress line at most every ``PROGRESS_EVERY`` seconds."""
    with subprocess.Popen(
        [str(MUTMUT), "run", "--max-children", str(max_children), *mutants],
        cwd=workdir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    ) as run:
        assert run.stdout is not None
        shown = 0.0
        # newline="": a carriage return ends a line too, and stays visible
        for line in io.TextIOWrapper(run.stdout, encoding="utf-8", newline=""):
            frame = next((f for f in reversed(line.split("\r")) if f.strip()), "")
            text = "".join(c for c in frame if not "\u2800" <= c <= "\u28ff").strip()
            finished = line.endswith("\n")
            now = time.monotonic()
            if text and (finished or now - shown >= PROGRESS_EVERY):
                print(text, flush=True)
                shown = now
    return run.wait()


def report_skipped(modules: Sequence[str]) -> None:
    skipped = [
        (module, name, line, decorators)
        for module in modules
        for name, line, decorators in decorated_functions(
            (REPO / module).read_text(encoding="utf-8")
        )
    ]
    print(f"\nfunctions mutmut skips for their decorators: {len(skipped)}")
    print(
        "  (rightly: an @interned cache, shared by every mutant forked from one process,"
        " would answer with the original code's values; mutmut cannot wrap a @property)"
    )
    for module, name, line, decorators in skipped:
        print(f"  {module}:{line} {name} @{', @'.join(decorators)}")


def results(workdir: Path) -> dict[str, str]:
    """mutant name -> mutmut status, from mutmut's state files."""
    statuses: dict[str, str] = {}
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        for name, code in data["exit_code_by_key"].items():
            statuses[name] = status_by_exit_code[code]
    return statuses


def original_location(mutant: str) -> str:
    """``path:line function`` in the checkout for a mutant name such as
    ``loveletter.engine.x__play__mutmut_3`` or
    ``loveletter.rulesets.xǁRulesetǁ_names__mutmut_1``."""
    qualified = mutant.rsplit("__mutmut_", 1)[0]
    module, _, mangled = qualified.rpartition(".")
    if mangled.startswith("xǁ"):
        _, cls, func = mangled.split("ǁ")
        target = f"{cls}.{func}"
    else:
        target = mangled.removeprefix("x_")
    path = REPO / (module.replace(".", "/") + ".py")

    def find(body: list[ast.stmt], prefix: str) -> int | None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                line = find(node.body, f"{prefix}{node.name}.")
                if line is not None:
                    return line
            elif isinstance(node, ast.FunctionDef) and f"{prefix}{node.name}" == target:
                return node.lineno
        return None

    line = find(ast.parse(path.read_text(encoding="utf-8")).body, "")
    return f"{path.relative_to(REPO)}:{line} {target}"


def summarize(workdir: Path, show_diffs: bool) -> float:
    statuses = results(workdir)
    counts = Counter(statuses.values())
    total = len(statuses)
    detected = sum(counts[s] for s in DETECTED)
    score = detected / total if total else 0.0
    print(f"\nmutants: {total}")
    for status in ("killed", "timeout", "survived", "no tests", "suspicious", "skipped"):
        print(f"  {status}: {counts[status]}")
    others = {s: n for s, n in counts.items() if s not in (*DETECTED, "survived", "no tests")}
    others.pop("suspicious", None)
    others.pop("skipped", None)
    for status, n in sorted(others.items()):
        print(f"  {status}: {n}")
    print(f"score (killed + timeout) / total: {detected}/{total} = {score:.1%}")
    print(f"strict score (killed only): {counts['killed'] / total if total else 0:.1%}")
    alive = sorted(name for name, status in statuses.items() if status not in DETECTED)
    if alive:
        print(f"\nnot detected ({len(alive)}):")
    for name in alive:
        print(f"\n== {name} [{statuses[name]}] at {original_location(name)}")
        if show_diffs:
            shown = subprocess.run(
                [str(MUTMUT), "show", name],
                cwd=workdir,
                capture_output=True,
                text=True,
                check=False,
            )
            print(shown.stdout.rstrip() or shown.stderr.rstrip())
    return score


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR)
    parser.add_argument("--paths", nargs="+", default=list(SCOPE), help="modules (globs) to mutate")
    parser.add_argument("--tests", nargs="+", default=list(TESTS), help="test paths mutmut may run")
    parser.add_argument(
        "--examples",
        type=int,
        default=DEFAULT_EXAMPLES,
        help="Hypothesis max_examples of the profile (tests scale their budgets from it)",
    )
    parser.add_argument(
        "--properties", action="store_true", help="add tests/properties to the test selection"
    )
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--reuse", action="store_true", help="print the last run's results without running"
    )
    parser.add_argument(
        "--rerun",
        action="store_true",
        help="keep the last run, copy the tests again and retest the mutants it did not detect "
        "(new tests can only kill more, so the others keep their result)",
    )
    parser.add_argument(
        "--no-diffs", action="store_true", help="list the survivors without their diffs"
    )
    parser.add_argument(
        "--min-score", type=float, default=0.9, help="exit 1 below this score (0 to 1)"
    )
    args = parser.parse_args(argv)
    workdir: Path = args.workdir.resolve()
    modules = scope_files(REPO, args.paths)

    env = {**os.environ, "LOVELETTER_MUTATION_EXAMPLES": str(args.examples)}
    env.pop("HYPOTHESIS_PROFILE", None)
    # --examples is the property tests' whole budget: no tier shares it out
    env["LOVELETTER_BUDGET"] = "long"
    # mutmut's progress comes through a pipe: unbuffered, it comes as it happens
    env["PYTHONUNBUFFERED"] = "1"
    started = time.monotonic()
    if args.reuse or args.rerun:
        if not (workdir / "mutants").is_dir():
            raise SystemExit(f"no previous run in {workdir}")
    else:
        tests = [*args.tests, *(PROPERTY_TESTS if args.properties else ())]
        prepare(workdir, modules, tests)
    returncode = None
    if args.rerun:
        refresh_tests(workdir, modules, [*args.tests, *(PROPERTY_TESTS if args.properties else ())])
        alive = sorted(name for name, status in results(workdir).items() if status not in DETECTED)
        print(f"retesting {len(alive)} mutants in {workdir}")
        returncode = run_mutmut(workdir, env, args.max_children, alive)
    elif not args.reuse:
        print(f"mutmut run over {len(modules)} modules, {args.max_children} workers, in {workdir}")
        returncode = run_mutmut(workdir, env, args.max_children)
    if returncode is not None:
        cpu = os.times()
        print(
            f"mutmut run: exit {returncode}, {time.monotonic() - started:.0f} s wall, "
            f"{cpu.children_user:.0f} s user CPU"
        )
        if returncode != 0:
            return returncode
    report_skipped(modules)
    score = summarize(workdir, show_diffs=not args.no_diffs)
    return 0 if score >= args.min_score else 1


if __name__ == "__main__":
    sys.exit(main())
