"""Rulesets: every difference between editions, as a value.

The engine never asks *which* edition it is playing; it asks the ruleset for
the fact it needs (a card's value, what a card may name, how many tokens
win, how ties are broken) and the cards' rules for what they do. A new
edition is a new :class:`Ruleset` value in :data:`RULESETS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum

import attrs

from loveletter.cards import Card
from loveletter.cards.base import CardRules, Choice, Naming, RoundEndBonus
from loveletter.cards.registry import CARD_RULES, ONLINE_CARD_RULES
from loveletter.events import TokenReason
from loveletter.rules import implements


class RoundTie(IntEnum):
    """How an empty-deck round end breaks ties between the highest hands."""

    ALL_TIED_WIN = 0  #: every tied player wins the round (2019)
    DISCARD_TOTAL = 1  #: the highest discard-pile total wins; still tied, all win (Premium)


class GameTie(IntEnum):
    """What happens when several players reach the tokens to win together."""

    SHARED_WIN = 0  #: they all win the game (2019, ruling 12)
    TIE_BREAK_ROUND = 1  #: they play a round among themselves (Premium, ruling 31)


class Scoring(IntEnum):
    """What a round gives and how a game ends."""

    #: favor tokens to the round's winners; the game ends at a threshold
    TOKENS = 0
    #: every player is ranked; rank 1 and partial wins count on a win
    #: counter (the state's ``tokens``); no game end (online, rulings 44-46)
    RANKS = 1


def _table(items: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(items.items()))


Composition = tuple[tuple[Card, int], ...]


@attrs.frozen(eq=False)
class Setup:
    """An edition's facts at one player count: its deck and what follows
    from the deck (which names a card may name, which cards act at which
    moments). Built once per ruleset and count."""

    players: int
    #: every card of the deck, in canonical (sorted) order
    deck: tuple[Card, ...]
    #: the kinds present, in canonical order
    kinds: tuple[Card, ...]
    #: ``None`` where no number of tokens ends the game (online)
    tokens_to_win: int | None
    face_up: int
    #: per card code: what that card may name (cards or numbers), in order
    names: tuple[tuple[Card | int, ...], ...]
    #: kinds whose holder reacts to being chosen (the Assassin)
    reacting: frozenset[Card]
    #: (kind, token reason) for kinds that score when their owner is knocked out
    knocked_out_tokens: tuple[tuple[Card, TokenReason], ...]
    #: round-end bonuses of the kinds present, in card order
    round_end_bonuses: tuple[RoundEndBonus, ...]


@attrs.frozen(eq=False)
class Ruleset:
    """One edition's rules, as data.

    Rulesets compare and hash by identity: each is a registry value, and
    states holding the same ruleset must compare equal cheaply.

    Tables keyed by card are tuples indexed by the card's code, so the hot
    paths of the engine look facts up without hashing. The cards' own rules
    (:mod:`loveletter.cards`) are the same in every edition; what an
    edition chooses is which cards its decks hold and what they are worth.
    """

    name: str
    title: str
    #: (fewest players, deck composition) pairs: the deck used from that count up
    decks: tuple[tuple[int, Composition], ...]
    values: tuple[int, ...]
    #: whether the Guard and the Bishop name numbers (Premium) or cards (2019)
    names_numbers: bool
    min_players: int
    max_players: int
    tokens_to_win_table: tuple[tuple[int, int], ...]
    face_up_table: tuple[tuple[int, int], ...]
    round_tie: RoundTie
    game_tie: GameTie
    aliases: tuple[str, ...] = ()
    #: every kind's rules, indexed by card code
    rules: tuple[CardRules, ...] = attrs.field(default=CARD_RULES, repr=False)
    scoring: Scoring = Scoring.TOKENS
    #: whether a round starts by setting a card aside face down (online: no)
    sets_aside: bool = True
    #: the round ends after a turn that leaves this many cards in the deck or
    #: fewer (online keeps the pile's last card as its set-aside card: 1)
    round_end_pile: int = 0
    #: whether each round draws a new turn order (online, ruling 43)
    draws_order: bool = False
    #: the most copies of the deck a table may shuffle together
    max_decks: int = 1
    #: whether the table has settings, time-outs and leaving (online)
    online_table: bool = False
    #: what the edition's own rulebook calls a token, singular and plural
    #: (2019: favor tokens; Premium: Tokens of Affection; online: wins on
    #: its win counter, 004 replacing tokens by that counter)
    token_names: tuple[str, str] = ("favor token", "favor tokens")

    #: every card the edition uses at its largest count, in canonical order
    deck: tuple[Card, ...] = attrs.field(init=False, eq=False, repr=False)
    #: every kind the edition uses, in canonical order
    kinds: tuple[Card, ...] = attrs.field(init=False, eq=False, repr=False)
    #: whom each kind chooses, indexed by card code
    choices: tuple[Choice, ...] = attrs.field(init=False, eq=False, repr=False)
    #: per card code: the kinds that card forbids playing while held (the Countess)
    forbids: tuple[frozenset[Card], ...] = attrs.field(init=False, eq=False, repr=False)
    #: per card code: its showdown bonus while in its owner's pile (the Count)
    showdown_bonus: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    #: per deck count (index 0 unused), per player count: the setups
    _setups: tuple[tuple[Setup | None, ...], ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        setups = tuple(
            tuple(
                self._build_setup(n, decks)
                if self.min_players <= n <= self.max_players and decks >= 1
                else None
                for n in range(self.max_players + 1)
            )
            for decks in range(self.max_decks + 1)
        )
        largest = setups[1][self.max_players]
        assert largest is not None
        object.__setattr__(self, "_setups", setups)
        object.__setattr__(self, "deck", largest.deck)
        object.__setattr__(self, "kinds", largest.kinds)
        object.__setattr__(self, "choices", tuple(r.chooses for r in self.rules))
        object.__setattr__(self, "forbids", tuple(r.forbids for r in self.rules))
        object.__setattr__(self, "showdown_bonus", tuple(r.showdown_bonus for r in self.rules))

    def _build_setup(self, players: int, decks: int) -> Setup:
        composition = next(c for least, c in reversed(self.decks) if least <= players)
        deck = tuple(sorted(c for c, n in composition for _ in range(n * decks)))
        kinds = tuple(sorted({c for c, n in composition if n > 0}))
        rules = [self.rules[k] for k in kinds]
        return Setup(
            players=players,
            deck=deck,
            kinds=kinds,
            tokens_to_win=dict(self.tokens_to_win_table).get(players),
            face_up=dict(self.face_up_table).get(players, 0),
            names=tuple(self._names(card, kinds) for card in Card),
            reacting=frozenset(r.card for r in rules if r.when_holder_chosen is not None),
            knocked_out_tokens=tuple(
                (r.card, r.knocked_out_token) for r in rules if r.knocked_out_token is not None
            ),
            round_end_bonuses=tuple(
                r.round_end_bonus for r in rules if r.round_end_bonus is not None
            ),
        )

    @implements("guard.name-non-guard", "guard.name-number", "bishop.name-number-and-player")
    def _names(self, card: Card, kinds: tuple[Card, ...]) -> tuple[Card | int, ...]:
        # Rulings 5, 23 and 27: only what the deck in use holds can be named;
        # the Guard cannot name itself (its kind, or its number).
        naming = self.rules[card].names
        if naming is Naming.NOTHING:
            return ()
        if self.names_numbers:
            numbers = sorted({self.values[k] for k in kinds})
            if naming is Naming.ALL_BUT_OWN:
                numbers.remove(self.values[card])
            return tuple(numbers)
        return tuple(k for k in kinds if naming is Naming.ANYTHING or k is not card)

    def setup(self, players: int, decks: int = 1) -> Setup:
        """The edition's facts for a game of ``players`` (which it supports)
        with ``decks`` copies of the deck (online: 1 to 3)."""
        found = (
            self._setups[decks][players]
            if 0 <= players <= self.max_players and 1 <= decks <= self.max_decks
            else None
        )
        if found is None:
            if not 1 <= decks <= self.max_decks:
                raise ValueError(f"{self.name} plays with 1 to {self.max_decks} deck(s)")
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players")
        return found

    def deck_for(self, players: int, decks: int = 1) -> tuple[Card, ...]:
        """Every card of a round of ``players``, in canonical order."""
        return self.setup(players, decks).deck

    def value(self, card: Card) -> int:
        """The card's value in this edition."""
        return self.values[card]

    def tokens_to_win(self, players: int) -> int | None:
        """Favor tokens a player needs to win a game of ``players``
        (``None`` where no count of tokens ends the game: online)."""
        return self.setup(players).tokens_to_win

    def tokens(self, count: int) -> str:
        """``count`` tokens in the edition's own words (``"1 favor token"``,
        ``"2 Tokens of Affection"``, online ``"3 wins"``).

        >>> get_ruleset("premium").tokens(2)
        '2 Tokens of Affection'
        """
        singular, plural = self.token_names
        return f"{count} {singular if count == 1 else plural}"

    def face_up_count(self, players: int) -> int:
        """Cards removed face up at the start of a round of ``players``."""
        return self.setup(players).face_up

    def supports(self, players: int) -> bool:
        return self.min_players <= players <= self.max_players


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

