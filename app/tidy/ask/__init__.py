"""Asking the reviewer about tidy's groups: the prompt (`prompt`), the checks its verdict must pass and the
links it makes (`verdict`), and the ask, the preview and the apply under the review's lease (`run`).

It reuses the review's runner, verdict parser and apply: the answer is a verdict of the host's shape,
applied as a review run whose origin says tidy asked for it.
"""
