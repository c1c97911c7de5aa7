"""Random whole games, checked after every step.

Hypothesis draws the ruleset's player count (Premium: each count from 2 to
8 is a test of its own), the seed and the first player, and one game in
four starts as an endgame (everyone a token or two short of the goal; in
Premium half of those start in a tie-break round instead). Then at every
step it gives either one of ``legal_commands`` (by index, four times in
five) or another command: a legal one with one field changed, or any
command with random fields (wrong players, seats out of range, cards not
held or not in the edition, Guards naming their own card or number, names
of the other edition's kind, second targets, self-targets, bad Chancellor
returns, looks at hands not offered, answers to a choice not pending,
stacked decks, first players who may not start). After every step the
helpers in :mod:`.strategies` check, from tables restated from the spec:

* cards are conserved: ``card_count()`` is the deck size and the multiset
  of every zone is the deck of the ruleset at that player count;
* players out of the round hold nothing; players in it hold one card, two
  for the current player deciding what to play, two or three during a
  Chancellor;
* exactly one player acts while a round is played (the current one, or the
  Bishop's target deciding to redraw), none between rounds or after the
  game; any other player's command is refused as not their turn;
* a command is accepted exactly when the rules allow it: every listed
  command is accepted; a random command is accepted iff it is listed, except
  ``StartRound`` with a valid stacked deck and/or an allowed first player,
  which the engine accepts though ``legal_commands`` lists only
  ``StartRound()`` (documented there); a rejection's kind is one of the
  reasons the rules give (the Sycophant's ``required-player-not-chosen``
  included), and the state is left identical (``==``, same JSON, still
  equal to a deep copy taken before);
* each command's events are its card's effect as the card's rules give it
  (Guard, Priest, Baron, King, Prince, Princess, Handmaid, Chancellor,
  Bishop, Dowager Queen, Sycophant, Baroness, Cardinal, Jester, the
  Assassin's answer to a Guard; the optional look and redraw), then the end
  of the turn, the round or the game; what each player was shown is
  recorded for them alone; the set-aside card is drawn at most once, only
  on an empty deck;
* ``replay`` of the whole log equals the state; folding ``evolve`` over a
  step's events equals ``push``; states, events and commands survive JSON;
* every token has its cause (round wins, Spy, Bishop, Constable, Jester),
  and after each award step the game ends, is tied or goes on as the rules
  say (immediate wins, tie-break rounds dealt only to the tied players);
  the round winners follow the showdown order of the edition;
* protected players are in the round and never the player to act;
* no player's view or event stream shows what the rules hide from them,
  and a view does not change when the cards hidden from its player move.

Two tests share the loop, each for the two 2019 editions and for Premium
at each player count. The first runs every check after every step and
draws every choice from Hypothesis (best shrinking, readable failures). The
second plays many more games: it draws one byte string per game for the
choices and runs the costly checks (whole-log replay and JSON, views,
redaction, exhaustive command enumeration) once per game instead of once
per step. In ``make test-long`` (which CI runs) they play about 2,560 games
of the 2019 editions and about 270 Premium games, in ``make test`` a
quarter of that, and ten times as many when thorough (``tests/budget.py``);
the state machine of ``test_stateful.py`` adds some more.

The online edition (``docs/online-design.md``) runs through the same loop
with its own oracles: its decks per player count and per number of decks
(1, 2 and 3: every copy of every card somewhere at every step), no card
set aside, the round ending after a turn that leaves the pile one card or
none, the turn order drawn from the seed (ruling 43, drawn again by the
test), the Baroness's and the Cardinal's online choices, ranks with 004's
hand bonus and the win counters with their partial wins at every round end
(rulings 44-46), players leaving at any moment (ruling 50) and time-outs
whose random move is drawn again from the seed (ruling 51). A match never
ends by itself: each game deals one to four rounds (fewer with bigger
decks), then its players leave one by one until it closes. The default
profile plays 15 online games per table size with every check after every
step, and 150 per number of decks with the cheap checks (about 25 seconds
together).
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
    ALL_RULESET_NAMES,
    CORE_CHECKS,
    MAX_STEPS,
    ONLINE,
    ONLINE_DECKS,
    PLAYER_COUNTS,
    PREMIUM,
    ByteChoices,
    Checks,
    Choices,
    DrawnChoices,
    GameRun,
    GameSetup,
    check_state,
    choose_next_command,
    choose_random_command,
    exodus,
    game_setups,
    is_listed,
    next_commands,
    online_setups,
    random_commands,
    rule_violations,
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
#: the Premium rules they check besides (docs/premium-design.md)
PREMIUM_RULES = (
    "setup.deck-premium",
    "setup.card-values-premium",
    "setup.player-count-premium",
    "game.tokens-to-win-premium",
    "game.rules-enforced",
    "game.immediate-win",
    "game.tie-break-round",
    "round.tie-discard-sum",
    "targeting.choose-impossible-no-effect",
    "guard.name-number",
    "guard.correct-guess-eliminates",
    "priest.look-secretly",
    "baron.compare-lower-out",
    "baron.tie-no-effect",
    "baron.secret-comparison",
    "king.trade-hands",
    "prince.discard-and-draw",
    "prince.empty-deck-draws-set-aside",
    "prince.princess-discard-eliminates",
    "princess.eliminated-when-played-or-discarded",
    "princess.knock-out-effects-apply",
    "bishop.name-number-and-player",
    "bishop.correct-number-token",
    "bishop.target-may-redraw",
    "bishop.princess-beats-bishop",
    "dowager-queen.compare-higher-out",
    "dowager-queen.tie-no-effect",
    "dowager-queen.secret-comparison",
    "constable.knocked-out-token",
    "constable.no-effect",
    "count.showdown-bonus",
    "count.no-effect",
    "sycophant.next-card-must-choose",
    "baroness.look-one-or-two",
    "cardinal.swap-two-players",
    "cardinal.optional-look",
    "jester.mark-expected-winner",
    "assassin.guard-player-knocked-out",
    "assassin.discard-and-redraw",
    "assassin.no-effect",
)
#: the online rules they check besides (docs/online-design.md)
ONLINE_RULES = (
    "setup.player-count-online",
    "setup.deck-online",
    "setup.decks-online",
    "setup.no-set-aside-online",
    "setup.turn-order-online",
    "setup.shuffle",
    "round.end-pile-online",
    "round.ranks-online",
    "round.hand-bonus-online",
    "game.win-counter-online",
    "game.no-end-online",
    "targeting.valid-choice-online",
    "baroness.two-looks-online",
    "cardinal.swap-and-look-first-online",
    "bishop.partial-win-online",
    "constable.partial-win-online",
    "jester.partial-win-online",
    "out.destroyed-cards-online",
    "online.leave-any-time",
    "online.timeout-random-move",
    "online.time-control-settings",
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
            # online: once its rounds are dealt, the match is left until it closes
            leaving = next_command.exodus(run.state, setup.rounds)
            run.attempt(leaving or next_command(run.state, False))
            run.check_now()
        else:
            raise AssertionError(f"the game did not end within {MAX_STEPS} commands")
        # after the game every command is refused, with GAME_OVER (or as
        # malformed: a card the edition lacks is refused before all else;
        # leaving and time-outs outside online: not-in-edition)
        for _ in range(3):
            command = next_command(run.state, True)
            error = run.attempt(command)
            expected = rule_violations(run.state, command)
            assert expected <= _AFTER_THE_END
            assert error is not None and error.kind in expected
        run.check_finished()
    except BaseException:
        note(run.describe())
        raise
    return run


_AFTER_THE_END = {
    ll.RejectionKind.GAME_OVER,
    ll.RejectionKind.MALFORMED_COMMAND,
    ll.RejectionKind.NOT_IN_EDITION,
}


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

    def exodus(self, state: ll.GameState, rounds: int) -> ll.Command | None:
        """Online, after the game's rounds: a player present leaves."""
        if self._data is not None:
            data = self._data
            choices: Choices = DrawnChoices(lambda s: data.draw(s, label="leaving"))
        else:
            assert self._choices is not None
            choices = self._choices
        return exodus(choices, state, rounds)


