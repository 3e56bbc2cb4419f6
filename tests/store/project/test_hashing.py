"""`normalized_hash` is the host's: MD5 hex of the text lowercased, whitespace runs as one space, trimmed,
with whitespace and lowercasing as JavaScript means them. The pinned digests were computed by Node's
own `createHash("md5")` over `text.toLowerCase().replace(/\\s+/g, " ").trim()`, the host's code."""

from __future__ import annotations

import pytest

from app.store.project.hashing import normalize_content, normalized_hash


@pytest.mark.parametrize(
    ("content", "node_digest"),
    [
        ("Build with pnpm", "59d76f6b1b6c6f1c952a906a05762961"),
        ("  Build\t\twith\n pnpm  ", "59d76f6b1b6c6f1c952a906a05762961"),
        ("no\u00a0break\u2003em\u3000ideographic", "dc106ce37d743154f8ce8834ebcdee02"),
        (
            "\ufeffbyte order mark\ufeff",
            "b994d07eecaefd3842e4c41fc36bda37",
        ),  # U+FEFF: in \s, not in str.split
        ("file\x1cseparator", "3b6509e95e99365e5bafc6803169083b"),  # U+001C: in str.split, not in \s
        ("ÄRGER Σ", "19101c726fcec5962110ba974116015b"),
        ("ΟΔΟΣ ΟΔΟΣ", "50a859c34ea1b581b16284347a1fbcf3"),  # final sigma, as toLowerCase writes it
        ("a\ud800b", "ff6405018d5ab2642e35fdba389b7c51"),  # a lone surrogate: Node hashes U+FFFD
    ],
)
def test_the_hash_is_the_hosts(content: str, node_digest: str) -> None:
    assert normalized_hash(content) == node_digest


def test_the_normalized_text() -> None:
    assert normalize_content("  Use\u2028 PNPM\t") == "use pnpm"
    assert normalize_content("") == ""
