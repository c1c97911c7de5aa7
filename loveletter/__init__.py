from loveletter.engine import (
    decide,
    legal_commands,
    new_game,
    playable_cards,
    push,
    replay,
    start_game,
    step,
)
from loveletter.evolve import evolve

__all__ = ["decide", "evolve", "legal_commands", "new_game", "playable_cards", "push", "replay", "start_game", "step"]
