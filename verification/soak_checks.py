"""Cheap invariants for the soak run (``verification/soak.py``), checked
after every step of every game.

The facts they rest on (each edition's deck, the player counts, the tokens
that win, whom each card chooses, what a Guard or a Bishop may name) are
restated here from the spec (``spec/editions.yaml``, ``spec/rules/*.yaml``,
``conformance/README.md``), never read from the engine's tables, so a wrong
table in the engine shows up as a violation instead of being copied into
the check. Only the public API is used. No Hypothesis: the soak run's
chance comes from explicit seeds.

Every check raises :class:`Violation` with a message naming the rule.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum
from functools import cache

from loveletter import (
    Card,
    Decision,
    GameState,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
)
from loveletter.commands import Command, KeepCard, PlayCard, StartRound
from loveletter.events import (
    CardDrawn,
    Event,
    GameEnded,
    GameTied,
    PlayerProtected,
    TurnStarted,
)

PREMIUM = "premium"
RULESETS = ("2019", "2019-classic", PREMIUM)


class Violation(Exception):
    """A state or a step that breaks a rule; the message names the rule."""


# --------------------------------------------------------------------------
# facts from the spec

#: setup.deck-2019
_DECK_2019 = Counter(
    {
        Card.SPY: 2,
        Card.GUARD: 6,
        Card.PRIEST: 2,
        Card.BARON: 2,
        Card.HANDMAID: 2,
        Card.PRINCE: 2,
        Card.CHANCELLOR: 2,
        Card.KING: 1,
        Card.COUNTESS: 1,
        Card.PRINCESS: 1,
    }
)
#: setup.deck-classic; setup.deck-premium with 2 to 4 players is the same 16
_DECK_16 = Counter(
    {
        Card.GUARD: 5,
        Card.PRIEST: 2,
        Card.BARON: 2,
        Card.HANDMAID: 2,
        Card.PRINCE: 2,
        Card.KING: 1,
        Card.COUNTESS: 1,
        Card.PRINCESS: 1,
    }
)
#: setup.deck-premium with 5 to 8 players: all 32 cards
_DECK_PREMIUM_32 = _DECK_16 + Counter(
    {
        Card.GUARD: 3,
        Card.BISHOP: 1,
        Card.DOWAGER_QUEEN: 1,
        Card.CONSTABLE: 1,
        Card.COUNT: 2,
        Card.SYCOPHANT: 2,
        Card.BARONESS: 2,
        Card.CARDINAL: 2,
        Card.JESTER: 1,
        Card.ASSASSIN: 1,
    }
)

#: setup.player-count, setup.player-count-premium
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "2019": (2, 3, 4, 5, 6),
    "2019-classic": (2, 3, 4),
    PREMIUM: (2, 3, 4, 5, 6, 7, 8),
}
#: game.tokens-to-win, game.tokens-to-win-premium
TOKENS_TO_WIN: dict[str, dict[int, int]] = {
    "2019": {2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
    "2019-classic": {2: 6, 3: 5, 4: 4},
    PREMIUM: {2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4},
}
#: setup.card-values, setup.card-values-premium
VALUES: dict[str, dict[Card, int]] = {
    "2019": {
        Card.SPY: 0,
        Card.GUARD: 1,
        Card.PRIEST: 2,
        Card.BARON: 3,
        Card.HANDMAID: 4,
        Card.PRINCE: 5,
        Card.CHANCELLOR: 6,
        Card.KING: 7,
        Card.COUNTESS: 8,
        Card.PRINCESS: 9,
    },
    PREMIUM: {
        Card.JESTER: 0,
        Card.ASSASSIN: 0,
        Card.GUARD: 1,
        Card.PRIEST: 2,
        Card.CARDINAL: 2,
        Card.BARON: 3,
        Card.BARONESS: 3,
        Card.HANDMAID: 4,
        Card.SYCOPHANT: 4,
        Card.PRINCE: 5,
        Card.COUNT: 5,
        Card.KING: 6,
        Card.CONSTABLE: 6,
        Card.COUNTESS: 7,
        Card.DOWAGER_QUEEN: 7,
        Card.PRINCESS: 8,
        Card.BISHOP: 9,
    },
}
VALUES["2019-classic"] = VALUES["2019"]


def deck_of(ruleset: str, players: int) -> Counter[Card]:
    """The cards of a round (setup.deck-2019, setup.deck-classic,
    setup.deck-premium)."""
    if ruleset == "2019":
        return _DECK_2019
    if ruleset == "2019-classic" or players <= 4:
        return _DECK_16
    return _DECK_PREMIUM_32


#: every kind the edition uses at some player count: another kind is not a
#: card of the game at all (malformed-command, conformance/README.md)
EDITION_KINDS: dict[str, frozenset[Card]] = {
    name: frozenset().union(*(deck_of(name, n) for n in PLAYER_COUNTS[name])) for name in RULESETS
}


class Chooses(Enum):
    """Whom a card makes its player choose (conformance/README.md, "Whom
    each Premium card chooses"; targeting.other-player, prince.any-player)."""

    NO_ONE = 0
    OTHER = 1
    ANY = 2  #: oneself included
    PAIR = 3  #: two distinct players, oneself included (the Cardinal)
    ONE_OR_TWO_OTHERS = 4  #: the Baroness


CHOOSES: dict[Card, Chooses] = {
    Card.GUARD: Chooses.OTHER,
    Card.PRIEST: Chooses.OTHER,
    Card.BARON: Chooses.OTHER,
    Card.KING: Chooses.OTHER,
    Card.DOWAGER_QUEEN: Chooses.OTHER,
    Card.JESTER: Chooses.OTHER,
    Card.BISHOP: Chooses.OTHER,
    Card.PRINCE: Chooses.ANY,
    Card.SYCOPHANT: Chooses.ANY,
    Card.CARDINAL: Chooses.PAIR,
    Card.BARONESS: Chooses.ONE_OR_TWO_OTHERS,
}

#: countess.forced-by-king-or-prince
COUNTESS_FORCERS = frozenset({Card.KING, Card.PRINCE})


def names(ruleset: str, players: int, card: Card) -> frozenset[Card | int]:
    """What ``card`` may name (guard.name-non-guard, guard.name-number,
    bishop.name-number-and-player): what the deck in use holds, the Guard
    never its own kind (2019) or 1 (Premium); a card in 2019, a number in
    Premium."""
    present = deck_of(ruleset, players)
    if ruleset == PREMIUM:
        numbers = {VALUES[PREMIUM][kind] for kind in present}
        if card is Card.GUARD:
            return frozenset(numbers - {1})
        if card is Card.BISHOP:
            return frozenset(numbers)
        return frozenset()
    if card is Card.GUARD:
        return frozenset(kind for kind in present if kind is not Card.GUARD)
    return frozenset()


_IN_PLAY = frozenset(
    {Decision.DRAW, Decision.PLAY, Decision.CHANCELLOR, Decision.LOOK, Decision.REDRAW}
)


def allowed_first_players(state: GameState) -> tuple[int, ...]:
    """Who may start the next round (round.next-first-player,
    round.next-first-player-tie-random; in a tie-break round, ruling 31,
    the tied players who won the last round, or every tied one if none
    did)."""
    result = state.round_result
    if result is None:
        raise Violation(f"decision {state.decision.value} without a round result")
    if state.contenders:
        return tuple(p for p in result.winners if p in state.contenders) or state.contenders
    return result.winners


@cache
def _sorted_deck(ruleset: str, players: int) -> list[Card]:
    return sorted(deck_of(ruleset, players).elements())


def zone_cards(state: GameState) -> Counter[Card]:
    """Every card of every zone of the table."""
    cards = Counter(state.deck)
    cards.update(state.face_up)
    if state.set_aside is not None:
        cards[state.set_aside] += 1
    for hand in state.hands:
        cards.update(hand)
    for pile in state.discards:
        cards.update(pile)
    return cards


# --------------------------------------------------------------------------
# the state


def check_invariants(state: GameState) -> None:
    """What holds of every state play reaches, from the spec alone."""
    name = state.ruleset.name
    n = state.players
    # sorting one tuple is several times cheaper than counting with a Counter
    table: tuple[Card, ...] = (
        state.deck + state.face_up + sum(state.hands, ()) + sum(state.discards, ())
    )
    if state.set_aside is not None:
        table += (state.set_aside,)
    if sorted(table) != _sorted_deck(name, n):
        raise Violation(
            f"setup.deck-*: cards not conserved: {sorted(zone_cards(state).items())} in the zones"
        )
    if len(state.face_up) != (3 if n == 2 else 0):
        raise Violation(f"setup.two-player-face-up: {len(state.face_up)} cards face up")
    if state.set_aside is None and state.deck:
        raise Violation("prince.empty-deck-draws-set-aside: set-aside card gone, deck not empty")
    out = state.out
    live = [p for p in range(n) if p not in out]
    decision = state.decision
    current = state.current
    in_play = decision in _IN_PLAY
    for p in range(n):
        size = len(state.hands[p])
        if p in out:
            if size:
                raise Violation(f"out.discard-hand: player {p} is out but holds {size} cards")
        elif p == current and decision is Decision.PLAY:
            if size != 2:
                raise Violation(f"turn.draw-then-play: player {p} plays from {size} cards")
        elif p == current and decision is Decision.CHANCELLOR:
            if size not in (2, 3):
                raise Violation(f"chancellor.draw-two-keep-one: player {p} holds {size} cards")
        elif size != 1:
            raise Violation(f"hand sizes: player {p} in the round holds {size} cards")
    if not state.protected <= set(live):
        raise Violation(f"out.untargetable: protected {sorted(state.protected)}, out {sorted(out)}")
    to_act = state.to_act
    if in_play:
        # exactly one player acts: the current one, or the Bishop's target
        # answering a redraw (bishop.target-may-redraw)
        if decision is Decision.REDRAW:
            if to_act is None or to_act == current or state.pending != (to_act,):
                raise Violation(f"one actor: redraw by {to_act}, current {current}")
        elif to_act != current:
            raise Violation(f"one actor: {to_act} acts, current player {current}")
        if current in out or to_act in out:
            raise Violation(f"one actor: player {to_act} acts from out of the round")
        if current in state.protected:
            raise Violation(
                f"handmaid.protection-until-next-turn: player {current} still protected on"
                " their own turn"
            )
        if len(live) < 2:
            raise Violation(f"round.end-one-player-left: the round goes on with {live}")
        if state.round_result is not None or state.winners:
            raise Violation("a round in play with a result or winners")
    elif to_act is not None:
        raise Violation(
            f"one actor: player {to_act} acts while the game waits for a deal or is over"
        )
    _check_tokens(state)


def _check_tokens(state: GameState) -> None:
    name = state.ruleset.name
    goal = TOKENS_TO_WIN[name][state.players]
    at_goal = tuple(p for p, t in enumerate(state.tokens) if t >= goal)
    if name != PREMIUM:
        # game.tokens-to-win, game.simultaneous-winners: all at the goal win
        if at_goal and (not state.is_over or state.winners != at_goal):
            raise Violation(f"game.tokens-to-win: {at_goal} at {goal}, winners {state.winners}")
        if not at_goal and (state.is_over or state.winners):
            raise Violation(f"game.tokens-to-win: over with tokens {state.tokens} below {goal}")
        return
    contenders = state.contenders
    if not set(contenders) <= set(at_goal):
        raise Violation(f"game.tie-break-round: contenders {contenders} below {goal}")
    if state.is_over:
        # game.tie-break-round: Premium always ends with one winner
        if len(state.winners) != 1 or state.winners[0] not in at_goal:
            raise Violation(f"game.tokens-to-win-premium: winners {state.winners} at {at_goal}")
    elif state.winners:
        raise Violation(f"winners {state.winners} of a game that goes on")
    elif at_goal and len(contenders) < 2:
        raise Violation(f"game.tokens-to-win-premium: {at_goal} reached {goal}, no tie-break")


# --------------------------------------------------------------------------
# the step


def check_transition(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    """What holds of one accepted command: tokens, protection, the end of
    the round and of the game, the next deal."""
    if (after.ruleset, after.players, after.seed) != (before.ruleset, before.players, before.seed):
        raise Violation("the ruleset, the seats or the seed changed")
    if not events:
        raise Violation("an accepted command caused no event")
    gained = [0] * before.players
    for event in events:
        if type(event) is TokenAwarded:
            gained[event.player] += 1
            if event.total != before.tokens[event.player] + gained[event.player]:
                raise Violation(f"TokenAwarded.total {event.total} does not count the tokens")
    for p, (old, new) in enumerate(zip(before.tokens, after.tokens, strict=True)):
        # tokens never decrease; each one comes from a TokenAwarded
        if new != old + gained[p]:
            raise Violation(f"tokens: player {p} went from {old} to {new}, awarded {gained[p]}")
    if isinstance(command, StartRound):
        _check_deal(before, command, events, after)
        return
    if after.round_number != before.round_number:
        raise Violation("the round number changed without a deal")
    _check_protection(before, command, events, after)
    _check_round_end(before, events, after)
    if isinstance(command, KeepCard):
        # chancellor.return-bottom-any-order: the returned cards go under
        # the deck in the order given; the next turn's draw takes the top
        drawn = sum(type(e) is CardDrawn for e in events)
        if after.deck != (*before.deck, *command.bottom)[drawn:]:
            raise Violation("chancellor.return-bottom-any-order: the deck's bottom is wrong")


def _check_protection(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    protected = set(before.protected)
    for event in events:
        if type(event) is PlayerProtected:
            protected.add(event.player)
        elif type(event) is TurnStarted:
            # handmaid.protection-until-next-turn: it ends as the turn starts
            protected.discard(event.player)
    if after.round_over:
        if after.round_result is not None and after.protected:
            raise Violation("protection outlived its round")
    elif set(after.protected) != protected - set(after.out):
        raise Violation(
            f"handmaid.protection-until-next-turn: protected {sorted(after.protected)},"
            f" expected {sorted(protected - set(after.out))}"
        )
    if (
        isinstance(command, PlayCard)
        and command.card is Card.HANDMAID
        and not after.round_over
        and command.player not in after.protected
    ):
        raise Violation(f"handmaid: player {command.player} played a Handmaid, not protected")


def _check_round_end(before: GameState, events: tuple[Event, ...], after: GameState) -> None:
    """The round ends exactly when one player is left or the deck is empty
    at the end of a turn (round.end-one-player-left, round.end-deck-empty),
    or (Premium) a token wins the game mid-round (game.immediate-win)."""
    ended = [e for e in events if type(e) is RoundEnded]
    live = [p for p in range(after.players) if p not in after.out]
    if len(ended) > 1:
        raise Violation("two RoundEnded in one command")
    game_ended = any(type(e) is GameEnded for e in events)
    if after.is_over != game_ended or (game_ended and type(events[-1]) is not GameEnded):
        raise Violation("game over without GameEnded as the command's last event, or the reverse")
    if ended:
        reason = ended[0].reason
        if reason is RoundEndReason.ONE_PLAYER_LEFT and len(live) != 1:
            raise Violation(f"round.end-one-player-left: the round ended with {live} in it")
        if reason is RoundEndReason.DECK_EMPTY:
            if after.deck or len(live) < 2:
                raise Violation(f"round.end-deck-empty: ended with {len(after.deck)} cards left")
            if tuple(p for p, _ in ended[0].revealed) != tuple(live):
                raise Violation("round.end-deck-empty: not every hand in the round was revealed")
        if not after.round_over:
            raise Violation("RoundEnded, and the round goes on")
    elif after.round_over and not after.is_over:
        raise Violation("the round is over without RoundEnded")
    elif after.is_over and before.ruleset.name != PREMIUM:
        raise Violation("game.immediate-win is Premium's: a 2019 game ended mid-round")
    for index, event in enumerate(events):
        if type(event) is TurnStarted:
            # turn.draw-then-play: a turn starts only with a card to draw
            # from the deck (an empty deck ends the round instead)
            following = events[index + 1] if index + 1 < len(events) else None
            if type(following) is not CardDrawn or following.from_set_aside:
                raise Violation("round.end-deck-empty: a turn started without a card to draw")
            if after.turn_number != before.turn_number + 1:
                raise Violation(f"turn {after.turn_number} follows turn {before.turn_number}")


def _check_deal(
    before: GameState, command: StartRound, events: tuple[Event, ...], after: GameState
) -> None:
    """round.new-round-setup: a fresh round, dealt as the command asked."""
    started = events[0]
    if type(started) is not RoundStarted:
        raise Violation(f"a deal begins with {type(started).__name__}")
    if command.deck is not None and started.deck != command.deck:
        raise Violation("the stacked deck was not the one dealt")
    allowed = allowed_first_players(before)
    if started.first_player not in allowed or (
        command.first_player is not None and started.first_player != command.first_player
    ):
        raise Violation(f"round.next-first-player: {started.first_player} starts, not {allowed}")
    if (
        after.round_number != before.round_number + 1
        or after.turn_number != 1
        or after.current != started.first_player
        or after.decision is not Decision.PLAY
        or after.protected
        or after.sightings
        or after.marks
        or after.returns
        or after.required is not None
        or any(after.discards)
    ):
        raise Violation("round.new-round-setup: the new round does not start afresh")
    seats = set(range(after.players)) - set(after.out)
    if before.contenders and seats != set(before.contenders):
        raise Violation(f"game.tie-break-round: {sorted(seats)} dealt in, not the tied players")
    if not before.contenders and after.out:
        raise Violation("round.new-round-setup: players out from the start")


# --------------------------------------------------------------------------
# a finished game


def check_game_over(state: GameState, events: tuple[Event, ...]) -> None:
    """The last command's events end the game with its winners."""
    last = events[-1]
    if type(last) is not GameEnded or last.winners != state.winners or not state.winners:
        raise Violation(f"the game ended with {last}, winners {state.winners}")
    if any(type(e) is GameTied for e in events) and state.ruleset.name != PREMIUM:
        raise Violation("game.simultaneous-winners: a 2019 game was tied")
