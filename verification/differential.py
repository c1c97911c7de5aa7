"""Differential run: random games played in process and through the
conformance protocol adapter must agree at every step.

    python verification/differential.py                     # make differential
    python verification/differential.py --games 300 --rulesets premium
    python verification/differential.py --adapter "python tests/conformance/broken_adapter.py BUG"
    python verification/differential.py --ruleset 2019 --players 3 --game-seed N   # one game again

Each game is first played here, in process, with ``push``: a stacked deal,
then at every step now and then an illegal command (the soak run's probes,
those JSON can carry, and JSON no engine could read: unknown cards and
command types, seats as strings, floats or booleans, extra fields), one of
the listed legal commands (every deal stacked, a tied first player named;
online the turn order stacked too), and an observation of the state, the
legal commands and, now and then, a player's view. An online game is a
match at a table of one to three decks (random moves off at one table in
seven) whose script carries the table's settings and the game's seed (so
that a ``TimeOut``'s seeded move is the same on both sides): the host's
``TimeOut`` and ``Leave`` are mixed in, and after a few rounds its players
leave one by one until the match closes. What the engine did is written down as the protocol would
report it, by an encoder of this script's own (written from
conformance/README.md, "Vocabulary" and "Protocol", not with
``loveletter.serialization``): each command's events (``decide``), each
refusal's kind, the full-information state (from ``push``'s state), the
legal commands, the view, the events a player sees.

The same game, as one case script, goes to ONE long-lived
``python -m loveletter.conformance.adapter`` process (a ``run`` message per
game, through the runner's own protocol client), which decodes the
commands from JSON, executes them (``step``), encodes the results and
answers. Every step result must equal what was written down, compared as
canonical JSON (so ``true`` never passes for ``1``). The seed of the
``GameStarted`` event is ours and never compared (conformance/README.md).

Prints per ruleset games, commands, agreements and disagreements, and for
each disagreement the game's reproducer, the step, both sides and the script
up to that step (one JSON line: send it to the adapter in a ``run``
message). Exit status 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shlex
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, cast

import attrs

# The checkout, and this directory for the soak run's probes, however the
# script is started.
_HERE = Path(__file__).resolve().parent
for _path in (_HERE, _HERE.parent):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from soak import make_probe, probe_game_over  # noqa: E402
from soak_checks import (  # noqa: E402
    DECK_COPIES,
    ONLINE,
    PLAYER_COUNTS,
    RULESETS,
    allowed_first_players,
    deck_of,
    decks_of,
    host,
    present,
)

import loveletter as ll  # noqa: E402
from loveletter import Card, Decision, GameState, IllegalCommand  # noqa: E402
from loveletter.commands import (  # noqa: E402
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
from loveletter.conformance.protocol import Process, ProtocolError  # noqa: E402
from loveletter.events import Event  # noqa: E402
from loveletter.rulesets import Ruleset  # noqa: E402
from loveletter.state import TableSettings  # noqa: E402

JSON = Any

DEFAULT_GAMES = 2000
#: the adapter, started once with the Python running this script
ADAPTER = f"{shlex.quote(sys.executable)} -m loveletter.conformance.adapter"
#: illegal commands are given before this share of the steps
PROBE_SHARE = 0.3
#: the legal commands are observed after this share of the plays (and
#: after every other step): long lists, costly to write on both sides
LEGAL_SHARE = 0.25
#: a player's view is observed after this share of the steps
VIEW_SHARE = 0.2
#: one player's redacted copy of the events is asked for on this share
SEEN_BY_SHARE = 0.2
#: a game must end long before this many commands (hang guard)
MAX_STEPS = 20_000
#: online: the rounds a match plays before its players start leaving
MATCH_ROUNDS = (1, 3)


# --------------------------------------------------------------------------
# JSON, written from the vocabulary of conformance/README.md

#: the card names, exactly (README, "Cards")
CARD_NAMES: dict[Card, str] = {
    card: "".join(word.capitalize() for word in card.name.split("_")) for card in Card
}
#: types written with their "type" tag: commands, events, views
_TAGGED = (Command, Event, ll.PlayerView)


def encode(value: object) -> JSON:
    """``value`` as the protocol writes it: cards by name, enums by value,
    tuples and seat sets as arrays (sets sorted), commands and events as
    objects tagged with their type, a seed as decimal text."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, Card):
        return CARD_NAMES[value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, int):
        return value
    if isinstance(value, Ruleset):
        return value.name
    if isinstance(value, tuple | list):
        return [encode(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(encode(item) for item in value)
    if isinstance(value, Command | Event):
        key = (value, type(getattr(value, "guess", None)))
        try:
            return _ENCODED[key]
        except KeyError:
            pass
        if len(_ENCODED) >= 200_000:
            _ENCODED.clear()
        encoded = _ENCODED[key] = _encode_fields(value)
        return encoded
    if attrs.has(type(value)):
        return _encode_fields(value)
    raise TypeError(f"no JSON for {value!r}")


#: commands and events recur: each is written once (a Guard's guess is part
#: of the key, as a card never equals its code's number here)
_ENCODED: dict[tuple[object, type], JSON] = {}


def _encode_fields(value: object) -> JSON:
    data: dict[str, JSON] = {}
    if isinstance(value, _TAGGED):
        data["type"] = type(value).__name__
    for item in attrs.fields(cast(Any, type(value))):
        data[item.name] = encode(getattr(value, item.name))
    if isinstance(value, ll.GameStarted):
        data["seed"] = None  # ours, never compared
    return data


def encode_state(state: GameState) -> JSON:
    """The full-information ``state`` observation (README, "Protocol")."""
    return {
        "decision": state.decision.value,
        "to_act": state.to_act,
        "current": state.current,
        "round_number": state.round_number,
        "turn_number": state.turn_number,
        "deck": encode(state.deck),
        "set_aside": encode(state.set_aside),
        "face_up": encode(state.face_up),
        "hands": encode(state.hands),
        "discards": encode(state.discards),
        "out": encode(state.out),
        "protected": encode(state.protected),
        "tokens": encode(state.tokens),
        "round_result": encode(state.round_result),
        "winners": encode(state.winners),
        "required": state.required,
        "marks": encode(state.marks),
        "contenders": encode(state.contenders),
        "pending": encode(state.pending),
        "order": encode(state.table.order),
        "exits": encode(state.exits),
        "left": encode(state.table.left),
    }


def encode_view(view: ll.PlayerView) -> JSON:
    data = encode(view)
    del data["type"]  # a view in an observation is untagged
    return data


def canonical(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def same(expected: JSON, actual: JSON) -> bool:
    """Equal as JSON, types included (``true`` is not ``1``): the quick
    test when both sides wrote their keys in the same order, else the
    canonical one."""
    return json.dumps(expected) == json.dumps(actual) or canonical(expected) == canonical(actual)


def without_seed(events: JSON) -> JSON:
    """Start events with ``GameStarted.seed`` blanked (never compared)."""
    return [{**e, "seed": None} if e.get("type") == "GameStarted" else e for e in events]


# --------------------------------------------------------------------------
# commands that JSON can carry, and JSON that is no command


def _plain(value: object, kind: type) -> bool:
    return type(value) is kind


def carried_by_json(command: object) -> bool:
    """Whether JSON carries ``command`` unchanged: every field of its
    declared type (a list where a tuple belongs, a bool or a float seat,
    a string card would come back as something else)."""
    seat_or_none = (type(None), int)
    if isinstance(command, PlayCard):
        return (
            _plain(command.player, int)
            and _plain(command.card, Card)
            and type(command.target) in seat_or_none
            and type(command.second_target) in seat_or_none
            and type(command.guess) in (type(None), int, Card)
        )
    if isinstance(command, KeepCard):
        return (
            _plain(command.player, int)
            and _plain(command.keep, Card)
            and _plain(command.bottom, tuple)
            and all(_plain(c, Card) for c in command.bottom)
        )
    if isinstance(command, LookAtHand):
        return _plain(command.player, int) and _plain(command.owner, int)
    if isinstance(command, DrawCard | Redraw | Decline | Leave | TimeOut):
        return _plain(command.player, int)
    if isinstance(command, StartRound):
        deck, order = command.deck, command.order
        return (
            type(command.first_player) in seat_or_none
            and (deck is None or (_plain(deck, tuple) and all(_plain(c, Card) for c in deck)))
            and (order is None or (_plain(order, tuple) and all(_plain(s, int) for s in order)))
        )
    return False


def unreadable_command(rng: random.Random, state: GameState) -> JSON:
    """JSON that is no command of this game (README: a field of the wrong
    type, an unknown card name, ...): refused as malformed-command before
    anything else, even after the game's end."""
    actor = state.to_act if state.to_act is not None else state.current
    card = CARD_NAMES[rng.choice(state.hands[actor] or tuple(Card))]
    play = {"type": "PlayCard", "player": actor, "card": card, "target": None, "guess": None}
    variants: list[JSON] = [
        {**play, "player": str(actor)},
        {**play, "player": rng.choice((True, False))},
        {**play, "card": rng.choice(("Dragon", card.lower(), card.upper(), 3, None))},
        {**play, "target": rng.choice((1.5, "1", True, [1]))},
        {**play, "guess": rng.choice((True, 2.5, "Dragon", [1]))},
        {**play, "second_target": "2"},
        {**play, "flourish": 1},
        {"type": "PlayCard", "player": actor},
        {"type": "Pass", "player": actor},
        {"player": actor, "card": card},
        {"type": "KeepCard", "player": actor, "keep": card, "bottom": card},
        {"type": "KeepCard", "player": actor, "keep": [card], "bottom": []},
        {"type": "LookAtHand", "player": actor, "owner": None},
        {"type": "Decline", "player": float(actor)},
        {"type": "StartRound", "deck": ["Guard", 3], "first_player": None},
        {"type": "StartRound", "deck": None, "first_player": "0"},
        {"type": "StartRound", "deck": None, "first_player": None, "order": [0, "1"]},
        {"type": "Leave", "player": str(actor)},
        {"type": "TimeOut", "player": rng.choice((True, 0.0, None))},
        {"type": "Leave", "player": actor, "seat": actor},
        "PlayCard",
        [actor, card],
        None,
    ]
    return rng.choice(variants)


# --------------------------------------------------------------------------
# a game played in process, written down as the protocol reports it


@dataclass
class Game:
    """A game played in process: the case script to send, and what the
    protocol must answer to it."""

    ruleset: str
    players: int
    game_seed: int
    script: dict[str, JSON]
    #: per script step: the result the protocol must report
    expected: list[JSON]
    start_events: JSON
    commands: int = 0


def play_in_process(ruleset: str, players: int, game_seed: int) -> Game:
    """A random game through ``push``, with its script and what every step
    of it must report."""
    rng = random.Random(game_seed)
    first = rng.randrange(players)
    online = ruleset == ONLINE
    settings: TableSettings | None = None
    if online:
        settings = TableSettings(
            decks=rng.choice(DECK_COPIES[ONLINE]),
            turn_time_ms=rng.randrange(5_000, 60_001),
            random_moves=rng.random() >= 1 / 7,
            intermission_ms=rng.randrange(0, 30_001),
        )
    cards = list(deck_of(ruleset, players, 1 if settings is None else settings.decks).elements())
    rng.shuffle(cards)
    deck = tuple(cards)
    # every deal is stacked, so the adapter's own shuffles never matter; online
    # the seed is shared all the same, as a time-out's move is drawn from it
    seed = rng.randrange(2**64) if online else 0
    order = _stacked_order(rng, first, range(players)) if online else None
    opening = ll.start_game(
        ruleset, players, seed=seed, first_player=first, deck=deck, order=order, settings=settings
    )
    state = ll.new_game(
        ruleset, players, seed=seed, first_player=first, deck=deck, order=order, settings=settings
    )
    steps: list[JSON] = []
    expected: list[JSON] = []
    start: dict[str, JSON] = {"deck": encode(deck), "first_player": first}
    script: dict[str, JSON] = {
        "id": f"differential-{game_seed}",
        "ruleset": ruleset,
        "players": players,
        "start": {"deal": start},
        "steps": steps,
    }
    if online:
        script["format"] = 1.3
        script["settings"] = encode(settings)
        start["order"] = encode(order)
        start["seed"] = str(seed)
    game = Game(ruleset, players, game_seed, script, expected, without_seed(encode(list(opening))))
    match_rounds = rng.randint(*MATCH_ROUNDS) if online else 0
    rounds = 1
    closing = False

    def refused(command: JSON, kind: str) -> None:
        steps.append({"command": command})
        expected.append({"rejected": kind})
        game.commands += 1

    def observe() -> None:
        request: dict[str, JSON] = {"state": True}
        observation: dict[str, JSON] = {"state": encode_state(state)}
        if rng.random() < LEGAL_SHARE or state.decision is not Decision.PLAY:
            request["legal_commands"] = True
            observation["legal_commands"] = encode(
                [c for c in ll.legal_commands(state) if not isinstance(c, StartRound)]
            )
        if rng.random() < VIEW_SHARE:
            seat = rng.randrange(players)
            request["views"] = [seat]
            observation["views"] = [encode_view(ll.view(state, seat))]
        steps.append({"observe": request})
        expected.append({"observation": observation})

    def probe() -> None:
        if rng.random() < 0.25:
            refused(unreadable_command(rng, state), "malformed-command")
            return
        legal = ll.legal_commands(state)
        maker = probe_game_over if state.is_over else make_probe
        command, _ = maker(rng, state, legal)
        if not carried_by_json(command):
            return
        try:
            ll.push(state, command)
        except IllegalCommand as error:
            refused(encode(command), error.kind.value)

    observe()
    while not state.is_over:
        if game.commands >= MAX_STEPS:
            raise RuntimeError(f"{ruleset} game {game_seed} did not end")
        if rng.random() < PROBE_SHARE:
            probe()
        command: Command | None = None
        if online:
            closing = closing or (rounds >= match_rounds and state.decision is Decision.NEXT_ROUND)
            command = host(rng, state, closing)
        if command is None:
            command = choose(rng, state)
        rounds += isinstance(command, StartRound)
        events = ll.decide(state, command)
        state = ll.push(state, command)
        step: dict[str, JSON] = {"command": encode(command)}
        result: dict[str, JSON] = {"events": encode(events)}
        if rng.random() < SEEN_BY_SHARE:
            seat = rng.randrange(players)
            step["seen_by"] = [seat]
            result["seen_by"] = [{"player": seat, "events": encode(ll.events_for(seat, events))}]
        steps.append(step)
        expected.append(result)
        game.commands += 1
        observe()
    for _ in range(2):
        probe()
    observe()
    return game


def _stacked_order(rng: random.Random, first: int, seats: Iterable[int]) -> tuple[int, ...]:
    """An online turn order of ``seats`` starting with ``first``."""
    rest = [seat for seat in seats if seat != first]
    rng.shuffle(rest)
    return (first, *rest)


def choose(rng: random.Random, state: GameState) -> Command:
    """A listed command; a deal always stacked, a tied first player named,
    online the turn order stacked too (the adapter's own shuffles and
    tie-breaks are its business)."""
    if state.decision is Decision.NEXT_ROUND:
        cards = list(deck_of(state.ruleset.name, state.players, decks_of(state)).elements())
        rng.shuffle(cards)
        allowed = allowed_first_players(state)
        first = rng.choice(allowed) if len(allowed) > 1 or rng.random() < 0.5 else None
        if state.ruleset.name != ONLINE:
            return StartRound(tuple(cards), first)
        leader = first if first is not None else rng.choice(allowed)
        return StartRound(tuple(cards), first, _stacked_order(rng, leader, present(state)))
    if state.decision is Decision.PLAY and rng.random() < 0.8:
        card = rng.choice(ll.playable_cards(state))
        return rng.choice(ll.legal_commands(state, card))
    return rng.choice(ll.legal_commands(state))


# --------------------------------------------------------------------------
# the adapter's answer


@dataclass
class Disagreement:
    game: Game
    #: the first step that differs (-1: the start, or the whole reply)
    step: int
    expected: JSON
    actual: JSON


def compare(game: Game, reply: dict[str, JSON]) -> Disagreement | None:
    """The first step where the adapter's reply differs from the game."""
    if reply.get("type") != "result" or "start_rejected" in reply:
        return Disagreement(game, -1, "a result", reply)
    if not same(game.start_events, without_seed(reply["start_events"])):
        return Disagreement(game, -1, game.start_events, reply["start_events"])
    for index, (mine, theirs) in enumerate(zip(game.expected, reply["steps"], strict=True)):
        if not same(mine, theirs):
            return Disagreement(game, index, mine, theirs)
    return None


def game_seed(run_seed: int, ruleset: str, index: int) -> int:
    digest = hashlib.blake2b(
        f"differential/{run_seed}/{ruleset}/{index}".encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big")


def reproducer(game: Game) -> str:
    return (
        f"python verification/differential.py --ruleset {game.ruleset}"
        f" --players {game.players} --game-seed {game.game_seed}"
    )


def _short(value: JSON, limit: int = 300) -> str:
    text = canonical(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def excerpts(expected: JSON, actual: JSON, before: int = 120, after: int = 280) -> tuple[str, str]:
    """Both sides around the first character where their JSON differs."""
    mine, theirs = canonical(expected), canonical(actual)
    at = next(
        (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
        min(len(mine), len(theirs)),
    )
    start = max(0, at - before)

    def cut(text: str) -> str:
        return (
            ("..." if start else "")
            + text[start : at + after]
            + ("..." if len(text) > at + after else "")
        )

    return cut(mine), cut(theirs)


def describe(disagreement: Disagreement) -> list[str]:
    game = disagreement.game
    where = "the start" if disagreement.step < 0 else f"step {disagreement.step}"
    script = dict(game.script)
    if disagreement.step >= 0:
        script["steps"] = game.script["steps"][: disagreement.step + 1]
        where += f" ({_short(game.script['steps'][disagreement.step])})"
    mine, theirs = excerpts(disagreement.expected, disagreement.actual)
    return [
        f"  DISAGREEMENT {game.ruleset} players {game.players} game-seed {game.game_seed}"
        f" at {where}",
        f"    in process: {mine}",
        f"    adapter:    {theirs}",
        f"    reproduce:  {reproducer(game)}",
        f"    script:     {json.dumps(script, separators=(',', ':'))}",
    ]


class Adapter:
    """One long-lived adapter process, restarted only if it breaks."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.process = Process(command, timeout=300)
        self.started = 1

    def run(self, script: dict[str, JSON]) -> dict[str, JSON]:
        try:
            return self.process.run(script)
        except ProtocolError as error:
            self.process.close(graceful=False)
            self.process = Process(self.command, timeout=300)
            self.started += 1
            return {"type": "protocol-error", "message": str(error)}

    def close(self) -> None:
        self.process.close()


@dataclass
class Tally:
    games: int = 0
    commands: int = 0
    steps: int = 0
    agreements: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)


def run_ruleset(
    adapter: Adapter,
    ruleset: str,
    games: int,
    run_seed: int,
    players: int | None,
    fail_fast: bool,
) -> Tally:
    """Play the games here and through the adapter, the next game built
    while the adapter answers the last one."""
    counts = PLAYER_COUNTS[ruleset]
    tally = Tally()

    def build(index: int) -> Game:
        n = players if players is not None else counts[index % len(counts)]
        return play_in_process(ruleset, n, game_seed(run_seed, ruleset, index))

    with ThreadPoolExecutor(max_workers=1) as pool:
        pending: tuple[Game, Future[dict[str, JSON]]] | None = None
        for index in range(games + 1):
            game = build(index) if index < games else None
            if pending is not None:
                previous, answer = pending
                if settle(tally, previous, answer.result()) and fail_fast:
                    break
            pending = None if game is None else (game, pool.submit(adapter.run, game.script))
    return tally


def settle(tally: Tally, game: Game, reply: dict[str, JSON]) -> bool:
    """Count one game; whether it disagreed."""
    tally.games += 1
    tally.commands += game.commands
    tally.steps += len(game.expected)
    disagreement = compare(game, reply)
    if disagreement is None:
        tally.agreements += 1
        return False
    tally.disagreements.append(disagreement)
    return True


def report(ruleset: str, tally: Tally, wall: float) -> list[str]:
    lines = [
        f"== {ruleset} ==",
        f"  games          {tally.games}",
        f"  commands       {tally.commands}  (legal and illegal, each compared)",
        f"  steps          {tally.steps}  (commands and observations)",
        f"  agreements     {tally.agreements}",
        f"  disagreements  {len(tally.disagreements)}",
        f"  wall           {wall:.1f} s  ({tally.games / wall if wall else 0:.1f} games/s)",
    ]
    for disagreement in tally.disagreements[:5]:
        lines += describe(disagreement)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per ruleset")
    parser.add_argument("--rulesets", "--ruleset", default=",".join(RULESETS))
    parser.add_argument("--seed", type=int, default=0, help="the run's seed")
    parser.add_argument("--players", type=int, help="play every game at this player count")
    parser.add_argument(
        "--game-seed", type=int, help="play this one game (with --ruleset, --players)"
    )
    parser.add_argument("--adapter", default=ADAPTER, help="the adapter command")
    parser.add_argument("--fail-fast", action="store_true", help="stop at the first disagreement")
    args = parser.parse_args(argv)
    rulesets = [r.strip() for r in args.rulesets.split(",") if r.strip()]
    for name in rulesets:
        if name not in RULESETS:
            parser.error(f"unknown ruleset {name!r}; expected {', '.join(RULESETS)}")
        if args.players is not None and args.players not in PLAYER_COUNTS[name]:
            parser.error(f"{name} is for {PLAYER_COUNTS[name]} players, not {args.players}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.game_seed is not None and (len(rulesets) != 1 or args.players is None):
        parser.error("--game-seed needs one --ruleset and --players")
    adapter = Adapter(args.adapter)
    failed = False
    try:
        if args.game_seed is not None:
            started = time.perf_counter()
            game = play_in_process(rulesets[0], args.players, args.game_seed)
            tally = Tally()
            settle(tally, game, adapter.run(game.script))
            print("\n".join(report(rulesets[0], tally, time.perf_counter() - started)))
            return 1 if tally.disagreements else 0
        print(
            f"differential: {args.games} games per ruleset, run seed {args.seed}, adapter"
            f" {args.adapter!r} (one process). Every step compared: events, refusals,"
            " state, legal commands; now and then a view and a player's events.",
            flush=True,
        )
        for name in rulesets:
            started = time.perf_counter()
            tally = run_ruleset(adapter, name, args.games, args.seed, args.players, args.fail_fast)
            wall = time.perf_counter() - started
            print("\n".join(report(name, tally, wall)), flush=True)
            failed = failed or bool(tally.disagreements)
            if failed and args.fail_fast:
                break
        if adapter.started > 1:
            print(f"the adapter broke and was restarted {adapter.started - 1} times")
            failed = True
    finally:
        adapter.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
