"""Love Letter, the card game: a reference implementation of its rules.

The public API is a handful of verbs on immutable values:

>>> import loveletter as ll
>>> state = ll.new_game("2019", 3, seed=7)
>>> command = ll.legal_commands(state)[0]
>>> state = ll.push(state, command)
>>> ll.replay(ll.start_game("2019", 3, seed=7) + ll.decide(
...     ll.new_game("2019", 3, seed=7), command)) == state
True
"""

from loveletter.cards import Card
from loveletter.commands import Command, DrawCard, KeepCard, PlayCard, StartRound
from loveletter.engine import (
    decide,
    legal_commands,
    new_game,
    playable_cards,
    push,
    replay,
    start_game,
    step,
)
from loveletter.errors import (
    EventMismatch,
    IllegalCommand,
    LoveLetterError,
    PositionError,
    RejectionKind,
    SerializationError,
)
from loveletter.events import Event
from loveletter.evolution import evolve
from loveletter.positions import Position, from_position, to_position
from loveletter.rulesets import RULESETS, Ruleset, get_ruleset
from loveletter.serialization import dumps, from_data, loads, to_data
from loveletter.state import Decision, GameState, RoundResult, Sighting, Table
from loveletter.views import PlayerView, events_for, redact, view

__version__ = "0.1.0"

__all__ = [
    "RULESETS",
    "Card",
    "Command",
    "Decision",
    "DrawCard",
    "Event",
    "EventMismatch",
    "GameState",
    "IllegalCommand",
    "KeepCard",
    "LoveLetterError",
    "PlayCard",
    "PlayerView",
    "Position",
    "PositionError",
    "RejectionKind",
    "RoundResult",
    "Ruleset",
    "SerializationError",
    "Sighting",
    "StartRound",
    "Table",
    "decide",
    "dumps",
    "events_for",
    "evolve",
    "from_data",
    "from_position",
    "get_ruleset",
    "legal_commands",
    "loads",
    "new_game",
    "playable_cards",
    "push",
    "redact",
    "replay",
    "start_game",
    "step",
    "to_data",
    "to_position",
    "view",
]
