"""Rule-based state machines that play games through the public API: one
per edition and player count, each a test of its own named after them
(``TestStateful_premium_5``), so that a failure says which game broke.

One rule, ``play_a_command``, always enabled: three times in four one of
``legal_commands`` during a round, the next deal between rounds (the
default shuffle or a stacked deck, the default first player or one the
rules allow, tie-break rounds included) and a new game once one is over
(half the time a Guard or a Bishop could name what its target holds, one
such play: knock-outs and Premium's token wins come sooner); otherwise a
random command, usually one ``legal_commands`` does not list (wrong
players, seats, cards, names, decks; legal commands with one field
changed), accepted exactly when the rules allow it. (With two rules,
Hypothesis's swarm testing switches one off for whole examples, and
examples of random commands alone barely get past the first turns.)

Each game starts from its first deal, or from an endgame or a Premium
tie-break round (:func:`.strategies.game_setups`). After every command the
machine checks, besides the per-step checks of :class:`.strategies.GameRun`
(each card's effect, tokens, sightings, views, redaction):

* every card is in exactly one zone; hand sizes (:func:`.strategies.check_state`);
* exactly one player may act: anyone else giving a listed command is
  refused as ``not-your-turn`` (:func:`.strategies.check_one_actor`);
* protection starts with a Handmaid and ends when its owner's turn begins
  or the round ends, no earlier, no later (:func:`.strategies.check_protection_timing`);
* tokens never decrease from one state to the next, across rounds too;
  only a new game starts them afresh;
* a round ends exactly when its conditions hold (:func:`.strategies.check_round_end_timing`);
* a refusal is an ``IllegalCommand`` of a kind on the closed list that the
  rules give, and leaves the state equal, with the same hash and the same
  legal commands (:func:`.strategies.check_refusal`);
* ``replay`` of the log and a JSON round trip give the state back;
* every command ``legal_commands`` lists is accepted by ``decide`` (all of
  them, on the same immutable state), it lists exactly what the rules
  allow (:func:`.strategies.check_legal_commands`), and the random commands
  it does not list are refused.

The online machines (``TestStateful_online_<count>`` for 3, 4, 5 and 8
players; each game draws its number of decks, 1 to 3, and its settings)
add two rules: ``time_out``, the host's clock running out (a ``TimeOut``
for the player to act, whose move the oracle draws again from the seed; a
deal between rounds, as when the intermission ends), and ``leave``, a player
leaving the match, at most once per few dozen commands (sooner, a
``Leave`` the rules refuse: a seat that left, or no seat). A match never
ends by itself, so a game lasts until its players have left.

``--hypothesis-show-statistics`` also prints, per machine, how many
examples, steps, games, rounds and commands it ran. The tests at the end
run a machine on engines broken on purpose, one property at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, cast
from unittest import mock

import attrs
import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

import loveletter as ll
from loveletter import (
    Decision,
    GameState,
    RejectionKind,
    consequences,
    deciding,
    evolution,
    fastpath,
)
from loveletter.commands import Command, Leave, PlayCard, StartRound, TimeOut
from loveletter.events import (
    CardDrawn,
    Event,
    GameTied,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TurnStarted,
)

from . import strategies
from .strategies import (
    ONLINE,
    PLAYER_COUNTS,
    REJECTION_KINDS,
    RULESET_NAMES,
    Checks,
    GameRun,
    allowed_first_players,
    check_one_actor,
    check_protection_timing,
    check_refusal,
    check_round_end_timing,
    decks_of,
    full_deck,
    game_setups,
    is_listed,
    names_the_target,
    random_commands,
    scaled_examples,
)

#: per step: the state, the views, the redaction of new events; the replay
#: and the JSON round trip of the state are invariants of their own below
_CHECKS = Checks(
    views=True, json=False, replay=False, indistinguishable_views=False, exhaustive_legal=False
)


@attrs.define
class Tally:
    """What one machine ran, summed over its examples (for the report)."""

    examples: int = 0
    steps: int = 0
    games: int = 0
    games_over: int = 0
    #: Premium: games won by a token in the middle of a round (game.immediate-win)
    won_mid_round: int = 0
    rounds_ended: int = 0
    accepted: int = 0
    refused: int = 0
    #: commands legal_commands listed, each given to decide (all accepted)
    listed_decided: int = 0
    #: online: players who left, and time-outs answered with a random move
    left: int = 0
    timed_out: int = 0

    def line(self) -> str:
        return ", ".join(
            f"{f.name.replace('_', ' ')} {getattr(self, f.name)}" for f in attrs.fields(Tally)
        )


class StatefulGames(RuleBasedStateMachine):
    """Games of one edition and player count, checked after every rule."""

    ruleset: ClassVar[str]
    players: ClassVar[int]
    tally: ClassVar[Tally]

    def __init__(self) -> None:
        super().__init__()
        self._run: GameRun | None = None
        self._runs: list[GameRun] = []
        #: the tokens at the previous check, ``None`` when a game has just begun
        self._last_tokens: tuple[int, ...] | None = None
        #: per invariant, the last state it passed on
        self._checked: dict[str, GameState] = {}

    @property
    def run(self) -> GameRun:
        assert self._run is not None
        return self._run

    def _start_game(self, data: st.DataObject) -> None:
        setup = data.draw(game_setups(self.ruleset, self.players), label="game")
        self._run = GameRun(setup, _CHECKS)
        self._runs.append(self._run)
        self._last_tokens = None  # only a new game may start from other tokens

    def _attempt(self, command: Command) -> ll.IllegalCommand | None:
        """``GameRun.attempt``, then the timing of protection and round
        ends, or the refusal's checks."""
        run = self.run
        before = run.state
        logged = len(run.events)
        hash_before = hash(before)
        legal_before = ll.legal_commands(before)
        error = run.attempt(command)
        if error is not None:
            assert run.state is before
            check_refusal(
                error, command, before, hash_before=hash_before, legal_before=legal_before
            )
            assert not is_listed(command, legal_before), f"listed {command} refused"
            event(f"refused: {error.kind.value}")
            return error
        events = tuple(run.events[logged:])
        after = run.state
        check_protection_timing(before, command, events, after)
        check_round_end_timing(before, command, events, after)
        for happened in events:
            if isinstance(happened, RoundEnded):
                event(f"round ended: {happened.reason.name.lower().replace('_', ' ')}")
            elif isinstance(happened, GameTied):
                event("game tied: tie-break round")
        if after.is_over and after.ruleset.name == ONLINE:
            event("match closed: fewer than two players present")
        elif after.is_over:
            mid_round = not any(isinstance(e, RoundEnded) for e in events)
            self.tally.won_mid_round += mid_round
            event("game won mid-round" if mid_round else "game won at a round's end")
        return None

    @initialize(data=st.data())
    def start_first_game(self, data: st.DataObject) -> None:
        self._start_game(data)

    @rule(data=st.data())
    def play_a_command(self, data: st.DataObject) -> None:
        self.tally.steps += 1
        state = self.run.state
        if state.is_over:
            self.run.check_finished()
            self._start_game(data)
            return
        # Legal and random commands mixed in every example, three in four
        # listed (two rules would be switched off whole examples at a time
        # by Hypothesis's swarm testing); shrinks towards the listed ones.
        if data.draw(st.integers(min_value=0, max_value=3), label="random (3) or listed") == 3:
            # accepted when the rules allow it (GameRun.attempt checks which), else refused
            self._attempt(data.draw(random_commands(state), label="random command"))
            return
        if state.decision is Decision.NEXT_ROUND:
            command: Command = self._next_deal(data, state)
        else:
            legal = ll.legal_commands(state)
            assert legal, "a round in progress always offers a command"
            # Guesses that hit, half the time they are offered: knock-outs,
            # Constable tokens and Bishop tokens (Premium's wins in the
            # middle of a round) come much sooner than from uniform picks
            hits = tuple(c for c in legal if names_the_target(state, c))
            hit: bool = bool(hits) and data.draw(st.booleans(), label="a guess that hits")
            if hit:
                legal = hits
            command = data.draw(st.sampled_from(legal), label="listed command")
        error = self._attempt(command)
        assert error is None, f"{command} refused: {error}"

    def _next_deal(self, data: st.DataObject, state: GameState) -> StartRound:
        """The default shuffle or a stacked deck; the default first player
        or one the rules allow."""
        cards = sorted(full_deck(self.ruleset, self.players, decks_of(state)).elements())
        deck = data.draw(st.none() | st.permutations(cards).map(tuple), label="stacked deck")
        first = data.draw(
            st.none() | st.sampled_from(allowed_first_players(state)), label="first player"
        )
        return StartRound(deck, first)

    def _unchecked(self, invariant: str) -> GameState | None:
        """The state, unless ``invariant`` already passed on this very
        object (a refusal leaves the same state, whose equality and hash
        :func:`.strategies.check_refusal` checks)."""
        state = self.run.state
        if self._checked.get(invariant) is state:
            return None
        self._checked[invariant] = state
        return state

    @invariant()
    def checks_after_every_command(self) -> None:
        # the cheapest first; the replay, which decides every command again, last
        self.tokens_never_decrease()
        self.state_follows_the_rules()
        self.log_and_json_give_the_state_back()

    def state_follows_the_rules(self) -> None:
        state = self._unchecked("rules")
        if state is None:
            return
        hash_before = hash(state)
        legal = ll.legal_commands(state)
        # check_now also gives decide every listed command on this same
        # state, and check_one_actor each of them from the wrong player
        self.run.check_now()
        check_one_actor(state)
        self.tally.listed_decided += len(legal)
        assert hash(state) == hash_before, "deciding commands on the state changed it"
        assert ll.legal_commands(state) == legal, "deciding commands changed legal_commands"
        ll.check_state(state)

    def tokens_never_decrease(self) -> None:
        # game.tokens-to-win: tokens are only ever won, across rounds too
        tokens = self.run.state.tokens
        last = self._last_tokens
        if last is not None:
            assert all(now >= then for now, then in zip(tokens, last, strict=True)), (
                f"tokens went from {last} to {tokens}"
            )
        self._last_tokens = tokens

    def log_and_json_give_the_state_back(self) -> None:
        state = self._unchecked("replay")
        if state is None:
            return
        assert ll.replay(self.run.events) == state, "replaying the log gives another state"
        back = ll.loads(ll.dumps(state), GameState)
        assert back == state, f"the state came back from JSON as {back}"
        assert hash(back) == hash(state)

    def teardown(self) -> None:
        tally = self.tally
        tally.examples += 1
        tally.games += len(self._runs)
        for run in self._runs:
            tally.games_over += run.state.is_over
            tally.rounds_ended += sum(isinstance(e, RoundEnded) for e in run.events)
            tally.accepted += run.accepted
            tally.refused += run.rejected
        event(f"games in one example: {len(self._runs)}")


