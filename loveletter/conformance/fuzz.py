"""``loveletter conformance fuzz``: random games against any implementation,
with this engine as the oracle, and the first disagreement shrunk into a
case file of the suite's own format.

A fuzzed game *is* a case: a stacked deal drawn from the seed, then random
commands (legal ones, and illegal ones made by changing one field of a
legal one), each written with what this engine says it does (its events,
or the kind of its refusal) and followed by checks of the state, the legal
commands and the views of the players concerned. So the runner's own
planning and judging (:mod:`loveletter.conformance.checks`) compare only
what the implementation declares it offers, with the verdict rules and
``--rejections`` of ``run``; nothing is judged twice, differently.

When a game disagrees, :func:`shrink` cuts it down while it still
disagrees: the shortest failing prefix; a position start just before the
failing command where the implementation loads positions; then removing
commands (each rebuilt through this engine, so every expectation stays the
rules'); then the checks and the expectations that are not needed. What is
left is written as ``cases/<ruleset>/fuzz/<id>.yaml``, ready for
``loveletter conformance run --cases DIR/cases``.

Everything is drawn from ``random.Random`` seeded with the options, so the
same seed and options give the same games and the same shrunk case.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import yaml

from loveletter.commands import Command, StartRound, TimeOut
from loveletter.conformance.cases import Case, parse_case
from loveletter.conformance.checks import Options
from loveletter.conformance.compare import canonical_command, render
from loveletter.conformance.execute import observe_state, player_commands, start_state
from loveletter.conformance.expected import candidates, states_before_steps
from loveletter.conformance.runner import CaseOutcome, Implementation, run_case
from loveletter.conformance.touches import rules_touched
from loveletter.engine import decide, legal_commands, step
from loveletter.errors import IllegalCommand, SerializationError
from loveletter.positions import to_position
from loveletter.rulesets import get_ruleset
from loveletter.serialization import from_data, to_data
from loveletter.spec import load_spec
from loveletter.state import Decision, GameState
from loveletter.views import events_for, view

JSON = Any

#: the share of turns that first try an illegal command
ILLEGAL_SHARE = 0.2
#: the rule a shrunk case cites when the differing step touches none of its own
FALLBACK_RULE = "game.rules-enforced"


@attrs.frozen
class Game:
    """One fuzzed game: its deal and its commands (the expectations are
    rebuilt from them by this engine whenever they change)."""

    ruleset: str
    players: int
    #: the case-format deal (``deck``, ``first_player``, online ``order``)
    deal: dict[str, JSON]
    commands: tuple[JSON, ...]
    #: a position to start from instead of the deal (the shrinker's cut)
    position: dict[str, JSON] | None = None


@attrs.frozen
class Disagreement:
    """The first game that disagreed, and the case it was shrunk to."""

    game: int
    seed: str
    outcome: CaseOutcome
    case: Case
    #: the shrunk case's steps (commands and checks)
    length: int
    rules: tuple[str, ...]
    #: implementation runs the shrinking took
    runs: int


@attrs.frozen
class FuzzResult:
    """What a fuzzing run did: how many games, commands and illegal
    commands it played, each game's outcome, and the disagreement found."""

    games: int
    commands: int
    refusals_tried: int
    outcomes: tuple[CaseOutcome, ...]
    disagreement: Disagreement | None


# --------------------------------------------------------------------------
# games


def _shuffled(rng: random.Random, cards: Sequence[Any]) -> list[str]:
    names = [str(to_data(card)) for card in cards]
    rng.shuffle(names)
    return names


def _deal(rng: random.Random, ruleset: str, players: int) -> dict[str, JSON]:
    rules = get_ruleset(ruleset)
    first = rng.randrange(players)
    deal: dict[str, JSON] = {
        "deck": _shuffled(rng, rules.deck_for(players)),
        "first_player": first,
    }
    if rules.draws_order:
        rest = [seat for seat in range(players) if seat != first]
        rng.shuffle(rest)
        deal["order"] = [first, *rest]
    return deal


