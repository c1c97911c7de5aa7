"""Events: what happened, in the past tense.

A game is a fold of its events (:func:`loveletter.replay`). Fields that some
players may not see are ``None`` in the redacted copies that
:func:`loveletter.events_for` hands to those players.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import attrs

from loveletter.kinds import Card, typed_value

if TYPE_CHECKING:
    from loveletter.positions import Position
    from loveletter.state import TableSettings


class EliminationReason(StrEnum):
    GUARD_GUESS = "guard-guess"  #: a Guard named the card in hand
    BARON_COMPARISON = "baron-comparison"  #: the lower card in a Baron comparison
    PRINCESS_DISCARDED = "princess-discarded"  #: played or discarded the Princess
    ASSASSIN = "assassin"  #: chose the Assassin's holder with a Guard
    DOWAGER_COMPARISON = "dowager-comparison"  #: the higher card in a Dowager Queen comparison
    LEFT = "left"  #: left the match (online): treated as out, the hand discarded without effect


class RoundEndReason(StrEnum):
    #: a turn ended with no card left to draw (online: one card or none left
    #: in the pile, the last one standing for the set-aside card)
    DECK_EMPTY = "deck-empty"
    ONE_PLAYER_LEFT = "one-player-left"  #: everyone else is out of the round


class TokenReason(StrEnum):
    """Why a token is gained (online: why the win counter goes up; every
    reason but ``round-win`` is a partial win there)."""

    ROUND_WIN = "round-win"  #: won the round (online: ranked first)
    SPY = "spy"  #: the only player in the round at its end with a Spy in their pile
    BISHOP = "bishop"  #: the Bishop named the number its target holds
    CONSTABLE = "constable"  #: knocked out with the Constable in one's pile
    JESTER = "jester"  #: the player the Jester marked won the round


@attrs.frozen
class Event:
    """Base class of every event."""


@attrs.frozen
class GameStarted(Event):
    """A game began. ``seed`` drives every later shuffle and tie-break, so it
    is hidden from all players in redacted streams. ``settings`` are the
    table's (online: decks and time control; ``None`` elsewhere)."""

    ruleset: str
    players: int
    seed: int | None
    first_player: int
    settings: TableSettings | None = None


@attrs.frozen
class PositionEstablished(Event):
    """A game began from a described position instead of a deal.

    Redacted streams carry ``None``: a player starting from a position learns
    it through :func:`loveletter.view`."""

    position: Position | None


@attrs.frozen
class RoundStarted(Event):
    """A round began with ``deck`` (top first) as the shuffled or stacked
    order of all the ruleset's cards; hidden from every player.

    ``seats`` lists the players dealt in when that is not everyone: a
    tie-break round deals only the players tied for the game. ``order`` is
    the round's turn order where the edition draws one (online: the players
    present, ``first_player`` first; ``None`` elsewhere: seat order)."""

    round_number: int
    first_player: int
    deck: tuple[Card, ...] | None
    seats: tuple[int, ...] | None = None
    order: tuple[int, ...] | None = None


@attrs.frozen
class CardSetAside(Event):
    """The top card was set aside face down: seen by no one."""

    card: Card | None


@attrs.frozen
class CardRemovedFaceUp(Event):
    """Two-player games: a card put aside face up, never to be used."""

    card: Card


@attrs.frozen
class CardDealt(Event):
    player: int
    card: Card | None


@attrs.frozen
class TurnStarted(Event):
    """``player``'s turn began: their Handmaid protection ends now."""

    player: int


@attrs.frozen
class CardDrawn(Event):
    """``player`` drew the top card of the deck, or the set-aside card."""

    player: int
    card: Card | None
    from_set_aside: bool = False


@attrs.frozen
class CardPlayed(Event):
    """``player`` played ``card``, choosing ``target`` (and ``second_target``,
    for a card that chooses two players) and naming ``guess``."""

    player: int
    card: Card
    target: int | None = None
    guess: Card | int | None = attrs.field(default=None, eq=typed_value)
    second_target: int | None = None


@attrs.frozen
class CardDiscarded(Event):
    """``player`` discarded ``card`` face up without resolving it (a Prince,
    a Bishop's redraw, the Assassin after its reveal)."""

    player: int
    card: Card


@attrs.frozen
class PlayerEliminated(Event):
    """``player`` is out of the round, discarding ``discarded`` face up."""

    player: int
    reason: EliminationReason
    discarded: tuple[Card, ...] = ()


