"""Contracts on :func:`loveletter.evolution.evolve`.

For every event type: applied to a mid-round state, evolve either refuses
the event (``EventMismatch``) or returns a state that holds the same cards
(as a multiset over deck, set-aside, face-up cards, hands and piles), in
which no player has fewer tokens, and whose fields other than those the
event concerns are unchanged. A new round (``RoundStarted``) replaces
every zone with the dealt deck and keeps the tokens.

The event's fields are symbolic (seats, card indices, counts), so
CrossHair itself finds the fields that make an event fit the state (the
top of the deck, a card in the hand) as well as those that do not.
"""

from __future__ import annotations

import attrs

from loveletter.cards import Card
from loveletter.errors import EventMismatch
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardRevealed,
    CardSetAside,
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
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.evolution import evolve_unchecked as evolve  # the appliers, as the engine runs them
from loveletter.state import Decision, GameState, Table

from .contracts_harness import (
    RULESETS,
    all_cards,
    concrete,
    fresh_caches,
    kind,
    kinds,
    make_state,
    truth,
)

_STATE_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.name != "table")
_TABLE_FIELDS = tuple(f.name for f in attrs.fields(Table))

#: the fields (of the state or its table) each event may change
_CONCERNS: dict[type[Event], frozenset[str]] = {
    CardDrawn: frozenset({"deck", "set_aside", "hands", "decision"}),
    CardPlayed: frozenset({"hands", "discards", "required"}),
    # a redraw answers the Bishop's pending offer
    CardDiscarded: frozenset({"hands", "discards", "decision", "pending"}),
    PlayerEliminated: frozenset({"hands", "discards", "out", "protected"}),
    HandsTraded: frozenset({"hands", "sightings"}),
    ChancellorDrew: frozenset({"deck", "hands", "decision"}),
    CardsReturned: frozenset({"deck", "hands", "returns", "decision"}),
    CardDealt: frozenset({"deck", "hands"}),
    CardSetAside: frozenset({"deck", "set_aside"}),
    CardRemovedFaceUp: frozenset({"deck", "face_up"}),
    PlayerProtected: frozenset({"protected"}),
    # a Cardinal's look answers its pending offer
    HandSeen: frozenset({"sightings", "decision", "pending"}),
    HandsCompared: frozenset({"sightings"}),
    TurnStarted: frozenset({"current", "decision", "turn_number", "protected"}),
    ChoiceRestricted: frozenset({"required"}),
    PlayerMarked: frozenset({"marks"}),
    CardRevealed: frozenset(),
    LookOffered: frozenset({"decision", "pending"}),
    RedrawOffered: frozenset({"decision", "pending"}),
    OptionDeclined: frozenset({"decision", "pending"}),
    RoundEnded: frozenset({"round_result", "decision", "protected", "required", "pending"}),
    TokenAwarded: frozenset({"tokens"}),
    GameEnded: frozenset({"decision", "pending", "winners"}),
    GameTied: frozenset({"contenders"}),
}

_DECISIONS = (
    Decision.PLAY,
    Decision.DRAW,
    Decision.CHANCELLOR,
    Decision.LOOK,
    Decision.REDRAW,
)


def _state(r: int, a: int, b: int, decision: int) -> GameState:
    """Three players mid-round: seat 0 to play with two cards, seat 1
    protected, a Chancellor's return under the deck; the pending seats fit
    the decision."""
    pending = {Decision.LOOK: (1, 2), Decision.REDRAW: (1,)}.get(_DECISIONS[decision], ())
    return make_state(
        r,
        ((kind(r, a), kind(r, b)), (Card.PRIEST,), (kind(r, b),)),
        deck=(kind(r, a), Card.GUARD, Card.BARON),
        set_aside=Card.KING,
        discards=((Card.HANDMAID,), (Card.HANDMAID,), (Card.PRINCESS,)),
        protected=frozenset({1}),
        tokens=(1, 0, 2),
        decision=_DECISIONS[decision],
        pending=pending,
    )


