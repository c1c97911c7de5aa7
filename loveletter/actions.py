"""Stable integer action ids: every command a player can send, numbered.

Learning code wants a fixed, finite action set: an action is an integer
below :attr:`ActionTable.size`, a policy's output is a vector of that
length, and a mask says which entries are legal now. :func:`action_table`
gives that numbering for one edition and player count, built from the
reference's rulesets (:func:`loveletter.get_ruleset`: the kinds of the deck
in use, whom each card chooses, what a Guard or a Bishop may name, which
choice a card leaves pending). The number of decks of an online table
changes no id.

The ids are those of the compiled simulator (:mod:`loveletter.fast`), and
are laid out so that the sorted legal ids of any position list the commands
in the order of :func:`loveletter.legal_commands`:

1. ``PlayCard``, by card code; within a card, the play with no target
   first, then by target seat, second target (none first) and what it
   names (in the order the edition lets the card name things). Every seat
   is a target of every choosing card, even one that card can never choose
   from some seats (its own player, for a card choosing others): an id is
   structurally possible, not always legal.
2. ``KeepCard`` (editions with the Chancellor): by kept card, then by the
   cards returned, one or two, in order, as far as the deck's copies allow.
3. ``LookAtHand`` by the seat looked at (a Cardinal whose look is an
   optional step: Premium), then ``Redraw`` (the Bishop) and ``Decline``
   (either).
4. ``StartRound()`` last: dealing the next round, the dealer's chance step.

The acting seat is not part of an id; :meth:`ActionTable.command` takes it.

>>> from loveletter import Card, PlayCard
>>> table = action_table("2019-classic", 2)
>>> table.size
31
>>> table.describe(14, 0)
'P0 Guard on P1 naming Princess'
>>> table.action_id(PlayCard(0, Card.GUARD, 1, Card.PRINCESS))
14
>>> table.command(14, 1)
PlayCard(player=1, card=<Card.GUARD: 1>, target=1, guess=<Card.PRINCESS: 9>, second_target=None)
"""

from __future__ import annotations

import operator
from functools import cache
from itertools import product
from typing import SupportsIndex

import attrs

from loveletter.cards.base import Choice
from loveletter.commands import (
    Command,
    Decline,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
)
from loveletter.decisions import Decision
from loveletter.engine import legal_commands
from loveletter.errors import ArgumentError, SetupError
from loveletter.kinds import Card
from loveletter.notation import format_command
from loveletter.rulesets import Ruleset, get_ruleset
from loveletter.state import GameState
from loveletter.views import PlayerView

__all__ = ["ActionTable", "action_table"]

# The seat every template command is written for; ``command`` puts the
# acting seat in its place, ``action_id`` takes it out.
_TEMPLATE_SEAT = 0


def _pairs(choice: Choice, players: int) -> list[tuple[int | None, int | None]]:
    """Every (target, second target) ``choice`` can structurally take, in
    the order ``legal_commands`` lists them (the no-target play aside)."""
    seats = range(players)
    if choice in (Choice.OTHER, Choice.ANY):
        return [(t, None) for t in seats]
    if choice is Choice.PAIR:
        return [(t, s) for t in seats for s in seats if s > t]
    if choice is Choice.ONE_OR_TWO_OTHERS:
        return [(t, s) for t in seats for s in (None, *seats) if s is None or s > t]
    if choice is Choice.TWO_OTHERS:
        return [(t, s) for t in seats for s in seats if s >= t]
    if choice is Choice.ORDERED_PAIR:
        return [(t, s) for t in seats for s in seats if s != t]
    return []


def _plays(rules: Ruleset, players: int, kinds: tuple[Card, ...]) -> list[Command]:
    names = rules.setup(players).names
    plays: list[Command] = []
    for card in kinds:
        plays.append(PlayCard(_TEMPLATE_SEAT, card))
        guesses: tuple[Card | int | None, ...] = names[card] or (None,)
        for (target, second), guess in product(_pairs(rules.choices[card], players), guesses):
            plays.append(PlayCard(_TEMPLATE_SEAT, card, target, guess, second))
    return plays


def _keeps(rules: Ruleset, players: int, kinds: tuple[Card, ...]) -> list[Command]:
    # A card whose play leaves a keep pending draws ``returns`` cards: its
    # player keeps one card of their hand and puts back one to ``returns``
    # of them (fewer when the deck ran short), in order. Only what the
    # copies of the largest table's deck allow gets an id.
    keepers = [
        rules.rules[card] for card in kinds if rules.rules[card].pending is Decision.CHANCELLOR
    ]
    if not keepers:
        return []
    returns = max(card_rules.returns for card_rules in keepers)
    copies = rules.setup(players, rules.max_decks).deck
    bottoms = sorted(
        bottom for count in range(1, returns + 1) for bottom in product(kinds, repeat=count)
    )
    keeps: list[Command] = []
    for keep in kinds:
        for bottom in bottoms:
            used = (keep, *bottom)
            if all(used.count(card) <= copies.count(card) for card in set(used)):
                keeps.append(KeepCard(_TEMPLATE_SEAT, keep, bottom))
    return keeps


