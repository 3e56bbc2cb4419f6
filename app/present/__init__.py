"""What a person reads of a memory, the same in the window and the CLI: the card's text (its meta line,
candidates, origins, expiry badge, tooltip times) and relative times (`5m ago`, `in 7d`). No database,
no Qt."""
