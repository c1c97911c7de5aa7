"""Positions: described moments of a round.

``from_position`` and ``to_position`` are inverse on every position reached
by play, and ``from_position`` refuses a position that cannot occur with a
``PositionError`` naming the field at fault.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import Card, Decision, GameState, Position
from loveletter.commands import DrawCard, KeepCard, LookAtHand, PlayCard
from loveletter.events import CardDrawn, PositionEstablished

G, PRIEST, BARON, HANDMAID = Card.GUARD, Card.PRIEST, Card.BARON, Card.HANDMAID
PRINCE, KING, COUNTESS, PRINCESS = Card.PRINCE, Card.KING, Card.COUNTESS, Card.PRINCESS

PLAYER_COUNTS = {
    "2019": (2, 3, 4, 5, 6),
    "2019-classic": (2, 3, 4),
    "premium": (2, 3, 4, 5, 6, 7, 8),
}


@st.composite
def reachable_states(draw: st.DrawFn) -> GameState:
    """A state some turn into some round of a random game, waiting for a
    player to play (the moments a position describes)."""
    ruleset = draw(st.sampled_from(sorted(PLAYER_COUNTS)))
    players = draw(st.sampled_from(PLAYER_COUNTS[ruleset]))
    state = ll.new_game(ruleset, players, seed=draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 60))):
        legal = ll.legal_commands(state)
        if not legal:
            break
        state = ll.push(state, legal[draw(st.integers(0, len(legal) - 1))])
    while state.decision is not Decision.PLAY:
        legal = ll.legal_commands(state)
        if not legal:  # the game is over: start a fresh one
            return ll.new_game(ruleset, players, seed=state.seed + 1)
        state = ll.push(state, legal[0])
    return state


def _examples(share: float) -> int:
    """``share`` of the active Hypothesis profile's ``max_examples``."""
    profile = settings.default
    assert profile is not None
    return max(1, round(profile.max_examples * share))


@settings(max_examples=_examples(0.6))
@given(reachable_states())
def test_a_position_taken_from_play_describes_the_same_state(state: GameState) -> None:
    position = ll.to_position(state)
    assert position.drawn and position.current == state.current
    assert position.sightings == state.sightings  # what Priests, Barons and Kings showed
    assert (position.required, position.marks, position.contenders) == (
        state.required,
        state.marks,
        state.contenders,
    )
    rebuilt = ll.from_position(position)
    # a position does not (yet) say what lies under the deck from a
    # Chancellor: see test_a_position_keeps_what_chancellor_players_know
    assert attrs.evolve(rebuilt, returns=state.returns) == state
    assert ll.to_position(rebuilt) == position
    assert ll.loads(ll.dumps(position), Position) == position
    # play continues identically from the described position
    command = ll.legal_commands(state)[-1]
    assert ll.legal_commands(rebuilt) == ll.legal_commands(state)
    assert ll.decide(rebuilt, command) == ll.decide(state, command)
    events = (PositionEstablished(position), *ll.decide(rebuilt, command))
    assert ll.replay(events) == ll.push(rebuilt, command)


def deal(ruleset: str = "2019-classic", players: int = 3) -> Position:
    """The position of a fresh deal (seat 0 has drawn)."""
    return ll.to_position(ll.new_game(ruleset, players, seed=4))


def test_a_position_round_trips_through_from_position() -> None:
    position = deal()
    assert ll.to_position(ll.from_position(position)) == position
    assert ll.from_position(position) == ll.new_game("2019-classic", 3, seed=4)


def test_tokens_default_to_zero_and_seats_are_normalized() -> None:
    position = attrs.evolve(deal("2019", 4), tokens=None)
    assert ll.from_position(position).tokens == (0, 0, 0, 0)
    assert Position(**{**attrs.asdict(position, recurse=False), "out": (3, 1)}).out == (1, 3)