#: accepted commands between two players leaving an online match
_BETWEEN_LEAVES = 20


class OnlineGames(StatefulGames):
    """Online matches of one table size, with the host's time-outs and
    players leaving as rules of their own."""

    def _start_game(self, data: st.DataObject) -> None:
        super()._start_game(data)
        self._since_leave = 0

    def _attempt(self, command: Command) -> ll.IllegalCommand | None:
        error = super()._attempt(command)
        if error is None:
            leaving = isinstance(command, Leave)
            self._since_leave = 0 if leaving else self._since_leave + 1
            self.tally.left += leaving
            self.tally.timed_out += isinstance(command, TimeOut)
        return error

    def _next_deal(self, data: st.DataObject, state: GameState) -> StartRound:
        """Online, half the time a stacked turn order too: the players
        present in any order that starts with one allowed to start
        (setup.turn-order-online)."""
        deal = super()._next_deal(data, state)
        if not data.draw(st.booleans(), label="stacked order"):
            return deal
        present = [p for p in range(self.players) if p not in state.table.left]
        order = list(data.draw(st.permutations(present), label="order"))
        first = deal.first_player
        if first is None:
            first = data.draw(st.sampled_from(allowed_first_players(state)), label="order's first")
        at = order.index(first)
        order[0], order[at] = order[at], order[0]
        return StartRound(deal.deck, deal.first_player, tuple(order))

    def _new_game_if_over(self, data: st.DataObject) -> bool:
        if not self.run.state.is_over:
            return False
        self.run.check_finished()
        self._start_game(data)
        return True

    @rule(data=st.data())
    def time_out(self, data: st.DataObject) -> None:
        """The host's clock runs out: a ``TimeOut`` for the player to act
        (online.timeout-random-move; refused at a table without random
        moves), now and then for another seat; between rounds, the
        intermission ends and the host deals."""
        self.tally.steps += 1
        if self._new_game_if_over(data):
            return
        state = self.run.state
        if state.to_act is None:
            error = self._attempt(StartRound())
            assert error is None, f"the next deal refused: {error}"
            return
        seat = state.to_act
        if data.draw(st.integers(min_value=0, max_value=7), label="another seat (7)") == 7:
            seat = data.draw(st.integers(min_value=-1, max_value=self.players), label="seat")
        self._attempt(TimeOut(seat))

    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        """A player present leaves the match (online.leave-any-time); within
        ``_BETWEEN_LEAVES`` commands of the last one, a ``Leave`` the rules
        refuse instead (a seat that has left, or no seat) or, three times
        in four, the ordinary next command."""
        if self._since_leave < _BETWEEN_LEAVES and data.draw(
            st.integers(min_value=0, max_value=3), label="too soon: refused leaver (3)"
        ):
            self.play_a_command(data)
            return
        self.tally.steps += 1
        if self._new_game_if_over(data):
            return
        state = self.run.state
        left = sorted(state.table.left)
        if self._since_leave < _BETWEEN_LEAVES:
            seats = left or [-1, self.players]
            seat = data.draw(st.sampled_from(seats), label="refused leaver")
            assert self._attempt(Leave(seat)) is not None, f"Leave({seat}) accepted"
            return
        present = [p for p in range(self.players) if p not in state.table.left]
        seat = data.draw(st.sampled_from(present), label="leaver")
        error = self._attempt(Leave(seat))
        assert error is None, f"Leave({seat}) refused: {error}"


