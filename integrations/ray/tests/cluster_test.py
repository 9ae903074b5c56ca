"""A two-node Ray cluster on one machine (ray.cluster_utils), inside a private network
namespace (run by run_cluster_test.sh: `unshare -n`, loopback only). About 48 inputs go
through lumen-ray in shards; the worker node's raylet is killed with SIGKILL mid-job.
Every output must exist once, decode, equal a single-machine run byte for byte, no
temporary file may remain, a shard must have been retried and both nodes must have
worked. Usage: cluster_test.py LUMEN_BINARY PHOTO WORKDIR"""
import glob
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import ray
from ray.cluster_utils import Cluster
from PIL import Image

from lumen_ray import run

lumen, photo, work = sys.argv[1], sys.argv[2], sys.argv[3]
chain = ["-e", "gaussianBlur radius=3 | crop rectangle=input.extent | colorControls saturation=1.3"]
inputs = os.path.join(work, "in")
os.makedirs(inputs, exist_ok=True)
source = Image.open(photo).convert("RGB")
paths = []
for i in range(48):
    x, y = (i * 37) % 400, (i * 23) % 200
    path = os.path.join(inputs, f"p{i:02d}.jpg")
    source.crop((x, y, x + 240, y + 200)).save(path, quality=90)
    paths.append(path)
manifest = os.path.join(work, "manifest.txt")
with open(manifest, "w") as f:
    f.write("\n".join(paths) + "\n")

reference = os.path.join(work, "reference")
subprocess.run([lumen, "batch", *chain, "--from", manifest, "-o", reference, "--jobs", "2"], check=True,
               stdout=subprocess.DEVNULL)

cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
worker = cluster.add_node(num_cpus=1)
cluster.wait_for_nodes()
ray.init(address=cluster.address, log_to_driver=False)
head_id, worker_id = ray.get_runtime_context().get_node_id(), worker.node_id

output, attempts, results = os.path.join(work, "out"), os.path.join(work, "attempts"), os.path.join(work, "results.jsonl")
os.makedirs(attempts, exist_ok=True)
# The kill must land while a shard runs on the worker, and a shard of six small images
# ends in well under a second: timing it from outside raced (CI once saw the shard end
# first, so nothing was retried). Instead the shards run through a wrapper that, for the
# worker's second shard, holds before starting lumen until its node dies (its Ray worker
# process then dies with it, and the shard is retried on the head). Every other shard,
# the retry included, runs lumen unchanged, so the outputs still come from lumen alone.
holding, killed_mark = os.path.join(work, "holding"), os.path.join(work, "killed")
wrapper = os.path.join(work, "lumen-holding")
with open(wrapper, "w") as f:
    f.write(f"""#!/usr/bin/env bash
shard=""; previous=""
for argument in "$@"; do [ "$previous" = --shard ] && shard="${{argument%%/*}}"; previous="$argument"; done
newest=$(ls -t '{attempts}'/shard-"$shard"-* 2>/dev/null | head -1)
on_worker=$(ls '{attempts}' | grep -c -- '-{worker_id}-')
if [ -n "$shard" ] && [[ "$newest" == *-{worker_id}-* ]] && [ "$on_worker" -ge 2 ] && [ ! -e '{killed_mark}' ]; then
    touch '{holding}'
    for _ in $(seq 600); do sleep 0.1; done   # killed with the node long before this ends
    exit 3
fi
exec '{lumen}' "$@"
""")
os.chmod(wrapper, 0o755)
outcome = {}
thread = threading.Thread(target=lambda: outcome.update(zip(("totals", "code"), run(
    chain, manifest, output, 8, results, wrapper, ["--jobs", "1"], attempts_dir=attempts))))
started = time.time()
thread.start()
# Kill the worker's raylet (SIGKILL) once its second shard is held: its first shard's
# outputs are written, so the worker's work before the kill is still checked.
killed = False
while thread.is_alive() and time.time() - started < 120:
    if not killed and os.path.exists(holding):
        open(killed_mark, "w").close()
        worker.kill_raylet()
        killed = True
    time.sleep(0.02)
thread.join(timeout=120)
ray.shutdown()
cluster.shutdown()

lines = [json.loads(line) for line in open(results)] if os.path.exists(results) else []
names = sorted(os.path.basename(p) for p in paths)
written = sorted(os.listdir(output))
failures = []
if not killed: failures.append("the worker's raylet was never killed (the job ended first)")
if outcome.get("code") != 0: failures.append(f"driver exit {outcome.get('code')}, totals {outcome.get('totals')}")
if written != names: failures.append(f"outputs {written} differ from inputs {names}")
for name in names:
    a, b = os.path.join(output, name), os.path.join(reference, name)
    if not os.path.exists(a) or open(a, "rb").read() != open(b, "rb").read():
        failures.append(f"{name} differs from the single-machine run")
    else:
        Image.open(a).load()
temporaries = [p for p in glob.glob(os.path.join(output, ".*")) if p.endswith(".tmp")]
if temporaries: failures.append(f"temporaries left: {temporaries}")
shard_attempts = len(os.listdir(attempts))
if shard_attempts <= 8: failures.append(f"no shard was retried ({shard_attempts} attempts for 8 shards)")
# Both nodes worked: each ran attempts, and outputs the worker wrote before it died were
# kept: either its finished shard's results reached the driver, or they lived on the dead
# node and the re-run of that shard found the outputs and skipped them.
attempt_nodes = {name.split("-")[2] for name in os.listdir(attempts)}
skipped = sum(1 for line in lines if line["status"] == "skipped")
from_worker = sum(1 for line in lines if line["status"] == "ok" and line["node"] == worker_id)
if not {head_id, worker_id} <= attempt_nodes: failures.append(f"not both nodes ran shards: {attempt_nodes}")
# The worker's finished shard reached the driver (results from the worker), or its results
# died with the node and the re-run found its outputs written (skipped).
if from_worker == 0 and skipped == 0: failures.append("no output written by the killed worker was kept")
nodes = {line["node"] for line in lines}
print(f"{len(written)} outputs, {shard_attempts} shard attempts for 8 shards on {len(attempt_nodes)} nodes, {from_worker} written by the worker, {skipped} skipped on re-run, "
      f"{time.time() - started:.1f} s, totals {outcome.get('totals')}")
for failure in failures:
    print("FAILED:", failure)
print(f"{0 if failures else 1} passed, {len(failures) and 1} failed")
sys.exit(1 if failures else 0)