def _start_round(rng: random.Random, state: GameState) -> JSON | None:
    """A stacked ``StartRound`` the rules accept here (None: none found)."""
    rules = state.ruleset
    options = [c for c in _legal(state) if isinstance(c, StartRound)]
    if not options:
        return None
    chosen = rng.choice(options)
    deck = _shuffled(rng, rules.deck_for(state.players, state.table.decks))
    data: dict[str, JSON] = {"type": "StartRound", "deck": deck}
    first = chosen.first_player
    if first is None:
        # stack the first player too: between tied winners the engine would
        # draw one from the seed, which only seeded-chance engines share
        _, events = step(state, from_data(data, Command))
        first = next((e.first_player for e in events if hasattr(e, "first_player")), None)
        if first is not None and not _accepted(state, {**data, "first_player": first}):
            first = None
    if first is not None:
        data["first_player"] = first
    if not rules.draws_order:
        return data if _accepted(state, data) else None
    present = [s for s in range(state.players) if s not in state.table.left]
    for _ in range(50):
        rng.shuffle(present)
        if first is not None and first in present:
            present.remove(first)
            present.insert(0, first)
        candidate = {**data, "order": list(present)}
        if _accepted(state, candidate):
            return candidate
    return None


def _legal(state: GameState) -> list[Command]:
    return [c for c in legal_commands(state) if not isinstance(c, TimeOut)]


def _accepted(state: GameState, data: JSON) -> bool:
    try:
        decide(state, from_data(data, Command))
    except (IllegalCommand, SerializationError):
        return False
    return True


def _mutant(rng: random.Random, state: GameState, legal: Sequence[Command]) -> JSON | None:
    """A legal command with one field changed so that the rules refuse it
    (None: the change happened to be legal)."""
    data = dict(to_data(rng.choice(legal)))
    setup = state.ruleset.setup(state.players, state.table.decks)
    field = rng.choice([k for k in data if k != "type"] or ["player"])
    if field == "player":
        data[field] = rng.randrange(state.players + 1)
    elif field in ("card", "keep"):
        data[field] = str(to_data(rng.choice(setup.kinds)))
    elif field in ("target", "second_target"):
        data[field] = rng.choice([None, *range(state.players + 1)])
    elif field == "guess":
        names = [to_data(n) for n in setup.names[rng.choice(setup.kinds)] or setup.kinds]
        data[field] = rng.choice([None, *names])
    elif field == "bottom" and isinstance(data[field], list) and data[field]:
        data[field] = list(reversed(data[field]))[:-1]
    else:
        data[field] = None
    return None if _accepted(state, data) else data


def random_game(rng: random.Random, ruleset: str, players: int, limit: int) -> Game:
    """A game of at most ``limit`` commands: random legal commands, about
    one turn in five preceded by an illegal one."""
    deal = _deal(rng, ruleset, players)
    state, _ = start_state({"ruleset": ruleset, "players": players, "start": {"deal": deal}})
    commands: list[JSON] = []
    while len(commands) < limit and state.decision is not Decision.GAME_OVER:
        if state.decision is Decision.NEXT_ROUND:
            data = _start_round(rng, state)
            if data is None:
                break
        else:
            legal = _legal(state)
            if not legal:
                break
            if rng.random() < ILLEGAL_SHARE:
                bad = _mutant(rng, state, legal)
                if bad is not None:
                    commands.append(bad)
            data = to_data(rng.choice(legal))
        commands.append(data)
        state, _ = step(state, from_data(data, Command))
    return Game(ruleset, players, deal, tuple(commands))


# --------------------------------------------------------------------------
# a game as a case


def _checks(state: GameState, acted: int | None) -> dict[str, JSON]:
    """What a checks step after a command holds: every state field, the
    legal commands, and the views of the player who acted and of the one
    to act."""
    checks: dict[str, JSON] = dict(observe_state(state))
    checks["legal_commands"] = to_data(player_commands(state))
    seats = sorted({s for s in (acted, state.to_act) if s is not None})
    views = []
    for seat in seats:
        data = to_data(view(state, seat))
        del data["type"]
        views.append(data)
    if views:
        checks["views"] = views
    plain: dict[str, JSON] = _plain(checks)
    return plain


def _plain(value: JSON) -> JSON:
    """Plain JSON data (the engine's string enums as their values), as a
    case file holds it."""
    return json.loads(json.dumps(value))


