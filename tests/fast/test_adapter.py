"""The compiled simulator passes the conformance suite through protocol v1
(its adapter, :mod:`loveletter.fast.adapter`), offering only what it has."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from loveletter.conformance import SUITE_ROOT, Case, load_replays, run_suite
from loveletter.conformance.runner import Reply
from loveletter.fast.adapter import CAPABILITIES, handle
from loveletter.fast.tables import EDITIONS
from loveletter.reference.catalog import catalog


class _Fast:
    """The adapter in process, as the runner drives an implementation."""

    name = "loveletter.fast (in process)"
    rulesets = frozenset(EDITIONS)
    capabilities = frozenset(CAPABILITIES)
    info: dict[str, Any] = {"name": "loveletter.fast", "command": None}  # noqa: RUF012 (read only)

    def run(self, script: dict[str, Any]) -> Reply:
        reply = handle({"type": "run", "seq": 1, "case": script})
        assert reply is not None and reply["seq"] == 1
        return Reply(reply["type"], reply)

    def close(self) -> None:
        pass


@cache
def _suite() -> tuple[Case, ...]:
    # read once by the catalog (test_case_format runs the strict reader)
    return tuple(catalog().cases)


def test_the_handshake_offers_what_the_simulator_has() -> None:
    reply = handle({"type": "start", "protocol": 1})
    assert reply is not None
    assert reply["type"] == "started" and reply["protocol"] == 1
    assert reply["rulesets"] == ["2019", "2019-classic", "online", "premium"]
    assert reply["capabilities"] == ["state", "legal-commands", "perft", "seeded-chance"]
    assert handle({"type": "stop"}) is None


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_the_suite_passes(ruleset: str) -> None:
    cases = [case for case in _suite() if case.ruleset == ruleset]
    report = run_suite(cases, _Fast(), replays=load_replays(SUITE_ROOT / "replays"))
    assert report.ok, [line for o in report.outcomes if o.status == "failed" for line in o.lines]
    counts = {status: report.count(status) for status in ("passed", "skipped", "not-applicable")}
    assert counts["passed"] >= 0.75 * len(cases)
    # only leaving and timing out, which the simulator does not have, are skipped
    for outcome in report.outcomes:
        if outcome.status == "skipped":
            assert "no leaving and no time-outs" in (outcome.reason or ""), outcome.case.name
