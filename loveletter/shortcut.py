"""The common turn, computed directly.

``push(state, command)`` is defined as ``evolve`` folded over
``decide(state, command)``. Building the events only to apply them costs
more than the rules work itself, and simulations push millions of plain
turns, so :func:`play_shortcut` computes the next state of an ordinary
turn directly: the card leaves the hand, its effect happens, the next
player in the round starts their turn and draws.

It answers ``None`` for anything less ordinary (the Chancellor, a Prince
that must take the set-aside card) and the engine then takes the event
path, which stays the single definition of the rules. When the turn ends
the round it answers a scratch :class:`~loveletter.evolution._Draft` of the
state after the card's effect, and the engine finishes the round through
events from there. :func:`deal_shortcut` does the same for dealing a round.

``tests/properties`` checks on random games that both paths give equal
states for every command. The shortcut never validates: the command must
already have passed ``_check_play``.
"""

from __future__ import annotations

from loveletter.cards import Card
from loveletter.commands import PlayCard
from loveletter.evolution import _Draft
from loveletter.interning import interned
from loveletter.rulesets import Scoring
from loveletter.state import Decision, GameState, Sighting, Table, build_state, next_player

_sighting = interned(Sighting)
_EMPTY: frozenset[int] = frozenset()
_PLAY = Decision.PLAY
_GUARD = Card.GUARD
_PRIEST = Card.PRIEST
_BARON = Card.BARON
_HANDMAID = Card.HANDMAID
_PRINCE = Card.PRINCE
_KING = Card.KING
_PRINCESS = Card.PRINCESS
_RANKS = Scoring.RANKS
#: the cards whose effects this module knows; any other (the Chancellor,
#: the Premium cards that choose players) takes the event path. The Count,
#: the Constable and the Assassin do nothing when played.
_COVERED = frozenset(
    {
        Card.SPY,
        _GUARD,
        _PRIEST,
        _BARON,
        _HANDMAID,
        _PRINCE,
        _KING,
        Card.COUNTESS,
        _PRINCESS,
        Card.COUNT,
        Card.CONSTABLE,
        Card.ASSASSIN,
    }
)


def play_shortcut(state: GameState, command: PlayCard) -> GameState | _Draft | None:
    """The state after a validated ``command``; the state after its effect
    when the round ends; ``None`` to use events."""
    card = command.card
    table = state.table
    if card not in _COVERED:
        return None
    # A Sycophant's requirement was checked with the command; playing any
    # card ends it, which the states built here do by leaving it out.
    setup = table.ruleset.setup(table.players)
    player = command.player
    target = command.target
    # Private scratch copies of the per-seat tuples: one copy in, one out.
    hands = list(state.hands)
    discards = list(state.discards)
    hand = hands[player]
    rest = hand[1:] if hand[0] == card else hand[:1]
    hands[player] = rest
    discards[player] = (*discards[player], card)
    deck = state.deck
    out = state.out
    protected = state.protected
    sightings = state.sightings
    exits = state.exits
    loser = -1
    if target is not None:
        if card is _GUARD:
            theirs = hands[target][0]
            if theirs in setup.reacting:
                return None  # the Assassin answers the Guard
            ruleset = table.ruleset
            if command.guess == (ruleset.values[theirs] if ruleset.names_numbers else theirs):
                loser = target
        elif card is _PRIEST:
            seen = _sighting(player, target, hands[target][0], state.turn_number, _PRIEST)
            sightings = (*sightings, seen)
        elif card is _BARON:
            values = table.ruleset.values
            mine = rest[0]
            theirs = hands[target][0]
            turn = state.turn_number
            sightings = (
                *sightings,
                _sighting(player, target, theirs, turn, _BARON),
                _sighting(target, player, mine, turn, _BARON),
            )
            if values[mine] > values[theirs]:
                loser = target
            elif values[mine] < values[theirs]:
                loser = player
        elif card is _PRINCE:
            held = hands[target]
            if _PRINCESS in held:
                paying = setup.knocked_out_tokens
                if paying and any(kind in discards[target] for kind, _ in paying):
                    return None  # the Constable pays for the knock-out
                discards[target] += held
                hands[target] = ()
                out = out | {target}
                if target in protected:
                    protected = protected - {target}
                if table.ruleset.scoring is _RANKS:
                    exits = (*exits, target)
            else:
                if not deck:
                    return None  # the set-aside card; the round ends after this turn
                discards[target] += held
                hands[target] = (deck[0],)
                deck = deck[1:]
        elif card is _KING:
            given = hands[player]
            received = hands[target]
            turn = state.turn_number
            sightings = (
                *sightings,
                *(_sighting(player, target, c, turn, _KING) for c in given),
                *(_sighting(target, player, c, turn, _KING) for c in received),
            )
            hands[player], hands[target] = received, given
    elif card is _HANDMAID:
        protected = protected | {player}
    elif card is _PRINCESS:
        loser = player
    if loser >= 0:
        paying = setup.knocked_out_tokens
        if paying and any(kind in discards[loser] for kind, _ in paying):
            return None  # the Constable pays for the knock-out
        discards[loser] += hands[loser]
        hands[loser] = ()
        out = out | {loser}
        if loser in protected:
            protected = protected - {loser}
        if table.ruleset.scoring is _RANKS:
            exits = (*exits, loser)
    n = table.players
    if len(deck) <= table.ruleset.round_end_pile or n - len(out) < 2:
        d = _Draft()
        d.table = table
        d.decision = _PLAY
        d.current = player
        d.turn_number = state.turn_number
        d.deck = deck
        d.hands = tuple(hands)
        d.discards = tuple(discards)
        d.out = out
        d.protected = protected
        d.sightings = sightings
        d.pending = ()
        d.required = None
        d.marks = state.marks
        d.returns = state.returns
        d.exits = exits
        d.edits = None
        return d
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
    if nxt in protected:
        protected = protected - {nxt}
    hands[nxt] = (*hands[nxt], deck[0])
    return build_state(
        table,
        _PLAY,
        nxt,
        state.turn_number + 1,
        deck[1:],
        tuple(hands),
        tuple(discards),
        out,
        protected,
        sightings,
        (),
        None,
        state.marks,
        state.returns,
        exits,
    )


def deal_shortcut(
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
        Table(
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
