"""Small pure modules every layer uses: the read models, time, paths, settings, provenance, trust,
screening and the checks for input entering the store. No database, no Qt."""
