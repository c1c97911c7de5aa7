"""The fast simulator's rules as numbers, and its fixed table of actions.

The simulator is a second implementation of the rules, so it keeps its
own copy of each edition's facts, written from the spec
(``spec/editions.yaml``, ``spec/rules/``) rather than read from
:mod:`loveletter.rulesets`; the differential test
(:mod:`loveletter.fast.differential`) is what proves the two agree. Only
the card codes (:class:`loveletter.cards.Card`) are shared: they are the
vocabulary the two implementations' commands are written in.

**Action ids.** Every command a player can send is one integer, from a
table fixed by the edition and the number of players alone (the number
of decks of an online table changes no id). The table is laid out so that
the legal ids of any position, sorted, list the commands in the order of
:func:`loveletter.legal_commands`:

1. ``PlayCard`` commands, by card code; within a card, the play with no
   target first, then by target seat, second target (none first) and name
   (in the order the edition lets that card name things). Every seat is a
   possible target of every choosing card, including seats that this
   card can never choose from some seats: an id is structurally possible,
   not always legal.
2. ``KeepCard`` commands (editions with the Chancellor): by kept card,
   then by the returned cards in order.
3. ``LookAtHand`` by the seat looked at (Premium's Cardinal), then
   ``Redraw`` and ``Decline`` (editions with the Bishop or the Cardinal).
4. ``StartRound`` last: dealing the next round.

The acting seat is not part of an id: :meth:`ActionTable.command` takes it.

>>> table = action_table("2019-classic", 2)
>>> table.size
31
>>> table.describe(0), table.describe(1), table.describe(2)
('Guard (no target)', 'Guard on 0 naming Priest', 'Guard on 0 naming Baron')
>>> from loveletter import Card, PlayCard
>>> table.action_id(PlayCard(0, Card.GUARD, 1, Card.PRINCESS))
14
>>> table.command(14, 0) == PlayCard(0, Card.GUARD, 1, Card.PRINCESS)
True
"""

from __future__ import annotations

from functools import cache
from itertools import product

import attrs
import numpy as np
import numpy.typing as npt

from loveletter import (
    Card,
    Command,
    Decline,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
)

__all__ = [
    "EDITIONS",
    "ActionTable",
    "Edition",
    "action_table",
    "edition",
]

#: card codes (:class:`loveletter.cards.Card`), as the compiled code reads them
SPY, GUARD, PRIEST, BARON, HANDMAID, PRINCE, CHANCELLOR, KING, COUNTESS, PRINCESS = range(10)
BISHOP, DOWAGER_QUEEN, CONSTABLE, COUNT, SYCOPHANT, BARONESS, CARDINAL, JESTER, ASSASSIN = range(
    10, 19
)
#: how many card codes there are
CARD_CODES = 19

# Whom a card makes its player choose (spec/rules/targeting.yaml and each
# card's rules). The numbers are the compiled code's; they happen to match
# loveletter.cards.base.Choice, which the simulator does not read.
NONE, OTHER, ANY, PAIR, ONE_OR_TWO_OTHERS, TWO_OTHERS, ORDERED_PAIR = range(7)

# What a Guard or a Bishop names (guard.name-non-guard, guard.name-number,
# bishop.name-number-and-player): nothing, all the deck holds but the
# card's own kind or number, or all the deck holds.
NAMES_NOTHING, NAMES_ALL_BUT_OWN, NAMES_ANYTHING = range(3)

# The kinds of action, in the order the table lists them.
ACT_PLAY, ACT_KEEP, ACT_LOOK, ACT_REDRAW, ACT_DECLINE, ACT_START = range(6)

_KIND_NAMES = {
    ACT_PLAY: "play",
    ACT_KEEP: "keep",
    ACT_LOOK: "look",
    ACT_REDRAW: "redraw",
    ACT_DECLINE: "decline",
    ACT_START: "start-round",
}

