"""Case format 1.3 and the capability ``seeded-chance``.

A time-out's random move and an online turn order not stacked by the case
are drawn from the seed. An implementation that declares ``seeded-chance``
must draw them as ``conformance/README.md`` describes (the draws are
re-derived here from that text alone, with :mod:`hashlib`, and compared with
the engine); one that does not is judged on whether the command was taken,
and nothing that follows from the draw counts, passed or failed.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections import Counter
from typing import Any

import pytest

from loveletter import new_game, step
from loveletter.cards import Card
from loveletter.commands import Command, Leave, StartRound, TimeOut
from loveletter.conformance import CaseError, External, InProcess, run_case
from loveletter.conformance.cases import parse_case
from loveletter.conformance.checks import EVERYTHING, Options, plan
from loveletter.conformance.execute import execute
from loveletter.conformance.starts import ReplayStart
from loveletter.engine import legal_commands, playable_cards
from loveletter.events import CardPlayed, RoundStarted
from loveletter.serialization import to_data
from loveletter.state import Decision, GameState

from ._support import impl

JSON = Any

#: online, 3 players, dealt in the order 2, 0, 1: seat 2 holds a Guard and
#: draws a Priest, seat 0 holds a Baron, seat 1 a Guard
DECK = [
    "Guard", "Baron", "Guard", "Priest", "Handmaid", "Guard", "Guard", "Priest",
    "Baron", "Handmaid", "Prince", "Prince", "King", "Countess", "Princess", "Guard",
]  # fmt: skip
#: with seed 2, seat 2's time-out plays the Priest on seat 1 (worked out
#: by hand in test_the_documented_draw_picks_the_cases_move)
SEED = 2
TIMEOUT_STEPS: list[JSON] = [
    {
        "command": {"type": "TimeOut", "player": 2},
        "events": [
            {"type": "TurnTimedOut", "player": 2},
            {"type": "CardPlayed", "player": 2, "card": "Priest", "target": 1},
            {"type": "HandSeen", "viewer": 2, "owner": 1, "card": "Guard", "via": "Priest"},
            {"type": "TurnStarted", "player": 0},
            {"type": "CardDrawn", "player": 0, "card": "Handmaid"},
        ],
    },
    {"checks": {"hands": [["Baron", "Handmaid"], ["Guard"], ["Guard"]], "to_act": 0}},
    {"command": {"type": "PlayCard", "player": 0, "card": "Baron", "target": 1}, "accepted": True},
    {"checks": {"out": [1], "exits": [1]}},
]
NO_SEEDED_CHANCE = EVERYTHING - {"seeded-chance"}


def _case(steps: list[JSON], deal: dict[str, JSON] | None = None, players: int = 3) -> Any:
    data = {
        "format": 1.3,
        "id": "time-out",
        "title": "A time-out makes the move drawn from the seed",
        "rules": ["online.timeout-random-move"],
        "rulings": [51],
        "ruleset": "online",
        "players": players,
        "start": {"deal": deal or {"deck": DECK, "order": [2, 0, 1], "seed": SEED}},
        "steps": copy.deepcopy(steps),
    }
    return parse_case(data, "<string>")


def _other_chance(script: dict[str, JSON]) -> dict[str, JSON]:
    """Our engine with a chance of its own: seed 0 times seat 2 out into
    a Guard on seat 0, not the case's Priest."""
    script = copy.deepcopy(script)
    script["start"]["deal"]["seed"] = 0
    return execute(script)


def _run(case: Any, executor: Any = execute, caps: frozenset[str] = EVERYTHING) -> Any:
    return run_case(case, InProcess(executor=executor, capabilities=caps), Options(caps))


# the runner, with and without seeded-chance


def test_the_time_out_case_passes_with_our_draw() -> None:
    outcome = _run(_case(TIMEOUT_STEPS))
    assert outcome.status == "passed", outcome.lines
    # step 1: accepted, its events; step 2: two fields; step 3: accepted;
    # step 4: two fields (a check is one expectation against one answer)
    assert outcome.checks_run == 2 + 2 + 1 + 2
    assert outcome.not_applicable == ()


def test_another_draw_fails_when_seeded_chance_is_declared() -> None:
    outcome = _run(_case(TIMEOUT_STEPS), _other_chance)
    assert outcome.status == "failed"
    assert outcome.lines[0] == "step 1 TimeOut {player: 2}: events differ (- expected, + actual)"
    assert any("hands: expected" in line for line in outcome.lines)


