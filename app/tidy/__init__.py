"""Tidy: find likely duplicate memories and pairs that may contradict (`app.tidy.finder.find_groups`).

Pure and without Qt; it reads memories through the store (`app.tidy.source`) and writes nothing.
"""
