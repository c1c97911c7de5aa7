"""Random whole games, checked after every step.

Hypothesis draws the ruleset's player count, the seed and the first player,
then at every step either one of ``legal_commands`` (by index, four times in
five) or a random ``PlayCard``/``KeepCard``/``DrawCard``/``StartRound`` with
random fields (wrong players, seats out of range, cards not held or not in
the edition, Guards naming the Guard, self-targets, bad Chancellor returns,
stacked decks, first players who did not win). After every step the helpers
in :mod:`.strategies` check:

* cards are conserved: ``card_count()`` is the deck size and the multiset
  of every zone is the ruleset's deck;
* players out of the round hold nothing; players in it hold one card, two
  for the current player deciding what to play, two or three during a
  Chancellor;
* exactly one player (the current one, in the round) acts while a round is
  played, none between rounds or after the game;
* a command is accepted exactly when the rules allow it: every listed
  command is accepted; a random command is accepted iff it is listed, except
  ``StartRound`` with a valid stacked deck and/or a first player among the
  tied winners, which the engine accepts though ``legal_commands`` lists
  only ``StartRound()`` (documented there); a rejection's kind is one of the
  reasons the rules give, and the state is left identical (``==``, same
  JSON, still equal to a deep copy taken before);
* ``replay`` of the whole log equals the state; folding ``evolve`` over a
  step's events equals ``push``; states, events and commands survive JSON;
* tokens never decrease; the round winners, the Spy token and the end of
  the game follow the rules;
* protected players are in the round and never the player to act;
* no player's view or event stream shows what the rules hide from them,
  and a view does not change when the cards hidden from its player move.

Two tests share the loop. The first runs every check after every step and
draws every choice from Hypothesis (best shrinking, readable failures). The
second plays many more games: it draws one byte string per game for the
choices and runs the costly checks (whole-log replay and JSON, views,
redaction, exhaustive command enumeration) once per game instead of once
per step. With the default profile the two tests play about 2,560 whole
games, 2,500 of them in the second test (the ``thorough`` profile ten times
as many), and the state machine of ``test_stateful.py`` adds some more;
that takes about two minutes on two slow cores with these checks.
"""

from __future__ import annotations

import subprocess
import sys

import attrs
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import Card
from loveletter.commands import Command, PlayCard, StartRound

from .strategies import (
    ALL_CHECKS,
    CORE_CHECKS,
    MAX_STEPS,
    RULESET_NAMES,
    ByteChoices,
    Checks,
    Choices,
    GameRun,
    GameSetup,
    check_state,
    choose_next_command,
    choose_random_command,
    game_setups,
    next_commands,
    random_commands,
    scaled_examples,
)

#: the spec rules these properties check at every step or at every round end
CHECKED_RULES = (
    "setup.deck-2019",
    "setup.deck-classic",
    "setup.set-aside-face-down",
    "setup.two-player-face-up",
    "setup.deal-one-each",
    "setup.first-player",
    "turn.order",
    "turn.draw-then-play",
    "targeting.other-player",
    "out.untargetable",
    "out.discard-hand",
    "guard.name-non-guard",
    "prince.any-player",
    "countess.forced-by-king-or-prince",
    "chancellor.return-bottom-any-order",
    "handmaid.protection-until-next-turn",
    "round.end-deck-empty",
    "round.end-one-player-left",
    "round.highest-card-wins",
    "round.tie-all-win",
    "round.winner-token",
    "round.next-first-player",
    "round.new-round-setup",
    "spy.sole-spy-token",
    "spy.one-token-max",
    "spy.not-a-round-win",
    "game.tokens-to-win",
    "game.simultaneous-winners",
)
_LONG_GAMES = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
#: bytes of choices drawn per game in the many-games test (a game uses a few
#: hundred; past the end every choice is the first legal command)
_CHOICE_BYTES = 1024


def play_game(setup: GameSetup, checks: Checks, next_command: CommandSource) -> GameRun:
    run = GameRun(setup, checks)
    try:
        run.check_now()
        for _ in range(MAX_STEPS):
            if run.state.is_over:
                break
            run.attempt(next_command(run.state, False))
            run.check_now()
        else:
            raise AssertionError(f"the game did not end within {MAX_STEPS} commands")
        # after the game every command is refused, with GAME_OVER
        for _ in range(3):
            error = run.attempt(next_command(run.state, True))
            assert error is not None and error.kind is ll.RejectionKind.GAME_OVER
        run.check_finished()
    except BaseException:
        note(run.describe())
        raise
    return run


