"""Replay starts: every position case reached by play from a stacked deal.

A position case starts in the middle of a round. An engine whose only
public entry points are "new game with a stacked deck" and "play a
command" cannot load a position, so for each such case this module finds a
*replay start*: round 1's stacked deck and first player, and every command
that leads from that deal, through the rules of this engine, to exactly the
case's start (deck order, set-aside and face-up cards, hands in order,
discard piles in order, current player, out, protected, tokens, round and
turn numbers, sightings, and Premium's requirement, marks, contenders and
returns). Finding one is the proof that the position can occur.

``conformance/replays/<ruleset>/<topic>/<id>.yaml`` holds the replay start
of ``conformance/cases/<ruleset>/<topic>/<id>.yaml``::

    format: 1
    case: <id>
    ruleset: "2019"
    players: 4
    settings: {decks: 2, ...}                 # online, when not the defaults
    deal:                                     # round 1, top first
      deck: [...]
      first_player: 0
      order: [0, 2, 1, 3]                     # online: round 1's turn order
      seed: "1"                               # the position's seed, when not 0
    commands: [...]                           # protocol JSON, null fields omitted
    after_draw: false

With ``after_draw: true`` (a position with ``drawn: false``; this
engine never rests before a turn's draw) the commands reach the state the
case's position reaches after its first step, a ``DrawCard``.

**The search.** A round's deal order is fixed (ruling 3), so every card is
either in the position's deck (its untouched tail, then a Chancellor's
returns), set aside, face up, or one of the *pool*: the cards dealt or
drawn during the round. The order of the pool is what the search chooses,
lazily: the engine state's deck holds *placeholders* (integers past every
card code) for the pool, so each card dealt or drawn from it is a
placeholder in a hand until something reads it, and is then *materialized*
to the card the target needs. The target's discard piles drive the search:
the card a player plays on their turn is the next card of their pile, so
each turn tries only the legal commands of that card, and whatever reads a
hand (a Priest, a Baron, a King...) is forced by the target's next
sightings, whatever discards one (a Prince, a knock-out) by the target's
piles. A Guard's or a Bishop's miss on a placeholder leaves it one (the
guess is settled once its card is known: every card misses some guess; a
Guard's miss only rules out the Assassin). Branches die as soon as a pile
is not a prefix of the target's, someone is out who should not be, the
turn number passes the target's, a sighting differs or comes too late, the
turns left cannot fall to the players the sightings name or produce the
piles left, or a card in a hand can no longer end where the target needs
it (in that player's remaining pile or final hand) while no King, Cardinal
or Chancellor is left to move it. Every first player is tried.

Online (the ``online`` ruleset) the search follows the same piles: no card
is set aside or face up, the deck holds the position's decks' cards, the
turns follow the position's turn order (round 1's deal takes it as given,
its first player first), and the players go out in its ``exits`` order. A
player who left during the round does so by a ``Leave`` when they are the
next to go out and their hand is what their pile still lacks (at the
target moment itself too, unless they are the one to act); one who sits
the round out (in ``left`` but not in its order) left between the rounds
before it. The online Baroness's looks (the same player twice allowed) and
the Cardinal's look at its first target's new card are sightings like any
other.

A position no play reaches is reported with the reason: checks that need
no search (a protected player whose pile does not end with a Handmaid, a
sighting no card in the piles could make, more or fewer cards drawn than
the turns allow...), else a search ignoring the sightings and trying other
Chancellor returns, which names the notes the position would need, else
how far any play following its piles gets.

Positions in a later round are reached by the target round's search, then
:func:`loveletter.conformance.prior_rounds.prior_rounds` for the earlier
rounds (with the tokens the round started with, online its decks and the
players who sit it out) and a ``StartRound`` with the target round's deck
(online, and its turn order). The earlier rounds are searched with a seed
drawn from the case's id and avoid the case's own rules where they can,
so that one engine bug stops few starts (``_prelude``). The target
round itself has little such freedom: its plays follow the position's
discard piles, so the cards played, and the rules they touch, are the
position's.

``python -m loveletter.conformance.reach`` writes the files; ``--check``
only verifies them (exit 1 naming every case without a valid replay);
``--dependencies`` reports how many of them touch each rule
(``loveletter.conformance.dependencies``).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from itertools import chain, combinations, permutations, product
from pathlib import Path
from typing import Any, cast

import attrs
import yaml

from loveletter.cards import Card
from loveletter.cards.base import Choice
from loveletter.cards.registry import CARD_RULES
from loveletter.commands import (
    Command,
    Decline,
    DrawCard,
    KeepCard,
    Leave,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
)
from loveletter.conformance.cases import Case, CaseError, load_suite
from loveletter.conformance.execute import ScriptError, start_state
from loveletter.conformance.prior_rounds import Prelude, impossibility, prior_rounds
from loveletter.engine import deal_events, legal_commands, new_game, push
from loveletter.errors import IllegalCommand, LoveLetterError, PositionError, SerializationError
from loveletter.events import GameStarted
from loveletter.evolution import apply_unchecked, initial_state
from loveletter.positions import Position, from_position, to_position
from loveletter.resources import suite_root
from loveletter.rulesets import Ruleset, get_ruleset
from loveletter.serialization import from_data, to_data
from loveletter.state import Decision, GameState, Sighting, TableSettings

JSON = Any

#: the replay file format this module writes
REPLAY_FORMAT = 1
HEADER = "# Generated by `python -m loveletter.conformance.reach`: do not edit.\n"
DEFAULT_CASES = suite_root() / "cases"
DEFAULT_REPLAYS = suite_root() / "replays"
#: nodes (engine pushes) one case's search may spend
DEFAULT_BUDGET = 400_000

#: the first placeholder code: placeholder ``WILD + i`` is the i-th card
#: dealt or drawn from the pool (every card code is far below)
WILD = 1000
_NEUTRAL = Card.GUARD  # stands in for a placeholder the engine will not read
_EMPTY: frozenset[Card] = frozenset()
_PLAY = Decision.PLAY
_LIVE = frozenset({Decision.PLAY, Decision.CHANCELLOR, Decision.LOOK, Decision.REDRAW})
#: cards whose effect shows a hand (a sighting names the card shown)
_SHOWING = frozenset(rules.card for rules in CARD_RULES if rules.shows)
#: cards whose effect reads the played card's player's other card
_READ_OWN = frozenset({Card.BARON, Card.DOWAGER_QUEEN, Card.KING, Card.PRINCESS})
#: cards that read nothing of the hands they choose
_BLIND = frozenset({Card.JESTER, Card.SYCOPHANT})
#: cards whose effect this module knows (every kind so far); a new one's
#: effect would be taken to read every hand it involves
_KNOWN = frozenset(Card)
#: cards that can move a card from one hand to another
_MOVERS = frozenset({Card.KING, Card.CARDINAL})
#: how many extra cards (beyond the turn's draw) a card in a pile may have
#: drawn: a replacement card, or the cards a Chancellor returns
_EXTRA_DRAWS = {
    rules.card: int(rules.replaces) + rules.returns
    for rules in CARD_RULES
    if rules.replaces or rules.returns
}


def _wild(card: Card) -> bool:
    return card >= WILD


def _placeholder(index: int) -> Card:
    return cast(Card, WILD + index)


class SearchBudgetExceeded(Exception):
    """The search spent its budget of nodes before it could answer."""


@attrs.frozen
class RoundSolution:
    """One way to play the target round: its first player and stacked deck,
    its commands, and the tokens its own cards awarded before the target
    moment (a Bishop's, a Constable's)."""

    first_player: int
    deck: tuple[Card, ...]
    commands: tuple[Command, ...]
    gained: tuple[int, ...]
    #: the sightings the round ends with (the target's, unless they were ignored)
    sightings: tuple[Sighting, ...] = ()
    #: online: the round's turn order (the target's)
    order: tuple[int, ...] | None = None


@attrs.frozen
class Replay:
    """A replay start: round 1's stacked deal and every command to the case's start."""

    case: str
    ruleset: str
    players: int
    deck: tuple[Card, ...]
    first_player: int
    commands: tuple[Command, ...]
    after_draw: bool = False
    #: online: round 1's turn order
    order: tuple[int, ...] | None = None
    #: the game's seed (the position's: a time-out's random move is drawn from it)
    seed: int = 0
    #: online: the table's settings when they are not the defaults
    settings: TableSettings | None = None

    def opening(self) -> GameState:
        """The state its deal starts (raises as :func:`new_game` does)."""
        return new_game(
            self.ruleset,
            self.players,
            seed=self.seed,
            first_player=self.first_player,
            deck=self.deck,
            order=self.order,
            settings=self.settings,
        )


@attrs.frozen
class Outcome:
    """What :func:`reach_case` found: a replay, or why there is none."""

    replay: Replay | None
    reason: str = ""
    nodes: int = 0
    #: no replay was found before a search budget ran out: the position may
    #: still be reachable
    exhausted: bool = False


# --------------------------------------------------------------------------
# what a case's start is


def case_start(case: Case) -> GameState:
    """The state a case starts from, built as the conformance executor builds it."""
    try:
        state, _ = start_state(case.data)
    except ScriptError as error:
        raise ValueError(f"{case.name}: the case's start is rejected: {error}") from None
    return state


def is_position_case(case: Case) -> bool:
    return not case.start_rejected and "position" in case.data["start"]


def is_later_deal_case(case: Case) -> bool:
    start = case.data["start"]
    return (
        not case.start_rejected
        and "deal" in start
        and ("tokens" in start["deal"] or "round_number" in start["deal"])
    )


def needs_replay(case: Case) -> bool:
    """Whether a case needs a replay start: a position, or a later-round deal."""
    return is_position_case(case) or is_later_deal_case(case)


def replay_goal(case: Case) -> tuple[GameState, bool]:
    """The state a replay of ``case`` must reach, and whether it is the state
    after the case's first step (a position given before its draw)."""
    state = case_start(case)
    if state.decision is Decision.DRAW:
        return push(state, DrawCard(state.current)), True
    return state, False