def _optional_steps(rules: Ruleset, players: int, kinds: tuple[Card, ...]) -> list[Command]:
    pending = {rules.rules[card].pending for card in kinds}
    steps: list[Command] = []
    if Decision.LOOK in pending:
        steps.extend(LookAtHand(_TEMPLATE_SEAT, owner) for owner in range(players))
    if Decision.REDRAW in pending:
        steps.append(Redraw(_TEMPLATE_SEAT))
    if pending & {Decision.LOOK, Decision.REDRAW}:
        steps.append(Decline(_TEMPLATE_SEAT))
    return steps


def _template(command: Command) -> Command:
    """``command`` as the table keys it: sent by the template seat."""
    return _sent_by(command, _TEMPLATE_SEAT)


def _sent_by(command: Command, player: int) -> Command:
    """``command`` with ``player`` as its sender (``StartRound`` has none)."""
    if isinstance(command, StartRound):
        return command
    # every command but StartRound has a ``player``; the base class does not
    # say so, hence the field given by name
    return attrs.evolve(command, **{"player": player})


@attrs.frozen(eq=False)
class ActionTable:
    """The action ids of one edition and player count (see the module).

    Build it with :func:`action_table`, which caches one table per edition
    and count.
    """

    #: the edition's canonical name
    ruleset: str
    #: the number of seats
    players: int
    #: each id's command, written for seat 0
    templates: tuple[Command, ...] = attrs.field(repr=False)
    _ids: dict[Command, int] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_ids", {c: i for i, c in enumerate(self.templates)})

    @property
    def size(self) -> int:
        """How many action ids there are: ids run from 0 to ``size - 1``."""
        return len(self.templates)

    def command(self, action_id: SupportsIndex, player: int) -> Command:
        """The command ``action_id`` stands for when ``player`` sends it
        (``StartRound()`` has no player: the dealer's).

        Raises :class:`~loveletter.errors.ArgumentError` for an id that is
        not in the table.
        """
        try:
            index = operator.index(action_id)  # numpy's integers too
        except TypeError:
            raise ArgumentError(
                "action_id", f"an integer, not {type(action_id).__name__}"
            ) from None
        if not 0 <= index < self.size:
            raise ArgumentError("action_id", f"an id from 0 to {self.size - 1}, not {index}")
        return _sent_by(self.templates[index], player)

    def action_id(self, command: Command) -> int:
        """The id of ``command``, whoever sends it.

        Raises ``KeyError`` for a command the table has no id for: a
        stacked ``StartRound``, a ``Leave``, a ``TimeOut``, a ``DrawCard``,
        a card or a name the edition's deck for this count lacks, a seat
        beyond the table.
        """
        try:
            return self._ids[_template(command)]
        except (KeyError, TypeError, AttributeError):
            raise KeyError(command) from None

    def describe(self, action_id: SupportsIndex, player: int) -> str:
        """The id's command when ``player`` sends it, in the move notation
        (:func:`loveletter.format_command`): ``'P2 Guard on P0 naming Priest'``."""
        return format_command(self.command(action_id, player))

    def legal_actions(self, position: GameState | PlayerView) -> tuple[int, ...]:
        """The ids of the commands the rules allow now, ascending: the same
        commands as :func:`loveletter.legal_commands` of a state, or a
        view's :attr:`~loveletter.views.PlayerView.legal_commands` (empty unless
        that player must act), in the same order.

        A position of another edition or count raises
        :class:`~loveletter.errors.ArgumentError`.
        """
        if isinstance(position, PlayerView):
            name, players, commands = position.ruleset, position.players, position.legal_commands
        elif isinstance(position, GameState):
            name, players = position.ruleset.name, position.players
            commands = legal_commands(position)
        else:
            raise ArgumentError(
                "position", f"a GameState or a PlayerView, not {type(position).__name__}"
            )
        if (name, players) != (self.ruleset, self.players):
            raise ArgumentError(
                "position",
                f"a {self.ruleset} game of {self.players} players, not {name} with {players}",
            )
        return tuple(self._ids[_template(command)] for command in commands)


@cache
def _table(ruleset: str, players: int) -> ActionTable:
    rules = get_ruleset(ruleset)
    kinds = rules.setup(players).kinds
    templates = [
        *_plays(rules, players, kinds),
        *_keeps(rules, players, kinds),
        *_optional_steps(rules, players, kinds),
        StartRound(),
    ]
    return ActionTable(rules.name, players, tuple(templates))


def action_table(ruleset: str | Ruleset, players: int) -> ActionTable:
    """The action ids of ``ruleset`` (a name, an alias or a
    :class:`~loveletter.rulesets.Ruleset`) with ``players`` seats; one table
    per edition and count, built once.

    Raises :class:`~loveletter.errors.SetupError` for a player count the
    edition is not played with, ``ValueError`` for an unknown edition.

    >>> action_table("premium-2016", 4) is action_table("premium", 4)
    True
    """
    rules = get_ruleset(ruleset)
    if type(players) is not int or not rules.supports(players):
        raise SetupError(
            "players", f"{rules.name} is for {rules.min_players}-{rules.max_players} players"
        )
    return _table(rules.name, players)
