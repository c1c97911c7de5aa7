"""Determinization: full states drawn uniformly among those a player cannot
tell from the truth.

:func:`sample_consistent_state` turns one player's
:class:`~loveletter.views.PlayerView` into a whole
:class:`~loveletter.state.GameState` that the engine plays on
(:func:`~loveletter.engine.legal_commands`, :func:`~loveletter.engine.push`,
:func:`~loveletter.engine.step`): what an information-set search samples at
each decision. What it guarantees:

* ``view(sample, view.player) == view``: the player's hand, every pile, the
  sizes of the other hands and of the deck, the sightings, the cards they put
  under the deck, everything the view holds, unchanged;
* the hidden part (the other hands, the deck order, the set-aside card) is
  drawn **uniformly** among every assignment consistent with what the player
  knows, and from the view and the :class:`Knowledge` alone: the true state
  is never read, so it comes back no more often than any other consistent
  assignment;
* the other hidden fields get values of their own: a fresh seed drawn from
  ``rng`` (the true one would foretell every later shuffle), and the other
  players' sightings made true of the sampled history (below).

**What is known.** A :class:`Knowledge` folds the events of the round as the
player was shown them (:func:`~loveletter.views.events_for`) into a set of
facts about the cards: every physical card of the round is a variable,
followed from the deal through draws, plays, trades and the Chancellor's
returns, and the events constrain the variables: the player's own draws and
looks (Priest, Baron, Dowager Queen, King, Cardinal, Baroness), every card
played, discarded or revealed, the face-up cards, a Guard that missed (the
target held no card of that name, nor the Assassin, which would have
answered), a Bishop that missed or hit (the number held, or not), a
comparison between two other players (the loser's card shows, so the
winner's is higher, or lower for a Dowager Queen; a tie means equal values),
the Countess (a player who played the King or a Prince did not keep her),
and that a played card was in its player's hand: of the held card and the
drawn one, one was the card played. A sighting stops being a fact of the
present when its card moves (played, discarded, traded, returned under the
deck) and stays a fact of the past: whatever the card did afterwards must
agree with it. Nothing is assumed of how the others choose their moves:
every legal choice is as possible as any other.

**Without knowledge** the view alone proves: the unseen cards
(:meth:`~loveletter.views.PlayerView.unseen_cards`: the deck in use less the
player's hand, the piles and the face-up cards) fill the other hands, the deck
and the set-aside card; the player's own returned cards lie where
:attr:`~loveletter.views.PlayerView.deck_bottom` says; a hand revealed at
the end of the round is that card; and a sighting made in the current turn
still holds if its owner is still in the round (no card changes hands after
a sighting within the turn that made it). Older sightings are not used: the
view cannot tell whether their card has moved since.

**How it is drawn.** Exactly: the candidate assignments are drawn uniformly
among the arrangements of the unseen cards (the cards known for certain put
in their places first) and kept only if some history of the round agrees
with them and with every fact: a constraint search over the past cards
(arc consistency and backtracking), exact, not a heuristic. Accepting
uniform candidates that pass an exact test leaves them uniform over the
consistent ones. The facts about one card's past seldom involve another's,
so the work splits into independent groups, each solved once per view and
knowledge (the result is cached) and then looked up for every sample.

**Other players' sightings.** With knowledge, the sample lists every
sighting the round made, in order (the events show who looked at whom): the
player's own as the view has them, and each other player's holding the card
that a history consistent with the sample gives to that moment (a fixed
choice among such histories, not a random one). Without, it lists the
player's own only.

>>> import random
>>> import loveletter as ll
>>> from loveletter.determinization import knowledge_of, sample_consistent_state
>>> state = ll.new_game("2019", 3, seed=11)
>>> log = ll.start_game("2019", 3, seed=11)
>>> seen = ll.view(state, 1)
>>> sample = sample_consistent_state(seen, random.Random(0), knowledge_of(1, log))
>>> ll.view(sample, 1) == seen
True
"""

from __future__ import annotations

import functools
import math
import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate, permutations

import attrs

from loveletter.cards import assassin, baron, bishop, guard
from loveletter.errors import ArgumentError
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardRevealed,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    EliminationReason,
    Event,
    GameStarted,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PositionEstablished,
    RoundEnded,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.kinds import Card
from loveletter.rulesets import Ruleset, get_ruleset
from loveletter.state import GameState, Sighting, Table
from loveletter.views import PlayerView, redact

#: (viewer, owner, variable, turn, via): a sighting, its card a variable
_Seen = tuple[int, int, int, int, Card]
#: a relation ``rel`` between the values of two variables: 0 equal, 1 the
#: first higher, -1 the first lower
_Cmp = tuple[int, int, int]
#: inputs and outputs of a card moving without being seen: the same cards
_Perm = tuple[tuple[int, ...], tuple[int, ...]]

_EQUAL, _HIGHER, _LOWER = 0, 1, -1
# the cards whose rules the inference follows, as their modules name them
_GUARD = guard.RULES.card
_BARON = baron.RULES.card
_ASSASSIN = assassin.RULES.card  # answers a Guard that named him: never missed
#: the cards whose name hits or misses the chosen hand
_NAMING = frozenset({_GUARD, bishop.RULES.card})
_COMPARISON_LOSS = frozenset(
    {EliminationReason.BARON_COMPARISON, EliminationReason.DOWAGER_COMPARISON}
)


def _bit(card: Card) -> int:
    return 1 << card.code


def _cards_of(mask: int) -> Iterator[Card]:
    """The kinds whose bits are set in ``mask``, in card order."""
    code = 0
    while mask:
        if mask & 1:
            yield Card(code)
        mask >>= 1
        code += 1