_VALUES_2019 = {
    SPY: 0,
    GUARD: 1,
    PRIEST: 2,
    BARON: 3,
    HANDMAID: 4,
    PRINCE: 5,
    CHANCELLOR: 6,
    KING: 7,
    COUNTESS: 8,
    PRINCESS: 9,
}
_VALUES_PREMIUM = {
    JESTER: 0,
    ASSASSIN: 0,
    GUARD: 1,
    PRIEST: 2,
    CARDINAL: 2,
    BARON: 3,
    BARONESS: 3,
    HANDMAID: 4,
    SYCOPHANT: 4,
    PRINCE: 5,
    COUNT: 5,
    KING: 6,
    CONSTABLE: 6,
    COUNTESS: 7,
    DOWAGER_QUEEN: 7,
    PRINCESS: 8,
    BISHOP: 9,
}
_DECK_2019 = {
    SPY: 2,
    GUARD: 6,
    PRIEST: 2,
    BARON: 2,
    HANDMAID: 2,
    PRINCE: 2,
    CHANCELLOR: 2,
    KING: 1,
    COUNTESS: 1,
    PRINCESS: 1,
}
# setup.deck-classic: the 2019 deck less a Guard, both Chancellors and Spies
_DECK_CLASSIC = {
    GUARD: 5,
    PRIEST: 2,
    BARON: 2,
    HANDMAID: 2,
    PRINCE: 2,
    KING: 1,
    COUNTESS: 1,
    PRINCESS: 1,
}
# setup.deck-premium (ruling 20): the 16 cards below five players, all 32 from five
_DECK_PREMIUM_FULL = {
    **_DECK_CLASSIC,
    GUARD: 8,
    BISHOP: 1,
    DOWAGER_QUEEN: 1,
    CONSTABLE: 1,
    COUNT: 2,
    SYCOPHANT: 2,
    BARONESS: 2,
    CARDINAL: 2,
    JESTER: 1,
    ASSASSIN: 1,
}

_CHOICES_COMMON = {
    GUARD: OTHER,
    PRIEST: OTHER,
    BARON: OTHER,
    PRINCE: ANY,
    KING: OTHER,
    BISHOP: OTHER,
    DOWAGER_QUEEN: OTHER,
    SYCOPHANT: ANY,
    BARONESS: ONE_OR_TWO_OTHERS,
    CARDINAL: PAIR,
    JESTER: OTHER,
}
# ruling 48: online, the Baroness looks at two others (one twice allowed)
# and the Cardinal swaps an ordered pair
_CHOICES_ONLINE = {**_CHOICES_COMMON, BARONESS: TWO_OTHERS, CARDINAL: ORDERED_PAIR}


@attrs.frozen
class Edition:
    """One edition's facts, as the simulator reads them (from the spec)."""

    name: str
    min_players: int
    max_players: int
    #: per card code, its value (0 for kinds the edition lacks)
    values: dict[int, int]
    #: (fewest players, copies per kind) pairs: the deck used from that count up
    decks: tuple[tuple[int, dict[int, int]], ...]
    #: favor tokens to win, by player count (empty: no game end, online)
    tokens_to_win: dict[int, int]
    #: cards laid face up, by player count
    face_up: dict[int, int]
    #: whom each card chooses (cards not listed choose no one)
    choices: dict[int, int]
    #: the Guard and the Bishop name numbers (else card kinds)
    names_numbers: bool
    #: an empty-deck tie goes to the higher discard total (Premium)
    tie_by_total: bool
    #: players reaching the tokens together play a tie-break round (Premium)
    tie_break_round: bool
    #: a card is set aside face down each round (not online)
    sets_aside: bool = True
    #: a round ends after a turn leaving this many cards or fewer
    end_pile: int = 0
    #: rounds are ranked, tokens are a win counter (online)
    ranked: bool = False
    #: the Cardinal's look is an optional step (Premium) or forced (online)
    cardinal_optional_look: bool = True
    #: most copies of the deck a table may use
    max_decks: int = 1

    def deck_counts(self, players: int) -> dict[int, int]:
        """Copies of each kind in the deck of ``players`` (one deck)."""
        return next(counts for least, counts in reversed(self.decks) if least <= players)

    def supports(self, players: int) -> bool:
        """Whether the edition is played by ``players``."""
        return self.min_players <= players <= self.max_players


