"""The move notation (loveletter.notation): examples of every form in every
edition, round trips over every legal command of random games (each ruleset
and player count), over any writable command, and the error contract (only
NotationError, saying what was expected and where) on any text."""

from __future__ import annotations

import doctest
import random
import time
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import loveletter as ll
import loveletter.notation
from loveletter.cards import Card
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
from loveletter.errors import LoveLetterError, NotationError
from loveletter.notation import MAX_TEXT, card_text, format_command, parse_command
from loveletter.simulation import play_game, random_bots
from loveletter.state import Decision, GameState

G = Card

# --------------------------------------------------------------------------
# examples: canonical text and the command it stands for

EXAMPLES: list[tuple[str, Command]] = [
    # 2019 and its Classic Version: cards are named
    ("P0 Guard on P2 naming Priest", PlayCard(0, G.GUARD, 2, G.PRIEST)),
    ("P1 Guard on P0 naming Spy", PlayCard(1, G.GUARD, 0, G.SPY)),
    ("P0 Guard", PlayCard(0, G.GUARD)),
    ("P2 Priest on P1", PlayCard(2, G.PRIEST, 1)),
    ("P3 Baron on P0", PlayCard(3, G.BARON, 0)),
    ("P0 Handmaid", PlayCard(0, G.HANDMAID)),
    ("P0 Prince on P0", PlayCard(0, G.PRINCE, 0)),
    ("P4 King on P5", PlayCard(4, G.KING, 5)),
    ("P1 Countess", PlayCard(1, G.COUNTESS)),
    ("P1 Princess", PlayCard(1, G.PRINCESS)),
    ("P5 Spy", PlayCard(5, G.SPY)),
    ("P0 Chancellor", PlayCard(0, G.CHANCELLOR)),
    ("P0 keep Spy, bottom Guard then Baron", KeepCard(0, G.SPY, (G.GUARD, G.BARON))),
    ("P2 keep Princess, bottom Guard", KeepCard(2, G.PRINCESS, (G.GUARD,))),
    ("P0 keep Spy", KeepCard(0, G.SPY, ())),
    ("P0 draw", DrawCard(0)),
    ("deal", StartRound()),
    ("deal first P2", StartRound(None, 2)),
    ("deal deck Guard, Priest, Princess", StartRound((G.GUARD, G.PRIEST, G.PRINCESS))),
    ("deal first P1 deck Spy, Guard", StartRound((G.SPY, G.GUARD), 1)),
    ("deal deck", StartRound(())),
    # Premium: numbers are named, and the cards of 5 to 8 players
    ("P0 Guard on P2 naming 5", PlayCard(0, G.GUARD, 2, 5)),
    ("P0 Guard on P7 naming 0", PlayCard(0, G.GUARD, 7, 0)),
    ("P0 Bishop on P1 naming 7", PlayCard(0, G.BISHOP, 1, 7)),
    ("P3 Cardinal on P1 and P2", PlayCard(3, G.CARDINAL, 1, None, 2)),
    ("P1 Baroness on P0 and P3", PlayCard(1, G.BARONESS, 0, None, 3)),
    ("P1 Baroness on P0", PlayCard(1, G.BARONESS, 0)),
    ("P6 Dowager Queen on P2", PlayCard(6, G.DOWAGER_QUEEN, 2)),
    ("P0 Constable", PlayCard(0, G.CONSTABLE)),
    ("P0 Count", PlayCard(0, G.COUNT)),
    ("P0 Sycophant on P4", PlayCard(0, G.SYCOPHANT, 4)),
    ("P7 Jester on P3", PlayCard(7, G.JESTER, 3)),
    ("P0 Assassin", PlayCard(0, G.ASSASSIN)),
    ("P0 look at P2", LookAtHand(0, 2)),
    ("P1 redraw", Redraw(1)),
    ("P1 decline", Decline(1)),
    (
        "deal first P0 deck Dowager Queen, Guard, Bishop",
        StartRound((G.DOWAGER_QUEEN, G.GUARD, G.BISHOP), 0),
    ),
    # online: leaving, a host's time-out, a stacked turn order
    ("P2 leave", Leave(2)),
    ("P1 timeout", TimeOut(1)),
    ("deal order P2, P0, P1", StartRound(None, None, (2, 0, 1))),
    ("deal first P2 order P2, P0", StartRound(None, 2, (2, 0))),
    ("deal order P1, P0, P2 deck Guard, Bishop", StartRound((G.GUARD, G.BISHOP), None, (1, 0, 2))),
    ("deal order", StartRound(None, None, ())),
    ("deal order deck", StartRound((), None, ())),
    # not legal anywhere, but writable: the engine is the one to refuse them
    ("P999 Guard on P998 naming -1", PlayCard(999, G.GUARD, 998, -1)),
    ("P0 Guard naming Guard", PlayCard(0, G.GUARD, None, G.GUARD)),
    ("P0 Handmaid on P1 and P2 naming 999", PlayCard(0, G.HANDMAID, 1, 999, 2)),
    ("P0 keep Guard, bottom Guard then Guard then Guard", KeepCard(0, G.GUARD, (G.GUARD,) * 3)),
]


