"""What a command's events set off without anyone choosing.

A card's effect can knock a player out, which can pay a token (the
Constable), win the game at once, or leave one player and end the round
on the spot. A turn ends with the next player's turn and draw, or with
the end of the round: its winners (the showdown, or online the ranks),
their tokens and the cards' round-end tokens, then the end of the game.
Each function here takes the state the events so far have led to and
gives the events it adds with the state after them.
"""

from __future__ import annotations

from collections.abc import Sequence

from loveletter.cards.base import RoundEnd
from loveletter.events import (
    CardDrawn,
    Event,
    GameEnded,
    GameTied,
    PlayerEliminated,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.evolution import apply_unchecked
from loveletter.kinds import Card
from loveletter.ranking import round_ranks
from loveletter.rules import implements
from loveletter.rulesets import GameTie, Ruleset, Scoring
from loveletter.showdown import judge
from loveletter.state import Decision, GameState, next_player

# what the rules apply and give back: events, and the state after them (a
# plain comment: autodoc would list the alias under the module "builtins")
Outcome = tuple[tuple[Event, ...], GameState]


@implements(
    "round.end-one-player-left",
    "out.discard-hand",
    "constable.knocked-out-token",
    "game.immediate-win",
    "princess.knock-out-effects-apply",
)
def settle(state: GameState, events: Sequence[Event]) -> Outcome:
    """Apply a command's events to ``state`` with what they set off: a
    knock-out scores the cards in its player's pile that pay for it (the
    Constable); each token not caused by a round end is an award step of
    its own, which can win the game at once; a knock-out that leaves one
    player ends the round on the spot, and the rest of the effect does not
    happen (rulings 29, 30 and 39)."""
    table = state.table
    paying = table.ruleset.setup(table.players).knocked_out_tokens
    settled: list[Event] = []
    waiting: list[Event] = []  # events that set nothing off, applied together
    for event in events:
        if type(event) is not PlayerEliminated and type(event) is not TokenAwarded:
            waiting.append(event)
            continue
        state = apply_unchecked(state, waiting)
        settled += waiting
        waiting = []
        if type(event) is PlayerEliminated:
            assert isinstance(event, PlayerEliminated)
            player = event.player
            pile = pile_that_pays(state, event)
            state = apply_unchecked(state, (event,))
            settled.append(event)
            gained: list[int] = []
            if present(state, player):
                for card, reason in paying:
                    if card in pile:
                        awarded, state = award(state, player, reason)
                        settled.append(awarded)
                        gained.append(player)
            if state.players - len(state.out) < 2:
                ended, state = end_round(state, RoundEndReason.ONE_PLAYER_LEFT, gained)
                return (*settled, *ended), state
        else:
            assert isinstance(event, TokenAwarded)
            state = apply_unchecked(state, (event,))
            settled.append(event)
            gained = [event.player]
        if gained:
            outcome, state = award_step(state, gained)
            settled += outcome
            if state.decision is Decision.GAME_OVER:
                return tuple(settled), state
    state = apply_unchecked(state, waiting)
    return (*settled, *waiting), state


def pile_that_pays(state: GameState, knock_out: PlayerEliminated) -> tuple[Card, ...]:
    """The pile whose cards pay for a knock-out: as it was before the
    knock-out's own discard, so a Constable still in hand pays nothing
    (ruling 29). ``state`` is the state just before the knock-out."""
    return state.discards[knock_out.player]


@implements("online.leave-any-time", "game.win-counter-online", "constable.partial-win-online")
def present(state: GameState, player: int) -> bool:
    """Whether ``player`` is still at the table: a player who has left the
    match gains nothing more, not even for the knock-out their leaving is
    (ruling 50)."""
    return player not in state.table.left


def award(state: GameState, player: int, reason: TokenReason) -> tuple[Event, GameState]:
    """``player`` gains a token for ``reason``: the event and the state after it."""
    event = TokenAwarded(player, reason, state.tokens[player] + 1)
    return event, apply_unchecked(state, (event,))


@implements(
    "game.tokens-to-win",
    "game.simultaneous-winners",
    "game.immediate-win",
    "game.tie-break-round",
    "game.tokens-to-win-premium",
)
def award_step(state: GameState, gained: Sequence[int]) -> Outcome:
    """After an award step: end the game, or call a tie-break round. Outside
    a tie-break round, the players at the threshold win (several: shared or
    tied, per edition); in one, the tied players who just gained a token
    (ruling 31)."""
    table = state.table
    ruleset = table.ruleset
    contenders = table.contenders
    if contenders:
        reached = tuple(sorted({p for p in gained if p in contenders}))
    else:
        needed = ruleset.setup(table.players).tokens_to_win
        if needed is None:  # online: a win counter ends nothing (ruling 44)
            return (), state
        reached = tuple(p for p, count in enumerate(table.tokens) if count >= needed)
    if not reached:
        return (), state
    outcome: Event
    if len(reached) == 1 or ruleset.game_tie is GameTie.SHARED_WIN:
        outcome = GameEnded(reached)
    else:
        outcome = GameTied(reached)
    return (outcome,), apply_unchecked(state, (outcome,))


@implements(
    "turn.order",
    "out.turn-skipped",
    "round.end-deck-empty",
    "round.end-pile-online",
    "setup.turn-order-online",
)
def finish_turn(state: GameState) -> Outcome:
    """End the turn: the next player in the round starts theirs and draws,
    or the pile ends the round (online, with the pile's last card still in
    it: ruling 42). Two players or more are left: a knock-out that left one
    has ended the round already (:func:`settle`)."""
    table = state.table
    if len(state.deck) > table.ruleset.round_end_pile:
        player = next_player(table, state.out, state.current)
        events = (TurnStarted(player), CardDrawn(player, state.deck[0], False))
        return events, apply_unchecked(state, events)
    return end_round(state, RoundEndReason.DECK_EMPTY, ())


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
def end_round(state: GameState, reason: RoundEndReason, gained: Sequence[int]) -> Outcome:
    """End the round: the winners, their tokens, the cards' round-end
    tokens, as one award step with ``gained`` (the tokens of the knock-out
    that ended it)."""
    table = state.table
    ruleset = table.ruleset
    n = table.players
    live = state.live_players()
    if reason is RoundEndReason.ONE_PLAYER_LEFT:
        revealed: tuple[tuple[int, Card], ...] = ()
    else:
        revealed = tuple((p, state.hands[p][0]) for p in live)
    ranks = None
    if ruleset.scoring is Scoring.RANKS:
        ranks = round_ranks(ruleset, n, revealed, live, state.exits, state.discards)
        winners = tuple(p for p in live if ranks[p] == 1)
    elif reason is RoundEndReason.ONE_PLAYER_LEFT:
        winners = live
    else:
        winners = showdown(ruleset, revealed, state.discards)
    ended = RoundEnded(reason, winners, revealed, ranks)
    end = RoundEnd(n, state.out, state.discards, state.marks, winners)
    state = apply_unchecked(state, (ended,))
    events: list[Event] = [ended]
    gained = list(gained)
    for p in winners:
        awarded, state = award(state, p, TokenReason.ROUND_WIN)
        events.append(awarded)
        gained.append(p)
    for bonus in ruleset.setup(n).round_end_bonuses:
        for p in bonus.gainers(end):
            if present(state, p):
                awarded, state = award(state, p, bonus.reason)
                events.append(awarded)
                gained.append(p)
    outcome, state = award_step(state, gained)
    closed, state = close_if_deserted(state)
    return (*events, *outcome, *closed), state


@implements("game.no-end-online")
def close_if_deserted(state: GameState) -> Outcome:
    """Online, between rounds: the match closes, with no winner, once fewer
    than two players are present (ruling 44); it never ends otherwise."""
    table = state.table
    if (
        not table.ruleset.online_table
        or state.decision is not Decision.NEXT_ROUND
        or table.players - len(table.left) >= 2
    ):
        return (), state
    closed = GameEnded(())
    return (closed,), apply_unchecked(state, (closed,))


@implements(
    "round.highest-card-wins",
    "round.tie-all-win",
    "round.tie-discard-sum",
    "count.showdown-bonus",
    "bishop.princess-beats-bishop",
)
def showdown(
    ruleset: Ruleset, revealed: tuple[tuple[int, Card], ...], discards: tuple[tuple[Card, ...], ...]
) -> tuple[int, ...]:
    """The winners of an empty-deck round end (ruling 28), as
    :func:`loveletter.showdown.judge` finds them: the narrator tells its
    reasons from the same decision."""
    return judge(ruleset, revealed, discards).winners
