"""``loveletter conformance report``: the HTML page made from a run's JSON
report is built and walked. Every case of the report is on it exactly once,
the totals add up to the number of cases, every in-page link lands on an
element of the page, whatever the implementation wrote is escaped, and a
report that is not one is refused with the field named."""

from __future__ import annotations

import copy
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from loveletter.cli import main
from loveletter.conformance.cases import Case
from loveletter.conformance.cli import SUITE_ERROR
from loveletter.conformance.html_report import (
    REPORT_FORMAT,
    STATUSES,
    ReportError,
    load_report,
    parse_report,
    render_html,
)
from loveletter.conformance.runner import SUITE_ROOT, suite_version
from loveletter.reference.catalog import catalog
from loveletter.reference.document import to_myst
from loveletter.reference.pages import ruling_page, topic_page
from loveletter.reference.sources import readable
from loveletter.spec import load_spec

from ._support import suite

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "implementers" / "tutorial.md"
HOSTILE = '<script>alert("x")</script>'

# --------------------------------------------------------------------------
# a format-2 report made from a list of statuses


def _relative(case: Case) -> str:
    return Path(case.path).resolve().relative_to(SUITE_ROOT.resolve()).as_posix()


def make_report(
    statuses: Sequence[str],
    *,
    ruleset: str = "2019-classic",
    xfail: bool = True,
    name: str = "fixture",
) -> dict[str, Any]:
    """A format-2 report over the first ``len(statuses)`` cases of
    ``ruleset``, the n-th case having the n-th status, with a reason, details
    or a start not reached as that status has them."""
    cases = [c for c in suite() if c.ruleset == ruleset][: len(statuses)]
    assert len(cases) == len(statuses), "the ruleset has fewer cases than statuses"
    entries: list[dict[str, Any]] = []
    for case, status in zip(cases, statuses, strict=True):
        failing = list(case.rules[:1]) if status in ("failed", "errored", "xfailed") else []
        start = None
        if status == "start-not-reached":
            first = not any(e["start_not_reached"] for e in entries)
            start = {
                # the first at a command, the next at the deal (no command)
                "command": {"type": "PlayCard", "player": 0, "card": "Princess"} if first else None,
                "index": 3 if first else None,
                "of": 7,
                "how": "refused as invalid-choice",
                "rules": ["princess.eliminated-when-played-or-discarded"],
            }
        reason = {
            "not-applicable": "needs capability positions",
            "excluded": "not selected (--skip)",
            "skipped": "the implementation has no Extended deck",
            "xfailed": "a known Baron bug",
            "xpassed": "a known Baron bug",
        }.get(status)
        entries.append(
            {
                "name": case.name,
                "id": case.id,
                "ruleset": case.ruleset,
                "topic": PurePosixPath(_relative(case)).parent.name,
                "players": case.players,
                "title": case.title,
                "path": _relative(case),
                "rules": list(case.rules),
                "rulings": list(case.rulings),
                "status": status,
                "reason": reason,
                "xfail": status in ("xfailed", "xpassed"),
                "details": ["step 1: events differ", "  expected: X"] if failing else [],
                "checks_run": 0 if status in ("excluded", "not-applicable") else 3,
                "not_applicable": ["step 2: view of player 0: needs capability views"],
                "failing_rules": failing,
                "start_not_reached": start,
                "by_adapter": [],
                "rejection_kind_mismatches": [],
            }
        )
    counts = Counter(statuses)
    summary: dict[str, Any] = {"cases": len(entries)}
    summary.update({s: counts[s] for s in STATUSES if xfail or s[0] != "x"})
    summary.update(
        {
            "by_adapter": 0,
            "checks_run": sum(e["checks_run"] for e in entries),
            "checks_not_applicable": len(entries),
            "not_applicable_by_reason": {"needs capability views": len(entries)},
            "rejection_kind_mismatches": 0,
        }
    )
    return {
        "report_format": REPORT_FORMAT,
        "suite_version": suite_version(),
        "protocol": 1,
        "implementation": {
            "name": name,
            "version": "0.1",
            "language": "python",
            "command": "python engine.py",
            "capabilities": ["events", "state"],
        },
        "rejections": "kinds",
        "starts": "replay",
        "selection": {"rulesets": [ruleset], "players": None, "run": None, "skip": None},
        "xfail": ({e["name"]: e["reason"] for e in entries if e["xfail"]} if xfail else None),
        "summary": summary,
        "failures_by_rule": _by_rule(entries, ("failed", "errored"), "failing_rules"),
        "start_not_reached_by_rule": _by_rule(entries, ("start-not-reached",), None),
        "cases": entries,
    }