def test_a_position_before_the_draw_waits_for_draw_card() -> None:
    dealt = deal()
    hand = dealt.hands[0]
    # put seat 0's drawn card back on top of the deck
    position = attrs.evolve(
        dealt,
        drawn=False,
        hands=((hand[0],), *dealt.hands[1:]),
        deck=(hand[1], *dealt.deck),
    )
    state = ll.from_position(position)
    assert state.decision is Decision.DRAW and state.to_act == 0
    assert ll.legal_commands(state) == (DrawCard(0),)
    assert ll.to_position(state) == position
    events = ll.decide(state, DrawCard(0))
    assert events == (CardDrawn(0, hand[1]),)
    after = ll.push(state, DrawCard(0))
    assert after.decision is Decision.PLAY
    assert sorted(after.hands[0]) == sorted(hand)
    assert ll.replay((PositionEstablished(position), *events)) == after
    with pytest.raises(ll.IllegalCommand) as caught:
        ll.decide(state, DrawCard(1))
    assert caught.value.kind is ll.RejectionKind.NOT_YOUR_TURN
    with pytest.raises(ll.IllegalCommand) as caught:
        ll.decide(state, PlayCard(0, hand[0]))
    assert caught.value.kind is ll.RejectionKind.WRONG_DECISION


def stacked(ruleset: str, top: list[Card]) -> tuple[Card, ...]:
    """A deck for ``ruleset`` (top first): ``top``, then the rest in card order."""
    rest = Counter(ll.get_ruleset(ruleset).deck)
    rest.subtract(top)
    return (*top, *sorted(rest.elements()))


def test_only_a_turn_about_to_draw_or_play_is_a_position() -> None:
    # 3 players: set aside a Guard; deal Chancellor, Priest, Baron; seat 0 draws a Guard
    deck = stacked("2019", [G, Card.CHANCELLOR, PRIEST, BARON, G])
    chancellor = ll.push(ll.new_game("2019", 3, deck=deck), PlayCard(0, Card.CHANCELLOR))
    assert chancellor.decision is Decision.CHANCELLOR
    between = ll.new_game("2019-classic", 2, seed=3)
    while not between.round_over:
        between = ll.push(between, ll.legal_commands(between)[0])
    over = between
    while not over.is_over:
        over = ll.push(over, ll.legal_commands(over)[0])
    for unfit in (chancellor, between, over):
        with pytest.raises(ll.PositionError) as caught:
            ll.to_position(unfit)
        assert caught.value.field == "decision"


# --------------------------------------------------------------------------
# positions that cannot occur

# A consistent 2019-classic, three-player position (16 cards), and a
# two-player one with its three face-up cards, each at the turn its cards
# imply (every card in a hand or pile was dealt or drawn by a turn); each
# bad case breaks one thing.
THREE = Position(
    ruleset="2019-classic",
    players=3,
    deck=(G, G, PRIEST, BARON, HANDMAID),
    set_aside=PRINCESS,
    face_up=(),
    hands=((G, PRINCE), (KING,), (COUNTESS,)),
    discards=((G, G), (PRIEST, HANDMAID), (BARON, PRINCE)),
    current=0,
    drawn=True,
    turn_number=7,  # seats 0, 1, 2 in turn from turn 1: two cards played each
)
TWO = Position(
    ruleset="2019-classic",
    players=2,
    deck=(G, G, PRIEST, PRIEST, BARON, HANDMAID),
    set_aside=PRINCESS,
    face_up=(G, BARON, HANDMAID),
    hands=((G, PRINCE), (KING,)),
    discards=((COUNTESS,), (G, PRINCE)),
    current=0,
    drawn=True,
    turn_number=4,  # seat 1 started: three cards played
)


def test_the_reference_positions_are_valid() -> None:
    for position in (THREE, TWO):
        state = ll.from_position(position)
        assert ll.to_position(state) == attrs.evolve(position, tokens=state.tokens, seed=state.seed)


def changed(position: Position, **changes: Any) -> Position:
    return attrs.evolve(position, **changes)


def moved(position: Position, **changes: Any) -> Position:
    """``changes`` applied, and the cards they took out of play put on the
    last seat's discard pile, so that every card is still placed once."""
    new = attrs.evolve(position, **changes)
    placed = Counter([*new.deck, *new.face_up, *(c for hand in new.hands for c in hand)])
    placed.update(c for pile in new.discards for c in pile)
    if new.set_aside is not None:
        placed[new.set_aside] += 1
    missing = Counter(ll.get_ruleset(new.ruleset).deck) - placed
    assert not placed - Counter(ll.get_ruleset(new.ruleset).deck), "moved() only removes cards"
    last = (*new.discards[-1], *sorted(missing.elements()))
    return attrs.evolve(new, discards=(*new.discards[:-1], last))