_DECK_2019: Composition = (
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
)


@implements("setup.deck-2019", "setup.card-values", "setup.player-count", "game.tokens-to-win")
def _zman_2019() -> Ruleset:
    return Ruleset(
        name="2019",
        title="Love Letter (Z-Man Games, 2019)",
        decks=((2, _DECK_2019),),
        values=_VALUES_2019,
        names_numbers=False,
        min_players=2,
        max_players=6,
        tokens_to_win_table=_table({2: 6, 3: 5, 4: 4, 5: 3, 6: 3}),
        face_up_table=_table({2: 3}),
        round_tie=RoundTie.ALL_TIED_WIN,
        game_tie=GameTie.SHARED_WIN,
        aliases=("z2019", "zman-2019"),
    )


def _adding(composition: Composition, added: Mapping[Card, int]) -> Composition:
    """``composition`` with the ``added`` copies (new kinds go at the end)."""
    counts = dict(composition)
    for card, count in added.items():
        counts[card] = counts.get(card, 0) + count
    return tuple(counts.items())


def _removing(composition: Composition, removed: Mapping[Card, int]) -> Composition:
    """``composition`` less the ``removed`` copies (kinds left with none go).
    Removing more copies than it holds is a mistake in an edition's
    definition, refused rather than passed over."""
    held = dict(composition)
    for card, count in removed.items():
        if held.get(card, 0) < count:
            raise ValueError(f"cannot remove {count} {card}: the deck holds {held.get(card, 0)}")
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
        decks=((2, _removing(_DECK_2019, {Card.GUARD: 1, Card.CHANCELLOR: 2, Card.SPY: 2})),),
        max_players=4,
        tokens_to_win_table=tuple((n, k) for n, k in base.tokens_to_win_table if n <= 4),
        aliases=("z2019-classic", "2019classic"),
    )


