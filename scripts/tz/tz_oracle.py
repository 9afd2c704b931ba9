#!/usr/bin/env python3
"""Oracle for Herald's time zone answers: Python's zoneinfo reading the same OS tz database.

  tz_oracle.py probes [--zoneinfo DIR]          print probe lines with the expected answers (TSV)
  tz_oracle.py run --herald BIN [--engine E]    build Herald's ICU data into a temp folder, pipe the probes through
                                                `herald tzdata check` with ICU_TIMEZONE_FILES_DIR set, exit non-zero
                                                on any mismatch

Probe lines (tab-separated, expected answer last) are the format `herald tzdata check` reads:
  known ZONE 1|0
  offset ZONE UNIX OFFSET_SECONDS
  transitions ZONE FROM TO T1,T2,...|-
  local ZONE YYYY-MM-DDTHH:MM:SS UNIX      (skipped -> end of the gap; repeated -> first occurrence)
"""
import argparse
import datetime as dt
import hashlib
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import zoneinfo

START = int(dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc).timestamp())
END = int(dt.datetime(2038, 1, 1, tzinfo=dt.timezone.utc).timestamp()) - 1
INSTANTS_PER_ZONE = 300
SCAN_STEP = 86400  # no zone has two offset changes within one day in 2020-2037
UNKNOWN_IDS = ["Factory", "Etc/Unknown", "Mars/Olympus_Mons", "America/new_york", "GMT+5", "EST5", "localtime",
               "posixrules", "../etc/passwd", "Europe/Berlin "]


def zone_names(zoneinfo_dir):
    names = []
    with open(os.path.join(zoneinfo_dir, "tzdata.zi"), encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 2 and fields[0] == "Z":
                names.append(fields[1])
            elif len(fields) >= 3 and fields[0] == "L":
                names.append(fields[2])
    # "Factory" means "zone unknown"; Herald rejects it like Etc/Unknown.
    return sorted(n for n in names if n != "Factory")


def offset(zone, t):
    return int(dt.datetime.fromtimestamp(t, zone).utcoffset().total_seconds())


def transitions(zone):
    """Every offset change in [START, END]: a daily scan, then bisection to the second."""
    result = []
    t = START - 1
    prev = offset(zone, t)
    while t < END:
        nxt = min(t + SCAN_STEP, END)
        cur = offset(zone, nxt)
        if cur != prev:
            lo, hi = t, nxt  # offset(lo) == prev, offset(hi) == cur
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if offset(zone, mid) == prev:
                    lo = mid
                else:
                    hi = mid
            result.append((hi, prev, cur))
        prev, t = cur, nxt
    return result


def fmt_local(seconds):
    d = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=seconds)
    return d.strftime("%Y-%m-%dT%H:%M:%S")


def resolve(zone, local_seconds, changes):
    """Herald's policy: first occurrence of a repeated time; the transition instant for a skipped one."""
    naive = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=local_seconds)
    first = int(naive.replace(tzinfo=zone, fold=0).timestamp())
    back = dt.datetime.fromtimestamp(first, zone).replace(tzinfo=None)
    if back == naive:
        return first
    for at, before, after in changes:
        if at + before <= local_seconds < at + after:
            return at
    raise RuntimeError(f"gap without a transition: {zone.key} {naive}")


def zone_probes(name):
    """Probe lines of one zone, the zone field left as "{}" (byte-identical TZif files share them)."""
    zone = zoneinfo.ZoneInfo(name)
    out = []
    step = (END - START) // INSTANTS_PER_ZONE + 7  # odd step: instants fall at all times of day
    for t in range(START, END, step):
        out.append(f"offset\t{{}}\t{t}\t{offset(zone, t)}")
    changes = transitions(zone)
    listed = ",".join(str(at) for at, _, _ in changes) or "-"
    out.append(f"transitions\t{{}}\t{START}\t{END}\t{listed}")
    for at, before, after in changes:
        for t in (at - 1, at, at + 1):
            out.append(f"offset\t{{}}\t{t}\t{offset(zone, t)}")
        low, high = at + min(before, after), at + max(before, after)
        local = set(range(low - 7200, high + 7200, 900)) | {low - 1, low, (low + high) // 2, high - 1, high}
        for seconds in sorted(local):
            out.append(f"local\t{{}}\t{fmt_local(seconds)}\t{resolve(zone, seconds, changes)}")
    # Ordinary wall times: noon and early morning on scattered days.
    for day in range(START // 86400, END // 86400, 97):
        for clock in (2 * 3600 + 1800, 12 * 3600):
            seconds = day * 86400 + clock
            out.append(f"local\t{{}}\t{fmt_local(seconds)}\t{resolve(zone, seconds, changes)}")
    return out


def _init_worker(zoneinfo_dir):
    zoneinfo.reset_tzpath([zoneinfo_dir])


def probes(zoneinfo_dir):
    names = zone_names(zoneinfo_dir)
    available = zoneinfo.available_timezones() - {"localtime", "Factory"}
    missing = available - set(names)
    if missing:
        raise SystemExit(f"zones known to Python but not listed in tzdata.zi: {sorted(missing)[:10]}")
    by_content = {}
    for name in names:
        with open(os.path.join(zoneinfo_dir, name), "rb") as f:
            by_content.setdefault(hashlib.sha256(f.read()).hexdigest(), []).append(name)
    groups = list(by_content.values())
    pool = multiprocessing.Pool(os.cpu_count(), initializer=_init_worker, initargs=(zoneinfo_dir,))
    try:
        results = pool.map(zone_probes, [group[0] for group in groups], chunksize=4)
    finally:
        pool.close()
        pool.join()
    out = [f"known\t{bad}\t0" for bad in UNKNOWN_IDS]
    for group, lines in zip(groups, results):
        for name in group:
            out.append(f"known\t{name}\t1")
            out.extend(line.replace("{}", name, 1) for line in lines)
    return out


def run(args):
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "icu-tz")
        subprocess.run([args.herald, "tzdata", "build", "--out", folder, "--zoneinfo", args.zoneinfo], check=True)
        env = dict(os.environ, ICU_TIMEZONE_FILES_DIR=folder)
        text = "\n".join(probes(args.zoneinfo)) + "\n"
        done = subprocess.run([args.herald, "tzdata", "check", "--engine", args.engine], input=text.encode(),
                              env=env, stdout=subprocess.PIPE)
        sys.stdout.write(done.stdout.decode())
        return done.returncode


def main():
    # A parent (e.g. a test runner thread) may have left signals blocked; the pool's workers must be stoppable.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["probes", "run"])
    parser.add_argument("--zoneinfo", default="/usr/share/zoneinfo")
    parser.add_argument("--herald")
    parser.add_argument("--engine", default="table", choices=["table", "icu"])
    args = parser.parse_args()
    zoneinfo.reset_tzpath([args.zoneinfo])
    if args.command == "probes":
        sys.stdout.write("\n".join(probes(args.zoneinfo)) + "\n")
        return 0
    if not args.herald:
        parser.error("run needs --herald")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
