# SPDX-License-Identifier: BSD-3-Clause
"""remap_rules.py: reads the classification lines of share/scorep.spec (one CubePL line per
category: "if ( CONDITION ) { ${MASK}[${i}] = 1; };" on the region's paradigm, role and name)
and evaluates them in Python, so that the tests (test_remap_spec.sh, test_cuda_remap.sh) can
check which categories a region lands in without running Cube's remapper."""
import re

LINE = re.compile(r"^ *if \( (.*) \) \{ \$\{([a-z0-9_]+)\}\[\$\{i\}\] = 1; \};$", re.M)
# a regular expression literal of CubePL: /.../ with escaped characters inside
REGEX = re.compile(r"(n\.lower\(\)|\bn|\br|\bp) =~ /((?:[^/\\]|\\.)*)/")


def compile_rule(cond):
    """CONDITION -> a function (paradigm, role, name) -> bool"""
    py = cond.replace("lowercase(${name})", "n.lower()").replace("${name}", "n")
    py = py.replace("${paradigm}", "p").replace("${role}", "r").replace(" eq ", " == ")
    py = REGEX.sub(r"bool(re.search(r'\2', \1))", py)
    return eval("lambda p, r, n: " + py, {"re": re})


def load(spec_path):
    """the spec's rules as [(mask, function)] in their order"""
    text = open(spec_path).read()
    return [(m, compile_rule(c)) for c, m in LINE.findall(text)]


def masks(rules, paradigm, role, name):
    """the masks (categories) a region with this paradigm, role and name is in"""
    return {m for m, f in rules if f(paradigm, role, name)}
