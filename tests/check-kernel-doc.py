#!/usr/bin/env python3
# Every function a lib/ header exports carries a kernel-doc comment right above
# it: "/** name - what */", as libtracefs's headers do. Prints the ones that
# do not, as FILE:LINE name; exits 1 when there are any.
import glob
import os
import re
import sys

DECL = re.compile(r'^(?:static inline |extern )?(?:[A-Za-z_]\w*[\s*]+)+(\w+)\((?!\*)')


def doc_names(lines, i):
    """The names the kernel-doc block ending right above line i documents."""
    j = i - 1
    if j < 0 or not lines[j].rstrip().endswith('*/'):
        return set()
    k = j
    while k >= 0 and not lines[k].lstrip().startswith('/*'):
        k -= 1
    if k < 0 or not lines[k].lstrip().startswith('/**'):
        return set()
    text = '\n'.join(lines[k:j + 1])
    return set(re.findall(r'(?:/\*\*|^ \*)\s*(\w+) - ', text, re.M))


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    missing = []
    for h in sorted(glob.glob(os.path.join(root, 'lib', '*', '*.h'))):
        lines = open(h).read().split('\n')
        for i, line in enumerate(lines):
            if line.startswith(('typedef', '#', 'static ')) and not line.startswith('static inline'):
                continue
            m = DECL.match(line)
            if m and m.group(1) not in doc_names(lines, i):
                missing.append('%s:%d %s' % (os.path.relpath(h, root), i + 1, m.group(1)))
    for m in missing:
        print(m)
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
