"""What a record may hold: deals tied to the seed (shuffled) or declared
(stacked), events of exactly their types, one list of commands however the
record was made, and files read one event at a time from regular files only."""

from __future__ import annotations

import json
import os
import random
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

import loveletter as ll
import loveletter.records as records
import loveletter.serialization as serialization
from loveletter.events import CardDealt, RoundEnded, RoundStarted
from loveletter.rulesets import get_ruleset
from loveletter.serialization import MAX_ITEM_CHARS
from loveletter.simulation import random_bots

EDITIONS = (("2019", 4), ("2019-classic", 3), ("premium", 6), ("online", 5))


def _played(ruleset: str, players: int, seed: int, stack: float, rounds: int = 3) -> ll.GameRecord:
    """A game of random moves whose deals are each stacked with chance
    ``stack`` (a deck, online also a turn order, shuffled by the test)."""
    rng = random.Random(seed)
    deck = list(get_ruleset(ruleset).deck_for(players, 1))
    first_deck = rng.sample(deck, len(deck)) if rng.random() < stack else None
    record = ll.GameRecord.new(ruleset, players, seed=seed, deck=first_deck)
    while not record.is_over:
        state = record.state
        if state.decision is not ll.Decision.NEXT_ROUND:
            record = record.push(rng.choice(ll.legal_commands(state)))
            continue
        if state.round_number >= rounds:
            break
        command = ll.StartRound()
        if rng.random() < stack:
            seeded = ll.decide(state, command)[0]
            assert isinstance(seeded, RoundStarted) and seeded.deck is not None
            order = seeded.order
            if order is not None and rng.random() < 0.5:
                order = (order[0], *rng.sample(order[1:], len(order) - 1))
            command = ll.StartRound(tuple(rng.sample(seeded.deck, len(seeded.deck))), None, order)
        record = record.push(command)
    return record


def _deals(record: ll.GameRecord) -> list[tuple[ll.Command, RoundStarted]]:
    commands = [c for c in record.commands() if isinstance(c, ll.StartRound)]
    started = [e for e in record.events if isinstance(e, RoundStarted)]
    assert len(commands) == len(started)
    return list(zip(commands, started, strict=True))


def _data(record: ll.GameRecord) -> dict[str, object]:
    data = json.loads(ll.dumps(record))
    assert isinstance(data, dict)
    return data


def _refusal(data: object, error: type[ll.LoveLetterError]) -> ll.LoveLetterError:
    with pytest.raises(error) as caught:
        ll.loads(json.dumps(data))
    return caught.value


# --------------------------------------------------------------------------
# the seed and the deals


@pytest.mark.parametrize(("ruleset", "players"), EDITIONS)
def test_a_record_whose_seed_was_changed_is_refused_at_its_first_deal(
    ruleset: str, players: int
) -> None:
    record = _played(ruleset, players, 11, stack=0.0)
    data = _data(record)
    events = data["events"]
    assert isinstance(events, list)
    forged = str(record.seed + 1)
    data["seed"] = events[0]["seed"] = forged
    refusal = _refusal(data, ll.EventMismatch)
    assert isinstance(refusal, ll.EventMismatch)
    assert refusal.index == 1  # the first round's RoundStarted
    assert "seed" in refusal.detail and "stacked_rounds does not list it" in refusal.detail


def test_a_changed_seed_is_refused_at_the_first_deal_it_would_have_made() -> None:
    # the first round stacked (and declared), the second shuffled: the
    # second is the first deal the seed answers for
    rng = random.Random(1)
    deck = get_ruleset("2019").deck_for(3, 1)
    stacked = rng.sample(deck, len(deck))
    record = ll.GameRecord.new("2019", 3, seed=4, deck=stacked)
    while record.state.decision is not ll.Decision.NEXT_ROUND:
        record = record.push(ll.legal_commands(record.state)[0])
    record = record.push(ll.StartRound())
    assert record.stacked_rounds == (1,)
    data = _data(record)
    assert data["stacked_rounds"] == [1]
    assert ll.loads(json.dumps(data)) == record
    events = data["events"]
    assert isinstance(events, list)
    data["seed"] = events[0]["seed"] = "5"
    refusal = _refusal(data, ll.EventMismatch)
    second = [i for i, e in enumerate(record.events) if isinstance(e, RoundStarted)][1]
    assert isinstance(refusal, ll.EventMismatch) and refusal.index == second


