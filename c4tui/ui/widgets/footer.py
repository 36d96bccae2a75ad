"""A footer that leaves out the keys that do not fit, instead of cutting the last one in half.

Textual's footer lays its keys out in a row and clips what overflows. On a narrow
terminal the keys that matter most come first (each screen orders its bindings so),
and the rest are left for the help screen.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: A key's cells besides its name and description: the space between them and the
#: padding either side (Textual's FooterKey style).
KEY_EXTRA_CELLS = 3


def key_width(key: FooterKey) -> int:
    """The cells ``key`` takes in the footer: ``" ⏎ Play "``."""
    return cell_len(key.key_display) + cell_len(key.description) + KEY_EXTRA_CELLS


class FittingFooter(Footer):
    """Shows whole keys only: those past the right edge are left out.

    Decided when the keys are made (from the terminal's width, which the footer
    spans), so the same screen at the same size always shows the same keys.

    Speed: Textual's footer is composed again whenever the bindings are refreshed,
    a widget per key, which takes longer than a frame. Most refreshes only dim or
    light keys (a move makes Undo possible), so when the same keys are shown the
    footer changes them in place instead.
    """

    #: The keys composed (key, action, description) and the width they were fitted to.
    _composed_for: tuple[tuple[tuple[str, str, str], ...], int] | None = None
    #: A recompose is on its way: more changes before it need no other.
    _recomposing = False

    def compose(self) -> ComposeResult:
        """The footer's keys, from the left, while they fit."""
        widgets = list(super().compose())
        # Before the bindings are ready Textual's footer makes no keys: nothing to relight.
        ready = self._bindings_ready
        self._composed_for = (self._wanted_keys(), self.app.size.width) if ready else None
        palette = [w for w in widgets if w.has_class("-command-palette")]
        room = self.app.size.width - sum(key_width(w) for w in palette if isinstance(w, FooterKey))
        used = 0
        for widget in widgets:
            if isinstance(widget, FooterKey) and widget not in palette:
                used += key_width(widget)
                if used > room:
                    continue
            yield widget

    async def recompose(self) -> None:
        """Compose the keys again (Textual's footer asks for it after a refresh)."""
        self._recomposing = False
        await super().recompose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's bindings changed: relight the keys in place, or compose them again."""
        if self._recomposing or (self.is_attached and screen is self.screen and self._relit()):
            return
        super().bindings_changed(screen)
        self._recomposing = (  # as Textual's footer decides whether to recompose
            self.app.app_focus and self.is_attached and screen is self.screen
        )

    def _shown_bindings(self) -> dict[str, tuple[Binding, bool, str]]:
        """The bindings the footer shows, one per action, as Textual's footer picks them."""
        shown: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show:
                shown.setdefault(binding.action, (binding, enabled, tooltip))
        return shown

    def _wanted_keys(
        self, shown: dict[str, tuple[Binding, bool, str]] | None = None
    ) -> tuple[tuple[str, str, str], ...]:
        return tuple(
            (binding.key, binding.action, binding.description)
            for binding, _, _ in (self._shown_bindings() if shown is None else shown).values()
        )

    def _relit(self) -> bool:
        """Dim or light the keys in place if the same keys are shown; False if they are not."""
        shown = self._shown_bindings()
        if self._composed_for != (self._wanted_keys(shown), self.app.size.width):
            return False
        if any(binding.group is not None for binding, _, _ in shown.values()):
            return False  # keys in groups: Textual's own way
        for key in self.query_children(FooterKey):
            if key.has_class("-command-palette") or key.action not in shown:
                continue
            _, enabled, tooltip = shown[key.action]
            if key._disabled == enabled:  # Textual's footer keeps it there
                key._disabled = not enabled
                key.set_class(not enabled, "-disabled")
            key.tooltip = tooltip or None
        return True

    def on_resize(self) -> None:
        """A new width: choose the keys again."""
        self.refresh(recompose=True)
