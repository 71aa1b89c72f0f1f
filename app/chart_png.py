"""An answer's chart as a PNG image (drawn with Pillow): its title, the question, the as-of dates, axes and values.

A line for a trend (every period, zero-filled as on screen) or labelled bars for counts by a category. The image is
made to be pasted into a report: white background, dark text, the data's as-of date under the title.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from .labels import field_label
from .results import Chart

if TYPE_CHECKING:
    from .exports import Export

__all__ = ["write_png", "draw_chart"]

WIDTH, PLOT_HEIGHT, BAR_ROW, MAX_BARS = 1200, 440, 30, 40
INK, MUTED, GRID, LINE = (33, 33, 33), (96, 96, 96), (215, 215, 215), (25, 103, 210)
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/Library/Fonts"),
    Path("C:/Windows/Fonts"),
)
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans when the system has it (every script), else Pillow's own scalable font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).is_file():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, font: Font, width: float) -> str:
    """`text` cut with an ellipsis to fit `width` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _head(draw: ImageDraw.ImageDraw, lines: list[tuple[str, Font, tuple[int, int, int]]]) -> int:
    y = 20
    for text, font, color in lines:
        draw.text((24, y), _fit(draw, text, font, WIDTH - 48), font=font, fill=color)
        y += int(font.size * 1.5) if isinstance(font, ImageFont.FreeTypeFont) else 20
    return y + 8


def draw_chart(chart: Chart, question: str = "", as_of: str = "") -> Image.Image:
    """The chart as an image, with its title, the question and the as-of dates above it."""
    title, small = _font(22, bold=True), _font(15)
    head = [(f"Chart: {chart.title}", title, INK)]
    if question:
        head.append((f"Question: {question}", small, MUTED))
    head.append((f"Data as of {as_of or chart.as_of or 'unknown'}", small, MUTED))
    shown = chart.points if chart.kind == "line" else chart.points[:MAX_BARS]
    body = PLOT_HEIGHT if chart.kind == "line" else BAR_ROW * len(shown) + 60
    image = Image.new("RGB", (WIDTH, 20 + 34 * len(head) + body), "white")
    draw = ImageDraw.Draw(image)
    top = _head(draw, head)
    if chart.kind == "line":
        _line(draw, chart, top)
    else:
        _bars(draw, chart, shown, top)
    return image


def _line(draw: ImageDraw.ImageDraw, chart: Chart, top: int) -> None:
    font, pts, peak = _font(13), chart.points, max(chart.peak, 1)
    left, right, bottom = 90, WIDTH - 40, top + PLOT_HEIGHT - 60
    span = max(len(pts) - 1, 1)

    def xy(i: int, v: int) -> tuple[float, float]:
        x = left + (right - left) * (i / span if len(pts) > 1 else 0.5)
        return x, bottom - (bottom - top - 10) * v / peak

    for value in sorted({0, peak // 2, peak}):  # grid lines with their values
        y = xy(0, value)[1]
        draw.line([(left, y), (right, y)], fill=GRID if value else INK, width=1)
        label = f"{value:,}"
        draw.text((left - 10 - draw.textlength(label, font=font), y - 8), label, font=font, fill=MUTED)
    draw.line([(left, top), (left, bottom)], fill=INK, width=1)
    if len(pts) > 1:
        draw.line([xy(i, v) for i, (_, v) in enumerate(pts)], fill=LINE, width=3)
    step = max(1, len(pts) // 10)
    for i, (k, v) in enumerate(pts):
        x, y = xy(i, v)
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=LINE)
        if len(pts) <= 24 and v:
            label = f"{v:,}"
            draw.text((x - draw.textlength(label, font=font) / 2, y - 22), label, font=font, fill=INK)
        if i % step == 0 or i == len(pts) - 1:
            draw.text((x - draw.textlength(k, font=font) / 2, bottom + 8), k, font=font, fill=MUTED)
    axis = f"{field_label(chart.x)} (number of {chart.y} in each)"
    draw.text(((left + right - draw.textlength(axis, font=font)) / 2, bottom + 32), axis, font=font, fill=MUTED)


def _bars(draw: ImageDraw.ImageDraw, chart: Chart, shown: list[tuple[str, int]], top: int) -> None:
    font, peak = _font(14), max(chart.peak, 1)
    label_w, bar_x, bar_w = 440, 480, WIDTH - 480 - 120
    y = top
    for label, value in shown:
        draw.text((24, y + 4), _fit(draw, label or "(none)", font, label_w), font=font, fill=INK)
        draw.rectangle([bar_x, y + 5, bar_x + max(2, bar_w * value / peak), y + BAR_ROW - 5], fill=LINE)
        draw.text((bar_x + max(2, bar_w * value / peak) + 8, y + 4), f"{value:,}", font=font, fill=INK)
        y += BAR_ROW
    more = f"and {len(chart.points) - len(shown)} more (in the table). " if len(chart.points) > len(shown) else ""
    draw.text(
        (24, y + 12), f"{more}Bars: number of {chart.y} by {field_label(chart.x).lower()}.", font=font, fill=MUTED
    )


def write_png(ex: "Export", path: Path) -> None:
    """Write the export's chart to `path` as a PNG image stamped with the answer's as-of dates."""
    if ex.chart is None:
        raise ValueError("this answer has no chart to export as an image: export its table instead")
    info = PngInfo()  # the same facts as text, for document control tools
    for key, value in (
        ("Title", f"Chart: {ex.chart.title}"),
        ("Question", ex.question),
        ("Data as of", ex.as_of_line()),
        ("Interpreted as", ex.interpretation),
        ("Exported", ex.exported_at),
        ("Software", "FDA Explorer Offline"),
    ):
        info.add_itxt(key, value)
    draw_chart(ex.chart, ex.question, ex.as_of_line()).save(path, format="PNG", pnginfo=info)
