#!/usr/bin/env bash
# A one-node Slurm cluster on localhost, for `npm run test:slurm`, with every file under one folder.
#   cluster.sh up DIR     starts munged, slurmctld and slurmd; prints the SLURM_CONF to export
#   cluster.sh down DIR   stops them by their pid files
# Needs root and the Debian packages slurm-wlm and munge; no systemd.
set -euo pipefail

command=${1:?usage: cluster.sh up|down DIR}
dir=$(realpath -m "${2:?usage: cluster.sh up|down DIR}")

stop() {
  for daemon in slurmd slurmctld munged; do
    pidfile=$dir/run/$daemon.pid
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
}

case $command in
up)
  mkdir -p "$dir"/{munge,state,spool,log,run}
  host=$(hostname -s)
  memory=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
  key=$dir/munge/munge.key
  [ -f "$key" ] || { head -c 1024 /dev/urandom >"$key"; chmod 400 "$key"; }
  munged --force --key-file="$key" --socket="$dir/munge/munge.socket" --pid-file="$dir/run/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munge.seed"
  cat >"$dir/slurm.conf" <<CONF
ClusterName=gocount
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MaxArraySize=10001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 600); do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && { echo "$SLURM_CONF"; exit 0; }
    sleep 0.1
  done
  echo "cluster.sh: the node did not come up idle within 60 s; see $dir/log" >&2
  stop
  exit 1
  ;;
down)
  stop
  ;;
*)
  echo "usage: cluster.sh up|down DIR" >&2
  exit 2
  ;;
esac
