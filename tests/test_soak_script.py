"""The soak run (``verification/soak.py``, ``make soak``) in miniature.

A short run must play every ruleset and print its figures; a deliberately
broken engine (``LOVELETTER_SOAK_BREAK``) must be caught, counted and
reported with a reproducer that plays the failing game again; and each
check of the run (the refusal kinds, the untouched state, the independent
invariants of ``verification/soak_checks.py``) must fail on a state or an
engine made wrong on purpose.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

import loveletter as ll
from loveletter import Card, GameState, IllegalCommand, RejectionKind
from loveletter.commands import Command, Leave, PlayCard
from loveletter.events import RoundEnded, RoundEndReason, TurnStarted

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "verification" / "soak.py"
PLAYER_COUNTS = {
    "2019": (2, 3, 4, 5, 6),
    "2019-classic": (2, 3, 4),
    "premium": tuple(range(2, 9)),
    "online": tuple(range(3, 9)),
}
REPRODUCER = re.compile(
    r"reproduce: (python verification/soak\.py --ruleset (\S+) --players (\d+) --game-seed (\d+))"
)


def _load(name: str) -> ModuleType:
    """A module of verification/ (not a package; its scripts import each
    other by name)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "verification" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_soak(*args: str, fault: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "LOVELETTER_SOAK_BREAK"}
    if fault is not None:
        env["LOVELETTER_SOAK_BREAK"] = fault
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def figures(output: str) -> dict[str, dict[str, str]]:
    """Each ruleset's figures: ``{"2019": {"games": "30  (players ...)", ...}}``."""
    found: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in output.splitlines():
        heading = re.fullmatch(r"== (\S+) ==", line)
        if heading:
            current = found.setdefault(heading.group(1), {})
            continue
        figure = re.fullmatch(r"  (\w+) +(.*)", line)
        if figure:
            current[figure.group(1)] = figure.group(2)
    return found


def number(text: str) -> int:
    match = re.match(r"\d+", text)
    assert match, text
    return int(match.group())


def test_a_short_soak_plays_every_ruleset_and_prints_its_figures() -> None:
    result = run_soak("--games", "30", "--workers", "2", "--seed", "3")
    assert result.returncode == 0, result.stdout + result.stderr
    found = figures(result.stdout)
    assert set(found) == set(PLAYER_COUNTS)
    for ruleset, counts in PLAYER_COUNTS.items():
        figure = found[ruleset]
        assert number(figure["games"]) == 30
        # player counts cycle through the ruleset's range
        spread = dict(re.findall(r"(\d+): (\d+)", figure["games"]))
        assert sorted(map(int, spread)) == list(counts)
        assert max(map(int, spread.values())) - min(map(int, spread.values())) <= 1
        assert number(figure["rounds"]) >= 30
        assert number(figure["steps"]) > number(figure["rounds"])
        assert number(figure["rejected"]) > number(figure["games"])
        assert number(figure["violations"]) == 0
        assert number(figure["crashes"]) == 0
        assert re.fullmatch(r"[\d.]+ s  \([\d.]+ games/s\)", figure["wall"])
        assert ("host" in figure) is (ruleset == "online")
    # online matches: the host's commands are played, at tables of every deck count
    host = found["online"]["host"]
    leaves, timeouts = map(int, re.findall(r"(\d+) (?:leaves|time-outs)", host))
    assert leaves >= 30 and timeouts > 0, host
    assert re.search(r"decks 1: \d+, 2: \d+, 3: \d+", host), host
    # the output says which checks run on fewer than every step
    for cadence in ("Every 4th step and between rounds: check_state", "Every 64th step"):
        assert cadence in result.stdout
    assert "Every 8th game: check_state on every step, replay of the whole log" in result.stdout


