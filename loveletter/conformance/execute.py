"""Our engine as a conformance implementation: it executes a case script
(the ``case`` of a protocol ``run`` message) and reports what happened.

The runner compares; this module only executes, exactly as another
implementation would behind the protocol. The in-process runner and
``python -m loveletter.conformance.adapter`` both call :func:`execute`, so the
two paths differ only in transport.
"""

from __future__ import annotations

from typing import Any

import attrs

from loveletter.cards import Card
from loveletter.commands import Command, StartRound
from loveletter.engine import deal_events, decide, legal_commands, push, replay, start_game, step
from loveletter.errors import IllegalCommand, PositionError, RejectionKind, SerializationError
from loveletter.positions import Position, from_position, to_position
from loveletter.serialization import from_data, to_data
from loveletter.state import GameState, Sighting, TableSettings
from loveletter.views import events_for, view

JSON = Any


class ScriptError(ValueError):
    """A script this implementation cannot run; ``field`` locates it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def execute(script: dict[str, JSON]) -> dict[str, JSON]:
    """Run ``script`` and return ``{"start_events": [...], "steps": [...]}``,
    or ``{"start_rejected": why, "start_events": [], "steps": []}`` when the
    rules do not allow the start (a player count or a position that cannot
    occur)."""
    try:
        state, start_events = start_state(script)
    except ScriptError as error:
        return {"start_rejected": str(error), "start_events": [], "steps": []}
    results: list[JSON] = []
    prelude = script.get("prelude", 0)
    for index, item in enumerate(script["steps"]):
        if "command" in item:
            state, result = _command(state, item)
        else:
            result = {"observation": _observe(state, item["observe"], f"steps[{index}]")}
        results.append(result)
        if index < prelude and "rejected" in result:
            break  # the replay start is not reached: the rest would be noise
    return {"start_events": start_events, "steps": results}


def _cards(names: list[str], field: str) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(name) for name in names)
    except (ValueError, TypeError) as error:
        raise ScriptError(field, str(error)) from None


def start_state(script: dict[str, JSON]) -> tuple[GameState, list[JSON]]:
    """The state a script (a case's data) starts from, and the start's
    events as JSON: a stacked deal (with its later-round tokens, if any) or
    a described position. Raises :class:`ScriptError` for a start the rules
    refuse."""
    ruleset, players = script["ruleset"], script["players"]
    start = script["start"]
    try:
        settings = TableSettings(**script["settings"]) if "settings" in script else None
        if "deal" in start:
            deal = start["deal"]
            deck = _cards(deal["deck"], "start.deal.deck")
            order = deal.get("order")
            events = start_game(
                ruleset,
                players,
                seed=int(deal.get("seed", 0)),
                first_player=deal.get("first_player"),
                deck=deck,
                order=order,
                settings=settings,
            )
            state = replay(events)
            if "tokens" in deal or "round_number" in deal:
                # A deal later in a game: the same cards, with the tokens so
                # far; its events are that round's deal, with no GameStarted.
                round_number = deal.get("round_number", 1)
                position = attrs.evolve(
                    to_position(state),
                    tokens=tuple(deal.get("tokens", state.tokens)),
                    round_number=round_number,
                )
                state = from_position(position)
                drawn = state.table.order or None
                events = deal_events(
                    state.ruleset,
                    players,
                    round_number,
                    drawn[0] if drawn else deal.get("first_player", 0),
                    deck,
                    order=drawn,
                )
            return state, to_data(list(events))
        p = start["position"]
        field = "start.position"
        position = Position(
            ruleset=ruleset,
            players=players,
            deck=_cards(p["deck"], f"{field}.deck"),
            set_aside=(
                None
                if p["set_aside"] is None
                else _cards([p["set_aside"]], f"{field}.set_aside")[0]
            ),
            face_up=_cards(p.get("face_up", []), f"{field}.face_up"),
            hands=tuple(_cards(h, f"{field}.hands") for h in p["hands"]),
            discards=tuple(_cards(d, f"{field}.discards") for d in p["discards"]),
            current=p["current"],
            drawn=p["drawn"],
            out=tuple(p.get("out", ())),
            protected=tuple(p.get("protected", ())),
            tokens=tuple(p["tokens"]) if "tokens" in p else None,
            round_number=p.get("round_number", 1),
            turn_number=p.get("turn_number", 1),
            sightings=tuple(
                Sighting(
                    s["viewer"], s["owner"], Card.parse(s["card"]), s["turn"], Card.parse(s["via"])
                )
                for s in p.get("sightings", ())
            ),
            required=p.get("required"),
            marks=tuple(tuple(mark) for mark in p.get("marks", ())),
            contenders=tuple(p.get("contenders", ())),
            returns=tuple(tuple(item) for item in p.get("returns", ())),
            seed=int(p.get("seed", 0)),
            settings=settings,
            order=tuple(p.get("order", ())),
            exits=tuple(p.get("exits", ())),
            left=tuple(p.get("left", ())),
        )
        return from_position(position), []
    except ScriptError:
        raise
    except (ValueError, TypeError, KeyError) as error:
        where = "start"
        if isinstance(error, PositionError):
            where = f"start.position.{error.field}"
        raise ScriptError(where, str(error)) from None


def _command(state: GameState, item: dict[str, JSON]) -> tuple[GameState, dict[str, JSON]]:
    try:
        command = from_data(item["command"], Command)
    except SerializationError:
        return state, {"rejected": RejectionKind.MALFORMED_COMMAND.value}
    try:
        state, events = step(state, command)
    except IllegalCommand as error:
        return state, {"rejected": error.kind.value}
    result: dict[str, JSON] = {"events": to_data(list(events))}
    if item.get("seen_by"):
        result["seen_by"] = [
            {"player": p, "events": to_data(list(events_for(p, events)))} for p in item["seen_by"]
        ]
    return state, result


def player_commands(state: GameState) -> list[Command]:
    """The legal commands of the player to act: ``StartRound`` is the
    dealer's chance step, never a player's."""
    return [c for c in legal_commands(state) if not isinstance(c, StartRound)]


def observe_state(state: GameState) -> dict[str, JSON]:
    """The full-information ``state`` observation."""
    return {
        "decision": state.decision.value,
        "to_act": state.to_act,
        "current": state.current,
        "round_number": state.round_number,
        "turn_number": state.turn_number,
        "deck": to_data(state.deck),
        "set_aside": to_data(state.set_aside),
        "face_up": to_data(state.face_up),
        "hands": to_data(state.hands),
        "discards": to_data(state.discards),
        "out": sorted(state.out),
        "protected": sorted(state.protected),
        "tokens": list(state.tokens),
        "round_result": to_data(state.round_result),
        "winners": list(state.winners),
        "required": state.required,
        "marks": to_data(state.marks),
        "contenders": list(state.contenders),
        "pending": list(state.pending),
        "order": list(state.table.order),
        "exits": list(state.exits),
        "left": sorted(state.table.left),
    }


def _observe(state: GameState, request: dict[str, JSON], field: str) -> dict[str, JSON]:
    observation: dict[str, JSON] = {}
    if request.get("state"):
        observation["state"] = observe_state(state)
    if request.get("legal_commands"):
        observation["legal_commands"] = to_data(player_commands(state))
    if "views" in request:
        views = []
        for seat in request["views"]:
            if not isinstance(seat, int) or not 0 <= seat < state.players:
                raise ScriptError(f"{field}.observe.views", f"no seat {seat!r}")
            # A view lists commands only for the player to act, and nobody
            # acts between rounds, so it never holds StartRound.
            data = to_data(view(state, seat))
            del data["type"]
            views.append(data)
        observation["views"] = views
    if "perft" in request:
        observation["perft"] = perft(state, request["perft"])
    if "try" in request:
        observation["tried"] = [_legal(state, data) for data in request["try"]]
    return observation


def _legal(state: GameState, data: JSON) -> bool:
    """Whether a command would be accepted here (nothing is applied)."""
    try:
        decide(state, from_data(data, Command))
    except (IllegalCommand, SerializationError):
        return False
    return True


def perft(state: GameState, depth: int) -> list[int]:
    """The number of distinct sequences of 1, 2, ... ``depth`` player
    commands from ``state`` (a finished round has no player commands)."""
    counts = [0] * depth

    def walk(node: GameState, level: int) -> None:
        commands = player_commands(node)
        counts[level] += len(commands)
        if level + 1 < depth:
            for command in commands:
                walk(push(node, command), level + 1)

    if depth > 0:
        walk(state, 0)
    return counts
