"""Love Letter as OpenSpiel games: one registered game per edition.

Importing this module registers, with ``pyspiel`` (the ``[openspiel]``
extra: ``pip install 'loveletter-rules[openspiel]'``), a Python game for
each edition, named in :data:`GAME_NAMES`:

* ``python_loveletter_2019``: the 2019 edition, 2 to 6 players;
* ``python_loveletter_2019_classic``: its Classic Version, 2 to 4;
* ``python_loveletter_premium``: Premium (AEG, 2016), 2 to 8;
* ``python_loveletter_online``: the online perpetual variant, 3 to 8.

Their parameters: ``players`` (the edition's fewest by default), ``rounds``
(0 by default, online 1) and, online, ``decks`` (1).

One name per edition rather than an ``edition`` parameter because OpenSpiel
reads ``edition=2019`` in a game string as a number: a game named by its
string must load again from it (serialization does). :func:`load_game`
takes the edition as an argument all the same.

``rounds`` caps the game at that many rounds (``rounds=1``: a single round,
small enough for CFR); 0 plays the game to its end. An online match never
ends by itself (ruling 44), so it always has a number of rounds; its
``decks`` are the table's copies of the deck (1 to 3).

**Chance.** Every random step of the engine is a chance node with its true
probabilities: a round is dealt card by card (the outcome is the kind of the
next card from the top, with probability copies left / cards left), then
started with that stacked deck (:class:`~loveletter.StartRound`). Before it,
where the rules draw them, the first player among tied candidates (uniform:
the previous round's winners, ruling 31's contenders) and, online, the turn
order seat by seat (uniform, ruling 43). An outcome that is forced (one kind
left, one seat left) is taken without a node. Outcome ids: a card's
:class:`~loveletter.Card` code, a seat ``len(Card) + seat``. The engine's
seed is never consulted and is 0: its only other use, an online time-out's
random move, never arises, since leaving a match and timing out (rulings 50
and 51) are a host's commands, not a player's choices, and the games offer
neither.

**Actions** are the stable ids of :mod:`loveletter.actions`; their strings
are the move notation (``'P0 Guard on P1 naming Princess'``).

**Observations** are built from the player's :func:`~loveletter.view`: the
string is its JSON (without the legal commands, which the legal actions
give), the tensor :func:`loveletter.encoding.encode_view`. **Information
states** add the player's own history: every batch of events as
:func:`~loveletter.events_for` showed it to them, with their hand after it
when it changed (a King's trade shows the card received through the hand
alone). The string is perfect recall over the whole game. The tensor is the
view's vector followed by a ``history`` block: the events of the current
round as shown to the player, one row per event (see :func:`history_shape`)
-- perfect recall within a round, and over a whole game played as one round
(``rounds=1``); of earlier rounds it keeps what the view keeps (tokens,
ranks).

**Returns** (zero-sum, at the end only). Token editions: the game's winners
(when it is cut short by ``rounds``: the players tied for the game in a
tie-break, else those with the most tokens) share +1 and the others share
-1: with ``k`` winners among ``n`` players, a winner gets ``1/k``, a loser
``-1/(n-k)``, everyone 0 when all win. Online: each round scores every player
``2 * (mean rank - rank) / (n - 1)`` (1 for a sole first place, -1 for a
sole last with distinct ranks, the ranks as :mod:`loveletter.ranking` gives
them), and the return is the mean over the rounds; a shared rank lowers the
mean rank, so the lowest score is ``-2 * (n - 1) / n``.

**Game length.** A round has at most two decisions per card of the deck (a
play and its follow-up: a Chancellor's keep, a Cardinal's look, a Bishop's
redraw). A token edition played to its end has at most ``n * (t - 1) + 1``
rounds (``t`` tokens to win: every round gives someone a token); Premium's
tie-break rounds can tie again, so a Premium game played to its end allows
:data:`TIE_BREAK_ALLOWANCE` of them on top and, should they all tie, stops
there with its tied players sharing the win (fewer than once in 10**9
games, by the rates of random play).

**Resampling.** :meth:`LoveLetterState.resample_from_infostate` (OpenSpiel's
name) and :func:`resampler` (for ``ISMCTSBot.set_resampler``) draw a state
consistent with what a player has seen, uniformly
(:func:`loveletter.determinization.sample_consistent_state`).

>>> import pyspiel
>>> game = load_game("2019-classic", players=2, rounds=1)
>>> game.get_type().short_name, game.num_distinct_actions()
('python_loveletter_2019_classic', 31)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0]
(True, (1, 0.3125))
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
import pyspiel

from loveletter.actions import ActionTable, action_table
from loveletter.codec import from_data, to_data
from loveletter.commands import StartRound
from loveletter.dealing import next_deal, start_game
from loveletter.determinization import Knowledge, sample_consistent_state
from loveletter.encoding import encode_view, observation_size
from loveletter.engine import step
from loveletter.errors import IllegalCommand
from loveletter.events import (
    EVENT_TYPES,
    EliminationReason,
    Event,
    GameStarted,
    PlayerEliminated,
    PositionEstablished,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
)
from loveletter.evolution import apply_unchecked, initial_state
from loveletter.kinds import Card
from loveletter.notation import card_text
from loveletter.rulesets import GameTie, Ruleset, Scoring, get_ruleset
from loveletter.state import Decision, GameState, TableSettings
from loveletter.views import PlayerView, events_for, view

__all__ = [
    "GAME_NAMES",
    "TIE_BREAK_ALLOWANCE",
    "LoveLetterGame",
    "LoveLetterObserver",
    "LoveLetterState",
    "history_shape",
    "load_game",
    "resampler",
]

#: The registered game of each edition, by the edition's canonical name.
GAME_NAMES: Mapping[str, str] = {
    "2019": "python_loveletter_2019",
    "2019-classic": "python_loveletter_2019_classic",
    "premium": "python_loveletter_premium",
    "online": "python_loveletter_online",
}

#: Tie-break rounds a Premium game played to its end may add to the rounds
#: that can give tokens, so that the game length stays finite. In random play
#: about one game in a hundred goes to a tie-break and about one tie-break
#: round in eight ties again (98 tie-break rounds in 7,500 games, 13 of them
#: tied): a game stops at this allowance, its tied players sharing the win,
#: fewer than once in 10**9 games.
TIE_BREAK_ALLOWANCE = 12

# A seat outcome's id follows the card codes.
_SEAT_OUTCOME = len(Card)
# Card fields of an event that list several cards (a Chancellor's draw or
# return, a knocked-out hand) hold at most this many.
_MAX_LISTED = 3
# A turn's events and hand rows in the history block, at most: its two
# steps at most (a play and its follow-up) have never given more than 9
# rows each in simulation (see the tests).
_ROWS_PER_TURN = 16


# --------------------------------------------------------------------------
# The settings of one game: the edition, the seats, the round cap.


@attrs.frozen(eq=False)
class _Setup:
    """Everything fixed for one loaded game."""

    rules: Ruleset
    players: int
    #: the rounds after which the game stops if it has not ended: the
    #: ``rounds`` parameter or, for 0, the bound of a game played to its end
    rounds: int
    #: the ``rounds`` parameter
    requested: int
    decks: int
    settings: TableSettings | None
    table: ActionTable
    #: every card a round is dealt from, in card order
    deck: tuple[Card, ...]
    kinds: tuple[Card, ...]

    @property
    def online(self) -> bool:
        return self.rules.scoring is Scoring.RANKS

    def utility_range(self) -> tuple[float, float]:
        if self.online:
            n = self.players
            return -2.0 * (n - 1) / n, 1.0
        return -1.0, 1.0

    def max_game_length(self) -> int:
        return self.rounds * 2 * len(self.deck)

    def max_chance_nodes(self) -> int:
        return self.rounds * (len(self.deck) + self.players)

    def parameters(self) -> dict[str, int]:
        params = {"players": self.players, "rounds": self.requested}
        if self.online:
            params["decks"] = self.decks
        return params


@cache
def _setup(edition: str, players: int, rounds: int, decks: int) -> _Setup:
    rules = get_ruleset(edition)
    if type(players) is not int or not rules.supports(players):
        raise ValueError(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {players}"
        )
    if type(rounds) is not int or rounds < 0:
        raise ValueError(f"rounds: 0 (to the game's end) or a number of rounds, not {rounds}")
    online = rules.scoring is Scoring.RANKS
    if online:
        if rounds < 1:
            raise ValueError("an online match never ends by itself: give it rounds from 1")
        if not 1 <= decks <= rules.max_decks:
            raise ValueError(f"decks: 1 to {rules.max_decks}, not {decks}")
    elif decks != 1:
        raise ValueError(f"{rules.name} is played with one deck, not {decks}")
    if online:
        cap = rounds
    else:
        needed = rules.tokens_to_win(players)
        assert needed is not None  # every edition but online has a count to reach
        bound = players * (needed - 1) + 1
        if rules.game_tie is GameTie.TIE_BREAK_ROUND:
            bound += TIE_BREAK_ALLOWANCE
        cap = min(rounds, bound) if rounds else bound
    return _Setup(
        rules=rules,
        players=players,
        rounds=cap,
        requested=rounds,
        decks=decks,
        settings=TableSettings(decks=decks) if rules.online_table else None,
        table=action_table(rules, players),
        deck=rules.deck_for(players, decks),
        kinds=rules.setup(players, decks).kinds,
    )


# --------------------------------------------------------------------------
# Dealing a round through chance nodes.


@attrs.frozen
class _Deal:
    """A round being dealt: the chance outcomes drawn so far."""

    round_number: int
    #: the seats that may start the round (drawn uniformly when several)
    candidates: tuple[int, ...]
    first: int | None
    #: online: the seats still to place in the turn order (after ``first``)
    unordered: tuple[int, ...]
    order: tuple[int, ...]
    #: the cards still to deal, by kind: (card, copies) in card order
    remaining: tuple[tuple[Card, int], ...]
    deck: tuple[Card, ...]

    @classmethod
    def begin(
        cls,
        round_number: int,
        candidates: tuple[int, ...],
        seats: tuple[int, ...],
        online: bool,
        deck: tuple[Card, ...],
    ) -> _Deal:
        counts = Counter(deck)
        deal = cls(
            round_number=round_number,
            candidates=candidates,
            first=None,
            unordered=seats if online else (),
            order=(),
            remaining=tuple(sorted(counts.items())),
            deck=(),
        )
        return deal._forced()

    @property
    def phase(self) -> str:
        if self.first is None:
            return "first"
        if self.unordered:
            return "order"
        return "deck"

    @property
    def complete(self) -> bool:
        return self.first is not None and not self.unordered and not self.remaining

    def outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == "first":
            share = 1.0 / len(self.candidates)
            return [(_SEAT_OUTCOME + seat, share) for seat in self.candidates]
        if phase == "order":
            share = 1.0 / len(self.unordered)
            return [(_SEAT_OUTCOME + seat, share) for seat in self.unordered]
        total = sum(count for _, count in self.remaining)
        return [(int(card), count / total) for card, count in self.remaining]

    def take(self, outcome: int) -> _Deal:
        phase = self.phase
        if phase in ("first", "order"):
            seat = outcome - _SEAT_OUTCOME
            pool = self.candidates if phase == "first" else self.unordered
            if seat not in pool:
                raise ValueError(f"outcome {outcome} is not a seat this deal may draw now")
            if phase == "first":
                deal = attrs.evolve(
                    self,
                    first=seat,
                    unordered=tuple(s for s in self.unordered if s != seat),
                    order=(seat,) if self.unordered else (),
                )
            else:
                deal = attrs.evolve(
                    self,
                    unordered=tuple(s for s in self.unordered if s != seat),
                    order=(*self.order, seat),
                )
            return deal._forced()
        return self._dealt(Card(outcome))._forced()

    def _dealt(self, card: Card) -> _Deal:
        remaining = []
        found = False
        for kind, count in self.remaining:
            if kind == card:
                found = True
                count -= 1
            if count:
                remaining.append((kind, count))
        if not found:
            raise ValueError(f"no {card_text(card)} is left to deal")
        return attrs.evolve(self, remaining=tuple(remaining), deck=(*self.deck, card))

    def _forced(self) -> _Deal:
        """The deal with every outcome that has one possibility taken."""
        deal = self
        if deal.first is None and len(deal.candidates) == 1:
            seat = deal.candidates[0]
            unordered = tuple(s for s in deal.unordered if s != seat)
            deal = attrs.evolve(
                deal, first=seat, unordered=unordered, order=(seat,) if deal.unordered else ()
            )
        if deal.first is None:
            return deal
        if len(deal.unordered) == 1:
            deal = attrs.evolve(deal, unordered=(), order=(*deal.order, deal.unordered[0]))
        if not deal.unordered and len(deal.remaining) == 1:
            card, count = deal.remaining[0]
            deal = attrs.evolve(deal, remaining=(), deck=deal.deck + (card,) * count)
        return deal


def _first_candidates(state: GameState, setup: _Setup) -> tuple[int, ...]:
    """The seats the engine accepts as the next round's first player: it
    is asked, seat by seat, so that its rules (round winners, tie-break
    contenders, online rank-1 players still present) decide."""
    accepted = []
    for seat in range(setup.players):
        try:
            next_deal(state, StartRound(deck=setup.deck, first_player=seat))
        except IllegalCommand:
            continue
        accepted.append(seat)
    return tuple(accepted)


# --------------------------------------------------------------------------
# What each player was shown, step by step.


class _Step:
    """One batch of events as one player saw them, with their hand after it
    when it changed (``None`` otherwise). Its text and tensor rows are
    computed once, on first use; a step is shared by the clones of a state,
    which never change it."""

    __slots__ = ("_rows", "_text", "events", "hand")

    def __init__(self, events: tuple[Event, ...], hand: tuple[Card, ...] | None) -> None:
        self.events = events
        self.hand = hand
        self._text: str | None = None
        self._rows: list[npt.NDArray[np.float32]] | None = None

    def text(self) -> str:
        if self._text is None:
            text = json.dumps([to_data(event) for event in self.events], separators=(",", ":"))
            if self.hand is not None:
                text += " hand: " + (", ".join(map(card_text, self.hand)) or "none")
            self._text = text
        return self._text

    def rows(self, encoder: _HistoryEncoder, player: int) -> list[npt.NDArray[np.float32]]:
        if self._rows is None:
            rows = [
                encoder.event_row(event, player)
                for event in self.events
                if not isinstance(event, _OUTSIDE_ROUNDS)  # the game's start, before round 1
            ]
            if self.hand is not None:
                rows.append(encoder.hand_row(self.hand))
            self._rows = rows
        return self._rows

    def starts_round(self) -> bool:
        return any(type(event) is RoundStarted for event in self.events)


# --------------------------------------------------------------------------
# The history block of the information-state tensor.

_SEAT_FIELDS = frozenset(
    {
        "player",
        "viewer",
        "owner",
        "opponent",
        "target",
        "second_target",
        "marked",
        "required",
        "first_player",
    }
)
_CARD_FIELDS = frozenset({"card", "via", "player_card", "opponent_card"})
_CARD_LISTS = frozenset({"cards", "discarded"})
_NUMBERS = frozenset({"count", "total", "round_number"})
_SEAT_SETS = frozenset({"owners", "winners", "tied", "seats"})
_REASONS: dict[type[Event], type[Enum]] = {
    PlayerEliminated: EliminationReason,
    RoundEnded: RoundEndReason,
    TokenAwarded: TokenReason,
}
# Events that never fall inside a round: the history block starts at one.
_OUTSIDE_ROUNDS = (GameStarted, PositionEstablished)
_ROW_TYPES: tuple[type[Event], ...] = tuple(
    cls for cls in EVENT_TYPES.values() if cls not in _OUTSIDE_ROUNDS
)


class _HistoryEncoder:
    """Rows of the history block: one per event, one per hand change.

    A row is a one-hot of its type (each event class of a round, then the
    hand) followed by that type's fields, in declaration order: a seat one-hot
    over the seats counted from the viewer (``self`` first, as
    :func:`loveletter.encoding.encode_view`) with a last entry for none; a
    card one-hot over the deck's kinds with a last entry for a hidden or
    absent card; a guess one-hot over the kinds or numbers that can be named,
    plus none; a list of cards as a hidden flag and up to three one-hot slots;
    a number as itself; a flag as 0 or 1; a set of seats as their indicators;
    a turn order as each seat's place from 1; the hands shown at a round's end
    as a one-hot per seat; ranks as numbers per seat; a reason one-hot over
    its kinds. The hand row counts the cards of each kind."""

    def __init__(self, setup: _Setup) -> None:
        self.players = setup.players
        self.kinds = setup.kinds
        self.index = {card: i for i, card in enumerate(self.kinds)}
        numbers = max(setup.rules.values[card] for card in self.kinds) + 1
        self.guesses = max(len(self.kinds), numbers)
        self.types = {cls: i for i, cls in enumerate(_ROW_TYPES)}
        self.hand_type = len(_ROW_TYPES)
        widths = [len(self.kinds)]
        for cls in _ROW_TYPES:
            widths.append(sum(self._width(cls, field.name) for field in attrs.fields(cls)))
        self.width = len(_ROW_TYPES) + 1 + max(widths)
        n = setup.players
        rules = setup.rules
        # The deal: the round's start, the set-aside and face-up cards, a
        # card to each, the first turn and its draw, the hand. The end: the
        # round's end, up to four tokens to each, the game's end, a hand.
        dealing = 5 + rules.face_up_count(n) + n
        ending = 3 + 4 * n
        # Every turn draws from the deck left after the deal (one card dealt
        # to two players at least, in a tie-break round), the first turn's
        # draw was part of the deal: no more turns than that deck plus one.
        turns = len(setup.deck) - (1 if rules.sets_aside else 0) - rules.face_up_count(n) - 2
        self.rows = dealing + ending + _ROWS_PER_TURN * turns

    def _width(self, cls: type[Event], name: str) -> int:
        n, k = self.players, len(self.kinds)
        if name in _SEAT_FIELDS:
            return n + 1
        if name in _CARD_FIELDS:
            return k + 1
        if name == "guess":
            return self.guesses + 1
        if name in _CARD_LISTS:
            return 1 + _MAX_LISTED * k
        if name in _NUMBERS or name == "from_set_aside":
            return 1
        if name in _SEAT_SETS or name in ("order", "ranks"):
            return n
        if name == "revealed":
            return n * k
        if name == "reason":
            return len(_REASONS[cls])
        if name == "deck":
            return 0  # a player never sees a round's deck
        raise AssertionError(f"no encoding for {cls.__name__}.{name}")

    def hand_row(self, hand: tuple[Card, ...]) -> npt.NDArray[np.float32]:
        row = np.zeros(self.width, np.float32)
        row[self.hand_type] = 1.0
        base = len(_ROW_TYPES) + 1
        for card in hand:
            row[base + self.index[card]] += 1.0
        return row

    def event_row(self, event: Event, player: int) -> npt.NDArray[np.float32]:
        cls = type(event)
        row = np.zeros(self.width, np.float32)
        if cls not in self.types:
            raise ValueError(f"{cls.__name__} cannot be part of a round")
        row[self.types[cls]] = 1.0
        at = len(_ROW_TYPES) + 1
        n, k = self.players, len(self.kinds)
        for field in attrs.fields(cls):
            name = field.name
            value = getattr(event, name)
            width = self._width(cls, name)
            if name in _SEAT_FIELDS:
                row[at + (n if value is None else (value - player) % n)] = 1.0
            elif name in _CARD_FIELDS:
                row[at + (k if value is None else self.index[value])] = 1.0
            elif name == "guess":
                if value is None:
                    row[at + self.guesses] = 1.0
                else:
                    row[at + (self.index[value] if isinstance(value, Card) else value)] = 1.0
            elif name in _CARD_LISTS:
                if value is None:
                    row[at] = 1.0
                else:
                    if len(value) > _MAX_LISTED:
                        raise ValueError(f"{cls.__name__}.{name} lists more than {_MAX_LISTED}")
                    for slot, card in enumerate(value):
                        row[at + 1 + slot * k + self.index[card]] = 1.0
            elif name in _NUMBERS:
                row[at] = float(value)
            elif name == "from_set_aside":
                row[at] = 1.0 if value else 0.0
            elif name in _SEAT_SETS:
                for seat in value or ():
                    row[at + (seat - player) % n] = 1.0
            elif name == "order":
                for place, seat in enumerate(value or (), start=1):
                    row[at + (seat - player) % n] = float(place)
            elif name == "ranks":
                for seat, rank in enumerate(value or ()):
                    if rank is not None:
                        row[at + (seat - player) % n] = float(rank)
            elif name == "revealed":
                for seat, card in value:
                    row[at + ((seat - player) % n) * k + self.index[card]] = 1.0
            elif name == "reason":
                row[at + list(_REASONS[cls]).index(value)] = 1.0
            elif name == "deck" and value is not None:
                raise ValueError("a round's deck is never shown to a player")
            at += width
        return row


@cache
def _encoder(setup: _Setup) -> _HistoryEncoder:
    return _HistoryEncoder(setup)


def history_shape(edition: str, players: int, decks: int = 1) -> tuple[int, int]:
    """The shape (rows, row width) of the ``history`` block of the
    information-state tensor for ``edition`` with ``players`` seats (and,
    online, ``decks`` decks). Rows past the round's events are 0.

    >>> history_shape("2019-classic", 2)
    (181, 62)
    """
    rules = get_ruleset(edition)
    encoder = _encoder(_setup(rules.name, players, 1, decks))
    return encoder.rows, encoder.width


# --------------------------------------------------------------------------
# The state's data, shared between clones.


class _Core:
    """A state's whole content, never changed once built: clones share it
    (``copy.deepcopy`` returns it), and pickling writes it as JSON."""

    __slots__ = ("_knowledge", "_memo", "deal", "engine", "logs", "ranks", "setup")

    def __init__(
        self,
        setup: _Setup,
        engine: GameState | None,
        deal: _Deal | None,
        logs: tuple[tuple[_Step, ...], ...],
        ranks: tuple[tuple[int | None, ...], ...],
    ) -> None:
        self.setup = setup
        #: the engine's state; ``None`` until the first round is dealt
        self.engine = engine
        #: the round being dealt, while chance acts
        self.deal = deal
        #: each player's steps, oldest first
        self.logs = logs
        #: online: every finished round's ranks
        self.ranks = ranks
        self._knowledge: dict[int, Knowledge] = {}
        # what OpenSpiel asks of a state again and again (its strings, its
        # views), by (what, player): a function of the core, which never changes
        self._memo: dict[tuple[str, int], Any] = {}

    def memo(self, what: str, player: int, compute: Callable[[], Any]) -> Any:
        """``compute()``, worked out once per state."""
        key = (what, player)
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def view(self, player: int) -> PlayerView | None:
        """``player``'s view of the engine's state (``None`` before it)."""
        engine = self.engine
        if engine is None:
            return None
        found: PlayerView = self.memo("view", player, lambda: view(engine, player))
        return found

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self

    def __reduce__(self) -> tuple[Callable[[dict[str, Any]], _Core], tuple[dict[str, Any]]]:
        return _core_from_data, (self.to_data(),)

    @classmethod
    def start(cls, setup: _Setup) -> _Core:
        seats = tuple(range(setup.players))
        candidates = seats if setup.rules.draws_order else (0,)
        deal = _Deal.begin(1, candidates, seats, setup.rules.draws_order, setup.deck)
        return cls(setup, None, deal, tuple(() for _ in seats), ())

    @property
    def terminal(self) -> bool:
        engine = self.engine
        if engine is None or self.deal is not None:
            return False
        if engine.is_over:
            return True
        return engine.decision is Decision.NEXT_ROUND and engine.round_number >= self.setup.rounds

    def with_outcome(self, outcome: int) -> _Core:
        assert self.deal is not None
        deal = self.deal.take(outcome)
        if not deal.complete:
            return _Core(self.setup, self.engine, deal, self.logs, self.ranks)
        setup = self.setup
        order = deal.order or None
        if self.engine is None:
            events = start_game(
                setup.rules,
                setup.players,
                seed=0,
                first_player=deal.first,
                deck=deal.deck,
                order=order,
                settings=setup.settings,
            )
            assert isinstance(events[0], GameStarted)
            after = apply_unchecked(initial_state(events[0]), events[1:])
        else:
            command = StartRound(deck=deal.deck, first_player=deal.first, order=order)
            after, events = step(self.engine, command)
        return self._after(after, events)

    def with_action(self, action: int) -> _Core:
        engine = self.engine
        assert engine is not None and engine.to_act is not None
        command = self.setup.table.command(action, engine.to_act)
        after, events = step(engine, command)
        return self._after(after, events)

    def _after(self, after: GameState, events: tuple[Event, ...]) -> _Core:
        before = self.engine
        logs = []
        for player, log in enumerate(self.logs):
            hand = after.hands[player]
            changed = before is None or before.hands[player] != hand
            logs.append((*log, _Step(events_for(player, events), hand if changed else None)))
        ranks = self.ranks
        result = after.round_result
        if (
            result is not None
            and result.ranks is not None
            and (before is None or not before.round_over)
        ):
            ranks = (*ranks, result.ranks)
        core = _Core(self.setup, after, None, tuple(logs), ranks)
        if after.decision is Decision.NEXT_ROUND and not core.terminal:
            setup = self.setup
            core.deal = _Deal.begin(
                after.round_number + 1,
                _first_candidates(after, setup),
                after.present(),
                setup.rules.draws_order,
                setup.deck,
            )
        return core

    def describe(self) -> str:
        """The whole state as text: the engine's, and the deal so far."""
        lines = []
        if self.engine is not None:
            lines.append(str(self.engine))
        deal = self.deal
        if deal is not None:
            dealt = " ".join(card_text(card) for card in deal.deck)
            lines.append(
                f"dealing round {deal.round_number}: first player {deal.first},"
                f" order {list(deal.order)}, deck so far [{dealt}]"
            )
        return "\n".join(lines) or "before the first deal"

    def returns(self) -> list[float]:
        n = self.setup.players
        if not self.terminal:
            return [0.0] * n
        if self.setup.online:
            totals = [0.0] * n
            for ranks in self.ranks:
                ranked = [rank for rank in ranks if rank is not None]
                mean = sum(ranked) / len(ranked)
                for seat, rank in enumerate(ranks):
                    if rank is not None:
                        totals[seat] += 2.0 * (mean - rank) / (n - 1)
            return [total / len(self.ranks) for total in totals]
        engine = self.engine
        assert engine is not None
        if engine.is_over:
            winners = set(engine.winners)
        elif engine.contenders:
            winners = set(engine.contenders)
        else:
            most = max(engine.tokens)
            winners = {seat for seat, count in enumerate(engine.tokens) if count == most}
        if len(winners) == n:
            return [0.0] * n
        win, lose = 1.0 / len(winners), -1.0 / (n - len(winners))
        return [win if seat in winners else lose for seat in range(n)]

    def knowledge(self, player: int) -> Knowledge:
        known = self._knowledge.get(player)
        if known is None:
            known = Knowledge.start(player).observe(
                event for step_ in self.logs[player] for event in step_.events
            )
            self._knowledge[player] = known
        return known

    def resampled(self, player: int, rng: random.Random) -> _Core:
        engine = self.engine
        if engine is None or self.deal is not None or engine.to_act is None:
            raise ValueError("a state is resampled where a player must act")
        seen = self.view(player)
        assert seen is not None
        sample = sample_consistent_state(seen, rng, self.knowledge(player))
        own = self.logs[player]
        logs = tuple(
            own
            if seat == player
            else tuple(_Step(events_for(seat, step_.events), None) for step_ in own)
            for seat in range(self.setup.players)
        )
        return _Core(self.setup, sample, None, logs, self.ranks)

    def to_data(self) -> dict[str, Any]:
        setup = self.setup
        deal = self.deal
        return {
            "edition": setup.rules.name,
            **setup.parameters(),
            "engine": None if self.engine is None else to_data(self.engine),
            "deal": None
            if deal is None
            else {
                "round_number": deal.round_number,
                "candidates": list(deal.candidates),
                "first": deal.first,
                "unordered": list(deal.unordered),
                "order": list(deal.order),
                "remaining": [[card.name, count] for card, count in deal.remaining],
                "deck": [card.name for card in deal.deck],
            },
            "logs": [
                [
                    [
                        [to_data(event) for event in step_.events],
                        None if step_.hand is None else [card.name for card in step_.hand],
                    ]
                    for step_ in log
                ]
                for log in self.logs
            ],
            "ranks": [list(ranks) for ranks in self.ranks],
        }