@pytest.mark.parametrize(
    ("fault", "ruleset", "figure", "message"),
    [
        ("push-shortcut", "2019", "violations", "push and step differ after"),
        (
            "refusal-kind",
            "2019",
            "violations",
            "refused as wrong-decision by push, as not-your-turn",
        ),
        # every path agrees and check_state is silenced: the soak's own invariants see it
        ("protection-kept", "2019", "violations", "handmaid.protection-until-next-turn"),
        ("crash", "2019", "crashes", "ZeroDivisionError('deliberate crash')"),
        ("online-exits-ranked-backwards", "online", "violations", "round.ranks-online: ranks"),
        (
            "online-timeout-first-command",
            "online",
            "violations",
            "online.timeout-random-move: the time-out did not play",
        ),
    ],
)
def test_a_broken_engine_is_caught_and_its_game_played_again(
    fault: str, ruleset: str, figure: str, message: str
) -> None:
    result = run_soak("--games", "6", "--rulesets", ruleset, "--workers", "1", fault=fault)
    assert result.returncode == 1, result.stdout + result.stderr
    found = figures(result.stdout)[ruleset]
    assert number(found[figure]) >= 1
    assert message in result.stdout
    reproduce = REPRODUCER.search(result.stdout)
    assert reproduce, result.stdout
    line, played, players, seed = reproduce.groups()
    assert (played, players) in {(ruleset, str(n)) for n in PLAYER_COUNTS[ruleset]}
    again = run_soak(*line.split()[2:], fault=fault)
    assert again.returncode == 1
    assert message in again.stdout
    if fault == "push-shortcut":
        # the same game with the real engine is fine
        fixed = run_soak(*line.split()[2:])
        assert fixed.returncode == 0 and fixed.stdout.rstrip().endswith("ok"), fixed.stdout
        assert f"game-seed {seed}" in fixed.stdout


# --------------------------------------------------------------------------
# each check can fail


def _stacked(first_two: tuple[Card, Card]) -> GameState:
    """A 3-player 2019 game whose first player holds ``first_two``."""
    rest = list(_load("soak_checks").deck_of("2019", 3).elements())
    for card in first_two:
        rest.remove(card)
    deck = (rest[0], first_two[0], rest[1], rest[2], first_two[1], *rest[3:])
    return ll.new_game("2019", 3, seed=1, deck=deck)


def _game(engine: Any) -> Any:
    soak = _load("soak")
    return soak.Game("2019", 3, 1, engine, deep=False)


def _engine(**changes: Any) -> Any:
    """The soak run's engine with some of its verbs replaced."""
    return dataclasses.replace(_load("soak").ENGINE, **changes)


def test_a_refusal_of_another_kind_than_the_readme_gives_is_a_violation() -> None:
    """countess.forced-by-king-or-prince: both paths agree, on the wrong kind."""
    soak = _load("soak")
    state = _stacked((Card.COUNTESS, Card.KING))
    king = PlayCard(0, Card.KING, 1)
    _game(soak.ENGINE)._refuse(state, king, RejectionKind.COUNTESS_REQUIRED, frozenset())

    def misnamed(real: Any) -> Any:
        def call(state: GameState, command: Command) -> Any:
            try:
                return real(state, command)
            except IllegalCommand as error:
                if error.kind is RejectionKind.COUNTESS_REQUIRED:
                    raise IllegalCommand(RejectionKind.CARD_NOT_IN_HAND, "misnamed") from None
                raise

        return call

    game = _game(_engine(push=misnamed(ll.push), step=misnamed(ll.step)))
    with pytest.raises(soak_violation(), match="expected countess-required"):
        game._refuse(state, king, RejectionKind.COUNTESS_REQUIRED, frozenset())


def soak_violation() -> type[Exception]:
    violation: type[Exception] = _load("soak_checks").Violation
    return violation


def test_an_unlisted_command_accepted_is_a_violation() -> None:
    """turn.order: a command of another player, played as if it were theirs."""
    state = _stacked((Card.GUARD, Card.PRIEST))
    intruder = PlayCard(2, Card.GUARD, 1, Card.PRIEST)

    def push(state: GameState, command: Command) -> GameState:
        assert isinstance(command, PlayCard)
        return ll.push(state, attrs.evolve(command, player=state.current))

    game = _game(_engine(push=push))
    with pytest.raises(soak_violation(), match=r"push accepted .*expected not-your-turn"):
        game._refuse(state, intruder, RejectionKind.NOT_YOUR_TURN, frozenset())