BAD: list[tuple[str, Position, str]] = [
    # (what is wrong, the position, the field PositionError must name)
    ("a card missing", changed(THREE, deck=(G, G, PRIEST, BARON)), "cards"),
    ("a card too many", changed(THREE, deck=(G, G, PRIEST, BARON, HANDMAID, G)), "cards"),
    (
        "a card of another edition",
        changed(THREE, deck=(Card.SPY, G, PRIEST, BARON, HANDMAID)),
        "cards",
    ),
    ("a card swapped for another", changed(THREE, deck=(G, G, PRIEST, BARON, KING)), "cards"),
    (
        "the current player holds one card after drawing",
        moved(THREE, hands=((G,), (KING,), (COUNTESS,))),
        "hands[0]",
    ),
    (
        "a waiting player holds two cards",
        changed(
            THREE, hands=((G, PRINCE), (KING, HANDMAID), (COUNTESS,)), deck=(G, G, PRIEST, BARON)
        ),
        "hands[1]",
    ),
    ("a player out of the round holds a card", changed(THREE, out=(2,)), "hands[2]"),
    ("the current player is protected", changed(THREE, protected=(0,)), "protected"),
    (
        "a player out of the round is protected",
        moved(THREE, out=(2,), protected=(2,), hands=((G, PRINCE), (KING,), ())),
        "protected",
    ),
    (
        "no card to draw for a turn that has not drawn",
        moved(THREE, drawn=False, deck=(), hands=((G,), (KING,), (COUNTESS,))),
        "deck",
    ),
    (
        "no set-aside card in a round in progress",
        changed(THREE, set_aside=None, deck=(G, G, PRIEST, BARON, HANDMAID, PRINCESS)),
        "set_aside",
    ),
    (
        "two face-up cards in a two-player round",
        changed(TWO, face_up=(G, BARON), deck=(G, G, PRIEST, PRIEST, BARON, HANDMAID, HANDMAID)),
        "face_up",
    ),
    (
        "face-up cards in a three-player round",
        changed(THREE, face_up=(HANDMAID,), deck=(G, G, PRIEST, BARON)),
        "face_up",
    ),
    ("tokens at the threshold (the game is over)", changed(THREE, tokens=(0, 5, 0)), "tokens[1]"),
    ("a negative token count", changed(TWO, tokens=(-1, 0)), "tokens[0]"),
    ("tokens for the wrong number of seats", changed(THREE, tokens=(0, 0)), "tokens"),
    (
        "fewer than two players in the round",
        moved(THREE, out=(1, 2), hands=((G, PRINCE), (), ())),
        "out",
    ),
    ("the current player is out", changed(THREE, out=(0,)), "current"),
    ("the current seat does not exist", changed(THREE, current=3), "current"),
    ("an out seat does not exist", changed(THREE, out=(5,)), "out"),
    ("a seat listed twice", changed(THREE, protected=(1, 1)), "protected"),
    ("hands for the wrong number of seats", changed(THREE, hands=((G, PRINCE), (KING,))), "hands"),
    ("discards for the wrong number of seats", changed(THREE, discards=((G,),)), "discards"),
    ("an unknown ruleset", changed(THREE, ruleset="1999"), "ruleset"),
    ("too many players for the edition", changed(THREE, players=5), "players"),
    ("a round number of zero", changed(THREE, round_number=0), "round_number"),
    ("a turn number of zero", changed(THREE, turn_number=0), "turn_number"),
    ("a negative seed", changed(THREE, seed=-1), "seed"),
    (
        "a player shown their own card",
        changed(THREE, sightings=(ll.Sighting(1, 1, KING, 2, PRIEST),)),
        "sightings[0]",
    ),
    (
        "a protected player whose pile does not end with a Handmaid",
        changed(THREE, protected=(2,)),
        "protected",
    ),
    (
        "a player out of the round with an empty pile (no tie-break round)",
        moved(
            THREE,
            out=(1,),
            hands=((G, PRINCE), (), (COUNTESS,)),
            discards=THREE.discards[:1] + ((), THREE.discards[2]),
        ),
        "out",
    ),
    ("turn 1 with six cards discarded", changed(THREE, turn_number=1), "turn_number"),
    ("more turns than the cards drawn", changed(THREE, turn_number=8), "turn_number"),
    # turn 3 would fit TWO: seat 1's Prince may have made someone draw again
    ("turn 2 with three cards discarded", changed(TWO, turn_number=2), "turn_number"),
    ("drawn given as 1", changed(THREE, drawn=1), "drawn"),
    ("tokens in round 1 that take two rounds", changed(THREE, tokens=(3, 0, 0)), "tokens[0]"),
    (
        "round 9 with two tokens given",
        changed(THREE, round_number=9, tokens=(1, 1, 0)),
        "round_number",
    ),
    (
        "a sighting from a later turn",
        changed(THREE, sightings=(ll.Sighting(1, 2, COUNTESS, 8, PRIEST),)),
        "sightings[0]",
    ),
    (
        "a sighting from the turn whose card is not played yet",
        changed(THREE, sightings=(ll.Sighting(1, 2, COUNTESS, 7, PRIEST),)),
        "sightings[0]",
    ),
]


