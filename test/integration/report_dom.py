#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""report_dom.py: reads the DOM of a rendered scorep-report page (chromium --dump-dom) and
prints what test_report.sh asserts on, one fact a line (attribute values unescaped):
  status S | errors TEXT | flame NAME | top TYPE VISITS REGION | heatrows N
  matrix KIND FROM TO MESSAGES BYTES (non-zero cells) | bytes RANK METRIC VALUE
  timeline locations N intervals N messages N total INTERVALS MESSAGES | reduction TEXT
  focus NAME | flame-crumbs PATH (the zoomed frame and its path in the flame graph)
  io PARADIGM FILE READ_BYTES WRITE_BYTES READS WRITES FLUSHES FAILED ranks R... | io-chart
  waits TABLE CELL|CELL|... (a data row of a Wait states table, TABLE its id: waits-patterns,
  waits-causes, ...; non-breaking spaces as spaces) | waits-p ID TEXT (its paragraphs)
  waits taskgraph-table CELL|... (a row of the Task graph table) | tgnode red|plain (a task box
  of the task graph's drawing, red on the critical path)"""
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.facts = []
        self.stack = []  # (tag, attrs) of open elements whose text is collected
        self.text = {}
        self.heat_rows = 0
        self.in_heat = False
        self.waits_table = None  # id of the open Wait states table
        self.waits_row = None  # its open row's cells
        self.stack_svg = False  # inside the task graph's drawing

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag == "body":
            self.facts.append("status " + a.get("data-status", ""))
        if tag == "div" and "fg" in cls.split() and "anc" not in cls.split():
            self.facts.append("flame " + a.get("data-name", ""))
        if tag == "td" and cls == "mx":
            if a["data-messages"] != "0" or a["data-bytes"] != "0":
                self.facts.append("matrix %s %s %s %s %s" % (a["data-kind"], a["data-from"], a["data-to"],
                                                        a["data-messages"], a["data-bytes"]))
        if tag == "td" and "data-metric" in a:
            self.stack.append(("bytes", a))
            self.text[id(a)] = ""
        if tag == "div" and a.get("id") == "timeline-info" and "data-locations" in a:
            self.facts.append("timeline locations %s intervals %s messages %s total %s %s" % (
                a["data-locations"], a["data-intervals"], a["data-messages"],
                a["data-total-intervals"], a["data-total-messages"]))
        if tag == "rect" and self.stack_svg:
            self.facts.append("tgnode " + ("red" if a.get("stroke") == "red" else "plain"))
        if tag == "svg":
            self.stack_svg = a.get("id") == "taskgraph-svg"
        if tag == "table" and (a.get("id") or "").startswith(("waits-", "taskgraph-")):
            self.waits_table = a["id"]
        if tag == "tr" and self.waits_table:
            self.waits_row = []
        if tag == "td" and self.waits_row is not None:
            self.waits_row.append("")
        if tag == "p" and (a.get("id") or "").startswith("waits-"):
            self.stack.append(("waits-p", a))
            self.text[id(a)] = ""
        if tag == "table" and cls == "heat":
            self.in_heat = True
        if tag == "th" and cls == "loc" and self.in_heat:
            self.heat_rows += 1
        if tag == "tr" and cls == "region":
            self.stack.append(("top", a))
            self.text[id(a)] = []
        if tag == "td" and self.stack and self.stack[-1][0] == "top":
            self.text[id(self.stack[-1][1])].append("")
        if tag == "tr" and cls == "io-row":
            self.facts.append("io %s %s %s %s %s %s %s %s ranks %s" % (
                a["data-paradigm"], a["data-file"], a["data-read-bytes"], a["data-write-bytes"],
                a["data-reads"], a["data-writes"], a["data-flushes"], a["data-failed"],
                a["data-ranks"]))
        if tag == "canvas" and a.get("id") == "io-chart":
            self.facts.append("io-chart")
        if tag == "div" and a.get("id") == "flame-crumbs":
            self.facts.append("focus " + a.get("data-focus", ""))
        if tag in ("div", "p", "pre") and a.get("id") in ("errors", "reduction", "flame-crumbs"):
            self.stack.append((a["id"], a))
            self.text[id(a)] = ""

    def handle_data(self, data):
        if self.waits_row:
            self.waits_row[-1] += data.replace("\u00a0", " ")
            return
        if not self.stack:
            return
        kind, a = self.stack[-1]
        if kind == "top":
            cells = self.text[id(a)]
            if cells:
                cells[-1] += data
        else:
            self.text[id(a)] += data

    def handle_endtag(self, tag):
        if tag == "svg":
            self.stack_svg = False
        if tag == "tr" and self.waits_row is not None:
            if self.waits_row:
                self.facts.append("waits %s %s" % (self.waits_table, "|".join(self.waits_row)))
            self.waits_row = None
        if tag == "table":
            self.in_heat = False
            self.waits_table = None
        if not self.stack:
            return
        kind, a = self.stack[-1]
        closes = {"bytes": "td", "top": "tr", "errors": "div", "reduction": None,
                  "flame-crumbs": "div", "waits-p": "p"}
        if kind == "reduction" and tag in ("p", "pre") or closes.get(kind) == tag:
            self.stack.pop()
            t = self.text.pop(id(a))
            if kind == "bytes":
                self.facts.append("bytes %s %s %s" % (a["data-rank"], a["data-metric"], t))
            elif kind == "waits-p":
                self.facts.append("waits-p %s %s" % (a["id"], " ".join(t.split())))
            elif kind == "top":
                self.facts.append("top %s %s %s" % (t[0], t[1], t[5]))
            else:
                self.facts.append(kind + " " + " ".join(t.split()))


p = Page()
with open(sys.argv[1], encoding="utf-8") as f:
    p.feed(f.read())
p.facts.append("heatrows %d" % p.heat_rows)
print("\n".join(p.facts))
