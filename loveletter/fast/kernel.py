"""The compiled rules: numba functions over a batch of games held as arrays.

Nothing here is public: :class:`loveletter.fast.FastBatch` and
:func:`loveletter.fast.play_random_rounds` are the ways in.

**Layout.** A batch is one ``int32`` array with a row per game
(``st[g]``); every field of a game sits at a fixed column (``F_*`` for
its scalars, ``O_*`` where its zones start), the same for every edition,
so that compiled code is built once and a call passes a few arrays, not
twenty (passing arrays costs more than the work of most functions here).
The rules of a table are one ``int32`` array too (``R``; ``P_*`` for its
parameters, ``V_*`` where its tables start), built by ``rules_array``.
Each game's random generator is one ``uint64`` in ``rng[g]``; ``wk`` is
``int64`` scratch space. A game dealing from the reference's seed keeps
the seed's text in its row (``O_SEED``) for the compiled BLAKE2b.

The order in which things happen follows the reference's events exactly
(a knock-out moves the hand to the pile, then pays the Constable, then may
end the round or the game, and the rest of the effect is skipped; the
Bishop's token is counted before the redraw is offered; ...), so that the
two implementations' states can be compared after every command. Rule ids
in comments point to ``spec/rules``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np
import numpy.typing as npt

from loveletter.fast.tables import (
    ACT_DECLINE,
    ACT_KEEP,
    ACT_LOOK,
    ACT_PLAY,
    ACT_REDRAW,
    ACT_START,
    ANY,
    ASSASSIN,
    BARON,
    BISHOP,
    CARD_CODES,
    CARDINAL,
    CHANCELLOR,
    CONSTABLE,
    COUNT,
    COUNTESS,
    DOWAGER_QUEEN,
    GUARD,
    HANDMAID,
    JESTER,
    KING,
    NONE,
    ONE_OR_TWO_OTHERS,
    ORDERED_PAIR,
    OTHER,
    PAIR,
    PRINCE,
    PRINCESS,
    SPY,
    SYCOPHANT,
    TWO_OTHERS,
    ActionTable,
    Edition,
)

F = TypeVar("F", bound=Callable[..., Any])


#: numba's options for every function here (see :func:`_compiled`)
_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": False}


def _compiled(function: F) -> F:
    """``numba.njit`` with an on-disk cache (``__pycache__``), typed for
    mypy (numba's decorator returns a dispatcher mypy cannot see through).

    ``_nrt=False`` turns numba's reference counting of arrays off: every
    call between compiled functions counted each array passed, which cost
    more than the rules' work (this code never allocates an array, the
    only reason to count them). It is numba's own option, if not a
    documented one, hence numba's version pinned in the extra."""
    dispatcher: F = numba.njit(**_OPTIONS)(function)
    return dispatcher


def _inlined(function: F) -> F:
    """:func:`_compiled`, and inlined into the compiled code that calls it:
    even without reference counts a call costs more than these small
    functions' work."""
    dispatcher: F = numba.njit(**_OPTIONS, inline="always")(function)
    return dispatcher


# What the game waits for (the reference's Decision, as numbers).
PLAY, KEEP, LOOK, REDRAW, NEXT_ROUND, GAME_OVER = range(6)
# Why a round ended (0: it has not ended, or a game was won in its middle).
ONE_PLAYER_LEFT, DECK_EMPTY = 1, 2

MAX_PLAYERS = 8
MAX_DECK = 96  # three copies of the 32-card deck
MAX_MARKS = 4
MAX_ACTIONS = 2048

# A game's row: its scalars first.
F_DECISION = 0
F_CURRENT = 1  # whose turn it is
F_TURN = 2  # turns started this round
F_ROUND = 3  # round number, from 1
F_HEAD = 4  # the deck is the row's O_DECK + HEAD .. O_DECK + TAIL, top first
F_TAIL = 5
F_OUT = 6  # bit per seat: out of the round
F_PROTECTED = 7  # bit per seat: protected by a Handmaid
F_REQUIRED = 8  # the seat a Sycophant requires, or -1
F_PENDING = 9  # a Bishop's target / the first Cardinal seat, or -1
F_PENDING2 = 10  # the second Cardinal seat, or -1
F_SET_ASIDE = 11  # the set-aside card, or -1
F_MARKS = 12  # Jester marks this round
F_EXITS = 13  # players gone out this round (online)
F_CONTENDERS = 14  # bit per seat: tied players of a tie-break round
F_GAME_WINNERS = 15  # bit per seat
F_REASON = 16  # how the last round ended (0 while one is played)
F_ROUND_WINNERS = 17  # bit per seat
F_FIRST = 18  # the round's first player
F_ERROR = 19  # non-zero: the game met something it cannot do
F_TURNS_TOTAL = 20  # turns started in the game, all rounds
F_CHANCE = 21  # 0: deals from the game's generator; else the seed's text length (below)
F_FIRST_PLAYER = 22  # the first round's named first player, or -1 (seeded deals)
# Then its zones.
O_DECK = 24  # MAX_DECK + 8 cards (a Chancellor returns cards under it)
O_HANDS = O_DECK + MAX_DECK + 8  # per seat: size, then up to 3 cards
HAND = 4
O_PILES = O_HANDS + MAX_PLAYERS * HAND  # per seat: size, then MAX_DECK cards
PILE = MAX_DECK + 1
O_TOKENS = O_PILES + MAX_PLAYERS * PILE
O_FACE_UP = O_TOKENS + MAX_PLAYERS  # 3 cards
O_MARKS = O_FACE_UP + 4  # (Jester's player, marked player) pairs
O_ORDER = O_MARKS + 2 * MAX_MARKS  # online: the round's turn order
O_EXITS = O_ORDER + MAX_PLAYERS  # online: the order players went out
O_RANKS = O_EXITS + MAX_PLAYERS  # online: the last round's ranks (0: none)
O_SEED = O_RANKS + MAX_PLAYERS  # "loveletter/<seed>/" as bytes (seeded deals)
SEED_TEXT = 96
WIDTH = O_SEED + SEED_TEXT

# The rules array: parameters first.
P_PLAYERS = 0
P_DECK = 1  # cards in one round's deck (all copies)
P_SETS_ASIDE = 2
P_FACE_UP = 3
P_END_PILE = 4
P_RANKED = 5
P_TIE_BREAK = 6
P_BY_TOTAL = 7
P_TOKENS = 8  # tokens to win, 0: none
P_NAMES_NUMBERS = 9
P_CARDINAL_LOOK = 10
P_ASSASSIN = 11  # the deck holds the Assassin
P_CONSTABLE = 12
P_SPY = 13
P_JESTER = 14
P_LOOK_BASE = 15
P_REDRAW_ID = 16
P_DECLINE_ID = 17
P_START_ID = 18
P_ACTIONS = 19
# Then its tables.
V_VALUES = 32  # per card code
V_CHOICES = V_VALUES + CARD_CODES
V_NAMES = V_CHOICES + CARD_CODES  # per card code, 10 names
V_NAME_COUNTS = V_NAMES + CARD_CODES * 10
V_DECK = V_NAME_COUNTS + CARD_CODES  # the canonical deck
V_PLAY_IDS = V_DECK + MAX_DECK  # per card, target + 1, second + 1, name + 1
PLAY_T = MAX_PLAYERS + 1
PLAY_N = 11
V_KEEP_IDS = V_PLAY_IDS + CARD_CODES * PLAY_T * PLAY_T * PLAY_N  # kept, first, second + 1
V_DECODED = V_KEEP_IDS + CARD_CODES * CARD_CODES * (CARD_CODES + 1)  # per id: 5 columns
V_FACTORIAL_BITS = V_DECODED + MAX_ACTIONS * 5  # bit length of n!, n = 0 .. MAX_DECK
RULES_SIZE = V_FACTORIAL_BITS + MAX_DECK + 1