def _core_from_data(data: dict[str, Any]) -> _Core:
    """A :class:`_Core` from :meth:`_Core.to_data` (unpickling)."""
    setup = _setup(data["edition"], data["players"], data["rounds"], data.get("decks", 1))
    deal_data = data["deal"]
    deal = None
    if deal_data is not None:
        deal = _Deal(
            round_number=deal_data["round_number"],
            candidates=tuple(deal_data["candidates"]),
            first=deal_data["first"],
            unordered=tuple(deal_data["unordered"]),
            order=tuple(deal_data["order"]),
            remaining=tuple((Card[name], count) for name, count in deal_data["remaining"]),
            deck=tuple(Card[name] for name in deal_data["deck"]),
        )
    engine = None if data["engine"] is None else from_data(data["engine"], GameState)
    logs = tuple(
        tuple(
            _Step(
                tuple(from_data(event) for event in events),
                None if hand is None else tuple(Card[name] for name in hand),
            )
            for events, hand in log
        )
        for log in data["logs"]
    )
    ranks = tuple(tuple(ranks) for ranks in data["ranks"])
    return _Core(setup, engine, deal, logs, ranks)


# --------------------------------------------------------------------------
# The pyspiel classes.


def _game_type(edition: str) -> Any:
    rules = get_ruleset(edition)
    online = rules.scoring is Scoring.RANKS
    parameters: dict[str, int] = {"players": rules.min_players, "rounds": 1 if online else 0}
    if online:
        parameters["decks"] = 1
    return pyspiel.GameType(
        short_name=GAME_NAMES[rules.name],
        long_name=f"Love Letter: {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


_GAME_TYPES = {edition: _game_type(edition) for edition in GAME_NAMES}


class LoveLetterGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """One edition of Love Letter as an OpenSpiel game (see the module).
    Loaded by name through ``pyspiel.load_game`` or by
    :func:`load_game`; its class per edition is registered on import."""

    edition = "2019"

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules = get_ruleset(self.edition)
        online = rules.scoring is Scoring.RANKS
        setup = _setup(
            rules.name,
            params.get("players", rules.min_players),
            params.get("rounds", 1 if online else 0),
            params.get("decks", 1),
        )
        low, high = setup.utility_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.table.size,
            max_chance_outcomes=_SEAT_OUTCOME + setup.players,
            num_players=setup.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=setup.max_game_length(),
        )
        super().__init__(_GAME_TYPES[rules.name], info, setup.parameters())
        self.setup = setup
        self._initial = _Core.start(setup)

    def new_initial_state(self) -> LoveLetterState:
        """The state before the first deal: a chance node."""
        return LoveLetterState(self)

    def max_chance_nodes_in_history(self) -> int:
        """At most one chance node per card dealt and per seat drawn, every round."""
        return self.setup.max_chance_nodes()

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> LoveLetterObserver:
        """The observer OpenSpiel asks for: an observation (the default) or
        an information state (``perfect_recall``), always of one player's
        own information and the public one."""
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes the parameters alone
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"the observer takes no parameters, not {dict(params)}")
        perfect_recall = False
        if iig_obs_type is not None:
            if (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            ):
                raise ValueError(
                    "observations are of one player's private information with the public one"
                )
            perfect_recall = bool(iig_obs_type.perfect_recall)
        return LoveLetterObserver(self, perfect_recall)


