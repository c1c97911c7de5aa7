"""Conformance cases told as short stories, for readers of the rules.

A case is written for machines: a start, commands, expected events and
checks. :func:`tell` drives this package's engine through it, as the
conformance executor does, and words each part: the setup, each move, what
the whole table sees happen, what only one player learns (a Priest's look,
a Baron's comparison, a drawn card), and what the case then checks.

The result is plain structured text, no markup, so that the docs site and
the ``loveletter rules`` command can each render it their own way.

What happens and what each player learns are never phrased here: they are
the narrator's own sentences (:mod:`loveletter.narrative`) for the event
stream as each seat receives it (:func:`loveletter.views.events_for`), so
a secret can reach a player's lines only if the redaction lets it through.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from loveletter.cards import Card
from loveletter.cards.base import Choice
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
from loveletter.conformance.cases import Case
from loveletter.conformance.execute import ScriptError, start_state
from loveletter.engine import step as engine_step
from loveletter.errors import IllegalCommand, SerializationError
from loveletter.events import Event, HandsCompared, HandSeen
from loveletter.narrative import Narrator, card_name, default_name
from loveletter.notation import format_command
from loveletter.positions import to_position
from loveletter.rulesets import Ruleset, Scoring, get_ruleset
from loveletter.serialization import from_data, to_data
from loveletter.state import Decision, GameState

__all__ = ["CaseStory", "StepStory", "tell"]

JSON = Any


@attrs.frozen
class StepStory:
    """One step of a case, in words."""

    #: the move, e.g. "Player 0 plays the Prince on Player 0." or, for a refused
    #: command, "Player 0 tries to play the Prince on Player 1: refused (target-protected)."
    #: None for a step that only checks.
    move: str | None
    #: what happens, as everyone at the table sees it plus what is revealed
    #: (narration lines; may be empty)
    happens: tuple[str, ...]
    #: seat -> what only that player learns at this step (e.g. the Priest's look),
    #: seats with nothing omitted
    learns: tuple[tuple[int, tuple[str, ...]], ...]
    #: what the case then checks, in words ("Player 1's hand is the Baron and the King.",
    #: "Player 2 is protected.", "Player 1 is to act.",
    #: "The legal commands are: P0 Prince on P0; P0 Guard.")
    checks: tuple[str, ...]


@attrs.frozen
class CaseStory:
    """A whole case, in words."""

    #: ``ruleset/topic/id``
    name: str
    title: str
    #: the players and edition, then the deal or the position
    setup: tuple[str, ...]
    #: one per step of the case, in order
    steps: tuple[StepStory, ...]


def tell(case: Case) -> CaseStory:
    """``case`` as a story: its setup and, step by step, what is played,
    what happens, what each player learns and what is checked."""
    rules = get_ruleset(case.ruleset)
    setup = [f"{rules.title}, {case.players} player{_s(case.players)}."]
    if "settings" in case.data:
        setup.append(_settings_line(case.data["settings"]))
    start = case.data["start"]
    if "deal" in start:
        setup += _deal_lines(start["deal"], rules)
    else:
        setup += _position_lines(start["position"], rules)
    try:
        state, _ = start_state(case.data)
    except ScriptError as error:
        setup.append(_refused_start(error))
        return CaseStory(case.name, case.title, tuple(setup), ())
    if "deal" in start:
        # a stacked order was told with the deal; a drawn one is told here
        drawn = "order" not in start["deal"]
        setup += _dealt_lines(to_data(to_position(state)), drawn_order=drawn)
    table = _Table(state)
    steps = tuple(
        table.command(item["command"]) if "command" in item else _checks_only(item["checks"], rules)
        for item in case.data["steps"]
    )
    return CaseStory(case.name, case.title, tuple(setup), steps)


# --------------------------------------------------------------------------
# playing the case through the engine


class _Table:
    """The game as the case plays it, with one narrator for what the whole
    table sees and one per seat."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.rules: Ruleset = state.ruleset
        # A seat number past the last one is dealt nothing and so sees only
        # what is public: exactly the redaction "everyone at the table" gets.
        self.public = _joined(Narrator(viewer=state.players), state)
        self.seats = [_joined(Narrator(viewer=seat), state) for seat in range(state.players)]

    def command(self, data: JSON) -> StepStory:
        try:
            command = from_data(data, Command)
        except SerializationError:
            return StepStory(_malformed(data), (), (), ())
        before = self.state
        try:
            self.state, events = engine_step(before, command)
        except IllegalCommand as error:
            subject, _, infinitive = _move(command, before, self.rules)
            move = f"{subject} tries to {infinitive}: refused ({error.kind.value})."
            return StepStory(move, (), (), ())
        subject, acts, _ = _move(command, before, self.rules)
        public = self.public.narrate(events)
        learns: list[tuple[int, tuple[str, ...]]] = []
        for seat, narrator in enumerate(self.seats):
            private = _private_lines(narrator.narrate(events), public)
            private += _trade_sightings(seat, before, self.state, events)
            if private:
                learns.append((seat, tuple(private)))
        return StepStory(f"{subject} {acts}.", tuple(public), tuple(learns), ())


