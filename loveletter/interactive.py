"""``loveletter play``: a person against random bots, from a terminal.

The person sits at one seat and is a player like any other: they are shown
their :class:`~loveletter.PlayerView` (never the state) and choose among
``view.legal_commands``, so they can neither see nor do more than the rules
allow. The other seats are :class:`~loveletter.bots.RandomBot` players, or
the bots ``--bots`` names (:func:`~loveletter.bots.make_bot`).

Each decision is asked as a few short numbered menus, one question at a
time: for a card play, the card, then whom it chooses (and a second player
for the cards that choose two), then what it names. A question with one
possible answer is not asked (the answer is said). At any prompt ``b`` goes
back a question, ``q`` quits, ``?`` (or ``help``) lists the help's topics
in a few lines and ``? TOPIC`` shows one: how to answer, the notation,
every card, one card (``? Guard`` or ``? 1``), the edition in brief and
each part of its rules, scoring; the rules' text is the spec's. A whole
move may be typed in the command notation (:mod:`loveletter.notation`,
e.g. ``P0 Guard on P2 naming Priest``) instead of a number; a move the
rules do not allow now is refused with the reason.

A move that certainly knocks its own player out (:func:`self_knockout`:
playing or discarding the Princess, or a comparison the visible cards
show cannot be won) is marked in the menus and asked again ("Really? y/N",
no by default) unless every move does. A card that can choose no one
(every other player protected or out) is marked as having no effect, and
a Prince that can choose only its own player says so.

Before each decision the screen shows what the player knows: round, turn,
whose move, the deck, every discard pile in order, who is protected or out,
tokens, the Premium marks and requirements, what they have been shown (a
card seen in the hand of a player since gone out marked "(out)"), the cards
they put under the deck, and their hand. Tokens are named as the edition
names them (:meth:`~loveletter.rulesets.Ruleset.tokens`). Each round's end
is shown with its result and waits for Enter. Seats are numbered from 0
throughout ("Player 0", ``P0``, ``--seat 0``), as everywhere in this
package.

Input that is not a terminal (a script, a test) is echoed after each
prompt, so a transcript reads like a session. A line longer than any answer
(:data:`MAX_LINE` characters) is refused with a word and skipped.

An online match (``--ruleset online``) has no end of its own: it is played
round after round until a rounds limit (``rounds``), until the person quits,
or until they leave the match with ``l`` at any prompt (a ``Leave`` in the
record: out of the round, dealt into no later one). Its screens show win
counters instead of tokens, the round's turn order, who went out in which
order and who left; each round's end shows the ranks and the scoreboard of
every round so far. The Baroness is asked as two players (the same one
twice allowed) and the Cardinal as an ordered pair: the player chosen first
is the one whose new card its player sees.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

import attrs

from loveletter.cards import Card
from loveletter.cards.base import Choice
from loveletter.chance import fresh_seed
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
)
from loveletter.errors import ArgumentError, NotationError
from loveletter.events import Event, GameEnded, RoundEnded
from loveletter.narrative import Narrator, card_name, default_name, describe_command
from loveletter.notation import format_command, parse_command
from loveletter.records import GameRecord, save_record
from loveletter.rulesets import GameTie, Ruleset, get_ruleset
from loveletter.simulation import random_bots, seated_bots
from loveletter.spec import Spec, load_spec
from loveletter.state import Decision, Sighting, TableSettings
from loveletter.views import PlayerView, events_for, view

__all__ = [
    "HumanPlayer",
    "LeaveMatch",
    "Quit",
    "card_help",
    "card_statements",
    "play",
    "self_knockout",
]

#: the width help text is wrapped to
WIDTH = 78


class Quit(Exception):
    """The person left the game (``q``, or the end of the input)."""


class LeaveMatch(Exception):
    """The person chose to leave an online match (``l``): the game loop
    answers with the seat's ``Leave`` command."""


class _Back(Exception):
    """The person asked to go back to the previous question."""


@attrs.frozen
class Option:
    """One answer of a menu: its label and the legal commands it leaves."""

    key: object
    label: str
    commands: tuple[Command, ...]


@attrs.frozen
class Question:
    """One menu: what is asked, what it is about (said when there is only
    one answer and it is not asked), and the answers."""

    text: str
    topic: str
    options: tuple[Option, ...]
    #: what is said instead of "topic: answer (the only choice)" when there
    #: is one answer (a card with no effect, a Prince only on yourself)
    alone: str = ""


#: a question of a decision: given the commands still possible and the keys
#: of the answers so far, the next menu, or ``None`` when it does not apply
Step = Callable[[tuple[Command, ...], list[object]], Question | None]

_QUIT = ("q", "quit", "exit")
_BACK = ("b", "back")
_LEAVE = ("l", "leave")
#: a typed line that means to be a move in the notation
_MOVE_LIKE = re.compile(r"\s*(p\s*\d|deal\b)", re.IGNORECASE)
#: a menu's number: ASCII digits only (``str.isdigit`` also takes ``²``,
#: which ``int`` refuses)
_NUMBER = re.compile(r"[0-9]+")
#: the longest line a prompt reads: an answer is a number, a letter or one
#: move in the notation, all far shorter; a longer line is refused and skipped
MAX_LINE = 1000
#: how much of a longer line is skipped, looking for its end, before the
#: input is taken for something that is not a person's answers (``/dev/zero``)
#: and the game stops as at the end of the input
MAX_SKIP = 64 * 1024 * 1024
#: a parenthesis of the spec that only cites other rules by ID
_CITATION = re.compile(
    r" ?\((?:in Premium )?[a-z-]+\.[a-z0-9-]+(?:[;,] (?:in Premium )?[a-z-]+\.[a-z0-9-]+)*\)"
)


# --------------------------------------------------------------------------
# the cards' help, from the spec


@functools.cache
def _spec() -> Spec:
    return load_spec()


def _topic(card: Card) -> str:
    """The spec's topic for a card: ``dowager-queen`` for the Dowager Queen."""
    return card.name.lower().replace("_", "-")


def _statements(ruleset: str | Ruleset, topic: str) -> list[str]:
    """The spec's statements of one topic's rules in ``ruleset``'s edition,
    in the spec's order, without the parentheses that only cite other rules
    by ID."""
    edition = get_ruleset(ruleset).name
    return [
        _CITATION.sub("", rule.statement)
        for rule in _spec().rules_for(edition)
        if rule.topic == topic
    ]


def _bullets(statements: Sequence[str]) -> list[str]:
    lines: list[str] = []
    for statement in statements:
        lines += textwrap.wrap(statement, WIDTH, initial_indent="  - ", subsequent_indent="    ")
    return lines


def card_statements(ruleset: str | Ruleset, card: Card) -> list[str]:
    """The spec's statements of ``card``'s rules in ``ruleset``'s edition,
    in the spec's order, without the parentheses that only cite other rules
    by ID."""
    return _statements(ruleset, _topic(card))


