"""A one-line text notation for commands, for people and for programs.

Each command is one short line. Seats are numbered from 0, as everywhere in
this package, and written ``P0``, ``P1``, ... Cards are written by their
printed names (``Dowager Queen`` with its space). The notation says what
was asked, not whether it is allowed: :func:`parse_command` needs no state
and checks no rule (the engine does that when the command is applied).

Grammar (EBNF). Keywords, card names and the ``P`` of a seat are
case-insensitive; items are separated by any run of white space, which a
comma needs on neither side; a seat or a number has no space inside::

    command = seat , action | deal ;
    action  = "draw" | "redraw" | "decline" | "leave" | "timeout"
            | "look" , "at" , seat
            | "keep" , card , [ "," , "bottom" , card , { "then" , card } ]
            | card , [ "on" , seat , [ "and" , seat ] ] , [ "naming" , name ] ;
    deal    = "deal" , [ "first" , seat ] , [ "order" , [ seat , { "," , seat } ] ]
            , [ "deck" , [ card , { "," , card } ] ] ;
    name    = card | number ;
    seat    = "P" , digits ;                    (* P0, P12 *)
    number  = [ "-" ] , digits ;
    digits  = digit , [ digit , [ digit ] ] ;   (* at most three *)
    card    = "Spy" | "Guard" | "Priest" | "Baron" | "Handmaid" | "Prince"
            | "Chancellor" | "King" | "Countess" | "Princess" | "Bishop"
            | "Dowager Queen" | "Constable" | "Count" | "Sycophant"
            | "Baroness" | "Cardinal" | "Jester" | "Assassin" ;

A card may also be written as one word (``DowagerQueen``, the JSON name).
What each form means:

* ``P0 Guard on P2 naming Priest``: :class:`~loveletter.commands.PlayCard`.
  ``on`` gives the target, ``and`` the second target (a Cardinal, a
  Baroness), ``naming`` the guess: a card name for the editions that name
  cards, a number for those that name numbers (Premium). A number always
  reads as an ``int`` and a name as a :class:`~loveletter.cards.Card`.
* ``P0 keep Spy, bottom Guard then Baron``: a Chancellor keeps the Spy and
  puts the Guard, then the Baron, under the deck (the Baron ends
  bottom-most). ``P0 keep Spy`` returns nothing.
* ``P0 look at P2``: a Cardinal's look; ``P1 redraw`` and ``P1 decline``
  answer a Bishop's offer (``decline`` also skips a Cardinal's look);
  ``P0 draw`` takes a turn's draw.
* ``P2 leave``: :class:`~loveletter.commands.Leave`, the player leaves the
  match; ``P1 timeout``: :class:`~loveletter.commands.TimeOut`, a host says
  the player ran out of time (both online only, which the engine checks).
* ``deal``: the next round (:class:`~loveletter.commands.StartRound`);
  ``first P2`` picks the first player, ``order`` stacks the round's turn
  order (online: ``order P2, P0, P1``, first player first), ``deck`` lists
  a stacked deck top first; both lists are separated by commas. ``deal
  deck`` alone is a stacked empty deck, ``deal order`` alone an empty order.

>>> parse_command("p0  guard on p2 NAMING priest")
PlayCard(player=0, card=<Card.GUARD: 1>, target=2, guess=<Card.PRIEST: 2>, second_target=None)
>>> format_command(parse_command("P3 cardinal on P1 and P2"))
'P3 Cardinal on P1 and P2'
>>> parse_command("P0 Guard on P2 naming 5").guess
5
>>> format_command(parse_command("P0 keep DowagerQueen,bottom   guard then BARON"))
'P0 keep Dowager Queen, bottom Guard then Baron'
>>> format_command(parse_command("deal first P1 deck Guard, Dowager Queen"))
'deal first P1 deck Guard, Dowager Queen'
>>> parse_command("deal order P2,P0 , P1")
StartRound(deck=None, first_player=None, order=(2, 0, 1))
>>> format_command(parse_command("p2 LEAVE")), format_command(parse_command("P1 TimeOut"))
('P2 leave', 'P1 timeout')
>>> try:
...     parse_command("P0 Guard on P2 naming")
... except NotationError as error:
...     print(f"column {error.column}: {error.detail}")
column 21: expected a card name or a number, found the end of the text

:func:`format_command` writes the canonical form (the spelling above, one
space between items, ``", "`` before ``bottom``, between deck cards and
between the seats of an order), and
``parse_command(format_command(c)) == c`` for every command it can write.
Bad text raises :class:`~loveletter.errors.NotationError` saying what was
expected and at which column, and nothing else: text longer than
:data:`MAX_TEXT` characters and numbers of more than three digits are
refused before any work is done on them.
"""

