#!/usr/bin/env python3
"""Type-checks every file of the Core Image corpus (Tests/CoreImageCorpus/files) against
LumenCoreImage, with only the import lines changed.

For each corpus file a copy is written to a temporary folder in which every import of an
Apple framework (CoreImage, CoreGraphics, UIKit, AppKit, Foundation, Metal…, AVFoundation,
Vision, Accelerate, CoreVideo, ImageIO, SwiftUI…) or of a module that does not exist here
(the file's own package, MLX, os) is replaced by

    #if canImport(CoreImage)
    import CoreImage
    import CoreImage.CIFilterBuiltins
    #else
    import LumenCoreImage
    #endif
    import CorpusStubs

Nothing else in the file changes: `#if os(iOS)` / `#if canImport(UIKit)` blocks stay and
compile out on Linux. `CorpusStubs` (Tests/CoreImageCorpus/Stubs/CorpusStubs.swift) declares
the NON-Core-Image platform types the files touch (UIImage, UIGraphicsImageRenderer, SwiftUI's
Image, AVAsset, CMTime, MLXArray…); the types a file takes from its own project are in
Tests/CoreImageCorpus/Stubs/<owner>__<repo>.swift, type-checked together with each file of
that repository, and what a file takes from another corpus file of its repository is in
Tests/CoreImageCorpus/Stubs/<owner>__<repo>/<file name>.companion.swift (for that file only).
None of them declares a Core Image, Core Graphics, ImageIO, Core Video or Foundation type:
what Core Image code needs from those must come from LumenCoreImage (Metal, for one, does
not exist on Linux and is not stubbed, so files that pass Metal objects to Core Image fail).

Each file is checked on its own with `swiftc -typecheck -swift-version 5` (the corpus is
Swift 5 code) against the modules of `swift build --target LumenCoreImage`. The script
prints one line per file, the totals, writes Tests/CoreImageCorpus/RESULTS.md and exits 1
when fewer than --min-percent of the files compile, or (--no-regressions) when a file that
RESULTS.md records as compiling no longer does: the guard CI runs, file by file, since the
percentage moves whenever the corpus grows.

A file that compiles but whose Core Image code is all inside `#if os(iOS)`-style blocks
(so nothing of it was checked on Linux) is reported as "OK (compiled out)"; --strict counts
those as failures.

Usage: scripts/compile-corpus.py [--min-percent 90] [--no-regressions] [--no-build] [--strict]
                                 [--jobs N] [--only SUBSTRING] [--no-results] [--verbose]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "CoreImageCorpus")
FILES = os.path.join(CORPUS, "files")
STUBS = os.path.join(CORPUS, "Stubs")
RESULTS = os.path.join(CORPUS, "RESULTS.md")

# Modules that exist on Linux and are kept as they are.
KEPT = {"XCTest", "Testing", "Dispatch", "Glibc", "Swift", "_Concurrency"}

SWITCH = [
    "#if canImport(CoreImage)",
    "import CoreImage",
    "import CoreImage.CIFilterBuiltins",
    "#else",
    "import LumenCoreImage",
    "#endif",
    "import CorpusStubs",
]

IMPORT = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def nice(cmd):
    return ["nice", "-n", "10"] + cmd


def swift_tool(name):
    found = shutil.which(name)
    if found:
        return found
    fallback = os.path.join("/opt/swift/usr/bin", name)
    if os.path.exists(fallback):
        return fallback
    sys.exit(f"compile-corpus: {name} not found (put the Swift toolchain on PATH)")


def build(swift):
    """`swift build --target LumenCoreImage`, retried while another SwiftPM holds .build."""
    for attempt in range(30):
        r = subprocess.run(nice([swift, "build", "--target", "LumenCoreImage"]), cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode == 0:
            return
        if "lock" in r.stdout.lower() and attempt < 29:
            time.sleep(10)
            continue
        sys.stdout.write(r.stdout)
        sys.exit("compile-corpus: swift build --target LumenCoreImage failed")


def bin_path(swift):
    r = subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    path = r.stdout.strip().splitlines()[-1] if r.returncode == 0 and r.stdout.strip() else ""
    if not path or not os.path.isdir(os.path.join(path, "Modules")):
        sys.exit("compile-corpus: no built modules; run without --no-build")
    return path


def clang_flags(bin_dir):
    """The module-map and include flags SwiftPM passes when it compiles LumenCoreImage
    (its C dependencies CJPEG, CPNG, CLCMS… must be visible to import it)."""
    yaml = os.path.join(os.path.dirname(bin_dir), os.path.basename(bin_dir) + ".yaml")
    if not os.path.exists(yaml):
        yaml = os.path.join(ROOT, ".build", "debug.yaml")
    text = open(yaml, encoding="utf-8").read()
    start = text.find('"C.LumenCoreImage-')
    if start < 0:
        sys.exit(f"compile-corpus: LumenCoreImage's compile command is not in {yaml}")
    args_line = next(l for l in text[start:].split("\n") if l.strip().startswith("args:"))
    args = json.loads(args_line.strip()[len("args:"):])
    flags, k = [], 0
    while k < len(args):
        a = args[k]
        if a == "-Xcc" and k + 1 < len(args):
            nxt = args[k + 1]
            if nxt.startswith("-fmodule-map-file=") or nxt == "-I" or flags[-2:] == ["-Xcc", "-I"]:
                flags += [a, nxt]
            k += 2
            continue
        if a.startswith("-I") and len(a) > 2:
            flags.append(a)
        k += 1
    return flags


# MARK: preprocessing

def rewrite(source):
    """The file with its framework imports replaced by SWITCH; returns the text and, per
    output line, the original line number."""
    out, origin = [], []
    for n, line in enumerate(source.split("\n"), start=1):
        m = IMPORT.match(line)
        if m and m.group(1) not in KEPT:
            indent = line[: len(line) - len(line.lstrip())]
            for s in SWITCH:
                out.append(indent + s)
                origin.append(n)
        else:
            out.append(line)
            origin.append(n)
    return "\n".join(out), origin


CONDITION_TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|[A-Za-z_][A-Za-z0-9_]*\s*\([^()]*\)|[A-Za-z_][A-Za-z0-9_]*)")


def condition_true(expr):
    """Evaluates an `#if` condition as Swift on Linux x86_64 does."""
    tokens, pos = [], 0
    expr = expr.split("//")[0].strip()
    while pos < len(expr):
        m = CONDITION_TOKEN.match(expr, pos)
        if not m:
            return False
        tokens.append(m.group(1).strip())
        pos = m.end()
    py = []
    for t in tokens:
        if t == "||":
            py.append(" or ")
        elif t == "&&":
            py.append(" and ")
        elif t == "!":
            py.append(" not ")
        elif t in "()":
            py.append(t)
        else:
            py.append(" True " if atom_true(t) else " False ")
    try:
        return bool(eval("".join(py), {"__builtins__": {}}))
    except Exception:
        return False


def atom_true(atom):
    m = re.match(r"([A-Za-z_]+)\s*\((.*)\)$", atom)
    if not m:
        return atom in ("true", "DEBUG", "SWIFT_PACKAGE")
    fn, arg = m.group(1), m.group(2).strip()
    if fn == "os":
        return arg == "Linux"
    if fn == "canImport":
        return arg.split(",")[0].strip() in {"Foundation", "LumenCoreImage", "CorpusStubs", "XCTest", "Testing",
                                             "Dispatch", "Glibc", "FoundationEssentials"}
    if fn == "arch":
        return arg == "x86_64"
    if fn in ("swift", "compiler"):
        v = re.match(r"([<>]=?)\s*([0-9.]+)", arg)
        if not v:
            return False
        have, want = (6, 3), tuple(int(x) for x in v.group(2).split(".")[:2])
        return have >= want if v.group(1).startswith(">") else have < want
    if fn == "targetEnvironment":
        return False
    if fn == "hasFeature" or fn == "hasAttribute":
        return True
    return False


CORE_IMAGE_USE = re.compile(r"\b(CI[A-Z][A-Za-z]*|kCI[A-Za-z]+|applyingFilter|createCGImage|CIFilter)\b")


def active_core_image_lines(source):
    """How many lines outside comments and inactive `#if` branches name Core Image."""
    stack, count, in_block = [], 0, False  # stack of (this branch active, some branch taken)
    for line in source.split("\n"):
        s = line.strip()
        if in_block:
            if "*/" in s:
                in_block = False
                s = s.split("*/", 1)[1].strip()
            else:
                continue
        if s.startswith("/*") and "*/" not in s:
            in_block = True
            continue
        parent = all(a for a, _ in stack)
        if s.startswith("#if "):
            v = condition_true(s[4:])
            stack.append((v, v))
            continue
        if s.startswith("#elseif ") and stack:
            _, taken = stack.pop()
            v = (not taken) and condition_true(s[8:])
            stack.append((v, taken or v))
            continue
        if s.startswith("#else") and stack:
            _, taken = stack.pop()
            stack.append((not taken, True))
            continue
        if s.startswith("#endif") and stack:
            stack.pop()
            continue
        if not parent or s.startswith("//") or IMPORT.match(line):
            continue
        if CORE_IMAGE_USE.search(s.split("//")[0]):
            count += 1
    return count


# MARK: checking

def compile_stubs(swiftc, modules, flags, out_dir, cache):
    src = os.path.join(STUBS, "CorpusStubs.swift")
    cmd = nice([swiftc, "-emit-module", "-parse-as-library", "-swift-version", "5", "-module-name", "CorpusStubs",
                "-emit-module-path", os.path.join(out_dir, "CorpusStubs.swiftmodule"),
                "-module-cache-path", cache, "-I", modules] + flags + [src])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        sys.exit("compile-corpus: Tests/CoreImageCorpus/Stubs/CorpusStubs.swift does not compile")


VERBOSE = False
DIAGNOSTIC = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$")


def first_error(output, copy_path, origin, display, stubs_dir):
    for line in output.split("\n"):
        m = DIAGNOSTIC.match(line)
        if not m:
            continue
        path, n, col, message = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        if os.path.abspath(path) == os.path.abspath(copy_path):
            return f"{display}:{origin[n - 1] if n <= len(origin) else n}:{col}: {message.strip()}"
        if os.path.abspath(path).startswith(os.path.abspath(stubs_dir) + "/"):
            return f"{os.path.relpath(path, CORPUS)}:{n}:{col}: {message.strip()}"
        return f"{os.path.relpath(path, ROOT) if path.startswith('/') else path}:{n}:{col}: {message.strip()}"
    for line in output.split("\n"):
        if "error:" in line:
            return line.strip().replace(os.path.dirname(copy_path) + "/", "")
    return output.strip().split("\n")[0] if output.strip() else "swiftc failed without a message"


def check(job):
    swiftc, modules, stubs_dir, flags, cache, tmp, rel = job
    repo = rel.split("/")[0]
    source = open(os.path.join(FILES, rel), encoding="utf-8").read()
    text, origin = rewrite(source)
    copy_dir = os.path.join(tmp, "files", repo)
    os.makedirs(copy_dir, exist_ok=True)
    copy_path = os.path.join(copy_dir, os.path.basename(rel))
    with open(copy_path, "w", encoding="utf-8") as f:
        f.write(text)
    stub = os.path.join(STUBS, repo + ".swift")
    # What the file takes from other files of its repository that are corpus files too (a
    # repository-wide stub would clash with those files' own declarations).
    file_stub = os.path.join(STUBS, repo, os.path.splitext(os.path.basename(rel))[0] + ".companion.swift")
    inputs = [copy_path] + [p for p in (stub, file_stub) if os.path.exists(p)]
    cmd = nice([swiftc, "-typecheck", "-swift-version", "5", "-module-name", re.sub(r"\W", "_", repo),
                "-module-cache-path", cache, "-I", modules, "-I", stubs_dir] + flags + inputs)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    active = active_core_image_lines(source)
    if r.returncode == 0:
        return rel, "OK" if active else "OK (compiled out)", "" if active else "no Core Image code is active on Linux (all of it is inside #if os(…)/canImport(…) blocks)"
    display = "files/" + rel
    if VERBOSE:
        errors = [l for l in r.stdout.split("\n") if ": error: " in l]
        sys.stdout.write("".join(f"    {l.replace(copy_path, display)}\n" for l in errors))
    return rel, "FAIL", first_error(r.stdout, copy_path, origin, display, STUBS)


def corpus_files():
    found = []
    for repo in sorted(os.listdir(FILES)):
        d = os.path.join(FILES, repo)
        if os.path.isdir(d):
            found += [f"{repo}/{name}" for name in sorted(os.listdir(d)) if name.endswith(".swift")]
    return found


def write_results(results, ok, total, percent, out_count, notes):
    lines = ["# Core Image corpus: compile results", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    lines += ["## All files", "",
              "Generated by `scripts/compile-corpus.py` (the section above, between its markers, is kept by",
              "hand; the rest is rewritten on every run). Each file of `files/` is type-checked on its own",
              "against LumenCoreImage with only its import lines changed (see the script's header); `Stubs/`",
              "declares the platform types (UIKit, SwiftUI, AVFoundation, CoreMedia, MLX…) and the project",
              "types the files use, never a Core Image, Core Graphics, ImageIO, Core Video or Foundation type.", ""]
    lines += [f"**{ok} of {total} files compile ({percent:.1f} %)**"
              + (f"; {out_count} of them only because all their Core Image code is inside `#if os(iOS)`-style blocks"
                 " that are compiled out on Linux." if out_count else "."), "",
              "| file | result | first error / reason |", "|---|---|---|"]
    for rel, status, reason in results:
        reason = reason.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{rel}` | {status} | {reason} |")
    lines.append("")
    with open(RESULTS, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


NOTES_BEGIN = "<!-- notes: kept by scripts/compile-corpus.py -->"
NOTES_END = "<!-- end of notes -->"


def kept_notes():
    """The hand-written section between the note markers of RESULTS.md, kept across runs."""
    if not os.path.exists(RESULTS):
        return ""
    text = open(RESULTS, encoding="utf-8").read()
    a, b = text.find(NOTES_BEGIN), text.find(NOTES_END)
    return text[a:b + len(NOTES_END)] if a >= 0 and b > a else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-percent", type=float, default=90)
    ap.add_argument("--no-build", action="store_true", help="use the modules already in .build")
    ap.add_argument("--strict", action="store_true", help="count compiled-out files as failures")
    ap.add_argument("--jobs", type=int, default=1, help="files checked at once (default 1)")
    ap.add_argument("--only", help="check only the files whose path contains this")
    ap.add_argument("--no-results", action="store_true", help="do not write RESULTS.md")
    ap.add_argument("--verbose", action="store_true", help="print every error of a failing file")
    ap.add_argument("--no-regressions", action="store_true",
                    help="fail when a file RESULTS.md records as compiling no longer does")
    args = ap.parse_args()
    global VERBOSE
    VERBOSE = args.verbose

    swift, swiftc = swift_tool("swift"), swift_tool("swiftc")
    if not args.no_build:
        build(swift)
    bin_dir = bin_path(swift)
    modules = os.path.join(bin_dir, "Modules")
    flags = clang_flags(bin_dir)

    files = corpus_files()
    if args.only:
        files = [f for f in files if args.only in f]
    tmp = tempfile.mkdtemp(prefix="compile-corpus.")
    try:
        cache = os.path.join(tmp, "module-cache")
        stubs_dir = os.path.join(tmp, "stubs")
        os.makedirs(stubs_dir)
        compile_stubs(swiftc, modules, flags, stubs_dir, cache)
        jobs = [(swiftc, modules, stubs_dir, flags, cache, tmp, rel) for rel in files]
        if args.jobs > 1:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(args.jobs) as pool:
                results = []
                for res in pool.map(check, jobs):
                    results.append(res)
                    print(f"{res[1]:<18} {res[0]}" + (f"  {res[2]}" if res[1] == "FAIL" else ""), flush=True)
        else:
            results = []
            for job in jobs:
                res = check(job)
                results.append(res)
                print(f"{res[1]:<18} {res[0]}" + (f"  {res[2]}" if res[1] == "FAIL" else ""), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    recorded = compiled_before()
    total = len(results)
    out_count = sum(1 for _, s, _ in results if s == "OK (compiled out)")
    ok = sum(1 for _, s, _ in results if s == "OK" or (s == "OK (compiled out)" and not args.strict))
    percent = 100.0 * ok / total if total else 0.0
    print(f"\n{ok} of {total} files compile ({percent:.1f} %)"
          + (f", {out_count} of them with all their Core Image code compiled out on Linux" if out_count else "")
          + f"; {total - ok} fail")
    if not args.only and not args.no_results:
        write_results(results, ok, total, percent, out_count, kept_notes())
        print(f"wrote {os.path.relpath(RESULTS, ROOT)}")
    status = 0
    if args.no_regressions:
        lost = sorted(rel for rel, state, _ in results if rel in recorded and not state.startswith("OK"))
        if lost:
            print("compiled before (RESULTS.md), fail now: " + ", ".join(lost))
            status = 1
    if percent < args.min_percent:
        print(f"below --min-percent {args.min_percent:g}")
        status = 1
    return status


def compiled_before():
    """The files RESULTS.md's table records as compiling (before this run rewrites it)."""
    if not os.path.exists(RESULTS):
        return set()
    rows = re.findall(r"^\| `([^`]+)` \| OK", open(RESULTS, encoding="utf-8").read(), re.M)
    return set(rows)


if __name__ == "__main__":
    sys.exit(main())
