"""View → Tidy…: likely duplicates and pairs that may contradict, found off the GUI thread."""