# --------------------------------------------------------------------------
# checks that need no search


def static_problem(target: Position) -> str | None:
    """A reason the position cannot occur that needs no search, if any."""
    n = target.players
    ruleset = get_ruleset(target.ruleset)
    piles = target.discards
    t = target.turn_number
    seats = _dealt(target)
    if target.round_number == 1:
        for seat in target.left:
            if seat not in seats:
                return (
                    f"player {seat} has left and sits round 1 out, but round 1 deals every seat"
                    " (a player leaving during it is still dealt in)"
                )
    try:
        from_position(target)  # every check that needs no search
    except PositionError as error:
        return str(error)
    total = sum(map(len, piles))
    # before the first turn's play only a player leaving discards (a hand)
    played = sum(len(pile) for seat, pile in enumerate(piles) if seat not in target.left)
    if t == 1 and played:
        return f"turn 1, but {played} card(s) are already discarded"
    if total < t - 1:
        return f"turn {t}, but only {total} card(s) discarded: each finished turn discards one"
    returned = sum(count for _, count in target.returns)
    tail = max(0, len(target.deck) - returned)
    aside = 1 if ruleset.sets_aside else 0
    pool = len(ruleset.deck_for(n, _decks(target))) - aside - len(target.face_up) - tail
    dealt = len(seats)
    if pool < dealt + t:
        return (
            f"turn {t} of {dealt} players: the round dealt and drew at least {dealt + t} cards,"
            f" but only {pool} are not in the deck, set aside or face up"
        )
    extra = sum(_EXTRA_DRAWS.get(card, 0) for pile in piles for card in pile)
    if pool > dealt + t + extra:
        return (
            f"turn {t} of {dealt} players: {pool} cards left the deck, but the deal, the turns"
            f" and the cards in the piles draw at most {dealt + t + extra}"
        )
    return None


def _names(cards: Sequence[Card]) -> str:
    return "[" + ", ".join(map(str, cards)) + "]"


def _dealt(target: Position) -> tuple[int, ...]:
    """The players dealt into the position's round: its turn order online
    (the players present when it began), a tie-break's contenders, or all."""
    return target.order or target.contenders or tuple(range(target.players))


def _decks(target: Position) -> int:
    return 1 if target.settings is None else target.settings.decks


def _plain_settings(settings: TableSettings | None) -> TableSettings | None:
    """``settings`` when a replay must give them: not the defaults."""
    return None if settings is None or settings == TableSettings() else settings


# --------------------------------------------------------------------------
# the search within the target round


def _set_hand(state: GameState, seat: int, hand: tuple[Card, ...]) -> GameState:
    hands = state.hands
    return attrs.evolve(state, hands=hands[:seat] + (hand,) + hands[seat + 1 :])


def _assign(state: GameState, assigns: dict[Card, Card]) -> GameState:
    """``state`` with the placeholders in ``assigns`` materialized in hands."""
    if not assigns:
        return state
    hands = tuple(tuple(assigns.get(c, c) for c in hand) for hand in state.hands)
    return attrs.evolve(state, hands=hands)


def _replace(state: GameState, seat: int, old: Card, new: Card) -> GameState:
    hand = state.hands[seat]
    index = hand.index(old)
    return _set_hand(state, seat, hand[:index] + (new,) + hand[index + 1 :])


def _leading_wilds(deck: tuple[Card, ...]) -> int:
    k = 0
    for card in deck:
        if card < WILD:
            break
        k += 1
    return k


#: (placeholders materialized, (seat, placeholder, stand-in) substituted for
#: the push and restored after it, exclusions added, the placeholder whose
#: card settles the command's guess)
_Variant = tuple[
    dict[Card, Card], list[tuple[int, Card, Card]], dict[Card, frozenset[Card]], Card | None
]


