"""Deciding: ``decide(state, command) -> events``.

:func:`decide` judges a command against the rules and gives the events it
causes: a played card's effect, asked of the card's own module (or the
reaction of a card held by a chosen player, the Assassin answering a
Guard), the answer to a choice a card left pending, a draw, a deal, a
player leaving or timing out online; then what those events set off
without anyone choosing (:mod:`loveletter.consequences`): tokens, the next
player's turn and draw, or the end of the round and of the game. A command
the rules do not allow raises :class:`~loveletter.errors.IllegalCommand`
with a :class:`~loveletter.errors.RejectionKind`; the state, immutable,
stays as it was.
"""

from __future__ import annotations

from typing import NoReturn

from loveletter.cards.base import Choice
from loveletter.chance import chance_number
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
from loveletter.consequences import close_if_deserted, finish_turn, settle
from loveletter.dealing import deal_next_round
from loveletter.errors import IllegalCommand, RejectionKind
from loveletter.events import (
    CardDrawn,
    CardPlayed,
    EliminationReason,
    Event,
    PlayerEliminated,
    PlayerLeft,
    TurnTimedOut,
)
from loveletter.evolution import apply_unchecked
from loveletter.kinds import Card
from loveletter.legal import legal_commands, playable_cards
from loveletter.notation import move_text
from loveletter.rules import implements
from loveletter.state import PLAYER_DECISIONS, Decision, GameState
from loveletter.targeting import options, refuse_choice


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``.

    Raises :class:`IllegalCommand` (with a :class:`RejectionKind`) when the
    rules do not allow it; ``state`` is immutable and stays as it was.
    """
    try:
        return resolve(state, command)[0]
    except IllegalCommand as error:
        raise error.naming(move_text(command)) from None


ANSWERS: dict[type[Command], frozenset[Decision]] = {
    KeepCard: frozenset({Decision.CHANCELLOR}),
    LookAtHand: frozenset({Decision.LOOK}),
    Redraw: frozenset({Decision.REDRAW}),
    Decline: frozenset({Decision.LOOK, Decision.REDRAW}),
}


_TEXT_IS_NOT_A_COMMAND = (
    "text is not a command: read it with loveletter.parse_command first"
    ' (the move notation, as in "P0 Guard on P2 naming Priest")'
)


def resolve(state: GameState, command: Command) -> tuple[tuple[Event, ...], GameState]:
    """The events of ``command`` and the state after them (what
    :func:`decide` and :func:`loveletter.step` give), or
    :class:`IllegalCommand` without naming the command."""
    kind = type(command)
    if kind is PlayCard:
        assert isinstance(command, PlayCard)
        check_play(state, command)
        events = play(state, command)
    elif kind in ANSWERS:
        events = answer(state, command)
    elif kind is Leave:
        assert isinstance(command, Leave)
        return leave(state, command)
    elif kind is TimeOut:
        assert isinstance(command, TimeOut)
        move = timed_out(state, command)
        events, after = resolve(state, move)
        return (TurnTimedOut(command.player), *events), after
    elif kind is DrawCard or kind is StartRound:
        # Neither ends a turn: a draw starts the play, a deal starts a round.
        if kind is DrawCard:
            assert isinstance(command, DrawCard)
            events = draw(state, command)
        else:
            assert isinstance(command, StartRound)
            events = deal_next_round(state, command)
        return events, apply_unchecked(state, events)
    elif isinstance(command, str):  # a move in the notation, not yet read
        raise IllegalCommand(RejectionKind.MALFORMED_COMMAND, _TEXT_IS_NOT_A_COMMAND)
    else:
        raise IllegalCommand(RejectionKind.MALFORMED_COMMAND, f"not a command: {command!r}")
    events, after = settle(state, events)
    if after.decision is Decision.PLAY:  # the turn is over unless a choice is now pending
        ended, after = finish_turn(after)
        events += ended
    return events, after


def expect(state: GameState, decisions: frozenset[Decision], player: int) -> None:
    """Refuse a command unless the game waits for one of ``decisions``
    from ``player``."""
    if type(player) is not int:  # not even a bool or a float equal to a seat
        raise IllegalCommand(
            RejectionKind.MALFORMED_COMMAND, f"player must be a seat, not {player!r}"
        )
    if state.decision not in decisions:
        if state.decision is Decision.GAME_OVER:
            raise IllegalCommand(RejectionKind.GAME_OVER, "the game is over")
        raise IllegalCommand(
            RejectionKind.WRONG_DECISION, f"the game is waiting for {state.decision.value!r}"
        )
    if player != state.to_act:
        raise IllegalCommand(
            RejectionKind.NOT_YOUR_TURN, f"player {state.to_act} must act now, not player {player}"
        )


_PLAY_ONLY = frozenset({Decision.PLAY})


def _online_only(state: GameState, command: Leave | TimeOut) -> int:
    """The command's seat, once the command is known to suit this game."""
    player = command.player
    if type(player) is not int:
        raise IllegalCommand(
            RejectionKind.MALFORMED_COMMAND, f"player must be a seat, not {player!r}"
        )
    if not state.table.ruleset.online_table:
        raise IllegalCommand(
            RejectionKind.NOT_IN_EDITION,
            f"{state.table.ruleset.name} has no {type(command).__name__}: it is online only",
        )
    if state.decision is Decision.GAME_OVER:
        raise IllegalCommand(RejectionKind.GAME_OVER, "the game is over")
    return player


