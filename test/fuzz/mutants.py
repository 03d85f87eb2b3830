#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""mutants.py: random mutants of a whole experiment directory through the readers (issue #29).

usage: mutants.py EXPDIR WORKDIR N SEED BINDIR [FIRST]

Mutant i (FIRST <= i < FIRST + N) is EXPDIR with one of its files (profile.cubex, the anchor
traces.otf2, the global definitions traces.def, a location's .def or .evt) damaged in one of
four ways: truncated, bytes flipped, a range zeroed, garbage appended. The choice comes from
random.Random(SEED * 100003 + i) alone, so a mutant is made again from the same experiment
with the same SEED and i. Each mutant goes through scorep-score, scorep-cube-dump,
scorep-otf2-to-chrome, scorep-report and `mpirun -np 2 scorep-analyze` (BINDIR holds them),
each with a 60 s limit and a 4 GiB address space. A run passes when it ends by itself with
status 0, or with another status and a message on stderr that names the experiment or the
damaged file; it fails on a hang (the limit), a signal, a sanitizer report, silence or a
message that names neither. Prints one line per failing run and a summary; the damaged
experiments of failing runs are kept in WORKDIR/keep-i. Exit status 1 when a run failed.
"""
import os
import random
import resource
import shutil
import subprocess
import sys

LIMIT_S = 60
LIMIT_AS = 4 << 30
FILES = ["profile.cubex", "traces.otf2", "traces.def", "traces/0.def", "traces/1.def",
         "traces/0.evt", "traces/1.evt"]
# the event files are where the readers used to hang: drawn more often
WEIGHTS = [3, 2, 2, 1, 1, 3, 4]
KINDS = ["truncate", "flip", "zero", "append"]
SANITIZER = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:", "LeakSanitizer")


def mutate(path, rng):
    """damages the file at PATH; returns a description"""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    kind = rng.choice(KINDS)
    n = len(data)
    if kind == "truncate" or n == 0:
        cut = rng.randint(0, max(n - 1, 0))
        del data[cut:]
        what = "truncated to %d of %d bytes (%.0f%%)" % (cut, n, 100.0 * cut / max(n, 1))
    elif kind == "flip":
        k = rng.randint(1, 8)
        offs = sorted(rng.randrange(n) for _ in range(k))
        for o in offs:
            data[o] ^= rng.randint(1, 255)
        what = "%d bytes flipped at %s" % (k, ",".join(map(str, offs)))
    elif kind == "zero":
        o = rng.randrange(n)
        ln = min(rng.randint(1, 4096), n - o)
        data[o:o + ln] = bytes(ln)
        what = "%d bytes zeroed at %d" % (ln, o)
    else:
        ln = rng.randint(1, 4096)
        data += bytes(rng.randrange(256) for _ in range(ln))
        what = "%d random bytes appended" % ln
    with open(path, "wb") as f:
        f.write(data)
    return what


def limits():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))


def run(cmd, cwd):
    """(verdict, status, stderr): verdict None when the run passes"""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=LIMIT_S, preexec_fn=limits)
    except subprocess.TimeoutExpired as e:
        return "hang", None, (e.stderr or b"").decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0 or p.returncode >= 128 or "on signal" in err:
        return "signal", p.returncode, err
    if any(s in err for s in SANITIZER):
        return "sanitizer", p.returncode, err
    if p.returncode == 0:
        return None, 0, err
    if not err.strip():
        return "silent", p.returncode, err
    return None, p.returncode, err


def tools_for(bins, m):
    """(tool, command) of the five readers on experiment M"""
    return [
        ("scorep-score", [bins["scorep-score"], os.path.join(m, "profile.cubex")]),
        ("scorep-cube-dump", [bins["scorep-cube-dump"], os.path.join(m, "profile.cubex")]),
        ("scorep-otf2-to-chrome",
         [bins["scorep-otf2-to-chrome"], "-o", os.path.join(m, "t.json"), m]),
        ("scorep-report", [bins["scorep-report"], "-o", os.path.join(m, "r.html"), m]),
        ("scorep-analyze", ["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", "2",
                            bins["scorep-analyze"], m]),
    ]


def main():
    expdir, workdir, n, seed, bindir = (os.path.abspath(a) if k != 2 and k != 3 else a
                                        for k, a in enumerate(sys.argv[1:6]))
    first = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    n, seed = int(n), int(seed)
    bins = {t: os.path.join(bindir, t) for t in
            ("scorep-score", "scorep-cube-dump", "scorep-otf2-to-chrome", "scorep-report",
             "scorep-analyze")}
    counts = {"runs": 0, "exit0": 0, "message": 0}
    bad = {}
    # the control: the experiment undamaged passes every reader with status 0 (else the
    # mutants' clean errors would prove nothing)
    m = os.path.join(workdir, "control")
    shutil.rmtree(m, ignore_errors=True)
    shutil.copytree(expdir, m)
    for tool, cmd in tools_for(bins, m):
        verdict, status, err = run(cmd, workdir)
        if verdict or status != 0:
            print("the undamaged experiment fails %s (status %s): %s" % (tool, status, err[:600]))
            return 1
    shutil.rmtree(m)
    for i in range(first, first + n):
        rng = random.Random(seed * 100003 + i)
        rel = rng.choices(FILES, WEIGHTS)[0]
        m = os.path.join(workdir, "m%d" % i)
        shutil.rmtree(m, ignore_errors=True)
        shutil.copytree(expdir, m)
        what = mutate(os.path.join(m, rel), rng)
        name = os.path.basename(rel)
        failed = False
        for tool, cmd in tools_for(bins, m):
            ("scorep-score", [bins["scorep-score"], os.path.join(m, "profile.cubex")]),
            ("scorep-cube-dump", [bins["scorep-cube-dump"], os.path.join(m, "profile.cubex")]),
            ("scorep-otf2-to-chrome",
             [bins["scorep-otf2-to-chrome"], "-o", os.path.join(m, "t.json"), m]),
            ("scorep-report", [bins["scorep-report"], "-o", os.path.join(m, "r.html"), m]),

            verdict, status, err = run(cmd, workdir)
            counts["runs"] += 1
            if verdict is None and status != 0 and m not in err and name not in err:
                verdict = "unclear"
            if verdict:
                failed = True
                bad[verdict] = bad.get(verdict, 0) + 1
                first_line = err.strip().split("\n")[0][:300] if err.strip() else ""
                print("FAILED mutant %d (%s: %s): %s: %s (status %s) %s" %
                      (i, rel, what, tool, verdict, status, first_line))
            elif status == 0:
                counts["exit0"] += 1
            else:
                counts["message"] += 1
        if failed:
            shutil.rmtree(os.path.join(workdir, "keep-%d" % i), ignore_errors=True)
            os.rename(m, os.path.join(workdir, "keep-%d" % i))
        else:
            shutil.rmtree(m)
        print("mutant %d: %s %s" % (i, rel, what), flush=True)
    print("mutants=%d runs=%d exit0=%d clean_errors=%d hang=%d signal=%d sanitizer=%d "
          "silent=%d unclear=%d" % (n, counts["runs"], counts["exit0"], counts["message"],
                                   bad.get("hang", 0), bad.get("signal", 0),
                                   bad.get("sanitizer", 0), bad.get("silent", 0),
                                   bad.get("unclear", 0)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
