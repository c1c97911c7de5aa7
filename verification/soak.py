"""Soak run: many random games per ruleset, illegal commands mixed in,
both engine paths compared and invariants checked after every step.

    python verification/soak.py                       # make soak: 100,000 games per ruleset
    python verification/soak.py --games 300 --rulesets premium --workers 2
    python verification/soak.py --ruleset premium --players 5 --game-seed N   # one game again

Every game is played from a seed derived from (run seed, ruleset, game
index); the seed decides the deal, the first player and every choice, so a
failure prints a one-line reproducer that plays exactly that game again.
Player counts cycle through each ruleset's range (Premium 2 to 8, online 3
to 8).

An online game is a match of a few rounds (one to four) at a table of one,
two or three decks (random moves off at about one table in seven): the
host's commands are mixed in, a ``TimeOut`` for the player to act before
about one step in twenty (its move must be the one the documented seeded
draw picks) and now and then a ``Leave``; once the match has played its
rounds, players leave one by one, between rounds or during them, until
fewer than two are present and the match closes.

At every step the game is given, now and then, one or two illegal commands
of every kind (another player's, an answer to a decision not pending, a
card not held or not in the edition, a Countess left in hand, bad targets,
second targets and names, bad Chancellor returns and looks, StartRound with
a bad deck, first player or turn order, fields of the wrong type, things
that are not commands, a legal command with one field changed, a ``Leave``
or a ``TimeOut`` the table refuses), then one of the listed legal commands
(online, sometimes a host's command). Each step is checked:

* an accepted command gives equal states through ``push`` (the shortcut
  path), ``step`` and the fold of ``evolve`` over its events;
* a refused command raises ``IllegalCommand`` on both paths, with the same
  kind, a member of the closed ``RejectionKind`` list (the very kind the
  conformance README's precedence gives, wherever the probe pins one), and
  leaves the state's fields and its hash as they were; an unlisted command
  accepted is a violation (but a valid stacked ``StartRound``, which
  ``legal_commands`` documents as accepted, and online the host's
  ``Leave`` and ``TimeOut``, which it never lists);
* ``loveletter.check_state`` accepts the state, and so do the independent
  invariants of :mod:`soak_checks` (cards conserved, hand sizes, one
  player to act, protection, tokens, the end of the round and the game;
  online the pile, the drawn order, the exits, leaving, the ranks and win
  counters of every round, and a time-out's move);
* one listed command, picked at random, is accepted by ``decide``.

Costlier checks run less often, as the output says: every listed command
decided every 16th step; the whole log replayed (``replay``) and the final
state read back from JSON every 8th game (every game with --game-seed).

Exit status 1 if any game found a violation or crashed (an exception other
than ``IllegalCommand``). ``LOVELETTER_SOAK_BREAK=<name>`` makes the engine
the script drives deliberately wrong (names in :data:`BREAKS`): the tests
use it to prove a violation is caught and reported with its reproducer.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import multiprocessing
import os
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import reduce
from pathlib import Path
from typing import Any, cast

import attrs

# The checkout, and this directory for soak_checks, however the script is started.
_HERE = Path(__file__).resolve().parent
for _path in (_HERE, _HERE.parent):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from soak_checks import (  # noqa: E402
    COUNTESS_FORCERS,
    DECK_COPIES,
    EDITION_KINDS,
    ONLINE,
    OTHERS_ONLY,
    PLAYER_COUNTS,
    RULESETS,
    TWO_PLAYERS,
    Chooses,
    Violation,
    allowed_first_players,
    check_game_over,
    check_invariants,
    check_transition,
    chooses,
    deck_of,
    host,
    names,
    names_numbers,
    present,
    timeout_move,
    zone_cards,
)

import loveletter as ll  # noqa: E402
from loveletter import Card, Decision, GameState, IllegalCommand, RejectionKind  # noqa: E402
from loveletter.commands import (  # noqa: E402
    Command,
    Decline,
    DrawCard,
    KeepCard,
    Leave,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
    TimeOut,
)
from loveletter.errors import LoveLetterError  # noqa: E402
from loveletter.events import Event, TurnTimedOut  # noqa: E402
from loveletter.state import TableSettings  # noqa: E402

R = RejectionKind
#: environment variable naming a deliberate engine fault (tests only)
BREAK_ENV = "LOVELETTER_SOAK_BREAK"
DEFAULT_GAMES = 100_000
#: check_state runs on every Nth step, and on every state between rounds
CHECK_STATE_EVERY = 4
#: every listed command is decided on every Nth step
ALL_LEGAL_EVERY = 64
#: the whole log is replayed and the state read back from JSON every Nth game
DEEP_EVERY = 8
#: illegal commands are tried before this share of the steps
PROBE_SHARE = 0.3
#: a game must end long before this many accepted commands (hang guard)
MAX_STEPS = 20_000
#: a seat no game has
FAR = 10**9
#: online: the rounds a match plays before its players start leaving
MATCH_ROUNDS = (1, 4)
#: online: the share of tables that make no random move on a time-out
NO_RANDOM_MOVES = 0.15


# --------------------------------------------------------------------------
# the engine under test, replaceable as a whole by a deliberate fault


@dataclass(frozen=True)
class Engine:
    """The engine's verbs the soak run calls (a deliberate fault replaces some)."""

    push: Callable[[GameState, Command], GameState]
    step: Callable[[GameState, Command], tuple[GameState, tuple[Event, ...]]]
    fold: Callable[[GameState, tuple[Event, ...]], GameState]
    decide: Callable[[GameState, Command], tuple[Event, ...]]
    legal_commands: Callable[[GameState], tuple[Command, ...]]
    check_state: Callable[[GameState], None]


def _fold(state: GameState, events: tuple[Event, ...]) -> GameState:
    return reduce(ll.evolve, events, state)


ENGINE = Engine(ll.push, ll.step, _fold, ll.decide, ll.legal_commands, ll.check_state)


def _push_miscounts_after_baron() -> Engine:
    """The shortcut path off by one turn after a Baron."""

    def push(state: GameState, command: Command) -> GameState:
        after = ll.push(state, command)
        if isinstance(command, PlayCard) and command.card is Card.BARON:
            return attrs.evolve(after, turn_number=after.turn_number + 1)
        return after

    return dataclasses.replace(ENGINE, push=push)


