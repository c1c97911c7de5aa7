"""``check_state``: every state play reaches is accepted, at every decision
of every ruleset and player count; a state no game reaches is refused with
a ``StateError`` naming the field at fault."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import Card, Decision, GameState, Position, RoundResult, Sighting
from loveletter.commands import PlayCard
from loveletter.events import GameStarted, RoundEndReason
from loveletter.evolution import initial_state
from loveletter.validation import check_state

PLAYER_COUNTS = {
    "2019": (2, 3, 4, 5, 6),
    "2019-classic": (2, 3, 4),
    "premium": (2, 3, 4, 5, 6, 7, 8),
}
CONFIGS = [(ruleset, n) for ruleset, counts in PLAYER_COUNTS.items() for n in counts]


def walk(ruleset: str, players: int, seed: int) -> Iterator[GameState]:
    """Every state of a random game, from the wait for the first deal (round
    0) to its end: random legal commands, through ``push`` and ``step``."""
    rng = random.Random(seed)
    state = initial_state(GameStarted(ruleset, players, seed, seed % players))
    yield state
    while legal := ll.legal_commands(state):
        command = rng.choice(legal)
        state = ll.step(state, command)[0] if rng.random() < 0.5 else ll.push(state, command)
        yield state


def before_the_draw(state: GameState) -> Position:
    """The position of ``state`` (a ``play`` decision) one step earlier: the
    turn has started, its card is back on top of the deck."""
    position = ll.to_position(state)
    current = position.current
    hand = position.hands[current]
    hands = tuple(h[:-1] if seat == current else h for seat, h in enumerate(position.hands))
    return attrs.evolve(position, drawn=False, deck=(hand[-1], *position.deck), hands=hands)


def features(state: GameState) -> set[str]:
    found = {state.decision.value}
    if state.round_number == 0:
        found.add("before-the-first-deal")
    if state.contenders and state.decision is Decision.PLAY:
        found.add("tie-break-round")
    if state.decision is Decision.GAME_OVER:
        found.add("won-mid-round" if state.round_result is None else "won-at-round-end")
    if state.set_aside is None:
        found.add("set-aside-drawn")
    for name in ("required", "marks", "returns", "protected", "sightings"):
        if getattr(state, name):
            found.add(name)
    if any(not pile for pile in state.discards) and state.out:
        found.add("sitting-out")
    return found


def check_game(ruleset: str, players: int, seed: int) -> set[str]:
    """Check every state of one random game and the positions of its
    ``play`` decisions (also before the draw); say what happened."""
    seen: set[str] = set()
    for state in walk(ruleset, players, seed):
        check_state(state)
        seen |= features(state)
        if state.decision is Decision.PLAY:
            position = ll.to_position(state)
            assert attrs.evolve(ll.from_position(position), returns=state.returns) == state
            undrawn = ll.from_position(before_the_draw(state))
            assert undrawn.decision is Decision.DRAW
            check_state(undrawn)
            seen.add("draw")
    return seen


EVERYTHING = {
    "before-the-first-deal",
    "draw",
    "play",
    "chancellor",
    "look",
    "redraw",
    "next-round",
    "game-over",
    "won-mid-round",
    "won-at-round-end",
    "tie-break-round",
    "sitting-out",
    "set-aside-drawn",
    "required",
    "marks",
    "returns",
    "protected",
    "sightings",
}


def test_every_state_of_random_games_of_every_ruleset_and_count_is_accepted() -> None:
    seen: set[str] = set()
    for ruleset, players in CONFIGS:
        for seed in range(3):
            seen |= check_game(ruleset, players, seed)
    # tie-break rounds and games won mid-round are rarer: play on until both
    # have come up (Premium, 5 to 8 players)
    for seed in range(3, 60):
        if {"tie-break-round", "won-mid-round"} <= seen:
            break
        seen |= check_game("premium", 5 + seed % 4, seed)
    assert seen >= EVERYTHING, sorted(EVERYTHING - seen)


def examples(share: float) -> int:
    """``share`` of the active Hypothesis profile's ``max_examples``."""
    profile = settings.default
    assert profile is not None
    return max(1, round(profile.max_examples * share))


