"""The JSON Schemas of the case format and of protocol v1, built from the
vocabulary so that they cannot drift from what the engine emits.

Every field, definition and event or command type carries a
``description`` written here: the reference pages of the documentation
(``docs/_ext/schema_pages.py``) are generated from them, and
``tests/conformance/test_schema_descriptions.py`` fails on a field without
one. What a player is shown is closed: a view (``$defs/view`` of the case
and result schemas) and each event type define every field they may carry,
so a field they do not define is invalid (:mod:`loveletter.conformance.shown`
reads these definitions to find such fields in a reply).

The committed copies in ``conformance/schema/`` are what other
implementations read; ``tests/conformance/test_vocabulary.py`` fails when
they differ from these. Regenerate them with::

    python -m loveletter.conformance.schemas --write
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
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


def described(schema: Mapping[str, JSON], text: str) -> JSON:
    """``schema`` with ``text`` as its description (a copy: the building
    blocks below are shared by fields that mean different things)."""
    return {**schema, "description": text}


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
        "decks": described(
            {"type": "integer", "minimum": 0},
            "Copies of the deck shuffled together, 1 to 3; 1 when absent.",
        ),
        "turn_time_ms": described(
            {"type": "integer", "minimum": 0},
            "How long a player has to act, in milliseconds, 5000 to 60000; 20000 when"
            " absent. For a host's clock: the rules do not use it.",
        ),
        "random_moves": described(
            {"type": "boolean"},
            "Whether a `TimeOut` makes a random move for the player who must act; true"
            " when absent (false refuses every `TimeOut`).",
        ),
        "intermission_ms": described(
            {"type": "integer", "minimum": 0},
            "The pause between rounds, in milliseconds, 0 to 30000; 30000 when absent."
            " For a host's clock: the rules do not use it.",
        ),
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

# --- the words ------------------------------------------------------------------
#
# What each event and command type is, and what each of its fields holds.
# A type or a field missing here fails the build of the schemas (KeyError),
# so a new event field cannot ship undescribed.

#: who decided a refusal (suite 1.4): the engine, or the adapter in front of it
_BY = {
    "enum": ["adapter", "engine"],
    "description": "Suite 1.4, optional: `adapter` when the adapter, not the engine, decided"
    " this refusal (the engine's API cannot express the command); counted apart in the"
    " report. Absent or `engine`: the engine did.",
}
_ONLY_PLAYER = "null in the redacted copy of everyone but `player`"

EVENT_TEXT: dict[str, str] = {
    "CardDealt": "One card dealt to a player as a round begins.",
    "CardDiscarded": (
        "A card put on its owner's pile without its effect: a Prince's target discarding,"
        " a Bishop's redraw, the Assassin after its reveal."
    ),
    "CardDrawn": "A player takes a card: the turn's draw, or a replacement after a discard.",
    "CardPlayed": "A card played from a hand, with the choices its command made.",
    "CardRemovedFaceUp": "One of the cards put aside face up as a two-player round is dealt.",
    "CardRevealed": "Premium: the Assassin, shown to everyone when a Guard chooses its holder.",
    "CardSetAside": "The card put aside face down as a round is dealt.",
    "CardsReturned": "The cards a Chancellor's player put under the deck.",
    "ChancellorDrew": "The cards a Chancellor's player drew to choose from.",
    "ChoiceRestricted": (
        "Premium: a Sycophant's requirement: the next card played that chooses players"
        " must choose `required`."
    ),
    "GameEnded": "The game is over.",
    "GameStarted": "The first event of a game: its edition, its seats and how it is set up.",
    "GameTied": (
        "Premium: several players reached the tokens to win in the same award step; they"
        " play a tie-break round."
    ),
    "HandSeen": "One player saw another's hand: a Priest, a Baroness or a Cardinal's look.",
    "HandsCompared": "A Baron's or a Dowager Queen's comparison of two hands.",
    "HandsTraded": (
        "Two hands swapped by a King or a Cardinal. It names no cards: each of the two"
        " learns what the other now holds from the card they gave (a sighting)."
    ),
    "LookOffered": "Premium: a Cardinal's optional look at one of the two swapped hands waits.",
    "OptionDeclined": "The optional look or redraw offered was skipped (`Decline`).",
    "PlayerEliminated": "A player is out of the round.",
    "PlayerLeft": "Online (format 1.3): a player left the match; public.",
    "PlayerMarked": "Premium: a Jester's mark: `player` gains a token if `marked` wins the round.",
    "PlayerProtected": "A Handmaid protects its player until their next turn.",
    "PositionEstablished": (
        "Our engine's record of a game begun from a position; the suite never asks for it"
        " and never compares it."
    ),
    "RedrawOffered": (
        "Premium: a Bishop named this player's number: they may discard and draw again"
        " (`Redraw`) or not (`Decline`)."
    ),
    "RoundEnded": "The round is over.",
    "RoundStarted": "A round is dealt.",
    "TokenAwarded": "A token of affection (online: a win counter) given to a player.",
    "TurnStarted": "A player's turn begins.",
    "TurnTimedOut": (
        "Online (format 1.3): the player who had to act ran out of time; the events of the"
        " random move made for them follow. Public."
    ),
}

EVENT_FIELD_TEXT: dict[str, dict[str, str]] = {
    "CardDealt": {
        "player": "The seat dealt the card.",
        "card": f"The card dealt; {_ONLY_PLAYER}.",
    },
    "CardDiscarded": {
        "player": "Whose card it was.",
        "card": "The card discarded; public.",
    },
    "CardDrawn": {
        "player": "The seat drawing.",
        "card": f"The card drawn; {_ONLY_PLAYER}.",
        "from_set_aside": (
            "True when the deck was empty and the draw took the face-down set-aside card;"
            " always false online, which sets no card aside."
        ),
    },
    "CardPlayed": {
        "player": "The seat playing the card.",
        "card": "The card played; public.",
        "target": "The player the card chose, as in the command; null when it chose none.",
        "guess": (
            "A Guard's or a Bishop's guess, as in the command: a card name in the 2019"
            " editions, a number in Premium and online; null for other cards."
        ),
        "second_target": (
            "The second player of a card that chooses two, as in the command; null otherwise."
        ),
    },
    "CardRemovedFaceUp": {"card": "The card, seen by everyone."},
    "CardRevealed": {
        "player": "The Assassin's holder.",
        "card": "The card shown; public.",
    },
    "CardSetAside": {"card": "The face-down card; null in every redacted copy."},
    "CardsReturned": {
        "player": "The Chancellor's player.",
        "count": "How many cards went under the deck; public.",
        "cards": f"The cards, in the order they went under the deck; {_ONLY_PLAYER}.",
    },
    "ChancellorDrew": {
        "player": "The Chancellor's player.",
        "count": "How many cards were drawn; public.",
        "cards": f"The cards drawn, in draw order; {_ONLY_PLAYER}.",
    },
    "ChoiceRestricted": {
        "player": "The Sycophant's player.",
        "required": "The player the next choice must include.",
    },
    "GameEnded": {
        "winners": (
            "The game's winners, ascending seats; online always empty (the match closes"
            " and nobody wins it)."
        ),
    },
    "GameStarted": {
        "ruleset": "The ruleset played.",
        "players": "How many seats.",
        "seed": (
            "What every random draw of the game derives from: decimal digits in a string"
            " (as this library writes it), an integer or null. Never compared; null in"
            " every redacted copy."
        ),
        "first_player": "The seat that plays first in round 1.",
        "settings": (
            "Format 1.3: online, the table's settings with all four keys, defaults filled"
            " in; null in other editions."
        ),
    },
    "GameTied": {"tied": "The tied players, ascending seats."},
    "HandSeen": {
        "viewer": "The seat that looked.",
        "owner": "The seat whose hand was seen.",
        "card": "The card seen; null in the redacted copy of everyone but `viewer`.",
        "via": "The card whose effect showed it.",
    },
    "HandsCompared": {
        "player": "The seat that played the card.",
        "opponent": "The seat compared with.",
        "player_card": (
            "What `player` held; null in the redacted copy of everyone but the two compared."
        ),
        "opponent_card": (
            "What `opponent` held; null in the redacted copy of everyone but the two compared."
        ),
        "via": "`Baron` or `DowagerQueen`.",
    },
    "HandsTraded": {
        "player": (
            "A King's player; for a Cardinal the first of the two chosen (ascending, online"
            " in the order chosen)."
        ),
        "opponent": "The other seat of the swap.",
        "via": "`King` or `Cardinal`.",
    },
    "LookOffered": {
        "player": "The Cardinal's player, who may look.",
        "owners": "The two seats whose hands the look may choose from.",
    },
    "OptionDeclined": {"player": "The seat that declined."},
    "PlayerEliminated": {
        "player": "The seat knocked out.",
        "reason": "What knocked the player out (online `left`: they left the match).",
        "discarded": "The cards put face up from the player's hand.",
    },
    "PlayerLeft": {"player": "The seat that left."},
    "PlayerMarked": {
        "player": "The Jester's player.",
        "marked": "The player marked.",
    },
    "PlayerProtected": {"player": "The Handmaid's player."},
    "PositionEstablished": {"position": "Our engine's copy of the position; null redacted."},
    "RedrawOffered": {"player": "The Bishop's target, who answers."},
    "RoundEnded": {
        "reason": "How the round ended.",
        "winners": "The round's winners, ascending seats (online, the players ranked 1).",
        "revealed": (
            "The hands shown at an empty-deck end, `[seat, card]` in seat order; empty otherwise."
        ),
        "ranks": (
            "Format 1.3: online, every seat's rank in the round, null for a seat not dealt"
            " in; null in other editions."
        ),
    },
    "RoundStarted": {
        "round_number": "The round, counted from 1.",
        "first_player": "The seat that plays first this round.",
        "deck": "The whole deck in order, top first; null in every redacted copy.",
        "seats": (
            "Null in an ordinary round; in a tie-break round, the tied players dealt in,"
            " ascending, even when that is everyone."
        ),
        "order": (
            "Format 1.3: online, the round's turn order (the players present, first player"
            " first); null in other editions."
        ),
    },
    "TokenAwarded": {
        "player": "The seat given the token.",
        "reason": (
            "What earned it: a round win, or a card (online every reason but `round-win`"
            " is a partial win)."
        ),
        "total": "The player's tokens after this one (online, their win counter).",
    },
    "TurnStarted": {"player": "The seat whose turn it is."},
    "TurnTimedOut": {"player": "The seat that ran out of time."},
}

COMMAND_TEXT: dict[str, str] = {
    "Decline": "Skip the optional step offered: a Cardinal's look or a Bishop's redraw.",
    "DrawCard": "Take the turn's draw; only from a position given with `drawn: false`.",
    "KeepCard": "Resolve a Chancellor: keep one card and put the others under the deck.",
    "Leave": (
        "Online (format 1.3): the player leaves the match, at any moment, whoever must"
        " act. Never a legal command: it is always open to a seated player."
    ),
    "LookAtHand": "Premium: a Cardinal's optional look at one of the two hands it swapped.",
    "PlayCard": "Play a card from the hand, with the choices it needs.",
    "Redraw": "Premium: a Bishop's target discards their card without its effect and draws.",
    "StartRound": (
        "The dealer's chance step between rounds: deal the next round. In cases the deck"
        " is always stacked."
    ),
    "TimeOut": (
        "Online (format 1.3), a host's: the player who must act ran out of time, and the"
        " engine makes a random legal move for them, drawn from the seed."
    ),
}

COMMAND_FIELD_TEXT: dict[str, dict[str, str]] = {
    "Decline": {"player": "The seat offered the option."},
    "DrawCard": {"player": "The current player."},
    "KeepCard": {
        "player": "The Chancellor's player.",
        "keep": "The card kept.",
        "bottom": "The other cards, in the order put under the deck: the last ends bottom-most.",
    },
    "Leave": {"player": "The seat leaving."},
    "LookAtHand": {
        "player": "The Cardinal's player.",
        "owner": "Whose hand to look at: one of the two swapped.",
    },
    "PlayCard": {
        "player": "The seat playing: the current player.",
        "card": "The card played from the hand.",
        "target": (
            "The player the card chooses; null (or absent) for a card that chooses no one"
            " or has no one to choose."
        ),
        "guess": (
            "A Guard's or a Bishop's guess: a card name in the 2019 editions, a number in"
            " Premium and online (it hits every card of that value); null (or absent)"
            " otherwise."
        ),
        "second_target": (
            "The second player of a card that chooses two (a Cardinal, a Baroness looking"
            " at two hands); in Premium greater than `target`. Null (or absent) otherwise."
        ),
    },
    "Redraw": {"player": "The Bishop's target."},
    "StartRound": {
        "deck": "The next round's deck, top first; null shuffles one from the seed.",
        "first_player": (
            "Picks the first player among those the rules allow (the tied winners; online"
            " the previous round's rank-1 players still present); null when there is no"
            " choice."
        ),
        "order": (
            "Format 1.3: online, the round's turn order, stacked (every player present once,"
            " an allowed first player first); null draws it from the seed."
        ),
    },
    "TimeOut": {"player": "The seat that must act."},
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


def _tagged(
    noun: str,
    kinds: dict[str, tuple[str, ...]],
    texts: Mapping[str, str],
    field_texts: Mapping[str, Mapping[str, str]],
) -> JSON:
    """One closed object schema per type tag, keyed on ``type``; the
    variant's own ``type`` is described by the definition's."""
    return {
        "type": "object",
        "required": ["type"],
        "properties": {
            "type": described(
                {"enum": sorted(kinds)},
                f"The {noun}'s type; the fields it may carry depend on it.",
            )
        },
        "allOf": [
            {
                "if": {"properties": {"type": {"const": kind}}},
                "then": {
                    "description": texts[kind],
                    "properties": {
                        "type": {"const": kind},
                        **{
                            name: described(_field(kind, name), field_texts[kind][name])
                            for name in fields
                        },
                    },
                    "additionalProperties": False,
                },
            }
            for kind, fields in sorted(kinds.items())
        ],
    }


def _common_defs() -> dict[str, JSON]:
    return {
        "card": described(
            {"enum": CARDS},
            "A card name, spelled exactly so. A card's value belongs to the edition"
            " (`spec/editions.yaml`).",
        ),
        "cards": described(
            {"type": "array", "items": _REF_CARD},
            "A list of card names; a deck or a pile is written top first.",
        ),
        "seat": described(
            {"type": "integer", "minimum": 0},
            "A seat, numbered from 0 up to one below the player count; clockwise is"
            " increasing seat number.",
        ),
        "event": described(
            _tagged("event", EVENT_FIELDS, EVENT_TEXT, EVENT_FIELD_TEXT),
            "An event, as an implementation reports it for every command it accepts, in"
            " order, with every field of its type. In a player's redacted copy (`seen_by`)"
            " a field that player may not see is null. A case lists only the keys it"
            " checks, a listed null also matching a missing key. A field its type does not"
            " define makes an event invalid, and fails the check of a redacted copy.",
        ),
        "command": described(
            _tagged("command", COMMAND_FIELDS, COMMAND_TEXT, COMMAND_FIELD_TEXT),
            "A command: its `type` and that type's fields. A missing `target`,"
            " `second_target` or `guess` means null; an unknown field makes the command"
            " `malformed-command`.",
        ),
        "rejection": described(
            {"enum": sorted(REJECTION_KINDS)},
            "Why a command was refused: exactly one kind (conformance/README.md,"
            " 'Rejection kinds', says when each applies).",
        ),
    }


#: what the state's fields hold, in a case's checks and (where public) in a view
STATE_TEXT: dict[str, str] = {
    "decision": "What the game waits for (conformance/README.md, 'Decisions').",
    "to_act": "The seat that must act now; null between rounds and after the game.",
    "current": "The seat whose turn it is, or was.",
    "round_number": "The round, counted from 1.",
    "turn_number": "The turn of the round, counted from 1 (the round's `TurnStarted` events).",
    "deck": "The draw pile, top first.",
    "set_aside": (
        "The face-down set-aside card; null once a Prince's draw has taken it (and online,"
        " which sets none aside)."
    ),
    "face_up": "The cards put aside face up as a two-player round was dealt.",
    "hands": "Each seat's hand, in the order its cards were taken.",
    "discards": (
        "Each seat's discard pile, oldest first; compared in order only in the cases about"
        " pile order."
    ),
    "out": "The seats out of the round, ascending.",
    "protected": "The seats a Handmaid protects, ascending.",
    "tokens": "Each seat's tokens (online: win counters).",
    "round_result": "How the round ended; null while it goes on.",
    "winners": "The game's winners once it is over; empty before.",
    "required": "Format 1.1: the player a Sycophant requires the next choice to include, or null.",
    "marks": "Format 1.1: the Jester marks of this round, `[Jester's player, marked player]`.",
    "contenders": "Format 1.1: the players tied for the game, during a tie-break round.",
    "pending": (
        "Format 1.1: the seats of a pending optional step (a Cardinal's look, a Bishop's redraw)."
    ),
    "order": "Format 1.3: the round's turn order, first player first (empty outside online).",
    "exits": "Format 1.3: the players who went out this round, in the order they went out.",
    "left": "Format 1.3: the players who have left the match, ascending.",
}

#: what a view's own fields hold (the rest mean what the state's do)
VIEW_TEXT: dict[str, str] = {
    "player": "Whose view this is.",
    "ruleset": "The ruleset played.",
    "players": "How many seats.",
    "hand": "The player's own cards, in the order taken.",
    "hand_sizes": "How many cards each seat holds.",
    "deck_size": "How many cards the draw pile holds.",
    "set_aside_present": "Whether a face-down set-aside card is there (never which card).",
    "sightings": "What this player has been shown this round, oldest first.",
    "legal_commands": "The commands this player may give now; empty unless they must act.",
    "deck_bottom": (
        "Format 1.1: what the player knows of the bottom of the deck from their own"
        " Chancellor returns still in it: top first, ending with the bottom card, null for"
        " a card above theirs they do not know; empty when they know nothing."
    ),
    "settings": "Format 1.3: the table's settings; null outside online.",
}


def _sighting() -> JSON:
    return {
        "type": "object",
        "description": (
            "One card shown to one player: on turn `turn`, `viewer` learned that `owner`"
            " held `card`, through `via`."
        ),
        "required": ["viewer", "owner", "card", "turn", "via"],
        "properties": {
            "viewer": described(_REF_SEAT, "The player shown the card."),
            "owner": described(_REF_SEAT, "The player who held it."),
            "card": described(_REF_CARD, "The card shown."),
            "turn": described(
                {"type": "integer", "minimum": 1}, "The turn of the round it was shown on."
            ),
            "via": described({"enum": SHOWING}, "The card whose effect showed it."),
        },
        "additionalProperties": False,
    }


def _state_checks() -> dict[str, JSON]:
    """The full-information fields: a case's state checks, a ``state``
    observation's fields."""
    round_result = {
        "type": "object",
        "properties": {
            "reason": described(
                {"enum": [r.value for r in RoundEndReason]}, "Why the round ended."
            ),
            "winners": described(_SEATS, "The round's winners, ascending seats."),
            "revealed": described(
                _FIELD_TYPES["revealed"],
                "The hands shown at an empty-deck end, `[seat, card]` in seat order.",
            ),
            "ranks": described(
                _FIELD_TYPES["ranks"],
                "Format 1.3: online, every seat's rank in the round, null for a seat not dealt in.",
            ),
        },
        "additionalProperties": False,
    }
    types: dict[str, JSON] = {
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
        "round_result": {"anyOf": [round_result, {"type": "null"}]},
        "winners": _SEATS,
        "required": _NULLABLE_SEAT,
        "marks": _MARKS,
        "contenders": _SEATS,
        "pending": _SEATS,
        "order": _SEATS,
        "exits": _SEATS,
        "left": _SEATS,
    }
    assert set(types) == set(STATE_FIELDS)
    return {name: described(schema, STATE_TEXT[name]) for name, schema in types.items()}


