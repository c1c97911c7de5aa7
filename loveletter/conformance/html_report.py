"""``loveletter conformance report``: a run's JSON report as one static HTML
page an implementer can publish (a CI artefact, the target of a README badge).

The page is self-contained (inline CSS, no script, nothing fetched) and
deterministic: the same report and suite give the same bytes, so a page
kept under version control changes only when a verdict does. It shows, per
ruleset, per card and per rule, how many cases passed, failed, were not
applicable, did not reach their start or were excluded; the failures rolled
up by rule; then every case of the report exactly once, with its status and
why, linked to its case file (the YAML, shown further down the page) and
to the rules it cites (their statements, editions and sources, from the
spec; with ``docs_url``, also to the rule's page on the documentation site).

Everything the report says is treated as untrusted: an implementation
chooses its name, its error messages and its skip reasons, and they end up
in the page. Each is HTML-escaped; anchors are made from the text, never
copied into an attribute as they are; a case file is only read from under
the suite's root.
"""

from __future__ import annotations

import html
import json
import os
import re
import stat
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import attrs

from loveletter.conformance.cases import CaseError, read_bounded
from loveletter.errors import LoveLetterError
from loveletter.reference.catalog import GENERAL_TOPICS, edition_short
from loveletter.reference.sources import readable, rulebook, section_path
from loveletter.spec import Spec, load_spec

#: the JSON report format this page is made from (``report_format``)
REPORT_FORMAT = 2

#: the largest report read, in bytes. A report is longer than a case file
#: (every case's differences and unchecked checks), so it gets its own
#: bound; the point is the same: a device or a runaway file is refused
#: before it is read into memory.
MAX_REPORT_BYTES = 64 * 1024 * 1024

#: every status a case can have in a format-2 report, in the page's order
STATUSES = (
    "passed",
    "failed",
    "errored",
    "start-not-reached",
    "not-applicable",
    "skipped",
    "excluded",
    "xfailed",
    "xpassed",
)

#: how the page names each status
STATUS_LABELS = {
    "passed": "Passed",
    "failed": "Failed",
    "errored": "Errored",
    "start-not-reached": "Start not reached",
    "not-applicable": "Not applicable",
    "skipped": "Skipped",
    "excluded": "Excluded",
    "xfailed": "Expected failure",
    "xpassed": "Unexpected pass",
}

#: the statuses that make a run fail (the badge turns red)
FAILING = frozenset({"failed", "errored", "xpassed"})
#: the statuses of a case that tested something (see ``Report.tested``)
TESTING = frozenset({"passed", "failed", "errored", "xpassed"})
#: columns shown in every table even when no case has them: what a reader
#: looks for first
ALWAYS_SHOWN = ("passed", "failed", "start-not-reached", "not-applicable", "excluded")


class ReportError(LoveLetterError, ValueError):
    """A report file this page cannot be made from: names the file and the
    field (``cases[12].status``)."""

    def __init__(self, file: str, field: str, message: str) -> None:
        super().__init__(f"{file}: {field}: {message}" if field else f"{file}: {message}")
        self.file = file
        self.field = field
        self.detail = message


class DocsUrlError(LoveLetterError, ValueError):
    """A documentation address the page cannot link to (not http or https,
    or carrying a query or fragment the rule anchors would collide with)."""


# --------------------------------------------------------------------------
# the report, read and checked


@attrs.frozen
class StartNotReached:
    """The first replay command of a case's start that was refused or
    diverged, and the rules it touches."""

    #: the replay command at fault (None: the deal, or the state at the end)
    command: Any
    #: its index among the replay's commands, from 0 (None: see ``command``)
    index: int | None
    of: int
    how: str
    rules: tuple[str, ...]


@attrs.frozen
class CaseEntry:
    name: str
    id: str
    ruleset: str
    topic: str
    players: int
    title: str
    path: str
    rules: tuple[str, ...]
    rulings: tuple[int, ...]
    status: str
    reason: str | None
    xfail: bool
    details: tuple[str, ...]
    checks_run: int
    not_applicable: tuple[str, ...]
    failing_rules: tuple[str, ...]
    start_not_reached: StartNotReached | None
    by_adapter: tuple[str, ...]
    kind_mismatches: tuple[str, ...]


@attrs.frozen
class RuleCases:
    """A roll-up line: one rule and the cases under it."""

    rule: str
    cases: tuple[str, ...]


