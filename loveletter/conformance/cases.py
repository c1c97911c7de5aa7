"""Conformance cases: reading, checking and selecting them.

A case is a YAML file (format: ``conformance/README.md``, schema:
``conformance/schema/case-v1.json``). :func:`load_case` checks everything
the runner relies on and raises :class:`CaseError` naming the file, the
case and the field at fault; it needs no JSON Schema library, so running
the suite needs only the package's own dependencies.
"""

from __future__ import annotations

import fnmatch
import hashlib
import math
import os
import re
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, cast

import attrs
import yaml

from loveletter.conformance.vocabulary import (
    CARD_KEYS,
    CARD_LIST_KEYS,
    CARD_NAMES,
    COMMAND_FIELDS,
    DECISIONS,
    EVENT_FIELDS,
    GUESS_KEYS,
    OUTCOME_CHECKS,
    REJECTION_KINDS,
    STATE_FIELDS,
    VIEW_FIELDS,
    is_guess,
)
from loveletter.errors import LoveLetterError
from loveletter.rulesets import RULESETS

#: the case format this package reads (the ``format`` key of a case)
CASE_FORMAT = 1.3
#: every ``format`` a case may declare: each only added to the one before
#: (1.1: Premium; 1.2: accepted steps and outcome checks; 1.3: the online
#: edition), so an older case reads the same under the newest
CASE_FORMATS = (1, 1.1, 1.2, 1.3)

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# Limits on what a case file may hold: case files are untrusted input, and a
# file past one of these is refused with a CaseError, never read further.
#: the largest case file, in bytes
MAX_FILE_BYTES = 1024 * 1024
#: the deepest nesting of mappings and lists
MAX_DEPTH = 50
#: the largest integer (in absolute value): JSON's safe integers
MAX_INTEGER = 2**53 - 1
#: the deepest perft a case may ask for (depth 6 already takes seconds)
MAX_PERFT_DEPTH = 6
#: integers written with more characters than this are not even converted
_MAX_INTEGER_TEXT = 40

_TOP_KEYS = {
    "format",
    "id",
    "title",
    "description",
    "rules",
    "rulings",
    "ruleset",
    "players",
    "start",
    "start_rejected",
    "steps",
    # format 1.3
    "settings",
}
_DEAL_KEYS = {"deck", "first_player", "tokens", "round_number", "events", "order", "seed"}
#: the keys of format 1.3 (the online edition) in a deal and in a position
_DEAL_KEYS_13 = frozenset({"order", "seed"})
_POSITION_KEYS_13 = frozenset({"order", "exits", "left", "seed"})
_STATE_FIELDS_13 = frozenset({"order", "exits", "left"})
_OUTCOME_CHECKS_13 = frozenset({"ranks", "win_counters"})
_COMMANDS_13 = frozenset({"Leave", "TimeOut"})
_SETTINGS_KEYS = {"decks", "turn_time_ms", "random_moves", "intermission_ms"}
_POSITION_KEYS = {
    "deck",
    "set_aside",
    "face_up",
    "hands",
    "discards",
    "current",
    "drawn",
    "out",
    "protected",
    "tokens",
    "round_number",
    "turn_number",
    "sightings",
    # format 1.1
    "required",
    "marks",
    "contenders",
    "returns",
    # format 1.3
    "order",
    "exits",
    "left",
    "seed",
}
_STEP_KEYS = {"command", "events", "rejected", "accepted", "seen_by", "checks", "note"}
_LEGAL_KEYS = {
    "legal_commands",
    "legal_commands_include",
    "legal_commands_exclude",
    "legal_command_count",
}
_CHECK_KEYS = set(STATE_FIELDS) | set(OUTCOME_CHECKS) | _LEGAL_KEYS | {"views", "perft"}
_SIGHTING_KEYS = {"viewer", "owner", "card", "turn", "via"}


class CaseError(LoveLetterError, ValueError):
    """A case file that is not a valid case: names the file, the case (its
    ``id`` when it could be read) and the field (``steps[2].events[0].type``)."""

    def __init__(self, file: str, case: str | None, field: str, message: str) -> None:
        where = f"{file}: case {case or '?'}" + (f": {field}" if field else "")
        super().__init__(f"{where}: {message}")
        self.file = file
        self.case = case
        self.field = field
        self.detail = message