#: every machine, by test name
MACHINES: dict[str, type[StatefulGames]] = {}

#: the share of the profile's examples each machine runs: 15 machines in about
#: a minute and a half on two slow cores (the default profile: 6 each); the
#: 4 online machines 8 each, in about 15 seconds
_SHARE = 0.06
_ONLINE_SHARE = 0.08
_STEPS = 150


def games_of(ruleset: str, players: int, name: str, **attributes: object) -> type[StatefulGames]:
    """A machine that plays games of ``ruleset`` for ``players`` only."""
    namespace = {"ruleset": ruleset, "players": players, "tally": Tally(), **attributes}
    base = OnlineGames if ruleset == ONLINE else StatefulGames
    return cast(type[StatefulGames], type(name, (base,), namespace))


#: online table sizes with a machine of their own: the two standard-deck
#: sizes and both ends of the Extended deck's (the random games play every size)
ONLINE_MACHINE_COUNTS = (3, 4, 5, 8)


def _define_machines() -> None:
    counts_of = {name: PLAYER_COUNTS[name] for name in RULESET_NAMES}
    counts_of[ONLINE] = ONLINE_MACHINE_COUNTS
    for ruleset, counts in counts_of.items():
        for players in counts:
            name = f"TestStateful_{ruleset.replace('-', '_')}_{players}"
            machine = games_of(
                ruleset, players, f"StatefulGames_{ruleset.replace('-', '_')}_{players}"
            )
            case = machine.TestCase
            case.settings = settings(
                max_examples=scaled_examples(_ONLINE_SHARE if ruleset == ONLINE else _SHARE),
                stateful_step_count=_STEPS,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
            )
            case.__name__ = case.__qualname__ = name
            globals()[name] = case
            MACHINES[name] = machine


