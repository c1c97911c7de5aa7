"""The printable state (loveletter.display, ``str(state)``): read back line by
line, the text must give every field of the state, at random states of
every ruleset and player count, and print even for states no game reaches."""

from __future__ import annotations

import doctest
import random
import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import loveletter as ll
import loveletter.display
from loveletter.cards import Card
from loveletter.display import describe_state
from loveletter.notation import card_text, parse_command
from loveletter.simulation import play_game, random_bots
from loveletter.state import Decision, GameState

_BY_TEXT = {card_text(card): card for card in Card}


def cards_of(text: str) -> tuple[Card, ...]:
    return () if text == "none" else tuple(_BY_TEXT[name] for name in text.split(", "))


def seats_of(text: str) -> tuple[int, ...]:
    return tuple(int(seat.removeprefix("P")) for seat in text.split(", "))


def check_description(state: GameState) -> None:
    """Read the text back (independently of how display.py writes it) and
    compare every field with the state."""
    text = describe_state(state)
    assert str(state) == text
    lines = iter(text.split("\n"))

    header = next(lines)
    assert header.startswith(f"{state.ruleset.title} [{state.ruleset.name}], {state.players} ")
    goal = state.ruleset.tokens_to_win(state.players)
    online = state.table.settings is not None
    assert online is state.ruleset.online_table
    if online:
        assert goal is None
        assert header.endswith(" players, win counters, no tokens to win")
        check_settings(state, next(lines))
    else:
        assert goal is not None
        # each edition's own word: favor tokens, Premium's Tokens of Affection
        singular, plural = state.ruleset.token_names
        assert header.endswith(f" players, {goal} {plural} to win")

    turn = re.fullmatch(
        r"round (\d+), turn (\d+): (\w+) to act \((.+)\); current seat P(\d+)", next(lines)
    )
    assert turn is not None
    assert (int(turn[1]), int(turn[2]), int(turn[5])) == (
        state.round_number,
        state.turn_number,
        state.current,
    )
    assert turn[3] == ("nobody" if state.to_act is None else f"P{state.to_act}")
    assert turn[4] == {Decision.DRAW: "draw", Decision.PLAY: "play"}.get(state.decision, turn[4])
    if online:
        order = next(lines).removeprefix("turn order: ")
        assert seats_of(order) == state.table.order

    deck = re.fullmatch(r"deck \((\d+), top first\): (.+)", next(lines))
    assert deck is not None
    assert int(deck[1]) == len(state.deck)
    assert cards_of(deck[2]) == state.deck
    set_aside = next(lines).removeprefix("set aside: ")
    assert set_aside == ("none" if state.set_aside is None else card_text(state.set_aside))
    assert cards_of(next(lines).removeprefix("face up: ")) == state.face_up

    for seat in range(state.players):
        line = next(lines)
        parts = line.split("; ")
        if online:
            assert parts[0] == f"P{seat}: win counter {state.tokens[seat]}"
        else:
            tokens = state.tokens[seat]
            assert parts[0] == f"P{seat}: {tokens} {singular if tokens == 1 else plural}"
        assert cards_of(parts[1].removeprefix("hand ")) == state.hands[seat]
        assert cards_of(parts[2].removeprefix("discards ")) == state.discards[seat]
        flags = parts[3:]
        assert ("out" in flags) == (seat in state.out)
        assert ("protected" in flags) == (seat in state.protected)
        assert ("left the match" in flags) == (seat in state.table.left)
        assert ("must be chosen (Sycophant)" in flags) == (state.required == seat)
        marks = [f"marked by P{j}'s Jester" for j, marked in state.marks if marked == seat]
        assert [f for f in flags if f.startswith("marked")] == marks

    if online:
        exits = next(lines).removeprefix("gone out (first to last): ")
        assert (() if exits == "nobody" else seats_of(exits)) == state.exits
        left = next(lines).removeprefix("left the match: ")
        assert (() if left == "nobody" else seats_of(left)) == tuple(sorted(state.table.left))
    line = next(lines)
    if state.pending:
        assert line.startswith(f"pending: {', '.join(f'P{p}' for p in state.pending)}")
        line = next(lines)
    if state.sightings:
        assert line == "sightings:"
        for sighting in state.sightings:
            seen = re.fullmatch(r"  P(\d+) saw P(\d+)'s (.+) \(via (.+), turn (\d+)\)", next(lines))
            assert seen is not None
            assert (
                ll.Sighting(
                    int(seen[1]), int(seen[2]), _BY_TEXT[seen[3]], int(seen[5]), _BY_TEXT[seen[4]]
                )
                == sighting
            )
    else:
        assert line == "sightings: none"

    returns = next(lines).removeprefix("Chancellor returns (oldest first): ")
    found = re.findall(r"P(\d+) put (\d+) cards? under the deck", returns)
    assert tuple((int(p), int(n)) for p, n in found) == state.returns
    assert found or returns == "none"

    result = next(lines).removeprefix("round result: ")
    if state.round_result is None:
        assert result == "none (the round is being played)"
    else:
        ranks = None
        if state.round_result.ranks is not None:
            result, ranks = result.split("; ranks (- not dealt in): ")
            assert tuple(
                (int(seat.removeprefix("P")), None if rank == "-" else int(rank))
                for seat, rank in (item.split(" ") for item in ranks.split(", "))
            ) == tuple(enumerate(state.round_result.ranks))
        assert (ranks is not None) is online
        outcome = re.fullmatch(r"([a-z-]+), won by (.+); revealed: (.+)", result)
        assert outcome is not None
        assert outcome[1] == state.round_result.reason.value
        assert seats_of(outcome[2]) == state.round_result.winners
        revealed = (
            ()
            if outcome[3] == "nothing"
            else tuple(
                (int(item.split(" ", 1)[0][1:]), _BY_TEXT[item.split(" ", 1)[1]])
                for item in outcome[3].split(", ")
            )
        )
        assert revealed == state.round_result.revealed

    if online:
        assert not state.winners  # an online match has no winner (ruling 44)
        assert next(lines) == (
            "match: closed (fewer than two players present)"
            if state.is_over
            else "match: open (it ends only when fewer than two players are present)"
        )
    else:
        winners = next(lines).removeprefix("game winners: ")
        assert winners == "none yet" if not state.winners else seats_of(winners) == state.winners
    line = next(lines)
    if state.contenders:
        assert seats_of(line.removeprefix("tie-break round between: ")) == state.contenders
        line = next(lines)
    assert line.startswith("# the seed is secret until the game ends")
    assert next(lines) == f"seed: {state.seed}"

    legal = ll.legal_commands(state)
    line = next(lines)
    if legal:
        assert line == f"legal commands ({len(legal)}):"
        assert tuple(parse_command(next(lines).removeprefix("  ")) for _ in legal) == legal
    else:
        assert line == "legal commands: none"
    assert next(lines, None) is None


