"""An independent perft oracle for the conformance suite (2019 and 2019-classic).

Written from the rules (``spec/rules/*.yaml``, ``spec/rulings.yaml``) and the
case format (``conformance/README.md``), and on purpose **without importing
``loveletter``**: only the standard library and PyYAML. It recomputes what a
case claims about move generation (``perft``, ``legal_command_count``,
``legal_commands``) with code that shares nothing with the engine, so a bug
would have to be made twice, the same way, to slip through.

It models only what move generation depends on: the zones (deck, set-aside
card, face-up cards, hands, discard piles), who is out or protected, whose turn
it is and what the game waits for, and the favor tokens (which decide between
``next-round`` and ``game-over``). It does not model events, views, sightings
or turn and round numbers.

Commands are small frozen dataclasses (hashable, so a legal command set is a
``frozenset``); the state is a mutable dataclass that :func:`apply` copies
before changing it.

    >>> deck = ["Prince", "Guard", "Priest", "Handmaid", "King", "Guard", "Baron", "Guard",
    ...         "Countess", "Guard", "Prince", "Handmaid", "Priest", "Princess", "Guard", "Baron"]
    >>> state = deal("2019-classic", 2, deck)
    >>> state.hands
    [['King', 'Baron'], ['Guard']]
    >>> perft(state, 3)
    [2, 8, 64]

Run it on case files: ``python -m tests.conformance.perft_oracle CASE.yaml ...``
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple, TypeAlias

import yaml

# ------------------------------------------------------------------ editions

#: setup.deck-2019, setup.deck-classic: the cards of each edition's deck.
DECKS: Final[Mapping[str, Mapping[str, int]]] = {
    "2019": {
        "Spy": 2,
        "Guard": 6,
        "Priest": 2,
        "Baron": 2,
        "Handmaid": 2,
        "Prince": 2,
        "Chancellor": 2,
        "King": 1,
        "Countess": 1,
        "Princess": 1,
    },
    "2019-classic": {
        "Guard": 5,
        "Priest": 2,
        "Baron": 2,
        "Handmaid": 2,
        "Prince": 2,
        "King": 1,
        "Countess": 1,
        "Princess": 1,
    },
}

#: setup.card-values (the classic version keeps the values of the kinds it uses).
VALUES: Final[Mapping[str, int]] = {
    "Spy": 0,
    "Guard": 1,
    "Priest": 2,
    "Baron": 3,
    "Handmaid": 4,
    "Prince": 5,
    "Chancellor": 6,
    "King": 7,
    "Countess": 8,
    "Princess": 9,
}

#: setup.player-count: the smallest and largest number of players.
PLAYER_COUNTS: Final[Mapping[str, tuple[int, int]]] = {"2019": (2, 6), "2019-classic": (2, 4)}

#: game.tokens-to-win: favor tokens needed to win, by number of players (both editions).
TOKENS_TO_WIN: Final[Mapping[int, int]] = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}

#: targeting.other-player: the cards that must choose another player.
CHOOSE_OTHER: Final = frozenset({"Guard", "Priest", "Baron", "King"})


def guard_names(ruleset: str) -> tuple[str, ...]:
    """guard.name-non-guard, ruling 5: any kind of the edition's deck but the Guard
    (so in 2019-classic neither the Spy nor the Chancellor)."""
    return tuple(sorted(kind for kind in DECKS[ruleset] if kind != "Guard"))


# ------------------------------------------------------------------- errors


class OracleError(ValueError):
    """A start the rules do not allow, or a replay the oracle cannot follow
    (an accepted command the oracle finds illegal, or the reverse)."""


class OutOfReach(Exception):
    """A case shape the oracle does not model (the message says why)."""


# ----------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class DrawCard:
    """The turn's draw, a ply only from a position given with ``drawn: false``."""

    player: int


@dataclass(frozen=True, slots=True)
class PlayCard:
    player: int
    card: str
    target: int | None = None
    guess: str | None = None


@dataclass(frozen=True, slots=True)
class KeepCard:
    """The answer to a Chancellor: ``bottom`` goes under the deck in this order."""

    player: int
    keep: str
    bottom: tuple[str, ...]


Command: TypeAlias = DrawCard | PlayCard | KeepCard

# ---------------------------------------------------------------------- state

Decision: TypeAlias = Literal["draw", "play", "chancellor", "next-round", "game-over"]