@attrs.frozen
class PlayerProtected(Event):
    player: int


@attrs.frozen
class HandSeen(Event):
    """``viewer`` looked at ``owner``'s hand through ``via`` (a Priest, a
    Baroness, a Cardinal's look): only the viewer sees the card."""

    viewer: int
    owner: int
    card: Card | None
    via: Card = Card.PRIEST


@attrs.frozen
class HandsCompared(Event):
    """A comparison through ``via`` (a Baron, a Dowager Queen): only the two
    players see the cards."""

    player: int
    opponent: int
    player_card: Card | None
    opponent_card: Card | None
    via: Card = Card.BARON


@attrs.frozen
class HandsTraded(Event):
    """``player`` and ``opponent`` swapped hands through ``via``: a King (its
    player and the chosen one), a Cardinal (the two chosen, ascending). Each
    of the two learns what the other now holds."""

    player: int
    opponent: int
    via: Card = Card.KING


@attrs.frozen
class ChancellorDrew(Event):
    """The Chancellor's player drew ``count`` cards (only they see which)."""

    player: int
    count: int
    cards: tuple[Card, ...] | None


@attrs.frozen
class CardsReturned(Event):
    """The Chancellor's player put ``cards`` under the deck, in that order."""

    player: int
    count: int
    cards: tuple[Card, ...] | None


@attrs.frozen
class ChoiceRestricted(Event):
    """A Sycophant: the next card played, if it chooses players, must choose
    ``required`` among them."""

    player: int
    required: int


@attrs.frozen
class PlayerMarked(Event):
    """A Jester: ``player`` gains a token if ``marked`` wins this round."""

    player: int
    marked: int


@attrs.frozen
class CardRevealed(Event):
    """``player`` showed ``card`` to everyone (the Assassin chosen by a Guard)."""

    player: int
    card: Card


@attrs.frozen
class LookOffered(Event):
    """A Cardinal: its ``player`` may look at the hand of one of ``owners``
    (answered by ``LookAtHand`` or ``Decline``)."""

    player: int
    owners: tuple[int, ...]


@attrs.frozen
class RedrawOffered(Event):
    """A Bishop named the number ``player`` holds: ``player`` may discard
    their card and draw a new one (answered by ``Redraw`` or ``Decline``)."""

    player: int


@attrs.frozen
class OptionDeclined(Event):
    """``player`` declined the optional step offered to them."""

    player: int


@attrs.frozen
class RoundEnded(Event):
    """``revealed`` holds ``(seat, card)`` for every hand shown at the end.
    ``ranks`` (online) gives every seat's rank in the round, ``None`` for a
    seat not dealt in; the winners are the rank-1 players."""

    reason: RoundEndReason
    winners: tuple[int, ...]
    revealed: tuple[tuple[int, Card], ...] = ()
    ranks: tuple[int | None, ...] | None = None


@attrs.frozen
class TokenAwarded(Event):
    player: int
    reason: TokenReason
    total: int


@attrs.frozen
class GameEnded(Event):
    """The game is over. Online a match has no winner: it closes, with
    ``winners`` empty, once fewer than two players are present."""

    winners: tuple[int, ...]


@attrs.frozen
class GameTied(Event):
    """The ``tied`` players reached the tokens to win in the same award
    step: they play a tie-break round among themselves."""

    tied: tuple[int, ...]


@attrs.frozen
class PlayerLeft(Event):
    """``player`` left the match (online): out of the round if they were in
    it, dealt into no later round."""

    player: int


@attrs.frozen
class TurnTimedOut(Event):
    """``player``, who had to act, ran out of time (online): the events of
    the random move the engine made for them follow."""

    player: int


#: every concrete event class, by its JSON type tag
EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        PositionEstablished,
        RoundStarted,
        CardSetAside,
        CardRemovedFaceUp,
        CardDealt,
        TurnStarted,
        CardDrawn,
        CardPlayed,
        CardDiscarded,
        PlayerEliminated,
        PlayerProtected,
        HandSeen,
        HandsCompared,
        HandsTraded,
        ChancellorDrew,
        CardsReturned,
        ChoiceRestricted,
        PlayerMarked,
        CardRevealed,
        LookOffered,
        RedrawOffered,
        OptionDeclined,
        RoundEnded,
        TokenAwarded,
        GameEnded,
        GameTied,
        PlayerLeft,
        TurnTimedOut,
    )
}