def _joined(narrator: Narrator, state: GameState) -> Narrator:
    """``narrator``, told the public part of the starting position.

    A seat's narrator redacts what it is given, the position included, and
    would then know neither the edition (card values) nor the round, the
    turn or who is protected. Those are public, so it is told them directly;
    the lines this produces describe the setup, which the story words
    itself, and are dropped.
    """
    narrator.join(to_position(state))
    return narrator


def _checks_only(checks: Mapping[str, JSON], rules: Ruleset) -> StepStory:
    return StepStory(None, (), (), tuple(_check_lines(checks, rules)))


_TURN_LABEL = re.compile(r"^Turn \d+: ")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _private_lines(seen: Sequence[str], public: Sequence[str]) -> list[str]:
    """What one seat's narration tells beyond the public one, compactly.

    The narrator words each event group on one line for every viewer, so
    the two narrations pair off line by line; within a pair only the
    sentences the table did not hear are kept (a turn's draw, not the turn
    label or the end of a Handmaid's protection told to all)."""
    if len(seen) != len(public):
        # a narrator that one day words a group differently per viewer must
        # not lose a secret: fall back to whole lines
        left = Counter(public)
        extra = []
        for line in seen:
            if left[line]:
                left[line] -= 1
            else:
                extra.append(line)
        return extra
    found = []
    for mine, theirs in zip(seen, public, strict=True):
        if mine == theirs:
            continue
        told = set(_SENTENCE_END.split(_TURN_LABEL.sub("", theirs)))
        kept = [s for s in _SENTENCE_END.split(_TURN_LABEL.sub("", mine)) if s not in told]
        found.append(" ".join(kept) if kept else mine)
    return found


def _trade_sightings(
    seat: int, before: GameState, after: GameState, events: Iterable[Event]
) -> list[str]:
    """What a King's or a Cardinal's trade showed ``seat``.

    A trade carries no cards in its event: each trader knows what the other
    now holds from the card they gave, which the engine records as a
    sighting. Sightings that a look or a comparison already told are left
    out."""
    old = before.sightings
    new = after.sightings
    fresh = new[len(old) :] if new[: len(old)] == old else new
    told = set()
    for event in events:
        if isinstance(event, HandSeen):
            told.add((event.viewer, event.owner))
        elif isinstance(event, HandsCompared):
            told.add((event.player, event.opponent))
            told.add((event.opponent, event.player))
    return [
        f"{default_name(s.owner)} now holds {_the(s.card)}, the card"
        f" {default_name(s.viewer)} gave them."
        for s in fresh
        if s.viewer == seat and (s.viewer, s.owner) not in told
    ]


# --------------------------------------------------------------------------
# moves


_AGAINST = frozenset({Card.BARON, Card.DOWAGER_QUEEN})