def test_a_stacked_deal_must_be_declared_and_a_declared_one_must_be_stacked() -> None:
    record = _played("online", 4, 3, stack=0.6, rounds=5)
    assert record.stacked_rounds and len(record.stacked_rounds) < 5
    data = _data(record)
    assert data["stacked_rounds"] == list(record.stacked_rounds)
    started = {
        e.round_number: i for i, e in enumerate(record.events) if isinstance(e, RoundStarted)
    }
    # a stacked round left out of the list: its deal is not the seed's
    left_out = dict(data, stacked_rounds=list(record.stacked_rounds[1:]))
    refusal = _refusal(left_out, ll.EventMismatch)
    assert isinstance(refusal, ll.EventMismatch)
    assert refusal.index == started[record.stacked_rounds[0]]
    # a shuffled round listed: its deal is the seed's own
    shuffled = min(set(started) - set(record.stacked_rounds))
    listed = dict(data, stacked_rounds=sorted({*record.stacked_rounds, shuffled}))
    refusal = _refusal(listed, ll.SerializationError)
    assert isinstance(refusal, ll.SerializationError)
    assert refusal.path.startswith("stacked_rounds[") and "not stacked" in refusal.detail
    # a round the record does not deal, a number out of order, a wrong type
    for wrong, path in (
        ([*record.stacked_rounds, 99], f"stacked_rounds[{len(record.stacked_rounds)}]"),
        ([*record.stacked_rounds, record.stacked_rounds[0]], "stacked_rounds["),
        ([True], "stacked_rounds[0]"),
        ("1", "stacked_rounds"),
    ):
        refusal = _refusal(dict(data, stacked_rounds=wrong), ll.SerializationError)
        assert isinstance(refusal, ll.SerializationError)
        assert refusal.path.startswith(path), refusal
    missing = dict(data)
    del missing["stacked_rounds"]
    refusal = _refusal(missing, ll.SerializationError)
    assert isinstance(refusal, ll.SerializationError) and refusal.path == "stacked_rounds"


def test_format_1_is_read_with_every_deal_from_the_seed() -> None:
    shuffled = _data(_played("premium", 5, 8, stack=0.0))
    shuffled["format"] = 1
    del shuffled["stacked_rounds"]
    assert ll.loads(json.dumps(shuffled)).stacked_rounds == ()
    stacked = _played("premium", 5, 8, stack=1.0)
    data = _data(stacked)
    data["format"] = 1
    del data["stacked_rounds"]
    refusal = _refusal(data, ll.EventMismatch)
    assert isinstance(refusal, ll.EventMismatch) and refusal.index == 1
    assert "format 1 cannot declare a stacked deal" in refusal.detail
    refusal = _refusal(dict(data, stacked_rounds=[1]), ll.SerializationError)
    assert isinstance(refusal, ll.SerializationError) and refusal.path == "stacked_rounds"
    for version in (0, 3, "2", 2.0, True):
        refusal = _refusal(dict(data, format=version), ll.SerializationError)
        assert isinstance(refusal, ll.SerializationError) and refusal.path == "format"


def test_a_first_player_chosen_among_tied_winners_stacks_the_deal_only_if_not_the_seeds() -> None:
    # seed 1: a round of this 2019 game ends in a tie of seats 1 and 3
    record = ll.play_game("2019", 4, random_bots(4, 1), seed=1)
    at = ll.GameRecord(record.events[:1])
    for command in record.commands():
        result = at.state.round_result
        if at.state.decision is ll.Decision.NEXT_ROUND and result and len(result.winners) > 1:
            break
        at = at.push(command)
    assert at.state.round_result is not None and at.state.round_result.winners == (1, 3)
    tied = at.state.round_number + 1
    seeded = ll.decide(at.state, ll.StartRound())[0]
    assert isinstance(seeded, RoundStarted)
    other = 4 - seeded.first_player  # the other tied winner
    chosen = at.push(ll.StartRound(first_player=seeded.first_player))
    assert chosen.stacked_rounds == () and chosen.commands()[-1] == ll.StartRound()
    changed = at.push(ll.StartRound(first_player=other))
    assert changed.stacked_rounds == (tied,)
    started = [e for e in changed.events if isinstance(e, RoundStarted)][-1]
    assert started.first_player == other
    assert changed.commands()[-1] == ll.StartRound(started.deck, other, None)
    for record in (chosen, changed):
        assert ll.loads(ll.dumps(record)).commands() == record.commands()
        assert ll.GameRecord(record.events).stacked_rounds == record.stacked_rounds


