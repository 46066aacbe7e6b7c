#!/bin/sh
# Asks the filesystem of its own (read-only) folder for its free or used
# space through the ioctl commands that report it (a channel: another bot
# moves it by writing), says on stderr what each answered (the errno's
# name, or "answered"), then plays honest moves. The command numbers are
# computed here from the kernel's _IOC layout and the sizes of the UAPI
# structures, apart from the sandbox's list.
# usage: spaceioctls.sh MARKER TESTBOT
python3 - "$(dirname "$0")" >&2 <<'PY'
import errno, fcntl, os, sys

def ioc(direction, kind, number, size):
    return (direction << 30) | (size << 16) | (kind << 8) | number

READ, READ_WRITE = 2, 3
commands = [
    ("FS_IOC_GETFSMAP", ioc(READ_WRITE, ord("X"), 59, 192)),
    ("XFS_IOC_AG_GEOMETRY", ioc(READ_WRITE, ord("X"), 61, 128)),
    ("XFS_IOC_FSCOUNTS", ioc(READ, ord("X"), 113, 32)),
    ("BTRFS_IOC_SPACE_INFO", ioc(READ_WRITE, 0x94, 20, 16)),
    ("BTRFS_IOC_DEV_INFO", ioc(READ_WRITE, 0x94, 30, 4096)),
]
fd = os.open(sys.argv[1], os.O_RDONLY)
for name, command in commands:
    buffer = bytearray(8192)
    if name == "FS_IOC_GETFSMAP":
        # fmh_count 4; the high key's device, flags, physical block,
        # owner, offset and length all ones (its reserved words zero):
        # the whole filesystem.
        buffer[8:12] = (4).to_bytes(4, "little")
        buffer[128:168] = b"\xff" * 40
    try:
        fcntl.ioctl(fd, command, buffer, True)
        print(f"ioctl {name}: answered")
    except OSError as e:
        print(f"ioctl {name}: {errno.errorcode.get(e.errno, e.errno)}")
PY
exec "$2" random --seed 21
