#!/usr/bin/env python3
"""Writes testdata/luts/*.cube: small 3D LUTs in the Adobe/Resolve .cube format for the
colour cube tests (a warm, contrasty "film" look with a channel cross-talk, so a wrong axis
order or interpolation shows)."""
import pathlib

out = pathlib.Path(__file__).resolve().parent.parent / "testdata" / "luts"
out.mkdir(parents=True, exist_ok=True)


def film(r, g, b):
    def s(v):  # S-curve
        return v * v * (3 - 2 * v)
    return (min(1, 0.9 * s(r) + 0.1 * g + 0.04), 0.95 * s(g) + 0.05 * b, 0.8 * s(b) + 0.1 * r)


for n in (9,):
    lines = [f'TITLE "Lumen test film {n}"', f"LUT_3D_SIZE {n}", "DOMAIN_MIN 0 0 0", "DOMAIN_MAX 1 1 1"]
    for b in range(n):
        for g in range(n):
            for r in range(n):  # red fastest
                lines.append("%.6f %.6f %.6f" % film(r / (n - 1), g / (n - 1), b / (n - 1)))
    (out / f"film{n}.cube").write_text("\n".join(lines) + "\n")