def card_help(ruleset: str | Ruleset, players: int, card: Card, decks: int = 1) -> list[str]:
    """A card's help: its value, its copies in the deck for ``players`` (and
    ``decks`` copies of the deck, online), and its rules as the spec states
    them, wrapped for a terminal."""
    rules = get_ruleset(ruleset)
    copies = rules.deck_for(players, decks).count(card)
    lines = [f"{card_name(card)} ({rules.value(card)}): {copies} in the deck"]
    return lines + _bullets(card_statements(rules, card))


def _parts(ruleset: Ruleset) -> dict[str, str]:
    """The spec's topics of ``ruleset``'s edition that are not cards (setup,
    turn, round, ...), in the spec's order, with their titles."""
    cards = {_topic(card) for card in Card}
    spec = _spec()
    found = dict.fromkeys(rule.topic for rule in spec.rules_for(ruleset.name))
    parts = [topic for topic in found if topic not in cards]
    # in the order a round is played; a topic the list does not know comes last
    parts.sort(key=lambda topic: _PART_ORDER.index(topic) if topic in _PART_ORDER else 99)
    return {topic: spec.topics[topic] for topic in parts}


#: the order ``? rules`` lists the spec's topics that are not cards in
_PART_ORDER = ("setup", "turn", "targeting", "out", "round", "game", "online")


def _by_value(rules: Ruleset, kinds: Sequence[Card]) -> list[Card]:
    return sorted(kinds, key=lambda card: (rules.value(card), int(card)))


#: the cards whose rules can give a token (online: a partial win) besides a
#: round won: the Spy (2019), the Bishop, the Constable and the Jester
_TOKEN_CARDS = (Card.SPY, Card.BISHOP, Card.CONSTABLE, Card.JESTER)


def _decks(view: PlayerView) -> int:
    return view.settings.decks if view.settings is not None else 1


# --------------------------------------------------------------------------
# what a move will do, as far as its player can tell


def self_knockout(
    view: PlayerView, command: Command, name: Callable[[int], str] = default_name
) -> str | None:
    """Why ``command`` certainly knocks its own player out of the round, in
    a sentence to them, or ``None`` when it may not.

    Certain by the rules: playing the Princess, a Prince on yourself beside
    her, a Bishop's redraw of her. Certain by the cards the player cannot
    see (:meth:`~loveletter.views.PlayerView.unseen_cards`; a sighting,
    which may be out of date, is not trusted): a Baron whose other card is
    lower than every card the other player may hold, a Dowager Queen whose
    other card is higher than every one, a Guard on a player who can hold
    only the Assassin. ``name`` names a seat.

    >>> from loveletter import PlayCard, new_game, view
    >>> first = view(new_game("2019", 2, seed=1), 0)
    >>> self_knockout(first, PlayCard(0, Card.PRINCESS))
    'Playing the Princess knocks you out of the round.'
    """
    if isinstance(command, Redraw) and Card.PRINCESS in view.hand:
        return "Discarding the Princess knocks you out of the round."
    if not isinstance(command, PlayCard):
        return None
    card = command.card
    if card is Card.PRINCESS:
        return "Playing the Princess knocks you out of the round."
    rest = list(view.hand)
    if card in rest:
        rest.remove(card)
    if card is Card.PRINCE and command.target == command.player and Card.PRINCESS in rest:
        return "The Prince on yourself discards your Princess, which knocks you out of the round."
    target = command.target
    if target is None or target == command.player or len(rest) != 1:
        return None
    if card not in (Card.BARON, Card.DOWAGER_QUEEN, Card.GUARD):
        return None
    held = set(view.unseen_cards())  # what the other player may hold
    if not held:
        return None
    rules = get_ruleset(view.ruleset)
    mine = rest[0]
    worth = rules.value(mine)
    if card is Card.BARON and all(rules.value(c) > worth for c in held):
        return (
            f"Your {card_name(mine)} ({worth}) is lower than any card {name(target)} can hold:"
            " the Baron knocks you out of the round."
        )
    if card is Card.DOWAGER_QUEEN and all(rules.value(c) < worth for c in held):
        return (
            f"Your {card_name(mine)} ({worth}) is higher than any card {name(target)} can hold:"
            " the Dowager Queen knocks you out of the round."
        )
    if card is Card.GUARD and held == {Card.ASSASSIN}:
        return (
            f"{name(target)} can hold only the Assassin: a Guard that chooses its holder"
            " knocks you out of the round."
        )
    return None


def _no_one_else(view: PlayerView, name: Callable[[int], str], *, no_effect: bool) -> str:
    """Why a card can choose no one (``no_effect``) or only its own player."""
    others = [
        seat
        for seat in range(view.players)
        if seat != view.player and seat not in view.out and seat not in view.protected
    ]
    if not others or view.required is None:
        return "every other player is protected or out of the round"
    whom = "yourself" if view.required == view.player else name(view.required)
    if no_effect:
        return f"a Sycophant requires it to choose {whom}, and it cannot"
    return f"a Sycophant requires it to choose {whom}"


#: the online Baroness and Cardinal, which choose two players in their own way
_ONLINE_PAIRS = (
    "Online, the Baroness looks at two hands (the same one twice if you like) and the"
    " Cardinal swaps two hands in the order you choose them: you then see the new card"
    " of the player you chose first."
)


def _wrap(text: str) -> list[str]:
    """A help line wrapped for a terminal, an indented line kept as it is."""
    return [text] if text.startswith(" ") else textwrap.wrap(text, WIDTH)


def _find_cards(text: str, kinds: Sequence[Card], rules: Ruleset) -> list[Card]:
    """The cards ``? TEXT`` asks about: a card's name (any case, with or
    without spaces) or a value (every card of the deck that carries it)."""
    wanted = "".join(text.lower().split())
    if re.fullmatch(r"-?[0-9]+", wanted):
        return [card for card in kinds if rules.value(card) == int(wanted)]
    return [card for card in kinds if "".join(card_name(card).lower().split()) == wanted]


# --------------------------------------------------------------------------
# the human player