class LoveLetterState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type stubs
    """A state of a Love Letter OpenSpiel game: a chance node while a round
    is dealt, a player's decision otherwise, terminal once the game (or its
    last round) is over. :attr:`engine_state` is the engine's
    :class:`~loveletter.GameState` (``None`` before the first deal)."""

    def __init__(self, game: LoveLetterGame) -> None:
        super().__init__(game)
        self._core: _Core = game._initial

    @property
    def engine_state(self) -> GameState | None:
        """The engine's state: the whole truth, every hand included."""
        return self._core.engine

    def player_view(self, player: int) -> PlayerView | None:
        """``player``'s :func:`~loveletter.view` (``None`` before the first deal)."""
        return self._core.view(player)

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal player."""
        core = self._core
        if core.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if core.deal is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert core.engine is not None and core.engine.to_act is not None
        return core.engine.to_act

    def is_terminal(self) -> bool:
        """Whether the game, or its last round, is over."""
        return self._core.terminal

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._core.engine
        assert engine is not None
        return sorted(self._core.setup.table.legal_actions(engine))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next chance outcomes with their probabilities, by id."""
        deal = self._core.deal
        if deal is None:
            raise ValueError("not a chance node")
        return sorted(deal.outcomes())

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.deal is not None:
            self._core = core.with_outcome(int(action))
        else:
            self._core = core.with_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player >= 0:
            return self._core.setup.table.describe(int(action), player)
        if action < _SEAT_OUTCOME:
            return f"Deal {card_text(Card(action))}"
        seat = action - _SEAT_OUTCOME
        deal = self._core.deal
        if deal is not None and deal.phase == "order":
            return f"Order P{seat}"
        return f"First P{seat}"

    def returns(self) -> list[float]:
        """Each player's return: 0 until the end (see the module)."""
        return self._core.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> LoveLetterState:
        """A state drawn uniformly among those ``player_id`` cannot tell from
        this one (OpenSpiel's resampling): ``probability_sampler``, a
        function giving floats in [0, 1) such as
        ``pyspiel.UniformProbabilitySampler(0.0, 1.0)``, seeds the draw.

        The new state has ``player_id``'s history; the other players'
        histories in it hold only what ``player_id`` saw of them (what they
        privately saw is not known), and its OpenSpiel action history is
        empty (the draw gives a position, not the moves to it). Only where a
        player must act."""
        seed = 0
        for _ in range(4):
            seed = (seed << 32) | int(float(probability_sampler()) * 2**32)
        return self.resampled(player_id, random.Random(seed))

    def resampled(self, player: int, rng: random.Random) -> LoveLetterState:
        """:meth:`resample_from_infostate` with a :class:`random.Random`."""
        sample = LoveLetterState(self.get_game())
        sample._core = self._core.resampled(player, rng)
        return sample

    def __str__(self) -> str:
        text: str = self._core.memo("str", -1, self._core.describe)
        return text


