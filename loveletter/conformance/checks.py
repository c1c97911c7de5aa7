"""What the runner sends for a case, and how it judges the reply.

A case is a list of checks: the deal's events, each command's events or
refusal, each key of a checks step. An implementation declares in its
handshake what it offers (:data:`~loveletter.conformance.vocabulary.CAPABILITIES`);
:func:`plan` builds the script it can run (a position becomes its replay
start for an engine without a position loader) and :func:`judge` runs every
check it can. The rest is *not applicable*: counted and listed, never passed.

Two results are kept apart (``conformance/README.md``, "Capabilities"):
whether the implementation follows the rules (accepted versus refused, the
events, the state) and whether it speaks our error vocabulary (the
rejection kind). With ``rejections="any"`` a kind that differs is listed as
a kind mismatch, not a failure.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

import attrs

from loveletter.commands import Command
from loveletter.conformance.cases import Case
from loveletter.conformance.compare import (
    command_set_diff,
    excluded_present,
    matches,
    project,
    render,
    sequence_diff,
)
from loveletter.conformance.expected import (
    candidates,
    goal,
    prelude,
    state_differences,
    states_before_steps,
)
from loveletter.conformance.shown import unknown_event_fields, unknown_view_fields
from loveletter.conformance.starts import ReplayStart
from loveletter.conformance.touches import rules_touched
from loveletter.conformance.vocabulary import CAPABILITIES, OUTCOME_CHECKS, STATE_FIELDS
from loveletter.rulesets import RULESETS
from loveletter.serialization import from_data
from loveletter.state import GameState

JSON = Any

#: everything an implementation may offer (what one that declares nothing offers)
EVERYTHING: frozenset[str] = frozenset(CAPABILITIES)

#: the rule a case cites when it is about the order of a discard pile; in
#: every other case piles are compared as multisets, so an engine that
#: orders a pile differently fails only the cases about it
PILE_ORDER_RULE = "turn.played-cards-face-up"

#: outcome checks derived from the state observation
_FROM_STATE = frozenset(
    {"round_over", "round_winners", "deck_size", "top_card", "hand", "ranks", "win_counters"}
)


@attrs.frozen
class Options:
    """How to run: what the implementation offers, and how strictly."""

    capabilities: frozenset[str] = EVERYTHING
    #: "kinds": a refusal must name the expected kind; "any": only refused
    #: versus accepted is judged, and kinds that differ are listed apart
    rejections: str = "kinds"
    #: "auto": positions when the implementation loads them, else replay
    #: starts; "replay": always replay starts (cases without one are not
    #: applicable)
    starts: str = "auto"


@attrs.frozen
class Plan:
    """The script to send for a case, and how its replies map back."""

    case: Case
    #: what to send (None: nothing of the case can run)
    script: dict[str, JSON] | None
    #: the leading script steps that replay the start (its commands, and the
    #: state observations after them)
    prelude: int = 0
    #: for each case step, the index of its script step (None: not sent)
    steps: tuple[int | None, ...] = ()
    #: checks known not to apply before anything runs
    not_applicable: tuple[str, ...] = ()
    #: whether the case's start is replayed
    replayed: bool = False
    #: the replay start played (None: the case's own start)
    replay: ReplayStart | None = None
    #: for each replay start command (by its index in the replay), the
    #: script index of the state observation after it (None: not observed)
    prelude_observed: tuple[int | None, ...] = ()
    #: for each case step expected to be refused, with ``state`` offered:
    #: (case step, script index of the state before, of the state after)
    atomic: tuple[tuple[int, int, int], ...] = ()
    #: for each observe step sent with ``try``: its script index and the
    #: candidate commands asked about
    tries: tuple[tuple[int, tuple[JSON, ...]], ...] = ()
    #: the script index of the state observation at the case's start, after
    #: a replay start (None: not observed)
    start_observed: int | None = None


@attrs.frozen
class StartNotReached:
    """A replay start the implementation did not follow to the case's start:
    the case's own checks were never reached (one earlier bug, not this
    case's)."""

    #: the replay command at fault (None: the deal, or the state at the end)
    command: JSON
    #: its index among the replay's commands, and how many there are
    index: int | None
    of: int
    #: "refused as ...", "its events differ ...", "the state after it differs ..."
    how: str
    #: the spec rules the command touches (by the reference engine)
    rules: tuple[str, ...]
    #: details (diff lines)
    lines: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.index is None:
            where = "the replay start"
        else:
            where = f"replay command {self.index + 1} of {self.of}, {render(self.command)}"
        return f"start not reached: {where}: {self.how}"

    def to_data(self) -> dict[str, JSON]:
        return {
            "command": self.command,
            "index": self.index,
            "of": self.of,
            "how": self.how,
            "rules": list(self.rules),
        }


