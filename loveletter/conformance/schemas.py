"""The JSON Schemas of the case format and of protocol v1, built from the
vocabulary so that they cannot drift from what the engine emits.

The committed copies in ``conformance/schema/`` are what other
implementations read; ``tests/conformance/test_schemas.py`` fails when they
differ from these. Regenerate them with::

    python -m loveletter.conformance.schemas --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from loveletter.cards import Card
from loveletter.conformance.vocabulary import (
    CAPABILITIES,
    CARD_KEYS,
    CARD_LIST_KEYS,
    COMMAND_FIELDS,
    DECISIONS,
    EVENT_FIELDS,
    OUTCOME_CHECKS,
    REJECTION_KINDS,
    STATE_FIELDS,
    VIEW_FIELDS,
)
from loveletter.events import EliminationReason, RoundEndReason, TokenReason
from loveletter.rulesets import RULESETS

JSON = Any
DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://loveletter.dev/conformance/schema/"
CARDS = [card.title for card in Card]
#: the cards through which a player is shown another's hand
SHOWING = ["Priest", "Baron", "King", "DowagerQueen", "Baroness", "Cardinal"]

_REF_CARD = {"$ref": "#/$defs/card"}
_REF_CARDS = {"$ref": "#/$defs/cards"}
_REF_SEAT = {"$ref": "#/$defs/seat"}
_SEATS = {"type": "array", "items": _REF_SEAT}
_NULLABLE_SEAT = {"anyOf": [_REF_SEAT, {"type": "null"}]}
_NULLABLE_CARD = {"anyOf": [_REF_CARD, {"type": "null"}]}
_NULLABLE_CARDS = {"anyOf": [_REF_CARDS, {"type": "null"}]}
_PILES = {"type": "array", "items": _REF_CARDS}
_COUNT = {"type": "integer", "minimum": 0}
_MARKS = {
    "type": "array",
    "items": {"type": "array", "items": _REF_SEAT, "minItems": 2, "maxItems": 2},
}
_RANKS = {
    "type": "array",
    "items": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
}
#: an online table's settings (format 1.3; ruling 52 gives the ranges the
#: rules accept: outside them the start is refused, not malformed)
_SETTINGS = {
    "type": "object",
    "properties": {
        "decks": {"type": "integer", "minimum": 0},
        "turn_time_ms": {"type": "integer", "minimum": 0},
        "random_moves": {"type": "boolean"},
        "intermission_ms": {"type": "integer", "minimum": 0},
    },
    "additionalProperties": False,
}
_SEED = {
    "anyOf": [
        {"type": "string", "pattern": "^(0|[1-9][0-9]{0,77})$"},
        {"type": ["integer", "null"]},
    ]
}

_FIELD_TYPES: dict[str, JSON] = {
    "player": _REF_SEAT,
    "opponent": _REF_SEAT,
    "viewer": _REF_SEAT,
    "owner": _REF_SEAT,
    "first_player": _NULLABLE_SEAT,
    "target": _NULLABLE_SEAT,
    "second_target": _NULLABLE_SEAT,
    "required": _REF_SEAT,
    "marked": _REF_SEAT,
    "owners": _SEATS,
    "tied": _SEATS,
    "seats": {"anyOf": [_SEATS, {"type": "null"}]},
    "guess": {"anyOf": [_REF_CARD, {"type": "integer", "minimum": 0}, {"type": "null"}]},
    "players": {"type": "integer", "minimum": 1},
    "round_number": {"type": "integer", "minimum": 1},
    "count": _COUNT,
    "total": _COUNT,
    # ours, never compared: this package writes decimal digits (exact in any
    # language's JSON), older files and other implementations an integer
    "seed": _SEED,
    "settings": {"anyOf": [_SETTINGS, {"type": "null"}]},
    "order": {"anyOf": [_SEATS, {"type": "null"}]},
    "ranks": {"anyOf": [_RANKS, {"type": "null"}]},
    "ruleset": {"type": "string"},
    "winners": _SEATS,
    "from_set_aside": {"type": "boolean"},
    "position": {"type": ["object", "null"]},
    "revealed": {
        "type": "array",
        "items": {
            "type": "array",
            "prefixItems": [_REF_SEAT, _REF_CARD],
            "minItems": 2,
            "maxItems": 2,
        },
    },
}


def _field(event: str, name: str) -> JSON:
    if name == "reason":
        values = {
            "PlayerEliminated": EliminationReason,
            "RoundEnded": RoundEndReason,
            "TokenAwarded": TokenReason,
        }[event]
        return {"enum": [v.value for v in values]}
    if name in CARD_KEYS and name not in _FIELD_TYPES:
        return _NULLABLE_CARD
    if name in CARD_LIST_KEYS:
        return _NULLABLE_CARDS
    return _FIELD_TYPES[name]


def _tagged(kinds: dict[str, tuple[str, ...]]) -> JSON:
    """One object schema per type tag, keyed on ``type``."""
    return {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": sorted(kinds)}},
        "allOf": [
            {
                "if": {"properties": {"type": {"const": kind}}},
                "then": {
                    "properties": {
                        "type": {"const": kind},
                        **{name: _field(kind, name) for name in fields},
                    },
                    "additionalProperties": False,
                },
            }
            for kind, fields in sorted(kinds.items())
        ],
    }


def _common_defs() -> dict[str, JSON]:
    return {
        "card": {"enum": CARDS},
        "cards": {"type": "array", "items": _REF_CARD},
        "seat": {"type": "integer", "minimum": 0},
        "event": _tagged(EVENT_FIELDS),
        "command": _tagged(COMMAND_FIELDS),
        "rejection": {"enum": sorted(REJECTION_KINDS)},
    }


def case_schema() -> JSON:
    sighting = {
        "type": "object",
        "required": ["viewer", "owner", "card", "turn", "via"],
        "properties": {
            "viewer": _REF_SEAT,
            "owner": _REF_SEAT,
            "card": _REF_CARD,
            "turn": {"type": "integer", "minimum": 1},
            "via": {"enum": SHOWING},
        },
        "additionalProperties": False,
    }
    state_checks: dict[str, JSON] = {
        "decision": {"enum": sorted(DECISIONS)},
        "to_act": _NULLABLE_SEAT,
        "current": _REF_SEAT,
        "round_number": {"type": "integer", "minimum": 1},
        "turn_number": {"type": "integer", "minimum": 1},
        "deck": _REF_CARDS,
        "set_aside": _NULLABLE_CARD,
        "face_up": _REF_CARDS,
        "hands": _PILES,
        "discards": _PILES,
        "out": _SEATS,
        "protected": _SEATS,
        "tokens": {"type": "array", "items": _COUNT},
        "round_result": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {
                        "reason": {"enum": [r.value for r in RoundEndReason]},
                        "winners": _SEATS,
                        "revealed": _FIELD_TYPES["revealed"],
                        "ranks": _FIELD_TYPES["ranks"],
                    },
                    "additionalProperties": False,
                },
                {"type": "null"},
            ]
        },
        "winners": _SEATS,
        "required": _NULLABLE_SEAT,
        "marks": _MARKS,
        "contenders": _SEATS,
        "pending": _SEATS,
        "order": _SEATS,
        "exits": _SEATS,
        "left": _SEATS,
    }
    assert set(state_checks) == set(STATE_FIELDS)
    commands = {"type": "array", "items": {"$ref": "#/$defs/command"}}
    view = {
        "type": "object",
        "required": ["player"],
        "properties": {
            **{name: {} for name in VIEW_FIELDS},
            "player": _REF_SEAT,
            "hand": _REF_CARDS,
            "hand_sizes": {"type": "array", "items": _COUNT},
            "deck_size": _COUNT,
            "set_aside_present": {"type": "boolean"},
            "sightings": {"type": "array", "items": sighting},
            "legal_commands": commands,
            "deck_bottom": {"type": "array", "items": _NULLABLE_CARD},
            "settings": _FIELD_TYPES["settings"],
            **{k: v for k, v in state_checks.items() if k in VIEW_FIELDS},
        },
        "additionalProperties": False,
    }
    events = {"type": "array", "items": {"$ref": "#/$defs/event"}}
    command_step = {
        "type": "object",
        "required": ["command"],
        "properties": {
            "command": {"type": "object", "required": ["type"]},
            "events": events,
            "rejected": {"$ref": "#/$defs/rejection"},
            "seen_by": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["player", "events"],
                    "properties": {"player": _REF_SEAT, "events": events},
                    "additionalProperties": False,
                },
            },
            "accepted": {"const": True},
            "note": {"type": "string"},
        },
        "oneOf": [
            {"required": ["events"], "properties": {"command": {"$ref": "#/$defs/command"}}},
            {"required": ["rejected"], "not": {"required": ["seen_by"]}},
            {
                "required": ["accepted"],
                "not": {"required": ["seen_by"]},
                "properties": {"command": {"$ref": "#/$defs/command"}},
            },
        ],
        "additionalProperties": False,
    }
    partial_sighting = {**sighting, "required": []}
    outcome_checks = {
        "round_over": {"type": "boolean"},
        "round_winners": _SEATS,
        "deck_size": _COUNT,
        "top_card": _NULLABLE_CARD,
        "hand": {
            "type": "object",
            "required": ["player", "cards"],
            "properties": {"player": _REF_SEAT, "cards": _REF_CARDS},
            "additionalProperties": False,
        },
        "shown": {
            "type": "object",
            "required": ["player", "sightings"],
            "properties": {
                "player": _REF_SEAT,
                "sightings": {"type": "array", "items": partial_sighting},
            },
            "additionalProperties": False,
        },
        "ranks": _RANKS,
        "win_counters": {"type": "array", "items": _COUNT},
    }
    assert set(outcome_checks) == set(OUTCOME_CHECKS)
    checks_step = {
        "type": "object",
        "required": ["checks"],
        "properties": {
            "checks": {
                "type": "object",
                "minProperties": 1,
                "properties": {
                    **state_checks,
                    **outcome_checks,
                    "legal_commands": commands,
                    "legal_commands_include": commands,
                    "legal_commands_exclude": commands,
                    "legal_command_count": _COUNT,
                    "views": {"type": "array", "items": view},
                    "perft": {"type": "array", "items": _COUNT, "minItems": 1},
                },
                "additionalProperties": False,
            },
            "note": {"type": "string"},
        },
        "additionalProperties": False,
    }
    deal = {
        "type": "object",
        "required": ["deck"],
        "properties": {
            "deck": _REF_CARDS,
            "first_player": _REF_SEAT,
            "tokens": {"type": "array", "items": _COUNT},
            "round_number": {"type": "integer", "minimum": 1},
            "events": events,
            "order": _SEATS,
            "seed": _SEED,
        },
        "additionalProperties": False,
    }
    position = {
        "type": "object",
        "required": ["deck", "set_aside", "hands", "discards", "current", "drawn"],
        "properties": {
            "deck": _REF_CARDS,
            "set_aside": _NULLABLE_CARD,
            "face_up": _REF_CARDS,
            "hands": _PILES,
            "discards": _PILES,
            "current": _REF_SEAT,
            "drawn": {"type": "boolean"},
            "out": _SEATS,
            "protected": _SEATS,
            "tokens": {"type": "array", "items": _COUNT},
            "round_number": {"type": "integer", "minimum": 1},
            "turn_number": {"type": "integer", "minimum": 1},
            "sightings": {"type": "array", "items": sighting},
            "required": _NULLABLE_SEAT,
            "marks": _MARKS,
            "contenders": _SEATS,
            "returns": _MARKS,
            "order": _SEATS,
            "exits": _SEATS,
            "left": _SEATS,
            "seed": _SEED,
        },
        "additionalProperties": False,
    }
    return {
        "$schema": DRAFT,
        "$id": BASE + "case-v1.json",
        "title": "Love Letter conformance case, format 1.3 (reads formats 1, 1.1 and 1.2 too)",
        "description": "See conformance/README.md for the meaning of every field.",
        "type": "object",
        "required": ["format", "id", "title", "rules", "ruleset", "players", "start", "steps"],
        "properties": {
            "format": {"enum": [1, 1.1, 1.2, 1.3]},
            "id": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
            "title": {"type": "string", "minLength": 1},
            "description": {"type": "string"},
            "rules": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "string", "pattern": "^[a-z0-9-]+\\.[a-z0-9-]+$"},
            },
            "rulings": {"type": "array", "items": {"type": "integer", "minimum": 1}},
            "ruleset": {"enum": sorted(RULESETS)},
            "players": {"type": "integer", "minimum": 1},
            "settings": _SETTINGS,
            "start": {
                "type": "object",
                "minProperties": 1,
                "maxProperties": 1,
                "properties": {"deal": deal, "position": position},
                "additionalProperties": False,
            },
            "start_rejected": {"type": "boolean"},
            "steps": {"type": "array", "items": {"oneOf": [command_step, checks_step]}},
        },
        "if": {"properties": {"start_rejected": {"const": True}}, "required": ["start_rejected"]},
        "then": {"properties": {"steps": {"maxItems": 0}}},
        "else": {"properties": {"steps": {"minItems": 1}}},
        "additionalProperties": False,
        "$defs": _common_defs(),
    }


def _message(
    name: str,
    title: str,
    required: list[str],
    properties: dict[str, JSON],
    closed: bool = True,
    **extra: JSON,
) -> JSON:
    """The schema of one message: an object tagged ``"type": name``.
    Replies from implementations are open (extra keys allowed); what the
    runner sends is closed."""
    body: dict[str, JSON] = {
        "type": "object",
        "required": ["type", *required],
        "properties": {"type": {"const": name}, **properties},
    }
    if closed:
        body["additionalProperties"] = False
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}protocol-v1/{name}.json",
        "title": title,
        **body,
        **extra,
        "$defs": _common_defs(),
    }


def protocol_schemas() -> dict[str, JSON]:
    """Message name -> schema."""
    seq = {"type": "integer", "minimum": 1}
    events = {"type": "array", "items": {"$ref": "#/$defs/event"}}
    script_step = {
        "oneOf": [
            {
                "type": "object",
                "required": ["command"],
                "properties": {
                    "command": {"type": "object", "required": ["type"]},
                    "seen_by": {"type": "array", "items": {"$ref": "#/$defs/seat"}},
                },
                "additionalProperties": False,
            },
            {
                "type": "object",
                "required": ["observe"],
                "properties": {
                    "observe": {
                        "type": "object",
                        "properties": {
                            "state": {"type": "boolean"},
                            "legal_commands": {"type": "boolean"},
                            "views": {"type": "array", "items": {"$ref": "#/$defs/seat"}},
                            "perft": {"type": "integer", "minimum": 1},
                        },
                        "additionalProperties": False,
                    }
                },
                "additionalProperties": False,
            },
        ]
    }
    case = case_schema()["properties"]
    step_result = {
        "oneOf": [
            {
                "type": "object",
                "required": ["events"],
                "properties": {
                    "events": events,
                    "seen_by": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["player", "events"],
                            "properties": {"player": {"$ref": "#/$defs/seat"}, "events": events},
                        },
                    },
                },
            },
            {
                "type": "object",
                "required": ["rejected"],
                "properties": {
                    "rejected": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 200,
                        "description": "one of $defs/rejection when the implementation "
                        "declares rejection-kinds (or declares no capabilities); any short "
                        "refusal otherwise",
                    }
                },
            },
            {
                "type": "object",
                "required": ["observation"],
                "properties": {
                    "observation": {
                        "type": "object",
                        "properties": {
                            "state": {
                                "type": "object",
                                "required": list(STATE_FIELDS),
                            },
                            "legal_commands": {
                                "type": "array",
                                "items": {"$ref": "#/$defs/command"},
                            },
                            "views": {"type": "array", "items": {"type": "object"}},
                            "perft": {"type": "array", "items": {"type": "integer"}},
                        },
                    }
                },
            },
        ]
    }
    seq_reply = {"seq": seq}
    return {
        "start": _message(
            "start",
            "runner -> implementation: open the session",
            ["protocol"],
            {"protocol": {"const": 1}},
        ),
        "started": _message(
            "started",
            "implementation -> runner: the handshake reply",
            ["protocol", "implementation", "rulesets"],
            {
                "protocol": {"const": 1},
                "implementation": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string"},
                        "version": {"type": "string"},
                        "language": {"type": "string"},
                        "homepage": {"type": "string"},
                    },
                },
                "rulesets": {"type": "array", "items": {"type": "string"}},
                "capabilities": {
                    "type": "array",
                    "items": {"enum": list(CAPABILITIES)},
                    "uniqueItems": True,
                    "description": "what the implementation offers; absent: everything",
                },
            },
            closed=False,
        ),
        "run": _message(
            "run",
            "runner -> implementation: execute one case's script",
            ["seq", "case"],
            {
                **seq_reply,
                "case": {
                    "type": "object",
                    "required": ["id", "ruleset", "players", "start", "steps"],
                    "properties": {
                        "id": {"type": "string"},
                        "ruleset": {"type": "string"},
                        "players": case["players"],
                        "settings": case["settings"],
                        "start": case["start"],
                        "steps": {"type": "array", "items": script_step},
                    },
                    "additionalProperties": False,
                },
            },
        ),
        "result": _message(
            "result",
            "implementation -> runner: what happened in one case",
            ["seq", "steps"],
            {
                **seq_reply,
                "start_events": events,
                "start_rejected": {"type": "string"},
                "steps": {"type": "array", "items": step_result},
            },
            closed=False,
            oneOf=[
                {"required": ["start_rejected"], "properties": {"steps": {"maxItems": 0}}},
                {"required": ["start_events"], "not": {"required": ["start_rejected"]}},
            ],
        ),
        "skipped": _message(
            "skipped",
            "implementation -> runner: this case cannot be run here",
            ["seq", "reason"],
            {**seq_reply, "reason": {"type": "string"}},
            closed=False,
        ),
        "errored": _message(
            "errored",
            "implementation -> runner: running this case failed unexpectedly",
            ["seq", "message"],
            {**seq_reply, "message": {"type": "string"}, "context": {"type": "object"}},
            closed=False,
        ),
        "stop": _message("stop", "runner -> implementation: exit now", [], {}),
    }


def replay_schema() -> JSON:
    """A replay start file (``conformance/replays/``; see starts.py)."""
    return {
        "$schema": DRAFT,
        "$id": BASE + "replay-v1.json",
        "title": "Love Letter conformance replay start, format 1",
        "description": "A stacked round-1 deal and the commands that reach a case's start; "
        "see conformance/README.md, 'Replay starts'.",
        "type": "object",
        "required": ["format", "case", "ruleset", "players", "deal", "commands"],
        "properties": {
            "format": {"const": 1},
            "case": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
            "ruleset": {"enum": sorted(RULESETS)},
            "players": {"type": "integer", "minimum": 1},
            # format 1.3 cases: an online table's settings, as the case's own
            "settings": _SETTINGS,
            "deal": {
                "type": "object",
                "required": ["deck", "first_player"],
                "properties": {
                    "deck": _REF_CARDS,
                    "first_player": _REF_SEAT,
                    # online: round 1's turn order, first_player first
                    "order": _SEATS,
                    # the case's seed, where a time-out draws from it
                    "seed": _SEED,
                },
                "additionalProperties": False,
            },
            "commands": {"type": "array", "items": {"$ref": "#/$defs/command"}},
            "after_draw": {"type": "boolean"},
        },
        "additionalProperties": False,
        "$defs": _common_defs(),
    }


def all_schemas() -> dict[str, JSON]:
    """Relative path under ``conformance/schema/`` -> schema."""
    files = {"case-v1.json": case_schema(), "replay-v1.json": replay_schema()}
    for name, schema in protocol_schemas().items():
        files[f"protocol-v1/{name}.json"] = schema
    return files


def render(schema: JSON) -> str:
    return json.dumps(schema, indent=2) + "\n"


def write(root: Path) -> None:
    for relative, schema in all_schemas().items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(schema), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        print("usage: python -m loveletter.conformance.schemas --write", file=sys.stderr)
        sys.exit(2)
    write(Path(__file__).resolve().parents[2] / "conformance" / "schema")