class RoundSearch:
    """Depth-first search for ways to play one round to ``target`` (a
    position with its current player holding two cards).

    :meth:`solutions` yields every solution it finds, first players in a
    likely order, until ``budget`` nodes are spent (then it raises
    :class:`SearchBudgetExceeded`)."""

    def __init__(
        self, target: Position, budget: int = DEFAULT_BUDGET, *, ignore_sightings: bool = False
    ) -> None:
        if not target.drawn:
            raise ValueError("the search reaches positions whose current player has drawn")
        # a position without a seed is searched as a replay start reads it: seed 0
        self.target = target if target.seed is not None else attrs.evolve(target, seed=0)
        self.budget = budget
        self.nodes = 0
        rules = get_ruleset(target.ruleset)
        n = target.players
        setup = rules.setup(n, _decks(target))
        self.rules: Ruleset = rules
        self.n = n
        self.kinds = setup.kinds
        self.reacting = setup.reacting
        self.values = rules.values
        self.numbers = rules.names_numbers
        self.t = target.turn_number
        self.c = target.current
        self.piles = target.discards
        self.final_hands = target.hands
        self.out = frozenset(target.out)
        #: diagnosis: find a way to play the round whatever it shows
        self.ignore_sightings = ignore_sightings
        self.sightings = target.sightings
        self.marks = target.marks
        self.returns = target.returns
        self.contenders = tuple(sorted(target.contenders))
        self.dealt = _dealt(target)
        #: the turn order turns follow, skipping players out (seat order
        #: where the edition draws none)
        self.seq = target.order or tuple(range(n))
        self.pos = {seat: index for index, seat in enumerate(self.seq)}
        #: online: the players leaving during the round (the others who
        #: have left did so before it and sit it out)
        self.leavers = frozenset(target.left) & frozenset(self.dealt)
        self.absent = frozenset(target.left) - self.leavers
        self.exits = target.exits
        #: online: the Cardinal's player sees the first target's new card
        self.cardinal_looks = rules.choices[Card.CARDINAL] is Choice.ORDERED_PAIR
        tokens = target.tokens if target.tokens is not None else (0,) * n
        self.tokens = tuple(tokens)
        # Tokens that the round's own cards award (a Bishop's, a Constable's)
        # are found by the search: it starts from no tokens, except in a
        # tie-break round, where any token a contender gains ends the game.
        self.exact_tokens = target.round_number == 1 and not self.contenders
        self.start_tokens = self.tokens if self.contenders else (0,) * n
        returned = sum(count for _, count in target.returns)
        deck = target.deck
        self.tail = deck[: max(0, len(deck) - returned)]
        self.returned: tuple[Card, ...] | None = (
            deck[len(self.tail) :] if len(deck) >= returned else None
        )
        fixed: Counter[Card] = Counter([*target.face_up, *self.tail])
        if target.set_aside is not None:
            fixed[target.set_aside] += 1
        self.pool: Counter[Card] = Counter(setup.deck)
        self.pool.subtract(fixed)
        self.pool_size = sum(self.pool.values())
        #: the players a sighting says played a turn (by turn)
        self._players_at: dict[int, frozenset[int]] = {}
        if not ignore_sightings:
            for seen in target.sightings:
                if seen.via in (Card.PRIEST, Card.BARONESS):
                    who = frozenset({seen.viewer})
                elif seen.via in (Card.BARON, Card.DOWAGER_QUEEN, Card.KING):
                    who = frozenset({seen.viewer, seen.owner})
                else:
                    continue
                self._players_at[seen.turn] = self._players_at.get(seen.turn, who) & who
        self._turn_memo: dict[tuple[int, int, frozenset[int]], bool] = {}
        self.forbidders = {
            x: frozenset(c for c in self.kinds if x in rules.forbids[c]) for x in Card
        }
        self.matches: dict[tuple[Card, Card | int | None], frozenset[Card]] = {}
        self.seen: set[tuple[GameState, frozenset[tuple[Card, frozenset[Card]]]]] = set()
        #: the commands so far, each with the placeholder that settles its guess
        self.path: list[tuple[Command, Card | None]] = []
        self.assigned: dict[Card, Card] = {}
        self.first = 0
        #: the latest turn a play of the round following the piles started
        self.furthest = 0

    # ------------------------------------------------------------------
    # driving

    def first_players(self) -> list[int]:
        """Every possible first player, the likeliest first: the one whose
        turn the target turn would be if no one had been knocked out (online:
        the first of the round's order)."""
        if self.target.order:
            return [self.target.order[0]]
        seats = list(self.contenders or range(self.n))
        live = len(seats)
        index = seats.index(self.c) if self.c in seats else 0
        guess = seats[(index - (self.t - 1)) % live]
        return [guess, *(s for s in seats if s != guess)]

    def solutions(self) -> Iterator[RoundSolution]:
        for first in self.first_players():
            root = self._deal(first)
            if root is None:
                continue
            self.first = first
            self.seen.clear()
            yield from self._search(root, {})

    def _deal(self, first: int) -> GameState | None:
        target = self.target
        seats = self.dealt
        if first not in seats or self.pool_size < len(seats) + 1:
            return None
        deck = (
            *self._head(),
            *(_placeholder(i) for i in range(self.pool_size)),
            *self.tail,
        )
        # Placeholder cards are no ruleset's deck, so this deal is folded
        # without the rules' check that ``replay`` makes.
        started = GameStarted(self.rules.name, self.n, target.seed, first, target.settings)
        state = apply_unchecked(
            initial_state(started),
            deal_events(
                self.rules,
                self.n,
                target.round_number,
                first,
                deck,
                self.contenders or None,
                target.order or None,
            ),
        )
        table = attrs.evolve(
            state.table, tokens=self.start_tokens, contenders=self.contenders, left=self.absent
        )
        return attrs.evolve(state, table=table)

    def _head(self) -> tuple[Card, ...]:
        """The deck's cards before the pool: the set-aside and face-up cards."""
        target = self.target
        aside = () if target.set_aside is None else (target.set_aside,)
        return (*aside, *target.face_up)

    def _next(self, player: int, out: frozenset[int]) -> int:
        """The player whose turn follows ``player``'s with ``out`` out of the
        round (``player`` itself when no one else is in)."""
        seq, size = self.seq, len(self.seq)
        index = self.pos[player]
        for step in range(1, size + 1):
            seat = seq[(index + step) % size]
            if seat not in out:
                return seat
        return player

    def _search(
        self, state: GameState, excl: dict[Card, frozenset[Card]]
    ) -> Iterator[RoundSolution]:
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchBudgetExceeded(f"no answer within {self.budget} nodes")
        unplaced = self._viable(state, excl)
        if unplaced is None:
            return
        if state.decision is _PLAY and state.turn_number > self.furthest:
            self.furthest = state.turn_number
        # an exclusion of a card no longer to be placed says nothing
        excl = {
            w: kept for w, e in excl.items() if (kept := frozenset(c for c in e if unplaced[c] > 0))
        }
        key = (state, frozenset(excl.items()))
        if key in self.seen:
            return
        self.seen.add(key)
        decision = state.decision
        children: Iterator[tuple[Command, _Variant]]
        if decision is _PLAY and state.turn_number == self.t:
            solution = self._goal(state, excl, unplaced)
            if solution is not None:
                yield solution
                return
            # a player still to leave may do so at the very end
            children = self._leaves(state, excl, unplaced)
        elif decision is _PLAY:
            children = chain(
                self._leaves(state, excl, unplaced), self._plays(state, excl, unplaced)
            )
        elif decision is Decision.CHANCELLOR:
            children = self._keeps(state, excl, unplaced)
        elif decision is Decision.LOOK:
            children = self._looks(state, excl, unplaced)
        else:
            children = self._redraws(state, excl, unplaced)
        for command, variant in children:
            child = self._apply(state, excl, command, variant)
            if child is None:
                continue
            after, after_excl = child
            pre = variant[0]
            self.path.append((command, variant[3]))
            self.assigned.update(pre)
            yield from self._search(after, after_excl)
            self.path.pop()
            for w in pre:
                del self.assigned[w]

    def _apply(
        self,
        state: GameState,
        excl: dict[Card, frozenset[Card]],
        command: Command,
        variant: _Variant,
    ) -> tuple[GameState, dict[Card, frozenset[Card]]] | None:
        pre, subs, updates, _ = variant
        probe = _assign(state, pre)
        for seat, w, card in subs:
            probe = _replace(probe, seat, w, card)
        if isinstance(command, KeepCard) and _wild(command.keep):
            command = attrs.evolve(command, keep=_NEUTRAL)
        try:
            after = push(probe, command)
        except (IllegalCommand, IndexError):
            # IndexError: a placeholder read by a showdown (the round ended)
            return None
        if after.decision not in _LIVE:
            return None
        for seat, w, card in subs:
            hand = after.hands[seat]
            if not hand or hand[0] != card:
                raise AssertionError(f"placeholder {w} of seat {seat} moved in {command}")
            after = _set_hand(after, seat, (w, *hand[1:]))
        merged = dict(excl)
        for w, more in updates.items():
            merged[w] = merged.get(w, _EMPTY) | more
        held = {c for hand in after.hands for c in hand if _wild(c)}
        return after, {w: e for w, e in merged.items() if e and w in held}

    # ------------------------------------------------------------------
    # pruning

    def _remaining(self, state: GameState, seat: int) -> tuple[Card, ...]:
        return self.piles[seat][len(state.discards[seat]) :]

    def _viable(self, state: GameState, excl: dict[Card, frozenset[Card]]) -> Counter[Card] | None:
        """The unplaced pool cards, or ``None`` when ``state`` cannot lead to the target."""
        decision = state.decision
        if decision not in _LIVE or state.turn_number > self.t:
            return None
        if state.turn_number == self.t and (decision is not _PLAY or state.current != self.c):
            return None
        if state.set_aside != self.target.set_aside:
            return None
        if state.exits != self.exits[: len(state.exits)]:
            return None
        sightings = state.sightings
        if not self.ignore_sightings and sightings != self.sightings[: len(sightings)]:
            return None
        if state.marks != self.marks[: len(state.marks)]:
            return None
        if state.returns != self.returns[: len(state.returns)]:
            return None
        if not state.out <= self.out:
            return None
        tokens = state.tokens
        for seat in range(self.n):
            if tokens[seat] - self.start_tokens[seat] > self.tokens[seat]:
                return None
        remaining: list[tuple[Card, ...]] = []
        for seat in range(self.n):
            pile = state.discards[seat]
            target = self.piles[seat]
            if len(pile) > len(target) or pile != target[: len(pile)]:
                return None
            if seat in state.out and len(pile) != len(target):
                return None
            remaining.append(target[len(pile) :])
        deck = state.deck
        k = _leading_wilds(deck)
        rest = deck[k:]
        if self.returned is not None:
            tail = self.tail
            if len(rest) < len(tail) or rest != tail + self.returned[: len(rest) - len(tail)]:
                return None
            turns = self.t - state.turn_number
            if k < turns:
                return None
            extra = sum(_EXTRA_DRAWS.get(card, 0) for pile in remaining for card in pile)
            if decision is Decision.REDRAW:
                extra += 1
            if k > turns + extra:
                return None
        # the unplaced pool cards
        unplaced = self.pool.copy()
        unplaced.subtract(rest[len(self.tail) :])
        for seat in range(self.n):
            unplaced.subtract(state.discards[seat])
            unplaced.subtract(c for c in state.hands[seat] if c < WILD)
        if any(count < 0 for count in unplaced.values()):
            return None
        if not self._schedule_fits(state, remaining):
            return None
        if len(sightings) < len(self.sightings) and not self.ignore_sightings:
            due = self.sightings[len(sightings)].turn
            if due < state.turn_number or (
                due == state.turn_number and decision not in (_PLAY, Decision.LOOK)
            ):
                return None
        if decision is _PLAY:
            if not self._turn_fits(state.turn_number, state.current, state.out):
                return None
        elif not self._turn_done_fits(state.turn_number, state.current, state.out):
            return None
        # every card in a hand must be able to end where the target needs it
        moving = any(card in _MOVERS for pile in remaining for card in pile)
        if moving:
            return unplaced
        pending = Counter(p for p, _ in self.returns[len(state.returns) :])
        for seat in range(self.n):
            hand = state.hands[seat]
            if not hand:
                continue
            if pending[seat] and Card.CHANCELLOR in remaining[seat]:
                continue
            if decision is Decision.CHANCELLOR and seat == state.current:
                continue
            need = Counter(remaining[seat])
            need.update(self.final_hands[seat])
            wilds = []
            for card in hand:
                if card >= WILD:
                    wilds.append(card)
                elif need[card] > 0:
                    need[card] -= 1
                else:
                    return None
            for w in wilds:
                banned = excl.get(w, _EMPTY)
                if not any(
                    count > 0 and unplaced[c] > 0 and c not in banned for c, count in need.items()
                ):
                    return None
        return unplaced

    def _turn_fits(self, turn: int, player: int, out: frozenset[int]) -> bool:
        """Whether ``player`` starting turn ``turn`` with ``out`` out of the
        round can lead to the target's turn and current player, with the
        players its sightings name playing the turns they name (a Priest's
        or a Baroness's viewer, one of a Baron's, a Dowager Queen's or a
        King's pair), knocking out only players out at the target."""
        key = (turn, player, out)
        found = self._turn_memo.get(key)
        if found is None:
            if turn >= self.t:
                # players out later than the target turn's start left then
                found = (
                    turn == self.t
                    and player == self.c
                    and out <= self.out
                    and self.out - out <= self.leavers
                )
            else:
                allowed = self._players_at.get(turn)
                found = (allowed is None or player in allowed) and self._turn_done_fits(
                    turn, player, out
                )
            self._turn_memo[key] = found
        return found

    def _turn_done_fits(self, turn: int, player: int, out: frozenset[int]) -> bool:
        """Like :meth:`_turn_fits`, once ``player`` has played turn ``turn``."""
        key = (-turn, player, out)
        found = self._turn_memo.get(key)
        if found is None:
            found = False
            doomed = sorted(self.out - out)
            for size in range(len(doomed) + 1):
                for knocked in combinations(doomed, size):
                    after = out | frozenset(knocked)
                    if self.n - len(after) < 2:
                        continue
                    following = self._next(player, after)
                    if self._turn_fits(turn + 1, following, after):
                        found = True
                        break
                if found:
                    break
            self._turn_memo[key] = found
        return found

    def _schedule_fits(self, state: GameState, remaining: list[tuple[Card, ...]]) -> bool:
        """Whether the turns left can produce the piles left. Players in
        the round now and at the target (survivors) are never skipped, so
        they take the turns left in strict rotation, ending just before the
        target's current player; each turn puts the played card on its
        player's pile, and the pile's other cards come from effects (a
        Prince, a Bishop, the Assassin) or, for a player still to be knocked
        out, that knock-out."""
        n = self.n
        live = [p for p in range(n) if p not in state.out]
        if state.decision is _PLAY:
            start = state.current
            plays = self.t - state.turn_number
        else:
            plays = self.t - state.turn_number - 1
            start = self._next(state.current, state.out)
        survivors = [p for p in live if p not in self.out]
        doomed = [p for p in live if p in self.out]
        if self.c not in survivors:
            return False
        extra_all = sum(
            1 for pile in remaining for card in pile if card in (Card.PRINCE, Card.BISHOP)
        )
        if state.decision is Decision.REDRAW:
            extra_all += 1
        # survivors in rotation from the first at or after ``start``
        pos, size = self.pos, len(self.seq)
        order = sorted(survivors, key=lambda p: (pos[p] - pos[start]) % size)
        d = order.index(self.c)
        size = len(order)
        low_m, high_m = 0, plays // size + 1
        bounds = []
        for index, p in enumerate(order):
            pile = len(remaining[p])
            extra = extra_all + remaining[p].count(Card.ASSASSIN)
            first = 1 if index < d else 0
            # m + first plays: between pile - extra and pile
            high_m = min(high_m, pile - first)
            low_m = max(low_m, pile - extra - first)
            bounds.append(first)
        if low_m > high_m:
            return False
        doomed_max = sum(max(0, len(remaining[p]) - 1) for p in doomed)
        for m in range(low_m, high_m + 1):
            survivor_plays = m * size + d
            if 0 <= plays - survivor_plays <= doomed_max:
                return True
        return False

    def _base(
        self,
        state: GameState,
        seat: int,
        w: Card,
        excl: dict[Card, frozenset[Card]],
        unplaced: Counter[Card],
    ) -> list[Card]:
        """What placeholder ``w`` in ``seat``'s hand may become now."""
        banned = excl.get(w, _EMPTY)
        candidates = [c for c in self.kinds if unplaced[c] > 0 and c not in banned]
        if any(card in _MOVERS for p in range(self.n) for card in self._remaining(state, p)):
            return candidates
        if self.returns[len(state.returns) :] and Card.CHANCELLOR in self._remaining(state, seat):
            return candidates
        need = Counter(self._remaining(state, seat))
        need.update(self.final_hands[seat])
        for card in state.hands[seat]:
            if card < WILD and need[card] > 0:
                need[card] -= 1
        return [c for c in candidates if need[c] > 0]

    def _forced(self, state: GameState, seat: int, offset: int = 0) -> Card | None:
        """The card ``seat``'s pile needs next (after ``offset`` more)."""
        rest = self._remaining(state, seat)
        return rest[offset] if offset < len(rest) else None

    # ------------------------------------------------------------------
    # the goal

    def _goal(
        self, state: GameState, excl: dict[Card, frozenset[Card]], unplaced: Counter[Card]
    ) -> RoundSolution | None:
        if state.current != self.c or _leading_wilds(state.deck):
            return None
        assigns: dict[Card, Card] = {}
        for seat in range(self.n):
            hand, final = state.hands[seat], self.final_hands[seat]
            if len(hand) != len(final):
                return None
            for card, want in zip(hand, final, strict=True):
                if card >= WILD:
                    if want in excl.get(card, _EMPTY):
                        return None
                    assigns[card] = want
                elif card != want:
                    return None
        need = Counter(assigns.values())
        if any(unplaced[c] < k for c, k in need.items()):
            return None
        final_state = _assign(state, assigns)
        gained = tuple(final_state.tokens[s] - self.start_tokens[s] for s in range(self.n))
        if self.exact_tokens and gained != self.tokens:
            return None
        if any(g > t for g, t in zip(gained, self.tokens, strict=True)):
            return None
        position = attrs.evolve(to_position(final_state), tokens=self.tokens)
        target = self.target
        if self.ignore_sightings:
            target = attrs.evolve(target, sightings=position.sightings)
        if position != attrs.evolve(target, tokens=self.tokens):
            return None
        assigned = {**self.assigned, **assigns}
        pool = tuple(assigned[_placeholder(i)] for i in range(self.pool_size))
        deck = (*self._head(), *pool, *self.tail)
        commands = tuple(self._settled(c, w, assigned) for c, w in self.path)
        return RoundSolution(
            self.first, deck, commands, gained, final_state.sightings, target.order or None
        )

    def _settled(self, command: Command, w: Card | None, assigned: dict[Card, Card]) -> Command:
        """A command of the path with the cards its placeholders became."""
        if isinstance(command, KeepCard) and _wild(command.keep):
            return attrs.evolve(command, keep=assigned[command.keep])
        if w is not None:
            assert isinstance(command, PlayCard)
            return self.missing_guess(command, assigned[w])
        return command

    # ------------------------------------------------------------------
    # a turn's play

    def _plays(
        self, state: GameState, excl: dict[Card, frozenset[Card]], unplaced: Counter[Card]
    ) -> Iterator[tuple[Command, _Variant]]:
        a = state.current
        x = self._forced(state, a)
        if x is None:
            return
        hand = state.hands[a]
        if len(hand) != 2:
            return
        options: list[tuple[dict[Card, Card], Card]] = []
        for i in (0, 1):
            card, other = hand[i], hand[1 - i]
            if card < WILD:
                if card == x:
                    options.append(({}, other))
            elif unplaced[x] > 0 and x not in excl.get(card, _EMPTY):
                options.append(({card: x}, other))
        if any(not pre for pre, _ in options):
            options = [next(o for o in options if not o[0])]
        elif len(options) == 2:
            # both placeholders: keep the one with fewer exclusions wild
            e0 = excl.get(options[0][1], _EMPTY)
            e1 = excl.get(options[1][1], _EMPTY)
            if e0 <= e1:
                options = [options[0]]
            elif e1 <= e0:
                options = [options[1]]
        for pre, kept in options:
            base = _assign(state, pre)
            left = unplaced.copy()
            left.subtract(pre.values())
            kept_wild = kept >= WILD
            kept_excl = (excl.get(kept, _EMPTY) | self.forbidders[x]) if kept_wild else _EMPTY
            probe = _replace(base, a, kept, _NEUTRAL) if kept_wild else base
            commands = legal_commands(probe, x)
            if x in (Card.GUARD, Card.BISHOP):
                yield from self._guesses(base, excl, left, pre, kept, kept_excl, commands)
                continue
            for command in commands:
                assert isinstance(command, PlayCard)
                for variant in self._variants(base, excl, left, command, kept, kept_excl):
                    yield command, ({**pre, **variant[0]}, variant[1], variant[2], None)

    def _shown(self, state: GameState, command: Command) -> dict[int, Card] | None:
        """The card each seat whose hand ``command`` shows must hold, read
        from the target's next sightings; ``None`` when they cannot be the
        ones it makes (with sightings ignored: no constraint)."""
        if self.ignore_sightings:
            return {}
        if isinstance(command, LookAtHand):
            a, owner = command.player, command.owner
            shows = [] if owner == a else [(a, owner, owner)]
            via = Card.CARDINAL
        else:
            assert isinstance(command, PlayCard)
            a, via, t, t2 = command.player, command.card, command.target, command.second_target
            if t is None or via not in _SHOWING:
                return {}
            if via is Card.PRIEST:
                shows = [(a, t, t)]
            elif via is Card.BARON or via is Card.DOWAGER_QUEEN:
                shows = [(a, t, t), (t, a, a)]
            elif via is Card.KING:
                shows = [(a, t, a), (t, a, t)]
            elif via is Card.CARDINAL:
                if t2 is None:
                    return {}
                shows = [(t, t2, t), (t2, t, t2)]
                if self.cardinal_looks and a != t:
                    # online: its player sees the first target's new card,
                    # the one the second target held
                    shows.append((a, t, t2))
            else:
                shows = [(a, seat, seat) for seat in (t, t2) if seat is not None]
        start = len(state.sightings)
        upcoming = self.sightings[start : start + len(shows)]
        if len(upcoming) < len(shows):
            return None
        forced: dict[int, Card] = {}
        for (viewer, owner, seat), seen in zip(shows, upcoming, strict=True):
            if (
                seen.viewer != viewer
                or seen.owner != owner
                or seen.via != via
                or seen.turn != state.turn_number
                or forced.setdefault(seat, seen.card) != seen.card
            ):
                return None
        for seat, card in forced.items():
            held = state.hands[seat]
            concrete = [c for c in held if c < WILD]
            if seat != command.player and concrete and concrete[0] != card:
                return None
        return forced

    def _options(
        self,
        state: GameState,
        seat: int,
        w: Card,
        excl: dict[Card, frozenset[Card]],
        unplaced: Counter[Card],
        forced: Card | None,
    ) -> list[Card]:
        """What placeholder ``w`` may become: ``forced`` if the target says
        so, else whatever :meth:`_base` allows."""
        if forced is None:
            return self._base(state, seat, w, excl, unplaced)
        if unplaced[forced] > 0 and forced not in excl.get(w, _EMPTY):
            return [forced]
        return []

    def _kept_variants(
        self,
        state: GameState,
        excl: dict[Card, frozenset[Card]],
        unplaced: Counter[Card],
        command: PlayCard,
        kept: Card,
        kept_excl: frozenset[Card],
        reads: bool,
        shown: dict[int, Card] | None = None,
    ) -> list[
        tuple[
            list[tuple[Card, list[Card]]], list[tuple[int, Card, Card]], dict[Card, frozenset[Card]]
        ]
    ]:
        """How the player's other card is handled: left a placeholder when
        the effect does not read it, else the slot and its candidates."""
        a = command.player
        if kept < WILD:
            return [([], [], {})]
        if not reads:
            return [([], [(a, kept, _NEUTRAL)], {kept: kept_excl})]
        card = command.card
        forced: Card | None
        if card is Card.PRINCESS or card is Card.PRINCE or card is Card.GUARD:
            # discarded into the player's pile after the played card
            forced = self._forced(state, a, 1)
            if forced is None:
                return [([(kept, [])], [], {})]
        else:
            forced = (shown or {}).get(a)
        banned = {kept: excl.get(kept, _EMPTY) | kept_excl}
        return [([(kept, self._options(state, a, kept, banned, unplaced, forced))], [], {})]

    def _variants(
        self,
        state: GameState,
        excl: dict[Card, frozenset[Card]],
        unplaced: Counter[Card],
        command: PlayCard,
        kept: Card,
        kept_excl: frozenset[Card],
    ) -> Iterator[_Variant]:
        a = command.player
        card = command.card
        targets = [t for t in (command.target, command.second_target) if t is not None]
        shown = self._shown(state, command) if card in _SHOWING else {}
        if shown is None:
            return
        reads = (
            card in _READ_OWN
            or card not in _KNOWN
            or (card is Card.PRINCE and command.target == a)
            or (card is Card.CARDINAL and a in targets)
        )
        if not targets and card is not Card.PRINCESS:
            reads = False
        slots: list[tuple[Card, list[Card]]] = []
        subs: list[tuple[int, Card, Card]] = []
        updates: dict[Card, frozenset[Card]] = {}
        ((kept_slots, kept_subs, kept_updates),) = self._kept_variants(
            state, excl, unplaced, command, kept, kept_excl, reads, shown
        )
        slots += kept_slots
        subs += kept_subs
        updates.update(kept_updates)
        for q in dict.fromkeys(targets):  # online, a Baroness may look twice at one hand
            if q == a:
                continue
            w = state.hands[q][0]
            if w < WILD or card in _BLIND:
                continue
            if card is Card.PRINCE:
                forced = self._forced(state, q)
                options = (
                    [] if forced is None else self._options(state, q, w, excl, unplaced, forced)
                )
            else:
                options = self._options(state, q, w, excl, unplaced, shown.get(q))
            slots.append((w, options))
        for pre in self._fill(slots, unplaced):
            yield pre, subs, updates, None

    def _fill(
        self, slots: list[tuple[Card, list[Card]]], unplaced: Counter[Card]
    ) -> Iterator[dict[Card, Card]]:
        """Every way to materialize the slots with distinct unplaced cards."""
        if not slots:
            yield {}
            return
        (w, options), rest = slots[0], slots[1:]
        for c in options:
            if unplaced[c] <= 0:
                continue
            unplaced[c] -= 1
            for more in self._fill(rest, unplaced):
                yield {w: c, **more}
            unplaced[c] += 1

    def _named(self, card: Card, guess: Card | int | None) -> frozenset[Card]:
        """The kinds a Guard's or a Bishop's guess names: the card (2019), or
        every kind of that number (Premium)."""
        key = (card, guess)
        found = self.matches.get(key)
        if found is None:
            if self.numbers:
                found = frozenset(k for k in self.kinds if self.values[k] == guess)
            else:
                found = frozenset(k for k in self.kinds if k == guess)
            self.matches[key] = found
        return found

    def missing_guess(self, command: PlayCard, held: Card) -> PlayCard:
        """``command`` with a guess that misses ``held`` (the guess a miss
        on a placeholder settles once its card is known)."""
        if held not in self._named(command.card, command.guess):
            return command
        names = self.rules.setup(self.n).names[command.card]
        guess = next(g for g in names if held not in self._named(command.card, g))
        return attrs.evolve(command, guess=guess)

    def _guesses(
        self,
        state: GameState,
        excl: dict[Card, frozenset[Card]],
        unplaced: Counter[Card],
        pre: dict[Card, Card],
        kept: Card,
        kept_excl: frozenset[Card],
        commands: tuple[Command, ...],
    ) -> Iterator[tuple[Command, _Variant]]:
        """A Guard's or a Bishop's plays, one per distinct outcome. Per
        target: a miss (on a placeholder, the guess is settled once its card
        is known: every card misses some guess), a Guard's hit when the
        target must be knocked out now with that card, the Assassin's
        answer, a Bishop's hit on each card it may name."""
        a = state.current
        kept_wild = kept >= WILD
        keep_subs = [(a, kept, _NEUTRAL)] if kept_wild else []
        keep_updates = {kept: kept_excl} if kept_wild else {}
        by_target: dict[int | None, list[PlayCard]] = {}
        for command in commands:
            assert isinstance(command, PlayCard)
            by_target.setdefault(command.target, []).append(command)
        for target, group in by_target.items():
            if target is None:
                yield group[0], (dict(pre), keep_subs, keep_updates, None)
                continue
            guard = group[0].card is Card.GUARD
            rest = self._remaining(state, target)
            knocked = target in self.out and len(rest) == 1
            w = state.hands[target][0]
            if w < WILD:
                if guard and w in self.reacting:
                    yield from self._reacted(state, excl, unplaced, pre, group[0], kept, kept_excl)
                    continue
                miss = next((c for c in group if w not in self._named(c.card, c.guess)), None)
                hit = next((c for c in group if w in self._named(c.card, c.guess)), None)
                if miss is not None:
                    yield miss, (dict(pre), keep_subs, keep_updates, None)
                if hit is not None and (knocked or not guard):
                    yield hit, (dict(pre), keep_subs, keep_updates, None)
                continue
            banned = excl.get(w, _EMPTY)
            command = group[0]
            named = self._named(command.card, command.guess)
            stand_in = next(k for k in self.kinds if k not in named and k not in self.reacting)
            updates = {**keep_updates, w: self.reacting if guard else _EMPTY}
            yield command, (dict(pre), [(target, w, stand_in), *keep_subs], updates, w)
            if guard:
                c = rest[0] if knocked else None
                if c is not None and c not in self.reacting and unplaced[c] > 0 and c not in banned:
                    hit = next((x for x in group if c in self._named(x.card, x.guess)), None)
                    if hit is not None:
                        yield hit, ({**pre, w: c}, keep_subs, keep_updates, None)
                for r in sorted(self.reacting):
                    if unplaced[r] > 0 and r not in banned:
                        left = unplaced.copy()
                        left[r] -= 1
                        yield from self._reacted(
                            state, excl, left, {**pre, w: r}, command, kept, kept_excl
                        )
            elif state.tokens[a] - self.start_tokens[a] < self.tokens[a]:
                for c in self._base(state, target, w, excl, unplaced):
                    hit = next((x for x in group if c in self._named(x.card, x.guess)), None)
                    if hit is not None:
                        yield hit, ({**pre, w: c}, keep_subs, keep_updates, None)

    def _reacted(
        self,
        state: GameState,
        excl: dict[Card, frozenset[Card]],
        unplaced: Counter[Card],
        pre: dict[Card, Card],
        command: PlayCard,
        kept: Card,
        kept_excl: frozenset[Card],
    ) -> Iterator[tuple[Command, _Variant]]:
        """A Guard choosing the Assassin's holder: its player is out, their
        other card going to their pile."""
        for slots, subs, updates in self._kept_variants(
            state, excl, unplaced, command, kept, kept_excl, True
        ):
            for more in self._fill(slots, unplaced):
                yield command, ({**pre, **more}, subs, updates, None)

    def _leaves(
        self, state: GameState, excl: dict[Card, frozenset[Card]], unplaced: Counter[Card]
    ) -> Iterator[tuple[Command, _Variant]]:
        """Online: the next player to go out, if the target says they left,
        leaving now, their hand going onto their pile as the rest of it."""
        index = len(state.exits)
        if not self.leavers or index >= len(self.exits):
            return
        q = self.exits[index]
        if q not in self.leavers or q in state.out:
            return
        hand, rest = state.hands[q], self._remaining(state, q)
        if len(hand) != len(rest):
            return
        slots: list[tuple[Card, list[Card]]] = []
        for card, want in zip(hand, rest, strict=True):
            if card < WILD:
                if card != want:
                    return
            elif want in excl.get(card, _EMPTY):
                return
            else:
                slots.append((card, [want]))
        for pre in self._fill(slots, unplaced.copy()):
            yield Leave(q), (pre, [], {}, None)

    # ------------------------------------------------------------------
    # pending choices

    def _keeps(
        self, state: GameState, excl: dict[Card, frozenset[Card]], unplaced: Counter[Card]
    ) -> Iterator[tuple[Command, _Variant]]:
        """A Chancellor's keep: the cards returned are the target's next return."""
        a = state.current
        hand = state.hands[a]
        count = len(hand) - 1
        index = len(state.returns)
        if index >= len(self.returns) or self.returns[index] != (a, count):
            return
        expected: tuple[Card, ...] | None = None
        if self.returned is not None:
            offset = sum(c for _, c in self.returns[:index])
            expected = self.returned[offset : offset + count]
        done: set[tuple[object, ...]] = set()
        for keep_index in range(len(hand)):
            kept = hand[keep_index]
            others = [hand[i] for i in range(len(hand)) if i != keep_index]
            for order in permutations(others):
                slots: list[tuple[Card, list[Card]]] = []
                bottom: list[Card] = []
                ok = True
                for position, card in enumerate(order):
                    want = expected[position] if expected is not None else None
                    if card < WILD:
                        if want is not None and card != want:
                            ok = False
                        bottom.append(card)
                    else:
                        banned = excl.get(card, _EMPTY)
                        options = (
                            [want]
                            if want is not None
                            else [c for c in self.kinds if unplaced[c] > 0]
                        )
                        slots.append((card, [c for c in options if c not in banned]))
                        bottom.append(card)
                if not ok:
                    continue
                for pre in self._fill(slots, unplaced.copy()):
                    returned = tuple(pre.get(c, c) for c in bottom)
                    signature = (kept if kept < WILD else excl.get(kept, _EMPTY), returned)
                    if signature in done:
                        continue
                    done.add(signature)
                    command = KeepCard(a, kept, returned)
                    if kept >= WILD:
                        yield command, (pre, [(a, kept, _NEUTRAL)], {}, None)
                    else:
                        yield command, (pre, [], {}, None)

    def _looks(
        self, state: GameState, excl: dict[Card, frozenset[Card]], unplaced: Counter[Card]
    ) -> Iterator[tuple[Command, _Variant]]:
        a = state.current
        for owner in state.pending:
            command = LookAtHand(a, owner)
            shown = self._shown(state, command)
            if shown is None:
                continue
            w = state.hands[owner][0]
            slots: list[tuple[Card, list[Card]]] = []
            if w >= WILD:
                slots = [(w, self._options(state, owner, w, excl, unplaced, shown.get(owner)))]
            for pre in self._fill(slots, unplaced.copy()):
                yield command, (pre, [], {}, None)
        yield Decline(a), ({}, [], {}, None)

    def _redraws(
        self, state: GameState, excl: dict[Card, frozenset[Card]], unplaced: Counter[Card]
    ) -> Iterator[tuple[Command, _Variant]]:
        (q,) = state.pending
        w = state.hands[q][0]
        if w < WILD:
            yield Redraw(q), ({}, [], {}, None)
        else:
            forced = self._forced(state, q)
            if forced is not None and unplaced[forced] > 0 and forced not in excl.get(w, _EMPTY):
                yield Redraw(q), ({w: forced}, [], {}, None)
        yield Decline(q), ({}, [], {}, None)