@attrs.frozen
class Verdict:
    """The judgement of one reply."""

    failures: tuple[str, ...]
    not_applicable: tuple[str, ...]
    #: how many checks ran (passed or failed)
    checks_run: int
    #: refusals whose kind differs, with ``rejections="any"``
    kind_mismatches: tuple[str, ...] = ()
    #: how many of the checks run a wrong outcome could fail: every check
    #: but the acceptance of a command the rules allow (an implementation
    #: accepting every command passes that one)
    deciding: int = 0
    #: set when the replay start was not followed to the case's start
    start_not_reached: StartNotReached | None = None
    #: outcomes the implementation's adapter, not its engine, decided
    #: (refusals marked ``"by": "adapter"``)
    by_adapter: tuple[str, ...] = ()


def _needs(capability: str) -> str:
    return f"needs capability {capability}"


def _later_deal(case: Case) -> bool:
    deal = case.data["start"].get("deal")
    return deal is not None and ("tokens" in deal or "round_number" in deal)


def plan(case: Case, options: Options, replays: Mapping[str, ReplayStart]) -> Plan:
    """The script ``options.capabilities`` can run for ``case``."""
    caps = options.capabilities
    data = copy.deepcopy(case.data)
    start = data["start"]
    positional = "position" in start or _later_deal(case)
    replay: ReplayStart | None = None
    if positional and (options.starts == "replay" or "positions" not in caps):
        replay = replays.get(case.name)
        if replay is None or case.start_rejected:
            why = (
                "a start the rules refuse, " + _needs("positions")
                if case.start_rejected
                else "no replay start for this case; " + _needs("positions")
            )
            return Plan(case, None, not_applicable=(f"the whole case: {why}",))
    skipped: list[str] = []
    steps: list[JSON] = []
    observed: list[int | None] = []
    start_observed: int | None = None
    if replay is not None:
        script_start: JSON = {"deal": replay.deal()}
        # the state after the start is compared with the case's start; with
        # no events to compare, the state after every command too, so that
        # the first command the implementation plays differently is named
        each = "state" in caps and "events" not in caps
        for command in replay.commands:
            steps.append({"command": command})
            observed.append(len(steps) if each else None)
            if each:
                steps.append({"observe": {"state": True}})
        if "state" in caps:
            if observed and observed[-1] is not None:
                start_observed = observed[-1]
            else:
                steps.append({"observe": {"state": True}})
                start_observed = len(steps) - 1
    elif "deal" in start:
        script_start = {"deal": {k: v for k, v in start["deal"].items() if k != "events"}}
    else:
        position = start["position"]
        if "sightings" not in caps:
            position.pop("sightings", None)
        script_start = {"position": position}
    if "seeded-chance" not in caps and not case.start_rejected:
        drawn = ""
        if _drawn_order(case, script_start):
            # every event and every seat to act follows from that order
            drawn = "a turn order drawn from the seed"
        elif any(_drawn_by(step, _draws_order(case.ruleset)) for step in steps):
            # a replay start reaches the case's position only by our draws
            drawn = "a replay start that draws from the seed"
        if drawn:
            why = f"the whole case: {drawn}; {_needs('seeded-chance')}"
            return Plan(case, None, not_applicable=(why,))
    prelude = len(steps)
    before = _steps_before_the_draw(data["steps"]) if replay and replay.after_draw else 0
    if before is None:
        why = "about the moment before a draw, which play never rests at; "
        return Plan(case, None, not_applicable=(f"the whole case: {why}{_needs('positions')}",))
    index: list[int | None] = []
    atomic: list[tuple[int, int, int]] = []
    tries: list[tuple[int, tuple[JSON, ...]]] = []
    reference: list[GameState | None] | None = None
    for number, step in enumerate(data["steps"]):
        if number < before:
            # the replay start ends after the position's draw: what the case
            # does before that draw cannot be sent
            index.append(None)
            skipped.append(f"step {number + 1}: before the draw the replay start ends with")
            continue
        if "checks" in step:
            request = _observe_request(step["checks"], caps)
            if _tried(step["checks"], caps):
                if reference is None:
                    reference = states_before_steps(case.data)
                state = reference[number]
                if state is not None:
                    request["try"] = candidates(state)
                    tries.append((len(steps), tuple(request["try"])))
            index.append(len(steps))
            steps.append({"observe": request})
            continue
        item: dict[str, JSON] = {"command": step["command"]}
        if step.get("seen_by") and "redacted-events" in caps:
            item["seen_by"] = [seen["player"] for seen in step["seen_by"]]
        if "rejected" in step and "state" in caps:
            # a refusal leaves the game as it was: the state is observed on
            # both sides of it
            steps.append({"observe": {"state": True}})
            atomic.append((number, len(steps) - 1, len(steps) + 1))
            index.append(len(steps))
            steps += [item, {"observe": {"state": True}}]
            continue
        index.append(len(steps))
        steps.append(item)
    script = {
        "id": case.id,
        "ruleset": case.ruleset,
        "players": case.players,
        "start": script_start,
        "steps": steps,
    }
    if "settings" in data:
        script["settings"] = data["settings"]
    if replay is not None:
        # an implementation may stop at the first of these it refuses
        script["prelude"] = prelude
    return Plan(
        case,
        script,
        prelude,
        tuple(index),
        tuple(skipped),
        replay is not None,
        replay,
        tuple(observed),
        tuple(atomic),
        tuple(tries),
        start_observed,
    )


