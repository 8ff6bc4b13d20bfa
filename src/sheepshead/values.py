"""Frozen value classes for the engine, without ``dataclasses``.

The engine's values (actions, rules, tricks, results, refusals) behave as
``@dataclass(frozen=True, slots=True)`` classes did: the same constructor, ``repr``,
equality, hash (of the tuple of fields), ``__match_args__`` and refusal to be changed.
They are written by hand because ``sheepshead check`` imports them at start: importing
``dataclasses`` (and ``inspect`` under it) and building a dataclass cost that command
about half of its time.

A subclass names its fields once, in order, as both ``__slots__`` and
``__match_args__``, and sets them in ``__init__`` with ``object.__setattr__``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn


class FrozenValueError(AttributeError):
    """An attempt to change or delete a field of a frozen value."""


class Value:
    """A frozen value: equal to another of its class with equal fields."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            assert isinstance(other, Value)
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{self.__class__.__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenValueError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenValueError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Value], tuple[Any, ...]]:
        # Rebuilt through the constructor: the frozen __setattr__ refuses the default way.
        return (self.__class__, self._values())