def round_solutions(target: Position, budget: int = DEFAULT_BUDGET) -> Iterator[RoundSolution]:
    """Ways to play ``target``'s round to it (see :class:`RoundSearch`);
    raises :class:`SearchBudgetExceeded` when the budget runs out first."""
    return RoundSearch(target, budget).solutions()


# --------------------------------------------------------------------------
# whole replays


#: ``prior_rounds``'s signature: the rounds before a later round
PriorRounds = Callable[..., Prelude | None]


def reach_position(
    case_id: str,
    target: Position,
    *,
    after_draw: bool = False,
    budget: int = DEFAULT_BUDGET,
    prior: PriorRounds | None = None,
    attempts: int = 12,
    avoid: Collection[str] = (),
) -> Outcome:
    """A replay start reaching ``target`` (a position whose current player
    has drawn), or why none was found. Its earlier rounds, if any, avoid
    the rules ``avoid`` (the case's own) where they can (:func:`_prelude`)."""
    problem = static_problem(target)
    if problem is not None:
        return Outcome(None, problem)
    search = RoundSearch(target, budget)
    tried: list[str] = []
    try:
        for solution in search.solutions():
            replay_ = _with_prior_rounds(case_id, target, solution, after_draw, prior, avoid)
            if isinstance(replay_, Replay):
                return Outcome(replay_, nodes=search.nodes)
            tried.append(replay_)
            if len(tried) >= attempts:
                break
    except SearchBudgetExceeded:
        if tried:
            return Outcome(None, "; ".join(tried[:3]), search.nodes, exhausted=True)
        return Outcome(None, _diagnose(target, budget, False), search.nodes, exhausted=True)
    if tried:
        # an earlier-rounds search that ran out of budget proves nothing
        exhausted = any(reason.endswith(_PRIOR_BUDGET) for reason in tried)
        return Outcome(None, "; ".join(tried[:3]), search.nodes, exhausted=exhausted)
    return Outcome(None, _diagnose(target, budget, True), search.nodes)


