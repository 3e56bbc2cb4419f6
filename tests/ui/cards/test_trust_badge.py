"""The card's trust badge: a screened memory says so, and its tooltip gives the reasons."""

from __future__ import annotations

from pathlib import Path

from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import host_sql
from ui.cards.parts import side_badges


def test_a_screened_memory_badge_and_its_reasons(store: MemoryStore, host_db: Path) -> None:
    store.set_trust("session:ses_seed", "trusted")
    host_sql(host_db, "UPDATE user_memories SET content = ? WHERE id = 4", ("Lives in\u2066 Berlin",))
    trusted, screened = store.get(1), store.get(4)
    badge = side_badges(trusted, REVIEW_TIME)[-1]
    assert badge.text == "trusted" and "session:ses_seed is marked trusted" in badge.tooltip
    badge = side_badges(screened, REVIEW_TIME)[-1]
    assert badge.text == "untrusted (screened)"
    assert "screened: the content holds hidden characters: U+2066" in badge.tooltip