@pytest.mark.parametrize(
    ("position", "field"), [case[1:] for case in BAD], ids=[case[0] for case in BAD]
)
def test_an_impossible_position_is_refused_naming_the_field(position: Position, field: str) -> None:
    with pytest.raises(ll.PositionError) as caught:
        ll.from_position(position)
    assert caught.value.field == field, str(caught.value)
    assert isinstance(caught.value, ll.LoveLetterError) and isinstance(caught.value, ValueError)
    # replaying from such a position fails at its first event, naming the field
    with pytest.raises(ll.EventMismatch) as mismatch:
        ll.replay([PositionEstablished(position)])
    assert mismatch.value.index == 0 and f"position: {field}:" in str(mismatch.value)


def test_a_non_card_in_a_zone_is_refused_naming_the_zone() -> None:
    bad = changed(THREE, hands=((G, "Prince"), (KING,), (COUNTESS,)))
    with pytest.raises(ll.PositionError) as caught:
        ll.from_position(bad)
    assert caught.value.field == "hands[0]"


def test_an_empty_deck_is_fine_once_the_turn_has_drawn() -> None:
    # THREE played on to turn 12 (seat 1 started): the deck's last card is
    # seat 0's draw, and seat 2's Handmaid of turn 11 still protects them
    last = changed(
        THREE,
        deck=(),
        discards=((G, G, G), (PRIEST, HANDMAID, G, PRIEST), (BARON, PRINCE, BARON, HANDMAID)),
        turn_number=12,
        protected=(2,),
    )
    state = ll.from_position(last)
    assert state.decision is Decision.PLAY and state.deck == ()
    # the same cards at an earlier turn would have drawn fewer of them
    with pytest.raises(ll.PositionError) as caught:
        ll.from_position(moved(THREE, deck=()))
    assert caught.value.field == "turn_number"


# --------------------------------------------------------------------------
# what a position must keep


def test_a_position_keeps_what_chancellor_players_know() -> None:
    """A Chancellor's player knows the cards they put under the deck (their
    view's ``deck_bottom``); a position taken after the return must keep
    that knowledge, as it keeps what Priests and Barons showed."""
    # 3 players: set aside a Guard; deal Chancellor, Priest, Baron; seat 0
    # draws a Guard, then the Chancellor's two cards: Spy, Princess
    deck = stacked("2019", [G, Card.CHANCELLOR, PRIEST, BARON, G, Card.SPY, PRINCESS])
    state = ll.push(ll.new_game("2019", 3, deck=deck), PlayCard(0, Card.CHANCELLOR))
    state = ll.push(state, KeepCard(0, PRINCESS, (G, Card.SPY)))
    assert ll.view(state, 0).deck_bottom == (G, Card.SPY)
    rebuilt = ll.from_position(ll.to_position(state))
    for player in range(3):
        assert ll.view(rebuilt, player) == ll.view(state, player)
    assert rebuilt == state


