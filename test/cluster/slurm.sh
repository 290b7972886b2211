#!/usr/bin/env bash
# A real Slurm on this one Debian machine, for the tests and CI: munged, slurmctld and
# N slurmd ("multiple slurmd": every node is this host on its own port), started by hand
# (no systemd) and stopped by pid file. Installs its Debian packages when missing.
#
#   test/cluster/slurm.sh up|down|status|running   (running: exit status 0 when up)
#   env: SLURM_NODES (4), SLURM_CPUS per node (8, more than the machine has: slurmd accepts it), SLURM_MEM MB per node (4000)
#
# Idempotent: a second `up` keeps the running daemons, a second `down` does nothing. The
# tests bring it up; `npm run test:all` takes it down at the end (test/run-all.sh).
# Must run as root (the daemons do). Nodes are n1..nN in partition "debug".
set -uo pipefail
action=${1:-up}
nodes=${SLURM_NODES:-4}
cpus=${SLURM_CPUS:-8}
mem=${SLURM_MEM:-4000}
run=/run/ckpt-lab-slurm
spool=/var/spool/ckpt-lab-slurm
logs=/var/log/ckpt-lab-slurm
conf=/etc/slurm/slurm.conf
say() { echo "[slurm] $*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (it starts munged, slurmctld and slurmd)"
# Test files run in parallel and each brings the cluster up: one at a time. The daemons are
# started with fd 9 closed (9>&-), or they would hold the lock for as long as they live.
mkdir -p /run/lock && exec 9>/run/lock/ckpt-lab-slurm.lock && flock 9

install_packages() {
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null && command -v sbatch >/dev/null && return 0
  say "installing munge, slurmctld, slurmd, slurm-client"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends munge slurmctld slurmd slurm-client procps >/dev/null ||
    die "apt-get install failed"
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() { # stop PIDFILE
  local pid; pid=$(cat "$1" 2>/dev/null) || return 0 # gone, or removed by its daemon as it stopped
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  rm -f "$1"
}

write_conf() {
  local host; host=$(hostname -s)
  mkdir -p /etc/slurm
  {
    cat <<CONF
# Written by ckpt-lab's test/cluster/slurm.sh: a one-machine test cluster.
ClusterName=ckptlab
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# Without a default memory per CPU a job takes the whole node's memory and array tasks run one per node.
DefMemPerCPU=100
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation=$spool/ctld
SlurmdSpoolDir=$spool/d-%n
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd-%n.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd-%n.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
MaxArraySize=1001
CONF
    for i in $(seq 1 "$nodes"); do
      echo "NodeName=n$i NodeHostname=$host NodeAddr=127.0.0.1 Port=$((17000 + i)) CPUs=$cpus RealMemory=$mem State=UNKNOWN"
    done
    echo "PartitionName=debug Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO"
  } > "$conf.tmp" && mv "$conf.tmp" "$conf"
  : > /etc/slurm/cgroup.conf
}

up() {
  install_packages
  mkdir -p "$run" "$spool/ctld" "$logs" /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null
  if [ ! -s /etc/munge/munge.key ]; then
    /usr/sbin/mungekey -c -f 2>/dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
  fi
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged 9>&- || die "munged did not start"
    cp /run/munge/munged.pid "$run/munged.pid" # ours, so `down` stops it
  fi
  munge -n | unmunge >/dev/null 2>&1 || die "munge does not work (munge -n | unmunge)"
  write_conf
  alive "$run/slurmctld.pid" || /usr/sbin/slurmctld -i 9>&- 2>>"$logs/slurmctld.err" || die "slurmctld did not start: $(tail -5 "$logs/slurmctld.log" 2>/dev/null)"
  for i in $(seq 1 "$nodes"); do
    mkdir -p "$spool/d-n$i"
    alive "$run/slurmd-n$i.pid" || /usr/sbin/slurmd -N "n$i" 9>&- 2>>"$logs/slurmd-n$i.err" || die "slurmd n$i did not start"
  done
  local started=$SECONDS
  while [ $((SECONDS - started)) -lt 60 ]; do
    [ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c -E ' (idle|mix|alloc)$')" -ge "$nodes" ] && { say "up: $nodes nodes idle"; return 0; }
    sleep 0.5
  done
  sinfo -N -l >&2
  die "the nodes are not idle after 60 s"
}

down() {
  # Cancel jobs first, or their slurmstepd outlive the slurmd.
  if alive "$run/slurmctld.pid" && [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
    scancel --full $(squeue -h -o %i | sort -u) 2>/dev/null
    for _ in $(seq 30); do [ -z "$(squeue -h -t R,CG -o %i 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  for f in "$run"/slurmd-*.pid; do alive "$f" && kill "$(cat "$f")"; done
  for f in "$run"/slurmd-*.pid; do [ -e "$f" ] && stop "$f"; done
  stop "$run/slurmctld.pid"
  stop "$run/munged.pid"
  rm -rf "$spool"
  say "down"
}

case "$action" in
  up) up ;;
  down) down ;;
  running) alive "$run/slurmctld.pid" ;; # exit status only: 0 when up
  status) sinfo -N && squeue ;;
  *) echo "usage: $0 up|down|status|running" >&2; exit 2 ;;
esac
