"""Deciding: ``decide(state, command) -> events``, and the public verbs
built on it (``push``, ``step``, ``replay``, ``legal_commands``).

``decide`` validates a command against the rules, asks the card's effect
function for the effect's events, and adds what the rules make happen next
without anyone choosing: the next player's turn and draw, or the end of the
round, its tokens and the end of the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations

from loveletter.cards import Card
from loveletter.chance import choose, shuffled
from loveletter.commands import Command, DrawCard, KeepCard, PlayCard, StartRound
from loveletter.effects import EFFECTS
from loveletter.effects._common import card_drawn, card_played
from loveletter.errors import IllegalCommand, RejectionKind
from loveletter.events import (
    CardDealt,
    CardRemovedFaceUp,
    CardSetAside,
    CardsReturned,
    Event,
    GameEnded,
    GameStarted,
    PositionEstablished,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.evolution import _Draft, apply_to_draft, freeze, initial_state, thaw
from loveletter.interning import LIMIT, interned
from loveletter.rules import implements
from loveletter.rulesets import Ruleset, Targeting, get_ruleset
from loveletter.shortcut import deal_shortcut, play_shortcut
from loveletter.state import Decision, GameState

R = RejectionKind
turn_started = interned(TurnStarted)
card_set_aside = interned(CardSetAside)
card_removed_face_up = interned(CardRemovedFaceUp)
card_dealt = interned(CardDealt)
token_awarded = interned(TokenAwarded)

_PLAY = Decision.PLAY
_OTHER = Targeting.OTHER
_NONE = Targeting.NONE
_COUNTESS = Card.COUNTESS
_GUARD = Card.GUARD
_SPY = Card.SPY
_ONE_PLAYER_LEFT = RoundEndReason.ONE_PLAYER_LEFT
_DECK_EMPTY = RoundEndReason.DECK_EMPTY
_ROUND_WIN = TokenReason.ROUND_WIN
_SPY_TOKEN = TokenReason.SPY


# --------------------------------------------------------------------------
# starting a game


@implements(
    "setup.player-count",
    "setup.first-player",
    "setup.set-aside-face-down",
    "setup.two-player-face-up",
    "setup.deal-one-each",
)
def deal_events(
    ruleset: Ruleset, players: int, round_number: int, first_player: int, deck: Sequence[Card]
) -> tuple[Event, ...]:
    """The events that deal a round from ``deck`` (top first): set one card
    aside, three face up with two players, one to each player starting with
    the first player, then the first player's turn and draw (ruling 3)."""
    deck = tuple(deck)
    events: list[Event] = [
        RoundStarted(round_number, first_player, deck),
        card_set_aside(deck[0]),
    ]
    position = 1
    for _ in range(ruleset.face_up_count(players)):
        events.append(card_removed_face_up(deck[position]))
        position += 1
    for offset in range(players):
        seat = (first_player + offset) % players
        events.append(card_dealt(seat, deck[position]))
        position += 1
    events.append(turn_started(first_player))
    events.append(card_drawn(first_player, deck[position], False))
    return tuple(events)


def start_game(
    ruleset: str | Ruleset,
    players: int,
    *,
    seed: int = 0,
    first_player: int = 0,
    deck: Sequence[Card] | None = None,
) -> tuple[Event, ...]:
    """The opening events of a game: ``GameStarted`` and the first deal.

    The deck is shuffled from ``seed`` unless ``deck`` (top first) stacks it.
    ``first_player`` is the seat that starts the first round (ruling 1).
    """
    rules = get_ruleset(ruleset)
    if not isinstance(players, int) or not rules.supports(players):
        raise ValueError(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {players}"
        )
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    if not isinstance(first_player, int) or not 0 <= first_player < players:
        raise ValueError(f"first_player must be a seat from 0 to {players - 1}")
    if deck is None:
        order = shuffled(rules.deck, seed, 1)
    else:
        order = tuple(deck)
        _check_deck(rules, order)
    return (
        GameStarted(rules.name, players, seed, first_player),
        *deal_events(rules, players, 1, first_player, order),
    )


