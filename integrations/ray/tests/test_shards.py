"""The driver's default shard count, without a cluster: about 8 inputs a shard, a multiple
of the cluster's CPUs, never more shards than inputs. Run: python3 test_shards.py"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from lumen_ray import default_shards

cases = {
    (72, 2): 8,      # not 9: the ninth would run alone while the other CPU idles
    (48, 2): 6,
    (100, 3): 12,    # 13 rounded down to a multiple of 3
    (5, 2): 1,       # fewer shards than CPUs: nothing to round
    (7, 16): 1,
    (1000, 1): 125,
    (1, 4): 1,
    (64, 8): 8,
}
failures = [f"default_shards{args} = {default_shards(*args)}, expected {want}"
            for args, want in cases.items() if default_shards(*args) != want]
for count in range(1, 300):
    for cpus in (1, 2, 3, 4, 8, 64):
        shards = default_shards(count, cpus)
        if not 1 <= shards <= count or (shards > cpus and shards % cpus):
            failures.append(f"default_shards({count}, {cpus}) = {shards}")
print("\n".join(failures) or f"default_shards: {len(cases)} cases and the invariants hold")
sys.exit(1 if failures else 0)