@implements(
    "online.leave-any-time",
    "round.end-one-player-left",
    "game.no-end-online",
)
def leave(state: GameState, command: Leave) -> tuple[tuple[Event, ...], GameState]:
    """A player leaves (ruling 50): out of the round, their hand discarded
    without effect; if they had to act the turn moves on; one player left
    ends the round; fewer than two present closes the match."""
    player = _online_only(state, command)
    table = state.table
    if not 0 <= player < table.players:
        raise IllegalCommand(RejectionKind.NO_SUCH_PLAYER, f"there is no player {player}")
    if player in table.left:
        raise IllegalCommand(RejectionKind.PLAYER_LEFT, f"player {player} has already left")
    in_round = state.decision in PLAYER_DECISIONS
    acting = in_round and (player == state.to_act or player == state.current)
    events: tuple[Event, ...] = (PlayerLeft(player),)
    after = apply_unchecked(state, events)
    if in_round and player not in state.out:
        gone = PlayerEliminated(player, EliminationReason.LEFT, state.hands[player])
        settled, after = settle(after, (gone,))
        events += settled
    if after.decision in PLAYER_DECISIONS:
        if acting:
            ended, after = finish_turn(after)
            events += ended
    elif after.decision is Decision.NEXT_ROUND:
        closed, after = close_if_deserted(after)
        events += closed
    return events, after