def new_game(
    ruleset: str | Ruleset,
    players: int,
    *,
    seed: int = 0,
    first_player: int = 0,
    deck: Sequence[Card] | None = None,
) -> GameState:
    """A new game, its first round dealt and the first player to play.

    >>> state = new_game("2019-classic", 3, seed=42)
    >>> state.to_act, len(state.hand(0)), len(state.deck)
    (0, 2, 11)
    """
    return replay(start_game(ruleset, players, seed=seed, first_player=first_player, deck=deck))


def _check_deck(ruleset: Ruleset, deck: tuple[Card, ...]) -> None:
    if not all(isinstance(card, Card) for card in deck):
        raise IllegalCommand(R.INVALID_DECK, "the deck must list cards")
    if tuple(sorted(deck)) != ruleset.deck:
        raise IllegalCommand(
            R.INVALID_DECK,
            f"the deck must hold exactly the {len(ruleset.deck)} cards of {ruleset.name}",
        )


def replay(events: Iterable[Event]) -> GameState:
    """Rebuild a state from a complete (unredacted) event log, which must
    begin with ``GameStarted`` or ``PositionEstablished``."""
    iterator = iter(events)
    first = next(iterator, None)
    if isinstance(first, GameStarted):
        state = initial_state(first)
    elif isinstance(first, PositionEstablished) and first.position is not None:
        from loveletter.positions import from_position

        state = from_position(first.position)
    else:
        raise ValueError("an event log starts with GameStarted or PositionEstablished")
    d = thaw(state)
    apply_to_draft(d, iterator)
    return freeze(d)


# --------------------------------------------------------------------------
# deciding


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``.

    Raises :class:`IllegalCommand` (with a :class:`RejectionKind`) when the
    rules do not allow it; ``state`` is immutable and stays as it was.
    """
    return _resolve(state, command)[0]


def push(state: GameState, command: Command) -> GameState:
    """The state after ``command``: ``evolve`` folded over ``decide``.

    Most turns take a shortcut (:mod:`loveletter.shortcut`) that builds the
    same state without materializing the events; the two are kept equal by
    the property tests.
    """
    kind = type(command)
    if kind is StartRound:
        assert isinstance(command, StartRound)
        first, deck = _next_deal(state, command)
        return deal_shortcut(state, state.round_number + 1, first, deck)
    if kind is PlayCard:
        assert isinstance(command, PlayCard)
        _check_play(state, command)
        after = play_shortcut(state, command)
        if type(after) is _Draft:  # the round ends: finish it through events
            apply_to_draft(after, _finish_turn(after))
            return freeze(after)
        if after is not None:
            assert isinstance(after, GameState)
            return after
    return _resolve(state, command)[1]


def step(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Both the next state and the events that lead to it."""
    events, after = _resolve(state, command)
    return after, events


def _resolve(state: GameState, command: Command) -> tuple[tuple[Event, ...], GameState]:
    kind = type(command)
    if kind is PlayCard:
        assert isinstance(command, PlayCard)
        events = _play(state, command)
    elif kind is KeepCard:
        assert isinstance(command, KeepCard)
        events = _keep(state, command)
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
    else:
        raise IllegalCommand(R.MALFORMED_COMMAND, f"not a command: {command!r}")
    d = thaw(state)
    apply_to_draft(d, events)
    if d.decision is _PLAY:  # the turn is over unless a choice is now pending
        after = _finish_turn(d)
        apply_to_draft(d, after)
        events += after
    return events, freeze(d)


def _expect(state: GameState, decision: Decision, player: int) -> None:
    if type(player) is not int:  # not even a bool or a float equal to a seat
        raise IllegalCommand(R.MALFORMED_COMMAND, f"player must be a seat, not {player!r}")
    if state.decision is not decision:
        if state.decision is Decision.GAME_OVER:
            raise IllegalCommand(R.GAME_OVER, "the game is over")
        raise IllegalCommand(R.WRONG_DECISION, f"the game is waiting for {state.decision.value!r}")
    if player != state.current:
        raise IllegalCommand(
            R.NOT_YOUR_TURN, f"it is player {state.current}'s turn, not player {player}'s"
        )