@dataclass(slots=True)
class State:
    ruleset: str
    players: int
    deck: list[str]  # draw pile, top first (ruling 4)
    set_aside: str | None  # the face-down card; None once a Prince's draw took it
    face_up: tuple[str, ...]  # the 2-player face-up cards, never drawn
    hands: list[list[str]]
    discards: list[list[str]]  # by seat, oldest first
    out: set[int]
    protected: set[int]
    current: int  # whose turn it is (or was, once the round is over)
    decision: Decision
    tokens: list[int]
    round_winners: tuple[int, ...] = ()  # of the round just ended, for the next first player

    def copy(self) -> State:
        return State(
            ruleset=self.ruleset,
            players=self.players,
            deck=list(self.deck),
            set_aside=self.set_aside,
            face_up=self.face_up,
            hands=[list(hand) for hand in self.hands],
            discards=[list(pile) for pile in self.discards],
            out=set(self.out),
            protected=set(self.protected),
            current=self.current,
            decision=self.decision,
            tokens=list(self.tokens),
            round_winners=self.round_winners,
        )

    def in_round(self) -> list[int]:
        return [seat for seat in range(self.players) if seat not in self.out]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise OracleError(message)


def _check_edition_cards(ruleset: str, cards: Sequence[str]) -> None:
    """setup.deck-2019 / setup.deck-classic: exactly the edition's cards."""
    want, have = Counter(DECKS[ruleset]), Counter(cards)
    _require(
        want == have,
        f"not the {ruleset} cards: extra {dict(have - want)}, missing {dict(want - have)}",
    )


def _check_players(ruleset: str, players: int) -> None:
    low, high = PLAYER_COUNTS[ruleset]  # setup.player-count
    _require(low <= players <= high, f"{ruleset} is for {low} to {high} players, not {players}")


# --------------------------------------------------------------------- starts


def deal(
    ruleset: str,
    players: int,
    deck: Sequence[str],
    first_player: int = 0,
    tokens: Sequence[int] | None = None,
) -> State:
    """A round dealt from a stacked deck (top first), following ruling 3."""
    _check_players(ruleset, players)
    _check_edition_cards(ruleset, deck)
    _require(0 <= first_player < players, f"no seat {first_player}")
    pile = list(deck)
    # setup.set-aside-face-down: the top card, unseen for the whole round.
    set_aside = pile.pop(0)
    # setup.two-player-face-up: with two players, the next three lie face up.
    face_up = tuple(pile.pop(0) for _ in range(3)) if players == 2 else ()
    # setup.deal-one-each: one card each, from the first player clockwise (ruling 2).
    hands: list[list[str]] = [[] for _ in range(players)]
    for offset in range(players):
        hands[(first_player + offset) % players].append(pile.pop(0))
    # turn.draw-then-play: the first player's turn starts with their draw.
    hands[first_player].append(pile.pop(0))
    return State(
        ruleset=ruleset,
        players=players,
        deck=pile,
        set_aside=set_aside,
        face_up=face_up,
        hands=hands,
        discards=[[] for _ in range(players)],
        out=set(),
        protected=set(),
        current=first_player,
        decision="play",
        tokens=list(tokens) if tokens is not None else [0] * players,
    )


def from_position(ruleset: str, players: int, position: Mapping[str, Any]) -> State:
    """A round in progress, as a case's ``start.position`` describes it."""
    _check_players(ruleset, players)
    drawn = bool(position["drawn"])
    state = State(
        ruleset=ruleset,
        players=players,
        deck=list(position["deck"]),
        set_aside=position["set_aside"],
        face_up=tuple(position.get("face_up", ())),
        hands=[list(hand) for hand in position["hands"]],
        discards=[list(pile) for pile in position["discards"]],
        out=set(position.get("out", ())),
        protected=set(position.get("protected", ())),
        current=position["current"],
        decision="play" if drawn else "draw",
        tokens=list(position.get("tokens", [0] * players)),
    )
    # The constraints the README puts on a position: every card once...
    _require(state.set_aside is not None, "a round in progress keeps its set-aside card (ruling 9)")
    cards = [*state.deck, *state.face_up, *itertools.chain(*state.hands, *state.discards)]
    if state.set_aside is not None:
        cards.append(state.set_aside)
    _check_edition_cards(ruleset, cards)
    _require(len(state.face_up) == (3 if players == 2 else 0), "wrong number of face-up cards")
    _require(len(state.hands) == players == len(state.discards), "one hand and pile per seat")
    _require(len(state.tokens) == players, "one token count per seat")
    # ...the current player in the round and unprotected, two players left...
    _require(state.current not in state.out, "the current player is out")
    _require(state.current not in state.protected, "the current player is protected")
    _require(not state.protected & state.out, "an out player is protected")
    _require(len(state.in_round()) >= 2, "fewer than two players in the round")
    # ...two cards for the current player once drawn, one for the others, none when out.
    for seat, hand in enumerate(state.hands):
        want = 0 if seat in state.out else 2 if seat == state.current and drawn else 1
        _require(len(hand) == want, f"seat {seat} holds {hand}, expected {want} card(s)")
    # turn.draw-then-play: a turn never starts on an empty deck.
    _require(drawn or bool(state.deck), "a draw is pending but the deck is empty")
    return state


