"""A small deterministic random-number generator of our own: xoshiro256**.

The ``random`` module is not used in bots: its methods (``choice``, ``shuffle``,
``randrange``) have changed between Python versions, and the daily game needs a
bot to make the same decision on every machine for years. xoshiro256** (Blackman
and Vigna, 2018) is seeded from SHA-256, so any byte string gives a good state.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
#: ``below``'s rejection limits for the small bounds, worked out once.
_SMALL = 64
_LIMITS = (0, *[_TWO64 - (_TWO64 % n) for n in range(1, _SMALL)])


class Rng:
    """xoshiro256**: ``Rng.from_bytes(b)``, then ``next_u64``, ``below``, ``random``,
    ``choice``, ``shuffle``; ``fork(label)`` derives an independent stream."""

    __slots__ = ("_s",)

    def __init__(self, state: tuple[int, int, int, int]) -> None:
        if len(state) != 4 or not any(state):
            raise ValueError("xoshiro256** needs four 64-bit words, not all zero")
        self._s = [w & _MASK for w in state]

    @classmethod
    def from_bytes(cls, seed: bytes) -> Rng:
        """A generator whose whole stream is fixed by ``seed`` (hashed with SHA-256)."""
        digest = hashlib.sha256(b"sheepshead-rng/1\x00" + seed).digest()
        words = tuple(int.from_bytes(digest[i : i + 8], "little") for i in range(0, 32, 8))
        if not any(words):  # pragma: no cover - SHA-256 of anything is not all zero
            words = (1, 0, 0, 0)
        return cls((words[0], words[1], words[2], words[3]))

    @classmethod
    def from_int(cls, seed: int) -> Rng:
        return cls.from_bytes(seed.to_bytes(16, "little", signed=True))

    def state_bytes(self) -> bytes:
        return b"".join([w.to_bytes(8, "little") for w in self._s])

    def next_u64(self) -> int:
        s = self._s
        s0, s1, s2, s3 = s
        x = (s1 * 5) & _MASK
        result = ((((x << 7) | (x >> 57)) & _MASK) * 9) & _MASK  # rotl(s1 * 5, 7) * 9
        t = (s1 << 17) & _MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s[0], s[1], s[2], s[3] = s0, s1, s2, ((s3 << 45) | (s3 >> 19)) & _MASK
        return result

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n}")
        if n == 1:
            return 0
        # Draws at or above the largest multiple of n are redrawn, so every residue is
        # equally likely; at most half the draws are rejected, usually almost none.
        limit = _LIMITS[n] if n < _SMALL else _TWO64 - (_TWO64 % n)
        s = self._s
        s0, s1, s2, s3 = s
        while True:  # ``next_u64``, written out (the sampler's hot loop)
            x = (s1 * 5) & _MASK
            x = ((((x << 7) | (x >> 57)) & _MASK) * 9) & _MASK
            t = (s1 << 17) & _MASK
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = ((s3 << 45) | (s3 >> 19)) & _MASK
            if x < limit:
                s[0], s[1], s[2], s[3] = s0, s1, s2, s3
                return x % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place: ``below(i + 1)`` for i from the last index down to 1,
        with ``next_u64`` written out (the same draws in the same order)."""
        s = self._s
        s0, s1, s2, s3 = s
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < _SMALL else _TWO64 - (_TWO64 % n)
            while True:
                x = (s1 * 5) & _MASK
                x = ((((x << 7) | (x >> 57)) & _MASK) * 9) & _MASK
                t = (s1 << 17) & _MASK
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = ((s3 << 45) | (s3 >> 19)) & _MASK
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        s[0], s[1], s[2], s[3] = s0, s1, s2, s3

    def fork(self, label: str | bytes) -> Rng:
        """An independent generator named by ``label``; this one is not advanced, so
        the same label always forks the same stream from the same state."""
        raw = label.encode() if isinstance(label, str) else label
        return Rng.from_bytes(self.state_bytes() + b"\x00fork\x00" + raw)

    def __repr__(self) -> str:
        return f"<Rng {self.state_bytes().hex()[:16]}…>"
