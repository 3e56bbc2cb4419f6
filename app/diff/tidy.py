"""Tidying the raw ops of `app.diff.engine`: no empty op, changes merged, line breaks where they read best.

The engine emits ops piece by piece (an equal prefix, a middle, an equal suffix, often empty); `tidy`
turns them into the canonical form every caller relies on: no empty op, and between two equal ops at
most one delete followed by one insert.
"""

from __future__ import annotations

from typing import Literal

OpKind = Literal["equal", "insert", "delete"]
Op = tuple[OpKind, str]


def tidy(raw: list[Op]) -> list[Op]:
    """`raw` in canonical form, with line breaks moved so that changes keep to whole lines."""
    return _lines_kept_whole(normalized(raw))


def normalized(raw: list[Op]) -> list[Op]:
    """Drop empty ops and merge each run of changes between two equal ops into one delete + one insert."""
    ops: list[Op] = []
    equal: list[str] = []
    deleted: list[str] = []
    inserted: list[str] = []
    for kind, text in raw:
        if not text:
            continue
        if kind != "equal":
            if equal:
                ops.append(("equal", "".join(equal)))
                equal.clear()
            (deleted if kind == "delete" else inserted).append(text)
            continue
        if deleted:
            ops.append(("delete", "".join(deleted)))
            deleted.clear()
        if inserted:
            ops.append(("insert", "".join(inserted)))
            inserted.clear()
        equal.append(text)
    if equal:
        ops.append(("equal", "".join(equal)))
    if deleted:
        ops.append(("delete", "".join(deleted)))
    if inserted:
        ops.append(("insert", "".join(inserted)))
    return ops


def _lines_kept_whole(ops: list[Op]) -> list[Op]:
    """Shift line breaks so that changes keep to whole lines where the same edit allows it.

    A lone change "\nfoo" before an equal "\n…" becomes "foo\n" after the first "\n"; a delete "pnpm" and
    an insert "npm\nnow" before an equal "\n…" become "pnpm" → "npm", "\n", then an inserted "now\n".
    Each rewrite is the same edit, but the side-by-side view then pairs the right lines.
    """
    moved = False
    for index in range(1, len(ops) - 1):
        kind, text = ops[index]
        following = ops[index + 1][1]
        if kind != "equal" and text[0] == "\n" and following[0] == "\n" and ops[index - 1][0] == "equal":
            ops[index - 1] = ("equal", ops[index - 1][1] + "\n")
            ops[index] = (kind, text[1:] + "\n")
            ops[index + 1] = ("equal", following[1:])
            moved = True
    aligned: list[Op] = []
    index = 0
    while index < len(ops):
        kind, deleted = ops[index]
        if kind == "delete" and index + 2 < len(ops) and ops[index + 1][0] == "insert":
            inserted, (after_kind, equal) = ops[index + 1][1], ops[index + 2]
            if after_kind == "equal" and equal[:1] == "\n" and ("\n" in deleted) != ("\n" in inserted):
                aligned.extend(_aligned_breaks(deleted, inserted, equal))
                index += 3
                moved = True
                continue
        aligned.append(ops[index])
        index += 1
    # A move may leave an empty op, or two changes side by side: normalize again then.
    return normalized(aligned) if moved else aligned


def _aligned_breaks(deleted: str, inserted: str, equal: str) -> list[Op]:
    if "\n" in inserted:
        head, _, rest = inserted.partition("\n")
        return [
            ("delete", deleted),
            ("insert", head),
            ("equal", "\n"),
            ("insert", rest + "\n"),
            ("equal", equal[1:]),
        ]
    head, _, rest = deleted.partition("\n")
    return [
        ("delete", head),
        ("insert", inserted),
        ("equal", "\n"),
        ("delete", rest + "\n"),
        ("equal", equal[1:]),
    ]


__all__ = ["Op", "OpKind", "normalized", "tidy"]
