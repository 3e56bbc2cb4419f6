"""The hub's memories grouped into cards (`app.hub.browse`, `app.hub.cards`), on a real hub: the same
content on several machines is one card; a copy made by "Copy to this machine" and edited since stays on
its source's card, with both texts to diff; per-machine status, pending dismissals, counts, paging."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest

from app.core.errors import DatabaseOpenError
from app.hub.browse import HubBrowser, is_hub_url
from app.hub.cards import HubCard, MachineCopy, group_cards, link_of_detail, link_of_provenance
from app.hub.pull import pull
from app.hub.requests import queue_dismiss
from tests.support import hub_host
from tests.support.hostdb import host_sql
from tests.support.hub_host import host_file, open_store, publish_file
from tests.support.hub_machines import EDIT, FIRST_ID, publish_machines

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher


def _listing(url: str) -> list[HubCard]:
    with closing(HubBrowser(url)) as browser:
        listing = browser.listing()
        return browser.texts(listing.cards)


def _card_of(cards: list[HubCard], machine: str, memory_id: int) -> HubCard:
    [card] = [card for card in cards if (machine, memory_id) in {c.key for c in card.copies}]
    return card


def test_same_content_on_three_machines_is_one_card(hub_db: str, tmp_path: Path) -> None:
    for machine in ("laptop", "desktop", "devbox"):
        publish_file(host_file(tmp_path / f"{machine}.db"), hub_db, machine)

    cards = _listing(hub_db)

    assert len(cards) == 5  # the seeded five memories, each on every machine
    card = _card_of(cards, "laptop", 4)
    assert [c.key for c in card.copies] == [("desktop", 4), ("devbox", 4), ("laptop", 4)]
    assert card.machines == ("desktop", "devbox", "laptop") and card.missing == ()
    assert not card.differs and card.text == "Lives in Berlin (CET)"
    assert [c.status for c in _card_of(cards, "devbox", 2).copies] == ["dismissed"] * 3


def test_a_copied_memory_edited_on_one_machine_is_one_card_with_both_texts(
    hub_db: str, tmp_path: Path
) -> None:
    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db")
    with closing(open_store(laptop)) as store:
        store.edit(5, "Prefers pnpm, and bun for one-off scripts")
    publish_file(laptop, hub_db, "laptop")
    copied = pull(lambda: closing(open_store(desktop)), hub_db, "laptop", 5)
    with closing(open_store(desktop)) as store:
        store.edit(copied.id, "Prefers pnpm, and bun for scripts; never yarn")
    publish_file(desktop, hub_db, "desktop")

    cards = _listing(hub_db)

    card = _card_of(cards, "laptop", 5)
    assert {c.key for c in card.copies} == {("laptop", 5), ("desktop", copied.id)}
    assert card.differs and card.missing == ()
    versions = card.versions()
    assert [v.content for v in versions] == [
        "Prefers pnpm, and bun for scripts; never yarn",  # the newest first
        "Prefers pnpm, and bun for one-off scripts",
    ]
    assert [v.machines for v in versions] == [f"desktop #{copied.id}", "laptop #5"]
    # desktop's own "Prefers pnpm" (#5 there, never edited) is another card, alone on that machine
    assert _card_of(cards, "desktop", 5).missing == ("laptop",)


def test_the_link_survives_without_provenance_through_the_create_revision(
    hub_db: str, tmp_path: Path
) -> None:
    """A memory without provenance (NULL) copies with none: the copy's `create` revision names its source."""
    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db")
    publish_file(laptop, hub_db, "laptop")
    host_sql(desktop, "DELETE FROM user_memories WHERE id = 3")
    copied = pull(lambda: closing(open_store(desktop)), hub_db, "laptop", 3)
    host_sql(
        desktop, "UPDATE user_memories SET content = 'Legacy memory, rewritten' WHERE id = ?", (copied.id,)
    )
    publish_file(desktop, hub_db, "desktop")

    card = _card_of(_listing(hub_db), "laptop", 3)

    assert {c.key for c in card.copies} == {("laptop", 3), ("desktop", copied.id)}
    assert card.differs and len(card.versions()) == 2