def from_start(case: Mapping[str, Any]) -> State:
    """The state a case starts from: its stacked ``deal`` or its ``position``."""
    ruleset, players, start = case["ruleset"], case["players"], case["start"]
    if "deal" in start:
        spec = start["deal"]
        return deal(ruleset, players, spec["deck"], spec.get("first_player", 0), spec.get("tokens"))
    return from_position(ruleset, players, start["position"])


# ------------------------------------------------------------ legal commands


def legal_commands(state: State) -> frozenset[Command]:
    """The distinct commands the player to act may give now."""
    # Between rounds and after the game nobody has a command: StartRound is the
    # dealer's step, not a player's (README, "Legal commands").
    if state.decision in ("next-round", "game-over"):
        return frozenset()
    me = state.current
    if state.decision == "draw":
        return frozenset({DrawCard(me)})
    if state.decision == "chancellor":
        return frozenset(_chancellor_answers(state.hands[me], me))
    return frozenset(_plays(state))


def _chancellor_answers(hand: Sequence[str], me: int) -> Iterator[KeepCard]:
    # chancellor.draw-two-keep-one / chancellor.one-card-in-deck: keep exactly one
    # card; chancellor.return-bottom-any-order: the rest go under in any order.
    # countess.not-during-chancellor (ruling 15): the Countess limits nothing here.
    # Identical cards give the same answer once (the frozenset dedupes).
    for index, keep in enumerate(hand):
        rest = [*hand[:index], *hand[index + 1 :]]
        for order in itertools.permutations(rest):
            yield KeepCard(me, keep, order)


def _plays(state: State) -> Iterator[PlayCard]:
    me = state.current
    playable = set(state.hands[me])  # two equal cards are one choice
    # countess.forced-by-king-or-prince: with a King or a Prince beside her, the
    # Countess is the only card that may be played (countess.voluntary otherwise;
    # with the Princess either card may go, ruling 17).
    if "Countess" in playable and playable & {"King", "Prince"}:
        playable = {"Countess"}
    # targeting.other-player, out.untargetable, handmaid.protection-until-next-turn:
    # the other players who may be chosen.
    choosable = [seat for seat in state.in_round() if seat != me and seat not in state.protected]
    for card in playable:
        if card in CHOOSE_OTHER:
            if not choosable:
                # handmaid.all-protected-no-effect, ruling 6: played with no target
                # and no guess (everyone else out or protected).
                yield PlayCard(me, card)
            elif card == "Guard":
                # guard.name-non-guard: one command per target and nameable kind.
                for target in choosable:
                    for name in guard_names(state.ruleset):
                        yield PlayCard(me, card, target, name)
            else:
                for target in choosable:
                    yield PlayCard(me, card, target)
        elif card == "Prince":
            # prince.any-player: any unprotected player in the round, oneself always
            # (handmaid.all-protected-prince-self: then only oneself).
            for target in [*choosable, me]:
                yield PlayCard(me, card, target)
        else:
            # Spy, Handmaid, Chancellor, Countess, Princess choose no one. Playing the
            # Princess is legal, it only knocks its player out.
            yield PlayCard(me, card)


# ------------------------------------------------------------------- effects


def apply(state: State, command: Command) -> State:
    """The state after a legal command (the caller checks legality)."""
    state = state.copy()
    me = state.current
    if isinstance(command, DrawCard):
        state.hands[me].append(state.deck.pop(0))  # turn.draw-then-play
        state.decision = "play"
        return state
    if isinstance(command, KeepCard):
        hand = state.hands[me]
        hand.remove(command.keep)
        _require(Counter(hand) == Counter(command.bottom), f"{command} does not return {hand}")
        state.hands[me] = [command.keep]
        # chancellor.return-bottom-any-order, ruling 4: under the deck in the order
        # listed, the last one bottom-most. It is not a discard (ruling 11).
        state.deck.extend(command.bottom)
        _end_turn(state)
        return state
    _play(state, command)
    return state


