#!/usr/bin/env python3
"""Independent oracle for campaign wave instants, from the OS tz database through Python's zoneinfo.

usage: campaign_oracle.py YYYY-MM-DD HH:MM [ZONE ...]
Prints one line per zone (every zone zoneinfo knows when none are given): `zone<TAB>epoch seconds`.

Herald's DST policy, computed here explicitly rather than through datetime's fold rules:
  - a local time that occurs once maps to that instant;
  - a local time that occurs twice (fall-back overlap) maps to its first occurrence;
  - a local time that never occurs (spring-forward gap) maps to the first valid instant after the gap, i.e. the
    transition instant itself.
"""
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, available_timezones

UTC = timezone.utc


def local_wall(instant, zone):
    """The naive local wall time at a UTC epoch second."""
    return datetime.fromtimestamp(instant, UTC).astimezone(zone).replace(tzinfo=None)


def resolve(wall, zone):
    """The epoch second of a naive local wall time in `zone`, by the policy above."""
    naive_epoch = int((wall - datetime(1970, 1, 1)).total_seconds())
    # Every offset in effect within a day of the wall time: a candidate is valid when the offset really applies.
    offsets = set()
    for hours in range(-36, 37, 1):
        probe = naive_epoch + hours * 3600
        offsets.add(int(datetime.fromtimestamp(probe, UTC).astimezone(zone).utcoffset().total_seconds()))
    valid = sorted(naive_epoch - offset for offset in offsets if local_wall(naive_epoch - offset, zone) == wall)
    if valid:
        return valid[0]
    # A gap: the first instant whose local wall time is later than the wall time asked for.
    low = naive_epoch - max(offsets)
    high = naive_epoch - min(offsets)
    while local_wall(low, zone) > wall:
        low -= 3600
    while local_wall(high, zone) <= wall:
        high += 3600
    while high - low > 1:
        middle = (low + high) // 2
        if local_wall(middle, zone) > wall:
            high = middle
        else:
            low = middle
    return high


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    date = datetime.strptime(sys.argv[1], "%Y-%m-%d")
    hour, minute = (int(part) for part in sys.argv[2].split(":"))
    wall = date + timedelta(hours=hour, minutes=minute)
    names = sys.argv[3:] or sorted(available_timezones())
    for name in names:
        try:
            zone = ZoneInfo(name)
        except Exception:
            continue
        print(f"{name}\t{resolve(wall, zone)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
