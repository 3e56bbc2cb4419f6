"""Memory Dashboard: the product without a screen (storage, review, CLI). No Qt is imported here."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("memory-dashboard")
except PackageNotFoundError:  # running from a source tree or a frozen build without metadata
    __version__ = "0.1.0"
