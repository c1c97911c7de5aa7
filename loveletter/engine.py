"""Deciding: ``decide(state, command) -> events``, and the public verbs
built on it (``push``, ``step``, ``replay``, ``legal_commands``).

``decide`` validates a command against the rules, asks the card's effect
function for the effect's events, and adds what the rules make happen next
without anyone choosing: the next player's turn and draw, or the end of the
round, its tokens and the end of the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, permutations
from typing import NoReturn

from loveletter.cards import Card
from loveletter.cards._common import card_drawn, card_played, player_eliminated
from loveletter.cards.base import Choice, RoundEnd
from loveletter.chance import chance_number, choose, fresh_seed, is_seed, shuffled
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
    TimeOut,
)
from loveletter.errors import (
    EventMismatch,
    IllegalCommand,
    LoveLetterError,
    RejectionKind,
    SetupError,
)
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardSetAside,
    CardsReturned,
    EliminationReason,
    Event,
    GameEnded,
    GameStarted,
    GameTied,
    HandSeen,
    OptionDeclined,
    PlayerEliminated,
    PlayerLeft,
    PositionEstablished,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
    TurnTimedOut,
)
from loveletter.evolution import _APPLIERS, _Draft, apply_to_draft, freeze, initial_state, thaw
from loveletter.interning import LIMIT, interned
from loveletter.ranking import round_ranks
from loveletter.rules import implements
from loveletter.rulesets import GameTie, Ruleset, Scoring, get_ruleset
from loveletter.shortcut import deal_shortcut, play_shortcut
from loveletter.showdown import judge
from loveletter.state import PLAYER_DECISIONS, Decision, GameState, TableSettings, next_player
from loveletter.validation import check_table_settings

R = RejectionKind
turn_started = interned(TurnStarted)
turn_timed_out = interned(TurnTimedOut)
player_left = interned(PlayerLeft)
card_set_aside = interned(CardSetAside)
card_removed_face_up = interned(CardRemovedFaceUp)
card_dealt = interned(CardDealt)
token_awarded = interned(TokenAwarded)

_PLAY = Decision.PLAY
_NONE = Choice.NONE
_OTHER = Choice.OTHER
_ANY = Choice.ANY
_PAIR = Choice.PAIR
_ONE_OR_TWO = Choice.ONE_OR_TWO_OTHERS
_TWO_OTHERS = Choice.TWO_OTHERS
_ORDERED_PAIR = Choice.ORDERED_PAIR
#: choices that name two players
_TWO = frozenset({_PAIR, _TWO_OTHERS, _ORDERED_PAIR})
#: choices that never include the card's own player
_OTHERS_ONLY = frozenset({_OTHER, _ONE_OR_TWO, _TWO_OTHERS})
_ONE_PLAYER_LEFT = RoundEndReason.ONE_PLAYER_LEFT
_DECK_EMPTY = RoundEndReason.DECK_EMPTY
_ROUND_WIN = TokenReason.ROUND_WIN


# --------------------------------------------------------------------------
# starting a game


@implements(
    "setup.player-count",
    "setup.first-player",
    "setup.set-aside-face-down",
    "setup.two-player-face-up",
    "setup.deal-one-each",
    "setup.no-set-aside-online",
)
def deal_events(
    ruleset: Ruleset,
    players: int,
    round_number: int,
    first_player: int,
    deck: Sequence[Card],
    seats: tuple[int, ...] | None = None,
    order: tuple[int, ...] | None = None,
) -> tuple[Event, ...]:
    """The events that deal a round from ``deck`` (top first): set one card
    aside, three face up with two players, one to each player starting with
    the first player, then the first player's turn and draw (ruling 3).
    ``seats`` deals in only those players (a tie-break round, ruling 31).
    Where the edition draws a turn order (online), ``order`` is it: no card
    is set aside or put face up, and the cards go round in that order
    (rulings 42 and 43)."""
    deck = tuple(deck)
    events: list[Event] = [RoundStarted(round_number, first_player, deck, seats, order)]
    position = 0
    if ruleset.sets_aside:
        events.append(card_set_aside(deck[0]))
        position = 1
    for _ in range(ruleset.face_up_count(players)):
        events.append(card_removed_face_up(deck[position]))
        position += 1
    if order is None:
        order = tuple((first_player + offset) % players for offset in range(players))
        if seats is not None:
            order = tuple(seat for seat in order if seat in seats)
    for seat in order:
        events.append(card_dealt(seat, deck[position]))
        position += 1
    events.append(turn_started(first_player))
    events.append(card_drawn(first_player, deck[position], False))
    return tuple(events)


def start_game(
    ruleset: str | Ruleset,
    players: int,
    *,
    seed: int | None = None,
    first_player: int | None = None,
    deck: Sequence[Card] | None = None,
    order: Sequence[int] | None = None,
    settings: TableSettings | None = None,
) -> tuple[Event, ...]:
    """The opening events of a game: ``GameStarted`` and the first deal.

    The deck is shuffled from ``seed`` unless ``deck`` (top first) stacks it.
    Without a seed the game takes a fresh 128-bit one from the operating
    system's secure source (:func:`loveletter.chance.fresh_seed`); either way
    the seed is recorded in ``GameStarted``, so replaying the events is exact.
    The seed decides every later deck: keep it secret until the game ends.
    ``first_player`` is the seat that starts the first round (ruling 1;
    seat 0 when not given).

    Online (rulings 41-43 and 52): ``settings`` are the table's
    (:class:`~loveletter.state.TableSettings`, its defaults when not
    given), and the first round's turn order is drawn from the seed, a
    given ``first_player`` swapped into first place, unless ``order``
    stacks it. Bad arguments raise :class:`~loveletter.errors.SetupError`
    naming the argument (a stacked deck that is not the ruleset's cards:
    :class:`IllegalCommand` ``invalid-deck``).
    """
    if seed is None:
        seed = fresh_seed()
    rules = _checked_setup(ruleset, players, seed, first_player, settings, order)
    if rules.online_table and settings is None:
        settings = TableSettings()
    decks = 1 if settings is None else settings.decks
    if deck is None:
        cards = shuffled(rules.deck_for(players, decks), seed, 1)
    else:
        if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
            raise IllegalCommand(R.INVALID_DECK, "the deck must be a sequence of cards")
        cards = tuple(deck)
        _check_deck(rules, players, cards, decks)
    drawn: tuple[int, ...] | None = None
    if rules.draws_order:
        if order is not None:
            drawn = tuple(order)
        else:
            drawn = _swapped_first(shuffled(range(players), seed, 1, "order"), first_player)
        first = drawn[0]
    else:
        first = 0 if first_player is None else first_player
    return (
        GameStarted(rules.name, players, seed, first, settings),
        *deal_events(rules, players, 1, first, cards, order=drawn),
    )


def _swapped_first(order: tuple[int, ...], first: int | None) -> tuple[int, ...]:
    """``order`` with ``first`` swapped into first place (ruling 43: a swap,
    not a rotation); unchanged when ``first`` is ``None``."""
    if first is None:
        return order
    seats = list(order)
    index = seats.index(first)
    seats[0], seats[index] = seats[index], seats[0]
    return tuple(seats)


def _checked_setup(
    ruleset: object,
    players: object,
    seed: object,
    first_player: object,
    settings: object = None,
    order: object = None,
) -> Ruleset:
    """The ruleset, once every argument of a game's start is known good."""
    if isinstance(ruleset, Ruleset):
        rules = ruleset
    elif not isinstance(ruleset, str):
        raise SetupError("ruleset", f"a ruleset name or Ruleset, not {_short(ruleset)}")
    else:
        try:
            rules = get_ruleset(ruleset)
        except ValueError as error:
            raise SetupError("ruleset", str(error)) from None
    if type(players) is not int or not rules.supports(players):
        raise SetupError(
            "players",
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players,"
            f" not {_short(players)}",
        )
    if not is_seed(seed):
        raise SetupError("seed", f"a seed is an integer from 0 to 2**256 - 1, not {_short(seed)}")
    if first_player is not None and (
        type(first_player) is not int or not 0 <= first_player < players
    ):
        raise SetupError(
            "first_player", f"must be a seat from 0 to {players - 1}, not {_short(first_player)}"
        )
    check_settings(rules, settings)
    if order is not None:
        if not rules.draws_order:
            raise SetupError("order", f"{rules.name} plays in seat order: no order to give")
        seats = tuple(order) if isinstance(order, list | tuple) else None
        if (
            seats is None
            or sorted(seats) != list(range(players))
            or not all(type(s) is int for s in seats)
        ):
            raise SetupError(
                "order", f"must list every seat from 0 to {players - 1} once, not {_short(order)}"
            )
        if first_player is not None and seats[0] != first_player:
            raise SetupError("first_player", f"the order starts with player {seats[0]}")
    return rules