def _tried(checks: Mapping[str, JSON], caps: frozenset[str]) -> bool:
    """Whether a checks step asks about legal commands the implementation
    cannot list but can ``try`` one by one."""
    if "try" not in caps:
        return False
    legal = "legal-commands" not in caps and any(k.startswith("legal_command") for k in checks)
    return legal or ("perft" not in caps and "perft" in checks)


def _draws_order(ruleset: str) -> bool:
    """Whether the edition draws each round's turn order (online)."""
    rules = RULESETS.get(ruleset)
    return rules is not None and rules.draws_order


def _drawn_order(case: Case, start: Mapping[str, JSON]) -> bool:
    """Whether the start is a deal whose turn order the seed draws."""
    deal = start.get("deal")
    return isinstance(deal, dict) and "order" not in deal and _draws_order(case.ruleset)


def _steps_before_the_draw(steps: list[JSON]) -> int | None:
    """How many steps of a case starting before a draw (``drawn: false``)
    come up to and including its first accepted ``DrawCard`` (None: it has
    none, so nothing of it happens after the draw)."""
    for number, step in enumerate(steps):
        if step.get("command", {}).get("type") == "DrawCard" and "rejected" not in step:
            return number + 1
    return None


def _observe_request(checks: Mapping[str, JSON], caps: frozenset[str]) -> dict[str, JSON]:
    request: dict[str, JSON] = {}
    if "state" in caps and any(k in STATE_FIELDS or k in _FROM_STATE for k in checks):
        request["state"] = True
    if "legal-commands" in caps and any(k.startswith("legal_command") for k in checks):
        request["legal_commands"] = True
    if "views" in caps:
        seats = {v["player"] for v in checks.get("views", ())}
        if "shown" in checks and "sightings" in caps:
            seats.add(checks["shown"]["player"])
        if seats:
            request["views"] = sorted(seats)
    if "perft" in caps and "perft" in checks:
        request["perft"] = len(checks["perft"])
    return request


