"""Impossible positions: how many the checks of ``from_position`` let in.

    python verification/position_mutants.py                  # the default run
    python verification/position_mutants.py --positions 200 --seed 3 --budget 50000
    python verification/position_mutants.py --rulesets online --verbose     # mutants as JSON

Positions come from random games of every ruleset (2019 and 2019-classic
at every player count, Premium 2 to 8 players, online 3 to 8 at tables of
one to three decks, now and then a player leaving), played with
``legal_commands`` and a seeded choice over several rounds. Each is then
changed in two ways:

* **untargeted**: one random change of the kinds a hand-written position
  gets wrong (two cards swapped between zones, a card moved between a pile
  and the deck, a token, the round or the turn number one off, another
  current player, a player put out with their hand on their pile or back
  in, protection toggled, a sighting added, removed or altered, a
  requirement, a mark or a return added, ``drawn`` toggled with a card
  moved). Such a change may happen to give a possible position, so each
  mutant is classified: refused by ``from_position``'s checks that need no
  search; or accepted, then given to ``from_position(...,
  check="reachable")``, which proves it *reachable* (a possible position,
  not counted), *unreachable* (impossible, yet the cheap checks let it in)
  or *unknown* (the search budget ran out). A refused mutant is searched
  for too, past the checks (the replay-start search's round search and
  earlier rounds, then our engine plays what it found): a game reaching it
  exactly is a possible position refused, ``refused-reachable``.
* **targeted**: one mutator per invariant that :mod:`loveletter.validation`
  states (1 to 16), which breaks that invariant for certain and keeps the
  rest plausible; every one of these mutants must be refused (goal: 0
  accepted). ``tests/properties/test_position_mutants.py`` runs the same
  mutators under Hypothesis.

The figures printed: per ruleset and in total, the mutants, how many were
refused, accepted-reachable, accepted-unreachable and unknown, and the
acceptance rate of provably impossible mutants, accepted-unreachable /
(refused + accepted-unreachable); per invariant, the mutants generated and
accepted. Every impossible mutant accepted is printed with the search's
reason. Exit status 1 for a targeted mutant accepted, a possible position
refused, or a crash (any exception but ``PositionError`` from
``from_position``). The default run (300 positions per ruleset, 100 tries
per invariant, 20,000 search nodes per mutant) takes a minute or two.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import attrs

# The checkout, however the script is started (python verification/..., a test).
_REPO = Path(__file__).resolve().parent.parent
if str(_REPO) not in sys.path:
    sys.path.insert(0, str(_REPO))

import loveletter as ll  # noqa: E402
from loveletter.cards import Card  # noqa: E402
from loveletter.cards.base import CardRules, Shows  # noqa: E402
from loveletter.commands import Leave, StartRound  # noqa: E402
from loveletter.conformance.prior_rounds import prior_rounds  # noqa: E402
from loveletter.conformance.reach import (  # noqa: E402
    RoundSolution,
    SearchBudgetExceeded,
    round_solutions,
)
from loveletter.errors import PositionError, ReachabilityUnknown  # noqa: E402
from loveletter.events import RoundEndReason  # noqa: E402
from loveletter.positions import Position, from_position, to_position  # noqa: E402
from loveletter.rulesets import GameTie, Ruleset, get_ruleset  # noqa: E402
from loveletter.state import (  # noqa: E402
    Decision,
    GameState,
    Sighting,
    TableSettings,
    next_player,
)

#: the player counts each ruleset is played at
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "2019": (2, 3, 4, 5, 6),
    "2019-classic": (2, 3, 4),
    "premium": (2, 3, 4, 5, 6, 7, 8),
    "online": (3, 4, 5, 6, 7, 8),
}
ONLINE_DECKS = (1, 2, 3)
#: the rounds a game is played for at most: enough for later rounds, outs
#: and tokens, few enough to keep a game quick
ROUNDS = 5
#: online: the chance that a present player leaves before a step (while
#: three or more are present), so that some positions have players who left
LEAVE_RATE = 0.004
MAX_STEPS = 3000

Mutator = Callable[["Game", random.Random], Position | None]


# --------------------------------------------------------------------------
# random games


@attrs.frozen
class Setup:
    """A game to play: its ruleset, player count, decks (online) and seed."""

    ruleset: str
    players: int
    decks: int = 1
    seed: int = 0

    def __str__(self) -> str:
        decks = f", {self.decks} decks" if self.ruleset == "online" else ""
        return f"{self.ruleset} {self.players}p{decks} seed {self.seed}"


@attrs.frozen(eq=False)
class Game:
    """Every state of one random game, in the order it went through them."""

    setup: Setup
    states: tuple[GameState, ...]

    @property
    def turns(self) -> tuple[GameState, ...]:
        """The states a :class:`Position` describes: about to draw or play."""
        return tuple(s for s in self.states if s.decision in (Decision.DRAW, Decision.PLAY))


def random_setup(rng: random.Random, ruleset: str) -> Setup:
    decks = rng.choice(ONLINE_DECKS) if ruleset == "online" else 1
    return Setup(ruleset, rng.choice(PLAYER_COUNTS[ruleset]), decks, rng.randrange(2**32))


@lru_cache(maxsize=512)
def play(setup: Setup) -> Game:
    """A random game of ``setup``: each step one of ``legal_commands`` (online,
    now and then a player leaving instead), for :data:`ROUNDS` rounds at
    most or until the game ends."""
    rng = random.Random(setup.seed)
    online = setup.ruleset == "online"
    settings = TableSettings(decks=setup.decks) if online else None
    state = ll.new_game(setup.ruleset, setup.players, seed=setup.seed, settings=settings)
    states = [state]
    while len(states) < MAX_STEPS and state.decision is not Decision.GAME_OVER:
        if state.decision is Decision.NEXT_ROUND and state.round_number >= ROUNDS:
            break
        present = [s for s in range(setup.players) if s not in state.table.left]
        command: ll.Command
        if online and len(present) >= 3 and rng.random() < LEAVE_RATE:
            command = Leave(rng.choice(present))
        else:
            command = rng.choice(ll.legal_commands(state))
        state = ll.push(state, command)
        states.append(state)
    return Game(setup, tuple(states))


# --------------------------------------------------------------------------
# what a position says


def ruleset_of(p: Position) -> Ruleset:
    return get_ruleset(p.ruleset)


def rules(p: Position, card: Card) -> CardRules:
    return ruleset_of(p).rules[card]


def is_fatal(p: Position, card: Card) -> bool:
    return rules(p, card).when_discarded is not None


def is_plain(p: Position, card: Card) -> bool:
    """A card whose presence in a pile no check counts on (the Countess,
    the Spy...), beside the Handmaid's protection, which only the last card
    of a pile gives."""
    r = rules(p, card)
    return not (
        r.pending
        or r.shows
        or r.replaces
        or r.returns
        or r.knocks_out
        or r.restricts_next
        or r.marks
        or r.scores_when_played
        or r.when_discarded
        or r.knocked_out_token
    )


def live(p: Position) -> list[int]:
    return [s for s in range(p.players) if s not in p.out]


def sitters(p: Position) -> set[int]:
    """Players out of the round with an empty pile: never dealt in."""
    return {s for s in p.out if not p.discards[s]}


def resolved(p: Position) -> int:
    """The turns of the round whose card has been played."""
    return p.turn_number - 1


def replacement_draws(p: Position) -> int:
    """The replacement draws the cards in hands and piles imply: beside
    the deal and one draw per turn (the current turn's once drawn)."""
    held = sum(map(len, p.hands)) + sum(map(len, p.discards))
    dealt = p.players - len(sitters(p))
    draws = p.turn_number if p.drawn else p.turn_number - 1
    return held - dealt - draws


def most_replacements(p: Position) -> int:
    makers = sum(1 for pile in p.discards for card in pile if rules(p, card).replaces)
    return min(resolved(p), makers)


def deck_floor(p: Position) -> int:
    """The fewest cards the deck can hold at this decision."""
    floor = ruleset_of(p).round_end_pile
    return floor if p.drawn else floor + 1


def tokens(p: Position) -> list[int]:
    return list(p.tokens) if p.tokens is not None else [0] * p.players


def kinds_of(p: Position) -> list[Card]:
    """The kinds of card in the position's deck."""
    decks = p.settings.decks if p.settings is not None else 1
    return sorted(set(ruleset_of(p).setup(p.players, decks).kinds))


def previous_seat(p: Position) -> int:
    """The player in the round whose turn came before the current one's."""
    order = p.order or tuple(range(p.players))
    index = order.index(p.current)
    for step in range(1, len(order) + 1):
        seat = order[(index - step) % len(order)]
        if seat not in p.out:
            return seat
    return p.current


def undrawn(p: Position) -> Position:
    """The same moment before the current player's draw: the card drawn
    (the last of their hand) back on top of the deck."""
    if not p.drawn:
        return p
    hand = p.hands[p.current]
    return attrs.evolve(
        p, drawn=False, deck=(hand[-1], *p.deck), hands=with_seat(p.hands, p.current, hand[:-1])
    )


Zones = tuple[tuple[Card, ...], ...]


def with_seat(zones: Zones, seat: int, cards: Sequence[Card]) -> Zones:
    """``zones`` (hands or piles) with ``seat``'s replaced by ``cards``."""
    return tuple(tuple(cards) if s == seat else zone for s, zone in enumerate(zones))


def describe(state: GameState, **changes: Any) -> Position:
    """A position with ``state``'s fields whatever its decision (``to_position``
    takes only a turn about to draw or play), changed by ``changes``."""
    fields: dict[str, Any] = {
        "ruleset": state.ruleset.name,
        "players": state.players,
        "deck": state.deck,
        "set_aside": state.set_aside,
        "face_up": state.face_up,
        "hands": state.hands,
        "discards": state.discards,
        "current": state.current,
        "drawn": state.decision is Decision.PLAY,
        "out": tuple(state.out),
        "protected": tuple(state.protected),
        "tokens": state.tokens,
        "round_number": state.round_number,
        "turn_number": state.turn_number,
        "seed": state.seed,
        "sightings": state.sightings,
        "required": state.required,
        "marks": state.marks,
        "contenders": state.contenders,
        "returns": state.returns,
        "settings": state.table.settings,
        "order": state.table.order,
        "exits": state.exits,
        "left": tuple(state.table.left),
    }
    fields.update(changes)
    return Position(**fields)


# --------------------------------------------------------------------------
# targeted mutators: one per invariant of loveletter.validation, each
# breaking it for certain and keeping the rest of the position plausible


def positions(game: Game, rng: random.Random, tries: int = 80) -> Iterator[Position]:
    """Some of the game's positions, in a random order, one in four taken
    before its draw (the engine itself rests only once a turn has drawn)."""
    turns = list(game.turns)
    rng.shuffle(turns)
    for state in turns[:tries]:
        position = to_position(state)
        yield undrawn(position) if rng.random() < 0.25 else position


def first_fit(
    game: Game, rng: random.Random, mutate: Callable[[Position, random.Random], Position | None]
) -> Position | None:
    """``mutate`` applied to the first position of the game it applies to."""
    for p in positions(game, rng):
        mutant = mutate(p, rng)
        if mutant is not None:
            return mutant
    return None


def _cards_placed(p: Position, rng: random.Random) -> Position | None:
    """1. One card of the deck (else of a hand) becomes another kind, or the
    deck gets one card too many."""
    kinds = kinds_of(p)
    if rng.random() < 0.5:
        extra = rng.choice(kinds)
        return attrs.evolve(p, deck=(*p.deck, extra))
    if p.deck:
        i = rng.randrange(len(p.deck))
        other = rng.choice([k for k in kinds if k != p.deck[i]])
        return attrs.evolve(p, deck=(*p.deck[:i], other, *p.deck[i + 1 :]))
    seat = rng.choice(live(p))
    hand = p.hands[seat]
    other = rng.choice([k for k in kinds if k != hand[0]])
    return attrs.evolve(p, hands=with_seat(p.hands, seat, (other, *hand[1:])))


def _table_cards(p: Position, rng: random.Random) -> Position | None:
    """2. The set-aside card goes under the deck; a face-up card goes under
    the deck or the deck's bottom card joins them; online, where no card is
    set aside, the deck's bottom card is set aside."""
    ruleset = ruleset_of(p)
    options: list[Position] = []
    if p.set_aside is not None:
        options.append(attrs.evolve(p, set_aside=None, deck=(*p.deck, p.set_aside)))
    if p.face_up:
        i = rng.randrange(len(p.face_up))
        rest = p.face_up[:i] + p.face_up[i + 1 :]
        options.append(attrs.evolve(p, face_up=rest, deck=(*p.deck, p.face_up[i])))
    spare = len(p.deck) > deck_floor(p)
    if spare and ruleset.face_up_count(p.players):
        options.append(attrs.evolve(p, face_up=(*p.face_up, p.deck[-1]), deck=p.deck[:-1]))
    if spare and not ruleset.sets_aside:
        options.append(attrs.evolve(p, set_aside=p.deck[-1], deck=p.deck[:-1]))
    return rng.choice(options) if options else None


def _hands(p: Position, rng: random.Random) -> Position | None:
    """3. A card moves from one hand to another player's: one holds a card
    too few, the other one too many (an out player one where they hold none)."""
    players = live(p)
    giver = rng.choice(players)
    knocked = sorted(set(p.out) - sitters(p))
    if knocked and rng.random() < 0.3:
        taker = rng.choice(knocked)
    else:
        taker = rng.choice([s for s in players if s != giver])
    hand = list(p.hands[giver])
    card = hand.pop(rng.randrange(len(hand)))
    hands = with_seat(p.hands, giver, hand)
    hands = with_seat(hands, taker, (*hands[taker], card))
    return attrs.evolve(p, hands=hands)


def _deck_left(game: Game, rng: random.Random) -> Position | None:
    """4. The end of a round by the deck, described as the next player's
    turn about to draw: the deck holds no card for the draw (online: one
    at most). Everything else is the last turn's outcome: the next turn
    number, the tokens before the round's award, no protection (the turn
    ends it) and no requirement."""
    ends = [
        i
        for i, s in enumerate(game.states)
        if s.table.round_result is not None
        and s.table.round_result.reason is RoundEndReason.DECK_EMPTY
        and (s.set_aside is not None or not s.ruleset.sets_aside)
        and game.states[i - 1].round_number == s.round_number
    ]
    if not ends:
        return None
    i = rng.choice(ends)
    end, before = game.states[i], game.states[i - 1]
    return describe(
        end,
        current=next_player(end.table, end.out, end.current),
        drawn=False,
        turn_number=end.turn_number + 1,
        tokens=before.tokens,
        contenders=before.contenders,
        protected=(),
        required=None,
    )


def _current(p: Position, rng: random.Random) -> Position | None:
    """5. The player about to draw is one who is out of the round (the
    position taken before the draw, so that every hand stays right)."""
    if not p.out:
        return None
    return attrs.evolve(undrawn(p), current=rng.choice(sorted(p.out)))


def _out_empty_pile(p: Position, rng: random.Random) -> Position | None:
    """6. A player in the round who has not played yet is out, their card
    back on top of the deck (the cards drawn still match the players dealt
    in): out with an empty pile, though dealt into the round."""
    players = live(p)
    waiting = [s for s in players if s != p.current and not p.discards[s] and s not in p.left]
    if len(players) < 3 or not waiting:
        return None
    seat = rng.choice(waiting)
    return attrs.evolve(
        p,
        out=(*p.out, seat),
        hands=with_seat(p.hands, seat, ()),
        deck=(*p.hands[seat], *p.deck),
        exits=(*p.exits, seat) if ruleset_of(p).draws_order else (),
        protected=tuple(s for s in p.protected if s != seat),
        required=None if p.required == seat else p.required,
    )


def _protection(p: Position, rng: random.Random) -> Position | None:
    """7. Protected: the current player, a player out, or a player in the
    round whose pile does not end with the Handmaid."""
    options = [p.current, *p.out]
    options += [
        s
        for s in live(p)
        if s != p.current and not (p.discards[s] and rules(p, p.discards[s][-1]).protects)
    ]
    options = [s for s in options if s not in p.protected]
    if not options:
        return None
    return attrs.evolve(p, protected=(*p.protected, rng.choice(options)))


def _draws(p: Position, rng: random.Random) -> Position | None:
    """8. The cards in hands and piles do not match the turns: the turn
    number passes the draws (fewer replacement draws than none), or cards
    that make no replacement draw go from the deck under the piles until
    the replacements pass what the piles' Princes (...) and the turns
    resolved allow."""
    replaced = replacement_draws(p)
    if rng.random() < 0.5:
        return attrs.evolve(p, turn_number=p.turn_number + replaced + 1)
    needed = most_replacements(p) - replaced + 1
    spare = len(p.deck) - deck_floor(p)
    movable = [
        i for i, card in enumerate(p.deck) if not rules(p, card).replaces and not is_fatal(p, card)
    ]
    piles = [s for s in range(p.players) if p.discards[s]]
    if needed > min(spare, len(movable)) or not piles:
        return None
    chosen = sorted(rng.sample(movable, needed))
    discards = p.discards
    for i in chosen:
        seat = rng.choice(piles)
        discards = with_seat(discards, seat, (p.deck[i], *discards[seat]))
    deck = tuple(card for i, card in enumerate(p.deck) if i not in chosen)
    return attrs.evolve(p, deck=deck, discards=discards)


def _fatal_discard(p: Position, rng: random.Random) -> Position | None:
    """9. A Princess from the deck, the table or a hand changes places with
    a card of the pile of a player in the round that no check counts on
    (below the top where there is one)."""
    sources: list[tuple[str, int, int]] = [
        ("deck", 0, i) for i, c in enumerate(p.deck) if is_fatal(p, c)
    ]
    sources += [("face_up", 0, i) for i, c in enumerate(p.face_up) if is_fatal(p, c)]
    if p.set_aside is not None and is_fatal(p, p.set_aside):
        sources.append(("set_aside", 0, 0))
    for seat in live(p):
        sources += [("hands", seat, i) for i, c in enumerate(p.hands[seat]) if is_fatal(p, c)]
    places = [
        (seat, i)
        for seat in live(p)
        for i, card in enumerate(p.discards[seat])
        if i < len(p.discards[seat]) - 1 and is_plain(p, card)
    ]
    places = places or [
        (seat, len(p.discards[seat]) - 1)
        for seat in live(p)
        if p.discards[seat] and seat not in p.protected and is_plain(p, p.discards[seat][-1])
    ]
    if not sources or not places:
        return None
    zone, owner, index = rng.choice(sources)
    seat, i = rng.choice(places)
    pile = list(p.discards[seat])
    swapped = pile[i]
    fatal: Card
    changed: dict[str, Any]
    if zone == "deck":
        fatal = p.deck[index]
        changed = {"deck": (*p.deck[:index], swapped, *p.deck[index + 1 :])}
    elif zone == "face_up":
        fatal = p.face_up[index]
        changed = {"face_up": (*p.face_up[:index], swapped, *p.face_up[index + 1 :])}
    elif zone == "set_aside":
        assert p.set_aside is not None
        fatal = p.set_aside
        changed = {"set_aside": swapped}
    else:
        hand = list(p.hands[owner])
        fatal = hand[index]
        hand[index] = swapped
        changed = {"hands": with_seat(p.hands, owner, hand)}
    pile[i] = fatal
    return attrs.evolve(p, discards=with_seat(p.discards, seat, pile), **changed)


def _knock_outs(p: Position, rng: random.Random) -> Position | None:
    """10. A player in the round is knocked out (their hand on their pile)
    at a moment when the players knocked out already number as many as the
    turns resolved or the cards in the piles that knock a player out."""
    players = live(p)
    if len(players) < 3 or p.required is not None:
        return None
    seats = [s for s in players if s != p.current and s not in p.protected]
    rng.shuffle(seats)
    draws_order = ruleset_of(p).draws_order
    for seat in seats:
        mutant = attrs.evolve(
            p,
            out=(*p.out, seat),
            hands=with_seat(p.hands, seat, ()),
            discards=with_seat(p.discards, seat, (*p.discards[seat], *p.hands[seat])),
            exits=(*p.exits, seat) if draws_order else (),
        )
        knocked = set(mutant.out) - sitters(mutant) - set(mutant.left)
        makers = sum(1 for pile in mutant.discards for c in pile if rules(p, c).knocks_out)
        makers += sum(1 for s in mutant.out for c in mutant.discards[s] if is_fatal(p, c))
        if len(knocked) > min(makers, resolved(p)):
            return mutant
    return None


def _first_lap(p: Position, rng: random.Random) -> Position | None:
    """11. After a full lap of turns, a player in the round has an empty
    pile: their cards go under another player's pile (the cards drawn and
    every note still fit). The player chosen is named by no sighting, mark,
    return or requirement, and is not protected."""
    dealt = p.players - len(sitters(p))
    if resolved(p) < dealt - 1:
        return None
    noted = {s.viewer for s in p.sightings} | {s.owner for s in p.sightings}
    noted |= {m[0] for m in p.marks} | {r[0] for r in p.returns}
    if p.required is not None:
        noted.add(previous_seat(p))
    players = live(p)
    emptied = [
        s
        for s in players
        if s != p.current and p.discards[s] and s not in p.protected and s not in noted
    ]
    if not emptied:
        return None
    seat = rng.choice(emptied)
    others = [s for s in players if s != seat]
    takers = [s for s in others if p.discards[s]] or others
    taker = rng.choice(takers)
    discards = with_seat(p.discards, taker, (*p.discards[seat], *p.discards[taker]))
    return attrs.evolve(p, discards=with_seat(discards, seat, ()))


def _sightings(p: Position, rng: random.Random) -> Position | None:
    """12. A sighting no card played can have made: a look through a card
    not in its viewer's pile, one side of a comparison, a turn still to
    come, sightings out of turn order, one of a turn's sightings through
    another card than the rest."""
    if p.turn_number < 2:
        return None
    kinds = kinds_of(p)
    showing = [k for k in kinds if rules(p, k).shows]
    looks = [k for k in showing if rules(p, k).shows is Shows.TO_ITS_PLAYER]
    both = [k for k in showing if rules(p, k).shows is Shows.BOTH_WAYS]
    n, last = p.players, p.turn_number - 1
    viewer = rng.randrange(n)
    owner = rng.choice([s for s in range(n) if s != viewer])
    card = p.hands[owner][0] if p.hands[owner] else rng.choice(kinds)
    seen = p.sightings
    options: list[tuple[Sighting, ...]] = []
    if all(s.turn < last for s in seen):
        unplayed = [k for k in looks if k not in p.discards[viewer]]
        via = rng.choice(unplayed or both)
        options.append((*seen, Sighting(viewer, owner, card, last, via)))
    options.append((*seen, Sighting(viewer, owner, card, p.turn_number, rng.choice(showing))))
    if seen:
        i = rng.randrange(len(seen))
        group = [s for s in seen if s.turn == seen[i].turn]
        shows = rules(p, seen[i].via).shows
        if shows is Shows.BOTH_WAYS:
            options.append(seen[:i] + seen[i + 1 :])
        if len(group) > 1:
            other = rng.choice([k for k in showing if k != seen[i].via])
        else:
            other = rng.choice([k for k in both if k != seen[i].via] or [seen[i].via])
        if other is not seen[i].via:
            options.append((*seen[:i], attrs.evolve(seen[i], via=other), *seen[i + 1 :]))
        later = [j for j in range(len(seen)) if seen[j].turn > seen[0].turn]
        if later:
            j = rng.choice(later)
            options.append((seen[j], *seen[:j], *seen[j + 1 :]))
    return attrs.evolve(p, sightings=rng.choice(options))


def _tokens(p: Position, rng: random.Random) -> Position | None:
    """13. Tokens: one negative; one won in round 1 by a player whose pile
    pays none; fewer in all than the rounds ended; the tokens to win while
    the game goes on."""
    counts = tokens(p)
    n = p.players
    ruleset = ruleset_of(p)
    options: list[list[int]] = []
    seat = rng.randrange(n)
    options.append([-1 if s == seat else c for s, c in enumerate(counts)])
    if p.round_number == 1:
        unpaid = [
            s
            for s in range(n)
            if not any(
                rules(p, c).scores_when_played
                or (s in p.out and rules(p, c).knocked_out_token is not None)
                for c in p.discards[s]
            )
        ]
        if unpaid:
            x = rng.choice(unpaid)
            options.append([c + (s == x) for s, c in enumerate(counts)])
    else:
        fewer = list(counts)
        while sum(fewer) >= p.round_number - 1:
            x = rng.choice([s for s in range(n) if fewer[s]])
            fewer[x] -= 1
        options.append(fewer)
    needed = ruleset.tokens_to_win(n)
    if needed is not None and not p.contenders:
        options.append([needed if s == seat else c for s, c in enumerate(counts)])
    return attrs.evolve(p, tokens=tuple(rng.choice(options)))


def _first_player(p: Position, rng: random.Random) -> Position | None:
    """14. After round 1, the player who started the round (online: first in
    its order, while no one has left; elsewhere told from the turn number
    while no one is out) gives their tokens to others: they did not win
    the round before. No one reaches the tokens to win."""
    if p.round_number < 2:
        return None
    n = p.players
    if ruleset_of(p).draws_order:
        if p.left:
            return None
        first = (p.order or tuple(range(n)))[0]
    elif p.out:
        return None
    else:
        first = (p.current - (p.turn_number - 1)) % n
    counts = tokens(p)
    needed = ruleset_of(p).tokens_to_win(n)
    ceiling = needed - 1 if needed is not None else None
    for _ in range(counts[first]):
        takers = [s for s in range(n) if s != first and (ceiling is None or counts[s] < ceiling)]
        if not takers:
            return None
        counts[min(takers, key=lambda s: (counts[s], rng.random()))] += 1
    counts[first] = 0
    return attrs.evolve(p, tokens=tuple(counts))


def _notes(p: Position, rng: random.Random) -> Position | None:
    """15. A Sycophant's requirement though the previous player's pile does
    not end with one; a Jester's mark by a player who played none; a
    Chancellor's return by a player who played none (or fewer than their
    returns)."""
    kinds = kinds_of(p)
    n = p.players
    options: list[Position] = []
    binding = {k for k in kinds if rules(p, k).restricts_next}
    if binding and p.required is None and not set(p.left) & set(p.exits):
        before = p.discards[previous_seat(p)]
        choosable = [s for s in live(p) if s not in p.protected]
        if (not before or before[-1] not in binding) and choosable:
            options.append(attrs.evolve(p, required=rng.choice(choosable)))
    markers = {k for k in kinds if rules(p, k).marks}
    if markers:
        unmarked = [s for s in range(n) if not markers & set(p.discards[s])]
        if unmarked:
            x = rng.choice(unmarked)
            y = rng.choice([s for s in range(n) if s != x])
            options.append(attrs.evolve(p, marks=(*p.marks, (x, y))))
    returners = {k for k in kinds if rules(p, k).returns}
    if returners:
        made = Counter(owner for owner, _ in p.returns)
        unpaid = [s for s in range(n) if made[s] >= sum(1 for c in p.discards[s] if c in returners)]
        if unpaid:
            ret = (rng.choice(unpaid), rng.choice((1, 2)))
            options.append(attrs.evolve(p, returns=(*p.returns, ret)))
    return rng.choice(options) if options else None


def _seats(p: Position, rng: random.Random) -> Position | None:
    """16. Online: a player dealt in missing from the turn order, a player
    in the round listed as gone or out; elsewhere contenders of a tie-break
    round that are not the players dealt in (with the tokens a tie needs),
    or contenders where the edition has no tie-break round."""
    ruleset = ruleset_of(p)
    n = p.players
    players = live(p)
    options: list[Position] = []
    if ruleset.draws_order:
        order = p.order or tuple(s for s in range(n) if s not in p.left)
        dealt = [s for s in order if s not in p.left]
        if dealt:
            gone = rng.choice(dealt)
            options.append(attrs.evolve(p, order=tuple(s for s in order if s != gone)))
        options.append(attrs.evolve(p, left=(*p.left, rng.choice(players))))
        options.append(attrs.evolve(p, exits=(*p.exits, rng.choice(players))))
        return rng.choice(options)
    needed = ruleset.tokens_to_win(n)
    if needed is None:
        return None
    dealt = [s for s in range(n) if s not in sitters(p)]
    if ruleset.game_tie is not GameTie.TIE_BREAK_ROUND:
        tied = sorted(rng.sample(range(n), 2))
    elif p.contenders:
        if len(p.contenders) > 2:
            dropped = rng.choice(p.contenders)
            return attrs.evolve(p, contenders=tuple(s for s in p.contenders if s != dropped))
        outside = sorted(sitters(p))
        return attrs.evolve(p, contenders=tuple(sorted({*p.contenders, rng.choice(outside)})))
    elif len(dealt) < 3:
        return None
    else:
        tied = sorted(rng.sample(dealt, rng.randrange(2, len(dealt))))
    # the tied players hold the tokens to win, and the rounds played paid them
    counts = [max(c, needed) if s in tied else c for s, c in enumerate(tokens(p))]
    return attrs.evolve(
        p,
        contenders=tuple(tied),
        tokens=tuple(counts),
        round_number=max(p.round_number, needed + 1),
    )


def _fit(mutate: Callable[[Position, random.Random], Position | None]) -> Mutator:
    def mutator(game: Game, rng: random.Random) -> Position | None:
        return first_fit(game, rng, mutate)

    mutator.__doc__ = mutate.__doc__
    return mutator


@attrs.frozen
class Invariant:
    """One invariant of :mod:`loveletter.validation` and a mutator breaking it."""

    number: int
    name: str
    mutate: Mutator
    #: the rulesets and player counts where the mutator can apply
    fits: Callable[[str, int], bool] = lambda ruleset, players: True

    @property
    def id(self) -> str:
        return f"{self.number:02d}-{self.name}"

    def setups(self) -> list[tuple[str, int]]:
        return [
            (ruleset, n)
            for ruleset, counts in PLAYER_COUNTS.items()
            for n in counts
            if self.fits(ruleset, n)
        ]


def _has(fact: Callable[[CardRules], object]) -> Callable[[str, int], bool]:
    def fits(ruleset: str, players: int) -> bool:
        rs = get_ruleset(ruleset)
        return any(fact(rs.rules[k]) for k in rs.setup(players).kinds)

    return fits


INVARIANTS: tuple[Invariant, ...] = (
    Invariant(1, "cards", _fit(_cards_placed)),
    Invariant(2, "table-cards", _fit(_table_cards)),
    Invariant(3, "hands", _fit(_hands)),
    Invariant(4, "deck", _deck_left),
    Invariant(5, "current", _fit(_current), lambda r, n: n >= 3),
    Invariant(6, "out", _fit(_out_empty_pile), lambda r, n: n >= 3),
    Invariant(7, "protection", _fit(_protection)),
    Invariant(8, "draws", _fit(_draws)),
    Invariant(9, "fatal-discards", _fit(_fatal_discard)),
    Invariant(10, "knock-outs", _fit(_knock_outs), lambda r, n: n >= 3),
    Invariant(11, "first-lap", _fit(_first_lap)),
    Invariant(12, "sightings", _fit(_sightings)),
    Invariant(13, "tokens", _fit(_tokens)),
    Invariant(14, "first-player", _fit(_first_player)),
    Invariant(
        15,
        "notes",
        _fit(_notes),
        _has(lambda r: r.restricts_next or r.marks or r.returns),
    ),
    Invariant(16, "seats", _fit(_seats)),
)


# --------------------------------------------------------------------------
# untargeted mutations: one random change, possible or not


def _slots(p: Position) -> list[tuple[str, int, int]]:
    """Every card's place: (zone, seat, index); the seat is 0 off the seats."""
    slots = [("deck", 0, i) for i in range(len(p.deck))]
    slots += [("face_up", 0, i) for i in range(len(p.face_up))]
    if p.set_aside is not None:
        slots.append(("set_aside", 0, 0))
    for seat in range(p.players):
        slots += [("hands", seat, i) for i in range(len(p.hands[seat]))]
        slots += [("discards", seat, i) for i in range(len(p.discards[seat]))]
    return slots


def _card_at(p: Position, slot: tuple[str, int, int]) -> Card:
    zone, seat, i = slot
    if zone == "set_aside":
        assert p.set_aside is not None
        return p.set_aside
    if zone in ("deck", "face_up"):
        cards: tuple[Card, ...] = getattr(p, zone)
        return cards[i]
    seats: Zones = getattr(p, zone)
    return seats[seat][i]


def _put(p: Position, slot: tuple[str, int, int], card: Card) -> Position:
    zone, seat, i = slot
    if zone == "set_aside":
        return attrs.evolve(p, set_aside=card)
    if zone in ("deck", "face_up"):
        cards: tuple[Card, ...] = getattr(p, zone)
        change: dict[str, Any] = {zone: (*cards[:i], card, *cards[i + 1 :])}
        return attrs.evolve(p, **change)
    seats: Zones = getattr(p, zone)
    zone_cards = list(seats[seat])
    zone_cards[i] = card
    change = {zone: with_seat(seats, seat, zone_cards)}
    return attrs.evolve(p, **change)


def _swap_cards(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    a, b = rng.sample(_slots(p), 2)
    ca, cb = _card_at(p, a), _card_at(p, b)
    if ca is cb:
        return None
    detail = f"{ca} at {a[0]}[{a[1]}][{a[2]}] swapped with {cb} at {b[0]}[{b[1]}][{b[2]}]"
    return detail, _put(_put(p, a, cb), b, ca)


def _pile_and_deck(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    piles = [s for s in range(p.players) if p.discards[s]]
    if piles and (not p.deck or rng.random() < 0.5):
        seat = rng.choice(piles)
        pile = list(p.discards[seat])
        card = pile.pop(rng.randrange(len(pile)))
        at = rng.randrange(len(p.deck) + 1)
        deck = (*p.deck[:at], card, *p.deck[at:])
        detail = f"{card} from discards[{seat}] to deck[{at}]"
        return detail, attrs.evolve(p, deck=deck, discards=with_seat(p.discards, seat, pile))
    if not p.deck:
        return None
    at = rng.randrange(len(p.deck))
    seat = rng.randrange(p.players)
    pile = list(p.discards[seat])
    pile.insert(rng.randrange(len(pile) + 1), p.deck[at])
    deck = p.deck[:at] + p.deck[at + 1 :]
    detail = f"{p.deck[at]} from deck[{at}] to discards[{seat}]"
    return detail, attrs.evolve(p, deck=deck, discards=with_seat(p.discards, seat, pile))


def _token(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    counts = tokens(p)
    seat, step = rng.randrange(p.players), rng.choice((-1, 1))
    counts[seat] += step
    return f"tokens[{seat}] {step:+d}", attrs.evolve(p, tokens=tuple(counts))


def _round(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    step = rng.choice((-1, 1))
    return f"round_number {step:+d}", attrs.evolve(p, round_number=p.round_number + step)


def _turn(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    step = rng.choice((-1, 1))
    return f"turn_number {step:+d}", attrs.evolve(p, turn_number=p.turn_number + step)


def _another_current(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    seat = rng.choice([s for s in range(p.players) if s != p.current])
    if p.drawn:
        # the hands follow: the new current player holds the drawn card
        hand = p.hands[p.current]
        hands = with_seat(p.hands, p.current, hand[:-1])
        hands = with_seat(hands, seat, (*hands[seat], hand[-1]))
        return f"current {seat} with the drawn card", attrs.evolve(p, current=seat, hands=hands)
    return f"current {seat}", attrs.evolve(p, current=seat)


def _toggle_out(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    seat = rng.choice([s for s in range(p.players) if s != p.current])
    draws_order = ruleset_of(p).draws_order
    if seat not in p.out:
        pile = (*p.discards[seat], *p.hands[seat])
        return f"player {seat} out, hand on pile", attrs.evolve(
            p,
            out=(*p.out, seat),
            hands=with_seat(p.hands, seat, ()),
            discards=with_seat(p.discards, seat, pile),
            protected=tuple(s for s in p.protected if s != seat),
            exits=(*p.exits, seat) if draws_order else (),
        )
    pile = p.discards[seat]
    if not pile:
        return None
    return f"player {seat} back in, top of pile in hand", attrs.evolve(
        p,
        out=tuple(s for s in p.out if s != seat),
        hands=with_seat(p.hands, seat, pile[-1:]),
        discards=with_seat(p.discards, seat, pile[:-1]),
        exits=tuple(s for s in p.exits if s != seat),
    )


def _toggle_protected(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    seat = rng.randrange(p.players)
    if seat in p.protected:
        protected = tuple(s for s in p.protected if s != seat)
        return f"player {seat} unprotected", attrs.evolve(p, protected=protected)
    return f"player {seat} protected", attrs.evolve(p, protected=(*p.protected, seat))


def _sighting(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    kinds = kinds_of(p)
    showing = [k for k in kinds if rules(p, k).shows]
    seen = list(p.sightings)
    n = p.players
    choice = rng.randrange(3) if seen else 0
    if choice == 0:
        if p.turn_number < 2:
            return None
        viewer = rng.randrange(n)
        owner = rng.choice([s for s in range(n) if s != viewer])
        turn = rng.randint(seen[-1].turn if seen else 1, p.turn_number - 1)
        added = Sighting(viewer, owner, rng.choice(kinds), turn, rng.choice(showing))
        return f"sighting added {added}", attrs.evolve(p, sightings=(*seen, added))
    i = rng.randrange(len(seen))
    if choice == 1:
        return f"sighting removed {seen[i]}", attrs.evolve(p, sightings=(*seen[:i], *seen[i + 1 :]))
    old = seen[i]
    field = rng.choice(("card", "viewer", "owner", "turn", "via"))
    value: object
    if field == "card":
        value = rng.choice(kinds)
    elif field == "via":
        value = rng.choice(showing)
    elif field == "turn":
        value = old.turn + rng.choice((-1, 1))
    else:
        value = rng.choice([s for s in range(n) if s not in (old.viewer, old.owner)] or [0])
    change: dict[str, Any] = {field: value}
    seen[i] = attrs.evolve(old, **change)
    if seen[i] == old:
        return None
    return f"sighting {old} altered: {field} {value}", attrs.evolve(p, sightings=tuple(seen))


def _note(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    n = p.players
    kinds = kinds_of(p)
    options: list[str] = ["mark", "return"]
    if any(rules(p, k).restricts_next for k in kinds):
        options.append("required")
    option = rng.choice(options)
    if option == "required":
        seat = None if p.required is not None else rng.randrange(n)
        return f"required {seat}", attrs.evolve(p, required=seat)
    x = rng.randrange(n)
    if option == "mark":
        y = rng.choice([s for s in range(n) if s != x])
        return f"mark ({x}, {y}) added", attrs.evolve(p, marks=(*p.marks, (x, y)))
    count = rng.choice((1, 2))
    return f"return ({x}, {count}) added", attrs.evolve(p, returns=(*p.returns, (x, count)))


def _toggle_drawn(p: Position, rng: random.Random) -> tuple[str, Position] | None:
    hand = list(p.hands[p.current])
    if p.drawn:
        card = hand.pop(rng.randrange(len(hand)))
        hands = with_seat(p.hands, p.current, hand)
        detail = f"not drawn, {card} back on top of the deck"
        return detail, attrs.evolve(p, drawn=False, deck=(card, *p.deck), hands=hands)
    if not p.deck:
        return None
    at = rng.randrange(len(p.deck))
    hands = with_seat(p.hands, p.current, (*hand, p.deck[at]))
    deck = p.deck[:at] + p.deck[at + 1 :]
    return f"drawn, deck[{at}] {p.deck[at]} in hand", attrs.evolve(
        p, drawn=True, deck=deck, hands=hands
    )


MUTATIONS: dict[str, Callable[[Position, random.Random], tuple[str, Position] | None]] = {
    "swap-cards": _swap_cards,
    "pile-deck": _pile_and_deck,
    "token": _token,
    "round": _round,
    "turn": _turn,
    "current": _another_current,
    "out": _toggle_out,
    "protected": _toggle_protected,
    "sighting": _sighting,
    "note": _note,
    "drawn": _toggle_drawn,
}


def mutate(p: Position, rng: random.Random) -> tuple[str, str, Position]:
    """One untargeted mutation of ``p``: (kind, detail, mutant), never ``p`` itself."""
    while True:
        kind = rng.choice(sorted(MUTATIONS))
        made = MUTATIONS[kind](p, rng)
        if made is not None and made[1] != p:
            return kind, made[0], made[1]


# --------------------------------------------------------------------------
# the run

OUTCOMES = ("refused", "reachable", "unreachable", "unknown", "crash", "refused-reachable")


def classify(mutant: Position, budget: int) -> tuple[str, str]:
    """What ``from_position`` makes of ``mutant``: one of :data:`OUTCOMES`
    and the reason (the field refused, the search's answer, the crash).

    A refused mutant is also searched for, past the checks: a game that
    reaches it makes it ``refused-reachable``, a possible position refused."""
    try:
        from_position(mutant)
    except PositionError as error:
        found = game_reaching(mutant, budget)
        if found is not None:
            return "refused-reachable", f"{error}; yet {found}"
        return "refused", str(error)
    except Exception as error:  # a crash is what this run looks for
        return "crash", f"from_position: {error!r}"
    try:
        from_position(mutant, check="reachable", budget=budget)
    except PositionError as error:
        if error.field != "position":
            return "crash", f"the reachable check refused field {error.field!r}: {error}"
        return "unreachable", error.detail
    except ReachabilityUnknown as error:
        return "unknown", error.detail
    except Exception as error:  # a crash is what this run looks for
        return "crash", f"from_position(check='reachable'): {error!r}"
    return "reachable", ""


def game_reaching(target: Position, budget: int, tries: int = 5) -> str | None:
    """The commands of a game that reaches ``target`` exactly, found by the
    replay-start search without ``from_position``'s checks (which its own
    entry point runs first), or ``None`` when none was found. The game is
    played through the engine and compared with ``target``: what it says
    is what play reached."""
    goal = target
    if not target.drawn:  # reached once the same turn has drawn
        if not target.deck:
            return None
        hand = (*target.hands[target.current], target.deck[0])
        goal = attrs.evolve(
            target,
            drawn=True,
            deck=target.deck[1:],
            hands=with_seat(target.hands, target.current, hand),
        )
    try:
        solutions = round_solutions(goal, budget)
        for _, solution in zip(range(tries), solutions, strict=False):
            reached = _play_solution(goal, solution)
            if reached is not None:
                return reached
    except (SearchBudgetExceeded, ValueError, LookupError):
        # out of budget, or a description the search cannot take (round 0, a
        # seat out of range...): nothing found
        return None
    return None


def _play_solution(goal: Position, solution: RoundSolution) -> str | None:
    n = goal.players
    seed = 0 if goal.seed is None else goal.seed
    settings = goal.settings
    if goal.round_number == 1 and not goal.contenders:
        deck, first, order = solution.deck, solution.first_player, solution.order
        commands: tuple[ll.Command, ...] = solution.commands
    else:
        counts = tokens(goal)
        start = tuple(t - g for t, g in zip(counts, solution.gained, strict=True))
        dealt = goal.order or goal.contenders or tuple(range(n))
        prelude = prior_rounds(
            goal.ruleset,
            n,
            start,
            goal.round_number,
            solution.first_player,
            tuple(sorted(goal.contenders)),
            seed=seed,
            decks=settings.decks if settings is not None else 1,
            absent=tuple(sorted(set(goal.left) - set(dealt))),
        )
        if prelude is None:
            return None
        deck, first, order = prelude.deck, prelude.first_player, prelude.order
        start_round = StartRound(solution.deck, solution.first_player, solution.order)
        commands = (*prelude.commands, start_round, *solution.commands)
    try:
        state = ll.new_game(
            goal.ruleset,
            n,
            seed=seed,
            first_player=first,
            deck=deck,
            order=order,
            settings=settings,
        )
        for command in commands:
            state = ll.push(state, command)
        reached = to_position(state)
    except ll.LoveLetterError:
        return None
    if attrs.evolve(reached, seed=goal.seed) != goal:
        return None
    return f"a game reaches it: {len(commands)} commands from a stacked deal (first player {first})"


@attrs.frozen
class Found:
    """A mutant worth reporting: impossible yet accepted, or a crash."""

    setup: Setup
    turn: int  #: the index of the position among the game's turns
    what: str  #: the mutation (or the invariant broken)
    outcome: str
    reason: str
    mutant: Position

    def show(self, verbose: bool) -> str:
        line = f"  [{self.outcome}] {self.setup}, turn #{self.turn}: {self.what}\n    {self.reason}"
        return line + (f"\n    {ll.dumps(self.mutant)}" if verbose else "")


def _pick_turn(game: Game, rng: random.Random) -> tuple[int, GameState]:
    turns = game.turns
    i = rng.randrange(len(turns))
    return i, turns[i]


def untargeted_run(
    ruleset: str, count: int, seed: int, budget: int, found: list[Found]
) -> tuple[Counter[str], Counter[str]]:
    """``count`` positions of ``ruleset``, each mutated once: the outcomes,
    and the impossible mutants accepted by mutation kind."""
    outcomes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for index in range(count):
        rng = random.Random(f"{seed}:{ruleset}:{index}")
        game = play(random_setup(rng, ruleset))
        turn, state = _pick_turn(game, rng)
        base = to_position(state)
        if rng.random() < 0.25:
            base = undrawn(base)
        kind, detail, mutant = mutate(base, rng)
        outcome, reason = classify(mutant, budget)
        outcomes[outcome] += 1
        if outcome in ("unreachable", "crash", "refused-reachable"):
            kinds[kind] += 1
            found.append(Found(game.setup, turn, f"{kind}: {detail}", outcome, reason, mutant))
    return outcomes, kinds


def targeted_run(
    invariant: Invariant, count: int, seed: int, found: list[Found]
) -> tuple[int, int, Counter[str]]:
    """``count`` tries of ``invariant``'s mutator over the rulesets it fits:
    the mutants generated, those accepted, and the fields refused."""
    generated = accepted = 0
    fields: Counter[str] = Counter()
    setups = invariant.setups()
    for index in range(count):
        rng = random.Random(f"{seed}:{invariant.id}:{index}")
        ruleset, players = rng.choice(setups)
        decks = rng.choice(ONLINE_DECKS) if ruleset == "online" else 1
        game = play(Setup(ruleset, players, decks, rng.randrange(2**32)))
        mutant = invariant.mutate(game, rng)
        if mutant is None:
            continue
        generated += 1
        try:
            from_position(mutant)
        except PositionError as error:
            fields[error.field.split("[")[0]] += 1
            continue
        except Exception as error:  # a crash is what this run looks for
            found.append(Found(game.setup, -1, invariant.id, "crash", repr(error), mutant))
            continue
        accepted += 1
        found.append(Found(game.setup, -1, invariant.id, "accepted", "(targeted)", mutant))
    return generated, accepted, fields


def _rate(unreachable: int, refused: int) -> str:
    impossible = refused + unreachable
    if not impossible:
        return "-"
    return f"{unreachable}/{impossible} = {100 * unreachable / impossible:.1f}%"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=300, help="positions per ruleset")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed")
    parser.add_argument("--budget", type=int, default=20_000, help="search nodes per mutant")
    parser.add_argument(
        "--targeted", type=int, default=100, help="targeted mutants tried per invariant"
    )
    parser.add_argument("--rulesets", nargs="*", default=sorted(PLAYER_COUNTS))
    parser.add_argument("--verbose", action="store_true", help="print the mutants found as JSON")
    args = parser.parse_args(argv)
    started = time.monotonic()
    found: list[Found] = []
    total: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    for ruleset in args.rulesets:
        outcomes, kinds = untargeted_run(ruleset, args.positions, args.seed, args.budget, found)
        total += outcomes
        by_kind += kinds
        _print_outcomes(ruleset, outcomes)
    _print_outcomes("total", total)
    if by_kind:
        print(
            "impossible accepted by mutation: "
            + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items()))
        )
    print("== invariants (targeted) ==")
    failed = False
    for invariant in INVARIANTS:
        generated, accepted, fields = targeted_run(invariant, args.targeted, args.seed, found)
        failed |= accepted > 0
        named = ", ".join(f"{f} {k}" for f, k in fields.most_common())
        print(f"{invariant.id:<18} generated {generated:>4}  accepted {accepted:>3}  ({named})")
    failed |= any(f.outcome in ("crash", "refused-reachable") for f in found)
    if found:
        print("== impossible but accepted, possible but refused, and crashes ==")
        for item in found:
            print(item.show(args.verbose))
    print(f"({time.monotonic() - started:.0f} s)")
    return 1 if failed else 0


def _print_outcomes(name: str, outcomes: Counter[str]) -> None:
    print(f"== {name} ==")
    print(f"mutants               {sum(outcomes.values())}")
    for outcome in OUTCOMES:
        label = {
            "reachable": "accepted-reachable",
            "unreachable": "accepted-unreachable",
            "refused-reachable": "refused-reachable",
        }.get(outcome, outcome)
        print(f"{label:<21} {outcomes[outcome]}")
    print(f"impossible accepted   {_rate(outcomes['unreachable'], outcomes['refused'])}")


if __name__ == "__main__":
    sys.exit(main())