def test_a_cardinal_look_at_its_own_players_hand_is_still_a_position() -> None:
    """Ruling 35: the Cardinal's player may look at either swapped hand,
    their own included (the engine offers it). The state after that look is
    a position like any other: ``to_position`` and ``from_position`` stay
    inverse."""
    state = ll.from_position(five(["Cardinal Guard", "Princess", "Baron", "Handmaid", "Count"]))
    state = ll.push(state, PlayCard(0, Card.CARDINAL, 0, None, 1))
    assert LookAtHand(0, 0) in ll.legal_commands(state)
    state = ll.push(state, LookAtHand(0, 0))
    assert state.decision is Decision.PLAY
    rebuilt = ll.from_position(ll.to_position(state))
    assert rebuilt == state


# --------------------------------------------------------------------------
# Premium: the Sycophant's requirement, the Jester's marks, the contenders


def five(
    hands: list[str],
    discards: list[str] | None = None,
    top: str = "",
    **changes: Any,
) -> Position:
    """A 5-player Premium position (32 cards): ``hands`` and ``discards`` as
    card names, ``top`` the top of the deck; the set-aside card is a Guard
    and the rest of the deck follows in card order. The turn number is the
    one the cards imply (every card in a hand or pile was dealt or drawn
    by a turn)."""
    names = [[Card.parse(n) for n in h.split()] for h in hands]
    piles = [[Card.parse(n) for n in d.split()] for d in discards or [""] * 5]
    head = [Card.parse(n) for n in top.split()]
    rest = Counter(ll.get_ruleset("premium").deck)
    rest.subtract([G, *head, *(c for h in names for c in h), *(c for d in piles for c in d)])
    assert all(n >= 0 for n in rest.values())
    dealt = len(changes.get("contenders", ())) or 5
    turn = sum(map(len, names)) + sum(map(len, piles)) - dealt
    fields: dict[str, Any] = dict(
        ruleset="premium",
        players=5,
        deck=(*head, *sorted(rest.elements())),
        set_aside=G,
        face_up=(),
        hands=tuple(map(tuple, names)),
        discards=tuple(map(tuple, piles)),
        current=0,
        drawn=True,
        turn_number=turn,
        tokens=(0,) * 5,
    )
    fields.update(changes)
    return Position(**fields)


#: turn 2: seat 0 played a Sycophant choosing ``required`` (seat 2); seat 1 to play
SYCOPHANT_PLAYED = five(
    ["Guard", "Baron Priest", "Handmaid", "Count", "King"],
    ["Sycophant", "", "", "", ""],
    current=1,
    required=2,
)
#: turn 6: seat 1 played the Jester on turn 2, marking seat 3
JESTER_PLAYED = five(
    ["Guard Priest", "Baron", "Handmaid", "Count", "King"],
    ["Guard", "Jester", "Guard", "Guard", "Guard"],
    marks=((1, 3),),
)
#: turn 1 of a tie-break round between seats 0 and 1 (4 tokens each)
TIE_BREAK = five(
    ["Guard Priest", "Baron", "", "", ""],
    out=(2, 3, 4),
    contenders=(0, 1),
    tokens=(4, 4, 1, 2, 0),
    round_number=9,
)


@pytest.mark.parametrize(
    "position",
    [SYCOPHANT_PLAYED, JESTER_PLAYED, TIE_BREAK],
    ids=["required", "marks", "contenders"],
)
def test_premium_positions_carry_required_marks_and_contenders(position: Position) -> None:
    state = ll.from_position(position)
    assert (state.required, state.marks, state.contenders) == (
        position.required,
        position.marks,
        position.contenders,
    )
    assert ll.to_position(state) == attrs.evolve(position, seed=state.seed)
    assert ll.loads(ll.dumps(position), Position) == position
    assert ll.replay([PositionEstablished(attrs.evolve(position, seed=state.seed))]) == state
    for player in range(5):
        view = ll.view(state, player)
        assert (view.required, view.marks, view.contenders) == (
            position.required,
            position.marks,
            position.contenders,
        )


def test_a_premium_position_with_a_requirement_restricts_the_next_card() -> None:
    state = ll.from_position(SYCOPHANT_PLAYED)
    assert {c.target for c in ll.legal_commands(state, BARON) if isinstance(c, PlayCard)} == {2}


def test_a_tie_break_position_deals_no_one_else() -> None:
    state = ll.from_position(TIE_BREAK)
    assert state.out == frozenset({2, 3, 4}) and state.contenders == (0, 1)
    assert state.turn_number == 1


