"""The texts the diff's property tests draw (hypothesis strategies: unrelated texts, and texts edited
from one another) and the one rule every diff must keep (its ops rebuild both texts, cut at tokens)."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from app.diff.engine import LONG_TOKEN
from app.diff.text_diff import TOKEN, DiffOp

# Words, blanks, newlines, punctuation, and the unicode that trips diffs up: combining marks, CJK,
# emoji with a joiner, hidden and bidi-control characters, other line separators.
_PIECES = [
    "pnpm",
    "npm",
    "prefers",
    "code",
    "first",
    "the",
    "a",
    "é",
    "e\u0301",
    "日本語",
    "👩\u200d💻",
    "x_y",
    "42",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\n\n",
    ".",
    ",",
    ";",
    "!",
    "`",
    "<",
    "&",
    "\u202e",
    "\u200b",
    "\u2028",
    "\U000e0041",
    "\u00a0",
]
texts = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(_PIECES), max_size=80).map("".join),
)


@st.composite
def edited_pairs(draw: st.DrawFn) -> tuple[str, str]:
    """An old text and a new one made from it by a few token edits: the shape real revisions have."""
    tokens = draw(st.lists(st.sampled_from(_PIECES + ["alpha", "beta", "gamma", "delta"] * 3), max_size=300))
    new_tokens = list(tokens)
    for _ in range(draw(st.integers(0, 6))):
        position = draw(st.integers(0, len(new_tokens)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(_PIECES))
        if action == "insert" or not new_tokens:
            new_tokens.insert(position, piece)
        elif action == "delete":
            del new_tokens[min(position, len(new_tokens) - 1)]
        else:
            new_tokens[min(position, len(new_tokens) - 1)] = piece
    return "".join(tokens), "".join(new_tokens)


def _old_side(ops: list[DiffOp]) -> str:
    return "".join(op.text for op in ops if op.kind != "insert")


def _new_side(ops: list[DiffOp]) -> str:
    return "".join(op.text for op in ops if op.kind != "delete")


def _token_boundaries(text: str) -> set[int]:
    """Where ops may start or end: between tokens, and anywhere inside a token too long to be a word."""
    found = {0, len(text)}
    for match in TOKEN.finditer(text):
        found.add(match.end())
        if match.end() - match.start() > LONG_TOKEN:
            found.update(range(match.start(), match.end()))
    return found


def assert_well_formed(old: str, new: str, ops: list[DiffOp]) -> None:
    assert _old_side(ops) == old
    assert _new_side(ops) == new
    assert all(op.text for op in ops), "no empty op"
    assert all(op.kind in ("equal", "insert", "delete") for op in ops)
    for before, after in itertools.pairwise(ops):
        assert before.kind != after.kind, "adjacent ops of one kind are merged"
        assert (before.kind, after.kind) != ("insert", "delete"), "a delete comes before its insert"
    # Every op starts and ends on a token boundary of both texts: no word is ever cut in two.
    old_boundaries, new_boundaries = _token_boundaries(old), _token_boundaries(new)
    old_at = new_at = 0
    for op in ops:
        if op.kind != "insert":
            old_at += len(op.text)
            assert old_at in old_boundaries
        if op.kind != "delete":
            new_at += len(op.text)
            assert new_at in new_boundaries
