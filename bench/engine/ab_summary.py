#!/usr/bin/env python3
"""Summary of bench/engine/ab_static.sh output (stdin): per model and thread
count, the median over rounds of each build's best pass median (openacl and
ORT), B/A for openacl, ORT's B-run/A-run ratio (the same ORT in both runs:
how much the machine moved between them), and B/A of the best round (the
minimum over rounds: interference only ever adds time). Prints a markdown
table."""
import re
import statistics
import sys

pat = re.compile(r'^([AB]) (\d+) RESULT (\S+)\.om threads (\d+): openacl ([\d.]+) ms, ONNX Runtime ([\d.]+) ms')
rows = {}
order = []
for line in sys.stdin:
    m = pat.match(line)
    if not m:
        continue
    b, _, name, t, ours, ort = m.groups()
    key = (name, int(t))
    if key not in rows:
        rows[key] = {'A': ([], []), 'B': ([], [])}
        order.append(key)
    rows[key][b][0].append(float(ours))
    rows[key][b][1].append(float(ort))
print('| model | threads | rounds | A openacl ms | B openacl ms | B/A | A ORT ms | B ORT ms | ORT B/A | A best | B best | best B/A |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for key in order:
    a, b = rows[key]['A'], rows[key]['B']
    if not a[0] or not b[0]:
        continue
    ao, bo = statistics.median(a[0]), statistics.median(b[0])
    ar, br = statistics.median(a[1]), statistics.median(b[1])
    print(f'| {key[0]} | {key[1]} | {min(len(a[0]), len(b[0]))} | {ao:.3f} | {bo:.3f} | {bo / ao:.3f} | '
          f'{ar:.3f} | {br:.3f} | {br / ar:.3f} | {min(a[0]):.3f} | {min(b[0]):.3f} | {min(b[0]) / min(a[0]):.3f} |')
