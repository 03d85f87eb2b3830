#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""serve_dom.py: checks a page of `scorep-report --serve` as Chromium rendered it (--dump-dom)
against CubeLib's values (a sample's incl.csv / excl.csv, summed over its locations):
  serve_dom.py tree DOM INCL_CSV EXCL_CSV METRIC  -> prints "open C HREF" for the first
      closed call path with children (HREF: the page's link that opens it), "shown N", checks every shown call path's inclusive and
      exclusive value
  serve_dom.py locations DOM INCL_CSV EXCL_CSV METRIC CNODE -> checks every location's values
Exit status 1 on a mismatch (relative error above 1e-5: the CSVs keep 6 digits)."""
import csv
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.status, self.cnodes, self.locs, self.toggles = None, [], [], {}
        self.last = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.status = a.get("data-status")
        if tag == "li" and a.get("class") == "cnode":
            self.cnodes.append(a)
            self.last = a["data-cnode"]
        if tag == "a" and a.get("class") == "toggle" and self.last is not None:
            self.toggles[self.last] = a["href"]
        if tag == "tr" and a.get("class") == "loc":
            self.locs.append(a)


def table(path, metric):
    rows = {}
    with open(path) as f:
        r = csv.reader(f)
        head = [h.strip() for h in next(r)]
        col = head.index(metric)
        for row in r:
            rows[(int(row[0]), int(row[1]))] = float(row[col])
    return rows


def close(got, want):
    return abs(got - want) <= 1e-5 * max(abs(want), 1e-9) + 1e-12


def main():
    mode, dom_path, incl_csv, excl_csv, metric = sys.argv[1:6]
    d = Dom()
    d.feed(open(dom_path).read())
    incl, excl = table(incl_csv, metric), table(excl_csv, metric)
    bad = 0 if d.status == "ok" else 1
    if mode == "tree":
        for a in d.cnodes:
            c = int(a["data-cnode"])
            wi = sum(v for (k, _), v in incl.items() if k == c)
            we = sum(v for (k, _), v in excl.items() if k == c)
            if not close(float(a["data-incl"]), wi) or not close(float(a["data-excl"]), we):
                bad += 1
                print("cnode %d %s: incl %s excl %s, CubeLib %r %r" % (
                    c, a["data-name"], a["data-incl"], a["data-excl"], wi, we))
        print("shown %d" % len(d.cnodes))
        closed = [a for a in d.cnodes if a["data-open"] == "0" and a["data-children"] != "0"]
        if closed:  # the page's own link that opens it
            c = closed[0]["data-cnode"]
            print("open %s %s" % (c, d.toggles[c]))
    else:
        c = int(sys.argv[6])
        for a in d.locs:
            l = int(a["data-location"])
            if not close(float(a["data-incl"]), incl[(c, l)]) or not close(float(a["data-excl"]), excl[(c, l)]):
                bad += 1
                print("location %d: %s %s, CubeLib %r %r" % (l, a["data-incl"], a["data-excl"],
                                                            incl[(c, l)], excl[(c, l)]))
        print("locations %d" % len(d.locs))
    return 1 if bad else 0


sys.exit(main())
