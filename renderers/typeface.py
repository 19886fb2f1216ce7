"""Fonts for the board images: DejaVu Sans when the system has it, else Pillow's own."""

from __future__ import annotations

import functools

from PIL import ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.cache
def font(size: int, *, bold: bool = False) -> Font:
    """A font of ``size`` pixels (cached; sizes below 8 are raised to 8)."""
    size = max(8, int(size))
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size=size)


def centred(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, size: int,
            fill: str, bold: bool = False, anchor: str = "mm") -> None:
    """Draw ``text`` centred (by default) on ``xy``."""
    draw.text(xy, text, font=font(size, bold=bold), fill=fill, anchor=anchor)