def test_per_machine_status_shows_a_pending_dismissal(hub_db: str, tmp_path: Path) -> None:
    files = publish_machines(tmp_path, hub_db, 8)
    queue_dismiss(hub_db, "laptop", FIRST_ID, requested_on="laptop", now=hub_host.NOW)

    cards = _listing(hub_db)

    card = _card_of(cards, "laptop", FIRST_ID)
    assert [c.shown_status for c in card.copies] == ["active, dismiss requested"] * 3
    assert card.dismissable() == []
    unique = _card_of(cards, "laptop", FIRST_ID + 3)
    assert unique.missing == ("desktop", "devbox") and unique.dismissable() == [unique.copies[0]]
    assert len(files) == 3


def test_listing_counts_and_texts_a_page_at_a_time(hub_db: str, tmp_path: Path) -> None:
    publish_machines(tmp_path, hub_db, 40)
    with closing(HubBrowser(hub_db)) as browser:
        listing = browser.listing()
        assert listing.machines == ("desktop", "devbox", "laptop")
        assert (listing.counts.cards, listing.counts.differing, listing.counts.on_every_machine) == (
            45,
            10,
            15,
        )
        assert not any(card.loaded for card in listing.cards)  # no text read yet
        updated = [card.updated_at for card in listing.cards]
        assert updated == sorted(updated, reverse=True)
        first = browser.texts(listing.cards[:3])
        assert all(card.loaded for card in first)
        differing = next(card for card in browser.texts(listing.cards) if card.differs)
        assert [v.content.endswith(EDIT) for v in differing.versions()] == [True, False]
        found = browser.matching("SAYS SO in the readme")
        assert len(found) == 10 and {machine for machine, _ in found} == {"desktop"}


def test_a_hub_that_is_down_or_not_a_hub(postgres_db: str, tmp_path: Path) -> None:
    assert not is_hub_url(postgres_db)  # an empty database: `hub setup` never ran there
    assert not is_hub_url(str(tmp_path / "context.db"))
    with closing(HubBrowser(postgres_db)) as browser, pytest.raises(DatabaseOpenError, match="not set up"):
        browser.listing()
    down = "postgresql://nobody@/nothing?host=" + str(tmp_path / "no-server")
    with closing(HubBrowser(down)) as browser, pytest.raises(DatabaseOpenError) as failure:
        browser.listing()
    assert "Traceback" not in failure.value.message


def test_grouping_rules_without_a_database() -> None:
    def copy(machine: str, memory_id: int, digest: str, at: int = 0) -> MachineCopy:
        return MachineCopy(machine, memory_id, "active", at, digest)

    copies = [copy("a", 1, "x", 3), copy("b", 7, "x", 1), copy("b", 8, "y", 5), copy("c", 2, "z", 4)]
    # c #2 is a copy of b #8, which is a copy of a #1: one card across three machines, three texts
    cards = group_cards(copies, [(("c", 2), ("b", 8)), (("b", 8), ("a", 1))], ["a", "b", "c", "d"])
    assert [[c.key for c in card.copies] for card in cards] == [[("a", 1), ("b", 7), ("b", 8), ("c", 2)]]
    assert cards[0].missing == ("d",) and cards[0].differs
    # a link to a memory the hub does not hold joins nothing
    alone = group_cards([copy("a", 1, "x")], [(("a", 1), ("z", 9))], ["a"])
    assert len(alone) == 1
    assert link_of_provenance('[{"synced_from": "a", "synced_memory_id": 5}]') == ("a", 5)
    assert link_of_provenance("not json") is None and link_of_provenance(None) is None
    assert link_of_provenance('[{"synced_from": "a", "synced_memory_id": true}]') is None
    assert link_of_detail('{"copied_from": "b", "copied_memory_id": 12}') == ("b", 12)
    assert link_of_detail("{") is None and link_of_detail("[1]") is None
