"""The pure Tongits rules engine.

Nothing here imports Django, reads the clock or uses randomness other than a seed it is
given (a test checks this). Cards are ints 0..51 (``suit * 13 + rank``) and any set of
cards is a 52-bit int mask, which is what makes legal-move generation fast enough.

May import: nothing of games outside engine/; everything else is built on it.
"""

from .cards import InvalidCardError, parse_card
from .deal import deal_from_seed, new_game
from .moves import IllegalMoveError, InvalidMoveError, Move
from .record import Record, RecordError, Replay, load_record, replay, replay_text, summary
from .rules import apply, legal_moves
from .state import GameState, Meld, Outcome, Payment, Phase
from .view import SeatView, seat_view

__all__ = [
    "GameState", "IllegalMoveError", "InvalidCardError", "InvalidMoveError", "Meld", "Move",
    "Outcome", "Payment", "Phase", "Record", "RecordError", "Replay", "SeatView", "apply",
    "deal_from_seed", "legal_moves", "load_record", "new_game", "parse_card", "replay",
    "replay_text", "seat_view", "summary",
]  # fmt: skip