def _sighting_text(seen: Sighting) -> str:
    return f"{seen.viewer} saw {seen.owner}'s {seen.card} via {seen.via} on turn {seen.turn}"


def _diagnose(target: Position, budget: int, exhaustive: bool) -> str:
    """Why the search cannot reach ``target``. When its sightings or its
    Chancellors' returns are at fault: what some play reaching the rest of
    it shows and returns. Otherwise: how far any play follows its piles."""
    furthest = 0
    complete = exhaustive
    for returns in _possible_returns(target):
        search = RoundSearch(
            attrs.evolve(target, returns=returns), budget // 4, ignore_sightings=True
        )
        try:
            solution = next(iter(search.solutions()), None)
        except SearchBudgetExceeded:
            complete = False
            continue
        finally:
            furthest = max(furthest, search.furthest)
        if solution is None:
            continue
        faults = []
        if returns != target.returns:
            faults.append(
                f"its Chancellors' returns must be {[list(r) for r in returns]}, not"
                f" {[list(r) for r in target.returns]}"
            )
        if solution.sightings != target.sightings:
            listed = "; ".join(map(_sighting_text, target.sightings)) or "none"
            shown = "; ".join(map(_sighting_text, solution.sightings)) or "none"
            faults.append(
                f"its sightings must be those of some play, such as {shown} (it lists {listed})"
            )
        return "reachable only with other notes: " + "; and ".join(faults)
    where = f"round {target.round_number}, turn {target.turn_number}"
    if not complete:
        return f"no way to play {where} found within the search budget ({budget} nodes)"
    if furthest >= target.turn_number:
        how = (
            f"plays following its discard piles reach turn {target.turn_number}, but never"
            " with its hands and deck"
        )
    else:
        how = f"no play following its discard piles gets past the start of turn {furthest}"
    return (
        f"no play of {where} reaches this position, whatever its sightings and Chancellor"
        f" returns (exhaustive search): {how}"
    )