class HumanPlayer:
    """A seat driven from a terminal (or any text stream).

    An :class:`~loveletter.bots.Agent`: ``choose(view)`` shows the view and
    asks for a move in short menus built from ``view.legal_commands`` only.
    It is asked whenever its seat must act, which includes answering a
    Bishop's redraw offer during another player's turn. ``q`` or the end of
    the input raises :class:`Quit`.
    """

    def __init__(self, names: Sequence[str], stdin: TextIO, stdout: TextIO) -> None:
        self.names = tuple(names)
        self.stdin = stdin
        self.stdout = stdout

    # ------------------------------------------------------------------
    # output

    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else default_name(seat)

    def _say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def _whom(self, view: PlayerView, seat: int) -> str:
        return "you" if seat == view.player else self._name(seat)

    def _seat_label(self, view: PlayerView, seat: int) -> str:
        return f"yourself ({self._name(seat)})" if seat == view.player else self._name(seat)

    def show(self, view: PlayerView) -> None:
        """What the player knows right now, before they choose."""
        rules = get_ruleset(view.ruleset)
        self._say()
        if view.decision is Decision.REDRAW:
            moment = f"{self._name(view.current)}'s Bishop named your number"
        elif view.decision is Decision.LOOK:
            moment = "your Cardinal's look"
        elif view.decision is Decision.CHANCELLOR:
            moment = "your Chancellor"
        else:
            moment = "your move"
        self._say(
            f"--- Round {view.round_number}, turn {view.turn_number}:"
            f" {moment}, {self._name(view.player)} ---"
        )
        if _online(view):
            self._say(
                f"Pile: {view.deck_size} cards; the round ends after a turn that leaves one"
                " or none. Each round ranks the players: rank 1 and partial wins add to the"
                " win counters, and the match has no end of its own."
            )
            order = ", ".join(
                "you" if seat == view.player else self._name(seat) for seat in view.order
            )
            self._say(f"Turn order this round: {order}.")
            if view.exits:
                gone = ", ".join(
                    "you" if seat == view.player else self._name(seat) for seat in view.exits
                )
                self._say(f"Out of this round, in the order they went out: {gone}.")
        else:
            aside = ", plus one set aside face down" if view.set_aside_present else ""
            goal = rules.tokens_to_win(view.players)
            self._say(
                f"Deck: {view.deck_size} cards{aside}."
                + (f" The first to {rules.tokens(goal)} wins." if goal is not None else "")
            )
        if view.face_up:
            self._say(f"Face up, out of play: {', '.join(map(card_name, view.face_up))}.")
        if view.contenders:
            tied = ", ".join(map(self._name, view.contenders))
            self._say(
                f"Tie-break round between {tied}: the first of them to gain"
                f" a {rules.token_names[0]} wins the game."
            )
        for line in self.table(view):
            self._say(line)
        for player, marked in view.marks:
            bet = "rank first" if _online(view) else "win"
            self._say(
                f"Jester: {self._name(player)} bets on {self._whom(view, marked)}"
                f" to {bet} this round."
            )
        if view.required is not None and view.decision is Decision.PLAY:
            self._say(
                "Sycophant: the next card played, if it chooses players, must choose"
                f" {self._whom(view, view.required)}."
            )
        for seen in view.sightings:
            self._say(self._sighting(view, seen))
        if view.deck_bottom:
            bottom = ", ".join(
                "?" if card is None else card_name(card) for card in view.deck_bottom
            )
            unknown = " (? is a card someone else put there)" if None in view.deck_bottom else ""
            self._say(
                f"Under the deck, from your Chancellor (the last is the bottom card): {bottom}"
                f"{unknown}."
            )
        hand = ", ".join(f"{card_name(card)} ({rules.value(card)})" for card in view.hand)
        self._say(f"Your hand: {hand}.")
        if view.decision is Decision.CHANCELLOR:
            self._say("Keep one card; the others go to the bottom of the deck, in your order.")
        elif view.decision is Decision.LOOK:
            others = [self._name(seat) + "'s" for seat in view.pending if seat != view.player]
            if view.player in view.pending:
                swapped = f"your hand with {' and '.join(others)}"
            else:
                swapped = f"{' and '.join(others)} hands"
            self._say(f"Your Cardinal swapped {swapped}: you may look at one of them.")
        elif view.decision is Decision.REDRAW:
            self._say(
                "You may discard your card without its effect and draw a new one, or keep it."
            )

    def table(self, view: PlayerView) -> list[str]:
        """Each player's tokens and discard pile (oldest first), marked when
        out of the round or protected."""
        rows = []
        online = _online(view)
        rules = get_ruleset(view.ruleset)
        for seat, pile in enumerate(view.discards):
            name = self._name(seat) + (" (you)" if seat == view.player else "")
            tokens = rules.tokens(view.tokens[seat])
            marks = []
            if seat in view.left:
                marks.append("left the match")
            elif view.contenders and seat not in view.contenders:
                marks.append("sits out the tie-break")
            elif seat in view.out:
                marks.append("out of the round")
            if seat in view.protected:
                marks.append("protected")
            status = f"  [{', '.join(marks)}]" if marks else ""
            rows.append((name, tokens, (", ".join(map(card_name, pile)) or "-") + status))
        widths = [max(len(row[col]) for row in rows) for col in range(2)]
        counted = "win counters" if online else rules.token_names[1]
        lines = [f"Players: {counted}, and discard piles (oldest first):"]
        for name, tokens, shown in rows:
            lines.append(f"  {name.ljust(widths[0])}  {tokens.ljust(widths[1])}  {shown}")
        return lines

    def _sighting(self, view: PlayerView, seen: Sighting) -> str:
        # A sighting may be stale (the card since played or traded), so each
        # says when and how it was learned; the view cannot tell a card since
        # played, but it tells who has gone out, their hand on their pile.
        owner = self._name(seen.owner)
        card = card_name(seen.card)
        out = " (out)" if seen.owner in view.out else ""
        if seen.via is Card.KING:
            return f"Seen on turn {seen.turn} in a King trade: {owner}{out} got your {card}."
        if seen.via in (Card.BARON, Card.DOWAGER_QUEEN):
            how = f"in a {card_name(seen.via)} comparison"
        elif seen.via is Card.CARDINAL:
            how = "through a Cardinal"
        else:
            how = f"with your {card_name(seen.via)}"
        return f"Seen on turn {seen.turn} {how}: {owner}{out} had the {card}."

    # ------------------------------------------------------------------
    # help

    def help(self, view: PlayerView, about: str = "") -> None:
        """``?``: the help's topics, in a few lines; ``? TOPIC``: one of
        them (``commands``, ``notation``, ``cards``, ``rules``, ``scoring``,
        a part of the rules such as ``round``), or a card by name or value
        (``? Guard``, ``? 1``)."""
        rules = get_ruleset(view.ruleset)
        topic = " ".join(about.lower().split())
        parts = _parts(rules)
        topics: dict[str, Callable[[PlayerView], list[str]]] = {
            "commands": self._help_commands,
            "keys": self._help_commands,
            "notation": self._help_notation,
            "cards": self._help_cards,
            "rules": self._help_rules,
            "scoring": self._help_scoring,
        }
        if not topic:
            lines = self._help_topics(view)
        elif topic in topics:
            lines = topics[topic](view)
        elif topic in parts:
            lines = [f"{parts[topic]}:", *_bullets(_statements(rules, topic))]
        else:
            kinds = rules.setup(view.players, _decks(view)).kinds
            cards = _find_cards(about, kinds, rules)
            if not cards:
                names = ", ".join(map(card_name, _by_value(rules, kinds)))
                self._say(
                    f"No help topic or card {about!r} in this game (? lists the topics)."
                    f" Its cards: {names}."
                )
                return
            lines = []
            for card in cards:
                lines += ["", *self._card_lines(view, card)]
            lines = lines[1:]
        self._say()
        for line in lines:
            self._say(line)

    def _help_topics(self, view: PlayerView) -> list[str]:
        rules = get_ruleset(view.ruleset)
        guard = rules.value(Card.GUARD)
        keys = "a number, b to go back, q to quit" + (", l to leave" if _online(view) else "")
        scoring = (
            "how a round ranks the players and the win counters count"
            if _online(view)
            else f"how a round and the game are won ({rules.token_names[1]})"
        )
        return [
            "Help topics: type ? and a topic, such as ? cards (or help cards).",
            f"  ? commands   how to answer: {keys}",
            "  ? notation   typing a whole move instead of a number",
            "  ? cards      every card of this game and its rules",
            f"  ? Guard      one card, by its name; ? {guard}: the cards worth {guard}",
            "  ? rules      this edition in brief, and its rules part by part",
            f"  ? scoring    {scoring}",
        ]

    def _help_commands(self, view: PlayerView) -> list[str]:
        return [
            "How to answer: each question is a short numbered menu; type a number and Enter.",
            "  b          go back to the previous question",
            *(
                ["  l          leave the match: out of this round, dealt into no later one"]
                if _online(view)
                else []
            ),
            "  q          quit the game",
            "  ?          the help's topics;  ? TOPIC (? cards, ? rules): one of them",
            "  ? CARD     one card's help (? Guard), or ? NUMBER (? 1) the cards worth it",
            "A move that surely knocks you out is asked again: answer y to make it.",
            "Instead of a number you may type a whole move: ? notation.",
        ]

    def _help_notation(self, view: PlayerView) -> list[str]:
        me = f"P{view.player}"
        example = (
            format_command(view.legal_commands[-1])
            if view.legal_commands
            else f"{me} Guard on P1 naming Priest"
        )
        return [
            "Instead of a number you may type a whole move in the move notation, for",
            f"example: {example}",
            f"Seats are numbered from 0: you are {self._name(view.player)}, written {me}.",
            "Only a move the rules allow now is accepted; any other is refused, with why.",
        ]

    def _help_cards(self, view: PlayerView) -> list[str]:
        rules = get_ruleset(view.ruleset)
        setup = rules.setup(view.players, _decks(view))
        lines = _wrap(
            f"The cards of {rules.title} with {view.players} players"
            f" ({len(setup.deck)} cards), by value:"
        )
        if _online(view):
            lines += textwrap.wrap(_ONLINE_PAIRS, WIDTH)
        for card in _by_value(rules, setup.kinds):
            lines += card_help(rules, view.players, card, _decks(view))
        return lines

    def _card_lines(self, view: PlayerView, card: Card) -> list[str]:
        rules = get_ruleset(view.ruleset)
        lines = card_help(rules, view.players, card, _decks(view))
        if _online(view) and card in (Card.BARONESS, Card.CARDINAL):
            lines += textwrap.wrap(
                _ONLINE_PAIRS, WIDTH, initial_indent="  ", subsequent_indent="  "
            )
        return lines

    def _help_rules(self, view: PlayerView) -> list[str]:
        rules = get_ruleset(view.ruleset)
        setup = rules.setup(view.players, _decks(view))
        worths = [rules.value(card) for card in setup.kinds]
        decks = _decks(view)
        copies = f", {decks} decks" if decks > 1 else ""
        lines = [
            f"{rules.title}, {view.players} players{copies}: {len(setup.deck)} cards of"
            f" {len(setup.kinds)} kinds, worth {min(worths)} to {max(worths)}.",
        ]
        if rules.sets_aside:
            face_up = f", {setup.face_up} more face up" if setup.face_up else ""
            lines.append(
                f"Each round the deck is shuffled, one card is set aside face down{face_up},"
                " and each player is dealt one card."
            )
        else:
            order = " and a new turn order drawn" if rules.draws_order else ""
            lines.append(
                f"Each round the deck is shuffled{order}; no card is set aside; each player is"
                " dealt one card."
            )
        lines.append(
            "On your turn you draw a card, then play one of your two cards and do what it says."
        )
        if rules.online_table:
            pile = "one card or none" if rules.round_end_pile == 1 else "no card"
            lines.append(
                "A round ends when one player is left in it, or after a turn that leaves"
                f" {pile} in the pile; then every player is ranked (? scoring)."
            )
        else:
            lines.append(
                "A round ends when one player is left in it, or after a turn that empties the"
                " deck; then the players still in compare their hands, the highest winning"
                " (ties and exceptions: ? round)."
            )
            goal = setup.tokens_to_win
            if goal is not None:
                lines.append(
                    f"The round's winners gain a {rules.token_names[0]}; the first to"
                    f" {rules.tokens(goal)} wins the game (? scoring)."
                )
        lines.append("Its rules part by part:")
        for topic, title in _parts(rules).items():
            lines.append(f"  ? {topic.ljust(11)}{title}")
        return [line for text in lines for line in _wrap(text)]

    def _help_scoring(self, view: PlayerView) -> list[str]:
        rules = get_ruleset(view.ruleset)
        setup = rules.setup(view.players, _decks(view))
        givers = [card_name(card) for card in _TOKEN_CARDS if card in setup.kinds]
        cards = f"{', '.join(givers[:-1])} and {givers[-1]}" if len(givers) > 1 else "".join(givers)
        goal = setup.tokens_to_win
        if rules.online_table or goal is None:
            lines = [
                "Each round ranks every player dealt into it; each rank-1 player adds a win to"
                " their win counter, kept from round to round.",
            ]
            if givers:
                lines.append(f"The {cards} can each add a partial win too (? and a card's name).")
            lines.append(
                "The match has no end of its own and no winner: it goes on until you stop it"
                " (q), or for the rounds asked (--rounds)."
            )
        else:
            together = (
                "play a tie-break round among themselves"
                if rules.game_tie is GameTie.TIE_BREAK_ROUND
                else "all win"
            )
            lines = [
                f"Each winner of a round gains a {rules.token_names[0]}. With {view.players}"
                f" players the first to {rules.tokens(goal)} wins the game; players who reach"
                f" it at the same moment {together}.",
            ]
            if givers:
                which = f"? {cards}" if len(givers) == 1 else "? and a card's name"
                lines.append(f"The {cards} can also give a {rules.token_names[0]} ({which}).")
        lines.append("In full: ? round, ? game.")
        return [line for text in lines for line in _wrap(text)]

    # ------------------------------------------------------------------
    # input

    def _read(self, prompt: str) -> str:
        while True:
            self.stdout.write(prompt)
            self.stdout.flush()
            # Bounded, so a line of millions of characters costs no more
            # memory than a short one and never reaches int().
            line = self.stdin.readline(MAX_LINE + 1)
            if not line:
                raise Quit
            echo = not self.stdin.isatty()
            if len(line) <= MAX_LINE or line.endswith("\n"):
                text = line.strip()
                if echo:
                    self._say(text)
                return text
            if echo:
                self._say()
            if not self._skip_line():
                self._say(f"A line of input runs past {MAX_SKIP:,} characters: it is no answer.")
                raise Quit
            self._say(f"That line is over {MAX_LINE} characters long: ignored.")

    def _skip_line(self) -> bool:
        """Read past the rest of a line too long to answer; ``False`` when
        it has no end within :data:`MAX_SKIP` characters."""
        skipped = 0
        while skipped < MAX_SKIP:
            chunk = self.stdin.readline(65536)
            if not chunk or chunk.endswith("\n"):
                return True
            skipped += len(chunk)
        return False

    def pause(self, view: PlayerView, prompt: str) -> None:
        """Wait for Enter (``?`` shows the help, ``q`` quits, online ``l``
        leaves the match)."""
        while True:
            text = self._read(f"{prompt} ({_keys(view)}): ")
            if text.lower() in _QUIT:
                raise Quit
            if text.lower() in _LEAVE and _online(view):
                self._leave()
                continue
            about = _help_request(text)
            if about is not None:
                self.help(view, about)
                continue
            return

    def _leave(self) -> None:
        """Ask before leaving an online match, which cannot be undone:
        raise :class:`LeaveMatch` on yes, return on anything else."""
        answer = self._read(
            "Leave the match for good? You are out of this round and dealt into no later one"
            " (y/n): "
        )
        if answer.lower() in ("y", "yes"):
            raise LeaveMatch
        self._say("You stay in the match.")

    # ------------------------------------------------------------------
    # deciding

    def choose(self, view: PlayerView) -> Command:
        """Show the view, then ask for one of ``view.legal_commands``."""
        self.show(view)
        return self.decide(view)

    def decide(self, view: PlayerView) -> Command:
        """Ask the decision's questions in turn; ``b`` goes back one. A move
        that certainly knocks the player out (:func:`self_knockout`) is made
        only once they confirm it, unless every move does; otherwise they
        choose again."""
        commands = tuple(view.legal_commands)
        if not commands:
            raise ValueError(f"player {view.player} has nothing to decide now")
        if len(commands) == 1:
            return self._confirm(view, commands[0])
        doomed = all(self._knockout(view, command) for command in commands)
        if doomed:
            self._say("Every move you can make knocks you out of the round.")
        while True:
            command = self._pick(view, commands)
            why = None if doomed else self._knockout(view, command)
            if why is None or self._really(view, why):
                return command
            self._say("Then choose again.")

    def _knockout(self, view: PlayerView, command: Command) -> str | None:
        return self_knockout(view, command, self._name)

    def _really(self, view: PlayerView, why: str) -> bool:
        """Ask before a move that knocks the player out; no by default."""
        self._say(why)
        while True:
            answer = self._read("Really make this move? (y/N): ").lower()
            if answer in _QUIT:
                raise Quit
            if answer in _LEAVE and _online(view):
                self._leave()
                continue
            return answer in ("y", "yes")

    def _pick(self, view: PlayerView, commands: tuple[Command, ...]) -> Command:
        """One pass through the decision's questions: the move chosen."""
        steps = self._steps(view)
        keys: list[object] = []
        #: (step index, commands before it, answers before it) of each question asked
        asked: list[tuple[int, tuple[Command, ...], int]] = []
        index = 0
        while index < len(steps):
            question = steps[index](commands, keys)
            if question is None:
                index += 1
                continue
            if len(question.options) == 1:
                only = question.options[0]
                self._say(question.alone or f"{question.topic}: {only.label} (the only choice).")
                keys.append(only.key)
                commands = only.commands
                index += 1
                continue
            try:
                answer = self._ask(view, question, back=bool(asked))
            except _Back:
                index, commands, count = asked.pop()
                del keys[count:]
                continue
            if isinstance(answer, Command):
                return answer
            asked.append((index, commands, len(keys)))
            keys.append(question.options[answer].key)
            commands = question.options[answer].commands
            index += 1
        if len(commands) != 1:  # the steps did not tell the commands apart
            question = Question(
                "Which move?",
                "Move",
                tuple(Option(c, self._describe(view, c), (c,)) for c in commands),
            )
            answer = self._ask(view, question, back=False)
            return answer if isinstance(answer, Command) else commands[answer]
        return commands[0]

    def _confirm(self, view: PlayerView, command: Command) -> Command:
        """The one possible move, made once the player has seen it."""
        self._say(
            f"Only one move is possible: {self._describe(view, command)}"
            f" [{format_command(command)}]."
        )
        if (
            isinstance(command, PlayCard)
            and command.target is None
            and get_ruleset(view.ruleset).choices[command.card] is not Choice.NONE
        ):
            reason = _no_one_else(view, self._name, no_effect=True)
            self._say(f"The {card_name(command.card)} has no effect: {reason}.")
        why = self._knockout(view, command)
        if why is not None:
            self._say(why)
        while True:
            text = self._read(f"Press Enter to make it ({_keys(view)}): ")
            low = text.lower()
            if low in _QUIT:
                raise Quit
            if low in _LEAVE and _online(view):
                self._leave()
                continue
            about = _help_request(text)
            if about is not None:
                self.help(view, about)
                continue
            if low in ("", "1", "y", "yes"):
                return command
            if _MOVE_LIKE.match(text):
                typed = self._typed_move(view, text)
                if typed is not None:
                    return typed
                continue
            self._say("Please press Enter to make the move, or q to quit.")

    def _ask(self, view: PlayerView, question: Question, *, back: bool) -> int | Command:
        """Print a menu and read an answer: the index of an option, or a
        legal command typed in the notation."""
        self._menu(question)
        count = len(question.options)
        extra = ", b to go back" if back else ""
        while True:
            text = self._read(f"Your choice (1-{count}{extra}, {_keys(view)}): ")
            low = text.lower()
            if low in _QUIT:
                raise Quit
            if low in _LEAVE and _online(view):
                self._leave()
                continue
            if back and low in _BACK:
                raise _Back
            about = _help_request(text)
            if about is not None:
                self.help(view, about)
                self._menu(question)
                continue
            if _NUMBER.fullmatch(text) and 1 <= int(text) <= count:
                return int(text) - 1
            if _MOVE_LIKE.match(text):
                typed = self._typed_move(view, text)
                if typed is not None:
                    return typed
                continue
            self._say(
                f"Please enter 1 to {count}{extra}, {_keys(view)}, or a whole move"
                f" (such as {format_command(question.options[0].commands[0])})."
            )

    def _menu(self, question: Question) -> None:
        self._say(question.text)
        labels = [option.label for option in question.options]
        width = max(map(len, labels))
        for number, option in enumerate(question.options, 1):
            line = f"  {number:>2}. {option.label}"
            if len(option.commands) == 1:
                line = f"{line.ljust(width + 6)}   {format_command(option.commands[0])}"
            self._say(line)

    def _typed_move(self, view: PlayerView, text: str) -> Command | None:
        """A move typed in the notation, if it is legal now; otherwise say
        why not and return ``None``."""
        try:
            command = parse_command(text)
        except NotationError as error:
            self._say(f"That is not a move in the notation: {error}")
            return None
        for legal in view.legal_commands:
            if legal == command:
                return legal
        self._say(f"{format_command(command)}: not allowed now, {self._why_not(view, command)}.")
        return None

    def _why_not(self, view: PlayerView, command: Command) -> str:
        """Why a well-formed ``command`` is not among ``view.legal_commands``."""
        me = f"P{view.player}"
        player = getattr(command, "player", None)
        if player is None:
            return "dealing is not a player's move"
        if player != view.player:
            return f"you are {me}, not P{player}"
        legal = [c for c in view.legal_commands if type(c) is type(command)]
        if not legal:
            wanted = sorted({type(c).__name__ for c in view.legal_commands})
            return f"the game waits for a {' or '.join(_KINDS.get(w, w) for w in wanted)}"
        if isinstance(command, PlayCard):
            return self._why_not_play(view, command)
        if isinstance(command, KeepCard):
            if command.keep not in view.hand:
                return f"you do not hold the {card_name(command.keep)}"
            rest = list(view.hand)
            rest.remove(command.keep)
            others = " and ".join(card_name(card) for card in rest)
            return f"keeping the {card_name(command.keep)}, put the {others} under the deck"
        if isinstance(command, LookAtHand):
            owners = ", ".join(f"P{c.owner}" for c in legal if isinstance(c, LookAtHand))
            return f"you may look only at the hand of {owners}"
        return "that is not one of your choices now"

    def _why_not_play(self, view: PlayerView, command: PlayCard) -> str:
        card = card_name(command.card)
        if command.card not in view.hand:
            return f"you do not hold the {card}"
        mine = [
            c for c in view.legal_commands if isinstance(c, PlayCard) and c.card is command.card
        ]
        if not mine:
            playable = sorted(
                {c.card for c in view.legal_commands if isinstance(c, PlayCard)}, key=int
            )
            return f"the rules let you play only the {' or the '.join(map(card_name, playable))}"
        targets = {c.target for c in mine}
        if command.target not in targets:
            if targets == {None}:
                return f"no one can be chosen with the {card} now: it chooses no one"
            seats = sorted({s for c in mine for s in (c.target, c.second_target) if s is not None})
            return f"the {card} can choose only {', '.join(f'P{s}' for s in seats)}"
        chosen = [c for c in mine if c.target == command.target]
        seconds = {c.second_target for c in chosen}
        if command.second_target not in seconds:
            if seconds == {None}:
                return f"the {card} chooses only one player here"
            options = ", ".join(f"P{s}" for s in sorted(s for s in seconds if s is not None))
            return f"with P{command.target}, the {card} can also choose {options}"
        names = [c.guess for c in chosen if c.second_target == command.second_target]
        if command.guess not in names or None in names:
            if names == [None]:
                return f"the {card} names nothing"
            listed = ", ".join(
                card_name(n) if isinstance(n, Card) else str(n) for n in names if n is not None
            )
            return f"the {card} can name only {listed}"
        return "that combination is not one of your choices now"

    def _describe(self, view: PlayerView, command: Command) -> str:
        rules = get_ruleset(view.ruleset)
        kinds = rules.setup(view.players).kinds

        def numbers(number: int) -> list[Card]:
            return [card for card in kinds if rules.value(card) == number]

        return describe_command(
            command, self._name, decision=view.decision, numbers=numbers, ruleset=rules
        )

    # ------------------------------------------------------------------
    # the questions of each decision

    def _steps(self, view: PlayerView) -> list[Step]:
        if view.decision is Decision.PLAY:
            return [
                functools.partial(self._card_step, view),
                functools.partial(self._target_step, view),
                functools.partial(self._second_step, view),
                functools.partial(self._guess_step, view),
            ]
        if view.decision is Decision.CHANCELLOR:
            return [
                functools.partial(self._keep_step, view),
                functools.partial(self._order_step, view),
            ]
        return [functools.partial(self._one_step, view)]

    @staticmethod
    def _group(
        commands: tuple[Command, ...], key: Callable[[Command], object]
    ) -> dict[object, tuple[Command, ...]]:
        groups: dict[object, list[Command]] = {}
        for command in commands:
            groups.setdefault(key(command), []).append(command)
        return {k: tuple(v) for k, v in groups.items()}

    def _card_step(
        self, view: PlayerView, commands: tuple[Command, ...], keys: list[object]
    ) -> Question:
        rules = get_ruleset(view.ruleset)
        groups = self._group(commands, lambda c: c.card if isinstance(c, PlayCard) else c)
        options = []
        for card, group in groups.items():
            if not isinstance(card, Card):
                options.append(Option(card, str(card), group))
                continue
            label = f"{card_name(card)} ({rules.value(card)})"
            note = self._card_note(view, card, group)
            options.append(Option(card, f"{label}: {note}" if note else label, group))
        return Question("Which card will you play?", "Card", tuple(options))

    def _card_note(self, view: PlayerView, card: Card, group: tuple[Command, ...]) -> str:
        """What the card menu says beside a card: that playing it knocks
        the player out, has no effect, or can choose only the player."""
        if all(self._knockout(view, command) for command in group):
            return "knocks you out"
        plays = self._plays(group)
        if get_ruleset(view.ruleset).choices[card] is Choice.NONE or not plays:
            return ""
        if all(c.target is None for c in plays):
            return f"no effect, {_no_one_else(view, self._name, no_effect=True)}"
        if all(view.player in (c.target, c.second_target) for c in plays) and all(
            c.second_target is None for c in plays
        ):
            return f"only on yourself, {_no_one_else(view, self._name, no_effect=False)}"
        return ""

    @staticmethod
    def _plays(commands: tuple[Command, ...]) -> list[PlayCard]:
        return [c for c in commands if isinstance(c, PlayCard)]

    def _chooses_two(self, commands: tuple[Command, ...]) -> bool:
        return any(c.second_target is not None for c in self._plays(commands))

    def _target_step(
        self, view: PlayerView, commands: tuple[Command, ...], keys: list[object]
    ) -> Question | None:
        plays = self._plays(commands)
        if not plays:
            return None
        card = plays[0].card
        rules = get_ruleset(view.ruleset)
        if all(c.target is None for c in plays) and rules.choices[card] is Choice.NONE:
            return None  # the card chooses no one (Handmaid, Countess, ...)
        nobody = f"no one: no player can be chosen, so the {card_name(card)} has no effect"
        alone = ""
        if all(c.target is None for c in plays):
            reason = _no_one_else(view, self._name, no_effect=True)
            alone = f"The {card_name(card)} will have no effect: {reason}."
        elif all(c.target == view.player and c.second_target is None for c in plays):
            reason = _no_one_else(view, self._name, no_effect=False)
            alone = f"The {card_name(card)} can choose only yourself: {reason}."
        options: list[Option] = []
        if rules.choices[card] is Choice.ORDERED_PAIR and self._chooses_two(commands):
            # online Cardinal (ruling 48): the order counts, the first is seen
            for target, chosen in self._group(commands, _target).items():
                options.append(Option(target, self._seat_label(view, _seat(target)), chosen))
            text = (
                f"Whom does the {card_name(card)} choose first? (After the swap you see that"
                " player's new card.)"
            )
        elif self._chooses_two(commands):
            # Either player may be named first; the command lists them in order.
            seats = sorted({s for c in plays for s in (c.target, c.second_target) if s is not None})
            for seat in seats:
                group = tuple(c for c in plays if seat in (c.target, c.second_target))
                options.append(Option(seat, self._seat_label(view, seat), group))
            text = f"Whom does the {card_name(card)} choose first?"
        else:
            for target, chosen in self._group(commands, _target).items():
                label = nobody if target is None else self._seat_label(view, _seat(target))
                if all(self._knockout(view, command) for command in chosen):
                    label += ": knocks you out"
                options.append(Option(target, label, chosen))
            text = f"Whom does the {card_name(card)} choose?"
        return Question(text, "Player", tuple(options), alone)

    def _second_step(
        self, view: PlayerView, commands: tuple[Command, ...], keys: list[object]
    ) -> Question | None:
        plays = self._plays(commands)
        if not plays or not self._chooses_two(commands) or not keys:
            return None
        first = keys[-1]
        card = plays[0].card
        ordered = get_ruleset(view.ruleset).choices[card] is Choice.ORDERED_PAIR

        def other(command: Command) -> int | None:
            assert isinstance(command, PlayCard)
            if ordered:
                return command.second_target
            return command.second_target if command.target == first else command.target

        options = []
        groups = self._group(commands, other)
        for seat, group in sorted(groups.items(), key=lambda item: (item[0] is None, item[0])):
            if seat is None:
                label = f"no one else (only {self._name(_seat(first))})"
            elif seat == first:  # online Baroness: the same hand twice
                label = f"{self._seat_label(view, _seat(seat))} again (that hand twice)"
            else:
                label = self._seat_label(view, _seat(seat))
            options.append(Option(seat, label, group))
        text = f"And whom does the {card_name(card)} choose second?"
        if ordered:
            text = f"And whose hand does the {card_name(card)} swap with theirs?"
        return Question(text, "Second player", tuple(options))

    def _guess_step(
        self, view: PlayerView, commands: tuple[Command, ...], keys: list[object]
    ) -> Question | None:
        plays = self._plays(commands)
        if not plays or all(c.guess is None for c in plays):
            return None
        rules = get_ruleset(view.ruleset)
        kinds = rules.setup(view.players).kinds
        options = []
        for guess, group in self._group(commands, _guess).items():
            if isinstance(guess, Card):
                label = f"{card_name(guess)} ({rules.value(guess)})"
            elif isinstance(guess, int):
                cards = [card_name(c) for c in kinds if rules.value(c) == guess]
                label = f"{guess}: {', '.join(cards)}" if cards else str(guess)
            else:
                label = "nothing"
            options.append(Option(guess, label, group))
        what = "number" if rules.names_numbers else "card"
        return Question(
            f"Which {what} does the {card_name(plays[0].card)} name?", what.title(), tuple(options)
        )

    def _keep_step(
        self, view: PlayerView, commands: tuple[Command, ...], keys: list[object]
    ) -> Question:
        rules = get_ruleset(view.ruleset)
        options = tuple(
            Option(card, f"{card_name(card)} ({rules.value(card)})", group)
            for card, group in self._group(commands, _kept).items()
            if isinstance(card, Card)
        )
        return Question("Which card will you keep?", "Keep", options)

    def _order_step(
        self, view: PlayerView, commands: tuple[Command, ...], keys: list[object]
    ) -> Question:
        options = []
        for order, group in self._group(commands, _bottom).items():
            assert isinstance(order, tuple)
            if len(order) == 1:
                label = f"the {card_name(order[0])}"
            else:
                first = ", then ".join(f"the {card_name(card)}" for card in order)
                label = f"{first} (the {card_name(order[-1])} ends at the bottom)"
            options.append(Option(order, label, group))
        return Question(
            "In which order do the others go under the deck?", "Under the deck", tuple(options)
        )

    def _one_step(
        self, view: PlayerView, commands: tuple[Command, ...], keys: list[object]
    ) -> Question:
        options = tuple(Option(c, self._describe(view, c), (c,)) for c in commands)
        if view.decision is Decision.LOOK:
            text = "Look at which hand?"
        elif view.decision is Decision.REDRAW:
            text = "Redraw, or keep your card?"
        else:
            text = "What will you do?"
        return Question(text, "Move", options)