def _by_rule(
    entries: Iterable[dict[str, Any]], statuses: tuple[str, ...], field: str | None
) -> list[dict[str, Any]]:
    by_rule: dict[str, list[str]] = {}
    for entry in entries:
        if entry["status"] in statuses:
            rules = entry[field] if field else entry["start_not_reached"]["rules"]
            for rule in rules:
                by_rule.setdefault(rule, []).append(entry["name"])
    return [{"rule": rule, "cases": names} for rule, names in sorted(by_rule.items())]


#: every status, some twice, and enough passes to look like a run
MIXED = (
    *STATUSES,
    "failed",
    "start-not-reached",
    *["passed"] * 6,
)

# --------------------------------------------------------------------------
# walking the page


class Walk(HTMLParser):
    """What a reader (and a link checker) finds on the page."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: Counter[str] = Counter()
        self.hrefs: list[str] = []
        self.tags: Counter[str] = Counter()
        self.case_rows: list[tuple[str, str]] = []
        self.summary: dict[str, int] = {}
        self.total: int | None = None
        self.text: list[str] = []
        self._field: tuple[str, str] | None = None
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.tags[tag] += 1
        if "id" in values:
            self.ids[values["id"]] += 1
        if "href" in values:
            self.hrefs.append(values["href"])
        if "data-case" in values:
            self.case_rows.append((values["data-case"], values["data-status"]))
        if "data-summary" in values:
            self._field = ("summary", values["data-summary"])
        elif values.get("id") == "summary-total":
            self._field = ("total", "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._field is not None:
            kind, status = self._field
            if kind == "summary":
                self.summary[status] = int(data)
            else:
                self.total = int(data)
            self._field = None


def _walk(page: str) -> Walk:
    walk = Walk(page)
    duplicated = [anchor for anchor, n in walk.ids.items() if n > 1]
    assert duplicated == [], "ids used twice"
    unresolved = [h for h in walk.hrefs if h.startswith("#") and h[1:] not in walk.ids]
    assert unresolved == [], "in-page links to no element"
    assert not walk.tags["script"], "a script element"
    return walk


def _every_case_once(walk: Walk, report: dict[str, Any]) -> None:
    names = [name for name, _ in walk.case_rows]
    assert Counter(names) == Counter(e["name"] for e in report["cases"])
    assert all(n == 1 for n in Counter(names).values())
    assert dict(walk.case_rows) == {e["name"]: e["status"] for e in report["cases"]}


def _totals_add_up(walk: Walk, cases: int) -> None:
    assert walk.total == cases
    assert sum(walk.summary.values()) == cases
    assert {s: n for s, n in walk.summary.items() if n} == dict(
        Counter(status for _, status in walk.case_rows)
    )


def _page(report: dict[str, Any], docs_url: str | None = None) -> str:
    return render_html(report, SUITE_ROOT, docs_url=docs_url)


# --------------------------------------------------------------------------
# the page


def test_every_case_is_on_the_page_once_and_the_totals_add_up() -> None:
    report = make_report(MIXED)
    walk = _walk(_page(report))
    _every_case_once(walk, report)
    _totals_add_up(walk, len(MIXED))
    assert set(walk.summary) >= set(STATUSES)


def test_every_case_links_to_its_case_file_and_its_rules() -> None:
    report = make_report(MIXED)
    page = _page(report)
    walk = _walk(page)
    for entry in report["cases"]:
        row = re.search(rf'<tr id="([^"]+)" data-case="{re.escape(entry["name"])}"', page)
        assert row is not None
        # the case file's anchor holds the file, as the suite has it
        file_anchor = re.search(rf'<tr id="{re.escape(row[1])}"[^>]*><td><a href="#([^"]+)"', page)
        assert file_anchor is not None
        block = page.split(f'<div id="{file_anchor[1]}">', 1)[1].split("</div>", 1)[0]
        yaml_text = (SUITE_ROOT / entry["path"]).read_text(encoding="utf-8")
        assert f"id: {entry['id']}" in yaml_text
        assert f"id: {entry['id']}" in block
        for rule in entry["rules"]:
            assert f"#rule-{rule}" in walk.hrefs
    spec = load_spec()
    text = "".join(walk.text)
    for rule in {r for e in report["cases"] for r in e["rules"]}:
        assert f"rule-{rule}" in walk.ids
        assert readable(spec.rules[rule].statement)[:40] in text


def test_failures_roll_up_by_rule_and_link_to_their_cases() -> None:
    report = make_report(MIXED)
    page = _page(report)
    section = page.split('<section id="failures-by-rule">', 1)[1].split("</section>", 1)[0]
    for line in report["failures_by_rule"]:
        assert f'href="#rule-{line["rule"]}"' in section
        for name in line["cases"]:
            assert f'href="#case-{name}"' in section
    # where each start was left, counted from 1 as the runner prints it
    assert "Replay command 4 of 7, " in page
    assert "The replay start: refused as invalid-choice" in page
    section = page.split('<section id="start-not-reached-by-rule">', 1)[1]
    assert (
        'href="#rule-princess.eliminated-when-played-or-discarded"'
        in section.split("</section>", 1)[0]
    )


def test_each_ruleset_has_tables_per_card_rules_of_play_and_rule() -> None:
    report = make_report(["passed"] * 40 + ["failed"] * 5)
    page = _page(report)
    section = page.split('<section id="ruleset-2019-classic">', 1)[1].split("</section>", 1)[0]
    assert "<h3>Cards</h3>" in section and "<h3>By rule</h3>" in section
    spec = load_spec()
    topics = {r.split(".", 1)[0] for e in report["cases"] for r in e["rules"]}
    for topic in topics:
        assert f"<td>{spec.topics[topic]}</td>" in section
    # the ruleset's own row adds up to its cases
    first = re.search(r"<tr><td>[^<]*</td>((?:<td class[^>]*>\d+</td>)+)</tr>", section)
    assert first is not None
    numbers = [int(n) for n in re.findall(r'data-status="[^"]+">(\d+)<', first[1])]
    total = re.search(r'data-total="">(\d+)<', first[1])
    assert total is not None and sum(numbers) == int(total[1]) == 45


def test_the_badge_says_whether_the_run_passed() -> None:
    def badge(statuses: Sequence[str]) -> str:
        found = re.search(r'class="badge badge-(\w+)"', _page(make_report(statuses)))
        assert found is not None
        return found[1]

    assert badge(["passed", "not-applicable", "excluded"]) == "pass"
    assert badge(["passed", "failed"]) == "fail"
    assert badge(["passed", "xpassed"]) == "fail"
    assert badge(["excluded", "xfailed", "not-applicable"]) == "none"


def test_the_page_is_the_same_every_time() -> None:
    report = make_report(MIXED)
    assert _page(report) == _page(copy.deepcopy(report))


def test_rules_link_to_the_documentation_site_when_asked() -> None:
    report = make_report(MIXED)
    assert "https://" not in _page(report)
    walk = _walk(_page(report, docs_url="https://example.org/loveletter/"))
    external = [h for h in walk.hrefs if not h.startswith("#")]
    assert external
    for href in external:
        found = re.fullmatch(
            r"https://example\.org/loveletter/(rules/([a-z-]+)\.html#(.+)|rulings/(\d+)\.html)",
            href,
        )
        assert found is not None, href
        if found[2] is not None:
            # the page the docs site builds for the topic holds the rule's anchor
            page = topic_page(catalog(), found[2], stories=False)
            assert page.path == f"rules/{found[2]}"
            assert f'<div id="{found[3]}"></div>' in to_myst(page.blocks)
        else:
            assert ruling_page(catalog(), int(found[4])).path == f"rulings/{found[4]}"


@pytest.mark.parametrize("url", ["javascript:alert(1)", "file:///etc", "https://x.org/?a=1", ""])
def test_a_docs_url_that_is_no_site_root_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="--docs-url"):
        _page(make_report(["passed"]), docs_url=url)


def test_what_the_implementation_wrote_is_escaped() -> None:
    report = make_report(["failed", "skipped", "start-not-reached", "passed"], name=HOSTILE)
    report["implementation"]["version"] = HOSTILE
    report["implementation"]["command"] = f"run {HOSTILE}"
    report["implementation"]["capabilities"].append(HOSTILE)
    failed, skipped, unreached, _ = report["cases"]
    failed["details"].append(f"</pre>{HOSTILE}")
    failed["failing_rules"].append('x"><script>y</script>')
    report["failures_by_rule"].append({"rule": HOSTILE, "cases": [failed["name"]]})
    skipped["reason"] = HOSTILE
    unreached["start_not_reached"]["how"] = HOSTILE
    unreached["start_not_reached"]["command"] = {"card": HOSTILE}
    report["summary"]["not_applicable_by_reason"] = {HOSTILE: 1}
    page = _page(report)
    walk = _walk(page)
    assert "<script" not in page.lower()
    text = "".join(walk.text)
    assert text.count(HOSTILE) >= 6  # shown, as text
    _every_case_once(walk, report)


def test_a_case_file_is_read_only_from_under_the_suite(tmp_path: Path) -> None:
    outside = tmp_path / "secret.yaml"
    outside.write_text("the secret\n", encoding="utf-8")
    root = tmp_path / "suite"
    (root / "cases").mkdir(parents=True)
    (root / "cases" / "link.yaml").symlink_to(outside)
    report = make_report(["passed"])
    report["cases"][0]["path"] = "cases/link.yaml"
    page = render_html(report, root)
    assert "the secret" not in page
    assert "no case file of the suite" in page
    for path in ("cases/missing.yaml", "../secret.yaml", str(outside), "cases"):
        report["cases"][0]["path"] = path
        page = render_html(report, root)
        assert "not shown" in page and "the secret" not in page


# --------------------------------------------------------------------------
# a report that is not one


def _broken(change: str) -> dict[str, Any]:
    report = make_report(MIXED)
    case = report["cases"][1]
    changes: dict[str, Callable[[], object]] = {
        "format 1": lambda: report.pop("report_format"),
        "format 3": lambda: report.update(report_format=3),
        "no cases": lambda: report.pop("cases"),
        "status": lambda: case.update(status="sort-of"),
        "rules": lambda: case.update(rules="baron.tie"),
        "rule item": lambda: case.update(rules=["a", 7]),
        "players": lambda: case.update(players=True),
        "twice": lambda: report["cases"].append(copy.deepcopy(case)),
        "dropped": lambda: report["cases"].pop(),
        "total": lambda: report["summary"].update(passed=0),
        "roll-up": lambda: report["failures_by_rule"].append({"rule": "x", "cases": ["nope"]}),
        "start": lambda: case.update(start_not_reached={"index": 1}),
        "xfail": lambda: report.update(xfail=["a"]),
        "selection": lambda: report.pop("selection"),
        "name": lambda: report["implementation"].update(name=None),
        "path": lambda: case.update(path=None),
    }
    changes[change]()
    return report


FIELDS = {
    "format 1": "report_format",
    "format 3": "report_format",
    "no cases": "cases",
    "status": "cases[1].status",
    "rules": "cases[1].rules",
    "rule item": "cases[1].rules[1]",
    "players": "cases[1].players",
    "twice": f"cases[{len(MIXED)}].name",
    "dropped": "summary.cases",
    "total": "summary.passed",
    "roll-up": f"failures_by_rule[{len(make_report(MIXED)['failures_by_rule'])}].cases[0]",
    "start": "cases[1].start_not_reached.command",
    "xfail": "xfail",
    "selection": "selection",
    "name": "implementation.name",
    "path": "cases[1].path",
}


@pytest.mark.parametrize("change", sorted(FIELDS))
def test_a_malformed_report_is_refused_naming_the_field(change: str) -> None:
    with pytest.raises(ReportError) as raised:
        parse_report(_broken(change), "r.json")
    assert raised.value.field == FIELDS[change]
    assert str(raised.value).startswith(f"r.json: {FIELDS[change]}: ")


def test_every_fixture_change_breaks_a_valid_report() -> None:
    # the refusals above are of the change, not of the fixture
    parse_report(make_report(MIXED))
    parse_report(make_report(MIXED, xfail=False, ruleset="premium"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe", "not UTF-8"),
        (b"{", "not JSON"),
        (b"[" * 100_000, "nested too deep"),
        (b"[]", "expected an object, not a list"),
    ],
)
def test_a_file_that_is_no_report_is_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(ReportError, match=re.escape(message)) as raised:
        load_report(path)
    assert raised.value.file == str(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_report_that_is_not_a_regular_file_is_refused_unread(tmp_path: Path) -> None:
    pipe = tmp_path / "r.json"
    os.mkfifo(pipe)  # nobody writes: reading it would wait for ever
    for path in (pipe, tmp_path, Path("/dev/zero")):
        with pytest.raises(ReportError, match="not a regular file"):
            load_report(path)


# --------------------------------------------------------------------------
# the command


def _report_file(tmp_path: Path, report: dict[str, Any], name: str = "report.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(report), encoding="utf-8")
    return path


def test_the_command_writes_the_page_next_to_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = make_report(MIXED)
    path = _report_file(tmp_path, report)
    assert main(["conformance", "report", str(path)]) == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page == _page(report)
    assert capsys.readouterr().out == f"wrote {tmp_path / 'report.html'}\n"
    out = tmp_path / "elsewhere.html"
    docs = "https://example.org/docs"
    assert main(["conformance", "report", str(path), "-o", str(out), "--docs-url", docs]) == 0
    assert out.read_text(encoding="utf-8") == _page(report, docs)


@pytest.mark.parametrize("problem", ["malformed", "missing", "output is a directory", "itself"])
def test_the_command_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], problem: str
) -> None:
    report = make_report(MIXED)
    path = _report_file(tmp_path, report)
    args = [str(path)]
    if problem == "malformed":
        report["cases"][0]["status"] = "fine"
        _report_file(tmp_path, report)
    elif problem == "missing":
        args = [str(tmp_path / "none.json")]
    elif problem == "output is a directory":
        args += ["-o", str(tmp_path)]
    else:
        args += ["-o", str(path)]
    assert main(["conformance", "report", *args]) == SUITE_ERROR
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("loveletter conformance: ")
    if problem == "malformed":
        assert f"{path}: cases[0].status" in err
    assert not (tmp_path / "report.html").exists()


def test_the_tutorial_command_writes_the_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = re.findall(
        r"^\$ loveletter (conformance report .*)$", TUTORIAL.read_text("utf-8"), re.M
    )
    assert shown, "the tutorial shows the command"
    _report_file(tmp_path, make_report(MIXED))
    monkeypatch.chdir(tmp_path)
    for command in shown:
        assert main(command.split()) == 0
    assert (tmp_path / "report.html").exists()


# --------------------------------------------------------------------------
# a real run


def test_a_real_run_of_a_ruleset_makes_a_page_with_every_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The runner's own report, one whole ruleset, some cases left out by
    ``--skip``: they are on the page too, as excluded."""
    json_path = tmp_path / "report.json"
    skipped = "2019-classic/baron/*"
    run = ["conformance", "run", "-q", "--ruleset", "2019-classic", "--skip", skipped]
    assert main([*run, "--report", str(json_path)]) == 0
    assert main(["conformance", "report", str(json_path)]) == 0
    capsys.readouterr()
    report = load_report(json_path)
    walk = _walk((tmp_path / "report.html").read_text(encoding="utf-8"))
    expected = {c.name for c in suite() if c.ruleset == "2019-classic"}
    names = [name for name, _ in walk.case_rows]
    assert sorted(names) == sorted(expected)
    _every_case_once(walk, report)
    _totals_add_up(walk, len(expected))
    statuses = dict(walk.case_rows)
    baron = [n for n in expected if n.startswith("2019-classic/baron/")]
    assert baron and all(statuses[n] == "excluded" for n in baron)
    assert "passed" in statuses.values()
