"""Colours: the light/dark palettes (Fusion style, so they work offscreen too) and semantic tones.

Cards and badges take their colours from the current palette: surfaces and text come straight from
it; the few semantic hues (green for active, amber for expiring, red for expired or untrusted) are
blended with the palette's base colour so they read well on light and dark backgrounds alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

Role = QPalette.ColorRole


class Tone(Enum):
    NEUTRAL = "#6b7280"
    GREEN = "#1f9d55"
    AMBER = "#c27803"
    RED = "#d64545"
    BLUE = "#2f6fde"
    TEAL = "#0f8f86"
    PURPLE = "#7c4dcc"


@dataclass(frozen=True, slots=True)
class BadgeColors:
    background: QColor
    foreground: QColor
    border: QColor


def is_dark(palette: QPalette) -> bool:
    return palette.color(Role.Window).lightness() < 128


def blend(base: QColor, other: QColor, amount: float) -> QColor:
    """`amount` of `other` over `base` (0 keeps base, 1 gives other)."""
    keep = 1.0 - amount
    return QColor(
        round(base.red() * keep + other.red() * amount),
        round(base.green() * keep + other.green() * amount),
        round(base.blue() * keep + other.blue() * amount),
    )


def badge_colors(palette: QPalette, tone: Tone) -> BadgeColors:
    base = palette.color(Role.Base)
    hue = QColor(tone.value)
    if tone is Tone.NEUTRAL:
        hue = palette.color(Role.PlaceholderText)
    if is_dark(palette):
        return BadgeColors(blend(base, hue, 0.28), hue.lighter(165), blend(base, hue, 0.55))
    return BadgeColors(blend(base, hue, 0.12), hue.darker(135), blend(base, hue, 0.35))


def muted_text(palette: QPalette) -> QColor:
    return blend(palette.color(Role.Text), palette.color(Role.Base), 0.42)


def card_border(palette: QPalette) -> QColor:
    return blend(palette.color(Role.Base), palette.color(Role.Text), 0.16 if is_dark(palette) else 0.13)


def accent_text(palette: QPalette) -> QColor:
    """The accent for emphasised words (`updated 2h ago`): the palette's highlight, readable on Base."""
    color = palette.color(Role.Highlight)
    return color.lighter(150) if is_dark(palette) else color.darker(110)


def dark_palette() -> QPalette:
    palette = QPalette()
    window, base, text = QColor("#1f2127"), QColor("#16181d"), QColor("#e6e8ec")
    colors = {
        Role.Window: window,
        Role.WindowText: text,
        Role.Base: base,
        Role.AlternateBase: QColor("#23262d"),
        Role.ToolTipBase: QColor("#2b2e36"),
        Role.ToolTipText: text,
        Role.PlaceholderText: QColor("#8b909a"),
        Role.Text: text,
        Role.Button: QColor("#2a2d34"),
        Role.ButtonText: text,
        Role.BrightText: QColor("#ff6b6b"),
        Role.Light: QColor("#3a3e47"),
        Role.Midlight: QColor("#30333b"),
        Role.Mid: QColor("#3b3f48"),
        Role.Dark: QColor("#101216"),
        Role.Shadow: QColor("#000000"),
        Role.Highlight: QColor("#3d7be0"),
        Role.HighlightedText: QColor("#ffffff"),
        Role.Link: QColor("#6fa3ff"),
        Role.LinkVisited: QColor("#b48cff"),
    }
    for role, color in colors.items():
        palette.setColor(role, color)
    disabled = QPalette.ColorGroup.Disabled
    for role in (Role.Text, Role.ButtonText, Role.WindowText):
        palette.setColor(disabled, role, QColor("#6c707a"))
    return palette


def light_palette() -> QPalette:
    colors = {
        Role.Window: QColor("#f3f4f6"),
        Role.WindowText: QColor("#1f2328"),
        Role.Base: QColor("#ffffff"),
        Role.AlternateBase: QColor("#f6f7f9"),
        Role.Text: QColor("#1f2328"),
        Role.PlaceholderText: QColor("#6e7781"),
        Role.Button: QColor("#f6f7f9"),
        Role.ButtonText: QColor("#1f2328"),
        Role.Highlight: QColor("#2f6fde"),
        Role.HighlightedText: QColor("#ffffff"),
        Role.ToolTipBase: QColor("#ffffff"),
        Role.ToolTipText: QColor("#1f2328"),
    }
    base = QApplication.style().standardPalette() if QApplication.instance() else QPalette()
    for role, color in colors.items():
        base.setColor(role, color)
    disabled = QPalette.ColorGroup.Disabled
    for role in (Role.Text, Role.ButtonText, Role.WindowText):
        base.setColor(disabled, role, QColor("#a0a6ad"))
    return base


def apply_theme(app: QApplication, theme: str) -> None:
    """`light` or `dark` (Fusion with our palette); `system` leaves the platform's style and palette."""
    if theme == "system":
        return
    style = QStyleFactory.create("Fusion")
    if style is not None:
        app.setStyle(style)
    app.setPalette(dark_palette() if theme == "dark" else light_palette())
