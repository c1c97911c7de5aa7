"""CPython's ``random.Random``, compiled: the choices of a :class:`~loveletter.RandomBot`.

A random bot picks ``random.Random(seed).choice(commands)``; to play the
same games as the reference's simulations, the compiled simulator draws
the same numbers. This is CPython's generator (``Modules/_randommodule.c``
and ``Lib/random.py``), not an imitation of it:

* the state is MT19937's 624 words, seeded from an integer as
  ``random_seed`` does: ``init_by_array`` over the 32-bit words of its
  absolute value, least significant first (0 gives the one word 0);
* ``getrandbits(k)``, for ``k`` up to 32, is the top ``k`` bits of the
  next tempered word;
* ``choice(seq)`` is ``seq[randbelow(len(seq))]``, where ``randbelow(n)``
  draws ``n.bit_length()`` bits until they are below ``n`` (so ``n == 1``
  still draws a number).

Generators are the columns of an ``int64`` array (:data:`ROWS` rows): the
624 words (each below 2**32: in ``int64`` the arithmetic never overflows or
turns to floating point as mixed unsigned numbers do in numba), then the
index of the next word. Columns, because seeding is a long chain of
dependent multiplications: seeding a table's generators side by side, a
row at a time, lets the processor overlap the chains (measured: nearly
twice as fast at 4 seats, nearly three times at 8). MT19937 regenerates
its 624 words at once every 624 draws; here each word is regenerated when
it is drawn, which gives the same numbers (a word's new value reads only
words before it, already new, and words after it, still old) and costs
nothing for the words a short game never draws.

>>> import random
>>> import numpy as np
>>> generators = np.zeros((ROWS, 2), dtype=np.int64)
>>> seed_key(generators, 1, key_words(2**40 + 7))
>>> python = random.Random(2**40 + 7)
>>> [below(generators, 1, 10) for _ in range(5)] == [python.randrange(10) for _ in range(5)]
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from loveletter.fast.kernel import _compiled, _inlined

__all__ = ["ROWS", "below", "draw_below", "key_words", "seed_columns", "seed_key"]

_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_WORD = 0xFFFFFFFF
#: a generator's rows: its 624 words, then the index of the next one
ROWS = _N + 1


def _init_genrand(seed: int) -> npt.NDArray[np.int64]:
    """CPython's ``init_genrand``: the 624 words ``init_by_array`` starts from."""
    words = [seed]
    for i in range(1, _N):
        previous = words[-1]
        words.append((1812433253 * (previous ^ (previous >> 30)) + i) & _WORD)
    return np.array(words, dtype=np.int64)


#: ``init_by_array`` starts every seeding from ``init_genrand(19650218)``:
#: a third of the work of seeding, done once here
_START = _init_genrand(19650218)


def key_words(seed: int) -> npt.NDArray[np.int64]:
    """The key CPython seeds ``random.Random(seed)`` with: the 32-bit words
    of ``abs(seed)``, least significant first (``[0]`` for 0)."""
    value = abs(seed)
    words = [0] if value == 0 else []
    while value:
        words.append(value & _WORD)
        value >>= 32
    return np.array(words, dtype=np.int64)


@_compiled
def seed_key(mt: Any, c: int, key: Any) -> None:
    """Seed generator ``c`` with ``key`` (:func:`key_words`): CPython's
    ``init_by_array``, from ``init_genrand(19650218)``."""
    for i in range(_N):
        mt[i, c] = _START[i]
    length = key.shape[0]
    i = 1
    j = 0
    for _ in range(max(_N, length)):
        previous = mt[i - 1, c]
        mt[i, c] = ((mt[i, c] ^ ((previous ^ (previous >> 30)) * 1664525)) + key[j] + j) & _WORD
        i += 1
        j += 1
        if i >= _N:
            mt[0, c] = mt[_N - 1, c]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        previous = mt[i - 1, c]
        mt[i, c] = ((mt[i, c] ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & _WORD
        i += 1
        if i >= _N:
            mt[0, c] = mt[_N - 1, c]
            i = 1
    mt[0, c] = _UPPER
    mt[_N, c] = _N


@_compiled
def seed_columns(mt: Any, seeds: Any) -> None:
    """Seed generator ``c`` from ``seeds[c]`` (from 0 to 2**63 - 1: a key
    of one or two words) for every ``c`` of ``seeds``: :func:`seed_key`
    for all of them at once, a step of each in turn."""
    count = seeds.shape[0]
    for i in range(_N):
        for c in range(count):
            mt[i, c] = _START[i]
    i = 1
    for step in range(_N):  # the key word j is step % length, the length 1 or 2
        for c in range(count):
            high = seeds[c] >> 32
            j = step & 1 if high else 0
            word = high if j else seeds[c] & _WORD
            previous = mt[i - 1, c]
            mt[i, c] = ((mt[i, c] ^ ((previous ^ (previous >> 30)) * 1664525)) + word + j) & _WORD
        i += 1
        if i >= _N:
            for c in range(count):
                mt[0, c] = mt[_N - 1, c]
            i = 1
    for _ in range(_N - 1):
        for c in range(count):
            previous = mt[i - 1, c]
            mt[i, c] = ((mt[i, c] ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & _WORD
        i += 1
        if i >= _N:
            for c in range(count):
                mt[0, c] = mt[_N - 1, c]
            i = 1
    for c in range(count):
        mt[0, c] = _UPPER
        mt[_N, c] = _N


@_inlined
def _next_word(mt: Any, c: int) -> int:
    """genrand_uint32: the next tempered word, its slot regenerated first."""
    i = mt[_N, c]
    if i >= _N:
        i = 0
    if i < _N - _M:
        y = (mt[i, c] & _UPPER) | (mt[i + 1, c] & _LOWER)
        mt[i, c] = mt[i + _M, c] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    elif i < _N - 1:
        y = (mt[i, c] & _UPPER) | (mt[i + 1, c] & _LOWER)
        mt[i, c] = mt[i + _M - _N, c] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    else:
        y = (mt[_N - 1, c] & _UPPER) | (mt[0, c] & _LOWER)
        mt[_N - 1, c] = mt[_M - 1, c] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    mt[_N, c] = i + 1
    y = mt[i, c]
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y)


@_inlined
def below(mt: Any, c: int, n: int) -> int:
    """``randbelow(n)`` of generator ``c`` (``0 < n < 2**32``): what
    ``random.Random.choice`` indexes a sequence of ``n`` items with."""
    bits = 0
    while n >> bits:
        bits += 1
    shift = 32 - bits
    value = _next_word(mt, c) >> shift
    while value >= n:
        value = _next_word(mt, c) >> shift
    return int(value)


@_compiled
def draw_below(mt: Any, c: int, bounds: Any, out: Any) -> None:
    """``out[i] = below(mt, c, bounds[i])`` for each bound in turn (for
    tests: one call draws a whole sequence)."""
    for i in range(bounds.shape[0]):
        out[i] = below(mt, c, bounds[i])