EDITIONS: dict[str, Edition] = {
    "2019": Edition(
        name="2019",
        min_players=2,
        max_players=6,
        values=_VALUES_2019,
        decks=((2, _DECK_2019),),
        tokens_to_win={2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
        face_up={2: 3},
        choices=_CHOICES_COMMON,
        names_numbers=False,
        tie_by_total=False,
        tie_break_round=False,
    ),
    "2019-classic": Edition(
        name="2019-classic",
        min_players=2,
        max_players=4,
        values=_VALUES_2019,
        decks=((2, _DECK_CLASSIC),),
        tokens_to_win={2: 6, 3: 5, 4: 4},
        face_up={2: 3},
        choices=_CHOICES_COMMON,
        names_numbers=False,
        tie_by_total=False,
        tie_break_round=False,
    ),
    "premium": Edition(
        name="premium",
        min_players=2,
        max_players=8,
        values=_VALUES_PREMIUM,
        decks=((2, _DECK_CLASSIC), (5, _DECK_PREMIUM_FULL)),
        tokens_to_win={2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4},
        face_up={2: 3},
        choices=_CHOICES_COMMON,
        names_numbers=True,
        tie_by_total=True,
        tie_break_round=True,
    ),
    "online": Edition(
        name="online",
        min_players=3,
        max_players=8,
        values=_VALUES_PREMIUM,
        decks=((3, _DECK_CLASSIC), (5, _DECK_PREMIUM_FULL)),
        tokens_to_win={},
        face_up={},
        choices=_CHOICES_ONLINE,
        names_numbers=True,
        tie_by_total=True,
        tie_break_round=False,
        sets_aside=False,
        end_pile=1,
        ranked=True,
        cardinal_optional_look=False,
        max_decks=3,
    ),
}
_ALIASES = {"premium-2016": "premium", "perpetual": "online", "discard": "online"}


def edition(name: str) -> Edition:
    """The simulator's facts for an edition, by name or alias.

    >>> edition("premium-2016").name
    'premium'
    """
    key = str(name).lower()
    key = _ALIASES.get(key, key)
    if key not in EDITIONS:
        raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(sorted(EDITIONS))})")
    return EDITIONS[key]


def _names(ed: Edition, card: int, kinds: tuple[int, ...]) -> tuple[int, ...]:
    """What ``card`` may name with this deck: card codes (2019) or numbers."""
    naming = {GUARD: NAMES_ALL_BUT_OWN, BISHOP: NAMES_ANYTHING}.get(card, NAMES_NOTHING)
    if naming == NAMES_NOTHING:
        return ()
    if ed.names_numbers:
        numbers = sorted({ed.values[k] for k in kinds})
        if naming == NAMES_ALL_BUT_OWN:
            numbers.remove(ed.values[card])
        return tuple(numbers)
    return tuple(k for k in kinds if naming == NAMES_ANYTHING or k != card)


def _pairs(choice: int, players: int) -> list[tuple[int, int]]:
    """Every (target, second) a choice can structurally take, in command
    order; -1 stands for no seat."""
    seats = range(players)
    if choice in (OTHER, ANY):
        return [(t, -1) for t in seats]
    if choice == PAIR:
        return [(t, s) for t in seats for s in seats if s > t]
    if choice == ONE_OR_TWO_OTHERS:
        return [(t, s) for t in seats for s in (-1, *seats) if s == -1 or s > t]
    if choice == TWO_OTHERS:
        return [(t, s) for t in seats for s in seats if s >= t]
    if choice == ORDERED_PAIR:
        return [(t, s) for t in seats for s in seats if s != t]
    return []