# --------------------------------------------------------------------------
# judging


class _Judge:
    def __init__(self, plan: Plan, options: Options) -> None:
        self.plan = plan
        self.case = plan.case
        self.options = options
        self.caps = options.capabilities
        self.failures: list[str] = []
        self.not_applicable: list[str] = list(plan.not_applicable)
        self.run = 0
        self.deciding = 0
        self.kinds: list[str] = []
        self.pile_order = PILE_ORDER_RULE in self.case.rules
        self.start_not_reached: StartNotReached | None = None
        self.by_adapter: list[str] = []

    def check(self, ok: bool, lines: list[str], deciding: bool = True) -> None:
        """Count one check (``deciding``: one a wrong outcome could fail;
        only the acceptance of an allowed command is not)."""
        self.run += 1
        if deciding:
            self.deciding += 1
        if not ok:
            self.failures += lines

    def tried(self, at: int, observation: JSON) -> list[JSON] | None:
        """The legal commands rebuilt from the answers to ``try`` at script
        step ``at`` (None: none were asked)."""
        asked = dict(self.plan.tries).get(at)
        if asked is None:
            return None
        answers = observation.get("tried") if isinstance(observation, dict) else None
        answers = answers if isinstance(answers, list) else []
        return [command for command, ok in zip(asked, answers, strict=False) if ok is True]

    def na(self, label: str, capability: str) -> None:
        self.not_applicable.append(f"{label}: {_needs(capability)}")

    def verdict(self) -> Verdict:
        return Verdict(
            tuple(self.failures),
            tuple(self.not_applicable),
            self.run,
            tuple(self.kinds),
            self.deciding,
            self.start_not_reached,
            tuple(self.by_adapter),
        )


def judge(plan: Plan, reply: Mapping[str, JSON], options: Options) -> Verdict:
    """Compare ``reply`` (a ``result`` for ``plan.script``) with the case."""
    j = _Judge(plan, options)
    case = plan.case
    rejected = reply.get("start_rejected")
    if rejected is not None and reply.get("by") == "adapter":
        j.by_adapter.append(f"start: refused by the adapter: {str(rejected)[:200]}")
    if case.start_rejected:
        j.check(
            rejected is not None,
            ["start: expected the implementation to refuse this start; it accepted it"],
        )
        return j.verdict()
    if rejected is not None:
        if plan.replayed:
            j.start_not_reached = StartNotReached(
                None,
                None,
                len(plan.replay.commands) if plan.replay else 0,
                f"its deal was refused: {str(rejected)[:200]}",
                (),
            )
            return j.verdict()
        j.check(False, [f"start: refused by the implementation: {str(rejected)[:200]}"])
        return j.verdict()
    results = reply["steps"]
    if plan.replayed:
        j.start_not_reached = _judge_prelude(j, results)
        if j.start_not_reached is not None:
            return j.verdict()
    _judge_deal(j, reply, results)
    unseeded = "seeded-chance" not in j.caps
    draws_order = _draws_order(case.ruleset)
    diverged = False  # a draw from the seed came before
    atomic = {number: (before, after) for number, before, after in plan.atomic}
    for number, (step, at) in enumerate(zip(case.data["steps"], plan.steps, strict=True)):
        if at is None:
            continue
        label = f"step {number + 1}"
        drawn = None if "checks" in step else _drawn_by(step, draws_order)
        if diverged:
            for check in step_checks(step):
                j.na(f"{label}: {check}, after a draw from the seed", "seeded-chance")
        elif "checks" in step:
            observation = results[at].get("observation") or {}
            _judge_checks(j, label, step["checks"], observation, j.tried(at, observation))
        elif unseeded and drawn is not None:
            # what it draws is the rules' only if drawn as ours is: judge
            # that the command was taken, and nothing that follows from it
            label = f"{label} {render(step['command'])}"
            if "rejected" in step:
                _judge_command(j, label, step, results[at])
                continue
            _judge_command(j, label, {"command": step["command"], "accepted": True}, results[at])
            for check in step_checks(step)[1:]:
                j.na(f"{label}: {check}: {drawn}", "seeded-chance")
            diverged = True
        else:
            label = f"{label} {render(step['command'])}"
            _judge_command(j, label, step, results[at])
            if number in atomic and "rejected" in results[at]:
                before, after = atomic[number]
                _judge_atomic(j, label, results[before], results[after])
    return j.verdict()