@attrs.frozen
class _Pending:
    """An outcome that the next event settles: whether a Guard or a Bishop
    hit, and who lost a comparison."""

    kind: str  # "guard", "bishop" or "compare"
    #: the chosen player (guard, bishop) or the card's player (compare)
    seat: int
    #: the chosen hand's variables (guard, bishop); the two compared (compare)
    cards: tuple[int, ...]
    #: what was named (guard, bishop) or the comparing card (compare)
    name: Card | int


@attrs.frozen
class _Round:
    """The round as variables: one per physical card, where each lies now,
    and the facts they obey."""

    #: how many variables there are (numbered from 0)
    count: int
    #: each seat's hand, as variables, in the engine's order
    hands: tuple[tuple[int, ...], ...]
    #: the deck, top first
    deck: tuple[int, ...]
    set_aside: int | None
    #: (variable, mask of the kinds it may be)
    masks: tuple[tuple[int, int], ...]
    perms: tuple[_Perm, ...]
    cmps: tuple[_Cmp, ...]
    #: every sighting of the round, in the engine's order
    sightings: tuple[_Seen, ...]
    #: the Chancellors' returns of the round: (player, count)
    returns: tuple[tuple[int, int], ...]
    #: turns started in the round
    turn: int
    pending: _Pending | None = None


@attrs.frozen(init=False)
class Knowledge:
    """What one player knows for certain: the facts that the events of the
    current round, as shown to them, prove about the cards (see
    :mod:`loveletter.determinization`).

    A value: :meth:`observe` gives a new one. Start with
    ``Knowledge(player)`` (or :meth:`start`) and feed it every batch of
    events the seat is shown, in order, from the game's first event
    (``GameStarted``): each deal starts the round's facts afresh. Knowledge
    that has not seen the current round's deal (events fed from the middle
    of a game) knows nothing of the round, nor of any round of a game begun
    from a described position (``PositionEstablished``, whose position is
    hidden in the events), and :func:`sample_consistent_state` then uses the
    view alone.

    >>> import loveletter as ll
    >>> log = ll.start_game("2019", 2, seed=3)
    >>> Knowledge.start(0).observe(ll.events_for(0, log)) == knowledge_of(0, log)
    True
    """

    #: whose knowledge it is
    player: int
    #: the edition's name, from ``GameStarted`` (``None`` before it)
    ruleset: str | None
    #: the game's number of seats, from ``GameStarted`` (0 before it)
    players: int
    #: the copies of the deck shuffled together (online: 1 to 3)
    decks: int
    _round: _Round | None = attrs.field(repr=False)

    def __init__(self, player: int) -> None:
        if type(player) is not int or player < 0:
            raise ArgumentError("player", f"a seat from 0, not {str(player)[:40]!r}")
        self.__attrs_init__(player, None, 0, 1, None)

    @classmethod
    def _of(
        cls, player: int, ruleset: str | None, players: int, decks: int, rnd: _Round | None
    ) -> Knowledge:
        known = cls.__new__(cls)
        known.__attrs_init__(player, ruleset, players, decks, rnd)
        return known

    @classmethod
    def start(cls, player: int) -> Knowledge:
        """What ``player`` knows before any event: nothing (``Knowledge(player)``)."""
        return cls(player)

    @property
    def knows_round(self) -> bool:
        """Whether the current round's deal was observed (else the sampler
        uses the view alone)."""
        return self._round is not None

    def observe(self, events: Iterable[Event]) -> Knowledge:
        """The knowledge after ``events``, which follow those already seen.

        They are meant as shown to this player
        (:func:`~loveletter.views.events_for`); each is redacted for the
        player again here, so a full log teaches nothing the player could
        not see. Raises :class:`~loveletter.errors.ArgumentError` for events
        that cannot follow (a card drawn from an empty deck, a hand
        compared that holds no card)."""
        player = self.player
        ruleset, players, decks = self.ruleset, self.players, self.decks
        builder = None if self._round is None else _Builder.thaw(self._round, self)
        for raw in events:
            event = redact(raw, player)
            kind = type(event)
            if kind is GameStarted:
                assert isinstance(event, GameStarted)
                ruleset, players = event.ruleset, event.players
                decks = 1 if event.settings is None else event.settings.decks
                builder = None
            elif kind is PositionEstablished:
                ruleset, builder = None, None
            elif kind is RoundStarted:
                builder = None
                if ruleset is not None:
                    size = len(get_ruleset(ruleset).deck_for(players, decks))
                    builder = _Builder.deal(size, players, get_ruleset(ruleset))
            elif builder is not None:
                builder.apply(event)
        frozen = None if builder is None else builder.freeze()
        return Knowledge._of(player, ruleset, players, decks, frozen)


def knowledge_of(player: int, events: Iterable[Event]) -> Knowledge:
    """What ``player`` knows after a game's full (unredacted) event log:
    :meth:`Knowledge.observe` redacts each event for them."""
    return Knowledge.start(player).observe(events)


