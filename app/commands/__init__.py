"""The command layer: every change a person makes, from the window or the CLI, as a command object with
`do`, `undo` and `redo`, logged in the database (`mdash_command_log`) as one undo/redo stack both share.

`runner.execute` does a command and logs it in one write transaction; `runner.undo` and `runner.redo`
walk the log one entry at a time, each one transaction with one profile bump; `registry` maps a log
entry's kind back to its class. No Qt here: the window's `QUndoStack` is an adapter over this.
"""