from __future__ import annotations

import re

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
from loveletter.errors import LoveLetterError, NotationError
from loveletter.kinds import Card

__all__ = ["MAX_TEXT", "card_text", "format_command", "move_text", "parse_command"]

#: the longest text :func:`parse_command` reads (the largest stacked deal,
#: an online round of three decks, 96 cards, with eight seats in its order
#: and every name spelled out, fits in under half of it)
MAX_TEXT = 2000
#: seat and number fields have at most this many digits
MAX_DIGITS = 3
_MAX_NUMBER = 10**MAX_DIGITS - 1

_TEXT = {card: card.name.replace("_", " ").title() for card in Card}
#: each card's words, lowercased: ("dowager", "queen")
_WORDS = {card: tuple(text.lower().split()) for card, text in _TEXT.items()}
#: the one-word spellings: "dowagerqueen" (the JSON name), "guard", ...
_ONE_WORD = {"".join(words): card for card, words in _WORDS.items()}
#: cards of several words, longest first, so they are tried before one word
_MULTI_WORD = sorted(
    ((words, card) for card, words in _WORDS.items() if len(words) > 1),
    key=lambda item: -len(item[0]),
)

_KEYWORDS = ("draw", "redraw", "decline", "leave", "timeout", "look", "keep")


def card_text(card: Card) -> str:
    """A card as the notation writes it: its printed name.

    >>> card_text(Card.DOWAGER_QUEEN)
    'Dowager Queen'
    """
    return _TEXT[card]


# --------------------------------------------------------------------------
# writing


def format_command(command: Command) -> str:
    """The canonical one-line text of ``command``.

    Raises :class:`~loveletter.errors.NotationError` for a command the
    notation cannot write (a seat out of ``0..999``, a field of the wrong
    type, a second target without a first); ``text`` is then what was
    written so far and ``column`` where the trouble starts.
    """
    if type(command) is StartRound:
        return _format_deal(command)
    if type(command) is PlayCard:
        return _format_play(command, _seat(command.player, ""))
    if type(command) is KeepCard:
        out = _seat(command.player, "") + " keep "
        out += _card(command.keep, out)
        bottom = command.bottom
        if type(bottom) is not tuple:
            raise NotationError(out, "the returned cards must be a tuple of cards", len(out))
        for index, card in enumerate(bottom):
            out += ", bottom " if index == 0 else " then "
            out += _card(card, out)
        return out
    if type(command) is LookAtHand:
        out = _seat(command.player, "") + " look at "
        return out + _seat(command.owner, out)
    simple = _SIMPLE.get(type(command))
    if simple is not None:
        assert isinstance(command, Redraw | Decline | DrawCard | Leave | TimeOut)
        return f"{_seat(command.player, '')} {simple}"
    raise NotationError(repr(command), "not a command the notation can write")


#: the commands written as a seat and one word
_SIMPLE: dict[type[Command], str] = {
    Redraw: "redraw",
    Decline: "decline",
    DrawCard: "draw",
    Leave: "leave",
    TimeOut: "timeout",
}


def move_text(command: object) -> str:
    """``command`` in the notation, or its ``repr`` (cut to 80 characters)
    when it cannot be written, as for a malformed one: how a refusal names
    the command it refuses.

    >>> move_text(PlayCard(1, Card.GUARD, 0, Card.PRIEST))
    'P1 Guard on P0 naming Priest'
    >>> move_text("P1 Guard")
    "'P1 Guard'"
    """
    try:
        return format_command(command)  # type: ignore[arg-type]  # any object: checked there
    except LoveLetterError:
        text = repr(command)
        return text if len(text) <= 80 else text[:77] + "..."