def _commands(text: str) -> JSON:
    return described({"type": "array", "items": {"$ref": "#/$defs/command"}}, text)


def view_schema() -> JSON:
    """What one player may know: every field a view of any edition may
    carry, and no other (a view carrying the deck or another's hand is
    invalid)."""
    state = _state_checks()
    typed: dict[str, JSON] = {
        "player": _REF_SEAT,
        "hand": _REF_CARDS,
        "hand_sizes": {"type": "array", "items": _COUNT},
        "deck_size": _COUNT,
        "set_aside_present": {"type": "boolean"},
        "sightings": {"type": "array", "items": _sighting()},
        "legal_commands": {"type": "array", "items": {"$ref": "#/$defs/command"}},
        "deck_bottom": {"type": "array", "items": _NULLABLE_CARD},
        "settings": _FIELD_TYPES["settings"],
    }
    properties: dict[str, JSON] = {}
    for name in VIEW_FIELDS:
        if name in typed:
            properties[name] = described(typed[name], VIEW_TEXT[name])
        elif name in state:
            properties[name] = state[name]
        else:
            # typed by the state it describes (ruleset, players): any value
            # a case lists is compared, so the schema does not narrow it
            properties[name] = {"description": VIEW_TEXT[name]}
    return {
        "type": "object",
        "description": (
            "What one player may know at one moment, and nothing more: their own hand, the"
            " public zones and piles, and what they have been shown. A case's view lists"
            " only the fields it checks; an implementation reports the fields of its"
            " edition. A view never holds another player's card except through the"
            " player's own sightings, the face-up cards, the discards and the hands shown"
            " at an empty-deck end. Closed: a field not defined here (the deck, the"
            " set-aside card, every hand) makes a view invalid and fails its check."
        ),
        "required": ["player"],
        "properties": properties,
        "additionalProperties": False,
    }


