"""Reference pages for implementers, generated from the conformance suite.

On ``builder-inited`` this writes MyST Markdown into
``docs/implementers/reference/`` (gitignored): one page per JSON Schema of
``conformance/schema/`` (the case format, the replay start format, each
protocol message), a page of the definitions every schema shares (cards,
seats, events, commands, rejection kinds), a vocabulary page and an index
with the suite's versions from ``conformance/suite.yaml``.

Each schema, definition and nested object gets a stable label
(``schema-<page>[-<path>]``, shared definitions ``schema-def-<name>``), and
each field type links to the definition it refers to. The schemas carry
almost no descriptions (they are versioned with the suite and cannot be
edited here), so :data:`NOTES` adds short explanations, paraphrasing
``conformance/README.md``; a note whose field no schema has any more is
reported as a warning, which fails the (``-W``) build.

A file is rewritten only when its content changes, so an incremental build
re-reads nothing when the suite has not changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

JSON = Any

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "conformance"
OUT = ROOT / "docs" / "implementers" / "reference"

#: the protocol messages in the order an exchange uses them (a message file
#: not listed here still gets its page, after these)
MESSAGE_ORDER = ("start", "started", "run", "result", "skipped", "errored", "stop")

#: the shared definitions, in the order the definitions page shows them
DEF_ORDER = ("card", "cards", "seat", "command", "event", "rejection")

#: Explanations for what the schemas leave undescribed, keyed
#: ``<schema>:<path>`` (``def:`` for the shared definitions), a path being
#: field names joined by ``.``, ``[]`` for an array's items and the variant
#: name for an event or command type (``def:event.CardPlayed.target``).
#: A key with no field after ``:`` describes the whole schema.
NOTES: dict[str, str] = {
    # --- the case format ---------------------------------------------------------------
    "case-v1:": (
        "A case is one YAML file, `cases/<ruleset>/<topic>/<id>.yaml`. The schema checks"
        " its structure and its names; the runner also checks what a schema cannot say"
        " (each seat below `players`, one hand and one discard pile per seat)."
    ),
    "case-v1:format": (
        "The case format the file is written in. Each format only adds to the one before;"
        " a case using accepted steps or outcome checks says `1.2`."
    ),
    "case-v1:id": "Unique within its ruleset; the file is named after it.",
    "case-v1:title": "One sentence saying what the case shows.",
    "case-v1:description": "A longer explanation, for readers.",
    "case-v1:rules": "The spec rules the case checks (`spec/rules/*.yaml`), as `topic.rule`.",
    "case-v1:rulings": "The numbered rulings (`spec/rulings.yaml`) the case pins.",
    "case-v1:ruleset": "The edition the case is played under.",
    "case-v1:players": "How many seats; seats are numbered from 0.",
    "case-v1:start": "Where the case begins: a stacked deal or a position.",
    "case-v1:start_rejected": (
        "`true`: the implementation must refuse the start itself (a player count the"
        " edition does not allow, a deck that is not the edition's, a position that cannot"
        " occur)."
    ),
    "case-v1:steps": "Run in order, each from the state the one before left.",
    "*:start.deal": "A new round, dealt from a stacked deck.",
    "*:deal.deck": "Every card of the ruleset, top first.",
    "*:start.deal.first_player": "The seat that plays first; 0 when absent.",
    "*:start.deal.tokens": (
        "Tokens from earlier rounds, by seat: the deal is then a later round of a game under way."
    ),
    "*:start.deal.round_number": "1 when absent; a later round otherwise.",
    "*:start.deal.events": (
        "The deal's expected events (`GameStarted`, then the deal), compared like a step's events."
    ),
    "*:start.position": (
        "A moment of a round where the current player is about to draw (`drawn: false`)"
        " or to play (`drawn: true`). Every card of the ruleset is in exactly one zone."
        " Nothing is inferred from the piles: who is out or protected, whose turn it is"
        " and the turn number are as given."
    ),
    "*:position.deck": "The draw pile, top first.",
    "*:position.set_aside": "The face-down card; null only in a start that must be refused.",
    "*:position.face_up": "The cards set aside face up (two players).",
    "*:position.hands": "By seat, in the order taken; a player out of the round holds nothing.",
    "*:position.discards": "By seat, oldest first.",
    "*:position.current": "The seat whose turn it is.",
    "*:position.drawn": "Whether the current player has drawn this turn.",
    "*:position.out": "Seats out of the round; none when absent.",
    "*:position.protected": "Seats protected by a Handmaid; none when absent.",
    "*:position.tokens": "By seat; all 0 when absent.",
    "*:position.round_number": "1 when absent.",
    "*:position.turn_number": "Counts the round's turns from 1; 1 when absent.",
    "*:position.sightings": "What players have been shown this round, oldest first.",
    "*:position.required": "(1.1) The player a Sycophant requires, or null.",
    "*:position.marks": "(1.1) `[Jester's player, marked player]` pairs.",
    "*:position.contenders": "(1.1) The tied players of a tie-break round.",
    "*:position.returns": (
        "(1.1) `[player, count]` of each Chancellor return this round, oldest first."
    ),
    "*:position.sightings[]": "A record of one card shown to one player.",
    "*:sightings[].viewer": "Who was shown the card.",
    "*:sightings[].owner": "Who held it.",
    "*:sightings[].card": "The card shown.",
    "*:sightings[].turn": "The turn of the round it was shown on.",
    "*:sightings[].via": "The card whose effect showed it.",
    "case-v1:steps[] with command": (
        "A command, and what must follow: the events it causes (`events`), the kind of"
        " its refusal (`rejected`), or only that it is accepted (`accepted`, format 1.2)."
    ),
    "case-v1:steps[].command": (
        "The command to give. A refused command may be malformed on purpose; any other"
        " is a {ref}`command <schema-def-command>`."
    ),
    "case-v1:steps[].events": (
        "Every event the command causes, in order; each lists only the keys the case checks."
    ),
    "case-v1:steps[].rejected": "The expected kind of refusal; the game is left unchanged.",
    "case-v1:steps[].seen_by": "The same events as given players see them.",
    "case-v1:steps[].accepted": "(1.2) The command must be accepted; its events are not compared.",
    "case-v1:steps[].note": "A comment for readers; never compared.",
    "*:seen_by[].player": "The seat watching.",
    "*:seen_by[].events": "The events as that seat sees them: hidden fields are null.",
    "case-v1:steps[] with checks": "Assertions about the state at this moment.",
    "case-v1:steps[].checks": (
        "Each field listed is compared with the state at this moment. The outcome checks"
        " of format 1.2 (`round_over`, `round_winners`, `deck_size`, `top_card`, `hand`,"
        " `shown`) are derived by the runner from the state (and, for `shown`, from a"
        " view): no implementation reports them."
    ),
    "case-v1:checks.decision": (
        "What the game waits for; see {ref}`decisions <schema-vocabulary-decisions>`."
    ),
    "case-v1:checks.to_act": "The seat that must act; null between rounds.",
    "case-v1:checks.current": "The seat whose turn it is, or was.",
    "case-v1:checks.deck": "The draw pile, top first.",
    "case-v1:checks.set_aside": "The face-down card; null once a Prince's draw took it.",
    "case-v1:checks.hands": "By seat, in the order taken.",
    "case-v1:checks.discards": (
        "By seat, oldest first; compared in order only in the cases about pile order."
    ),
    "case-v1:checks.out": "Ascending seats.",
    "case-v1:checks.protected": "Ascending seats.",
    "case-v1:checks.round_result": "How the round ended; null while it goes on.",
    "case-v1:checks.winners": "The game's winners once it is over.",
    "case-v1:checks.required": "(1.1) The player a Sycophant requires, or null.",
    "case-v1:checks.marks": "(1.1) The Jester marks of this round.",
    "case-v1:checks.contenders": "(1.1) The tied players of a tie-break round.",
    "case-v1:checks.pending": "(1.1) The seats of a pending look or redraw.",
    "case-v1:checks.round_over": "(1.2) Whether the round has ended.",
    "case-v1:checks.round_winners": "(1.2) The winners of the round just ended; empty before.",
    "case-v1:checks.deck_size": "(1.2) How many cards the draw pile holds.",
    "case-v1:checks.top_card": "(1.2) The draw pile's top card; null when it is empty.",
    "case-v1:checks.hand": "(1.2) One player's hand, compared in any order.",
    "case-v1:checks.shown": "(1.2) What one player has been shown this round, in order.",
    "case-v1:checks.legal_commands": (
        "Exactly this set of commands for the player to act (in any order)."
    ),
    "case-v1:checks.legal_commands_include": "At least these commands.",
    "case-v1:checks.legal_commands_exclude": "None of these commands.",
    "case-v1:checks.legal_command_count": "How many distinct legal commands there are.",
    "case-v1:checks.views": "What given players may know, each view listing the fields it checks.",
    "case-v1:checks.perft": (
        "How many distinct legal command sequences of length 1, 2, ... start here"
        " (depth 6 at most)."
    ),
    "case-v1:round_result.reason": "Why the round ended.",
    "case-v1:round_result.winners": "Ascending seats.",
    "case-v1:round_result.revealed": (
        "The hands shown at an empty-deck end, as `[seat, card]` in seat order."
    ),
    "case-v1:hand.player": "Whose hand.",
    "case-v1:hand.cards": "Compared in any order.",
    "case-v1:shown.player": "Whose sightings.",
    "case-v1:shown.sightings": "In the order shown; each lists only the keys it checks.",
    "case-v1:checks.views[]": (
        "What one player may know. The fields mean what the state's fields mean, as far"
        " as this player may know them; a view never holds another player's card except"
        " through their own sightings, the face-up cards, the discards and the hands"
        " shown at an empty-deck end."
    ),
    "case-v1:checks.round_number": "The round, counted from 1.",
    "case-v1:checks.turn_number": "The turn of the round, counted from 1.",
    "case-v1:checks.face_up": "The cards set aside face up (two players).",
    "case-v1:checks.tokens": "By seat.",
    "case-v1:views[].player": "Whose view.",
    "case-v1:views[].hand": "The player's own cards.",
    "case-v1:views[].hand_sizes": "By seat.",
    "case-v1:views[].set_aside_present": "Whether a face-down card is set aside.",
    "case-v1:views[].legal_commands": "The player's own: empty unless they must act.",
    "case-v1:views[].deck_bottom": (
        "(1.1) What the player knows of the bottom of the deck from their Chancellor"
        " returns, top first, null for a card above theirs they do not know."
    ),
    # --- the replay start format --------------------------------------------------------
    "replay-v1:": (
        "Replay starts are generated, and proven, by `python -m loveletter.conformance.reach`"
        " (`make replays`). The runner plays one for an implementation without the"
        " `positions` capability, or with `--starts replay`."
    ),
    "replay-v1:format": "The replay start format.",
    "replay-v1:case": "The id of the case whose start this reaches.",
    "replay-v1:ruleset": "The case's ruleset.",
    "replay-v1:players": "The case's player count.",
    "replay-v1:deal": "A stacked first-round deal.",
    "replay-v1:deal.first_player": "The seat that plays first.",
    "replay-v1:commands": (
        "Every command from the deal to the case's start (earlier rounds and their"
        " `StartRound` included); each must be accepted."
    ),
    "replay-v1:after_draw": (
        "`true` for a position given with `drawn: false`: play never rests before a"
        " draw, so the commands reach the moment just after it."
    ),
    # --- protocol messages ------------------------------------------------------------
    "*:seq": "The `seq` of the `run` this answers.",
    "protocol-v1/start:": "The first line the runner writes.",
    "protocol-v1/start:protocol": "The protocol version the runner speaks.",
    "protocol-v1/started:": (
        "The implementation's answer to `start`: who it is, which rulesets it plays and"
        " what it can do."
    ),
    "protocol-v1/started:protocol": "The version it speaks: the runner's.",
    "protocol-v1/started:implementation": "Shown in the report.",
    "protocol-v1/started:implementation.name": "The implementation's name.",
    "protocol-v1/started:implementation.version": "Its version.",
    "protocol-v1/started:implementation.language": "Its programming language.",
    "protocol-v1/started:implementation.homepage": "Where to find it.",
    "protocol-v1/started:rulesets": (
        "The rulesets it plays; cases of other rulesets are skipped without being sent."
    ),
    "protocol-v1/started:capabilities": (
        "See {ref}`capabilities <schema-vocabulary-capabilities>`; an unknown name fails"
        " the handshake."
    ),
    "protocol-v1/run:": (
        "One case to run, without its expectations: the implementation reports what"
        " happens and the runner compares."
    ),
    "protocol-v1/run:seq": "Numbers the request; the answer echoes it.",
    "protocol-v1/run:case": "The case's script.",
    "protocol-v1/run:case.id": "The case's id.",
    "protocol-v1/run:case.ruleset": "The case's ruleset.",
    "protocol-v1/run:case.players": "The case's player count.",
    "protocol-v1/run:case.start": (
        "The case's start, a deal without its `events`; or the deal of its replay start."
    ),
    "protocol-v1/run:case.steps": "The answer has one entry per step, at the same index.",
    "protocol-v1/run:steps[].command": "A command to give, as the case writes it.",
    "protocol-v1/run:steps[].seen_by": "The seats whose redacted copy of the events is wanted.",
    "protocol-v1/run:steps[].observe": "What to report at this moment.",
    "protocol-v1/run:observe.state": "Report the full-information state.",
    "protocol-v1/run:observe.legal_commands": "List the legal commands of the player to act.",
    "protocol-v1/run:observe.views": "Give the views of these seats.",
    "protocol-v1/run:observe.perft": "Count legal command sequences up to this depth.",
    "protocol-v1/result:": "The answer to a `run`: what happened, step by step.",
    "protocol-v1/result:start_events": "The deal's events; empty for a position.",
    "protocol-v1/result:start_rejected": "Why the start was refused; `steps` is then empty.",
    "protocol-v1/result:steps": "One entry per script step, in order.",
    "protocol-v1/result:steps[].events": "The command was accepted and caused these events.",
    "protocol-v1/result:steps[].seen_by": "The events as each seat asked sees them.",
    "protocol-v1/result:steps[].rejected": (
        "(See {ref}`rejection kinds <schema-vocabulary-rejections>`.)"
    ),
    "protocol-v1/result:steps[].observation": "What the observe step asked for.",
    "protocol-v1/result:observation.state": (
        "The full-information state, the fields of a case's state checks."
    ),
    "protocol-v1/result:observation.legal_commands": "The legal commands of the player to act.",
    "protocol-v1/result:observation.views": "One view per seat asked, with its `player`.",
    "protocol-v1/result:observation.perft": "The counts for depths 1 to the depth asked.",
    "protocol-v1/skipped:": (
        "The implementation cannot run this case (a rule it does not have yet): the case"
        " counts as skipped."
    ),
    "protocol-v1/skipped:reason": "Why, for the report.",
    "protocol-v1/errored:": (
        "Running the case failed unexpectedly: the case counts as errored and the run goes on."
    ),
    "protocol-v1/errored:message": "What went wrong.",
    "protocol-v1/errored:context": "Anything that helps to find out why.",
    "protocol-v1/stop:": "The last line the runner writes: the implementation exits, status 0.",
    # --- the shared definitions ------------------------------------------------------------
    "def:card": "A card's value belongs to the edition.",
    "def:cards": "Card lists are written top first.",
    "def:seat": "Seats are numbered from 0; clockwise is increasing seat number.",
    "def:command": (
        "A missing `target`, `second_target` or `guess` means null; an unknown extra"
        " field makes the command `malformed-command`."
    ),
    "def:command.*.player": "The seat giving the command.",
    "def:command.PlayCard.card": "The card played from the hand.",
    "def:command.KeepCard.keep": "The card kept.",
    "def:command.LookAtHand.owner": "Whose hand to look at.",
    "def:command.PlayCard.guess": (
        "A card name in the 2019 editions, a number in Premium (it hits every card of that value)."
    ),
    "def:command.PlayCard.target": "The player the card chooses, if it chooses one.",
    "def:command.PlayCard.second_target": (
        "The second player of a card that chooses two; greater than `target`."
    ),
    "def:command.KeepCard.bottom": (
        "Put under the deck in this order: the last one ends bottom-most."
    ),
    "def:command.StartRound.deck": "The next round's deck, top first.",
    "def:command.StartRound.first_player": "Picks among tied winners.",
    "def:event": (
        "An implementation reports every event a command causes, in order, with all"
        " its fields. A case lists only the keys it checks (a listed null also matches"
        " a missing key). In a player's redacted copy, what that player may not see"
        " is null."
    ),
    "def:event.CardDealt": "A card dealt to a player; its card is seen by that player only.",
    "def:event.CardDiscarded": (
        "A card discarded without its effect (a Prince's target, a Bishop's redraw,"
        " the Assassin after its reveal)."
    ),
    "def:event.CardDrawn": "A draw; its card is seen by the drawing player only.",
    "def:event.CardPlayed": "A card played, with the command's choices.",
    "def:event.CardRemovedFaceUp": "One card set aside face up (two players).",
    "def:event.CardRevealed": "The Assassin shown to everyone when a Guard chooses its holder.",
    "def:event.CardSetAside": "The face-down card; hidden from everyone.",
    "def:event.CardsReturned": "The cards a Chancellor's player put under the deck.",
    "def:event.ChancellorDrew": "The cards a Chancellor drew.",
    "def:event.ChoiceRestricted": "A Sycophant: the next card played must choose `required`.",
    "def:event.GameEnded": "The game is over.",
    "def:event.GameStarted": "The first event of a game.",
    "def:event.GameTied": (
        "Premium: players reached the winning tokens in the same award step and play a"
        " tie-break round."
    ),
    "def:event.HandSeen": "One player saw another's hand; the card is seen by the viewer only.",
    "def:event.HandsCompared": (
        "A Baron's or a Dowager Queen's comparison; the cards are seen by the two players only."
    ),
    "def:event.HandsTraded": "A King's or a Cardinal's swap; it carries no cards.",
    "def:event.LookOffered": "A Cardinal's look at one of the two hands is pending.",
    "def:event.OptionDeclined": "The optional look or redraw was skipped.",
    "def:event.PlayerEliminated": "A player is out of the round.",
    "def:event.PlayerMarked": "A Jester: `player` gains a token if `marked` wins the round.",
    "def:event.PlayerProtected": "A Handmaid's protection.",
    "def:event.PositionEstablished": "Our engine's; not reported to the suite.",
    "def:event.RedrawOffered": "A Bishop named this player's number: they may redraw.",
    "def:event.RoundEnded": "The round is over.",
    "def:event.RoundStarted": "A deal begins.",
    "def:event.TokenAwarded": "A token of affection.",
    "def:event.TurnStarted": "A player's turn begins.",
    "def:event.CardDealt.card": "Seen by `player` only.",
    "def:event.CardDrawn.card": "Seen by `player` only.",
    "def:event.CardSetAside.card": "Hidden from everyone.",
    "def:event.CardPlayed.target": "As in the command.",
    "def:event.CardPlayed.guess": "As in the command.",
    "def:event.CardPlayed.second_target": "As in the command.",
    "def:event.ChancellorDrew.count": "How many cards were drawn (public).",
    "def:event.ChancellorDrew.cards": "Seen by `player` only.",
    "def:event.CardsReturned.count": "How many cards went under the deck (public).",
    "def:event.HandSeen.card": "Seen by the viewer only.",
    "def:event.HandsCompared.player_card": "Seen by the two players compared only.",
    "def:event.HandsCompared.opponent_card": "Seen by the two players compared only.",
    "def:event.PlayerEliminated.reason": "What knocked the player out.",
    "def:event.TokenAwarded.reason": "What won the token.",
    "def:event.RoundEnded.reason": "How the round ended.",
    "def:event.PositionEstablished.position": "Our engine's record of the position.",
    "def:event.GameStarted.seed": (
        "Never compared; our engine writes it as a string of decimal digits."
    ),
    "def:event.RoundStarted.deck": "The whole deck, top first; hidden from everyone.",
    "def:event.RoundStarted.seats": (
        "Null in an ordinary round; in a tie-break round the tied players dealt in, ascending."
    ),
    "def:event.CardDrawn.from_set_aside": "The draw took the set-aside card.",
    "def:event.PlayerEliminated.discarded": "The cards put face up from the hand.",
    "def:event.HandSeen.via": "The card that showed it.",
    "def:event.HandsCompared.via": "`Baron` or `DowagerQueen`.",
    "def:event.HandsTraded.via": "`King` or `Cardinal`.",
    "def:event.CardsReturned.cards": "In the order put under the deck.",
    "def:event.TokenAwarded.total": "The player's tokens after this one.",
    "def:event.RoundEnded.winners": "Ascending seats.",
    "def:event.RoundEnded.revealed": (
        "The hands shown at an empty-deck end, `[seat, card]` in seat order."
    ),
    "def:event.GameEnded.winners": "Ascending seats.",
    "def:event.GameTied.tied": "Ascending seats.",
    "def:event.LookOffered.owners": "The two hands the look may choose from.",
    "def:event.ChoiceRestricted.required": "The player the next choice must include.",
    "def:rejection": (
        "See {ref}`rejection kinds <schema-vocabulary-rejections>` for when each applies."
    ),
}


# --- small helpers ----------------------------------------------------------------


def literal(value: JSON) -> str:
    """A JSON value as inline code; a string bare unless it reads as another type."""
    if isinstance(value, str) and not re.fullmatch(r"-?[0-9.eE+]+|true|false|null|", value):
        text = value
    else:
        text = json.dumps(value)
    return f"`{text}`"


def code(name: str) -> str:
    return f"`{name}`"


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def ref(label: str, text: str) -> str:
    return f"{{ref}}`{text.replace('<', '&lt;')} <{label}>`"


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def discriminated(schema: Mapping[str, JSON]) -> list[tuple[str, Mapping[str, JSON]]]:
    """The ``type`` variants of an ``allOf`` of ``if type == X then ...``."""
    variants: list[tuple[str, Mapping[str, JSON]]] = []
    for part in schema.get("allOf", ()):
        condition = part.get("if", {}).get("properties", {}).get("type", {})
        if "const" in condition and "then" in part:
            variants.append((str(condition["const"]), part["then"]))
    return variants


def is_object(schema: Mapping[str, JSON]) -> bool:
    return "properties" in schema and schema.get("type", "object") == "object"


# --- the model -------------------------------------------------------------------


@dataclass(frozen=True)
class Schema:
    """One schema file of ``conformance/schema/``."""

    file: str  # relative to conformance/schema, with forward slashes
    data: Mapping[str, JSON]

    @property
    def stem(self) -> str:
        return self.file.removesuffix(".json")

    @property
    def slug(self) -> str:
        return slugify(self.stem)

    @property
    def label(self) -> str:
        return f"schema-{self.slug}"

    @property
    def page(self) -> str:
        return f"{self.stem}.md"

    @property
    def message(self) -> str | None:
        """The message type, for a protocol message schema."""
        const = self.data.get("properties", {}).get("type", {}).get("const")
        return const if self.stem.startswith("protocol-") and isinstance(const, str) else None


def load_schemas(suite: Path) -> list[Schema]:
    root = suite / "schema"
    found = [
        Schema(path.relative_to(root).as_posix(), json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(root.rglob("*.json"))
    ]

    def order(schema: Schema) -> tuple[int, int, str]:
        if schema.message is None:
            return (0 if schema.stem.startswith("case") else 1, 0, schema.file)
        known = schema.message in MESSAGE_ORDER
        rank = MESSAGE_ORDER.index(schema.message) if known else len(MESSAGE_ORDER)
        return (2, rank, schema.file)

    return sorted(found, key=order)


def shared_definitions(schemas: Sequence[Schema]) -> dict[str, Mapping[str, JSON]]:
    """The ``$defs`` that every schema carries identically, and whose own
    references are shared too."""
    if not schemas:
        return {}
    first = schemas[0].data.get("$defs", {})
    shared = {
        name: body
        for name, body in first.items()
        if all(s.data.get("$defs", {}).get(name) == body for s in schemas)
    }
    while True:
        mixed = {name for name, body in shared.items() if set(references(body)) - set(shared)}
        if not mixed:
            return shared
        shared = {name: body for name, body in shared.items() if name not in mixed}


def references(schema: JSON) -> Iterator[str]:
    """The names of the definitions ``schema`` refers to."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            else:
                yield from references(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from references(item)


@dataclass
class Notes:
    """Looks up :data:`NOTES` and remembers which ones were used."""

    notes: Mapping[str, str]
    used: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)

    def get(
        self,
        scopes: Sequence[str],
        path: str,
        schema: Mapping[str, JSON] | None = None,
        *,
        is_field: bool,
    ) -> str:
        """The schema's description of ``path``, and the note for it: the note
        of the longest key matching ``path`` or its end (``start.deal.deck``
        also matches ``deal.deck``, not ``deck``), in the first of ``scopes``
        first."""
        text = ""
        if schema is not None and isinstance(schema.get("description"), str):
            text = schema["description"]
        # the whole path, then its ends of two parts or more (a single field
        # name would catch every field of that name)
        parts = path.split(".")
        suffixes = [path, *(".".join(parts[i:]) for i in range(1, len(parts) - 1))]
        if len(parts) == 3:  # a field of any variant: ``command.*.player``
            suffixes.append(f"{parts[0]}.*.{parts[2]}")
        for key in (f"{s}:{suffix}" for suffix in suffixes for s in scopes):
            if key in self.notes:
                self.used.add(key)
                if text and not text.endswith((".", ")", ":")):
                    text += "."
                text = f"{text} {self.notes[key]}".strip()
                break
        if not text and is_field:
            self.missing.append(f"{scopes[0]}:{path}")
        return text


