#!/usr/bin/env bash
# A real OAR 2.5 on this one Debian machine, for the tests and CI: PostgreSQL, the OAR
# server (Almighty) and the oar-node sshd (port 6667) that the server starts jobs through,
# with N node names (127.0.1.1K in /etc/hosts) of C cores each. Started by hand (no
# systemd), stopped by pid file. Installs its Debian packages when missing.
#
#   test/cluster/oar.sh up|down|status|running   (running: exit status 0 when up)
#   env: OAR_NODES (2), OAR_CORES per node (2), OAR_CPUSET (1: the cpuset job manager on,
#        so that oarsh works inside jobs as on Grid5000; 0: off, the setup where oarsh
#        cannot find its job and scripts must reach their nodes another way)
#
# Idempotent: a second `up` keeps what runs (and switches the cpuset mode if OAR_CPUSET
# changed), a second `down` does nothing. Must run as root. Jobs are submitted as the user
# `ckptuser` (created here, with an ssh key that reaches every node name on port 22 through
# an sshd this script starts when none listens there): OAR runs jobs as their submitter.
#
# Several nodes on one kernel: OAR's cgroup job manager has a mode for that (it looks for
# /sys/fs/cgroup/cpuset/oardocker and keeps each node's cpusets under oardocker/<node>),
# which this script sets up; oarsh finds its job from /proc/self/cpuset with the node
# prefix stripped (GET_CURRENT_CPUSET_CMD below).
set -uo pipefail
action=${1:-up}
nodes=${OAR_NODES:-2}
cores=${OAR_CORES:-2}
cpuset=${OAR_CPUSET:-1}
conf=/etc/oar/oar.conf
run=/run/ckpt-lab-oar
pg=15
mark="# ckpt-lab-oar"
user=ckptuser
cgroups="cpuset cpu cpuacct devices freezer"
say() { echo "[oar] $*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (it starts PostgreSQL, the OAR server and sshd)"
# Test files run in parallel and each brings the cluster up: one at a time. Daemons start
# with fd 9 closed, or they would hold the lock for as long as they live.
mkdir -p /run/lock && exec 9>/run/lock/ckpt-lab-oar.lock && flock 9

install_packages() {
  command -v oarsub >/dev/null && [ -x /usr/sbin/oar-server ] && [ -f /etc/oar/sshd_config ] && command -v pg_ctlcluster >/dev/null && [ -x /usr/sbin/sshd ] && command -v taktuk >/dev/null && return 0
  say "installing postgresql, oar-server, oar-node, oar-user, openssh-server"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends postgresql oar-server oar-server-pgsql oar-node oar-user oar-user-pgsql openssh-server openssh-client taktuk procps >/dev/null ||
    die "apt-get install failed"
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

setconf() { # KEY VALUE: set, uncommenting or appending
  if grep -qE "^#?\s*$1=" "$conf"; then sed -i -E "s|^#?\s*$1=.*|$1=\"$2\"|" "$conf"; else echo "$1=\"$2\"" >> "$conf"; fi
}
unsetconf() { sed -i -E "s|^$1=|#$1=|" "$conf"; }

# One cgroup folder per node under oardocker/, as the job manager expects on a shared kernel.
node_cgroups() {
  local cg node cpus mems
  cpus=$(cat /sys/fs/cgroup/cpuset/cpuset.cpus) mems=$(cat /sys/fs/cgroup/cpuset/cpuset.mems)
  for cg in $cgroups; do
    [ -d "/sys/fs/cgroup/$cg" ] || die "the cgroup v1 hierarchy $cg is not mounted at /sys/fs/cgroup/$cg: run with OAR_CPUSET=0 (no cpuset job manager; oarsh cannot be used in jobs)"
    for node in oardocker $(seq -f "oardocker/oarnode%g" 1 "$nodes"); do
      mkdir -p "/sys/fs/cgroup/$cg/$node" || die "cannot create /sys/fs/cgroup/$cg/$node: run with OAR_CPUSET=0"
      if [ "$cg" = cpuset ]; then
        echo "$cpus" > "/sys/fs/cgroup/cpuset/$node/cpuset.cpus" && echo "$mems" > "/sys/fs/cgroup/cpuset/$node/cpuset.mems" || die "cannot configure the cpuset $node"
      fi
    done
  done
}

configure() {
  setconf DB_BASE_PASSWD oar
  setconf DB_BASE_PASSWD_RO oar_ro
  setconf SERVER_HOSTNAME localhost
  # Jobs start about 3 s after oarsub instead of 5–10 s.
  setconf SCHEDULER_MIN_TIME_BETWEEN_2_CALLS 0
  setconf FINAUD_FREQUENCY 300
  if [ "$cpuset" = 1 ]; then
    setconf JOB_RESOURCE_MANAGER_PROPERTY_DB_FIELD cpuset
    setconf GET_CURRENT_CPUSET_CMD "sed -e 's@^/oardocker/[^/]*\\\\(/oar/[^/]*\\\\).*@\\\\1@' /proc/self/cpuset"
  else
    unsetconf JOB_RESOURCE_MANAGER_PROPERTY_DB_FIELD
    unsetconf GET_CURRENT_CPUSET_CMD
  fi
}

server_stop() {
  alive /run/oar-server.pid || return 0
  local p; p=$(cat /run/oar-server.pid)
  # Almighty forks its modules in its own session: stop the whole session.
  kill -- -"$p" 2>/dev/null || kill "$p"
  for _ in $(seq 25); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$p" 2>/dev/null && kill -9 -- -"$p" 2>/dev/null
  rm -f /run/oar-server.pid "$run/oar-server.pid"
}

user_and_keys() {
  id "$user" >/dev/null 2>&1 || useradd -m -s /bin/bash "$user" || die "cannot create the user $user"
  local home; home=$(getent passwd "$user" | cut -d: -f6)
  if [ ! -f "$home/.ssh/id_ed25519" ]; then
    runuser -u "$user" -- bash -c 'mkdir -p ~/.ssh && chmod 700 ~/.ssh && ssh-keygen -q -t ed25519 -N "" -f ~/.ssh/id_ed25519 && cp ~/.ssh/id_ed25519.pub ~/.ssh/authorized_keys && chmod 600 ~/.ssh/authorized_keys' ||
      die "cannot make $user's ssh key"
  fi
  runuser -u "$user" -- bash -c "printf 'Host oarnode*\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n' > ~/.ssh/config"
}

up() {
  install_packages
  mkdir -p "$run"
  grep -q "^$pg main" <<<"$(pg_lsclusters -h)" || pg_createcluster "$pg" main >/dev/null || die "pg_createcluster failed"
  if ! grep -q "^$pg main .* online" <<<"$(pg_lsclusters -h)"; then
    pg_ctlcluster "$pg" main start 9>&- || die "PostgreSQL did not start"
    touch "$run/started-postgres"
  fi
  local mode_changed=0
  [ "$(cat "$run/cpuset-mode" 2>/dev/null)" = "$cpuset" ] || mode_changed=1
  configure
  [ "$cpuset" = 1 ] && node_cgroups
  if ! oar-database --check >/dev/null 2>&1; then
    oar-database --create --db-is-local -y >"$run/oar-database.log" 2>&1 || die "oar-database --create failed: $(tail -5 "$run/oar-database.log")"
  fi
  local i c r
  for i in $(seq 1 "$nodes"); do
    grep -q " oarnode$i $mark\$" /etc/hosts || echo "127.0.1.$((10 + i)) oarnode$i $mark" >> /etc/hosts
  done
  user_and_keys
  mkdir -p /run/sshd && chmod 755 /run/sshd
  # The oar-node sshd, through which the server starts jobs and oarsh reaches nodes.
  alive "$run/oar-node-sshd.pid" || /usr/sbin/sshd -f /etc/oar/sshd_config -o PidFile="$run/oar-node-sshd.pid" 9>&- || die "the oar-node sshd did not start"
  # A plain sshd on the nodes' port 22, for scripts that reach nodes with ssh (no oarsh).
  if ! alive "$run/sshd.pid" && ! (exec 3<>/dev/tcp/127.0.1.11/22) 2>/dev/null; then
    /usr/sbin/sshd -o PidFile="$run/sshd.pid" -o ListenAddress=127.0.1.11 $(for i in $(seq 2 "$nodes"); do echo "-o ListenAddress=127.0.1.$((10 + i))"; done) 9>&- || die "sshd did not start"
  fi
  touch /var/log/oar.log && chown oar:oar /var/log/oar.log
  [ "$mode_changed" = 1 ] && server_stop
  if ! alive /run/oar-server.pid; then
    # Its own output to a file: Almighty keeps the descriptors it is given for as long as it lives.
    /usr/sbin/oar-server 9>&- </dev/null >>/var/log/ckpt-lab-oar-server.out 2>&1 || die "oar-server did not start: $(tail -5 /var/log/ckpt-lab-oar-server.out)"
    for _ in $(seq 20); do alive /run/oar-server.pid && break; sleep 0.25; done
    alive /run/oar-server.pid || die "oar-server did not start: $(tail -5 /var/log/oar.log)"
  fi
  echo "$cpuset" > "$run/cpuset-mode"
  # Resources: one per core, with the cpu it runs on (the cpuset job manager pins the job to it).
  local properties; properties=$(oarproperty -l)
  for prop in cpu core; do grep -qx "$prop" <<<"$properties" || oarproperty -a "$prop" >/dev/null || die "oarproperty -a $prop failed"; done
  local ncpus id; ncpus=$(nproc)
  for i in $(seq 1 "$nodes"); do
    local have; have=$(oarnodes -s "oarnode$i" 2>/dev/null | grep -c ':')
    for _ in $(seq $((have + 1)) "$cores"); do oarnodesetting -a -h "oarnode$i" >/dev/null || die "oarnodesetting -a -h oarnode$i failed"; done
    c=0
    for id in $(oarnodes -s "oarnode$i" | awk -F: '/:/ {print $1 + 0}' | sort -n); do
      c=$((c + 1)) r=$(( (i - 1) * cores + c ))
      oarnodesetting -r "$id" -p "cpu=$i" -p "core=$r" -p "cpuset=$(( (r - 1) % ncpus ))" >/dev/null || die "oarnodesetting -r $id failed"
    done
    oarnodesetting -s Alive -h "oarnode$i" >/dev/null 2>&1
  done
  local alive_n; alive_n=$(oarnodes -s 2>/dev/null | grep -c Alive)
  [ "$alive_n" -ge $((nodes * cores)) ] || die "only $alive_n of $((nodes * cores)) resources are Alive: $(oarnodes -s 2>&1 | head)"
  say "up: $nodes nodes × $cores cores Alive, cpuset job manager $([ "$cpuset" = 1 ] && echo on || echo off); submit as $user"
}

down() {
  if alive /run/oar-server.pid; then
    local ids; ids=$(oarstat -s 2>/dev/null | awk -F: '$2 !~ /Terminated|Error/ {print $1}')
    if [ -n "$ids" ]; then
      oardel $ids >/dev/null 2>&1
      for _ in $(seq 40); do [ -z "$(oarstat -s 2>/dev/null | grep -vE 'Terminated|Error')" ] && break; sleep 0.5; done
    fi
  fi
  server_stop
  for f in "$run/oar-node-sshd.pid" "$run/sshd.pid"; do alive "$f" && kill "$(cat "$f")"; rm -f "$f"; done
  sed -i "/ $mark\$/d" /etc/hosts
  if grep -q "^$pg main .* online" <<<"$(pg_lsclusters -h 2>/dev/null)"; then
    runuser -u postgres -- psql -q -c "DROP DATABASE IF EXISTS oar" >/dev/null 2>&1
    runuser -u postgres -- psql -q -c "DROP ROLE IF EXISTS oar" -c "DROP ROLE IF EXISTS oar_ro" >/dev/null 2>&1
  fi
  [ -f "$run/started-postgres" ] && pg_ctlcluster "$pg" main stop
  rm -rf "$run"
  say "down"
}

case "$action" in
  up) up ;;
  down) down ;;
  running) alive /run/oar-server.pid ;; # exit status only: 0 when up
  status) oarnodes -s && oarstat ;;
  *) echo "usage: $0 up|down|status|running" >&2; exit 2 ;;
esac