def _settings(text: str) -> JSON:
    return described(_SETTINGS, text)


def _case_defs() -> dict[str, JSON]:
    return {**_common_defs(), "view": view_schema()}


def case_schema() -> JSON:
    sighting = _sighting()
    state_checks = _state_checks()
    events = {"type": "array", "items": {"$ref": "#/$defs/event"}}
    command_step = {
        "type": "object",
        "description": (
            "A command and what must follow: the events it causes (`events`), the kind of"
            " its refusal (`rejected`), or (format 1.2) only that it is accepted (`accepted`)."
        ),
        "required": ["command"],
        "properties": {
            "command": described(
                {"type": "object", "required": ["type"]},
                "The command to give: a command object, except that one the case expects"
                " refused may be malformed on purpose.",
            ),
            "events": described(
                events,
                "Every event the command causes, in order; each lists only the keys the"
                " case checks.",
            ),
            "rejected": described(
                {"$ref": "#/$defs/rejection"},
                "The kind of refusal expected; the game is left as it was.",
            ),
            "seen_by": described(
                {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "description": "One player's redacted copy of the events.",
                        "required": ["player", "events"],
                        "properties": {
                            "player": described(_REF_SEAT, "The seat watching."),
                            "events": described(
                                events,
                                "The events as that seat sees them: a field it may not see"
                                " is null.",
                            ),
                        },
                        "additionalProperties": False,
                    },
                },
                "The same events as given players see them.",
            ),
            "accepted": described(
                {"const": True},
                "Format 1.2: the command must be accepted; its events are not compared.",
            ),
            "note": described({"type": "string"}, "A comment for readers; never compared."),
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
    partial_sighting = {
        **sighting,
        "description": "A sighting listing only the keys the case checks.",
        "required": [],
    }
    outcome_checks = {
        "round_over": described(
            {"type": "boolean"},
            "Format 1.2: whether the round has ended (decision `next-round` or `game-over`).",
        ),
        "round_winners": described(
            _SEATS, "Format 1.2: the winners of the round just ended; empty while it goes on."
        ),
        "deck_size": described(_COUNT, "Format 1.2: how many cards the draw pile holds."),
        "top_card": described(
            _NULLABLE_CARD, "Format 1.2: the draw pile's top card; null when it is empty."
        ),
        "hand": described(
            {
                "type": "object",
                "required": ["player", "cards"],
                "properties": {
                    "player": described(_REF_SEAT, "Whose hand."),
                    "cards": described(_REF_CARDS, "The cards, compared in any order."),
                },
                "additionalProperties": False,
            },
            "Format 1.2: one player's hand, compared in any order.",
        ),
        "shown": described(
            {
                "type": "object",
                "required": ["player", "sightings"],
                "properties": {
                    "player": described(_REF_SEAT, "Whose sightings."),
                    "sightings": described(
                        {"type": "array", "items": partial_sighting},
                        "In the order shown; each lists only the keys it checks.",
                    ),
                },
                "additionalProperties": False,
            },
            "Format 1.2: what one player has been shown this round, in order (from their view).",
        ),
        "ranks": described(
            _RANKS,
            "Format 1.3: the ranks of the round just ended (`round_result.ranks`), null for a"
            " seat not dealt in.",
        ),
        "win_counters": described(
            {"type": "array", "items": _COUNT},
            "Format 1.3: the online win counters (the state's `tokens`).",
        ),
    }
    assert set(outcome_checks) == set(OUTCOME_CHECKS)
    checks_step = {
        "type": "object",
        "description": "Assertions about the game at this moment.",
        "required": ["checks"],
        "properties": {
            "checks": {
                "type": "object",
                "description": (
                    "Each field listed is compared with the game at this moment. The outcome"
                    " checks of format 1.2 (`round_over`, `round_winners`, `deck_size`,"
                    " `top_card`, `hand`, `shown`) and 1.3 (`ranks`, `win_counters`) are"
                    " derived by the runner from the state (`shown` from a view): no"
                    " implementation reports them."
                ),
                "minProperties": 1,
                "properties": {
                    **state_checks,
                    **outcome_checks,
                    "legal_commands": _commands(
                        "Exactly this set of commands for the player to act, in any order."
                    ),
                    "legal_commands_include": _commands("At least these commands are legal."),
                    "legal_commands_exclude": _commands("None of these commands is legal."),
                    "legal_command_count": described(
                        _COUNT, "How many distinct legal commands there are."
                    ),
                    "views": described(
                        {"type": "array", "items": {"$ref": "#/$defs/view"}},
                        "What given players may know: one view per player, each listing the"
                        " fields it checks.",
                    ),
                    "perft": described(
                        {"type": "array", "items": _COUNT, "minItems": 1},
                        "How many distinct legal command sequences of length 1, 2, ... start"
                        " here (depth 6 at most).",
                    ),
                },
                "additionalProperties": False,
            },
            "note": described({"type": "string"}, "A comment for readers; never compared."),
        },
        "additionalProperties": False,
    }
    deal = {
        "type": "object",
        "description": "A new round, dealt from a stacked deck.",
        "required": ["deck"],
        "properties": {
            "deck": described(_REF_CARDS, "Every card of the ruleset, top first."),
            "first_player": described(_REF_SEAT, "The seat that plays first; 0 when absent."),
            "tokens": described(
                {"type": "array", "items": _COUNT},
                "Tokens from earlier rounds, by seat: the deal is then a later round of a"
                " game under way.",
            ),
            "round_number": described(
                {"type": "integer", "minimum": 1},
                "The round dealt; 1 when absent, a later round otherwise.",
            ),
            "events": described(
                events,
                "The deal's events as the case expects them (`GameStarted`, then the deal),"
                " compared like a step's; never sent to an implementation.",
            ),
            "order": described(
                _SEATS,
                "Format 1.3: online, the round's turn order, stacked (every seat once,"
                " `first_player` first when both are given); without it the order is drawn"
                " from `seed`.",
            ),
            "seed": described(
                _SEED, "Format 1.3: the game's seed, decimal digits or an integer; 0 when absent."
            ),
        },
        "additionalProperties": False,
    }
    position = {
        "type": "object",
        "description": (
            "A moment of a round where the current player is about to draw (`drawn: false`)"
            " or to play (`drawn: true`). Every card of the ruleset is in exactly one zone."
            " Nothing is inferred from the piles: who is out or protected, whose turn it is"
            " and the turn number are as given."
        ),
        "required": ["deck", "set_aside", "hands", "discards", "current", "drawn"],
        "properties": {
            "deck": described(_REF_CARDS, "The draw pile, top first."),
            "set_aside": described(
                _NULLABLE_CARD,
                "The face-down card; null online, and otherwise only in a start that must be"
                " refused.",
            ),
            "face_up": described(
                _REF_CARDS, "The cards put aside face up (two players); none when absent."
            ),
            "hands": described(
                _PILES,
                "Each seat's hand, in the order taken; a player out of the round holds nothing.",
            ),
            "discards": described(_PILES, "Each seat's discard pile, oldest first."),
            "current": described(_REF_SEAT, "The seat whose turn it is."),
            "drawn": described(
                {"type": "boolean"}, "Whether the current player has drawn this turn."
            ),
            "out": described(_SEATS, "The seats out of the round; none when absent."),
            "protected": described(_SEATS, "The seats a Handmaid protects; none when absent."),
            "tokens": described(
                {"type": "array", "items": _COUNT}, "Tokens by seat; all 0 when absent."
            ),
            "round_number": described(
                {"type": "integer", "minimum": 1}, "The round, counted from 1; 1 when absent."
            ),
            "turn_number": described(
                {"type": "integer", "minimum": 1},
                "The turn of the round, counted from 1; 1 when absent.",
            ),
            "sightings": described(
                {"type": "array", "items": sighting},
                "What players have been shown this round, oldest first; none when absent.",
            ),
            "required": described(
                _NULLABLE_SEAT, "Format 1.1: the player a Sycophant requires, or null."
            ),
            "marks": described(
                _MARKS, "Format 1.1: `[Jester's player, marked player]` pairs of this round."
            ),
            "contenders": described(_SEATS, "Format 1.1: the tied players of a tie-break round."),
            "returns": described(
                _MARKS,
                "Format 1.1: `[player, count]` of each Chancellor return this round, oldest"
                " first, even once its cards have been drawn again.",
            ),
            "order": described(
                _SEATS,
                "Format 1.3: online, the players dealt into the round, in turn order, first"
                " player first.",
            ),
            "exits": described(
                _SEATS,
                "Format 1.3: online, the players who went out this round, in the order they"
                " went out.",
            ),
            "left": described(_SEATS, "Format 1.3: online, the players who have left the match."),
            "seed": described(_SEED, "Format 1.3: the game's seed; 0 when absent."),
        },
        "additionalProperties": False,
    }
    return {
        "$schema": DRAFT,
        "$id": BASE + "case-v1.json",
        "title": "Love Letter conformance case, format 1.3 (reads formats 1, 1.1 and 1.2 too)",
        "description": (
            "A case is one YAML file, `cases/<ruleset>/<topic>/<id>.yaml`. The schema checks"
            " its structure and its names; the runner also checks what a schema cannot say"
            " (each seat below `players`, one hand and one discard pile per seat)."
            " conformance/README.md explains every rule."
        ),
        "type": "object",
        "required": ["format", "id", "title", "rules", "ruleset", "players", "start", "steps"],
        "properties": {
            "format": described(
                {"enum": [1, 1.1, 1.2, 1.3]},
                "The case format the file is written in. Each format only adds to the one"
                " before; a case using a later format's additions says that format.",
            ),
            "id": described(
                {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
                "Unique within its ruleset; the file is named after it.",
            ),
            "title": described(
                {"type": "string", "minLength": 1}, "One sentence saying what the case shows."
            ),
            "description": described({"type": "string"}, "A longer explanation, for readers."),
            "rules": described(
                {
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "string", "pattern": "^[a-z0-9-]+\\.[a-z0-9-]+$"},
                },
                "The spec rules the case checks (`spec/rules/*.yaml`), as `topic.rule`.",
            ),
            "rulings": described(
                {"type": "array", "items": {"type": "integer", "minimum": 1}},
                "The numbered rulings (`spec/rulings.yaml`) the case pins.",
            ),
            "ruleset": described(
                {"enum": sorted(RULESETS)}, "The edition the case is played under."
            ),
            "players": described(
                {"type": "integer", "minimum": 1}, "How many seats; seats are numbered from 0."
            ),
            "settings": _settings(
                "Format 1.3, online only: the table's settings; a key left out takes its"
                " default. Settings out of range, or given in another edition, are a start"
                " the rules refuse."
            ),
            "start": described(
                {
                    "type": "object",
                    "minProperties": 1,
                    "maxProperties": 1,
                    "properties": {"deal": deal, "position": position},
                    "additionalProperties": False,
                },
                "Where the case begins: a stacked deal or a position.",
            ),
            "start_rejected": described(
                {"type": "boolean"},
                "`true`: the implementation must refuse the start itself (a player count the"
                " edition does not allow, a deck that is not the edition's, a position that"
                " cannot occur, online settings out of range).",
            ),
            "steps": described(
                {"type": "array", "items": {"oneOf": [command_step, checks_step]}},
                "Run in order, each from the game the one before left.",
            ),
        },
        "if": {"properties": {"start_rejected": {"const": True}}, "required": ["start_rejected"]},
        "then": {"properties": {"steps": {"maxItems": 0}}},
        "else": {"properties": {"steps": {"minItems": 1}}},
        "additionalProperties": False,
        "$defs": _case_defs(),
    }


def _message(
    name: str,
    title: str,
    description: str,
    required: list[str],
    properties: dict[str, JSON],
    closed: bool = True,
    defs: dict[str, JSON] | None = None,
    **extra: JSON,
) -> JSON:
    """The schema of one message: an object tagged ``"type": name``.
    Replies from implementations are open (extra keys allowed); what the
    runner sends is closed."""
    body: dict[str, JSON] = {
        "type": "object",
        "required": ["type", *required],
        "properties": {
            "type": described({"const": name}, f"Always `{name}`: the message's type."),
            **properties,
        },
    }
    if closed:
        body["additionalProperties"] = False
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}protocol-v1/{name}.json",
        "title": title,
        "description": description,
        **body,
        **extra,
        "$defs": defs if defs is not None else _common_defs(),
    }