@pytest.mark.parametrize("executor", [execute, _other_chance], ids=["same", "other"])
def test_without_seeded_chance_a_time_out_is_judged_taken_and_nothing_after_it(
    executor: Any,
) -> None:
    outcome = _run(_case(TIMEOUT_STEPS), executor, NO_SEEDED_CHANCE)
    # only that the time-out was accepted: an implementation accepting every
    # command passes that, so the case is not applicable, not passed
    assert outcome.status == "not-applicable", outcome.lines
    assert outcome.checks_run == 1
    needs = "needs capability seeded-chance"
    after = "after a draw from the seed"
    assert outcome.not_applicable == (
        f"step 1 TimeOut {{player: 2}}: its events: the random move it made: {needs}",
        f"step 2: hands, {after}: {needs}",
        f"step 2: to_act, {after}: {needs}",
        f"step 3: accepted, {after}: {needs}",
        f"step 4: out, {after}: {needs}",
        f"step 4: exits, {after}: {needs}",
    )


@pytest.mark.parametrize(
    ("kind", "status"), [("own-chance", "not-applicable"), ("own-chance-unsaid", "failed")]
)
def test_through_the_protocol_the_handshake_says_whose_chance_counts(
    kind: str, status: str
) -> None:
    implementation = External(impl("fake_impls.py", kind))
    try:
        outcome = run_case(_case(TIMEOUT_STEPS), implementation)
    finally:
        implementation.close()
    assert outcome.status == status, outcome.lines
    assert bool(outcome.not_applicable) == (status == "not-applicable")


def test_without_seeded_chance_a_refused_time_out_still_fails() -> None:
    def refusing(script: dict[str, JSON]) -> dict[str, JSON]:
        reply = execute(script)
        reply["steps"][0] = {"rejected": "random-moves-off"}
        return reply

    outcome = _run(_case(TIMEOUT_STEPS), refusing, NO_SEEDED_CHANCE)
    assert outcome.status == "failed"
    assert "expected acceptance, but rejected as random-moves-off" in outcome.lines[0]


def test_without_seeded_chance_a_time_out_to_refuse_is_judged_as_usual() -> None:
    steps: list[JSON] = [
        {"command": {"type": "TimeOut", "player": 0}, "rejected": "not-your-turn"},
        {"checks": {"to_act": 2}},
    ]
    outcome = _run(_case(steps), caps=NO_SEEDED_CHANCE)
    assert outcome.status == "passed", outcome.lines
    assert (outcome.checks_run, outcome.not_applicable) == (3, ())
    steps[0]["rejected"] = "wrong-decision"
    assert _run(_case(steps), caps=NO_SEEDED_CHANCE).status == "failed"


def test_without_seeded_chance_a_drawn_first_order_makes_the_whole_case_not_applicable() -> None:
    deal = {"deck": DECK, "seed": SEED, "first_player": 1}
    drawn = new_game("online", 3, seed=SEED, first_player=1).table.order
    steps = [{"checks": {"order": list(drawn)}}]
    assert _run(_case(steps, deal)).status == "passed"
    steps[0]["checks"]["order"].reverse()
    assert _run(_case(steps, deal)).status == "failed"
    outcome = _run(_case(steps, deal), caps=NO_SEEDED_CHANCE)
    assert outcome.status == "not-applicable"
    assert outcome.not_applicable == (
        "the whole case: a turn order drawn from the seed; needs capability seeded-chance",
    )


def _to_next_round(state: GameState) -> list[Command]:
    """The first legal command, again and again, until the round is over."""
    commands: list[Command] = []
    while state.decision is not Decision.NEXT_ROUND:
        command = legal_commands(state)[0]
        state, _ = step(state, command)
        commands.append(command)
    return commands


