"""Positions read back from play load; positions broken on purpose do not.

Issue 19: ``from_position`` must refuse every position that breaks one of
the invariants :mod:`loveletter.validation` states (1 to 16), with a
:class:`~loveletter.errors.PositionError` naming the field, and must load
every position play reaches.

* Random games of each ruleset (2019 and 2019-classic, Premium 2 to 8
  players, online 3 to 8 at tables of one to three decks, players now and
  then leaving), played over several rounds with ``legal_commands`` and a
  seeded choice: every state at a ``draw`` or ``play`` decision, described
  by ``to_position``, loads back as that very state, also after
  ``dumps``/``loads`` of the position; the same moment before its draw
  (``drawn=False``) loads too, and drawing from it gives the state; and a
  position without a seed loads with a fresh one.
* For each invariant, a mutator of ``verification/position_mutants.py``
  takes a position of such a game and breaks that invariant for certain,
  keeping everything else plausible (card conservation when a Princess
  moves into a live player's pile, the cards drawn when a player is put
  out, ...); ``from_position`` must refuse the mutant.
* ``verification/position_mutants.py``, which measures how many untargeted
  mutants get in, runs in miniature so that it cannot rot; its search for a
  game reaching a refused mutant finds one for positions of play.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter.commands import DrawCard
from loveletter.errors import PositionError
from loveletter.positions import Position, from_position, to_position

from .strategies import scaled_examples

# verification/ is a folder of scripts, not a package
_VERIFICATION = Path(__file__).resolve().parents[2] / "verification"
if str(_VERIFICATION) not in sys.path:
    sys.path.insert(0, str(_VERIFICATION))

import position_mutants as pm  # noqa: E402

RULESETS = sorted(pm.PLAYER_COUNTS)


@st.composite
def setups(draw: st.DrawFn, choices: list[tuple[str, int]]) -> pm.Setup:
    """A game among ``choices`` (ruleset, player count): online with one to
    three decks; any seed."""
    ruleset, players = draw(st.sampled_from(choices))
    decks = draw(st.sampled_from(pm.ONLINE_DECKS)) if ruleset == "online" else 1
    return pm.Setup(ruleset, players, decks, draw(st.integers(0, 2**32 - 1)))


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=scaled_examples(0.4))
@given(data=st.data())
def test_positions_from_random_games_load(ruleset: str, data: st.DataObject) -> None:
    """Every position of a random game loads back as its state, through
    JSON too; before its draw as well; without a seed, with a fresh one."""
    choices = [(ruleset, n) for n in pm.PLAYER_COUNTS[ruleset]]
    game = pm.play(data.draw(setups(choices), label="setup"))
    turns = game.turns
    assert turns
    for state in turns:
        position = to_position(state)
        assert from_position(position) == state
        text = ll.dumps(position)
        loaded = ll.loads(text)
        assert isinstance(loaded, Position)
        assert loaded == position
        assert from_position(loaded) == state
        before = pm.undrawn(position)
        assert not before.drawn
        assert ll.push(from_position(before), DrawCard(state.current)) == state
    fresh = from_position(attrs.evolve(to_position(turns[-1]), seed=None))
    assert type(fresh.seed) is int
    assert attrs.evolve(fresh, table=attrs.evolve(fresh.table, seed=turns[-1].seed)) == turns[-1]


@pytest.mark.parametrize("invariant", pm.INVARIANTS, ids=[i.id for i in pm.INVARIANTS])
@settings(max_examples=scaled_examples(1.0))
@given(data=st.data())
def test_mutant_breaking_an_invariant_is_refused(
    invariant: pm.Invariant, data: st.DataObject
) -> None:
    """A position of a random game with ``invariant`` broken on purpose is
    refused, the field at fault named."""
    game = pm.play(data.draw(setups(invariant.setups()), label="setup"))
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="mutation seed"))
    mutant = invariant.mutate(game, rng)
    assume(mutant is not None)
    assert mutant is not None
    with pytest.raises(PositionError) as refused:
        from_position(mutant)
    field = refused.value.field
    assert isinstance(field, str) and field


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_search_past_the_checks_reaches_positions_of_play(ruleset: str) -> None:
    """The script's test for a possible position refused (a game reaching a
    refused mutant, searched for without the checks) finds the game for
    positions play reached, before and after their draw, in later rounds too."""
    for index in range(4):
        rng = random.Random(f"reach:{ruleset}:{index}")
        game = pm.play(pm.random_setup(rng, ruleset))
        state = rng.choice(game.turns[len(game.turns) // 2 :])
        position = to_position(state)
        for described in (position, pm.undrawn(position)):
            assert pm.game_reaching(described, 20_000) is not None, (game.setup, described)


def test_position_mutants_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The script in miniature: every ruleset's figures and every invariant's,
    no targeted mutant accepted, no possible position refused, no crash."""
    status = pm.main(["--positions", "3", "--targeted", "3", "--budget", "2000", "--seed", "1"])
    output = capsys.readouterr().out
    assert status == 0, output
    for heading in (*RULESETS, "total", "invariants (targeted)"):
        assert f"== {heading} ==" in output
    assert output.count("impossible accepted ") == len(RULESETS) + 1
    for invariant in pm.INVARIANTS:
        assert invariant.id in output
