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
from loveletter.commands import Command, PlayCard
from loveletter.events import RoundEnded, RoundEndReason, TurnStarted

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "verification" / "soak.py"
PLAYER_COUNTS = {"2019": (2, 3, 4, 5, 6), "2019-classic": (2, 3, 4), "premium": tuple(range(2, 9))}
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
    # the output says which checks run on fewer than every step
    for cadence in ("Every 4th step and between rounds: check_state", "Every 64th step"):
        assert cadence in result.stdout
    assert "Every 8th game: check_state on every step, replay of the whole log" in result.stdout


@pytest.mark.parametrize(
    ("fault", "figure", "message"),
    [
        ("push-shortcut", "violations", "push and step differ after"),
        ("refusal-kind", "violations", "refused as wrong-decision by push, as not-your-turn"),
        # every path agrees and check_state is silenced: the soak's own invariants see it
        ("protection-kept", "violations", "handmaid.protection-until-next-turn"),
        ("crash", "crashes", "ZeroDivisionError('deliberate crash')"),
    ],
)
def test_a_broken_engine_is_caught_and_its_game_played_again(
    fault: str, figure: str, message: str
) -> None:
    result = run_soak("--games", "4", "--rulesets", "2019", "--workers", "1", fault=fault)
    assert result.returncode == 1, result.stdout + result.stderr
    found = figures(result.stdout)["2019"]
    assert number(found[figure]) >= 1
    assert message in result.stdout
    reproduce = REPRODUCER.search(result.stdout)
    assert reproduce, result.stdout
    line, ruleset, players, seed = reproduce.groups()
    assert (ruleset, players) in {("2019", str(n)) for n in PLAYER_COUNTS["2019"]}
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
    tried: set[tuple[str, str]] = set()
    for players in PLAYER_COUNTS[ruleset]:
        state = ll.new_game(ruleset, players, seed=players)
        rng = random.Random(players)
        for _ in range(400):
            legal = ll.legal_commands(state)
            for maker in set(soak.PROBES[state.decision]):
                for _ in range(6):
                    command, kind = maker(rng, state, legal)
                    if kind is None:
                        continue
                    tried.add((maker.__name__, state.decision.name))
                    with pytest.raises(IllegalCommand) as refused:
                        ll.decide(state, command)
                    assert refused.value.kind is kind, (maker.__name__, command, state.decision)
            if state.is_over:
                break
            state = ll.push(state, rng.choice(legal))
    decisions = {decision for _, decision in tried}
    assert {"PLAY", "NEXT_ROUND", "GAME_OVER"} <= decisions, decisions
