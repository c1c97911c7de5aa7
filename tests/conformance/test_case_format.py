"""Case files: every one valid against the schema; malformed ones give an
error naming the file, the case and the field (and the schema agrees)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from loveletter.conformance import Case, CaseError, load_case, load_suite, select
from loveletter.conformance import cases as cases_module
from loveletter.conformance.cases import parse_case

from ._support import schema_errors, suite

_REPO = Path(__file__).resolve().parents[2]

BASE: dict[str, Any] = {
    "format": 1,
    "id": "sample",
    "title": "A Guard that names the right card knocks its target out",
    "rules": ["guard.correct-guess-eliminates"],
    "ruleset": "2019-classic",
    "players": 2,
    "start": {
        "position": {
            "deck": ["Guard", "Guard", "Priest", "Priest", "Baron", "Baron", "Handmaid"],
            "set_aside": "Handmaid",
            "face_up": ["Prince", "Prince", "King"],
            "hands": [["Guard", "Guard"], ["Princess"]],
            "discards": [["Countess"], ["Guard"]],
            "current": 0,
            "drawn": True,
            "turn_number": 3,
        }
    },
    "steps": [
        {
            "command": {
                "type": "PlayCard",
                "player": 0,
                "card": "Guard",
                "target": 1,
                "guess": "Princess",
            },
            "events": [
                {"type": "CardPlayed", "player": 0, "card": "Guard"},
                {"type": "PlayerEliminated", "player": 1, "discarded": ["Princess"]},
                {"type": "RoundEnded", "winners": [0]},
                {"type": "TokenAwarded", "player": 0, "total": 1},
            ],
        },
        {"checks": {"out": [1], "decision": "next-round", "legal_commands": []}},
    ],
}


@pytest.mark.parametrize("case", suite(), ids=lambda case: case.name)
def test_every_case_is_valid_against_the_schema(case: Case) -> None:
    assert schema_errors("case-v1.json", case.data) == []


def test_the_sample_is_valid_and_runs() -> None:
    from loveletter.conformance import InProcess, run_case

    case = parse_case(copy.deepcopy(BASE), "sample.yaml")
    assert schema_errors("case-v1.json", BASE) == []
    outcome = run_case(case, InProcess())
    assert outcome.status == "passed", outcome.lines


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        if value is _DELETE:
            del target[int(last) if last.isdigit() else last]
        elif last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value

    return edit


_DELETE = object()

MALFORMED = [
    ("unknown top-level key", _set("colour", "red"), "colour"),
    ("missing rules", _set("rules", _DELETE), "rules"),
    ("no rules", _set("rules", []), "rules"),
    ("wrong format", _set("format", 2), "format"),
    ("bad id", _set("id", "Bad_Id"), "id"),
    ("bad card in deck", _set("start.position.deck.0", "Gaurd"), "start.position.deck[0]"),
    ("hands for too few seats", _set("start.position.hands", [["Guard"]]), "start.position.hands"),
    ("seat out of range", _set("start.position.current", 5), "start.position.current"),
    ("drawn not a bool", _set("start.position.drawn", "yes"), "start.position.drawn"),
    ("deal and position", _set("start.deal", {"deck": []}), "start"),
    ("unknown event type", _set("steps.0.events.0.type", "CardPlayedd"), "steps[0].events[0].type"),
    ("unknown event field", _set("steps.0.events.0.colour", 1), "steps[0].events[0].colour"),
    ("card name in an event", _set("steps.0.events.0.card", "guard"), "steps[0].events[0].card"),
    ("events and rejected", _set("steps.0.rejected", "game-over"), "steps[0]"),
    (
        "unknown rejection",
        _set("steps.0", {"command": {"type": "DrawCard", "player": 0}, "rejected": "nope"}),
        "steps[0].rejected",
    ),
    ("unknown command", _set("steps.0.command.type", "PlayCards"), "steps[0].command.type"),
    ("unknown check", _set("steps.1.checks.outs", [1]), "steps[1].checks.outs"),
    ("bad decision", _set("steps.1.checks.decision", "dance"), "steps[1].checks.decision"),
    ("empty checks", _set("steps.1.checks", {}), "steps[1].checks"),
    (
        "view without player",
        _set("steps.1.checks.views", [{"hand": []}]),
        "steps[1].checks.views[0].player",
    ),
    ("no steps", _set("steps", []), "steps"),
]


#: constraints between fields (seats < players, one list per seat): the
#: runner checks them, the schema cannot
CROSS_FIELD = {"hands for too few seats", "seat out of range"}


@pytest.mark.parametrize(("what", "edit", "field"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_case_names_file_case_and_field(
    what: str, edit: Callable[[dict[str, Any]], None], field: str
) -> None:
    data = copy.deepcopy(BASE)
    edit(data)
    with pytest.raises(CaseError) as raised:
        parse_case(data, "cases/2019-classic/guard/sample.yaml")
    error = raised.value
    assert error.file == "cases/2019-classic/guard/sample.yaml"
    assert error.case == data["id"]
    assert error.field == field, str(error)
    assert str(error).startswith("cases/2019-classic/guard/sample.yaml: case ")
    # The published schema rejects it too (the loader is not laxer), except
    # for the cross-field constraints a JSON Schema cannot state.
    if what not in CROSS_FIELD:
        assert schema_errors("case-v1.json", data), f"the schema accepts: {what}"


def test_file_must_be_named_after_its_id(tmp_path: Path) -> None:
    path = tmp_path / "other.yaml"
    path.write_text(yaml.safe_dump(BASE))
    with pytest.raises(CaseError) as raised:
        load_case(path)
    assert (raised.value.case, raised.value.field) == ("sample", "id")


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("format: 1\nid: [unclosed\n")
    with pytest.raises(CaseError) as raised:
        load_case(path)
    assert raised.value.file == str(path)
    assert raised.value.field.startswith("line ")


def _write(root: Path, relative: str, data: dict[str, Any]) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data))


def test_suite_layout_is_checked(tmp_path: Path) -> None:
    _write(tmp_path, "2019/guard/sample.yaml", BASE)
    with pytest.raises(CaseError, match="file is under 2019/"):
        load_suite(tmp_path)


def test_ids_are_unique_within_a_ruleset(tmp_path: Path) -> None:
    _write(tmp_path, "2019-classic/guard/sample.yaml", BASE)
    _write(tmp_path, "2019-classic/baron/sample.yaml", BASE)
    with pytest.raises(CaseError, match="already used"):
        load_suite(tmp_path)


def test_select_by_ruleset_and_globs() -> None:
    cases = suite()
    guard = select(cases, run=["*/guard/*"])
    assert guard and all("/guard/" in c.name for c in guard)
    classic = select(cases, rulesets=["2019-classic"], skip=["*perft*"])
    assert classic and all(c.ruleset == "2019-classic" and "perft" not in c.id for c in classic)
    by_id = select(cases, run=[cases[0].id])
    assert cases[0] in by_id


@pytest.mark.skipif(not cases_module._FAST, reason="PyYAML without libyaml")
def test_libyaml_reader_reads_every_suite_and_replay_file_as_the_strict_reader_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """load_yaml parses with libyaml when it can; it must give exactly the
    values of the pure-Python reader, and it must really be used."""
    files = [
        *(_REPO / "conformance" / "cases").rglob("*.yaml"),
        *(_REPO / "conformance" / "replays").rglob("*.yaml"),
    ]
    assert len(files) > 700
    for path in files:
        text = path.read_text(encoding="utf-8")
        fast = yaml.load(text, Loader=cases_module._FastCaseLoader)
        strict = yaml.load(text, Loader=cases_module._CaseLoader)
        assert fast == strict and repr(fast) == repr(strict), path
        assert cases_module.load_yaml(text) == strict
    # and load_yaml takes the fast way for them: the strict reader is not asked
    monkeypatch.setattr(cases_module, "_CaseLoader", None)
    assert cases_module.load_yaml(files[0].read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: [" + "[" * 100_000, "nested deeper than 50 levels"),
        ("- " * 100_000 + "x", "nested deeper than 50 levels"),
        ("a: &x 1\nb: *x\n", "anchors and aliases"),
        ("a: 1\nb: 2\na: 3\n", "the key 'a' is given twice"),
        ("a: [1, 2\n", "while parsing a flow sequence"),
        ("a: \x07\n", "special characters are not allowed"),
    ],
)
def test_faulty_yaml_gets_the_strict_readers_error_whichever_reader_runs(
    text: str, message: str
) -> None:
    with pytest.raises((cases_module._Refused, yaml.YAMLError)) as strict:
        yaml.load(text, Loader=cases_module._CaseLoader)
    with pytest.raises(type(strict.value)) as error:
        cases_module.load_yaml(text)
    assert str(error.value) == str(strict.value)
    assert message in str(error.value)
    refused, expected = error.value, strict.value
    if isinstance(refused, cases_module._Refused):
        assert isinstance(expected, cases_module._Refused)
        assert (refused.field, refused.line) == (expected.field, expected.line)
