"""Shards a manifest into Ray tasks, each running `lumen batch --shard K/N` on some node.

Ray schedules and retries the tasks (a task whose node or process dies runs again
elsewhere); `lumen batch --skip-existing` makes a retry redo only the outputs that are
missing, and Lumen writes every output to a temporary name and renames it, so a killed
attempt leaves nothing half-written. Nothing here schedules: Ray does.
"""
import argparse
import ctypes
import json
import os
import signal
import subprocess
import sys
import time
import uuid

import ray


def _die_with_parent():
    """The lumen child gets SIGTERM when its Ray worker dies (Linux), so it removes its
    unfinished outputs and stops instead of writing on as an orphan."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


@ray.remote(max_retries=3, retry_exceptions=True)
def run_shard(lumen, chain_args, manifest, output, shard, shards, extra, attempts_dir=None):
    """One shard on whichever node Ray picks; returns its per-input results. With
    `attempts_dir`, each attempt leaves an empty file there (for audits and tests)."""
    context = ray.get_runtime_context()
    if attempts_dir:
        open(os.path.join(attempts_dir, f"shard-{shard}-{context.get_node_id()}-{uuid.uuid4().hex[:8]}"), "w").close()
    command = [lumen, "batch", *chain_args, "--from", manifest, "--shard", f"{shard}/{shards}",
               "-o", output, "--results", "-", "--skip-existing", *extra]
    finished = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)
    if finished.returncode in (2, 3) or finished.returncode < 0:
        # Configuration problems (2) fail the job; retryable failures (3, signals) raise so
        # Ray runs the shard again.
        raise RuntimeError(f"shard {shard}/{shards}: lumen exited {finished.returncode}: {finished.stderr.strip()[-500:]}")
    results = [json.loads(line) for line in finished.stdout.splitlines() if line.startswith("{")]
    node = context.get_node_id()
    for result in results:
        result["node"] = node
        result["shard"] = shard
    return results


def default_shards(count, cpus, per_shard=8):
    """About `per_shard` inputs per task (a task costs a Ray dispatch and a lumen start-up,
    so shards much smaller than 8 spend a noticeable share on overhead), rounded down to a
    multiple of the cluster's CPUs so that every CPU runs the same number of tasks: 72
    inputs on 2 CPUs make 8 shards of 9, not 9 of 8 (whose last one runs alone while the
    other CPU idles)."""
    shards = max(1, (count + per_shard - 1) // per_shard)
    cpus = max(1, int(cpus))
    if shards > cpus:
        shards -= shards % cpus
    return max(1, min(shards, count))


def run(chain_args, manifest, output, shards, results_path=None, lumen="lumen", extra=(), address=None, attempts_dir=None):
    """Runs every shard, streams the results into `results_path` (JSON lines) as shards
    finish, and returns (totals, exit code): 0 all written, 1 some inputs failed for good,
    3 some shards could not finish."""
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)
    # SPREAD: shards fan out over the nodes instead of filling the driver's node first.
    pending = {run_shard.options(scheduling_strategy="SPREAD").remote(lumen, list(chain_args), os.path.abspath(manifest), os.path.abspath(output), k, shards,
                                list(extra), attempts_dir): k for k in range(shards)}
    totals = {"ok": 0, "skipped": 0, "failed": 0, "shards failed": 0}
    sink = open(results_path, "a", buffering=1) if results_path else None
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            shard = pending.pop(done[0])
            try:
                results = ray.get(done[0])
            except Exception as error:  # retries exhausted
                totals["shards failed"] += 1
                print(f"lumen-ray: shard {shard}/{shards} failed: {error}", file=sys.stderr)
                continue
            for result in results:
                totals[result["status"]] = totals.get(result["status"], 0) + 1
                if sink:
                    sink.write(json.dumps(result, sort_keys=True) + "\n")
    finally:
        if sink:
            sink.close()
    code = 3 if totals["shards failed"] else 1 if totals["failed"] else 0
    return totals, code


def main(argv=None):
    parser = argparse.ArgumentParser(prog="lumen-ray", description=__doc__.splitlines()[0])
    parser.add_argument("chain", nargs="?", help="chain file (or use -e)")
    parser.add_argument("-e", dest="expression", help="chain text")
    parser.add_argument("--from", dest="manifest", required=True, help="manifest: one input per line, or JSON lines")
    parser.add_argument("-o", dest="output", required=True, help="output folder on storage every node sees")
    parser.add_argument("--shards", type=int, default=0,
                        help="number of Ray tasks (default: about 8 inputs each, a multiple of the cluster's CPUs)")
    parser.add_argument("--results", help="append one JSON line per input here")
    parser.add_argument("--lumen", default="lumen", help="the lumen binary on every node (default: from PATH)")
    parser.add_argument("--address", default=None, help="Ray cluster address (default: the one `ray start` made)")
    parser.add_argument("--jobs", type=int, default=1, help="lumen batch --jobs inside each task")
    args = parser.parse_args(argv)
    if bool(args.chain) == bool(args.expression):
        parser.error("give a chain file or -e TEXT")
    chain_args = ["-e", args.expression] if args.expression else [args.chain]
    with open(args.manifest) as manifest:
        count = sum(1 for line in manifest if line.strip() and not line.lstrip().startswith("#"))
    if not args.shards and not ray.is_initialized():
        ray.init(address=args.address, log_to_driver=False)
    shards = args.shards or default_shards(count, ray.cluster_resources().get("CPU", 1))
    started = time.time()
    totals, code = run(chain_args, args.manifest, args.output, shards, args.results, args.lumen,
                       ["--jobs", str(args.jobs)], args.address)
    print(f"{totals['ok']} written, {totals['skipped']} skipped, {totals['failed']} failed, "
          f"{totals['shards failed']} shards failed of {count} in {time.time() - started:.2f} s over {shards} shards")
    return code


if __name__ == "__main__":
    sys.exit(main())