def step_checks(step: Mapping[str, JSON]) -> list[str]:
    """The checks one case step holds, by name (a check is one expectation
    compared with one answer: see ``conformance/README.md``, "Checks")."""
    if "checks" in step:
        names = []
        for key, value in step["checks"].items():
            if key == "views":
                for view in value:
                    where = f"view of player {view['player']}"
                    names.append(f"{where}: only the fields a view has")
                    names += [f"{where}: {k}" for k in view if k != "player"]
            else:
                names.append(key)
        return names
    if "rejected" in step:
        return ["refused", "its rejection kind", "the state unchanged"]
    names = ["accepted"]
    if "events" in step:
        names.append("its events")
        names += [f"the events as player {s['player']} sees them" for s in step.get("seen_by", [])]
    return names


def _judge_prelude(j: _Judge, results: list[JSON]) -> StartNotReached | None:
    """Whether the implementation followed the replay start: each command
    accepted (and, as offered, with the reference's events and state after
    it), and the case's start reached. The first departure is named, with
    the rules its command touches."""
    plan = j.plan
    replay = plan.replay
    assert replay is not None
    reference = prelude(replay)
    count = len(replay.commands)
    at = 0
    for number, expected in enumerate(reference):
        how: str | None = None
        lines: list[str] = []
        if at >= len(results):
            how = "no result for it"
        else:
            result = results[at]
            if "rejected" in result:
                how = f"refused as {result['rejected']}"
                if result.get("by") == "adapter":
                    how += " (by the adapter)"
            elif "events" in j.caps and not matches(expected.events, result.get("events")):
                how = "its events differ from the rules' (- expected, + actual)"
                lines = sequence_diff(expected.events, result.get("events"))
            else:
                observed = plan.prelude_observed[number] if plan.prelude_observed else None
                if observed is not None and observed != plan.start_observed:
                    state = (results[observed].get("observation") or {}).get("state")
                    lines = state_differences(expected.after, state)
                    if lines:
                        how = "the state after it differs from the rules'"
        if how is not None:
            rules = rules_touched(expected.before, from_data(expected.command, Command))
            return StartNotReached(expected.command, number, count, how, rules, tuple(lines))
        at += 1 + (plan.prelude_observed[number] is not None if plan.prelude_observed else 0)
    if plan.start_observed is not None:
        observed_state = (results[plan.start_observed].get("observation") or {}).get("state")
        lines = state_differences(goal(j.case, replay.after_draw), observed_state)
        if lines:
            last = reference[-1] if reference else None
            return StartNotReached(
                last.command if last else None,
                count - 1 if last else None,
                count,
                "the state reached differs from the case's start",
                rules_touched(last.before, from_data(last.command, Command)) if last else (),
                tuple(lines),
            )
    return None


def _judge_atomic(j: _Judge, label: str, before: JSON, after: JSON) -> None:
    """A refused command leaves the state as it was."""
    old = (before.get("observation") or {}).get("state")
    new = (after.get("observation") or {}).get("state")
    changed = sorted(
        key
        for key in set(old or {}) | set(new or {})
        if (old or {}).get(key) != (new or {}).get(key)
    )
    j.check(
        not changed,
        [f"{label}: state changed by a refused command: {', '.join(changed)}"],
    )