def protocol_schemas() -> dict[str, JSON]:
    """Message name -> schema."""

    def seq(text: str) -> JSON:
        return described({"type": "integer", "minimum": 1}, text)

    def events(text: str) -> JSON:
        return described({"type": "array", "items": {"$ref": "#/$defs/event"}}, text)

    script_step = {
        "oneOf": [
            {
                "type": "object",
                "description": "A command to give.",
                "required": ["command"],
                "properties": {
                    "command": described(
                        {"type": "object", "required": ["type"]},
                        "The command, as the case writes it (one the case expects refused"
                        " may be malformed on purpose).",
                    ),
                    "seen_by": described(
                        {"type": "array", "items": {"$ref": "#/$defs/seat"}},
                        "The seats whose redacted copy of the events is wanted.",
                    ),
                },
                "additionalProperties": False,
            },
            {
                "type": "object",
                "description": "A moment to report on.",
                "required": ["observe"],
                "properties": {
                    "observe": described(
                        {
                            "type": "object",
                            "properties": {
                                "state": described(
                                    {"type": "boolean"}, "Report the full-information state."
                                ),
                                "legal_commands": described(
                                    {"type": "boolean"},
                                    "List the legal commands of the player to act.",
                                ),
                                "views": described(
                                    {"type": "array", "items": {"$ref": "#/$defs/seat"}},
                                    "Give the views of these seats.",
                                ),
                                "perft": described(
                                    {"type": "integer", "minimum": 1},
                                    "Count legal command sequences up to this depth.",
                                ),
                                "try": described(
                                    {"type": "array", "items": {"type": "object"}},
                                    "Suite 1.4, to an implementation declaring `try`: commands"
                                    " to judge without applying them; answered by `tried`.",
                                ),
                            },
                            "additionalProperties": False,
                        },
                        "What to report at this moment.",
                    )
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
                "description": "The command was accepted.",
                "required": ["events"],
                "properties": {
                    "events": events(
                        "The events the command caused, in order, each with every field of"
                        " its type."
                    ),
                    "seen_by": described(
                        {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "description": "One seat's redacted copy of the events.",
                                "required": ["player", "events"],
                                "properties": {
                                    "player": described(
                                        {"$ref": "#/$defs/seat"}, "The seat watching."
                                    ),
                                    "events": events(
                                        "The same events as that seat sees them: a field it"
                                        " may not see is null. Closed: a field the event's"
                                        " type does not define fails the check."
                                    ),
                                },
                            },
                        },
                        "The events as each seat asked sees them.",
                    ),
                },
            },
            {
                "type": "object",
                "description": "The command was refused.",
                "required": ["rejected"],
                "properties": {
                    "rejected": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 200,
                        "description": "One of the rejection kinds (`$defs/rejection`) when the"
                        " implementation declares `rejection-kinds` (or declares no"
                        " capabilities); any short refusal otherwise.",
                    },
                    "by": _BY,
                },
            },
            {
                "type": "object",
                "description": "What an observe step asked for.",
                "required": ["observation"],
                "properties": {
                    "observation": described(
                        {
                            "type": "object",
                            "properties": {
                                "state": described(
                                    {"type": "object", "required": list(STATE_FIELDS)},
                                    "The full-information state: every field of a case's"
                                    " state checks.",
                                ),
                                "legal_commands": described(
                                    {"type": "array", "items": {"$ref": "#/$defs/command"}},
                                    "The legal commands of the player to act.",
                                ),
                                "views": described(
                                    {"type": "array", "items": {"$ref": "#/$defs/view"}},
                                    "One view per seat asked, with its `player`.",
                                ),
                                "perft": described(
                                    {"type": "array", "items": {"type": "integer"}},
                                    "The counts for depths 1 to the depth asked.",
                                ),
                                "tried": described(
                                    {"type": "array", "items": {"type": "boolean"}},
                                    "Suite 1.4: one answer per command of `try`, in order:"
                                    " true when it would be accepted here.",
                                ),
                            },
                        },
                        "What the observe step asked for.",
                    )
                },
            },
        ]
    }
    answers = "The `seq` of the `run` this answers."
    return {
        "start": _message(
            "start",
            "runner -> implementation: open the session",
            "The first line the runner writes.",
            ["protocol"],
            {"protocol": described({"const": 1}, "The protocol version the runner speaks.")},
        ),
        "started": _message(
            "started",
            "implementation -> runner: the handshake reply",
            "The implementation's answer to `start`: who it is, which rulesets it plays and"
            " what it can do.",
            ["protocol", "implementation", "rulesets"],
            {
                "protocol": described({"const": 1}, "The version it speaks: the runner's."),
                "implementation": described(
                    {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": described({"type": "string"}, "The implementation's name."),
                            "version": described({"type": "string"}, "Its version."),
                            "language": described(
                                {"type": "string"}, "The language it is written in."
                            ),
                            "homepage": described({"type": "string"}, "Where to find it."),
                        },
                    },
                    "Who the implementation is, for the report.",
                ),
                "rulesets": described(
                    {"type": "array", "items": {"type": "string"}},
                    "The rulesets it plays; cases of other rulesets are skipped without being"
                    " sent. A name the suite does not have fails the handshake.",
                ),
                "capabilities": {
                    "type": "array",
                    "items": {"enum": list(CAPABILITIES)},
                    "uniqueItems": True,
                    "description": "What the implementation offers (conformance/README.md,"
                    " 'Capabilities'); absent: everything. A name not listed fails the"
                    " handshake.",
                },
            },
            closed=False,
        ),
        "run": _message(
            "run",
            "runner -> implementation: execute one case's script",
            "One case to run, without its expectations: the implementation reports what"
            " happens and the runner compares.",
            ["seq", "case"],
            {
                "seq": seq("Numbers the request; the answer echoes it."),
                "case": described(
                    {
                        "type": "object",
                        "required": ["id", "ruleset", "players", "start", "steps"],
                        "properties": {
                            "id": described({"type": "string"}, "The case's id."),
                            "ruleset": described({"type": "string"}, "The case's ruleset."),
                            "players": described(case["players"], "The case's player count."),
                            "settings": _settings(
                                "Format 1.3: the case's table settings, when it has some."
                            ),
                            "start": described(
                                case["start"],
                                "The case's start (a deal without its `events`), or the"
                                " stacked deal of its replay start.",
                            ),
                            "steps": described(
                                {"type": "array", "items": script_step},
                                "The steps to run, in order; the answer has one result per"
                                " step, at the same index.",
                            ),
                            "prelude": described(
                                {"type": "integer", "minimum": 0},
                                "Suite 1.4, when the start is a replay start: how many"
                                " leading steps replay it. The implementation may stop at"
                                " the first of them it refuses, answering the results up to"
                                " and including that refusal.",
                            ),
                        },
                        "additionalProperties": False,
                    },
                    "The case's script.",
                ),
            },
        ),
        "result": _message(
            "result",
            "implementation -> runner: what happened in one case",
            "The answer to a `run`: what happened, step by step.",
            ["seq", "steps"],
            {
                "seq": seq(answers),
                "start_events": events("The deal's events; empty for a position."),
                "start_rejected": described(
                    {"type": "string"}, "Why the start was refused; `steps` is then empty."
                ),
                "by": _BY,
                "steps": described(
                    {"type": "array", "items": step_result},
                    "One result per script step, in order (fewer when the implementation"
                    " stopped at a refused command of the script's `prelude`).",
                ),
            },
            closed=False,
            defs={**_common_defs(), "view": view_schema()},
            oneOf=[
                {"required": ["start_rejected"], "properties": {"steps": {"maxItems": 0}}},
                {"required": ["start_events"], "not": {"required": ["start_rejected"]}},
            ],
        ),
        "skipped": _message(
            "skipped",
            "implementation -> runner: this case cannot be run here",
            "The implementation cannot run this case (a rule it does not have yet): the case"
            " counts as skipped.",
            ["seq", "reason"],
            {
                "seq": seq(answers),
                "reason": described({"type": "string"}, "Why, for the report."),
            },
            closed=False,
        ),
        "errored": _message(
            "errored",
            "implementation -> runner: running this case failed unexpectedly",
            "Running the case failed unexpectedly: the case counts as errored and the run goes on.",
            ["seq", "message"],
            {
                "seq": seq(answers),
                "message": described({"type": "string"}, "What went wrong."),
                "context": described({"type": "object"}, "Anything that helps to find out why."),
            },
            closed=False,
        ),
        "stop": _message(
            "stop",
            "runner -> implementation: exit now",
            "The last line the runner writes: the implementation exits, status 0.",
            [],
            {},
        ),
    }