@attrs.frozen
class Case:
    """One checked case. ``data`` is the case as plain JSON-compatible data."""

    id: str
    title: str
    rules: tuple[str, ...]
    rulings: tuple[int, ...]
    ruleset: str
    players: int
    path: str
    data: dict[str, Any] = attrs.field(eq=False, repr=False)

    @property
    def start_rejected(self) -> bool:
        return bool(self.data.get("start_rejected", False))

    @property
    def name(self) -> str:
        """``ruleset/topic/id``: what ``--run`` and ``--skip`` patterns match."""
        parts = Path(self.path).parts
        if len(parts) >= 3:
            return "/".join((*parts[-3:-1], self.id))
        return f"{self.ruleset}/{self.id}"


class _Checker:
    def __init__(self, file: str, case: str | None) -> None:
        self.file = file
        self.case = case

    def fail(self, field: str, message: str) -> CaseError:
        return CaseError(self.file, self.case, field, message)

    def mapping(self, value: Any, field: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, "expected a mapping")
        for key in value:
            if not isinstance(key, str):
                raise self.fail(field, f"keys must be strings, not {key!r}")
            if key not in allowed:
                raise self.fail(_join(field, key), "unknown key")
        return value

    def require(self, mapping: dict[str, Any], field: str, key: str) -> Any:
        if key not in mapping:
            raise self.fail(_join(field, key), "missing")
        return mapping[key]

    def integer(self, value: Any, field: str, minimum: int = 0) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            raise self.fail(field, f"expected an integer >= {minimum}, not {_short(value)}")
        if value > MAX_INTEGER:
            raise self.fail(field, f"expected an integer <= {MAX_INTEGER}, not {_short(value)}")
        return value

    def plain(self, value: Any, field: str, depth: int = 0) -> None:
        """``value`` is plain JSON data: mappings with string keys, lists,
        strings, finite numbers of bounded size, booleans and null, nested
        at most :data:`MAX_DEPTH` deep."""
        if depth > MAX_DEPTH:
            raise self.fail(field, f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise self.fail(field, f"keys must be strings, not {_short(key)}")
                self.plain(item, _join(field, key), depth + 1)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.plain(item, f"{field}[{i}]", depth + 1)
        elif isinstance(value, _LongInteger):
            raise self.fail(
                field,
                f"an integer written with {value.length} characters; "
                f"numbers in a case are at most {MAX_INTEGER}",
            )
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            return
        elif isinstance(value, int):
            if abs(value) > MAX_INTEGER:
                raise self.fail(field, f"integers in a case are at most {MAX_INTEGER} in size")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise self.fail(field, f"expected a finite number, not {value!r}")
        else:
            kind = type(value).__name__
            raise self.fail(
                field, f"expected plain data (mapping, list, string, number), not a {kind}"
            )

    def seat(self, value: Any, field: str, players: int) -> int:
        seat = self.integer(value, field)
        if seat >= players:
            raise self.fail(field, f"no seat {seat} in a {players}-player game")
        return seat

    def seats(self, value: Any, field: str, players: int) -> list[int]:
        items = self.array(value, field)
        return [self.seat(item, f"{field}[{i}]", players) for i, item in enumerate(items)]

    def text(self, value: Any, field: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, f"expected a non-empty string, not {value!r}")
        return value

    def array(self, value: Any, field: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list, not {value!r}")
        return value

    def card(self, value: Any, field: str, nullable: bool = False) -> None:
        if value is None and nullable:
            return
        if not isinstance(value, str) or value not in CARD_NAMES:
            names = ", ".join(sorted(CARD_NAMES))
            raise self.fail(field, f"expected a card name ({names}), not {value!r}")

    def cards(self, value: Any, field: str) -> None:
        for i, item in enumerate(self.array(value, field)):
            self.card(item, f"{field}[{i}]")

    def piles(self, value: Any, field: str, players: int) -> None:
        items = self.array(value, field)
        if len(items) != players:
            raise self.fail(field, f"expected {players} lists, one per seat, not {len(items)}")
        for i, pile in enumerate(items):
            self.cards(pile, f"{field}[{i}]")

    def tokens(self, value: Any, field: str, players: int) -> None:
        items = self.array(value, field)
        if len(items) != players:
            raise self.fail(field, f"expected {players} counts, one per seat")
        for i, item in enumerate(items):
            self.integer(item, f"{field}[{i}]")

    def cards_in(self, value: Any, field: str) -> None:
        """Card-valued keys anywhere inside an expected value must be card names."""
        if isinstance(value, dict):
            for key, item in value.items():
                where = _join(field, key)
                if key in CARD_KEYS:
                    self.card(item, where, nullable=True)
                elif key in GUESS_KEYS:
                    if item is not None and not is_guess(item):
                        raise self.fail(where, f"expected a card name or a number, not {item!r}")
                elif key in CARD_LIST_KEYS and item is not None:
                    if isinstance(item, list) and all(not isinstance(x, list) for x in item):
                        self.cards(item, where)
                    else:
                        self.cards_in(item, where)
                else:
                    self.cards_in(item, where)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.cards_in(item, f"{field}[{i}]")

    def event(self, value: Any, field: str) -> None:
        if not isinstance(value, dict):
            raise self.fail(field, "expected an event mapping")
        kind = value.get("type")
        if kind not in EVENT_FIELDS:
            known = ", ".join(sorted(EVENT_FIELDS))
            raise self.fail(_join(field, "type"), f"unknown event type {kind!r} (known: {known})")
        self.mapping(value, field, {"type", *EVENT_FIELDS[kind]})
        self.cards_in(value, field)

    def events(self, value: Any, field: str) -> None:
        for i, item in enumerate(self.array(value, field)):
            self.event(item, f"{field}[{i}]")

    def command(self, value: Any, field: str, strict: bool) -> None:
        # A case may send a malformed command on purpose (to check the
        # ``malformed-command`` rejection), so only expected-valid commands
        # are held to the vocabulary.
        if not isinstance(value, dict):
            raise self.fail(field, "expected a command mapping")
        kind = value.get("type")
        if not isinstance(kind, str):
            raise self.fail(_join(field, "type"), "a command needs a string type")
        if strict:
            if kind not in COMMAND_FIELDS:
                known = ", ".join(sorted(COMMAND_FIELDS))
                raise self.fail(_join(field, "type"), f"unknown command {kind!r} ({known})")
            self.mapping(value, field, {"type", *COMMAND_FIELDS[kind]})
            self.cards_in(value, field)


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (values from untrusted files)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**limit:
        return f"<an integer of about {value.bit_length() * 3 // 10} digits>"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _join(field: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{field}[{key}]"
    return f"{field}.{key}" if field else key


def parse_case(data: Any, file: str) -> Case:
    """Check the plain data of one case; ``file`` is only used in errors."""
    c = _Checker(file, None)
    if not isinstance(data, dict):
        raise c.fail("", "a case file holds one mapping")
    raw_id = data.get("id")
    if isinstance(raw_id, str):
        c.case = raw_id
    c.mapping(data, "", _TOP_KEYS)
    c.plain(data, "")
    fmt = c.require(data, "", "format")
    if isinstance(fmt, bool) or fmt not in CASE_FORMATS:
        known = ", ".join(str(f) for f in CASE_FORMATS)
        raise c.fail("format", f"this runner reads case formats {known}, not {fmt!r}")
    case_id = c.text(c.require(data, "", "id"), "id")
    if not ID_PATTERN.match(case_id):
        raise c.fail("id", "use lowercase letters, digits and single hyphens")
    stem = Path(file).stem
    if stem not in (case_id, "<string>"):
        raise c.fail("id", f"the file must be named after the id ({case_id}.yaml), not {stem}")
    title = c.text(c.require(data, "", "title"), "title")
    if "description" in data:
        c.text(data["description"], "description")
    rules = c.array(c.require(data, "", "rules"), "rules")
    if not rules:
        raise c.fail("rules", "name at least one spec rule the case checks")
    for i, rule in enumerate(rules):
        c.text(rule, f"rules[{i}]")
    rulings = c.array(data.get("rulings", []), "rulings")
    for i, number in enumerate(rulings):
        c.integer(number, f"rulings[{i}]", minimum=1)
    ruleset = c.text(c.require(data, "", "ruleset"), "ruleset")
    players = c.integer(c.require(data, "", "players"), "players", minimum=1)
    if "settings" in data:
        _settings(c, data["settings"])
    _start(c, c.require(data, "", "start"), players)
    deal = data["start"].get("deal")
    later = isinstance(deal, dict) and ("tokens" in deal or "round_number" in deal)
    edition = RULESETS.get(ruleset)
    if later and "order" not in deal and edition is not None and edition.draws_order:
        # the order would be round 1's draw, which no later round makes
        raise c.fail("start.deal.order", "a later round's online deal gives its turn order")
    steps = c.array(c.require(data, "", "steps"), "steps")
    rejected_start = data.get("start_rejected", False)
    if not isinstance(rejected_start, bool):
        raise c.fail("start_rejected", "expected true or false")
    if rejected_start and steps:
        raise c.fail("steps", "a case whose start must be rejected has no steps")
    if not rejected_start and not steps:
        raise c.fail("steps", "a case has at least one step")
    for i, step in enumerate(steps):
        _step(c, step, f"steps[{i}]", players)
        if fmt in (1, 1.1):
            _newer_keys(c, step, f"steps[{i}]")
    if fmt != 1.3:
        _online_keys(c, data)
    return Case(
        id=case_id,
        title=title,
        rules=tuple(rules),
        rulings=tuple(rulings),
        ruleset=ruleset,
        players=players,
        path=file,
        data=data,
    )


def _start(c: _Checker, value: Any, players: int) -> None:
    start = c.mapping(value, "start", {"deal", "position"})
    if len(start) != 1:
        raise c.fail("start", "give exactly one of deal or position")
    if "deal" in start:
        deal = c.mapping(start["deal"], "start.deal", _DEAL_KEYS)
        c.cards(c.require(deal, "start.deal", "deck"), "start.deal.deck")
        if "first_player" in deal:
            c.seat(deal["first_player"], "start.deal.first_player", players)
        if "tokens" in deal:
            c.tokens(deal["tokens"], "start.deal.tokens", players)
        if "round_number" in deal:
            c.integer(deal["round_number"], "start.deal.round_number", minimum=1)
        if "events" in deal:
            c.events(deal["events"], "start.deal.events")
        if "order" in deal:
            c.seats(deal["order"], "start.deal.order", players)
        if "seed" in deal:
            _seed(c, deal["seed"], "start.deal.seed")
        return
    field = "start.position"
    p = c.mapping(start["position"], field, _POSITION_KEYS)
    for key in ("deck", "set_aside", "hands", "discards", "current", "drawn"):
        c.require(p, field, key)
    c.cards(p["deck"], f"{field}.deck")
    # null is well-formed: it describes a position the rules refuse (ruling 9)
    c.card(p["set_aside"], f"{field}.set_aside", nullable=True)
    c.cards(p.get("face_up", []), f"{field}.face_up")
    c.piles(p["hands"], f"{field}.hands", players)
    c.piles(p["discards"], f"{field}.discards", players)
    c.seat(p["current"], f"{field}.current", players)
    if not isinstance(p["drawn"], bool):
        raise c.fail(f"{field}.drawn", "expected true or false")
    for key in ("out", "protected"):
        if key in p:
            c.seats(p[key], f"{field}.{key}", players)
    if "tokens" in p:
        c.tokens(p["tokens"], f"{field}.tokens", players)
    for key in ("round_number", "turn_number"):
        if key in p:
            c.integer(p[key], f"{field}.{key}", minimum=1)
    for i, seen in enumerate(c.array(p.get("sightings", []), f"{field}.sightings")):
        where = f"{field}.sightings[{i}]"
        seen = c.mapping(seen, where, _SIGHTING_KEYS)
        for key in _SIGHTING_KEYS:
            c.require(seen, where, key)
        c.seat(seen["viewer"], f"{where}.viewer", players)
        c.seat(seen["owner"], f"{where}.owner", players)
        c.card(seen["card"], f"{where}.card")
        c.card(seen["via"], f"{where}.via")
        c.integer(seen["turn"], f"{where}.turn", minimum=1)
    if p.get("required") is not None:
        c.seat(p["required"], f"{field}.required", players)
    for i, mark in enumerate(c.array(p.get("marks", []), f"{field}.marks")):
        where = f"{field}.marks[{i}]"
        if len(c.array(mark, where)) != 2:
            raise c.fail(where, "a mark is [Jester's player, marked player]")
        for j, seat in enumerate(mark):
            c.seat(seat, f"{where}[{j}]", players)
    if "contenders" in p:
        c.seats(p["contenders"], f"{field}.contenders", players)
    for i, item in enumerate(c.array(p.get("returns", []), f"{field}.returns")):
        where = f"{field}.returns[{i}]"
        if len(c.array(item, where)) != 2:
            raise c.fail(where, "a return is [player, count]")
        c.seat(item[0], f"{where}[0]", players)
        c.integer(item[1], f"{where}[1]", minimum=1)
    for key in ("order", "exits", "left"):
        if key in p:
            c.seats(p[key], f"{field}.{key}", players)
    if "seed" in p:
        _seed(c, p["seed"], f"{field}.seed")


def _seed(c: _Checker, value: Any, field: str) -> None:
    """A seed: an integer, or decimal digits as this package writes it."""
    if isinstance(value, str):
        if not re.fullmatch(r"0|[1-9][0-9]{0,77}", value):
            raise c.fail(field, f"a seed is written as decimal digits, not {_short(value)}")
        return
    c.integer(value, field)


def _settings(c: _Checker, value: Any) -> None:
    settings = c.mapping(value, "settings", _SETTINGS_KEYS)
    for key in ("decks", "turn_time_ms", "intermission_ms"):
        if key in settings:
            c.integer(settings[key], f"settings.{key}", minimum=0)
    if "random_moves" in settings and not isinstance(settings["random_moves"], bool):
        raise c.fail("settings.random_moves", "expected true or false")


def _online_keys(c: _Checker, data: dict[str, Any]) -> None:
    """Format 1.3's additions (the online edition) appear only in a case
    that declares 1.3."""
    need = "needs format: 1.3"
    if data.get("ruleset") == "online":
        raise c.fail("ruleset", f"an online case {need}")
    if "settings" in data:
        raise c.fail("settings", f"table settings {need}")
    start = data.get("start", {})
    for name, keys in (("deal", _DEAL_KEYS_13), ("position", _POSITION_KEYS_13)):
        for key in keys & set(start.get(name, {})):
            raise c.fail(f"start.{name}.{key}", f"this key {need}")
    for i, step in enumerate(data.get("steps", [])):
        for key in step.get("checks", {}):
            if key in _STATE_FIELDS_13 or key in _OUTCOME_CHECKS_13:
                raise c.fail(f"steps[{i}].checks.{key}", f"this check {need}")
        command = step.get("command")
        if isinstance(command, dict) and (
            command.get("type") in _COMMANDS_13 or "order" in command
        ):
            raise c.fail(f"steps[{i}].command", f"this command {need}")


def _newer_keys(c: _Checker, step: Any, field: str) -> None:
    """Format 1.2's additions appear only in a case that declares 1.2 (a
    runner reading an older format would not know them)."""
    if "accepted" in step:
        raise c.fail(f"{field}.accepted", "an accepted step needs format: 1.2")
    for key in step.get("checks", {}):
        if key in OUTCOME_CHECKS and key not in _OUTCOME_CHECKS_13:
            raise c.fail(f"{field}.checks.{key}", "outcome checks need format: 1.2")


def _step(c: _Checker, value: Any, field: str, players: int) -> None:
    step = c.mapping(value, field, _STEP_KEYS)
    if "checks" in step:
        if any(key in step for key in ("command", "events", "rejected", "accepted", "seen_by")):
            raise c.fail(field, "a checks step has no command, events, rejected or seen_by")
        _checks(c, step["checks"], f"{field}.checks", players)
        return
    if "command" not in step:
        raise c.fail(field, "a step has a command (with events, accepted or rejected) or checks")
    outcomes = [key for key in ("events", "rejected", "accepted") if key in step]
    if len(outcomes) != 1:
        raise c.fail(field, "a command step expects exactly one of events, accepted or rejected")
    if "accepted" in step:
        if step["accepted"] is not True:
            raise c.fail(f"{field}.accepted", "write accepted: true (or expect events or rejected)")
        if "seen_by" in step:
            raise c.fail(f"{field}.seen_by", "seen_by lists events: give the step's events")
        c.command(step["command"], f"{field}.command", strict=True)
        return
    if "rejected" in step:
        kind = step["rejected"]
        if kind not in REJECTION_KINDS:
            known = ", ".join(sorted(REJECTION_KINDS))
            raise c.fail(f"{field}.rejected", f"unknown rejection kind {kind!r} ({known})")
        if "seen_by" in step:
            raise c.fail(f"{field}.seen_by", "a rejected command has no events to see")
        c.command(step["command"], f"{field}.command", strict=kind != "malformed-command")
        return
    c.command(step["command"], f"{field}.command", strict=True)
    c.events(step["events"], f"{field}.events")
    for i, seen in enumerate(c.array(step.get("seen_by", []), f"{field}.seen_by")):
        where = f"{field}.seen_by[{i}]"
        seen = c.mapping(seen, where, {"player", "events"})
        c.seat(c.require(seen, where, "player"), f"{where}.player", players)
        c.events(c.require(seen, where, "events"), f"{where}.events")


def _checks(c: _Checker, value: Any, field: str, players: int) -> None:
    checks = c.mapping(value, field, _CHECK_KEYS)
    if not checks:
        raise c.fail(field, "a checks step checks at least one thing")
    if "decision" in checks and checks["decision"] not in DECISIONS:
        known = ", ".join(sorted(DECISIONS))
        raise c.fail(f"{field}.decision", f"unknown decision {checks['decision']!r} ({known})")
    for key in ("out", "protected", "winners", "order", "exits", "left"):
        if key in checks:
            c.seats(checks[key], f"{field}.{key}", players)
    for key in ("to_act", "current"):
        if key in checks and checks[key] is not None:
            c.seat(checks[key], f"{field}.{key}", players)
    if "tokens" in checks:
        c.tokens(checks["tokens"], f"{field}.tokens", players)
    for key in ("hands", "discards"):
        if key in checks:
            c.piles(checks[key], f"{field}.{key}", players)
    for key in ("legal_commands", "legal_commands_include", "legal_commands_exclude"):
        if key in checks:
            for i, command in enumerate(c.array(checks[key], f"{field}.{key}")):
                c.command(command, f"{field}.{key}[{i}]", strict=True)
    if "legal_command_count" in checks:
        c.integer(checks["legal_command_count"], f"{field}.legal_command_count")
    if "views" in checks:
        for i, seen in enumerate(c.array(checks["views"], f"{field}.views")):
            where = f"{field}.views[{i}]"
            seen = c.mapping(seen, where, set(VIEW_FIELDS))
            c.seat(c.require(seen, where, "player"), f"{where}.player", players)
            c.cards_in(seen, where)
    if "perft" in checks:
        counts = c.array(checks["perft"], f"{field}.perft")
        if not counts:
            raise c.fail(f"{field}.perft", "give the counts for depth 1, 2, ...")
        if len(counts) > MAX_PERFT_DEPTH:
            raise c.fail(
                f"{field}.perft",
                f"perft to depth {len(counts)}; cases go to depth {MAX_PERFT_DEPTH} at most",
            )
        for i, count in enumerate(counts):
            c.integer(count, f"{field}.perft[{i}]")
    _outcome_checks(c, checks, field, players)
    c.cards_in({k: v for k, v in checks.items() if k in STATE_FIELDS}, field)


def _outcome_checks(c: _Checker, checks: dict[str, Any], field: str, players: int) -> None:
    if "round_over" in checks and not isinstance(checks["round_over"], bool):
        raise c.fail(f"{field}.round_over", "expected true or false")
    if "round_winners" in checks:
        c.seats(checks["round_winners"], f"{field}.round_winners", players)
    if "deck_size" in checks:
        c.integer(checks["deck_size"], f"{field}.deck_size")
    if "top_card" in checks:
        c.card(checks["top_card"], f"{field}.top_card", nullable=True)
    if "hand" in checks:
        where = f"{field}.hand"
        hand = c.mapping(checks["hand"], where, {"player", "cards"})
        c.seat(c.require(hand, where, "player"), f"{where}.player", players)
        c.cards(c.require(hand, where, "cards"), f"{where}.cards")
    if "ranks" in checks:
        ranks = c.array(checks["ranks"], f"{field}.ranks")
        if len(ranks) != players:
            raise c.fail(f"{field}.ranks", f"expected {players} ranks, one per seat")
        for i, rank in enumerate(ranks):
            if rank is not None:
                c.integer(rank, f"{field}.ranks[{i}]", minimum=1)
    if "win_counters" in checks:
        c.tokens(checks["win_counters"], f"{field}.win_counters", players)
    if "shown" in checks:
        where = f"{field}.shown"
        shown = c.mapping(checks["shown"], where, {"player", "sightings"})
        c.seat(c.require(shown, where, "player"), f"{where}.player", players)
        items = c.array(c.require(shown, where, "sightings"), f"{where}.sightings")
        for i, seen in enumerate(items):
            at = f"{where}.sightings[{i}]"
            seen = c.mapping(seen, at, _SIGHTING_KEYS)
            for key in ("viewer", "owner"):
                if key in seen:
                    c.seat(seen[key], f"{at}.{key}", players)
            for key in ("card", "via"):
                if key in seen:
                    c.card(seen[key], f"{at}.{key}")
            if "turn" in seen:
                c.integer(seen["turn"], f"{at}.turn", minimum=1)


class _LongInteger:
    """An integer written with too many characters to convert (Python
    refuses beyond 4,300 digits, and nothing in a case needs more than 16):
    refused by :meth:`_Checker.plain`, naming the field."""

    def __init__(self, length: int) -> None:
        self.length = length


class _Refused(Exception):
    """Raised while composing YAML: something a case file may not use."""

    def __init__(self, field: str, line: int, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.line = line
        self.message = message


class _StrictConstruction(yaml.constructor.SafeConstructor):
    """What both readers of case files refuse while building values: a key
    given twice and integers too long to convert."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        # A key given twice would silently lose the first value (a check
        # that quietly disappears): refuse it, naming the key and its line.
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, str | int | float | bool) or key is None:
                if key in seen:
                    line = key_node.start_mark.line + 1
                    raise _Refused(str(key), line, f"the key {key!r} is given twice")
                seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_long_int(self, node: yaml.ScalarNode) -> Any:
        text = str(node.value)
        if len(text) > _MAX_INTEGER_TEXT:
            return _LongInteger(len(text))
        return self.construct_yaml_int(node)


class _CheckedComposition(yaml.composer.Composer):
    """Composing nodes, refusing anchors and aliases (no alias bombs; no case
    uses them) and nesting deeper than :data:`MAX_DEPTH` before going
    deeper. Keeps the path of the node being composed, to name the field at
    fault."""

    _path: list[str | int]

    def compose_node(self, parent: Any, index: Any) -> Any:
        # peek_event is the parser's, the loader's other half
        event = cast(Any, self).peek_event()
        if parent is None:
            part: str | int | None = None
        elif isinstance(index, int):
            part = index
        elif isinstance(index, yaml.ScalarNode):
            part = str(index.value)
        else:  # a mapping key (index None) or a complex key
            part = "<key>"
        field = _field([*self._path, part] if part is not None else self._path)
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise _Refused(field, line, "anchors and aliases (& and *) are not allowed in cases")
        if len(self._path) >= MAX_DEPTH:
            raise _Refused(field, line, f"nested deeper than {MAX_DEPTH} levels")
        if part is not None:
            self._path.append(part)
        try:
            return super().compose_node(parent, index)
        finally:
            if part is not None:
                self._path.pop()


class _CaseLoader(_CheckedComposition, _StrictConstruction, yaml.SafeLoader):
    """``yaml.SafeLoader`` with the checks above: no anchors or aliases, no
    nesting deeper than :data:`MAX_DEPTH`, no key twice, no integer too long
    to convert."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._path = []


_FAST: bool = getattr(yaml, "__with_libyaml__", False)

if _FAST:

    class _FastCaseLoader(_CheckedComposition, _StrictConstruction, yaml.CSafeLoader):
        """The same loader on libyaml's parser: events come from C, nodes are
        composed in Python with the same checks (the composer comes first in
        the method order: libyaml's own recurses in C and crashes on deep
        nesting). Used only to accept; see :func:`load_yaml`."""

        def __init__(self, stream: str) -> None:
            yaml.CSafeLoader.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            self._path = []


def _long_int(loader: Any, node: yaml.ScalarNode) -> Any:
    return loader.construct_long_int(node)


_CaseLoader.add_constructor("tag:yaml.org,2002:int", _long_int)
if _FAST:
    _FastCaseLoader.add_constructor("tag:yaml.org,2002:int", _long_int)


def load_yaml(text: str) -> Any:
    """A case or replay file's YAML, read as the strict case loader reads it
    (refusing anchors, aliases, repeated keys, deep nesting and huge
    integers, each naming its field and line). Text PyYAML's reader accepts is parsed
    by libyaml when present (pure-Python scanning is the slow part of loading
    the suite: about 4 s against 1 s); on any fault the pure-Python reader
    reads it again, so errors and their lines are its own."""
    if _FAST and not _NON_PRINTABLE.search(text):
        try:
            return yaml.load(text, Loader=_FastCaseLoader)
        except (_Refused, yaml.YAMLError, ValueError, RecursionError):
            pass  # the strict reader finds the fault again and names its line
    return yaml.load(text, Loader=_CaseLoader)


#: characters PyYAML's reader refuses (libyaml's rules differ slightly)
_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE


def _field(path: Sequence[str | int]) -> str:
    field = ""
    for part in path:
        field = _join(field, part)
    return field


_ID_LINE = re.compile(r"^id:[ \t]*['\"]?([a-z0-9-]{1,100})['\"]?[ \t]*$", re.MULTILINE)


def _guess_id(text: str) -> str | None:
    """The case's id, for errors raised before the YAML could be read."""
    found = _ID_LINE.search(text)
    return found.group(1) if found else None


def read_bounded(path: Path | str) -> bytes:
    """The bytes of a suite file (a case, a replay start, an xfail list):
    a regular file of at most :data:`MAX_FILE_BYTES`. Anything else (a
    named pipe that would never end, a device such as ``/dev/zero``, a
    directory) is refused before a byte is read, as is a larger file;
    :class:`CaseError` says which."""
    file = str(path)
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise CaseError(file, None, "", f"cannot read: {error.strerror or error}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
        os.close(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CaseError(file, None, "", "not a regular file")
        raise CaseError(file, None, "", f"larger than the limit of {MAX_FILE_BYTES} bytes")
    with os.fdopen(fd, "rb") as stream:
        try:
            raw = stream.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            raise CaseError(file, None, "", f"cannot read: {error.strerror or error}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CaseError(file, None, "", f"larger than the limit of {MAX_FILE_BYTES} bytes")
    return raw


def load_case(path: Path | str) -> Case:
    """Read and check one case file: at most :data:`MAX_FILE_BYTES` of
    UTF-8, YAML without anchors or aliases."""
    file = str(path)
    raw = read_bounded(path)
    key = (file, hashlib.blake2b(raw).digest())
    cached = _PARSED.get(key)
    if cached is not None:
        return cached
    case = _parse_file(raw, file)
    if len(_PARSED) < _PARSED_LIMIT:
        _PARSED[key] = case
    return case


#: cases already checked, by file and content: parsing YAML in pure Python
#: is the slow part of a run, and a program may load the suite many times
_PARSED: dict[tuple[str, bytes], Case] = {}
_PARSED_LIMIT = 100_000


def _parse_file(raw: bytes, file: str) -> Case:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        case = _guess_id(raw[: error.start].decode("utf-8", errors="replace"))
        raise CaseError(
            file, case, f"line {line}", f"not UTF-8 (byte {error.start}: {error.reason})"
        ) from None
    case = _guess_id(text)
    try:
        data = load_yaml(text)
    except _Refused as refused:
        raise CaseError(
            file, case, refused.field, f"line {refused.line}: {refused.message}"
        ) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        raise CaseError(file, case, where, f"not valid YAML: {error}") from None
    except (ValueError, RecursionError) as error:  # a value PyYAML cannot convert
        raise CaseError(file, case, "", f"not valid YAML: {str(error)[:200]}") from None
    return parse_case(data, file)


def load_suite(root: Path | str) -> list[Case]:
    """Every case under ``root`` (``conformance/cases``), sorted by name;
    checks the directory layout and that ids are unique within a ruleset."""
    root = Path(root)
    if not root.is_dir():
        raise CaseError(str(root), None, "", "no such directory of cases")
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if path.is_dir():
            continue
        if path.suffix not in (".yaml", ".yml"):
            raise CaseError(str(path), None, "", "only .yaml case files belong here")
        case = load_case(path)
        relative = path.relative_to(root).parts
        if len(relative) != 3:
            raise CaseError(str(path), case.id, "", "cases live in <ruleset>/<topic>/<id>.yaml")
        if relative[0] != case.ruleset:
            raise CaseError(
                str(path),
                case.id,
                "ruleset",
                f"is {case.ruleset!r} but the file is under {relative[0]}/",
            )
        key = f"{case.ruleset}/{case.id}"
        if key in seen:
            raise CaseError(str(path), case.id, "id", f"already used by {seen[key]}")
        seen[key] = str(path)
        cases.append(case)
    return sorted(cases, key=lambda case: case.name)


def select(
    cases: Iterable[Case],
    *,
    rulesets: Sequence[str] = (),
    run: Sequence[str] = (),
    skip: Sequence[str] = (),
    players: frozenset[int] | None = None,
) -> list[Case]:
    """The cases of ``rulesets`` (all if empty) whose ``ruleset/topic/id``
    name or id matches a ``run`` glob (all if empty) and no ``skip`` glob,
    with one of ``players`` seats (any number if None)."""
    return [
        case
        for case in cases
        if (not rulesets or case.ruleset in rulesets)
        and why_excluded(case, run=run, skip=skip, players=players) is None
    ]


def why_excluded(
    case: Case,
    *,
    run: Sequence[str] = (),
    skip: Sequence[str] = (),
    players: frozenset[int] | None = None,
) -> str | None:
    """Why ``case`` is left out by the ``run``/``skip`` globs or the
    ``players`` selection (None: it is selected)."""

    def matches(patterns: Sequence[str]) -> bool:
        return any(
            fnmatch.fnmatchcase(case.name, p) or fnmatch.fnmatchcase(case.id, p) for p in patterns
        )

    if run and not matches(run):
        return "not selected by --run"
    if matches(skip):
        return "left out by --skip"
    if players is not None and case.players not in players:
        return f"{case.players} players, not selected by --players"
    return None


def parse_players(text: str) -> frozenset[int]:
    """``--players``: counts and ranges, ``2-4`` or ``3,5-6``; a ValueError
    naming what is wrong."""
    counts: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ValueError(
                f"expected counts and ranges such as 2-4 or 3,5, not {text!r}"
            ) from None
        if not 1 <= first <= last <= 64:
            raise ValueError(f"expected player counts from 1 to 64 in order, not {part.strip()!r}")
        counts.update(range(first, last + 1))
    return frozenset(counts)
