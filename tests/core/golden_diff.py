"""What the Duel Pack's and Blast's identity tests share: where the core's canonical bytes of a golden
or differential match first differ from the reference's, with both engines' events around it."""

from __future__ import annotations

from typing import Any


def first_difference(
    label: str, spec: dict[str, Any], theirs: bytes, ours: bytes, context: int = 3
) -> tuple[int, str] | None:
    """(event index, a message with both engines' events around it) of the first line where the
    core's bytes ``ours`` differ from the reference's ``theirs``, or None when they are equal."""
    if ours == theirs:
        return None
    a, b = theirs.split(b"\n"), ours.split(b"\n")
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    lines = [f"{label} differs at event {k}: {spec}"]
    for i in range(max(0, k - context), k):
        lines.append(f"  both      {a[i].decode()[:300]}")
    lines.append(f"  reference {a[k].decode()[:600] if k < len(a) else '(ended)'}")
    lines.append(f"  core      {b[k].decode()[:600] if k < len(b) else '(ended)'}")
    return k, "\n".join(lines)