def _drawn_by(step: Mapping[str, JSON], draws_order: bool) -> str | None:
    """What a step's command draws from the seed (None: nothing): a
    time-out's random move, or a deal whose deck or (online) turn order
    the case does not stack."""
    command = step.get("command")
    if not isinstance(command, dict):
        return None
    if command.get("type") == "TimeOut":
        return "the random move it made"
    if command.get("type") == "StartRound":
        if command.get("deck") is None:
            return "the deck it shuffled"
        if draws_order and command.get("order") is None:
            return "the turn order it drew"
    return None


def _judge_deal(j: _Judge, reply: Mapping[str, JSON], results: list[JSON]) -> None:
    expected = j.case.data["start"].get("deal", {}).get("events")
    if expected is None:
        return
    if "events" not in j.caps:
        j.na("start: the deal's events", "events")
        return
    # a replayed later-round deal: its events are those of the prelude's
    # last command, the StartRound that deals the case's round
    last = j.plan.prelude - 1 if j.plan.start_observed is None else j.plan.start_observed - 1
    actual = results[last].get("events") if j.plan.replayed else reply["start_events"]
    j.check(
        matches(expected, actual),
        ["start: the deal's events differ", *("  " + x for x in sequence_diff(expected, actual))],
    )


def _judge_command(j: _Judge, label: str, step: Mapping[str, JSON], result: JSON) -> None:
    """A command step's checks (:func:`step_checks`): accepted, then its
    events and each player's redacted events; or refused, then the kind
    (the state unchanged is :func:`_judge_atomic`'s). A check that needs an
    earlier one of the step to pass is not run when it fails."""
    if "rejected" in result and result.get("by") == "adapter":
        j.by_adapter.append(f"{label}: refused by the adapter as {str(result['rejected'])[:200]}")
    if "rejected" in step:
        if "rejected" not in result:
            lines = [f"{label}: expected rejection {step['rejected']}, accepted, with events:"]
            j.check(False, lines + [f"  + {render(e)}" for e in result.get("events", [])])
            return
        j.check(True, [])
        if "state" not in j.caps:
            j.na(f"{label}: the state unchanged", "state")
        if "rejection-kinds" not in j.caps:
            j.na(f"{label}: the rejection kind", "rejection-kinds")
            return
        got = result["rejected"]
        if got == step["rejected"]:
            j.check(True, [])
            return
        line = f"{label}: expected rejection {step['rejected']}, rejected as {got}"
        if j.options.rejections == "any":
            j.kinds.append(f"{j.case.name}: {line}")
            return
        j.check(False, [line])
        return
    if "rejected" in result:
        expected = "events" if "events" in step else "acceptance"
        j.check(
            False,
            [f"{label}: expected {expected}, but rejected as {result['rejected']}"],
            deciding=False,
        )
        return
    # accepting a command the rules allow decides nothing on its own: an
    # implementation that accepts every command passes it
    j.check(True, [], deciding=False)
    if "accepted" in step:
        return
    if "events" not in j.caps:
        j.na(f"{label}: its events", "events")
    else:
        j.check(
            matches(step["events"], result["events"]),
            [
                f"{label}: events differ (- expected, + actual)",
                *("  " + x for x in sequence_diff(step["events"], result["events"])),
            ],
        )
    seen = {s.get("player"): s.get("events") for s in result.get("seen_by", [])}
    for expected_seen in step.get("seen_by", []):
        player = expected_seen["player"]
        if "redacted-events" not in j.caps:
            j.na(f"{label}: the events as player {player} sees them", "redacted-events")
            continue
        actual = seen.get(player)
        # a redacted event is closed: a field its type does not define is a
        # leak that the keys the case lists would never look at
        leaked = [
            f"events[{index}].{path}"
            for index, event in enumerate(actual if isinstance(actual, list) else [])
            for path in unknown_event_fields(event)
        ]
        same = matches(expected_seen["events"], actual)
        lines = [] if same else [f"{label}: events as player {player} sees them differ"]
        lines += [] if same else ["  " + x for x in sequence_diff(expected_seen["events"], actual)]
        if leaked:
            lines.append(
                f"{label}: events as player {player} sees them carry fields their types do"
                f" not define: {', '.join(leaked)}"
            )
        j.check(same and not leaked, lines)