@attrs.frozen(eq=False)
class ActionTable:
    """The fixed action ids of one edition and player count (see the module).

    ``entries[i]`` is ``(kind, card, target, second, name)`` for a play
    (``-1``: no seat, no name), ``(ACT_KEEP, kept, returned..., -1)`` for
    a Chancellor's keep (``-1`` where fewer cards return), ``(ACT_LOOK,
    -1, owner, -1, -1)`` for a Cardinal's look, and the kind alone
    otherwise. The arrays are what the compiled code reads.
    """

    ruleset: str
    players: int
    entries: tuple[tuple[int, int, int, int, int], ...]
    #: per card code, per (target + 1), (second + 1), (name index + 1): the id, or -1
    play_ids: npt.NDArray[np.int32] = attrs.field(repr=False)
    #: per kept card, first returned card, (second returned card + 1): the id, or -1
    keep_ids: npt.NDArray[np.int32] = attrs.field(repr=False)
    #: ``entries`` as an array (``size`` x 5)
    decoded: npt.NDArray[np.int32] = attrs.field(repr=False)
    #: the first ``LookAtHand`` id (-1 without one), then ``Redraw``, ``Decline``, ``StartRound``
    look_base: int
    redraw_id: int
    decline_id: int
    start_id: int
    #: per card code, what it names (card codes or numbers), padded with -1
    names: npt.NDArray[np.int64] = attrs.field(repr=False)
    #: the ids of the commands asked for so far
    _known: dict[Command, int] = attrs.field(factory=dict, repr=False, init=False)

    @property
    def size(self) -> int:
        """How many action ids there are."""
        return len(self.entries)

    def command(self, action: int, player: int) -> Command:
        """The command ``action`` stands for when ``player`` sends it."""
        kind, card, target, second, name = self.entries[action]
        if kind == ACT_PLAY:
            guess: Card | int | None = None
            if name >= 0:
                named = int(self.names[card, name])
                guess = named if edition(self.ruleset).names_numbers else Card(named)
            return PlayCard(
                player,
                Card(card),
                None if target < 0 else target,
                guess,
                None if second < 0 else second,
            )
        if kind == ACT_KEEP:
            bottom = tuple(Card(c) for c in (target, second) if c >= 0)
            return KeepCard(player, Card(card), bottom)
        if kind == ACT_LOOK:
            return LookAtHand(player, target)
        if kind == ACT_REDRAW:
            return Redraw(player)
        if kind == ACT_DECLINE:
            return Decline(player)
        return StartRound()

    def action_id(self, command: Command) -> int:
        """The id of ``command`` (its player is not part of it); raises
        ``KeyError`` for a command the table has no id for (a stacked
        ``StartRound``, a ``Leave``, a card of another edition)."""
        try:
            return self._known[command]
        except KeyError:
            found = self._find(command)
        self._known[command] = found
        return found

    def _find(self, command: Command) -> int:
        kind = type(command)
        if kind is PlayCard:
            assert isinstance(command, PlayCard)
            name = -1
            if command.guess is not None:
                names = [int(n) for n in self.names[command.card] if n >= 0]
                guess = command.guess
                if isinstance(guess, Card) != (not edition(self.ruleset).names_numbers):
                    raise KeyError(command)
                if int(guess) not in names:
                    raise KeyError(command)
                name = names.index(int(guess))
            target = -1 if command.target is None else command.target
            second = -1 if command.second_target is None else command.second_target
            if not (-1 <= target < self.players and -1 <= second < self.players):
                raise KeyError(command)
            found = int(self.play_ids[command.card, target + 1, second + 1, name + 1])
        elif kind is KeepCard:
            assert isinstance(command, KeepCard)
            bottom = command.bottom
            if not 1 <= len(bottom) <= 2:
                raise KeyError(command)
            second = bottom[1] + 1 if len(bottom) == 2 else 0
            found = int(self.keep_ids[command.keep, bottom[0], second])
        elif kind is LookAtHand:
            assert isinstance(command, LookAtHand)
            owner = command.owner
            found = (
                self.look_base + owner if self.look_base >= 0 and 0 <= owner < self.players else -1
            )
        elif kind is Redraw:
            found = self.redraw_id
        elif kind is Decline:
            found = self.decline_id
        elif kind is StartRound:
            assert isinstance(command, StartRound)
            plain = command.deck is None and command.first_player is None and command.order is None
            found = self.start_id if plain else -1
        else:
            found = -1
        if found < 0:
            raise KeyError(command)
        return found

    def describe(self, action: int) -> str:
        """A short text for ``action``: ``'Guard on 1 naming 3'``."""
        kind, card, target, second, name = self.entries[action]
        if kind == ACT_PLAY:
            text = str(Card(card))
            if target < 0:
                return f"{text} (no target)"
            text += f" on {target}" + ("" if second < 0 else f" and {second}")
            if name >= 0:
                named = int(self.names[card, name])
                shown = str(named) if edition(self.ruleset).names_numbers else str(Card(named))
                text += f" naming {shown}"
            return text
        if kind == ACT_KEEP:
            returned = ", ".join(str(Card(c)) for c in (target, second) if c >= 0)
            return f"keep {Card(card)}, return {returned}"
        if kind == ACT_LOOK:
            return f"look at {target}"
        return _KIND_NAMES[kind]