def test_a_refusal_that_changes_the_state_is_a_violation() -> None:
    state = _stacked((Card.GUARD, Card.PRIEST))

    def push(state: GameState, command: Command) -> GameState:
        object.__setattr__(state, "turn_number", state.turn_number + 1)
        return ll.push(state, command)

    game = _game(_engine(push=push))
    with pytest.raises(soak_violation(), match="changed the state"):
        game._refuse(state, PlayCard(2, Card.GUARD), RejectionKind.NOT_YOUR_TURN, frozenset())


def _broken_states(state: GameState) -> list[tuple[str, GameState]]:
    table = state.table
    goal = {3: 5}[state.players]  # game.tokens-to-win, 3 players
    return [
        ("cards not conserved", attrs.evolve(state, deck=state.deck[1:])),
        ("out.discard-hand", attrs.evolve(state, out=frozenset({1}))),
        (
            "turn.draw-then-play",
            attrs.evolve(
                state,
                hands=(state.hands[0][:1], *state.hands[1:]),
                deck=(state.hands[0][1], *state.deck),
            ),
        ),
        ("still protected", attrs.evolve(state, protected=frozenset({state.current}))),
        (
            "game.tokens-to-win",
            attrs.evolve(state, table=attrs.evolve(table, tokens=(goal, 0, 0))),
        ),
        (
            "setup.two-player-face-up",
            attrs.evolve(
                state, table=attrs.evolve(table, face_up=(state.deck[0],)), deck=state.deck[1:]
            ),
        ),
    ]


@pytest.mark.parametrize("index", range(6))
def test_each_state_invariant_fails_on_a_state_made_wrong(index: int) -> None:
    checks = _load("soak_checks")
    state = _stacked((Card.GUARD, Card.PRIEST))
    checks.check_invariants(state)
    message, broken = _broken_states(state)[index]
    with pytest.raises(checks.Violation, match=message):
        checks.check_invariants(broken)


def test_each_step_invariant_fails_on_a_step_made_wrong() -> None:
    checks = _load("soak_checks")
    before = _stacked((Card.HANDMAID, Card.PRIEST))
    handmaid = PlayCard(0, Card.HANDMAID)
    after, events = ll.step(before, handmaid)
    checks.check_transition(before, handmaid, events, after)
    # handmaid.protection-until-next-turn: player 0 is protected now...
    assert after.protected == {0}
    with pytest.raises(checks.Violation, match="protection-until-next-turn"):
        checks.check_transition(
            before, handmaid, events, attrs.evolve(after, protected=frozenset())
        )
    # ... and no longer once their next turn starts
    state, turn_started = after, False
    while not turn_started:
        command = ll.legal_commands(state)[0]
        next_state, events = ll.step(state, command)
        turn_started = any(isinstance(e, TurnStarted) and e.player == 0 for e in events)
        if turn_started:
            kept = attrs.evolve(next_state, protected=frozenset({0}))
            with pytest.raises(checks.Violation, match="protection-until-next-turn"):
                checks.check_transition(state, command, events, kept)
        state = next_state
    # tokens never fall; a round ends only when the deck is empty or one player is left
    fallen = attrs.evolve(after, table=attrs.evolve(after.table, tokens=(0, 0, 0)))
    raised = attrs.evolve(before, table=attrs.evolve(before.table, tokens=(1, 0, 0)))
    with pytest.raises(checks.Violation, match="tokens"):
        checks.check_transition(raised, handmaid, events_of(raised, handmaid), fallen)
    ended = (*ll.decide(before, handmaid), RoundEnded(RoundEndReason.DECK_EMPTY, (0,), ()))
    with pytest.raises(checks.Violation, match=r"round\.end-deck-empty"):
        checks.check_transition(before, handmaid, ended, after)


