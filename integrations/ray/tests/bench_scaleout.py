"""Scale-out row for scripts/bench: the same chain over the same photos through lumen-ray
on a two-node loopback cluster (one CPU each, started once, outside the timing) and
through plain `lumen batch --jobs 2`, interleaved; medians and the ratio. Run inside
`unshare -n` (scripts/bench does). Usage: bench_scaleout.py LUMEN PHOTOS_DIR RUNS"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import ray
from ray.cluster_utils import Cluster

from lumen_ray import default_shards, run

lumen, photos, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = sorted(f for f in os.listdir(photos) if f.endswith(".jpg") and "x" in f and not f.startswith(("huge", "giant")))
work = tempfile.mkdtemp(prefix="lumen-scaleout-")
# The photos three times over (72 inputs with fetch-photos.sh's 24; links, so reading costs the same).
inputs = []
for copy in range(3):
    for name in names:
        link = os.path.join(work, "in", f"{copy}-{name}")
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.join(photos, name), link)
        inputs.append(link)
manifest = os.path.join(work, "manifest.txt")
open(manifest, "w").write("\n".join(inputs) + "\n")
chain = ["-e", "lanczosScale scale=0.25 | colorControls contrast=1.1"]

cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
cluster.add_node(num_cpus=1)
cluster.wait_for_nodes()
ray.init(address=cluster.address, log_to_driver=False)
# The driver's default: about 8 inputs a shard, a multiple of the cluster's CPUs (SHARD_SIZE
# overrides, to see how the task count trades off).
shards = (max(1, len(inputs) // int(os.environ["SHARD_SIZE"])) if "SHARD_SIZE" in os.environ
          else default_shards(len(inputs), ray.cluster_resources().get("CPU", 1)))
times = {"ray": [], "batch": []}
for _ in range(runs):
    for kind in ("ray", "batch"):
        output = os.path.join(work, kind)
        shutil.rmtree(output, ignore_errors=True)
        start = time.perf_counter()
        if kind == "ray":
            totals, code = run(chain, manifest, output, shards, None, lumen, ["--jobs", "1"])
            assert code == 0, totals
        else:
            subprocess.run([lumen, "batch", *chain, "--from", manifest, "-o", output, "--jobs", "2"],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[kind].append(time.perf_counter() - start)
ray.shutdown()
cluster.shutdown()
shutil.rmtree(work, ignore_errors=True)
ray_s, batch_s = statistics.median(times["ray"]), statistics.median(times["batch"])
print(f"  lumen-ray, 2 loopback nodes, {shards} shards  {ray_s * 1000:8.0f} ms")
print(f"  lumen batch --jobs 2                 {batch_s * 1000:8.0f} ms  ray/batch = {ray_s / batch_s:.2f}×  ({len(inputs)} inputs)")