@cache
def action_table(ruleset: str, players: int) -> ActionTable:
    """The action ids of ``ruleset`` with ``players`` (see the module)."""
    ed = edition(ruleset)
    if not ed.supports(players):
        raise ValueError(f"{ed.name} is for {ed.min_players}-{ed.max_players} players")
    counts = ed.deck_counts(players)
    kinds = tuple(sorted(k for k, n in counts.items() if n > 0))
    names = np.full((CARD_CODES, 10), -1, dtype=np.int64)
    entries: list[tuple[int, int, int, int, int]] = []
    play_ids = np.full((CARD_CODES, players + 1, players + 1, 11), -1, dtype=np.int32)
    for card in kinds:
        named = _names(ed, card, kinds)
        names[card, : len(named)] = named
        play_ids[card, 0, 0, 0] = len(entries)
        entries.append((ACT_PLAY, card, -1, -1, -1))
        for target, second in _pairs(ed.choices.get(card, NONE), players):
            for index in range(len(named)) if named else (-1,):
                play_ids[card, target + 1, second + 1, index + 1] = len(entries)
                entries.append((ACT_PLAY, card, target, second, index))
    keep_ids = np.full((CARD_CODES, CARD_CODES, CARD_CODES + 1), -1, dtype=np.int32)
    if CHANCELLOR in kinds:
        # chancellor.draw-two-keep-one: a kept card and one or two returned,
        # in order; only what the deck's copies allow
        bottoms = sorted({(a,) for a in kinds} | set(product(kinds, repeat=2)))
        for keep in kinds:
            for bottom in bottoms:
                used = (keep, *bottom)
                if any(used.count(k) > counts[k] for k in set(used)):
                    continue
                second = bottom[1] + 1 if len(bottom) == 2 else 0
                keep_ids[keep, bottom[0], second] = len(entries)
                entries.append(
                    (ACT_KEEP, keep, bottom[0], bottom[1] if len(bottom) == 2 else -1, -1)
                )
    look_base = redraw_id = decline_id = -1
    if CARDINAL in kinds and ed.cardinal_optional_look:
        look_base = len(entries)
        entries.extend((ACT_LOOK, -1, owner, -1, -1) for owner in range(players))
    if BISHOP in kinds:
        redraw_id = len(entries)
        entries.append((ACT_REDRAW, -1, -1, -1, -1))
    if BISHOP in kinds or look_base >= 0:
        decline_id = len(entries)
        entries.append((ACT_DECLINE, -1, -1, -1, -1))
    start_id = len(entries)
    entries.append((ACT_START, -1, -1, -1, -1))
    return ActionTable(
        ruleset=ed.name,
        players=players,
        entries=tuple(entries),
        play_ids=play_ids,
        keep_ids=keep_ids,
        decoded=np.array(entries, dtype=np.int32),
        look_base=look_base,
        redraw_id=redraw_id,
        decline_id=decline_id,
        start_id=start_id,
        names=names,
    )