@settings(max_examples=examples(0.2))
@given(st.sampled_from(CONFIGS), st.integers(0, 2**64))
def test_every_state_of_a_random_game_is_accepted(config: tuple[str, int], seed: int) -> None:
    check_game(*config, seed)


# --------------------------------------------------------------------------
# reference states, one per decision


def first(ruleset: str, players: int, wanted: Callable[[GameState], bool]) -> GameState:
    for seed in range(200):
        for state in walk(ruleset, players, seed):
            if wanted(state):
                return state
    raise AssertionError("no random game reached the state wanted")


def playing(ruleset: str = "2019", players: int = 4, turn: int = 6) -> GameState:
    return first(
        ruleset,
        players,
        lambda s: s.decision is Decision.PLAY and s.turn_number >= turn and not s.out,
    )


def deal(ruleset: str = "2019", players: int = 3) -> GameState:
    return ll.new_game(ruleset, players, seed=4)


def evolve(state: GameState, **changes: Any) -> GameState:
    """``state`` with ``changes``; the table's fields are named directly."""
    table_fields = {a.name for a in attrs.fields(ll.Table)}
    table = {k: changes.pop(k) for k in list(changes) if k in table_fields}
    if table:
        changes["table"] = attrs.evolve(state.table, **table)
    return attrs.evolve(state, **changes)


def replace_in(zone: tuple[Card, ...], old: Card, new: Card) -> tuple[Card, ...]:
    index = zone.index(old)
    return zone[:index] + (new,) + zone[index + 1 :]


def test_the_reference_states_are_reachable() -> None:
    for state in (playing(), deal(), NEXT, OVER, CHANCELLOR, LOOK, REDRAW, ROUND_ZERO):
        check_state(state)


ROUND_ZERO = initial_state(GameStarted("2019", 3, 5, 1))
NEXT = first("2019", 3, lambda s: s.decision is Decision.NEXT_ROUND and s.round_number == 1)
EMPTY_DECK_END = first(
    "2019",
    3,
    lambda s: s.round_result is not None and s.round_result.reason is RoundEndReason.DECK_EMPTY,
)
ONE_LEFT_END = first(
    "2019",
    3,
    lambda s: (
        s.round_result is not None
        and s.round_result.reason is RoundEndReason.ONE_PLAYER_LEFT
        and s.decision is Decision.NEXT_ROUND
    ),
)
OVER = first("2019", 3, lambda s: s.decision is Decision.GAME_OVER)
CHANCELLOR = first("2019", 4, lambda s: s.decision is Decision.CHANCELLOR and len(s.deck) > 2)
LOOK = first("premium", 5, lambda s: s.decision is Decision.LOOK)
REDRAW = first("premium", 5, lambda s: s.decision is Decision.REDRAW)
TIE_BREAK = first("premium", 5, lambda s: bool(s.contenders) and s.decision is Decision.PLAY)
PRIEST_ON_TOP = first(
    "2019",
    4,
    lambda s: s.decision is Decision.PLAY and s.discards[s.current][-1:] == (Card.PRIEST,),
)
SITTER = min(set(range(5)) - set(TIE_BREAK.contenders))


def result(state: GameState) -> RoundResult:
    assert state.round_result is not None
    return state.round_result


def other(state: GameState, *not_these: int) -> int:
    return next(s for s in range(state.players) if s not in (state.current, *not_these))


def knocked_out(state: GameState, seat: int) -> GameState:
    """``state`` with ``seat`` knocked out: their hand on their pile."""
    hands = list(state.hands)
    discards = list(state.discards)
    discards[seat] = discards[seat] + hands[seat]
    hands[seat] = ()
    return evolve(state, hands=tuple(hands), discards=tuple(discards), out=state.out | {seat})


