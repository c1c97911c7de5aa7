"""The showdown: who wins a round that the empty deck ends, and why.

One function, :func:`judge`, makes the decision for the engine and for
the narrator alike, so that the reason a story tells is the reason the
round was decided by. It compares the players still in the round in pairs
(ruling 28): A beats B when B's card loses to A's whatever the numbers (the
Bishop to the Princess, :attr:`Criterion.CARD`), else when A's hand number
is higher (:attr:`Criterion.NUMBER`), else, where the edition breaks ties
that way, when the numbers are equal and A's discard total is higher
(:attr:`Criterion.DISCARD_TOTAL`). A hand number is the card's value plus
what the Counts in its holder's pile add (and online the card's own hand
bonus, ruling 45). The players nobody beats win; when everybody is beaten
by someone (a circle, which only the Princess's exception makes possible)
the card that wins such circles does: the Princess (ruling 28).

The :class:`Verdict` keeps, besides the winners, each hand's numbers and,
for each beaten player, one player who beats them and by which criterion:
the holder of a winning hand where one beats them, else the first in seat
order.

Here the Countess, raised to 9 by two Counts, beats the Princess; the
Bishop ties the Countess at 9 and beats her on discard total; and the
Princess beats the Bishop: a circle, which goes to the Princess.

>>> from loveletter.cards import Card
>>> from loveletter.rulesets import get_ruleset
>>> verdict = judge(
...     get_ruleset("premium"),
...     ((0, Card.PRINCESS), (1, Card.BISHOP), (2, Card.COUNTESS)),
...     ((Card.GUARD,), (Card.KING, Card.PRINCE), (Card.COUNT, Card.COUNT)),
... )
>>> verdict.winners, verdict.cycle
((0,), True)
>>> verdict.hand(2).number, verdict.hand(1).total, verdict.hand(2).total
(9, 11, 10)
>>> [(d.seat, d.beaten_by, d.criterion.value) for d in verdict.defeats]
[(0, 2, 'number'), (1, 0, 'card'), (2, 1, 'discard total')]
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from loveletter.cards import Card
from loveletter.cards.base import Showdown
from loveletter.rules import implements
from loveletter.rulesets import RoundTie, Ruleset, Scoring

__all__ = ["Criterion", "Defeat", "ShownHand", "Verdict", "beats", "judge"]


class Criterion(Enum):
    """What decided that one player beats another at the showdown."""

    #: the loser's card loses to the winner's whatever the numbers (the
    #: Bishop to the Princess, in Premium)
    CARD = "card"
    #: the winner's hand number is higher
    NUMBER = "number"
    #: the hand numbers are equal and the winner's discard total is higher
    DISCARD_TOTAL = "discard total"


class ShownHand(NamedTuple):
    """One hand shown at the showdown, with what its number is made of."""

    #: the holder
    seat: int
    #: the card in their hand
    card: Card
    #: the card's value in the edition
    value: int
    #: what the cards in the holder's discard pile add (the Counts)
    counts: int
    #: what the card itself adds (online's hand bonus, ruling 45; else 0)
    bonus: int
    #: the printed values of the holder's discard pile added up, where the
    #: edition breaks equal numbers by it; ``None`` where it does not
    total: int | None

    @property
    def number(self) -> int:
        """The hand number compared: value, Counts and hand bonus."""
        return self.value + self.counts + self.bonus


class Defeat(NamedTuple):
    """A player who does not win, someone who beats them, and how."""

    #: the player beaten
    seat: int
    #: a player who beats them
    beaten_by: int
    #: what decides it
    criterion: Criterion


class Verdict:
    """The showdown's decision: the winners, and the reasons.

    :func:`judge` decides the winners; the hands' numbers and the defeats
    are worked out from the numbers it compared, by the same relation
    (:func:`beats`), when first asked for: a simulation that only needs
    the winners builds none of them."""

    __slots__ = ("_cycle", "_defeats", "_hands", "_parts", "_revealed", "_ruleset", "_winners")

    def __init__(
        self,
        ruleset: Ruleset,
        revealed: tuple[tuple[int, Card], ...],
        parts: list[tuple[int, int, int, int | None]],
        winners: tuple[int, ...],
        cycle: bool,
    ) -> None:
        self._ruleset = ruleset
        self._revealed = revealed
        #: (value, counts, bonus, total) of each hand, in ``revealed`` order
        self._parts = parts
        self._hands: tuple[ShownHand, ...] | None = None
        self._defeats: tuple[Defeat, ...] | None = None
        self._winners = winners
        self._cycle = cycle

    def __repr__(self) -> str:
        return f"Verdict(winners={self.winners!r}, cycle={self.cycle!r}, defeats={self.defeats!r})"

    @property
    def winners(self) -> tuple[int, ...]:
        """The players who win the round, seat order (online: the players
        ranked first among those compared)."""
        return self._winners

    @property
    def cycle(self) -> bool:
        """Whether everybody is beaten by someone: then the winners hold the
        card that wins such circles (ruling 28)."""
        return self._cycle

    @property
    def ruleset(self) -> Ruleset:
        """The edition whose rules decided."""
        return self._ruleset

    @property
    def hands(self) -> tuple[ShownHand, ...]:
        """Every hand shown, in the order given (seat order)."""
        if self._hands is None:
            self._hands = tuple(
                ShownHand(seat, card, *parts)
                for (seat, card), parts in zip(self._revealed, self._parts, strict=True)
            )
        return self._hands

    @property
    def defeats(self) -> tuple[Defeat, ...]:
        """One for each player beaten by someone, seat order (every player,
        winners included, in a :attr:`cycle`): the holder of a winning hand
        who beats them where there is one, else the first in seat order."""
        if self._defeats is None:
            hands = self.hands
            winners = self.winners
            # winners first: a reason names a winner wherever one beats them
            order = sorted(hands, key=lambda other: other.seat not in winners)
            defeats = []
            for hand in hands:
                for other in order:
                    how = beats(self._ruleset, other, hand) if other is not hand else None
                    if how is not None:
                        defeats.append(Defeat(hand.seat, other.seat, how))
                        break
            self._defeats = tuple(defeats)
        return self._defeats

    def hand(self, seat: int) -> ShownHand:
        """The hand ``seat`` showed."""
        return next(hand for hand in self.hands if hand.seat == seat)

    def defeat(self, seat: int) -> Defeat | None:
        """Who beats ``seat`` and how, or ``None`` when nobody does."""
        return next((d for d in self.defeats if d.seat == seat), None)


def beats(ruleset: Ruleset, a: ShownHand, b: ShownHand) -> Criterion | None:
    """How ``a`` beats ``b`` in ``ruleset``, or ``None`` when it does not.

    Ranked rounds (online) have no card-over-card rule: the hand bonus
    already lifts the Princess over the Bishop (ruling 45)."""
    if ruleset.scoring is not Scoring.RANKS:
        if a.card in ruleset.rules[b.card].loses_showdown_to:
            return Criterion.CARD
        if b.card in ruleset.rules[a.card].loses_showdown_to:
            return None
    if a.number != b.number:
        return Criterion.NUMBER if a.number > b.number else None
    if a.total is not None and b.total is not None and a.total > b.total:
        return Criterion.DISCARD_TOTAL
    return None


@implements(
    "round.highest-card-wins",
    "round.tie-all-win",
    "round.tie-discard-sum",
    "count.showdown-bonus",
    "bishop.princess-beats-bishop",
    "round.hand-bonus-online",
)
def judge(
    ruleset: Ruleset,
    revealed: tuple[tuple[int, Card], ...],
    discards: tuple[tuple[Card, ...], ...],
) -> Verdict:
    """The winners of an empty-deck round end and why (see the module).

    ``revealed`` holds ``(seat, card)`` for each player still in the round,
    seat order; ``discards`` every seat's discard pile."""
    values = ruleset.values
    pile_bonus = ruleset.showdown_bonus
    rules = ruleset.rules
    ranked = ruleset.scoring is Scoring.RANKS
    by_total = ranked or ruleset.round_tie is RoundTie.DISCARD_TOTAL
    table = Showdown(revealed, discards, values) if ranked else None
    parts: list[tuple[int, int, int, int | None]] = []
    keys: list[tuple[int, int]] = []
    for seat, card in revealed:
        pile = discards[seat]
        value = values[card]
        counts = sum([pile_bonus[c] for c in pile])
        hand_bonus = rules[card].hand_bonus
        bonus = hand_bonus(table, seat) if table is not None and hand_bonus is not None else 0
        total = sum([values[c] for c in pile]) if by_total else None
        parts.append((value, counts, bonus, total))
        keys.append((value + counts + bonus, total or 0))
    # beats(), inlined on the keys: this runs at every round the deck ends
    loses = [rules[card].loses_showdown_to for _, card in revealed]
    winners = []
    for i, (seat, card) in enumerate(revealed):
        key = keys[i]
        for j, (_, other) in enumerate(revealed):
            if j != i and (
                other in loses[i] or (card not in loses[j] and keys[j] > key)
                if not ranked
                else keys[j] > key
            ):
                break
        else:
            winners.append(seat)
    cycle = not winners
    if cycle:
        winners = [seat for seat, card in revealed if rules[card].wins_showdown_cycle]
    return Verdict(ruleset, revealed, parts, tuple(winners), cycle)
