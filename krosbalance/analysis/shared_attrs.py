"""Values a DataFrame's ``attrs`` carry without being copied.

pandas deep-copies ``attrs`` into every frame derived from one (``NDFrame.__finalize__``: each
filter, column, ``assign`` or ``rename``), so a strength fit's covariance stored as plain tuples was
copied element by element thousands of times per report (a team ladder's report spent a fifth of
its time in ``copy.deepcopy``). The holders here are read-only, so a copy may be the object itself:
``__deepcopy__`` returns it. Equality stays by value, as :func:`pandas.concat` compares its inputs'
``attrs`` to decide whether to keep them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pandas as pd


class SharedTuple(tuple[Any, ...]):
    """A tuple whose items are immutable (strings, floats, other such tuples): a deep copy is itself."""

    __slots__ = ()

    def __copy__(self) -> SharedTuple:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> SharedTuple:
        return self


def shared_tuple(value: Any) -> SharedTuple:
    """``value`` (nested tuples or lists of immutable items) as nested :class:`SharedTuple`."""
    if isinstance(value, tuple | list):
        return SharedTuple(shared_tuple(item) for item in value)
    return value  # type: ignore[no-any-return]


class SharedFrames(Mapping[str, pd.DataFrame]):
    """A read-only mapping of names to frames nobody writes to (a team ladder's covariance per AI
    tier): a deep copy is itself; equal to another mapping with the same keys and equal frames."""

    __slots__ = ("_frames",)

    def __init__(self, frames: Mapping[str, pd.DataFrame] | None = None) -> None:
        self._frames = dict(frames or {})

    def __getitem__(self, key: str) -> pd.DataFrame:
        return self._frames[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._frames)

    def __len__(self) -> int:
        return len(self._frames)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Mapping) or set(other) != set(self._frames):
            return False
        return all(
            isinstance(other[key], pd.DataFrame) and frame.equals(other[key])
            for key, frame in self._frames.items()
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SharedFrames({self._frames!r})"

    def __copy__(self) -> SharedFrames:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> SharedFrames:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (SharedFrames, (self._frames,))


__all__ = ["SharedFrames", "SharedTuple", "shared_tuple"]
