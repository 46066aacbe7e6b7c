#!/usr/bin/env python3
"""What reading a game's mark (claims/recorded/ID) costs, and whether it
is fresh, on a client of tests/nfs/bed.sh: through the cache (a read-only
open, as `aboure_records::mark::read_mark` reads) or from the server (a
read-write O_DIRECT open, as a worker reads: `aboure_workers::mark_now`).

    bash tests/nfs/bed.sh run client2 'python3 /path/to/tests/nfs/mark_reads.py'

Marks are made through /mnt/nfs-b (the client's second, separately cached
mount) and read through /mnt/nfs. Prints the NFS calls per read (this
client's /proc/net/rpc/nfs, all procedures; each set read twice), then how
often a mark replaced through the other mount (a takeover: a new file
renamed over the name) is read stale right afterwards by a reader that had
read it three times before."""
import mmap
import os

A, B = '/mnt/nfs', '/mnt/nfs-b'
BUF = mmap.mmap(-1, 65536)


def calls():
    total = 0
    with open('/proc/net/rpc/nfs') as f:
        for line in f:
            if line.startswith('proc'):
                total += sum(int(x) for x in line.split()[2:])
    return total


def cached(path):
    with open(path, 'rb') as f:
        return f.read()


def direct(path):
    fd = os.open(path, os.O_RDWR | os.O_DIRECT)
    try:
        return BUF[:os.preadv(fd, [BUF], 0)]
    finally:
        os.close(fd)


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def main():
    run = 'mark-reads-%d' % os.getpid()
    for how in ('cached', 'direct'):
        os.makedirs('%s/%s/%s' % (A, run, how))
    os.listdir('%s/%s' % (B, run))
    read = {'cached': cached, 'direct': direct}
    n = 100
    for how in ('cached', 'direct'):
        for i in range(n):
            write('%s/%s/%s/g%d' % (B, run, how, i), 'games-w-one.jsonl\n')
        for turn in (1, 2):
            before = calls()
            for i in range(n):
                read[how]('%s/%s/%s/g%d' % (A, run, how, i))
            print('%s, read %d: %.1f NFS calls per read' % (how, turn, (calls() - before) / n))
    for how in ('cached', 'direct'):
        stale = 0
        for i in range(20):
            name = '%s/%s/t%d' % (run, how, i)
            write('%s/%s/.t' % (B, run), 'games-w-one.jsonl\n')
            os.link('%s/%s/.t' % (B, run), '%s/%s' % (B, name))
            os.unlink('%s/%s/.t' % (B, run))
            for _ in range(3):
                read[how]('%s/%s' % (A, name))
            write('%s/%s/.t' % (B, run), 'games-w-taker.jsonl\n')
            os.rename('%s/%s/.t' % (B, run), '%s/%s' % (B, name))
            if read[how]('%s/%s' % (A, name)) != b'games-w-taker.jsonl\n':
                stale += 1
        print('%s: a mark taken over read stale right afterwards %d times of 20' % (how, stale))


main()
