"""Reading: raw host rows into frozen models, listing queries, recall and the profile."""