def _observation_text(core: _Core, player: int) -> str:
    lines = []
    seen = core.view(player)
    if seen is not None:
        data = to_data(seen)
        assert isinstance(data, dict)
        del data["legal_commands"]  # the legal actions say it
        lines.append(json.dumps(data, separators=(",", ":")))
    if core.deal is not None:
        lines.append(f"dealing round {core.deal.round_number}")
    return "\n".join(lines)


def _information_text(core: _Core, player: int) -> str:
    lines = [f"P{player}"]
    lines.extend(step_.text() for step_ in core.logs[player])
    lines.append(core.memo("observation-text", player, lambda: _observation_text(core, player)))
    return "\n".join(lines)


def _round_rows(core: _Core, player: int) -> npt.NDArray[np.float32] | None:
    """The history block's rows of ``player``'s current round, stacked."""
    log = core.logs[player]
    start = len(log)
    while start > 0 and not log[start - 1].starts_round():
        start -= 1
    if start == 0:
        return None
    encoder = _encoder(core.setup)
    return np.stack([row for step_ in log[start - 1 :] for row in step_.rows(encoder, player)])


class LoveLetterObserver:
    """OpenSpiel's observer of one game: ``tensor`` (and its named parts in
    ``dict``) and ``string_from`` for one player, an observation or, with
    ``perfect_recall``, an information state (see the module)."""

    def __init__(self, game: LoveLetterGame, perfect_recall: bool) -> None:
        setup = game.setup
        self.perfect_recall = perfect_recall
        size = observation_size(setup.rules, setup.players)
        pieces: list[tuple[str, tuple[int, ...]]] = [("observation", (size,))]
        if perfect_recall:
            encoder = _encoder(setup)
            pieces.append(("history", (encoder.rows, encoder.width)))
        total = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(total, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, shape in pieces:
            count = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + count].reshape(shape)
            at += count

    def set_from(self, state: LoveLetterState, player: int) -> None:
        """Fill ``tensor`` from ``state`` as ``player`` knows it."""
        self.tensor.fill(0.0)
        core = state._core
        seen = core.view(player)
        if seen is not None:
            self.dict["observation"][:] = core.memo(
                "observation-vector", player, lambda: encode_view(seen)
            )
        if self.perfect_recall:
            rows = core.memo("history-rows", player, lambda: _round_rows(core, player))
            if rows is None:
                return
            history = self.dict["history"]
            if len(rows) > history.shape[0]:
                raise RuntimeError(
                    f"{len(rows)} events in one round: more than the {history.shape[0]} rows"
                    " the history block was sized for"
                )
            history[: len(rows)] = rows

    def string_from(self, state: LoveLetterState, player: int) -> str:
        """``player``'s observation or information-state string."""
        core = state._core
        if self.perfect_recall:
            info: str = core.memo(
                "information-text", player, lambda: _information_text(core, player)
            )
            return info
        now: str = core.memo("observation-text", player, lambda: _observation_text(core, player))
        return now