def check_settings(state: GameState, line: str) -> None:
    settings = state.table.settings
    assert settings is not None
    table = re.fullmatch(
        r"table: (\d) decks? \((\d+) cards\), turn time (\d+) ms, random moves (on|off),"
        r" intermission (\d+) ms",
        line,
    )
    assert table is not None, line
    assert int(table[1]) == settings.decks
    assert int(table[2]) == state.card_count()
    assert int(table[3]) == settings.turn_time_ms
    assert (table[4] == "on") is settings.random_moves
    assert int(table[5]) == settings.intermission_ms


def _states(ruleset: str, players: int, seed: int) -> list[GameState]:
    states = [ll.new_game(ruleset, players, seed=seed)]
    # an online match never ends by itself (ruling 44): three rounds of it
    rounds = 3 if ll.RULESETS[ruleset].online_table else None
    play_game(
        ruleset,
        players,
        random_bots(players, seed),
        seed=seed,
        observer=lambda events, state: states.append(state),
        rounds=rounds,
    )
    return states


def test_every_setup_described_at_every_state_of_a_game() -> None:
    decisions: set[Decision] = set()
    for name, ruleset in ll.RULESETS.items():
        for players in range(ruleset.min_players, ruleset.max_players + 1):
            for state in _states(name, players, seed=players):
                decisions.add(state.decision)
                check_description(state)
    assert decisions >= set(Decision) - {Decision.DRAW}


@st.composite
def random_states(draw: st.DrawFn) -> GameState:
    name = draw(st.sampled_from(sorted(ll.RULESETS)))
    ruleset = ll.RULESETS[name]
    players = draw(st.integers(ruleset.min_players, ruleset.max_players))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    state = ll.new_game(name, players, seed=seed)
    for _ in range(draw(st.integers(0, 120))):
        if state.is_over:
            break
        state = ll.push(state, rng.choice(ll.legal_commands(state)))
    return state


@settings(max_examples=30)
@given(random_states())
def test_random_states_described(state: GameState) -> None:
    check_description(state)


def test_a_turn_before_its_draw() -> None:
    state = ll.new_game("2019", 3, seed=5)
    position = ll.to_position(state)
    hand = position.hands[0]
    position = attrs.evolve(
        position,
        hands=(hand[:1], *position.hands[1:]),
        deck=(hand[1], *position.deck),
        drawn=False,
    )
    before = ll.from_position(position)
    assert before.decision is Decision.DRAW
    check_description(before)
    assert "P0 to act (draw)" in str(before)
    assert str(before).endswith("legal commands (1):\n  P0 draw")


def test_fields_a_random_game_seldom_shows() -> None:
    # hand-built on a real state: describe_state checks nothing, shows all
    state = ll.new_game("premium", 6, seed=1)
    table = attrs.evolve(state.table, contenders=(0, 2, 5), tokens=(4, 0, 4, 1, 0, 5))
    state = attrs.evolve(
        state,
        table=table,
        required=3,
        marks=((1, 3), (4, 3)),
        returns=((2, 1), (4, 2)),
        protected=frozenset({4}),
        out=frozenset({1}),
    )
    check_description(state)
    text = str(state)
    assert "tie-break round between: P0, P2, P5" in text
    assert "P3: 1 Token of Affection; hand " in text
    assert "marked by P1's Jester; marked by P4's Jester; must be chosen (Sycophant)" in text
    assert text.count("marked by P") == 2
    assert "P2 put 1 card under the deck, P4 put 2 cards under the deck" in text


