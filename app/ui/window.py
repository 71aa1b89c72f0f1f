"""Closing the desktop window (kept apart so that starting the window imports nothing else of the app)."""

from __future__ import annotations

import contextlib

import flet as ft

__all__ = ["close_window"]


async def close_window(page: ft.Page) -> None:
    """Close the desktop window; the client may be gone before it answers, which is what was asked."""
    with contextlib.suppress(RuntimeError):
        await page.window.destroy()