def _format_play(command: PlayCard, out: str) -> str:
    out += " "
    out += _card(command.card, out)
    target, second, guess = command.target, command.second_target, command.guess
    if target is not None:
        out += " on "
        out += _seat(target, out)
    if second is not None:
        if target is None:
            raise NotationError(out, "a second target needs a first target", len(out))
        out += " and "
        out += _seat(second, out)
    if guess is not None:
        out += " naming "
        if isinstance(guess, Card):
            out += _TEXT[guess]
        elif type(guess) is int and -_MAX_NUMBER <= guess <= _MAX_NUMBER:
            out += str(guess)
        else:
            raise NotationError(
                out,
                f"the name must be a card or a number of at most {MAX_DIGITS} digits,"
                f" not {guess!r}",
                len(out),
            )
    return out


def _format_deal(command: StartRound) -> str:
    out = "deal"
    if command.first_player is not None:
        out += " first "
        out += _seat(command.first_player, out)
    order = command.order
    if order is not None:
        if type(order) is not tuple:
            raise NotationError(out, "the order must be a tuple of seats", len(out))
        out += " order"
        for index, seat in enumerate(order):
            out += " " if index == 0 else ", "
            out += _seat(seat, out)
    deck = command.deck
    if deck is not None:
        if type(deck) is not tuple:
            raise NotationError(out, "the deck must be a tuple of cards", len(out))
        out += " deck"
        for index, card in enumerate(deck):
            out += " " if index == 0 else ", "
            out += _card(card, out)
    return out


def _seat(seat: object, before: str) -> str:
    if type(seat) is not int or not 0 <= seat <= _MAX_NUMBER:
        raise NotationError(
            before, f"a seat must be a number from 0 to {_MAX_NUMBER}, not {seat!r}", len(before)
        )
    return f"P{seat}"


def _card(card: object, before: str) -> str:
    if not isinstance(card, Card):
        raise NotationError(before, f"expected a card, not {card!r}", len(before))
    return _TEXT[card]


# --------------------------------------------------------------------------
# reading

