#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for testing array jobs: munged, slurmctld and slurmd
# on localhost, every file (configuration, munge key, state, spool, logs) under one directory.
#
#   scripts/slurm/local-cluster.sh start    # write slurm.conf, start the daemons, wait for `idle`
#   scripts/slurm/local-cluster.sh stop     # cancel the jobs, stop every daemon it started
#   scripts/slurm/local-cluster.sh status   # the daemons' pids and sinfo
#   eval "$(scripts/slurm/local-cluster.sh env)"   # SLURM_CONF for sbatch, squeue, sinfo
#
# Needs Debian's `slurm-wlm` and `munge` packages and root (the daemons run as root, so the jobs
# do too). Nothing outside the directory is touched: the system's /etc/slurm and /etc/munge stay
# as they are. Environment: DAMELAB_SLURM_DIR (default /tmp/damelab-slurm), DAMELAB_SLURM_PORT
# (slurmctld's port, default 6817; slurmd takes the next one), DAMELAB_SLURM_KEEP=1 to keep the
# directory (logs) after `stop`.
set -euo pipefail

DIR=${DAMELAB_SLURM_DIR:-/tmp/damelab-slurm}
PORT=${DAMELAB_SLURM_PORT:-6817}
CONF=$DIR/slurm.conf
SOCKET=$DIR/munge/munge.socket
# Every wait below is bounded: seconds.
WAIT=${DAMELAB_SLURM_WAIT:-60}

die() {
  echo "local-cluster: $*" >&2
  exit 1
}

alive() { # pid file -> whether its process runs
  [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

need_tools() {
  local missing=()
  for t in munged slurmctld slurmd sinfo sbatch scontrol squeue scancel; do
    command -v "$t" >/dev/null || missing+=("$t")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    die "missing ${missing[*]}: install them with \`apt-get install -y slurm-wlm munge\`"
  fi
  [ "$(id -u)" = 0 ] || die "the daemons run as root here: run this as root"
}

write_conf() {
  local cpus mem
  cpus=$(nproc)
  # A little under the machine's memory: slurmd drains a node that has less than it is said to.
  mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
  cat >"$CONF" <<EOF
# Written by scripts/slurm/local-cluster.sh: one node, localhost, for tests.
ClusterName=damelab
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
# No cgroups: processes are tracked through /proc, tasks are not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
# CPUs are the consumable resource, memory is not: jobs without --mem share the node.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
# Finished jobs stay visible to scontrol for a while (the test reads their exit codes).
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
  need_tools
  if alive "$DIR/slurmctld.pid" || alive "$DIR/slurmd.pid" || alive "$DIR/munged.pid"; then
    die "a cluster already runs from $DIR: \`$0 stop\` first"
  fi
  rm -rf "$DIR"
  mkdir -p "$DIR"/{state,spool,log,munge}
  chmod 700 "$DIR" "$DIR/munge"
  # A fresh key for this cluster only.
  dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$DIR/munge/munge.key"
  munged --force --key-file="$DIR/munge/munge.key" --socket="$SOCKET" \
    --pid-file="$DIR/munged.pid" --log-file="$DIR/log/munged.log" \
    --seed-file="$DIR/munge/munged.seed" ||
    die "munged did not start (see $DIR/log/munged.log)"
  write_conf
  export SLURM_CONF=$CONF
  slurmctld -f "$CONF" || die "slurmctld did not start (see $DIR/log/slurmctld.log)"
  slurmd -f "$CONF" -N localhost || die "slurmd did not start (see $DIR/log/slurmd.log)"
  local t=0 state=""
  while [ $t -lt "$WAIT" ]; do
    state=$(sinfo -h -N -n localhost -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
    t=$((t + 1))
  done
  if [ "$state" != idle ]; then
    echo "local-cluster: the node is not idle after ${WAIT}s (state: \`${state:-none}\`)" >&2
    tail -n 20 "$DIR"/log/*.log >&2 || true
    stop
    exit 1
  fi
  echo "local-cluster: node localhost idle ($(nproc) CPUs); export SLURM_CONF=$CONF"
}

# Stop the daemon of a pid file: TERM, then KILL after the bounded wait.
stop_pid() {
  local file=$1 pid t=0
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null && [ $t -lt $((WAIT * 5)) ]; do
      sleep 0.2
      t=$((t + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "local-cluster: $(basename "$file" .pid) ($pid) did not stop: killed" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$file"
}

stop() {
  export SLURM_CONF=$CONF
  if alive "$DIR/slurmctld.pid"; then
    # The jobs first, so that no job step outlives its slurmd.
    scancel --quiet --full --user=root 2>/dev/null || true
    local t=0
    while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $t -lt "$WAIT" ]; do
      sleep 1
      t=$((t + 1))
    done
  fi
  stop_pid "$DIR/slurmd.pid"
  stop_pid "$DIR/slurmctld.pid"
  stop_pid "$DIR/munged.pid"
  if [ "${DAMELAB_SLURM_KEEP:-0}" != 1 ]; then
    rm -rf "$DIR"
  fi
  echo "local-cluster: stopped"
}

status() {
  local d
  for d in munged slurmctld slurmd; do
    if alive "$DIR/$d.pid"; then
      echo "$d running (pid $(cat "$DIR/$d.pid"))"
    else
      echo "$d not running"
    fi
  done
  if alive "$DIR/slurmctld.pid"; then
    SLURM_CONF=$CONF sinfo
  fi
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
env) echo "export SLURM_CONF=$CONF" ;;
*)
  echo "usage: $0 start|stop|status|env" >&2
  exit 2
  ;;
esac