# Scratch space (``wk``, int64): legal ids, playable cards, a deck and an
# order; then the seeded chance's message, hash state and number.
W_IDS = 0
W_CARDS = 512
W_DECK = 520
W_ORDER = W_DECK + MAX_DECK
W_MESSAGE = W_ORDER + MAX_PLAYERS  # bytes, up to two BLAKE2b blocks
W_HASH = W_MESSAGE + 256  # BLAKE2b's 8 state words
W_BLOCK = W_HASH + 8  # a block's 16 words
W_NUMBER = W_BLOCK + 16  # the chance number: 16 32-bit limbs, most significant first
W_POOL = W_NUMBER + 16  # what a shuffle draws from
SCRATCH = W_POOL + MAX_DECK

# Error codes (``F_ERROR``).
ERR_ILLEGAL = 1  # an action the rules do not allow now
ERR_NO_CARD = 2  # a draw with no card to draw (cannot happen under the rules)


def rules_array(ed: Edition, players: int, decks: int, table: ActionTable) -> npt.NDArray[np.int32]:
    """The rules of one table as the array the compiled code reads."""
    counts = ed.deck_counts(players)
    deck = sorted(card for card, copies in counts.items() for _ in range(copies * decks))
    if len(table.entries) > MAX_ACTIONS:
        raise ValueError("too many actions for the compiled layout")
    R = np.zeros(RULES_SIZE, dtype=np.int32)
    R[P_PLAYERS] = players
    R[P_DECK] = len(deck)
    R[P_SETS_ASIDE] = ed.sets_aside
    R[P_FACE_UP] = ed.face_up.get(players, 0)
    R[P_END_PILE] = ed.end_pile
    R[P_RANKED] = ed.ranked
    R[P_TIE_BREAK] = ed.tie_break_round
    R[P_BY_TOTAL] = ed.tie_by_total
    R[P_TOKENS] = ed.tokens_to_win.get(players, 0)
    R[P_NAMES_NUMBERS] = ed.names_numbers
    R[P_CARDINAL_LOOK] = ed.cardinal_optional_look
    R[P_ASSASSIN] = counts.get(ASSASSIN, 0) > 0
    R[P_CONSTABLE] = counts.get(CONSTABLE, 0) > 0
    R[P_SPY] = counts.get(SPY, 0) > 0
    R[P_JESTER] = counts.get(JESTER, 0) > 0
    R[P_LOOK_BASE] = table.look_base
    R[P_REDRAW_ID] = table.redraw_id
    R[P_DECLINE_ID] = table.decline_id
    R[P_START_ID] = table.start_id
    R[P_ACTIONS] = table.size
    for card, value in ed.values.items():
        R[V_VALUES + card] = value
    for card, choice in ed.choices.items():
        R[V_CHOICES + card] = choice
    R[V_NAMES : V_NAMES + CARD_CODES * 10] = table.names.reshape(-1)
    R[V_NAME_COUNTS : V_NAME_COUNTS + CARD_CODES] = (table.names >= 0).sum(axis=1)
    R[V_DECK : V_DECK + len(deck)] = deck
    play_ids = np.full((CARD_CODES, PLAY_T, PLAY_T, PLAY_N), -1, dtype=np.int32)
    play_ids[:, : players + 1, : players + 1, :] = table.play_ids
    R[V_PLAY_IDS:V_KEEP_IDS] = play_ids.reshape(-1)
    R[V_KEEP_IDS:V_DECODED] = table.keep_ids.reshape(-1)
    R[V_DECODED : V_DECODED + 5 * table.size] = table.decoded.reshape(-1)
    R[V_FACTORIAL_BITS : V_FACTORIAL_BITS + MAX_DECK + 1] = [
        math.factorial(n).bit_length() for n in range(MAX_DECK + 1)
    ]
    return R


# --------------------------------------------------------------------------
# chance: SplitMix64, one generator per game


@_compiled
def seed_game(rng: Any, g: int, seed: int) -> None:
    """Seed game ``g``'s generator from ``seed`` and ``g``."""
    rng[g] = np.uint64(seed) ^ (np.uint64(g + 1) * np.uint64(0x9E3779B97F4A7C15))
    _next_random(rng, g)


@_inlined
def _next_random(rng: Any, g: int) -> np.uint64:
    z = rng[g] + np.uint64(0x9E3779B97F4A7C15)
    rng[g] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.uint64(z ^ (z >> np.uint64(31)))


@_inlined
def random_below(rng: Any, g: int, bound: int) -> int:
    """A number from 0 to ``bound - 1`` (below 2**31): the high 32 bits of
    a random number scaled to the bound (bias below 2**-20 for the bounds
    used here, which stay under 2**12), cheaper than a division."""
    high = _next_random(rng, g) >> np.uint64(32)
    return int(np.int64((high * np.uint64(bound)) >> np.uint64(32)))


# --------------------------------------------------------------------------
# the reference's seeded chance (loveletter/chance.py; conformance/README.md,
# "Seeded chance"): BLAKE2b-512 of "loveletter/<seed>/<round>/<purpose>",
# read as a big-endian number, decoded as a Lehmer code for a shuffle


_IV = np.array(
    [
        0x6A09E667F3BCC908,
        0xBB67AE8584CAA73B,
        0x3C6EF372FE94F82B,
        0xA54FF53A5F1D36F1,
        0x510E527FADE682D1,
        0x9B05688C2B3E6C1F,
        0x1F83D9ABFB41BD6B,
        0x5BE0CD19137E2179,
    ],
    dtype=np.uint64,
)
_SIGMA = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ],
    dtype=np.int64,
)
#: the purposes of the draws, as bytes
PURPOSE_DECK = np.frombuffer(b"deck", dtype=np.uint8).astype(np.int64)
PURPOSE_ORDER = np.frombuffer(b"order", dtype=np.uint8).astype(np.int64)
PURPOSE_FIRST = np.frombuffer(b"first-player", dtype=np.uint8).astype(np.int64)


@_inlined
def _rotr(x: Any, n: int) -> Any:
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@_inlined
def _mix(a: Any, b: Any, c: Any, d: Any, x: Any, y: Any) -> tuple[Any, Any, Any, Any]:
    a = a + b + x
    d = _rotr(d ^ a, 32)
    c = c + d
    b = _rotr(b ^ c, 24)
    a = a + b + y
    d = _rotr(d ^ a, 16)
    c = c + d
    b = _rotr(b ^ c, 63)
    return a, b, c, d


