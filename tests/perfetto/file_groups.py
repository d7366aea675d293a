# SPDX-License-Identifier: GPL-2.0
"""The group names report --format perfetto gives several files (as
lib/output/report-perfetto.c's group_name): the fewest trailing parts of each
path that no other input ends in."""


def tail(path, n):
    parts = path.split("/")
    return "/".join(parts[-n:]) if n < len(parts) else path


def group_names(paths):
    names = []
    for i, mine in enumerate(paths):
        n = 1
        while True:
            t = tail(mine, n)
            if t == mine or all(tail(p, n) != t for j, p in enumerate(paths) if j != i):
                names.append(t)
                break
            n += 1
    return names
