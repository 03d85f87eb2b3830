# SPDX-License-Identifier: BSD-3-Clause
# otf2_remap_ids.py: copies an OTF2 trace with OTF2's own reader and writer (python3-otf2),
# giving its locations other ids, so that the readers can be checked on numberings other than
# the one our writer uses (test_analysis_location_ids.sh). OTF2 allows any uint64 but
# OTF2_UNDEFINED_LOCATION as a location id.
#
#   otf2_remap_ids.py IN/traces.otf2 OUTDIR SCHEME
#
# SCHEME (a location's id in IN is LOCAL << 32 | RANK, as Score-P's and ours since session 25):
#   same     the ids kept (the copy alone)
#   dense      LOCAL x RANKS + RANK: our writer's numbering before session 25
#   rankmajor  RANK x 65536 + LOCAL: a process's locations in a block (ids that fit neither
#              numbering above, some of them either formula by chance)
#   scatter    a bijection that keeps no order of ranks or threads (multiplication by an odd
#              constant mod 2^64, plus one): most ids far above 2^53
# Prints "OLD NEW" per location, in definition order. Markers (trace reduction) are not
# copied: python3-otf2 has no marker reader; the test's runs write none.
import sys

import otf2
from otf2.definition_writer import DefinitionWriter
from otf2.enums import LocationGroupType

MASK64 = (1 << 64) - 1


class KeepClock(otf2.writer.Writer):
    """OTF2's writer takes the clock's offset and length from the events it wrote and the
    realtime from the wall clock: the copy keeps the original's clock properties instead."""

    def __init__(self, path, clock, **kw):
        super().__init__(path, **kw)
        self._clock = clock

    def _write_global_definitions(self):
        c = self._clock
        with DefinitionWriter(self) as w:
            w.write_clock_properties(c.timer_resolution, c.global_offset, c.trace_length,
                                     c.realtime_timestamp)
            self.definitions.write(w)


def new_id(scheme, old, ranks):
    local, rank = old >> 32, old & 0xFFFFFFFF
    if scheme == "same":
        return old
    if scheme == "dense":
        return local * ranks + rank
    if scheme == "rankmajor":
        return rank * 65536 + local
    if scheme == "scatter":
        return (old * 0x9E3779B97F4A7C15 + 1) & MASK64
    sys.exit("otf2_remap_ids.py: unknown scheme %s (same, dense, rankmajor, scatter)" % scheme)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: otf2_remap_ids.py IN/traces.otf2 OUTDIR same|dense|rankmajor|scatter")
    src, out, scheme = sys.argv[1:]
    # two readers: the first one's definitions get the new ids and are written, the second
    # reads the events by the old ids (the reader selects locations by their definitions' ids)
    with otf2.reader.open(src) as trace, otf2.reader.open(src) as events:
        defs = trace.definitions
        ranks = sum(1 for g in defs.location_groups
                    if g.location_group_type == LocationGroupType.PROCESS)
        reg = defs._locations  # the registry keyed by id: rebuilt with the new ids
        locs = [l for l in reg]
        seen = set()
        for l in locs:
            if l._ref >> 32 >= 1 << 31 or (l._ref & 0xFFFFFFFF) >= ranks:
                sys.exit("otf2_remap_ids.py: location %d is not LOCAL << 32 | RANK" % l._ref)
            n = new_id(scheme, l._ref, ranks)
            if n == MASK64 or n in seen:
                sys.exit("otf2_remap_ids.py: %s gives location %d the id %d twice or undefined"
                         % (scheme, l._ref, n))
            seen.add(n)
            print(l._ref, n)
            l._ref = n
        undefined = next(iter(reg._elements_by_ref))
        reg._elements_by_ref.clear()
        reg._elements_by_ref[undefined] = None
        for l in locs:
            reg._elements_by_ref[l._ref] = l
        by_old = {o._ref: n for o, n in zip(events.definitions.locations, locs)}
        w = KeepClock(out, defs.clock_properties, definitions=defs)
        try:
            for location, event in events.events:
                w.event_writer_from_location(by_old[location._ref])(event)
        finally:
            w.close()


if __name__ == "__main__":
    main()
