"""Commands: what a player (or the dealer) asks the engine to do."""

from __future__ import annotations

import attrs

from loveletter.kinds import Card, typed_value


@attrs.frozen
class Command:
    """Base class of every command."""


@attrs.frozen
class PlayCard(Command):
    """Play ``card`` from ``player``'s hand.

    ``target`` is the chosen seat for cards that choose a player, or ``None``
    when the card chooses no one or no player can be chosen (ruling 6);
    ``second_target`` is the second seat of a card that chooses two players
    (a Cardinal, a Baroness looking at two hands), greater than ``target``.
    ``guess`` is what a Guard or a Bishop names: a card in editions that
    name cards (2019), a number in editions that name numbers (Premium).
    """

    player: int
    card: Card
    target: int | None = None
    guess: Card | int | None = attrs.field(default=None, eq=typed_value)
    second_target: int | None = None


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
class LookAtHand(Command):
    """Take a Cardinal's optional look at ``owner``'s hand (one of the two
    players whose hands it swapped)."""

    player: int
    owner: int


@attrs.frozen
class Redraw(Command):
    """As the target of a Bishop that named your number: discard your card
    without its effect and draw a new one."""

    player: int


@attrs.frozen
class Decline(Command):
    """Skip the optional step offered to ``player`` (a Cardinal's look, a
    Bishop's redraw)."""

    player: int


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
    ``first_player`` picks among the previous round's winners. ``order``
    (online) stacks the round's turn order: the players present, the first
    player first (ruling 43).
    """

    deck: tuple[Card, ...] | None = None
    first_player: int | None = None
    order: tuple[int, ...] | None = None


@attrs.frozen
class Leave(Command):
    """Leave the match (online; ruling 50): accepted at any moment, whoever
    must act. The player is out of the round and dealt into no later one."""

    player: int


@attrs.frozen
class TimeOut(Command):
    """Sent by a host when ``player``, who must act, has run out of time
    (online; ruling 51): the engine makes a random legal move for them,
    drawn from the game's seed."""

    player: int
