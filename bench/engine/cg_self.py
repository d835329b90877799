#!/usr/bin/env python3
"""Self cost (Ir) per function of one callgrind dump, summed over the
functions whose name matches a regular expression.
   cg_self.py DUMP REGEX   -> prints total Ir of the dump and the matched sum"""
import collections
import re
import sys


def self_costs(path):
    names, cost = {}, collections.Counter()
    cur, skip_next = None, False
    for line in open(path):
        line = line.rstrip('\n')
        m = re.match(r'^fn=\((\d+)\)(?: (.*))?$', line)
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            cur, skip_next = names.get(m.group(1), m.group(1)), False
            continue
        m = re.match(r'^cfn=\((\d+)\)(?: (.*))?$', line)
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            continue
        if line.startswith('calls='):
            skip_next = True  # the next cost line is the call's inclusive cost, not self cost
            continue
        m = re.match(r'^(?:[+-]?\d+|\*)\s+(\d+)', line)
        if m and cur is not None:
            if skip_next:
                skip_next = False
                continue
            cost[cur] += int(m.group(1))
    return cost


c = self_costs(sys.argv[1])
pat = re.compile(sys.argv[2])
print(sum(c.values()), sum(v for k, v in c.items() if pat.search(k)))