class CommandSource:
    """The next command of a game: ``(state, after_the_end) -> command``."""

    def __init__(self, choices: Choices | None = None, data: st.DataObject | None = None):
        self._choices = choices
        self._data = data

    def __call__(self, state: ll.GameState, after_the_end: bool) -> ll.Command:
        if self._data is not None:
            strategy = random_commands(state) if after_the_end else next_commands(state)
            return self._data.draw(strategy, label="command")
        assert self._choices is not None
        if after_the_end:
            return choose_random_command(self._choices, state)
        return choose_next_command(self._choices, state)


@pytest.mark.rule(*CHECKED_RULES)
@pytest.mark.parametrize("ruleset", RULESET_NAMES)
@settings(max_examples=scaled_examples(0.3), suppress_health_check=_LONG_GAMES)
@given(data=st.data())
def test_random_games_keep_every_invariant_after_every_step(
    ruleset: str, data: st.DataObject
) -> None:
    """Every check after every step, each command drawn by Hypothesis."""
    setup = data.draw(game_setups(ruleset), label="setup")
    play_game(setup, ALL_CHECKS, CommandSource(data=data))


@pytest.mark.rule(*CHECKED_RULES)
@pytest.mark.parametrize("ruleset", RULESET_NAMES)
@settings(max_examples=scaled_examples(12.5), suppress_health_check=_LONG_GAMES)
@given(data=st.data())
def test_many_random_games_conserve_cards_accept_exactly_legal_commands_and_score_rounds(
    ruleset: str, data: st.DataObject
) -> None:
    """The cheap checks after every step, the costly ones once per game."""
    setup = data.draw(game_setups(ruleset), label="setup")
    choices = data.draw(st.binary(min_size=_CHOICE_BYTES, max_size=_CHOICE_BYTES))
    play_game(setup, CORE_CHECKS, CommandSource(choices=ByteChoices(choices)))


# --------------------------------------------------------------------------
# commands whose fields have the wrong type

#: values of the wrong type for a seat, floats equal to a seat included
_NOT_SEATS: tuple[object, ...] = (None, "0", "1", True, False, 0.0, 1.0, 1.5, -0.5, [0], (1,))
_NOT_CARDS: tuple[object, ...] = (None, "Guard", "Princess", 1, 9, 1.0, True, [Card.GUARD])
_NOT_CARD_TUPLES: tuple[object, ...] = ("Guard", None, 3, ("Guard",), (1, 2), (None,))
_WRONG_VALUES: dict[str, tuple[object, ...]] = {
    "player": _NOT_SEATS,
    "target": tuple(v for v in _NOT_SEATS if v is not None),
    "first_player": tuple(v for v in _NOT_SEATS if v is not None),
    "card": _NOT_CARDS,
    "keep": _NOT_CARDS,
    "guess": tuple(v for v in _NOT_CARDS if v is not None),
    "bottom": _NOT_CARD_TUPLES,
    "deck": _NOT_CARD_TUPLES,
}


@st.composite
def states_in_play(draw: st.DrawFn) -> ll.GameState:
    """A state some random legal steps into a random game."""
    setup = draw(game_setups())
    choices = ByteChoices(draw(st.binary(min_size=0, max_size=200)))
    state = ll.new_game(setup.ruleset, setup.players, seed=setup.seed)
    for _ in range(choices.integer(0, 120)):
        legal = ll.legal_commands(state)
        if not legal:
            break
        state = ll.push(state, legal[choices.integer(0, len(legal) - 1)])
    return state