def case_data(game: Game, name: str, title: str, rules: Sequence[str]) -> dict[str, JSON]:
    """``game`` written as a case: every expectation this engine's."""
    start: dict[str, JSON] = (
        {"position": game.position} if game.position is not None else {"deal": dict(game.deal)}
    )
    data: dict[str, JSON] = {
        "format": 1.3,
        "id": name,
        "title": title,
        "rules": list(rules),
        "ruleset": game.ruleset,
        "players": game.players,
        "start": start,
        "steps": [],
    }
    state, events = start_state(data)
    if game.position is None:
        data["start"]["deal"]["events"] = _plain(events)
    steps: list[JSON] = data["steps"]
    for command in game.commands:
        try:
            parsed = from_data(command, Command)
            after, happened = step(state, parsed)
        except SerializationError:
            steps.append({"command": command, "rejected": "malformed-command"})
            continue
        except IllegalCommand as error:
            steps.append({"command": command, "rejected": error.kind.value})
            continue
        acted = getattr(parsed, "player", None)
        item: dict[str, JSON] = {"command": command, "events": _plain(to_data(list(happened)))}
        watchers = [s for s in range(game.players) if s != acted][:1]
        if watchers:
            item["seen_by"] = [
                {"player": s, "events": _plain(to_data(list(events_for(s, happened))))}
                for s in watchers
            ]
        steps.append(item)
        steps.append({"checks": _checks(after, acted)})
        state = after
    return data


def as_case(data: dict[str, JSON], path: str) -> Case:
    """``data`` checked as a case file at ``path``'s folder, named after its id."""
    return parse_case(data, str(Path(path).with_name(f"{data['id']}.yaml")))


# --------------------------------------------------------------------------
# judging and shrinking


def _disagrees(outcome: CaseOutcome) -> bool:
    return outcome.status in ("failed", "errored", "start-not-reached")