def _move(command: Command, state: GameState, rules: Ruleset) -> tuple[str, str, str]:
    """Who acts, and what they do: (subject, "plays the Guard ...", "play the Guard ...")."""
    if isinstance(command, StartRound):
        text = "the next round"
        if command.deck is not None:
            text += f" from a stacked deck (top first: {_list(command.deck)})"
        if command.first_player is not None:
            text += f", {default_name(command.first_player)} first"
        if command.order is not None:
            text += f", in the stacked turn order {_seat_list(command.order)}"
        return "The dealer", f"deals {text}", f"deal {text}"
    if isinstance(command, Leave):
        return default_name(command.player), "leaves the table", "leave the table"
    if isinstance(command, TimeOut):
        # the host, not the player, says the time is up (ruling 51)
        whose = _possessive(command.player)
        return "The host", f"says {whose} time is up", f"say {whose} time is up"
    if not isinstance(command, PlayCard | KeepCard | LookAtHand | Redraw | Decline | DrawCard):
        return "Someone", f"gives {format_command(command)}", f"give {format_command(command)}"
    who = default_name(command.player)
    if isinstance(command, PlayCard):
        text = _the(command.card)
        target, second = command.target, command.second_target
        if target is not None:
            text += " against " if command.card in _AGAINST and second is None else " on "
            text += default_name(target)
            if second is not None:
                text += f" and {default_name(second)}"
        elif second is not None:
            text += f" with only a second target, {default_name(second)}"
        elif rules.choices[command.card] is not Choice.NONE:
            text += " with no target"
        if command.guess is not None:
            text += f", naming {_guess(command.guess)}"
        return who, f"plays {text}", f"play {text}"
    if isinstance(command, KeepCard):
        keep = _the(command.keep)
        if not command.bottom:
            return who, f"keeps {keep}", f"keep {keep}"
        under = " and then ".join(_the(card) for card in command.bottom)
        rest = f"{under} at the bottom of the deck"
        return who, f"keeps {keep} and puts {rest}", f"keep {keep} and put {rest}"
    if isinstance(command, LookAtHand):
        # only the Cardinal's look shows its player their own hand: the new one
        whose = "their new" if command.owner == command.player else _possessive(command.owner)
        return who, f"looks at {whose} hand", f"look at {whose} hand"
    if isinstance(command, Redraw):
        return (
            who,
            "discards their card and draws a new one",
            "discard their card and draw a new one",
        )
    if isinstance(command, Decline):
        if state.decision is Decision.LOOK:
            return who, "looks at neither hand", "look at neither hand"
        if state.decision is Decision.REDRAW:
            return who, "keeps their card rather than redraw", "keep their card rather than redraw"
        return who, "declines", "decline"
    return who, "draws a card", "draw a card"


def _malformed(data: JSON) -> str:
    """A command the engine cannot even read, told field by field."""
    player = data.get("player") if isinstance(data, dict) else None
    who = default_name(player) if type(player) is int else "A player"
    fields = (
        ", ".join(f"{key} {json.dumps(value)}" for key, value in data.items())
        if isinstance(data, dict)
        else json.dumps(data)
    )
    return (
        f"{who} tries to give a command that is not well formed ({fields}):"
        " refused (malformed-command)."
    )


# --------------------------------------------------------------------------
# setup


def _refused_start(error: ScriptError) -> str:
    # The executor prefixes the field; the engine's message starts with its
    # own short reason ("invalid-deck", "players", a position field).
    detail = str(error).removeprefix(f"{error.field}: ")
    kind, _, why = detail.partition(": ")
    if not why:
        return f"The rules refuse this start: {detail}."
    return f"The rules refuse this start ({kind}): {why.rstrip('.')}."


def _settings_line(settings: Mapping[str, JSON]) -> str:
    """An online table's settings, as the case gives them (the others
    keep their defaults)."""
    parts = []
    if "decks" in settings:
        parts.append(f"{settings['decks']} deck{_s(settings['decks'])}")
    if "turn_time_ms" in settings:
        parts.append(f"a turn time of {_seconds(settings['turn_time_ms'])}")
    if "random_moves" in settings:
        parts.append(f"random moves {'on' if settings['random_moves'] else 'off'}")
    if "intermission_ms" in settings:
        parts.append(f"{_seconds(settings['intermission_ms'])} between rounds")
    return f"Table settings: {', '.join(parts) or 'the defaults'}."


def _seconds(ms: JSON) -> str:
    if isinstance(ms, int) and ms % 1000 == 0:
        return f"{ms // 1000} s"
    return f"{ms} ms"


def _counters(rules: Ruleset) -> str:
    """What the state's tokens are called in this edition (Premium's
    Tokens of Affection)."""
    if rules.scoring is Scoring.RANKS:
        return "Win counters"
    plural = rules.token_names[1]
    return plural[:1].upper() + plural[1:]


