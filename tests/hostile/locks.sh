#!/bin/sh
# Takes locks on a shared file it may only read (BOOK, which the test
# holds locked from outside: flock LOCK_EX and an fcntl write lock), each
# without waiting, and a lock that would exclude its own second open of
# the file; says on stderr what it got, then plays honest moves.
# usage: locks.sh MARKER TESTBOT BOOK
python3 - "$3" <<'PY' >&2
import errno, fcntl, os, sys
book = sys.argv[1]
def attempt(name, fd, how, call=fcntl.flock):
    try:
        call(fd, how | fcntl.LOCK_NB)
    except OSError as e:
        print(f"locks: {name}: held ({errno.errorcode[e.errno]})", flush=True)
    else:
        print(f"locks: {name}: got", flush=True)
first = os.open(book, os.O_RDONLY)
attempt("flock shared", first, fcntl.LOCK_SH)
attempt("flock exclusive", first, fcntl.LOCK_EX)
attempt("fcntl read lock", first, fcntl.LOCK_SH, fcntl.lockf)
# A second open of the same file is another holder for flock: the
# exclusive lock taken on the first, if it were real, would exclude it.
second = os.open(book, os.O_RDONLY)
attempt("flock beside its own exclusive", second, fcntl.LOCK_SH)
PY
exec "$2" random --seed 22