def _online(view: PlayerView) -> bool:
    """Whether the view is of an online match (it has table settings)."""
    return view.settings is not None


def _help_request(text: str) -> str | None:
    """The topic asked by ``?``, ``? TOPIC``, ``help`` or ``help TOPIC``
    (empty for the list of topics); ``None`` when the text asks no help."""
    if text.startswith("?"):
        return text[1:].strip()
    word, _, rest = text.partition(" ")
    return rest.strip() if word.lower() == "help" else None


def _keys(view: PlayerView) -> str:
    """The keys every prompt offers besides its answers."""
    return "? for help, l to leave, q to quit" if _online(view) else "? for help, q to quit"


def _seat(value: object) -> int:
    assert isinstance(value, int)
    return value


def _target(command: Command) -> object:
    return command.target if isinstance(command, PlayCard) else None


def _guess(command: Command) -> object:
    return command.guess if isinstance(command, PlayCard) else None


def _kept(command: Command) -> object:
    return command.keep if isinstance(command, KeepCard) else None


def _bottom(command: Command) -> object:
    return command.bottom if isinstance(command, KeepCard) else ()


_KINDS = {
    PlayCard.__name__: "card to play",
    KeepCard.__name__: "card to keep (keep CARD, bottom CARD then CARD)",
    LookAtHand.__name__: "look at a hand, or decline",
    Redraw.__name__: "redraw, or decline",
    Decline.__name__: "decline",
    DrawCard.__name__: "draw",
}