@attrs.frozen
class RunReport:
    """A format-2 report, checked field by field."""

    suite_version: str
    protocol: int
    implementation: Mapping[str, str | None]
    capabilities: tuple[str, ...]
    rejections: str
    starts: str
    rulesets: tuple[str, ...]
    players: str | None
    run: tuple[str, ...] | None
    #: the ``--skip`` globs (None: none, or a report that does not say)
    skip: tuple[str, ...] | None
    xfail: Mapping[str, str] | None
    summary: Mapping[str, Any]
    failures_by_rule: tuple[RuleCases, ...]
    start_not_reached_by_rule: tuple[RuleCases, ...]
    cases: tuple[CaseEntry, ...]

    def count(self, status: str) -> int:
        return sum(1 for case in self.cases if case.status == status)


class _Fields:
    """Reads one report's fields, each failure a :class:`ReportError`
    naming the file and the field."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, field: str, message: str) -> ReportError:
        return ReportError(self.file, field, message)

    def mapping(self, value: Any, field: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(field, f"expected an object, not {_kind(value)}")
        return value

    def get(self, data: Mapping[str, Any], key: str, field: str) -> Any:
        if key not in data:
            raise self.fail(_join(field, key), "missing")
        return data[key]

    def text(self, value: Any, field: str) -> str:
        if not isinstance(value, str):
            raise self.fail(field, f"expected a string, not {_kind(value)}")
        return value

    def optional_text(self, value: Any, field: str) -> str | None:
        return None if value is None else self.text(value, field)

    def integer(self, value: Any, field: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(field, f"expected a whole number >= 0, not {_kind(value)}")
        return value

    def texts(self, value: Any, field: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list, not {_kind(value)}")
        return tuple(self.text(item, f"{field}[{i}]") for i, item in enumerate(value))

    def integers(self, value: Any, field: str) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list, not {_kind(value)}")
        return tuple(self.integer(item, f"{field}[{i}]") for i, item in enumerate(value))


def _kind(value: Any) -> str:
    """A value as an error message names it (short: it may be huge)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"[:60]
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _join(field: str, key: str) -> str:
    return f"{field}.{key}" if field else key


def parse_report(data: Any, file: str = "the report") -> RunReport:
    """Check a report's data (as :func:`json.loads` gives it) and return it
    typed; :class:`ReportError` names the first field that is wrong."""
    f = _Fields(file)
    top = f.mapping(data, "")
    version = top.get("report_format")
    if version != REPORT_FORMAT:
        shown = "missing" if "report_format" not in top else _kind(version)
        raise f.fail(
            "report_format",
            f"expected {REPORT_FORMAT}, not {shown} (a report of another version of the "
            "runner: run the suite again with this one's --report)",
        )
    implementation = f.mapping(f.get(top, "implementation", ""), "implementation")
    info = {
        key: (f.text if key == "name" else f.optional_text)(
            f.get(implementation, key, "implementation"), f"implementation.{key}"
        )
        for key in ("name", "version", "language", "command")
    }
    selection = f.mapping(f.get(top, "selection", ""), "selection")
    run = f.get(selection, "run", "selection")
    skip = selection.get("skip")
    xfail_data = f.get(top, "xfail", "")
    xfail = None
    if xfail_data is not None:
        xfail = {
            key: f.text(reason, f"xfail.{key}")
            for key, reason in f.mapping(xfail_data, "xfail").items()
        }
    cases = tuple(
        _case(f, item, f"cases[{index}]")
        for index, item in enumerate(_list(f, f.get(top, "cases", ""), "cases"))
    )
    names: set[str] = set()
    for index, case in enumerate(cases):
        if case.name in names:
            raise f.fail(f"cases[{index}].name", f"{case.name!r} is listed twice")
        names.add(case.name)
    report = RunReport(
        suite_version=f.text(f.get(top, "suite_version", ""), "suite_version"),
        protocol=f.integer(f.get(top, "protocol", ""), "protocol"),
        implementation=info,
        capabilities=f.texts(
            f.get(implementation, "capabilities", "implementation"),
            "implementation.capabilities",
        ),
        rejections=f.text(f.get(top, "rejections", ""), "rejections"),
        starts=f.text(f.get(top, "starts", ""), "starts"),
        rulesets=f.texts(f.get(selection, "rulesets", "selection"), "selection.rulesets"),
        players=f.optional_text(f.get(selection, "players", "selection"), "selection.players"),
        run=None if run is None else f.texts(run, "selection.run"),
        skip=None if skip is None else f.texts(skip, "selection.skip"),
        xfail=xfail,
        summary=_summary(f, f.get(top, "summary", ""), cases),
        failures_by_rule=_roll_up(f, top, "failures_by_rule", names),
        start_not_reached_by_rule=_roll_up(f, top, "start_not_reached_by_rule", names),
        cases=cases,
    )
    return report