def test_the_first_players_of_the_setup_stack_nothing() -> None:
    for ruleset in ("2019", "online"):
        record = ll.GameRecord.new(ruleset, 4, seed=6, first_player=2)
        assert record.stacked_rounds == () and record.commands() == (ll.StartRound(),)
        assert ll.loads(ll.dumps(record)) == record
    drawn = ll.GameRecord.new("online", 4, seed=6).events[1]
    assert isinstance(drawn, RoundStarted) and drawn.order is not None
    order = tuple(reversed(drawn.order))  # not the seed's, whoever is first
    ordered = ll.GameRecord.new("online", 4, seed=6, order=order)
    assert ordered.stacked_rounds == (1,)
    assert ordered.commands() == (ll.StartRound(drawn.deck, order[0], order),)
    assert ll.loads(ll.dumps(ordered)).commands() == ordered.commands()


def test_a_position_record_ties_its_later_deals_to_the_positions_seed() -> None:
    record = ll.GameRecord.new("2019", 3, seed=9)
    position = ll.to_position(record.state)
    record = ll.GameRecord.from_position(position)
    while record.state.decision is not ll.Decision.NEXT_ROUND:
        record = record.push(ll.legal_commands(record.state)[0])
    record = record.push(ll.StartRound())
    assert record.stacked_rounds == ()
    data = _data(record)
    assert ll.loads(json.dumps(data)) == record
    events = data["events"]
    assert isinstance(events, list)
    data["seed"] = events[0]["position"]["seed"] = "10"
    refusal = _refusal(data, ll.EventMismatch)
    assert isinstance(refusal, ll.EventMismatch)
    assert isinstance(record.events[refusal.index or 0], RoundStarted)


# --------------------------------------------------------------------------
# one list of commands, however the record was made


@pytest.mark.parametrize(("ruleset", "players"), EDITIONS)
@pytest.mark.parametrize("stack", [0.0, 0.5, 1.0])
def test_a_record_lists_the_same_commands_live_loaded_or_rebuilt(
    ruleset: str, players: int, stack: float
) -> None:
    for seed in range(3):
        record = _played(ruleset, players, seed, stack)
        for started_command, started in _deals(record):
            if started.round_number in record.stacked_rounds:
                assert started_command == ll.StartRound(
                    started.deck, started.first_player, started.order
                )
            else:
                assert started_command == ll.StartRound()
        if stack == 0.0:
            assert record.stacked_rounds == ()
        if stack == 1.0:
            assert record.stacked_rounds == tuple(range(1, record.state.round_number + 1))
        loaded = ll.loads(ll.dumps(record))
        assert loaded == record and loaded.commands() == record.commands()
        assert loaded.stacked_rounds == record.stacked_rounds
        rebuilt = ll.GameRecord(record.events)
        assert rebuilt.commands() == record.commands()
        assert rebuilt.stacked_rounds == record.stacked_rounds
        again = ll.GameRecord(record.events[:1])
        for command in record.commands():
            again = again.push(command)
        assert again.events == record.events and again.state == record.state
        assert again.commands() == record.commands()


# --------------------------------------------------------------------------
# events of exactly their types


def _whole_game() -> ll.GameRecord:
    return ll.play_game("2019", 3, random_bots(3, 5), seed=5)


def _with(events: tuple[ll.Event, ...], index: int, **fields: object) -> list[ll.Event]:
    changed = list(events)
    changed[index] = attrs.evolve(changed[index], **fields)
    return changed


@pytest.mark.parametrize("value", [1.0, True])
def test_a_seat_that_only_equals_an_int_is_refused_when_the_record_is_built(value: object) -> None:
    events = _whole_game().events
    index = next(i for i, e in enumerate(events) if isinstance(e, CardDealt) and e.player == 1)
    with pytest.raises(ll.EventMismatch) as caught:
        ll.GameRecord(_with(events, index, player=value))
    assert caught.value.index == index
    assert caught.value.detail == f"CardDealt.player must be int, not {value!r}"


def test_every_field_of_a_built_record_is_of_exactly_its_type() -> None:
    events = _whole_game().events
    dealt = next(i for i, e in enumerate(events) if isinstance(e, CardDealt))
    ended = next(i for i, e in enumerate(events) if isinstance(e, RoundEnded))
    card, end = events[dealt], events[ended]
    assert isinstance(card, CardDealt) and card.card is not None and isinstance(end, RoundEnded)
    for index, fields, name in (
        (dealt, {"card": int(card.card)}, "CardDealt.card"),
        (ended, {"reason": str(end.reason)}, "RoundEnded.reason"),
        (ended, {"winners": list(end.winners)}, "RoundEnded.winners"),
        (ended, {"winners": tuple(float(w) for w in end.winners)}, "RoundEnded.winners"),
        (0, {"ruleset": type("Name", (str,), {})("2019")}, "GameStarted.ruleset"),
    ):
        with pytest.raises(ll.EventMismatch) as caught:
            ll.GameRecord(_with(events, index, **fields))
        assert caught.value.index == index and caught.value.detail.startswith(name)


