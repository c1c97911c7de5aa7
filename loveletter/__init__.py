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

from loveletter.bots import Agent, RandomBot
from loveletter.cards import Card
from loveletter.commands import (
    Command,
    Decline,
    DrawCard,
    KeepCard,
    Leave,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
    TimeOut,
)
from loveletter.determinization import Knowledge, knowledge_of, sample_consistent_state
from loveletter.display import describe_state
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
    ArgumentError,
    EventMismatch,
    IllegalCommand,
    LoveLetterError,
    NotationError,
    PositionError,
    ReachabilityUnknown,
    RejectionKind,
    SerializationError,
    SetupError,
    StateError,
)
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardRevealed,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    ChoiceRestricted,
    EliminationReason,
    Event,
    GameEnded,
    GameStarted,
    GameTied,
    HandsCompared,
    HandSeen,
    HandsTraded,
    LookOffered,
    OptionDeclined,
    PlayerEliminated,
    PlayerLeft,
    PlayerMarked,
    PlayerProtected,
    PositionEstablished,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
    TurnTimedOut,
)
from loveletter.evolution import evolve
from loveletter.heuristic import CardCounterBot
from loveletter.notation import format_command, parse_command
from loveletter.positions import Position, from_position, to_position
from loveletter.records import GameRecord, Outcome, load_record, save_record
from loveletter.rulesets import RULESETS, Ruleset, get_ruleset
from loveletter.scoreboard import Award, RoundScore, Scoreboard
from loveletter.search import SearchBot
from loveletter.serialization import dumps, from_data, loads, to_data
from loveletter.simulation import play_game
from loveletter.state import Decision, GameState, RoundResult, Sighting, Table, TableSettings
from loveletter.validation import check_state
from loveletter.views import PlayerView, events_for, redact, view

__version__ = "0.1.0"

__all__ = [
    "RULESETS",
    "Agent",
    "ArgumentError",
    "Award",
    "Card",
    "CardCounterBot",
    "CardDealt",
    "CardDiscarded",
    "CardDrawn",
    "CardPlayed",
    "CardRemovedFaceUp",
    "CardRevealed",
    "CardSetAside",
    "CardsReturned",
    "ChancellorDrew",
    "ChoiceRestricted",
    "Command",
    "Decision",
    "Decline",
    "DrawCard",
    "EliminationReason",
    "Event",
    "EventMismatch",
    "GameEnded",
    "GameRecord",
    "GameStarted",
    "GameState",
    "GameTied",
    "HandSeen",
    "HandsCompared",
    "HandsTraded",
    "IllegalCommand",
    "KeepCard",
    "Knowledge",
    "Leave",
    "LookAtHand",
    "LookOffered",
    "LoveLetterError",
    "NotationError",
    "OptionDeclined",
    "Outcome",
    "PlayCard",
    "PlayerEliminated",
    "PlayerLeft",
    "PlayerMarked",
    "PlayerProtected",
    "PlayerView",
    "Position",
    "PositionError",
    "PositionEstablished",
    "RandomBot",
    "ReachabilityUnknown",
    "Redraw",
    "RedrawOffered",
    "RejectionKind",
    "RoundEndReason",
    "RoundEnded",
    "RoundResult",
    "RoundScore",
    "RoundStarted",
    "Ruleset",
    "Scoreboard",
    "SearchBot",
    "SerializationError",
    "SetupError",
    "Sighting",
    "StartRound",
    "StateError",
    "Table",
    "TableSettings",
    "TimeOut",
    "TokenAwarded",
    "TokenReason",
    "TurnStarted",
    "TurnTimedOut",
    "check_state",
    "decide",
    "describe_state",
    "dumps",
    "events_for",
    "evolve",
    "format_command",
    "from_data",
    "from_position",
    "get_ruleset",
    "knowledge_of",
    "legal_commands",
    "load_record",
    "loads",
    "new_game",
    "parse_command",
    "play_game",
    "playable_cards",
    "push",
    "redact",
    "replay",
    "sample_consistent_state",
    "save_record",
    "start_game",
    "step",
    "to_data",
    "to_position",
    "view",
]