def check_settings(ruleset: Ruleset, settings: object) -> None:
    """Raise :class:`SetupError` unless ``settings`` suit ``ruleset``: none
    for an edition without table settings, otherwise a
    :class:`~loveletter.state.TableSettings` within its ranges (ruling 52);
    ``None`` stands for an online table's defaults."""
    if settings is not None or not ruleset.online_table:
        check_table_settings(ruleset, settings, SetupError)


def _short(value: object) -> str:
    """``repr(value)``, cut short: messages never grow with hostile input."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def new_game(
    ruleset: str | Ruleset,
    players: int,
    *,
    seed: int | None = None,
    first_player: int | None = None,
    deck: Sequence[Card] | None = None,
    order: Sequence[int] | None = None,
    settings: TableSettings | None = None,
) -> GameState:
    """A new game, its first round dealt and the first player to play.

    Without ``seed`` the deal is secret and different every time (a fresh
    128-bit seed, recorded in ``state.seed``); pass one to reproduce a game.
    To keep the game's events as well, use
    :meth:`loveletter.GameRecord.new` or :func:`start_game`.

    >>> state = new_game("2019-classic", 3, seed=42)
    >>> state.to_act, len(state.hand(0)), len(state.deck)
    (0, 2, 11)
    """
    opening = start_game(
        ruleset,
        players,
        seed=seed,
        first_player=first_player,
        deck=deck,
        order=order,
        settings=settings,
    )
    assert isinstance(opening[0], GameStarted)
    d = thaw(initial_state(opening[0]))
    apply_to_draft(d, opening[1:])  # made here by the rules: no need to check them again
    return freeze(d)


def _check_deck(ruleset: Ruleset, players: int, deck: tuple[Card, ...], decks: int = 1) -> None:
    if not all(isinstance(card, Card) for card in deck):
        raise IllegalCommand(R.INVALID_DECK, "the deck must list cards")
    expected = ruleset.deck_for(players, decks)
    if tuple(sorted(deck)) != expected:
        copies = "" if decks == 1 else f" ({decks} decks)"
        raise IllegalCommand(
            R.INVALID_DECK,
            f"the deck must hold exactly the {len(expected)} cards of {ruleset.name}"
            f" for {players} players{copies}",
        )


def replay(events: Iterable[Event]) -> GameState:
    """Rebuild a state from a complete (unredacted) event log, checking that
    the rules produce it.

    The log begins with ``GameStarted`` or ``PositionEstablished`` (whose
    position must be possible). Every later event belongs to the events of
    one command: the command is read from the first of them (a
    ``CardPlayed`` names its card, target and guess, a ``RoundStarted`` its
    deck, ...), :func:`decide` judges it against the state so far, and the
    log must hold exactly the events it gives, in order. So a forged log (a
    card dealt to seat -1, a round dealt 21 Princesses, a game of 10**9
    players, an effect that did not happen) raises
    :class:`~loveletter.errors.EventMismatch` whose ``index`` is the first
    event that no game could have, and a log cut in the middle of a
    command's events is refused too. The cost is one ``decide`` per
    command: about that of playing the game again.
    """
    return replay_commands(events)[0]


def replay_commands(events: Iterable[Event]) -> tuple[GameState, tuple[Command, ...]]:
    """:func:`replay`, also giving the commands the log implies, in order
    (a round's deal as ``StartRound`` with its deck and first player)."""
    if isinstance(events, str | bytes) or not isinstance(events, Iterable):
        raise EventMismatch("an event log is a sequence of events")
    log = tuple(events)
    commands: list[Command] = []
    if not log:
        raise EventMismatch("an event log starts with GameStarted or PositionEstablished", 0)
    state = _opening_state(log[0])
    index = 1
    while index < len(log):
        command = _implied_command(state, log, index)
        try:
            produced, after = _resolve(state, command)
        except IllegalCommand as error:
            raise EventMismatch(
                f"{type(log[index]).__name__} implies a command the rules refuse ({error})", index
            ) from None
        for offset, expected in enumerate(produced):
            at = index + offset
            if at >= len(log):
                raise EventMismatch(
                    f"the log ends inside a command's events: {type(expected).__name__}"
                    " and what follows are missing",
                    at,
                )
            if log[at] != expected:
                raise EventMismatch(
                    f"{_short(log[at])} is not what the rules make happen here: {_short(expected)}",
                    at,
                )
        state = after
        commands.append(command)
        index += len(produced)
    return state, tuple(commands)


def _opening_state(first: object) -> GameState:
    """The state the first event of a log creates, checked."""
    if isinstance(first, GameStarted):
        if first.seed is None:
            raise EventMismatch("a redacted GameStarted (no seed) cannot be replayed", 0)
        try:
            _checked_setup(
                first.ruleset, first.players, first.seed, first.first_player, first.settings
            )
        except SetupError as error:
            raise EventMismatch(f"GameStarted.{error.field}: {error.detail}", 0) from None
        return initial_state(first)
    if isinstance(first, PositionEstablished):
        from loveletter.positions import Position, from_position

        if not isinstance(first.position, Position):
            raise EventMismatch("a redacted PositionEstablished cannot be replayed", 0)
        try:
            return from_position(first.position)
        except LoveLetterError as error:
            raise EventMismatch(f"PositionEstablished.position: {error}", 0) from None
    raise EventMismatch(
        f"an event log starts with GameStarted or PositionEstablished, not {_short(first)}", 0
    )


def _implied_command(state: GameState, log: tuple[Event, ...], index: int) -> Command:
    """The command whose events begin at ``log[index]``."""
    event = log[index]
    kind = type(event)
    decision = state.decision
    if kind is CardPlayed:
        assert isinstance(event, CardPlayed)
        return PlayCard(event.player, event.card, event.target, event.guess, event.second_target)
    if kind is RoundStarted and decision is Decision.NEXT_ROUND:
        assert isinstance(event, RoundStarted)
        if event.deck is None:
            raise EventMismatch("a redacted RoundStarted (no deck) cannot be replayed", index)
        return StartRound(event.deck, event.first_player, event.order)
    if kind is CardsReturned and decision is Decision.CHANCELLOR:
        assert isinstance(event, CardsReturned)
        if not isinstance(event.cards, tuple):
            raise EventMismatch("a redacted CardsReturned cannot be replayed", index)
        kept = list(state.hands[state.current])
        for card in event.cards:
            if card not in kept:
                raise EventMismatch(f"player {state.current} does not hold {_short(card)}", index)
            kept.remove(card)
        if len(kept) != 1:
            raise EventMismatch("a Chancellor keeps exactly one card", index)
        return KeepCard(event.player, kept[0], event.cards)
    if kind is HandSeen and decision is Decision.LOOK:
        assert isinstance(event, HandSeen)
        return LookAtHand(event.viewer, event.owner)
    if kind is OptionDeclined:
        assert isinstance(event, OptionDeclined)
        return Decline(event.player)
    if kind is CardDiscarded and decision is Decision.REDRAW:
        assert isinstance(event, CardDiscarded)
        return Redraw(event.player)
    if kind is CardDrawn and decision is Decision.DRAW:
        assert isinstance(event, CardDrawn)
        return DrawCard(event.player)
    if kind is PlayerLeft:
        assert isinstance(event, PlayerLeft)
        return Leave(event.player)
    if kind is TurnTimedOut:
        assert isinstance(event, TurnTimedOut)
        return TimeOut(event.player)
    raise EventMismatch(
        f"no command begins with {_short(event)} while the game waits for {decision.value!r}",
        index,
    )


# --------------------------------------------------------------------------
# deciding


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``.

    Raises :class:`IllegalCommand` (with a :class:`RejectionKind`) when the
    rules do not allow it; ``state`` is immutable and stays as it was.
    """
    try:
        return _resolve(state, command)[0]
    except IllegalCommand as error:
        raise error.naming(command) from None


def push(state: GameState, command: Command) -> GameState:
    """The state after ``command``: ``evolve`` folded over ``decide``.

    Most turns take a shortcut (:mod:`loveletter.shortcut`) that builds the
    same state without materializing the events; the two are kept equal by
    the property tests.

    A move written in the notation is read first with
    :func:`~loveletter.notation.parse_command`; text given here is refused
    (``malformed-command``) with a message that says so.
    """
    try:
        return _push(state, command)
    except IllegalCommand as error:
        raise error.naming(command) from None


def _push(state: GameState, command: Command) -> GameState:
    kind = type(command)
    if kind is StartRound:
        assert isinstance(command, StartRound)
        first, deck, order = _next_deal(state, command)
        if not state.table.contenders:
            return deal_shortcut(state, state.round_number + 1, first, deck, order)
    elif kind is PlayCard:
        assert isinstance(command, PlayCard)
        _check_play(state, command)
        after = play_shortcut(state, command)
        if type(after) is _Draft:  # the round ends: finish it through events
            _finish_turn(after)
            return freeze(after)
        if after is not None:
            assert isinstance(after, GameState)
            return after
        return _resolve(state, command, checked=True)[1]
    return _resolve(state, command)[1]


def step(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Both the next state and the events that lead to it."""
    try:
        events, after = _resolve(state, command)
    except IllegalCommand as error:
        raise error.naming(command) from None
    return after, events


_ANSWERS: dict[type[Command], frozenset[Decision]] = {
    KeepCard: frozenset({Decision.CHANCELLOR}),
    LookAtHand: frozenset({Decision.LOOK}),
    Redraw: frozenset({Decision.REDRAW}),
    Decline: frozenset({Decision.LOOK, Decision.REDRAW}),
}


_TEXT_IS_NOT_A_COMMAND = (
    "text is not a command: read it with loveletter.parse_command first"
    ' (the move notation, as in "P0 Guard on P2 naming Priest")'
)


def _resolve(
    state: GameState, command: Command, checked: bool = False
) -> tuple[tuple[Event, ...], GameState]:
    """The events of ``command`` and the state after them; ``checked`` says
    a ``PlayCard`` has already passed :func:`_check_play`."""
    kind = type(command)
    if kind is PlayCard:
        assert isinstance(command, PlayCard)
        if not checked:
            _check_play(state, command)
        events = _play(state, command)
    elif kind in _ANSWERS:
        events = _answer(state, command)
    elif kind is Leave:
        assert isinstance(command, Leave)
        return _leave(state, command)
    elif kind is TimeOut:
        assert isinstance(command, TimeOut)
        move = _timed_out(state, command)
        events, after = _resolve(state, move)
        return (turn_timed_out(command.player), *events), after
    elif kind is DrawCard or kind is StartRound:
        # Neither ends a turn: a draw starts the play, a deal starts a round.
        if kind is DrawCard:
            assert isinstance(command, DrawCard)
            events = _draw(state, command)
        else:
            assert isinstance(command, StartRound)
            events = _start_round(state, command)
        d = thaw(state)
        apply_to_draft(d, events)
        return events, freeze(d)
    elif isinstance(command, str):  # a move in the notation, not yet read
        raise IllegalCommand(R.MALFORMED_COMMAND, _TEXT_IS_NOT_A_COMMAND)
    else:
        raise IllegalCommand(R.MALFORMED_COMMAND, f"not a command: {command!r}")
    d = thaw(state)
    events = _settle(d, events)
    if d.decision is _PLAY:  # the turn is over unless a choice is now pending
        events += _finish_turn(d)
    return events, freeze(d)


def _expect(state: GameState, decisions: frozenset[Decision], player: int) -> None:
    if type(player) is not int:  # not even a bool or a float equal to a seat
        raise IllegalCommand(R.MALFORMED_COMMAND, f"player must be a seat, not {player!r}")
    if state.decision not in decisions:
        if state.decision is Decision.GAME_OVER:
            raise IllegalCommand(R.GAME_OVER, "the game is over")
        raise IllegalCommand(R.WRONG_DECISION, f"the game is waiting for {state.decision.value!r}")
    if player != state.to_act:
        raise IllegalCommand(
            R.NOT_YOUR_TURN, f"player {state.to_act} must act now, not player {player}"
        )


_PLAY_ONLY = frozenset({_PLAY})


def _online_only(state: GameState, command: Leave | TimeOut) -> int:
    """The command's seat, once the command is known to suit this game."""
    player = command.player
    if type(player) is not int:
        raise IllegalCommand(R.MALFORMED_COMMAND, f"player must be a seat, not {player!r}")
    if not state.table.ruleset.online_table:
        raise IllegalCommand(
            R.NOT_IN_EDITION,
            f"{state.table.ruleset.name} has no {type(command).__name__}: it is online only",
        )
    if state.decision is Decision.GAME_OVER:
        raise IllegalCommand(R.GAME_OVER, "the game is over")
    return player


@implements(
    "online.leave-any-time",
    "round.end-one-player-left",
    "game.no-end-online",
)
def _leave(state: GameState, command: Leave) -> tuple[tuple[Event, ...], GameState]:
    """A player leaves (ruling 50): out of the round, their hand discarded
    without effect; if they had to act the turn moves on; one player left
    ends the round; fewer than two present closes the match."""
    player = _online_only(state, command)
    table = state.table
    if not 0 <= player < table.players:
        raise IllegalCommand(R.NO_SUCH_PLAYER, f"there is no player {player}")
    if player in table.left:
        raise IllegalCommand(R.PLAYER_LEFT, f"player {player} has already left")
    in_round = state.decision in PLAYER_DECISIONS
    acting = in_round and (player == state.to_act or player == state.current)
    events: list[Event] = [player_left(player)]
    d = thaw(state)
    apply_to_draft(d, events)
    if in_round and player not in state.out:
        gone = player_eliminated(player, EliminationReason.LEFT, state.hands[player])
        events += _settle(d, (gone,))
    if d.decision in PLAYER_DECISIONS:
        if acting:
            events += _finish_turn(d)
    elif d.decision is Decision.NEXT_ROUND:
        events += _close_if_deserted(d)
    return tuple(events), freeze(d)


@implements("online.timeout-random-move")
def _timed_out(state: GameState, command: TimeOut) -> Command:
    """The random move a time-out makes (ruling 51), drawn from the seed:
    ``n = chance(seed, round, "timeout/<turn>/<decision>")``. At a play, a
    card first, uniformly among the distinct playable cards in card order
    (``n mod k``), then one of its legal commands uniformly (``(n div k)
    mod m``, in :func:`legal_commands` order); at any other decision one
    legal command (``n mod m``)."""
    player = _online_only(state, command)
    decision = state.decision
    if decision not in PLAYER_DECISIONS:
        raise IllegalCommand(
            R.WRONG_DECISION, f"no player must act while the game waits for {decision.value!r}"
        )
    if player != state.to_act:
        raise IllegalCommand(
            R.NOT_YOUR_TURN, f"player {state.to_act} must act now, not player {player}"
        )
    settings = state.table.settings
    if settings is not None and not settings.random_moves:
        raise IllegalCommand(R.RANDOM_MOVES_OFF, "this table makes no random moves: it waits")
    number = chance_number(
        state.seed, state.round_number, f"timeout/{state.turn_number}/{decision.value}"
    )
    if decision is _PLAY:
        cards = playable_cards(state)
        card = cards[number % len(cards)]
        moves = legal_commands(state, card)
        return moves[(number // len(cards)) % len(moves)]
    moves = legal_commands(state)
    return moves[number % len(moves)]


@implements(
    "turn.draw-then-play",
    "turn.played-cards-face-up",
    "targeting.other-player",
    "out.untargetable",
    "handmaid.protection-until-next-turn",
    "handmaid.all-protected-no-effect",
    "handmaid.all-protected-prince-self",
    "assassin.guard-player-knocked-out",
    "game.rules-enforced",
)
def _play(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The played card, then its effect, or the reaction of a card held by a
    chosen player (the Assassin answering a Guard) instead of the effect.
    ``command`` has passed :func:`_check_play`."""
    card = command.card
    played = card_played(command.player, card, command.target, command.guess, command.second_target)
    table = state.table
    rules = table.ruleset.rules
    reacting = table.ruleset.setup(table.players).reacting
    if reacting and command.target is not None:
        for seat in (command.target, command.second_target):
            if seat is None:
                continue
            for held in state.hands[seat]:
                if held in reacting:
                    reaction = rules[held].when_holder_chosen
                    assert reaction is not None
                    answer = reaction(state, command, seat)
                    if answer is not None:
                        return (played, *answer)
    return (played, *rules[card].effect(state, command))


def _check_play(state: GameState, command: PlayCard) -> None:
    """Raise :class:`IllegalCommand` unless the rules allow ``command`` now."""
    player = command.player
    card = command.card
    target = command.target
    second = command.second_target
    guess = command.guess
    # A field of the wrong type comes first, whatever else is wrong (the
    # suite's order of rejections): 1.0 and True equal seat 1 and must not pass.
    if (
        type(card) is not Card
        or (target is not None and type(target) is not int)
        or (second is not None and type(second) is not int)
        or (guess is not None and type(guess) is not Card and type(guess) is not int)
        or card not in state.table.ruleset.kinds
    ):
        _refuse_malformed_play(state, command)
    if state.decision is not _PLAY or player != state.current or type(player) is not int:
        _expect(state, _PLAY_ONLY, player)
    hand = state.hands[player]
    if card not in hand:
        raise IllegalCommand(R.CARD_NOT_IN_HAND, f"player {player} does not hold {card}")
    table = state.table
    ruleset = table.ruleset
    forbids = ruleset.forbids
    for held in hand:
        if card in forbids[held]:
            raise IllegalCommand(
                R.COUNTESS_REQUIRED, f"the {held} must be played instead of the {card}"
            )
    choice = ruleset.choices[card]
    if choice is _NONE:
        if target is not None or second is not None:
            raise IllegalCommand(R.TARGET_NOT_ALLOWED, f"the {card} does not choose a player")
    elif (target, second) not in _options(
        table.players, player, choice, state.out, state.protected, state.required
    ):
        _check_choice(state, player, card, choice, target, second)  # raises
    names = ruleset.setup(table.players).names[card]
    if names and target is not None:
        wanted = int if ruleset.names_numbers else Card
        if type(guess) is not wanted or guess not in names:
            if guess is None:
                raise IllegalCommand(R.GUESS_REQUIRED, f"the {card} must name something")
            raise IllegalCommand(
                R.GUESS_NOT_ALLOWED, f"the {card} cannot name {guess} in {ruleset.name}"
            )
    elif guess is not None:
        raise IllegalCommand(
            R.GUESS_NOT_ALLOWED, "only a Guard or a Bishop with a target names something"
        )


def _refuse_malformed_play(state: GameState, command: PlayCard) -> NoReturn:
    """Name the field of ``command`` that is of the wrong type."""
    if type(command.player) is not int:
        raise IllegalCommand(R.MALFORMED_COMMAND, f"player must be a seat, not {command.player!r}")
    card = command.card
    if type(card) is not Card:
        raise IllegalCommand(R.MALFORMED_COMMAND, f"card must be a Card, not {card!r}")
    if card not in state.table.ruleset.kinds:  # a name this edition does not know
        raise IllegalCommand(R.MALFORMED_COMMAND, f"{state.table.ruleset.name} has no {card} card")
    for seat in (command.target, command.second_target):
        if seat is not None and type(seat) is not int:
            raise IllegalCommand(R.MALFORMED_COMMAND, f"a target must be a seat, not {seat!r}")
    raise IllegalCommand(
        R.MALFORMED_COMMAND, f"a name must be a card or a number, not {command.guess!r}"
    )


@implements(
    "sycophant.next-card-must-choose",
    "targeting.choose-impossible-no-effect",
    "targeting.valid-choice-online",
)
def _check_choice(
    state: GameState,
    player: int,
    card: Card,
    choice: Choice,
    target: int | None,
    second: int | None,
) -> None:
    """Say why ``(target, second)`` is not among the card's options (seats
    of the wrong type were refused before, by :func:`_check_play`)."""
    if second is not None and (choice is _OTHER or choice is _ANY or target is None):
        raise IllegalCommand(R.TARGET_NOT_ALLOWED, f"the {card} chooses one player")
    for seat in (target, second):
        if seat is None:
            continue
        if not 0 <= seat < state.players:
            raise IllegalCommand(R.NO_SUCH_PLAYER, f"there is no player {seat}")
        if seat == player and choice in _OTHERS_ONLY:
            raise IllegalCommand(R.TARGET_NOT_ALLOWED, f"the {card} must choose another player")
        if seat in state.out:
            raise IllegalCommand(R.TARGET_OUT_OF_ROUND, f"player {seat} is out of the round")
        if seat in state.protected:
            raise IllegalCommand(R.TARGET_PROTECTED, f"player {seat} is protected by a Handmaid")
    if target is not None and second is not None:
        if choice is _TWO_OTHERS:
            if second < target:
                raise IllegalCommand(
                    R.TARGET_NOT_ALLOWED, "name the two players (or one twice), lower seat first"
                )
        elif choice is _ORDERED_PAIR:
            if second == target:
                raise IllegalCommand(R.TARGET_NOT_ALLOWED, "name two different players")
        elif second <= target:
            raise IllegalCommand(
                R.TARGET_NOT_ALLOWED, "name two different players, the lower seat as target"
            )
    # Whether the card could choose anyone is asked without the Sycophant's
    # requirement, which is checked last (ruling 55): a Cardinal short of two
    # choosable players is refused alike with or without one.
    if _options(state.players, player, choice, state.out, state.protected, None) == ((None, None),):
        raise IllegalCommand(R.TARGET_NOT_ALLOWED, f"the {card} has no player it may choose now")
    required = state.required
    if target is None:
        raise IllegalCommand(R.TARGET_REQUIRED, f"the {card} must choose a player")
    if choice in _TWO and second is None:
        raise IllegalCommand(R.TARGET_REQUIRED, f"the {card} must choose two players")
    if required is not None and required not in (target, second):
        raise IllegalCommand(
            R.REQUIRED_PLAYER_NOT_CHOSEN,
            f"a Sycophant requires this card to choose player {required}",
        )
    # A required player who cannot be chosen by this card leaves no option.
    raise IllegalCommand(R.TARGET_NOT_ALLOWED, f"the {card} has no player it may choose now")


@interned
@implements("targeting.valid-choice-online")
def _options(
    players: int,
    player: int,
    choice: Choice,
    out: frozenset[int],
    protected: frozenset[int],
    required: int | None,
) -> tuple[tuple[int | None, int | None], ...]:
    """Every ``(target, second_target)`` the card may choose, in order;
    ``((None, None),)`` when it can choose no one and has no effect."""
    others = [p for p in range(players) if p != player and p not in out and p not in protected]
    options: list[tuple[int | None, int | None]]
    if choice is _OTHER:
        options = [(p, None) for p in others]
    elif choice is _ANY:
        options = [(p, None) for p in sorted((*others, player))]
    elif choice is _PAIR:
        options = list(combinations(sorted((*others, player)), 2))
    elif choice is _ONE_OR_TWO:
        options = sorted(
            [(p, None) for p in others] + list(combinations(others, 2)),
            key=lambda pair: (pair[0], -1 if pair[1] is None else pair[1]),
        )
    elif choice is _TWO_OTHERS:
        options = [(a, b) for i, a in enumerate(others) for b in others[i:]]
    elif choice is _ORDERED_PAIR:
        options = list(permutations(sorted((*others, player)), 2))
    else:
        return ((None, None),)
    if required is not None:
        options = [pair for pair in options if required in pair]
    return tuple(options) or ((None, None),)


@implements("cardinal.optional-look", "bishop.target-may-redraw", "game.rules-enforced")
def _answer(state: GameState, command: Command) -> tuple[Event, ...]:
    """A pending choice is answered by the rules of the card that left it
    pending: the card its player just played, on top of their pile."""
    player = getattr(command, "player", None)
    if type(command) is KeepCard:
        _check_kept_cards(state, command)
    _expect(state, _ANSWERS[type(command)], player)  # type: ignore[arg-type]  # checked inside
    card = state.discards[state.current][-1]
    answer = state.table.ruleset.rules[card].answer
    assert answer is not None, f"the {card} leaves no choice pending"
    return answer(state, command)


def _check_kept_cards(state: GameState, command: KeepCard) -> None:
    """A ``KeepCard``'s cards, checked before anything else as a
    ``PlayCard``'s card is (ruling 54): cards of this ruleset, or the
    command is malformed whatever the game is waiting for."""
    keep, bottom = command.keep, command.bottom
    if type(keep) is not Card:
        raise IllegalCommand(R.MALFORMED_COMMAND, f"keep must be a card, not {keep!r}")
    if type(bottom) is not tuple or not all(type(card) is Card for card in bottom):
        raise IllegalCommand(R.MALFORMED_COMMAND, "bottom must be a sequence of cards")
    ruleset = state.table.ruleset
    for card in (keep, *bottom):
        if card not in ruleset.kinds:  # a name this edition does not know
            raise IllegalCommand(R.MALFORMED_COMMAND, f"{ruleset.name} has no {card} card")


def _draw(state: GameState, command: DrawCard) -> tuple[Event, ...]:
    _expect(state, _DRAW_ONLY, command.player)
    return (card_drawn(command.player, state.deck[0], False),)


_DRAW_ONLY = frozenset({Decision.DRAW})


def _start_round(state: GameState, command: StartRound) -> tuple[Event, ...]:
    first, deck, order = _next_deal(state, command)
    contenders = state.table.contenders
    return deal_events(
        state.table.ruleset,
        state.table.players,
        state.round_number + 1,
        first,
        deck,
        contenders or None,
        order,
    )


@implements(
    "round.next-first-player",
    "round.next-first-player-tie-random",
    "setup.shuffle",
    "game.tie-break-round",
    "setup.turn-order-online",
)
def _next_deal(
    state: GameState, command: StartRound
) -> tuple[int, tuple[Card, ...], tuple[int, ...] | None]:
    """The next round's first player, deck order (top first) and, where the
    edition draws one, turn order."""
    if state.decision is not Decision.NEXT_ROUND:
        if state.decision is Decision.GAME_OVER:
            raise IllegalCommand(R.GAME_OVER, "the game is over")
        raise IllegalCommand(R.WRONG_DECISION, "the round is still being played")
    round_number = state.round_number + 1
    table = state.table
    ruleset = table.ruleset
    previous = state.round_result.winners if state.round_result else (state.current,)
    contenders = table.contenders
    present: tuple[int, ...] = ()
    unsettled = False  # online: no previous rank-1 player is present
    if contenders:
        # Ruling 31: a tied player who won the last round starts the
        # tie-break; if none did, any tied player may.
        previous = tuple(p for p in previous if p in contenders) or contenders
    elif ruleset.draws_order:
        # Ruling 43: a previous rank-1 player still present, when there is one.
        present = state.present()
        previous = tuple(p for p in previous if p not in table.left)
        if not previous:
            previous, unsettled = present, True
    first = command.first_player
    if first is not None:
        if type(first) is not int:
            raise IllegalCommand(R.MALFORMED_COMMAND, f"first_player must be a seat, not {first!r}")
        if first not in previous:
            raise IllegalCommand(
                R.INVALID_CHOICE,
                f"the first player must be one of {list(previous)}",
            )
    order = _stacked_order(state, command.order, present, previous, first)
    if first is None:
        if order is not None:
            first = order[0]
        elif unsettled:
            first = None  # the shuffle alone decides
        else:
            first = (
                previous[0]
                if len(previous) == 1
                else choose(previous, state.seed, round_number, "first-player")
            )
    if ruleset.draws_order and order is None:
        order = _swapped_first(shuffled(present, state.seed, round_number, "order"), first)
    players = table.players
    decks = table.decks
    if command.deck is None:
        deck = shuffled(ruleset.deck_for(players, decks), state.seed, round_number)
    else:
        if not isinstance(command.deck, tuple):
            raise IllegalCommand(R.INVALID_DECK, "the deck must be a sequence of cards")
        deck = command.deck
        _check_deck(ruleset, players, deck, decks)
    if order is not None:
        return order[0], deck, order
    assert first is not None
    return first, deck, None


def _stacked_order(
    state: GameState,
    order: object,
    present: tuple[int, ...],
    candidates: tuple[int, ...],
    first: int | None,
) -> tuple[int, ...] | None:
    """A stacked turn order, checked (ruling 43): the players present, in
    any order whose first player may start the round."""
    if order is None:
        return None
    if not state.table.ruleset.draws_order:
        raise IllegalCommand(
            R.NOT_IN_EDITION, f"{state.table.ruleset.name} plays in seat order: no order to give"
        )
    if not isinstance(order, tuple) or not all(type(seat) is int for seat in order):
        raise IllegalCommand(R.MALFORMED_COMMAND, f"order must list seats, not {_short(order)}")
    if sorted(order) != list(present):
        raise IllegalCommand(
            R.INVALID_CHOICE, f"the order must list the players present once each: {list(present)}"
        )
    if order[0] not in candidates or (first is not None and order[0] != first):
        wanted = [first] if first is not None else list(candidates)
        raise IllegalCommand(R.INVALID_CHOICE, f"the order must start with one of {wanted}")
    return order


# --------------------------------------------------------------------------
# what the rules make happen without a choice


@implements(
    "round.end-one-player-left",
    "out.discard-hand",
    "constable.knocked-out-token",
    "game.immediate-win",
    "princess.knock-out-effects-apply",
)
def _settle(d: _Draft, events: tuple[Event, ...]) -> tuple[Event, ...]:
    """Apply a command's events to ``d`` with what they set off: a knock-out
    scores the cards in its player's pile that pay for it (the Constable);
    each token not caused by a round end is an award step of its own, which
    can win the game at once; a knock-out that leaves one player ends the
    round on the spot, and the rest of the effect does not happen (rulings
    29, 30 and 39)."""
    appliers = _APPLIERS
    table = d.table
    paying = table.ruleset.setup(table.players).knocked_out_tokens
    settled: list[Event] = []
    for event in events:
        kind = type(event)
        if kind is PlayerEliminated:
            assert isinstance(event, PlayerEliminated)
            pile = _pile_that_pays(d, event)
            appliers[kind](d, event)
            settled.append(event)
            gained: list[int] = []
            if _present(d, event.player):
                for card, reason in paying:
                    if card in pile:
                        settled.append(_award(d, event.player, reason))
                        gained.append(event.player)
            if d.table.players - len(d.out) < 2:
                return (*settled, *_end_round(d, _ONE_PLAYER_LEFT, gained))
            if gained and _award_step(d, gained, settled):
                return tuple(settled)
        elif kind is TokenAwarded:
            assert isinstance(event, TokenAwarded)
            appliers[kind](d, event)
            settled.append(event)
            if _award_step(d, [event.player], settled):
                return tuple(settled)
        else:
            appliers[kind](d, event)
            settled.append(event)
    return tuple(settled)


def _pile_that_pays(d: _Draft, knock_out: PlayerEliminated) -> tuple[Card, ...]:
    """The pile whose cards pay for a knock-out: as it was before the
    knock-out's own discard, so a Constable still in hand pays nothing
    (ruling 29)."""
    return d.discards[knock_out.player]


@implements("online.leave-any-time", "game.win-counter-online", "constable.partial-win-online")
def _present(d: _Draft, player: int) -> bool:
    """Whether ``player`` is still at the table: a player who has left the
    match gains nothing more, not even for the knock-out their leaving is
    (ruling 50)."""
    return player not in (d.edits or d.table).left


def _award(d: _Draft, player: int, reason: TokenReason) -> Event:
    tokens = (d.edits or d.table).tokens
    event = token_awarded(player, reason, tokens[player] + 1)
    _APPLIERS[TokenAwarded](d, event)
    return event


@implements(
    "game.tokens-to-win",
    "game.simultaneous-winners",
    "game.immediate-win",
    "game.tie-break-round",
    "game.tokens-to-win-premium",
)
def _award_step(d: _Draft, gained: list[int], events: list[Event]) -> bool:
    """After an award step: end the game, or call a tie-break round, and
    say whether the game ended. Outside a tie-break round, the players at
    the threshold win (several: shared or tied, per edition); in one, the
    tied players who just gained a token (ruling 31)."""
    table = d.edits or d.table
    ruleset = table.ruleset
    contenders = table.contenders
    if contenders:
        reached = tuple(sorted({p for p in gained if p in contenders}))
    else:
        needed = ruleset.setup(table.players).tokens_to_win
        if needed is None:  # online: a win counter ends nothing (ruling 44)
            return False
        reached = tuple(p for p, count in enumerate(table.tokens) if count >= needed)
    if not reached:
        return False
    outcome: Event
    if len(reached) == 1 or ruleset.game_tie is GameTie.SHARED_WIN:
        outcome = GameEnded(reached)
    else:
        outcome = GameTied(reached)
    _APPLIERS[type(outcome)](d, outcome)
    events.append(outcome)
    return type(outcome) is GameEnded


@implements(
    "turn.order",
    "out.turn-skipped",
    "round.end-deck-empty",
    "round.end-pile-online",
    "setup.turn-order-online",
)
def _finish_turn(d: _Draft) -> tuple[Event, ...]:
    """End the turn in ``d``: the next player in the round starts theirs and
    draws, or the round ends (online, with the pile's last card still in it:
    ruling 42). Returns the events it applied."""
    out = d.out
    table = d.table
    live = table.players - len(out)
    deck = d.deck
    if len(deck) > table.ruleset.round_end_pile and live > 1:
        player = next_player(table, out, d.current)
        events = (turn_started(player), card_drawn(player, deck[0], False))
        apply_to_draft(d, events)
        return events
    return _end_round(d, _ONE_PLAYER_LEFT if live == 1 else _DECK_EMPTY, [])


@implements(
    "round.highest-card-wins",
    "round.tie-all-win",
    "round.tie-discard-sum",
    "round.winner-token",
    "spy.sole-spy-token",
    "jester.mark-expected-winner",
    "game.tokens-to-win",
    "game.simultaneous-winners",
    "round.ranks-online",
    "game.win-counter-online",
    "jester.partial-win-online",
)
def _end_round(d: _Draft, reason: RoundEndReason, gained: list[int]) -> tuple[Event, ...]:
    """End the round in ``d``: the winners, their tokens, the cards'
    round-end tokens, as one award step with ``gained`` (the tokens of the
    knock-out that ended it). Returns the events it applied."""
    table = d.edits or d.table
    ruleset = table.ruleset
    n = table.players
    live = tuple(p for p in range(n) if p not in d.out)
    if reason is _ONE_PLAYER_LEFT:
        revealed: tuple[tuple[int, Card], ...] = ()
    else:
        hands = d.hands
        revealed = tuple((p, hands[p][0]) for p in live)
    ranks = None
    if ruleset.scoring is Scoring.RANKS:
        ranks = round_ranks(ruleset, n, revealed, live, d.exits, d.discards)
        winners = tuple(p for p in live if ranks[p] == 1)
    elif reason is _ONE_PLAYER_LEFT:
        winners = live
    else:
        winners = _showdown(ruleset, revealed, d.discards)
    ended = RoundEnded(reason, winners, revealed, ranks)
    events: list[Event] = [ended]
    end = RoundEnd(n, d.out, d.discards, d.marks, winners)
    _APPLIERS[RoundEnded](d, ended)
    gained = list(gained)
    for p in winners:
        events.append(_award(d, p, _ROUND_WIN))
        gained.append(p)
    for bonus in ruleset.setup(n).round_end_bonuses:
        for p in bonus.gainers(end):
            if _present(d, p):
                events.append(_award(d, p, bonus.reason))
                gained.append(p)
    _award_step(d, gained, events)
    events += _close_if_deserted(d)
    return tuple(events)


@implements("game.no-end-online")
def _close_if_deserted(d: _Draft) -> tuple[Event, ...]:
    """Online, between rounds: the match closes, with no winner, once fewer
    than two players are present (ruling 44); it never ends otherwise."""
    table = d.edits or d.table
    if (
        not table.ruleset.online_table
        or d.decision is not Decision.NEXT_ROUND
        or table.players - len(table.left) >= 2
    ):
        return ()
    closed = GameEnded(())
    _APPLIERS[GameEnded](d, closed)
    return (closed,)


@implements(
    "round.highest-card-wins",
    "round.tie-all-win",
    "round.tie-discard-sum",
    "count.showdown-bonus",
    "bishop.princess-beats-bishop",
)
def _showdown(
    ruleset: Ruleset, revealed: tuple[tuple[int, Card], ...], discards: tuple[tuple[Card, ...], ...]
) -> tuple[int, ...]:
    """The winners of an empty-deck round end (ruling 28), as
    :func:`loveletter.showdown.judge` finds them: the narrator tells its
    reasons from the same decision."""
    return judge(ruleset, revealed, discards).winners


# --------------------------------------------------------------------------
# legal commands


def playable_cards(state: GameState) -> tuple[Card, ...]:
    """The distinct cards the player to act may play, in card order (empty
    unless a card must be played)."""
    if state.decision is not _PLAY:
        return ()
    return _playable(state.table.ruleset, state.hands[state.current])


@interned
def _playable(ruleset: Ruleset, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    forbids = ruleset.forbids
    forbidden = frozenset().union(*(forbids[card] for card in hand))
    return tuple(card for card in sorted(set(hand)) if card not in forbidden)


_LEGAL_PLAYS: dict[tuple[object, ...], tuple[Command, ...]] = {}


def legal_commands(state: GameState, card: Card | None = None) -> tuple[Command, ...]:
    """Every command the rules allow now, in a fixed order.

    Order: by card (``Card`` order), then target seat (``None`` first), then
    second target (``None`` first), then the named card or number; for a
    Chancellor, by kept card then returned order; for a Cardinal's look, by
    seat then ``Decline``; for a Bishop's target, ``Redraw`` then
    ``Decline``; between rounds the single ``StartRound()`` (a stacked deck
    or a chosen tied first player is accepted too). With ``card``, only the
    commands that play that card.
    """
    decision = state.decision
    if decision is _PLAY:
        player = state.current
        table = state.table
        hand = state.hands[player]
        required = state.required
        key = (
            table.ruleset,
            table.players,
            player,
            hand,
            state.out,
            state.protected,
            required,
            card,
        )
        try:
            return _LEGAL_PLAYS[key]
        except KeyError:
            pass
        ruleset = table.ruleset
        cards = _playable(ruleset, hand)
        if card is not None:
            cards = (card,) if card in cards else ()
        commands: tuple[Command, ...] = ()
        for c in cards:
            options = _options(
                table.players, player, ruleset.choices[c], state.out, state.protected, required
            )
            commands += _play_commands(ruleset, table.players, player, c, options)
        if len(_LEGAL_PLAYS) >= LIMIT:
            _LEGAL_PLAYS.clear()
        _LEGAL_PLAYS[key] = commands
        return commands
    if card is not None:
        return ()
    if decision is Decision.CHANCELLOR:
        return _keep_commands(state.current, tuple(sorted(state.hands[state.current])))
    if decision is Decision.LOOK:
        current = state.current
        return (*(LookAtHand(current, owner) for owner in state.pending), Decline(current))
    if decision is Decision.REDRAW:
        return (Redraw(state.pending[0]), Decline(state.pending[0]))
    if decision is Decision.DRAW:
        return (DrawCard(state.current),)
    if decision is Decision.NEXT_ROUND:
        return (StartRound(),)
    return ()


@interned
def _play_commands(
    ruleset: Ruleset,
    players: int,
    player: int,
    card: Card,
    options: tuple[tuple[int | None, int | None], ...],
) -> tuple[PlayCard, ...]:
    names = ruleset.setup(players).names[card]
    commands: list[PlayCard] = []
    for target, second in options:
        if target is None:
            commands.append(PlayCard(player, card))
        elif names:
            commands.extend(PlayCard(player, card, target, name, second) for name in names)
        else:
            commands.append(PlayCard(player, card, target, None, second))
    return tuple(commands)


@interned
def _keep_commands(player: int, hand: tuple[Card, ...]) -> tuple[KeepCard, ...]:
    commands: list[KeepCard] = []
    for keep in sorted(set(hand)):
        rest = list(hand)
        rest.remove(keep)
        for order in sorted(set(permutations(rest))):
            commands.append(KeepCard(player, keep, order))
    return tuple(commands)