class Trial:
    """Runs candidate games against the implementation, counting the runs."""

    def __init__(self, implementation: Implementation, options: Options, out: str) -> None:
        self.implementation = implementation
        self.options = options
        self.path = out
        self.runs = 0
        #: when shrinking must stop (monotonic seconds; None: no limit)
        self.deadline: float | None = None

    @property
    def spent(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def outcome(self, game: Game) -> CaseOutcome:
        self.runs += 1
        data = case_data(game, "fuzz", "a fuzzed game", [FALLBACK_RULE])
        return run_case(as_case(data, self.path), self.implementation, self.options)

    def fails(self, game: Game) -> bool:
        if self.spent:
            return False  # out of time: no further cut is tried
        try:
            return _disagrees(self.outcome(game))
        except (IllegalCommand, SerializationError, ValueError):
            return False  # a candidate this engine cannot start: not a cut


def _position_before(game: Game, index: int) -> dict[str, JSON] | None:
    """The position just before command ``index`` of ``game``, in case form."""
    played = {
        "ruleset": game.ruleset,
        "players": game.players,
        "start": {"deal": game.deal},
        "steps": [{"command": command} for command in game.commands[: index + 1]],
    }
    state = states_before_steps(played)[index]
    if state is None or state.decision not in (Decision.PLAY, Decision.DRAW):
        return None
    data = to_data(to_position(state))
    for key in ("type", "ruleset", "players"):
        data.pop(key, None)
    kept: dict[str, JSON] = _plain({k: v for k, v in data.items() if v not in (None, [], ())})
    return kept


def shrink(game: Game, trial: Trial, budget: int = 400, deadline: float | None = None) -> Game:
    """The smallest game found that still disagrees (``budget``: at most
    that many runs of the implementation)."""

    def spent() -> bool:
        return trial.runs >= budget or (deadline is not None and time.monotonic() > deadline)

    commands = list(game.commands)
    # the shortest failing prefix (what follows the first disagreement is noise)
    low, high = 1, len(commands)
    while low < high and not spent():
        middle = (low + high) // 2
        if trial.fails(attrs.evolve(game, commands=tuple(commands[:middle]))):
            high = middle
        else:
            low = middle + 1
    commands = commands[:high]
    best = attrs.evolve(game, commands=tuple(commands))
    # a position just before the failing command, latest first
    if "positions" in trial.options.capabilities:
        for cut in range(len(commands) - 1, 0, -1):
            if spent():
                break
            position = _position_before(best, cut)
            if position is None:
                continue
            candidate = attrs.evolve(best, commands=tuple(commands[cut:]), position=position)
            if trial.fails(candidate):
                best = candidate
                break
    # removing commands, halves first, then smaller runs
    chunk = max(1, len(best.commands) // 2)
    while chunk >= 1 and not spent():
        index = 0
        removed = False
        while index < len(best.commands) - 1 and not spent():
            kept = best.commands[:index] + best.commands[index + chunk :]
            if kept and trial.fails(attrs.evolve(best, commands=kept)):
                best = attrs.evolve(best, commands=kept)
                removed = True
            else:
                index += chunk
        if not removed:
            chunk //= 2
    return best


def _slim(data: dict[str, JSON], trial: Trial, budget: int) -> dict[str, JSON]:
    """Drop the checks and expectations the disagreement does not need."""

    def fails(candidate: dict[str, JSON]) -> bool:
        if trial.runs >= budget or trial.spent:
            return False
        trial.runs += 1
        try:
            case = as_case(candidate, trial.path)
        except ValueError:
            return False
        return _disagrees(run_case(case, trial.implementation, trial.options))

    steps: list[JSON] = data["steps"]
    for index in range(len(steps) - 1, -1, -1):
        if "checks" in steps[index]:
            trial_steps = steps[:index] + steps[index + 1 :]
            if fails({**data, "steps": trial_steps}):
                steps = trial_steps
    for index, item in enumerate(steps):
        if "checks" in item:
            for key in list(item["checks"]):
                smaller = {k: v for k, v in item["checks"].items() if k != key}
                if not smaller:
                    continue
                candidate = [*steps[:index], {"checks": smaller}, *steps[index + 1 :]]
                if fails({**data, "steps": candidate}):
                    steps = candidate
                    item = steps[index]
        elif "events" in item:
            candidate = [
                *steps[:index],
                {"command": item["command"], "accepted": True},
                *steps[index + 1 :],
            ]
            if fails({**data, "steps": candidate}):
                steps = candidate
    slim = {**data, "steps": steps}
    deal = slim["start"].get("deal")
    if deal is not None and "events" in deal:
        without = {**slim, "start": {"deal": {k: v for k, v in deal.items() if k != "events"}}}
        if fails(without):
            slim = without
    return slim


def _first_failing_step(outcome: CaseOutcome) -> int | None:
    for line in outcome.lines:
        words = line.split()
        if len(words) >= 2 and words[0] == "step":
            number = words[1].rstrip(":")
            if number.isdigit():
                return int(number) - 1
    return None


def _rules_of(data: dict[str, JSON], outcome: CaseOutcome) -> tuple[str, ...]:
    """The rules the first differing step touches in this engine: a
    command's own; for a checks step, those of each command its legal
    commands differ on (else of the command before it); the fallback when
    none is named."""
    failing = _first_failing_step(outcome)
    steps = data["steps"]
    if failing is None or failing >= len(steps):
        failing = len(steps) - 1
    states = states_before_steps(data)
    touched: set[str] = set()
    state = states[failing]
    if state is not None:
        for command in candidates(state):
            if _named(command, outcome.lines):
                touched.update(rules_touched(state, from_data(command, Command)))
    at = failing
    while at > 0 and "command" not in steps[at]:
        at -= 1
    state = states[at]
    if not touched and state is not None and "command" in steps[at]:
        with contextlib.suppress(SerializationError):
            touched.update(rules_touched(state, from_data(steps[at]["command"], Command)))
    known = set(load_spec().rules)
    rules = tuple(sorted(r for r in touched if r in known))
    return rules or (FALLBACK_RULE,)


def _named(command: JSON, lines: Sequence[str]) -> bool:
    """Whether a failure's lines list ``command`` as missing or extra."""
    shown = render(json.loads(canonical_command(command)))  # as command_set_diff writes it
    listed = (line.strip() for line in lines)
    return any(line[:2] in ("- ", "+ ") and line[2:].startswith(shown) for line in listed)


# --------------------------------------------------------------------------
# the run


def game_seeds(seed: str, ruleset: str, players: int | None) -> Iterator[tuple[int, str, int]]:
    """(game number, its seed, its player count), game after game."""
    rules = get_ruleset(ruleset)
    number = 0
    while True:
        name = f"{seed}/{ruleset}/{number}"
        count = players or random.Random(name).randint(rules.min_players, rules.max_players)
        yield number, name, count
        number += 1


def fuzz(
    implementation: Implementation,
    ruleset: str,
    *,
    players: int | None = None,
    games: int | None = 100,
    seconds: float | None = None,
    seed: str = "0",
    options: Options | None = None,
    limit: int = 120,
    out: Path | None = None,
    progress: Callable[[int, CaseOutcome], None] | None = None,
    shrink_budget: int = 400,
    shrink_seconds: float = 300.0,
) -> FuzzResult:
    """Play random games against ``implementation`` until one disagrees
    with this engine (then shrink it and write the case under ``out``), or
    until ``games`` games or ``seconds`` seconds are done. Shrinking takes at
    most ``shrink_budget`` runs of the implementation and ``shrink_seconds``
    seconds (an implementation that hangs costs its time-outs: bounded)."""
    if options is None:
        options = Options(capabilities=implementation.capabilities)
    started = time.monotonic()
    path = str((out or Path("fuzz")) / "cases" / ruleset / "fuzz" / "fuzz.yaml")
    trial = Trial(implementation, options, path)
    outcomes: list[CaseOutcome] = []
    commands = refusals = 0
    for number, name, count in game_seeds(seed, ruleset, players):
        if games is not None and number >= games:
            break
        if seconds is not None and time.monotonic() - started > seconds:
            break
        game = random_game(random.Random(name), ruleset, count, limit)
        data = case_data(game, f"fuzz-{number}", f"fuzzed game {name}", [FALLBACK_RULE])
        commands += len(game.commands)
        refusals += sum(1 for item in data["steps"] if "rejected" in item)
        outcome = run_case(as_case(data, path), implementation, options)
        outcomes.append(outcome)
        if progress is not None:
            progress(number, outcome)
        if _disagrees(outcome):
            return FuzzResult(
                number + 1,
                commands,
                refusals,
                tuple(outcomes),
                _shrunk(number, name, game, outcome, trial, out, shrink_budget, shrink_seconds),
            )
    return FuzzResult(len(outcomes), commands, refusals, tuple(outcomes), None)


def _shrunk(
    number: int,
    name: str,
    game: Game,
    first: CaseOutcome,
    trial: Trial,
    out: Path | None,
    budget: int,
    seconds: float,
) -> Disagreement:
    trial.deadline = time.monotonic() + seconds
    small = shrink(game, trial, budget=budget)
    ident = f"fuzz-{name.replace('/', '-').lower()}"
    ident = "".join(c if c.isalnum() else "-" for c in ident).strip("-")
    while "--" in ident:
        ident = ident.replace("--", "-")
    data = case_data(small, ident, "placeholder", [FALLBACK_RULE])
    data = _slim(data, trial, budget + 200)
    path = trial.path.replace("fuzz.yaml", f"{ident}.yaml")
    outcome = run_case(as_case(data, path), trial.implementation, trial.options)
    if not _disagrees(outcome):  # the slimming overshot: keep the fuller case
        data = case_data(small, ident, "placeholder", [FALLBACK_RULE])
        outcome = run_case(as_case(data, path), trial.implementation, trial.options)
    rules = _rules_of(data, outcome)
    what = next((line for line in outcome.lines if line.strip()), outcome.status)
    data["rules"] = list(rules)
    data["title"] = f"Fuzzed game {name}: {what}"[:300]
    data["description"] = (
        f"Found by loveletter conformance fuzz (game seed {name}), shrunk from"
        f" {len(game.commands)} commands; every expectation is the reference engine's."
    )
    case = as_case(data, path)
    if out is not None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dump_case(data), encoding="utf-8")
    return Disagreement(number, name, outcome, case, len(data["steps"]), rules, trial.runs)


class _NoAliases(yaml.SafeDumper):
    """The suite refuses anchors and aliases: every repeated value written out."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump_case(data: dict[str, JSON]) -> str:
    return yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=100)
