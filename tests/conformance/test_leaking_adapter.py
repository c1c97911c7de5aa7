"""An implementation that shows players what they may not see fails.

``leaky_adapter.py`` follows every rule but adds the deck, the set-aside
card and every hand to each view, and a hidden card to each event of a
player's redacted copy. Cases list only the keys they check, so only the
closed view and event schemas (:mod:`loveletter.conformance.shown`) can
catch it: every case that checks a view (``views``, ``shown``) or a
redacted copy (``seen_by``) must fail, naming the leaked field, and every
other case must still pass, while our own adapter passes them all.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from loveletter.conformance import Case, shown
from loveletter.conformance.execute import execute
from loveletter.conformance.runner import External, InProcess, Report, run_suite, script_for
from loveletter.conformance.shown import unknown_event_fields, unknown_view_fields
from loveletter.resources import suite_root

from ._support import impl, suite
from .leaky_adapter import LEAKED_VIEW_FIELDS, leaky_execute

JSON = Any

#: the case the leaking engine of issue 24 passed although it is about
#: exactly this: a deal shows no one the deck order or the face-down card
DEAL_HIDES_THE_DECK = (
    "2019/views/deal-hides-deck-order-and-set-aside-card-but-shows-face-up-cards-v2"
)

VIEW_LEAK = f"carries fields no view has: {', '.join(LEAKED_VIEW_FIELDS)}"
EVENT_LEAK = re.compile(r"sees them carry fields their types do not define: .*events\[\d+\]\.card")
#: a hidden card shown where the case expects null, in a diff line
CARD_SHOWN = re.compile(r"^\s+\+ \w+ \{.*\bcards?: (?!null)")


def _checks_views(case: Case) -> bool:
    return any(
        step.get("checks", {}).get("views") or "shown" in step.get("checks", {})
        for step in case.data["steps"]
    )


def _checks_seen_by(case: Case) -> bool:
    return any(step.get("seen_by") for step in case.data["steps"])


@cache
def leaky_report() -> Report:
    return run_suite(suite(), InProcess(executor=leaky_execute))


@cache
def our_report() -> Report:
    return run_suite(suite(), InProcess())


def test_the_suite_has_hidden_information_cases_of_both_kinds() -> None:
    cases = {case.name: case for case in suite()}
    assert _checks_views(cases[DEAL_HIDES_THE_DECK])
    assert _checks_seen_by(cases[DEAL_HIDES_THE_DECK])
    assert sum(map(_checks_views, suite())) > 50
    assert sum(map(_checks_seen_by, suite())) > 50


def test_every_case_showing_a_player_something_fails_against_the_leaking_adapter() -> None:
    wrong = [
        f"{o.case.name}: {o.status}"
        for o in leaky_report().outcomes
        if (o.status == "failed") != (_checks_views(o.case) or _checks_seen_by(o.case))
    ]
    assert wrong == []


def test_each_failure_names_the_leaked_field() -> None:
    unnamed: list[str] = []
    for outcome in leaky_report().outcomes:
        text = "\n".join(outcome.lines)
        if _checks_views(outcome.case) and VIEW_LEAK not in text:
            unnamed.append(f"{outcome.case.name}: no line naming the view's leaked fields")
        if _checks_seen_by(outcome.case) and not (
            EVENT_LEAK.search(text) or any(CARD_SHOWN.match(line) for line in outcome.lines)
        ):
            unnamed.append(f"{outcome.case.name}: no line naming a redacted event's card")
    assert unnamed == []


def test_the_deal_hides_the_deck_case_fails_on_both_leaks() -> None:
    (outcome,) = [o for o in leaky_report().outcomes if o.case.name == DEAL_HIDES_THE_DECK]
    assert outcome.status == "failed"
    for player in (0, 1):
        assert f"step 3: view of player {player} {VIEW_LEAK}" in outcome.lines
        assert any(
            f"events as player {player} sees them carry fields their types do not define:"
            " events[0].card, events[7].card" in line
            for line in outcome.lines
        )


def test_our_adapter_passes_every_case() -> None:
    assert {o.status for o in our_report().outcomes} == {"passed"}


def _what_players_are_shown() -> Iterator[tuple[str, str, JSON]]:
    """Every view and redacted event our engine reports over the suite."""
    for case in suite():
        result = execute(script_for(case))
        for number, step in enumerate(result["steps"], 1):
            where = f"{case.name} step {number}"
            for view in step.get("observation", {}).get("views", []):
                yield where, "view", view
            for seen in step.get("seen_by", []):
                for event in seen["events"]:
                    yield where, "event", event


def test_our_adapter_never_shows_a_field_the_schema_does_not_define() -> None:
    counts = {"view": 0, "event": 0}
    unknown: list[str] = []
    for where, kind, shown_value in _what_players_are_shown():
        counts[kind] += 1
        found = (
            unknown_view_fields(shown_value)
            if kind == "view"
            else unknown_event_fields(shown_value)
        )
        if found:
            unknown.append(f"{where}: {kind} {found}")
    assert unknown == []
    assert counts["view"] > 200 and counts["event"] > 500


def test_through_the_protocol_the_leaking_adapter_fails_too() -> None:
    cases = [case for case in suite() if case.name == DEAL_HIDES_THE_DECK]
    implementation = External(impl("leaky_adapter.py"))
    try:
        report = run_suite(cases, implementation)
    finally:
        implementation.close()
    (outcome,) = report.outcomes
    assert outcome.status == "failed"
    assert f"step 3: view of player 0 {VIEW_LEAK}" in outcome.lines


# --- the closed schemas, read from the suite ------------------------------------------


def test_a_leaking_view_is_named_field_by_field() -> None:
    view = {
        "player": 0,
        "hand": ["Guard"],
        "deck": ["Priest"],
        "hands": [["Guard"], ["Baron"]],
        "sightings": [
            {"viewer": 0, "owner": 1, "card": "Baron", "turn": 2, "via": "Priest", "why": 1}
        ],
        "round_result": {"reason": "deck-empty", "winners": [0], "deck": []},
        "legal_commands": [{"type": "PlayCard", "player": 0, "card": "Guard", "hint": 1}],
        "settings": None,
    }
    assert unknown_view_fields(view) == [
        "deck",
        "hands",
        "sightings[0].why",
        "round_result.deck",
        "legal_commands[0].hint",
    ]


def test_a_view_of_every_defined_field_has_nothing_unknown() -> None:
    schema = json.loads((suite_root() / shown.RESULT_SCHEMA).read_text(encoding="utf-8"))
    fields = schema["$defs"]["view"]["properties"]
    assert unknown_view_fields(dict.fromkeys(fields)) == []
    assert {"player", "hand", "deck_bottom", "settings", "left"} <= set(fields)


@pytest.mark.parametrize(
    ("event", "unknown"),
    [
        ({"type": "TurnStarted", "player": 1, "card": "Guard"}, ["card"]),
        ({"type": "CardDrawn", "player": 1, "card": None, "from_set_aside": False}, []),
        ({"type": "RoundStarted", "round_number": 2, "deck": None, "hands": []}, ["hands"]),
        (
            {"type": "GameStarted", "ruleset": "online", "settings": {"decks": 1, "seed": 7}},
            ["settings.seed"],
        ),
        # not an event of a known type: the comparison of the events says so
        ({"type": "CardPeeked", "card": "Guard"}, []),
        ({"player": 1}, []),
        ("TurnStarted", []),
    ],
)
def test_a_redacted_event_may_carry_only_its_types_fields(event: JSON, unknown: list[str]) -> None:
    assert unknown_event_fields(event) == unknown


@pytest.fixture
def suite_with_a_wider_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The suite, its view schema defining one field more."""
    root = tmp_path / "conformance"
    target = root / shown.RESULT_SCHEMA
    target.parent.mkdir(parents=True)
    shutil.copy(suite_root() / shown.RESULT_SCHEMA, target)
    schema = json.loads(target.read_text(encoding="utf-8"))
    schema["$defs"]["view"]["properties"]["mood"] = {"description": "A field of tomorrow."}
    target.write_text(json.dumps(schema), encoding="utf-8")
    monkeypatch.setattr(shown, "suite_root", lambda: root)
    shown._result_schema.cache_clear()
    yield
    shown._result_schema.cache_clear()