@_compiled
def _compress(wk: Any, counter: int, last: bool) -> None:
    """BLAKE2b's compression of the block at ``W_BLOCK`` into ``W_HASH``."""
    v0 = np.uint64(wk[W_HASH])
    v1 = np.uint64(wk[W_HASH + 1])
    v2 = np.uint64(wk[W_HASH + 2])
    v3 = np.uint64(wk[W_HASH + 3])
    v4 = np.uint64(wk[W_HASH + 4])
    v5 = np.uint64(wk[W_HASH + 5])
    v6 = np.uint64(wk[W_HASH + 6])
    v7 = np.uint64(wk[W_HASH + 7])
    v8 = _IV[0]
    v9 = _IV[1]
    v10 = _IV[2]
    v11 = _IV[3]
    v12 = _IV[4] ^ np.uint64(counter)
    v13 = _IV[5]
    v14 = ~_IV[6] if last else _IV[6]
    v15 = _IV[7]
    b = W_BLOCK
    for r in range(12):
        s = _SIGMA[r % 10]
        v0, v4, v8, v12 = _mix(v0, v4, v8, v12, np.uint64(wk[b + s[0]]), np.uint64(wk[b + s[1]]))
        v1, v5, v9, v13 = _mix(v1, v5, v9, v13, np.uint64(wk[b + s[2]]), np.uint64(wk[b + s[3]]))
        v2, v6, v10, v14 = _mix(v2, v6, v10, v14, np.uint64(wk[b + s[4]]), np.uint64(wk[b + s[5]]))
        v3, v7, v11, v15 = _mix(v3, v7, v11, v15, np.uint64(wk[b + s[6]]), np.uint64(wk[b + s[7]]))
        v0, v5, v10, v15 = _mix(v0, v5, v10, v15, np.uint64(wk[b + s[8]]), np.uint64(wk[b + s[9]]))
        v1, v6, v11, v12 = _mix(
            v1, v6, v11, v12, np.uint64(wk[b + s[10]]), np.uint64(wk[b + s[11]])
        )
        v2, v7, v8, v13 = _mix(v2, v7, v8, v13, np.uint64(wk[b + s[12]]), np.uint64(wk[b + s[13]]))
        v3, v4, v9, v14 = _mix(v3, v4, v9, v14, np.uint64(wk[b + s[14]]), np.uint64(wk[b + s[15]]))
    wk[W_HASH] = np.int64(np.uint64(wk[W_HASH]) ^ v0 ^ v8)
    wk[W_HASH + 1] = np.int64(np.uint64(wk[W_HASH + 1]) ^ v1 ^ v9)
    wk[W_HASH + 2] = np.int64(np.uint64(wk[W_HASH + 2]) ^ v2 ^ v10)
    wk[W_HASH + 3] = np.int64(np.uint64(wk[W_HASH + 3]) ^ v3 ^ v11)
    wk[W_HASH + 4] = np.int64(np.uint64(wk[W_HASH + 4]) ^ v4 ^ v12)
    wk[W_HASH + 5] = np.int64(np.uint64(wk[W_HASH + 5]) ^ v5 ^ v13)
    wk[W_HASH + 6] = np.int64(np.uint64(wk[W_HASH + 6]) ^ v6 ^ v14)
    wk[W_HASH + 7] = np.int64(np.uint64(wk[W_HASH + 7]) ^ v7 ^ v15)