def _deal_lines(deal: Mapping[str, JSON], rules: Ruleset) -> list[str]:
    lines = []
    round_number = deal.get("round_number", 1)
    if "tokens" in deal or round_number != 1:
        lines.append(f"Round {round_number} of a game under way.")
        if any(deal.get("tokens", ())):
            lines.append(f"{_counters(rules)} so far: {_tokens(deal['tokens'])}.")
    lines.append(f"The deck is stacked (top first): {_list(deal['deck'])}.")
    if "order" in deal:
        lines.append(f"The turn order is stacked: {_seat_list(deal['order'])}.")
    elif rules.draws_order:
        # without a stacked order the seed draws it (ruling 43)
        drawn = "The turn order is drawn from the game's seed"
        if "first_player" in deal:
            drawn += f", {default_name(deal['first_player'])} swapped to its head"
        lines.append(drawn + ".")
    if "order" not in deal and not rules.draws_order:
        lines.append(f"First player: {default_name(deal.get('first_player', 0))}.")
    if "seed" in deal:
        lines.append(f"The game's seed is {deal['seed']}.")
    return lines


def _dealt_lines(position: Mapping[str, JSON], *, drawn_order: bool = True) -> list[str]:
    """The deal's result: what is set aside, the turn order and who holds
    what."""
    if position["set_aside"] is None:
        lines = ["No card is set aside."]
    else:
        lines = [f"Set aside face down: {_the(position['set_aside'])}."]
    if position["face_up"]:
        lines.append(f"Removed face up: {_list(position['face_up'])}.")
    if drawn_order and position.get("order"):
        lines.append(f"Turn order: {_seat_list(position['order'])}.")
    lines.append(_hands_line(position["hands"], position.get("out", ())))
    lines.append(_to_act_line(position))
    return lines


def _position_lines(position: Mapping[str, JSON], rules: Ruleset) -> list[str]:
    lines = [f"Round {position.get('round_number', 1)}, turn {position.get('turn_number', 1)}."]
    tokens = position.get("tokens") or ()
    if any(tokens):
        lines.append(f"{_counters(rules)}: {_tokens(tokens)}.")
    if position.get("left"):
        lines.append(f"Left the table: {_seat_list(position['left'])}.")
    if position.get("order"):
        lines.append(f"Turn order: {_seat_list(position['order'])}.")
    contenders = position.get("contenders") or ()
    if contenders:
        lines.append(f"A tie-break round between {_seats(contenders)}; the others sit it out.")
    deck = position["deck"]
    if deck:
        lines.append(f"Deck (top first, {len(deck)} card{_s(len(deck))}): {_list(deck)}.")
    else:
        lines.append("The deck is empty.")
    if position["set_aside"] is None:
        lines.append("No card is set aside.")
    else:
        lines.append(f"Set aside face down: {_the(position['set_aside'])}.")
    if position.get("face_up"):
        lines.append(f"Removed face up: {_list(position['face_up'])}.")
    out = position.get("out") or ()
    lines.append(_hands_line(position["hands"], out))
    lines.append(_discards_line(position["discards"]))
    if out:
        lines.append(f"Out of the round: {_seat_list(out)}.")
    if position.get("exits"):
        lines.append(f"Went out of the round, in this order: {_seat_list(position['exits'])}.")
    if position.get("protected"):
        lines.append(f"Protected: {_seat_list(position['protected'])}.")
    sightings = position.get("sightings") or ()
    if sightings:
        shown = "; ".join(_sighting(s) for s in sightings)
        lines.append(f"Shown earlier this round: {shown}.")
    returns = position.get("returns") or ()
    if returns:
        put = "; ".join(f"{default_name(seat)} {count} card{_s(count)}" for seat, count in returns)
        lines.append(f"Put under the deck with a Chancellor this round: {put}.")
    if position.get("required") is not None:
        lines.append(
            "A Sycophant requires the next card that chooses players to choose"
            f" {default_name(position['required'])}."
        )
    marks = position.get("marks") or ()
    if marks:
        bets = "; ".join(f"{default_name(p)} on {default_name(m)}" for p, m in marks)
        lines.append(f"Jester bets: {bets}.")
    if "seed" in position:
        lines.append(f"The game's seed is {position['seed']}.")
    lines.append(_to_act_line(position))
    return lines