@pytest.mark.usefixtures("suite_with_a_wider_view")
def test_the_fields_come_from_the_schema_file() -> None:
    assert unknown_view_fields({"player": 0, "mood": "calm", "deck": []}) == ["deck"]


def test_an_answer_remembered_is_the_answer_for_an_equal_value_only() -> None:
    """The schema remembers its answers by the value judged: values JSON
    would print alike but the walk tells apart get answers of their own."""
    first = {"player": 0, "deck": [], "hands": []}
    assert unknown_view_fields(first) == ["deck", "hands"]
    # asked again: the same answer, a list of its own to change
    again = unknown_view_fields(dict(first))
    assert again == ["deck", "hands"]
    again.append("changed")
    assert unknown_view_fields(first) == ["deck", "hands"]
    # the order of the keys is the order of the answer
    assert unknown_view_fields({"hands": [], "player": 0, "deck": []}) == ["hands", "deck"]
    # true is not 1: the first is no event of a known type, the second is
    turn = {"type": "TurnStarted", "player": 1, "card": "Guard"}
    assert unknown_event_fields(turn) == ["card"]
    assert unknown_event_fields({**turn, "type": True}) == []
    # a tuple is no JSON array: its items are not walked
    view = {"player": 0, "sightings": [{"viewer": 0, "why": 1}]}
    assert unknown_view_fields(view) == ["sightings[0].why"]
    assert unknown_view_fields({"player": 0, "sightings": ({"viewer": 0, "why": 1},)}) == []
    # nothing hashable to remember by: judged all the same
    assert unknown_view_fields({"player": 0, "deck": {1, 2}}) == ["deck"]
