"""The package as ``pip install loveletter-rules`` gives it, away from the checkout.

One module, marked ``wheel`` (about 15-25 s; ``pytest -m 'not wheel'`` leaves
it out). Its fixtures, once for the module: build an sdist from a copy of the
checkout and a wheel from that sdist (as pip does from a source release, so
``MANIFEST.in`` and ``setup.py`` are both tested), install the wheel in a
fresh virtual environment in a temporary directory, and run the installed
``loveletter`` there from a directory outside the checkout. The spec and the
conformance suite must come from the package data (``loveletter/_data``),
whole.

No network: the build uses this environment's setuptools
(``--no-build-isolation``, ``--no-index``), and the new environment sees the
wheel's dependencies (attrs, PyYAML) in this environment's site-packages
through a ``.pth`` file, which comes after its own site-packages on
``sys.path``, so that its ``loveletter`` is the installed one (checked).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
import yaml

from loveletter import resources

pytestmark = pytest.mark.wheel

CHECKOUT = Path(__file__).resolve().parents[1]
SHARED = ("spec", "conformance")
#: left out of the copy that is built: at the top, what is not source
_TOP_LEVEL_IGNORED = {".git", ".venv", "build", "dist", ".hypothesis"}
#: how long one command may take, in seconds (far more than it needs)
TIMEOUT = 300


def shipped_files(root: Path) -> set[str]:
    """The files under ``root`` that the build ships (see ``setup.py``)."""
    return {
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def _ignore(directory: str, names: list[str]) -> set[str]:
    ignored = {n for n in names if n == "__pycache__" or n.endswith((".pyc", ".egg-info"))}
    if Path(directory).resolve() == CHECKOUT:
        ignored |= {n for n in names if n in _TOP_LEVEL_IGNORED or n.endswith("_cache")}
    return ignored


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_"))}
    env |= {
        "PYTHONNOUSERSITE": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_INPUT": "1",
    }
    env.pop("VIRTUAL_ENV", None)
    return env


def _run(argv: list[str], cwd: Path) -> str:
    result = subprocess.run(
        argv, cwd=cwd, env=_environment(), capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, (
        f"{shlex.join(argv)} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    )
    return result.stdout


@attrs.frozen
class Installed:
    python: Path  # the new environment's interpreter
    loveletter: Path  # its ``loveletter`` command
    purelib: Path  # its site-packages
    elsewhere: Path  # a directory outside the checkout, to run commands in
    expected: dict[str, set[str]]  # the checkout's files, by shared directory


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("wheel")
    expected = {name: shipped_files(CHECKOUT / name) for name in SHARED}
    source = work / "source"
    shutil.copytree(CHECKOUT, source, ignore=_ignore)
    dist = work / "dist"
    dist.mkdir()
    build_sdist = (
        "import sys; from setuptools import build_meta; build_meta.build_sdist(sys.argv[1])"
    )
    _run([sys.executable, "-c", build_sdist, str(dist)], cwd=source)
    # the distribution is loveletter-rules (loveletter on the index is another
    # project); the import name stays loveletter
    (sdist,) = dist.glob("loveletter_rules-*.tar.gz")
    pip = [sys.executable, "-m", "pip"]
    offline = ["--no-deps", "--no-build-isolation", "--no-index"]
    _run([*pip, "wheel", *offline, "-w", str(dist), str(sdist)], cwd=work)
    (wheel,) = dist.glob("loveletter_rules-*.whl")

    venv = work / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=work)
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    python = scripts / ("python.exe" if os.name == "nt" else "python")
    _run(
        [*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)], cwd=work
    )
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(_run([str(python), "-c", where], cwd=work).strip())
    # attrs and PyYAML from this environment's site-packages, after the new one's
    dependencies = sorted({str(Path(m.__file__ or "").resolve().parents[1]) for m in (attrs, yaml)})
    (purelib / "_loveletter_test_dependencies.pth").write_text("\n".join(dependencies) + "\n")

    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    return Installed(
        python=python,
        loveletter=scripts / ("loveletter.exe" if os.name == "nt" else "loveletter"),
        purelib=purelib,
        elsewhere=elsewhere,
        expected=expected,
    )


@pytest.fixture(scope="module")
def runs(installed: Installed) -> Iterator[dict[str, tuple[int, str]]]:
    """The installed commands, run side by side: name -> (exit status, output)."""
    adapter = shlex.join([str(installed.python), "-m", "loveletter.conformance.adapter"])
    commands = {
        "demo": ["demo"],
        "adapter": [
            "conformance",
            "run",
            "--impl",
            adapter,
            "--ruleset",
            "2019-classic",
            "--quiet",
        ],
        "in process": ["conformance", "run", "--quiet", "--ruleset", "premium"],
        "rules": ["rules", "prince.empty-deck-draws-set-aside", "--width", "100"],
        "ruling": ["rules", "--ruling", "9"],
        "version": ["--version"],
    }
    processes = {
        name: subprocess.Popen(
            [str(installed.loveletter), *argv],
            cwd=installed.elsewhere,
            env=_environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name, argv in commands.items()
    }
    results: dict[str, tuple[int, str]] = {}
    try:
        for name, process in processes.items():
            out, _ = process.communicate(timeout=TIMEOUT)
            results[name] = (process.returncode, out)
        yield results
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()
                process.communicate()


def _passed(summary: str) -> int:
    match = re.search(r"^(\d+) passed, 0 failed, \d+ skipped", summary, re.MULTILINE)
    assert match, summary
    return int(match.group(1))


def test_the_checkout_reads_its_own_directories() -> None:
    assert resources.suite_root() == CHECKOUT / "conformance"
    assert resources.spec_root() == CHECKOUT / "spec"
    assert all(resources.from_checkout(name) for name in SHARED)


def test_the_wheel_ships_the_spec_and_the_suite_whole(installed: Installed) -> None:
    data = installed.purelib / "loveletter" / "_data"
    for name in SHARED:
        assert shipped_files(data / name) == installed.expected[name], name
    cases = {f for f in installed.expected["conformance"] if f.startswith("cases/")}
    assert len(cases) > 100
    assert len(shipped_files(data / "conformance" / "cases")) == len(cases)


def test_the_installed_package_reads_its_package_data(installed: Installed) -> None:
    script = (
        "import json, sys, loveletter, loveletter.resources as r;"
        "print(json.dumps([loveletter.__file__, str(r.suite_root()), str(r.spec_root()),"
        " r.from_checkout('conformance'), r.from_checkout('spec'), sys.path]))"
    )
    out = _run([str(installed.python), "-c", script], cwd=installed.elsewhere)
    module, suite, spec, suite_from_checkout, spec_from_checkout, path = json.loads(out)
    package = installed.purelib.resolve() / "loveletter"
    assert Path(module).resolve() == package / "__init__.py"
    assert Path(suite) == package / "_data" / "conformance"
    assert Path(spec) == package / "_data" / "spec"
    assert not suite_from_checkout and not spec_from_checkout
    entries = {(installed.elsewhere / p).resolve() for p in path}  # "" is the current directory
    assert CHECKOUT not in entries and CHECKOUT / "loveletter" not in entries


def test_the_distribution_is_loveletter_rules_under_the_mit_licence(
    installed: Installed,
) -> None:
    script = (
        "import json, importlib.metadata as m; d = m.distribution('loveletter-rules');"
        " print(json.dumps([d.metadata['Name'], d.metadata.get('License-Expression'),"
        " [str(f) for f in d.files or () if 'LICENSE' in str(f)]]))"
    )
    name, licence, files = json.loads(
        _run([str(installed.python), "-c", script], cwd=installed.elsewhere)
    )
    assert (name, licence) == ("loveletter-rules", "MIT")
    assert files and files[0].endswith("LICENSE")
    # the rulebooks are not the project's to license, and are never shipped
    # (named NNN_<16 hex digits>.txt in ../shared/rulebooks)
    rulebook = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
    assert not [p for p in installed.purelib.rglob("*") if rulebook.fullmatch(p.name)]


def test_version_and_python_dash_m(installed: Installed, runs: dict[str, tuple[int, str]]) -> None:
    status, out = runs["version"]
    assert status == 0 and re.fullmatch(r"loveletter-rules \S+ \(conformance suite \S+\)\n", out), (
        out
    )
    same = _run([str(installed.python), "-m", "loveletter", "--version"], cwd=installed.elsewhere)
    assert same == out


def test_demo(runs: dict[str, tuple[int, str]]) -> None:
    status, out = runs["demo"]
    assert status == 0, out
    assert out.startswith("A game of Love Letter"), out
    assert re.search(r"^Winner: Player \d\.$", out, re.MULTILINE), out
    assert "Conformance suite, against this engine:" in out
    assert "run from a source checkout" not in out
    assert _passed(out) > 100


def test_conformance_through_the_adapter(runs: dict[str, tuple[int, str]]) -> None:
    status, out = runs["adapter"]
    assert status == 0, out
    assert _passed(out) > 0


def test_conformance_in_process(runs: dict[str, tuple[int, str]]) -> None:
    status, out = runs["in process"]
    assert status == 0, out
    assert _passed(out) > 0


def test_rules_from_the_installed_package(runs: dict[str, tuple[int, str]]) -> None:
    """``loveletter rules`` reads the spec and the cases the wheel carries."""
    status, out = runs["rules"]
    assert status == 0, out
    assert out.startswith("prince.empty-deck-draws-set-aside\n"), out
    assert "Ruling 9: The set-aside card is needed at most once" in out
    assert "cases pin this rule" in out and "Step 1." in out
    status, out = runs["ruling"]
    assert status == 0, out
    assert out.startswith("Ruling 9: ") and "What the rulebooks say" in out
