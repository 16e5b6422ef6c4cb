"""The ROC of the fair-play score, as points and as a plain SVG (bench.fairplay)."""

from __future__ import annotations

import math

import numpy as np


def roc(honest_scores: np.ndarray, bad_scores: np.ndarray) -> list[tuple[float, float]]:
    thresholds = np.unique(np.concatenate([honest_scores, bad_scores]))[::-1]
    points = [(0.0, 0.0)]
    for t in thresholds:
        points.append((float((honest_scores >= t).mean()), float((bad_scores >= t).mean())))
    points.append((1.0, 1.0))
    return points


def roc_svg(curves: dict[str, list[tuple[float, float]]], hands: int) -> str:
    """A plain SVG of ROC curves at ``hands`` (false-positive rate on a log axis from 1e-4)."""
    size, pad = 320, 40
    colours = ("#1b6e3a", "#b8860b", "#1f4e9c", "#9c1f4e", "#555555")

    def xy(fp: float, tp: float) -> str:
        x = pad + size * (math.log10(max(fp, 1e-4)) + 4) / 4
        y = pad + size * (1 - tp)
        return f"{x:.1f},{y:.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size + 2 * pad} '
        f'{size + 2 * pad}" role="img" aria-label="ROC of the fair-play detector">',
        f'<rect x="{pad}" y="{pad}" width="{size}" height="{size}" fill="none" stroke="#888"/>',
    ]
    for i, label in enumerate(("0.0001", "0.001", "0.01", "0.1", "1")):
        x = pad + size * i / 4
        parts.append(
            f'<text x="{x:.0f}" y="{pad + size + 16}" font-size="10" '
            f'text-anchor="middle">{label}</text>'
        )
    for share in (0.0, 0.5, 1.0):
        y = pad + size * (1 - share)
        parts.append(
            f'<text x="{pad - 4}" y="{y + 4:.0f}" font-size="10" text-anchor="end">{share:g}</text>'
        )
    parts.append(
        f'<text x="{pad + size / 2}" y="{pad + size + 32}" font-size="11" '
        'text-anchor="middle">honest pairs flagged</text>'
    )
    parts.append(
        f'<text x="10" y="{pad + size / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 10 {pad + size / 2})">colluding pairs flagged</text>'
    )
    for j, (name, points) in enumerate(curves.items()):
        coords = [xy(fp, tp) for fp, tp in points]
        line = " ".join(c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1])
        colour = colours[j % len(colours)]
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(
            f'<text x="{pad + size - 8}" y="{pad + size - 30 + 14 * j}" font-size="11" '
            f'text-anchor="end" fill="{colour}">{name}, {hands} hands</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