@implements(
    "turn.draw-then-play",
    "turn.played-cards-face-up",
    "countess.forced-by-king-or-prince",
    "countess.voluntary",
    "targeting.other-player",
    "out.untargetable",
    "handmaid.protection-until-next-turn",
    "handmaid.all-protected-no-effect",
    "handmaid.all-protected-prince-self",
    "guard.name-non-guard",
)
def _play(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    _check_play(state, command)
    card = command.card
    return (
        card_played(command.player, card, command.target, command.guess),
        *EFFECTS[card](state, command),
    )


def _check_play(state: GameState, command: PlayCard) -> None:
    """Raise :class:`IllegalCommand` unless the rules allow ``command`` now."""
    player = command.player
    if state.decision is not _PLAY or player != state.current or type(player) is not int:
        _expect(state, _PLAY, player)
    card = command.card
    hand = state.hands[player]
    if type(card) is not Card:
        raise IllegalCommand(R.MALFORMED_COMMAND, f"card must be a Card, not {card!r}")
    if card not in hand:
        raise IllegalCommand(R.CARD_NOT_IN_HAND, f"player {player} does not hold {_name(card)}")
    ruleset = state.table.ruleset
    if card in ruleset.countess_forcers and _COUNTESS in hand:
        raise IllegalCommand(
            R.COUNTESS_REQUIRED, f"the Countess must be played instead of the {card}"
        )
    target = command.target
    targeting = ruleset.targeting[card]
    if targeting is _NONE:
        if target is not None:
            raise IllegalCommand(R.TARGET_NOT_ALLOWED, f"the {card} does not choose a player")
    elif (
        target is None
        or target == player
        or type(target) is not int
        or target in state.out
        or target in state.protected
        or not 0 <= target < state.table.players
    ):
        _check_target(state, player, card, target, targeting)  # raises, or allows an edge case
    guess = command.guess
    if card is _GUARD and target is not None:
        if guess not in ruleset.guard_names or type(guess) is not Card:
            if guess is None:
                raise IllegalCommand(R.GUESS_REQUIRED, "the Guard must name a card")
            raise IllegalCommand(
                R.GUESS_NOT_ALLOWED, f"the Guard cannot name {_name(guess)} in {ruleset.name}"
            )
    elif guess is not None:
        raise IllegalCommand(R.GUESS_NOT_ALLOWED, "only a Guard with a target names a card")


def _check_target(
    state: GameState, player: int, card: Card, target: int | None, targeting: Targeting
) -> None:
    if target is None:
        if targeting is not _OTHER or _choosable(state, player):
            raise IllegalCommand(R.TARGET_REQUIRED, f"the {card} must choose a player")
        return
    if not isinstance(target, int) or isinstance(target, bool):
        raise IllegalCommand(R.MALFORMED_COMMAND, f"target must be a seat, not {target!r}")
    if not 0 <= target < state.players:
        raise IllegalCommand(R.NO_SUCH_PLAYER, f"there is no player {target}")
    if target == player:
        if targeting is _OTHER:
            raise IllegalCommand(R.TARGET_NOT_ALLOWED, f"the {card} must choose another player")
        return
    if target in state.out:
        raise IllegalCommand(R.TARGET_OUT_OF_ROUND, f"player {target} is out of the round")
    if target in state.protected:
        raise IllegalCommand(R.TARGET_PROTECTED, f"player {target} is protected by a Handmaid")


def _choosable(state: GameState, player: int) -> tuple[int, ...]:
    """Other players a card may choose: in the round and not protected."""
    return _targets(state.players, player, state.out, state.protected)


@interned
def _targets(
    players: int, player: int, out: frozenset[int], protected: frozenset[int]
) -> tuple[int, ...]:
    return tuple(p for p in range(players) if p != player and p not in out and p not in protected)


def _name(card: object) -> str:
    return str(card) if isinstance(card, Card) else repr(card)


@implements(
    "chancellor.draw-two-keep-one",
    "chancellor.return-bottom-any-order",
    "countess.not-during-chancellor",
)
def _keep(state: GameState, command: KeepCard) -> tuple[Event, ...]:
    player = command.player
    _expect(state, Decision.CHANCELLOR, player)
    hand = state.hands[player]
    bottom = command.bottom
    if not isinstance(bottom, tuple) or not all(isinstance(c, Card) for c in bottom):
        raise IllegalCommand(R.MALFORMED_COMMAND, "bottom must be a sequence of cards")
    if not isinstance(command.keep, Card):
        raise IllegalCommand(R.MALFORMED_COMMAND, f"keep must be a card, not {command.keep!r}")
    if sorted((command.keep, *bottom)) != sorted(hand):
        raise IllegalCommand(
            R.INVALID_CHOICE,
            f"keep one card and return the other {len(hand) - 1} of {', '.join(map(str, hand))}",
        )
    return (CardsReturned(player, len(bottom), bottom),)


def _draw(state: GameState, command: DrawCard) -> tuple[Event, ...]:
    _expect(state, Decision.DRAW, command.player)
    return (card_drawn(command.player, state.deck[0], False),)


def _start_round(state: GameState, command: StartRound) -> tuple[Event, ...]:
    first, deck = _next_deal(state, command)
    return deal_events(
        state.table.ruleset, state.table.players, state.round_number + 1, first, deck
    )


@implements("round.next-first-player", "round.next-first-player-tie-random", "setup.shuffle")
def _next_deal(state: GameState, command: StartRound) -> tuple[int, tuple[Card, ...]]:
    """The next round's first player and deck order (top first)."""
    if state.decision is not Decision.NEXT_ROUND:
        if state.decision is Decision.GAME_OVER:
            raise IllegalCommand(R.GAME_OVER, "the game is over")
        raise IllegalCommand(R.WRONG_DECISION, "the round is still being played")
    round_number = state.round_number + 1
    previous = state.round_result.winners if state.round_result else (state.current,)
    first = command.first_player
    if first is None:
        first = (
            previous[0]
            if len(previous) == 1
            else choose(previous, state.seed, round_number, "first-player")
        )
    elif type(first) is not int:
        raise IllegalCommand(R.MALFORMED_COMMAND, f"first_player must be a seat, not {first!r}")
    elif first not in previous:
        raise IllegalCommand(
            R.INVALID_CHOICE,
            f"the first player must be one of the previous round's winners {list(previous)}",
        )
    if command.deck is None:
        deck = shuffled(state.ruleset.deck, state.seed, round_number)
    else:
        if not isinstance(command.deck, tuple):
            raise IllegalCommand(R.INVALID_DECK, "the deck must be a sequence of cards")
        deck = command.deck
        _check_deck(state.ruleset, deck)
    return first, deck


# --------------------------------------------------------------------------
# what happens after a turn


@implements("turn.order", "out.turn-skipped", "round.end-one-player-left", "round.end-deck-empty")
def _finish_turn(d: _Draft) -> tuple[Event, ...]:
    out = d.out
    n = d.table.players
    deck = d.deck
    if deck and n - len(out) > 1:
        player = d.current
        while True:
            player = (player + 1) % n
            if player not in out:
                return (turn_started(player), card_drawn(player, deck[0], False))
    live = [p for p in range(n) if p not in out]
    return _end_round(d, _ONE_PLAYER_LEFT if len(live) == 1 else _DECK_EMPTY, live)


@implements(
    "round.highest-card-wins",
    "round.tie-all-win",
    "round.winner-token",
    "spy.sole-spy-token",
    "spy.one-token-max",
    "spy.not-a-round-win",
    "game.tokens-to-win",
    "game.simultaneous-winners",
)
def _end_round(d: _Draft, reason: RoundEndReason, live: list[int]) -> tuple[Event, ...]:
    table = d.edits or d.table
    ruleset = table.ruleset
    if reason is _ONE_PLAYER_LEFT:
        winners = tuple(live)
        revealed: tuple[tuple[int, Card], ...] = ()
    else:
        hands = d.hands
        revealed = tuple((p, hands[p][0]) for p in live)
        values = ruleset.values
        best = max(values[card] for _, card in revealed)
        winners = tuple(p for p, card in revealed if values[card] == best)
    events: list[Event] = [RoundEnded(reason, winners, revealed)]
    tokens = list(table.tokens)
    for p in winners:
        tokens[p] += 1
        events.append(token_awarded(p, _ROUND_WIN, tokens[p]))
    if _SPY in ruleset.kinds:
        discards = d.discards
        spies = [p for p in live if _SPY in discards[p]]
        if len(spies) == 1:
            spy = spies[0]
            tokens[spy] += 1
            events.append(token_awarded(spy, _SPY_TOKEN, tokens[spy]))
    needed = ruleset.tokens_to_win(table.players)
    if max(tokens) >= needed:
        events.append(GameEnded(tuple(p for p, count in enumerate(tokens) if count >= needed)))
    return tuple(events)


# --------------------------------------------------------------------------
# legal commands


def playable_cards(state: GameState) -> tuple[Card, ...]:
    """The distinct cards the player to act may play, in card order (empty
    unless a card must be played)."""
    if state.decision is not _PLAY:
        return ()
    return _playable(state.table.ruleset.countess_forcers, state.hands[state.current])


@interned
def _playable(forcers: frozenset[Card], hand: tuple[Card, ...]) -> tuple[Card, ...]:
    cards = tuple(sorted(set(hand)))
    if _COUNTESS in cards and any(card in forcers for card in hand):
        return (_COUNTESS,)
    return cards


_LEGAL_PLAYS: dict[tuple[object, ...], tuple[Command, ...]] = {}


def legal_commands(state: GameState, card: Card | None = None) -> tuple[Command, ...]:
    """Every command the rules allow now, in a fixed order.

    Order: by card (``Card`` order), then target seat (``None`` first), then
    the Guard's named card; for a Chancellor, by kept card then returned
    order; between rounds the single ``StartRound()`` (a stacked deck or a
    chosen tied first player is accepted too). With ``card``, only the
    commands that play that card.
    """
    decision = state.decision
    if decision is _PLAY:
        player = state.current
        table = state.table
        hand = state.hands[player]
        key = (table.ruleset, table.players, player, hand, state.out, state.protected, card)
        try:
            return _LEGAL_PLAYS[key]
        except KeyError:
            pass
        ruleset = table.ruleset
        cards = _playable(ruleset.countess_forcers, state.hands[player])
        if card is not None:
            cards = (card,) if card in cards else ()
        targets = _targets(table.players, player, state.out, state.protected)
        commands: tuple[Command, ...] = ()
        for c in cards:
            commands += _play_commands(ruleset, player, c, targets)
        if len(_LEGAL_PLAYS) >= LIMIT:
            _LEGAL_PLAYS.clear()
        _LEGAL_PLAYS[key] = commands
        return commands
    if card is not None:
        return ()
    if decision is Decision.CHANCELLOR:
        return _keep_commands(state.current, tuple(sorted(state.hands[state.current])))
    if decision is Decision.DRAW:
        return (DrawCard(state.current),)
    if decision is Decision.NEXT_ROUND:
        return (StartRound(),)
    return ()


@interned
def _play_commands(
    ruleset: Ruleset, player: int, card: Card, others: tuple[int, ...]
) -> tuple[PlayCard, ...]:
    targeting = ruleset.targeting[card]
    if targeting is Targeting.NONE:
        return (PlayCard(player, card),)
    targets: tuple[int, ...] = others
    if targeting is Targeting.ANY:
        targets = tuple(sorted((*others, player)))
    if not targets:
        return (PlayCard(player, card),)
    if card is _GUARD:
        return tuple(PlayCard(player, card, t, g) for t in targets for g in ruleset.guard_names)
    return tuple(PlayCard(player, card, t) for t in targets)


@interned
def _keep_commands(player: int, hand: tuple[Card, ...]) -> tuple[KeepCard, ...]:
    commands: list[KeepCard] = []
    for keep in sorted(set(hand)):
        rest = list(hand)
        rest.remove(keep)
        for order in sorted(set(permutations(rest))):
            commands.append(KeepCard(player, keep, order))
    return tuple(commands)
