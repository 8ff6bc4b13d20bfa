"""A small deterministic random-number generator of our own: xoshiro256**.

The ``random`` module is not used in bots: its methods (``choice``, ``shuffle``,
``randrange``) have changed between Python versions, and the daily game needs a
bot to make the same decision on every machine for years. xoshiro256** (Blackman
and Vigna, 2018) is seeded from SHA-256, so any byte string gives a good state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final, TypeVar

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_TWO64: Final = 1 << 64
_TWO32: Final = 1 << 32
_M32: Final = _TWO32 - 1
#: Bounds from here up take ``below``'s plain 64-bit path (see ``_below``).
_BIG: Final = 1 << 30


class Rng:
    """xoshiro256**: ``Rng.from_bytes(b)``, then ``next_u64``, ``below``, ``random``,
    ``choice``, ``shuffle``; ``fork(label)`` derives an independent stream.

    Each 64-bit word of the state is kept as two 32-bit halves, high and low: the
    arithmetic then never leaves the 62 bits that the compiled search
    (``sheepshead.native``) keeps unboxed, where whole 64-bit words made every step
    allocate. The outputs are the reference algorithm's, bit for bit (``tests/bots``
    pins them)."""

    __slots__ = ("_h0", "_h1", "_h2", "_h3", "_l0", "_l1", "_l2", "_l3")

    def __init__(self, state: tuple[int, int, int, int]) -> None:
        if len(state) != 4 or not any(w & _MASK for w in state):
            raise ValueError("xoshiro256** needs four 64-bit words, not all zero")
        s0, s1, s2, s3 = [w & _MASK for w in state]
        self._h0, self._l0 = s0 >> 32, s0 & _M32
        self._h1, self._l1 = s1 >> 32, s1 & _M32
        self._h2, self._l2 = s2 >> 32, s2 & _M32
        self._h3, self._l3 = s3 >> 32, s3 & _M32

    @classmethod
    def from_bytes(cls, seed: bytes) -> Rng:
        """A generator whose whole stream is fixed by ``seed`` (hashed with SHA-256)."""
        digest = hashlib.sha256(b"sheepshead-rng/1\x00" + seed).digest()
        words = tuple([int.from_bytes(digest[i : i + 8], "little") for i in range(0, 32, 8)])
        if not any(words):  # pragma: no cover - SHA-256 of anything is not all zero
            words = (1, 0, 0, 0)
        return cls((words[0], words[1], words[2], words[3]))

    @classmethod
    def from_int(cls, seed: int) -> Rng:
        return cls.from_bytes(seed.to_bytes(16, "little", signed=True))

    def _words(self) -> tuple[int, int, int, int]:
        return (
            self._h0 << 32 | self._l0,
            self._h1 << 32 | self._l1,
            self._h2 << 32 | self._l2,
            self._h3 << 32 | self._l3,
        )

    def state_bytes(self) -> bytes:
        return b"".join([w.to_bytes(8, "little") for w in self._words()])

    def _next(self) -> tuple[int, int]:
        """One step: the output's high and low halves. ``rotl(s1 * 5, 7) * 9``, then
        ``t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t;
        s3 = rotl(s3, 45)``, each on halves (products carried from low to high)."""
        h0, l0, h1, l1 = self._h0, self._l0, self._h1, self._l1
        h2, l2, h3, l3 = self._h2, self._l2, self._h3, self._l3
        # x * 5 and x * 9 as shifts and adds: compiled, a product of a 32-bit half
        # would take the slow path of big integers (mypyc treats any factor of 2**30
        # or more as a possible overflow), a shift does not.
        low = (l1 << 2) + l1
        xl = low & _M32
        xh = ((h1 << 2) + h1 + (low >> 32)) & _M32
        rh = ((xh << 7) | (xl >> 25)) & _M32
        rl = ((xl << 7) | (xh >> 25)) & _M32
        low = (rl << 3) + rl
        out_l = low & _M32
        out_h = ((rh << 3) + rh + (low >> 32)) & _M32
        th = ((h1 << 17) | (l1 >> 15)) & _M32
        tl = (l1 << 17) & _M32
        h2 ^= h0
        l2 ^= l0
        h3 ^= h1
        l3 ^= l1
        self._h1 = h1 ^ h2
        self._l1 = l1 ^ l2
        self._h0 = h0 ^ h3
        self._l0 = l0 ^ l3
        self._h2 = h2 ^ th
        self._l2 = l2 ^ tl
        self._h3 = ((l3 << 13) | (h3 >> 19)) & _M32  # rotl(s3, 45): halves swapped, then 13
        self._l3 = ((h3 << 13) | (l3 >> 19)) & _M32
        return out_h, out_l

    def next_u64(self) -> int:
        high, low = self._next()
        return high << 32 | low

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n}")
        if n == 1:
            return 0
        return self._below(n)

    def _below(self, n: int) -> int:
        """``below`` for n >= 2. Draws at or above the largest multiple of n under 2**64
        are redrawn, so every residue is equally likely; at most half the draws are
        rejected, usually almost none."""
        if n >= _BIG:
            limit = _TWO64 - (_TWO64 % n)
            while True:
                x = self.next_u64()
                if x < limit:
                    return x % n
        # The limit is 2**64 - rem: its high half all ones (rem < 2**30), its low half
        # 2**32 - rem; a draw is kept below it. (h % n) << 32 | l stays under 2**62.
        # 2**64 % n, as (2**32 % n)**2 % n: small integers only, which the compiled
        # search keeps unboxed (n < 2**30, so the square stays under 2**60).
        half = _TWO32 % n
        rem = half * half % n
        cut = _TWO32 - rem
        while True:
            high, low = self._next()
            if rem == 0 or high != _M32 or low < cut:
                return (((high % n) << 32) | low) % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates, in place: ``below(i + 1)`` for i from the last index down to 1."""
        for i in range(len(items) - 1, 0, -1):
            # ``self._below``, not a bound method kept aside: compiled, a direct call.
            j = self._below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self, label: str | bytes) -> Rng:
        """An independent generator named by ``label``; this one is not advanced, so
        the same label always forks the same stream from the same state."""
        raw = label.encode() if isinstance(label, str) else label
        return Rng.from_bytes(self.state_bytes() + b"\x00fork\x00" + raw)

    def __repr__(self) -> str:
        return f"<Rng {self.state_bytes().hex()[:16]}…>"