@pytest.mark.parametrize(("text", "command"), EXAMPLES, ids=[t for t, _ in EXAMPLES])
def test_example(text: str, command: Command) -> None:
    assert parse_command(text) == command
    assert format_command(command) == text
    assert type(parse_command(text)) is type(command)


ALL_KINDS = {
    PlayCard,
    KeepCard,
    LookAtHand,
    Redraw,
    Decline,
    DrawCard,
    StartRound,
    Leave,
    TimeOut,
}


def test_every_command_type_is_in_the_notation() -> None:
    assert set(ll.serialization.COMMAND_TYPES.values()) == ALL_KINDS


def test_the_examples_cover_every_command_type_and_card() -> None:
    kinds = {type(command) for _, command in EXAMPLES}
    assert kinds == ALL_KINDS
    played = {c.card for _, c in EXAMPLES if isinstance(c, PlayCard)}
    assert played == set(Card)


def test_a_number_and_a_card_of_that_code_stay_different() -> None:
    # PlayCard compares guesses with their type: Card.PRINCE == 5 as integers
    as_number = parse_command("P0 Guard on P1 naming 5")
    as_card = parse_command("P0 Guard on P1 naming Prince")
    assert type(as_number.guess) is int  # type: ignore[attr-defined]
    assert as_card.guess is Card.PRINCE  # type: ignore[attr-defined]
    assert as_number != as_card
    assert format_command(PlayCard(0, G.GUARD, 1, 5)) == "P0 Guard on P1 naming 5"
    assert format_command(PlayCard(0, G.GUARD, 1, Card.PRINCE)) == "P0 Guard on P1 naming Prince"


LENIENT = [
    ("  p0   GUARD on   p2 naming   priest  ", "P0 Guard on P2 naming Priest"),
    ("P0\tguard\non P2 NAMING 05", "P0 Guard on P2 naming 5"),
    ("P006 dowager   QUEEN on P002", "P6 Dowager Queen on P2"),
    ("P6 DowagerQueen on P2", "P6 Dowager Queen on P2"),
    ("p0 KEEP spy,bottom guard THEN baron", "P0 keep Spy, bottom Guard then Baron"),
    ("P0 keep Spy ,  bottom Guard", "P0 keep Spy, bottom Guard"),
    ("P0 Look At P2", "P0 look at P2"),
    (
        "DEAL FIRST p1 DECK guard ,priest,dowager queen",
        "deal first P1 deck Guard, Priest, Dowager Queen",
    ),
    ("P0 Bishop on P1 naming -0", "P0 Bishop on P1 naming 0"),
    ("p3   LEAVE ", "P3 leave"),
    ("P03 TimeOut", "P3 timeout"),
    ("DEAL first p1 ORDER p1,p0 ,  P2 deck GUARD", "deal first P1 order P1, P0, P2 deck Guard"),
]


@pytest.mark.parametrize(("text", "canonical"), LENIENT, ids=[t for t, _ in LENIENT])
def test_lenient_about_spaces_and_case(text: str, canonical: str) -> None:
    assert format_command(parse_command(text)) == canonical


