"""Rulesets: every difference between editions, as a value.

The engine never asks *which* edition it is playing; it asks the ruleset for
the fact it needs (a card's value, whom a card may target, how many tokens
win). A new edition is a new :class:`Ruleset` value in :data:`RULESETS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum

import attrs

from loveletter.cards import Card
from loveletter.rules import implements


class Targeting(IntEnum):
    """Whom a card makes its player choose."""

    NONE = 0  #: no one (Handmaid, Countess, Princess, Spy, Chancellor)
    OTHER = 1  #: another player still in the round and not protected
    ANY = 2  #: any player still in the round, oneself included (Prince)


class RoundTie(IntEnum):
    """How an empty-deck round end breaks ties between the highest cards."""

    ALL_TIED_WIN = 0  #: every tied player wins the round (2019)


def _table(items: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(items.items()))


@attrs.frozen(eq=False)
class Ruleset:
    """One edition's rules, as data.

    Rulesets compare and hash by identity: each is a registry value, and
    states holding the same ruleset must compare equal cheaply.

    Tables keyed by card are tuples indexed by the card's code, so the hot
    paths of the engine look facts up without hashing.
    """

    name: str
    title: str
    composition: tuple[tuple[Card, int], ...]
    values: tuple[int, ...]
    targeting: tuple[Targeting, ...]
    min_players: int
    max_players: int
    tokens_to_win_table: tuple[tuple[int, int], ...]
    face_up_table: tuple[tuple[int, int], ...]
    countess_forcers: frozenset[Card]
    round_tie: RoundTie
    aliases: tuple[str, ...] = ()

    #: every card of the deck, in canonical (sorted) order
    deck: tuple[Card, ...] = attrs.field(init=False, eq=False, repr=False)
    #: the kinds present in the deck, in canonical order
    kinds: tuple[Card, ...] = attrs.field(init=False, eq=False, repr=False)
    #: the kinds a Guard may name
    guard_names: tuple[Card, ...] = attrs.field(init=False, eq=False, repr=False)
    #: tokens needed to win, indexed by player count (0 where unsupported)
    _tokens_needed: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        deck = tuple(sorted(c for c, n in self.composition for _ in range(n)))
        kinds = tuple(sorted({c for c, n in self.composition if n > 0}))
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "guard_names", _guard_names(kinds))
        table = dict(self.tokens_to_win_table)
        needed = tuple(table.get(n, 0) for n in range(self.max_players + 1))
        object.__setattr__(self, "_tokens_needed", needed)

    def value(self, card: Card) -> int:
        """The card's value in this edition."""
        return self.values[card]

    def tokens_to_win(self, players: int) -> int:
        """Favor tokens a player needs to win a game of ``players``."""
        return self._tokens_needed[players]

    def face_up_count(self, players: int) -> int:
        """Cards removed face up at the start of a round of ``players``."""
        return dict(self.face_up_table).get(players, 0)

    def supports(self, players: int) -> bool:
        return self.min_players <= players <= self.max_players


@implements("guard.name-non-guard")
def _guard_names(kinds: Iterable[Card]) -> tuple[Card, ...]:
    # Ruling 5: only kinds present in this edition's deck can be named.
    return tuple(k for k in kinds if k is not Card.GUARD)


def _per_card(default: int, **by_name: int) -> tuple[int, ...]:
    table = [default] * len(Card)
    for name, v in by_name.items():
        table[Card[name]] = v
    return tuple(table)


_VALUES_2019 = _per_card(
    0,
    SPY=0,
    GUARD=1,
    PRIEST=2,
    BARON=3,
    HANDMAID=4,
    PRINCE=5,
    CHANCELLOR=6,
    KING=7,
    COUNTESS=8,
    PRINCESS=9,
)

_TARGETING_2019 = tuple(
    Targeting(t)
    for t in _per_card(
        Targeting.NONE,
        GUARD=Targeting.OTHER,
        PRIEST=Targeting.OTHER,
        BARON=Targeting.OTHER,
        KING=Targeting.OTHER,
        PRINCE=Targeting.ANY,
    )
)


@implements("setup.deck-2019", "setup.card-values", "setup.player-count", "game.tokens-to-win")
def _zman_2019() -> Ruleset:
    return Ruleset(
        name="2019",
        title="Love Letter (Z-Man Games, 2019)",
        composition=(
            (Card.SPY, 2),
            (Card.GUARD, 6),
            (Card.PRIEST, 2),
            (Card.BARON, 2),
            (Card.HANDMAID, 2),
            (Card.PRINCE, 2),
            (Card.CHANCELLOR, 2),
            (Card.KING, 1),
            (Card.COUNTESS, 1),
            (Card.PRINCESS, 1),
        ),
        values=_VALUES_2019,
        targeting=_TARGETING_2019,
        min_players=2,
        max_players=6,
        tokens_to_win_table=_table({2: 6, 3: 5, 4: 4, 5: 3, 6: 3}),
        face_up_table=_table({2: 3}),
        countess_forcers=frozenset({Card.KING, Card.PRINCE}),
        round_tie=RoundTie.ALL_TIED_WIN,
        aliases=("z2019", "zman-2019"),
    )


def _removing(
    composition: tuple[tuple[Card, int], ...], removed: Mapping[Card, int]
) -> tuple[tuple[Card, int], ...]:
    """``composition`` less the ``removed`` copies (kinds left with none go)."""
    left = ((card, count - removed.get(card, 0)) for card, count in composition)
    return tuple((card, count) for card, count in left if count > 0)


@implements("setup.deck-classic", "setup.card-values", "setup.player-count", "game.tokens-to-win")
def _zman_2019_classic(base: Ruleset) -> Ruleset:
    # The Classic Version is a delta on the 2019 edition: five cards go back
    # in the box and the player range shrinks; every other rule is the same.
    return attrs.evolve(
        base,
        name="2019-classic",
        title="Love Letter (Z-Man Games, 2019), Classic Version",
        composition=_removing(base.composition, {Card.GUARD: 1, Card.CHANCELLOR: 2, Card.SPY: 2}),
        max_players=4,
        tokens_to_win_table=tuple((n, k) for n, k in base.tokens_to_win_table if n <= 4),
        aliases=("z2019-classic", "2019classic"),
    )


ZMAN_2019 = _zman_2019()
ZMAN_2019_CLASSIC = _zman_2019_classic(ZMAN_2019)

#: The registry: every ruleset by its canonical name.
RULESETS: Mapping[str, Ruleset] = {r.name: r for r in (ZMAN_2019, ZMAN_2019_CLASSIC)}
_BY_ALIAS = {alias: r for r in RULESETS.values() for alias in (r.name, *r.aliases)}


def get_ruleset(name: str | Ruleset) -> Ruleset:
    """Look a ruleset up by name or alias (a :class:`Ruleset` passes through).

    >>> get_ruleset("2019-classic").deck.count(Card.GUARD)
    5
    """
    if isinstance(name, Ruleset):
        return name
    try:
        return _BY_ALIAS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise ValueError(f"unknown ruleset {name!r} (known: {known})") from None
