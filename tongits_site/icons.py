"""The site's app icons: one drawing, written as the SVG and the 192 and 512 px PNGs that
the web app manifest lists (a phone's home screen wants PNGs of those sizes).

``python -m tongits_site.icons`` writes static/img/icon.svg, icon-192.png and icon-512.png.
No imaging library: the shapes are filled a scanline at a time at 4x4 samples a pixel and
written as PNG with zlib, so the files come out the same on any machine.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

IMG = Path(__file__).resolve().parents[1] / "static" / "img"
SIZES = (192, 512)
SAMPLES = 4  # per pixel and axis

# The drawing, in a unit square: felt green to the edges (a "maskable" icon may be cut to
# a circle, so nothing that matters sits near them), a white card, a red heart.
GREEN = (31, 111, 74)
WHITE = (255, 255, 255)
RED = (185, 28, 28)
CARD = (0.29, 0.2, 0.71, 0.8)  # left, top, right, bottom
CARD_RADIUS = 0.05
HEART_CENTRE = (0.5, 0.5)
HEART_SCALE = 0.0125  # the curve below spans about 32 units across


def heart(points: int = 96) -> list[tuple[float, float]]:
    """The heart's outline in unit coordinates, from the classic parametric curve."""
    out = []
    for i in range(points):
        t = 2 * math.pi * i / points
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        out.append((HEART_CENTRE[0] + x * HEART_SCALE, HEART_CENTRE[1] - (y + 2.5) * HEART_SCALE))
    return out


def _card_span(y: float) -> tuple[float, float] | None:
    left, top, right, bottom = CARD
    if not top <= y <= bottom:
        return None
    r = CARD_RADIUS
    inset = 0.0
    edge = min(y - top, bottom - y)
    if edge < r:  # in a rounded corner's band
        inset = r - math.sqrt(max(0.0, r * r - (r - edge) ** 2))
    return left + inset, right - inset


def _polygon_spans(poly: list[tuple[float, float]], y: float) -> list[tuple[float, float]]:
    xs = []
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 <= y < y2) or (y2 <= y < y1):
            xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    xs.sort()
    return list(zip(xs[::2], xs[1::2], strict=False))


def raster(size: int) -> bytes:
    """The icon as RGB rows, each led by PNG's filter byte (0)."""
    n = size * SAMPLES
    outline = heart()
    grid = []
    for row in range(n):
        y = (row + 0.5) / n
        line = bytearray(n)  # 0 green, 1 white, 2 red

        def fill(a: float, b: float, colour: int, line: bytearray = line) -> None:
            i, j = max(0, round(a * n)), min(n, round(b * n))
            if j > i:
                line[i:j] = bytes([colour]) * (j - i)

        span = _card_span(y)
        if span:
            fill(*span, 1)
        for a, b in _polygon_spans(outline, y):
            fill(a, b, 2)
        grid.append(line)
    colours = (GREEN, WHITE, RED)
    out = bytearray()
    area = SAMPLES * SAMPLES
    for py in range(size):
        out.append(0)
        rows = grid[py * SAMPLES : (py + 1) * SAMPLES]
        for px in range(size):
            counts = [0, 0, 0]
            for r in rows:
                for c in r[px * SAMPLES : (px + 1) * SAMPLES]:
                    counts[c] += 1
            for channel in range(3):
                total = sum(counts[k] * colours[k][channel] for k in range(3))
                out.append(round(total / area))
    return bytes(out)


def png(size: int) -> bytes:
    """A truecolour PNG of the icon at ``size`` px square."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    data = zlib.compress(raster(size), 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def svg() -> str:
    """The same drawing as SVG, on a 512 unit square."""
    s = 512

    def f(v: float) -> str:
        return f"{v * s:.1f}".rstrip("0").rstrip(".")

    left, top, right, bottom = CARD
    path = "M" + " L".join(f"{f(x)} {f(y)}" for x, y in heart()) + " Z"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {s} {s}">'
        f'<rect width="{s}" height="{s}" fill="#1f6f4a"/>'
        f'<rect x="{f(left)}" y="{f(top)}" width="{f(right - left)}" height="{f(bottom - top)}" '
        f'rx="{f(CARD_RADIUS)}" fill="#fff"/>'
        f'<path d="{path}" fill="#b91c1c"/></svg>\n'
    )


def main() -> None:
    """Write the SVG and the PNGs into static/img."""
    (IMG / "icon.svg").write_text(svg())
    for size in SIZES:
        (IMG / f"icon-{size}.png").write_bytes(png(size))
        print(f"static/img/icon-{size}.png")


if __name__ == "__main__":
    main()
