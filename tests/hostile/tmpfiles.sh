#!/bin/sh
# Makes empty files in its scratch folder until it is refused (at most
# 100,000), as an outside attack did to make its `/tmp`'s teardown at
# exit cost the kernel a third of a second; says on stderr how many it
# made, then plays honest moves.
# usage: tmpfiles.sh MARKER TESTBOT
python3 - <<'PY' >&2
import os
folder = os.path.join(os.environ["TMPDIR"], "many")
os.mkdir(folder)
made = 0
try:
    while made < 100_000:
        open(os.path.join(folder, str(made)), "w").close()
        made += 1
except OSError:
    pass
print(f"tmpfiles: made {made}", flush=True)
PY
exec "$2" random --seed 20
