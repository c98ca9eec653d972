#!/usr/bin/env bash
# npm run test:slurm: brings a one-node Slurm cluster up on localhost, runs the Slurm tests
# (spec/slurm/*.test.ts, built by npm run build) against it, and takes it down again.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d /tmp/gocount-slurm-XXXXXX)
trap 'bash "$root/spec/slurm/cluster.sh" down "$dir"; rm -rf "$dir"' EXIT
SLURM_CONF=$(bash "$root/spec/slurm/cluster.sh" up "$dir")
export SLURM_CONF
cd "$root"
npx ava --config ava.slurm.config.js
