"""The desktop window (PySide6): everything Qt lives here; `app/` never imports it."""
