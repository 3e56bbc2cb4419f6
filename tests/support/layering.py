"""The layers of `app/` and `ui/`, as `tests/test_architecture.py` holds the tree to them."""

from __future__ import annotations

# The packages from the bottom up: a package imports only packages of a lower rank (and itself); a
# module named here (`app.store.read.queries`) has a rank of its own, apart from its folder's (the
# longest name that is a prefix of a module decides). `app` below `ui`; in `app`, the pure modules
# below the store, the store below the commands (every change a person makes is one), the commands
# below what uses them (the review, the hub's pull), the command line on top; in `ui`, the actions and
# widgets below the views, the views below the windows, the entry point last.
#
# Inside the store, from the bottom: the tables, the host's cells, opening a database, migrating, the
# revision log and the kinds of memory, the search index, the read helpers, the past, observing, the
# writers, evidence and runs; then what a read-only store keeps (`keeping`), the `Database` unit, the
# services over it (each given what it uses, so one that uses another sits above it), the facade.
LAYERING: dict[str, int] = {
    "app": 0,
    "app.core": 0,
    "app.diff": 10,
    "app.present": 10,
    "app.transfer": 10,
    "app.store.schema": 20,
    "app.store.read.host_cells": 21,
    "app.store.project.tables": 21,  # the host's project tables, described
    "app.store.connect": 22,
    "app.store.project.model": 22,  # a project memory from any raw row
    "app.store.schema.migrate": 23,
    "app.store.write.revision_log": 24,
    "app.store.kinds": 25,
    "app.store.search": 26,
    "app.store.read": 27,
    "app.store.project": 28,  # the project library: reads, links, the host's writes, the revision log
    "app.store.past": 29,
    "app.store.observe": 30,
    "app.store.write": 31,
    "app.store.links": 31,
    "app.store.evidence": 32,
    "app.store.project.importing": 32,  # project memories from an export file, the import's id rules
    "app.store.project.merging": 32,  # a merge of project memories: the user merge's sentence detail
    "app.store.project.removal": 32,  # an import's project memories taken back, the host's way
    "app.store.keeping": 33,
    "app.store.database": 34,
    "app.store.observe.observer": 35,
    "app.store.search.upkeep": 35,
    "app.store.evidence.records": 35,
    "app.store.project.service": 35,
    "app.store.project.edits": 36,  # the project writes as a service: one transaction each, recorded
    "app.store.read.queries": 36,
    "app.store.past.history": 37,
    "app.store.write.edits": 37,
    "app.store.store": 38,
    "app.store": 39,
    "app.commands": 50,
    "app.review": 60,
    "app.tidy": 60,
    "app.tidy.ask": 61,  # asking the reviewer about tidy's groups: the review's runner, checks and apply
    "app.hub": 60,
    "app.schedule": 60,
    "app.demo": 65,  # its review runs are real verdicts, applied by the review
    "app.cli": 70,
    "app.__main__": 80,
    "ui": 100,
    "ui.actions": 100,
    "ui.widgets": 110,
    "ui.cards": 120,
    "ui.diff": 120,
    "ui.history": 130,
    "ui.past": 140,
    "ui.runtime": 150,
    "ui.review": 160,
    "ui.dialogs": 160,
    "ui.tidy": 160,
    "ui.hub": 160,
    "ui.project": 160,  # the project memories' page, built when first shown
    "ui.window": 170,
    "ui.cli_hooks": 180,
    "ui.main": 190,
    "ui.__main__": 200,
}
