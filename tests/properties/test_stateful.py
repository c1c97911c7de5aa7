"""A rule-based state machine that plays games through the public API.

Hypothesis interleaves the rules in any order it likes: play a legal
command (chosen by index: a card, a Chancellor's keep, a Cardinal's look or
its refusal, a Bishop target's redraw or its refusal), try a random command
(usually illegal; when the rules allow it, it is played), deal the next
round (with the default shuffle, a stacked deck or a chosen first player
among those allowed, tie-break rounds included) and start a new game once
one is over. Games are of every edition and player count, Premium's 2 to 8
included, some from an endgame or a tie-break round (see
:func:`.strategies.game_setups`). Some rule is enabled in every state:
``try_random_command`` always, plus ``play_legal_command`` during a round,
``deal_next_round`` between rounds and ``start_new_game`` after the game.
The invariants are the shared checks of :mod:`.strategies` (the cheaper
set; the whole-game test runs the costly ones).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import loveletter as ll
from loveletter.commands import StartRound

from .strategies import (
    Checks,
    DrawnChoices,
    GameRun,
    GameSetup,
    allowed_first_players,
    choose_deck,
    game_setups,
    random_commands,
    scaled_examples,
)

#: per step: the state, the views, the redaction of new events; the whole-log
#: replay is an invariant of its own below
_CHECKS = Checks(
    views=True, json=False, replay=False, indistinguishable_views=False, exhaustive_legal=False
)


class LoveLetterGames(RuleBasedStateMachine):
    """Games driven one command at a time, checked after every rule."""

    def __init__(self) -> None:
        super().__init__()
        self._run: GameRun | None = None
        self.games = 0

    @property
    def run(self) -> GameRun:
        assert self._run is not None
        return self._run

    @initialize(setup=game_setups())
    def start_first_game(self, setup: GameSetup) -> None:
        self._run = GameRun(setup, _CHECKS)
        self.games = 1

    def _playing(self) -> bool:
        return self.run.state.to_act is not None

    def _between_rounds(self) -> bool:
        return self.run.state.decision is ll.Decision.NEXT_ROUND

    def _game_over(self) -> bool:
        return self.run.state.is_over

    @precondition(_playing)
    @rule(index=st.integers(min_value=0, max_value=255))
    def play_legal_command(self, index: int) -> None:
        legal = ll.legal_commands(self.run.state)
        assert legal, "a round in progress always offers a command"
        assert self.run.attempt(legal[index % len(legal)]) is None

    @rule(data=st.data())
    def try_random_command(self, data: st.DataObject) -> None:
        # accepted when the rules allow it (attempt checks which), else refused
        self.run.attempt(data.draw(random_commands(self.run.state)))

    @precondition(_between_rounds)
    @rule(data=st.data(), stack=st.booleans(), choose=st.booleans())
    def deal_next_round(self, data: st.DataObject, stack: bool, choose: bool) -> None:
        state = self.run.state
        result = state.round_result
        assert result is not None
        deck = None
        if stack:
            deck = choose_deck(DrawnChoices(data.draw), state.ruleset.name, state.players)
        first = data.draw(st.sampled_from(allowed_first_players(state))) if choose else None
        self.run.attempt(StartRound(deck, first))

    @precondition(_game_over)
    @rule(setup=game_setups())
    def start_new_game(self, setup: GameSetup) -> None:
        self.run.check_finished()
        self._run = GameRun(setup, _CHECKS)
        self.games += 1

    @invariant()
    def state_follows_the_rules(self) -> None:
        self.run.check_now()

    @invariant()
    def log_replays_to_the_state(self) -> None:
        assert ll.replay(self.run.events) == self.run.state


LoveLetterGames.TestCase.settings = settings(
    max_examples=scaled_examples(0.25),
    stateful_step_count=250,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestLoveLetterGamesStateMachine = LoveLetterGames.TestCase
