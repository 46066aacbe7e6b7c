#!/bin/sh
# Opens a socket of each family and binds a vsock port, reporting each on
# stderr as `families: NAME ok` or `families: NAME refused ERRNO` (needs
# python3), then plays honest moves.
# usage: families.sh MARKER TESTBOT VSOCK_PORT
python3 -c '
import errno, socket, sys
port = int(sys.argv[1])
families = [("unix", 1, socket.SOCK_STREAM), ("inet", 2, socket.SOCK_STREAM),
            ("inet6", 10, socket.SOCK_STREAM), ("netlink", 16, socket.SOCK_RAW),
            ("packet", 17, socket.SOCK_RAW), ("bluetooth", 31, socket.SOCK_STREAM),
            ("alg", 38, socket.SOCK_SEQPACKET), ("vsock", 40, socket.SOCK_STREAM)]
for name, family, kind in families:
    try:
        s = socket.socket(family, kind)
        if name == "vsock":
            s.bind((0xFFFFFFFF, port))
            s.listen(1)
        print(f"families: {name} ok", file=sys.stderr)
    except OSError as e:
        print(f"families: {name} refused {errno.errorcode.get(e.errno, e.errno)}", file=sys.stderr)
try:
    a, b = socket.socketpair(16, socket.SOCK_RAW)
    print("families: netlink pair ok", file=sys.stderr)
except OSError as e:
    print(f"families: netlink pair refused {errno.errorcode.get(e.errno, e.errno)}", file=sys.stderr)
' "$3"
exec "$2" random --seed 21