def test_a_misfit_after_an_impossible_event_is_not_the_first_refusal() -> None:
    events = _whole_game().events
    dealt = [i for i, e in enumerate(events) if isinstance(e, CardDealt)]
    first = events[dealt[0]]
    assert isinstance(first, CardDealt)
    forged = _with(events, dealt[0], player=(first.player + 1) % 3)
    forged = _with(tuple(forged), dealt[-1], player=1.0)
    with pytest.raises(ll.EventMismatch) as caught:
        ll.GameRecord(forged)
    assert caught.value.index == dealt[0]


def test_a_float_seat_never_reaches_a_saved_record() -> None:
    record = ll.GameRecord.new("2019", 3, seed=2)
    for command in (ll.PlayCard(0.0, ll.Card.GUARD, 1, ll.Card.PRIEST), ll.DrawCard(True)):  # type: ignore[arg-type]
        with pytest.raises(ll.IllegalCommand):
            record.push(command)
    with pytest.raises(ll.SetupError):
        ll.GameRecord.new("2019", 3, seed=2, first_player=1.0)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# positions without a seed


def _seedless() -> ll.Position:
    return attrs.evolve(ll.to_position(ll.new_game("2019", 3, seed=3)), seed=None)


def test_a_position_without_a_seed_takes_a_fresh_secret_one() -> None:
    position = _seedless()
    assert ll.Position(**{**attrs.asdict(position, recurse=False), "seed": 7}).seed == 7
    seeds = {ll.from_position(position).seed for _ in range(5)}
    assert len(seeds) == 5 and max(seeds) > 2**64
    assert ll.from_position(attrs.evolve(position, seed=12)).seed == 12
    assert ll.loads(ll.dumps(position), ll.Position) == position


def test_a_record_from_a_position_without_a_seed_keeps_the_one_it_took() -> None:
    record = ll.GameRecord.from_position(_seedless())
    first = record.events[0]
    assert isinstance(first, ll.PositionEstablished) and first.position is not None
    assert first.position.seed == record.seed
    while record.state.decision is not ll.Decision.NEXT_ROUND:
        record = record.push(ll.legal_commands(record.state)[0])
    record = record.push(ll.StartRound())
    assert ll.GameRecord(record.events).state == record.state
    assert ll.loads(ll.dumps(record)) == record
    bare = ll.GameRecord((ll.PositionEstablished(_seedless()),))
    assert isinstance(bare.events[0], ll.PositionEstablished)
    assert bare.events[0].position is not None and bare.events[0].position.seed == bare.seed


# --------------------------------------------------------------------------
# reading files


def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    outcome: list[BaseException | object] = []

    def read() -> None:
        try:
            outcome.append(serialization.read_json_file(fifo))
        except BaseException as error:  # any: reported below
            outcome.append(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=5)
    if reader.is_alive():  # waiting for a writer: let it go before failing
        os.close(os.open(fifo, os.O_WRONLY))
        reader.join(timeout=5)
        pytest.fail("reading a named pipe waited for a writer")
    (error,) = outcome
    assert isinstance(error, ll.SerializationError) and "named pipe" in str(error)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused_unread() -> None:
    with pytest.raises(ll.SerializationError) as caught:
        serialization.read_json_file("/dev/zero")
    assert "not a regular file but a device" in str(caught.value)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ll.SerializationError) as caught:
        serialization.read_json_file(tmp_path)
    assert "a directory" in str(caught.value)


def test_a_file_over_the_bound_is_refused_unopened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    with open(path, "wb") as file:
        file.truncate(records.MAX_RECORD_BYTES + 1)  # sparse: no disk used

    def never(*args: object, **kwargs: object) -> object:
        raise AssertionError("the file was opened")

    with monkeypatch.context() as patch, pytest.raises(ll.SerializationError) as caught:
        patch.setattr("builtins.open", never)
        patch.setattr(os, "open", never)
        serialization.read_json_file(path)
    assert f"larger than {records.MAX_RECORD_BYTES} bytes" in str(caught.value)