def _list(f: _Fields, value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise f.fail(field, f"expected a list, not {_kind(value)}")
    return value


def _case(f: _Fields, value: Any, field: str) -> CaseEntry:
    data = f.mapping(value, field)

    def get(key: str) -> Any:
        return f.get(data, key, field)

    name = f.text(get("name"), f"{field}.name")
    if not name:
        raise f.fail(f"{field}.name", "empty")
    status = f.text(get("status"), f"{field}.status")
    if status not in STATUSES:
        raise f.fail(f"{field}.status", f"{_kind(status)} is none of {', '.join(STATUSES)}")
    # any text: the page reads the file only from under the suite's root
    path = f.text(get("path"), f"{field}.path")
    players = get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 99:
        raise f.fail(f"{field}.players", f"expected a player count, not {_kind(players)}")
    xfail = get("xfail")
    if not isinstance(xfail, bool):
        raise f.fail(f"{field}.xfail", f"expected true or false, not {_kind(xfail)}")
    start = get("start_not_reached")
    return CaseEntry(
        name=name,
        id=f.text(get("id"), f"{field}.id"),
        ruleset=f.text(get("ruleset"), f"{field}.ruleset"),
        topic=f.text(get("topic"), f"{field}.topic"),
        players=players,
        title=f.text(get("title"), f"{field}.title"),
        path=path,
        rules=f.texts(get("rules"), f"{field}.rules"),
        rulings=f.integers(get("rulings"), f"{field}.rulings"),
        status=status,
        reason=f.optional_text(get("reason"), f"{field}.reason"),
        xfail=xfail,
        details=f.texts(get("details"), f"{field}.details"),
        checks_run=f.integer(get("checks_run"), f"{field}.checks_run"),
        not_applicable=f.texts(get("not_applicable"), f"{field}.not_applicable"),
        failing_rules=f.texts(get("failing_rules"), f"{field}.failing_rules"),
        start_not_reached=(
            None if start is None else _start(f, start, f"{field}.start_not_reached")
        ),
        by_adapter=f.texts(get("by_adapter"), f"{field}.by_adapter"),
        kind_mismatches=f.texts(
            get("rejection_kind_mismatches"), f"{field}.rejection_kind_mismatches"
        ),
    )


def _start(f: _Fields, value: Any, field: str) -> StartNotReached:
    data = f.mapping(value, field)
    index = f.get(data, "index", field)
    return StartNotReached(
        command=f.get(data, "command", field),
        index=None if index is None else f.integer(index, f"{field}.index"),
        of=f.integer(f.get(data, "of", field), f"{field}.of"),
        how=f.text(f.get(data, "how", field), f"{field}.how"),
        rules=f.texts(f.get(data, "rules", field), f"{field}.rules"),
    )


def _summary(f: _Fields, value: Any, cases: Sequence[CaseEntry]) -> Mapping[str, Any]:
    """The summary, which must agree with the cases it sums up: a report
    whose totals do not add up to its cases has dropped or doubled some."""
    summary = f.mapping(value, "summary")
    total = f.integer(f.get(summary, "cases", "summary"), "summary.cases")
    if total != len(cases):
        raise f.fail("summary.cases", f"says {total}, but the report lists {len(cases)} cases")
    counts = Counter(case.status for case in cases)
    for status in STATUSES:
        if status in summary:
            said = f.integer(summary[status], f"summary.{status}")
            if said != counts[status]:
                raise f.fail(
                    f"summary.{status}",
                    f"says {said}, but {counts[status]} cases have that status",
                )
    for key in ("checks_run", "checks_not_applicable", "rejection_kind_mismatches", "by_adapter"):
        if key in summary:
            f.integer(summary[key], f"summary.{key}")
    reasons = summary.get("not_applicable_by_reason", {})
    for reason, count in f.mapping(reasons, "summary.not_applicable_by_reason").items():
        f.integer(count, f"summary.not_applicable_by_reason.{reason}")
    return summary


def _roll_up(
    f: _Fields, top: Mapping[str, Any], key: str, names: set[str]
) -> tuple[RuleCases, ...]:
    lines = []
    for index, item in enumerate(_list(f, f.get(top, key, ""), key)):
        field = f"{key}[{index}]"
        data = f.mapping(item, field)
        rule = f.text(f.get(data, "rule", field), f"{field}.rule")
        cases = f.texts(f.get(data, "cases", field), f"{field}.cases")
        for number, name in enumerate(cases):
            if name not in names:
                raise f.fail(f"{field}.cases[{number}]", f"{name!r} is not a case of the report")
        lines.append(RuleCases(rule, cases))
    return tuple(lines)


def read_report_bytes(path: Path | str) -> bytes:
    """The bytes of a report: a regular file of at most
    :data:`MAX_REPORT_BYTES`, refused before it is read otherwise (as
    :func:`~loveletter.conformance.cases.read_bounded` refuses case files,
    with a larger bound)."""
    file = str(path)
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise ReportError(file, "", f"cannot read: {error.strerror or error}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_REPORT_BYTES:
        os.close(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReportError(file, "", "not a regular file")
        raise ReportError(file, "", f"larger than the limit of {MAX_REPORT_BYTES} bytes")
    with os.fdopen(fd, "rb") as stream:
        try:
            raw = stream.read(MAX_REPORT_BYTES + 1)
        except OSError as error:
            raise ReportError(file, "", f"cannot read: {error.strerror or error}") from None
    if len(raw) > MAX_REPORT_BYTES:
        raise ReportError(file, "", f"larger than the limit of {MAX_REPORT_BYTES} bytes")
    return raw


def load_report(path: Path | str) -> dict[str, Any]:
    """A report file's data, checked (:func:`parse_report`); a file that is
    not one raises :class:`ReportError` naming the file and the field."""
    file = str(path)
    raw = read_report_bytes(path)
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ReportError(file, "", f"not UTF-8 ({error.reason} at byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise ReportError(
            file, "", f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise ReportError(file, "", "not a report: nested too deep") from None
    parse_report(data, file)
    return dict(data)


# --------------------------------------------------------------------------
# the page


def docs_base(url: str) -> str:
    """``url`` as the base of links to the documentation site's pages
    (``URL/rules/baron.html#baron.compare-lower-out``): an http or https
    address, or a relative one, without a query or fragment."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("", "http", "https") or (parts.scheme and not parts.netloc):
        raise DocsUrlError(f"--docs-url: expected an http or https address, not {url!r}")
    if parts.query or parts.fragment or not url.strip():
        raise DocsUrlError(f"--docs-url: expected the site's root address, not {url!r}")
    return url.strip().rstrip("/")


def render_html(
    report: Mapping[str, Any],
    suite_root: Path,
    *,
    docs_url: str | None = None,
    spec: Spec | None = None,
) -> str:
    """The page for ``report`` (a format-2 report's data, checked again
    here), its case files read from ``suite_root``; rule pages linked on the
    documentation site at ``docs_url`` when given."""
    checked = parse_report(report)
    return _Page(
        checked,
        suite_root,
        spec if spec is not None else load_spec(),
        None if docs_url is None else docs_base(docs_url),
    ).render()


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


_UNSAFE_IN_ID = re.compile(r"[^A-Za-z0-9._/:-]")


class _Anchors:
    """Element ids made from untrusted text: only safe characters, and each
    text gets its own id (two texts that clean up alike are told apart)."""

    def __init__(self) -> None:
        self._ids: dict[tuple[str, str], str] = {}
        self._taken: set[str] = set()

    def __call__(self, kind: str, text: str) -> str:
        key = (kind, text)
        found = self._ids.get(key)
        if found is not None:
            return found
        base = f"{kind}-{_UNSAFE_IN_ID.sub('_', text)[:200]}"
        anchor, number = base, 1
        while anchor in self._taken:
            number += 1
            anchor = f"{base}~{number}"
        self._ids[key] = anchor
        self._taken.add(anchor)
        return anchor


_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 72rem;
  padding: 1rem 1.5rem 4rem; color: #1b1b1b; background: #fff; }
h1 { margin-bottom: .3rem; } h2 { border-bottom: 1px solid #ccc; margin-top: 2.5rem; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { background: #f6f6f6; padding: .5rem .7rem; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ddd; padding: .2rem .5rem; vertical-align: top; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.zero { color: #bbb; }
th { background: #f2f2f2; }
.badge { display: inline-flex; font: bold 14px/1 system-ui, sans-serif; border-radius: 4px;
  overflow: hidden; margin: .5rem 0; }
.badge span { padding: .4rem .6rem; color: #fff; }
.badge .label { background: #555; }
.badge-pass .value { background: #2e7d32; } .badge-fail .value { background: #c62828; }
.badge-none .value { background: #757575; }
.s-passed { color: #2e7d32; } .s-failed, .s-errored, .s-xpassed { color: #c62828; }
.s-start-not-reached { color: #b26a00; } .s-not-applicable, .s-skipped, .s-excluded,
.s-xfailed { color: #616161; }
td.bad { background: #fdecea; font-weight: bold; }
dl.about { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; }
dl.about dt { font-weight: bold; } dl.about dd { margin: 0; }
.rule { margin: 1rem 0 1.5rem; } .muted { color: #666; }
"""


class _Page:
    def __init__(self, report: RunReport, suite_root: Path, spec: Spec, docs: str | None) -> None:
        self.report = report
        self.suite_root = suite_root
        self.spec = spec
        self.docs = docs
        self.anchor = _Anchors()
        # the columns: every status some case has, and the ones a reader
        # looks for even at zero
        present = {case.status for case in report.cases}
        self.columns = tuple(s for s in STATUSES if s in present or s in ALWAYS_SHOWN)
        self.rulesets = tuple(dict.fromkeys(case.ruleset for case in report.cases))
        cited: set[str] = set()
        for case in report.cases:
            cited.update(case.rules)
            cited.update(case.failing_rules)
            if case.start_not_reached is not None:
                cited.update(case.start_not_reached.rules)
        for line in (*report.failures_by_rule, *report.start_not_reached_by_rule):
            cited.add(line.rule)
        self.cited = tuple(sorted(cited))
        card_topics = [info.name.lower().replace(" ", "-") for info in spec.cards.values()]
        self.card_topics = tuple(t for t in dict.fromkeys(card_topics) if t in spec.topics)
        # ids in a fixed order, so that the page is the same every time
        for case in report.cases:
            self.anchor("case", case.name)
            self.anchor("file", case.name)
        for rule in self.cited:
            self.anchor("rule", rule)

    # ---------------------------------------------------------------- links

    def rule_link(self, rule: str) -> str:
        return f'<a href="#{_e(self.anchor("rule", rule))}"><code>{_e(rule)}</code></a>'

    def case_link(self, name: str) -> str:
        return f'<a href="#{_e(self.anchor("case", name))}">{_e(name)}</a>'

    def rules_links(self, rules: Iterable[str]) -> str:
        return (
            ", ".join(self.rule_link(rule) for rule in rules) or '<span class="muted">none</span>'
        )

    def docs_rule_url(self, rule: str) -> str | None:
        known = self.spec.rules.get(rule)
        if self.docs is None or known is None:
            return None
        return f"{self.docs}/rules/{quote(known.topic)}.html#{quote(rule, safe='.-_')}"

    # ---------------------------------------------------------------- page

    def render(self) -> str:
        r = self.report
        name = r.implementation.get("name") or "?"
        version = r.implementation.get("version")
        title = f"Love Letter conformance: {name}" + (f" {version}" if version else "")
        parts = [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title>",
            f"<style>{_CSS}</style>",
            "</head>",
            "<body>",
            *self.header(title),
            *self.contents(),
            *self.summary(),
            *(line for ruleset in self.rulesets for line in self.ruleset_tables(ruleset)),
            *self.roll_up(
                "failures-by-rule",
                "Failures by rule",
                "The rules the failing checks cite, each with the cases that failed on it: "
                "one bug often fails several cases.",
                r.failures_by_rule,
            ),
            *self.roll_up(
                "start-not-reached-by-rule",
                "Starts not reached, by rule",
                "Cases whose replay start was refused or diverged before their own steps, "
                "grouped by the rules the first such replay command touches: the bug is in "
                "those rules, not in what the cases test.",
                r.start_not_reached_by_rule,
            ),
            *self.case_list(),
            *self.rule_entries(),
            *self.case_files(),
            "</body>",
            "</html>",
        ]
        return "\n".join(parts) + "\n"

    def counts(self, cases: Iterable[CaseEntry]) -> Counter[str]:
        return Counter(case.status for case in cases)

    def badge(self) -> list[str]:
        r = self.report
        counts = self.counts(r.cases)
        if any(counts[s] for s in FAILING):
            kind = "fail"
        elif not any(counts[s] for s in TESTING):
            kind = "none"
        else:
            kind = "pass"
        value = f"{counts['passed']} of {len(r.cases)} passed"
        failing = sum(counts[s] for s in FAILING)
        if failing:
            value += f", {failing} failed"
        return [
            f'<p class="badge badge-{kind}" id="badge">'
            f'<span class="label">Love Letter suite {_e(r.suite_version)}</span>'
            f'<span class="value">{_e(value)}</span></p>'
        ]

    def header(self, title: str) -> list[str]:
        r = self.report
        info = r.implementation
        rows = [
            ("Implementation", _e(info.get("name") or "?")),
            ("Version", _e(info.get("version") or "not given")),
            ("Language", _e(info.get("language") or "not given")),
            (
                "Command",
                f"<code>{_e(info['command'])}</code>"
                if info.get("command")
                else "this package's engine, in process",
            ),
            ("Capabilities", _e(", ".join(r.capabilities) or "none")),
            ("Suite", f"{_e(r.suite_version)} (protocol {r.protocol})"),
            ("Rulesets", _e(", ".join(r.rulesets) or ", ".join(self.rulesets) or "none")),
            ("Players", _e(r.players or "any")),
            ("Cases run", _e(", ".join(r.run)) if r.run else "all selected"),
            ("Cases left out", _e(", ".join(r.skip)) if r.skip else "none"),
            ("Rejections", _e(r.rejections)),
            ("Starts", _e(r.starts)),
            (
                "Expected failures",
                "no list given"
                if r.xfail is None
                else f"{len(r.xfail)} listed (<code>--xfail</code>)",
            ),
        ]
        about = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
        return [
            "<header>",
            f"<h1>{_e(title)}</h1>",
            *self.badge(),
            f'<dl class="about">{about}</dl>',
            "</header>",
        ]

    def contents(self) -> list[str]:
        items = [("summary", "Summary")]
        items += [(self.anchor("ruleset", rs), f"Ruleset {rs}") for rs in self.rulesets]
        items += [
            ("failures-by-rule", "Failures by rule"),
            ("start-not-reached-by-rule", "Starts not reached, by rule"),
            ("cases", "Every case"),
            ("rules", "Rules cited"),
            ("files", "Case files"),
        ]
        links = "".join(f'<li><a href="#{_e(a)}">{_e(t)}</a></li>' for a, t in items)
        return [f'<nav><ul class="contents">{links}</ul></nav>']

    def count_cells(self, counts: Counter[str], total: int) -> str:
        cells = []
        for status in self.columns:
            n = counts[status]
            cls = "n zero" if n == 0 else ("n bad" if status in FAILING else "n")
            cells.append(f'<td class="{cls}" data-status="{status}">{n}</td>')
        cells.append(f'<td class="n" data-total="">{total}</td>')
        return "".join(cells)

    def count_head(self, first: str) -> str:
        heads = "".join(f"<th>{_e(STATUS_LABELS[s])}</th>" for s in self.columns)
        return f"<tr><th>{_e(first)}</th>{heads}<th>Cases</th></tr>"

    def summary(self) -> list[str]:
        r = self.report
        counts = self.counts(r.cases)
        rows = "".join(
            f'<tr><td class="s-{s}">{_e(STATUS_LABELS[s])}</td>'
            f'<td class="n" data-summary="{s}">{counts[s]}</td></tr>'
            for s in STATUSES
            if counts[s] or s in self.columns
        )
        lines = [
            '<section id="summary">',
            "<h2>Summary</h2>",
            "<p>Every case of the selected rulesets is listed once below: run (passed, "
            "failed, errored, start not reached), skipped by the implementation, not "
            "applicable (it lacks what every check of the case needs), or excluded by the "
            "selection; an expected failure is a case the <code>--xfail</code> list names. "
            "Each status says why.</p>",
            f'<table class="summary"><tr><th>Status</th><th>Cases</th></tr>{rows}'
            f'<tr><th>All cases</th><td class="n" id="summary-total">{len(r.cases)}</td></tr>'
            "</table>",
        ]
        facts = []
        s = r.summary
        if "checks_run" in s:
            facts.append(f"Checks run: {int(s['checks_run'])}")
        if "checks_not_applicable" in s:
            facts.append(f"Checks not applicable: {int(s['checks_not_applicable'])}")
        if "by_adapter" in s:
            facts.append(f"Refusals decided by the adapter: {int(s['by_adapter'])}")
        if "rejection_kind_mismatches" in s:
            facts.append(
                f"Refusals of another kind than expected: {s['rejection_kind_mismatches']}"
            )
        if facts:
            lines.append("<ul>" + "".join(f"<li>{_e(x)}</li>" for x in facts) + "</ul>")
        reasons = s.get("not_applicable_by_reason", {})
        if reasons:
            lines.append("<p>Checks not applicable, by what they need:</p>")
            lines.append(
                "<table><tr><th>Needs</th><th>Checks</th></tr>"
                + "".join(
                    f'<tr><td>{_e(reason)}</td><td class="n">{int(n)}</td></tr>'
                    for reason, n in reasons.items()
                )
                + "</table>"
            )
        lines.append("</section>")
        return lines

    def ruleset_tables(self, ruleset: str) -> list[str]:
        cases = [c for c in self.report.cases if c.ruleset == ruleset]
        info = self.spec.edition_info.get(ruleset)
        heading = f"Ruleset {ruleset}" + (f": {info.title}" if info is not None else "")
        by_topic: dict[str, list[CaseEntry]] = {}
        by_rule: dict[str, list[CaseEntry]] = {}
        for case in cases:
            for topic in dict.fromkeys(rule.split(".", 1)[0] for rule in case.rules):
                by_topic.setdefault(topic, []).append(case)
            for rule in dict.fromkeys(case.rules):
                by_rule.setdefault(rule, []).append(case)
        cards = [t for t in self.card_topics if t in by_topic]
        general = [t for t in GENERAL_TOPICS if t in by_topic]
        general += sorted(t for t in by_topic if t not in cards and t not in general)
        lines = [
            f'<section id="{_e(self.anchor("ruleset", ruleset))}">',
            f"<h2>{_e(heading)}</h2>",
            f"<table>{self.count_head('Ruleset')}<tr><td>{_e(edition_short(ruleset))}</td>"
            f"{self.count_cells(self.counts(cases), len(cases))}</tr></table>",
            "<p>A case counts under every card, topic and rule it cites, so these rows add "
            "up to more than the cases.</p>",
        ]
        for title, topics in (("Cards", cards), ("Rules of play", general)):
            if not topics:
                continue
            rows = "".join(
                f"<tr><td>{_e(self.spec.topics.get(t, t))}</td>"
                f"{self.count_cells(self.counts(by_topic[t]), len(by_topic[t]))}</tr>"
                for t in topics
            )
            lines += [f"<h3>{title}</h3>", f"<table>{self.count_head('Topic')}{rows}</table>"]
        order = {topic: n for n, topic in enumerate((*cards, *general))}
        rules = sorted(by_rule, key=lambda rule: (order.get(rule.split(".", 1)[0], 0), rule))
        rows = "".join(
            f"<tr><td>{self.rule_link(rule)}</td>"
            f"{self.count_cells(self.counts(by_rule[rule]), len(by_rule[rule]))}</tr>"
            for rule in rules
        )
        lines += ["<h3>By rule</h3>", f"<table>{self.count_head('Rule')}{rows}</table>"]
        lines.append("</section>")
        return lines

    def roll_up(self, anchor: str, title: str, intro: str, lines: Sequence[RuleCases]) -> list[str]:
        out = [f'<section id="{anchor}">', f"<h2>{_e(title)}</h2>"]
        if not lines:
            out.append('<p class="muted">None.</p>')
        else:
            out.append(f"<p>{_e(intro)}</p>")
            out.append("<table><tr><th>Rule</th><th>Cases</th><th></th></tr>")
            for line in lines:
                links = ", ".join(self.case_link(name) for name in line.cases)
                out.append(
                    f'<tr><td>{self.rule_link(line.rule)}</td><td class="n">{len(line.cases)}'
                    f"</td><td>{links}</td></tr>"
                )
            out.append("</table>")
        out.append("</section>")
        return out

    def case_list(self) -> list[str]:
        out = ['<section id="cases">', "<h2>Every case</h2>"]
        for ruleset in self.rulesets:
            out.append(f"<h3>{_e(ruleset)}</h3>")
            out.append("<table><tr><th>Case</th><th>Status</th><th>Rules</th><th>Why</th></tr>")
            for case in self.report.cases:
                if case.ruleset == ruleset:
                    out.append(self.case_row(case))
            out.append("</table>")
        out.append("</section>")
        return out

    def case_row(self, case: CaseEntry) -> str:
        why: list[str] = []
        start = case.start_not_reached
        if start is not None:
            # the reason says the same in one line: this says it with links
            if start.index is None:
                where = "The replay start"
            else:
                command = json.dumps(start.command, sort_keys=True, ensure_ascii=False)
                where = (
                    f"Replay command {start.index + 1} of {start.of}, <code>{_e(command)}</code>"
                )
            why.append(
                f"<p>{where}: {_e(start.how)}; it touches {self.rules_links(start.rules)}</p>"
            )
        elif case.reason:
            why.append(f"<p>{_e(case.reason)}</p>")
        if case.failing_rules:
            why.append(f"<p>Failing rules: {self.rules_links(case.failing_rules)}</p>")
        if case.details:
            why.append("<pre>" + _e("\n".join(case.details)) + "</pre>")
        for label, items in (
            ("refusals decided by the adapter", case.by_adapter),
            ("refusals of another kind", case.kind_mismatches),
            ("checks not applicable", case.not_applicable),
        ):
            if items:
                listed = "".join(f"<li>{_e(item)}</li>" for item in items)
                why.append(
                    f"<details><summary>{len(items)} {label}</summary><ul>{listed}</ul></details>"
                )
        extra = f" ({case.checks_run} checks run)" if case.checks_run else ""
        rulings = ""
        if case.rulings:
            rulings = "<br>Rulings: " + ", ".join(self.ruling_ref(n) for n in case.rulings)
        return (
            f'<tr id="{_e(self.anchor("case", case.name))}" data-case="{_e(case.name)}" '
            f'data-status="{_e(case.status)}">'
            f'<td><a href="#{_e(self.anchor("file", case.name))}">{_e(case.name)}</a>'
            f"<br>{_e(case.title)}"
            f'<br><span class="muted">{case.players} players{_e(extra)}</span></td>'
            f'<td class="s-{_e(case.status)}">{_e(STATUS_LABELS[case.status])}'
            f"{' (listed)' if case.xfail else ''}</td>"
            f"<td>{self.rules_links(case.rules)}{rulings}</td>"
            f"<td>{''.join(why)}</td></tr>"
        )

    def ruling_ref(self, number: int) -> str:
        if self.docs is not None and number in self.spec.rulings:
            return f'<a href="{_e(self.docs)}/rulings/{number}.html">{number}</a>'
        return str(number)

    def rule_entries(self) -> list[str]:
        out = ['<section id="rules">', "<h2>Rules cited</h2>"]
        for rule_id in self.cited:
            out.append(f'<div class="rule" id="{_e(self.anchor("rule", rule_id))}">')
            out.append(f"<h3><code>{_e(rule_id)}</code></h3>")
            rule = self.spec.rules.get(rule_id)
            if rule is None:
                out.append(
                    '<p class="muted">Not a rule of the spec this page was made with '
                    "(a report of another suite version?).</p></div>"
                )
                continue
            if rule.withdrawn:
                out.append("<p><em>Withdrawn.</em></p>")
            out.append(f"<p>{_e(readable(rule.statement))}</p>")
            editions = ", ".join(edition_short(e) for e in rule.editions)
            sources = "; ".join(
                f"{rulebook(s.file).name}, “{section_path(s.section)}”" for s in rule.sources
            )
            out.append(f"<p><strong>Editions:</strong> {_e(editions)}</p>")
            out.append(f"<p><strong>Source:</strong> {_e(sources)}</p>")
            url = self.docs_rule_url(rule_id)
            if url is not None:
                out.append(f'<p><a href="{_e(url)}">The rule on the documentation site</a></p>')
            out.append("</div>")
        out.append("</section>")
        return out

    def case_files(self) -> list[str]:
        out = [
            '<section id="files">',
            "<h2>Case files</h2>",
            f"<p>Each case as the suite states it (from <code>{_e(self.suite_root.name)}/"
            "</code>, suite "
            f"{_e(self.report.suite_version)}).</p>",
        ]
        for case in self.report.cases:
            out.append(f'<div id="{_e(self.anchor("file", case.name))}">')
            out.append(f"<h3>{self.case_link(case.name)} <code>{_e(case.path)}</code></h3>")
            out.append(self.case_text(case))
            out.append("</div>")
        out.append("</section>")
        return out

    def case_text(self, case: CaseEntry) -> str:
        """The case file, escaped; or why it is not shown (it is read only
        from under the suite root, however the report names it)."""
        root = self.suite_root.resolve()
        path = (root / case.path).resolve()
        if not path.is_relative_to(root) or path.suffix != ".yaml":
            return '<p class="muted">The report names no case file of the suite: not shown.</p>'
        try:
            text = read_bounded(path).decode("utf-8")
        except CaseError as error:
            return f'<p class="muted">The case file is not shown: {_e(error.detail)}.</p>'
        except UnicodeDecodeError:
            return '<p class="muted">The case file is not shown: it is not UTF-8.</p>'
        return f"<pre>{_e(text)}</pre>"
