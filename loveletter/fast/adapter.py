"""The compiled simulator behind conformance protocol v1.

Run ``python -m loveletter.fast.adapter`` and speak JSON lines to it
(``conformance/README.md``, "Protocol"), or let the runner start it::

    loveletter conformance run --impl "python -m loveletter.fast.adapter"

It offers what the simulator honestly has: the full-information ``state``,
the ``legal-commands`` of the player to act, ``perft``, and
``seeded-chance`` (its deals draw from the seed exactly as
:mod:`loveletter.chance` says). Not the rest: it makes no events
(``events``, ``redacted-events``), no views (``views``, ``sightings``),
refuses a command with one word, ``illegal`` (``rejection-kinds``), and
loads no described position (``positions``: the runner plays the case's
replay start instead). A case in which someone leaves the table or times
out is skipped: the simulator has neither (rulings 50 and 51), so the
seeded draw of a time-out's move is never asked of it.

Commands arrive in the suite's JSON and are read with the package's codec
(:func:`loveletter.serialization.from_data`), then become action ids; the
state is written back from the simulator's own arrays.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any, TextIO

from loveletter import (
    Card,
    Command,
    DrawCard,
    Leave,
    RoundEndReason,
    RoundResult,
    SerializationError,
    StartRound,
    TimeOut,
    __version__,
    from_data,
    to_data,
)
from loveletter.conformance import protocol
from loveletter.conformance.protocol import PROTOCOL_VERSION, ProtocolError
from loveletter.fast.batch import FastBatch
from loveletter.fast.tables import EDITIONS, edition

__all__ = ["CAPABILITIES", "execute", "handle", "main", "observe_state", "perft"]

JSON = Any

#: what the simulator can answer (conformance/README.md, "Capabilities")
CAPABILITIES = ("state", "legal-commands", "perft", "seeded-chance")

#: the one word of every refusal (no rejection kinds are offered)
REFUSED = "illegal"

_UNSIMULATED = (Leave, TimeOut)


class _Skip(Exception):
    """A case the simulator cannot run."""


def execute(script: dict[str, JSON]) -> dict[str, JSON]:
    """Run a case script: ``{"start_events": [], "steps": [...]}``, or
    ``{"start_rejected": why, ...}`` for a start the rules refuse. Raises
    ``_Skip`` for a case the simulator cannot run."""
    for item in script["steps"]:
        if "command" in item and item["command"].get("type") in ("Leave", "TimeOut"):
            raise _Skip("the simulator has no leaving and no time-outs (rulings 50 and 51)")
    start = script["start"]
    if "deal" not in start:
        raise _Skip("no positions: play the case's replay start")
    deal = start["deal"]
    if "tokens" in deal or "round_number" in deal:
        raise _Skip("no later-round deals: play the case's replay start")
    try:
        batch = _dealt(script, deal)
    except (ValueError, TypeError, KeyError) as error:
        return {"start_rejected": str(error), "start_events": [], "steps": []}
    results: list[JSON] = []
    prelude = script.get("prelude", 0)
    for index, item in enumerate(script["steps"]):
        if "command" in item:
            result: dict[str, JSON] = _command(batch, item["command"])
        else:
            result = {"observation": _observe(batch, item["observe"])}
        results.append(result)
        if index < prelude and "rejected" in result:
            break  # the replay start is not reached: the rest would be noise
    return {"start_events": [], "steps": results}


#: online.time-control-settings (ruling 52): each setting's range
_SETTINGS = {
    "decks": (1, 3),
    "turn_time_ms": (5_000, 60_000),
    "intermission_ms": (0, 30_000),
    "random_moves": (False, True),
}


def _decks(script: dict[str, JSON]) -> int:
    """The table's decks, once its settings are known good: an online
    table's are in their ranges (the simulator keeps no clock, but a table
    with others cannot be made), and no other edition has any."""
    if "settings" not in script:
        return 1
    settings = script["settings"]
    if not edition(script["ruleset"]).ranked:
        raise ValueError(f"{script['ruleset']} has no table settings")
    for name, value in settings.items():
        if name not in _SETTINGS:
            raise ValueError(f"no table setting {name!r}")
        low, high = _SETTINGS[name]
        wanted = bool if name == "random_moves" else int
        if type(value) is not wanted or not low <= value <= high:
            raise ValueError(f"settings.{name}: from {low} to {high}, not {value!r}")
    decks: int = settings.get("decks", 1)
    return decks


def _dealt(script: dict[str, JSON], deal: dict[str, JSON]) -> FastBatch:
    batch = FastBatch(script["ruleset"], script["players"], 1, decks=_decks(script))
    deck = None if deal.get("deck") is None else [Card.parse(name) for name in deal["deck"]]
    order = deal.get("order")
    batch.start_game(0, deck, deal.get("first_player"), order, seed=int(deal.get("seed", 0)))
    return batch


def _command(batch: FastBatch, data: JSON) -> dict[str, JSON]:
    try:
        command = from_data(data, Command)
    except SerializationError:
        return {"rejected": REFUSED}
    if isinstance(command, StartRound):
        return _start_round(batch, command)
    if isinstance(command, (*_UNSIMULATED, DrawCard)):
        return {"rejected": REFUSED}  # no position is ever waiting for its draw
    seat = int(batch.to_act[0])
    player = getattr(command, "player", None)
    try:
        action = batch.table.action_id(command)
    except (KeyError, TypeError, IndexError):
        return {"rejected": REFUSED}
    if player != seat or action not in batch.legal_actions(0).tolist():
        return {"rejected": REFUSED}
    batch.step([action])
    return {"events": []}


def _start_round(batch: FastBatch, command: StartRound) -> dict[str, JSON]:
    if not batch.round_over[0]:
        return {"rejected": REFUSED}
    try:
        batch.start_round(0, command.deck, command.first_player, command.order)
    except (ValueError, TypeError, IndexError):
        return {"rejected": REFUSED}
    return {"events": []}


def observe_state(batch: FastBatch, game: int = 0) -> dict[str, JSON]:
    """The full-information ``state`` observation of one game."""
    snapshot = batch.snapshot(game)
    players = batch.players
    result = None
    reason = snapshot["round_reason"]
    if reason is not None:
        live = [p for p in range(players) if p not in snapshot["out"]]
        revealed = (
            () if reason == "one-player-left" else tuple((p, snapshot["hands"][p][0]) for p in live)
        )
        ranks = (
            tuple(r or None for r in snapshot["ranks"]) if edition(batch.ruleset).ranked else None
        )
        result = RoundResult(RoundEndReason(reason), snapshot["round_winners"], revealed, ranks)
    seat = int(batch.to_act[game])
    return {
        "decision": snapshot["decision"],
        "to_act": None if seat < 0 else seat,
        "current": snapshot["current"],
        "round_number": snapshot["round"],
        "turn_number": snapshot["turn"],
        "deck": to_data(snapshot["deck"]),
        "set_aside": to_data(snapshot["set_aside"]),
        "face_up": to_data(snapshot["face_up"]),
        "hands": to_data(snapshot["hands"]),
        "discards": to_data(snapshot["discards"]),
        "out": list(snapshot["out"]),
        "protected": list(snapshot["protected"]),
        "tokens": list(snapshot["tokens"]),
        "round_result": to_data(result),
        "winners": list(snapshot["winners"]),
        "required": snapshot["required"],
        "marks": to_data(snapshot["marks"]),
        "contenders": list(snapshot["contenders"]),
        "pending": list(snapshot["pending"]),
        "order": list(snapshot["order"]),
        "exits": list(snapshot["exits"]),
        "left": [],
    }


def _player_actions(batch: FastBatch, game: int) -> list[int]:
    """The legal actions of the player to act (dealing is no player's)."""
    if batch.round_over[game]:
        return []
    return [int(a) for a in batch.legal_actions(game)]


def perft(batch: FastBatch, depth: int) -> list[int]:
    """How many sequences of 1, 2, ... ``depth`` player commands there are
    from game 0 of ``batch``."""
    counts = [0] * depth
    if depth <= 0:
        return counts
    stack = FastBatch(batch.ruleset, batch.players, depth + 1, decks=batch.decks)
    stack.copy_game(batch, 0, 0)

    def walk(level: int) -> None:
        actions = _player_actions(stack, level)
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                stack.copy_game(stack, level, level + 1)
                chosen = [-1] * (depth + 1)
                chosen[level + 1] = action
                stack.step(chosen)
                walk(level + 1)

    walk(0)
    return counts


def _observe(batch: FastBatch, request: dict[str, JSON]) -> dict[str, JSON]:
    observation: dict[str, JSON] = {}
    if request.get("state"):
        observation["state"] = observe_state(batch)
    if request.get("legal_commands"):
        seat = int(batch.to_act[0])
        commands = [batch.table.command(a, seat) for a in _player_actions(batch, 0)]
        observation["legal_commands"] = to_data(commands)
    if "perft" in request:
        observation["perft"] = perft(batch, int(request["perft"]))
    return observation


def handle(message: dict[str, JSON]) -> dict[str, JSON] | None:
    """The reply to one message (``None`` for ``stop``)."""
    kind = message["type"]
    if kind == "stop":
        return None
    if kind == "start":
        if message.get("protocol") != PROTOCOL_VERSION:
            raise ProtocolError("start", "protocol", f"this adapter speaks {PROTOCOL_VERSION}")
        return {
            "type": "started",
            "protocol": PROTOCOL_VERSION,
            "implementation": {
                "name": "loveletter.fast",
                "version": __version__,
                "language": "python+numba",
            },
            "rulesets": sorted(EDITIONS),
            "capabilities": list(CAPABILITIES),
        }
    if kind == "run":
        seq = message.get("seq")
        script = message.get("case")
        if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(script, dict):
            raise ProtocolError("run", "seq", "expected an integer and a case")
        try:
            return {"type": "result", "seq": seq, **execute(script)}
        except _Skip as reason:
            return {"type": "skipped", "seq": seq, "reason": str(reason)}
        except Exception as error:  # report it and keep serving the next cases
            return {
                "type": "errored",
                "seq": seq,
                "message": repr(error),
                "context": {"traceback": traceback.format_exc(limit=-3)},
            }
    raise ProtocolError(kind, "type", "expected start, run or stop")


def serve(stdin: TextIO, stdout: TextIO) -> int:
    """Answer protocol messages from ``stdin`` until ``stop``."""
    return protocol.serve(stdin, stdout, handle, "loveletter.fast adapter")


def main() -> int:
    """``python -m loveletter.fast.adapter``."""
    return serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