def _to_act_line(position: Mapping[str, JSON]) -> str:
    who = default_name(position["current"])
    return f"{who} is to play (has drawn)." if position["drawn"] else f"{who} is to draw."


def _hands_line(hands: Sequence[Sequence[JSON]], out: Iterable[int] = ()) -> str:
    gone = set(out)
    held = [
        f"{default_name(seat)} is out"
        if seat in gone and not hand
        else f"{default_name(seat)} holds {_list(hand)}"
        for seat, hand in enumerate(hands)
    ]
    return f"Hands: {'; '.join(held)}."


def _discards_line(piles: Sequence[Sequence[JSON]]) -> str:
    told = [f"{default_name(seat)} {_list(pile)}" for seat, pile in enumerate(piles) if pile]
    if not told:
        return "Discard piles: all empty."
    return f"Discard piles (oldest first): {'; '.join(told)}."


# --------------------------------------------------------------------------
# checks


_DECISIONS = {
    "draw": "The game waits for the current player to draw.",
    "play": "The game waits for a card to be played.",
    "chancellor": "The game waits for the Chancellor's player to keep a card.",
    "look": "The game waits for the Cardinal's player to look at a hand or decline.",
    "redraw": "The game waits for the Bishop's target to redraw or keep their card.",
    "next-round": "The round is over; the next round is to be dealt.",
    "game-over": "The game is over.",
}


def _check_lines(checks: Mapping[str, JSON], rules: Ruleset) -> list[str]:
    lines: list[str] = []
    for key, value in checks.items():
        if key == "views":
            # one line per player: each view is its own statement
            lines += [_view_line(seen, rules) for seen in value]
        else:
            lines.append(_check_line(key, value, rules))
    return lines


def _check_line(key: str, value: JSON, rules: Ruleset) -> str:
    if key == "decision":
        return _DECISIONS.get(value, f"The game waits for: {value}.")
    if key == "to_act":
        return "No one is to act." if value is None else f"{default_name(value)} is to act."
    if key == "current":
        return f"It is {_possessive(value)} turn."
    if key == "round_number":
        return f"It is round {value}."
    if key == "turn_number":
        return f"It is turn {value}."
    if key == "deck":
        return f"The deck (top first) is {_list(value)}." if value else "The deck is empty."
    if key == "set_aside":
        if value is None:
            return "No card is set aside any more."
        return f"The set-aside card is {_the(value)}."
    if key == "face_up":
        return f"Face up: {_list(value)}." if value else "No card is face up."
    if key == "hands":
        return _hands_line(value)
    if key == "hand":
        return f"{_possessive(value['player'])} hand is {_list(value['cards'])}."
    if key == "discards":
        return _discards_line(value)
    if key == "out":
        return _are(value, "out of the round", "No one is out of the round.")
    if key == "protected":
        return _are(value, "protected", "No one is protected.")
    if key in ("tokens", "win_counters"):
        return f"{_counters(rules)}: {_tokens(value)}."
    if key == "round_result":
        return _round_result(value, rules)
    if key == "ranks":
        return _ranks(value)
    if key == "order":
        return f"The turn order is {_seats(value)}." if value else "No turn order is drawn."
    if key == "exits":
        if not value:
            return "No one has gone out of the round."
        return f"Gone out of the round, in this order: {_seat_list(value)}."
    if key == "left":
        if not value:
            return "No one has left the table."
        return f"{_seats(value)} {'has' if len(value) == 1 else 'have'} left the table."
    if key == "winners":
        if not value:
            return "The game has no winner yet."
        return f"{_seats(value)} {'wins' if len(value) == 1 else 'win'} the game."
    if key == "required":
        if value is None:
            return "No Sycophant requirement is in force."
        return f"The next card that chooses players must choose {default_name(value)}."
    if key == "marks":
        if not value:
            return "No Jester bet is in play."
        bets = "; ".join(f"{default_name(p)} on {default_name(m)}" for p, m in value)
        return f"Jester bets: {bets}."
    if key == "contenders":
        if not value:
            return "This is not a tie-break round."
        return f"The tie-break is between {_seats(value)}."
    if key == "pending":
        if not value:
            return "No optional step is pending."
        return f"The pending choice concerns {_seats(value)}."
    if key == "legal_commands":
        if not value:
            return "There are no legal commands."
        return f"The legal commands are: {_commands(value)}."
    if key == "legal_commands_include":
        return f"The legal commands include: {_commands(value)}."
    if key == "legal_commands_exclude":
        return f"The legal commands do not include: {_commands(value)}."
    if key == "legal_command_count":
        return f"There {'is' if value == 1 else 'are'} {value} legal command{_s(value)}."
    if key == "perft":
        counts = ", ".join(f"{count} of length {depth}" for depth, count in enumerate(value, 1))
        return f"Legal command sequences from here: {counts}."
    if key == "round_over":
        return "The round is over." if value else "The round is not over."
    if key == "round_winners":
        if not value:
            return "No one has won the round."
        return f"{_seats(value)} {'wins' if len(value) == 1 else 'win'} the round."
    if key == "deck_size":
        return f"The deck holds {value} card{_s(value)}."
    if key == "top_card":
        return "The deck is empty." if value is None else f"The top card is {_the(value)}."
    if key == "shown":
        who = default_name(value["player"])
        if not value["sightings"]:
            return f"{who} has been shown nothing this round."
        seen = "; ".join(_sighting(s, value["player"]) for s in value["sightings"])
        return f"{who} has been shown this round: {seen}."
    return f"{key}: {json.dumps(value)}."