def test_a_record_of_empty_events_fails_at_the_first_without_holding_the_rest(
    tmp_path: Path,
) -> None:
    count = 400_000
    path = tmp_path / "empty.json"
    path.write_text(
        '{"type": "GameRecord", "format": 2, "events": [' + ",".join(["{}"] * count) + "]}",
        encoding="utf-8",
    )
    size = path.stat().st_size
    caught, peak = _refused_with_peak(lambda: serialization.read_json_file(path))
    assert caught.path == "events[0].type"
    assert peak < 4 * size  # the bytes and the text; 400,000 dicts would take 20 times


def _refused_with_peak(read: Callable[[], object]) -> tuple[ll.SerializationError, int]:
    """The error ``read`` raises, and the most memory Python held meanwhile."""
    tracemalloc.start()
    try:
        with pytest.raises(ll.SerializationError) as caught:
            read()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return caught.value, peak


def test_a_record_of_too_many_events_is_refused_when_it_gets_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = _whole_game()
    monkeypatch.setattr(records, "MAX_RECORD_EVENTS", 10)
    for text in (ll.dumps(record), json.dumps(_data(record), sort_keys=True)):
        with pytest.raises(ll.SerializationError) as caught:
            ll.loads(text)
        assert caught.value.path == "events" and "more than 10 events" in str(caught.value)


def test_one_huge_value_is_refused_without_being_built() -> None:
    # 1.4 million empty arrays in one event: read whole, some 90 MB
    inner = ",".join(["[]"] * (MAX_ITEM_CHARS * 4 // 3))
    text = (
        '{"type": "GameRecord", "format": 2, "events": [{"type": "TurnStarted", "player": ['
        + inner
        + "]}]}"
    )
    caught, peak = _refused_with_peak(lambda: ll.loads(text))
    assert caught.path == "events[0]" and "longer than" in str(caught)
    assert peak < 32 * MAX_ITEM_CHARS  # what one window of the text can hold at most
    state = ll.dumps(ll.new_game("2019", 3, seed=1))
    with pytest.raises(ll.SerializationError) as long_document:
        ll.loads(state[:-1] + ", " + " " * MAX_ITEM_CHARS + "}")
    assert "may be longer than" in str(long_document.value)


def test_a_record_in_any_key_order_or_spacing_reads_the_same() -> None:
    record = _played("online", 4, 2, stack=0.5)
    data = _data(record)
    for text in (
        json.dumps(data, sort_keys=True),
        json.dumps(data, indent=3),
        "  \n" + json.dumps(data, separators=(",", ":")) + "\n\n",
    ):
        loaded = ll.loads(text)
        assert loaded == record and loaded.commands() == record.commands()
    assert ll.loads(ll.dumps([record, record])) == (record, record)


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "GameRecord", "format": 2 "events": []}',
        '{"type": "GameRecord", "format": 2, "events": [{"type": "TurnStarted" 1}]}',
        '{"type": "GameRecord", "format": 2, "events": [{}, ]}',
        '{"type": "GameRecord", "format": 2, "events": [{}}',
        '{"type": "GameRecord", "format": 2, "events": [] } x',
        '[{"type": "TurnStarted", "player": 1} {"type": "TurnStarted", "player": 1}]',
        '{"type": "GameRecord", "format": 2, 7: 1}',
        '{"type": "GameRecord", "format": 2, "events": [{"type": "TurnStarted", "player": NaN}]}',
    ],
)
def test_malformed_json_is_refused_by_position(text: str) -> None:
    with pytest.raises(ll.SerializationError) as caught:
        ll.loads(text)
    message = str(caught.value)
    assert "not JSON" in message or "events[0]" in message, message
    if "at character" in message:
        position = int(message.rsplit(" ", 1)[1])
        assert 0 < position < len(text)


def test_a_records_unknown_or_repeated_fields_are_refused() -> None:
    data = _data(_whole_game())
    text = json.dumps(data)
    with pytest.raises(ll.SerializationError) as caught:
        ll.loads(text[:-1] + ', "seed": "5"}')
    assert caught.value.path == "seed" and "twice" in str(caught.value)
    with pytest.raises(ll.SerializationError) as caught:
        ll.loads(text[:-1] + ', "extra": 1}')
    assert caught.value.path == "extra"
    with pytest.raises(ll.SerializationError) as caught:
        ll.loads(json.dumps(dict(data, events=[])))
    assert caught.value.path == "events"
    with pytest.raises(ll.SerializationError) as caught:
        ll.loads(text, ll.GameState)
    assert caught.value.path == "type"
