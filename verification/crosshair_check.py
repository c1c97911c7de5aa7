"""Run CrossHair on every contract of tests/symbolic, one condition at a time.

A condition is a function of a ``tests/symbolic/contracts_*.py`` module
whose body opens with ``assert`` (CrossHair's ``asserts`` kind: the leading
asserts bound the inputs, the later ones must hold on every path). Each is
checked in its own process with a per-condition CPU budget, two at a time
by default; the script prints one line per condition (result, wall and CPU
seconds), the number of conditions and the budget, and exits 1 if any
condition has a counterexample or fails to run.

    .venv/bin/python verification/crosshair_check.py            # make test's budget
    .venv/bin/python verification/crosshair_check.py --budget 4 # make test-long's (CI)
    .venv/bin/python verification/crosshair_check.py --deep     # 20x (make verify-deep)
    .venv/bin/python verification/crosshair_check.py --list     # the conditions only
    .venv/bin/python verification/crosshair_check.py --broken   # must all fail
    .venv/bin/python verification/crosshair_check.py --mutants  # must all fail

``--broken`` checks tests/symbolic/broken_contract.py, whose contracts are
wrong on purpose; ``--mutants`` checks real contracts against an engine
broken on purpose (:data:`MUTANTS`, patched in the checking process only).
In both modes every condition must be reported with a counterexample, and
the exit status is 1 if one is not: that is how the harness shows it is
not vacuous.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
SYMBOLIC = REPO / "tests" / "symbolic"

#: CPU seconds per condition in make test (tests/budget.py: make test-long,
#: which CI runs too, gives 4) and in make verify-deep. Every mutant of
#: MUTANTS is caught within 1.5 s.
CI_BUDGET = 2.0
DEEP_BUDGET = 40.0


class Condition(NamedTuple):
    path: Path
    name: str
    line: int
    rules: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.path.stem}.{self.name}"


class Mutant(NamedTuple):
    """An engine broken on purpose, and the condition that must catch it."""

    name: str
    #: Python run in the checking process before CrossHair imports anything
    patch: str
    condition: str


_RULES = re.compile(r"Rules:\s*(.*?)(?:\.\s*$|\.\s*\n\s*\n|\Z)", re.S)


def conditions(paths: list[Path]) -> list[Condition]:
    """The conditions of the given modules, in file order."""
    found: list[Condition] = []
    for path in paths:
        tree = ast.parse(path.read_text(), str(path))
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
                continue
            body = node.body
            docstring = ast.get_docstring(node) or ""
            if body and isinstance(body[0], ast.Expr) and docstring:
                body = body[1:]
            if not body or not isinstance(body[0], ast.Assert):
                continue
            match = _RULES.search(docstring)
            rules = tuple(re.findall(r"[a-z-]+\.[a-z-]+", match.group(1))) if match else ()
            found.append(Condition(path, node.name, body[0].lineno, rules))
    return found


def contract_modules() -> list[Path]:
    return sorted(SYMBOLIC.glob("contracts_*.py"))


#: Each mutant breaks one rule the way a plausible slip would, in the
#: engine's own modules (never in the contracts).
MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "baron-compares-codes",
        "import loveletter.cards._common as c\n"
        "from loveletter.events import EliminationReason, HandsCompared, PlayerEliminated\n"
        "def compare(state, player, played, target, via, lower_loses):\n"
        "    mine = c.remaining(state.hands[player], played)[0]\n"
        "    theirs = state.hands[target][0]\n"
        "    events = (HandsCompared(player, target, mine, theirs, via),)\n"
        "    if mine == theirs:\n"
        "        return events\n"
        "    loser = player if (mine < theirs) is lower_loses else target\n"
        "    card = mine if loser == player else theirs\n"
        "    reason = EliminationReason.BARON_COMPARISON\n"
        "    return (*events, PlayerEliminated(loser, reason, (card,)))\n"
        "import loveletter.cards.baron as b\n"
        "b.compare = compare\n",
        "contracts_comparing.baron_knocks_out_the_lower_value",
    ),
    Mutant(
        "guard-names-cards-in-premium",
        "import loveletter.cards.guard as g\n"
        "from loveletter.events import EliminationReason, PlayerEliminated\n"
        "def guard(state, command):\n"
        "    hand = state.hands[command.target]\n"
        "    if command.guess in hand:\n"
        "        reason = EliminationReason.GUARD_GUESS\n"
        "        return (PlayerEliminated(command.target, reason, hand),)\n"
        "    return ()\n"
        "g.guard = guard\n",
        "contracts_guessing.guard_hits_exactly_on_match",
    ),
    Mutant(
        "prince-draws-set-aside-first",
        "import loveletter.cards._common as c\n"
        "from loveletter.events import CardDrawn\n"
        "def draw_replacement(state, player):\n"
        "    if state.set_aside is not None:\n"
        "        return CardDrawn(player, state.set_aside, True)\n"
        "    return CardDrawn(player, state.deck[0], False)\n"
        "c.draw_replacement = draw_replacement\n",
        "contracts_trading.prince_makes_exactly_the_chosen_player_discard_and_draw",
    ),
    Mutant(
        "evolve-draw-keeps-the-deck",
        "import loveletter.evolution as ev\n"
        "from loveletter.events import CardDrawn\n"
        "def card_drawn(d, e):\n"
        "    p = e.player\n"
        "    if not d.deck or d.deck[0] != e.card:\n"
        "        raise ev.EventMismatch('top')\n"
        "    d.hands = d.hands[:p] + ((*d.hands[p], e.card),) + d.hands[p + 1 :]\n"
        "ev._APPLIERS[CardDrawn] = card_drawn\n",
        "contracts_evolve.evolve_moves_cards_without_creating_or_losing_any",
    ),
    Mutant(
        "evolve-token-total-unchecked",
        "import loveletter.evolution as ev\n"
        "from loveletter.events import TokenAwarded\n"
        "def token_awarded(d, e):\n"
        "    t = ev.table_of(d)\n"
        "    t.tokens = t.tokens[: e.player] + (e.total,) + t.tokens[e.player + 1 :]\n"
        "ev._APPLIERS[TokenAwarded] = token_awarded\n",
        "contracts_evolve.evolve_outcomes_only_add_tokens",
    ),
    Mutant(
        "evolve-protection-survives-a-turn",
        "import loveletter.evolution as ev\n"
        "from loveletter.decisions import Decision\n"
        "from loveletter.events import TurnStarted\n"
        "def turn_started(d, e):\n"
        "    d.current = e.player\n"
        "    d.decision = Decision.DRAW\n"
        "    d.turn_number += 1\n"
        "    d.protected = d.protected | {e.player}\n"
        "ev._APPLIERS[TurnStarted] = turn_started\n",
        "contracts_evolve.evolve_knowledge_and_choices_move_no_card",
    ),
    Mutant(
        "bishop-compares-codes",
        "import loveletter.cards.bishop as b\n"
        "from loveletter.events import RedrawOffered, TokenAwarded, TokenReason\n"
        "def bishop(state, command):\n"
        "    if command.guess not in state.hands[command.target]:\n"
        "        return ()\n"
        "    total = state.table.tokens[command.player] + 1\n"
        "    return (TokenAwarded(command.player, TokenReason.BISHOP, total),\n"
        "            RedrawOffered(command.target))\n"
        "b.bishop = bishop\n",
        "contracts_guessing.bishop_scores_exactly_on_number",
    ),
    Mutant(
        "constable-pays-from-the-hand",
        "import loveletter.consequences as e\n"
        "e.pile_that_pays = lambda s, k: s.discards[k.player] + s.hands[k.player]\n",
        "contracts_round_end.constable_pays_when_in_the_pile_at_a_knock_out",
    ),
    Mutant(
        "spy-counts-players-out",
        "import loveletter.cards.spy as s\n"
        "from loveletter.cards import Card\n"
        "def sole_spy(end):\n"
        "    spies = [p for p in range(end.players) if Card.SPY in end.discards[p]]\n"
        "    return (spies[0],) if len(spies) == 1 else ()\n"
        "s.sole_spy = sole_spy\n",
        "contracts_round_end.spy_token_goes_to_a_sole_spy_still_in",
    ),
    Mutant(
        "showdown-ignores-counts",
        "from loveletter.rulesets import PREMIUM\n"
        "object.__setattr__(PREMIUM, 'showdown_bonus', (0,) * len(PREMIUM.values))\n",
        "contracts_comparing.showdown_follows_values_counts_and_piles",
    ),
    Mutant(
        "chancellor-draws-three",
        "import loveletter.cards.chancellor as c\n"
        "from loveletter.events import ChancellorDrew\n"
        "def chancellor(state, command):\n"
        "    drawn = state.deck[:3]\n"
        "    if not drawn:\n"
        "        return ()\n"
        "    return (ChancellorDrew(command.player, len(drawn), drawn),)\n"
        "c.chancellor = chancellor\n",
        "contracts_trading.chancellor_draws_up_to_two_and_returns_to_the_bottom",
    ),
    Mutant(
        "king-trade-copies-a-hand",
        "import loveletter.evolution as ev\n"
        "from loveletter.events import HandsTraded\n"
        "def hands_traded(d, e):\n"
        "    hands = list(d.hands)\n"
        "    hands[e.opponent] = hands[e.player]\n"
        "    d.hands = tuple(hands)\n"
        "ev._APPLIERS[HandsTraded] = hands_traded\n",
        "contracts_trading.king_trades_exactly_the_two_hands",
    ),
    Mutant(
        "cardinal-look-at-anyone",
        "import loveletter.cards.cardinal as c\n"
        "from loveletter.commands import Decline\n"
        "from loveletter.events import HandSeen, OptionDeclined\n"
        "def look(state, command):\n"
        "    if type(command) is Decline:\n"
        "        return (OptionDeclined(command.player),)\n"
        "    owner = command.owner\n"
        "    return (HandSeen(command.player, owner, state.hands[owner][0], c.Card.CARDINAL),)\n"
        "c.look = look\n",
        "contracts_looking.cardinal_look_shows_one_of_the_swapped_hands",
    ),
    Mutant(
        "assassin-answers-a-bishop",
        "import loveletter.cards.assassin as a\n"
        "from loveletter.cards import Card\n"
        "real = a.answer_guard\n"
        "def answer_guard(state, command, holder):\n"
        "    if command.card is Card.BISHOP:\n"
        "        import attrs\n"
        "        command = attrs.evolve(command, card=Card.GUARD)\n"
        "    return real(state, command, holder)\n"
        "a.answer_guard = answer_guard\n",
        "contracts_guessing.assassin_answers_only_a_guard",
    ),
    Mutant(
        "princess-discard-still-draws",
        "import loveletter.cards._common as c\n"
        "def discard_and_draw(state, player, cards):\n"
        "    events = c.discard_unresolved(state, player, cards)\n"
        "    return (*events, c.draw_replacement(state, player))\n"
        "c.discard_and_draw = discard_and_draw\n"
        "import loveletter.cards.prince as p\n"
        "p.discard_and_draw = discard_and_draw\n",
        "contracts_trading.prince_makes_exactly_the_chosen_player_discard_and_draw",
    ),
    Mutant(
        "ranks-first-out-highest",
        "import loveletter.ranking as r\n"
        "real = r.round_ranks\n"
        "def round_ranks(ruleset, players, revealed, live, exits, discards):\n"
        "    return real(ruleset, players, revealed, live, tuple(reversed(exits)), discards)\n"
        "r.round_ranks = round_ranks\n",
        "contracts_online.round_ranks_number_the_players_like_a_competition",
    ),
    Mutant(
        "seven-bonus-on-a-tie-with-the-bishop",
        "import loveletter.cards._common as c\n"
        "from loveletter.cards import Card\n"
        "def lifted_by_two_counts(showdown, holder):\n"
        "    if showdown.discards[holder].count(Card.COUNT) < 2:\n"
        "        return 0\n"
        "    others = [(s, k) for s, k in showdown.hands if s != holder]\n"
        "    if not any(k is Card.PRINCESS for _, k in others):\n"
        "        return 0\n"
        "    mine = showdown.total(holder)\n"
        "    bishops = [s for s, k in others if k is Card.BISHOP]\n"
        "    return 4 if any(showdown.total(s) <= mine for s in bishops) else 0\n"
        "c.lifted_by_two_counts = lifted_by_two_counts\n",
        "contracts_online.seven_bonus_needs_two_counts_the_princess_and_a_lower_bishop",
    ),
    Mutant(
        "online-cardinal-shows-the-second",
        "import loveletter.cards.cardinal as c\n"
        "from loveletter.events import HandSeen\n"
        "real = c.cardinal_online\n"
        "def cardinal_online(state, command):\n"
        "    events = real(state, command)\n"
        "    if not events:\n"
        "        return events\n"
        "    first, second = command.target, command.second_target\n"
        "    shown = c.remaining(state.hands[first], command.card) if first == command.player"
        " else state.hands[first]\n"
        "    seen = HandSeen(command.player, second, shown[0], c.Card.CARDINAL)\n"
        "    return (events[0], seen)\n"
        "c.cardinal_online = cardinal_online\n",
        "contracts_online.online_cardinal_swaps_in_order_and_shows_the_first_its_new_card",
    ),
    Mutant(
        "player-left-keeps-the-turn",
        "import loveletter.evolution as ev\n"
        "from loveletter.events import PlayerLeft\n"
        "def player_left(d, e):\n"
        "    t = ev.table_of(d)\n"
        "    if e.player in t.left or not 0 <= e.player < t.players:\n"
        "        raise ev.EventMismatch('gone')\n"
        "    t.left = t.left | {e.player}\n"
        "ev._APPLIERS[PlayerLeft] = player_left\n",
        "contracts_online.evolve_leaving_and_timing_out_move_no_card",
    ),
)


class Result(NamedTuple):
    condition: Condition
    #: "ok" (no counterexample), "counterexample" or "error"
    status: str
    #: CrossHair's own verdict: proved over all paths, or budget spent
    exhausted: bool
    wall: float
    cpu: float
    output: str


def crosshair_args(condition: Condition, budget: float) -> list[str]:
    return [
        "check",
        "--analysis_kind=asserts",
        "--report_all",
        f"--per_condition_timeout={budget}",
        f"{condition.path}:{condition.line}",
    ]


def run(condition: Condition, budget: float, mutant: Mutant | None = None) -> Result:
    """Check one condition in a fresh process (optionally under a mutant)."""
    command = [sys.executable, __file__, "--worker", json.dumps(crosshair_args(condition, budget))]
    if mutant is not None:
        command += ["--patch", mutant.patch]
    started = time.monotonic()
    process = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    cpu_match = re.search(r"^cpu=([\d.]+)$", process.stderr, re.M)
    cpu = float(cpu_match.group(1)) if cpu_match else float("nan")
    output = process.stdout.strip()
    stderr = "\n".join(line for line in process.stderr.splitlines() if not line.startswith("cpu="))
    if process.returncode == 1 and ": error:" in output:
        status = "counterexample"
    elif process.returncode == 0 and ": info:" in output:
        status = "ok"
    else:
        status = "error"
        output = f"{output}\n{stderr}".strip()
    exhausted = "Confirmed over all paths" in output
    return Result(condition, status, exhausted, wall, cpu, output)


def _worker(args: list[str], patch: str | None) -> int:
    """Inside the checking process: apply the mutant, run CrossHair, report
    the CPU time this process used."""
    sys.path.insert(0, str(REPO))
    if patch is not None:
        exec(patch, {})
    from crosshair.main import main

    code = 0
    try:
        main(args)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 2
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"cpu={usage.ru_utime + usage.ru_stime:.2f}", file=sys.stderr)
    return code


def _line(result: Result) -> str:
    verdict = {
        "ok": "proved (all paths)" if result.exhausted else "no counterexample",
        "counterexample": "COUNTEREXAMPLE",
        "error": "ERROR",
    }[result.status]
    return (
        f"{result.condition.label:<80} {verdict:<19} "
        f"{result.wall:6.1f}s wall {result.cpu:6.1f}s cpu"
    )


def check_all(
    todo: list[tuple[Condition, Mutant | None]], budget: float, jobs: int
) -> list[Result]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run, condition, budget, mutant) for condition, mutant in todo]
        results = []
        for future in futures:
            result = future.result()
            print(_line(result), flush=True)
            results.append(result)
    return results


def _shard(text: str) -> tuple[int, int]:
    """``"K/N"`` as (K, N), 1 <= K <= N; anything else exits with a usage error."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise SystemExit(f"--shard: expected K/N, got {text!r}") from None
    if not 1 <= index <= count:
        raise SystemExit(f"--shard: K must be 1 to N, got {text!r}")
    return index, count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--deep", action="store_true", help=f"{DEEP_BUDGET:g} s per condition")
    mode.add_argument("--list", action="store_true", help="list the conditions and exit")
    mode.add_argument("--broken", action="store_true", help="the deliberately wrong contracts")
    mode.add_argument("--mutants", action="store_true", help="the real contracts, engine broken")
    parser.add_argument("--budget", type=float, help="CPU seconds per condition")
    parser.add_argument("--jobs", type=int, default=2, help="conditions checked at once")
    parser.add_argument("--only", help="check only conditions whose label contains this")
    parser.add_argument(
        "--shard",
        help="K/N: check only every N-th condition from the K-th (1-based), so N runs"
        " share the work (make test spreads them over its workers)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--patch", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        return _worker(json.loads(args.worker), args.patch)

    budget = args.budget or (DEEP_BUDGET if args.deep else CI_BUDGET)
    paths = [SYMBOLIC / "broken_contract.py"] if args.broken else contract_modules()
    found = conditions(paths)
    if args.list:
        for condition in found:
            print(f"{condition.label:<80} {', '.join(condition.rules)}")
        print(f"{len(found)} conditions")
        return 0
    by_label = {condition.label: condition for condition in found}
    todo: list[tuple[Condition, Mutant | None]]
    if args.mutants:
        todo = [(by_label[m.condition], m) for m in MUTANTS]
    else:
        todo = [(condition, None) for condition in found]
    if args.only:
        todo = [
            (c, m)
            for c, m in todo
            if args.only in c.label or (m is not None and args.only in m.name)
        ]
    if args.shard:
        index, count = _shard(args.shard)
        todo = todo[index - 1 :: count]
    what = "mutants" if args.mutants else "conditions"
    print(f"CrossHair: {len(todo)} {what}, {budget:g} CPU s per condition, {args.jobs} at once")
    started = time.monotonic()
    results = check_all(todo, budget, args.jobs)
    wall = time.monotonic() - started
    cpu = sum(r.cpu for r in results)
    print(f"{len(results)} {what} checked in {wall:.1f}s wall, {cpu:.1f}s cpu")
    expect_failure = args.broken or args.mutants
    bad = [
        (result, mutant)
        for result, (_, mutant) in zip(results, todo, strict=True)
        if (result.status != "counterexample" if expect_failure else result.status != "ok")
    ]
    for result, mutant in bad:
        name = f" (mutant {mutant.name})" if mutant else ""
        expected = "no counterexample found" if expect_failure else result.status
        print(f"\n{result.condition.label}{name}: {expected}\n{result.output}", file=sys.stderr)
    if expect_failure and not bad:
        print(f"every one of the {len(results)} {what} was caught")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