def _possible_returns(target: Position) -> list[tuple[tuple[int, int], ...]]:
    """The Chancellor returns the piles allow, the position's own first,
    then by how much they differ from it."""
    own = target.returns
    per_player: list[list[tuple[tuple[int, int], ...]]] = []
    for seat, pile in enumerate(target.discards):
        options: list[tuple[tuple[int, int], ...]] = [()]
        for _ in range(pile.count(Card.CHANCELLOR)):
            options += [o + ((seat, c),) for o in options for c in (2, 1)]
        per_player.append(sorted(set(options)))
    found: set[tuple[tuple[int, int], ...]] = set()
    for choice in product(*per_player):
        entries = [e for part in choice for e in part]
        for order in set(permutations(entries)):
            found.add(order)
    ranked = sorted(
        found,
        key=lambda r: (len(set(r) ^ set(own)), sum(c for _, c in r) > len(target.deck), r),
    )
    if own in found:
        ranked.remove(own)
    return [own, *ranked][:24]


def _with_prior_rounds(
    case_id: str,
    target: Position,
    solution: RoundSolution,
    after_draw: bool,
    prior: PriorRounds | None,
    avoid: Collection[str] = (),
) -> Replay | str:
    n = target.players
    # a position without a seed: a replay start writes none, which reads as 0
    seed = 0 if target.seed is None else target.seed
    settings = _plain_settings(target.settings)
    if target.round_number == 1 and not target.contenders:
        return Replay(
            case_id,
            target.ruleset,
            n,
            solution.deck,
            solution.first_player,
            solution.commands,
            after_draw,
            order=solution.order,
            seed=seed,
            settings=settings,
        )
    tokens = target.tokens if target.tokens is not None else (0,) * n
    start = tuple(t - g for t, g in zip(tokens, solution.gained, strict=True))
    contenders = tuple(sorted(target.contenders))
    absent = tuple(sorted(set(target.left) - set(_dealt(target))))
    prelude = _prelude(
        prior,
        target.ruleset,
        n,
        start,
        target.round_number,
        solution.first_player,
        contenders,
        _decks(target),
        absent,
        case=case_id,
        avoid=avoid,
    )
    if isinstance(prelude, str):
        return prelude
    return Replay(
        case_id,
        target.ruleset,
        n,
        tuple(prelude.deck),
        prelude.first_player,
        (
            *prelude.commands,
            StartRound(solution.deck, solution.first_player, solution.order),
            *solution.commands,
        ),
        after_draw,
        order=prelude.order,
        seed=seed,
        settings=settings,
    )


