"""The conformance vocabulary: the names a case or a protocol message may use.

Cases and protocol messages are language-neutral data, so these names are
the contract with other implementations. They are derived from the engine's
own classes (so they cannot drift from what the engine emits) and frozen by
``tests/conformance/test_vocabulary.py`` against ``conformance/README.md``.
"""

from __future__ import annotations

from typing import Any

import attrs

from loveletter.cards import Card
from loveletter.errors import RejectionKind
from loveletter.events import EVENT_TYPES
from loveletter.serialization import COMMAND_TYPES
from loveletter.state import Decision
from loveletter.views import PlayerView

#: card names exactly as cases and messages write them
CARD_NAMES: frozenset[str] = frozenset(card.title for card in Card)

#: event type -> its fields (every field an implementation reports)
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    name: tuple(f.name for f in attrs.fields(cls)) for name, cls in EVENT_TYPES.items()
}

#: command type -> its fields
COMMAND_FIELDS: dict[str, tuple[str, ...]] = {
    name: tuple(f.name for f in attrs.fields(cls)) for name, cls in COMMAND_TYPES.items()
}

#: the commands a player gives (``StartRound`` is the dealer's chance step,
#: ``TimeOut`` a host's; ``Leave`` is a player's but never a legal command:
#: it is always open to a seated player, outside the game's moves)
PLAYER_COMMANDS: frozenset[str] = frozenset(
    {"PlayCard", "KeepCard", "DrawCard", "LookAtHand", "Redraw", "Decline"}
)

REJECTION_KINDS: frozenset[str] = frozenset(kind.value for kind in RejectionKind)
DECISIONS: frozenset[str] = frozenset(decision.value for decision in Decision)

#: the full-information fields of a ``state`` observation
STATE_FIELDS: tuple[str, ...] = (
    "decision",
    "to_act",
    "current",
    "round_number",
    "turn_number",
    "deck",
    "set_aside",
    "face_up",
    "hands",
    "discards",
    "out",
    "protected",
    "tokens",
    "round_result",
    "winners",
    # format 1.1 (Premium)
    "required",
    "marks",
    "contenders",
    "pending",
    # format 1.3 (online)
    "order",
    "exits",
    "left",
)

#: the outcome checks of format 1.2: what people ask about a moment of a
#: game, derived by the runner from the ``state`` observation (and, for
#: ``shown``, from the player's view) so no implementation reports them
OUTCOME_CHECKS: tuple[str, ...] = (
    "round_over",
    "round_winners",
    "deck_size",
    "top_card",
    "hand",
    "shown",
    # format 1.3 (online)
    "ranks",
    "win_counters",
)

#: what an implementation may declare it offers (the handshake's
#: ``capabilities``); one that declares none offers them all (protocol 1 as
#: first published). The runner checks what a case asks only where the
#: implementation offers it, and reports the rest as not applicable.
CAPABILITIES: tuple[str, ...] = (
    "positions",  # start from a position or a later round's deal
    "sightings",  # positions carry them, views list them
    "events",  # report the events of each accepted command in our vocabulary
    "redacted-events",  # the events as one player sees them (seen_by)
    "state",  # the full-information state observation
    "legal-commands",  # the legal commands of the player to act
    "views",  # one player's view
    "rejection-kinds",  # refusals name one of REJECTION_KINDS
    "perft",  # counts of legal command sequences
    # draws time-out moves (and unstacked turn orders) from the seed with the
    # documented chance function (loveletter/chance.py), as the cases expect
    "seeded-chance",
    # (1.4) answers whether each of a list of commands is legal, without
    # applying it: the runner rebuilds legal commands and perft 1 from it
    "try",
)

#: the fields of a player's view
VIEW_FIELDS: tuple[str, ...] = tuple(f.name for f in attrs.fields(PlayerView))

#: keys holding one card name, or a list of them, wherever they appear
CARD_KEYS: frozenset[str] = frozenset(
    {"card", "player_card", "opponent_card", "keep", "set_aside", "via"}
)
#: keys holding a card name in editions that name cards, a number in those
#: that name numbers
GUESS_KEYS: frozenset[str] = frozenset({"guess"})
CARD_LIST_KEYS: frozenset[str] = frozenset(
    {"deck", "cards", "discarded", "face_up", "bottom", "hand"}
)


def is_card(value: Any) -> bool:
    return isinstance(value, str) and value in CARD_NAMES


def is_guess(value: Any) -> bool:
    """A card name, or a number (an integer that is not a boolean)."""
    return is_card(value) or (isinstance(value, int) and not isinstance(value, bool))
