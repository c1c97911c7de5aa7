"""Ranking a round (online): every player's place, from the hands left at
the end and the order the others went out.

The online edition gives no favor tokens: a round ranks the players
(rulings 44 and 45). Players still in the round come first, by adjusted
hand value (the card's printed value, one more per Count in their own
pile, and what the card itself adds: the hand bonus that lifts the
Princess over a Bishop, or a 7 with two Counts over them both), then by
discard-pile total; players still tied share a rank, numbered as in
sports (1, 1, 3). The players who went out follow, the last to go out
highest: each ranks as the number of players who were in the round just
before they went out. Players not dealt in (they had left the match) have
no rank.
"""

from __future__ import annotations

from collections.abc import Iterable

from loveletter.cards import Card
from loveletter.cards.base import Showdown
from loveletter.rules import implements
from loveletter.rulesets import Ruleset


@implements("round.hand-bonus-online", "count.showdown-bonus")
def adjusted_values(
    ruleset: Ruleset,
    revealed: tuple[tuple[int, Card], ...],
    discards: tuple[tuple[Card, ...], ...],
) -> dict[int, int]:
    """Each revealed hand's adjusted value: printed value, plus the Counts
    in its holder's pile, plus the card's own hand bonus (ruling 45)."""
    values = ruleset.values
    pile_bonus = ruleset.showdown_bonus
    rules = ruleset.rules
    showdown = Showdown(revealed, discards, values)
    adjusted: dict[int, int] = {}
    for seat, card in revealed:
        value = values[card] + sum(pile_bonus[c] for c in discards[seat])
        bonus = rules[card].hand_bonus
        if bonus is not None:
            value += bonus(showdown, seat)
        adjusted[seat] = value
    return adjusted


@implements("round.ranks-online", "round.hand-bonus-online", "round.tie-discard-sum")
def round_ranks(
    ruleset: Ruleset,
    players: int,
    revealed: tuple[tuple[int, Card], ...],
    live: Iterable[int],
    exits: tuple[int, ...],
    discards: tuple[tuple[Card, ...], ...],
) -> tuple[int | None, ...]:
    """Every seat's rank: ``revealed`` are the hands compared at an end by
    the pile (empty when one player is left: they rank first unopposed),
    ``live`` the players still in, ``exits`` the others in the order they
    went out. Seats in neither have no rank (``None``)."""
    ranks: list[int | None] = [None] * players
    live = tuple(live)
    if revealed:
        adjusted = adjusted_values(ruleset, revealed, discards)
        values = ruleset.values
        keys = {
            seat: (adjusted[seat], sum(values[c] for c in discards[seat])) for seat, _ in revealed
        }
        for seat, key in keys.items():
            ranks[seat] = 1 + sum(1 for other in keys.values() if other > key)
    else:
        for seat in live:
            ranks[seat] = 1
    dealt = len(live) + len(exits)
    for index, seat in enumerate(exits):
        ranks[seat] = dealt - index
    return tuple(ranks)