def _prelude(
    prior: PriorRounds | None,
    ruleset: str,
    players: int,
    tokens: Sequence[int],
    round_number: int,
    first_player: int,
    contenders: tuple[int, ...],
    decks: int = 1,
    absent: tuple[int, ...] = (),
    *,
    case: str = "",
    avoid: Collection[str] = (),
) -> Prelude | str:
    """The earlier rounds, or why there are none.

    Each case's earlier rounds are searched with a seed of its own (drawn
    from its id), so that cases starting alike do not all replay the same
    rounds, and avoid the case's own rules ``avoid`` where they can
    (:func:`prior_rounds`): one engine bug then stops few starts."""
    tokens = tuple(tokens)
    # online only: a ``prior`` written for the other editions need not know them
    online: dict[str, Any] = {}
    if decks != 1:
        online["decks"] = decks
    if absent:
        online["absent"] = absent
    found = (prior or prior_rounds)(
        ruleset,
        players,
        tokens,
        round_number,
        first_player,
        contenders,
        seed=zlib.crc32(case.encode()),
        avoid=tuple(avoid),
        **online,
    )
    if found is not None:
        return found
    why = impossibility(ruleset, players, tokens, round_number, first_player, contenders, **online)
    wanted = (
        f"round {round_number} starting with tokens {list(tokens)}, player {first_player} first"
        + (f", a tie-break among {list(contenders)}" if contenders else "")
        + (f", players {list(absent)} gone" if absent else "")
    )
    if why is not None:
        return f"no game reaches {wanted}: {why}"
    return f"no earlier rounds found for {wanted} {_PRIOR_BUDGET}"


#: how a failed earlier-rounds search that ran out of budget ends its reason
_PRIOR_BUDGET = "(prior_rounds' budget)"


def reach_later_deal(case: Case, *, prior: PriorRounds | None = None) -> Outcome:
    """A replay start for a later-round deal: earlier rounds, then its ``StartRound``."""
    deal = case.data["start"]["deal"]
    n = case.players
    tokens = tuple(deal.get("tokens", (0,) * n))
    round_number = deal.get("round_number", 1)
    order = tuple(deal["order"]) if "order" in deal else None
    first = order[0] if order else deal.get("first_player", 0)
    deck = tuple(Card.parse(name) for name in deal["deck"])
    if round_number == 1:
        return Outcome(None, f"a round-1 deal with tokens {list(tokens)}: no round was played yet")
    settings = TableSettings(**case.data["settings"]) if "settings" in case.data else None
    decks = 1 if settings is None else settings.decks
    prelude = _prelude(
        prior,
        case.ruleset,
        n,
        tokens,
        round_number,
        first,
        (),
        decks,
        case=case.id,
        avoid=case.rules,
    )
    if isinstance(prelude, str):
        return Outcome(None, prelude)
    return Outcome(
        Replay(
            case.id,
            case.ruleset,
            n,
            tuple(prelude.deck),
            prelude.first_player,
            (*prelude.commands, StartRound(deck, first, order)),
            order=prelude.order,
            seed=int(deal.get("seed", 0)),
            settings=_plain_settings(settings),
        )
    )


def reach_case(
    case: Case, *, budget: int = DEFAULT_BUDGET, prior: PriorRounds | None = None
) -> Outcome:
    """A replay start for ``case`` (a position or a later-round deal), proven
    by :func:`verify_replay`, or the reason there is none."""
    if is_later_deal_case(case):
        outcome = reach_later_deal(case, prior=prior)
    else:
        goal, after = replay_goal(case)
        outcome = reach_position(
            case.id,
            to_position(goal),
            after_draw=after,
            budget=budget,
            prior=prior,
            avoid=case.rules,
        )
    if outcome.replay is not None:
        problem = verify_replay(case, replay_to_data(outcome.replay))
        if problem is not None:
            raise AssertionError(f"{case.name}: the replay found does not verify: {problem}")
    return outcome


# --------------------------------------------------------------------------
# files


def command_data(command: Command) -> dict[str, JSON]:
    """A command in protocol JSON form, null fields omitted."""
    data = to_data(command)
    return {key: value for key, value in data.items() if value is not None}


def replay_to_data(replay_: Replay) -> dict[str, JSON]:
    """A replay's file content; the online keys (``settings``, the deal's
    ``order`` and ``seed``) only when they say something."""
    data: dict[str, JSON] = {
        "format": REPLAY_FORMAT,
        "case": replay_.case,
        "ruleset": replay_.ruleset,
        "players": replay_.players,
    }
    if replay_.settings is not None:
        data["settings"] = attrs.asdict(replay_.settings)
    deal: dict[str, JSON] = {"deck": to_data(replay_.deck), "first_player": replay_.first_player}
    if replay_.order is not None:
        deal["order"] = list(replay_.order)
    if replay_.seed:
        # decimal digits, as the case format writes a seed: a 128-bit seed
        # is beyond the integers many JSON readers keep exact
        deal["seed"] = str(replay_.seed)
    data["deal"] = deal
    data["commands"] = [command_data(c) for c in replay_.commands]
    data["after_draw"] = replay_.after_draw
    return data


def _flow(value: JSON) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=1_000_000, sort_keys=False)
    return text.strip().removesuffix("...").strip()


def dump_replay(replay_: Replay) -> str:
    """The replay file's text: the same replay always gives the same bytes."""
    data = replay_to_data(replay_)
    lines = [
        HEADER.rstrip("\n"),
        f"format: {REPLAY_FORMAT}",
        f"case: {_flow(data['case'])}",
        f"ruleset: {json.dumps(data['ruleset'])}",
        f"players: {data['players']}",
    ]
    if "settings" in data:
        lines.append(f"settings: {_flow(data['settings'])}")
    lines += [
        "deal:",
        f"  deck: {_flow(data['deal']['deck'])}",
        f"  first_player: {data['deal']['first_player']}",
    ]
    if "order" in data["deal"]:
        lines.append(f"  order: {_flow(data['deal']['order'])}")
    if "seed" in data["deal"]:
        lines.append(f"  seed: {json.dumps(data['deal']['seed'])}")
    if data["commands"]:
        lines.append("commands:")
        lines += [f"  - {_flow(command)}" for command in data["commands"]]
    else:
        lines.append("commands: []")
    lines.append(f"after_draw: {_flow(data['after_draw'])}")
    return "\n".join(lines) + "\n"


def replay_path(root: Path, case: Case) -> Path:
    """Where ``case``'s replay lives under ``root``: ``<ruleset>/<topic>/<id>.yaml``."""
    return root.joinpath(*case.name.split("/")).with_suffix(".yaml")


_REPLAY_KEYS = {
    "format",
    "case",
    "ruleset",
    "players",
    "settings",
    "deal",
    "commands",
    "after_draw",
}
_OPTIONAL_KEYS = {"settings", "after_draw"}
_DEAL_KEYS = {"deck", "first_player", "order", "seed"}


class ReplayError(LoveLetterError, ValueError):
    """A replay file that is malformed, or that does not reach its case's start."""


