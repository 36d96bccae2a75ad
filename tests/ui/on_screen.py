"""The colours a terminal would show for the app's screen, and their WCAG contrast.

The screen is read from Textual's compositor after its line filters (NO_COLOR's
Monochrome among them), then treated as the terminal would treat it: colours
downgraded to the console's colour system (the 16 colours of ``TERM=xterm``, as Rich
does when it writes them) and ANSI colours resolved with the terminal palette Textual
itself assumes (``App.ansi_theme``); reverse video swaps, dim blends toward the
background.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.color import Color, ColorSystem
from rich.style import Style
from textual.app import App
from textual.filter import dim_color
from textual.geometry import Region
from textual.screen import ModalScreen

RGB = tuple[int, int, int]

COLOUR_SYSTEMS = {
    "standard": ColorSystem.STANDARD,
    "256": ColorSystem.EIGHT_BIT,
    "truecolor": ColorSystem.TRUECOLOR,
    "windows": ColorSystem.WINDOWS,
}

#: Characters that only draw edges (borders, the sides of buttons and fields, rules, the
#: fractional ends of a scrollbar's thumb): lines around things, not things to read, so
#: no contrast is asked of them. (The discs use none of these.)
EDGES = frozenset([chr(code) for code in range(0x2500, 0x2580)] + list("▔▁▂▃▅▆▇▏▕▎▍▌▋▊▉▐"))


@dataclass(frozen=True)
class Cell:
    """A run of text drawn in one style, at (x, y), in the colours the terminal shows."""

    x: int
    y: int
    text: str
    foreground: RGB
    background: RGB

    @property
    def contrast(self) -> float:
        """The WCAG 2 contrast ratio of its foreground against its background."""
        return contrast_ratio(self.foreground, self.background)

    @property
    def is_text(self) -> bool:
        """Letters or digits (4.5:1 asked); otherwise a shape such as a disc (3:1)."""
        return any(char.isalnum() for char in self.text)

    @property
    def is_edge(self) -> bool:
        """Blank, or nothing but edge characters."""
        return all(char.isspace() or char in EDGES for char in self.text)


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG 2's contrast ratio, from 1 (same) to 21 (black on white)."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)))[::-1]
    return (lighter + 0.05) / (darker + 0.05)


def shown_cells(app: App[object]) -> list[Cell]:
    """Every styled run on screen, in the colours the terminal would show."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    system = COLOUR_SYSTEMS.get(app.console.color_system or "truecolor", ColorSystem.TRUECOLOR)
    cells = []
    for y, chops in enumerate(update.strips):
        x = 0
        for strip in chops:
            for segment in strip:
                if segment.control:
                    continue
                foreground, background = _terminal_colours(app, segment.style, system)
                cells.append(Cell(x, y, segment.text, foreground, background))
                x += segment.cell_length
    return cells


def _terminal_colours(
    app: App[object], style: Style | None, system: ColorSystem
) -> tuple[RGB, RGB]:
    style = style or Style()
    palette = app.ansi_theme

    def shown(colour: Color | None, foreground: bool) -> RGB:
        colour = colour or Color.default()
        if colour.system > system:
            colour = colour.downgrade(system)
        triplet = colour.get_truecolor(palette, foreground=foreground)
        return (triplet.red, triplet.green, triplet.blue)

    foreground, background = shown(style.color, True), shown(style.bgcolor, False)
    if style.reverse:
        foreground, background = background, foreground
    if style.dim:
        dimmed = dim_color(Color.from_rgb(*background), Color.from_rgb(*foreground))
        foreground = (dimmed.triplet.red, dimmed.triplet.green, dimmed.triplet.blue)
    return foreground, background


def active_regions(app: App[object]) -> list[Region]:
    """Where the player is meant to read: a dialog's own widgets, or the whole screen.

    Under a modal dialog the screen behind is dimmed on purpose (WCAG asks nothing of
    content that is not active).
    """
    screen = app.screen
    if not isinstance(screen, ModalScreen):
        return [screen.region]
    return [child.region for child in screen.children if child.display]


def _inside(regions: list[Region], cell: Cell) -> bool:
    return any(region.contains(cell.x, cell.y) for region in regions)


def disabled_regions(app: App[object]) -> list[Region]:
    """Controls shown dimmed because they cannot be used now (WCAG exempts them too)."""
    return [
        widget.region
        for widget in app.screen.query("*")
        if widget.disabled or widget.has_class("-disabled")
    ]


def too_faint(app: App[object], text: float = 4.5, shapes: float = 3.0) -> list[str]:
    """Each run on the active screen whose contrast is below the bar, described."""
    active, exempt = active_regions(app), disabled_regions(app)
    faint = []
    for cell in shown_cells(app):
        if cell.is_edge or not _inside(active, cell) or _inside(exempt, cell):
            continue
        needed = text if cell.is_text else shapes
        if cell.contrast < needed:
            faint.append(
                f"{cell.contrast:.2f} < {needed} at ({cell.x}, {cell.y}) {cell.text!r} "
                f"{cell.foreground} on {cell.background}"
            )
    return faint


def screen_lines(app: App[object]) -> list[str]:
    """The characters on screen, line by line, as the terminal shows them."""
    lines: dict[int, list[str]] = {}
    for cell in shown_cells(app):
        lines.setdefault(cell.y, []).append(cell.text)
    return ["".join(parts) for _, parts in sorted(lines.items())]
