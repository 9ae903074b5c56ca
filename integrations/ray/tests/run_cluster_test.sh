#!/usr/bin/env bash
# Runs cluster_test.py inside a private network namespace: Ray binds the machine's real
# address even when told 127.0.0.1, so only `unshare -n` (loopback only) keeps the
# cluster off every other address. Usage: run_cluster_test.sh LUMEN_BINARY PHOTO
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -c "import ray, PIL" 2>/dev/null || pip install -q "ray>=2.9" pillow
exec unshare -n bash -c "ip link set lo up && PYTHONPATH='$here/..' RAY_USAGE_STATS_ENABLED=0 python3 '$here/cluster_test.py' '$1' '$2' '$work'"
