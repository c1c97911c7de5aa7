"""What the game waits for: :class:`Decision`.

Its own module so that a card's rules (:mod:`loveletter.cards.base`) can
name the choice the card leaves pending without importing the state.
"""

from __future__ import annotations

from enum import StrEnum


class Decision(StrEnum):
    """What the game is waiting for."""

    DRAW = "draw"  #: the current player must take the turn's draw (positions only)
    PLAY = "play"  #: the current player must play one of their two cards
    CHANCELLOR = "chancellor"  #: the current player keeps one card, returns the rest
    LOOK = "look"  #: the current player may look at one of the hands a Cardinal swapped
    REDRAW = "redraw"  #: a Bishop's target (not the current player) may discard and redraw
    NEXT_ROUND = "next-round"  #: the round is over; the next one must be dealt
    GAME_OVER = "game-over"  #: nothing more can happen
