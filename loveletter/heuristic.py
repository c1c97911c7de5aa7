"""A card-counting bot: :class:`CardCounterBot`, a quick heuristic player.

It scores each legal command by a few rules of thumb over what its seat can
count and has been shown, and plays the best (ties broken by its own seeded
generator, so it does not always aim at the lowest seat). What it believes
about an opponent's card:

* a card it knows for certain, from a Priest, Baron, Baroness, Cardinal or
  Dowager Queen look, or from a King or Cardinal trade it took part in,
  followed through later events (a card played, discarded or traded away
  is forgotten or moved);
* otherwise every card it has not seen (:meth:`PlayerView.unseen_cards
  <loveletter.views.PlayerView.unseen_cards>`), less the cards it knows to
  be in other hands or under the deck (its own Chancellor returns), less
  what a Guard named at that player and missed since their last draw; each
  copy equally likely.

That account is kept from the events handed to ``observe``, as
:func:`~loveletter.simulation.play_game` does. A bot that is only shown
views (``choose`` alone) trusts the latest sighting of each player instead,
unless every copy of that card now lies open: a sighting may be out of date
(see :attr:`PlayerView.sightings <loveletter.views.PlayerView.sightings>`),
so that bot guesses worse, but still plays legally.

The rules of thumb, in short: a Guard names the likeliest card of the
likeliest target (never one whose copies are all in sight, unless every
name is); a Baron or a Dowager Queen is played when the comparison is
likely to be won; the Princess is never played or discarded by choice; the
Handmaid is worth more when someone knows its player's card; a Prince goes
to a player known or likely to hold the Princess; a Chancellor keeps the
best card; a King trades a weak card for a likely better one; the card
kept is worth more as the deck runs out. Premium and online cards are
handled by the same reckoning: a Bishop names the likeliest number, a
Jester marks the strongest opponent, the Assassin is kept while Guards are
about, a Bishop's target redraws a weak or exposed card (never the
Princess), and so on.
"""

from __future__ import annotations

import functools
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TypeVar

from loveletter.cards import Card
from loveletter.commands import Command, Decline, KeepCard, LookAtHand, PlayCard, Redraw
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRevealed,
    CardsReturned,
    ChancellorDrew,
    Event,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    RedrawOffered,
    RoundStarted,
    TokenAwarded,
)
from loveletter.rulesets import Ruleset, get_ruleset
from loveletter.views import PlayerView

_T = TypeVar("_T")

#: a belief about one hand card: each card kind's probability
_Belief = Mapping[Card, float]

#: what a round lost costs, in the scores' unit (a round won is about 1)
_OUT = 1.0
#: what a look at an unknown hand is worth
_LOOK = 0.12
#: the Princess is never given up by choice: far below any other score
_NEVER = -100.0
#: commands whose scores differ by less than this are equally good
_TIE = 1e-9


class CardCounterBot:
    """A heuristic player that counts cards (see :mod:`loveletter.heuristic`).

    It is an :class:`~loveletter.bots.Agent` with ``observe``: seated by
    :func:`~loveletter.simulation.play_game` it follows the events its seat
    is shown. Its choices depend only on its seed and on what it was shown;
    without a ``seed`` it takes a fresh secret one, kept as ``bot.seed``.
    A decision costs well under a millisecond.

    >>> import loveletter as ll
    >>> agents = [CardCounterBot(seed=1), ll.RandomBot(seed=2)]
    >>> ll.play_game("2019", 2, agents, seed=5).outcome().winners
    (0,)
    """

    def __init__(self, seed: int | None = None) -> None:
        #: the seed of this bot's tie-breaks: the one given, or a fresh secret one
        self.seed: int = secrets.randbits(64) if seed is None else seed
        self._rng = random.Random(self.seed)
        self._memory: _Memory | None = None
        self._unread: list[Event] = []

    def observe(self, events: Iterable[Event]) -> None:
        """Follow a batch of events as this seat was shown them."""
        if self._memory is None:
            # the seat is learnt from the first view: until then, kept
            self._unread.extend(events)
        else:
            self._memory.observe(tuple(events))

    def choose(self, view: PlayerView) -> Command:
        """The legal command with the best score (see the module's rules)."""
        commands = view.legal_commands
        if not commands:
            raise ValueError(f"player {view.player} has nothing to decide now")
        if len(commands) == 1:
            return commands[0]
        scores = self.scores(view)
        best = max(scores)
        tied = [
            command for command, score in zip(commands, scores, strict=True) if score > best - _TIE
        ]
        return tied[0] if len(tied) == 1 else self._rng.choice(tied)

    def scores(self, view: PlayerView) -> list[float]:
        """Each of ``view.legal_commands``' score, in order (higher is
        better), from what this bot has followed of the game."""
        if self._memory is None and self._unread:
            self._memory = _Memory(view.player)
            self._memory.observe(tuple(self._unread))
            self._unread.clear()
        memory = self._memory if self._memory and self._memory.seat == view.player else None
        return _score_commands(view, memory)

    def __repr__(self) -> str:
        return f"CardCounterBot(seed={self.seed})"