@settings(max_examples=scaled_examples(1.0))
@given(state=states_in_play(), data=st.data())
def test_commands_with_fields_of_the_wrong_type_are_refused_never_crash(
    state: ll.GameState, data: st.DataObject
) -> None:
    """MALFORMED_COMMAND covers "fields of the wrong type": a legal command
    with one field replaced by a value of the wrong type is refused with an
    IllegalCommand (any kind), or, where it equals a legal command (``1.0 ==
    1``), accepted into a state that still follows the rules."""
    legal = ll.legal_commands(state) or (StartRound(), PlayCard(state.current, Card.GUARD))
    base = data.draw(st.sampled_from(legal), label="legal command")
    field = data.draw(st.sampled_from([f.name for f in attrs.fields(type(base))]), label="field")
    value = data.draw(st.sampled_from(_WRONG_VALUES[field]), label="wrong value")
    command = attrs.evolve(base, **{field: value})
    before = ll.dumps(state)
    try:
        after = ll.push(state, command)
    except ll.IllegalCommand as error:
        assert isinstance(error.kind, ll.RejectionKind)
        assert ll.dumps(state) == before
        return
    assert command in legal or isinstance(command, StartRound), f"{command} accepted"
    check_state(after)
    assert ll.loads(ll.dumps(after), ll.GameState) == after


def test_objects_that_are_not_commands_are_refused_as_malformed() -> None:
    state = ll.new_game("2019", 2)
    for thing in ("PlayCard", None, 3, Command(), ll.Card.GUARD):
        with pytest.raises(ll.IllegalCommand) as caught:
            ll.decide(state, thing)  # type: ignore[arg-type]
        assert caught.value.kind is ll.RejectionKind.MALFORMED_COMMAND


# The float-seat probes run in a fresh interpreter: if the bug came back, such a seat could poison
# the engine's process-wide interning caches (see the last regression), which
# would break every later test of the session.
def _run_fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter; its output, or its error's last line."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else done.stderr.strip().splitlines()[-1]


_REFUSAL = """
try:
    ll.decide(state, command)
except ll.IllegalCommand as error:
    print(error.kind.value)
else:
    print("accepted")
"""


def test_regression_play_card_with_a_float_player_is_refused_as_malformed() -> None:
    output = _run_fresh(
        "import loveletter as ll\n"
        "state = ll.new_game('2019', 3, seed=1)\n"
        "assert state.current == 0\n"
        "command = ll.PlayCard(0.0, state.hands[0][0])\n" + _REFUSAL
    )
    assert output.strip() == "malformed-command", output


def test_regression_keep_card_with_a_float_player_is_refused_as_malformed() -> None:
    # 3 players: set aside a Guard; deal Chancellor, Priest, Baron; seat 0
    # draws a Guard and plays the Chancellor
    output = _run_fresh(
        "from collections import Counter\n"
        "import loveletter as ll\n"
        "from loveletter import Card\n"
        "top = [Card.GUARD, Card.CHANCELLOR, Card.PRIEST, Card.BARON, Card.GUARD]\n"
        "rest = Counter(ll.get_ruleset('2019').deck)\n"
        "rest.subtract(top)\n"
        "state = ll.new_game('2019', 3, deck=(*top, *sorted(rest.elements())))\n"
        "state = ll.push(state, ll.PlayCard(0, Card.CHANCELLOR))\n"
        "keep, *bottom = state.hands[0]\n"
        "command = ll.KeepCard(0.0, keep, tuple(bottom))\n" + _REFUSAL
    )
    assert output.strip() == "malformed-command", output


_BETWEEN_ROUNDS = """
import loveletter as ll
from loveletter.commands import StartRound
state = ll.new_game("2019-classic", 2, seed=1)
while not state.round_over:
    state = ll.push(state, ll.legal_commands(state)[0])
assert state.round_result.winners == (1,)
"""


def test_regression_start_round_with_a_float_first_player_is_refused_as_malformed() -> None:
    output = _run_fresh(
        _BETWEEN_ROUNDS
        + "ll.decide(state, StartRound(first_player=1))\n"
        + "try:\n"
        + "    ll.decide(state, StartRound(first_player=1.0))\n"
        + "except ll.IllegalCommand as error:\n"
        + "    print(error.kind.value)\n"
    )
    assert output.strip() == "malformed-command", output


def test_regression_a_malformed_start_round_does_not_break_later_games() -> None:
    output = _run_fresh(
        _BETWEEN_ROUNDS
        + "try:\n"
        + "    ll.decide(state, StartRound(first_player=1.0))\n"
        + "except Exception:\n"
        + "    pass\n"
        + "ll.new_game('2019', 4, seed=0)\n"
        + "ll.decide(state, StartRound())\n"
        + "print('fine')\n"
    )
    assert output.strip() == "fine", output
