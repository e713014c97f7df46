#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run-to-run noise of real runs, for bench-seq's empirical noise model.

Reads pinpoint JSON reports (--json) and prints the entry's previous-revision
run times (comparisons[0].previous_ns) of every report, each report's values
less their own mean, all divided by the pooled standard deviation (sum of
squares over N - reports), so that the values have mean 0 and sd 1 and keep
the shape of the runs: skew, outliers, drift within a session.  A session's
own level is taken out because a comparison sees only the spread about it.

bench/seq_noise.txt was made on this project's 2-core VM type, from the top
of a build (cmake -S . -B build && cmake --build build -j2), with:

    cd build/demo/current
    for i in $(seq 24); do
      ../../pinpoint/pinpoint --entry run --depth 0 --executions auto \\
        --previous ../previous --json /tmp/seqnoise/demo$i.json -q -- ./demo
    done
    cp -r ../previous /tmp/seqnoise/aacur && cd /tmp/seqnoise/aacur
    for i in 1 2; do
      $BUILD/pinpoint/pinpoint --entry run --depth 0 --executions auto \\
        --previous $BUILD/demo/previous --json /tmp/seqnoise/aa$i.json -q -- ./demo
    done
    python3 bench/seq_noise.py /tmp/seqnoise/*.json > bench/seq_noise.txt

(the demo's sessions decide at their first look, 10 runs per revision; the
two sessions of the previous revision against a copy of itself run until
their budget, 3000 runs per revision).
"""
import json
import math
import sys


def main(paths):
    series = []
    for p in sorted(paths):
        with open(p) as f:
            v = json.load(f)["comparisons"][0]["previous_ns"]
        if len(v) >= 2:
            series.append((p, v))
    if not series:
        sys.exit("seq_noise.py: no report with two or more runs")
    centred = []
    for _, v in series:
        m = math.fsum(v) / len(v)
        centred.extend(x - m for x in v)
    sd = math.sqrt(math.fsum(c * c for c in centred) / (len(centred) - len(series)))
    print("# run-to-run noise of the demo's entry, standardised: bench/seq_noise.py")
    print("# %d runs from %d reports: %s" % (
        len(centred), len(series),
        ", ".join("%s (%d)" % (p.rsplit("/", 1)[-1], len(v)) for p, v in series)))
    print("# pooled sd %.4g ns; CoV %.2f%% of the mean run" % (
        sd, 100.0 * sd / (math.fsum(math.fsum(v) for _, v in series)
                          / sum(len(v) for _, v in series))))
    for c in centred:
        print("%.4g" % (c / sd))


if __name__ == "__main__":
    main(sys.argv[1:])