class _Memory:
    """What one seat knows for certain of the others' hands, followed event
    by event (events redacted for that seat)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        #: opponent -> the card they surely hold
        self.known: dict[int, Card] = {}
        #: opponent -> what a Guard named at them and missed since their last draw
        self.missed: dict[int, set[Card | int]] = {}
        #: opponent -> the card of ours they saw and we still hold
        self.watchers: dict[int, Card] = {}
        #: our hand as the events tell it (None: unknown until the next view)
        self.hand: list[Card] | None = []
        self._guard: tuple[int, int, Card | int] | None = None

    def observe(self, events: tuple[Event, ...]) -> None:
        for event in events:
            self._apply(event)
        self._settle_guard()

    def _forget(self, player: int) -> None:
        self.known.pop(player, None)
        self.missed.pop(player, None)

    def _lose_own(self, card: Card) -> None:
        if self.hand is not None and card in self.hand:
            self.hand.remove(card)
        still = self.hand is not None and card in self.hand
        for watcher, seen in list(self.watchers.items()):
            if seen is card and not still:
                del self.watchers[watcher]

    def _apply(self, event: Event) -> None:
        me = self.seat
        if isinstance(event, RoundStarted):
            self.known.clear()
            self.missed.clear()
            self.watchers.clear()
            self.hand = []
            self._guard = None
        elif isinstance(event, CardDealt | CardDrawn):
            if event.player == me:
                if self.hand is not None and event.card is not None:
                    self.hand.append(event.card)
            else:
                self.missed.pop(event.player, None)
        elif isinstance(event, CardPlayed):
            self._settle_guard()
            if event.player == me:
                self._lose_own(event.card)
            elif self.known.get(event.player) is event.card:
                self._forget(event.player)
            named = event.card in (Card.GUARD, Card.BISHOP) and event.guess is not None
            if named and event.target is not None:
                assert event.guess is not None
                self._guard = (event.player, event.target, event.guess)
        elif isinstance(event, CardDiscarded):
            if event.player == me:
                self._lose_own(event.card)
            else:
                self._forget(event.player)
        elif isinstance(event, PlayerEliminated | CardRevealed | RedrawOffered | TokenAwarded):
            if self._guard is not None and event.player in self._guard[:2]:
                # the Guard hit or met an Assassin; the Bishop hit
                self._guard = None
            if isinstance(event, RedrawOffered | TokenAwarded):
                return
            if event.player != me:
                self._forget(event.player)
        elif isinstance(event, HandSeen):
            if event.viewer == me and event.card is not None and event.owner != me:
                self.known[event.owner] = event.card
            elif event.owner == me and event.viewer != me and self.hand:
                self.watchers[event.viewer] = self.hand[0]
        elif isinstance(event, HandsCompared):
            self._compared(event)
        elif isinstance(event, HandsTraded):
            self._traded(event.player, event.opponent)
        elif isinstance(event, ChancellorDrew):
            if event.player == me:
                if self.hand is not None and event.cards is not None:
                    self.hand.extend(event.cards)
            else:
                self._forget(event.player)
        elif isinstance(event, CardsReturned) and event.player == me and event.cards is not None:
            for card in event.cards:
                self._lose_own(card)

    def _compared(self, event: HandsCompared) -> None:
        me = self.seat
        if me not in (event.player, event.opponent):
            return
        if event.player == me:
            other, theirs, mine = event.opponent, event.opponent_card, event.player_card
        else:
            other, theirs, mine = event.player, event.player_card, event.opponent_card
        if theirs is not None:
            self.known[other] = theirs
        if mine is not None:
            self.watchers[other] = mine

    def _traded(self, first: int, second: int) -> None:
        me = self.seat
        if me in (first, second):
            other = second if first == me else first
            mine = self.hand[0] if self.hand is not None and len(self.hand) == 1 else None
            theirs = self.known.get(other)
            self._forget(other)
            self.watchers.clear()
            if mine is not None:
                self.known[other] = mine
                self.watchers[other] = mine
            self.hand = [theirs] if theirs is not None else None
            return
        # two others swapped: what we knew of each now sits with the other
        _swap(self.known, first, second)
        _swap(self.missed, first, second)

    def _settle_guard(self) -> None:
        """A Guard (or Bishop) that named something and knocked no one out
        proves its target does not hold it."""
        if self._guard is None:
            return
        _, target, guess = self._guard
        self._guard = None
        if target != self.seat and target not in self.known:
            self.missed.setdefault(target, set()).add(guess)

    def sync(self, view: PlayerView) -> None:
        """Take our own hand from the view, which is never wrong."""
        self.hand = list(view.hand)
        for watcher, seen in list(self.watchers.items()):
            if seen not in view.hand:
                del self.watchers[watcher]


def _swap(table: dict[int, _T], first: int, second: int) -> None:
    """What ``table`` says of ``first`` now said of ``second``, and back."""
    a, b = table.pop(first, None), table.pop(second, None)
    if a is not None:
        table[second] = a
    if b is not None:
        table[first] = b


# --------------------------------------------------------------------------
# the reckoning


class _Reckoning:
    """What one decision is scored from: the view, the beliefs about every
    opponent's card and the draws, and the edition's values."""

    def __init__(self, view: PlayerView, memory: _Memory | None) -> None:
        self.view = view
        self.rules: Ruleset = get_ruleset(view.ruleset)
        self.values = self.rules.values
        me = view.player
        unseen = _unseen(view)
        if memory is not None:
            memory.sync(view)
            known = dict(memory.known)
            missed = {p: set(names) for p, names in memory.missed.items()}
            #: our cards that some opponent knows we hold
            self.watched = frozenset(memory.watchers.values())
        else:
            known, missed = _known_from_sightings(view, unseen), {}
            self.watched = frozenset()
        opponents = [
            p
            for p in range(view.players)
            if p != me and p not in view.out and view.hand_sizes[p] > 0
        ]
        self.opponents = tuple(opponents)
        known = {p: card for p, card in known.items() if p in self.opponents}
        pool = dict(unseen)
        for card in known.values():
            pool[card] = pool.get(card, 0) - 1
        for under in view.deck_bottom:
            if under is not None:
                pool[under] = pool.get(under, 0) - 1
        if any(count < 0 for count in pool.values()):  # out of date: trust the count alone
            pool = dict(unseen)
            known = {}
        self.pool = {card: count for card, count in pool.items() if count > 0}
        self.beliefs: dict[int, dict[Card, float]] = {}
        for p in self.opponents:
            if p in known:
                self.beliefs[p] = {known[p]: 1.0}
                continue
            ruled_out = missed.get(p, set())
            counts = {
                card: float(n)
                for card, n in self.pool.items()
                if card not in ruled_out and self.rules.value(card) not in ruled_out
            } or {card: float(n) for card, n in self.pool.items()}
            self.beliefs[p] = _normalised(counts)
        self.draw = _normalised({card: float(n) for card, n in self.pool.items()})
        self.top = _deck_facts(view.ruleset, view.players, _decks(view))[1]
        # the hand kept matters more as the deck runs out (a showdown nears)
        self.keep_weight = 0.25 + 0.5 / (1 + view.deck_size)
        live = len(self.opponents)
        #: what knocking one opponent out is worth: all of the round with one left
        self.knock_out = _OUT / max(1, live)
        #: Guards this player has not seen: the threat to a card someone knows
        self.guards_about = self.pool.get(Card.GUARD, 0) > 0

    def value(self, card: Card) -> int:
        return self.values[card]

    def chance(self, player: int, name: Card | int) -> float:
        """The chance that ``player`` holds what a Guard or Bishop names."""
        belief = self.beliefs.get(player, {})
        if isinstance(name, Card):
            return belief.get(name, 0.0)
        return sum(p for card, p in belief.items() if self.value(card) == name)

    def mean_value(self, belief: _Belief) -> float:
        return sum(p * self.value(card) for card, p in belief.items())

    def compare(self, player: int, mine: Card) -> tuple[float, float]:
        """(chance ``player``'s card is lower than ``mine``, chance it is higher)."""
        lower = higher = 0.0
        for card, p in self.beliefs.get(player, {}).items():
            if self.value(card) < self.value(mine):
                lower += p
            elif self.value(card) > self.value(mine):
                higher += p
        return lower, higher

    def keep(self, card: Card | None) -> float:
        """What holding ``card`` on is worth: its number, for a showdown,
        less the risk of its being named when someone knows it."""
        if card is None:
            return 0.0
        worth = self.keep_weight * self.value(card) / self.top
        if card is Card.ASSASSIN and self.guards_about:
            worth += 0.1  # a Guard that picks its holder knocks out the Guard's player
        if card in self.watched and self.guards_about:
            worth -= 0.15
        return worth


def _normalised(counts: Mapping[Card, float]) -> dict[Card, float]:
    total = sum(counts.values())
    return {card: n / total for card, n in counts.items() if n > 0} if total else {}


def _known_from_sightings(view: PlayerView, unseen: Mapping[Card, int]) -> dict[int, Card]:
    """Without the events: each player's latest sighting, unless every copy
    of that card now lies open."""
    known: dict[int, Card] = {}
    for seen in view.sightings:
        known[seen.owner] = seen.card
    return {p: card for p, card in known.items() if unseen.get(card, 0) > 0}


def _decks(view: PlayerView) -> int:
    return 1 if view.settings is None else view.settings.decks


@functools.cache
def _deck_facts(ruleset: str, players: int, decks: int) -> tuple[dict[Card, int], int]:
    """The deck in use, as copies of each card, and its highest value."""
    rules = get_ruleset(ruleset)
    deck = rules.deck_for(players, decks)
    return dict(Counter(deck)), max(rules.value(card) for card in deck)


def _unseen(view: PlayerView) -> dict[Card, int]:
    """:meth:`PlayerView.unseen_cards`, counted (the same, only quicker:
    the playouts of the search bot ask it at every turn)."""
    unseen = dict(_deck_facts(view.ruleset, view.players, _decks(view))[0])
    for group in (view.hand, view.face_up, *view.discards):
        for card in group:
            unseen[card] -= 1
    return {card: count for card, count in unseen.items() if count > 0}


def _score_commands(view: PlayerView, memory: _Memory | None = None) -> list[float]:
    """Each of ``view.legal_commands``' score, in order (higher is better)."""
    reckoning = _Reckoning(view, memory)
    return [_score(reckoning, command) for command in view.legal_commands]


def _score(r: _Reckoning, command: Command) -> float:
    view = r.view
    if isinstance(command, PlayCard):
        hand = list(view.hand)
        if command.card in hand:
            hand.remove(command.card)
        kept = hand[0] if hand else None
        return _effect(r, command, kept) + r.keep(kept)
    if isinstance(command, KeepCard):
        return r.keep(command.keep) + (_NEVER if Card.PRINCESS in command.bottom else 0.0)
    if isinstance(command, Redraw):
        held = view.hand[0] if view.hand else None
        if held is None or held is Card.PRINCESS:
            return _NEVER  # a discarded Princess is a round lost
        # the Bishop's player knows the card now: a new one is worth a little
        return (r.mean_value(r.draw) - r.value(held)) / r.top + 0.1
    if isinstance(command, Decline):
        return 0.0
    if isinstance(command, LookAtHand):
        if command.owner == view.player:
            return -0.1
        return 0.0 if len(r.beliefs.get(command.owner, {})) == 1 else _LOOK
    return 0.0


def _effect(r: _Reckoning, command: PlayCard, kept: Card | None) -> float:
    """What playing ``command``'s card does for its player, ``kept`` being
    the card left in hand."""
    card, target, me = command.card, command.target, r.view.player
    chosen = target is not None and target != me
    if card is Card.PRINCESS:
        return _NEVER
    if card is Card.GUARD:
        if not chosen or command.guess is None:
            return 0.0
        assert target is not None
        hit = r.chance(target, command.guess)
        # a name every copy of which is in sight never wins: ranked last
        hint = 1e-3 * _pool_chance(r, command.guess)
        assassin = r.beliefs[target].get(Card.ASSASSIN, 0.0)
        return hit * r.knock_out - assassin * _OUT + hint
    if card is Card.BISHOP:
        if not chosen or command.guess is None:
            return 0.0
        assert target is not None
        return r.chance(target, command.guess) * 0.8 + 1e-3 * _pool_chance(r, command.guess)
    if card in (Card.BARON, Card.DOWAGER_QUEEN):
        if not chosen or kept is None:
            return 0.0
        assert target is not None
        lower, higher = r.compare(target, kept)
        win, lose = (lower, higher) if card is Card.BARON else (higher, lower)
        return win * r.knock_out - lose * _OUT
    if card is Card.PRINCE:
        if target is None:
            return 0.0
        if target == me:
            if kept is Card.PRINCESS:
                return _NEVER
            return 0.3 * (r.mean_value(r.draw) - r.value(kept or card)) / r.top - 0.05
        belief = r.beliefs[target]
        return belief.get(Card.PRINCESS, 0.0) * r.knock_out + 0.05 * r.mean_value(belief) / r.top
    if card is Card.KING:
        if not chosen or kept is None:
            return 0.0
        assert target is not None
        if kept is Card.PRINCESS:
            return _NEVER / 2
        gain = r.mean_value(r.beliefs[target]) - r.value(kept)
        return r.keep_weight * gain / r.top
    if card is Card.HANDMAID:
        known = kept in r.watched
        threat = 0.1 + (0.35 if known else 0.0) + (0.15 if kept is Card.PRINCESS else 0.0)
        return threat
    if card in (Card.PRIEST, Card.BARONESS):
        seen = {s for s in (command.target, command.second_target) if s is not None and s != me}
        return sum(_LOOK if len(r.beliefs.get(s, {})) != 1 else 0.01 for s in seen)
    if card is Card.CARDINAL:
        return _cardinal(r, command, kept)
    if card is Card.JESTER:
        if not chosen:
            return 0.0
        assert target is not None
        strength = r.mean_value(r.beliefs[target]) / r.top
        return 0.1 + 0.2 * strength
    if card is Card.SYCOPHANT:
        return -0.1 if target == me else 0.02
    if card is Card.CONSTABLE:
        return 0.1  # in the pile, it pays if its player is knocked out later
    if card is Card.SPY:
        others = any(Card.SPY in pile for p, pile in enumerate(r.view.discards) if p != me)
        return 0.02 if others else 0.1
    if card is Card.CHANCELLOR:
        return 0.05 if r.view.deck_size else 0.0
    if card is Card.COUNT:
        return 0.03  # in the pile, it adds to a showdown hand
    return 0.0  # Countess, Assassin and the like: no effect worth weighing


def _pool_chance(r: _Reckoning, name: Card | int) -> float:
    if isinstance(name, Card):
        return r.draw.get(name, 0.0)
    return sum(p for card, p in r.draw.items() if r.value(card) == name)


def _cardinal(r: _Reckoning, command: PlayCard, kept: Card | None) -> float:
    """A Cardinal: with its player among the two, a trade as with a King;
    between two others, a look at a hand afterwards."""
    me = r.view.player
    pair = (command.target, command.second_target)
    if None in pair:
        return 0.0
    if me in pair:
        other = pair[1] if pair[0] == me else pair[0]
        assert other is not None
        if kept is None:
            return 0.0
        if kept is Card.PRINCESS:
            return _NEVER / 2
        gain = r.mean_value(r.beliefs.get(other, r.draw)) - r.value(kept)
        return r.keep_weight * gain / r.top
    return _LOOK / 2