def _impossible() -> list[tuple[str, GameState, str]]:
    s = playing()
    c = s.current
    o = other(s)
    no_handmaid = next(p for p in range(s.players) if p != c and Card.HANDMAID not in s.discards[p])
    no_chancellor = next(p for p in range(s.players) if Card.CHANCELLOR not in s.discards[p])
    assert s.deck[0] is not Card.PRINCESS
    dealt = deal()
    five = dealt.deck[:5]
    turn_one_five_discarded = evolve(
        dealt, deck=dealt.deck[5:], discards=(five, *dealt.discards[1:])
    )
    emptied = evolve(
        knocked_out(s, o),
        discards=tuple(() if p == o else pile for p, pile in enumerate(s.discards)),
        deck=s.deck + s.discards[o] + s.hands[o],
        sightings=(),  # what their played cards showed would be refused first
    )
    over = OVER
    return [
        # the examples
        ("a current player of -7", evolve(s, current=-7), "current"),
        ("22 cards", evolve(s, deck=(*s.deck, Card.GUARD)), "cards"),
        (
            "an extra Princess",
            evolve(s, deck=(Card.PRINCESS, *s.deck[1:])),
            "cards",
        ),
        (
            "protected without a Handmaid",
            evolve(s, protected=frozenset({no_handmaid})),
            "protected",
        ),
        ("out of the round with an empty pile", emptied, "out"),
        ("turn 1 with five cards discarded", turn_one_five_discarded, "turn_number"),
        # the table
        ("not a GameState", s.table, "state"),  # type: ignore[list-item]
        ("an unknown ruleset", evolve(s, ruleset="2019"), "ruleset"),
        ("a copied ruleset", evolve(s, ruleset=attrs.evolve(s.ruleset)), "ruleset"),
        ("10**9 players", evolve(s, players=10**9), "players"),
        ("players given as True", evolve(deal("2019", 2), players=True), "players"),
        ("a seed of 2**256", evolve(s, seed=2**256), "seed"),
        ("a seed of True", evolve(s, seed=True), "seed"),
        ("a negative seed", evolve(s, seed=-1), "seed"),
        ("tokens for three seats of four", evolve(s, tokens=(0, 0, 0)), "tokens"),
        ("a negative token count", evolve(s, tokens=(0, -1, 0, 0)), "tokens[1]"),
        ("a float token count", evolve(s, tokens=(0, 1.0, 0, 0)), "tokens[1]"),
        ("tokens to win, game going on", evolve(s, tokens=(0, 4, 0, 0)), "tokens[1]"),
        ("a round number of -1", evolve(s, round_number=-1), "round_number"),
        ("round 0 with a round in play", evolve(s, round_number=0), "round_number"),
        ("round 50 with no token given", evolve(s, round_number=50), "round_number"),
        ("turn 0 of a dealt round", evolve(s, turn_number=0), "turn_number"),
        ("a turn number of 10**9", evolve(s, turn_number=10**9), "turn_number"),
        ("a decision that is not one", evolve(s, decision="play"), "decision"),
        # the cards
        ("a card that is not a card", evolve(s, deck=(*s.deck[1:], 1)), "deck"),
        ("hands a list", evolve(s, hands=list(s.hands)), "hands"),
        ("hands for three seats of four", evolve(s, hands=s.hands[:3]), "hands"),
        ("no set-aside card", evolve(s, set_aside=None, deck=(*s.deck, s.set_aside)), "set_aside"),
        (
            "face-up cards with four players",
            evolve(s, face_up=(s.deck[0],), deck=s.deck[1:]),
            "face_up",
        ),
        # seats
        ("an out seat that does not exist", evolve(s, out=frozenset({7})), "out"),
        ("the current player out", knocked_out(s, c), "current"),
        (
            "one player left in a round in play",
            knocked_out(knocked_out(knocked_out(s, o), other(s, o)), other(s, o, other(s, o))),
            "out",
        ),
        (
            "a waiting player with two cards",
            evolve(
                s,
                hands=tuple(h + s.deck[:1] if i == o else h for i, h in enumerate(s.hands)),
                deck=s.deck[1:],
            ),
            f"hands[{o}]",
        ),
        ("the current player protected", evolve(s, protected=frozenset({c})), "protected"),
        (
            "no card to draw before the draw",
            evolve(
                s,
                decision=Decision.DRAW,
                hands=tuple(h[:1] if i == c else h for i, h in enumerate(s.hands)),
                deck=(),
                discards=tuple(
                    p + s.deck + s.hands[c][1:] if i == c else p for i, p in enumerate(s.discards)
                ),
            ),
            "deck",
        ),
        # the round's notes
        (
            "a sighting of oneself",
            evolve(s, sightings=(Sighting(o, o, Card.GUARD, 1, Card.PRIEST),)),
            "sightings[0]",
        ),
        (
            "a sighting from the turn not played yet",
            evolve(s, sightings=(Sighting(o, c, Card.GUARD, s.turn_number, Card.PRIEST),)),
            "sightings[0]",
        ),
        (
            "a sighting of a card not in the deck",
            evolve(s, sightings=(Sighting(o, c, Card.BISHOP, 1, Card.PRIEST),)),
            "sightings[0]",
        ),
        (
            "a return by a player with no Chancellor",
            evolve(s, returns=((no_chancellor, 2),)),
            "returns",
        ),
        ("a return of three cards", evolve(s, returns=((c, 3),)), "returns[0]"),
        ("a requirement in 2019", evolve(s, required=o), "required"),
        ("a Jester mark in 2019", evolve(s, marks=((c, o),)), "marks[0]"),
        ("contenders in 2019", evolve(s, contenders=(0, 1)), "tokens[0]"),
        ("an optional step pending in a play", evolve(s, pending=(o,)), "pending"),
        ("a round result while playing", evolve(s, round_result=NEXT.round_result), "round_result"),
        ("winners while playing", evolve(s, winners=(c,)), "winners"),
        # pending choices
        (
            "a Chancellor's choice with no Chancellor played",
            evolve(PRIEST_ON_TOP, decision=Decision.CHANCELLOR),
            f"discards[{PRIEST_ON_TOP.current}]",
        ),
        (
            "a Chancellor who drew one card of many",
            evolve(
                CHANCELLOR,
                hands=tuple(
                    h[:2] if i == CHANCELLOR.current else h for i, h in enumerate(CHANCELLOR.hands)
                ),
                deck=(*CHANCELLOR.deck, CHANCELLOR.hands[CHANCELLOR.current][2]),
            ),
            f"hands[{CHANCELLOR.current}]",
        ),
        ("a Cardinal's look at one hand", evolve(LOOK, pending=LOOK.pending[:1]), "pending"),
        (
            "a Cardinal's look in the wrong order",
            evolve(LOOK, pending=LOOK.pending[::-1]),
            "pending",
        ),
        (
            "a Bishop's redraw for its own player",
            evolve(REDRAW, pending=(REDRAW.current,)),
            "pending",
        ),
        ("a requirement during a look", evolve(LOOK, required=LOOK.current), "required"),
        # round ends and game ends
        ("a round over with no result", evolve(NEXT, round_result=None), "round_result"),
        (
            "a round over with protection left",
            evolve(NEXT, protected=frozenset({result(NEXT).winners[0]})),
            "protected",
        ),
        (
            "one player left, with two in the round",
            evolve(
                EMPTY_DECK_END,
                round_result=RoundResult(
                    RoundEndReason.ONE_PLAYER_LEFT, result(EMPTY_DECK_END).winners, ()
                ),
            ),
            "round_result",
        ),
        (
            "an empty-deck end with cards in the deck",
            evolve(
                EMPTY_DECK_END,
                deck=EMPTY_DECK_END.deck + (EMPTY_DECK_END.set_aside,),
                set_aside=None,
            ),
            "set_aside",
        ),
        (
            "an empty-deck end showing no hands",
            evolve(EMPTY_DECK_END, round_result=attrs.evolve(result(EMPTY_DECK_END), revealed=())),
            "round_result.revealed",
        ),
        (
            "a round won by a player who is out",
            evolve(
                ONE_LEFT_END,
                round_result=attrs.evolve(result(ONE_LEFT_END), winners=(min(ONE_LEFT_END.out),)),
            ),
            "round_result.winners",
        ),
        (
            "a round winner without a token",
            evolve(NEXT, tokens=(0,) * 3),
            "tokens[" + str(result(NEXT).winners[0]) + "]",
        ),
        ("a game over with no winner", evolve(over, winners=()), "winners"),
        (
            "a game won by a player below the tokens to win",
            evolve(over, winners=tuple(p for p in range(3) if p not in over.winners)[:1]),
            "winners",
        ),
        ("winners while the game goes on", evolve(NEXT, winners=(0,)), "winners"),
        (
            "a token count no round can give",
            evolve(
                over,
                tokens=tuple(10**6 if p in over.winners else t for p, t in enumerate(over.tokens)),
            ),
            "tokens[" + str(over.winners[0]) + "]",
        ),
        (
            "a winner past the tokens to win by more than a round's tokens",
            evolve(
                over, tokens=tuple(7 if p in over.winners else t for p, t in enumerate(over.tokens))
            ),
            f"tokens[{over.winners[0]}]",
        ),
        # before the first deal
        ("round 0 with a card dealt", evolve(ROUND_ZERO, hands=((Card.GUARD,), (), ())), "hands"),
        ("round 0 with tokens", evolve(ROUND_ZERO, tokens=(1, 0, 0)), "tokens"),
        ("round 0 waiting for a play", evolve(ROUND_ZERO, decision=Decision.PLAY), "round_number"),
        ("round 0 past its first turn", evolve(ROUND_ZERO, turn_number=1), "turn_number"),
        # a tie-break round
        (
            "a player sitting out a tie-break round with a card in their pile",
            evolve(
                TIE_BREAK,
                deck=TIE_BREAK.deck[1:],
                discards=tuple(
                    (TIE_BREAK.deck[0],) if p == SITTER else pile
                    for p, pile in enumerate(TIE_BREAK.discards)
                ),
            ),
            "contenders",
        ),
    ]


