"""The commands the rules allow now: :func:`legal_commands`, and the cards
that may be played, :func:`playable_cards`.

Every listed command is one :func:`loveletter.decide` accepts, and every
command it accepts is listed (``tests/properties`` checks both on random
games); a stacked ``StartRound`` is accepted without being listed.
"""

from __future__ import annotations

from itertools import permutations

from loveletter.commands import (
    Command,
    Decline,
    DrawCard,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
)
from loveletter.kinds import Card
from loveletter.rulesets import Ruleset
from loveletter.state import Decision, GameState
from loveletter.targeting import options


def playable_cards(state: GameState) -> tuple[Card, ...]:
    """The distinct cards the player to act may play, in card order (empty
    unless a card must be played)."""
    if state.decision is not Decision.PLAY:
        return ()
    return playable(state.table.ruleset, state.hands[state.current])


def playable(ruleset: Ruleset, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The distinct cards of ``hand`` that none of its cards forbids
    playing (the Countess), in card order."""
    forbids = ruleset.forbids
    forbidden = frozenset().union(*(forbids[card] for card in hand))
    return tuple(card for card in sorted(set(hand)) if card not in forbidden)


def legal_commands(state: GameState, card: Card | None = None) -> tuple[Command, ...]:
    """Every command the rules allow now, in a fixed order.

    Order: by card (``Card`` order), then target seat (``None`` first), then
    second target (``None`` first), then the named card or number; for a
    Chancellor, by kept card then returned order; for a Cardinal's look, by
    seat then ``Decline``; for a Bishop's target, ``Redraw`` then
    ``Decline``; between rounds the single ``StartRound()`` (a stacked deck
    or a chosen tied first player is accepted too). With ``card``, only the
    commands that play that card.
    """
    decision = state.decision
    if decision is Decision.PLAY:
        player = state.current
        table = state.table
        ruleset = table.ruleset
        cards = playable(ruleset, state.hands[player])
        if card is not None:
            cards = (card,) if card in cards else ()
        commands: tuple[Command, ...] = ()
        for c in cards:
            choices = options(
                table.players,
                player,
                ruleset.choices[c],
                state.out,
                state.protected,
                state.required,
            )
            commands += play_commands(ruleset, table.players, player, c, choices)
        return commands
    if card is not None:
        return ()
    if decision is Decision.CHANCELLOR:
        return keep_commands(state.current, tuple(sorted(state.hands[state.current])))
    if decision is Decision.LOOK:
        current = state.current
        return (*(LookAtHand(current, owner) for owner in state.pending), Decline(current))
    if decision is Decision.REDRAW:
        return (Redraw(state.pending[0]), Decline(state.pending[0]))
    if decision is Decision.DRAW:
        return (DrawCard(state.current),)
    if decision is Decision.NEXT_ROUND:
        return (StartRound(),)
    return ()


def play_commands(
    ruleset: Ruleset,
    players: int,
    player: int,
    card: Card,
    choices: tuple[tuple[int | None, int | None], ...],
) -> tuple[PlayCard, ...]:
    """The plays of ``card`` for each of its ``choices`` of players (from
    :func:`loveletter.targeting.options`), with every name it may name."""
    names = ruleset.setup(players).names[card]
    commands: list[PlayCard] = []
    for target, second in choices:
        if target is None:
            commands.append(PlayCard(player, card))
        elif names:
            commands.extend(PlayCard(player, card, target, name, second) for name in names)
        else:
            commands.append(PlayCard(player, card, target, None, second))
    return tuple(commands)


def keep_commands(player: int, hand: tuple[Card, ...]) -> tuple[KeepCard, ...]:
    """A Chancellor's player's choices: each card of ``hand`` (sorted) to
    keep, with each order of the rest to return."""
    commands: list[KeepCard] = []
    for keep in sorted(set(hand)):
        rest = list(hand)
        rest.remove(keep)
        for order in sorted(set(permutations(rest))):
            commands.append(KeepCard(player, keep, order))
    return tuple(commands)