#: one token at a time; every branch ends at a word boundary, so "P0Guard"
#: is one (bad) token rather than "P0" and "Guard"
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<seat>[Pp][0-9]+)(?![A-Za-z0-9_])
      | (?P<number>-?[0-9]+)(?![A-Za-z0-9_])
      | (?P<word>[A-Za-z_]+)(?![A-Za-z0-9_])
      | (?P<comma>,)
      | (?P<other>\S[A-Za-z0-9_]*)
    )""",
    re.VERBOSE,
)
_END = "end"


class _Token:
    __slots__ = ("column", "kind", "text")

    def __init__(self, kind: str, text: str, column: int) -> None:
        self.kind = kind
        self.text = text
        self.column = column

    def describe(self) -> str:
        return "the end of the text" if self.kind == _END else repr(self.text)


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    while True:
        match = _TOKEN.match(text, position)
        if match is None:  # only white space is left
            tokens.append(_Token(_END, "", len(text)))
            return tokens
        kind = match.lastgroup
        assert kind is not None
        tokens.append(_Token(kind, match.group(kind), match.start(kind)))
        position = match.end()


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.index = 0

    @property
    def token(self) -> _Token:
        return self.tokens[self.index]

    def fail(self, expected: str, token: _Token | None = None) -> NotationError:
        found = token if token is not None else self.token
        return NotationError(
            self.text, f"expected {expected}, found {found.describe()}", found.column
        )

    def keyword(self, *words: str) -> str | None:
        """Consume one of ``words`` (lowercase) if it comes next."""
        token = self.token
        if token.kind == "word" and token.text.lower() in words:
            self.index += 1
            return token.text.lower()
        return None

    def expect(self, word: str) -> None:
        if self.keyword(word) is None:
            raise self.fail(repr(word))

    def comma(self) -> bool:
        if self.token.kind == "comma":
            self.index += 1
            return True
        return False

    def end(self, expected: str) -> None:
        if self.token.kind != _END:
            raise self.fail(expected)

    def _digits(self, token: _Token, digits: str, what: str) -> int:
        if len(digits) > MAX_DIGITS:
            raise NotationError(self.text, f"{what} has at most {MAX_DIGITS} digits", token.column)
        return int(digits)

    def seat(self) -> int:
        token = self.token
        if token.kind != "seat":
            raise self.fail("a seat (P0, P1, ...)")
        self.index += 1
        return self._digits(token, token.text[1:], "a seat number")

    def card(self, expected: str = "a card name") -> Card:
        tokens, index = self.tokens, self.index
        for words, card in _MULTI_WORD:
            stop = index + len(words)
            if stop <= len(tokens) and all(
                t.kind == "word" and t.text.lower() == w
                for t, w in zip(tokens[index:stop], words, strict=True)
            ):
                self.index = stop
                return card
        token = tokens[index]
        if token.kind == "word":
            found = _ONE_WORD.get(token.text.lower())
            if found is not None:
                self.index += 1
                return found
        raise self.fail(expected)

    def name(self) -> Card | int:
        token = self.token
        if token.kind == "number":
            self.index += 1
            negative = token.text.startswith("-")
            number = self._digits(token, token.text.lstrip("-"), "a number")
            return -number if negative else number
        return self.card("a card name or a number")


def parse_command(text: str) -> Command:
    """Read one command written in the notation (see the module's grammar).

    Raises :class:`~loveletter.errors.NotationError`, and nothing else, for
    text that is not a command: its message says what was expected and its
    ``column`` where.
    """
    if not isinstance(text, str):
        raise NotationError(repr(text), "a command must be text")
    if len(text) > MAX_TEXT:
        raise NotationError(
            text[:40] + "...", f"a command has at most {MAX_TEXT} characters, not {len(text)}"
        )
    reader = _Reader(text)
    if reader.keyword("deal"):
        return _parse_deal(reader)
    if reader.token.kind != "seat":
        raise reader.fail("a seat (P0, P1, ...) or 'deal'")
    player = reader.seat()
    command = _parse_action(reader, player)
    reader.end("the end of the command")
    return command


def _parse_action(reader: _Reader, player: int) -> Command:
    word = reader.keyword(*_KEYWORDS)
    if word == "draw":
        return DrawCard(player)
    if word == "redraw":
        return Redraw(player)
    if word == "decline":
        return Decline(player)
    if word == "leave":
        return Leave(player)
    if word == "timeout":
        return TimeOut(player)
    if word == "look":
        reader.expect("at")
        return LookAtHand(player, reader.seat())
    if word == "keep":
        keep = reader.card()
        bottom: list[Card] = []
        if reader.comma():
            reader.expect("bottom")
            bottom.append(reader.card())
            while reader.keyword("then"):
                bottom.append(reader.card())
            reader.end("'then' or the end of the command")
        else:
            reader.end("', bottom' or the end of the command")
        return KeepCard(player, keep, tuple(bottom))
    card = reader.card(
        "a card name, 'keep', 'look at', 'draw', 'redraw', 'decline', 'leave' or 'timeout'"
    )
    target = second = None
    guess: Card | int | None = None
    if reader.keyword("on"):
        target = reader.seat()
        if reader.keyword("and"):
            second = reader.seat()
    if reader.keyword("naming"):
        guess = reader.name()
    expected = "'naming' or the end of the command"
    if target is None:
        expected = "'on', " + expected
    elif second is None and guess is None:
        expected = "'and', " + expected
    reader.end(expected if guess is None else "the end of the command")
    return PlayCard(player, card, target, guess, second)


def _parse_deal(reader: _Reader) -> StartRound:
    first = reader.seat() if reader.keyword("first") else None
    order: tuple[int, ...] | None = None
    if reader.keyword("order"):
        seats: list[int] = []
        if reader.token.kind == "seat":
            seats.append(reader.seat())
            while reader.comma():
                seats.append(reader.seat())
        order = tuple(seats)
    deck: tuple[Card, ...] | None = None
    if reader.keyword("deck"):
        cards: list[Card] = []
        if reader.token.kind != _END:
            cards.append(reader.card())
            while reader.comma():
                cards.append(reader.card())
            reader.end("',' and a card, or the end of the command")
        deck = tuple(cards)
    elif order is not None:
        reader.end(
            "',' and a seat, 'deck' or the end of the command"
            if order
            else "a seat, 'deck' or the end of the command"
        )
    else:
        reader.end(
            "'first', 'order', 'deck' or the end of the command"
            if first is None
            else "'order', 'deck' or the end of the command"
        )
    return StartRound(deck, first, order)