IMPOSSIBLE = _impossible()


@pytest.mark.parametrize(
    ("state", "field"), [case[1:] for case in IMPOSSIBLE], ids=[case[0] for case in IMPOSSIBLE]
)
def test_a_state_no_game_reaches_is_refused_naming_the_field(state: GameState, field: str) -> None:
    with pytest.raises(ll.StateError) as caught:
        check_state(state)
    assert caught.value.field == field, str(caught.value)
    assert isinstance(caught.value, ll.LoveLetterError) and isinstance(caught.value, ValueError)


def test_a_chancellor_with_the_last_card_of_the_deck_holds_two() -> None:
    state = first("2019", 2, lambda s: s.decision is Decision.CHANCELLOR and not s.deck)
    assert len(state.hands[state.current]) == 2
    check_state(state)


def test_the_handmaid_on_top_of_the_pile_is_what_protection_needs() -> None:
    """A player who played the Handmaid is protected until their next turn:
    their pile ends with it. Nothing else reaches a protected player's pile
    (every such card must choose them), so in random games the rule holds at
    every moment, and the Handmaid is often there without protection (a
    Prince made them discard it, or their turn has come)."""
    unprotected_handmaid_on_top = 0
    for seed in range(12):
        for state in walk("premium", 6, seed):
            for seat in state.protected:
                assert state.discards[seat][-1] is Card.HANDMAID
            unprotected_handmaid_on_top += sum(
                1
                for seat, pile in enumerate(state.discards)
                if pile and pile[-1] is Card.HANDMAID and seat not in state.protected
            )
    assert unprotected_handmaid_on_top > 0


