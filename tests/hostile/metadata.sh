#!/bin/sh
# Tries to change files it can name but must not touch: PLANTED_DIR/NAME
# (a root-only file outside its folder, named by no argument: setuid and
# world-writable, a new mtime, an extended attribute), OTHER (the other bot's program: mode 000)
# and ABOURE (the arbiter's binary: mode 644, by its path and through
# /proc/1/exe); leaves a setuid copy of a shell in its scratch folder.
# Says on stderr how each went, then plays honest moves.
# usage: metadata.sh MARKER TESTBOT PLANTED_DIR NAME OTHER ABOURE
python3 - "$3/$4" "$5" "$6" >&2 <<'PY'
import os, shutil, sys
planted, other, aboure = sys.argv[1:4]
def attempt(name, change):
    try:
        change()
        print(f"{name}: done")
    except OSError as e:
        print(f"{name}: refused ({e.strerror})")
attempt("chmod planted", lambda: os.chmod(planted, 0o4777))
attempt("utime planted", lambda: os.utime(planted, (0, 0)))
attempt("xattr planted", lambda: os.setxattr(planted, "user.aboure", b"x"))
attempt("chmod other", lambda: os.chmod(other, 0))
attempt("chmod aboure", lambda: os.chmod(aboure, 0o644))
attempt("chmod init", lambda: os.chmod("/proc/1/exe", 0o644))
def setuid_copy():
    copy = os.path.join(os.environ.get("TMPDIR", "/tmp"), "sh")
    shutil.copyfile("/bin/sh", copy)
    os.chmod(copy, 0o4755)
attempt("setuid scratch", setuid_copy)
PY
exec "$2" random --seed 16
