"""Exceptions, and the closed list of reasons a command is rejected."""

from __future__ import annotations

from enum import StrEnum


class RejectionKind(StrEnum):
    """Why a command was rejected. The list is closed: conformance cases
    compare these kinds (never the messages)."""

    GAME_OVER = "game-over"  #: the game has ended; nothing more can happen
    WRONG_DECISION = "wrong-decision"  #: the command answers a decision that is not pending
    NOT_YOUR_TURN = "not-your-turn"  #: the command's player is not the one who must act
    CARD_NOT_IN_HAND = "card-not-in-hand"  #: the player does not hold that card
    COUNTESS_REQUIRED = "countess-required"  #: Countess held with King or Prince: play her
    NO_SUCH_PLAYER = "no-such-player"  #: the target is not a seat of this game
    TARGET_REQUIRED = "target-required"  #: the card must choose a player and one is available
    TARGET_NOT_ALLOWED = "target-not-allowed"  #: the card chooses no one, or not oneself
    TARGET_OUT_OF_ROUND = "target-out-of-round"  #: the target is out of the round
    TARGET_PROTECTED = "target-protected"  #: the target is protected by a Handmaid
    REQUIRED_PLAYER_NOT_CHOSEN = "required-player-not-chosen"  #: a Sycophant chose someone else
    GUESS_REQUIRED = "guess-required"  #: a Guard (or Bishop) with a target must name something
    GUESS_NOT_ALLOWED = "guess-not-allowed"  #: not a naming card, no target, or not nameable
    INVALID_CHOICE = "invalid-choice"  #: Chancellor cards, a look or a first player not offered
    INVALID_DECK = "invalid-deck"  #: a stacked deck that is not this ruleset's cards
    MALFORMED_COMMAND = "malformed-command"  #: not a command, or fields of the wrong type
    NOT_IN_EDITION = "not-in-edition"  #: leaving or a time-out in an edition without them
    PLAYER_LEFT = "player-left"  #: a Leave from a seat that has already left
    RANDOM_MOVES_OFF = "random-moves-off"  #: a TimeOut at a table without random moves


class LoveLetterError(Exception):
    """Base class of every error this package raises on purpose.

    Every way into the engine (``new_game``, ``start_game``, ``replay``,
    ``from_position``, ``loads``, ``view``, the record and notation readers)
    raises only subclasses of this for bad input, never ``IndexError``,
    ``RecursionError`` or a bare ``ValueError``; each names what is wrong.
    The subclasses also derive from ``ValueError`` so that older callers
    catching that keep working.
    """


class IllegalCommand(LoveLetterError, ValueError):
    """A command the rules do not allow in this state.

    The state is immutable, so the caller's state is unchanged; ``kind``
    says what was wrong and the message names the offending part.
    """

    def __init__(self, kind: RejectionKind, message: str, move: str | None = None) -> None:
        text = f"{kind.value}: {message}"
        super().__init__(text if move is None else f"{move}: {text}")
        self.kind = kind
        self.detail = message
        #: the refused command in the move notation, once the engine's
        #: public verbs have named it (``"P1 Guard on P0 naming Priest"``)
        self.move = move

    def naming(self, move: str) -> IllegalCommand:
        """This error, its message led by ``move``: the refused command in
        the notation (:func:`loveletter.notation.move_text` writes it, as
        the engine's public verbs do)."""
        if self.move is not None:
            return self
        return IllegalCommand(self.kind, self.detail, move)


class PositionError(LoveLetterError, ValueError):
    """A described position that cannot occur: ``field`` names what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message


class SerializationError(LoveLetterError, ValueError):
    """JSON that does not describe a command, event, position or state;
    ``path`` locates the offending field (``"events[3].card"``)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.detail = message


class ArgumentError(LoveLetterError, ValueError):
    """An argument of a library function that is not a possible value (a
    seat that does not exist, a state that is not a state): ``field`` names
    the argument."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message


class SetupError(ArgumentError):
    """Arguments that cannot start a game (``new_game``, ``start_game``):
    ``field`` names the argument (``"players"``, ``"seed"``, ...)."""


class StateError(LoveLetterError, ValueError):
    """A state that no game can reach (read from JSON or built by hand):
    ``field`` names the part that is wrong (``"hands[2]"``, ``"current"``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message


class EventMismatch(LoveLetterError, ValueError):
    """An event that cannot follow the state it is applied to, or an event
    log that no game produces (forged, reordered, truncated or redacted).

    ``field`` names what is wrong in the event: one of its fields
    (``"HandsTraded.opponent"``), or the event's type alone when the event
    as a whole cannot follow the state (``"CardPlayed"`` between rounds);
    ``None`` where no single field is at fault (a log's order, its end).
    ``index`` is the position of the first wrong event in a log (``None``
    when events were applied with ``evolve`` or ``apply_events``). Both
    lead the message: ``"events[3]: HandsTraded.opponent: ..."``."""

    def __init__(self, message: str, index: int | None = None, *, field: str | None = None) -> None:
        text = message if field is None else f"{field}: {message}"
        super().__init__(text if index is None else f"events[{index}]: {text}")
        self.index = index
        self.field = field
        self.detail = message


class NotationError(LoveLetterError, ValueError):
    """Text that is not a command in the move notation
    (:mod:`loveletter.notation`); ``column`` is where reading stopped."""

    def __init__(self, text: str, message: str, column: int = 0) -> None:
        super().__init__(f"{message} (in {text!r}, at column {column + 1})")
        self.text = text
        self.column = column
        self.detail = message


class ReachabilityUnknown(LoveLetterError):
    """``from_position(..., check="reachable")`` found no game reaching the
    position before its search budget ran out: the position passed every
    check that needs no search, and may or may not occur."""

    def __init__(self, message: str, nodes: int) -> None:
        super().__init__(message)
        self.detail = message
        #: the search nodes spent
        self.nodes = nodes


def short_repr(value: object) -> str:
    """``repr(value)``, cut to 60 characters: a message quoting what it
    refuses never grows with hostile input.

    >>> short_repr("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."
