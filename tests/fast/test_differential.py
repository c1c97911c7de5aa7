"""The short differential run of ``make test``: random games of every
edition through the reference engine and the compiled simulator, compared
before and after every command (the long run is ``python -m
loveletter.fast.differential``)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import loveletter as ll
from loveletter.fast import FastBatch
from loveletter.fast.differential import reference_digest, run, run_edition

# Games per edition: a few seconds each on a slow machine, every player
# count (and online every number of decks) included.
SHORT_RUN = {"2019-classic": 600, "2019": 300, "premium": 300, "online": 216}


@pytest.mark.parametrize("ruleset", sorted(SHORT_RUN))
def test_random_games_agree_with_the_reference(ruleset: str) -> None:
    report = run_edition(ruleset, SHORT_RUN[ruleset], seed=2024)
    assert report.mismatches == ()
    assert report.games == SHORT_RUN[ruleset]
    assert report.commands > 20 * report.games


def test_a_disagreement_is_reported_with_its_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # The comparison can fail: a simulator that plays another command than
    # the one asked whenever a Baron is played is caught, with its game.
    honest = FastBatch.step

    def step(batch: FastBatch, actions: Sequence[int]) -> None:
        changed = list(actions)
        for game, action in enumerate(changed):
            if action >= 0 and batch.table.entries[action][1] == int(ll.Card.BARON):
                others = [a for a in batch.legal_actions(game).tolist() if a != action]
                changed[game] = others[0] if others else action
        honest(batch, changed)

    monkeypatch.setattr(FastBatch, "step", step)
    report = run("2019-classic", 4, games=30, seed=7, stop_after=1)
    assert len(report.mismatches) == 1
    mismatch = report.mismatches[0]
    assert (mismatch.ruleset, mismatch.players, mismatch.decks) == ("2019-classic", 4, 1)
    assert 7 <= mismatch.seed < 37 and mismatch.commands > 0
    assert mismatch.reference != mismatch.fast


def test_the_digest_sees_every_zone() -> None:
    state = ll.new_game("2019", 2, seed=3)
    digest = reference_digest(state)
    batch = FastBatch("2019", 2, 1)
    events = ll.start_game("2019", 2, seed=3)
    dealt = next(e for e in events if isinstance(e, ll.RoundStarted))
    assert dealt.deck is not None
    batch.start_game(0, dealt.deck, dealt.first_player)
    assert batch.digest(0) == digest
    # three face-up cards and the set-aside one are in it, and the deck's order
    assert digest[6] == len(state.deck) == 21 - 1 - 3 - 3
    assert digest[7 : 7 + len(state.deck)] == list(state.deck)