def test_finished_game() -> None:
    state = play_game("2019", 4, random_bots(4, 3), seed=3).state
    assert state.is_over
    check_description(state)
    text = str(state)
    assert "(the game is over)" in text
    assert "legal commands: none" in text
    assert "game winners: P" in text


def test_a_state_no_game_reaches_still_prints() -> None:
    state = ll.new_game("premium", 5, seed=2)
    broken = attrs.evolve(state, decision=Decision.REDRAW, pending=())
    text = describe_state(broken)
    assert "<IndexError" in text  # who acts cannot be worked out
    short = attrs.evolve(state, hands=state.hands[:3])
    text = describe_state(short)
    assert "P4: 0 Tokens of Affection; hand none" in text
    assert "legal commands" in text


def test_repr_is_unchanged_and_print_shows_the_text(capsys: pytest.CaptureFixture[str]) -> None:
    state = ll.new_game("2019-classic", 4, seed=9)
    assert repr(state).startswith("GameState(table=Table(ruleset=Ruleset(")
    print(state)
    captured = capsys.readouterr()
    assert captured.out == describe_state(state) + "\n"
    assert "seed: 9" in captured.out


def test_the_module_doctests_pass() -> None:
    results = doctest.testmod(loveletter.display)
    assert results.attempted >= 3
    assert results.failed == 0


# --------------------------------------------------------------------------
# online


def _online_match(seed: int, players: int, decks: int, leaves: float) -> list[GameState]:
    """Every state of a short online match between random moves, with
    players leaving and timing out now and then."""
    rng = random.Random(seed)
    settings = ll.TableSettings(decks=decks, random_moves=seed % 2 == 0)
    state = ll.new_game("online", players, seed=seed, settings=settings)
    states = [state]
    while not state.is_over and state.round_number <= 3:
        present = state.present()
        roll = rng.random()
        command: ll.Command
        if roll < leaves:
            command = ll.Leave(rng.choice(present))
        elif roll < leaves + 0.1 and state.to_act is not None and settings.random_moves:
            command = ll.TimeOut(state.to_act)
        else:
            command = rng.choice(ll.legal_commands(state))
        state = ll.push(state, command)
        states.append(state)
    return states


@pytest.mark.parametrize(("players", "decks"), [(3, 3), (5, 2), (8, 1)])
def test_online_matches_with_leaving_described(players: int, decks: int) -> None:
    seen_left = seen_exits = seen_ranks = False
    for seed in range(3):
        for state in _online_match(seed, players, decks, leaves=0.05):
            check_description(state)
            text = str(state)
            seen_left |= bool(state.table.left)
            seen_exits |= bool(state.exits)
            seen_ranks |= state.round_result is not None
            assert "token" not in text.replace(", no tokens to win\n", "\n")
    assert seen_left and seen_exits and seen_ranks


def test_online_texts() -> None:
    settings = ll.TableSettings(decks=2, turn_time_ms=5000, random_moves=False)
    state = ll.new_game("online", 4, seed=1, settings=settings)
    lines = str(state).split("\n")
    assert lines[0].endswith("[online], 4 players, win counters, no tokens to win")
    assert lines[1] == (
        "table: 2 decks (32 cards), turn time 5000 ms, random moves off, intermission 30000 ms"
    )
    assert lines[3] == "turn order: " + ", ".join(f"P{seat}" for seat in state.table.order)
    assert any(line.startswith("P0: win counter 0; hand ") for line in lines)
    assert "gone out (first to last): nobody" in lines
    assert "left the match: nobody" in lines
    assert "match: open (it ends only when fewer than two players are present)" in lines
    assert "game winners" not in str(state)
    # the current player leaves, then another: the order they went out in
    first, second = state.current, state.table.order[2]
    state = ll.push(ll.push(state, ll.Leave(first)), ll.Leave(second))
    text = str(state)
    assert f"gone out (first to last): P{first}, P{second}" in text
    assert f"left the match: {', '.join(f'P{s}' for s in sorted((first, second)))}" in text
    assert f"P{first}: win counter 0; hand none; discards " in text
    assert text.count("; out; left the match") == 2
    # two more leave: the last one in ranks first, and the match closes
    third, last = (seat for seat in state.table.order if seat not in (first, second))
    state = ll.push(state, ll.Leave(third))
    check_description(state)
    text = str(state)
    ranks = {first: 4, second: 3, third: 2, last: 1}
    told = ", ".join(f"P{seat} {ranks[seat]}" for seat in range(4))
    assert f"won by P{last}; revealed: nothing; ranks (- not dealt in): {told}" in text
    assert "match: closed (fewer than two players present)" in text
    assert "legal commands: none" in text