# --------------------------------------------------------------------------
# the game


def play(
    ruleset: str | Ruleset,
    players: int,
    *,
    seat: int = 0,
    seed: int | None = None,
    save: str | os.PathLike[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    rounds: int | None = None,
    decks: int | None = None,
    bots: Sequence[str] | None = None,
) -> int:
    """Play one game with a person at ``seat`` and random bots elsewhere;
    return the exit status (0, or 1 when the record could not be saved).

    ``bots`` names the other seats' bots instead (``"random"``,
    ``"counter"``, ``"search"``: :func:`~loveletter.bots.make_bot`): one
    name for them all, or one per other seat in seat order.

    Without ``seed`` the game takes a fresh secret 128-bit one; the seed is
    shown once the game is over (``--seed`` replays the deal). With
    ``save``, the game's record is written there at the end, or when the
    person quits (the game so far).

    An online match has no end of its own: it stops after ``rounds`` rounds
    (``None``: when the person quits or leaves), and is played with
    ``decks`` copies of the deck (1 by default). Other editions take
    neither.
    """
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    rules = get_ruleset(ruleset)
    if type(seat) is not int or not 0 <= seat < players:
        raise ArgumentError("seat", f"a seat from 0 to {players - 1}, not {seat!r}")
    settings = None
    if rules.online_table:
        settings = TableSettings(decks=1 if decks is None else decks)
    elif decks is not None or rounds is not None:
        which = "decks" if decks is not None else "rounds"
        raise ArgumentError(which, f"only an online match takes {which}, not {rules.name}")
    if rounds is not None and (type(rounds) is not int or rounds < 1):
        raise ArgumentError("rounds", f"a number of rounds from 1, not {rounds!r}")
    secret = seed if seed is not None else fresh_seed()
    names = [default_name(s) for s in range(players)]
    human = HumanPlayer(names, stdin, stdout)
    seated = _seated(bots, players, seat)
    game = _Game(rules, players, seat, secret, names, human, stdout, settings, rounds, seated)
    status = 0
    try:
        game.run()
    except Quit:
        game.say()
        game.say("Game abandoned.")
    finally:
        # Also on Ctrl-C: the game so far is kept.
        if save is not None:
            status = _save(game.record, save, stdout, stderr)
    return status


def _seated(bots: Sequence[str] | None, players: int, seat: int) -> tuple[str, ...] | None:
    """Every seat's bot by name (the person's seat holds a placeholder),
    from one name or one per other seat; ``None``: random bots."""
    if bots is None:
        return None
    others = [bots] * (players - 1) if isinstance(bots, str) else list(bots)
    if len(others) == 1:
        others *= players - 1
    if len(others) != players - 1:
        raise ArgumentError("bots", f"one name, or one per other seat ({players - 1})")
    others.insert(seat, "random")
    return tuple(others)


def _save(record: GameRecord, path: str | os.PathLike[str], stdout: TextIO, stderr: TextIO) -> int:
    try:
        save_record(record, path)
    except OSError as error:
        stderr.write(f"loveletter play: cannot save the game in {path}: {error.strerror}\n")
        return 1
    what = "game" if record.is_over else "game so far"
    stdout.write(f"The {what} is saved in {Path(path)} (loveletter replay {Path(path)}).\n")
    return 0


class _Game:
    """One game's loop: a record pushed command by command, told to the
    person as they may see it, with a pause at each round's end."""

    def __init__(
        self,
        rules: Ruleset,
        players: int,
        seat: int,
        seed: int,
        names: Sequence[str],
        human: HumanPlayer,
        stdout: TextIO,
        settings: TableSettings | None = None,
        rounds: int | None = None,
        bots: Sequence[str] | None = None,
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.seed = seed
        self.human = human
        self.stdout = stdout
        self.rounds = rounds
        self.bots = random_bots(players, seed) if bots is None else seated_bots(bots, seed)
        self.narrator = Narrator(viewer=seat, names=names)
        self.names = names
        self.record = GameRecord.new(rules, players, seed=seed, settings=settings)

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    @property
    def online(self) -> bool:
        return self.rules.online_table

    def run(self) -> None:
        name = self.names[self.seat]
        self.say(
            f"You are {name} (P{self.seat} in the move notation; seats are numbered from 0)."
            " Choose each move by its number; ? lists the help's topics."
        )
        if self.online:
            limit = (
                f"{self.rounds} round{'' if self.rounds == 1 else 's'}"
                if self.rounds is not None
                else "as many rounds as you like (q stops)"
            )
            self.say(f"An online match of {limit}; l leaves the match at any prompt.")
        self.tell(self.record.events)
        while not self.record.is_over:
            state = self.record.state
            if self.rounds is not None and state.round_over and state.round_number >= self.rounds:
                self.finish(f"{self.rounds} rounds played: the match stops here.")
                return
            actor = state.to_act
            command: Command
            try:
                if actor is None:  # between rounds: dealing is a chance step
                    upcoming = (
                        "the tie-break round"
                        if state.contenders
                        else f"round {state.round_number + 1}"
                    )
                    self.human.pause(view(state, self.seat), f"Press Enter to deal {upcoming}")
                    command = StartRound()
                elif actor == self.seat:
                    command = self.human.choose(view(state, actor))
                else:
                    command = self.bots[actor].choose(view(state, actor))
            except LeaveMatch:
                command = Leave(self.seat)
            before = len(self.record.events)
            self.record = self.record.push(command)
            self.tell(self.record.events[before:])
            if isinstance(command, Leave):
                if not self.record.is_over:
                    self.finish("You have left the match; the others would play on without you.")
                return

    def tell(self, events: tuple[Event, ...]) -> None:
        """Narrate a batch; a round's or the game's end as a result block.
        Bots that follow the game (``observe``) are shown it too."""
        for bot_seat, bot in enumerate(self.bots):
            observe = getattr(bot, "observe", None)
            if bot_seat != self.seat and callable(observe):
                observe(events_for(bot_seat, events))
        end = next((i for i, e in enumerate(events) if isinstance(e, RoundEnded | GameEnded)), None)
        for line in self.narrator.narrate(events if end is None else events[:end]):
            self.say(line)
        if end is None:
            return
        state = self.record.state
        over = state.is_over
        if isinstance(events[end], RoundEnded):
            also = ", and the match closes" if self.online else ", and so is the game"
            title = f"Round {state.round_number} is over" + (also if over else "")
        else:
            title = "The match closes" if self.online else "The game is over"
        self.say()
        self.say(f"=== {title} ===")
        for line in self.narrator.narrate(events[end:]):
            self.say(line)
        for line in self.human.table(view(state, self.seat)):
            self.say(line)
        if self.online:
            for line in self.scoreboard():
                self.say(line)
        if over and self.online:
            self.say(self.verdict())
        elif over:
            verdict = "You win!" if self.seat in state.winners else "You lose."
            seed = self.seed
            self.say(f"{verdict} (Seed {seed}: play this deal again with --seed {seed}.)")

    def scoreboard(self) -> list[str]:
        """Online: every ended round's ranks and the win counters, as
        ``loveletter show`` prints them (:meth:`Scoreboard.lines`)."""
        board = self.record.scoreboard()
        return board.lines() if board.rounds else []

    def verdict(self) -> str:
        """Online: where the person's win counter stands, and the seed."""
        tokens = self.record.state.tokens
        mine, best = tokens[self.seat], max(tokens)
        leaders = [seat for seat, count in enumerate(tokens) if count == best]
        if best == 0:
            standing = "and no one has a win yet"
        elif leaders == [self.seat]:
            standing = "the most at the table"
        elif self.seat in leaders:
            standing = "level with the most at the table"
        else:
            names = ", ".join(self.names[seat] for seat in leaders)
            standing = f"the most at the table: {best} ({names})"
        seed = self.seed
        return (
            f"Your win counter: {mine}{'' if best == 0 else ','} {standing}."
            f" (Seed {seed}: play this deal again with --seed {seed}.)"
        )

    def finish(self, why: str) -> None:
        """Online: the person stops the match (a rounds limit, leaving)."""
        self.say()
        self.say(f"=== {why} ===")
        state = self.record.state
        if not state.round_over:  # at a round's end its block showed them
            for line in self.human.table(view(state, self.seat)):
                self.say(line)
            for line in self.scoreboard():
                self.say(line)
        self.say(self.verdict())
