#!/usr/bin/env bash
# An emulated cluster on this one Debian machine: N client nodes and one NFS server, each
# in its own network namespace, joined by a bridge (in a namespace of its own, so nothing
# touches the host's network), with rate-limited links (tc tbf): every client sends at most
# NFS_NODE_MBIT, the server receives at most NFS_SERVER_MBIT. The server is nfs-ganesha
# (NFSv3, an export on tmpfs); clients write with libnfs's nfs-cp (user space: this kernel
# has no NFS client), or to files under /mnt/ckpt-lab-nfs in their own mount namespace,
# where the export is mounted by nfs-fuse.c (a FUSE file system over libnfs, built here with
# cc) running in the client's network namespace: what a program writes there leaves through
# that client's link, as through a kernel NFS mount. Installs its Debian packages when missing.
#
#   test/cluster/nfs-cluster.sh up [N] | down | status | running   (running: exit status 0 when up)
#   env: NFS_NODE_MBIT (100), NFS_SERVER_MBIT (400), NFS_EXPORT_MB (tmpfs size, 4096)
#
#   namespaces ckl-sw (the bridge), ckl-srv 10.77.0.1 (server), ckl-c1..N 10.77.0.11.. (clients)
#   export     nfs://10.77.0.1/srv/ckpt-lab-nfs/…?version=3   (the folder /srv/ckpt-lab-nfs here)
#   a client   nsenter --net=/run/netns/ckl-cK --mount=/run/ckpt-lab-nfs/mntns/ckl-cK sh -c '…'
#              sees the export at /mnt/ckpt-lab-nfs (the same path on every client)
#
# With the defaults one writer gets 12.5 MB/s (its link) and four or more share the
# server's 50 MB/s: the aggregate bandwidth grows with m, then saturates — by design.
# Idempotent: `up` again keeps what runs (and sets the rates anew, adding clients if N
# grew), `down` again does nothing. Must run as root.
set -uo pipefail
action=${1:-up}
clients=${2:-${NFS_CLIENTS:-8}}
node_mbit=${NFS_NODE_MBIT:-100}
server_mbit=${NFS_SERVER_MBIT:-400}
export_mb=${NFS_EXPORT_MB:-4096}
net=10.77.0
export_dir=/srv/ckpt-lab-nfs
run=/run/ckpt-lab-nfs
conf=/etc/ganesha/ckpt-lab-ganesha.conf
mntns=$run/mntns
client_mount=/mnt/ckpt-lab-nfs
say() { echo "[nfs-cluster] $*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (network namespaces, tc, the NFS server)"
[[ "$clients" =~ ^[1-9][0-9]?$ ]] || die "N must be a number of clients from 1 to 99, got \"$clients\""
# One at a time; daemons start with fd 9 closed, or they would hold the lock for as long as they live.
mkdir -p /run/lock && exec 9>/run/lock/ckpt-lab-nfs.lock && flock 9

install_packages() {
  [ -x /usr/bin/ganesha.nfsd ] && [ -f /usr/lib/x86_64-linux-gnu/ganesha/libfsalvfs.so ] && [ -x /usr/sbin/rpcbind ] && command -v nfs-cp >/dev/null && command -v tc >/dev/null &&
    command -v cc >/dev/null && [ -f /usr/include/fuse3/fuse.h ] && [ -f /usr/include/nfsc/libnfs.h ] && command -v pkg-config >/dev/null && [ -e /dev/fuse ] && return 0
  say "installing nfs-ganesha, rpcbind, libnfs-utils, iproute2, and what nfs-fuse is built with (gcc, libfuse3-dev, libnfs-dev, fuse3)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends nfs-ganesha nfs-ganesha-vfs rpcbind libnfs-utils iproute2 procps \
    gcc libc6-dev pkg-config libfuse3-dev libnfs-dev fuse3 >/dev/null ||
    die "apt-get install failed"
  [ -e /dev/fuse ] || die "/dev/fuse is missing: this machine cannot mount FUSE file systems (the clients' NFS mounts)"
}

# The clients' NFS mount: nfs-fuse.c built once per boot (/run is a tmpfs), again when its source changed.
build_fuse_client() {
  local source binary
  source="$(dirname "$(readlink -f "$0")")/nfs-fuse.c"
  binary=$run/nfs-fuse
  [ -x "$binary" ] && [ "$binary" -nt "$source" ] && return 0
  # shellcheck disable=SC2046
  cc -O2 -Wall -o "$binary.tmp" "$source" $(pkg-config --cflags --libs fuse3 libnfs) && mv "$binary.tmp" "$binary" || die "cannot build $source"
}

# mount_client NAME: the export at $client_mount in the client's own mount namespace, served
# by nfs-fuse in its network namespace (its pid in $run/fuse-NAME.pid).
mount_client() {
  local ns=$1
  if alive "$run/fuse-$ns.pid" && nsenter --mount="$mntns/$ns" mountpoint -q "$client_mount"; then return 0; fi
  # A persistent mount namespace, a slave of this one: it sees the machine's files and mounts,
  # and its own mount stays its own.
  mountpoint -q "$mntns" || { mkdir -p "$mntns" && mount --bind "$mntns" "$mntns" && mount --make-private "$mntns"; } || die "cannot prepare $mntns"
  if ! mountpoint -q "$mntns/$ns"; then
    touch "$mntns/$ns" && unshare --mount="$mntns/$ns" --propagation slave true || die "cannot create the mount namespace of $ns"
  fi
  mkdir -p "$client_mount"
  nsenter --mount="$mntns/$ns" --net="/run/netns/$ns" -- "$run/nfs-fuse" "$net.1" "$export_dir" "$client_mount" -f -o fsname=ckpt-lab-nfs \
    9>&- </dev/null >>"/var/log/ckpt-lab-nfs-fuse-$ns.log" 2>&1 &
  echo $! > "$run/fuse-$ns.pid"
  local started=$SECONDS
  until nsenter --mount="$mntns/$ns" mountpoint -q "$client_mount"; do
    alive "$run/fuse-$ns.pid" || die "nfs-fuse of $ns stopped: $(tail -3 "/var/log/ckpt-lab-nfs-fuse-$ns.log" 2>/dev/null)"
    [ $((SECONDS - started)) -lt 30 ] || die "the NFS mount of $ns does not appear after 30 s"
    sleep 0.2
  done
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
has_ns() { [ -e "/run/netns/$1" ]; }
make_ns() { has_ns "$1" || ip netns add "$1" || die "ip netns add $1 failed"; ip -n "$1" link set lo up; }

# attach NAMESPACE ADDRESS PORT EGRESS_MBIT INGRESS_MBIT (0: no limit)
attach() {
  local ns=$1 address=$2 port=$3 egress=$4 ingress=$5
  if ! ip -n "$ns" link show eth0 >/dev/null 2>&1; then
    ip link add "$port" type veth peer name "$port-n" || die "cannot create the veth pair $port"
    ip link set "$port" netns ckl-sw && ip link set "$port-n" netns "$ns" &&
      ip -n "$ns" link set "$port-n" name eth0 && ip -n "$ns" addr add "$address/24" dev eth0 &&
      ip -n "$ns" link set eth0 up && ip -n ckl-sw link set "$port" master br0 up || die "cannot attach $ns to the bridge"
  fi
  # Leaving the node (its link) and leaving the switch towards it (the server's link).
  [ "$egress" = 0 ] || ip netns exec "$ns" tc qdisc replace dev eth0 root tbf rate "${egress}mbit" burst 64kb latency 50ms || die "tc on $ns failed"
  [ "$ingress" = 0 ] || ip netns exec ckl-sw tc qdisc replace dev "$port" root tbf rate "${ingress}mbit" burst 256kb latency 50ms || die "tc on $port failed"
}

write_conf() {
  mkdir -p /etc/ganesha /var/lib/nfs/ganesha
  cat > "$conf.tmp" <<CONF
# Written by ckpt-lab's test/cluster/nfs-cluster.sh.
NFS_CORE_PARAM { Protocols = 3, 4; NFS_Port = 2049; MNT_Port = 20048; NLM_Port = 32803; Enable_RQUOTA = false; }
NFSV4 { Graceless = true; }
# The server keeps files open in its fd cache, deleted images too, and the tmpfs fills up:
# close them at every pass of its reaper (each second).
MDCACHE { LRU_Run_Interval = 1; FD_LWMark_Percent = 0; FD_HWMark_Percent = 1; }
EXPORT {
    Export_Id = 78; Path = $export_dir; Pseudo = /ckpt; Access_Type = RW; Squash = No_Root_Squash;
    Protocols = 3, 4; Transports = TCP; FSAL { Name = VFS; }
}
LOG { Default_Log_Level = WARN; }
CONF
  mv "$conf.tmp" "$conf"
}

up() {
  install_packages
  mkdir -p "$run"
  make_ns ckl-sw
  ip -n ckl-sw link show br0 >/dev/null 2>&1 || ip -n ckl-sw link add br0 type bridge || die "cannot create the bridge"
  ip -n ckl-sw link set br0 up
  make_ns ckl-srv
  attach ckl-srv "$net.1" ckl-psrv 0 "$server_mbit"
  local i
  for i in $(seq 1 "$clients"); do
    make_ns "ckl-c$i"
    attach "ckl-c$i" "$net.$((10 + i))" "ckl-p$i" "$node_mbit" 0
  done
  mkdir -p "$export_dir"
  mountpoint -q "$export_dir" || mount -t tmpfs -o "size=${export_mb}m,mode=1777" ckpt-lab-nfs "$export_dir" || die "cannot mount the export's tmpfs"
  write_conf
  if ! alive "$run/rpcbind.pid"; then
    # rpcbind's unix socket is not per namespace: one rpcbind per machine.
    if [ -S /run/rpcbind.sock ] && rpcinfo -p >/dev/null 2>&1; then die "an rpcbind of another program already runs on this machine; stop it first"; fi
    rm -f /run/rpcbind.sock /run/rpcbind.lock
    ip netns exec ckl-srv /usr/sbin/rpcbind -w -f 9>&- </dev/null >>/var/log/ckpt-lab-rpcbind.log 2>&1 &
    echo $! > "$run/rpcbind.pid"
    sleep 0.5
  fi
  if ! alive "$run/ganesha.pid"; then
    ip netns exec ckl-srv /usr/bin/ganesha.nfsd -F -f "$conf" -L /var/log/ckpt-lab-ganesha.log -p "$run/ganesha.inner.pid" -N NIV_WARN >/dev/null 2>&1 9>&- &
    echo $! > "$run/ganesha.pid"
  fi
  local started=$SECONDS
  while [ $((SECONDS - started)) -lt 60 ]; do
    if ip netns exec ckl-c1 nfs-ls "nfs://$net.1$export_dir?version=3" >/dev/null 2>&1; then
      build_fuse_client
      for i in $(seq 1 "$clients"); do mount_client "ckl-c$i"; done
      say "up: $clients clients (ckl-c1..ckl-c$clients, ${node_mbit} Mbit/s each), server ckl-srv (${server_mbit} Mbit/s in), export nfs://$net.1$export_dir?version=3, mounted at $client_mount in each client's mount namespace ($mntns/ckl-cK)"
      return 0
    fi
    sleep 0.5
  done
  die "the NFS export does not answer after 60 s: $(tail -5 /var/log/ckpt-lab-ganesha.log 2>/dev/null)"
}

# stop PIDFILE: the process it names, TERM then (after 10 s) KILL; the file removed.
stop() {
  local p
  if alive "$1"; then
    p=$(cat "$1") && kill "$p"
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$p" 2>/dev/null && kill -9 "$p"
  fi
  rm -f "$1"
}

down() {
  local f ns
  # The clients' mounts first (while the server answers, so that they unmount cleanly).
  for f in "$run"/fuse-*.pid; do
    [ -e "$f" ] || continue
    ns=$(basename "$f" .pid); ns=${ns#fuse-}
    [ -e "$mntns/$ns" ] && nsenter --mount="$mntns/$ns" umount "$client_mount" 2>/dev/null
    stop "$f"
  done
  if [ -d "$mntns" ]; then
    for f in "$mntns"/*; do [ -e "$f" ] && { umount "$f" 2>/dev/null; rm -f "$f"; }; done
    mountpoint -q "$mntns" && umount "$mntns"
  fi
  rmdir "$client_mount" 2>/dev/null
  for f in "$run/ganesha.pid" "$run/rpcbind.pid"; do stop "$f"; done
  for ns in $(ip netns list | awk '{print $1}' | grep -E '^ckl-(sw|srv|c[0-9]+)$'); do ip netns del "$ns"; done
  mountpoint -q "$export_dir" && umount "$export_dir"
  rmdir "$export_dir" 2>/dev/null
  rm -rf "$run"
  say "down"
}

status() {
  ip netns list | grep -E '^ckl-' || echo "no namespaces"
  for f in rpcbind ganesha; do alive "$run/$f.pid" && echo "$f running (pid $(cat "$run/$f.pid"))"; done
  for f in "$run"/fuse-*.pid; do [ -e "$f" ] && alive "$f" && echo "$(basename "$f" .pid | sed 's/^fuse-//') mounts the export at $client_mount (nfs-fuse pid $(cat "$f"))"; done
  ip netns exec ckl-sw tc qdisc show 2>/dev/null | grep tbf
}

case "$action" in
  up) up ;;
  down) down ;;
  running) alive "$run/ganesha.pid" ;; # exit status only: 0 when up
  status) status ;;
  *) echo "usage: $0 up [N] | down | status | running" >&2; exit 2 ;;
esac