#: Premium is played at every player count, each count a test of its own
PREMIUM_COUNTS = PLAYER_COUNTS[PREMIUM]
#: budgets (shares of the profile's max_examples) per 2019 edition and per
#: Premium player count: every check after every step, and many games
_ALL_CHECKS_SHARE = {"2019": 0.3, PREMIUM: 0.03}
_MANY_GAMES_SHARE = {"2019": 12.5, PREMIUM: 0.35}


@pytest.mark.rule(*CHECKED_RULES)
@pytest.mark.parametrize("ruleset", ["2019", "2019-classic"])
@settings(
    max_examples=scaled_examples(_ALL_CHECKS_SHARE["2019"]), suppress_health_check=_LONG_GAMES
)
@given(data=st.data())
def test_random_games_keep_every_invariant_after_every_step(
    ruleset: str, data: st.DataObject
) -> None:
    """Every check after every step, each command drawn by Hypothesis."""
    setup = data.draw(game_setups(ruleset), label="setup")
    play_game(setup, ALL_CHECKS, CommandSource(data=data))


@pytest.mark.rule(*CHECKED_RULES, *PREMIUM_RULES)
@pytest.mark.parametrize("players", PREMIUM_COUNTS)
@settings(
    max_examples=scaled_examples(_ALL_CHECKS_SHARE[PREMIUM]), suppress_health_check=_LONG_GAMES
)
@given(data=st.data())
def test_premium_random_games_keep_every_invariant_after_every_step(
    players: int, data: st.DataObject
) -> None:
    """The same, for Premium at each player count."""
    setup = data.draw(game_setups(PREMIUM, players), label="setup")
    play_game(setup, ALL_CHECKS, CommandSource(data=data))