_DECK_PREMIUM_SMALL: Composition = (
    (Card.GUARD, 5),
    (Card.PRIEST, 2),
    (Card.BARON, 2),
    (Card.HANDMAID, 2),
    (Card.PRINCE, 2),
    (Card.KING, 1),
    (Card.COUNTESS, 1),
    (Card.PRINCESS, 1),
)
# Ruling 20: from 5 players the other 16 cards join the deck, in the counts
# 001 leaves unsaid, fitted to its 32 cards in all.
_DECK_PREMIUM_FULL: Composition = _adding(
    _DECK_PREMIUM_SMALL,
    {
        Card.GUARD: 3,
        Card.BISHOP: 1,
        Card.DOWAGER_QUEEN: 1,
        Card.CONSTABLE: 1,
        Card.COUNT: 2,
        Card.SYCOPHANT: 2,
        Card.BARONESS: 2,
        Card.CARDINAL: 2,
        Card.JESTER: 1,
        Card.ASSASSIN: 1,
    },
)

_VALUES_PREMIUM = _per_card(
    0,
    JESTER=0,
    ASSASSIN=0,
    GUARD=1,
    PRIEST=2,
    CARDINAL=2,
    BARON=3,
    BARONESS=3,
    HANDMAID=4,
    SYCOPHANT=4,
    PRINCE=5,
    COUNT=5,
    KING=6,
    CONSTABLE=6,
    COUNTESS=7,
    DOWAGER_QUEEN=7,
    PRINCESS=8,
    BISHOP=9,
)