def events_of(state: GameState, command: Command) -> tuple[ll.Event, ...]:
    return ll.decide(state, command)


@pytest.mark.parametrize("ruleset", sorted(PLAYER_COUNTS))
def test_every_probe_pins_the_kind_the_engine_gives_at_every_decision(ruleset: str) -> None:
    """Each probe maker, tried many times at every state of a few games
    (between rounds and after the end too), makes a command the engine
    refuses with the kind the probe pins (conformance/README.md's order):
    the soak run would otherwise report the probe's mistake as the engine's,
    as it did once for a card the edition lacks played between rounds."""
    soak = _load("soak")
    online = ruleset == "online"
    tried: set[tuple[str, str]] = set()
    pinned: set[RejectionKind] = set()
    for players in PLAYER_COUNTS[ruleset]:
        # online: every deck count, tables with and without random moves,
        # and a match that closes as its players leave, late in the game
        settings = ll.TableSettings(decks=players % 3 + 1, random_moves=players % 2 == 0)
        state = ll.new_game(ruleset, players, seed=players, settings=settings if online else None)
        rng = random.Random(players)
        for step in range(400):
            legal = ll.legal_commands(state)
            for maker in sorted(set(soak.PROBES[state.decision]), key=lambda m: m.__name__):
                for _ in range(6):
                    command, kind = maker(rng, state, legal)
                    if kind is None:
                        continue
                    tried.add((maker.__name__, state.decision.name))
                    pinned.add(kind)
                    with pytest.raises(IllegalCommand) as refused:
                        ll.decide(state, command)
                    assert refused.value.kind is kind, (maker.__name__, command, state.decision)
            if state.is_over:
                break
            if online and step > 100 + 20 * players and rng.random() < 0.2:
                state = ll.push(state, Leave(rng.choice(state.present())))
            else:
                state = ll.push(state, rng.choice(legal))
    decisions = {decision for _, decision in tried}
    assert {"PLAY", "NEXT_ROUND", "GAME_OVER"} <= decisions, decisions
    host = {RejectionKind.PLAYER_LEFT, RejectionKind.RANDOM_MOVES_OFF}
    assert (host <= pinned) is online, pinned
    assert (RejectionKind.NOT_IN_EDITION in pinned) is not online, pinned


# --------------------------------------------------------------------------
# online: each check can fail


def _online_game(players: int = 4, seed: int = 7) -> list[tuple[GameState, Command, GameState]]:
    """The steps of a random online game until its first round ends."""
    state = ll.new_game("online", players, seed=seed)
    rng = random.Random(seed)
    steps = []
    while not state.round_over:
        command = rng.choice(ll.legal_commands(state))
        after = ll.push(state, command)
        steps.append((state, command, after))
        state = after
    return steps


def _online_broken_states() -> list[tuple[str, GameState]]:
    checks = _load("soak_checks")
    steps = _online_game()
    playing = steps[1][0]
    checks.check_invariants(playing)
    ended = steps[-1][2]
    checks.check_invariants(ended)
    table = playing.table
    pile_out = playing.discards[1] + playing.deck
    return [
        (
            "setup.no-set-aside-online",
            attrs.evolve(
                playing, table=attrs.evolve(table, set_aside=playing.deck[0]), deck=playing.deck[1:]
            ),
        ),
        (
            "round.end-pile-online",
            attrs.evolve(
                playing,
                deck=(),
                discards=(playing.discards[0], pile_out, *playing.discards[2:]),
            ),
        ),
        (
            "setup.turn-order-online",
            attrs.evolve(playing, table=attrs.evolve(table, order=table.order[1:])),
        ),
        (
            "online.leave-any-time",
            attrs.evolve(
                playing,
                table=attrs.evolve(
                    table, left=frozenset({p for p in range(4) if p != playing.current})
                ),
            ),
        ),
        ("game.no-end-online", attrs.evolve(ended, decision=ll.Decision.GAME_OVER)),
    ]


