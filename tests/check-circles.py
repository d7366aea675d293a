#!/usr/bin/env python3
"""No file circles and no folder cycles in lib/ and cmd/ (issue 44).

A circle: files that call each other round (from the symbols each object
defines and uses, `nm` of build/normal/), or headers that include each other
round. A folder cycle: lib/ folders (and cmd/) that reach each other by calls
or includes. Prints each circle with the edges that make it, one per line;
exit 1 when there is any.
    tests/check-circles.py [BUILD_DIR]
"""
import collections
import glob
import os
import re
import subprocess
import sys

BUILD = sys.argv[1] if len(sys.argv) > 1 else 'build/normal'
SOURCES = sorted(glob.glob('lib/*/*.[ch]') + glob.glob('cmd/*.[ch]'))


def call_edges():
    """file -> {file: [symbols]} from the objects' defined and undefined symbols"""
    defs, uses = {}, {}
    for src in SOURCES:
        if not src.endswith('.c'):
            continue
        obj = os.path.join(BUILD, src[:-2] + '.o')
        if not os.path.exists(obj):
            sys.exit('check-circles: %s is not built (make gpu-trace first)' % obj)
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
        used = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in 'TDBRGSVW':
                defs[f[2]] = src
            elif len(f) == 2 and f[0] == 'U':
                used.add(f[1])
        uses[src] = used
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for src, used in uses.items():
        for sym in sorted(used):
            if sym in defs and defs[sym] != src:
                edges[src][defs[sym]].append(sym)
    return edges


def include_edges():
    """file -> {header: ['#include']} for our own headers"""
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for src in SOURCES:
        with open(src, encoding='utf-8') as f:
            for m in re.finditer(r'^#include "([^"]+)"', f.read(), re.M):
                inc = m.group(1)
                for cand in ('lib/' + inc, os.path.join(os.path.dirname(src), inc)):
                    if os.path.exists(cand) and cand != src:
                        edges[src][os.path.normpath(cand)].append('#include')
                        break
    return edges


def circles(edges):
    """strongly connected parts of more than one node (Tarjan, iterative)"""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = set(edges) | {w for v in edges for w in edges[v]}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                part = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    part.append(w)
                    if w == v:
                        break
                if len(part) > 1:
                    out.append(sorted(part))
    return out


def folder(path):
    return os.path.dirname(path)


def report(kind, edges):
    bad = 0
    for part in circles(edges):
        bad += 1
        print('%s circle: %s' % (kind, ' '.join(part)))
        members = set(part)
        for v in part:
            for w, why in sorted(edges.get(v, {}).items()):
                if w in members:
                    print('    %s -> %s (%s)' % (v, w, ', '.join(why[:4])))
    return bad


def main():
    calls, incs = call_edges(), include_edges()
    folders = collections.defaultdict(lambda: collections.defaultdict(list))
    for edges in (calls, incs):
        for v in edges:
            for w, why in edges[v].items():
                if folder(v) != folder(w):
                    folders[folder(v)][folder(w)].append('%s -> %s' % (v, w))
    bad = report('call', calls) + report('include', incs) + report('folder', folders)
    sys.exit(1 if bad else 0)


main()