def test_a_prince_played_on_oneself_counts_as_a_replacement_draw() -> None:
    """Turn 1: seat 0 plays a Prince on themselves, discards their Baron and
    draws again; at turn 2 the hands and piles hold one card more than the
    deal and the turns' draws: the Prince's replacement draw."""
    top = (Card.PRINCESS, Card.PRINCE, Card.GUARD, Card.GUARD, Card.BARON, Card.PRIEST)
    rest = list(ll.get_ruleset("2019").deck_for(3))
    for card in top:
        rest.remove(card)
    state = ll.new_game("2019", 3, deck=(*top, *rest))
    state = ll.push(state, PlayCard(0, Card.PRINCE, 0))
    assert state.turn_number == 2 and state.discards[0] == (Card.PRINCE, Card.BARON)
    check_state(state)
    # the same cards with a Guard played instead of the Prince: no card made
    # that draw, so the turns played account for one card fewer
    guard = state.deck.index(Card.GUARD)
    swapped = evolve(
        state,
        discards=((Card.GUARD, Card.BARON), *state.discards[1:]),
        deck=replace_in(state.deck, state.deck[guard], Card.PRINCE),
    )
    with pytest.raises(ll.StateError) as caught:
        check_state(swapped)
    assert caught.value.field == "turn_number"