@pytest.mark.rule(*CHECKED_RULES)
@pytest.mark.parametrize("ruleset", ["2019", "2019-classic"])
@settings(
    max_examples=scaled_examples(_MANY_GAMES_SHARE["2019"]), suppress_health_check=_LONG_GAMES
)
@given(data=st.data())
def test_many_random_games_conserve_cards_accept_exactly_legal_commands_and_score_rounds(
    ruleset: str, data: st.DataObject
) -> None:
    """The cheap checks after every step, the costly ones once per game."""
    setup = data.draw(game_setups(ruleset), label="setup")
    choices = data.draw(st.binary(min_size=_CHOICE_BYTES, max_size=_CHOICE_BYTES))
    play_game(setup, CORE_CHECKS, CommandSource(choices=ByteChoices(choices)))


@pytest.mark.rule(*CHECKED_RULES, *PREMIUM_RULES)
@pytest.mark.parametrize("players", PREMIUM_COUNTS)
@settings(
    max_examples=scaled_examples(_MANY_GAMES_SHARE[PREMIUM]), suppress_health_check=_LONG_GAMES
)
@given(data=st.data())
def test_many_premium_random_games_conserve_cards_accept_exactly_legal_commands_and_score(
    players: int, data: st.DataObject
) -> None:
    """The same, for Premium at each player count."""
    setup = data.draw(game_setups(PREMIUM, players), label="setup")
    choices = data.draw(st.binary(min_size=_CHOICE_BYTES, max_size=_CHOICE_BYTES))
    play_game(setup, CORE_CHECKS, CommandSource(choices=ByteChoices(choices)))


#: online: every table size a test of its own for every check after every
#: step; the many games per number of decks (sizes drawn)
ONLINE_COUNTS = PLAYER_COUNTS[ONLINE]
_ONLINE_ALL_CHECKS_SHARE = 0.15
_ONLINE_MANY_GAMES_SHARE = 1.5


@pytest.mark.rule(*ONLINE_RULES)
@pytest.mark.parametrize("players", ONLINE_COUNTS)
@settings(max_examples=scaled_examples(_ONLINE_ALL_CHECKS_SHARE), suppress_health_check=_LONG_GAMES)
@given(data=st.data())
def test_online_random_games_keep_every_invariant_after_every_step(
    players: int, data: st.DataObject
) -> None:
    """Online matches, every check after every step (ranks and win counters
    at every round end), leaving and time-outs mixed in."""
    setup = data.draw(online_setups(players), label="setup")
    play_game(setup, ALL_CHECKS, CommandSource(data=data))


@pytest.mark.rule(*ONLINE_RULES)
@pytest.mark.parametrize("decks", ONLINE_DECKS)
@settings(max_examples=scaled_examples(_ONLINE_MANY_GAMES_SHARE), suppress_health_check=_LONG_GAMES)
@given(data=st.data())
def test_many_online_random_games_conserve_every_copy_and_accept_exactly_legal_commands(
    decks: int, data: st.DataObject
) -> None:
    """Online matches with 1, 2 and 3 decks, each table size drawn: every
    copy of every card in exactly one zone at every step, exactly the legal
    commands accepted, ranks and counters as the oracle gives them."""
    setup = data.draw(online_setups(decks=decks), label="setup")
    choices = data.draw(st.binary(min_size=_CHOICE_BYTES, max_size=_CHOICE_BYTES))
    play_game(setup, CORE_CHECKS, CommandSource(choices=ByteChoices(choices)))


# --------------------------------------------------------------------------
# commands whose fields have the wrong type

