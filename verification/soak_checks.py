"""Cheap invariants for the soak run (``verification/soak.py``), checked
after every step of every game.

The facts they rest on (each edition's deck, the player counts, the tokens
that win, whom each card chooses, what a Guard or a Bishop may name, and
online how a round ranks its players and what a time-out plays) are
restated here from the spec (``spec/editions.yaml``, ``spec/rules/*.yaml``,
``spec/rulings.yaml``, ``docs/online-design.md``, ``conformance/README.md``),
never read from the engine's tables, so a wrong table in the engine shows
up as a violation instead of being copied into the check. Only the public
API is used. No Hypothesis: the soak run's chance comes from explicit
seeds.

Every check raises :class:`Violation` with a message naming the rule.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from enum import Enum
from functools import cache
from hashlib import blake2b

from loveletter import (
    Card,
    Decision,
    GameState,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
)
from loveletter.commands import Command, KeepCard, Leave, PlayCard, StartRound, TimeOut
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    EliminationReason,
    Event,
    GameEnded,
    GameTied,
    PlayerEliminated,
    PlayerLeft,
    PlayerProtected,
    TokenReason,
    TurnStarted,
)

PREMIUM = "premium"
#: the online "perpetual" edition (docs/online-design.md, rulings 41-53)
ONLINE = "online"
RULESETS = ("2019", "2019-classic", PREMIUM, ONLINE)


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

#: setup.player-count, setup.player-count-premium, setup.player-count-online
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "2019": (2, 3, 4, 5, 6),
    "2019-classic": (2, 3, 4),
    PREMIUM: (2, 3, 4, 5, 6, 7, 8),
    ONLINE: (3, 4, 5, 6, 7, 8),
}
#: setup.decks-online: how many copies of the deck a table may shuffle together
DECK_COPIES: dict[str, tuple[int, ...]] = {name: (1,) for name in RULESETS}
DECK_COPIES[ONLINE] = (1, 2, 3)
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
#: setup.card-values-premium: online plays Premium's cards at Premium's values
VALUES[ONLINE] = VALUES[PREMIUM]


def deck_of(ruleset: str, players: int, decks: int = 1) -> Counter[Card]:
    """The cards of a round (setup.deck-2019, setup.deck-classic,
    setup.deck-premium; setup.deck-online: Premium's 16 cards for 3-4
    players, its 32 for 5-8, times the table's ``decks``)."""
    if ruleset == "2019":
        base = _DECK_2019
    elif ruleset == "2019-classic" or players <= 4:
        base = _DECK_16
    else:
        base = _DECK_PREMIUM_32
    if decks == 1:
        return base
    return Counter({card: count * decks for card, count in base.items()})


def decks_of(state: GameState) -> int:
    """The copies of the deck the table plays with (its recorded settings)."""
    settings = state.table.settings
    return 1 if settings is None else settings.decks


def names_numbers(ruleset: str) -> bool:
    """guard.name-number: Premium and online name numbers, 2019 cards."""
    return ruleset in (PREMIUM, ONLINE)


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
    #: online's Baroness: two other players, one twice allowed, lower seat first
    TWO_OTHERS = 5
    #: online's Cardinal: two distinct players, oneself included, in either order
    ORDERED_PAIR = 6


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

#: targeting.valid-choice-online (ruling 48): online's own Baroness and Cardinal
_ONLINE_CHOOSES: dict[Card, Chooses] = {
    **CHOOSES,
    Card.BARONESS: Chooses.TWO_OTHERS,
    Card.CARDINAL: Chooses.ORDERED_PAIR,
}
#: the choices that never include the card's own player
OTHERS_ONLY = frozenset({Chooses.OTHER, Chooses.ONE_OR_TWO_OTHERS, Chooses.TWO_OTHERS})
#: the choices that name two players
TWO_PLAYERS = frozenset(
    {Chooses.PAIR, Chooses.ONE_OR_TWO_OTHERS, Chooses.TWO_OTHERS, Chooses.ORDERED_PAIR}
)


def chooses(ruleset: str, card: Card) -> Chooses:
    """Whom ``card`` makes its player choose in ``ruleset``."""
    table = _ONLINE_CHOOSES if ruleset == ONLINE else CHOOSES
    return table.get(card, Chooses.NO_ONE)


#: countess.forced-by-king-or-prince
COUNTESS_FORCERS = frozenset({Card.KING, Card.PRINCE})


def names(ruleset: str, players: int, card: Card) -> frozenset[Card | int]:
    """What ``card`` may name (guard.name-non-guard, guard.name-number,
    bishop.name-number-and-player): what the deck in use holds, the Guard
    never its own kind (2019) or 1 (Premium); a card in 2019, a number in
    Premium."""
    present = deck_of(ruleset, players)
    if names_numbers(ruleset):
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


def present(state: GameState) -> tuple[int, ...]:
    """online.leave-any-time: the seats that have not left the match."""
    return state.present()


#: online: a host's TimeOut for the player to act, before this share of the steps
TIMEOUT_SHARE = 0.05
#: online: a player leaves before this share of the steps while the match
#: plays its rounds, and before this share once it has played them
LEAVE_SHARE = 0.004
CLOSING_LEAVE_SHARE = 0.35


def host(rng: random.Random, state: GameState, closing: bool) -> Command | None:
    """Online, now and then, a host's command instead of a player's: a
    player leaves (often, once the match has played its rounds: ``closing``),
    or the player to act times out where the table makes random moves."""
    if rng.random() < (CLOSING_LEAVE_SHARE if closing else LEAVE_SHARE):
        return Leave(rng.choice(present(state)))
    settings = state.table.settings
    if (
        state.to_act is not None
        and settings is not None
        and settings.random_moves
        and rng.random() < TIMEOUT_SHARE
    ):
        return TimeOut(state.to_act)
    return None


def allowed_first_players(state: GameState) -> tuple[int, ...]:
    """Who may start the next round (round.next-first-player,
    round.next-first-player-tie-random; in a tie-break round, ruling 31,
    the tied players who won the last round, or every tied one if none
    did; online, ruling 43, a rank-1 player of the last round still
    present, or anyone present when none is)."""
    result = state.round_result
    if result is None:
        raise Violation(f"decision {state.decision.value} without a round result")
    if state.contenders:
        return tuple(p for p in result.winners if p in state.contenders) or state.contenders
    if state.ruleset.name == ONLINE:
        staying = present(state)
        return tuple(p for p in result.winners if p in staying) or staying
    return result.winners


@cache
def _sorted_deck(ruleset: str, players: int, decks: int) -> list[Card]:
    return sorted(deck_of(ruleset, players, decks).elements())


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
    if sorted(table) != _sorted_deck(name, n, decks_of(state)):
        raise Violation(
            f"setup.deck-*: cards not conserved: {sorted(zone_cards(state).items())} in the zones"
        )
    if len(state.face_up) != (3 if n == 2 else 0):
        raise Violation(f"setup.two-player-face-up: {len(state.face_up)} cards face up")
    online = name == ONLINE
    if online:
        if state.set_aside is not None:
            raise Violation(f"setup.no-set-aside-online: {state.set_aside} set aside")
    elif state.set_aside is None and state.deck:
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
        elif p == current and online and not in_play and size == 2:
            # online.leave-any-time: others leaving mid-turn can leave the
            # current player alone in the round before they play
            result = state.round_result
            if result is None or result.reason is not RoundEndReason.ONE_PLAYER_LEFT:
                raise Violation(f"hand sizes: player {p} ends the round with 2 cards")
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
        if online and not state.deck:
            # a turn starts with two cards in the pile or more, and at most
            # one replacement draw follows the turn's own (rulings 38, 42)
            raise Violation("round.end-pile-online: a round goes on with an empty pile")
    elif to_act is not None:
        raise Violation(
            f"one actor: player {to_act} acts while the game waits for a deal or is over"
        )
    if online:
        _check_seats(state, live, in_play)
    elif state.table.order or state.exits or state.table.left:
        raise Violation(f"{name} has no drawn order, exits or leaving")
    _check_tokens(state)


def _check_seats(state: GameState, live: list[int], in_play: bool) -> None:
    """setup.turn-order-online, online.leave-any-time, round.ranks-online:
    the round's order holds the players dealt in (those present at the
    deal), each once; the exits are the dealt players who went out, in the
    order they went out; a player who leaves during a round is out of it."""
    order = state.table.order
    exits = state.exits
    left = state.table.left
    if len(set(order)) != len(order) or len(set(exits)) != len(exits):
        raise Violation(f"a seat twice in the order {order} or the exits {exits}")
    if set(order) != set(live) | set(exits) or set(live) & set(exits):
        raise Violation(f"setup.turn-order-online: order {order}, in {live}, exits {exits}")
    if not set(range(state.players)) - set(order) <= left:
        raise Violation(f"online.leave-any-time: seats {order} dealt in, only {sorted(left)} left")
    if in_play and not left <= state.out:
        raise Violation(f"online.leave-any-time: {sorted(left)} left, {sorted(state.out)} out")


def _check_tokens(state: GameState) -> None:
    name = state.ruleset.name
    if name == ONLINE:
        # game.no-end-online: no count wins; the match closes, with no
        # winner, exactly when fewer than two players are present
        if state.winners or state.contenders:
            raise Violation(f"game.no-end-online: winners {state.winners}, {state.contenders}")
        if state.is_over != (len(present(state)) < 2):
            raise Violation(
                f"game.no-end-online: over {state.is_over} with {present(state)} present"
            )
        return
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
    the round and of the game, the next deal; online also leaving and the
    ranks of a round."""
    if (after.ruleset, after.players, after.seed) != (before.ruleset, before.players, before.seed):
        raise Violation("the ruleset, the seats or the seed changed")
    if not events:
        raise Violation("an accepted command caused no event")
    online = before.ruleset.name == ONLINE
    gained = [0] * before.players
    for event in events:
        if type(event) is TokenAwarded:
            gained[event.player] += 1
            if event.total != before.tokens[event.player] + gained[event.player]:
                raise Violation(f"TokenAwarded.total {event.total} does not count the tokens")
            if online and event.player in after.table.left:
                raise Violation(
                    f"game.win-counter-online: player {event.player}, who left, gains one"
                )
    for p, (old, new) in enumerate(zip(before.tokens, after.tokens, strict=True)):
        # tokens never decrease; each one comes from a TokenAwarded
        if new != old + gained[p]:
            raise Violation(f"tokens: player {p} went from {old} to {new}, awarded {gained[p]}")
    if isinstance(command, StartRound):
        _check_deal(before, command, events, after)
        return
    if after.round_number != before.round_number:
        raise Violation("the round number changed without a deal")
    if isinstance(command, Leave):
        _check_leave(before, command, events, after)
    _check_protection(before, command, events, after)
    _check_round_end(before, events, after)
    if before.ruleset.name in (PREMIUM, ONLINE):
        _check_partial_wins(before, events)
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
    at the end of a turn (round.end-one-player-left, round.end-deck-empty;
    online, round.end-pile-online, when one card or none is left), or
    (Premium) a token wins the game mid-round (game.immediate-win)."""
    ended = [e for e in events if type(e) is RoundEnded]
    live = [p for p in range(after.players) if p not in after.out]
    online = before.ruleset.name == ONLINE
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
            if len(after.deck) > (1 if online else 0) or len(live) < 2:
                raise Violation(f"round.end-deck-empty: ended with {len(after.deck)} cards left")
            if tuple(p for p, _ in ended[0].revealed) != tuple(live):
                raise Violation("round.end-deck-empty: not every hand in the round was revealed")
        if not after.round_over:
            raise Violation("RoundEnded, and the round goes on")
        if online:
            _check_ranks(ended[0], events, after)
        elif ended[0].ranks is not None:
            raise Violation(f"round.ranks-online: {before.ruleset.name} ranked a round")
    elif after.round_over and not after.is_over and not before.round_over:
        raise Violation("the round is over without RoundEnded")
    elif (
        after.is_over
        and before.ruleset.name != PREMIUM
        # online, only the last but one player leaving between rounds
        # closes a match without ending a round (game.no-end-online)
        and not (online and before.decision is Decision.NEXT_ROUND)
    ):
        raise Violation(f"game.immediate-win is Premium's: a {before.ruleset.name} game ended")
    for index, event in enumerate(events):
        if type(event) is TurnStarted:
            # turn.draw-then-play: a turn starts only with a card to draw
            # from the deck (an empty deck ends the round instead)
            following = events[index + 1] if index + 1 < len(events) else None
            if type(following) is not CardDrawn or following.from_set_aside:
                raise Violation("round.end-deck-empty: a turn started without a card to draw")
            if after.turn_number != before.turn_number + 1:
                raise Violation(f"turn {after.turn_number} follows turn {before.turn_number}")


def expected_ranks(state: GameState) -> tuple[int | None, ...]:
    """Every seat's rank at the end of an online round, from the state the
    round ended in (rulings 44 and 45; round.ranks-online,
    round.hand-bonus-online): the players still in by adjusted hand value,
    then discard-pile total, in competition numbering (1, 1, 3); one
    player left ranks 1 unopposed; the players who went out follow, each
    ranked as the number of players in the round just before they went
    out; seats not dealt in have no rank."""
    values = VALUES[ONLINE]
    n = state.players
    live = [p for p in range(n) if p not in state.out]
    ranks: list[int | None] = [None] * n
    if len(live) == 1:
        ranks[live[0]] = 1
    else:
        held = {p: state.hands[p][0] for p in live}
        totals = {p: sum(values[c] for c in state.discards[p]) for p in live}
        keys = {}
        for p in live:
            counts = state.discards[p].count(Card.COUNT)
            others = [q for q in live if q != p]
            over_bishop = held[p] is Card.PRINCESS and any(held[q] is Card.BISHOP for q in others)
            seven_lifted = (
                held[p] in (Card.COUNTESS, Card.DOWAGER_QUEEN)
                and counts >= 2
                and any(held[q] is Card.PRINCESS for q in others)
                and any(held[q] is Card.BISHOP and totals[q] < totals[p] for q in others)
            )
            bonus = 4 if over_bishop or seven_lifted else 0
            keys[p] = (values[held[p]] + counts + bonus, totals[p])
        for p in live:
            ranks[p] = 1 + sum(keys[q] > keys[p] for q in live)
    dealt = len(live) + len(state.exits)
    for index, p in enumerate(state.exits):
        ranks[p] = dealt - index
    return tuple(ranks)


def _check_ranks(ended: RoundEnded, events: tuple[Event, ...], after: GameState) -> None:
    """round.ranks-online, game.win-counter-online, jester.partial-win-online:
    the ranks, the rank-1 players as the winners, and what the round's end
    adds to the win counters: one to each rank-1 player, one to each used
    Jester's player whose marked player ranks first (still present)."""
    ranks = expected_ranks(after)
    if ended.ranks != ranks:
        raise Violation(f"round.ranks-online: ranks {ended.ranks}, expected {ranks}")
    winners = tuple(p for p, rank in enumerate(ranks) if rank == 1)
    if ended.winners != winners:
        raise Violation(f"round.ranks-online: winners {ended.winners}, rank 1 {winners}")
    expected: Counter[tuple[int, TokenReason]] = Counter(
        (p, TokenReason.ROUND_WIN) for p in winners
    )
    for jester, marked in after.marks:
        if ranks[marked] == 1 and jester not in after.table.left:
            expected[(jester, TokenReason.JESTER)] += 1
    following = events[events.index(ended) + 1 :]
    awarded = Counter((e.player, e.reason) for e in following if type(e) is TokenAwarded)
    if awarded != expected:
        raise Violation(
            f"game.win-counter-online: the round's end gave {sorted(awarded.items())},"
            f" expected {sorted(expected.items())}"
        )


def _check_partial_wins(before: GameState, events: tuple[Event, ...]) -> None:
    """The tokens no round end gives, where the Premium cards play:
    bishop.correct-number-token (one, at once, exactly when the named
    number is the target's card's) and constable.knocked-out-token (one
    right after a knock-out whose player already had a Constable in their
    pile; online, constable.partial-win-online, never to a player who has
    left, whose leaving is the knock-out)."""
    values = VALUES[PREMIUM]
    piles = [list(pile) for pile in before.discards]
    left = set(before.table.left)
    bishop_hits = 0
    paying = 0
    for index, event in enumerate(events):
        if isinstance(event, CardPlayed | CardDiscarded):
            piles[event.player].append(event.card)
            if (
                isinstance(event, CardPlayed)
                and event.card is Card.BISHOP
                and event.target is not None
                and values[before.hands[event.target][0]] == event.guess
            ):
                bishop_hits += 1
        elif isinstance(event, PlayerLeft):
            left.add(event.player)
        elif isinstance(event, PlayerEliminated):
            pays = Card.CONSTABLE in piles[event.player] and event.player not in left
            following = events[index + 1] if index + 1 < len(events) else None
            token = (
                isinstance(following, TokenAwarded)
                and following.player == event.player
                and following.reason is TokenReason.CONSTABLE
            )
            if pays != token:
                raise Violation(
                    f"constable.knocked-out-token: player {event.player} knocked out"
                    f" ({event.reason.value}) with pile {piles[event.player]},"
                    f" {'a' if token else 'no'} Constable token"
                )
            paying += pays
            piles[event.player].extend(event.discarded)
    reasons = Counter(e.reason for e in events if type(e) is TokenAwarded)
    if reasons[TokenReason.BISHOP] != bishop_hits:
        raise Violation(
            f"bishop.correct-number-token: {reasons[TokenReason.BISHOP]} tokens, {bishop_hits} hits"
        )
    if reasons[TokenReason.CONSTABLE] != paying:
        raise Violation(f"constable.knocked-out-token: {reasons[TokenReason.CONSTABLE]} tokens")


def _check_leave(
    before: GameState, command: Leave, events: tuple[Event, ...], after: GameState
) -> None:
    """online.leave-any-time (ruling 50): the player leaves the match; if
    in the round, they go out with their hand discarded unresolved (reason
    ``left``), and their turn or answer, if they had to act, ends; a
    requirement naming them lapses; another player's pending decision
    stays; the match closes once fewer than two are present."""
    p = command.player
    if events[0] != PlayerLeft(p) or after.table.left != before.table.left | {p}:
        raise Violation(f"online.leave-any-time: {events[0]} for player {p}'s leaving")
    in_play = before.decision in _IN_PLAY
    if not in_play:
        closes = len(present(after)) < 2
        if events[1:] != ((GameEnded(()),) if closes else ()):
            raise Violation(f"online.leave-any-time: a leave between rounds caused {events[1:]}")
        return
    if p in before.out:
        if any(type(e) is PlayerEliminated for e in events):
            raise Violation(f"online.leave-any-time: player {p}, already out, knocked out again")
    else:
        gone = PlayerEliminated(p, EliminationReason.LEFT, before.hands[p])
        if len(events) < 2 or events[1] != gone:
            raise Violation(f"online.leave-any-time: {events[1:2]}, expected {gone}")
        if after.discards[p] != before.discards[p] + before.hands[p] or after.hands[p]:
            raise Violation(f"online.leave-any-time: player {p}'s hand not discarded as it was")
        if after.exits[len(before.exits)] != p:
            raise Violation(f"round.ranks-online: exits {after.exits} after {p} left")
    if after.round_over:
        return
    if before.required == p and after.required is not None:
        raise Violation(f"online.leave-any-time: the requirement on {p}, who left, holds")
    acting = p in (before.to_act, before.current)
    started = [e.player for e in events if type(e) is TurnStarted]
    if acting:
        if after.decision is not Decision.PLAY or after.current == p or len(started) != 1:
            raise Violation(f"online.leave-any-time: player {p} left on their turn, it goes on")
    elif (
        started
        or after.current != before.current
        or after.decision is not before.decision
        or after.pending != before.pending
    ):
        raise Violation(f"online.leave-any-time: player {p} left, another's turn changed")


def _check_deal(
    before: GameState, command: StartRound, events: tuple[Event, ...], after: GameState
) -> None:
    """round.new-round-setup: a fresh round, dealt as the command asked
    (online, setup.turn-order-online: the players present, in a drawn
    order whose first player may start the round)."""
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
        or after.exits
        or after.required is not None
        or any(after.discards)
    ):
        raise Violation("round.new-round-setup: the new round does not start afresh")
    seats = set(range(after.players)) - set(after.out)
    if before.contenders and seats != set(before.contenders):
        raise Violation(f"game.tie-break-round: {sorted(seats)} dealt in, not the tied players")
    if before.ruleset.name == ONLINE:
        order = started.order
        if (
            order is None
            or sorted(order) != list(present(before))
            or order[0] != started.first_player
            or after.table.order != order
            or (command.order is not None and order != command.order)
        ):
            raise Violation(f"setup.turn-order-online: order {order}, present {present(before)}")
        if after.out != before.table.left:
            raise Violation(f"online.leave-any-time: {sorted(after.out)} out from the start")
    elif not before.contenders and after.out:
        raise Violation("round.new-round-setup: players out from the start")