def test_without_seeded_chance_a_deal_drawing_its_order_is_judged_taken_and_nothing_after() -> None:
    opening = new_game("online", 3, deck=[Card.parse(c) for c in DECK], order=(2, 0, 1), seed=SEED)
    played = [{"command": to_data(c), "accepted": True} for c in _to_next_round(opening)]
    deal = {"command": {"type": "StartRound", "deck": DECK}, "accepted": True}
    steps = [*played, deal, {"checks": {"round_number": 2, "exits": []}}]
    assert _run(_case(steps)).status == "passed"
    outcome = _run(_case(steps), caps=NO_SEEDED_CHANCE)
    # every command accepted, nothing a wrong outcome could fail: not a pass
    assert outcome.status == "not-applicable", outcome.lines
    assert outcome.checks_run == len(played) + 1
    # the deal lists no events, so it holds one check (accepted), run; the
    # checks after it are not applicable
    drew = "after a draw from the seed: needs capability seeded-chance"
    assert [line.split(": ", 1)[1] for line in outcome.not_applicable] == [
        f"round_number, {drew}",
        f"exits, {drew}",
    ]
    # a stacked order leaves nothing to chance
    state = opening
    for command in _to_next_round(opening):
        state, _ = step(state, command)
    winner = state.round_result.winners[0] if state.round_result else 0
    order = [winner, *(seat for seat in range(3) if seat != winner)]
    steps[len(played)]["command"]["order"] = order
    outcome = _run(_case(steps), caps=NO_SEEDED_CHANCE)
    assert (outcome.status, outcome.not_applicable) == ("passed", ())


def test_without_seeded_chance_a_replay_start_that_draws_is_not_sent() -> None:
    position: dict[str, JSON] = {
        "deck": DECK[4:],
        "set_aside": None,
        "hands": [["Baron"], ["Guard"], ["Guard", "Priest"]],
        "discards": [[], [], []],
        "current": 2,
        "drawn": True,
        "order": [2, 0, 1],
    }
    data = {**_case(TIMEOUT_STEPS).data, "start": {"position": position}}
    case = parse_case(data, "<string>")
    played = {"type": "PlayCard", "player": 2, "card": "Guard", "target": 0, "guess": 2}
    no_positions = EVERYTHING - {"positions"}
    for command, drawn in ((played, False), ({"type": "TimeOut", "player": 2}, True)):
        replay = ReplayStart(
            name=case.name,
            ruleset="online",
            players=3,
            deck=tuple(DECK),
            first_player=2,
            commands=(command,),
            order=(2, 0, 1),  # stacked: the deal itself draws nothing
        )
        for caps in (no_positions, no_positions - {"seeded-chance"}):
            the_plan = plan(case, Options(caps), {case.name: replay})
            unsent = drawn and "seeded-chance" not in caps
            assert (the_plan.script is None) == unsent
            if unsent:
                assert the_plan.not_applicable == (
                    "the whole case: a replay start that draws from the seed;"
                    " needs capability seeded-chance",
                )


# the case format


def test_a_later_online_deal_gives_its_order() -> None:
    deal = {"deck": DECK, "round_number": 2, "tokens": [1, 0, 0]}
    with pytest.raises(CaseError, match=r"start\.deal\.order: a later round's online deal"):
        _case([{"checks": {"round_number": 2}}], deal)
    _case([{"checks": {"round_number": 2}}], {**deal, "order": [0, 2, 1]})


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.update(ruleset="online"), "ruleset"),
        (lambda d: d.update(settings={"decks": 2}), "settings"),
        (lambda d: d["start"]["deal"].update(order=[1, 0]), "start.deal.order"),
        (lambda d: d["start"]["deal"].update(seed=3), "start.deal.seed"),
        (lambda d: d["steps"].append({"checks": {"exits": []}}), "steps[1].checks.exits"),
        (lambda d: d["steps"].append({"checks": {"ranks": [1, 2]}}), "steps[1].checks.ranks"),
        (
            lambda d: d["steps"].append({"command": {"type": "Leave", "player": 0}, "events": []}),
            "steps[1].command",
        ),
    ],
)
def test_format_1_3_additions_need_format_1_3(edit: Any, field: str) -> None:
    data: dict[str, JSON] = {
        "format": 1.2,
        "id": "older",
        "title": "An older case",
        "rules": ["setup.deal-one-each"],
        "ruleset": "premium",
        "players": 2,
        "start": {"deal": {"deck": ["Guard"] * 16}},
        "steps": [{"checks": {"round_number": 1}}],
    }
    parse_case(copy.deepcopy(data), "<string>")
    edit(data)
    with pytest.raises(CaseError) as raised:
        parse_case(data, "<string>")
    assert raised.value.field == field
    assert "needs format: 1.3" in str(raised.value)


# the draws, from the README's description alone


def _chance(seed: int, round_number: int, purpose: str) -> int:
    text = f"loveletter/{seed}/{round_number}/{purpose}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=64).digest(), "big")