def _play(state: State, command: PlayCard) -> None:
    me, card, target = state.current, command.card, command.target
    # turn.played-cards-face-up: the played card goes to its player's pile.
    state.hands[me].remove(card)
    state.discards[me].append(card)
    if card == "Princess":
        _knock_out(state, me)  # princess.eliminated-when-played-or-discarded
    elif card == "Handmaid":
        state.protected.add(me)  # handmaid.protection-until-next-turn
    elif card == "Chancellor":
        # chancellor.draw-two-keep-one / chancellor.one-card-in-deck: take up to two;
        # chancellor.empty-deck-no-effect: with an empty deck nothing happens.
        taken = state.deck[:2]
        if taken:
            del state.deck[:2]
            state.hands[me].extend(taken)
            state.decision = "chancellor"  # the turn goes on until the KeepCard
            return
    elif target is None:
        pass  # Spy, Countess (no effect), or a card with nobody to choose (ruling 6)
    elif card == "Guard":
        # guard.correct-guess-eliminates
        if state.hands[target] == [command.guess]:
            _knock_out(state, target)
    elif card == "Priest":
        pass  # priest.look-secretly: nothing moves
    elif card == "Baron":
        # baron.compare-lower-out (the Baron's own player may lose), baron.tie-no-effect
        mine, theirs = VALUES[state.hands[me][0]], VALUES[state.hands[target][0]]
        if mine < theirs:
            _knock_out(state, me)
        elif theirs < mine:
            _knock_out(state, target)
    elif card == "King":
        # king.trade-hands: a swap, not a discard.
        state.hands[me], state.hands[target] = state.hands[target], state.hands[me]
    elif card == "Prince":
        # prince.discard-and-draw: the chosen player discards without effect...
        [discarded] = state.hands[target]
        state.hands[target] = []
        state.discards[target].append(discarded)
        if discarded == "Princess":
            _knock_out(state, target)  # prince.princess-discard-eliminates: no draw
        elif state.deck:
            state.hands[target].append(state.deck.pop(0))
        else:
            # prince.empty-deck-draws-set-aside (never the face-up cards)
            if state.set_aside is None:
                raise OracleError("the set-aside card is already gone (ruling 9)")
            state.hands[target].append(state.set_aside)
            state.set_aside = None
    # round.end-one-player-left: the round ends the instant one player is left,
    # even on the turn of the player just knocked out (ruling 19).
    if len(state.in_round()) == 1:
        _end_round(state)
    else:
        _end_turn(state)


def _knock_out(state: State, seat: int) -> None:
    # out.discard-hand: what is left in hand goes face up, without effect.
    state.out.add(seat)
    state.discards[seat].extend(state.hands[seat])
    state.hands[seat] = []
    state.protected.discard(seat)


def _end_turn(state: State) -> None:
    # round.end-deck-empty, ruling 8: checked once the turn is over.
    if not state.deck:
        _end_round(state)
        return
    # turn.order, out.turn-skipped: the next seat clockwise still in the round.
    seat = (state.current + 1) % state.players
    while seat in state.out:
        seat = (seat + 1) % state.players
    state.current = seat
    # handmaid.protection-until-next-turn: it ends as the player's turn starts.
    state.protected.discard(seat)
    # turn.draw-then-play: a draw the rules make happen, not a ply.
    state.hands[seat].append(state.deck.pop(0))
    state.decision = "play"


def _end_round(state: State) -> None:
    alive = state.in_round()
    if len(alive) == 1:
        winners = alive  # round.end-one-player-left
    else:
        # round.highest-card-wins (hand cards only), round.tie-all-win (ruling 18).
        best = max(VALUES[state.hands[seat][0]] for seat in alive)
        winners = [seat for seat in alive if VALUES[state.hands[seat][0]] == best]
    for seat in winners:
        state.tokens[seat] += 1  # round.winner-token
    # spy.sole-spy-token, spy.one-token-max (rulings 10, 11): exactly one player
    # still in the round with a Spy in their own discard pile gains one token.
    spies = [seat for seat in alive if "Spy" in state.discards[seat]]
    if len(spies) == 1:
        state.tokens[spies[0]] += 1
    # spy.not-a-round-win: only the round's winners may start the next round.
    state.round_winners = tuple(winners)
    state.protected.clear()  # ruling 7: protection ends with the round
    # game.tokens-to-win, ruling 12: checked once every token of the round is out.
    threshold = TOKENS_TO_WIN[state.players]
    won = any(tokens >= threshold for tokens in state.tokens)
    state.decision = "game-over" if won else "next-round"