def replay_schema() -> JSON:
    """A replay start file (``conformance/replays/``; see starts.py)."""
    return {
        "$schema": DRAFT,
        "$id": BASE + "replay-v1.json",
        "title": "Love Letter conformance replay start, format 1",
        "description": (
            "A stacked round-1 deal and the commands that reach a case's start by play"
            " (conformance/README.md, 'Replay starts'). Generated and proven by `python -m"
            " loveletter.conformance.reach`; the runner plays one for an implementation"
            " without the `positions` capability, or with `--starts replay`."
        ),
        "type": "object",
        "required": ["format", "case", "ruleset", "players", "deal", "commands"],
        "properties": {
            "format": described({"const": 1}, "The replay start format."),
            "case": described(
                {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
                "The id of the case whose start this reaches.",
            ),
            "ruleset": described({"enum": sorted(RULESETS)}, "The case's ruleset."),
            "players": described({"type": "integer", "minimum": 1}, "The case's player count."),
            # format 1.3 cases: an online table's settings, as the case's own
            "settings": _settings(
                "Format 1.3 cases: the case's own table settings, when not the defaults."
            ),
            "deal": described(
                {
                    "type": "object",
                    "required": ["deck", "first_player"],
                    "properties": {
                        "deck": described(_REF_CARDS, "Every card of the ruleset, top first."),
                        "first_player": described(_REF_SEAT, "The seat that plays first."),
                        "order": described(
                            _SEATS, "Online: round 1's turn order, first player first."
                        ),
                        "seed": described(
                            _SEED,
                            "The case's seed, when its start has one: a time-out draws its"
                            " move from it.",
                        ),
                    },
                    "additionalProperties": False,
                },
                "A stacked first-round deal.",
            ),
            "commands": described(
                {"type": "array", "items": {"$ref": "#/$defs/command"}},
                "Every command from the deal to the case's start (earlier rounds and their"
                " `StartRound` included); each must be accepted.",
            ),
            "after_draw": described(
                {"type": "boolean"},
                "`true` for a position given with `drawn: false`: play never rests before a"
                " draw, so the commands reach the moment just after it.",
            ),
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
