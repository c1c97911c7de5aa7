"""A deliberately minimal engine behind protocol v1: the walkthrough's model
of an engine that is not built like ours.

It uses only what most engines have -- a new game from a stacked deck,
"play this command", the legal commands and the state -- and declares so in
its handshake (``capabilities``). It cannot load a position (the runner
sends such cases as their replay starts: a deal and the commands reaching
the position), has no per-player views, no redacted events, no perft, and
refuses an illegal command with one generic error instead of our rejection
kinds. It passes the case's seed to the engine, whose random moves (an
online time-out) are the suite's documented draws: it declares
``seeded-chance``. ``python minimal_adapter.py``; see ``test_walkthrough.py``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from loveletter.cards import Card
from loveletter.commands import Command, StartRound
from loveletter.conformance.execute import observe_state
from loveletter.engine import legal_commands, replay, start_game, step
from loveletter.errors import IllegalCommand, SerializationError
from loveletter.rulesets import RULESETS
from loveletter.serialization import from_data, to_data
from loveletter.state import GameState, TableSettings

JSON = Any

#: what this engine offers (everything else the runner reports not applicable)
CAPABILITIES = ["events", "state", "legal-commands", "seeded-chance"]
#: its only refusal
REFUSAL = "illegal move"


def _run(script: dict[str, JSON]) -> dict[str, JSON]:
    start = script["start"]
    if "deal" not in start or set(start["deal"]) - {"deck", "first_player", "order", "seed"}:
        # never sent: the handshake says positions are not offered
        return {"start_rejected": "this engine starts only from a new game's deal"}
    deal = start["deal"]
    try:
        deck = [Card.parse(name) for name in deal["deck"]]
        settings = script.get("settings")
        opening = start_game(
            script["ruleset"],
            script["players"],
            seed=int(deal.get("seed", 0)),
            first_player=deal.get("first_player", None if "order" in deal else 0),
            deck=deck,
            order=deal.get("order"),
            settings=None if settings is None else TableSettings(**settings),
        )
        state = replay(opening)
    except (ValueError, TypeError) as error:
        return {"start_rejected": str(error), "steps": []}
    results: list[dict[str, JSON]] = []
    for item in script["steps"]:
        if "observe" in item:
            results.append({"observation": _observe(state, item["observe"])})
            continue
        try:
            command = from_data(item["command"], Command)
            state, events = step(state, command)
        except (IllegalCommand, SerializationError):
            results.append({"rejected": REFUSAL})
            continue
        results.append({"events": to_data(list(events))})
    return {"start_events": to_data(list(opening)), "steps": results}


def _observe(state: GameState, request: dict[str, JSON]) -> dict[str, JSON]:
    observation: dict[str, JSON] = {}
    if request.get("state"):
        # the full-information state, built as our own adapter builds it
        observation["state"] = observe_state(state)
    if request.get("legal_commands"):
        commands = [c for c in legal_commands(state) if not isinstance(c, StartRound)]
        observation["legal_commands"] = to_data(commands)
    return observation


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message["type"]
        if kind == "stop":
            return 0
        if kind == "start":
            reply: dict[str, JSON] = {
                "type": "started",
                "protocol": 1,
                "implementation": {"name": "minimal", "version": "0", "language": "python"},
                "rulesets": sorted(RULESETS),
                "capabilities": CAPABILITIES,
            }
        else:
            reply = {"type": "result", "seq": message["seq"], **_run(message["case"])}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