def _changed(before: GameState, after: GameState) -> set[str]:
    """The names of the fields (of the state and its table) that differ."""
    changed = {name for name in _STATE_FIELDS if getattr(before, name) != getattr(after, name)}
    changed.update(
        name for name in _TABLE_FIELDS if getattr(before.table, name) != getattr(after.table, name)
    )
    return changed


def _check(before: GameState, event: Event) -> None:
    """The shared postcondition: refused, or cards kept, tokens not lost,
    only the event's fields changed, and what the event says done."""
    try:
        after = evolve(before, event)
    except EventMismatch:
        return
    assert all_cards(after) == all_cards(before)
    assert all(t >= s for s, t in zip(before.tokens, after.tokens, strict=True))
    assert _changed(before, after) <= _CONCERNS[type(event)]
    _check_effect(before, after, event)


def _check_effect(before: GameState, after: GameState, event: Event) -> None:
    """What some events must do, beyond the fields they may touch."""
    if type(event) is CardDrawn:
        assert after.hands[event.player] == (*before.hands[event.player], event.card)
    elif type(event) is PlayerEliminated:  # out.discard-hand, out.untargetable
        p = event.player
        assert after.hands[p] == () and p in after.out and p not in after.protected
    elif type(event) is PlayerProtected:
        assert event.player in after.protected
    elif type(event) is TurnStarted:  # handmaid.protection-until-next-turn
        assert after.current == event.player and event.player not in after.protected
        assert after.turn_number == before.turn_number + 1
    elif type(event) is ChoiceRestricted:
        assert after.required == event.required
    elif type(event) is PlayerMarked:
        assert after.marks[-1] == (event.player, event.marked)
    elif type(event) is LookOffered:
        assert after.decision is Decision.LOOK and after.pending == event.owners
    elif type(event) is RedrawOffered:
        assert after.decision is Decision.REDRAW and after.pending == (event.player,)


def evolve_moves_cards_without_creating_or_losing_any(
    which: int, decision: int, seat: int, other: int, source: int, r: int, a: int, b: int, x: int
) -> None:
    """The events that move cards between zones. Rules: out.discard-hand,
    turn.played-cards-face-up, king.trade-hands,
    chancellor.return-bottom-any-order, setup.set-aside-face-down,
    setup.two-player-face-up, setup.deal-one-each."""
    assert 0 <= which < 10
    assert 0 <= decision < len(_DECISIONS)
    assert 0 <= seat < 3 and 0 <= other < 3
    assert 0 <= source < 4
    assert 0 <= r < 3
    assert 0 <= a < kinds(r) and 0 <= b < kinds(r) and 0 <= x < kinds(r)
    fresh_caches()
    which, decision, seat, other, source, r, a, b, x = concrete(
        which, decision, seat, other, source, r, a, b, x
    )
    before = _state(r, a, b, decision)
    # Most events fit a state only with the right card (the top of the
    # deck, one in the hand): offering those as choices lets CrossHair
    # reach the events evolve accepts as often as those it refuses.
    card = (before.deck[0], Card.KING, before.hands[seat][0], kind(r, x))[source]
    second = before.deck[1]
    hand = before.hands[seat]
    events: tuple[Event, ...] = (
        CardDrawn(seat, card, other == 0),
        CardPlayed(seat, card, other, None, None),
        CardDiscarded(seat, card),
        PlayerEliminated(seat, EliminationReason.GUARD_GUESS, hand if other else (card,)),
        HandsTraded(seat, other),
        ChancellorDrew(seat, other, (card, second)[:other]),
        CardsReturned(seat, other, (card, second)[:other]),
        CardDealt(seat, card),
        CardSetAside(card),
        CardRemovedFaceUp(card),
    )
    _check(before, events[which])