def _game_class(edition: str) -> type[LoveLetterGame]:
    name = "LoveLetter" + "".join(part.title() for part in edition.split("-")) + "Game"
    return type(
        name, (LoveLetterGame,), {"edition": edition, "__doc__": f"{edition}: see LoveLetterGame."}
    )


for _edition, _type in _GAME_TYPES.items():
    pyspiel.register_game(_type, _game_class(_edition))


def load_game(edition: str = "2019", **parameters: int) -> Any:
    """The OpenSpiel game of ``edition`` (a name or an alias) with
    ``parameters`` (``players``, ``rounds``, online ``decks``).

    >>> load_game("premium", players=4).num_players()
    4
    """
    rules = get_ruleset(edition)
    return pyspiel.load_game(GAME_NAMES[rules.name], dict(parameters))


def resampler(
    rng: random.Random | None = None,
) -> Callable[[LoveLetterState, int], LoveLetterState]:
    """A resampling function for ``ISMCTSBot.set_resampler``: given a state
    and a player, a state drawn uniformly among those the player cannot tell
    from it (:meth:`LoveLetterState.resampled`), from ``rng`` (a new
    :class:`random.Random` when not given)."""
    source = rng if rng is not None else random.Random()

    def resample(state: LoveLetterState, player: int) -> LoveLetterState:
        return state.resampled(player, source)

    return resample
