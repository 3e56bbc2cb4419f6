"""Tooltips built from data show the characters, never markup."""

from __future__ import annotations

from ui.widgets.plain_tip import plain_tip


def test_markup_in_data_is_escaped() -> None:
    tip = plain_tip('session <img src="file:///etc/passwd"> <b>pwn</b>\nline two\u202e')
    assert "<img" not in tip and "<b>" not in tip
    assert "&lt;img src=&quot;file:///etc/passwd&quot;&gt;" in tip
    assert "line two⟦U+202E⟧" in tip and "<br>" in tip


def test_empty_stays_empty() -> None:
    assert plain_tip("") == ""
