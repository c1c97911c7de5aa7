"""Whom a card may choose: the options its choice gives now, and why any
other choice is refused.

A card's :class:`~loveletter.cards.base.Choice` says whom it makes its
player choose; the state says who can be chosen: players still in the
round and not protected by a Handmaid (ruling 24), the one a Sycophant
requires (ruling 34) when there is one. A card that can choose no one is
played for no effect (ruling 8).
"""

from __future__ import annotations

from itertools import combinations, permutations

from loveletter.cards.base import Choice
from loveletter.errors import IllegalCommand, RejectionKind
from loveletter.kinds import Card
from loveletter.rules import implements
from loveletter.state import GameState

#: choices that name two players
TWO_PLAYERS = frozenset({Choice.PAIR, Choice.TWO_OTHERS, Choice.ORDERED_PAIR})
#: choices that never include the card's own player
OTHERS_ONLY = frozenset({Choice.OTHER, Choice.ONE_OR_TWO_OTHERS, Choice.TWO_OTHERS})

#: what a card that can choose no one is played with
NO_ONE: tuple[tuple[int | None, int | None], ...] = ((None, None),)


@implements("targeting.valid-choice-online")
def options(
    players: int,
    player: int,
    choice: Choice,
    out: frozenset[int],
    protected: frozenset[int],
    required: int | None,
) -> tuple[tuple[int | None, int | None], ...]:
    """Every ``(target, second_target)`` the card may choose, in order;
    :data:`NO_ONE` when it can choose no one and has no effect."""
    others = [p for p in range(players) if p != player and p not in out and p not in protected]
    found: list[tuple[int | None, int | None]]
    if choice is Choice.OTHER:
        found = [(p, None) for p in others]
    elif choice is Choice.ANY:
        found = [(p, None) for p in sorted((*others, player))]
    elif choice is Choice.PAIR:
        found = list(combinations(sorted((*others, player)), 2))
    elif choice is Choice.ONE_OR_TWO_OTHERS:
        found = sorted(
            [(p, None) for p in others] + list(combinations(others, 2)),
            key=lambda pair: (pair[0], -1 if pair[1] is None else pair[1]),
        )
    elif choice is Choice.TWO_OTHERS:
        found = [(a, b) for i, a in enumerate(others) for b in others[i:]]
    elif choice is Choice.ORDERED_PAIR:
        found = list(permutations(sorted((*others, player)), 2))
    else:
        return NO_ONE
    if required is not None:
        found = [pair for pair in found if required in pair]
    return tuple(found) or NO_ONE


@implements(
    "sycophant.next-card-must-choose",
    "targeting.choose-impossible-no-effect",
    "targeting.valid-choice-online",
)
def refuse_choice(
    state: GameState,
    player: int,
    card: Card,
    choice: Choice,
    target: int | None,
    second: int | None,
) -> None:
    """Raise :class:`IllegalCommand` saying why ``(target, second)`` is not
    among the card's :func:`options` (seats of the wrong type were refused
    before, by :func:`loveletter.deciding.check_play`)."""
    if second is not None and (choice is Choice.OTHER or choice is Choice.ANY or target is None):
        raise IllegalCommand(RejectionKind.TARGET_NOT_ALLOWED, f"the {card} chooses one player")
    for seat in (target, second):
        if seat is None:
            continue
        if not 0 <= seat < state.players:
            raise IllegalCommand(RejectionKind.NO_SUCH_PLAYER, f"there is no player {seat}")
        if seat == player and choice in OTHERS_ONLY:
            raise IllegalCommand(
                RejectionKind.TARGET_NOT_ALLOWED, f"the {card} must choose another player"
            )
        if seat in state.out:
            raise IllegalCommand(
                RejectionKind.TARGET_OUT_OF_ROUND, f"player {seat} is out of the round"
            )
        if seat in state.protected:
            raise IllegalCommand(
                RejectionKind.TARGET_PROTECTED, f"player {seat} is protected by a Handmaid"
            )
    if target is not None and second is not None:
        if choice is Choice.TWO_OTHERS:
            if second < target:
                raise IllegalCommand(
                    RejectionKind.TARGET_NOT_ALLOWED,
                    "name the two players (or one twice), lower seat first",
                )
        elif choice is Choice.ORDERED_PAIR:
            if second == target:
                raise IllegalCommand(RejectionKind.TARGET_NOT_ALLOWED, "name two different players")
        elif second <= target:
            raise IllegalCommand(
                RejectionKind.TARGET_NOT_ALLOWED,
                "name two different players, the lower seat as target",
            )
    # Whether the card could choose anyone is asked without the Sycophant's
    # requirement, which is checked last (ruling 55): a Cardinal short of two
    # choosable players is refused alike with or without one.
    if options(state.players, player, choice, state.out, state.protected, None) == NO_ONE:
        raise IllegalCommand(
            RejectionKind.TARGET_NOT_ALLOWED, f"the {card} has no player it may choose now"
        )
    required = state.required
    if target is None:
        raise IllegalCommand(RejectionKind.TARGET_REQUIRED, f"the {card} must choose a player")
    if choice in TWO_PLAYERS and second is None:
        raise IllegalCommand(RejectionKind.TARGET_REQUIRED, f"the {card} must choose two players")
    if required is not None and required not in (target, second):
        raise IllegalCommand(
            RejectionKind.REQUIRED_PLAYER_NOT_CHOSEN,
            f"a Sycophant requires this card to choose player {required}",
        )
    # A required player who cannot be chosen by this card leaves no option.
    raise IllegalCommand(
        RejectionKind.TARGET_NOT_ALLOWED, f"the {card} has no player it may choose now"
    )