_define_machines()


def test_a_machine_for_every_ruleset_and_player_count() -> None:
    # the engine's rulesets, not the spec's table the machines are built from
    expected = {
        (name, n)
        for name, ruleset in ll.RULESETS.items()
        for n in range(0, 10)
        if ruleset.supports(n) and (name != ONLINE or n in ONLINE_MACHINE_COUNTS)
    }
    built = {(m.ruleset, m.players) for m in MACHINES.values()}
    assert built == expected
    assert all(ll.get_ruleset(ONLINE).supports(n) for n in ONLINE_MACHINE_COUNTS)


@pytest.fixture(scope="module", autouse=True)
def _report_tallies(request: pytest.FixtureRequest) -> Iterator[None]:
    """With ``--hypothesis-show-statistics``, what each machine ran."""
    yield
    config = request.config
    if not config.getoption("hypothesis_show_statistics", default=False):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        return
    # fixture teardown output is captured; the report is for the terminal
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        reporter.write_line("stateful machines, summed over each one's examples:")
        for name, machine in MACHINES.items():
            if machine.tally.examples:
                reporter.write_line(f"  {name}: {machine.tally.line()}")


# --------------------------------------------------------------------------
# the machine can fail: each engine below is broken on purpose, in one place


def _broken_engine_is_caught(match: str, ruleset: str = "2019", players: int = 2) -> None:
    """A few short games on the (patched) engine fail with ``match``.
    Generation only, no shrinking: the first failure is enough."""

    def __init__(self: StatefulGames) -> None:
        # a broken cache must not carry one example's corruption into the
        # next (Hypothesis would call the test flaky)
        fastpath.forget()
        StatefulGames.__init__(self)

    machine = games_of(ruleset, players, "BrokenEngineGames", __init__=__init__)
    quick = settings(
        max_examples=10,
        stateful_step_count=80,
        phases=[Phase.generate],
        derandomize=True,
        database=None,
        deadline=None,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    # evolve's own checks refuse many a broken engine's events as well; these
    # tests are of the rules' oracle, so the folds apply the events unchecked
    with (
        mock.patch.object(ll, "evolve", evolution.evolve_unchecked),
        mock.patch.object(strategies, "apply_events", evolution.apply_unchecked),
        pytest.raises(AssertionError, match=match),
    ):
        run_state_machine_as_test(machine, settings=quick)


def test_caught_protection_outliving_its_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """``evolve`` forgets to lift a Handmaid's protection when her player's
    turn begins (every path: the fast path is switched off)."""

    def turn_started_keeping_protection(d: Any, e: TurnStarted) -> None:
        d.current = e.player
        d.decision = Decision.DRAW
        d.turn_number += 1

    monkeypatch.setattr(fastpath, "push", lambda state, command: None)
    monkeypatch.setattr(fastpath, "step", lambda state, command: None)
    monkeypatch.setitem(evolution._APPLIERS, TurnStarted, turn_started_keeping_protection)
    _broken_engine_is_caught(r"protected \{\d\}, the rules give set\(\)")


def test_caught_legal_commands_dropping_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``legal_commands`` leaves out the last play of each card that has
    several (``decide`` still accepts it)."""
    listing = fastpath._play_commands

    def dropping_the_last(*args: Any) -> tuple[PlayCard, ...]:
        commands = listing(*args)
        return commands[:-1] if len(commands) > 1 else commands

    monkeypatch.setattr(fastpath, "LEGAL_PLAYS", {})
    monkeypatch.setattr(fastpath, "_play_commands", dropping_the_last)
    _broken_engine_is_caught(r"allowed but not listed: frozenset\(\{PlayCard")


def test_caught_a_refusal_corrupting_a_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused command leaves the state alone but corrupts the cache
    ``legal_commands`` reads for it."""
    deciding = ll.decide

    def corrupting_decide(state: GameState, command: Command) -> tuple[Event, ...]:
        try:
            return deciding(state, command)
        except ll.IllegalCommand:
            if state.decision is Decision.PLAY:
                listed = ll.legal_commands(state)
                for key, cached in fastpath.LEGAL_PLAYS.items():
                    if cached is listed and len(listed) > 1:
                        fastpath.LEGAL_PLAYS[key] = listed[1:]
            raise

    monkeypatch.setattr(fastpath, "LEGAL_PLAYS", {})
    monkeypatch.setattr(ll, "decide", corrupting_decide)
    _broken_engine_is_caught("changed legal_commands")


def test_caught_a_refusal_changing_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused command changes the frozen state it was given in place."""
    deciding = ll.decide

    def mutating_decide(state: GameState, command: Command) -> tuple[Event, ...]:
        try:
            return deciding(state, command)
        except ll.IllegalCommand:
            object.__setattr__(state, "turn_number", state.turn_number + 1)
            raise

    monkeypatch.setattr(ll, "decide", mutating_decide)
    _broken_engine_is_caught("deciding commands on the state changed it")


def test_caught_a_round_going_on_past_an_empty_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the end of a turn with an empty deck, the next turn starts with
    the set-aside card instead of the round ending (the reference path: the
    fast path is switched off)."""
    finishing = consequences.finish_turn

    def one_turn_too_many(state: GameState) -> tuple[tuple[Event, ...], GameState]:
        live = state.live_players()
        if state.deck or len(live) < 2 or state.set_aside is None:
            return finishing(state)
        player = min((p for p in live if p > state.current), default=live[0])
        events = (TurnStarted(player), CardDrawn(player, state.set_aside, True))
        return events, evolution.apply_unchecked(state, events)

    monkeypatch.setattr(fastpath, "push", lambda state, command: None)
    monkeypatch.setattr(fastpath, "step", lambda state, command: None)
    monkeypatch.setattr(deciding, "finish_turn", one_turn_too_many)
    _broken_engine_is_caught(
        "the deck was empty at the end of the turn and the round went on", players=6
    )


def test_caught_a_round_ending_in_the_middle_of_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The round ends as soon as the deck is empty, even while the turn
    waits for a Chancellor's player to keep a card (round.end-deck-empty:
    only at the end of the turn)."""
    settling = consequences.settle

    def settled_ending_early(
        state: GameState, events: tuple[Event, ...]
    ) -> tuple[tuple[Event, ...], GameState]:
        events, state = settling(state, events)
        live = state.players - len(state.out)
        if state.decision is Decision.CHANCELLOR and not state.deck and live > 1:
            ended, state = consequences.end_round(state, RoundEndReason.DECK_EMPTY, ())
            events += ended
        return events, state

    monkeypatch.setattr(fastpath, "push", lambda state, command: None)
    monkeypatch.setattr(fastpath, "step", lambda state, command: None)
    monkeypatch.setattr(deciding, "settle", settled_ending_early)
    _broken_engine_is_caught("the round ended in the middle of the turn", players=6)


@pytest.mark.parametrize(
    ("transition_checks", "message"),
    [(True, "tokens fell"), (False, "tokens went from")],
    ids=["transition-check", "invariant"],
)
def test_caught_tokens_lost_at_a_new_round(
    monkeypatch: pytest.MonkeyPatch, transition_checks: bool, message: str
) -> None:
    """Dealing a new round takes a token back from the leader (on every
    path: the dealing shortcut and the events' evolution agree). Caught by
    the per-command transition check, and without it by the machine's own
    invariant."""
    if not transition_checks:
        monkeypatch.setattr(strategies, "check_transition", lambda *args: None)
    dealing = fastpath.deal
    evolving = evolution._APPLIERS[RoundStarted]

    def taken_back(tokens: tuple[int, ...]) -> tuple[int, ...]:
        leader = tokens.index(max(tokens))
        return tuple(t - (p == leader and t > 0) for p, t in enumerate(tokens))

    def dealt_taking_a_token(state: GameState, *deal: Any) -> GameState:
        dealt = dealing(state, *deal)
        table = attrs.evolve(dealt.table, tokens=taken_back(dealt.tokens))
        return attrs.evolve(dealt, table=table)

    def started_taking_a_token(d: Any, e: RoundStarted) -> None:
        evolving(d, e)
        table = evolution.table_of(d)
        table.tokens = taken_back(table.tokens)

    monkeypatch.setattr(fastpath, "deal", dealt_taking_a_token)
    monkeypatch.setitem(evolution._APPLIERS, RoundStarted, started_taking_a_token)
    _broken_engine_is_caught(message)


def test_caught_a_json_round_trip_losing_sightings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a state back from JSON forgets what the Priests showed."""
    loading = ll.loads

    def loads_forgetting(text: str, kind: Any = None) -> Any:
        value = loading(text, kind)
        return attrs.evolve(value, sightings=()) if isinstance(value, GameState) else value

    monkeypatch.setattr(ll, "loads", loads_forgetting)
    _broken_engine_is_caught("the state came back from JSON as")


def test_caught_a_replay_dropping_protection(monkeypatch: pytest.MonkeyPatch) -> None:
    """``replay`` skips the Handmaid's protection events."""

    def replay_without_protection(events: Iterable[Event]) -> GameState:
        return strategies.fold([e for e in events if not isinstance(e, PlayerProtected)])

    monkeypatch.setattr(ll, "replay", replay_without_protection)
    _broken_engine_is_caught("replaying the log gives another state")


def test_caught_a_refusal_for_the_wrong_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every refusal is reported as a malformed command, whatever its cause."""
    deciding = ll.decide

    def misreporting_decide(state: GameState, command: Command) -> tuple[Event, ...]:
        try:
            return deciding(state, command)
        except ll.IllegalCommand as error:
            raise ll.IllegalCommand(RejectionKind.MALFORMED_COMMAND, error.detail) from None

    monkeypatch.setattr(ll, "decide", misreporting_decide)
    _broken_engine_is_caught("malformed-command")


def test_rejection_kinds_are_the_documented_closed_list() -> None:
    assert {kind.value for kind in RejectionKind} == REJECTION_KINDS


def test_caught_a_second_player_acting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A listed command given by the wrong player is taken as the right
    player's."""
    deciding = ll.decide

    def lenient_decide(state: GameState, command: Command) -> tuple[Event, ...]:
        actor = state.to_act
        if actor is not None and getattr(command, "player", actor) != actor:
            command = attrs.evolve(cast(Any, command), player=actor)
        return deciding(state, command)

    monkeypatch.setattr(ll, "decide", lenient_decide)
    _broken_engine_is_caught("accepted from a player who is not to act")
