"""What the window says of a database it shows but cannot change: its file deleted or replaced while
open (`Controller.check_file`), or the launch's store refused as it opened, after the first frame
(`Controller.refused`: a never-opened file's pages are checked then, and a damaged one refused)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ui.runtime.controller.messages import refused_saying

if TYPE_CHECKING:
    from ui.runtime.controller import Controller


def title_note(controller: Controller) -> str:
    """What the title adds to the database's name ("" when nothing is wrong)."""
    if controller.file_problem is None:
        return ""
    why = "it could not be opened" if controller.refused is not None else "its file was deleted or replaced"
    return f" ({why}: changes are refused)"


def banner_text(controller: Controller, problem: str) -> str:
    """The banner's words for `problem` (the banner's button reopens the database)."""
    if controller.refused is not None:  # maybe of another file chosen since, which showed nothing
        read = controller.facts.location
        shown = f"What is shown was read from {read} at launch; nothing can change until a database opens."
        return refused_saying(problem, shown)
    return refused_saying(
        problem, "What is shown is the file as it was; changes are refused, as they would be lost."
    )


def reopen_action(controller: Controller) -> tuple[str, Callable[[], None]] | None:
    """The banner's button while the database has a file problem (any message it shows then keeps it)."""
    return ("Reopen", controller.reopen) if controller.file_problem is not None else None
