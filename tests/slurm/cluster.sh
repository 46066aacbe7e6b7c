#!/bin/sh
# A single-node Slurm cluster for the tests, started only if none answers.
#
#   sh tests/slurm/cluster.sh [STATE_DIR]    start (or find) it; the last
#                                            line printed is the SLURM_CONF
#                                            to use (empty: the system's)
#   sh tests/slurm/cluster.sh stop [STATE_DIR]
#
# A cluster this script starts keeps running after the test (later runs
# reuse it in seconds); `stop` ends it. It needs root, Debian's slurm-wlm
# and munge, and no systemd: munged, slurmctld and slurmd are started by
# hand with a one-node configuration that tracks processes through /proc
# and uses no task plugin (no cgroup tree is needed).
#
# The node declares the CPUs the machine really has (`nproc`), so a job
# array with more tasks than CPUs queues the rest as a real cluster would.
# Its daemons listen on ABOURE_SLURM_PORT and the port after it (6827 and
# 6828 unless set), apart from a system cluster's 6817 and 6818.
set -eu

default_state=/tmp/aboure-slurm-$(nproc)cpu
if [ "${1:-}" = stop ]; then
    state=${2:-$default_state}
    for pid in "$state/slurmd.pid" "$state/slurmctld.pid"; do
        [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
    done
    exit 0
fi
state=${1:-$default_state}
conf=$state/slurm.conf
port=${ABOURE_SLURM_PORT:-6827}
cpus=$(nproc)

for tool in sbatch slurmctld slurmd munged; do
    if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
        echo "$tool is missing: apt-get install -y slurm-wlm munge" >&2
        exit 3
    fi
done

idle() { sinfo -h -o %T 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; }

# Tests that run at once call this script at once: one finds or starts
# the cluster while the others wait, so none reads a half-written file.
# The daemons it starts must not inherit the lock (9>&-), or it is never
# released.
mkdir -p "$state"
exec 9>"$state.lock"
flock 9

# A cluster that already answers: the system's, or one started earlier.
if env -u SLURM_CONF sinfo -h >/dev/null 2>&1; then
    echo
    exit 0
fi
export SLURM_CONF=$conf
if [ -f "$conf" ] && idle; then
    if ! grep -q "CPUs=$cpus " "$conf"; then
        echo "$conf declares other CPUs than this machine's $cpus: stop it (sh $0 stop $state)" >&2
        exit 5
    fi
    echo "$conf"
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    echo "starting a Slurm cluster needs root (munged, slurmd)" >&2
    exit 3
fi

# munge: the key, then the daemon (if it is not running).
if [ ! -f /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
fi
chown munge:munge /etc/munge/munge.key 2>/dev/null || true
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/lib/munge /var/log/munge
chown munge:munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
if ! munge -n >/dev/null 2>&1; then
    if id munge >/dev/null 2>&1; then
        su -s /bin/sh munge -c /usr/sbin/munged 9>&- || /usr/sbin/munged --force 9>&-
    else
        /usr/sbin/munged --force 9>&-
    fi
    for _ in $(seq 50); do munge -n >/dev/null 2>&1 && break; sleep 0.1; done
fi

host=$(hostname -s)
mkdir -p "$state/ctld" "$state/d"
cat >"$conf.new" <<CONF
ClusterName=aboure
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
mv "$conf.new" "$conf"

/usr/sbin/slurmctld -f "$conf" 9>&-
/usr/sbin/slurmd -f "$conf" 9>&-
for _ in $(seq 150); do
    if idle; then
        echo "$conf"
        exit 0
    fi
    sleep 0.2
done
echo "the Slurm node did not become idle; see $state/slurmctld.log and $state/slurmd.log" >&2
sinfo >&2 || true
exit 4
