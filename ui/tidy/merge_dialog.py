"""The merge preview: the members with checkboxes (all at first), the memory to keep, the merged text
(editable, the first draft filled in), the evidence of every member in promotion order, and what each
member becomes. Apply runs the merge as one command through the window's undo history (Ctrl+Z takes it
back); the cards show the merged memories once it is written. For one project's memories (`kind`) the
others become archived, superseded by the kept one, as the host records it, and the project page shows
them again.

Unchecking a member or keeping another one drafts the text again, unless the person has edited it (what
they typed is never replaced). Ctrl+Enter / Ctrl+S applies, Esc asks before an edit is thrown away
(`DialogKeys`). Nothing is read or written here but through the controller.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import InvalidInputError
from app.core.text_input import content_problem
from app.tidy.merge import Kind
from app.tidy.merge_plan import MergePlan, plan_merge
from ui.runtime.controller import Controller
from ui.tidy.text_line import line
from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.labels import plain_label
from ui.widgets.plain_tip import plain_tip

MEMBER_ROLE = Qt.ItemDataRole.UserRole + 1


class MergeDialog(QDialog):
    merged = Signal(int)  # the id kept, once the merge is written

    def __init__(
        self, controller: Controller, plan: MergePlan, parent: QWidget | None = None, *, kind: Kind = "user"
    ) -> None:
        super().__init__(parent)
        self.controller, self.kind = controller, kind
        self.full = plan  # every member the group offered
        self.plan: MergePlan | None = plan
        self.setWindowTitle(f"Merge {len(plan.members)} memories")
        self.resize(760, 560)
        self.members = QListWidget()
        self.members.setAccessibleName("Memories to merge")
        for member in plan.members:
            item = QListWidgetItem(f"#{member.id}  {line(member.text)}")
            item.setData(MEMBER_ROLE, member.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            item.setToolTip(plain_tip(member.text))
            self.members.addItem(item)
        self.keep = QComboBox()
        self.keep.setAccessibleName("Memory to keep")
        self.editor = QPlainTextEdit()
        self.editor.setAccessibleName("Merged text")
        self.editor.setTabChangesFocus(True)
        self.editor.setPlainText(plan.draft)
        self.drafted = plan.draft  # the text last drafted: differs from the editor's once edited
        self.evidence = plain_label()
        self.becomes = plain_label()
        self.notice = plain_label()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button = self.buttons.addButton("Apply", QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setToolTip("Merge them (one change: Undo takes it back)")
        self.buttons.accepted.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Members:", self.members)
        form.addRow("Keep:", self.keep)
        form.addRow("Merged text:", self.editor)
        form.addRow("Evidence:", self.evidence)
        form.addRow("Becomes:", self.becomes)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        self._fill_keep(plan)
        self._show(plan)
        self.members.itemChanged.connect(lambda *_: self._replan())
        self.keep.currentIndexChanged.connect(lambda *_: self._replan())
        self.editor.textChanged.connect(self._check)
        controller.error.connect(self._check)  # a refused Apply can be tried again
        self.keys = DialogKeys(self, lambda: self.editor.toPlainText() != self.drafted)

    def checked(self) -> list[int]:
        found = []
        for row in range(self.members.count()):
            item = self.members.item(row)
            if item.checkState() == Qt.CheckState.Checked:
                found.append(int(item.data(MEMBER_ROLE)))
        return found

    def _fill_keep(self, plan: MergePlan) -> None:
        self.keep.blockSignals(True)
        self.keep.clear()
        for member in plan.members:
            self.keep.addItem(f"#{member.id}  {line(member.text)}", member.id)
        self.keep.setCurrentIndex(self.keep.findData(plan.kept))
        self.keep.blockSignals(False)

    def _replan(self) -> None:
        chosen = self.checked()
        kept = self.keep.currentData()
        members = [member for member in self.full.members if member.id in chosen]
        try:
            plan = plan_merge(members, kept if kept in chosen else None)
        except InvalidInputError as exc:
            self.plan = None
            self.notice.setText(str(exc))
            self._check()
            return
        self.plan = plan
        self._fill_keep(plan)
        if self.editor.toPlainText() == self.drafted:  # not edited: the new draft replaces the old one
            self.drafted = plan.draft
            self.editor.setPlainText(plan.draft)
        self._show(plan)

    def _show(self, plan: MergePlan) -> None:
        ids = ", ".join(f"#{i}" for i in plan.candidate_ids) or "none recorded"
        sources = ", ".join(plan.sources)
        self.evidence.setText(f"candidates {ids}" + (f" (from {sources})" if sources else ""))
        project = self.kind == "project"
        self.becomes.setText(
            "\n".join(f"#{m.id}: {plan.becomes(m.id, project=project)}" for m in plan.members)
        )
        what = "project memories" if project else "memories"
        self.setWindowTitle(f"Merge {len(plan.members)} {what} into #{plan.kept}")
        self.notice.setText("")
        self._check()

    def _check(self, *_: object) -> None:
        problem = content_problem(self.editor.toPlainText())
        self.apply_button.setEnabled(self.plan is not None and problem is None)
        if self.plan is not None and problem is not None:
            self.notice.setText(f"The merged text {problem}.")

    def apply(self) -> None:
        plan = self.plan
        if plan is None or not self.apply_button.isEnabled():
            return
        self.apply_button.setEnabled(False)

        def done(_written: object) -> None:
            self.drafted = self.editor.toPlainText()  # written: nothing left to discard
            self.merged.emit(plan.kept)
            self.accept()

        merge = self.controller.merge_project if self.kind == "project" else self.controller.merge
        if not merge(plan, self.editor.toPlainText(), done):
            self._check()