@implements("online.timeout-random-move")
def timed_out(state: GameState, command: TimeOut) -> Command:
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
            RejectionKind.WRONG_DECISION,
            f"no player must act while the game waits for {decision.value!r}",
        )
    if player != state.to_act:
        raise IllegalCommand(
            RejectionKind.NOT_YOUR_TURN, f"player {state.to_act} must act now, not player {player}"
        )
    settings = state.table.settings
    if settings is not None and not settings.random_moves:
        raise IllegalCommand(
            RejectionKind.RANDOM_MOVES_OFF, "this table makes no random moves: it waits"
        )
    number = chance_number(
        state.seed, state.round_number, f"timeout/{state.turn_number}/{decision.value}"
    )
    if decision is Decision.PLAY:
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
def play(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The played card, then its effect, or the reaction of a card held by a
    chosen player (the Assassin answering a Guard) instead of the effect.
    ``command`` has passed :func:`check_play`."""
    card = command.card
    played = CardPlayed(command.player, card, command.target, command.guess, command.second_target)
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


def check_play(state: GameState, command: PlayCard) -> None:
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
    if state.decision is not Decision.PLAY or player != state.current or type(player) is not int:
        expect(state, _PLAY_ONLY, player)
    hand = state.hands[player]
    if card not in hand:
        raise IllegalCommand(
            RejectionKind.CARD_NOT_IN_HAND, f"player {player} does not hold {card}"
        )
    table = state.table
    ruleset = table.ruleset
    forbids = ruleset.forbids
    for held in hand:
        if card in forbids[held]:
            raise IllegalCommand(
                RejectionKind.COUNTESS_REQUIRED, f"the {held} must be played instead of the {card}"
            )
    choice = ruleset.choices[card]
    if choice is Choice.NONE:
        if target is not None or second is not None:
            raise IllegalCommand(
                RejectionKind.TARGET_NOT_ALLOWED, f"the {card} does not choose a player"
            )
    elif (target, second) not in options(
        table.players, player, choice, state.out, state.protected, state.required
    ):
        refuse_choice(state, player, card, choice, target, second)
    names = ruleset.setup(table.players).names[card]
    if names and target is not None:
        wanted = int if ruleset.names_numbers else Card
        if type(guess) is not wanted or guess not in names:
            if guess is None:
                raise IllegalCommand(
                    RejectionKind.GUESS_REQUIRED, f"the {card} must name something"
                )
            raise IllegalCommand(
                RejectionKind.GUESS_NOT_ALLOWED, f"the {card} cannot name {guess} in {ruleset.name}"
            )
    elif guess is not None:
        raise IllegalCommand(
            RejectionKind.GUESS_NOT_ALLOWED,
            "only a Guard or a Bishop with a target names something",
        )


def _refuse_malformed_play(state: GameState, command: PlayCard) -> NoReturn:
    """Name the field of ``command`` that is of the wrong type."""
    if type(command.player) is not int:
        raise IllegalCommand(
            RejectionKind.MALFORMED_COMMAND, f"player must be a seat, not {command.player!r}"
        )
    card = command.card
    if type(card) is not Card:
        raise IllegalCommand(RejectionKind.MALFORMED_COMMAND, f"card must be a Card, not {card!r}")
    if card not in state.table.ruleset.kinds:  # a name this edition does not know
        raise IllegalCommand(
            RejectionKind.MALFORMED_COMMAND, f"{state.table.ruleset.name} has no {card} card"
        )
    for seat in (command.target, command.second_target):
        if seat is not None and type(seat) is not int:
            raise IllegalCommand(
                RejectionKind.MALFORMED_COMMAND, f"a target must be a seat, not {seat!r}"
            )
    raise IllegalCommand(
        RejectionKind.MALFORMED_COMMAND, f"a name must be a card or a number, not {command.guess!r}"
    )


@implements("cardinal.optional-look", "bishop.target-may-redraw", "game.rules-enforced")
def answer(state: GameState, command: Command) -> tuple[Event, ...]:
    """A pending choice is answered by the rules of the card that left it
    pending: the card its player just played, on top of their pile."""
    player = getattr(command, "player", None)
    if type(command) is KeepCard:
        _check_kept_cards(state, command)
    expect(state, ANSWERS[type(command)], player)  # type: ignore[arg-type]  # checked inside
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
        raise IllegalCommand(RejectionKind.MALFORMED_COMMAND, f"keep must be a card, not {keep!r}")
    if type(bottom) is not tuple or not all(type(card) is Card for card in bottom):
        raise IllegalCommand(RejectionKind.MALFORMED_COMMAND, "bottom must be a sequence of cards")
    ruleset = state.table.ruleset
    for card in (keep, *bottom):
        if card not in ruleset.kinds:  # a name this edition does not know
            raise IllegalCommand(
                RejectionKind.MALFORMED_COMMAND, f"{ruleset.name} has no {card} card"
            )


def draw(state: GameState, command: DrawCard) -> tuple[Event, ...]:
    """The turn's draw, taken by the player whose turn starts (from a
    position stopped before it)."""
    expect(state, _DRAW_ONLY, command.player)
    return (CardDrawn(command.player, state.deck[0], False),)


_DRAW_ONLY = frozenset({Decision.DRAW})