# --------------------------------------------------------------------------
# online: the move a time-out makes


def timeout_move(state: GameState, legal: Sequence[Command]) -> Command:
    """online.timeout-random-move (ruling 51): the move a ``TimeOut`` makes,
    from the documented draw: ``n`` is the BLAKE2b-512 digest of
    ``loveletter/<seed>/<round>/timeout/<turn>/<decision>`` read big-endian;
    at a play, the ``n mod k``-th of the ``k`` distinct playable cards in
    card order, then the ``(n div k) mod m``-th of that card's ``m`` legal
    commands; at any other decision the ``n mod m``-th legal command."""
    text = (
        f"loveletter/{state.seed}/{state.round_number}"
        f"/timeout/{state.turn_number}/{state.decision.value}"
    )
    number = int.from_bytes(blake2b(text.encode(), digest_size=64).digest(), "big")
    if state.decision is Decision.PLAY:
        cards = sorted({c.card for c in legal if isinstance(c, PlayCard)})
        card = cards[number % len(cards)]
        moves = [c for c in legal if isinstance(c, PlayCard) and c.card is card]
        return moves[(number // len(cards)) % len(moves)]
    return legal[number % len(legal)]


# --------------------------------------------------------------------------
# a finished game


def check_game_over(state: GameState, events: tuple[Event, ...]) -> None:
    """The last command's events end the game with its winners (online,
    game.no-end-online: a match closes with none, fewer than two present)."""
    last = events[-1]
    if state.ruleset.name == ONLINE:
        if last != GameEnded(()) or state.winners or len(present(state)) >= 2:
            raise Violation(f"game.no-end-online: closed with {last}, present {present(state)}")
        return
    if type(last) is not GameEnded or last.winners != state.winners or not state.winners:
        raise Violation(f"the game ended with {last}, winners {state.winners}")
    if any(type(e) is GameTied for e in events) and state.ruleset.name != PREMIUM:
        raise Violation("game.simultaneous-winners: a 2019 game was tied")
