"""A card-counting bot against three random bots: its win rate over 300
games of the 2019 edition. Run: ``.venv/bin/python examples/card_counter.py``.

It uses only the public API: a view (its hand, the discard piles, the
face-up cards, what it has been shown) and the legal commands of that view.
"""

from collections import Counter

import loveletter as ll


class CardCounter:
    """Names, with a Guard, the card most likely to be in the target's hand;
    otherwise plays the lower card, never the Princess."""

    def __init__(self, seed: int) -> None:
        self.fallback = ll.RandomBot(seed)

    def choose(self, view: ll.PlayerView) -> ll.Command:
        # every card out of sight (other hands, the deck, the set-aside card)
        unseen = Counter(view.unseen_cards())
        # what each player was last seen holding (it may have been played since)
        known = {seen.owner: seen.card for seen in view.sightings}

        def score(command: ll.Command) -> float:
            if not isinstance(command, ll.PlayCard):
                return 0.0
            if command.card is ll.Card.PRINCESS:
                return -100.0
            guess = command.guess
            if command.card is ll.Card.GUARD and isinstance(guess, ll.Card):
                if command.target is not None and known.get(command.target) == guess:
                    return 10.0  # we saw that card in their hand
                return unseen[guess] / max(1, sum(unseen.values()))
            return -view.value(command.card) / 10  # otherwise keep the higher card

        best = max(view.legal_commands, key=score)
        return best if score(best) > -100 else self.fallback.choose(view)


games, wins = 300, 0
for game in range(games):
    agents: list[ll.Agent] = [CardCounter(game)]
    agents += [ll.RandomBot(game * 10 + seat) for seat in (1, 2, 3)]
    outcome = ll.play_game("2019", 4, agents, seed=game).outcome()
    assert outcome is not None  # play_game plays to the end
    wins += 0 in outcome.winners
print(f"card counter won {wins} of {games} games ({wins / games:.0%}; a random bot wins ~25%)")