@implements(
    "setup.deck-premium",
    "setup.card-values-premium",
    "setup.player-count-premium",
    "game.tokens-to-win-premium",
    "round.tie-discard-sum",
    "game.tie-break-round",
)
def _aeg_premium() -> Ruleset:
    # Not "classic": the original game gives 7 tokens for two players and
    # breaks showdown ties by discard totals, which the 2019 Classic Version
    # does not. Guards name numbers; from 5 players all 32 cards are used.
    return Ruleset(
        name="premium",
        title="Love Letter Premium Edition (AEG, 2016)",
        decks=((2, _DECK_PREMIUM_SMALL), (5, _DECK_PREMIUM_FULL)),
        values=_VALUES_PREMIUM,
        names_numbers=True,
        min_players=2,
        max_players=8,
        tokens_to_win_table=_table({2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4}),
        face_up_table=_table({2: 3}),
        round_tie=RoundTie.DISCARD_TOTAL,
        game_tie=GameTie.TIE_BREAK_ROUND,
        aliases=("premium-2016", "aeg-premium"),
        token_names=("Token of Affection", "Tokens of Affection"),
    )


@implements(
    "setup.deck-online",
    "setup.player-count-online",
    "setup.decks-online",
    "setup.no-set-aside-online",
    "round.end-pile-online",
    "round.ranks-online",
    "game.no-end-online",
    "setup.turn-order-online",
)
def _online(premium: Ruleset) -> Ruleset:
    # A delta on Premium (004 plays the same cards, values and names): three
    # to eight players with Premium's two decks (ruling 41), one to three
    # copies of them, no set-aside or face-up card (the pile's last card
    # stands for the set-aside one: ruling 42), a drawn turn order every
    # round (ruling 43), ranks and a win counter instead of tokens to win
    # (rulings 44-46), and 004's own Baroness and Cardinal (ruling 48).
    return attrs.evolve(
        premium,
        name="online",
        title="Love Letter online, perpetual variant (ranks and win counters)",
        min_players=3,
        tokens_to_win_table=(),
        face_up_table=(),
        aliases=("perpetual", "discard"),
        rules=ONLINE_CARD_RULES,
        scoring=Scoring.RANKS,
        sets_aside=False,
        round_end_pile=1,
        draws_order=True,
        max_decks=3,
        online_table=True,
        token_names=("win", "wins"),
    )


ZMAN_2019 = _zman_2019()
ZMAN_2019_CLASSIC = _zman_2019_classic(ZMAN_2019)
PREMIUM = _aeg_premium()
ONLINE = _online(PREMIUM)

#: The registry: every ruleset by its canonical name.
RULESETS: Mapping[str, Ruleset] = {
    r.name: r for r in (ZMAN_2019, ZMAN_2019_CLASSIC, PREMIUM, ONLINE)
}
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