def _round_result(value: JSON, rules: Ruleset) -> str:
    if value is None:
        return "The round has no result yet."
    winners = value.get("winners")
    reason = value.get("reason")
    parts = []
    if reason == "deck-empty" and rules.round_end_pile:
        parts.append("The round ended by the pile")
    elif reason == "deck-empty":
        parts.append("The round ended with the deck empty")
    elif reason == "one-player-left":
        parts.append("The round ended with one player left")
    else:
        parts.append("The round ended")
    if winners is not None:
        parts.append(f"won by {_seats(winners)}")
    text = ", ".join(parts)
    revealed = value.get("revealed")
    if revealed:
        text += "; hands shown: " + ", ".join(f"{default_name(s)} {_the(c)}" for s, c in revealed)
    if value.get("ranks") is not None:
        text += f"; ranks: {_rank_list(value['ranks'])}"
    return text + "."


def _ranks(ranks: JSON) -> str:
    if ranks is None:
        return "No round has been ranked."
    return f"Ranks: {_rank_list(ranks)}."


def _rank_list(ranks: Sequence[int | None]) -> str:
    """One rank per seat, ``None`` for a seat not dealt in (ruling 44)."""
    return ", ".join(
        f"{default_name(seat)} not dealt in"
        if rank is None
        else f"{default_name(seat)} rank {rank}"
        for seat, rank in enumerate(ranks)
    )


_VIEW_NOUNS = {"ruleset": "edition", "round_number": "round", "turn_number": "turn"}

_WAITING = {
    "draw": "a draw",
    "play": "a card to be played",
    "chancellor": "the Chancellor's keep",
    "look": "the Cardinal's look",
    "redraw": "the Bishop's redraw",
    "next-round": "the next round",
    "game-over": "nothing: the game is over",
}


def _view_line(seen: Mapping[str, JSON], rules: Ruleset) -> str:
    player = seen["player"]
    parts = [
        _view_part(key, value, player, rules) for key, value in seen.items() if key != "player"
    ]
    return f"{_possessive(player)} view shows: {'; '.join(parts)}."