#: values of the wrong type for a seat, floats equal to a seat included
_NOT_SEATS: tuple[object, ...] = (None, "0", "1", True, False, 0.0, 1.0, 1.5, -0.5, [0], (1,))
_NOT_CARDS: tuple[object, ...] = (None, "Guard", "Princess", 1, 9, 1.0, True, [Card.GUARD])
_NOT_CARD_TUPLES: tuple[object, ...] = ("Guard", None, 3, ("Guard",), (1, 2), (None,))
#: a Guard's or a Bishop's name: a card in 2019, a number in Premium, so
#: each edition gets the other's kind too (a card is an int subclass)
_NOT_NAMES: tuple[object, ...] = (
    "Guard",
    "3",
    1.0,
    3.0,
    True,
    [Card.GUARD],
    [3],
    Card.BARON,
    Card.PRINCESS,
    3,
    8,
)
_WRONG_VALUES: dict[str, tuple[object, ...]] = {
    "player": _NOT_SEATS,
    "target": tuple(v for v in _NOT_SEATS if v is not None),
    "second_target": tuple(v for v in _NOT_SEATS if v is not None),
    "owner": tuple(v for v in _NOT_SEATS if v is not None),
    "first_player": tuple(v for v in _NOT_SEATS if v is not None),
    "card": _NOT_CARDS,
    "keep": _NOT_CARDS,
    "guess": _NOT_NAMES,
    "bottom": _NOT_CARD_TUPLES,
    "deck": _NOT_CARD_TUPLES,
    # online: a stacked turn order is seats
    "order": ("0", 3, (0.0, 1.0, 2.0), ("0", "1", "2"), (True, False, 2), ([0], 1, 2)),
}


@st.composite
def states_in_play(draw: st.DrawFn) -> ll.GameState:
    """A state some random legal steps into a random game (online included)."""
    setup = draw(game_setups(draw(st.sampled_from(ALL_RULESET_NAMES))))
    choices = ByteChoices(draw(st.binary(min_size=0, max_size=200)))
    state = ll.new_game(setup.ruleset, setup.players, seed=setup.seed, settings=setup.settings)
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
    # a player's leaving and a host's time-out: their seat of the wrong type
    seat = state.current if state.to_act is None else state.to_act
    bases = (*legal, ll.Leave(seat), ll.TimeOut(seat))
    base = data.draw(st.sampled_from(bases), label="legal command")
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
    assert is_listed(command, legal) or isinstance(command, StartRound | ll.Leave | ll.TimeOut), (
        f"{command} accepted"
    )
    if command in legal:
        # the same as the legal command it equals, down to the JSON
        twin = legal[legal.index(command)]
        assert after == ll.push(state, twin)
        assert ll.dumps(ll.decide(state, command)) == ll.dumps(ll.decide(state, twin))
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


_PREMIUM_TARGETS = """
import loveletter as ll
from loveletter import Card
state = ll.new_game("premium", 5, seed=3)
chosen = [c for c in ll.legal_commands(state) if c.target is not None]
assert chosen, ll.legal_commands(state)
"""


def test_regression_play_card_with_a_float_target_is_refused_as_malformed() -> None:
    # a float equal to a seat must not pass for the seat (as player, first
    # player and owner already do not): taken as a seat it reaches the
    # card's effect as a tuple index, and the interned events
    output = _run_fresh(
        _PREMIUM_TARGETS
        + "import attrs\n"
        + "command = attrs.evolve(chosen[0], target=float(chosen[0].target))\n"
        + _REFUSAL
    )
    assert output.strip() == "malformed-command", output


def test_regression_play_card_with_a_float_second_target_is_refused_as_malformed() -> None:
    output = _run_fresh(
        "import attrs\n"
        "from collections import Counter\n"
        "import loveletter as ll\n"
        "from loveletter import Card\n"
        "top = [Card.GUARD, Card.CARDINAL, Card.PRIEST, Card.BARON, Card.KING, Card.COUNT,"
        " Card.GUARD]\n"
        "rest = Counter(ll.get_ruleset('premium').deck_for(5))\n"
        "rest.subtract(top)\n"
        "state = ll.new_game('premium', 5, deck=(*top, *sorted(rest.elements())))\n"
        "pair = [c for c in ll.legal_commands(state) if c.second_target is not None][0]\n"
        "command = attrs.evolve(pair, second_target=float(pair.second_target))\n" + _REFUSAL
    )
    assert output.strip() == "malformed-command", output