def _piles_match(expected: JSON, actual: JSON, in_order: bool) -> bool:
    """Discard piles: in order in cases about pile order, else as multisets."""
    if in_order or not isinstance(expected, list) or not isinstance(actual, list):
        return matches(expected, actual)
    if len(expected) != len(actual):
        return False
    return all(
        isinstance(a, list) and Counter(map(str, e)) == Counter(map(str, a))
        for e, a in zip(expected, actual, strict=True)
    )


def _derived(key: str, expected: JSON, state: Mapping[str, JSON]) -> JSON:
    """The value of outcome check ``key`` in a state observation."""
    if key == "round_over":
        return state.get("decision") in ("next-round", "game-over")
    if key == "round_winners":
        result = state.get("round_result")
        return result.get("winners") if isinstance(result, dict) else []
    if key == "ranks":
        result = state.get("round_result")
        return result.get("ranks") if isinstance(result, dict) else None
    if key == "win_counters":
        return state.get("tokens")
    deck = state.get("deck")
    if key == "deck_size":
        return len(deck) if isinstance(deck, list) else None
    if key == "top_card":
        return deck[0] if isinstance(deck, list) and deck else None
    hands = state.get("hands")
    seat = expected["player"]
    if isinstance(hands, list) and 0 <= seat < len(hands) and isinstance(hands[seat], list):
        return hands[seat]
    return None


def _judge_checks(
    j: _Judge,
    label: str,
    checks: Mapping[str, JSON],
    observation: JSON,
    tried: list[JSON] | None = None,
) -> None:
    state = observation.get("state") if isinstance(observation, dict) else None
    state = state if isinstance(state, dict) else {}
    for key in (*STATE_FIELDS, *OUTCOME_CHECKS):
        if key not in checks or key == "shown":
            continue
        if "state" not in j.caps:
            j.na(f"{label}: {key}", "state")
            continue
        want = checks[key]
        if key in STATE_FIELDS:
            got = state.get(key)
            ok = _piles_match(want, got, j.pile_order) if key == "discards" else matches(want, got)
            j.check(
                ok,
                [f"{label}: {key}: expected {render(want)}, actual {render(project(want, got))}"],
            )
        elif key == "hand":
            got = _derived(key, want, state)
            ok = isinstance(got, list) and Counter(map(str, got)) == Counter(want["cards"])
            j.check(
                ok,
                [
                    f"{label}: hand of player {want['player']}: expected {render(want['cards'])} "
                    f"(in any order), actual {render(got)}"
                ],
            )
        else:
            got = _derived(key, want, state)
            j.check(
                matches(want, got),
                [f"{label}: {key}: expected {render(want)}, actual {render(got)}"],
            )
    _judge_legal(j, label, checks, observation, tried)
    _judge_views(j, label, checks, observation)
    if "perft" in checks:
        if "perft" not in j.caps and tried is not None:
            # depth 1 is the number of legal commands; deeper needs play
            want = checks["perft"][:1]
            j.check(
                [len(tried)] == want,
                [f"{label}: perft (depth 1, by try): expected {render(want)}, actual {len(tried)}"],
            )
            if len(checks["perft"]) > 1:
                j.na(f"{label}: perft beyond depth 1", "perft")
        elif "perft" not in j.caps:
            j.na(f"{label}: perft", "perft")
        else:
            got = observation.get("perft")
            j.check(
                matches(checks["perft"], got),
                [f"{label}: perft: expected {render(checks['perft'])}, actual {render(got)}"],
            )