@pytest.mark.parametrize(
    ("via", "valid"),
    [
        (Card.DOWAGER_QUEEN, True),
        (Card.BARONESS, True),
        (Card.CARDINAL, True),
        (Card.BISHOP, False),
        (Card.GUARD, False),
    ],
)
def test_premium_sightings_name_a_card_that_shows_hands(via: Card, valid: bool) -> None:
    """Turn 6: whoever played a showing card may have seen seat 1's hand
    (a comparison shows the two hands each way)."""
    seen: tuple[ll.Sighting, ...] = (ll.Sighting(4, 1, BARON, 5, via),)
    kept = "King"
    if via is Card.DOWAGER_QUEEN:
        # a comparison that left both in the round was a tie: Baron to Baron
        seen += (ll.Sighting(1, 4, BARON, 5, via),)
        kept = "Baron"
    position = five(
        ["Guard Priest", "Baron", "Handmaid", "Count", kept],
        ["Guard", "Guard", "Guard", "Guard", via.title],
        sightings=seen,
    )
    if valid:
        assert ll.from_position(position).sightings == position.sightings
    else:
        with pytest.raises(ll.PositionError) as caught:
            ll.from_position(position)
        assert caught.value.field == "sightings[0]"


PREMIUM_BAD: list[tuple[str, Position, str]] = [
    (
        "a Baroness's sighting in 2019-classic",
        changed(THREE, sightings=(ll.Sighting(1, 2, COUNTESS, 2, Card.BARONESS),)),
        "sightings[0]",
    ),
    (
        "a Dowager Queen's sighting with the 16-card deck",
        changed(
            THREE,
            ruleset="premium",
            sightings=(ll.Sighting(1, 2, COUNTESS, 2, Card.DOWAGER_QUEEN),),
        ),
        "sightings[0]",
    ),
    # (what is wrong, the position, the field PositionError must name)
    (
        "a requirement no Sycophant made",
        five(["Guard Priest", "Baron", "Handmaid", "Count", "King"], required=2),
        "required",
    ),
    (
        "a requirement on a protected player",
        # turn 3: seat 0 played the Handmaid, then seat 1 the Sycophant
        five(
            ["Guard", "Baron", "Priest Count", "King", "Countess"],
            ["Handmaid", "Sycophant", "", "", ""],
            current=2,
            protected=(0,),
            required=0,
        ),
        "required",
    ),
    (
        "a requirement on a player out of the round",
        five(
            ["Guard", "Baron Priest", "", "Count", "King"],
            ["Sycophant", "", "Handmaid", "", ""],
            current=1,
            out=(2,),
            required=2,
        ),
        "required",
    ),
    ("a requirement that is no seat", changed(SYCOPHANT_PLAYED, required=5), "required"),
    (
        "a requirement with the 16-card deck",
        attrs.evolve(THREE, ruleset="premium", required=1),
        "required",
    ),
    ("a requirement in 2019-classic", changed(THREE, required=1), "required"),
    (
        "a mark by a player with no Jester in their pile",
        changed(JESTER_PLAYED, marks=((2, 3),)),
        "marks[0]",
    ),
    ("a player marking themselves", changed(JESTER_PLAYED, marks=((1, 1),)), "marks[0]"),
    ("a mark of a seat that does not exist", changed(JESTER_PLAYED, marks=((1, 5),)), "marks[0]"),
    ("two marks from the one Jester", changed(JESTER_PLAYED, marks=((1, 3), (1, 2))), "marks"),
    (
        "a mark with the 16-card deck",
        attrs.evolve(THREE, ruleset="premium", marks=((1, 2),)),
        "marks[0]",
    ),
    ("a tied player below the threshold", changed(TIE_BREAK, tokens=(4, 3, 1, 2, 0)), "tokens[1]"),
    ("a player at the threshold not tied", changed(TIE_BREAK, tokens=(4, 4, 4, 2, 0)), "tokens[2]"),
    (
        "a single tied player",
        changed(TIE_BREAK, contenders=(0,), tokens=(4, 3, 1, 2, 0)),
        "contenders",
    ),
    (
        "a player sitting out with cards in their pile",
        changed(
            TIE_BREAK,
            discards=((), (), (G,), (), ()),
            deck=TIE_BREAK.deck[1:],
        ),
        "contenders",
    ),
    (
        "a player sitting out who is in the round",
        changed(
            TIE_BREAK,
            out=(3, 4),
            hands=((G, PRIEST), (BARON,), (TIE_BREAK.deck[0],), (), ()),
            deck=TIE_BREAK.deck[1:],
        ),
        "contenders",
    ),
    (
        "a tie-break round in 2019-classic, whose ties are shared wins",
        changed(
            THREE,
            hands=((G, PRINCE), (KING,), ()),
            discards=((G, G, COUNTESS), (PRIEST, HANDMAID, BARON, PRINCE), ()),
            out=(2,),
            contenders=(0, 1),
            tokens=(5, 5, 0),
            turn_number=8,
        ),
        "contenders",
    ),
]


