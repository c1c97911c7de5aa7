"""Events: what happened, in the past tense.

A game is a fold of its events (:func:`loveletter.replay`). Fields that some
players may not see are ``None`` in the redacted copies that
:func:`loveletter.events_for` hands to those players.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import attrs

from loveletter.cards import Card

if TYPE_CHECKING:
    from loveletter.positions import Position


class EliminationReason(StrEnum):
    GUARD_GUESS = "guard-guess"  #: a Guard named the card in hand
    BARON_COMPARISON = "baron-comparison"  #: the lower card in a Baron comparison
    PRINCESS_DISCARDED = "princess-discarded"  #: played or discarded the Princess


class RoundEndReason(StrEnum):
    DECK_EMPTY = "deck-empty"  #: a turn ended with no card left to draw
    ONE_PLAYER_LEFT = "one-player-left"  #: everyone else is out of the round


class TokenReason(StrEnum):
    ROUND_WIN = "round-win"
    SPY = "spy"


@attrs.frozen
class Event:
    """Base class of every event."""


@attrs.frozen
class GameStarted(Event):
    """A game began. ``seed`` drives every later shuffle and tie-break, so it
    is hidden from all players in redacted streams."""

    ruleset: str
    players: int
    seed: int | None
    first_player: int


@attrs.frozen
class PositionEstablished(Event):
    """A game began from a described position instead of a deal.

    Redacted streams carry ``None``: a player starting from a position learns
    it through :func:`loveletter.view`."""

    position: Position | None


@attrs.frozen
class RoundStarted(Event):
    """A round began with ``deck`` (top first) as the shuffled or stacked
    order of all the ruleset's cards; hidden from every player."""

    round_number: int
    first_player: int
    deck: tuple[Card, ...] | None


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
    player: int
    card: Card
    target: int | None = None
    guess: Card | None = None


@attrs.frozen
class CardDiscarded(Event):
    """``player`` discarded ``card`` face up without resolving it (Prince)."""

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
    """``viewer`` looked at ``owner``'s hand (Priest): only the viewer sees
    the card."""

    viewer: int
    owner: int
    card: Card | None


@attrs.frozen
class HandsCompared(Event):
    """A Baron comparison: only the two players see the cards."""

    player: int
    opponent: int
    player_card: Card | None
    opponent_card: Card | None


@attrs.frozen
class HandsTraded(Event):
    player: int
    opponent: int


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
class RoundEnded(Event):
    """``revealed`` holds ``(seat, card)`` for every hand shown at the end."""

    reason: RoundEndReason
    winners: tuple[int, ...]
    revealed: tuple[tuple[int, Card], ...] = ()


@attrs.frozen
class TokenAwarded(Event):
    player: int
    reason: TokenReason
    total: int


@attrs.frozen
class GameEnded(Event):
    winners: tuple[int, ...]


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
        RoundEnded,
        TokenAwarded,
        GameEnded,
    )
}
