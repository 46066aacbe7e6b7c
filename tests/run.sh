#!/usr/bin/env bash
# Runs every test of the workspace: the README's test command.
#
# Some tests drive real programs that a machine with only Rust lacks:
# python3 (the Python template bot), the toolchains of the starter kits in
# bots/ (node, make and g++, a JDK, Go; tests/kits.rs builds each kit with its
# own), Chromium (the HTML report in a real browser), Slurm with munge (the
# SPRT split over a job array) and user-mode-linux with the NFS server and
# client (the NFS test bed of tests/nfs/bed.sh). This script installs the
# missing ones with apt-get when it runs as root on a Debian-like system;
# anywhere else it names the packages and stops, rather than letting those
# tests fail one by one further down.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
{ command -v javac && command -v jar && command -v java; } >/dev/null 2>&1 || missing+=(default-jdk)
command -v go >/dev/null 2>&1 || missing+=(golang-go)
[ -x /usr/bin/chromium ] || [ -n "${ABOURE_CHROMIUM:-}" ] || missing+=(chromium)
command -v sbatch >/dev/null 2>&1 || missing+=(slurm-wlm)
command -v munged >/dev/null 2>&1 || missing+=(munge)
# The NFS test bed (tests/nfs/bed.sh): user-mode-linux guests with the
# kernel's NFS server and client.
command -v linux >/dev/null 2>&1 || missing+=(user-mode-linux)
[ -x /usr/sbin/rpc.nfsd ] || missing+=(nfs-kernel-server)
[ -x /sbin/mount.nfs ] || [ -x /usr/sbin/mount.nfs ] || missing+=(nfs-common)
[ -x /usr/sbin/rpcbind ] || [ -x /sbin/rpcbind ] || missing+=(rpcbind)
command -v modprobe >/dev/null 2>&1 || missing+=(kmod)

if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "tests/run.sh: installing what the tests need: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "tests/run.sh: the tests need ${missing[*]}, which this machine lacks." >&2
        echo "Install them, for example: sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

exec cargo test --workspace "$@"