@_compiled
def _chance_number(wk: Any, length: int) -> None:
    """The chance number of the message of ``length`` bytes at
    ``W_MESSAGE``: its BLAKE2b-512 digest as 16 limbs at ``W_NUMBER``."""
    for i in range(8):
        wk[W_HASH + i] = np.int64(_IV[i])
    # no key, a 64-byte digest: the parameter block's first word
    wk[W_HASH] = np.int64(np.uint64(wk[W_HASH]) ^ np.uint64(0x01010040))
    blocks = max(1, (length + 127) // 128)
    for block in range(blocks):
        for w in range(16):
            word = np.uint64(0)
            for k in range(8):
                at = block * 128 + w * 8 + k
                if at < length:
                    word |= np.uint64(wk[W_MESSAGE + at]) << np.uint64(8 * k)
            wk[W_BLOCK + w] = np.int64(word)
        _compress(wk, min((block + 1) * 128, length), block == blocks - 1)
    for limb in range(16):
        value = 0
        for k in range(4):
            at = limb * 4 + k  # the digest's byte, little-endian words
            byte = (np.uint64(wk[W_HASH + at // 8]) >> np.uint64(8 * (at % 8))) & np.uint64(255)
            value = value * 256 + int(byte)
        wk[W_NUMBER + limb] = value


@_compiled
def _message(st: Any, g: int, wk: Any, round_number: int, purpose: Any) -> int:
    """``loveletter/<seed>/<round>/<purpose>`` at ``W_MESSAGE``; its length."""
    length = st[g, F_CHANCE]
    for i in range(length):
        wk[W_MESSAGE + i] = st[g, O_SEED + i]
    digits = 1
    while 10**digits <= round_number:
        digits += 1
    for i in range(digits):
        wk[W_MESSAGE + length + digits - 1 - i] = 48 + (round_number // 10**i) % 10
    length += digits
    wk[W_MESSAGE + length] = 47  # "/"
    length += 1
    for i in range(purpose.shape[0]):
        wk[W_MESSAGE + length + i] = purpose[i]
    return int(length + purpose.shape[0])


@_compiled
def _divide(wk: Any, divisor: int) -> int:
    """Divide the number at ``W_NUMBER`` by ``divisor`` in place; the remainder."""
    # The leading zero limbs stay zero and leave no remainder: skipping them
    # makes a shuffle's decoding, whose number is cut to a few limbs, a
    # few times cheaper (it was most of a seeded deal's cost).
    first = 0
    while first < 15 and wk[W_NUMBER + first] == 0:
        first += 1
    remainder = 0
    for limb in range(first, 16):
        current = remainder * 4294967296 + wk[W_NUMBER + limb]
        wk[W_NUMBER + limb] = current // divisor
        remainder = current % divisor
    return int(remainder)


@_compiled
def _keep_top_bits(wk: Any, bits: int) -> None:
    """Shift the number at ``W_NUMBER`` right so that its top ``bits`` of
    512 remain."""
    shift = 512 - bits
    words, rest = shift // 32, shift % 32
    for limb in range(15, -1, -1):
        source = limb - words
        high = wk[W_NUMBER + source] if source >= 0 else 0
        low = wk[W_NUMBER + source - 1] if source >= 1 else 0
        wk[W_NUMBER + limb] = (
            ((high >> rest) | ((low << (32 - rest)) & 0xFFFFFFFF)) if rest else high
        )


@_compiled
def seeded_shuffle(
    st: Any, R: Any, g: int, wk: Any, round_number: int, purpose: Any, items: Any, size: int
) -> None:
    """setup.shuffle, setup.turn-order-online: ``items[:size]`` put in the
    order the reference draws for ``purpose`` in round ``round_number``
    (the top ``64 + bit length of size!`` bits of the chance number,
    decoded as a Lehmer code)."""
    _chance_number(wk, _message(st, g, wk, round_number, purpose))
    _keep_top_bits(wk, min(512, 64 + R[V_FACTORIAL_BITS + size]))
    for i in range(size):
        wk[W_POOL + i] = items[i]
    # The digits come from dividing by size, size - 1, ... in turn: dividing
    # once by the product of the next four (below 2**32 for a deck of up
    # to 96 cards) leaves the same four digits in the remainder, with a
    # quarter of the long divisions of the 512-bit number.
    left = size
    i = 0
    while i < size:
        digits = min(4, size - i)
        product = 1
        for d in range(digits):
            product *= left - d
        rest = _divide(wk, product)
        for _ in range(digits):
            index = rest % left
            rest //= left
            items[i] = wk[W_POOL + index]
            for j in range(index, left - 1):
                wk[W_POOL + j] = wk[W_POOL + j + 1]
            left -= 1
            i += 1


@_compiled
def seeded_choice(st: Any, g: int, wk: Any, round_number: int, purpose: Any, count: int) -> int:
    """The index the reference chooses among ``count`` options: the chance
    number modulo ``count``."""
    _chance_number(wk, _message(st, g, wk, round_number, purpose))
    return _divide(wk, count)


# --------------------------------------------------------------------------
# small helpers


@_inlined
def _bits(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@_inlined
def _take(st: Any, g: int, p: int, card: int) -> None:
    """Remove the first ``card`` from ``p``'s hand."""
    at = O_HANDS + p * HAND
    size = st[g, at]
    for i in range(1, size + 1):
        if st[g, at + i] == card:
            for j in range(i, size):
                st[g, at + j] = st[g, at + j + 1]
            st[g, at] = size - 1
            return


@_inlined
def _to_pile(st: Any, g: int, p: int, card: int) -> None:
    at = O_PILES + p * PILE
    size = st[g, at] + 1
    st[g, at + size] = card
    st[g, at] = size


@_inlined
def _to_hand(st: Any, g: int, p: int, card: int) -> None:
    at = O_HANDS + p * HAND
    size = st[g, at] + 1
    st[g, at + size] = card
    st[g, at] = size


@_inlined
def _holds(st: Any, g: int, p: int, card: int) -> bool:
    at = O_HANDS + p * HAND
    for i in range(1, st[g, at] + 1):  # noqa: SIM110  (a loop compiles to less than any())
        if st[g, at + i] == card:
            return True
    return False


@_inlined
def _in_pile(st: Any, g: int, p: int, card: int) -> int:
    """How many ``card`` lie in ``p``'s pile."""
    at = O_PILES + p * PILE
    count = 0
    for i in range(1, st[g, at] + 1):
        if st[g, at + i] == card:
            count += 1
    return count


@_inlined
def _pile_total(st: Any, R: Any, g: int, p: int) -> int:
    at = O_PILES + p * PILE
    total = 0
    for i in range(1, st[g, at] + 1):
        total += R[V_VALUES + st[g, at + i]]
    return total


@_inlined
def _draw_top(st: Any, g: int, p: int) -> None:
    """``p`` takes the top card of the deck."""
    head = st[g, F_HEAD]
    _to_hand(st, g, p, st[g, O_DECK + head])
    st[g, F_HEAD] = head + 1


@_inlined
def _draw_replacement(st: Any, g: int, p: int) -> None:
    """prince.empty-deck-draws-set-aside, assassin.discard-and-redraw,
    bishop.target-may-redraw: the top of the deck, or the set-aside card
    when the deck is empty (ruling 38: at most one such draw a turn)."""
    if st[g, F_TAIL] > st[g, F_HEAD]:
        _draw_top(st, g, p)
    elif st[g, F_SET_ASIDE] >= 0:
        _to_hand(st, g, p, st[g, F_SET_ASIDE])
        st[g, F_SET_ASIDE] = -1
    else:
        st[g, F_ERROR] = ERR_NO_CARD


# --------------------------------------------------------------------------
# awards, knock-outs, the end of a round


@_compiled
def _award_step(st: Any, R: Any, g: int, gained: int) -> bool:
    """game.tokens-to-win(-premium), game.simultaneous-winners,
    game.immediate-win, game.tie-break-round: after tokens are handed out,
    end the game or call a tie-break round; whether the game ended."""
    contenders = st[g, F_CONTENDERS]
    if contenders:
        reached = gained & contenders
    else:
        needed = R[P_TOKENS]
        if needed == 0:  # online: a win counter ends nothing
            return False
        reached = 0
        for p in range(R[P_PLAYERS]):
            if st[g, O_TOKENS + p] >= needed:
                reached |= 1 << p
    if reached == 0:
        return False
    if _bits(reached) == 1 or R[P_TIE_BREAK] == 0:
        st[g, F_DECISION] = GAME_OVER
        st[g, F_PENDING] = -1
        st[g, F_PENDING2] = -1
        st[g, F_GAME_WINNERS] = reached
        return True
    st[g, F_CONTENDERS] = reached
    return False


@_inlined
def _hand_card(st: Any, g: int, p: int) -> int:
    return int(st[g, O_HANDS + p * HAND + 1])


@_compiled
def _showdown(st: Any, R: Any, g: int, live: int) -> int:
    """round.highest-card-wins, round.tie-all-win, round.tie-discard-sum,
    count.showdown-bonus, bishop.princess-beats-bishop (ruling 28): the
    winners of a round the empty deck ends, as a seat mask."""
    n = R[P_PLAYERS]
    by_total = R[P_BY_TOTAL]
    winners = 0
    for i in range(n):
        if not live >> i & 1:
            continue
        mine = _hand_card(st, g, i)
        number = R[V_VALUES + mine] + _in_pile(st, g, i, COUNT)
        total = _pile_total(st, R, g, i) if by_total else 0
        beaten = False
        for j in range(n):
            if j == i or not live >> j & 1:
                continue
            theirs = _hand_card(st, g, j)
            if mine == BISHOP and theirs == PRINCESS:
                beaten = True
            elif not (mine == PRINCESS and theirs == BISHOP):
                other = R[V_VALUES + theirs] + _in_pile(st, g, j, COUNT)
                if other > number or (
                    other == number and by_total and _pile_total(st, R, g, j) > total
                ):
                    beaten = True
            if beaten:
                break
        if not beaten:
            winners |= 1 << i
    if winners == 0:  # a circle: the Princess wins it
        for p in range(n):
            if live >> p & 1 and _hand_card(st, g, p) == PRINCESS:
                winners |= 1 << p
    return winners


@_compiled
def _adjusted(st: Any, R: Any, g: int, p: int, live: int) -> int:
    """round.hand-bonus-online (ruling 45): ``p``'s hand value at a ranked
    round's end: printed value, the Counts in their pile, the hand bonus."""
    n = R[P_PLAYERS]
    card = _hand_card(st, g, p)
    counts = _in_pile(st, g, p, COUNT)
    bonus = 0
    if card == PRINCESS:
        for q in range(n):
            if q != p and live >> q & 1 and _hand_card(st, g, q) == BISHOP:
                bonus = 4
    elif card in (COUNTESS, DOWAGER_QUEEN) and counts >= 2:
        princess = False
        lower_bishop = False
        mine = _pile_total(st, R, g, p)
        for q in range(n):
            if q != p and live >> q & 1:
                theirs = _hand_card(st, g, q)
                if theirs == PRINCESS:
                    princess = True
                elif theirs == BISHOP and _pile_total(st, R, g, q) < mine:
                    lower_bishop = True
        if princess and lower_bishop:
            bonus = 4
    return int(R[V_VALUES + card]) + counts + bonus


@_compiled
def _rank(st: Any, R: Any, g: int, reason: int, live: int) -> int:
    """round.ranks-online (ruling 44): every seat's rank into the row;
    the rank-1 seats as a mask."""
    n = R[P_PLAYERS]
    for p in range(n):
        st[g, O_RANKS + p] = 0
    if reason == DECK_EMPTY:
        for p in range(n):
            if not live >> p & 1:
                continue
            value = _adjusted(st, R, g, p, live)
            total = _pile_total(st, R, g, p)
            above = 0
            for q in range(n):
                if q != p and live >> q & 1:
                    other = _adjusted(st, R, g, q, live)
                    if other > value or (other == value and _pile_total(st, R, g, q) > total):
                        above += 1
            st[g, O_RANKS + p] = 1 + above
    else:
        for p in range(n):
            if live >> p & 1:
                st[g, O_RANKS + p] = 1
    gone = st[g, F_EXITS]
    dealt = _bits(live) + gone
    for index in range(gone):
        st[g, O_RANKS + st[g, O_EXITS + index]] = dealt - index
    winners = 0
    for p in range(n):
        if live >> p & 1 and st[g, O_RANKS + p] == 1:
            winners |= 1 << p
    return winners


@_compiled
def _end_round(st: Any, R: Any, g: int, reason: int, gained: int) -> None:
    """The round ends: its winners, their tokens and the cards' round-end
    tokens (the Spy, the Jester), as one award step with ``gained``."""
    n = R[P_PLAYERS]
    live = ((1 << n) - 1) & ~st[g, F_OUT]
    if R[P_RANKED]:
        winners = _rank(st, R, g, reason, live)
    elif reason == ONE_PLAYER_LEFT:
        winners = live
    else:
        winners = _showdown(st, R, g, live)
    st[g, F_REASON] = reason
    st[g, F_ROUND_WINNERS] = winners
    st[g, F_DECISION] = NEXT_ROUND
    st[g, F_PROTECTED] = 0
    st[g, F_REQUIRED] = -1
    st[g, F_PENDING] = -1
    st[g, F_PENDING2] = -1
    for p in range(n):
        if winners >> p & 1:
            st[g, O_TOKENS + p] += 1
    gained |= winners
    if R[P_SPY]:  # spy.sole-spy-token
        spies = 0
        for p in range(n):
            if live >> p & 1 and _in_pile(st, g, p, SPY) > 0:
                spies |= 1 << p
        if _bits(spies) == 1:
            for p in range(n):
                if spies >> p & 1:
                    st[g, O_TOKENS + p] += 1
            gained |= spies
    if R[P_JESTER]:  # jester.mark-expected-winner
        for index in range(st[g, F_MARKS]):
            if winners >> st[g, O_MARKS + 2 * index + 1] & 1:
                player = st[g, O_MARKS + 2 * index]
                st[g, O_TOKENS + player] += 1
                gained |= 1 << player
    _award_step(st, R, g, gained)


@_compiled
def _knock_out(st: Any, R: Any, g: int, p: int) -> bool:
    """out.discard-hand, constable.knocked-out-token,
    round.end-one-player-left, game.immediate-win: ``p`` is out, their hand
    face up on their pile. Whether the command stops here (the round or
    the game ended)."""
    pays = False
    if R[P_CONSTABLE]:
        pays = _in_pile(st, g, p, CONSTABLE) > 0  # ruling 29: the pile before the knock-out
    at = O_HANDS + p * HAND
    for i in range(1, st[g, at] + 1):
        _to_pile(st, g, p, st[g, at + i])
    st[g, at] = 0
    st[g, F_OUT] |= 1 << p
    st[g, F_PROTECTED] &= ~(1 << p)
    if R[P_RANKED]:
        st[g, O_EXITS + st[g, F_EXITS]] = p
        st[g, F_EXITS] += 1
    gained = 0
    if pays:
        st[g, O_TOKENS + p] += 1
        gained = 1 << p
    if R[P_PLAYERS] - _bits(st[g, F_OUT]) < 2:
        _end_round(st, R, g, ONE_PLAYER_LEFT, gained)
        return True
    return gained != 0 and _award_step(st, R, g, gained)


@_compiled
def _discard_and_draw(st: Any, R: Any, g: int, p: int) -> bool:
    """``p`` discards their card without its effect and draws another; a
    discarded Princess knocks them out instead (princess.knock-out-effects-
    apply). Whether the command stops here."""
    card = _hand_card(st, g, p)
    _take(st, g, p, card)
    _to_pile(st, g, p, card)
    if card == PRINCESS:
        return _knock_out(st, R, g, p)
    _draw_replacement(st, g, p)
    return False


@_inlined
def _next_player(st: Any, R: Any, g: int, player: int) -> int:
    """turn.order, setup.turn-order-online: the next seat still in the round."""
    n = R[P_PLAYERS]
    out = st[g, F_OUT]
    if not R[P_RANKED]:
        nxt = player
        for _ in range(n):
            nxt = nxt + 1 if nxt + 1 < n else 0
            if not out >> nxt & 1:
                return nxt
        return player
    index = 0
    for i in range(n):
        if st[g, O_ORDER + i] == player:
            index = i
    for step in range(1, n + 1):
        seat = int(st[g, O_ORDER + (index + step) % n])
        if not out >> seat & 1:
            return seat
    return player


@_compiled
def _finish_turn(st: Any, R: Any, g: int) -> None:
    """round.end-deck-empty, round.end-pile-online: the next player starts
    their turn and draws, or the round ends."""
    live = R[P_PLAYERS] - _bits(st[g, F_OUT])
    if st[g, F_TAIL] - st[g, F_HEAD] > R[P_END_PILE] and live > 1:
        player = _next_player(st, R, g, st[g, F_CURRENT])
        st[g, F_CURRENT] = player
        st[g, F_TURN] += 1
        st[g, F_TURNS_TOTAL] += 1
        st[g, F_PROTECTED] &= ~(1 << player)
        _draw_top(st, g, player)
        st[g, F_DECISION] = PLAY
    else:
        _end_round(st, R, g, ONE_PLAYER_LEFT if live == 1 else DECK_EMPTY, 0)


# --------------------------------------------------------------------------
# dealing


@_compiled
def deal(st: Any, R: Any, g: int, first: int, cards: Any, order: Any) -> None:
    """setup.*, round.new-round-setup: deal game ``g``'s next round from
    ``cards`` (top first); ``order`` is an online round's turn order
    (ignored elsewhere). A tie-break round deals only the contenders."""
    n = R[P_PLAYERS]
    size = R[P_DECK]
    for i in range(size):
        st[g, O_DECK + i] = cards[i]
    st[g, F_ROUND] += 1
    st[g, F_TAIL] = size
    st[g, F_REASON] = 0
    st[g, F_ROUND_WINNERS] = 0
    st[g, F_PROTECTED] = 0
    st[g, F_REQUIRED] = -1
    st[g, F_PENDING] = -1
    st[g, F_PENDING2] = -1
    st[g, F_MARKS] = 0
    st[g, F_EXITS] = 0
    st[g, F_SET_ASIDE] = -1
    for p in range(n):
        st[g, O_HANDS + p * HAND] = 0
        st[g, O_PILES + p * PILE] = 0
    contenders = st[g, F_CONTENDERS]
    st[g, F_OUT] = ((1 << n) - 1) & ~contenders if contenders else 0
    head = 0
    if R[P_SETS_ASIDE]:
        st[g, F_SET_ASIDE] = cards[0]
        head = 1
    for i in range(R[P_FACE_UP]):
        st[g, O_FACE_UP + i] = cards[head]
        head += 1
    st[g, F_HEAD] = head
    if R[P_RANKED]:
        for i in range(n):
            st[g, O_ORDER + i] = order[i]
            _draw_top(st, g, order[i])
        first = order[0]
    else:
        for offset in range(n):
            seat = (first + offset) % n
            if not st[g, F_OUT] >> seat & 1:
                _draw_top(st, g, seat)
    st[g, F_FIRST] = first
    st[g, F_CURRENT] = first
    st[g, F_TURN] = 1
    st[g, F_TURNS_TOTAL] += 1
    _draw_top(st, g, first)
    st[g, F_DECISION] = PLAY


@_compiled
def new_game(st: Any, R: Any, g: int) -> None:
    """Clear game ``g``'s tokens and outcome, ready for its first deal."""
    for p in range(R[P_PLAYERS]):
        st[g, O_TOKENS + p] = 0
        st[g, O_RANKS + p] = 0
    st[g, F_ROUND] = 0
    st[g, F_CONTENDERS] = 0
    st[g, F_GAME_WINNERS] = 0
    st[g, F_ERROR] = 0
    st[g, F_TURNS_TOTAL] = 0
    st[g, F_REASON] = 0
    st[g, F_ROUND_WINNERS] = 0


@_compiled
def first_candidates(st: Any, g: int) -> int:
    """round.next-first-player(-tie-random), game.tie-break-round,
    setup.turn-order-online: the seats that may start the next round, as a
    mask (the previous round's winners, or for a tie-break the tied players
    among them, or all the tied players)."""
    previous = int(st[g, F_ROUND_WINNERS])
    if previous == 0:
        previous = 1 << st[g, F_CURRENT]
    contenders = st[g, F_CONTENDERS]
    if contenders:
        previous = previous & contenders if previous & contenders else contenders
    return previous


@_compiled
def _random_seat(rng: Any, g: int, mask: int) -> int:
    """One seat of ``mask``, uniformly (the lowest when it holds one)."""
    count = _bits(mask)
    pick = random_below(rng, g, count) if count > 1 else 0
    seat = 0
    while True:
        if mask >> seat & 1:
            if pick == 0:
                return seat
            pick -= 1
        seat += 1


@_compiled
def deal_random(st: Any, R: Any, rng: Any, g: int, wk: Any) -> None:
    """Deal game ``g``'s next round, every part drawn (see :func:`deal_parts`)."""
    deal_parts(st, R, rng, g, wk, wk[0:0], -1, wk[0:0])


@_compiled
def deal_parts(
    st: Any, R: Any, rng: Any, g: int, wk: Any, deck: Any, first: int, order: Any
) -> None:
    """round.next-first-player(-tie-random), game.tie-break-round,
    setup.shuffle, setup.turn-order-online: deal game ``g``'s next round.
    The parts given are taken as given (``deck`` and ``order`` when not
    empty, ``first`` when not -1: the caller has checked them); the others
    are drawn, as the reference draws them from the seed for a game that
    deals from one (a first round as ``new_game``, a later one as
    ``StartRound``), else from the game's own generator (Fisher-Yates). The
    first player is one of the candidates; online the turn order is the
    seats shuffled, the first player swapped into first place."""
    n = R[P_PLAYERS]
    size = R[P_DECK]
    seeded = st[g, F_CHANCE] > 0
    round_number = st[g, F_ROUND] + 1
    candidates = 0
    if first >= 0:
        candidates = 1 << first
    elif round_number == 1:
        named = st[g, F_FIRST_PLAYER]
        first = max(named, 0)
        candidates = 1 << named if named >= 0 else 0
    elif seeded:
        candidates = first_candidates(st, g)
        count = _bits(candidates)
        pick = seeded_choice(st, g, wk, round_number, PURPOSE_FIRST, count) if count > 1 else 0
        first = 0
        while True:
            if candidates >> first & 1:
                if pick == 0:
                    break
                pick -= 1
            first += 1
    else:
        candidates = first_candidates(st, g)
        first = _random_seat(rng, g, candidates)
    if deck.shape[0] > 0:
        for i in range(size):
            wk[W_DECK + i] = deck[i]
    elif seeded:
        for i in range(size):
            wk[W_DECK + i] = R[V_DECK + i]
        seeded_shuffle(st, R, g, wk, round_number, PURPOSE_DECK, wk[W_DECK:], size)
    else:
        shuffle_deck(R, rng, g, wk[W_DECK:])
    if R[P_RANKED]:
        if order.shape[0] > 0:
            for i in range(n):
                wk[W_ORDER + i] = order[i]
        elif seeded:
            for i in range(n):
                wk[W_ORDER + i] = i
            seeded_shuffle(st, R, g, wk, round_number, PURPOSE_ORDER, wk[W_ORDER:], n)
            if candidates:  # a swap into first place, not a rotation (ruling 43)
                for i in range(n):
                    if wk[W_ORDER + i] == first:
                        wk[W_ORDER + i] = wk[W_ORDER]
                        wk[W_ORDER] = first
                        break
        else:
            draw_order(rng, g, n, first if candidates else -1, wk[W_ORDER:])
    deal(st, R, g, first, wk[W_DECK:], wk[W_ORDER:])


@_compiled
def shuffle_deck(R: Any, rng: Any, g: int, cards: Any) -> None:
    """setup.shuffle: the table's deck into ``cards``, in an order drawn
    from game ``g``'s generator (Fisher-Yates)."""
    size = R[P_DECK]
    for i in range(size):
        cards[i] = R[V_DECK + i]
    for i in range(size - 1, 0, -1):
        j = random_below(rng, g, i + 1)
        held = cards[i]
        cards[i] = cards[j]
        cards[j] = held


@_compiled
def set_seed_text(st: Any, g: int, text: Any, first_player: int) -> None:
    """Make game ``g`` deal from the reference's seed: ``text`` is
    ``loveletter/<seed>/`` as bytes (empty: from its own generator)."""
    st[g, F_CHANCE] = text.shape[0]
    for i in range(text.shape[0]):
        st[g, O_SEED + i] = text[i]
    st[g, F_FIRST_PLAYER] = first_player


@_compiled
def draw_order(rng: Any, g: int, n: int, first: int, order: Any) -> None:
    """setup.turn-order-online (ruling 43): the seats shuffled into
    ``order``, then ``first`` (unless -1) swapped into first place."""
    for i in range(n):
        order[i] = i
    for i in range(n - 1, 0, -1):
        j = random_below(rng, g, i + 1)
        held = order[i]
        order[i] = order[j]
        order[j] = held
    if first >= 0:
        for i in range(n):
            if order[i] == first:
                order[i] = order[0]
                order[0] = first
                break


# --------------------------------------------------------------------------
# legal actions


@_inlined
def _playable(st: Any, g: int, p: int, wk: Any) -> int:
    """countess.forced-by-king-or-prince: the distinct cards ``p`` may play,
    ascending, into ``wk[W_CARDS:]``; how many."""
    at = O_HANDS + p * HAND
    a = st[g, at + 1]
    b = st[g, at + 2] if st[g, at] > 1 else a
    countess = a == COUNTESS or b == COUNTESS
    low = min(a, b)
    high = max(a, b)
    count = 0
    if not (countess and low in (KING, PRINCE)):
        wk[W_CARDS] = low
        count = 1
    if high != low and not (countess and high in (KING, PRINCE)):
        wk[W_CARDS + count] = high
        count += 1
    return count


@_inlined
def _play_id(R: Any, card: int, t: int, s: int, name: int) -> int:
    return int(R[V_PLAY_IDS + ((card * PLAY_T + t + 1) * PLAY_T + s + 1) * PLAY_N + name + 1])


@_inlined
def _play_options(st: Any, R: Any, g: int, p: int, card: int, wk: Any, start: int) -> int:
    """targeting.*, sycophant.next-card-must-choose: the ids of every legal
    play of ``card`` by ``p``, in command order, written from
    ``wk[start]``; returns the new end."""
    n = R[P_PLAYERS]
    choice = R[V_CHOICES + card]
    end = start
    if choice == NONE:
        wk[end] = _play_id(R, card, -1, -1, -1)
        return end + 1
    names = R[V_NAME_COUNTS + card]
    others = ((1 << n) - 1) & ~(st[g, F_OUT] | st[g, F_PROTECTED]) & ~(1 << p)
    required = st[g, F_REQUIRED]
    with_self = others | (1 << p)
    for t in range(n):
        if choice == OTHER:
            if not others >> t & 1 or (required >= 0 and t != required):
                continue
            if names:
                first = _play_id(R, card, t, -1, 0)
                for k in range(names):
                    wk[end] = first + k
                    end += 1
            else:
                wk[end] = _play_id(R, card, t, -1, -1)
                end += 1
        elif choice == ANY:
            if not with_self >> t & 1 or (required >= 0 and t != required):
                continue
            wk[end] = _play_id(R, card, t, -1, -1)
            end += 1
        elif choice in (PAIR, ORDERED_PAIR):
            if not with_self >> t & 1:
                continue
            for s in range(n):
                if s == t or not with_self >> s & 1 or (choice == PAIR and s < t):
                    continue
                if required >= 0 and t != required and s != required:
                    continue
                wk[end] = _play_id(R, card, t, s, -1)
                end += 1
        elif choice in (ONE_OR_TWO_OTHERS, TWO_OTHERS):
            if not others >> t & 1:
                continue
            if choice == ONE_OR_TWO_OTHERS and (required < 0 or t == required):
                wk[end] = _play_id(R, card, t, -1, -1)
                end += 1
            for s in range(t if choice == TWO_OTHERS else t + 1, n):
                if not others >> s & 1:
                    continue
                if required >= 0 and t != required and s != required:
                    continue
                wk[end] = _play_id(R, card, t, s, -1)
                end += 1
    if end == start:  # no one to choose: played with no effect (ruling 6)
        wk[end] = _play_id(R, card, -1, -1, -1)
        end += 1
    return end


@_inlined
def _keep_id(R: Any, keep: int, first: int, second: int) -> int:
    return int(R[V_KEEP_IDS + (keep * CARD_CODES + first) * (CARD_CODES + 1) + second + 1])


@_compiled
def _keep_options(st: Any, R: Any, g: int, p: int, wk: Any) -> int:
    """chancellor.draw-two-keep-one: every keep and return order."""
    at = O_HANDS + p * HAND
    size = st[g, at]
    end = 0
    for k in range(size):
        rest0 = -1
        rest1 = -1
        for i in range(size):
            if i != k:
                if rest0 < 0:
                    rest0 = st[g, at + 1 + i]
                else:
                    rest1 = st[g, at + 1 + i]
        keep = st[g, at + 1 + k]
        if rest1 < 0:
            wk[end] = _keep_id(R, keep, rest0, -1)
            end += 1
        else:
            wk[end] = _keep_id(R, keep, rest0, rest1)
            wk[end + 1] = _keep_id(R, keep, rest1, rest0)
            end += 2
    # several copies of a card give the same commands: sort, drop repeats
    for i in range(1, end):
        value = wk[i]
        j = i - 1
        while j >= 0 and wk[j] > value:
            wk[j + 1] = wk[j]
            j -= 1
        wk[j + 1] = value
    unique = 0
    for i in range(end):
        if unique == 0 or wk[unique - 1] != wk[i]:
            wk[unique] = wk[i]
            unique += 1
    return unique


@_compiled
def legal_ids(st: Any, R: Any, g: int, wk: Any) -> int:
    """Every legal action of game ``g``, ascending (the order of
    :func:`loveletter.legal_commands`), into ``wk``; how many."""
    decision = st[g, F_DECISION]
    if decision == PLAY:
        p = st[g, F_CURRENT]
        end = 0
        for i in range(_playable(st, g, p, wk)):
            end = _play_options(st, R, g, p, wk[W_CARDS + i], wk, end)
        return end
    if decision == KEEP:
        return _keep_options(st, R, g, st[g, F_CURRENT], wk)
    if decision == LOOK:
        a = st[g, F_PENDING]
        b = st[g, F_PENDING2]
        wk[0] = R[P_LOOK_BASE] + min(a, b)
        wk[1] = R[P_LOOK_BASE] + max(a, b)
        wk[2] = R[P_DECLINE_ID]
        return 3
    if decision == REDRAW:
        wk[0] = R[P_REDRAW_ID]
        wk[1] = R[P_DECLINE_ID]
        return 2
    if decision == NEXT_ROUND:
        wk[0] = R[P_START_ID]
        return 1
    return 0


@_inlined
def to_act(st: Any, g: int) -> int:
    """The seat that must act, or -1 between rounds and after the game."""
    decision = st[g, F_DECISION]
    if decision == REDRAW:
        return int(st[g, F_PENDING])
    if decision in (NEXT_ROUND, GAME_OVER):
        return -1
    return int(st[g, F_CURRENT])


# --------------------------------------------------------------------------
# applying an action


@_inlined
def _play(st: Any, R: Any, g: int, card: int, t: int, s: int, name: int) -> None:
    """A card played: it leaves the hand for the pile, then its effect
    (or the Assassin's answer to a Guard) happens, then the turn ends
    unless a choice is pending or the round or game ended."""
    p = st[g, F_CURRENT]
    st[g, F_REQUIRED] = -1  # ruling 34: the requirement binds this card only
    _take(st, g, p, card)
    _to_pile(st, g, p, card)
    if t >= 0:
        if card == GUARD:
            if R[P_ASSASSIN] and _holds(st, g, t, ASSASSIN):
                # assassin.guard-player-knocked-out, assassin.discard-and-redraw
                if _knock_out(st, R, g, p):
                    return
                _take(st, g, t, ASSASSIN)
                _to_pile(st, g, t, ASSASSIN)
                _draw_replacement(st, g, t)
            else:
                held = _hand_card(st, g, t)
                guess = R[V_NAMES + card * 10 + name]
                hit = R[V_VALUES + held] == guess if R[P_NAMES_NUMBERS] else held == guess
                if hit and _knock_out(st, R, g, t):
                    return
        elif card in (BARON, DOWAGER_QUEEN):
            mine = R[V_VALUES + _hand_card(st, g, p)]
            theirs = R[V_VALUES + _hand_card(st, g, t)]
            if mine != theirs:
                player_loses = (mine < theirs) == (card == BARON)
                if _knock_out(st, R, g, p if player_loses else t):
                    return
        elif card == PRINCE:
            if _discard_and_draw(st, R, g, t):
                return
        elif card == KING:
            mine = _hand_card(st, g, p)
            st[g, O_HANDS + p * HAND + 1] = _hand_card(st, g, t)
            st[g, O_HANDS + t * HAND + 1] = mine
        elif card == BISHOP:
            if R[V_VALUES + _hand_card(st, g, t)] == R[V_NAMES + card * 10 + name]:
                st[g, O_TOKENS + p] += 1  # bishop.correct-number-token
                if _award_step(st, R, g, 1 << p):
                    return
                st[g, F_DECISION] = REDRAW
                st[g, F_PENDING] = t
        elif card == SYCOPHANT:
            st[g, F_REQUIRED] = t
        elif card == CARDINAL:
            if s >= 0:
                held = _hand_card(st, g, t)
                st[g, O_HANDS + t * HAND + 1] = _hand_card(st, g, s)
                st[g, O_HANDS + s * HAND + 1] = held
                if R[P_CARDINAL_LOOK]:
                    st[g, F_DECISION] = LOOK
                    st[g, F_PENDING] = t
                    st[g, F_PENDING2] = s
        elif card == JESTER:
            index = st[g, F_MARKS]
            if index < MAX_MARKS:
                st[g, O_MARKS + 2 * index] = p
                st[g, O_MARKS + 2 * index + 1] = t
                st[g, F_MARKS] = index + 1
    elif card == HANDMAID:
        st[g, F_PROTECTED] |= 1 << p
    elif card == PRINCESS:
        if _knock_out(st, R, g, p):
            return
    elif card == CHANCELLOR:
        drawn = min(2, st[g, F_TAIL] - st[g, F_HEAD])
        if drawn > 0:
            for _ in range(drawn):
                _draw_top(st, g, p)
            st[g, F_DECISION] = KEEP
    if st[g, F_DECISION] == PLAY:
        _finish_turn(st, R, g)


@_compiled
def apply(st: Any, R: Any, rng: Any, g: int, action: int, wk: Any) -> None:
    """Apply ``action`` (assumed legal) to game ``g``."""
    at = V_DECODED + 5 * action
    kind = R[at]
    if kind == ACT_PLAY:
        _play(st, R, g, R[at + 1], R[at + 2], R[at + 3], R[at + 4])
    elif kind == ACT_KEEP:
        # chancellor.return-bottom-any-order: under the deck, in the order given
        p = st[g, F_CURRENT]
        for column in (2, 3):
            card = R[at + column]
            if card >= 0:
                _take(st, g, p, card)
                st[g, O_DECK + st[g, F_TAIL]] = card
                st[g, F_TAIL] += 1
        st[g, F_DECISION] = PLAY
        _finish_turn(st, R, g)
    elif kind in (ACT_LOOK, ACT_DECLINE):
        st[g, F_DECISION] = PLAY
        st[g, F_PENDING] = -1
        st[g, F_PENDING2] = -1
        _finish_turn(st, R, g)
    elif kind == ACT_REDRAW:
        target = st[g, F_PENDING]
        st[g, F_DECISION] = PLAY
        st[g, F_PENDING] = -1
        if not _discard_and_draw(st, R, g, target):
            _finish_turn(st, R, g)
    elif kind == ACT_START:
        deal_random(st, R, rng, g, wk)


@_compiled
def is_legal(st: Any, R: Any, g: int, action: int, wk: Any) -> bool:
    """Whether ``action`` is legal in game ``g`` now."""
    count = legal_ids(st, R, g, wk)
    for i in range(count):  # noqa: SIM110  (a loop compiles to less than any())
        if wk[i] == action:
            return True
    return False


@_compiled
def step_all(st: Any, R: Any, rng: Any, actions: Any, wk: Any) -> None:
    """One action per game (-1: none), each already known to be legal."""
    for g in range(actions.shape[0]):
        if actions[g] >= 0:
            apply(st, R, rng, g, actions[g], wk)


@_compiled
def illegal_games(st: Any, R: Any, actions: Any, wk: Any, found: Any) -> int:
    """The games whose action (not -1) is not legal, into ``found``; how many."""
    count = 0
    for g in range(actions.shape[0]):
        action = actions[g]
        if action >= 0 and (action >= R[P_ACTIONS] or not is_legal(st, R, g, action, wk)):
            found[count] = g
            count += 1
    return count


@_compiled
def masks(st: Any, R: Any, mask: Any, wk: Any) -> None:
    """Every game's legal actions as a row of booleans."""
    for g in range(mask.shape[0]):
        mask[g, :] = False
        for i in range(legal_ids(st, R, g, wk)):
            mask[g, wk[i]] = True


@_compiled
def acting_seats(st: Any, seats: Any) -> None:
    """Every game's seat to act (-1: none)."""
    for g in range(seats.shape[0]):
        seats[g] = to_act(st, g)


# --------------------------------------------------------------------------
# random play


@_inlined
def random_action(st: Any, R: Any, rng: Any, g: int, card_first: bool, wk: Any) -> int:
    """A random legal action: at a play, a playable card uniformly then one
    of its commands uniformly (``card_first``), or uniformly among all the
    commands; elsewhere uniformly among the legal answers."""
    if card_first and st[g, F_DECISION] == PLAY:
        p = st[g, F_CURRENT]
        playable = _playable(st, g, p, wk)
        card = wk[W_CARDS + (random_below(rng, g, playable) if playable > 1 else 0)]
        choice = R[V_CHOICES + card]
        if choice in (OTHER, ANY):
            return _random_single(st, R, rng, g, p, card, choice)
        count = _play_options(st, R, g, p, card, wk, 0)
    else:
        count = legal_ids(st, R, g, wk)
    return int(wk[random_below(rng, g, count) if count > 1 else 0])


@_inlined
def _random_single(st: Any, R: Any, rng: Any, g: int, p: int, card: int, choice: int) -> int:
    """:func:`random_action` for a card that chooses one player: the same
    pick among the same commands as listing them would make (the k-th in
    command order), worked out instead of listed."""
    n = R[P_PLAYERS]
    others = ((1 << n) - 1) & ~(st[g, F_OUT] | st[g, F_PROTECTED]) & ~(1 << p)
    eligible = others if choice == OTHER else others | (1 << p)
    required = st[g, F_REQUIRED]
    if required >= 0:
        eligible &= 1 << required
    if eligible == 0:
        return _play_id(R, card, -1, -1, -1)
    names = R[V_NAME_COUNTS + card]
    per = names if names else 1
    count = _bits(eligible) * per
    k = random_below(rng, g, count) if count > 1 else 0
    skip = k // per
    t = 0
    while True:
        if eligible >> t & 1:
            if skip == 0:
                break
            skip -= 1
        t += 1
    return _play_id(R, card, t, -1, k % per if names else -1)


@_compiled
def random_actions(st: Any, R: Any, rng: Any, card_first: bool, wk: Any, out: Any) -> None:
    """A random legal action for every game not over (-1 for those over)."""
    for g in range(out.shape[0]):
        if st[g, F_DECISION] == GAME_OVER:
            out[g] = -1
        else:
            out[g] = random_action(st, R, rng, g, card_first, wk)


@_compiled
def play_rounds(
    st: Any,
    R: Any,
    rng: Any,
    rounds: int,
    card_first: bool,
    stats: Any,
    round_wins: Any,
    game_wins: Any,
    wk: Any,
) -> None:
    """Play ``rounds`` rounds with random moves, game after game in each
    row of the batch, counting into ``stats`` (rounds, turns, games
    finished, rounds ended by one player left, rounds ended by the deck,
    games won in the middle of a round) and the per-seat win counts."""
    games = st.shape[0]
    n = R[P_PLAYERS]
    played = 0
    while played < rounds:
        for g in range(games):
            if played >= rounds:
                break
            while st[g, F_DECISION] < NEXT_ROUND:
                apply(st, R, rng, g, random_action(st, R, rng, g, card_first, wk), wk)
            played += 1
            stats[0] += 1
            stats[1] += st[g, F_TURN]
            reason = st[g, F_REASON]
            if reason == ONE_PLAYER_LEFT:
                stats[3] += 1
            elif reason == DECK_EMPTY:
                stats[4] += 1
            else:
                stats[5] += 1
            winners = st[g, F_ROUND_WINNERS]
            for p in range(n):
                if winners >> p & 1:
                    round_wins[p] += 1
            if st[g, F_DECISION] == GAME_OVER:
                stats[2] += 1
                winners = st[g, F_GAME_WINNERS]
                for p in range(n):
                    if winners >> p & 1:
                        game_wins[p] += 1
                new_game(st, R, g)
            deal_random(st, R, rng, g, wk)


# --------------------------------------------------------------------------
# comparing with the reference


@_compiled
def digest(st: Any, R: Any, g: int, out: Any) -> int:
    """Game ``g``'s whole state as a flat list of numbers into ``out``, in
    the order :func:`loveletter.fast.differential.reference_digest` writes
    the reference's; how many. Ranks count only once a round has ended."""
    n = R[P_PLAYERS]
    at = 0
    for field in (F_DECISION, F_CURRENT, F_ROUND, F_TURN, F_OUT, F_PROTECTED):
        out[at] = st[g, field]
        at += 1
    out[at] = st[g, F_TAIL] - st[g, F_HEAD]
    at += 1
    for i in range(st[g, F_HEAD], st[g, F_TAIL]):
        out[at] = st[g, O_DECK + i]
        at += 1
    for p in range(n):
        for zone in (O_HANDS + p * HAND, O_PILES + p * PILE):
            for i in range(st[g, zone] + 1):
                out[at] = st[g, zone + i]
                at += 1
        out[at] = st[g, O_TOKENS + p]
        at += 1
    for i in range(R[P_FACE_UP]):
        out[at] = st[g, O_FACE_UP + i]
        at += 1
    for field in (
        F_SET_ASIDE,
        F_REQUIRED,
        F_PENDING,
        F_PENDING2,
        F_CONTENDERS,
        F_GAME_WINNERS,
        F_REASON,
        F_ROUND_WINNERS,
        F_ERROR,
        F_MARKS,
    ):
        out[at] = st[g, field]
        at += 1
    for i in range(2 * st[g, F_MARKS]):
        out[at] = st[g, O_MARKS + i]
        at += 1
    out[at] = st[g, F_EXITS]
    at += 1
    for i in range(st[g, F_EXITS]):
        out[at] = st[g, O_EXITS + i]
        at += 1
    for p in range(n):
        out[at] = st[g, O_RANKS + p] if R[P_RANKED] and st[g, F_REASON] else 0
        at += 1
    return at