class _Builder:
    """The mutable copy of a :class:`_Round` that one ``observe`` works on."""

    def __init__(self, rnd: _Round, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.count = rnd.count
        self.hands = [list(hand) for hand in rnd.hands]
        self.deck = list(rnd.deck)
        self.set_aside = rnd.set_aside
        self.masks = list(rnd.masks)
        self.perms = list(rnd.perms)
        self.cmps = list(rnd.cmps)
        self.sightings = list(rnd.sightings)
        self.returns = list(rnd.returns)
        self.turn = rnd.turn
        self.pending = rnd.pending

    @classmethod
    def thaw(cls, rnd: _Round, knowledge: Knowledge) -> _Builder:
        assert knowledge.ruleset is not None
        return cls(rnd, get_ruleset(knowledge.ruleset))

    @classmethod
    def deal(cls, size: int, players: int, ruleset: Ruleset) -> _Builder:
        empty = _Round(size, ((),) * players, tuple(range(size)), None, (), (), (), (), (), 0)
        return cls(empty, ruleset)

    def freeze(self) -> _Round:
        return _Round(
            self.count,
            tuple(map(tuple, self.hands)),
            tuple(self.deck),
            self.set_aside,
            tuple(self.masks),
            tuple(self.perms),
            tuple(self.cmps),
            tuple(self.sightings),
            tuple(self.returns),
            self.turn,
            self.pending,
        )

    # ---------------------------------------------------------------- helpers

    def new(self) -> int:
        self.count += 1
        return self.count - 1

    def pin(self, var: int, card: Card) -> None:
        self.masks.append((var, _bit(card)))

    def pinned(self, card: Card) -> int:
        var = self.new()
        self.pin(var, card)
        return var

    def top(self, field: str) -> int:
        if not self.deck:
            raise ArgumentError("events", f"{field}: the deck is empty in this player's account")
        return self.deck.pop(0)

    def hand(self, seat: int, field: str) -> list[int]:
        if not 0 <= seat < len(self.hands):
            raise ArgumentError("events", f"{field}: there is no seat {seat}")
        return self.hands[seat]

    def leave(self, seat: int, cards: Sequence[Card], field: str) -> list[int]:
        """``cards`` leave ``seat``'s hand, seen: the variables left behind."""
        held = self.hand(seat, field)
        if len(cards) > len(held):
            raise ArgumentError("events", f"{field}: player {seat} holds fewer cards than that")
        outs = [self.pinned(card) for card in cards]
        rest = [self.new() for _ in range(len(held) - len(cards))]
        if held:
            self.perms.append((tuple(held), (*outs, *rest)))
        self.hands[seat] = rest
        return rest

    def value_mask(self, number: int) -> int:
        values = self.ruleset.values
        return sum(_bit(card) for card in self.ruleset.kinds if values[card] == number)

    def name_mask(self, name: Card | int) -> int:
        """The kinds a Guard's or a Bishop's name hits."""
        if type(name) is Card:
            return _bit(name)
        assert isinstance(name, int)
        return self.value_mask(name)

    # ----------------------------------------------------------------- events

    def settle(self, event: Event) -> None:
        """Settle the pending outcome by ``event``, the one that follows."""
        pending = self.pending
        assert pending is not None
        self.pending = None
        kind = type(event)
        if pending.kind == "guard":
            hit = (
                kind is PlayerEliminated
                and isinstance(event, PlayerEliminated)
                and event.player == pending.seat
                and event.reason is EliminationReason.GUARD_GUESS
            ) or (
                kind is CardRevealed
                and isinstance(event, CardRevealed)
                and event.player == pending.seat
            )
            if not hit:  # the named card is not held, nor an Assassin (he would answer)
                missed = self.name_mask(pending.name) | _bit(_ASSASSIN)
                self.masks.extend((var, ~missed) for var in pending.cards)
        elif pending.kind == "bishop":
            hit = (
                kind is TokenAwarded
                and isinstance(event, TokenAwarded)
                and event.reason is TokenReason.BISHOP
            )
            named = self.name_mask(pending.name)
            if hit and len(pending.cards) == 1:
                self.masks.append((pending.cards[0], named))
            elif not hit:
                self.masks.extend((var, ~named) for var in pending.cards)
        else:
            mine, theirs = pending.cards
            lost = (
                event.player
                if isinstance(event, PlayerEliminated) and event.reason in _COMPARISON_LOSS
                else None
            )
            if lost is None:
                self.cmps.append((mine, theirs, _EQUAL))
            else:
                # the Baron knocks out the lower card, the Dowager Queen the higher
                lower_loses = pending.name is _BARON
                player_lower = (lost == pending.seat) is lower_loses
                self.cmps.append((mine, theirs, _LOWER if player_lower else _HIGHER))

    def apply(self, event: Event) -> None:
        if self.pending is not None:
            self.settle(event)
        kind = type(event)
        if kind is TurnStarted:
            self.turn += 1
        elif kind is CardDrawn:
            assert isinstance(event, CardDrawn)
            if event.from_set_aside:
                if self.set_aside is None:
                    raise ArgumentError("events", "CardDrawn: no card is set aside")
                var, self.set_aside = self.set_aside, None
            else:
                var = self.top("CardDrawn")
            self.hand(event.player, "CardDrawn").append(var)
            if event.card is not None:
                self.pin(var, event.card)
        elif kind is CardPlayed:
            assert isinstance(event, CardPlayed)
            self.played(event)
        elif kind is CardDiscarded:
            assert isinstance(event, CardDiscarded)
            self.leave(event.player, (event.card,), "CardDiscarded")
        elif kind is PlayerEliminated:
            assert isinstance(event, PlayerEliminated)
            self.leave(event.player, event.discarded, "PlayerEliminated")
            self.hands[event.player] = []
        elif kind is HandSeen:
            assert isinstance(event, HandSeen)
            held = self.hand(event.owner, "HandSeen")
            if held:
                if event.viewer != event.owner:
                    self.sightings.append(
                        (event.viewer, event.owner, held[0], self.turn, event.via)
                    )
                if event.card is not None:
                    self.pin(held[0], event.card)
        elif kind is HandsCompared:
            assert isinstance(event, HandsCompared)
            self.compared(event)
        elif kind is HandsTraded:
            assert isinstance(event, HandsTraded)
            mine = self.hand(event.player, "HandsTraded")
            theirs = self.hand(event.opponent, "HandsTraded")
            self.hands[event.player], self.hands[event.opponent] = theirs, mine
            self.sightings.extend(
                (event.player, event.opponent, var, self.turn, event.via) for var in mine
            )
            self.sightings.extend(
                (event.opponent, event.player, var, self.turn, event.via) for var in theirs
            )
        elif kind is ChancellorDrew:
            assert isinstance(event, ChancellorDrew)
            drawn = [self.top("ChancellorDrew") for _ in range(event.count)]
            self.hand(event.player, "ChancellorDrew").extend(drawn)
            if event.cards is not None:
                for var, card in zip(drawn, event.cards, strict=True):
                    self.pin(var, card)
        elif kind is CardsReturned:
            assert isinstance(event, CardsReturned)
            self.returned(event)
        elif kind is CardSetAside:
            assert isinstance(event, CardSetAside)
            self.set_aside = self.top("CardSetAside")
            if event.card is not None:
                self.pin(self.set_aside, event.card)
        elif kind is CardRemovedFaceUp:
            assert isinstance(event, CardRemovedFaceUp)
            self.pin(self.top("CardRemovedFaceUp"), event.card)
        elif kind is CardDealt:
            assert isinstance(event, CardDealt)
            var = self.top("CardDealt")
            self.hand(event.player, "CardDealt").append(var)
            if event.card is not None:
                self.pin(var, event.card)
        elif kind is CardRevealed:
            assert isinstance(event, CardRevealed)
            held = self.hand(event.player, "CardRevealed")
            if len(held) == 1:
                self.pin(held[0], event.card)
        elif kind is RoundEnded:
            assert isinstance(event, RoundEnded)
            for seat, card in event.revealed:
                held = self.hand(seat, "RoundEnded")
                if len(held) == 1:
                    self.pin(held[0], card)

    def played(self, event: CardPlayed) -> None:
        """The card played was one of the hand's; what stays did not forbid it."""
        card = event.card
        rest = self.leave(event.player, (card,), "CardPlayed")
        forbids = self.ruleset.forbids
        forbidding = sum(_bit(held) for held in self.ruleset.kinds if card in forbids[held])
        if forbidding:
            self.masks.extend((var, ~forbidding) for var in rest)
        target = event.target
        if target is not None and event.guess is not None and card in _NAMING:
            chosen = tuple(self.hand(target, "CardPlayed"))
            kind = "guard" if card is _GUARD else "bishop"
            self.pending = _Pending(kind, target, chosen, event.guess)

    def compared(self, event: HandsCompared) -> None:
        mine = self.hand(event.player, "HandsCompared")
        theirs = self.hand(event.opponent, "HandsCompared")
        if not mine or not theirs:
            raise ArgumentError("events", "HandsCompared: an empty hand was compared")
        turn = self.turn
        self.sightings.append((event.player, event.opponent, theirs[0], turn, event.via))
        self.sightings.append((event.opponent, event.player, mine[0], turn, event.via))
        if event.player_card is not None:
            self.pin(mine[0], event.player_card)
        if event.opponent_card is not None:
            self.pin(theirs[0], event.opponent_card)
        self.pending = _Pending("compare", event.player, (mine[0], theirs[0]), event.via)

    def returned(self, event: CardsReturned) -> None:
        """One card kept, the others under the deck: the same cards, in an
        order only the Chancellor's player knows."""
        held = self.hand(event.player, "CardsReturned")
        if event.count >= len(held):
            raise ArgumentError("events", "CardsReturned: more cards than the hand holds")
        outs = [self.new() for _ in held]
        self.perms.append((tuple(held), tuple(outs)))
        kept, back = outs[: len(held) - event.count], outs[len(held) - event.count :]
        if event.cards is not None:
            for var, card in zip(back, event.cards, strict=True):
                self.pin(var, card)
        self.hands[event.player] = kept
        self.deck.extend(back)
        self.returns.append((event.player, event.count))


# --------------------------------------------------------------------------
# the constraint search


_PERMUTATIONS = tuple(tuple(permutations(range(n))) for n in range(4))


class _Csp:
    """Variables with kinds as bit masks, and the relations between them:
    arc consistency and a backtracking search for one solution."""

    def __init__(
        self,
        domains: list[int],
        perms: Sequence[_Perm],
        cmps: Sequence[_Cmp],
        values: Sequence[int],
    ) -> None:
        self.domains = domains
        self.values = values
        self.perms = list(perms)
        self.cmps = list(cmps)
        #: per variable: the relations it takes part in (perms first, then
        #: cmps offset by the number of perms)
        self.touching: list[list[int]] = [[] for _ in domains]
        for index, (ins, outs) in enumerate(self.perms):
            for var in (*ins, *outs):
                self.touching[var].append(index)
        offset = len(self.perms)
        for index, (a, b, _) in enumerate(self.cmps):
            self.touching[a].append(offset + index)
            self.touching[b].append(offset + index)
        self.related = [var for var, rels in enumerate(self.touching) if rels]

    def _values_of(self, mask: int) -> set[int]:
        values = self.values
        return {values[card] for card in _cards_of(mask)}

    def _kinds_where(self, keep: Callable[[int], bool]) -> int:
        """The mask of every kind whose value passes ``keep``."""
        return sum(1 << code for code, value in enumerate(self.values) if keep(value))

    def _revise(self, domains: list[int], relation: int) -> list[int] | None:
        """Narrow the domains of one relation's variables; the variables
        changed, or ``None`` when the relation cannot hold."""
        if relation < len(self.perms):
            ins, outs = self.perms[relation]
            n = len(ins)
            new_in = [0] * n
            new_out = [0] * n
            for order in _PERMUTATIONS[n]:
                meet = [domains[ins[i]] & domains[outs[order[i]]] for i in range(n)]
                if all(meet):
                    for i in range(n):
                        new_in[i] |= meet[i]
                        new_out[order[i]] |= meet[i]
            if not any(new_in):
                return None
            narrowed = (*zip(ins, new_in, strict=True), *zip(outs, new_out, strict=True))
        else:
            a, b, rel = self.cmps[relation - len(self.perms)]
            if rel == _LOWER:  # a < b is b > a
                a, b, rel = b, a, _HIGHER
            values_a, values_b = self._values_of(domains[a]), self._values_of(domains[b])
            if rel == _EQUAL:
                new_a = domains[a] & self._kinds_where(lambda v: v in values_b)
                new_b = domains[b] & self._kinds_where(lambda v: v in values_a)
            else:  # a above some value of b, b below some value of a
                least, most = min(values_b), max(values_a)
                new_a = domains[a] & self._kinds_where(lambda v: v > least)
                new_b = domains[b] & self._kinds_where(lambda v: v < most)
            if not new_a or not new_b:
                return None
            narrowed = ((a, new_a), (b, new_b))
        changed: list[int] = []
        for var, mask in narrowed:
            if mask != domains[var]:
                domains[var] = mask
                changed.append(var)
        return changed

    def propagate(self, domains: list[int], start: Iterable[int] | None = None) -> bool:
        """Arc consistency, in place; ``False`` when some domain empties."""
        if any(not d for d in domains):
            return False
        queue = list(range(len(self.perms) + len(self.cmps))) if start is None else list(start)
        queued = set(queue)
        while queue:
            relation = queue.pop()
            queued.discard(relation)
            changed = self._revise(domains, relation)
            if changed is None:
                return False
            for var in changed:
                for other in self.touching[var]:
                    if other != relation and other not in queued:
                        queued.add(other)
                        queue.append(other)
        return True

    def solve(self, domains: list[int], fixed: Iterable[tuple[int, Card]] = ()) -> list[int] | None:
        """One solution (every related variable down to one kind) with the
        ``fixed`` variables as given, or ``None``."""
        domains = list(domains)
        start: set[int] = set()
        for var, card in fixed:
            domains[var] &= _bit(card)
            start.update(self.touching[var])
        if not self.propagate(domains, sorted(start)):
            return None
        return self._search(domains)

    def _search(self, domains: list[int]) -> list[int] | None:
        best, size = -1, 99
        for var in self.related:
            count = domains[var].bit_count()
            if 1 < count < size:
                best, size = var, count
        if best < 0:
            return domains
        for card in _cards_of(domains[best]):
            trial = list(domains)
            trial[best] = _bit(card)
            if self.propagate(trial, self.touching[best]):
                found = self._search(trial)
                if found is not None:
                    return found
        return None


# --------------------------------------------------------------------------
# from a view (and knowledge) to a plan of what to draw

#: where a sighting's card comes from: fixed, a slot of the draw, or a past variable
_Source = Card | tuple[str, int]


@attrs.frozen(eq=False)
class _Group:
    """Related variables holding two or more of the places to fill: their
    kinds are checked together, per candidate."""

    csp: _Csp
    #: the plan's slots that lie in this group
    slots: tuple[int, ...]
    #: the group's own variable for each slot
    variables: tuple[int, ...]
    #: the round's variable -> the group's own, for the values to report
    wanted: dict[int, int]


@attrs.frozen(eq=False)
class _Plan:
    """Everything :func:`sample_consistent_state` needs, once per view and
    knowledge: the places to fill (the *slots*), what each may hold, the
    unseen cards left to put there, and the groups to check together."""

    #: per seat: a slot index per card, or the kind itself where it is fixed
    hands: tuple[tuple[int | Card, ...], ...]
    deck: tuple[int | Card, ...]
    set_aside: int | Card | None
    #: per slot: the kinds it may hold, as a mask
    masks: tuple[int, ...]
    #: the unseen cards not fixed anywhere, in card order
    pool: tuple[Card, ...]
    #: the slots drawn first and checked (a narrower mask than the pool's, or a group)
    checked: tuple[int, ...]
    #: the other slots, filled by a shuffle of the cards left
    free: tuple[int, ...]
    groups: tuple[_Group, ...]
    #: per slot: for each kind it may hold, the values of the wanted
    #: variables of its group in one history that fits
    witnesses: tuple[dict[Card, dict[int, Card]], ...]
    #: (viewer, owner, turn, via, where the card comes from), in order
    sightings: tuple[tuple[int, int, int, Card, _Source], ...]
    returns: tuple[tuple[int, int], ...]
    #: wanted variables whose value does not depend on the draw
    settled: dict[int, Card]
    #: wanted variables of a group: the group's index
    group_of: dict[int, int]
    #: wanted variables of a single slot's group: the slot
    slot_of_witness: dict[int, int]


def _inconsistent(message: str) -> ArgumentError:
    return ArgumentError("view", f"no hidden cards are consistent with it: {message}")


def _view_round(view: PlayerView) -> _Round:
    """What the view alone proves, as a round of unrelated variables."""
    count = 0

    def fresh(n: int) -> tuple[int, ...]:
        nonlocal count
        count += n
        return tuple(range(count - n, count))

    hands = tuple(fresh(size) for size in view.hand_sizes)
    deck = fresh(view.deck_size)
    set_aside = fresh(1)[0] if view.set_aside_present else None
    masks: list[tuple[int, int]] = []
    bottom = view.deck_bottom
    for var, card in zip(deck[len(deck) - len(bottom) :], bottom, strict=True):
        if card is not None:
            masks.append((var, _bit(card)))
    # No card changes hands after a sighting within the turn that made it,
    # so this turn's sightings hold while their owner is in the round.
    latest: dict[int, Card] = {}
    for seen in view.sightings:
        if seen.turn == view.turn_number and seen.owner not in view.out:
            latest[seen.owner] = seen.card
    if view.round_result is not None:
        latest.update(view.round_result.revealed)
    for owner, card in latest.items():
        if owner != view.player and len(hands[owner]) == 1:
            masks.append((hands[owner][0], _bit(card)))
    # The returns: the player's own where the view shows them, another
    # seat's for the unknown cards among them (the view says no more).
    returns: list[tuple[int, int]] = []
    other = next(seat for seat in range(view.players) if seat != view.player)
    for card in bottom:
        owner = other if card is None else view.player
        if returns and returns[-1][0] == owner:
            returns[-1] = (owner, returns[-1][1] + 1)
        else:
            returns.append((owner, 1))
    return _Round(count, hands, deck, set_aside, tuple(masks), (), (), (), tuple(returns), 0)


def _check_fits(view: PlayerView, knowledge: Knowledge, rnd: _Round) -> None:
    """Refuse knowledge of another player, game or moment than the view."""

    def mismatch(what: str) -> ArgumentError:
        return ArgumentError("knowledge", f"does not match the view: {what}")

    if knowledge.player != view.player:
        raise mismatch(f"it is player {knowledge.player}'s, the view player {view.player}'s")
    if knowledge.ruleset is None or get_ruleset(knowledge.ruleset) is not get_ruleset(view.ruleset):
        raise mismatch(f"it is of another edition ({knowledge.ruleset})")
    sizes = tuple(map(len, rnd.hands))
    if sizes != view.hand_sizes:
        raise mismatch(f"hands of {sizes} cards, not {view.hand_sizes}")
    if len(rnd.deck) != view.deck_size or (rnd.set_aside is not None) != view.set_aside_present:
        raise mismatch(f"a deck of {len(rnd.deck)} cards, not {view.deck_size}")
    mine = [(s[1], s[3], s[4]) for s in rnd.sightings if s[0] == view.player]
    if mine != [(s.owner, s.turn, s.via) for s in view.sightings]:
        raise mismatch("other sightings")


def _first(mask: int) -> Card:
    return next(_cards_of(mask))


@functools.lru_cache(maxsize=32)
def _plan(view: PlayerView, knowledge: Knowledge | None) -> _Plan:
    rules = get_ruleset(view.ruleset)
    decks = 1 if view.settings is None else view.settings.decks
    everything = sum(_bit(card) for card in rules.setup(view.players, decks).kinds)
    known = knowledge is not None and knowledge._round is not None
    if knowledge is not None and knowledge._round is not None:
        rnd = knowledge._round
        _check_fits(view, knowledge, rnd)
    else:
        rnd = _view_round(view)
    me = view.player

    domains = [everything] * rnd.count
    for var, mask in rnd.masks:
        domains[var] &= mask
    for var, card in zip(rnd.hands[me], view.hand, strict=True):
        domains[var] &= _bit(card)
    if known:
        mine = [s for s in rnd.sightings if s[0] == me]
        for (_, _, var, _, _), seen in zip(mine, view.sightings, strict=True):
            domains[var] &= _bit(seen.card)
    if not _Csp(domains, rnd.perms, rnd.cmps, rules.values).propagate(domains):
        raise _inconsistent("the events and the view contradict each other")

    # the places to fill, in a fixed order: other hands, deck, set-aside card
    places = [var for seat, hand in enumerate(rnd.hands) if seat != me for var in hand]
    places.extend(rnd.deck)
    if rnd.set_aside is not None:
        places.append(rnd.set_aside)
    place_set = set(places)
    wanted_all = {s[2] for s in rnd.sightings if s[0] != me and domains[s[2]].bit_count() > 1}

    # groups: the variables tied by relations (union-find)
    parent = list(range(rnd.count))

    def root(var: int) -> int:
        while parent[var] != var:
            parent[var] = parent[parent[var]]
            var = parent[var]
        return var

    for ins, outs in rnd.perms:
        for var in (*ins[1:], *outs):
            parent[root(var)] = root(ins[0])
    for a, b, _ in rnd.cmps:
        parent[root(b)] = root(a)
    members: dict[int, list[int]] = {}
    for var in range(rnd.count):
        members.setdefault(root(var), []).append(var)
    perms_of: dict[int, list[_Perm]] = {}
    for ins, outs in rnd.perms:
        perms_of.setdefault(root(ins[0]), []).append((ins, outs))
    cmps_of: dict[int, list[_Cmp]] = {}
    for cmp in rnd.cmps:
        cmps_of.setdefault(root(cmp[0]), []).append(cmp)

    fixed: dict[int, Card] = {var: _first(domains[var]) for var in places if domains[var]}
    fixed = {var: card for var, card in fixed.items() if domains[var].bit_count() == 1}
    slot_of: dict[int, int] = {}
    masks: list[int] = []
    witnesses: list[dict[Card, dict[int, Card]]] = []
    groups: list[_Group] = []
    grouped: list[int] = []
    settled: dict[int, Card] = {}
    group_of: dict[int, int] = {}
    slot_of_witness: dict[int, int] = {}
    for key in sorted(members):
        group_vars = members[key]
        local = {var: index for index, var in enumerate(group_vars)}
        sub = _Csp(
            [domains[var] for var in group_vars],
            [
                (tuple(local[v] for v in ins), tuple(local[v] for v in outs))
                for ins, outs in perms_of.get(key, ())
            ],
            [(local[a], local[b], rel) for a, b, rel in cmps_of.get(key, ())],
            rules.values,
        )
        open_places = [var for var in group_vars if var in place_set and var not in fixed]
        wanted = [var for var in group_vars if var in wanted_all and var not in place_set]

        def report(solution: list[int]) -> dict[int, Card]:
            return {var: _first(solution[local[var]]) for var in wanted}  # noqa: B023

        if len(open_places) <= 1:
            possible: dict[Card, dict[int, Card]] = {}
            if not open_places:
                solution = sub.solve(sub.domains) if sub.related else sub.domains
                if solution is None:
                    raise _inconsistent("no history of the round fits what was seen")
                settled.update(report(solution))
                continue
            var = open_places[0]
            for card in _cards_of(domains[var]):
                found = sub.solve(sub.domains, ((local[var], card),)) if sub.related else None
                if found is not None or not sub.related:
                    possible[card] = report(found) if found is not None else {}
            if not possible:
                raise _inconsistent("a hidden card can be no kind at all")
            if len(possible) == 1:
                ((card, report_of),) = possible.items()
                fixed[var] = card
                settled.update(report_of)
                continue
            slot_of[var] = len(masks)
            for wanted_var in wanted:
                slot_of_witness[wanted_var] = len(masks)
            masks.append(sum(_bit(card) for card in possible))
            witnesses.append(possible)
            continue
        slots = []
        for var in open_places:
            slot_of[var] = len(masks)
            slots.append(len(masks))
            grouped.append(len(masks))
            masks.append(domains[var])
            witnesses.append({})
        for wanted_var in wanted:
            group_of[wanted_var] = len(groups)
        groups.append(
            _Group(
                sub,
                tuple(slots),
                tuple(local[var] for var in open_places),
                {var: local[var] for var in wanted},
            )
        )

    unseen = Counter(view.unseen_cards())
    for var in places:
        if var in fixed:
            unseen[fixed[var]] -= 1
            if unseen[fixed[var]] < 0:
                raise _inconsistent(f"more of the {fixed[var]} are placed than unseen")
    pool = tuple(sorted(unseen.elements()))
    pool_mask = sum(_bit(card) for card in unseen if unseen[card])
    grouped_set = set(grouped)
    checked = tuple(
        slot
        for slot, mask in enumerate(masks)
        if slot in grouped_set or mask & pool_mask != pool_mask
    )
    free = tuple(slot for slot in range(len(masks)) if slot not in set(checked))

    def where(var: int) -> int | Card:
        return fixed[var] if var in fixed else slot_of[var]

    sightings: list[tuple[int, int, int, Card, _Source]] = []
    own = iter(view.sightings)
    for viewer, owner, var, turn, via in rnd.sightings:
        source: _Source
        if viewer == me:
            source = next(own).card
        elif domains[var].bit_count() == 1:
            source = _first(domains[var])
        elif var in fixed:
            source = fixed[var]
        elif var in slot_of:
            source = ("slot", slot_of[var])
        else:
            source = ("var", var)
        sightings.append((viewer, owner, turn, via, source))
    if not known:
        sightings = [(me, s.owner, s.turn, s.via, s.card) for s in view.sightings]
    return _Plan(
        hands=tuple(
            view.hand if seat == me else tuple(where(var) for var in hand)
            for seat, hand in enumerate(rnd.hands)
        ),
        deck=tuple(where(var) for var in rnd.deck),
        set_aside=None if rnd.set_aside is None else where(rnd.set_aside),
        masks=tuple(masks),
        pool=pool,
        checked=checked,
        free=free,
        groups=tuple(groups),
        witnesses=tuple(witnesses),
        sightings=tuple(sightings),
        returns=rnd.returns,
        settled=settled,
        group_of=group_of,
        slot_of_witness=slot_of_witness,
    )


# --------------------------------------------------------------------------
# drawing

#: candidates tried one by one before the draw lists every assignment of
#: the checked slots instead (exact either way)
_TRIES = 3_000
#: the most assignments of the checked slots that the listing goes through
_LISTED = 200_000
#: the candidates tried before giving up where listing would cost too much
#: (only a view and knowledge that contradict each other come near it)
_MOST_TRIES = 2_000_000
#: what a slot holds before it is drawn (never read)
_UNSET = next(iter(Card))


class _Drawer:
    """Draws every slot's kind: uniform over the arrangements of the pool
    into the slots, kept when the checked slots pass their checks."""

    def __init__(self, plan: _Plan) -> None:
        self.plan = plan
        self.memo: dict[tuple[int, tuple[Card, ...]], list[int] | None] = {}
        self.listing: tuple[list[tuple[Card, ...]], list[float]] | None = None
        # whether listing the checked slots' assignments stays affordable
        kinds = sum(_bit(card) for card in plan.pool)
        leaves = math.prod((plan.masks[slot] & kinds).bit_count() for slot in plan.checked)
        self.listable = leaves <= _LISTED

    def group_solution(self, index: int, cards: Sequence[Card]) -> list[int] | None:
        """One history of group ``index`` that fits the kinds in ``cards``."""
        group = self.plan.groups[index]
        key = (index, tuple(cards[slot] for slot in group.slots))
        if key not in self.memo:
            fixed = tuple(zip(group.variables, key[1], strict=True))
            self.memo[key] = group.csp.solve(group.csp.domains, fixed)
        return self.memo[key]

    def passes(self, cards: Sequence[Card]) -> bool:
        masks = self.plan.masks
        for slot in self.plan.checked:
            if not masks[slot] >> cards[slot].code & 1:
                return False
        return all(
            self.group_solution(index, cards) is not None for index in range(len(self.plan.groups))
        )

    def draw(self, rng: random.Random) -> list[Card]:
        plan = self.plan
        if self.listing is None:
            tries = _TRIES if self.listable else _MOST_TRIES
            for _ in range(tries):
                cards = self.attempt(rng)
                if cards is not None:
                    return cards
            if not self.listable:
                raise _inconsistent(f"no arrangement of the unseen cards passed in {tries} tries")
            self.listing = self.enumerate()
        options, totals = self.listing
        chosen = options[bisect_right(totals, rng.random() * totals[-1])]
        cards = [_UNSET] * len(plan.masks)
        rest = Counter(plan.pool)
        for slot, card in zip(plan.checked, chosen, strict=True):
            cards[slot] = card
            rest[card] -= 1
        return self.fill(cards, sorted(rest.elements()), rng)

    def attempt(self, rng: random.Random) -> list[Card] | None:
        """One uniform arrangement, if its checked slots pass."""
        plan = self.plan
        pool = plan.pool
        # the checked slots' share of a uniform arrangement of the pool's
        # copies is an ordered sample of them
        picked = rng.sample(range(len(pool)), len(plan.checked))
        cards = [_UNSET] * len(plan.masks)
        for slot, index in zip(plan.checked, picked, strict=True):
            cards[slot] = pool[index]
        if not self.passes(cards):
            return None
        taken = set(picked)
        return self.fill(cards, [card for i, card in enumerate(pool) if i not in taken], rng)

    def fill(self, cards: list[Card], rest: list[Card], rng: random.Random) -> list[Card]:
        rng.shuffle(rest)
        for slot, card in zip(self.plan.free, rest, strict=True):
            cards[slot] = card
        return cards

    def enumerate(self) -> tuple[list[tuple[Card, ...]], list[float]]:
        """Every assignment of the checked slots that passes, weighted by the
        number of ways the pool's copies make it (the sample's weights)."""
        plan = self.plan
        left = Counter(plan.pool)
        options: list[tuple[Card, ...]] = []
        weights: list[float] = []
        chosen: list[Card] = []
        cards = [_UNSET] * len(plan.masks)

        def walk(depth: int, weight: int) -> None:
            if depth == len(plan.checked):
                if self.passes(cards):
                    options.append(tuple(chosen))
                    weights.append(float(weight))
                return
            slot = plan.checked[depth]
            mask = plan.masks[slot]
            for card in sorted(left):
                copies = left[card]
                if copies and mask >> card.code & 1:
                    left[card] -= 1
                    chosen.append(card)
                    cards[slot] = card
                    walk(depth + 1, weight * copies)
                    chosen.pop()
                    left[card] += 1

        walk(0, 1)
        if not options:
            raise _inconsistent("no arrangement of the unseen cards passes")
        return options, list(accumulate(weights))

    def sighting(self, cards: Sequence[Card], source: _Source) -> Card:
        """The card an other player's sighting shows in this sample."""
        if isinstance(source, Card):
            return source
        kind, index = source
        plan = self.plan
        if kind == "slot":
            return cards[index]
        if index in plan.settled:
            return plan.settled[index]
        if index in plan.group_of:
            number = plan.group_of[index]
            solution = self.group_solution(number, cards)
            assert solution is not None
            return _first(solution[plan.groups[number].wanted[index]])
        slot = plan.slot_of_witness[index]
        return plan.witnesses[slot][cards[slot]][index]


@functools.lru_cache(maxsize=32)
def _drawer(plan: _Plan) -> _Drawer:
    return _Drawer(plan)


def sample_consistent_state(
    view: PlayerView, rng: random.Random, knowledge: Knowledge | None = None
) -> GameState:
    """A full state that ``view.player`` cannot tell from the truth, drawn
    uniformly among those consistent with ``view`` and ``knowledge`` (see
    :mod:`loveletter.determinization` for what that covers).

    ``view(result, view.player) == view``, and the engine plays on from
    the result. Without ``knowledge``, or with knowledge that has not seen
    this round's deal, only what the view proves is used: the unseen cards,
    the player's own returned cards under the deck, hands revealed at the
    round's end and the sightings of the current turn. The result depends
    on ``view``, ``knowledge`` and the draws taken from ``rng`` only; the
    work that depends on the first two alone is cached, so that many
    samples of one moment cost little more than one.

    Raises :class:`~loveletter.errors.ArgumentError` when ``knowledge`` is
    another player's, or of another moment than ``view``, or when nothing
    hidden fits them both.
    """
    if not isinstance(view, PlayerView):
        raise ArgumentError("view", f"expected a PlayerView, not {type(view).__name__}")
    if not isinstance(rng, random.Random):
        raise ArgumentError("rng", f"expected a random.Random, not {type(rng).__name__}")
    if knowledge is not None and not isinstance(knowledge, Knowledge):
        raise ArgumentError("knowledge", f"expected Knowledge, not {type(knowledge).__name__}")
    plan = _plan(view, knowledge)
    drawer = _drawer(plan)
    cards = drawer.draw(rng)

    def card_at(place: int | Card) -> Card:
        return place if isinstance(place, Card) else cards[place]

    table = Table(
        ruleset=get_ruleset(view.ruleset),
        players=view.players,
        seed=rng.getrandbits(128),
        tokens=view.tokens,
        round_number=view.round_number,
        set_aside=None if plan.set_aside is None else card_at(plan.set_aside),
        face_up=view.face_up,
        round_result=view.round_result,
        winners=view.winners,
        contenders=view.contenders,
        settings=view.settings,
        order=view.order,
        left=frozenset(view.left),
    )
    return GameState(
        table,
        view.decision,
        view.current,
        view.turn_number,
        tuple(card_at(place) for place in plan.deck),
        tuple(tuple(card_at(place) for place in hand) for hand in plan.hands),
        view.discards,
        frozenset(view.out),
        frozenset(view.protected),
        tuple(
            Sighting(viewer, owner, drawer.sighting(cards, source), turn, via)
            for viewer, owner, turn, via, source in plan.sightings
        ),
        view.pending,
        view.required,
        view.marks,
        plan.returns,
        view.exits,
    )


def _admits(view: PlayerView, knowledge: Knowledge | None, state: GameState) -> bool:
    """Whether ``state``'s hidden cards are among those the sampler draws
    from (a check for tests: the truth must always be)."""
    plan = _plan(view, knowledge)
    cards = [_UNSET] * len(plan.masks)
    pairs = [
        (place, card)
        for seat, hand in enumerate(plan.hands)
        if seat != view.player
        for place, card in zip(hand, state.hands[seat], strict=True)
    ]
    pairs.extend(zip(plan.deck, state.deck, strict=True))
    if plan.set_aside is not None and state.set_aside is not None:
        pairs.append((plan.set_aside, state.set_aside))
    for place, card in pairs:
        if isinstance(place, Card):
            if place != card:
                return False
        else:
            cards[place] = card
    if any(not plan.masks[slot] >> card.code & 1 for slot, card in enumerate(cards)):
        return False
    return _drawer(plan).passes(cards)
