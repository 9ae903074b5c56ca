#!/usr/bin/env python3
"""Writes Sources/Lumen/Filters/Generator/Barcode/PDF417Patterns.swift: ISO/IEC 15438's
bar-space pattern for each of the 929 codeword values in each of the three clusters,
read back from symbols the zint command-line tool draws (`zint --dump`), not copied
from any source.

How: binary messages of 6·k bytes of 0x80…0xFF leave an encoder one choice (byte
compaction, latch 924, five base-900 codewords per six bytes), so every codeword of the
symbol is known in advance: the length descriptor, the data, the 900 pads, the
Reed-Solomon codewords (GF(929), generator ∏(x − 3^i)) and the row indicators. Each row's
17-module slices are then the patterns of those values in the row's cluster (row mod 3).
Random messages, column counts and error correction levels run until every value is seen
in every cluster. The table is accepted only when no value was seen with two patterns,
the 929 patterns of each cluster are distinct, and each has 4 bars and 4 spaces of 1…6
modules whose cluster number (b1 − b2 + b3 − b4 + 9) mod 9 is 0, 3 or 6 as its cluster
requires (ISO/IEC 15438 §5.3.1), which a wrong prediction would break.

usage: scripts/generate-pdf417-patterns.py [--check]
With --check, exits 1 when the committed file differs from what zint gives.
"""
import pathlib
import random
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
out_path = root / "Sources/Lumen/Filters/Generator/Barcode/PDF417Patterns.swift"
P = 929


def error_correction(data, count):
    generator = [1]
    power = 1
    for _ in range(count):
        power = power * 3 % P
        nxt = [0] * (len(generator) + 1)
        for j, c in enumerate(generator):
            nxt[j] = (nxt[j] + c) % P
            nxt[j + 1] = (nxt[j + 1] - c * power) % P
        generator = nxt
    rest = list(data) + [0] * count
    for i in range(len(data)):
        if rest[i]:
            factor = rest[i]
            for j in range(1, count + 1):
                rest[i + j] = (rest[i + j] - factor * generator[j]) % P
    return [(-x) % P for x in rest[len(data):]]


def bits(line):
    out = []
    for h in line.split():
        value, n = int(h, 16), len(h) * 4
        out += [(value >> (n - 1 - i)) & 1 for i in range(n)]
    return out


def runs(pattern):
    out, current, n = [], pattern[0], 0
    for b in pattern:
        if b == current:
            n += 1
        else:
            out.append(n)
            current, n = b, 1
    return out + [n]


tables = [dict() for _ in range(3)]
starts, stops = set(), set()
rng = random.Random(15438)
trials = 0
while any(len(t) < P for t in tables):
    trials += 1
    if trials > 20000:
        sys.exit(f"not every value seen after {trials} symbols: {[len(t) for t in tables]}")
    groups = rng.randint(1, 60)
    message = bytes(rng.randint(0x80, 0xFF) for _ in range(6 * groups))
    columns, level = rng.randint(1, 30), rng.randint(0, 4)
    run = subprocess.run(["zint", "--dump", "-b", "55", "--binary", "--esc", f"--cols={columns}", f"--secure={level}",
                          "-d", "".join(f"\\x{b:02X}" for b in message)], capture_output=True, text=True)
    if run.returncode != 0 or "Warning" in run.stderr:  # zint widened the symbol: columns unknown
        continue
    rows = [bits(line) for line in run.stdout.strip().split("\n")]
    count = len(rows)
    data = [924]
    for g in range(groups):
        value = int.from_bytes(message[6 * g:6 * g + 6], "big")
        digits = []
        for _ in range(5):
            digits.append(value % 900)
            value //= 900
        data += digits[::-1]
    ecc = 2 << level
    pads = count * columns - ecc - 1 - len(data)
    if pads < 0:
        sys.exit(f"zint drew {count} rows of {columns} for {len(data) + 1 + ecc} codewords")
    stream = [1 + len(data) + pads] + data + [900] * pads
    stream += error_correction(stream, ecc)
    for r, row in enumerate(rows):
        cluster, base = r % 3, (r // 3) * 30
        indicators = [base + (count - 1) // 3, base + level * 3 + (count - 1) % 3, base + columns - 1]
        left, right = indicators[cluster], indicators[(cluster + 2) % 3]
        starts.add(tuple(row[:17]))
        stops.add(tuple(row[17 * (columns + 3):17 * (columns + 3) + 18]))
        for i, value in enumerate([left] + stream[r * columns:(r + 1) * columns] + [right]):
            pattern = tuple(row[17 + 17 * i:34 + 17 * i])
            if tables[cluster].setdefault(value, pattern) != pattern:
                sys.exit(f"value {value} of cluster {3 * cluster} drawn two ways: a codeword was predicted wrongly")

if len(starts) != 1 or len(stops) != 1:
    sys.exit(f"{len(starts)} start and {len(stops)} stop patterns seen")
for cluster, table in enumerate(tables):
    if len(set(table.values())) != P:
        sys.exit(f"cluster {3 * cluster}: patterns are not distinct")
    for value, pattern in table.items():
        widths = runs(pattern)
        if pattern[0] != 1 or pattern[-1] != 0 or len(widths) != 8 or max(widths) > 6:
            sys.exit(f"cluster {3 * cluster} value {value}: {widths} is not 4 bars and 4 spaces of 1…6 modules")
        if (widths[0] - widths[2] + widths[4] - widths[6] + 9) % 9 != 3 * cluster:
            sys.exit(f"cluster {3 * cluster} value {value}: {widths} belongs to another cluster")


def number(pattern):
    return int("".join(map(str, pattern)), 2)


lines = ["// Generated by scripts/generate-pdf417-patterns.py from symbols drawn by `zint --dump`",
         f"// ({trials} symbols); see the script for how each pattern is known and checked. Do not edit.",
         "",
         "extension PDF417 {",
         "    /// ISO/IEC 15438's bar-space patterns, `patterns[929 · k + value]` for cluster 3k",
         "    /// (row mod 3 = k): the 17 modules of a codeword, first module in bit 16, 1 for a bar.",
         "    /// Stored are modules 1…15 (bits 15…1); module 0 is always a bar and module 16 a space.",
         "    static let patterns: [UInt16] = ["]
values = [(number(tables[c][v]) >> 1) & 0x7FFF for c in range(3) for v in range(P)]
for i in range(0, len(values), 20):
    lines.append("        " + " ".join(f"{v}," for v in values[i:i + 20]))
lines += ["    ]",
          f"    /// The start pattern (17 modules) and the stop pattern (18 modules), first module highest.",
          f"    static let start: UInt32 = {number(next(iter(starts))):#07x}",
          f"    static let stop: UInt32 = {number(next(iter(stops))):#07x}",
          "}", ""]
text = "\n".join(lines)
if "--check" in sys.argv:
    if out_path.read_text() != text:
        sys.exit(f"{out_path.relative_to(root)} differs from what zint draws")
    print(f"{out_path.relative_to(root)} matches zint ({trials} symbols)")
else:
    out_path.write_text(text)
    print(f"wrote {out_path.relative_to(root)} ({trials} symbols)")