def _view_part(key: str, value: JSON, player: int, rules: Ruleset) -> str:
    if key == "hand":
        return f"hand {_list(value)}"
    if key == "hand_sizes":
        return f"hand sizes ({_per_seat(value)})"
    if key == "deck_size":
        return f"{value} card{_s(value)} in the deck"
    if key == "set_aside_present":
        return "a set-aside card" if value else "no set-aside card"
    if key == "face_up":
        return f"face up {_list(value)}"
    if key == "discards":
        piles = [f"{default_name(s)}: {_list(p)}" for s, p in enumerate(value) if p]
        return f"discard piles ({'; '.join(piles)})" if piles else "discard piles all empty"
    if key in ("out", "protected", "winners", "contenders", "pending", "left", "exits"):
        label = {
            "out": "out",
            "winners": "game winners",
            "left": "left the table",
            "exits": "gone out, in order,",
        }.get(key, key)
        return f"{label} {_seats(value) if value else 'none'}"
    if key == "order":
        return f"turn order {_seat_list(value)}" if value else "no turn order drawn"
    if key == "settings":
        if value is None:
            return "no table settings"
        return _settings_line(value).rstrip(".").replace("Table settings: ", "table settings ")
    if key == "tokens":
        return f"{_counters(rules).lower()} ({_per_seat(value)})"
    if key == "sightings":
        if not value:
            return "nothing shown to them"
        # the viewer of a view's sightings is its player: not worth saying
        return "shown " + ", ".join(_sighting(s, player) for s in value)
    if key == "legal_commands":
        return f"legal commands ({_commands(value)})" if value else "no legal commands"
    if key == "deck_bottom":
        if not value:
            return "nothing known of the deck's bottom"
        known = ", ".join("an unknown card" if c is None else _the(c) for c in value)
        return f"the bottom of the deck as they know it (top first: {known})"
    if key == "marks":
        bets = "; ".join(f"{default_name(p)} on {default_name(m)}" for p, m in value)
        return f"Jester bets {bets or 'none'}"
    if key == "round_result":
        return _round_result(value, rules).rstrip(".").lower()
    if key == "required":
        return f"Sycophant requirement {'none' if value is None else default_name(value)}"
    if key == "current":
        return f"{_possessive(value)} turn"
    if key == "decision":
        return f"waiting for {_WAITING.get(value, value)}"
    noun = _VIEW_NOUNS.get(key, key.replace("_", " "))
    return f"{noun} {value if not isinstance(value, list | dict) else json.dumps(value)}"


def _sighting(data: Mapping[str, JSON], viewer: int | None = None) -> str:
    """``Player 2 saw Player 0's Chancellor (via the Priest, turn 3)``, or
    without "Player 2 saw" when it is ``viewer``; a check may list only
    some keys."""
    owner = data.get("owner")
    card = data.get("card")
    what = (
        f"{_possessive(owner)} {card_name(_card(card)) if card else 'card'}"
        if owner is not None
        else (_the(card) if card else "a card")
    )
    shown_to = data.get("viewer", viewer)
    text = f"{default_name(shown_to)} saw {what}" if shown_to != viewer else what
    details = []
    if "via" in data:
        details.append(f"via {_the(data['via'])}")
    if "turn" in data:
        details.append(f"turn {data['turn']}")
    return text + (f" ({', '.join(details)})" if details else "")


def _commands(items: Sequence[JSON]) -> str:
    texts = []
    for item in items:
        try:
            texts.append(format_command(from_data(item, Command)))
        except SerializationError:
            texts.append(json.dumps(item))
    return "; ".join(texts)


# --------------------------------------------------------------------------
# words


def _card(name: JSON) -> Card:
    return name if isinstance(name, Card) else Card.parse(name)


def _the(name: JSON) -> str:
    try:
        return f"the {card_name(_card(name))}"
    except (ValueError, TypeError):
        return str(name)


def _guess(guess: JSON) -> str:
    """A Guard's or a Bishop's guess: a card (2019) or a number (Premium)."""
    if isinstance(guess, int) and not isinstance(guess, Card):
        return str(guess)
    return _the(guess)


def _list(cards: Iterable[JSON]) -> str:
    names = [_the(card) for card in cards]
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _seats(seats: Iterable[int]) -> str:
    names = [default_name(seat) for seat in seats]
    if not names:
        return "no one"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _seat_list(seats: Iterable[int]) -> str:
    return ", ".join(default_name(seat) for seat in seats)


def _possessive(seat: int) -> str:
    return f"{default_name(seat)}'s"


def _per_seat(values: Sequence[JSON]) -> str:
    return ", ".join(f"{default_name(seat)}: {value}" for seat, value in enumerate(values))


def _tokens(values: Sequence[int]) -> str:
    return ", ".join(f"{default_name(seat)} has {n}" for seat, n in enumerate(values))


def _are(seats: Sequence[int], what: str, nobody: str) -> str:
    if not seats:
        return nobody
    return f"{_seats(seats)} {'is' if len(seats) == 1 else 'are'} {what}."


def _s(count: int) -> str:
    return "" if count == 1 else "s"
