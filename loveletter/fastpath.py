"""The fast path: the engine's public verbs made fast, apart from the rules.

``push(state, command)`` is defined as ``evolve`` folded over
``decide(state, command)``, ``step`` as both, and ``legal_commands`` as
what :mod:`loveletter.legal` lists. The reference builds every event, a
state per batch of them, and checks every command again; simulations push
millions of turns. This module computes the state after a command directly
from the one before, in private mutable copies of the per-seat tuples and
one new state at the end: the card leaves the hand, its effect happens
(and what it sets off: a Constable's token, a win at once, the end of the
round), the next player in the round starts their turn and draws, or the
round ends with its winners, tokens and the game's end. It builds the
events only when :func:`step` asks for them. It covers a play of every
card of every edition, the Assassin's answer to a Guard, the answers to
the choices cards leave pending (a Chancellor's keep, a Cardinal's look, a
Bishop's redraw) and the deal of a round; it keeps the commands the rules
allow in caches, each play a shared instance.

Anything else answers ``None`` and the engine takes the reference path
(:mod:`loveletter.deciding`), which stays the single definition of the
rules: a tie-break round's deal, leaving and time-outs, a draw from a
position stopped before it, a card whose rules are not the registry's own
(a test's deliberate fault), an answer other than the very one
:func:`legal_commands` lists (the reference checks it). A play is not
checked again in full: a look at its fields against the cached choices
the rules allow accepts most; a play it does not accept goes to the
reference's check, which refuses it with the reason, or accepts it.

Only the engine's public verbs (:mod:`loveletter.engine`) use this module;
nothing of the reference does. ``tests/conformance/test_both_paths.py``
and ``tests/properties`` hold both paths equal, states and events, on
every conformance case and on random games of every edition.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, ParamSpec, TypeVar

import attrs

from loveletter.cards import (
    assassin,
    baron,
    baroness,
    bishop,
    cardinal,
    chancellor,
    constable,
    count,
    countess,
    dowager_queen,
    guard,
    handmaid,
    jester,
    king,
    priest,
    prince,
    princess,
    spy,
    sycophant,
)
from loveletter.cards.base import Choice, RoundEnd
from loveletter.commands import (
    Command,
    Decline,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
)
from loveletter.consequences import showdown
from loveletter.dealing import deal_events, next_deal
from loveletter.deciding import check_play
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRevealed,
    CardsReturned,
    ChancellorDrew,
    ChoiceRestricted,
    EliminationReason,
    Event,
    GameEnded,
    GameTied,
    HandsCompared,
    HandSeen,
    HandsTraded,
    LookOffered,
    OptionDeclined,
    PlayerEliminated,
    PlayerMarked,
    PlayerProtected,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.kinds import Card
from loveletter.legal import keep_commands, playable
from loveletter.legal import legal_commands as listed_commands
from loveletter.ranking import round_ranks
from loveletter.rulesets import GameTie, RoundTie, Ruleset, Scoring
from loveletter.state import (
    Decision,
    GameState,
    RoundResult,
    Sighting,
    Table,
    build_state,
    next_player,
)
from loveletter.targeting import options

P = ParamSpec("P")
T = TypeVar("T")


# --------------------------------------------------------------------------
# shared instances


#: entries a cache may hold before it starts afresh (bounds memory in long runs)
LIMIT = 100_000
#: the caches of the shared instances: :func:`forget` empties them
CACHES: list[dict[Any, Any]] = []


def forget() -> None:
    """Empty every cache of this module. Caching never changes what the
    engine computes, but a cache filled before a function of the rules is
    replaced (a test's deliberate fault, a mutant) would answer for it."""
    for cache in CACHES:
        cache.clear()
    LEGAL_PLAYS.clear()


def interned(factory: Callable[P, T], *, typed: bool = False) -> Callable[P, T]:
    """Wrap ``factory`` so equal positional arguments return the same value.

    Arguments must be hashable and passed positionally. ``typed`` keys the
    cache on the arguments' types too, for factories whose arguments may be
    equal values of different types: a guess is a card in one edition and a
    number in another, and a card kind equals its integer code (the
    Prince equals 5).
    """
    cache: dict[tuple[Hashable, ...], T] = {}
    CACHES.append(cache)

    def make(*args: P.args, **kwargs: P.kwargs) -> T:
        key = (*args, *map(type, args)) if typed else args
        try:
            return cache[key]
        except KeyError:
            if len(cache) >= LIMIT:
                cache.clear()
            value = cache[key] = factory(*args, **kwargs)
            return value

    # its name, docstring and signature, for the API pages and the traceability
    functools.update_wrapper(make, factory, updated=())
    return make


def _builder(cls: type[T]) -> Callable[..., T]:
    """A constructor of the frozen attrs class ``cls`` from its fields in
    order, setting its slots directly (as :func:`loveletter.state.build_state`
    does for states): about twice as fast as the class's own."""
    fields = tuple(field.name for field in attrs.fields(cls))  # type: ignore[arg-type]  # an attrs class
    params = ", ".join(fields)
    body = "\n".join(f"    _set_{name}(value, {name})" for name in fields)
    source = f"def build({params}):\n    value = _new(cls)\n{body}\n    return value\n"
    scope: dict[str, Any] = {"_new": object.__new__, "cls": cls}
    scope.update({f"_set_{name}": vars(cls)[name].__set__ for name in fields})
    exec(source, scope)
    built: Callable[..., T] = scope["build"]
    return built


_sighting = _builder(Sighting)
_table = _builder(Table)
_round_result = _builder(RoundResult)
_card_played = interned(CardPlayed, typed=True)
_turn_started = interned(TurnStarted)
_card_drawn = interned(CardDrawn)
_card_discarded = interned(CardDiscarded)
_player_eliminated = interned(PlayerEliminated)
_player_protected = interned(PlayerProtected)
_hand_seen = interned(HandSeen)
_hands_compared = interned(HandsCompared)
_hands_traded = interned(HandsTraded)

_EMPTY: frozenset[int] = frozenset()
_CHOOSES_NO_ONE = Choice.NONE
_PLAY = Decision.PLAY
_CHANCELLOR = Decision.CHANCELLOR
_LOOK = Decision.LOOK
_REDRAW = Decision.REDRAW
_NEXT_ROUND = Decision.NEXT_ROUND
_GAME_OVER = Decision.GAME_OVER
_RANKS = Scoring.RANKS
_ONE_PLAYER_LEFT = RoundEndReason.ONE_PLAYER_LEFT
_DECK_EMPTY = RoundEndReason.DECK_EMPTY
_ROUND_WIN = TokenReason.ROUND_WIN
# the cards a sighting or a trade is made through, as their modules name them
_PRIEST = priest.RULES.card
_BARON = baron.RULES.card
_KING = king.RULES.card
_CARDINAL = cardinal.RULES.card
_BARONESS = baroness.RULES.card
_DOWAGER_QUEEN = dowager_queen.RULES.card
_GUARD_GUESS = EliminationReason.GUARD_GUESS
_PRINCESS_DISCARDED = EliminationReason.PRINCESS_DISCARDED

# What each card's rules do, by the identity of the registry's rules: a
# ruleset whose rules for a card are another object (a deliberate fault)
# takes the reference path for that card.
_NOTHING = 0
_GUARD = 1
_PRIEST_LOOK = 2
_BARON_COMPARE = 3
_HANDMAID = 4
_PRINCE = 5
_CHANCELLOR_DRAW = 6
_KING_TRADE = 7
_PRINCESS = 8
_BISHOP = 9
_DOWAGER_COMPARE = 10
_SYCOPHANT = 11
_BARONESS_LOOK = 12
_CARDINAL_SWAP = 13
_CARDINAL_ONLINE = 14
_JESTER = 15
_EFFECTS: dict[int, int] = {
    id(guard.RULES): _GUARD,
    id(priest.RULES): _PRIEST_LOOK,
    id(baron.RULES): _BARON_COMPARE,
    id(handmaid.RULES): _HANDMAID,
    id(prince.RULES): _PRINCE,
    id(chancellor.RULES): _CHANCELLOR_DRAW,
    id(king.RULES): _KING_TRADE,
    id(princess.RULES): _PRINCESS,
    id(bishop.RULES): _BISHOP,
    id(sycophant.RULES): _SYCOPHANT,
    id(baroness.RULES): _BARONESS_LOOK,
    id(baroness.ONLINE_RULES): _BARONESS_LOOK,
    id(cardinal.RULES): _CARDINAL_SWAP,
    id(cardinal.ONLINE_RULES): _CARDINAL_ONLINE,
    id(jester.RULES): _JESTER,
    id(dowager_queen.RULES): _DOWAGER_COMPARE,
    # they act from the hand or the pile: played, they do nothing
    id(spy.RULES): _NOTHING,
    id(countess.RULES): _NOTHING,
    id(count.RULES): _NOTHING,
    id(constable.RULES): _NOTHING,
    id(assassin.RULES): _NOTHING,
}


#: the rules of the card that answers a Guard while held (the Assassin)
_ASSASSIN_RULES = id(assassin.RULES)
_ASSASSIN = assassin.RULES.card
#: the answers whose rules this module knows (the answer of the card on
#: top of the current player's pile), as their registry functions
_ANSWERS = frozenset({id(chancellor.keep), id(cardinal.look), id(bishop.redraw)})


# --------------------------------------------------------------------------
# the commands the rules allow, and whether one was listed


_playable = interned(playable)
_options = interned(options)
_play_card = interned(PlayCard, typed=True)
_keep_commands = interned(keep_commands)


def _chosen_plays(
    ruleset: Ruleset, players: int, player: int, card: Card, target: int | None, second: int | None
) -> tuple[PlayCard, ...]:
    """The plays of ``card`` choosing ``target`` (and ``second``), one for
    each name it may name."""
    if target is None:
        return (_play_card(player, card, None, None, None),)
    names = ruleset.setup(players).names[card]
    if not names:
        return (_play_card(player, card, target, None, second),)
    return tuple(_play_card(player, card, target, name, second) for name in names)


_plays_choosing = interned(_chosen_plays)


def _plays(
    ruleset: Ruleset,
    players: int,
    player: int,
    card: Card,
    choices: tuple[tuple[int | None, int | None], ...],
) -> tuple[PlayCard, ...]:
    """:func:`loveletter.legal.play_commands`, each play a shared instance."""
    commands: tuple[PlayCard, ...] = ()
    for target, second in choices:
        commands += _plays_choosing(ruleset, players, player, card, target, second)
    return commands


_play_commands = interned(_plays)


def _look_listing(current: int, owners: tuple[int, ...]) -> tuple[Command, ...]:
    return (*(LookAtHand(current, owner) for owner in owners), Decline(current))


def _redraw_listing(player: int) -> tuple[Command, ...]:
    return (Redraw(player), Decline(player))


_look_commands = interned(_look_listing)
_redraw_commands = interned(_redraw_listing)
#: the plays :func:`legal_commands` listed, by what they depend on: the
#: ruleset, the players, the player, the card asked for (or the cards that
#: may be played), the players no card may choose (out of the round or
#: protected), the player a Sycophant requires
LEGAL_PLAYS: dict[tuple[object, ...], tuple[Command, ...]] = {}


def playable_cards(state: GameState) -> tuple[Card, ...]:
    """:func:`loveletter.legal.playable_cards`, from a cache."""
    if state.decision is not _PLAY:
        return ()
    return _playable(state.table.ruleset, state.hands[state.current])


def legal_commands(state: GameState, card: Card | None = None) -> tuple[Command, ...]:
    """:func:`loveletter.legal.legal_commands`, from a cache: the same
    commands, shared between positions where the cards that may be played,
    and whom they may choose, are the same."""
    decision = state.decision
    if decision is _PLAY:
        player = state.current
        table = state.table
        ruleset = table.ruleset
        cards = _playable(ruleset, state.hands[player])
        # out of the round or protected: either way no card may choose them
        blocked = state.out | state.protected if state.protected else state.out
        if card is not None:
            if card not in cards:
                return ()
            asked: object = card
            cards = (card,)
        else:
            asked = cards
        key = (ruleset, table.players, player, asked, blocked, state.required)
        try:
            return LEGAL_PLAYS[key]
        except KeyError:
            pass
        commands: tuple[Command, ...] = ()
        for c in cards:
            choices = _options(
                table.players, player, ruleset.choices[c], blocked, _EMPTY, state.required
            )
            commands += _play_commands(ruleset, table.players, player, c, choices)
        if len(LEGAL_PLAYS) >= LIMIT:
            LEGAL_PLAYS.clear()
        LEGAL_PLAYS[key] = commands
        return commands
    if card is not None:
        return ()
    if decision is _CHANCELLOR:
        return _keep_commands(state.current, tuple(sorted(state.hands[state.current])))
    if decision is _LOOK:
        return _look_commands(state.current, state.pending)
    if decision is _REDRAW:
        return _redraw_commands(state.pending[0])
    return listed_commands(state, card)


def _legal_play(state: GameState, command: PlayCard) -> bool:
    """Whether ``command`` is surely a legal play: its fields are of their
    types and among what the rules allow now, as
    :func:`loveletter.deciding.check_play` judges them. ``False`` leaves
    the judgement (and the reason of a refusal) to the reference."""
    if state.decision is not _PLAY:
        return False
    player = command.player
    card = command.card
    if type(player) is not int or player != state.current or type(card) is not Card:
        return False
    table = state.table
    ruleset = table.ruleset
    if card not in _playable(ruleset, state.hands[player]):  # held, and not forbidden
        return False
    target = command.target
    second = command.second_target
    if (target is not None and type(target) is not int) or (
        second is not None and type(second) is not int
    ):
        return False
    choice = ruleset.choices[card]
    if choice is _CHOOSES_NO_ONE:
        if target is not None or second is not None:
            return False
    else:
        blocked = state.out | state.protected if state.protected else state.out
        pairs = _options(table.players, player, choice, blocked, _EMPTY, state.required)
        if (target, second) not in pairs:
            return False
    guess = command.guess
    names = ruleset.setup(table.players).names[card]
    if names and target is not None:
        wanted = int if ruleset.names_numbers else Card
        return type(guess) is wanted and guess in names
    return guess is None


def _listed_answer(state: GameState, command: Command) -> bool:
    """Whether ``command`` is the very answer :func:`legal_commands` lists
    now (then it is legal)."""
    decision = state.decision
    listing: tuple[Command, ...]
    if decision is _CHANCELLOR:
        listing = _keep_commands(state.current, tuple(sorted(state.hands[state.current])))
    elif decision is _LOOK:
        listing = _look_commands(state.current, state.pending)
    elif decision is _REDRAW:
        listing = _redraw_commands(state.pending[0])
    else:
        return False
    return any(listed is command for listed in listing)


# --------------------------------------------------------------------------
# a command's state, computed directly


class _Turn:
    """Private mutable copies of a state's fields while one command is
    worked out, and the events when they are asked for."""

    __slots__ = (
        "contenders",
        "current",
        "decision",
        "deck",
        "discards",
        "events",
        "exits",
        "hands",
        "marks",
        "out",
        "pending",
        "protected",
        "required",
        "returns",
        "set_aside",
        "sightings",
        "state",
        "table",
        "tokens",
        "turn_number",
        "winners",
    )

    def __init__(self, state: GameState, events: list[Event] | None) -> None:
        table = state.table
        self.state = state
        self.table = table
        self.events = events
        self.decision = state.decision
        self.current = state.current
        self.turn_number = state.turn_number
        self.deck = state.deck
        self.hands = list(state.hands)
        self.discards = list(state.discards)
        self.out = state.out
        self.protected = state.protected
        self.sightings = state.sightings
        self.pending = state.pending
        self.required = state.required
        self.marks = state.marks
        self.returns = state.returns
        self.exits = state.exits
        self.set_aside = table.set_aside
        self.tokens = table.tokens
        self.winners = table.winners
        self.contenders = table.contenders

    def state_after(self, result: RoundResult | None = None) -> GameState:
        """The state these fields make (``result``: the round's, as it ends)."""
        table = self.table
        if (
            result is not None
            or self.set_aside is not table.set_aside
            or self.tokens is not table.tokens
            or self.winners is not table.winners
            or self.contenders is not table.contenders
        ):
            table = _table(
                table.ruleset,
                table.players,
                table.seed,
                self.tokens,
                table.round_number,
                self.set_aside,
                table.face_up,
                table.round_result if result is None else result,
                self.winners,
                self.contenders,
                table.settings,
                table.order,
                table.left,
            )
        return build_state(
            table,
            self.decision,
            self.current,
            self.turn_number,
            self.deck,
            tuple(self.hands),
            tuple(self.discards),
            self.out,
            self.protected,
            self.sightings,
            self.pending,
            self.required,
            self.marks,
            self.returns,
            self.exits,
        )

    def take(self, player: int, card: Card) -> None:
        """One ``card`` leaves ``player``'s hand for their pile."""
        hand = self.hands[player]
        if hand[0] == card:
            self.hands[player] = hand[1:]
        else:
            index = hand.index(card)
            self.hands[player] = hand[:index] + hand[index + 1 :]
        self.discards[player] = (*self.discards[player], card)

    def see(self, viewer: int, owner: int, via: Card) -> None:
        """``viewer`` sees ``owner``'s card through ``via``."""
        card = self.hands[owner][0]
        if self.events is not None:
            self.events.append(_hand_seen(viewer, owner, card, via))
        if viewer != owner:
            self.sightings = (
                *self.sightings,
                _sighting(viewer, owner, card, self.turn_number, via),
            )

    def trade(self, player: int, opponent: int, via: Card) -> None:
        """``player`` and ``opponent`` trade hands, each seeing what the other got."""
        hands = self.hands
        mine, theirs = hands[player], hands[opponent]
        hands[player], hands[opponent] = theirs, mine
        turn = self.turn_number
        self.sightings = (
            *self.sightings,
            *(_sighting(player, opponent, card, turn, via) for card in mine),
            *(_sighting(opponent, player, card, turn, via) for card in theirs),
        )
        if self.events is not None:
            self.events.append(_hands_traded(player, opponent, via))

    def award(self, player: int, reason: TokenReason) -> None:
        """``player`` gains a token."""
        tokens = self.tokens
        total = tokens[player] + 1
        self.tokens = (*tokens[:player], total, *tokens[player + 1 :])
        if self.events is not None:
            self.events.append(TokenAwarded(player, reason, total))

    def award_step(self, gained: list[int]) -> bool:
        """After an award step: the game ends, or a tie-break round is
        called (ruling 31); whether the game ended."""
        table = self.table
        ruleset = table.ruleset
        if self.contenders:
            reached = tuple(sorted({p for p in gained if p in self.contenders}))
        else:
            needed = ruleset.setup(table.players).tokens_to_win
            if needed is None:  # online: a win counter ends nothing (ruling 44)
                return False
            reached = tuple(p for p, count in enumerate(self.tokens) if count >= needed)
        if not reached:
            return False
        if len(reached) == 1 or ruleset.game_tie is GameTie.SHARED_WIN:
            self.decision = _GAME_OVER
            self.pending = ()
            self.winners = reached
            if self.events is not None:
                self.events.append(GameEnded(reached))
            return True
        self.contenders = reached
        if self.events is not None:
            self.events.append(GameTied(reached))
        return False

    def knock_out(
        self, player: int, reason: EliminationReason, discarded: tuple[Card, ...]
    ) -> GameState | None:
        """``player`` is out of the round, ``discarded`` face up, with what
        that sets off: the tokens of the cards in their pile that pay for it
        (the Constable), which can win the game; the end of the round when
        one player is left. The state, when the round or the game ended
        here (the rest of the effect does not happen), else ``None``."""
        table = self.table
        pile = self.discards[player]  # as it was before this knock-out's discard
        if self.events is not None:
            self.events.append(_player_eliminated(player, reason, discarded))
        self.hands[player] = ()
        self.discards[player] = pile + discarded
        self.out = self.out | {player}  # never a protected player: no card chooses one
        if table.ruleset.scoring is _RANKS:
            self.exits = (*self.exits, player)
        gained: list[int] = []
        paying = table.ruleset.setup(table.players).knocked_out_tokens
        if paying and player not in table.left:
            for card, why in paying:
                if card in pile:
                    self.award(player, why)
                    gained.append(player)
        if table.players - len(self.out) < 2:
            return self.end_round(_ONE_PLAYER_LEFT, gained)
        if gained and self.award_step(gained):
            return self.state_after()
        return None

    def discard_and_draw(self, player: int, cards: tuple[Card, ...]) -> GameState | None:
        """``player`` discards ``cards`` without their effects and draws a
        replacement, unless a discarded Princess knocks them out. The state
        when that ended the round or the game, else ``None``."""
        rules = self.table.ruleset.rules
        for card in cards:
            if self.events is not None:
                self.events.append(_card_discarded(player, card))
            self.take(player, card)
            reaction = rules[card].when_discarded
            if reaction is not None:
                assert reaction is _PRINCESS_KNOCKED_OUT, "only the Princess acts when discarded"
                return self.knock_out(player, _PRINCESS_DISCARDED, ())
        if self.deck:
            drawn = self.deck[0]
            self.deck = self.deck[1:]
            from_set_aside = False
        else:
            aside = self.set_aside
            assert aside is not None, "ruling 38: one empty-deck draw per turn"
            drawn = aside
            self.set_aside = None
            from_set_aside = True
        if self.events is not None:
            self.events.append(_card_drawn(player, drawn, from_set_aside))
        self.hands[player] = (*self.hands[player], drawn)
        return None

    def finish(self) -> GameState:
        """The turn is over: the next player in the round starts theirs and
        draws, or the round ends."""
        table = self.table
        out = self.out
        n = table.players
        deck = self.deck
        # a knock-out that left one player has ended the round already
        if len(deck) <= table.ruleset.round_end_pile:
            return self.end_round(_DECK_EMPTY, [])
        player = self.current
        if table.order:
            nxt = next_player(table, out, player)
        else:
            nxt = player + 1
            while True:
                if nxt == n:
                    nxt = 0
                if nxt not in out:
                    break
                nxt += 1
        drawn = deck[0]
        if self.events is not None:
            self.events += (_turn_started(nxt), _card_drawn(nxt, drawn, False))
        if nxt in self.protected:
            self.protected = self.protected - {nxt}
        self.hands[nxt] = (*self.hands[nxt], drawn)
        self.deck = deck[1:]
        self.current = nxt
        self.turn_number += 1
        self.decision = _PLAY
        self.pending = ()
        return self.state_after()

    def end_round(self, reason: RoundEndReason, gained: list[int]) -> GameState:
        """The round ends: its winners, their tokens and the cards'
        round-end tokens, as one award step with ``gained`` (the tokens of
        the knock-out that ended it); then the game's end, or an online
        match's close once deserted."""
        table = self.table
        ruleset = table.ruleset
        n = table.players
        out = self.out
        hands = self.hands
        discards = tuple(self.discards)
        events = self.events
        live = tuple(p for p in range(n) if p not in out)
        if reason is _ONE_PLAYER_LEFT:
            revealed: tuple[tuple[int, Card], ...] = ()
        else:
            revealed = tuple((p, hands[p][0]) for p in live)
        ranks = None
        if ruleset.scoring is _RANKS:
            ranks = round_ranks(ruleset, n, revealed, live, self.exits, discards)
            winners = tuple(p for p in live if ranks[p] == 1)
        elif reason is _ONE_PLAYER_LEFT:
            winners = live
        else:
            winners = _showdown_winners(ruleset, revealed, discards)
        if events is not None:
            events.append(RoundEnded(reason, winners, revealed, ranks))
        self.decision = _NEXT_ROUND
        self.protected = _EMPTY
        self.required = None
        self.pending = ()
        gained = list(gained)
        for p in winners:
            self.award(p, _ROUND_WIN)
            gained.append(p)
        setup = ruleset.setup(n)
        if setup.round_end_bonuses:
            end = RoundEnd(n, out, discards, self.marks, winners)
            for bonus in setup.round_end_bonuses:
                for p in bonus.gainers(end):
                    if p not in table.left:
                        self.award(p, bonus.reason)
                        gained.append(p)
        self.award_step(gained)
        # An online match closes once deserted (ruling 44) only through a
        # Leave, which the reference plays: two players or more are present here.
        return self.state_after(_round_result(reason, winners, revealed, ranks))

    def play(self, command: PlayCard) -> GameState | None:
        """The state after ``command``, a legal play; ``None`` for the
        reference."""
        card = command.card
        table = self.table
        ruleset = table.ruleset
        rules = ruleset.rules
        effect = _EFFECTS.get(id(rules[card]))
        if effect is None:
            return None
        player = command.player
        target = command.target
        second = command.second_target
        answering = -1  # the seat of a held card that answers the play instead
        if target is not None:
            reacting = ruleset.setup(table.players).reacting
            if reacting:
                before = self.state.hands
                for seat in (target, second):
                    if seat is None or reacting.isdisjoint(before[seat]):
                        continue
                    for kept in before[seat]:
                        reaction = rules[kept].when_holder_chosen
                        if (
                            kept in reacting
                            and reaction is not None
                            and reaction(self.state, command, seat) is not None
                        ):
                            if id(rules[kept]) != _ASSASSIN_RULES:
                                return None
                            answering = seat
                            break
                    if answering >= 0:
                        break
        events = self.events
        if events is not None:
            events.append(_card_played(player, card, target, command.guess, second))
        self.required = None  # a Sycophant's requirement binds one card (ruling 34)
        self.take(player, card)
        hands = self.hands
        if answering >= 0:
            # The Assassin answers the Guard: he is shown, the Guard's player
            # is out, and he is discarded for a new card (rulings 33 and 39).
            if events is not None:
                events.append(CardRevealed(answering, _ASSASSIN))
            ended = self.knock_out(player, EliminationReason.ASSASSIN, hands[player])
            if ended is None:
                ended = self.discard_and_draw(answering, (_ASSASSIN,))
            return self.finish() if ended is None else ended
        ended = None
        if target is None or effect is _NOTHING:
            if effect is _HANDMAID:
                self.protected = self.protected | {player}
                if events is not None:
                    events.append(_player_protected(player))
            elif effect is _PRINCESS:
                ended = self.knock_out(player, _PRINCESS_DISCARDED, hands[player])
            elif effect is _CHANCELLOR_DRAW:
                drawn = self.deck[:2]
                if drawn:
                    if events is not None:
                        events.append(ChancellorDrew(player, len(drawn), drawn))
                    self.deck = self.deck[len(drawn) :]
                    hands[player] += drawn
                    self.decision = _CHANCELLOR
                    return self.state_after()
        elif effect is _GUARD:
            theirs_held = hands[target]
            guess = command.guess
            if ruleset.names_numbers:
                values = ruleset.values
                hit = any(values[c] == guess for c in theirs_held)
            else:
                hit = guess in theirs_held
            if hit:
                ended = self.knock_out(target, _GUARD_GUESS, theirs_held)
        elif effect is _PRIEST_LOOK:
            self.see(player, target, _PRIEST)
        elif effect is _BARON_COMPARE or effect is _DOWAGER_COMPARE:
            via = _BARON if effect is _BARON_COMPARE else _DOWAGER_QUEEN
            mine = hands[player][0]
            theirs = hands[target][0]
            turn = self.turn_number
            self.sightings = (
                *self.sightings,
                _sighting(player, target, theirs, turn, via),
                _sighting(target, player, mine, turn, via),
            )
            if events is not None:
                events.append(_hands_compared(player, target, mine, theirs, via))
            values = ruleset.values
            if values[mine] != values[theirs]:
                lower_loses = effect is _BARON_COMPARE
                if lower_loses:
                    reason = EliminationReason.BARON_COMPARISON
                else:
                    reason = EliminationReason.DOWAGER_COMPARISON
                if (values[mine] < values[theirs]) is lower_loses:
                    ended = self.knock_out(player, reason, (mine,))
                else:
                    ended = self.knock_out(target, reason, (theirs,))
        elif effect is _PRINCE:
            ended = self.discard_and_draw(target, hands[target])
        elif effect is _KING_TRADE:
            self.trade(player, target, _KING)
        elif effect is _BISHOP:
            values = ruleset.values
            if any(values[c] == command.guess for c in hands[target]):
                # a token at once, which may win the game (ruling 30); then
                # the target may discard and redraw (ruling 27)
                self.award(player, TokenReason.BISHOP)
                if self.award_step([player]):
                    return self.state_after()
                if events is not None:
                    events.append(RedrawOffered(target))
                self.decision = _REDRAW
                self.pending = (target,)
                return self.state_after()
        elif effect is _SYCOPHANT:
            self.required = target
            if events is not None:
                events.append(ChoiceRestricted(player, target))
        elif effect is _BARONESS_LOOK:
            self.see(player, target, _BARONESS)
            if second is not None:
                self.see(player, second, _BARONESS)
        elif effect is _CARDINAL_SWAP or effect is _CARDINAL_ONLINE:
            if second is not None:
                self.trade(target, second, _CARDINAL)
                if effect is _CARDINAL_ONLINE:
                    self.see(player, target, _CARDINAL)
                else:
                    if events is not None:
                        events.append(LookOffered(player, (target, second)))
                    self.decision = _LOOK
                    self.pending = (target, second)
                    return self.state_after()
        elif effect is _JESTER:
            self.marks = (*self.marks, (player, target))
            if events is not None:
                events.append(PlayerMarked(player, target))
        else:  # pragma: no cover - every code of _EFFECTS is handled above
            raise AssertionError(effect)
        return self.finish() if ended is None else ended

    def answer(self, command: Command) -> GameState | None:
        """The state after ``command``, a legal answer to the choice pending;
        ``None`` for the reference."""
        state = self.state
        top = state.discards[state.current][-1]
        answer = self.table.ruleset.rules[top].answer
        if id(answer) not in _ANSWERS:
            return None
        events = self.events
        kind = type(command)
        self.decision = _PLAY  # the choice is answered: the turn can end
        self.pending = ()
        if kind is KeepCard:
            assert isinstance(command, KeepCard)
            player = command.player
            bottom = command.bottom
            hand = self.hands[player]
            for card in bottom:
                index = hand.index(card)
                hand = hand[:index] + hand[index + 1 :]
            self.hands[player] = hand
            self.deck = self.deck + bottom
            self.returns = (*self.returns, (player, len(bottom)))
            if events is not None:
                events.append(CardsReturned(player, len(bottom), bottom))
        elif kind is LookAtHand:
            assert isinstance(command, LookAtHand)
            self.see(command.player, command.owner, _CARDINAL)
        elif kind is Decline:
            assert isinstance(command, Decline)
            if events is not None:
                events.append(OptionDeclined(command.player))
        elif kind is Redraw:
            assert isinstance(command, Redraw)
            player = command.player
            ended = self.discard_and_draw(player, self.hands[player])
            if ended is not None:
                return ended
        else:
            return None
        return self.finish()


def _showdown_winners(
    ruleset: Ruleset,
    revealed: tuple[tuple[int, Card], ...],
    discards: tuple[tuple[Card, ...], ...],
) -> tuple[int, ...]:
    """The showdown's winners (:func:`loveletter.consequences.showdown`):
    the highest hand numbers, discard totals breaking ties where the
    edition says so. A card that loses to another whatever the numbers
    (the Bishop to the Princess) leaves it to the reference."""
    rules = ruleset.rules
    for _, card in revealed:
        if rules[card].loses_showdown_to:
            return showdown(ruleset, revealed, discards)
    values = ruleset.values
    bonus = ruleset.showdown_bonus
    by_total = ruleset.round_tie is RoundTie.DISCARD_TOTAL
    best = (-1, -1)
    winners: list[int] = []
    for seat, card in revealed:
        pile = discards[seat]
        number = values[card]
        total = 0
        for discarded in pile:
            number += bonus[discarded]
            if by_total:
                total += values[discarded]
        key = (number, total)
        if key > best:
            best = key
            winners = [seat]
        elif key == best:
            winners.append(seat)
    return tuple(winners)


#: the Princess's reaction to being discarded: she knocks her player out
_PRINCESS_KNOCKED_OUT = princess.RULES.when_discarded


def _played(state: GameState, command: PlayCard, events: list[Event] | None) -> GameState | None:
    if not _legal_play(state, command):
        check_play(state, command)
    return _Turn(state, events).play(command)


def _answered(state: GameState, command: Command, events: list[Event] | None) -> GameState | None:
    if not _listed_answer(state, command):
        return None  # the reference checks it
    return _Turn(state, events).answer(command)


# --------------------------------------------------------------------------
# the deal


def deal(
    state: GameState,
    round_number: int,
    first_player: int,
    deck: tuple[Card, ...],
    order: tuple[int, ...] | None = None,
) -> GameState:
    """The state after dealing ``deck`` (top first) for a new round: what
    ``deal_events`` followed by ``evolve`` gives. ``order`` is the round's
    drawn turn order where the edition draws one (online)."""
    table = state.table
    n = table.players
    ruleset = table.ruleset
    faces = ruleset.face_up_count(n)
    aside = 1 if ruleset.sets_aside else 0
    position = aside + faces
    if order is None:
        order = tuple((first_player + offset) % n for offset in range(n))
        kept: tuple[int, ...] = ()
        out = _EMPTY
    else:
        kept = order
        out = frozenset(range(n)) - frozenset(order)
    dealt: list[tuple[Card, ...]] = [()] * n
    for seat in order:
        dealt[seat] = (deck[position],)
        position += 1
    dealt[first_player] = (*dealt[first_player], deck[position])
    return build_state(
        _table(
            ruleset,
            n,
            table.seed,
            table.tokens,
            round_number,
            deck[0] if aside else None,
            deck[aside : aside + faces],
            None,
            table.winners,
            table.contenders,
            table.settings,
            kept,
            table.left,
        ),
        _PLAY,
        first_player,
        1,
        deck[position + 1 :],
        tuple(dealt),
        ((),) * n,
        out,
        _EMPTY,
        (),
        (),
        None,
        (),
        (),
        (),
    )


def _dealt(state: GameState, command: StartRound, events: list[Event] | None) -> GameState | None:
    if state.table.contenders:
        return None  # a tie-break round deals only the tied players: the reference
    first, deck, order = next_deal(state, command)
    round_number = state.round_number + 1
    if events is not None:
        table = state.table
        events += deal_events(table.ruleset, table.players, round_number, first, deck, None, order)
    return deal(state, round_number, first, deck, order)


# --------------------------------------------------------------------------
# the verbs


def push(state: GameState, command: Command) -> GameState | None:
    """The state after ``command`` when this path covers it, else ``None``.
    A play not listed by :func:`legal_commands` is checked first:
    :class:`~loveletter.errors.IllegalCommand` as the reference raises it."""
    kind = type(command)
    if kind is PlayCard:
        assert isinstance(command, PlayCard)
        return _played(state, command, None)
    if kind is StartRound:
        assert isinstance(command, StartRound)
        return _dealt(state, command, None)
    if kind is KeepCard or kind is LookAtHand or kind is Decline or kind is Redraw:
        return _answered(state, command, None)
    return None


def step(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]] | None:
    """The state after ``command`` and the events that lead to it, when this
    path covers it, else ``None`` (as :func:`push`)."""
    events: list[Event] = []
    kind = type(command)
    if kind is PlayCard:
        assert isinstance(command, PlayCard)
        after = _played(state, command, events)
    elif kind is StartRound:
        assert isinstance(command, StartRound)
        after = _dealt(state, command, events)
    elif kind is KeepCard or kind is LookAtHand or kind is Decline or kind is Redraw:
        after = _answered(state, command, events)
    else:
        return None
    if after is None:
        return None
    return after, tuple(events)
