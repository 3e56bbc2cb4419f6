"""The command line's `--kind project`: the host's project memories listed, shown with their links,
profiled, edited, archived and restored (`reads`, `writes`), rendered by `render`."""