def test_a_player_left_out_of_a_second_tie_keeps_the_tokens_to_win() -> None:
    """Ruling 31: a tie-break round between seats 0, 1 and 3 (4 tokens each,
    the tokens to win) in which 0 and 3 gain a token ties them again without
    seat 1, who keeps 4 tokens while no longer tied. Every state on the way
    is accepted; seat 1's 4 tokens are refused only while the players still
    tied have not passed the tokens to win."""
    dealt = ll.to_position(ll.new_game("premium", 5, seed=5, first_player=0))
    sitting = (2, 4)
    state = ll.from_position(
        attrs.evolve(
            dealt,
            deck=(*dealt.deck, *(dealt.hands[p][0] for p in sitting)),
            hands=tuple(() if p in sitting else h for p, h in enumerate(dealt.hands)),
            out=sitting,
            contenders=(0, 1, 3),
            tokens=(4, 4, 0, 4, 0),
            round_number=13,
        )
    )
    rng = random.Random(5)
    while state.contenders != (0, 3):
        state = ll.push(state, rng.choice(ll.legal_commands(state)))
        check_state(state)
    assert state.decision is Decision.NEXT_ROUND and state.tokens == (5, 4, 0, 5, 0)
    while not state.is_over:
        state = ll.push(state, rng.choice(ll.legal_commands(state)))
        check_state(state)
    with pytest.raises(ll.StateError) as caught:
        check_state(evolve(state, tokens=(4, 4, 0, 4, 0), contenders=(0, 3), winners=(0,)))
    assert caught.value.field in ("tokens[1]", "winners")
    with pytest.raises(ll.PositionError) as position_error:
        ll.from_position(attrs.evolve(ll.to_position(TIE_BREAK), tokens=(4, 4, 4, 4, 4)))
    assert position_error.value.field.startswith("tokens[")


def test_a_requirement_after_a_leave_still_needs_a_sycophant_played() -> None:
    """A player leaving does not excuse a requirement no Sycophant made: a
    Sycophant whose player left lies under the hand they gave up."""
    state = ll.new_game("online", 5, seed=3)
    leaver = next(seat for seat in state.table.order if seat != state.current)
    state = ll.push(state, ll.Leave(leaver))
    position = ll.to_position(state)
    required = next(s for s in state.table.order if s not in state.out and s != state.current)
    with pytest.raises(ll.PositionError) as caught:
        ll.from_position(attrs.evolve(position, required=required))
    assert caught.value.field == "required"