def start_round(state: State, deck: Sequence[str] | None, first_player: int | None) -> State:
    """The dealer's StartRound between rounds, from a stacked deck."""
    _require(state.decision == "next-round", f"no round to start ({state.decision})")
    if deck is None:
        raise OutOfReach("a StartRound without a stacked deck shuffles at random")
    _check_edition_cards(state.ruleset, deck)
    # round.next-first-player: the previous round's winner starts;
    # round.next-first-player-tie-random: among tied winners the command picks.
    if first_player is None:
        if len(state.round_winners) != 1:
            raise OutOfReach("tied winners and no first_player: the engine draws at random")
        [first_player] = state.round_winners
    _require(first_player in state.round_winners, f"seat {first_player} did not win the round")
    # round.new-round-setup: everyone back in, piles empty, only tokens carry over.
    return deal(state.ruleset, state.players, deck, first_player, state.tokens)


# --------------------------------------------------------------------- perft


def perft(state: State, depth: int) -> list[int]:
    """How many distinct legal command sequences of each length 1..depth there are."""
    counts = [0] * depth

    def walk(node: State, level: int) -> None:
        commands = legal_commands(node)
        counts[level] += len(commands)
        if level + 1 < depth:
            for command in commands:
                walk(apply(node, command), level + 1)

    if depth > 0:
        walk(state, 0)
    return counts


# ------------------------------------------------------------ reading cases


def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_command(data: object) -> Command | None:
    """A case's PlayCard, KeepCard or DrawCard (an absent ``target`` or ``guess``
    is null); None for anything else (StartRound, malformed commands)."""
    if not isinstance(data, Mapping):
        return None
    kind, player = data.get("type"), data.get("player")
    if not isinstance(player, int) or isinstance(player, bool):
        return None
    if kind == "DrawCard":
        return DrawCard(player)
    if kind == "PlayCard":
        card, target, guess = data.get("card"), data.get("target"), data.get("guess")
        if not isinstance(card, str) or not (target is None or _is_seat(target)):
            return None
        if not (guess is None or isinstance(guess, str)):
            return None
        return PlayCard(player, card, target, guess)
    if kind == "KeepCard":
        keep, bottom = data.get("keep"), data.get("bottom")
        if not isinstance(keep, str) or not isinstance(bottom, list):
            return None
        if not all(isinstance(card, str) for card in bottom):
            return None
        return KeepCard(player, keep, tuple(bottom))
    return None


class Checkpoint(NamedTuple):
    step: int  # index of the checks step in the case's steps
    checks: Mapping[str, Any]
    state: State


def replay(case: Mapping[str, Any]) -> Iterator[Checkpoint]:
    """Play a case's command steps and yield the state at each checks step.

    Accepted commands must be legal for the oracle, and the commands a case
    expects to be rejected must not be; a rejected command changes nothing.
    """
    if case.get("start_rejected"):
        raise OutOfReach("start_rejected: the start itself is refused, there is nothing to play")
    state = from_start(case)
    for index, step in enumerate(case["steps"]):
        if "checks" in step:
            yield Checkpoint(index, step["checks"], state)
            continue
        data = step["command"]
        rejected = "rejected" in step
        if isinstance(data, Mapping) and data.get("type") == "StartRound":
            state = _replay_start_round(state, data, index, rejected)
            continue
        command = parse_command(data)
        legal = command is not None and command in legal_commands(state)
        if rejected:
            _require(
                not legal, f"steps[{index}]: {data} rejected in the case, legal for the oracle"
            )
        elif command is None or not legal:
            raise OracleError(
                f"steps[{index}]: {data} accepted in the case, illegal for the oracle"
            )
        else:
            state = apply(state, command)


def _replay_start_round(state: State, data: Mapping[str, Any], index: int, rejected: bool) -> State:
    try:
        started = start_round(state, data.get("deck"), data.get("first_player"))
    except OracleError:
        if rejected:
            return state
        raise
    except OutOfReach:
        if rejected:
            return state  # cannot tell, and a rejection changes nothing anyway
        raise
    _require(not rejected, f"steps[{index}]: StartRound rejected in the case, valid for the oracle")
    return started


def main(paths: Sequence[str]) -> int:
    """Print the oracle's perft and counts next to each case's."""
    good = True
    for path in paths:
        with open(path, encoding="utf-8") as file:
            case = yaml.safe_load(file)
        for step, checks, state in replay(case):
            if "perft" in checks:
                got = perft(state, len(checks["perft"]))
                good &= got == checks["perft"]
                print(f"{path} steps[{step}]: perft case {checks['perft']} oracle {got}")
            if "legal_command_count" in checks:
                want, count = checks["legal_command_count"], len(legal_commands(state))
                good &= count == want
                print(f"{path} steps[{step}]: count case {want} oracle {count}")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
