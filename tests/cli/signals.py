#!/usr/bin/python3
"""Interrupt `loopscale simulate -o FILE` in the middle of writing a big
sweep with every catchable signal whose default action ends a process,
plain and gzip: each must die by that very signal (a shell reports 128 +
its number), leave no temporary file and the old FILE as it was.  Prints
one line per case.  Run in an empty directory with loopscale on
PATH and TRUTH naming a law file.

The sweep is made in memory and written when it is complete (the library
hands its files over; they are written all at once at the end), so the
signal comes while that write, its sync or its compression runs: about
0.05 s plain and 0.3 s gzip here, which polling every 2 ms sees."""
import os
import resource
import signal
import subprocess
import sys
import time

# 400 x 400 runs: about 12 MB of CSV, made in about half a second.
values = ",".join("%d" % (100_000_000 + 1_000_000 * i) for i in range(400))
status = 0
NAMES = ("INT", "TERM", "HUP", "QUIT", "PIPE", "ALRM", "USR1", "USR2", "XCPU", "VTALRM", "PROF")


def no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGQUIT and SIGXCPU dump core


for name in NAMES:
    sig = getattr(signal, "SIG" + name)
    for dest in ("sweep.csv", "sweep.csv.gz"):
        with open(dest, "w") as f:
            f.write("precious\n")
        p = subprocess.Popen(["loopscale", "simulate", "--law", os.environ["TRUTH"], "--n-act", values,
                              "--tokens", values, "-o", dest], preexec_fn=no_core)
        # Wait until the temporary file holds some data.
        deadline = time.time() + 30
        while time.time() < deadline:
            tmp = [f for f in os.listdir(".") if f.startswith(dest + ".tmp.")]
            if tmp and os.path.getsize(tmp[0]) > 16384:
                break
            time.sleep(0.002)
        p.send_signal(sig)
        code = p.wait()
        left = sorted(f for f in os.listdir(".") if ".tmp." in f)
        kept = open(dest).read() == "precious\n"
        ok = tmp and code == -sig and not left and kept
        status |= not ok
        print("SIG%s %s: %s, %s, temporary files left: %d, %s" %
              (name, dest, "written to a temporary file" if tmp else "NO TEMPORARY FILE SEEN",
               "killed by SIG%s" % name if code == -sig else "EXIT STATUS %d" % code, len(left),
               "old file kept" if kept else "OLD FILE CHANGED"))
        for f in left:
            os.remove(f)
sys.exit(status)
