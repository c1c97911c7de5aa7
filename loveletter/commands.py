"""Commands: what a player (or the dealer) asks the engine to do."""

from __future__ import annotations

import attrs

from loveletter.cards import Card


@attrs.frozen
class Command:
    """Base class of every command."""


@attrs.frozen
class PlayCard(Command):
    """Play ``card`` from ``player``'s hand.

    ``target`` is the chosen seat for cards that choose a player, or ``None``
    when the card chooses no one or no player can be chosen (ruling 6);
    ``guess`` is the card a Guard names.
    """

    player: int
    card: Card
    target: int | None = None
    guess: Card | None = None


@attrs.frozen
class KeepCard(Command):
    """Resolve a Chancellor: keep ``keep``, put ``bottom`` under the deck.

    ``bottom`` lists the returned cards in the order they go under the deck:
    the last one ends bottom-most (ruling 4).
    """

    player: int
    keep: Card
    bottom: tuple[Card, ...]


@attrs.frozen
class DrawCard(Command):
    """Take the turn's draw. Only needed in a position described as *not yet
    drawn*; in play the engine draws for the player as the turn starts."""

    player: int


@attrs.frozen
class StartRound(Command):
    """Deal the next round (a chance step, taken by no player).

    With no arguments the deck is shuffled and a tied first player is chosen
    from the game's seed. ``deck`` (top first) stacks the deck instead;
    ``first_player`` picks among the previous round's winners.
    """

    deck: tuple[Card, ...] | None = None
    first_player: int | None = None