# text, column (0-based) where it went wrong, and a piece of the message
ERRORS = [
    ("", 0, "expected a seat (P0, P1, ...) or 'deal', found the end of the text"),
    ("   ", 3, "or 'deal', found the end"),
    ("Guard on P1", 0, "expected a seat (P0, P1, ...) or 'deal', found 'Guard'"),
    ("P0", 2, "expected a card name, 'keep', 'look at', 'draw', 'redraw', 'decline', 'leave'"),
    ("P0 Gaurd on P1", 3, "found 'Gaurd'"),
    ("P0 Guard on", 11, "expected a seat (P0, P1, ...), found the end of the text"),
    ("P0 Guard on 2", 12, "expected a seat (P0, P1, ...), found '2'"),
    ("P0 Guard on P1 and", 18, "expected a seat"),
    ("P0 Guard on P1 naming", 21, "expected a card name or a number"),
    ("P0 Guard on P1 naming Priest on P2", 29, "expected the end of the command, found 'on'"),
    ("P0 Guard on P1 naming Prist", 22, "found 'Prist'"),
    ("P0 Guard on P1 naming 1000", 22, "a number has at most 3 digits"),
    ("P0 Guard on P1 naming 5x", 22, "found '5x'"),
    ("P0 Guard naming 1 on P1", 18, "expected the end of the command, found 'on'"),
    ("P0 Guard on P1 P2", 15, "expected 'and', 'naming' or the end of the command, found 'P2'"),
    ("P0 Cardinal on P1 and P2 and P3", 25, "'naming' or the end of the command, found 'and'"),
    ("P1000 draw", 0, "a seat number has at most 3 digits"),
    ("P0Guard", 0, "found 'P0Guard'"),
    ("P0 draw P1", 8, "expected the end of the command, found 'P1'"),
    ("P0 look P2", 8, "expected 'at', found 'P2'"),
    ("P0 look at", 10, "expected a seat"),
    ("P0 keep", 7, "expected a card name, found the end of the text"),
    ("P0 keep Spy bottom Guard", 12, "expected ', bottom' or the end of the command"),
    ("P0 keep Spy, Guard", 13, "expected 'bottom', found 'Guard'"),
    ("P0 keep Spy, bottom", 19, "expected a card name"),
    ("P0 keep Spy, bottom Guard, Baron", 25, "expected 'then' or the end of the command"),
    ("P0 keep Spy, bottom Guard then", 30, "expected a card name"),
    ("deal first", 10, "expected a seat"),
    ("deal P1", 5, "expected 'first', 'order', 'deck' or the end of the command, found 'P1'"),
    ("deal first P1 P2", 14, "expected 'order', 'deck' or the end of the command"),
    ("deal order P1 P2", 14, "expected ',' and a seat, 'deck' or the end of the command"),
    ("deal order, P1", 10, "expected a seat, 'deck' or the end of the command, found ','"),
    ("deal order P1,", 14, "expected a seat (P0, P1, ...), found the end of the text"),
    ("deal order Guard", 11, "expected a seat, 'deck' or the end of the command, found 'Guard'"),
    ("deal deck Guard order P1", 16, "expected ',' and a card, or the end of the command"),
    ("deal order P1 first P0", 14, "'deck' or the end of the command, found 'first'"),
    ("P0 leave P1", 9, "expected the end of the command, found 'P1'"),
    ("P0 time out", 3, "found 'time'"),
    ("P0 timeout now", 11, "expected the end of the command, found 'now'"),
    ("deal deck Guard,", 16, "expected a card name, found the end of the text"),
    ("deal deck Guard Priest", 16, "expected ',' and a card, or the end of the command"),
    ("deal deck first P1", 10, "expected a card name, found 'first'"),
    ("deal deck Guard, Dowager", 17, "found 'Dowager'"),
    ("P0 Prince on P-1", 13, "expected a seat (P0, P1, ...), found 'P'"),
    ("P0 Guard on P1 naming 5 !", 24, "found '!'"),
    ("P0 Guard on P1 naming \u0665", 22, "found '\u0665'"),
    ("P0 Guärd", 3, "found 'Gu'"),
    ("P\u0660 draw", 0, "found 'P'"),
]


