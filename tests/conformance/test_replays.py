"""Replay starts (``conformance/replays``): every position case, and every
later-round deal, reached by play from a stacked round-1 deal.

A replay file that reaches its case's start through our engine is the proof
that the position can occur; a position case without one fails here (run
``make replays``, which says why a position cannot be reached).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml

from loveletter import new_game
from loveletter.cards import Card
from loveletter.commands import Leave, PlayCard, StartRound
from loveletter.conformance import reach
from loveletter.conformance.cases import Case
from loveletter.engine import legal_commands, push
from loveletter.errors import PositionError
from loveletter.positions import Position, from_position, to_position
from loveletter.resources import suite_root
from loveletter.rulesets import get_ruleset
from loveletter.state import Decision, GameState, Sighting, TableSettings

from ._support import suite

CASES = suite_root() / "cases"
REPLAYS = suite_root() / "replays"


def _suite() -> tuple[Case, ...]:
    return suite()


def _needing() -> list[Case]:
    return [case for case in _suite() if reach.needs_replay(case)]


# --------------------------------------------------------------------------
# the files


@pytest.mark.parametrize("case", _needing(), ids=lambda case: case.name)
def test_case_has_a_replay_that_reaches_its_start(case: Case) -> None:
    path = reach.replay_path(REPLAYS, case)
    assert path.is_file(), (
        f"{case.name} has no replay start ({path}): run `make replays`, which says why"
        " the position cannot be reached if it cannot"
    )
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    problem = reach.verify_replay(case, data, str(path))
    assert problem is None, problem
    # exactly what the generator writes (so `make replays` is a no-op)
    assert reach.dump_replay(reach.parse_replay_data(data, str(path))) == text


def test_every_replay_file_has_its_case() -> None:
    assert reach.orphans(_suite(), REPLAYS) == []


def test_the_position_cases_are_counted() -> None:
    positions = [c for c in _needing() if reach.is_position_case(c)]
    later_deals = [c for c in _needing() if reach.is_later_deal_case(c)]
    assert len(positions) >= 356
    assert len(later_deals) >= 3
    assert len([c for c in positions if c.ruleset == "online"]) >= 90


def _valid() -> dict[str, Any]:
    case = next(c for c in _needing() if reach.replay_path(REPLAYS, c).is_file())
    data = yaml.safe_load(reach.replay_path(REPLAYS, case).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.pop("deal"), "deal"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.update(format=2), "format"),
        (lambda d: d.update(format=True), "format"),
        (lambda d: d.update(case=7), "case"),
        (lambda d: d.update(ruleset="2020"), "ruleset"),
        (lambda d: d.update(players="4"), "players"),
        (lambda d: d.update(deal={"deck": []}), "deal"),
        (lambda d: d["deal"].update(deck="Guard"), "deal.deck"),
        (lambda d: d["deal"]["deck"].__setitem__(3, "Gaurd"), "deal.deck[3]"),
        (lambda d: d["deal"].update(first_player=None), "deal.first_player"),
        (lambda d: d.update(commands={}), "commands"),
        (lambda d: d["commands"].append({"type": "Shuffle"}), "commands["),
        (lambda d: d["commands"].append({"type": "PlayCard", "player": 0}), "commands["),
        (lambda d: d.update(after_draw="no"), "after_draw"),
        (lambda d: d["deal"].update(order="0 1 2"), "deal.order"),
        (lambda d: d["deal"].update(seed=7), "deal.seed"),
        (lambda d: d["deal"].update(seed="07"), "deal.seed"),
        (lambda d: d["deal"].update(shuffle=True), "deal"),
        (lambda d: d.update(settings=[1]), "settings"),
        (lambda d: d.update(settings={"decks": "2"}), "settings.decks"),
        (lambda d: d.update(settings={"random_moves": 1}), "settings.random_moves"),
        (lambda d: d.update(settings={"pause_ms": 1}), "settings"),
    ],
)
def test_malformed_replay_files_name_the_file_and_the_field(edit: Any, field: str) -> None:
    data = _valid()
    edit(data)
    with pytest.raises(reach.ReplayError) as raised:
        reach.parse_replay_data(data, "somewhere/x.yaml")
    assert "somewhere/x.yaml" in str(raised.value)
    assert field in str(raised.value)


def test_a_replay_that_misses_its_case_says_how() -> None:
    case, data = next(
        (c, d)
        for c in _needing()
        if reach.replay_path(REPLAYS, c).is_file()
        and len(
            (d := yaml.safe_load(reach.replay_path(REPLAYS, c).read_text(encoding="utf-8")))[
                "commands"
            ]
        )
        > 2
    )
    data["commands"] = data["commands"][:-1]
    problem = reach.verify_replay(case, data, "f.yaml")
    assert problem is not None and problem.startswith("f.yaml: ")
    data["commands"] = [{"type": "DrawCard", "player": 0}]
    problem = reach.verify_replay(case, data, "f.yaml")
    assert problem is not None and "commands[0]: rejected (wrong-decision)" in problem
    data["case"] = "another-case"
    assert "case" in (reach.verify_replay(case, data, "f.yaml") or "")


# --------------------------------------------------------------------------
# the search


def _random_game(ruleset: str, players: int, seed: int) -> list[GameState]:
    """The moments a player is about to play, in round 1 of a random game."""
    rng = random.Random(seed)
    state = new_game(ruleset, players, seed=seed, first_player=rng.randrange(players))
    moments = []
    while not state.round_over:
        if state.decision is Decision.PLAY:
            moments.append(state)
        state = push(state, rng.choice(legal_commands(state)))
    return moments


def _replayed(solution: reach.RoundSolution, target: Position) -> Position:
    state = new_game(
        target.ruleset,
        target.players,
        seed=target.seed,
        first_player=solution.first_player,
        deck=solution.deck,
        order=solution.order,
        settings=target.settings,
    )
    for command in solution.commands:
        state = push(state, command)
    return to_position(state)


GAMES = [
    *(("2019", n) for n in range(2, 7)),
    *(("2019-classic", n) for n in range(2, 5)),
    *(("premium", n) for n in range(2, 9)),
]


@pytest.mark.parametrize(("ruleset", "players"), GAMES)
def test_positions_of_random_games_are_found_again(ruleset: str, players: int) -> None:
    for seed in range(6):
        moments = _random_game(ruleset, players, seed)
        target = to_position(moments[random.Random(seed).randrange(len(moments))])
        solution = next(reach.round_solutions(target, budget=200_000), None)
        assert solution is not None, (ruleset, players, seed, target.turn_number)
        assert _replayed(solution, target) == target


def test_the_last_moment_of_long_premium_rounds_is_found() -> None:
    for seed in range(3):
        target = to_position(_random_game("premium", 5, 100 + seed)[-1])
        solution = next(reach.round_solutions(target, budget=200_000), None)
        assert solution is not None
        assert _replayed(solution, target) == target


def test_a_later_round_position_gets_its_earlier_rounds() -> None:
    rng = random.Random(5)
    state = new_game("premium", 4, seed=5)
    while state.round_number < 2 or state.turn_number < 5:
        if state.decision is Decision.NEXT_ROUND:
            state = push(state, StartRound())
        elif state.decision is Decision.GAME_OVER:
            pytest.fail("the game ended before round 2")
        else:
            state = push(state, rng.choice(legal_commands(state)))
    while state.decision is not Decision.PLAY:
        state = push(state, rng.choice(legal_commands(state)))
    target = attrs.evolve(to_position(state), seed=0)
    outcome = reach.reach_position("later", target)
    assert outcome.replay is not None, outcome.reason
    replay = outcome.replay
    assert sum(isinstance(c, StartRound) for c in replay.commands) == target.round_number - 1
    reached = new_game("premium", 4, seed=0, first_player=replay.first_player, deck=replay.deck)
    for command in replay.commands:
        reached = push(reached, command)
    assert to_position(reached) == target


def test_a_position_before_its_draw_is_reached_after_it() -> None:
    case = next(
        c
        for c in _needing()
        if reach.is_position_case(c)
        and not c.data["start"]["position"]["drawn"]
        and reach.replay_path(REPLAYS, c).is_file()
    )
    goal, after = reach.replay_goal(case)
    assert after and goal.decision is Decision.PLAY
    outcome = reach.reach_case(case)
    assert outcome.replay is not None and outcome.replay.after_draw


def _position(check: bool = True, **changes: Any) -> Position:
    """A 3-player 2019 position on turn 3 (seat 0 played a Guard, seat 1 a
    Handmaid), with ``changes``; checked by ``from_position`` unless the
    test is about one that it refuses."""
    base = Position(
        ruleset="2019",
        players=3,
        deck=(Card.GUARD,) * 2
        + (Card.PRIEST, Card.PRIEST, Card.BARON, Card.BARON, Card.HANDMAID)
        + (Card.PRINCE, Card.PRINCE, Card.CHANCELLOR, Card.CHANCELLOR, Card.KING)
        + (Card.SPY, Card.SPY),
        set_aside=Card.PRINCESS,
        face_up=(),
        hands=((Card.GUARD,), (Card.GUARD,), (Card.GUARD, Card.COUNTESS)),
        discards=((Card.GUARD,), (Card.HANDMAID,), ()),
        current=2,
        drawn=True,
        protected=(1,),
        turn_number=3,
    )
    position = attrs.evolve(base, **changes)
    if check:
        from_position(position)  # a valid description, whether or not it can occur
    return position


def test_a_reachable_hand_made_position_is_found() -> None:
    target = _position()
    outcome = reach.reach_position("hand-made", target)
    assert outcome.replay is not None, outcome.reason


def test_a_protected_player_without_a_handmaid_is_unreachable() -> None:
    target = _position(check=False, protected=(0,))
    with pytest.raises(PositionError) as caught:
        from_position(target)  # refused as a description already
    assert caught.value.field == "protected"
    outcome = reach.reach_position("x", target)
    assert outcome.replay is None
    assert "protected" in outcome.reason


def test_turn_one_with_cards_discarded_is_unreachable() -> None:
    target = _position(
        check=False,
        turn_number=1,
        protected=(),
        discards=((Card.GUARD, Card.SPY, Card.SPY, Card.KING, Card.PRIEST), (), ()),
        deck=(Card.GUARD,) * 2
        + (Card.PRIEST, Card.BARON, Card.BARON, Card.HANDMAID, Card.HANDMAID)
        + (Card.PRINCE, Card.PRINCE, Card.CHANCELLOR, Card.CHANCELLOR),
    )
    with pytest.raises(PositionError) as caught:
        from_position(target)  # refused as a description already
    assert caught.value.field == "turn_number"
    outcome = reach.reach_position("x", target)
    assert outcome.replay is None
    assert "turn" in outcome.reason


def test_a_sighting_no_card_could_make_is_unreachable() -> None:
    seen = Sighting(viewer=0, owner=2, card=Card.GUARD, turn=1, via=Card.PRIEST)
    outcome = reach.reach_position("x", _position(check=False, sightings=(seen,)))
    assert outcome.replay is None
    assert "sightings[0]" in outcome.reason
    assert "no Priest lies in the pile of the player who would have played it" in outcome.reason


def test_sightings_a_play_cannot_make_are_named() -> None:
    # Seat 0's Priest on turn 1 must have shown a hand, but none is listed.
    target = _position(
        discards=((Card.PRIEST,), (Card.HANDMAID,), ()),
        deck=(Card.GUARD,) * 3
        + (Card.PRIEST, Card.BARON, Card.BARON, Card.HANDMAID)
        + (Card.PRINCE, Card.PRINCE, Card.CHANCELLOR, Card.CHANCELLOR, Card.KING)
        + (Card.SPY, Card.SPY),
    )
    outcome = reach.reach_position("x", target)
    assert outcome.replay is None
    assert outcome.reason.startswith("reachable only with other notes: its sightings must be")
    assert "via Priest on turn 1" in outcome.reason


def test_a_comparison_no_deal_allows_is_unreachable() -> None:
    # Seat 0's Baron on turn 1 compared its Priest (kept to the end) with
    # seat 1's Guard or Princess: someone was knocked out, but no one is.
    target = Position(
        ruleset="2019",
        players=2,
        deck=(Card.GUARD,) * 2
        + (Card.PRIEST, Card.BARON, Card.HANDMAID, Card.HANDMAID, Card.PRINCE, Card.PRINCE)
        + (Card.CHANCELLOR, Card.CHANCELLOR, Card.KING, Card.SPY),
        set_aside=Card.COUNTESS,
        face_up=(Card.GUARD, Card.SPY, Card.GUARD),
        hands=((Card.PRIEST, Card.GUARD), (Card.PRINCESS,)),
        discards=((Card.BARON,), (Card.GUARD,)),
        current=0,
        drawn=True,
        turn_number=3,
    )
    from_position(target)
    outcome = reach.reach_position("x", target)
    assert outcome.replay is None
    assert "exhaustive search" in outcome.reason


def test_the_search_and_the_files_are_deterministic() -> None:
    moments = _random_game("premium", 6, 3)
    target = to_position(moments[len(moments) // 2])
    first = next(reach.round_solutions(target))
    assert next(reach.round_solutions(target)) == first
    quick = [
        c
        for c in _needing()
        if reach.replay_path(REPLAYS, c).is_file()
        and reach.is_position_case(c)
        and c.data["start"]["position"].get("round_number", 1) == 1
    ][:3]
    for case in quick:
        outcome = reach.reach_case(case)
        assert outcome.replay is not None
        text = reach.dump_replay(outcome.replay)
        assert text == reach.dump_replay(reach.reach_case(case).replay or outcome.replay)
        assert text == reach.replay_path(REPLAYS, case).read_text(encoding="utf-8")


def test_the_command_line_checks_and_writes(tmp_path: Path, capsys: Any) -> None:
    case = next(
        c
        for c in _needing()
        if reach.replay_path(REPLAYS, c).is_file() and reach.is_position_case(c)
    )
    cases = tmp_path / "cases"
    copy = cases.joinpath(*case.name.split("/")).with_suffix(".yaml")
    copy.parent.mkdir(parents=True)
    copy.write_bytes(Path(case.path).read_bytes())
    options = ["--cases", str(cases), "--out", str(tmp_path / "replays")]
    assert reach.main([*options, "--check"]) == 1
    assert "no replay file" in capsys.readouterr().out
    assert reach.main(options) == 0
    assert "1 cases: 1 replays written" in capsys.readouterr().out
    assert reach.main([*options, "--check", case.id]) == 0
    written = reach.replay_path(tmp_path / "replays", case).read_text(encoding="utf-8")
    assert written == reach.replay_path(REPLAYS, case).read_text(encoding="utf-8")
    assert reach.main(options) == 0
    assert "0 replays written, 1 unchanged" in capsys.readouterr().out
    stray = tmp_path / "replays" / "2019" / "gone" / "gone.yaml"
    stray.parent.mkdir(parents=True)
    stray.write_text("format: 1\n", encoding="utf-8")
    assert reach.main([*options, "--check"]) == 1
    assert "a replay file without a case" in capsys.readouterr().out
    assert reach.main(options) == 0
    assert not stray.exists()
    assert reach.main([*options, "no-such-case-*"]) == 2


# --------------------------------------------------------------------------
# online: drawn turn orders, no set-aside card, decks, exits, leaving


def _online_game(
    players: int, seed: int, *, decks: int = 1, leaving: float = 0.0, rounds: int = 1
) -> list[GameState]:
    """The moments a player is about to play, in the last of ``rounds``
    rounds of a random online game with a random turn order; with
    ``leaving``, that share of moments sees a random player still in leave
    (one in the round, or between rounds one who then sits out)."""
    rng = random.Random(seed)
    order = rng.sample(range(players), players)
    settings = TableSettings(decks=decks)
    state = new_game("online", players, seed=seed, order=order, settings=settings)
    moments = []
    while state.decision is not Decision.GAME_OVER:
        if state.decision is Decision.NEXT_ROUND:
            if state.round_number == rounds:
                break
            present = state.present()
            if len(present) > 3 and rng.random() < leaving * 4:
                state = push(state, Leave(rng.choice(present)))
            state = push(state, StartRound())
            continue
        if state.decision is Decision.PLAY:
            in_round = [p for p in state.present() if p not in state.out]
            if len(in_round) > 2 and rng.random() < leaving:
                state = push(state, Leave(rng.choice(in_round)))
                continue
            if state.round_number == rounds:
                moments.append(state)
        state = push(state, rng.choice(legal_commands(state)))
    return moments


def _replay_reaches(replay: reach.Replay, target: Position) -> bool:
    state = new_game(
        replay.ruleset,
        replay.players,
        seed=replay.seed,
        first_player=replay.first_player,
        deck=replay.deck,
        order=replay.order,
        settings=replay.settings,
    )
    for command in replay.commands:
        state = push(state, command)
    return to_position(state) == target


ONLINE_GAMES = [(3, 1), (4, 2), (5, 1), (6, 3), (8, 1), (8, 2)]


@pytest.mark.rule("setup.turn-order-online", "setup.no-set-aside-online", "setup.decks-online")
@pytest.mark.parametrize(("players", "decks"), ONLINE_GAMES)
def test_positions_of_random_online_games_are_found_again(players: int, decks: int) -> None:
    for seed in range(5):
        moments = _online_game(players, seed, decks=decks)
        target = to_position(moments[random.Random(seed).randrange(len(moments))])
        assert target.order and target.set_aside is None
        solution = next(reach.round_solutions(target, budget=200_000), None)
        assert solution is not None, (players, decks, seed, target.turn_number)
        assert solution.order == target.order
        assert _replayed(solution, target) == target


@pytest.mark.rule("online.leave-any-time")
def test_players_who_left_during_the_round_leave_in_the_replay() -> None:
    found = 0
    for seed in range(40):
        moments = [m for m in _online_game(5, seed, leaving=0.15) if m.table.left]
        if not moments:
            continue
        target = to_position(moments[-1])
        assert set(target.left) <= set(target.out) and set(target.left) <= set(target.exits)
        outcome = reach.reach_position("left", target)
        assert outcome.replay is not None, (seed, outcome.reason)
        leaves = [c for c in outcome.replay.commands if isinstance(c, Leave)]
        assert sorted(c.player for c in leaves) == sorted(target.left)
        assert _replay_reaches(outcome.replay, target)
        found += 1
    assert found >= 5


def _exits_position(exits: tuple[int, ...]) -> Position:
    """4 players in seat order, turn 3: seat 0's Guard on turn 1 and seat
    2's on turn 2 each knocked a player out before their first turn (seat
    1 holding a Priest, seat 3 a Baron), out in the order ``exits``."""
    g, pr, b, h, pc = Card.GUARD, Card.PRIEST, Card.BARON, Card.HANDMAID, Card.PRINCE
    return Position(
        ruleset="online",
        players=4,
        deck=(g, g, g, pr, b, h, pc, Card.COUNTESS, Card.PRINCESS),
        set_aside=None,
        face_up=(),
        hands=((h, pc), (), (Card.KING,), ()),
        discards=((g,), (pr,), (g,), (b,)),
        current=0,
        drawn=True,
        out=(1, 3),
        turn_number=3,
        settings=TableSettings(),
        order=(0, 1, 2, 3),
        exits=exits,
    )


@pytest.mark.rule("round.ranks-online")
def test_players_go_out_in_the_exits_order() -> None:
    target = to_position(from_position(_exits_position((1, 3))))
    outcome = reach.reach_position("exits", target)
    assert outcome.replay is not None, outcome.reason
    hits = [c for c in outcome.replay.commands if isinstance(c, PlayCard)]
    assert [(c.player, c.target, c.guess) for c in hits] == [(0, 1, 2), (2, 3, 3)]
    assert _replay_reaches(outcome.replay, target)
    # seat 1 never played a turn, so went out before the second turn, seat 1's
    # a valid description, which no play reaches
    backwards = to_position(from_position(_exits_position((3, 1))))
    outcome = reach.reach_position("exits", backwards)
    assert outcome.replay is None and "exhaustive search" in outcome.reason


@pytest.mark.rule("setup.turn-order-online", "online.leave-any-time", "game.win-counter-online")
def test_a_later_online_round_gets_its_earlier_rounds_and_leavers() -> None:
    found = 0
    for seed in range(30):
        moments = _online_game(6, seed, leaving=0.04, rounds=2)
        sitting_out = [m for m in moments if set(m.table.left) - set(m.table.order)]
        if not sitting_out:
            continue
        target = to_position(sitting_out[len(sitting_out) // 2])
        outcome = reach.reach_position("later", target)
        assert outcome.replay is not None, (seed, outcome.reason)
        replay = outcome.replay
        (deal,) = [c for c in replay.commands if isinstance(c, StartRound)]
        assert deal.order == target.order and deal.first_player == target.order[0]
        before = replay.commands[: replay.commands.index(deal)]
        absent = set(target.left) - set(target.order)
        assert {c.player for c in before if isinstance(c, Leave)} == absent
        assert _replay_reaches(replay, target)
        found += 1
    assert found >= 3


def test_a_player_sitting_out_round_one_is_unreachable() -> None:
    moments = next(
        moments
        for seed in range(30)
        if (moments := [m for m in _online_game(6, seed, leaving=0.04, rounds=2) if m.table.left])
        and set(moments[0].table.left) - set(moments[0].table.order)
    )
    later = to_position(moments[0])
    (seat, *_) = sorted(set(later.left) - set(later.order))
    target = attrs.evolve(later, round_number=1, tokens=(0,) * 6)
    outcome = reach.reach_position("x", target)
    assert outcome.replay is None
    assert f"player {seat} has left and sits round 1 out" in outcome.reason
    assert reach.reach_position("x", later).replay is not None


def test_an_online_replay_file_round_trips_with_its_order_seed_and_settings() -> None:
    replay = reach.Replay(
        "some-case",
        "online",
        3,
        get_ruleset("online").deck_for(3),
        2,
        (Leave(0),),
        order=(2, 0, 1),
        seed=2**100,
        settings=TableSettings(decks=1, random_moves=False),
    )
    text = reach.dump_replay(replay)
    # a 128-bit seed as decimal digits: beyond what many JSON readers keep exact
    assert "  order: [2, 0, 1]\n" in text and f'  seed: "{2**100}"\n' in text
    assert "settings: {decks: 1, turn_time_ms: 20000, random_moves: false" in text
    assert reach.parse_replay_data(yaml.safe_load(text), "f.yaml") == replay
    plain = attrs.evolve(replay, order=None, seed=0, settings=None)
    text = reach.dump_replay(plain)
    assert "order" not in text and "seed" not in text and "settings" not in text
    assert reach.parse_replay_data(yaml.safe_load(text), "f.yaml") == plain


@pytest.mark.rule("baroness.two-looks-online", "cardinal.swap-and-look-first-online")
@pytest.mark.parametrize("card", [Card.BARONESS, Card.CARDINAL])
def test_online_baroness_and_cardinal_sightings_are_found_again(card: Card) -> None:
    # the moment after a Baroness's two looks at one hand, or a Cardinal's
    # swap and look at its first target's new card (its player not in it)
    found = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = new_game("online", 5, seed=seed, order=rng.sample(range(5), 5))
        while not state.round_over and found < 3:
            options = legal_commands(state)
            chosen = [
                c
                for c in options
                if isinstance(c, PlayCard)
                and c.card is card
                and c.target is not None
                and (c.target == c.second_target if card is Card.BARONESS else c.target != c.player)
            ]
            state = push(state, rng.choice(chosen or options))
            if chosen and state.decision is Decision.PLAY:
                target = to_position(state)
                assert target.sightings[-1].via is card
                solution = next(reach.round_solutions(target, budget=200_000), None)
                assert solution is not None, seed
                assert _replayed(solution, target) == target
                found += 1
                break
    assert found == 3
