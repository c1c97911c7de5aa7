"""What a card's rules can say: :class:`CardRules`.

A card acts at more moments than when it is played: while held (the
Countess forbids playing the King or the Prince; the Assassin answers a
Guard), when discarded without being played (the Princess), from a discard
pile (the Constable on a knock-out, the Count at the showdown, the Spy and
the Jester at the end of a round), and through the choices it leaves
pending (the Chancellor's keep, the Cardinal's look, the Bishop's redraw).
Each card module describes all of that in one :class:`CardRules` value; the
engine asks the rules of the cards in play at each moment and names no card.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING

import attrs

from loveletter.decisions import Decision
from loveletter.events import Event, TokenReason
from loveletter.kinds import Card

if TYPE_CHECKING:
    from loveletter.commands import Command, PlayCard
    from loveletter.state import GameState


class Choice(IntEnum):
    """Whom a card makes its player choose."""

    NONE = 0  #: no one
    OTHER = 1  #: one other player
    ANY = 2  #: one player, its own player included
    PAIR = 3  #: exactly two distinct players, its own player included
    ONE_OR_TWO_OTHERS = 4  #: one or two distinct other players
    #: two other players, the same one twice allowed (``target`` <= ``second_target``)
    TWO_OTHERS = 5
    #: two distinct players, its own player included, in the order chosen
    ORDERED_PAIR = 6


class Shows(IntEnum):
    """Whose hand a card's play shows, and to whom: what a sighting made
    through it (``Sighting.via``) can record."""

    NOBODY = 0  #: no hand is shown
    TO_ITS_PLAYER = 1  #: its player sees the hands chosen (the Priest, the Baroness)
    BOTH_WAYS = 2  #: its player and the player chosen see each other's (a comparison, a trade)
    #: the two players chosen (its own player among them or not) see the
    #: hands they give each other, and its player may look at one (the Cardinal)
    CHOSEN_PAIR = 3


class Naming(IntEnum):
    """What a card makes its player name, beside choosing a player.

    Whether a name is a card kind or a number is the ruleset's
    (:attr:`loveletter.rulesets.Ruleset.names_numbers`); which ones may be
    named is the card's: anything present in the deck in use, or all of that
    but the card's own kind (or number).
    """

    NOTHING = 0
    ALL_BUT_OWN = 1  #: the Guard
    ANYTHING = 2  #: the Bishop


@attrs.frozen
class RoundEnd:
    """What round-end bonuses look at, once the round's winners are known."""

    players: int
    out: frozenset[int]
    discards: tuple[tuple[Card, ...], ...]
    #: (Jester's player, marked player) pairs of this round
    marks: tuple[tuple[int, int], ...]
    winners: tuple[int, ...]


#: a card's effect: the events it causes once played (after ``CardPlayed``),
#: given the state before it left its player's hand
Effect = Callable[["GameState", "PlayCard"], tuple[Event, ...]]
#: a held card answering its holder being chosen: the events replacing the
#: playing card's effect, or ``None`` when it does not react to that card
Reaction = Callable[["GameState", "PlayCard", int], "tuple[Event, ...] | None"]
#: what discarding the card without playing it does to its player
WhenDiscarded = Callable[[int], tuple[Event, ...]]
#: the events answering the choice this card left pending
Answer = Callable[["GameState", "Command"], tuple[Event, ...]]


@attrs.frozen
class Showdown:
    """What a hand bonus looks at when a round ends by the pile: every hand
    still in the round and every discard pile."""

    #: ``(seat, card)`` for each player still in the round, seat order
    hands: tuple[tuple[int, Card], ...]
    discards: tuple[tuple[Card, ...], ...]
    #: the edition's card values, indexed by card code
    values: tuple[int, ...]

    def total(self, seat: int) -> int:
        """The printed values of ``seat``'s discard pile, added up."""
        values = self.values
        return sum(values[card] for card in self.discards[seat])


#: what a card held at the end of a ranked round adds to its holder's hand
#: value beyond the Counts in their pile (``(showdown, holder) -> bonus``)
HandBonus = Callable[[Showdown, int], int]


@attrs.frozen
class RoundEndBonus:
    """Tokens of ``reason`` that a card hands out when a round ends."""

    reason: TokenReason
    #: the players who gain one token each
    gainers: Callable[[RoundEnd], tuple[int, ...]]
    #: one token at most per round, however many of the card are in play
    #: (the Spy); otherwise up to one per copy
    once: bool = False


def _no_effect(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    return ()


@attrs.frozen
class CardRules:
    """Every rule of one card kind, at every moment it matters."""

    card: Card
    #: when played: the effect
    effect: Effect = _no_effect
    chooses: Choice = Choice.NONE
    names: Naming = Naming.NOTHING
    #: while in a hand: kinds its holder may not play
    forbids: frozenset[Card] = frozenset()
    #: while in a hand: what happens when its holder is chosen
    when_holder_chosen: Reaction | None = None
    #: when discarded without being played
    when_discarded: WhenDiscarded | None = None
    #: when its player chose it and must now finish a pending choice
    answer: Answer | None = None
    #: in a discard pile when its owner is knocked out: a token of this reason
    knocked_out_token: TokenReason | None = None
    #: in its owner's discard pile at an empty-deck showdown: added to their number
    showdown_bonus: int = 0
    #: held at the showdown: kinds that beat it whatever the numbers
    loses_showdown_to: frozenset[Card] = frozenset()
    #: held at the showdown: wins when every player is beaten by someone
    wins_showdown_cycle: bool = False
    #: held at the end of a ranked round (online): what it adds to the hand
    #: value, beside the Counts (the hand bonus)
    hand_bonus: HandBonus | None = None
    #: in a discard pile or marked on the table when the round ends
    round_end_bonus: RoundEndBonus | None = None

    # What the card can leave behind, for the checks of a described state
    # (:mod:`loveletter.validation`) and the replay-start search: facts
    # about the effect above, kept beside it so that no other module keeps
    # its own list of the cards that do each thing.

    #: the choice its play leaves pending (the decision ``answer`` answers)
    pending: Decision | None = None
    #: whose hands its play shows, to whom (the sightings it can record)
    shows: Shows = Shows.NOBODY
    #: its play can make a player discard and draw a replacement card (at
    #: most one such draw per card: rulings 9 and 38) -- the Assassin's
    #: holder too, when a Guard chooses them
    replaces: bool = False
    #: its play draws up to this many cards that go back under the deck
    #: (the Chancellor's, recorded as a return)
    returns: int = 0
    #: its play can knock out one player (a guess, a comparison); a card
    #: whose discard knocks out its own player says so by ``when_discarded``
    knocks_out: bool = False
    #: its play protects its player until their next turn
    protects: bool = False
    #: its play binds the next card played to choose the player it chose
    #: (``GameState.required``)
    restricts_next: bool = False
    #: its play marks a player on the table until the round ends
    #: (``GameState.marks``)
    marks: bool = False
    #: its play can give its player a token at once, in the middle of a round
    scores_when_played: bool = False
