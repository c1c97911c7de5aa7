"""The comparison rules of conformance/README.md ("Comparison")."""

from __future__ import annotations

from loveletter.conformance.compare import command_set_diff, matches, sequence_diff


def test_mappings_compare_on_listed_keys_only() -> None:
    assert matches({"type": "TurnStarted"}, {"type": "TurnStarted", "player": 1, "extra": 0})
    assert not matches({"type": "TurnStarted", "player": 2}, {"type": "TurnStarted", "player": 1})


def test_listed_null_matches_an_absent_key() -> None:
    assert matches({"target": None}, {})
    assert not matches({"target": 1}, {})


def test_lists_compare_in_order_and_length() -> None:
    assert matches([1, 2], [1, 2])
    assert not matches([1, 2], [2, 1])
    assert not matches([1], [1, 2])
    assert not matches([{"type": "A"}], [{"type": "A"}, {"type": "B"}])


def test_booleans_are_not_numbers() -> None:
    assert not matches(1, True)
    assert not matches(False, 0)
    assert matches(True, True)


def test_legal_commands_are_sets_with_absent_meaning_null() -> None:
    a = {"type": "PlayCard", "player": 0, "card": "Handmaid"}
    b = {"type": "PlayCard", "player": 0, "card": "Guard", "target": 1, "guess": "Baron"}
    full_a = {**a, "target": None, "guess": None}
    assert command_set_diff([a, b], [b, full_a], exact=True) == []
    assert command_set_diff([a], [a, b], exact=False) == []
    assert command_set_diff([a], [a, b], exact=True) == [
        "+ PlayCard {card: Guard, guess: Baron, player: 0, target: 1} (not legal)"
    ]
    assert "(listed twice)" in command_set_diff([a], [a, a], exact=True)[0]
    assert "(missing)" in command_set_diff([a, b], [a], exact=True)[0]


def test_sequence_diff_aligns_on_event_types() -> None:
    expected = [{"type": "A", "x": 1}, {"type": "C"}]
    actual = [{"type": "A", "x": 2, "y": 0}, {"type": "B"}, {"type": "C"}]
    assert sequence_diff(expected, actual) == ["- A {x: 1}", "+ A {x: 2}", "+ B {}", "  C {}"]