@pytest.mark.parametrize(
    ("position", "field"),
    [case[1:] for case in PREMIUM_BAD],
    ids=[case[0] for case in PREMIUM_BAD],
)
def test_an_impossible_premium_position_is_refused_naming_the_field(
    position: Position, field: str
) -> None:
    with pytest.raises(ll.PositionError) as caught:
        ll.from_position(position)
    assert caught.value.field == field, str(caught.value)


def test_a_cardinal_look_or_a_bishop_redraw_pending_is_not_a_position() -> None:
    state = ll.from_position(five(["Cardinal Bishop", "Princess", "Baron", "Handmaid", "Count"]))
    look = ll.push(state, PlayCard(0, Card.CARDINAL, 1, None, 2))
    redraw = ll.push(state, PlayCard(0, Card.BISHOP, 1, 8))
    assert (look.decision, redraw.decision) == (Decision.LOOK, Decision.REDRAW)
    for pending in (look, redraw):
        with pytest.raises(ll.PositionError) as caught:
            ll.to_position(pending)
        assert caught.value.field == "decision"


def _seen_guard_position(seen: Card) -> Position:
    """2019, three seats, turn 2: seat 0's Priest saw seat 1's ``seen`` on
    turn 1; seat 1, who has not played since, now holds Baron and King."""
    deck = list(ll.get_ruleset("2019").deck)
    hands = ((Card.GUARD,), (Card.BARON, Card.KING), (Card.HANDMAID,))
    piles: tuple[tuple[Card, ...], ...] = ((Card.PRIEST,), (), ())
    for card in (*[c for h in hands for c in h], Card.PRIEST, Card.COUNTESS):
        deck.remove(card)
    return Position(
        ruleset="2019",
        players=3,
        deck=tuple(deck),
        set_aside=Card.COUNTESS,
        face_up=(),
        hands=hands,
        discards=piles,
        current=1,
        drawn=True,
        turn_number=2,
        seed=3,
        sightings=(ll.Sighting(0, 1, seen, 1, Card.PRIEST),),
    )


def test_the_reachable_check_proves_a_position_by_a_game_that_reaches_it() -> None:
    position = _seen_guard_position(Card.BARON)
    assert ll.from_position(position, check="reachable") == ll.from_position(position)


def test_the_reachable_check_refuses_what_the_checks_without_search_let_through() -> None:
    """Seat 1 was seen holding a Guard and has not played since, so must
    still hold it: only a search can tell."""
    position = _seen_guard_position(Card.GUARD)
    ll.from_position(position)  # no check without a search sees it
    with pytest.raises(ll.PositionError) as caught:
        ll.from_position(position, check="reachable")
    assert caught.value.field == "position"
    assert "sightings must be those of some play" in str(caught.value)


def test_the_reachable_check_says_so_when_its_budget_runs_out() -> None:
    with pytest.raises(ll.ReachabilityUnknown) as caught:
        ll.from_position(_seen_guard_position(Card.BARON), check="reachable", budget=1)
    assert "within 1 search nodes" in str(caught.value)
    assert not isinstance(caught.value, ll.PositionError)  # unknown is not impossible


@pytest.mark.parametrize(
    ("check", "budget", "field"), [("search", 10, "check"), ("reachable", 0, "budget")]
)
def test_the_reachable_check_arguments_are_checked(check: Any, budget: int, field: str) -> None:
    with pytest.raises(ll.ArgumentError) as caught:
        ll.from_position(_seen_guard_position(Card.BARON), check=check, budget=budget)
    assert caught.value.field == field
