"""The host's `normalized_hash` of a project memory's content (its normalize-hash.ts):
MD5 hex of the text lowercased, every whitespace run collapsed to one space, trimmed.

The host runs JavaScript, so "whitespace" is what JavaScript's `\\s` and `trim()` mean (which is not
Python's `str.split()`: JavaScript counts U+FEFF and not U+001C..U+001F), and the bytes hashed are
Node's UTF-8, which writes a lone surrogate as U+FFFD. The table's `UNIQUE(project_path, category,
normalized_hash)` rests on this value, so it must be the host's to the bit.
"""

from __future__ import annotations

import hashlib
import re

# ECMAScript WhiteSpace and LineTerminator: what `\s` matches and `trim()` removes.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_SPACE_RUN = re.compile(f"[{_JS_SPACE}]+")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def normalize_content(text: str) -> str:
    """The text the host hashes: lowercased, whitespace runs as one space, trimmed."""
    # After the substitution the only whitespace left is the single spaces it wrote: trim those.
    return _SPACE_RUN.sub(" ", text.lower()).strip(" ")


def normalized_hash(text: str) -> str:
    """MD5 hex of `normalize_content(text)` as UTF-8 (a lone surrogate as U+FFFD, as Node encodes it)."""
    normalized = _LONE_SURROGATE.sub("\ufffd", normalize_content(text))
    return hashlib.md5(normalized.encode("utf-8"), usedforsecurity=False).hexdigest()