def parse_replay_data(data: JSON, where: str) -> Replay:
    """Check a replay file's plain data (keys and types) and read it;
    :class:`ReplayError` names ``where`` (the file) and the field."""

    def fail(field: str, message: str) -> ReplayError:
        return ReplayError(f"{where}: {field}: {message}")

    if not isinstance(data, dict):
        raise fail("(top)", "expected a mapping")
    for key in data:
        if key not in _REPLAY_KEYS:
            raise fail(str(key), "unknown key")
    for key in _REPLAY_KEYS - _OPTIONAL_KEYS:
        if key not in data:
            raise fail(key, "missing")
    if data["format"] != REPLAY_FORMAT or type(data["format"]) is not int:
        raise fail("format", f"expected {REPLAY_FORMAT}, not {data['format']!r}")
    if not isinstance(data["case"], str):
        raise fail("case", "expected a string")
    if not isinstance(data["ruleset"], str):
        raise fail("ruleset", "expected a string")
    try:
        get_ruleset(data["ruleset"])
    except ValueError:
        raise fail("ruleset", f"unknown ruleset {data['ruleset']!r}") from None
    if type(data["players"]) is not int:
        raise fail("players", "expected an integer")
    settings = _settings_data(data.get("settings"), fail)
    deal = data["deal"]
    if (
        not isinstance(deal, dict)
        or not {"deck", "first_player"} <= set(deal)
        or not set(deal) <= _DEAL_KEYS
    ):
        raise fail("deal", "expected a mapping of deck, first_player and perhaps order and seed")
    if not isinstance(deal["deck"], list):
        raise fail("deal.deck", "expected a list of cards")
    deck = []
    for i, name in enumerate(deal["deck"]):
        try:
            deck.append(_card(name))
        except ValueError as error:
            raise fail(f"deal.deck[{i}]", str(error)) from None
    if type(deal["first_player"]) is not int:
        raise fail("deal.first_player", "expected a seat")
    order: tuple[int, ...] | None = None
    if "order" in deal:
        if not isinstance(deal["order"], list) or not all(type(s) is int for s in deal["order"]):
            raise fail("deal.order", "expected a list of seats")
        order = tuple(deal["order"])
    seed = deal.get("seed", "0")
    if not isinstance(seed, str) or not re.fullmatch(r"0|[1-9][0-9]{0,77}", seed):
        raise fail("deal.seed", f"expected decimal digits, not {seed!r}")
    if not isinstance(data["commands"], list):
        raise fail("commands", "expected a list of commands")
    commands: list[Command] = []
    for i, item in enumerate(data["commands"]):
        try:
            commands.append(from_data(item, Command))
        except SerializationError as error:
            raise fail(f"commands[{i}]", str(error)) from None
    after = data.get("after_draw", False)
    if not isinstance(after, bool):
        raise fail("after_draw", "expected true or false")
    return Replay(
        data["case"],
        data["ruleset"],
        data["players"],
        tuple(deck),
        deal["first_player"],
        tuple(commands),
        after,
        order=order,
        seed=int(seed),
        settings=settings,
    )


def _settings_data(value: JSON, fail: Callable[[str, str], ReplayError]) -> TableSettings | None:
    """A file's ``settings`` (any of the four, the others their defaults)."""
    if value is None:
        return None
    fields = [f.name for f in attrs.fields(TableSettings)]
    if not isinstance(value, dict) or not set(value) <= set(fields):
        raise fail("settings", f"expected a mapping of some of {', '.join(fields)}")
    for key, item in value.items():
        kind = bool if key == "random_moves" else int
        if type(item) is not kind:
            wanted = "true or false" if kind is bool else "an integer"
            raise fail(f"settings.{key}", f"expected {wanted}")
    return TableSettings(**value)


def _card(name: object) -> Card:
    if not isinstance(name, str) or name != name.strip() or name not in _TITLES:
        raise ValueError(f"expected a card name, not {name!r}")
    return _TITLES[name]


_TITLES = {card.title: card for card in Card}


def load_replay_file(path: Path) -> Replay:
    """Read one replay file; :class:`ReplayError` names the file and the field."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise ReplayError(f"{path}: cannot read: {error}") from None
    return parse_replay_data(data, str(path))


def prove_reachable(state: GameState, budget: int = DEFAULT_BUDGET) -> Outcome:
    """Search for a game reaching ``state`` (a turn about to draw or to
    play, already through :func:`loveletter.validation.check_state`): an
    outcome whose replay our engine has been seen to reach it by, or the
    reason there is none, with ``exhausted`` set when the budget ran out
    first (the answer is then unknown)."""
    after_draw = state.decision is Decision.DRAW
    goal = push(state, DrawCard(state.current)) if after_draw else state
    outcome = reach_position("position", to_position(goal), after_draw=after_draw, budget=budget)
    if outcome.replay is not None:
        problem = reaches(outcome.replay, goal)
        if problem is not None:
            raise AssertionError(f"the replay found does not verify: {problem}")
    return outcome


def reaches(replay_: Replay, goal: GameState, where: str = "replay") -> str | None:
    """``None`` when ``replay_``'s deal and commands reach exactly ``goal``
    (compared as positions) through our engine; else what is wrong."""
    try:
        state = replay_.opening()
    except (ValueError, IllegalCommand) as error:
        return f"{where}: deal: {error}"
    for i, command in enumerate(replay_.commands):
        try:
            state = push(state, command)
        except IllegalCommand as error:
            return f"{where}: commands[{i}]: rejected ({error.kind.value}): {error}"
    if state.decision not in (Decision.PLAY, Decision.DRAW):
        return f"{where}: the commands end with the game waiting for {state.decision.value!r}"
    reached, wanted = to_position(state), to_position(goal)
    if reached != wanted:
        diff = [
            f"{f.name}: {getattr(reached, f.name)!r} instead of {getattr(wanted, f.name)!r}"
            for f in attrs.fields(Position)
            if getattr(reached, f.name) != getattr(wanted, f.name)
        ]
        return f"{where}: the commands do not reach the case's start: " + "; ".join(diff)
    return None


def verify_replay(case: Case, data: JSON, where: str = "replay") -> str | None:
    """``None`` when ``data`` (a replay file's content) reaches exactly the
    start of ``case`` through our engine; else what is wrong."""
    try:
        replay_ = parse_replay_data(data, where)
    except ReplayError as error:
        return str(error)
    if replay_.case != case.id:
        return f"{where}: case: {replay_.case!r} is not {case.id!r}"
    if replay_.ruleset != case.ruleset:
        return f"{where}: ruleset: {replay_.ruleset!r} is not the case's {case.ruleset!r}"
    if replay_.players != case.players:
        return f"{where}: players: {replay_.players} is not the case's {case.players}"
    try:
        goal, after = replay_goal(case)
    except ValueError as error:
        return str(error)
    if after != replay_.after_draw:
        return f"{where}: after_draw: must be {str(after).lower()} for this case"
    return reaches(replay_, goal, where)


# --------------------------------------------------------------------------
# the command line


def _select(cases: list[Case], globs: Sequence[str]) -> list[Case]:
    if not globs:
        return cases
    return [
        c
        for c in cases
        if any(fnmatch.fnmatchcase(c.name, g) or fnmatch.fnmatchcase(c.id, g) for g in globs)
    ]


def check(cases: Sequence[Case], out: Path) -> list[str]:
    """Every problem with the replay files of ``cases`` under ``out``."""
    problems: list[str] = []
    for case in cases:
        if not needs_replay(case):
            continue
        path = replay_path(out, case)
        if not path.is_file():
            problems.append(f"{case.name}: no replay file ({path})")
            continue
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
            problems.append(f"{case.name}: cannot read {path}: {error}")
            continue
        problem = verify_replay(case, data, str(path))
        if problem is not None:
            problems.append(f"{case.name}: {problem}")
    return problems


def orphans(cases: Sequence[Case], out: Path) -> list[Path]:
    """Replay files under ``out`` whose case does not exist."""
    wanted = {replay_path(out, c) for c in cases if needs_replay(c)}
    if not out.is_dir():
        return []
    return [p for p in sorted(out.rglob("*")) if p.is_file() and p not in wanted]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m loveletter.conformance.reach",
        description="Find (or --check) the replay start of every position case.",
    )
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="the case tree")
    parser.add_argument("--out", type=Path, default=DEFAULT_REPLAYS, help="the replay tree")
    parser.add_argument("--check", action="store_true", help="only verify the existing files")
    parser.add_argument(
        "--dependencies",
        action="store_true",
        help="report how many of the existing files touch each rule, and how their earlier"
        " rounds end (python -m loveletter.conformance.dependencies)",
    )
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="nodes per case")
    parser.add_argument("globs", nargs="*", help="ruleset/topic/id or id globs (default: all)")
    args = parser.parse_args(argv)
    try:
        every = load_suite(args.cases)
    except CaseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    cases = [c for c in _select(every, args.globs) if needs_replay(c)]
    if args.globs and not cases:
        print("error: no case needing a replay matches", file=sys.stderr)
        return 2
    if args.dependencies:
        # imported here: the report replays the files this module writes
        from loveletter.conformance.dependencies import report, suite_dependencies

        starts, missing = suite_dependencies(cases, args.out)
        print(report(starts), end="")
        for problem in missing:
            print(f"problem: {problem}", file=sys.stderr)
        return 1 if missing else 0
    if args.check:
        problems = check(cases, args.out)
        extra = orphans(every, args.out) if not args.globs else []
        problems += [f"{p}: a replay file without a case" for p in extra]
        for problem in problems:
            print(problem)
        print(
            f"{len(cases)} cases, {len(cases) - len(problems)} valid replays, "
            f"{len(problems)} problems"
        )
        return 1 if problems else 0
    began = time.perf_counter()
    written = unchanged = 0
    unreachable: list[tuple[str, str]] = []
    for case in cases:
        outcome = reach_case(case, budget=args.budget)
        if outcome.replay is None:
            unreachable.append((case.name, outcome.reason))
            print(f"UNREACHABLE {case.name}: {outcome.reason}", flush=True)
            continue
        path = replay_path(args.out, case)
        text = dump_replay(outcome.replay)
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            unchanged += 1
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written += 1
    if not args.globs:
        for path in orphans(every, args.out):
            path.unlink()
            print(f"removed {path}: its case is gone")
    elapsed = time.perf_counter() - began
    print(
        f"{len(cases)} cases: {written} replays written, {unchanged} unchanged,"
        f" {len(unreachable)} unreachable ({elapsed:.1f} s)"
    )
    for name, reason in unreachable:
        print(f"  {name}: {reason}")
    return 1 if unreachable else 0


if __name__ == "__main__":
    sys.exit(main())