# --- rendering one schema ---------------------------------------------------------------


@dataclass
class Section:
    """A nested object waiting for its own table."""

    label: str
    title: str
    path: str
    schema: Mapping[str, JSON]


class Renderer:
    """Renders the objects of one schema (or of the shared definitions) as
    Markdown tables, linking ``$ref`` to the definitions' labels."""

    def __init__(
        self,
        scope: str,
        label: str,
        def_label: Callable[[str], str],
        notes: Notes,
        used_labels: set[str],
        intros: Mapping[str, str],
    ) -> None:
        self.scope = scope  # the NOTES prefix
        #: where else to look for a note (a schema's own definitions: "def")
        self.fallback: tuple[str, ...] = ("*",)
        self.label = label  # this schema's label, the prefix of its sections'
        self.def_label = def_label
        self.notes = notes
        self.used_labels = used_labels
        self.intros = intros  # ``<definition>.<type>`` -> text from the README
        #: canonical JSON of an object -> its section's label and path
        self.rendered: dict[str, tuple[str, str]] = {}
        self.pending: list[Section] = []

    @property
    def scopes(self) -> tuple[str, ...]:
        return (self.scope, *self.fallback)

    # labels -------------------------------------------------------------------------

    def new_label(self, path: str) -> str:
        base = f"{self.label}-{slugify(path)}" if slugify(path) else self.label
        label, n = base, 2
        while label in self.used_labels:
            label, n = f"{base}-{n}", n + 1
        self.used_labels.add(label)
        return label

    def section_for(self, path: str, title: str, schema: Mapping[str, JSON]) -> str:
        """A link to the section for a nested object, queued if new (an
        object the same as one already queued links to that one)."""
        key = json.dumps(schema, sort_keys=True)
        if key not in self.rendered:
            label = self.new_label(path)
            self.rendered[key] = (label, path)
            self.pending.append(Section(label, title, path, schema))
        label, text = self.rendered[key]
        return ref(label, text)

    # types ----------------------------------------------------------------------------

    def type_of(self, schema: Mapping[str, JSON], path: str) -> str:
        """A readable type, linking definitions and nested objects."""
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            return ref(self.def_label(name), name)
        if "const" in schema:
            return f"{literal(schema['const'])} (constant)"
        if "enum" in schema:
            return "one of " + ", ".join(literal(v) for v in schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self.alternatives(schema[key], path)
        if is_object(schema):
            return f"object: {self.section_for(path, code(path), schema)}"
        kind = schema.get("type")
        if isinstance(kind, list):
            return " or ".join(str(k) for k in kind)
        if kind in ("integer", "number"):
            return self.number(schema, str(kind))
        if kind == "string":
            return self.string(schema)
        if kind == "array":
            return self.array(schema, path)
        if kind == "object":
            required = schema.get("required", [])
            if required:
                names = ", ".join(code(n) for n in required)
                return f"object with {names}" + (" (all required)" if len(required) > 1 else "")
            return "object"
        if isinstance(kind, str):
            return kind
        return "any value"

    def alternatives(self, options: Sequence[Mapping[str, JSON]], path: str) -> str:
        rendered: list[str] = []
        objects = [o for o in options if is_object(o)]
        for n, option in enumerate(options, 1):
            if is_object(option):
                name = self.variant_name(option, n if len(objects) > 1 else 0)
                title = f"{code(path)} {name}".strip()
                rendered.append(self.section_for(f"{path} {name}".strip(), title, option))
            else:
                rendered.append(self.type_of(option, path))
        if len(rendered) == 2 and rendered[1] == "null":
            return f"{rendered[0]} or null"
        return "one of: " + "; ".join(rendered)

    @staticmethod
    def variant_name(schema: Mapping[str, JSON], n: int) -> str:
        if n == 0:
            return ""
        required = schema.get("required", [])
        return f"with {required[0]}" if required else f"(form {n})"

    @staticmethod
    def number(schema: Mapping[str, JSON], kind: str) -> str:
        if "minimum" in schema and "maximum" in schema:
            return f"{kind} from {schema['minimum']} to {schema['maximum']}"
        bounds = []
        if "minimum" in schema:
            bounds.append(f"≥ {schema['minimum']}")
        if "exclusiveMinimum" in schema:
            bounds.append(f"> {schema['exclusiveMinimum']}")
        if "maximum" in schema:
            bounds.append(f"≤ {schema['maximum']}")
        if "exclusiveMaximum" in schema:
            bounds.append(f"< {schema['exclusiveMaximum']}")
        return " ".join([kind, *bounds])

    @staticmethod
    def string(schema: Mapping[str, JSON]) -> str:
        low, high = schema.get("minLength"), schema.get("maxLength")
        if low is not None and high is not None:
            text = f"string of {low} to {high} characters"
        elif high is not None:
            text = f"string of at most {high} characters"
        elif low == 1:
            text = "non-empty string"
        elif low is not None:
            text = f"string of at least {low} characters"
        else:
            text = "string"
        if "pattern" in schema:
            text += f" matching `{schema['pattern']}`"
        return text

    def array(self, schema: Mapping[str, JSON], path: str) -> str:
        if "prefixItems" in schema:
            parts = [self.type_of(p, f"{path}[]") for p in schema["prefixItems"]]
            text = f"[{', '.join(parts)}]"
        elif "items" in schema:
            items = schema["items"]
            inner = self.type_of(items, f"{path}[]")
            low, high = schema.get("minItems"), schema.get("maxItems")
            if "oneOf" in items:
                return f"array, each item {inner}"
            if low is not None and low == high and 2 <= low <= 3:
                return "[" + ", ".join([inner] * low) + "]"
            if " or " in inner or inner.startswith("one of") or inner.startswith("array"):
                inner = f"({inner})"
            text = f"array of {inner}"
        else:
            text = "array"
        low, high = schema.get("minItems"), schema.get("maxItems")
        if "prefixItems" not in schema:
            if low is not None and low == high:
                text += f" (exactly {low})"
            elif low is not None and high is not None:
                text += f" ({low} to {high} items)"
            elif low:
                text += f" (at least {low})"
            elif high is not None:
                text += f" (at most {high})"
        if schema.get("uniqueItems"):
            text += ", no repeats"
        return text

    # constraints ---------------------------------------------------------------------

    def describe(self, schema: Mapping[str, JSON], path: str) -> str:
        """A condition or a constraint, as a phrase."""
        phrases: list[str] = []
        constants = {n for n, sub in schema.get("properties", {}).items() if "const" in sub}
        present = [n for n in schema.get("required", []) if n not in constants]
        if present:
            names = " and ".join(code(n) for n in present)
            phrases.append(f"{names} {'is' if len(present) == 1 else 'are'} given")
        negated = schema.get("not", {})
        if negated.get("required"):
            phrases.append(" and ".join(code(n) for n in negated["required"]) + " is absent")
        for name, sub in schema.get("properties", {}).items():
            where = f"{path}.{name}" if path else name
            if "const" in sub:
                phrases.append(f"{code(name)} is {literal(sub['const'])}")
            elif sub.get("maxItems") == 0:
                phrases.append(f"{code(name)} is empty")
            elif set(sub) == {"minItems"}:
                phrases.append(f"{code(name)} has at least {plural(sub['minItems'], 'item')}")
            else:
                phrases.append(f"{code(name)} is {self.type_of(sub, where)}")
        return "; ".join(phrases) or "anything"

    def constraints(self, schema: Mapping[str, JSON], path: str) -> list[str]:
        lines: list[str] = []
        low, high = schema.get("minProperties"), schema.get("maxProperties")
        if low == high == 1:
            lines.append("Give exactly one of these fields.")
        elif low:
            lines.append(f"Give at least {plural(low, 'field')}.")
        if "if" in schema:
            condition = self.describe(schema["if"], path)
            text = f"If {condition}: {self.describe(schema['then'], path)}."
            if "else" in schema:
                text += f" Otherwise: {self.describe(schema['else'], path)}."
            lines.append(text)
        for key, head in (("oneOf", "Exactly one of these holds"), ("anyOf", "At least one holds")):
            if key in schema and not all(is_object(o) for o in schema[key]):
                lines.append(f"{head}:")
                lines.append("\n".join(f"- {self.describe(o, path)}" for o in schema[key]))
        if schema.get("additionalProperties") is False:
            lines.append("No other fields are allowed.")
        elif "properties" in schema:
            lines.append("Other fields are allowed.")
        return lines

    # tables -----------------------------------------------------------------------------

    def table(
        self, schema: Mapping[str, JSON], path: str, required: Sequence[str] = ()
    ) -> list[str]:
        needed = set(required) | set(schema.get("required", []))
        rows = ["| Field | Type | Required | Description |", "|---|---|---|---|"]
        for name, sub in schema.get("properties", {}).items():
            where = f"{path}.{name}" if path else name
            text = self.notes.get(self.scopes, where, sub, is_field=True)
            flag = "required" if name in needed else "optional"
            kind = self.type_of(sub, where)
            rows.append(f"| {code(name)} | {cell(kind)} | {flag} | {cell(text)} |")
        return rows

    def object(self, schema: Mapping[str, JSON], path: str) -> list[str]:
        """The table of an object, its constraints, then its nested objects."""
        lines = [*self.table(schema, path), ""]
        for constraint in self.constraints(schema, path):
            lines += [constraint, ""]
        return lines

    def nested(self, level: str) -> list[str]:
        """The sections of the nested objects queued so far (and theirs)."""
        lines: list[str] = []
        while self.pending:
            section, later = self.pending[0], self.pending[1:]
            self.pending = []
            lines += [f"({section.label})=", f"{level} {section.title}", ""]
            note = self.notes.get(self.scopes, section.path, section.schema, is_field=False)
            if note:
                lines += [note, ""]
            path = section.path.split(" with ")[0].split(" (form")[0]
            lines += self.object(section.schema, path)
            # depth first: this object's own nested objects come next
            self.pending += later
        return lines

    def variants(self, name: str, schema: Mapping[str, JSON], level: str, prefix: str) -> list[str]:
        """The sections of a definition's ``type`` variants (events, commands),
        labelled ``<prefix>-<type>``."""
        lines: list[str] = []
        base_required = schema.get("required", [])
        for kind, then in discriminated(schema):
            label = f"{prefix}-{slugify(kind)}"
            self.used_labels.add(label)
            lines += [f"({label})=", f"{level} {code(kind)}", ""]
            note = self.notes.get(self.scopes, f"{name}.{kind}", None, is_field=False)
            intro = self.intros.get(f"{name}.{kind}", "")
            if note or intro:
                lines += [f"{intro} {note}".strip(), ""]
            lines += [*self.table(then, f"{name}.{kind}", base_required), ""]
            lines += self.nested(level + "#")
        return lines


# --- pages ---------------------------------------------------------------------------


@dataclass
class Site:
    """Everything the pages are made from."""

    suite: Path
    schemas: list[Schema]
    shared: dict[str, Mapping[str, JSON]]
    versions: dict[str, str]
    notes: Notes
    labels: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    intros: dict[str, str] = field(default_factory=dict)

    def def_label(self, schema: Schema | None) -> Callable[[str], str]:
        def label(name: str) -> str:
            if schema is None or name in self.shared:
                return f"schema-def-{slugify(name)}"
            return f"{schema.label}-def-{slugify(name)}"

        return label

    def renderer(self, schema: Schema | None) -> Renderer:
        if schema is None:
            scope, label = "def", "schema-def"
        else:
            scope, label = schema.stem, schema.label
        return Renderer(scope, label, self.def_label(schema), self.notes, self.labels, self.intros)


def read_versions(suite: Path) -> dict[str, str]:
    data = yaml.safe_load((suite / "suite.yaml").read_text(encoding="utf-8"))
    return {key: str(data[key]) for key in ("version", "case_format", "protocol")}


def schema_page(site: Site, schema: Schema) -> str:
    data = schema.data
    r = site.renderer(schema)
    self_label = r.new_label("")
    if schema.message is not None:
        heading = f"Message {code(schema.message)}"
    elif schema.stem.startswith("case"):
        heading = "Case format"
    elif schema.stem.startswith("replay"):
        heading = "Replay start format"
    else:
        heading = schema.stem
    lines = [f"({self_label})=", f"# {heading}", ""]
    lines += [
        f"Generated from `conformance/schema/{schema.file}` (suite {site.versions['version']}).",
        "",
        "```{list-table}",
        ":class: schema-facts",
        "",
        "* - Title",
        f"  - {data.get('title', '(none)')}",
    ]
    if "$id" in data:
        lines += ["* - `$id`", f"  - `{data['$id']}`"]
    if "$schema" in data:
        lines += ["* - Dialect", f"  - `{data['$schema']}`"]
    lines += ["```", ""]
    intro = site.notes.get(r.scopes, "", data, is_field=False)
    if intro:
        lines += [intro, ""]
    lines += r.object(data, "")
    lines += r.nested("##")
    defs = data.get("$defs", {})
    if defs:
        lines += [f"({r.new_label('definitions')})=", "## Definitions", ""]
        shared = [n for n in defs if n in site.shared]
        if shared:
            links = ", ".join(ref(site.def_label(None)(n), n) for n in shared)
            lines += [
                f"The schema carries the definitions {links}, the same in every schema of "
                f"the suite: see {ref('schema-defs', 'Shared definitions')}.",
                "",
            ]
        own = site.renderer(schema)
        own.fallback = ("def", "*")  # the shared definitions' notes fit here too
        for name, body in defs.items():
            if name not in site.shared:
                lines += definition(site, own, name, body, "###")
    return "\n".join(lines).rstrip() + "\n"


def definition(
    site: Site, r: Renderer, name: str, body: Mapping[str, JSON], level: str
) -> list[str]:
    label = r.def_label(name)
    site.labels.add(label)
    lines = [f"({label})=", f"{level} {code(name)}", ""]
    note = site.notes.get(r.scopes, name, body, is_field=False)
    if note:
        lines += [note, ""]
    variants = discriminated(body)
    if variants:
        kinds = ", ".join(ref(f"{label}-{slugify(k)}", k) for k, _ in variants)
        lines += [
            f"An object whose `type` is one of {plural(len(variants), 'type')}: {kinds}."
            " The other fields depend on the type; the schema requires only"
            f" {', '.join(code(n) for n in body.get('required', []))}.",
            "",
        ]
        lines += r.variants(name, body, level + "#", label)
    elif is_object(body):
        lines += r.object(body, name)
        lines += r.nested(level + "#")
    elif "enum" in body:
        lines += [f"One of these {len(body['enum'])} values:", ""]
        lines += [f"- {literal(v)}" for v in body["enum"]]
        lines += [""]
    else:
        lines += [f"Type: {r.type_of(body, name)}.", ""]
        lines += r.nested(level + "#")
    return lines


def definitions_page(site: Site) -> str:
    r = site.renderer(None)
    site.labels.add("schema-defs")
    lines = [
        "(schema-defs)=",
        "# Shared definitions",
        "",
        "Every schema of the suite carries these definitions (`$defs`), identically;"
        " the other reference pages link here.",
        "",
    ]
    names = sorted(site.shared, key=lambda n: (DEF_ORDER + (n,)).index(n))
    for name in names:
        lines += definition(site, r, name, site.shared[name], "##")
    return "\n".join(lines).rstrip() + "\n"


def enum_of(schema: Mapping[str, JSON], *path: str) -> list[JSON]:
    node: JSON = schema
    for key in path:
        node = node[key]
    return list(node["enum"])


def readme_table(readme: str, heading: str) -> dict[str, str]:
    """The first table after ``heading`` in the README: first column -> last."""
    start = readme.find(f"\n{heading}\n")
    if start < 0:
        return {}
    rows: dict[str, str] = {}
    started = False
    for line in readme[start:].splitlines()[1:]:
        if line.startswith("|"):
            started = True
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            key = cells[0].strip("`")
            if set(cells[0]) <= {"-", ":"} or not key or key == cells[0]:
                continue
            rows[key] = cells[-1]
        elif started:
            break
    return rows


def vocabulary_page(site: Site) -> str:
    shared = site.shared
    lines = [
        "(schema-vocabulary)=",
        "# Vocabulary",
        "",
        "Every name below is part of the contract between the suite and an"
        " implementation. The lists are generated from the schemas' enumerations"
        " (and checked against `loveletter/conformance/vocabulary.py`, the names our"
        " engine uses); the explanations come from the tables of"
        " `conformance/README.md` in the repository.",
        "",
    ]
    site.labels.add("schema-vocabulary")
    readme = (site.suite / "README.md").read_text(encoding="utf-8")
    case = next((s.data for s in site.schemas if s.stem == "case-v1"), None)

    def section(label: str, title: str, intro: str) -> None:
        site.labels.add(label)
        nonlocal lines
        lines += [f"({label})=", f"## {title}", "", intro, ""]

    if case is not None:
        rulesets = enum_of(case, "properties", "ruleset")
        section(
            "schema-vocabulary-rulesets",
            "Rulesets",
            'A case names one of these (a string: in YAML, quote `"2019"`):',
        )
        lines += [f"- {literal(v)}" for v in rulesets] + [""]
    if "card" in shared:
        cards = enum_of(shared, "card")
        section(
            "schema-vocabulary-cards",
            "Cards",
            f"{len(cards)} card names, written exactly so"
            f" ({ref('schema-def-card', 'card')}); a card's value depends on the edition:",
        )
        lines += [", ".join(literal(v) for v in cards) + ".", ""]
    if "command" in shared:
        meanings = readme_table(readme, "### Commands")
        section(
            "schema-vocabulary-commands",
            "Command types",
            f"The commands a case gives ({ref('schema-def-command', 'command')}):",
        )
        lines += ["| Type | Fields | Meaning |", "|---|---|---|"]
        for kind, then in discriminated(shared["command"]):
            fields = ", ".join(code(f) for f in then.get("properties", {}) if f != "type")
            link = ref(f"schema-def-command-{slugify(kind)}", kind)
            lines.append(f"| {link} | {cell(fields)} | {cell(meanings.get(kind, ''))} |")
        lines += [""]
    if "event" in shared:
        section(
            "schema-vocabulary-events",
            "Event types",
            f"The events an implementation reports ({ref('schema-def-event', 'event')}):",
        )
        lines += ["| Type | Fields |", "|---|---|"]
        for kind, then in discriminated(shared["event"]):
            fields = ", ".join(code(f) for f in then.get("properties", {}) if f != "type")
            link = ref(f"schema-def-event-{slugify(kind)}", kind)
            lines.append(f"| {link} | {cell(fields) or '(none)'} |")
        lines += [""]
    if "rejection" in shared:
        when = readme_table(readme, "### Rejection kinds")
        section(
            "schema-vocabulary-rejections",
            "Rejection kinds",
            "An illegal command is refused with exactly one of these kinds"
            f" ({ref('schema-def-rejection', 'rejection')}):",
        )
        lines += ["| Kind | When |", "|---|---|"]
        for kind in enum_of(shared, "rejection"):
            lines.append(f"| {literal(kind)} | {cell(when.get(kind, ''))} |")
        lines += [""]
    if case is not None:
        checks = case["properties"]["steps"]["items"]["oneOf"][1]["properties"]["checks"]
        section(
            "schema-vocabulary-decisions",
            "Decisions",
            "What a game waits for (the `decision` of a state):",
        )
        lines += [f"- {literal(v)}" for v in checks["properties"]["decision"]["enum"]] + [""]
    started = next((s.data for s in site.schemas if s.message == "started"), None)
    if started is not None:
        can = readme_table(readme, "### Capabilities")
        section(
            "schema-vocabulary-capabilities",
            "Capabilities",
            "What an implementation may declare in its handshake"
            f" ({ref('schema-protocol-v1-started', 'started')}); one that declares"
            " none offers them all:",
        )
        lines += ["| Capability | The implementation can |", "|---|---|"]
        for name in enum_of(started, "properties", "capabilities", "items"):
            lines.append(f"| {literal(name)} | {cell(can.get(name, ''))} |")
        lines += [""]
    return "\n".join(lines).rstrip() + "\n"


def index_page(site: Site) -> str:
    v = site.versions
    site.labels.add("schema-reference")
    lines = [
        "(schema-reference)=",
        "# Reference",
        "",
        "These pages are generated from the conformance suite when the site is built:",
        "they cannot disagree with the schemas the runner validates against.",
        "",
        "```{list-table}",
        ":header-rows: 1",
        "",
        "* - Suite version",
        "  - Case format",
        "  - Protocol",
        f"* - {v['version']}",
        f"  - {v['case_format']}",
        f"  - {v['protocol']}",
        "```",
        "",
        "| Page | Schema file | Schema title |",
        "|---|---|---|",
    ]
    for schema in site.schemas:
        title = cell(str(schema.data.get("title", "")))
        lines.append(f"| {{ref}}`{schema.label}` | `{schema.file}` | {title} |")
    lines += [
        f"| {ref('schema-defs', 'Shared definitions')} | (`$defs` of every schema) | |",
        f"| {ref('schema-vocabulary', 'Vocabulary')} | (the enumerations) | |",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        "vocabulary",
        *[s.stem for s in site.schemas],
        "definitions",
        "```",
    ]
    return "\n".join(lines) + "\n"


def check_consistency(site: Site) -> None:
    """The schemas against the engine's vocabulary and suite.yaml."""
    try:
        from loveletter.conformance import vocabulary
    except ImportError as error:  # pragma: no cover - the docs build has it
        site.problems.append(f"cannot import loveletter.conformance.vocabulary: {error}")
        return
    shared = site.shared

    def same(what: str, schema_names: Sequence[JSON], engine_names: Sequence[str]) -> None:
        if set(schema_names) != set(engine_names):
            only_schema = sorted(set(map(str, schema_names)) - set(engine_names))
            only_engine = sorted(set(engine_names) - set(map(str, schema_names)))
            site.problems.append(
                f"{what}: only in the schemas {only_schema}, only in vocabulary.py {only_engine}"
            )

    if "card" in shared:
        same("card names", enum_of(shared, "card"), sorted(vocabulary.CARD_NAMES))
    if "rejection" in shared:
        same("rejection kinds", enum_of(shared, "rejection"), sorted(vocabulary.REJECTION_KINDS))
    for name, table in (("event", vocabulary.EVENT_FIELDS), ("command", vocabulary.COMMAND_FIELDS)):
        if name not in shared:
            continue
        variants = dict(discriminated(shared[name]))
        same(f"{name} types", list(variants), list(table))
        for kind, fields in table.items():
            if kind in variants:
                listed = [f for f in variants[kind].get("properties", {}) if f != "type"]
                same(f"fields of {name} {kind}", listed, list(fields))
    started = next((s.data for s in site.schemas if s.message == "started"), None)
    if started is not None:
        offered = enum_of(started, "properties", "capabilities", "items")
        same("capabilities", offered, list(vocabulary.CAPABILITIES))
    start = next((s.data for s in site.schemas if s.message == "start"), None)
    if start is not None:
        protocol = start["properties"]["protocol"].get("const")
        if str(protocol) != site.versions["protocol"]:
            site.problems.append(
                f"suite.yaml says protocol {site.versions['protocol']},"
                f" protocol-v1/start.json {protocol}"
            )
    case = next((s.data for s in site.schemas if s.stem == "case-v1"), None)
    if case is not None:
        formats = [str(f) for f in case["properties"]["format"]["enum"]]
        if site.versions["case_format"] not in formats:
            site.problems.append(
                f"suite.yaml says case format {site.versions['case_format']},"
                f" case-v1.json reads {formats}"
            )


@dataclass
class Generated:
    """The pages (path relative to the output directory -> text), and what
    the build should warn about."""

    pages: dict[str, str]
    unused_notes: list[str]
    undescribed: list[str]
    problems: list[str]


def generate(suite: Path = SUITE, notes: Mapping[str, str] = NOTES) -> Generated:
    schemas = load_schemas(suite)
    site = Site(suite, schemas, shared_definitions(schemas), read_versions(suite), Notes(notes))
    readme = (suite / "README.md").read_text(encoding="utf-8")
    for kind, meaning in readme_table(readme, "### Commands").items():
        site.intros[f"command.{kind}"] = meaning[:1].upper() + meaning[1:] + "."
    pages = {"index.md": index_page(site), "vocabulary.md": vocabulary_page(site)}
    for schema in schemas:
        pages[schema.page] = schema_page(site, schema)
    pages["definitions.md"] = definitions_page(site)
    check_consistency(site)
    unused = sorted(set(notes) - site.notes.used)
    return Generated(pages, unused, site.notes.missing, site.problems)


def write_pages(pages: Mapping[str, str], out: Path) -> list[Path]:
    """Write each page whose text changed; remove pages no longer generated.
    Returns the files written or removed."""
    changed: list[Path] = []
    for name, text in pages.items():
        path = out / name
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        changed.append(path)
    wanted = {out / name for name in pages}
    for path in sorted(out.rglob("*.md")) if out.is_dir() else []:
        if path not in wanted:
            path.unlink()
            changed.append(path)
    return changed


def iter_messages(generated: Generated) -> Iterator[str]:
    for key in generated.unused_notes:
        yield f"schema_pages: NOTES[{key!r}] describes nothing any schema has"
    for problem in generated.problems:
        yield f"schema_pages: {problem}"


def _on_builder_inited(app: Any) -> None:
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    generated = generate()
    for message in iter_messages(generated):
        logger.warning(message)
    write_pages(generated.pages, OUT)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _on_builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
