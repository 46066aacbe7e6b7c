#!/bin/bash
# The init of a user-mode-linux guest of tests/nfs/bed.sh: its root is the
# host's filesystem (hostfs), so everything the guest's daemons write
# (/run, /var/lib/nfs, /srv, /mnt) goes to a tmpfs of the guest's own,
# never to the host. The kernel passes the aboure_* settings of the boot
# line as environment variables. Once set up, it writes ready/GUEST and
# runs the commands queued in cmd/GUEST/ (each in the background).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
g=$aboure_guest bed=$aboure_bed
exec >"$bed/log/$g.init" 2>&1
set -x

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null || true
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
for d in /run /var/lib/nfs /srv /mnt /var/tmp; do
    mount -t tmpfs tmpfs "$d"
done
mkdir -p /run/lock /var/lib/nfs/sm /var/lib/nfs/sm.bak /var/lib/nfs/v4recovery \
    /var/lib/nfs/rpc_pipefs
: >/var/lib/nfs/etab
: >/var/lib/nfs/rmtab
: >/var/lib/nfs/state
hostname "$g"
ulimit -n 65536

# The guest's modules live in /usr/lib/uml/modules, not /lib/modules (which
# the host lacks): a modprobe that looks there, for us and for the kernel.
mkdir -p /run/modroot/lib
ln -s "$(dirname "$aboure_modules")" /run/modroot/lib/modules
cat >/run/modprobe <<'EOF'
#!/bin/sh
exec /sbin/modprobe -d /run/modroot "$@"
EOF
chmod +x /run/modprobe
echo /run/modprobe >/proc/sys/kernel/modprobe

ip link set lo up
ip addr add "$aboure_addr/24" dev eth0
ip link set eth0 up

rpcbind -w
case $g in
server)
    /run/modprobe nfsd
    mount -t nfsd nfsd /proc/fs/nfsd
    echo "$aboure_lease" >/proc/fs/nfsd/nfsv4leasetime
    echo "$aboure_lease" >/proc/fs/nfsd/nfsv4gracetime
    mkdir -p /srv/nfs
    : >/srv/nfs/.bed
    chmod 1777 /srv/nfs
    rpc.statd --no-notify
    exportfs -o rw,no_root_squash,no_subtree_check,insecure,fsid=0 10.77.0.0/24:/srv/nfs
    rpc.mountd
    rpc.nfsd 8
    exportfs -v
    cat /proc/fs/nfsd/versions
    ;;
*)
    for m in nfs nfsv3 nfsv4; do /run/modprobe "$m"; done
    rpc.statd --no-notify
    mkdir -p /mnt/nfs /mnt/nfs-b /mnt/nfs3
    # The server may still be starting: try until it answers.
    for _ in $(seq 1 90); do
        mount -t nfs -o vers=4.2 10.77.0.1:/ /mnt/nfs && break
        sleep 1
    done
    mount -t nfs -o vers=4.2,nosharecache 10.77.0.1:/ /mnt/nfs-b
    if [ "$g" = client2 ]; then
        mount -t nfs -o vers=3 10.77.0.1:/srv/nfs /mnt/nfs3
    fi
    grep nfs /proc/mounts
    test -f /mnt/nfs/.bed || { echo "no export at /mnt/nfs"; }
    ;;
esac

mkdir -p "$bed/ready"
: >"$bed/ready/$g"
set +x
q="$bed/cmd/$g"
# An idle guest must not fork (a fork is slow in a guest): wait with bash's
# own read on a fifo nobody writes, not with sleep.
mkfifo /run/tick
exec 3<>/run/tick
while true; do
    for f in "$q"/*.sh; do
        [ -e "$f" ] || continue
        id=${f%.sh}
        mv "$f" "$id.run" || continue
        (
            sh "$id.run" >"$id.out" 2>"$id.err" </dev/null
            # hostfs writes through to the host's file at once.
            echo $? >"$id.rc.tmp"
            mv "$id.rc.tmp" "$id.rc"
        ) &
    done
    read -r -t 0.1 -u 3 || true
done
