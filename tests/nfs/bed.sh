#!/usr/bin/env bash
# A real NFS server and two NFS client machines on one Linux host whose own
# kernel has no NFS: three user-mode-linux guests (Debian's `linux`), each
# an ordinary process with the host's filesystem as its root (hostfs), on
# a bridge of TAP devices inside a network namespace of their own.
#
#   bash tests/nfs/bed.sh up            start (or keep) the bed; prints its folder
#   bash tests/nfs/bed.sh run GUEST CMD run CMD with sh on GUEST (server,
#                                       client1, client2); its output and status
#   bash tests/nfs/bed.sh cut GUEST     unplug GUEST from the bridge
#   bash tests/nfs/bed.sh plug GUEST    plug it back
#   bash tests/nfs/bed.sh down          stop the guests, remove the network and the folder
#
# The server exports a tmpfs of its own (`/srv/nfs`, exporting hostfs is
# not reliable) as the NFSv4 root (fsid=0) with the lease and grace time set to $ABOURE_NFS_LEASE
# seconds (15) before nfsd starts. Each client mounts it at `/mnt/nfs`
# (NFSv4.2) and again at `/mnt/nfs-b` (NFSv4.2, `nosharecache`: a second,
# separately cached mount); client2 also mounts it at `/mnt/nfs3` (NFSv3,
# with statd and lockd). Delegations are on (the server's default).
# Each guest has $ABOURE_NFS_MEM of memory (2G; only what is touched is
# taken): in 256M, 1,000 worker threads of `aboure bench workers` left the
# guest's init unable to fork, and the guest stopped; in 1G, one run of
# eight had the bench killed by the guest's OOM killer at 864 MB resident.
#
# Commands reach a guest through a queue in the bed's folder (visible to
# the guests through hostfs): `cmd/GUEST/N.sh`, which the guest's init
# (`tests/nfs/guest.sh`) runs in the background, leaving N.out, N.err and
# then N.rc. Everything lives in $ABOURE_NFS_BED (/tmp/aboure-nfsbed), the
# network in the namespace $ABOURE_NFS_NS (aboure-nfs), so two beds can run; the
# guests see the host's files, so the aboure binary runs there as built.
# Raises the host's vm.max_map_count to 1,048,576 (see maps below).
# Needs root and cc (gcc, for tests/nfs/xstate.c); installs Debian's
# user-mode-linux, nfs-kernel-server, nfs-common, rpcbind and kmod (the
# guests' modprobe) if they are missing. `up` is idempotent: a bed
# that answers is kept, a half-started one is torn down and started again.
set -euo pipefail

BED=${ABOURE_NFS_BED:-/tmp/aboure-nfsbed}
NS=${ABOURE_NFS_NS:-aboure-nfs}
LEASE=${ABOURE_NFS_LEASE:-15}
MEM=${ABOURE_NFS_MEM:-2G}
HERE=$(cd "$(dirname "$0")" && pwd)
GUESTS=(server client1 client2)

die() { echo "tests/nfs/bed.sh: $*" >&2; exit 1; }

addr() {
    case $1 in
    server) echo 10.77.0.1 ;;
    client1) echo 10.77.0.2 ;;
    client2) echo 10.77.0.3 ;;
    *) die "no guest named $1 (server, client1, client2)" ;;
    esac
}

install() {
    local missing=()
    command -v linux >/dev/null 2>&1 || missing+=(user-mode-linux)
    [ -x /usr/sbin/rpc.nfsd ] || missing+=(nfs-kernel-server)
    [ -x /sbin/mount.nfs ] || [ -x /usr/sbin/mount.nfs ] || missing+=(nfs-common)
    [ -x /usr/sbin/rpcbind ] || [ -x /sbin/rpcbind ] || missing+=(rpcbind)
    command -v modprobe >/dev/null 2>&1 || missing+=(kmod)
    command -v cc >/dev/null 2>&1 || missing+=(gcc)
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" = 0 ] || die "needs root to install ${missing[*]}"
    command -v apt-get >/dev/null 2>&1 || die "install ${missing[*]} (no apt-get here)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq "${missing[@]}" >/dev/null || die "cannot install ${missing[*]}"
}

# The guest's kernel modules, for the guest's modprobe (tests/nfs/guest.sh).
modules() {
    local dir
    dir=$(find /usr/lib/uml/modules -mindepth 1 -maxdepth 1 -type d | head -n1)
    [ -n "$dir" ] || die "no modules in /usr/lib/uml/modules (user-mode-linux)"
    echo "$dir"
}

alive() { [ -f "$BED/pid/$1" ] && kill -0 "$(cat "$BED/pid/$1")" 2>/dev/null; }

network() {
    ip netns add "$NS" 2>/dev/null || ip netns list | grep -qw "$NS" ||
        die "cannot create the network namespace $NS"
    local n="ip netns exec $NS"
    $n ip link show br0 >/dev/null 2>&1 || $n ip link add br0 type bridge
    $n ip link set br0 up
    local g
    for g in "${GUESTS[@]}"; do
        $n ip link show "tap-$g" >/dev/null 2>&1 || $n ip tuntap add "tap-$g" mode tap
        $n ip link set "tap-$g" master br0
        $n ip link set "tap-$g" up
    done
}

