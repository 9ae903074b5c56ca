#!/usr/bin/env python3
"""libvips timed inside one process, the counterpart of Benchmarks/InProcess (Lumen):
the same jobs, each run reading the file anew, with libvips's operation cache off.

Usage: bench_inprocess.py PHOTOS JOB RUNS   (run with the pyvips-binary virtual
environment scripts/bench makes). Prints one JSON line like inprocess-bench's."""
import json, os, sys, time
import pyvips

photos, job, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
pyvips.cache_set_max(0)
p = lambda name: os.path.join(photos, name)

def load(name):
    return pyvips.Image.new_from_file(p(name), access="sequential")

def motion_mask():
    # A horizontal line of 41 equal taps: motionBlur radius 20 at angle 0.
    return pyvips.Image.new_from_array([[1] * 41], scale=41)

def disc(radius):
    # A disc of radius 5 (dilation: 255 inside, 128 = don't care outside), as vips morph takes it.
    return pyvips.Image.new_from_array([[255 if (x * x + y * y) <= radius * radius else 128
                                         for x in range(-radius, radius + 1)] for y in range(-radius, radius + 1)])

jobs = {
    "copy": lambda: load("FallenLeaf-2560x1600.jpg").jpegsave_buffer(Q=85),
    "blur": lambda: load("FallenLeaf-2560x1600.jpg").gaussblur(8).jpegsave_buffer(Q=85),
    "hugeblur": lambda: load("huge-9999x9000.jpg").gaussblur(4).jpegsave_buffer(Q=85),
    "lanczos": lambda: load("SafeLanding-5120x2880.jpg").resize(0.25, kernel="lanczos3").jpegsave_buffer(Q=85),
    "thumbnail": lambda: pyvips.Image.thumbnail(p("SafeLanding-5120x2880.jpg"), 1280).jpegsave_buffer(Q=85),
    "png": lambda: load("FallenLeaf-2560x1600.jpg").pngsave_buffer(),
    "png-fast": lambda: load("FallenLeaf-2560x1600.jpg").pngsave_buffer(),  # libvips's default is its fast setting
    "motionblur": lambda: load("FallenLeaf-2560x1600.jpg").conv(motion_mask(), precision="integer").jpegsave_buffer(Q=85),
    "morphology": lambda: load("FallenLeaf-2560x1600.jpg").morph(disc(5), "dilate").jpegsave_buffer(Q=85),
}
if job not in jobs:
    sys.exit(f"no libvips counterpart for {job}")

def status_mib(field):
    """VmRSS or VmHWM (the peak) in MiB; getrusage's peak can still hold a parent's after exec."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":")) / 1024

before = status_mib("VmRSS")
times, check = [], 0
for _ in range(runs):
    start = time.perf_counter()
    check += len(jobs[job]())
    times.append((time.perf_counter() - start) * 1000)
peak = status_mib("VmHWM") - before
print(json.dumps({"job": job, "ms": times, "peak_mib": round(peak, 1), "vips": pyvips.version(0) * 100 + pyvips.version(1), "check": check}))