@pytest.mark.parametrize(("text", "column", "message"), ERRORS, ids=[t for t, _, _ in ERRORS])
def test_errors_say_what_was_expected_and_where(text: str, column: int, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(text)
    error = caught.value
    assert message in error.detail
    assert error.column == column
    assert error.text == text
    assert f"at column {column + 1}" in str(error)
    assert isinstance(error, LoveLetterError)


def test_long_text_is_refused_before_any_work() -> None:
    deck = ", ".join(card_text(c) for c in ll.get_ruleset("premium").deck_for(8))
    assert len(f"deal first P7 deck {deck}") < MAX_TEXT // 2
    full = ll.get_ruleset("premium").deck_for(8)
    assert parse_command(f"deal first P7 deck {deck}") == StartRound(full, 7)
    worst = "deal deck " + ", ".join(["Dowager Queen"] * 200)
    worst = worst[: MAX_TEXT - 20].rsplit(",", 1)[0]
    start = time.perf_counter()
    assert parse_command(worst) == StartRound((Card.DOWAGER_QUEEN,) * (worst.count(",") + 1))
    for huge in ("P0 Guard on P1 naming " + "9" * 10**6, " " * (MAX_TEXT + 1), "x" * 10**7):
        with pytest.raises(NotationError, match="at most 2000 characters"):
            parse_command(huge)
    assert time.perf_counter() - start < 1.0


def test_not_text_is_a_notation_error() -> None:
    for value in (None, 5, b"P0 draw", ["P0 draw"]):
        with pytest.raises(NotationError, match="must be text"):
            parse_command(value)  # type: ignore[arg-type]


UNWRITABLE: list[Command] = [
    PlayCard(-1, G.GUARD),
    PlayCard(1000, G.GUARD),
    PlayCard(0, G.GUARD, 1000),
    PlayCard(True, G.GUARD),
    PlayCard(0, G.GUARD, 1, True),
    PlayCard(0, G.GUARD, 1, 1000),
    PlayCard(0, G.GUARD, 1, "Priest"),  # type: ignore[arg-type]
    PlayCard(0, 1, 1),  # type: ignore[arg-type]
    PlayCard(0, G.CARDINAL, None, None, 2),
    KeepCard(0, G.GUARD, [G.SPY]),  # type: ignore[arg-type]
    KeepCard(0, G.GUARD, (G.SPY, 3)),  # type: ignore[arg-type]
    KeepCard(0, "Guard", ()),  # type: ignore[arg-type]
    LookAtHand(0, -1),
    Redraw(None),  # type: ignore[arg-type]
    Decline(2.0),  # type: ignore[arg-type]
    DrawCard("P0"),  # type: ignore[arg-type]
    StartRound([G.GUARD]),  # type: ignore[arg-type]
    StartRound((G.GUARD, None)),  # type: ignore[arg-type]
    StartRound(None, -3),
    StartRound(None, None, [1, 2]),  # type: ignore[arg-type]
    StartRound(None, None, (1, -1)),
    StartRound(None, None, (0, True)),
    StartRound(None, None, (0, 1000)),
    Leave(-1),
    Leave(None),  # type: ignore[arg-type]
    TimeOut("P0"),  # type: ignore[arg-type]
    TimeOut(1.0),  # type: ignore[arg-type]
    Command(),
]


@pytest.mark.parametrize("command", UNWRITABLE, ids=repr)
def test_commands_the_notation_cannot_write_are_refused(command: Command) -> None:
    with pytest.raises(NotationError):
        format_command(command)


def test_the_module_doctests_pass() -> None:
    results = doctest.testmod(loveletter.notation)
    assert results.attempted >= 6
    assert results.failed == 0


# --------------------------------------------------------------------------
# round trips


def round_trip(command: Command) -> None:
    text = format_command(command)
    back = parse_command(text)
    assert back == command, text
    assert type(back) is type(command)
    assert format_command(back) == text


def _not_drawn(state: GameState) -> GameState | None:
    """The same turn described before its draw (a DRAW decision), if the
    state is a turn about to play with something left to put back."""
    if state.decision is not Decision.PLAY or not state.deck:
        return None
    position = ll.to_position(state)
    hand = position.hands[position.current]
    hands = list(position.hands)
    hands[position.current] = hand[:1]
    try:
        return ll.from_position(
            attrs.evolve(position, hands=tuple(hands), deck=(hand[1], *position.deck), drawn=False)
        )
    except ll.PositionError:
        return None


def _states(
    ruleset: str, players: int, seed: int, commands: list[Command] | None = None
) -> Iterator[GameState]:
    """Every state of a game of random bots, with the same turn before its
    draw where that can be described; ``commands`` receives the game's own
    commands (an online deal carries the drawn order)."""
    states: list[GameState] = []
    record = play_game(
        ruleset,
        players,
        random_bots(players, seed),
        seed=seed,
        observer=lambda events, state: states.append(state),
        rounds=3 if ruleset == "online" else None,
    )
    if commands is not None:
        commands.extend(record.commands())
    for state in states:
        yield state
        if state.turn_number % 3 == 0:
            not_drawn = _not_drawn(state)
            if not_drawn is not None:
                yield not_drawn


def _deals(state: GameState, rng: random.Random) -> list[StartRound]:
    """Stacked and steered deals for a state between rounds (or any)."""
    deck = list(state.ruleset.deck_for(state.players))
    rng.shuffle(deck)
    seat = rng.randrange(state.players)
    deals = [StartRound(tuple(deck)), StartRound(None, seat), StartRound(tuple(deck), seat)]
    if state.ruleset.online_table:
        order = list(state.present())
        rng.shuffle(order)
        deals += [StartRound(None, None, tuple(order)), StartRound(tuple(deck), None, tuple(order))]
    return deals


def _online_only(state: GameState) -> list[Command]:
    """What may be sent in an online game besides the legal commands: any
    present player leaving, a host's time-out for whoever must act."""
    if not state.ruleset.online_table or state.is_over:
        return []
    extra: list[Command] = [Leave(seat) for seat in state.present()]
    if state.to_act is not None:
        extra.append(TimeOut(state.to_act))
    return extra


SETUPS = [
    (name, n) for name, r in ll.RULESETS.items() for n in range(r.min_players, r.max_players + 1)
]


def test_every_legal_command_of_every_setup_round_trips() -> None:
    """Simulated games, two per ruleset and player count (online matches of
    three rounds): every legal command at every state (and at the same turn
    before its draw), the games' own deals, stacked deals with chosen first
    players and turn orders, and online every leave and time-out that could
    be sent, reads back as itself."""
    # 2019: 2-6 players, its Classic Version 2-4, Premium 2-8, online 3-8
    assert len(SETUPS) == 5 + 3 + 7 + 6
    assert {name for name, _ in SETUPS} == set(ll.RULESETS)
    seen: set[Command] = set()
    kinds: set[type] = set()
    decisions: set[Decision] = set()
    rng = random.Random(0)
    for name, players in SETUPS:
        for seed in (1, 2):
            played: list[Command] = []
            for state in _states(name, players, seed, played):
                decisions.add(state.decision)
                commands = [*ll.legal_commands(state), *_online_only(state)]
                if state.decision is Decision.NEXT_ROUND:
                    commands += _deals(state, rng)
                for command in commands:
                    if command not in seen:
                        seen.add(command)
                        kinds.add(type(command))
                        round_trip(command)
            for command in played:
                round_trip(command)
    assert decisions == set(Decision)
    assert kinds == ALL_KINDS
    orders = [c.order for c in seen if isinstance(c, StartRound) and c.order is not None]
    assert {len(order) for order in orders} == set(range(3, 9))
    guesses = {type(c.guess) for c in seen if isinstance(c, PlayCard)}
    assert guesses == {Card, int, type(None)}
    assert any(isinstance(c, PlayCard) and c.second_target is not None for c in seen)


@st.composite
def random_games(draw: st.DrawFn) -> tuple[str, int, int]:
    name = draw(st.sampled_from(sorted(ll.RULESETS)))
    ruleset = ll.RULESETS[name]
    players = draw(st.integers(ruleset.min_players, ruleset.max_players))
    return name, players, draw(st.integers(0, 2**32))


@settings(max_examples=25)
@given(random_games())
def test_legal_commands_round_trip_at_random_states(game: tuple[str, int, int]) -> None:
    name, players, seed = game
    rng = random.Random(seed)
    state = ll.new_game(name, players, seed=seed)
    seen: set[Command] = set()
    # an online match never ends by itself: three rounds bound every game
    while not state.is_over and state.round_number <= 3:
        legal = ll.legal_commands(state)
        for command in (*legal, *_online_only(state)):
            if command not in seen:
                seen.add(command)
                round_trip(command)
        if state.decision is Decision.NEXT_ROUND and rng.random() < 0.5:
            deal = _deals(state, rng)[0]
            round_trip(deal)
            state = ll.push(state, deal)
        else:
            state = ll.push(state, rng.choice(legal))


seats = st.integers(0, 999)
cards = st.sampled_from(Card)
guesses = st.none() | cards | st.integers(-999, 999)

any_commands: st.SearchStrategy[Command] = st.one_of(
    st.builds(
        PlayCard,
        seats,
        cards,
        st.none() | seats,
        guesses,
        st.none(),
    ),
    st.builds(lambda p, c, t, g, s: PlayCard(p, c, t, g, s), seats, cards, seats, guesses, seats),
    st.builds(KeepCard, seats, cards, st.lists(cards, max_size=4).map(tuple)),
    st.builds(LookAtHand, seats, seats),
    st.builds(Redraw, seats),
    st.builds(Decline, seats),
    st.builds(DrawCard, seats),
    st.builds(
        StartRound,
        st.none() | st.lists(cards, max_size=40).map(tuple),
        st.none() | seats,
        st.none() | st.lists(seats, max_size=9).map(tuple),
    ),
    st.builds(Leave, seats),
    st.builds(TimeOut, seats),
)


def test_online_deals_of_two_and_three_decks_round_trip() -> None:
    """The largest deals the notation must write: eight players, three decks
    (96 cards) with the drawn order, well inside :data:`MAX_TEXT`."""
    for players, decks in ((3, 2), (8, 3)):
        record = play_game(
            "online",
            players,
            random_bots(players, decks),
            seed=decks,
            rounds=2,
            settings=ll.TableSettings(decks=decks),
        )
        # each deal as stacked, with its deck and order (the record lists
        # the seed's own deals as StartRound())
        deals = [
            StartRound(e.deck, e.first_player, e.order)
            for e in record.events
            if isinstance(e, ll.RoundStarted)
        ]
        assert len(deals) == 2
        for command in (*record.commands(), *deals):
            round_trip(command)
        for deal in deals:
            assert deal.deck is not None and deal.order is not None
            assert len(deal.deck) == (16 if players < 5 else 32) * decks
            assert len(format_command(deal)) < MAX_TEXT // 2


@given(any_commands)
def test_any_writable_command_round_trips(command: Command) -> None:
    round_trip(command)


# --------------------------------------------------------------------------
# any text: a command or a NotationError, nothing else


def check_any_text(text: str) -> None:
    try:
        command = parse_command(text)
    except NotationError as error:
        assert 0 <= error.column <= len(text)
        assert error.detail
        return
    # what was read is written canonically and reads back the same
    canonical = format_command(command)
    assert parse_command(canonical) == command
    assert format_command(parse_command(canonical)) == canonical


@given(st.text())
def test_any_text_parses_or_raises_notation_error(text: str) -> None:
    check_any_text(text)


ALPHABET = "P0123456789 ,-_\t" + "guardonamigpkeethbtlcdvmu" + "GUARDNKEPVO"


@given(st.text(alphabet=ALPHABET, max_size=60))
def test_near_notation_text_parses_or_raises_notation_error(text: str) -> None:
    check_any_text(text)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from([t for t, _ in EXAMPLES]))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(text)))
        action = draw(st.integers(0, 4))
        if action == 0:  # delete a character
            text = text[:where] + text[where + 1 :]
        elif action == 1:  # insert one
            text = text[:where] + draw(st.characters()) + text[where:]
        elif action == 2:  # replace one by a character of the notation
            text = text[:where] + draw(st.sampled_from(ALPHABET)) + text[where + 1 :]
        elif action == 3:  # cut the end off
            text = text[:where]
        else:  # swap two words
            words = text.split(" ")
            i, j = draw(st.integers(0, len(words) - 1)), draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
            text = " ".join(words)
    return text


@given(mutated())
def test_mutated_canonical_text_parses_or_raises_notation_error(text: str) -> None:
    check_any_text(text)