boot() {
    local g=$1
    mkdir -p "$BED/cmd/$g" "$BED/log" "$BED/pid" "$BED/mem/$g"
    rm -f "$BED/ready/$g"
    # setsid: the guest's host processes form one group, stopped as one.
    # tests/nfs/xstate.c, for a host with AVX-512 or AMX; the guests' glibc
    # without AVX-512, whose registers the guest kernel does not keep.
    TMPDIR="$BED/mem/$g" ip netns exec "$NS" setsid \
        env LD_PRELOAD="$BED/xstate.so" linux \
        mem="$MEM" root=/dev/root rootfstype=hostfs rootflags=/ rw \
        init="$HERE/guest.sh" "eth0=tuntap,tap-$g" con=null con0=null,fd:1 \
        aboure_guest="$g" aboure_addr="$(addr "$g")" aboure_bed="$BED" \
        aboure_lease="$LEASE" aboure_modules="$(modules)" \
        GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD,-AMX_TILE \
        </dev/null >"$BED/log/$g.console" 2>&1 &
    echo $! >"$BED/pid/$g"
}

wait_ready() {
    local g=$1 limit=$2 t=0
    until [ -f "$BED/ready/$g" ]; do
        alive "$g" || die "guest $g stopped while booting; its console: $BED/log/$g.console
$(tail -n 30 "$BED/log/$g.console" 2>/dev/null)
$(tail -n 30 "$BED/log/$g.init" 2>/dev/null)"
        [ "$t" -lt "$((limit * 5))" ] || die "guest $g not ready after ${limit}s; its log:
$(tail -n 30 "$BED/log/$g.init" 2>/dev/null)"
        sleep 0.2
        t=$((t + 1))
    done
}

answers() {
    local g
    for g in "${GUESTS[@]}"; do
        alive "$g" && [ -f "$BED/ready/$g" ] || return 1
    done
    [ "$(run client1 'test -f /mnt/nfs/.bed && echo ok' 2>/dev/null)" = ok ] &&
        [ "$(run client2 'test -f /mnt/nfs/.bed && echo ok' 2>/dev/null)" = ok ]
}

# A guest's process runs in a host process that maps the guest's memory
# page by page as it lies scattered: the 1,000 threads of `aboure bench
# workers` reached 22,000 mappings in five minutes, and at the host's
# `vm.max_map_count` (65,530 by default) the guest killed the bench ("UML
# ran out of memory on the host side"), 624 s into a run. So the host's
# bound is raised to 1,048,576 (each mapping costs the host about 200
# bytes of kernel memory when it is used); a higher bound is kept.
maps() {
    local now
    now=$(cat /proc/sys/vm/max_map_count)
    [ "$now" -ge 1048576 ] || echo 1048576 >/proc/sys/vm/max_map_count ||
        die "cannot raise vm.max_map_count (now $now) to 1048576"
}

up() {
    [ "$(id -u)" = 0 ] || die "needs root (network namespace, TAP devices)"
    install
    maps
    if answers; then
        echo "$BED"
        return 0
    fi
    down >/dev/null 2>&1 || true
    mkdir -p "$BED/ready"
    cc -O2 -shared -fPIC -o "$BED/xstate.so" "$HERE/xstate.c" -ldl ||
        die "cannot build tests/nfs/xstate.c (cc, from gcc)"
    network
    boot server
    wait_ready server 120
    boot client1
    boot client2
    wait_ready client1 300
    wait_ready client2 300
    answers || die "the clients do not see the export; logs in $BED/log"
    echo "$BED"
}

# Runs "$2" on guest $1 and waits for it; prints its output, returns its status.
run() {
    local g=$1 cmd=$2 limit=${ABOURE_NFS_TIMEOUT:-600}
    addr "$g" >/dev/null
    alive "$g" || die "guest $g is not running (bash tests/nfs/bed.sh up)"
    local id q="$BED/cmd/$g"
    id="$(date +%s%N)-$$-$RANDOM"
    printf '%s\n' "$cmd" >"$q/$id.tmp"
    mv "$q/$id.tmp" "$q/$id.sh"
    local t=0
    until [ -f "$q/$id.rc" ]; do
        alive "$g" || die "guest $g stopped while running: $cmd"
        [ "$t" -lt "$((limit * 10))" ] || die "no answer from $g after ${limit}s to: $cmd"
        sleep 0.1
        t=$((t + 1))
    done
    cat "$q/$id.out"
    cat "$q/$id.err" >&2
    local rc
    rc=$(cat "$q/$id.rc")
    rm -f "$q/$id".*
    return "$rc"
}

cut() { ip netns exec "$NS" ip link set "tap-$1" down; }
plug() { ip netns exec "$NS" ip link set "tap-$1" up; }

down() {
    local g pid
    for g in "${GUESTS[@]}"; do
        [ -f "$BED/pid/$g" ] || continue
        pid=$(cat "$BED/pid/$g")
        kill -TERM -- "-$pid" 2>/dev/null || true
    done
    sleep 1
    for g in "${GUESTS[@]}"; do
        [ -f "$BED/pid/$g" ] || continue
        pid=$(cat "$BED/pid/$g")
        kill -KILL -- "-$pid" 2>/dev/null || true
    done
    ip netns del "$NS" 2>/dev/null || true
    rm -rf "$BED"
}

case ${1:-} in
up) up ;;
run) [ $# -eq 3 ] || die "usage: bed.sh run GUEST COMMAND"; run "$2" "$3" ;;
cut) addr "$2" >/dev/null; cut "$2" ;;
plug) addr "$2" >/dev/null; plug "$2" ;;
down) down ;;
*) die "usage: bed.sh up | run GUEST COMMAND | cut GUEST | plug GUEST | down" ;;
esac
