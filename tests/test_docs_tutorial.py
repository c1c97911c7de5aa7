"""The implementers' pages (docs/implementers/) say what really happens.

Convention: in a ```console block of ``tutorial.md`` or ``protocol.md``, a
line ``$ loveletter conformance run ...`` is a command this test runs from
the repository root (``loveletter`` being this interpreter's, and
``python`` inside ``--impl`` too). The lines after it are its output, a
line ``...`` standing for lines left out (without one, the output must
match exactly); then ``$ echo $?`` and the exit status it must have. Files
named after ``--report``, ``--trace`` and ``--xfail`` live in a scratch
directory; an ``--xfail`` file's content is the page's ``{code-block}``
captioned with its name. A ``report.json`` excerpt must match the report
the command wrote, and the transcript blocks of ``protocol.md`` (captioned
``runner → implementation`` or the reverse) the trace it wrote.

The counts shown come from the suite: adding cases means updating the pages.
The generator of the reference pages (docs/_ext/schema_pages.py) is tested
at the end.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "docs" / "implementers"
TESTED_PAGES = ("tutorial.md", "protocol.md")
EXTENSION = ROOT / "docs" / "_ext" / "schema_pages.py"
SCHEMAS = ROOT / "conformance" / "schema"

PROMPT = "$ "
TESTED = "$ loveletter conformance run"
STATUS = "$ echo $?"
ELLIPSIS = "..."
#: options whose value is a file, kept in the scratch directory
FILE_OPTIONS = frozenset({"--report", "--trace", "--xfail"})
#: ``loveletter`` without relying on a console script on PATH
LOVELETTER = "import sys; from loveletter.cli import main; sys.exit(main(sys.argv[1:]))"
TO_IMPL, TO_RUNNER = "runner → implementation", "implementation → runner"


@dataclass(frozen=True)
class Shown:
    """One tested command as a page shows it."""

    page: str
    line: int
    command: str  # after the prompt
    output: tuple[str, ...]
    status: int

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


@dataclass(frozen=True)
class Block:
    """A fenced block: its info string, options (``:caption:``) and body."""

    line: int
    info: str
    options: dict[str, str]
    body: tuple[str, ...]


def blocks(text: str) -> Iterator[Block]:
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```") or lines[i] == "```":
            i += 1
            continue
        start, info = i + 1, lines[i][3:].strip()
        i += 1
        options: dict[str, str] = {}
        while i < len(lines) and info.startswith("{") and lines[i].startswith(":"):
            key, _, value = lines[i][1:].partition(":")
            options[key.strip()] = value.strip()
            i += 1
        body: list[str] = []
        while i < len(lines) and lines[i] != "```":
            body.append(lines[i])
            i += 1
        i += 1
        if options and body and not body[0].strip():
            body = body[1:]
        yield Block(start, info, options, tuple(body))


def page_text(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


def shown_commands(name: str) -> list[Shown]:
    found: list[Shown] = []
    for block in blocks(page_text(name)):
        if block.info not in ("console", "sh"):
            continue
        body = block.body
        for n, line in enumerate(body):
            if not line.startswith(TESTED):
                continue
            where = f"{name}:{block.line + n + 1}"
            end = next((k for k in range(n + 1, len(body)) if body[k].startswith(PROMPT)), None)
            assert end is not None and body[end] == STATUS, f"{where}: no `{STATUS}` after it"
            assert end + 1 < len(body) and body[end + 1].strip().isdigit(), f"{where}: no status"
            output = tuple(body[n + 1 : end])
            found.append(
                Shown(name, block.line + n + 1, line[2:], output, int(body[end + 1].strip()))
            )
    return found


def captioned(name: str) -> dict[str, list[Block]]:
    found: dict[str, list[Block]] = {}
    for block in blocks(page_text(name)):
        if "caption" in block.options:
            found.setdefault(block.options["caption"], []).append(block)
    return found


ALL_SHOWN = [shown for page in TESTED_PAGES for shown in shown_commands(page)]


@dataclass(frozen=True)
class Ran:
    shown: Shown
    status: int
    output: tuple[str, ...]
    workdir: Path


def argv(shown: Shown, workdir: Path) -> list[str]:
    words = shlex.split(shown.command)
    assert words[:3] == ["loveletter", "conformance", "run"], shown.id
    args: list[str] = []
    rest = iter(words[1:])
    for word in rest:
        args.append(word)
        if word == "--impl":
            impl = shlex.split(next(rest))
            if impl[0] == "python":
                impl[0] = sys.executable
            args.append(shlex.join(impl))
        elif word in FILE_OPTIONS:
            args.append(str(workdir / next(rest)))
    return [sys.executable, "-c", LOVELETTER, *args]


def run(shown: Shown, workdir: Path) -> Ran:
    workdir.mkdir(parents=True)
    files = captioned(shown.page)
    words = shlex.split(shown.command)
    for option, value in pairwise(words):
        if option == "--xfail":
            (block,) = files[value]
            (workdir / value).write_text("\n".join(block.body) + "\n", encoding="utf-8")
    done = subprocess.run(
        argv(shown, workdir), cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    lines = (done.stdout + done.stderr).splitlines()
    return Ran(shown, done.returncode, tuple(line.rstrip() for line in lines), workdir)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """Every tested command, run once, several at a time (the whole suite
    against the minimal adapter alone takes about 15 s)."""
    scratch = tmp_path_factory.mktemp("tutorial")
    workers = max(2, os.cpu_count() or 2)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = pool.map(
            lambda s: run(s, scratch / f"{s.page}-{s.line}"), sorted(ALL_SHOWN, key=cost)
        )
        return {r.shown.id: r for r in results}


def cost(shown: Shown) -> int:
    """Slowest first, so the runs share the processors evenly: loading the
    replay starts (for the minimal adapter, or ``--starts replay``) costs
    about 7 s more, running every case a few."""
    replays = "minimal_adapter" in shown.command or "--starts replay" in shown.command
    return -(2 * replays + ("--run" not in shown.command))


def test_the_pages_show_commands_to_test() -> None:
    assert {s.page for s in ALL_SHOWN} == set(TESTED_PAGES)
    commands = " ".join(s.command for s in ALL_SHOWN)
    for option in ("--impl", "--report", "--xfail", "--rejections any", "--starts replay"):
        assert option in commands, option
    assert "minimal_adapter.py" in commands


@pytest.mark.parametrize("shown", ALL_SHOWN, ids=lambda s: s.id)
def test_a_shown_command_exits_and_prints_as_shown(shown: Shown, ran: dict[str, Ran]) -> None:
    result = ran[shown.id]
    printed = "\n".join(result.output)
    assert result.status == shown.status, f"{shown.command}\n{printed[-3000:]}"
    expected = [line.rstrip() for line in shown.output]
    if ELLIPSIS not in expected:
        assert list(result.output) == expected, printed[-3000:]
        return
    # the lines shown, in order, among the lines printed
    position = 0
    for line in expected:
        if line == ELLIPSIS:
            continue
        assert line in result.output[position:], f"{line!r} not printed (in order):\n{printed}"
        position = result.output.index(line, position) + 1


def test_the_literal_includes_exist() -> None:
    included: list[Path] = []
    for name in TESTED_PAGES:
        for block in blocks(page_text(name)):
            if block.info.startswith("{literalinclude}"):
                path = (PAGES / block.info.split(maxsplit=1)[1]).resolve()
                assert path.is_file(), f"{name}:{block.line}: {path}"
                included.append(path)
    assert ROOT / "tests" / "conformance" / "minimal_adapter.py" in included


def _produced(ran: dict[str, Ran], page: str, option: str, name: str) -> Path:
    (result,) = [
        r for r in ran.values() if r.shown.page == page and f"{option} {name}" in r.shown.command
    ]
    return result.workdir / name


def test_the_report_excerpts_are_from_the_report(ran: dict[str, Ran]) -> None:
    report = json.loads(_produced(ran, "tutorial.md", "--report", "report.json").read_text())
    command = report["implementation"]["command"]
    report["implementation"]["command"] = command.replace(sys.executable, "python", 1)
    excerpts = [b for caption, bs in captioned("tutorial.md").items() for b in bs]
    excerpts = [b for b in excerpts if b.options["caption"].startswith("report.json")]
    assert len(excerpts) == 2
    for block in excerpts:
        shown: dict[str, Any] = json.loads("\n".join(block.body))
        if "name" in shown:
            (entry,) = [c for c in report["cases"] if c["name"] == shown["name"]]
            assert entry == shown
        else:
            assert {k: report[k] for k in shown} == shown


def test_the_transcript_is_the_trace(ran: dict[str, Ran]) -> None:
    trace = _produced(ran, "protocol.md", "--trace", "trace.jsonl").read_text(encoding="utf-8")
    recorded = [
        (TO_IMPL if entry["to"] == "impl" else TO_RUNNER, json.loads(entry["line"]))
        for entry in map(json.loads, trace.splitlines())
    ]
    shown = [
        (block.options["caption"], json.loads("\n".join(block.body)))
        for block in blocks(page_text("protocol.md"))
        if block.options.get("caption") in (TO_IMPL, TO_RUNNER)
    ]
    assert shown == recorded


# --- the reference pages' generator ------------------------------------------------


@cache
def extension() -> ModuleType:
    spec = importlib.util.spec_from_file_location("schema_pages", EXTENSION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@cache
def generated() -> Any:
    return extension().generate()


def schema_files() -> list[Path]:
    return sorted(SCHEMAS.rglob("*.json"))


def test_every_schema_has_a_page() -> None:
    pages = generated().pages
    for path in schema_files():
        page = path.relative_to(SCHEMAS).with_suffix(".md").as_posix()
        assert page in pages, page
        assert f"conformance/schema/{path.relative_to(SCHEMAS).as_posix()}" in pages[page]
    for page in ("index.md", "vocabulary.md", "definitions.md"):
        assert page in pages
    index = pages["index.md"]
    for page in pages:
        if page != "index.md":
            assert f"\n{page.removesuffix('.md')}\n" in index, f"{page} not in the toctree"


def test_the_case_page_has_every_top_level_field() -> None:
    schema = json.loads((SCHEMAS / "case-v1.json").read_text(encoding="utf-8"))
    page = generated().pages["case-v1.md"]
    required = set(schema["required"])
    for name in schema["properties"]:
        (row,) = [line for line in page.splitlines() if line.startswith(f"| `{name}` |")][:1]
        assert ("| required |" in row) == (name in required), row


def test_every_protocol_message_type_is_documented() -> None:
    pages = generated().pages
    for path in sorted((SCHEMAS / "protocol-v1").glob("*.json")):
        kind = json.loads(path.read_text(encoding="utf-8"))["properties"]["type"]["const"]
        page = pages[f"protocol-v1/{path.stem}.md"]
        assert f"# Message `{kind}`" in page
        assert f"schema-protocol-v1-{kind}" in page_text("protocol.md"), kind


def test_the_vocabulary_is_listed() -> None:
    from loveletter.conformance import vocabulary

    page = generated().pages["vocabulary.md"]
    names = [
        *vocabulary.CARD_NAMES,
        *vocabulary.REJECTION_KINDS,
        *vocabulary.EVENT_FIELDS,
        *vocabulary.COMMAND_FIELDS,
        *vocabulary.CAPABILITIES,
        *vocabulary.DECISIONS,
    ]
    for name in names:
        assert re.search(rf"[`<]{re.escape(name)}[`> ]", page), name
    versions = extension().read_versions(ROOT / "conformance")
    for value in versions.values():
        assert re.search(rf"^[* ] - {re.escape(value)}$", generated().pages["index.md"], re.M)


def test_the_schemas_agree_with_the_engine_and_describe_every_field() -> None:
    assert generated().problems == []
    assert generated().undescribed == []


def test_a_field_without_a_description_fails_the_build(tmp_path: Path) -> None:
    suite = tmp_path / "conformance"
    shutil.copytree(SCHEMAS, suite / "schema")
    for name in ("suite.yaml", "README.md"):
        shutil.copy(ROOT / "conformance" / name, suite / name)
    path = suite / "schema" / "replay-v1.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["properties"]["after_draw"]["description"]
    path.write_text(json.dumps(data), encoding="utf-8")
    generated = extension().generate(suite)
    assert generated.undescribed == ["replay-v1:after_draw"]
    # each message is a warning, which the -W build turns into a failure
    assert any("replay-v1:after_draw" in m for m in extension().iter_messages(generated))


def test_a_definition_one_schema_changes_is_shown_on_its_page(tmp_path: Path) -> None:
    suite = tmp_path / "conformance"
    shutil.copytree(SCHEMAS, suite / "schema")
    for name in ("suite.yaml", "README.md"):
        shutil.copy(ROOT / "conformance" / name, suite / name)
    stop = suite / "schema" / "protocol-v1" / "stop.json"
    data = json.loads(stop.read_text(encoding="utf-8"))
    data["$defs"]["seat"] = {"type": "integer", "minimum": 0, "maximum": 7}
    stop.write_text(json.dumps(data), encoding="utf-8")
    pages = extension().generate(suite).pages
    assert "(schema-protocol-v1-stop-def-seat)=" in pages["protocol-v1/stop.md"]
    assert "integer from 0 to 7" in pages["protocol-v1/stop.md"]
    # what refers to a seat is no longer shared either
    assert "(schema-def-seat)=" not in pages["definitions.md"]
    assert "(schema-def-event)=" not in pages["definitions.md"]
    assert "(schema-def-card)=" in pages["definitions.md"]


def test_every_reference_resolves() -> None:
    pages = {**generated().pages}
    for name in ("index.md", *TESTED_PAGES):
        pages[f"../{name}"] = page_text(name)
    labels = {m for text in pages.values() for m in re.findall(r"^\(([^)]+)\)=$", text, re.M)}
    for name, text in pages.items():
        for target in re.findall(r"\{ref\}`(?:[^`<]*<)?([^`>]+)>?`", text):
            assert target in labels, f"{name}: {target}"


def test_pages_are_written_only_when_they_change(tmp_path: Path) -> None:
    write = extension().write_pages
    assert len(write({"a.md": "A\n", "sub/b.md": "B\n"}, tmp_path)) == 2
    assert write({"a.md": "A\n", "sub/b.md": "B\n"}, tmp_path) == []
    stamp = (tmp_path / "a.md").stat().st_mtime_ns
    assert write({"a.md": "A\n"}, tmp_path) == [tmp_path / "sub" / "b.md"]  # removed
    assert (tmp_path / "a.md").stat().st_mtime_ns == stamp
    assert not (tmp_path / "sub" / "b.md").exists()
