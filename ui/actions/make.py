"""How an action is made: one QAction with its shortcuts, their context, and a tooltip that names them."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

StdKey = QKeySequence.StandardKey
Ctx = Qt.ShortcutContext
# A card list's actions: the list alone, not its children. A toolbar showing an action is one of the
# widgets the action is on, and a wider context makes its keys live in every field of that toolbar.
ON_CARD_LIST = Ctx.WidgetShortcut


def make_action(
    parent: QObject,
    text: str,
    tip: str,
    keys: list[QKeySequence] | None = None,
    context: Ctx = Ctx.WindowShortcut,
) -> QAction:
    action = QAction(text, parent)
    if keys:
        action.setShortcuts(keys)
        action.setShortcutContext(context)
        shown = ", ".join(key.toString(QKeySequence.SequenceFormat.NativeText) for key in keys)
        tip = f"{tip} ({shown})"
    action.setToolTip(tip)
    action.setStatusTip(tip)
    return action


def keys(*names: str | StdKey) -> list[QKeySequence]:
    """The key sequences, platform standard ones expanded, without repeats."""
    found: list[QKeySequence] = []
    for name in names:
        sequences = QKeySequence.keyBindings(name) if isinstance(name, StdKey) else [QKeySequence(name)]
        found.extend(seq for seq in sequences if not seq.isEmpty() and seq not in found)
    return found