def _push_misnames_not_your_turn() -> Engine:
    """``push`` refuses another player's command with the wrong kind."""

    def push(state: GameState, command: Command) -> GameState:
        try:
            return ll.push(state, command)
        except IllegalCommand as error:
            if error.kind is R.NOT_YOUR_TURN:
                raise IllegalCommand(R.WRONG_DECISION, "misnamed") from None
            raise

    return dataclasses.replace(ENGINE, push=push)


def _protection_kept() -> Engine:
    """Every path keeps a Handmaid's protection past its owner's next turn
    (the paths agree and ``check_state`` is silenced: only the soak's own
    invariants can see it)."""

    def keep(before: GameState, after: GameState) -> GameState:
        if after.round_over or after.round_number != before.round_number:
            return after
        kept = before.protected & set(after.live_players())
        return attrs.evolve(after, protected=after.protected | kept)

    def push(state: GameState, command: Command) -> GameState:
        return keep(state, ll.push(state, command))

    def step(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
        after, events = ll.step(state, command)
        return keep(state, after), events

    def fold(state: GameState, events: tuple[Event, ...]) -> GameState:
        return keep(state, _fold(state, events))

    def quiet(state: GameState) -> None:
        pass

    return dataclasses.replace(ENGINE, push=push, step=step, fold=fold, check_state=quiet)


def _crashes_on_priest() -> Engine:
    """An unexpected exception (a crash, not a refusal) on every Priest."""

    def push(state: GameState, command: Command) -> GameState:
        if isinstance(command, PlayCard) and command.card is Card.PRIEST:
            raise ZeroDivisionError("deliberate crash")
        return ll.push(state, command)

    return dataclasses.replace(ENGINE, push=push)


def _quiet(state: GameState) -> None:
    """``check_state`` silenced: only the soak's own invariants can see a fault."""


def _exits_ranked_backwards() -> Engine:
    """Online: the players who went out ranked the wrong way round (the
    first out highest), on every path; ``check_state`` is silenced."""
    import loveletter.consequences as consequences
    import loveletter.evolution as evolution
    import loveletter.fastpath as fastpath

    real = vars(consequences)["round_ranks"]

    def round_ranks(*args: Any) -> Any:
        ruleset, players, revealed, live, exits, discards = args
        return real(ruleset, players, revealed, live, tuple(reversed(exits)), discards)

    # the round's end on both paths, and evolve's check of it
    for module in (consequences, fastpath, evolution):
        if "round_ranks" in vars(module):
            vars(module)["round_ranks"] = round_ranks
    return dataclasses.replace(ENGINE, check_state=_quiet)


def _timeout_plays_the_first_command() -> Engine:
    """Online: a time-out plays the first listed command, not the seeded one."""
    import loveletter.deciding as deciding

    def timed_out(state: GameState, command: TimeOut) -> Command:
        real(state, command)  # the refusals stay as they are
        return ll.legal_commands(state)[0]

    real = deciding.timed_out
    deciding.timed_out = timed_out
    return ENGINE


#: deliberate faults for ``LOVELETTER_SOAK_BREAK`` (tests prove each is caught)
BREAKS: dict[str, Callable[[], Engine]] = {
    "push-shortcut": _push_miscounts_after_baron,
    "refusal-kind": _push_misnames_not_your_turn,
    "protection-kept": _protection_kept,
    "crash": _crashes_on_priest,
    "online-exits-ranked-backwards": _exits_ranked_backwards,
    "online-timeout-first-command": _timeout_plays_the_first_command,
}


def engine_from_environment() -> Engine:
    name = os.environ.get(BREAK_ENV, "")
    if not name:
        return ENGINE
    if name not in BREAKS:
        raise SystemExit(f"{BREAK_ENV}={name!r}: expected one of {', '.join(BREAKS)}")
    return BREAKS[name]()


# --------------------------------------------------------------------------
# illegal commands

#: an illegal command and the kind it must be refused with (None: any kind,
#: for a random change that the rules may even allow)
Probe = tuple[Any, RejectionKind | None]

_ANSWERS: dict[type, frozenset[Decision]] = {
    PlayCard: frozenset({Decision.PLAY}),
    KeepCard: frozenset({Decision.CHANCELLOR}),
    DrawCard: frozenset({Decision.DRAW}),
    StartRound: frozenset({Decision.NEXT_ROUND}),
    LookAtHand: frozenset({Decision.LOOK}),
    Redraw: frozenset({Decision.REDRAW}),
    Decline: frozenset({Decision.LOOK, Decision.REDRAW}),
}
_ALL_CARDS = tuple(Card)
#: seat fields of the wrong type (1.0 and True equal seat 1 in Python)
_NOT_SEATS: tuple[object, ...] = ("1", 1.0, True, None, (0,))
_NOT_CARDS: tuple[object, ...] = ("Guard", 1, None, 2.5)
_NOT_COMMANDS: tuple[object, ...] = (None, "PlayCard", 3, Command(), (StartRound(),), object())


def _build(cls: type[Command], *fields: object) -> Any:
    """A command whose fields have the wrong types on purpose."""
    return cast(Any, cls)(*fields)


def _changed(command: object, **fields: object) -> Any:
    """``command`` with ``fields`` replaced, whatever their types: probes
    put values of the wrong type in on purpose."""
    return attrs.evolve(cast(Any, command), **fields)


def _actor(state: GameState) -> int:
    return state.to_act if state.to_act is not None else state.current


def _other_seat(rng: random.Random, state: GameState, actor: int) -> int:
    seats = [s for s in range(-1, state.players + 1) if s != actor]
    return rng.choice([*seats, FAR, -FAR])


def probe_wrong_player(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """turn.order, bishop.target-may-redraw: only the player to act acts."""
    if state.to_act is None or not legal:
        return None, None
    other = _other_seat(rng, state, state.to_act)
    return _changed(rng.choice(legal), player=other), R.NOT_YOUR_TURN


def probe_wrong_decision(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    actor = _actor(state)
    # an empty hand (between rounds): any card of the edition; a card it
    # lacks would be malformed, which comes before the decision
    hand = state.hands[actor] or sorted(EDITION_KINDS[state.ruleset.name])
    commands: list[object] = [
        PlayCard(actor, rng.choice(hand)),
        KeepCard(actor, rng.choice(hand), ()),
        DrawCard(actor),
        LookAtHand(actor, rng.randrange(state.players)),
        Redraw(actor),
        Decline(actor),
        StartRound(),
    ]
    wrong = [c for c in commands if state.decision not in _ANSWERS[type(c)]]
    return rng.choice(wrong), R.WRONG_DECISION


def probe_not_a_command(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    return rng.choice(_NOT_COMMANDS), R.MALFORMED_COMMAND


def probe_player_type(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """A player of the wrong type is malformed before anything else."""
    if not legal or isinstance(legal[0], StartRound):
        return None, None
    return _changed(rng.choice(legal), player=rng.choice(_NOT_SEATS)), R.MALFORMED_COMMAND


def probe_card(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """A card not held (card-not-in-hand), not in the edition or not a card
    at all (malformed-command)."""
    actor = state.current
    hand = state.hands[actor]
    target = rng.choice((None, *range(-1, state.players + 1)))
    if rng.random() < 0.2:
        return _build(PlayCard, actor, rng.choice(_NOT_CARDS), target), R.MALFORMED_COMMAND
    card = rng.choice([c for c in _ALL_CARDS if c not in hand])
    kinds = EDITION_KINDS[state.ruleset.name]
    return (
        PlayCard(actor, card, target),
        R.CARD_NOT_IN_HAND if card in kinds else R.MALFORMED_COMMAND,
    )


def probe_countess(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """countess.forced-by-king-or-prince."""
    hand = state.hands[state.current]
    forcers = [c for c in hand if c in COUNTESS_FORCERS]
    if Card.COUNTESS not in hand or not forcers:
        return None, None
    target = rng.choice((None, *range(state.players)))
    return PlayCard(state.current, rng.choice(forcers), target), R.COUNTESS_REQUIRED


def _bad_seats(state: GameState, choice: Chooses) -> list[tuple[int, RejectionKind]]:
    """Seats a choosing card may not choose, with why (checked in this
    order, conformance/README.md: no such player, oneself, out, protected)."""
    n = state.players
    bad = [(s, R.NO_SUCH_PLAYER) for s in (-1, n, n + 1, FAR, -FAR)]
    if choice in OTHERS_ONLY:
        bad.append((state.current, R.TARGET_NOT_ALLOWED))  # targeting.other-player
    bad += [(s, R.TARGET_OUT_OF_ROUND) for s in state.out]  # out.untargetable
    bad += [(s, R.TARGET_PROTECTED) for s in state.protected if s != state.current]
    return bad


def probe_target(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """A listed play with a target (or second target) the card may not
    choose; a missing target; two seats in an order the card refuses; the
    Sycophant's required player left out."""
    play = rng.choice(legal)
    assert isinstance(play, PlayCard)
    choice = chooses(state.ruleset.name, play.card)
    n = state.players
    any_seat = rng.randrange(-1, n + 1)
    if choice is Chooses.NO_ONE:
        if rng.random() < 0.5:
            return _changed(play, target=any_seat), R.TARGET_NOT_ALLOWED
        return _changed(play, second_target=any_seat), R.TARGET_NOT_ALLOWED
    two = choice in TWO_PLAYERS
    kind = rng.randrange(6)
    if kind == 0 and not two:
        # a second player for a card that chooses one
        return _changed(play, second_target=any_seat), R.TARGET_NOT_ALLOWED
    if kind == 1 and play.target is not None:
        # no target though one is available
        return _changed(play, target=None, second_target=None), R.TARGET_REQUIRED
    if kind == 2 and two and play.target is not None and play.second_target is not None:
        return _probe_pair_order(rng, play, choice)
    if kind == 3 and state.required is not None:
        return _probe_required(rng, state, play, choice)
    if kind == 4:
        bad = rng.choice(_NOT_SEATS[:3])
        return _changed(play, target=bad), R.MALFORMED_COMMAND
    seat, why = rng.choice(_bad_seats(state, choice))
    if two and play.target is not None and rng.random() < 0.5:
        return _changed(play, second_target=seat), why
    if choice in (Chooses.PAIR, Chooses.ORDERED_PAIR, Chooses.TWO_OTHERS):
        return _changed(play, target=seat), why
    return _changed(play, target=seat, second_target=None), why


def _probe_pair_order(rng: random.Random, play: PlayCard, choice: Chooses) -> Probe:
    """Two seats the card refuses in that order: the higher seat first
    (cardinal.swap-two-players, baroness.look-one-or-two; online's
    Baroness, baroness.two-looks-online, may take one player twice, lower
    seat first), or one player twice (every pair but online's Baroness;
    online's Cardinal, cardinal.swap-and-look-first-online, takes either
    order of two different players)."""
    target, second = play.target, play.second_target
    if choice is Chooses.TWO_OTHERS:
        if target == second:
            return None, None
        return _changed(play, target=second, second_target=target), R.TARGET_NOT_ALLOWED
    if choice is not Chooses.ORDERED_PAIR and rng.random() < 0.5:
        return _changed(play, target=second, second_target=target), R.TARGET_NOT_ALLOWED
    return _changed(play, second_target=target), R.TARGET_NOT_ALLOWED


def _probe_required(rng: random.Random, state: GameState, play: PlayCard, choice: Chooses) -> Probe:
    """sycophant.next-card-must-choose: a proper choice that leaves out
    the required player."""
    player = state.current
    seats = [
        p
        for p in range(state.players)
        if p not in state.out and p not in state.protected and p != state.required
    ]
    if choice in OTHERS_ONLY:
        seats = [p for p in seats if p != player]
    if not seats:
        return None, None
    if choice is Chooses.TWO_OTHERS:
        a, b = sorted(rng.choice(seats) for _ in range(2))
        return _changed(play, target=a, second_target=b), R.REQUIRED_PLAYER_NOT_CHOSEN
    if choice in (Chooses.PAIR, Chooses.ORDERED_PAIR):
        if len(seats) < 2:
            return None, None
        a, b = rng.sample(seats, 2)
        if choice is Chooses.PAIR:
            a, b = sorted((a, b))
        return _changed(play, target=a, second_target=b), R.REQUIRED_PLAYER_NOT_CHOSEN
    return _changed(
        play, target=rng.choice(seats), second_target=None
    ), R.REQUIRED_PLAYER_NOT_CHOSEN


def probe_guess(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """guard.name-non-guard, guard.name-number, bishop.name-number-and-player:
    no name, a name the card may not give, a name on a card without one."""
    play = rng.choice(legal)
    assert isinstance(play, PlayCard)
    name = state.ruleset.name
    allowed = names(name, state.players, play.card)
    if allowed and play.target is not None:
        if rng.random() < 0.25:
            return _changed(play, guess=None), R.GUESS_REQUIRED
        numbers = names_numbers(name)
        wrong = [
            g
            for g in (*_ALL_CARDS, -1, 0, 1, 5, 9, 10, 100, True, 2.0)
            if not (type(g) is (int if numbers else Card) and g in allowed)
        ]
        guess = rng.choice(wrong)
        # True and 2.0 are names of the wrong type: refused as malformed first
        # (conformance/README.md, the order of rejection kinds)
        if type(guess) is bool or type(guess) is float:
            return _changed(play, guess=guess), R.MALFORMED_COMMAND
        return _changed(play, guess=guess), R.GUESS_NOT_ALLOWED
    guess = rng.choice((*_ALL_CARDS, 0, 1, 5, 9))
    return _changed(play, guess=guess), R.GUESS_NOT_ALLOWED


def probe_keep(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """chancellor.return-bottom-any-order: keep one held card and return
    exactly the others; anything else is an invalid choice (a card the
    edition lacks: malformed, ruling 54)."""
    actor = state.current
    hand = list(state.hands[actor])
    kind = rng.randrange(5)
    keep = rng.choice(hand)
    rest = list(hand)
    rest.remove(keep)
    rng.shuffle(rest)
    if kind == 0:
        return _build(KeepCard, actor, keep, list(rest)), R.MALFORMED_COMMAND
    if kind == 1:
        bad = rng.choice(_NOT_CARDS)
        if rng.random() < 0.5:
            return _build(KeepCard, actor, bad, tuple(rest)), R.MALFORMED_COMMAND
        return _build(KeepCard, actor, keep, (*rest[:-1], bad)), R.MALFORMED_COMMAND
    if kind == 2:
        return KeepCard(actor, keep, tuple(rest[:-1])), R.INVALID_CHOICE  # a card missing
    # a card of another edition is malformed before it is a wrong choice
    # (ruling 54)
    kinds = state.table.ruleset.kinds
    if kind == 3:
        extra = rng.choice(_ALL_CARDS)
        wrong = R.INVALID_CHOICE if extra in kinds else R.MALFORMED_COMMAND
        return KeepCard(actor, keep, (*rest, extra)), wrong  # a card too many
    other = rng.choice([c for c in _ALL_CARDS if c not in hand])
    wrong = R.INVALID_CHOICE if other in kinds else R.MALFORMED_COMMAND
    return KeepCard(actor, other, tuple(rest)), wrong  # a card not held


def probe_look(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """cardinal.optional-look: one of the two hands swapped, nobody else's."""
    if rng.random() < 0.25:
        return _build(LookAtHand, state.current, rng.choice(_NOT_SEATS)), R.MALFORMED_COMMAND
    others = [s for s in (*range(-1, state.players + 1), FAR) if s not in state.pending]
    return LookAtHand(state.current, rng.choice(others)), R.INVALID_CHOICE


def probe_deal(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """round.next-first-player(-tie-random), game.tie-break-round: a first
    player who may not start; a stacked deck that is not the game's cards;
    a turn order that is not the players present with one who may start
    first (setup.turn-order-online), or any order outside online."""
    kind = rng.randrange(5)
    if kind == 4:
        return _probe_order(rng, state)
    if kind == 0:
        allowed = allowed_first_players(state)
        others = [s for s in (*range(-1, state.players + 1), FAR) if s not in allowed]
        return StartRound(None, rng.choice(others)), R.INVALID_CHOICE
    if kind == 1:
        return _build(StartRound, None, rng.choice(_NOT_SEATS[:3])), R.MALFORMED_COMMAND
    cards = list(zone_cards(state).elements())
    rng.shuffle(cards)
    variants: list[object] = [
        tuple(cards[1:]),
        (*cards, rng.choice(_ALL_CARDS)),
        (*cards[1:], rng.choice([c for c in _ALL_CARDS if c != cards[0]])),
        list(cards),
        tuple(int(c) for c in cards),
        tuple(str(c) for c in cards),
        (),
        "Guard",
    ]
    other_decks = {
        tuple(sorted(deck_of(name, n, decks).elements()))
        for name in RULESETS
        for n in PLAYER_COUNTS[name]
        for decks in DECK_COPIES[name]
    } - {tuple(sorted(cards))}
    variants.append(rng.choice(sorted(other_decks)))
    return _build(StartRound, rng.choice(variants)), R.INVALID_DECK


def _probe_order(rng: random.Random, state: GameState) -> Probe:
    """A stacked turn order the next deal refuses (ruling 43)."""
    seats = list(present(state))
    rng.shuffle(seats)
    if state.ruleset.name != ONLINE:
        return StartRound(None, None, tuple(seats)), R.NOT_IN_EDITION
    allowed = allowed_first_players(state)
    kind = rng.randrange(5)
    if kind == 0:
        return _build(StartRound, None, None, list(seats)), R.MALFORMED_COMMAND
    if kind == 1:
        return _build(StartRound, None, None, (*seats[:-1], str(seats[-1]))), R.MALFORMED_COMMAND
    if kind == 2:
        # a seat missing, a seat twice, or a seat that is not present
        strangers = [s for s in (*range(-1, state.players + 1), FAR) if s not in seats]
        wrong = [
            tuple(seats[1:]),
            (*seats, seats[0]),
            (*seats[:-1], rng.choice(strangers)),
            (*seats, rng.choice(strangers)),
        ]
        return StartRound(None, None, rng.choice(wrong)), R.INVALID_CHOICE
    barred = [s for s in seats if s not in allowed]
    if kind == 3 and barred:
        # only a player who may start the round may be first
        first = rng.choice(barred)
        seats.remove(first)
        return StartRound(None, None, (first, *seats)), R.INVALID_CHOICE
    if len(allowed) < 2:
        return None, None
    # the order must start with the first player named beside it
    first, other = rng.sample(allowed, 2)
    seats.remove(other)
    return StartRound(None, first, (other, *seats)), R.INVALID_CHOICE


def probe_game_over(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """game.*: nothing happens after the game's end."""
    kind = rng.randrange(6)
    if kind == 0:
        return probe_not_a_command(rng, state, legal)
    player = rng.randrange(state.players)
    cards = list(zone_cards(state).elements())
    commands: list[Command] = [
        PlayCard(player, rng.choice(cards), rng.choice((None, 0, 1))),
        KeepCard(player, rng.choice(cards), ()),
        DrawCard(player),
        LookAtHand(player, rng.randrange(state.players)),
        Redraw(player),
        Decline(player),
        StartRound(),
        StartRound(tuple(cards)),
    ]
    if kind == 1:
        # the host's commands: refused as over online, as foreign elsewhere
        host = rng.choice((Leave, TimeOut))(player)
        return host, R.GAME_OVER if state.ruleset.name == ONLINE else R.NOT_IN_EDITION
    return rng.choice(commands), R.GAME_OVER


def probe_host(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """A host's command the table refuses (online.leave-any-time,
    online.timeout-random-move): a seat of the wrong type; any outside
    online (not-in-edition); a seat that does not exist or has left; a
    time-out between rounds, for a player who need not act, or at a table
    that makes no random moves."""
    n = state.players
    if rng.random() < 0.15:
        return _build(rng.choice((Leave, TimeOut)), rng.choice(_NOT_SEATS)), R.MALFORMED_COMMAND
    if state.ruleset.name != ONLINE:
        return rng.choice((Leave, TimeOut))(rng.randrange(-1, n + 1)), R.NOT_IN_EDITION
    options: list[Probe] = [(Leave(rng.choice((-1, n, n + 1, FAR, -FAR))), R.NO_SUCH_PLAYER)]
    if state.table.left:
        options.append((Leave(rng.choice(sorted(state.table.left))), R.PLAYER_LEFT))
    actor = state.to_act
    if actor is None:
        options.append((TimeOut(rng.randrange(-1, n + 1)), R.WRONG_DECISION))
    else:
        options.append((TimeOut(_other_seat(rng, state, actor)), R.NOT_YOUR_TURN))
        settings = state.table.settings
        if settings is not None and not settings.random_moves:
            options.append((TimeOut(actor), R.RANDOM_MOVES_OFF))
    return rng.choice(options)


def probe_mutant(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """A listed command with one field changed at random: often refused for
    reasons at the rules' edges, sometimes legal (then not tried)."""
    if not legal:
        return None, None
    command = rng.choice(legal)
    seat: int | None = rng.randrange(-1, state.players + 1)
    if rng.random() < 0.2:
        seat = None
    if isinstance(command, PlayCard):
        field = rng.randrange(5)
        if field == 0:
            return _changed(command, target=seat), None
        if field == 1:
            return _changed(command, second_target=seat), None
        if field == 2:
            guess = rng.choice((None, *_ALL_CARDS, *range(-1, 11)))
            return _changed(command, guess=guess), None
        if field == 3:
            return _changed(command, card=rng.choice(_ALL_CARDS)), None
        return _changed(command, player=seat), None
    if isinstance(command, LookAtHand):
        return _changed(command, owner=seat), None
    if isinstance(command, StartRound):
        return StartRound(None, seat), None
    if isinstance(command, KeepCard):
        hand = state.hands[state.current]
        bottom = tuple(rng.choice(hand) for _ in range(rng.randrange(4)))
        return KeepCard(command.player, rng.choice(hand), bottom), None
    return _changed(command, player=seat), None


ProbeMaker = Callable[[random.Random, GameState, Sequence[Command]], Probe]
_COMMON: tuple[ProbeMaker, ...] = (
    probe_wrong_player,
    probe_wrong_decision,
    probe_not_a_command,
    probe_player_type,
    probe_mutant,
    probe_mutant,
    probe_host,
)
PROBES: dict[Decision, tuple[ProbeMaker, ...]] = {
    Decision.PLAY: (
        *_COMMON,
        probe_card,
        probe_countess,
        probe_target,
        probe_target,
        probe_target,
        probe_guess,
        probe_guess,
    ),
    Decision.CHANCELLOR: (*_COMMON, probe_keep, probe_keep, probe_keep),
    Decision.LOOK: (*_COMMON, probe_look, probe_look),
    Decision.REDRAW: _COMMON,
    Decision.DRAW: _COMMON,
    Decision.NEXT_ROUND: (
        probe_wrong_decision,
        probe_not_a_command,
        probe_mutant,
        probe_deal,
        probe_deal,
        probe_deal,
        probe_host,
    ),
    Decision.GAME_OVER: (probe_game_over,),
}


def make_probe(rng: random.Random, state: GameState, legal: Sequence[Command]) -> Probe:
    """An illegal command for this state (a random change of a listed one
    when the kind picked does not apply here)."""
    command, kind = rng.choice(PROBES[state.decision])(rng, state, legal)
    if command is None and kind is None:
        return probe_mutant(rng, state, legal)
    return command, kind


# --------------------------------------------------------------------------
# one game

_STATE_FIELDS = tuple(f.name for f in attrs.fields(GameState))
_TABLE_FIELDS = tuple(f.name for f in attrs.fields(ll.Table))


def _snapshot(state: GameState) -> tuple[object, ...]:
    table = state.table
    return (
        *[getattr(state, name) for name in _STATE_FIELDS],
        *[getattr(table, name) for name in _TABLE_FIELDS],
    )


def _difference(a: GameState, b: GameState) -> str:
    """The first field in which two states differ, for a message."""
    for name in _STATE_FIELDS:
        if getattr(a, name) != getattr(b, name):
            if name == "table":
                for inner in _TABLE_FIELDS:
                    if getattr(a.table, inner) != getattr(b.table, inner):
                        mine, theirs = getattr(a.table, inner), getattr(b.table, inner)
                        return f"table.{inner}: {mine!r} != {theirs!r}"
            return f"{name}: {getattr(a, name)!r} != {getattr(b, name)!r}"
    return "no field differs"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def _listed(command: object, legal: frozenset[Command]) -> bool:
    try:
        return command in legal
    except TypeError:  # unhashable: a list where a tuple belongs
        return False


def _valid_stacked_deal(state: GameState, command: object) -> bool:
    """A StartRound the engine accepts though ``legal_commands`` lists only
    ``StartRound()``: a stacked deck of this game's cards (a tuple), an
    allowed first player (documented in ``legal_commands``), online a turn
    order of the players present whose first player may start."""
    if not isinstance(command, StartRound) or state.decision is not Decision.NEXT_ROUND:
        return False
    deck, first, order = command.deck, command.first_player, command.order
    if deck is not None and not (
        isinstance(deck, tuple)
        and all(type(c) is Card for c in deck)
        and sorted(deck) == sorted(zone_cards(state).elements())
    ):
        return False
    allowed = allowed_first_players(state)
    if order is not None and not (
        state.ruleset.name == ONLINE
        and isinstance(order, tuple)
        and all(type(seat) is int for seat in order)
        and sorted(order) == list(present(state))
        and order[0] in allowed
        and (first is None or order[0] == first)
    ):
        return False
    return first is None or (type(first) is int and first in allowed)


@dataclass
class GameResult:
    ruleset: str
    players: int
    game_seed: int
    rounds: int = 0
    steps: int = 0
    rejected: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    #: rounds dealt to tied players only (Premium, game.tie-break-round)
    tie_breaks: int = 0
    #: won by a token in the middle of a round (Premium, game.immediate-win)
    won_mid_round: bool = False
    #: online: the host's commands accepted
    leaves: int = 0
    timeouts: int = 0
    #: online: the table's decks (0 elsewhere) and whether it makes random moves
    decks: int = 0
    random_moves: bool = True
    #: "violation" or "crash", with where and what
    failure: tuple[str, int, str] | None = None


class Game:
    """One game, played from its seed and checked at every step."""

    def __init__(
        self,
        ruleset: str,
        players: int,
        game_seed: int,
        engine: Engine,
        deep: bool,
        verbose: bool = False,
    ) -> None:
        self.engine = engine
        self.deep = deep
        self.rng = random.Random(game_seed)
        self.result = GameResult(ruleset, players, game_seed)
        #: every command given, when asked for (--verbose)
        self.trace: list[str] | None = [] if verbose else None
        rng = self.rng
        first: int | None = rng.randrange(players)
        stack = rng.random() < 0.2
        self.online = ruleset == ONLINE
        settings: TableSettings | None = None
        order: tuple[int, ...] | None = None
        #: online: the rounds the match plays before its players leave
        self.match_rounds = 0
        #: online: whether the match has played them
        self.closing = False
        if self.online:
            settings = TableSettings(
                decks=rng.choice(DECK_COPIES[ONLINE]),
                turn_time_ms=rng.randrange(5_000, 60_001),
                random_moves=rng.random() >= NO_RANDOM_MOVES,
                intermission_ms=rng.randrange(0, 30_001),
            )
            self.result.decks = settings.decks
            self.result.random_moves = settings.random_moves
            self.match_rounds = rng.randint(*MATCH_ROUNDS)
            how = rng.random()
            if how < 0.3:
                first = None  # the seed draws the whole order
            elif how < 0.5:
                leader = rng.randrange(players)
                rest = [p for p in range(players) if p != leader]
                rng.shuffle(rest)
                order = (leader, *rest)
                first = leader
        deck: tuple[Card, ...] | None = None
        if stack:
            copies = 1 if settings is None else settings.decks
            cards = list(deck_of(ruleset, players, copies).elements())
            rng.shuffle(cards)
            deck = tuple(cards)
        self.log: list[Event] = list(
            ll.start_game(
                ruleset,
                players,
                seed=game_seed,
                first_player=first,
                deck=deck,
                order=order,
                settings=settings,
            )
        )
        self.state = ll.new_game(
            ruleset,
            players,
            seed=game_seed,
            first_player=first,
            deck=deck,
            order=order,
            settings=settings,
        )

    def play(self) -> GameResult:
        result = self.result
        where = "the start"
        try:
            state = self.state
            if ll.replay(self.log) != state:
                raise Violation("new_game differs from the replay of start_game's events")
            self._check_state(state, self.engine.legal_commands(state))
            result.rounds = 1
            while not state.is_over:
                where = f"step {result.steps}"
                if result.steps >= MAX_STEPS:
                    raise Violation(f"the game did not end in {MAX_STEPS} commands")
                state = self._step(state)
            where = "the end"
            result.won_mid_round = state.round_result is None
            self._finish(state)
        except Violation as violation:
            result.failure = ("violation", result.steps, f"{where}: {violation}")
        except Exception as error:
            last = traceback.extract_tb(error.__traceback__)[-1]
            result.failure = (
                "crash",
                result.steps,
                f"{where}: {error!r} at {Path(last.filename).name}:{last.lineno}",
            )
        return result

    def _step(self, state: GameState) -> GameState:
        rng = self.rng
        engine = self.engine
        legal = engine.legal_commands(state)
        if rng.random() < PROBE_SHARE:
            listed = frozenset(legal)
            for _ in range(1 + (rng.random() < 0.3)):
                self._refuse(state, *make_probe(rng, state, legal), listed)
        command = (self._host(state) if self.online else None) or self._choose(state, legal)
        if self.trace is not None:
            self.trace.append(f"  {self.result.steps}: {command}")
        try:
            after = engine.push(state, command)
        except IllegalCommand as error:
            raise Violation(f"push refused the chosen command {command}: {error}") from None
        try:
            stepped, events = engine.step(state, command)
        except IllegalCommand as error:
            raise Violation(f"step refused the chosen command {command}: {error}") from None
        if stepped != after:
            raise Violation(f"push and step differ after {command}: {_difference(after, stepped)}")
        folded = engine.fold(state, events)
        if folded != after:
            raise Violation(
                f"push and the evolve fold differ after {command}: {_difference(after, folded)}"
            )
        if isinstance(command, TimeOut):
            self._check_timeout(state, legal, command, events, after)
        check_transition(state, command, events, after)
        if self.deep:
            self.log.extend(events)
        if isinstance(command, StartRound):
            self.result.rounds += 1
            self.result.tie_breaks += bool(state.contenders)
        self.result.leaves += isinstance(command, Leave)
        self.result.timeouts += isinstance(command, TimeOut)
        self.result.steps += 1
        self._check_state(after, engine.legal_commands(after))
        if after.is_over:
            check_game_over(after, events)
        return after

    def _host(self, state: GameState) -> Command | None:
        """Online, now and then, a host's command instead of a player's: a
        player leaves (often, once the match has played its rounds), or the
        player to act times out."""
        if self.result.rounds >= self.match_rounds and state.decision is Decision.NEXT_ROUND:
            self.closing = True
        return host(self.rng, state, self.closing)

    def _check_timeout(
        self,
        state: GameState,
        legal: tuple[Command, ...],
        command: TimeOut,
        events: tuple[Event, ...],
        after: GameState,
    ) -> None:
        """online.timeout-random-move: the time-out is announced, then
        exactly the move of the documented seeded draw is made."""
        move = timeout_move(state, legal)
        if events[0] != TurnTimedOut(command.player):
            raise Violation(f"online.timeout-random-move: {events[0]} opens a time-out")
        if events[1:] != self.engine.decide(state, move):
            raise Violation(f"online.timeout-random-move: the time-out did not play {move}")
        if after != self.engine.push(state, move):
            raise Violation(f"online.timeout-random-move: the state is not {move}'s")

    def _choose(self, state: GameState, legal: tuple[Command, ...]) -> Command:
        """A listed command: in play, a playable card then one of its
        commands (so a Guard's many names do not crowd out the other cards);
        between rounds, sometimes a stacked deck, a chosen first player or
        (online) a stacked turn order."""
        rng = self.rng
        decision = state.decision
        if decision is Decision.PLAY and rng.random() < 0.8:
            card = rng.choice(ll.playable_cards(state))
            return rng.choice([c for c in legal if isinstance(c, PlayCard) and c.card is card])
        if decision is Decision.NEXT_ROUND:
            draw = rng.random()
            deck: tuple[Card, ...] | None = None
            first: int | None = None
            if draw < 0.3:
                cards = list(zone_cards(state).elements())
                rng.shuffle(cards)
                deck = tuple(cards)
            if 0.2 < draw < 0.5:
                first = rng.choice(allowed_first_players(state))
            order: tuple[int, ...] | None = None
            if self.online and rng.random() < 0.3:
                start = first if first is not None else rng.choice(allowed_first_players(state))
                rest = [p for p in present(state) if p != start]
                rng.shuffle(rest)
                order = (start, *rest)
            return StartRound(deck, first, order)
        return rng.choice(legal)

    def _refuse(
        self,
        state: GameState,
        command: object,
        expected: RejectionKind | None,
        listed: frozenset[Command],
    ) -> None:
        """Give an illegal command to both paths: both refuse it alike and
        the state is untouched."""
        if expected is None and (_listed(command, listed) or _valid_stacked_deal(state, command)):
            return  # a random change that the rules allow: not a probe
        engine = self.engine
        anything: Any = command
        before = _snapshot(state)
        before_hash = hash(state)
        try:
            engine.push(state, anything)
        except IllegalCommand as error:
            pushed = error.kind
        else:
            if expected is None and isinstance(command, StartRound):
                # an accepted deal must be one the rules allow
                raise Violation(f"push accepted the invalid deal {_short(command)}")
            raise Violation(
                f"push accepted {_short(command)}, which is not listed"
                + (f" (expected {expected.value})" if expected else "")
            )
        try:
            engine.step(state, anything)
        except IllegalCommand as error:
            stepped = error.kind
        else:
            raise Violation(f"step accepted {_short(command)}, which push refused as {pushed}")
        if type(pushed) is not RejectionKind or pushed not in R:
            raise Violation(f"{_short(command)} refused with {pushed!r}, not a RejectionKind")
        if stepped is not pushed:
            raise Violation(
                f"{_short(command)} refused as {pushed.value} by push, as {stepped.value} by step"
            )
        if expected is not None and pushed is not expected:
            raise Violation(
                f"{_short(command)} refused as {pushed.value}, expected {expected.value}"
                " (conformance/README.md, Rejection kinds)"
            )
        if _snapshot(state) != before or hash(state) != before_hash:
            raise Violation(f"refusing {_short(command)} changed the state")
        self.result.rejected += 1
        self.result.kinds[pushed.value] += 1

    def _check_state(self, state: GameState, legal: tuple[Command, ...]) -> None:
        steps = self.result.steps
        if self.deep or steps % CHECK_STATE_EVERY == 0 or state.round_over:
            try:
                self.engine.check_state(state)
            except LoveLetterError as error:
                raise Violation(f"check_state refused a state play reached: {error}") from None
        check_invariants(state)
        if not legal:
            if not state.is_over:
                raise Violation("no legal command, and the game goes on")
            return
        if state.is_over:
            raise Violation("legal commands after the end of the game")
        actor = state.to_act
        for command in legal:
            if getattr(command, "player", actor) != actor:
                raise Violation(f"{command} is listed, but player {actor} must act")
        decide = self.engine.decide
        sample = legal if steps % ALL_LEGAL_EVERY == 0 else (self.rng.choice(legal),)
        for command in sample:
            try:
                decide(state, command)
            except IllegalCommand as error:
                raise Violation(f"decide refused the listed command {command}: {error}") from None

    def _finish(self, state: GameState) -> None:
        rng = self.rng
        for _ in range(3):
            self._refuse(state, *probe_game_over(rng, state, ()), frozenset())
        if not self.deep:
            return
        if ll.replay(self.log) != state:
            raise Violation("the replay of the whole log differs from the final state")
        if ll.loads(ll.dumps(state), GameState) != state:
            raise Violation("the final state does not survive JSON")


def game_seed(run_seed: int, ruleset: str, index: int) -> int:
    """The seed of game ``index`` of a ruleset in a run."""
    digest = hashlib.blake2b(f"{run_seed}/{ruleset}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def reproducer(ruleset: str, players: int, seed: int) -> str:
    return f"python verification/soak.py --ruleset {ruleset} --players {players} --game-seed {seed}"


# --------------------------------------------------------------------------
# many games


@dataclass
class Tally:
    games: int = 0
    rounds: int = 0
    steps: int = 0
    rejected: int = 0
    violations: int = 0
    crashes: int = 0
    tie_breaks: int = 0
    won_mid_round: int = 0
    leaves: int = 0
    timeouts: int = 0
    players: Counter[int] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    #: online: tables by decks, and those that make no random move
    decks: Counter[int] = field(default_factory=Counter)
    no_random_moves: int = 0
    #: the first failures: (kind, players, game seed, step, message)
    failures: list[tuple[str, int, int, int, str]] = field(default_factory=list)

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.rounds += result.rounds
        self.steps += result.steps
        self.rejected += result.rejected
        self.tie_breaks += result.tie_breaks
        self.won_mid_round += result.won_mid_round
        self.leaves += result.leaves
        self.timeouts += result.timeouts
        self.players[result.players] += 1
        self.kinds.update(result.kinds)
        if result.decks:
            self.decks[result.decks] += 1
            self.no_random_moves += not result.random_moves
        if result.failure is not None:
            kind, step, message = result.failure
            if kind == "violation":
                self.violations += 1
            else:
                self.crashes += 1
            if len(self.failures) < 20:
                self.failures.append((kind, result.players, result.game_seed, step, message))

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.steps += other.steps
        self.rejected += other.rejected
        self.violations += other.violations
        self.crashes += other.crashes
        self.tie_breaks += other.tie_breaks
        self.won_mid_round += other.won_mid_round
        self.leaves += other.leaves
        self.timeouts += other.timeouts
        self.players.update(other.players)
        self.kinds.update(other.kinds)
        self.decks.update(other.decks)
        self.no_random_moves += other.no_random_moves
        self.failures.extend(other.failures[: max(0, 20 - len(self.failures))])


@dataclass(frozen=True)
class Chunk:
    ruleset: str
    start: int
    stop: int
    run_seed: int
    players: int | None


def players_of(ruleset: str, index: int, players: int | None) -> int:
    """Player counts cycle through the ruleset's range."""
    if players is not None:
        return players
    counts = PLAYER_COUNTS[ruleset]
    return counts[index % len(counts)]


def run_chunk(chunk: Chunk) -> Tally:
    engine = engine_from_environment()
    tally = Tally()
    for index in range(chunk.start, chunk.stop):
        seed = game_seed(chunk.run_seed, chunk.ruleset, index)
        players = players_of(chunk.ruleset, index, chunk.players)
        deep = index % DEEP_EVERY == 0
        tally.add(play_one(chunk.ruleset, players, seed, engine, deep))
    return tally


def play_one(ruleset: str, players: int, seed: int, engine: Engine, deep: bool) -> GameResult:
    """One game of the run; a crash while dealing it is counted, not raised."""
    try:
        game = Game(ruleset, players, seed, engine, deep)
    except Exception as error:
        return GameResult(ruleset, players, seed, failure=("crash", 0, f"the deal: {error!r}"))
    return game.play()


def _chunks(
    ruleset: str, games: int, run_seed: int, players: int | None, size: int
) -> Iterator[Chunk]:
    for start in range(0, games, size):
        yield Chunk(ruleset, start, min(games, start + size), run_seed, players)


def soak_ruleset(
    pool: Any, ruleset: str, games: int, run_seed: int, players: int | None, workers: int
) -> tuple[Tally, float]:
    """Play ``games`` games of ``ruleset``; the tally and the wall time."""
    size = max(1, min(200, games // (workers * 8) or 1))
    chunks = list(_chunks(ruleset, games, run_seed, players, size))
    tally = Tally()
    started = last_report = time.perf_counter()
    results = pool.imap_unordered(run_chunk, chunks) if pool is not None else map(run_chunk, chunks)
    for part in results:
        tally.merge(part)
        now = time.perf_counter()
        if now - last_report >= 60:
            last_report = now
            print(
                f"  ... {ruleset}: {tally.games}/{games} games, {tally.rounds} rounds,"
                f" {tally.steps} steps, {tally.rejected} rejected, {tally.violations} violations,"
                f" {tally.crashes} crashes, {now - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return tally, time.perf_counter() - started


def report(ruleset: str, tally: Tally, wall: float) -> list[str]:
    spread = ", ".join(f"{n}: {tally.players[n]}" for n in sorted(tally.players))
    seen = len(tally.kinds)
    missing = sorted(k.value for k in R if k.value not in tally.kinds)
    lines = [
        f"== {ruleset} ==",
        f"  games       {tally.games}  (players {spread})",
        f"  rounds      {tally.rounds}  ({tally.tie_breaks} tie-break rounds;"
        f" {tally.won_mid_round} games won mid-round)",
        f"  steps       {tally.steps}  (accepted commands)",
        f"  rejected    {tally.rejected}  (illegal commands tried; {seen} of {len(R)} kinds"
        + (f", never: {', '.join(missing)})" if missing else ")"),
        f"  violations  {tally.violations}",
        f"  crashes     {tally.crashes}",
        f"  wall        {wall:.1f} s  ({tally.games / wall if wall else 0:.1f} games/s)",
    ]
    if tally.decks:
        tables = ", ".join(f"{d}: {tally.decks[d]}" for d in sorted(tally.decks))
        lines.insert(
            5,
            f"  host        {tally.leaves} leaves, {tally.timeouts} time-outs accepted"
            f"  (tables by decks {tables}; {tally.no_random_moves} with random moves off)",
        )
    for kind, players, seed, _, message in tally.failures:
        lines.append(f"  {kind.upper()} {ruleset} players {players} game-seed {seed}: {message}")
        lines.append(f"    reproduce: {reproducer(ruleset, players, seed)}")
    return lines


def one_game(ruleset: str, players: int, seed: int, verbose: bool) -> int:
    """Play one game again (the reproducer); every check runs."""
    game = Game(ruleset, players, seed, engine_from_environment(), deep=True, verbose=verbose)
    result = game.play()
    if game.trace is not None:
        print("\n".join(game.trace))
    print(
        f"{ruleset} players {players} game-seed {seed}: rounds {result.rounds},"
        f" steps {result.steps}, rejected {result.rejected}"
    )
    if result.failure is not None:
        kind, _, message = result.failure
        print(f"{kind.upper()}: {message}")
        return 1
    print("ok")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per ruleset")
    parser.add_argument("--rulesets", "--ruleset", default=",".join(RULESETS))
    parser.add_argument("--seed", type=int, default=0, help="the run's seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--players", type=int, help="play every game at this player count")
    parser.add_argument(
        "--game-seed", type=int, help="play this one game (with --ruleset, --players)"
    )
    parser.add_argument("--verbose", action="store_true", help="with --game-seed: every command")
    args = parser.parse_args(argv)
    rulesets = [r.strip() for r in args.rulesets.split(",") if r.strip()]
    for name in rulesets:
        if name not in RULESETS:
            parser.error(f"unknown ruleset {name!r}; expected {', '.join(RULESETS)}")
        if args.players is not None and args.players not in PLAYER_COUNTS[name]:
            parser.error(f"{name} is for {PLAYER_COUNTS[name]} players, not {args.players}")
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    if args.game_seed is not None:
        if len(rulesets) != 1 or args.players is None:
            parser.error("--game-seed needs one --ruleset and --players")
        return one_game(rulesets[0], args.players, args.game_seed, args.verbose)
    engine_from_environment()  # fail early on a misspelled deliberate fault
    print(
        f"soak: {args.games} games per ruleset, run seed {args.seed}, {args.workers} workers.\n"
        "After every step: push == step == evolve fold; refusals alike on both paths, state"
        " and hash unchanged;\n  cards conserved, hand sizes, one player to act, protection,"
        " tokens, round and game end; one listed command decided.\n"
        f"Every {CHECK_STATE_EVERY}th step and between rounds: check_state."
        f" Every {ALL_LEGAL_EVERY}th step: every listed command decided."
        f" Every {DEEP_EVERY}th game: check_state on every step, replay of the whole log,"
        " JSON round trip.",
        flush=True,
    )
    failed = False
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 else None
    try:
        for name in rulesets:
            tally, wall = soak_ruleset(
                pool, name, args.games, args.seed, args.players, args.workers
            )
            print("\n".join(report(name, tally, wall)), flush=True)
            failed = failed or bool(tally.violations or tally.crashes)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