def _shuffle(items: list[int], seed: int, round_number: int, purpose: str) -> list[int]:
    pool = list(items)
    bits = 64 + _factorial(len(pool)).bit_length()
    number = _chance(seed, round_number, purpose) >> (512 - min(512, bits))
    drawn = []
    for size in range(len(pool), 0, -1):
        number, index = divmod(number, size)
        drawn.append(pool.pop(index))
    return drawn


def _factorial(n: int) -> int:
    return 1 if n <= 1 else n * _factorial(n - 1)


def _swap_first(order: list[int], first: int | None) -> list[int]:
    if first is not None:
        i = order.index(first)
        order[0], order[i] = order[i], order[0]
    return order


def test_the_readme_example_of_the_order_draw() -> None:
    assert _shuffle([0, 1, 2, 3], 1, 1, "order") == [2, 3, 1, 0]
    assert _chance(1, 1, "order") >> 443 == 0xA85F120AEE65FBD8E


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_the_first_order_is_the_documented_draw(players: int) -> None:
    for seed in (0, 1, 7, 2**200 + 3):
        drawn = _shuffle(list(range(players)), seed, 1, "order")
        assert list(new_game("online", players, seed=seed).table.order) == drawn
        for first in range(players):
            swapped = _swap_first(list(drawn), first)
            game = new_game("online", players, seed=seed, first_player=first)
            assert list(game.table.order) == swapped


def test_a_later_order_is_the_documented_draw() -> None:
    met: Counter[str] = Counter()
    for seed in range(700):
        rng = random.Random(seed)
        state = new_game("online", 4, seed=seed)
        while state.decision is not Decision.NEXT_ROUND:
            state, _ = step(state, rng.choice(legal_commands(state)))
        assert state.round_result is not None
        winners = state.round_result.winners
        if seed % 3 == 0:  # a rank-1 player leaves between rounds
            state, _ = step(state, Leave(winners[0]))
        present = [seat for seat in range(4) if seat not in state.table.left]
        candidates = [w for w in winners if w in present]
        first = None
        if len(candidates) == 1:
            first = candidates[0]
        elif candidates:
            first = candidates[_chance(seed, 2, "first-player") % len(candidates)]
        expected = _swap_first(_shuffle(present, seed, 2, "order"), first)
        _, events = step(state, StartRound())
        (started,) = [e for e in events if isinstance(e, RoundStarted)]
        assert list(started.order or ()) == expected
        met[("none", "one", "several")[min(len(candidates), 2)]] += 1
    assert set(met) == {"none", "one", "several"}, met


def test_the_documented_draw_picks_the_cases_move() -> None:
    # the case's start, by hand: seat 2 holds a Guard and a Priest (card
    # order: Guard first); the Guard's commands are seats 0 and 1, each
    # naming 2 to 8 (1 is not nameable, 9 and 0 are not in a 3-player
    # deck), the Priest's seats 0 and 1
    n = _chance(SEED, 1, "timeout/1/play")
    moves: dict[str, list[tuple[int, int | None]]] = {
        "Guard": [(seat, number) for seat in (0, 1) for number in range(2, 9)],
        "Priest": [(seat, None) for seat in (0, 1)],
    }
    card = ["Guard", "Priest"][n % 2]
    move = moves[card][(n // 2) % len(moves[card])]
    assert (card, move) == ("Priest", (1, None))


def test_time_outs_make_the_documented_move() -> None:
    met: set[Decision] = set()
    for seed in range(30):
        rng = random.Random(seed)
        state = new_game("online", rng.choice((3, 4, 6)), seed=seed)
        while state.decision is not Decision.NEXT_ROUND:
            decision = state.decision
            n = _chance(seed, state.round_number, f"timeout/{state.turn_number}/{decision.value}")
            if decision is Decision.PLAY:
                hand = state.hands[state.current]
                cards = sorted(set(hand))
                if Card.COUNTESS in hand:
                    cards = [c for c in cards if c not in (Card.KING, Card.PRINCE)]
                assert tuple(cards) == playable_cards(state)
                card = cards[n % len(cards)]
                moves = legal_commands(state, card)
                expected = moves[(n // len(cards)) % len(moves)]
            else:
                moves = legal_commands(state)
                expected = moves[n % len(moves)]
            met.add(decision)
            assert state.to_act is not None
            after, events = step(state, TimeOut(state.to_act))
            assert events[1:] == step(state, expected)[1]
            if decision is Decision.PLAY:
                played = events[1]
                assert isinstance(played, CardPlayed) and played.card is card
            state = after
    assert Decision.PLAY in met