@pytest.mark.parametrize("index", range(5))
def test_each_online_state_invariant_fails_on_a_state_made_wrong(index: int) -> None:
    checks = _load("soak_checks")
    message, broken = _online_broken_states()[index]
    with pytest.raises(checks.Violation, match=message):
        checks.check_invariants(broken)


def test_each_online_step_invariant_fails_on_a_step_made_wrong() -> None:
    checks = _load("soak_checks")
    steps = _online_game()
    for before, command, after in steps:
        checks.check_transition(before, command, ll.decide(before, command), after)
    before, command, after = steps[-1]
    events = ll.decide(before, command)
    index = next(i for i, e in enumerate(events) if isinstance(e, RoundEnded))
    ended = events[index]
    assert isinstance(ended, RoundEnded) and ended.ranks is not None
    # round.ranks-online: the ranks, then the winners, then what the end awards
    swapped = attrs.evolve(ended, ranks=tuple(reversed(ended.ranks)))
    with pytest.raises(checks.Violation, match=r"round\.ranks-online: ranks"):
        checks.check_transition(
            before, command, (*events[:index], swapped, *events[index + 1 :]), after
        )
    awards = [i for i, e in enumerate(events) if isinstance(e, ll.TokenAwarded)]
    renamed = list(events)
    award = events[awards[-1]]
    assert isinstance(award, ll.TokenAwarded)
    renamed[awards[-1]] = attrs.evolve(award, reason=ll.TokenReason.JESTER)
    with pytest.raises(checks.Violation, match=r"game\.win-counter-online"):
        checks.check_transition(before, command, tuple(renamed), after)
    # online.leave-any-time: a player in the round who leaves goes out
    playing = steps[1][0]
    leaver = next(p for p in range(4) if p != playing.current and p not in playing.out)
    leave = Leave(leaver)
    left, events = ll.step(playing, leave)
    checks.check_transition(playing, leave, events, left)
    with pytest.raises(checks.Violation, match=r"online\.leave-any-time"):
        checks.check_transition(playing, leave, events[:1] + events[2:], left)


def test_the_partial_win_checks_fail_on_tokens_made_wrong() -> None:
    """constable.knocked-out-token, constable.partial-win-online,
    bishop.correct-number-token."""
    checks = _load("soak_checks")
    state = ll.new_game("online", 5, seed=3)
    piles = (*state.discards[:1], (Card.CONSTABLE,), *state.discards[2:])
    before = attrs.evolve(state, discards=piles)
    hand = before.hands[1]
    knocked = ll.PlayerEliminated(1, ll.EliminationReason.GUARD_GUESS, hand)
    paid = ll.TokenAwarded(1, ll.TokenReason.CONSTABLE, 1)
    checks._check_partial_wins(before, (knocked, paid))
    with pytest.raises(checks.Violation, match=r"constable\.knocked-out-token"):
        checks._check_partial_wins(before, (knocked,))
    gone = attrs.evolve(knocked, reason=ll.EliminationReason.LEFT)
    checks._check_partial_wins(before, (ll.PlayerLeft(1), gone))
    with pytest.raises(checks.Violation, match=r"constable\.knocked-out-token"):
        checks._check_partial_wins(before, (ll.PlayerLeft(1), gone, paid))
    target = 2
    value = {Card.GUARD: 1}.get(before.hands[target][0])
    number = 9 if value is None else value
    played = ll.CardPlayed(0, Card.BISHOP, target, number)
    hit = checks.VALUES["online"][before.hands[target][0]] == number
    scored = ll.TokenAwarded(0, ll.TokenReason.BISHOP, 1)
    checks._check_partial_wins(before, (played, scored) if hit else (played,))
    with pytest.raises(checks.Violation, match=r"bishop\.correct-number-token"):
        checks._check_partial_wins(before, (played,) if hit else (played, scored))