def evolve_knowledge_and_choices_move_no_card(
    which: int, decision: int, seat: int, other: int, r: int, x: int
) -> None:
    """The events that change what players know or must choose next.
    Rules: handmaid.protection-until-next-turn, priest.look-secretly,
    baron.secret-comparison, turn.order, sycophant.next-card-must-choose,
    jester.mark-expected-winner, cardinal.optional-look,
    bishop.target-may-redraw."""
    assert 0 <= which < 10
    assert 0 <= decision < len(_DECISIONS)
    assert 0 <= seat < 3 and 0 <= other < 3
    assert 0 <= r < 3
    assert 0 <= x < kinds(r)
    fresh_caches()
    which, decision, seat, other, r, x = concrete(which, decision, seat, other, r, x)
    before = _state(r, 0, 1, decision)
    card = kind(r, x)
    events: tuple[Event, ...] = (
        PlayerProtected(seat),
        HandSeen(seat, other, card, Card.PRIEST),
        HandsCompared(seat, other, card, card, Card.BARON),
        TurnStarted(seat),
        ChoiceRestricted(seat, other),
        PlayerMarked(seat, other),
        CardRevealed(seat, card),
        LookOffered(seat, (seat, other)),
        RedrawOffered(seat),
        OptionDeclined(seat),
    )
    _check(before, events[which])


def evolve_outcomes_only_add_tokens(
    r: int, decision: int, which: int, seat: int, total: int, other: int
) -> None:
    """The events that end rounds and games and award tokens: a token
    award raises exactly one player's count by one. Rules:
    round.winner-token, game.tokens-to-win, game.tie-break-round,
    game.simultaneous-winners."""
    assert 0 <= r < 3
    assert 0 <= decision < len(_DECISIONS)
    assert 0 <= which < 4
    assert 0 <= seat < 3 and 0 <= other < 3
    assert -1 <= total <= 4
    fresh_caches()
    r, decision, which, seat, total, other = concrete(r, decision, which, seat, total, other)
    before = _state(r, 0, 1, decision)
    winners = tuple(sorted({seat, other}))
    events: tuple[Event, ...] = (
        RoundEnded(RoundEndReason.DECK_EMPTY, winners, ((seat, Card.GUARD),)),
        TokenAwarded(seat, TokenReason.ROUND_WIN, total),
        GameEnded(winners),
        GameTied(winners),
    )
    _check(before, events[which])
    if which == 1:
        try:
            after = evolve(before, events[1])
        except EventMismatch:
            assert total != before.tokens[seat] + 1
            return
        assert after.tokens[seat] == before.tokens[seat] + 1


def evolve_new_round_deals_the_given_deck_and_keeps_tokens(
    r: int, players: int, first: int, tie_break: bool, rotate: int
) -> None:
    """A new round replaces every zone by the round's deck (all the cards
    of the edition at that player count), clears the round's knowledge and
    choices, and keeps every token. Rules: round.new-round-setup,
    setup.shuffle, game.tie-break-round."""
    assert 0 <= r < 3
    assert RULESETS[r].min_players <= players <= RULESETS[r].max_players
    assert 0 <= first < players
    assert 0 <= rotate < 4
    fresh_caches()
    r, players, first, rotate = concrete(r, players, first, rotate)
    tie_break = truth(tie_break)
    before = _state(r, 0, 1, 0)
    before = attrs.evolve(
        before,
        table=attrs.evolve(before.table, players=players, tokens=tuple(range(players))),
        hands=((Card.GUARD,),) * players,
        discards=((),) * players,
    )
    full = RULESETS[r].deck_for(players)
    deck = full[rotate:] + full[:rotate]
    seats = tuple(p for p in range(players) if p != first) if tie_break else None
    after = evolve(before, RoundStarted(2, first, deck, seats))
    assert all_cards(after) == sorted(full)
    assert after.deck == deck and after.tokens == before.tokens
    assert after.hands == ((),) * players and after.discards == ((),) * players
    assert after.out == (frozenset({first}) if tie_break else frozenset())
    assert after.protected == frozenset() and after.sightings == () and after.marks == ()
    assert after.decision is Decision.DRAW and after.current == first