def _judge_legal(
    j: _Judge,
    label: str,
    checks: Mapping[str, JSON],
    observation: JSON,
    tried: list[JSON] | None = None,
) -> None:
    keys = [k for k in checks if k.startswith("legal_command")]
    if not keys:
        return
    if "legal-commands" in j.caps:
        legal = observation.get("legal_commands")
    elif tried is not None:
        # rebuilt from the answers to try: a legal command no candidate
        # names goes unseen (the candidates are the rules' legal commands and
        # the near misses around them)
        legal = tried
    else:
        for key in keys:
            j.na(f"{label}: {key}", "legal-commands")
        return
    for key, exact in (("legal_commands", True), ("legal_commands_include", False)):
        if key in checks:
            lines = command_set_diff(checks[key], legal, exact)
            j.check(
                not lines,
                [f"{label}: {key} differ (- missing, + extra)", *("  " + x for x in lines)],
            )
    if "legal_commands_exclude" in checks:
        lines = excluded_present(checks["legal_commands_exclude"], legal)
        j.check(
            not lines,
            [
                f"{label}: legal_commands_exclude: commands listed as legal",
                *("  " + x for x in lines),
            ],
        )
    if "legal_command_count" in checks:
        count = len(legal) if isinstance(legal, list) else legal
        want = checks["legal_command_count"]
        j.check(count == want, [f"{label}: legal_command_count: expected {want}, actual {count}"])


def _views_by_player(observation: JSON) -> dict[JSON, JSON]:
    views = observation.get("views") if isinstance(observation, dict) else None
    return {
        v.get("player"): v
        for v in (views if isinstance(views, list) else [])
        if isinstance(v, dict)
    }


def _judge_views(j: _Judge, label: str, checks: Mapping[str, JSON], observation: JSON) -> None:
    by_player = _views_by_player(observation)
    for expected in checks.get("views", ()):
        player = expected["player"]
        where = f"{label}: view of player {player}"
        if "views" not in j.caps:
            # as many checks as a view offering them would run
            j.na(f"{where}: only the fields a view has", "views")
            for key in expected:
                if key != "player":
                    j.na(f"{where}: {key}", "views")
            continue
        actual = by_player.get(player)
        # a view is closed: a field no view has (the deck, every hand) is a
        # leak that the keys the case lists would never look at
        leaked = unknown_view_fields(actual)
        j.check(not leaked, [f"{where} carries fields no view has: {', '.join(leaked)}"])
        for key, value in expected.items():
            if key == "player":
                continue
            if key == "sightings" and "sightings" not in j.caps:
                j.na(f"{where}: sightings", "sightings")
                continue
            got = actual.get(key) if isinstance(actual, dict) else None
            if key == "legal_commands" and isinstance(value, list):
                lines = command_set_diff(value, got, exact=True)
                j.check(not lines, [f"{where}: {key}", *("  " + x for x in lines)])
            else:
                ok = (
                    _piles_match(value, got, j.pile_order)
                    if key == "discards"
                    else matches(value, got)
                )
                shown = render(project(value, got))
                j.check(ok, [f"{where}: {key}: expected {render(value)}, actual {shown}"])
    if "shown" in checks:
        shown = checks["shown"]
        where = f"{label}: shown to player {shown['player']}"
        for capability in ("views", "sightings"):
            if capability not in j.caps:
                j.na(where, capability)
                return
        actual = by_player.get(shown["player"])
        got = actual.get("sightings") if isinstance(actual, dict) else None
        same = matches(shown["sightings"], got)
        lines = (
            []
            if same
            else [
                f"{where}: expected {render(shown['sightings'])}, "
                f"actual {render(project(shown['sightings'], got))}"
            ]
        )
        # the view read is closed, as every view the case checks
        leaked = unknown_view_fields(actual)
        if leaked:
            lines.append(f"{where}: their view carries fields no view has: {', '.join(leaked)}")
        j.check(same and not leaked, lines)
