#!/usr/bin/env python3
"""The driver's option table (pinpoint/session/options.c), through --dump-options.

  round-trip  every option of the table, given a value other than its
              default, comes back from the command line the driver makes
              of its options (the one --commits gives its sessions) as
              the same value: parse -> argv -> parse gives the same
              options, and that argv again.  Options of the process only
              (--commits, --bisect) stay out of it; actions and deprecated
              options store nothing.
  schema      the report's "options" holds one key per option of the table
              that changes a measurement, and doc/report.schema.json
              describes exactly those keys, with the table's types and
              choices.

Usage: check_options.py --pinpoint P --schema FILE SCENARIO
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import check, dump_options, fail, scenario_main  # noqa: E402

ARGS = None

BASE = ["--entry", "parse_doc", "--previous", "/builds/old one", "--current", "/builds/new"]
COMMAND = ["--", "./bench", "--input", "a file"]


def dump(args):
    return dump_options(ARGS.pinpoint, args)


def real_words(lo, hi, default):
    """Numbers in [lo, hi] other than @default, one with all 17 digits."""
    words = ["%.17g" % (lo + (hi - lo) / 3), "%.17g" % hi]
    if lo > 0:
        words.append("%.17g" % lo)
    return [w for w in words if default is None or float(w) != float(default)]


# What the other options' defaults leave of a range: --max-runs-per-comparison
# below --measurements is refused.
BOUNDS = {"measurements": (3, 3000), "max-runs-per-comparison": (10, 1000000)}


def values(row):
    """The ways to give @row other than its default: a list of lists of
    arguments (each list one command line's worth)."""
    name, kind, lo, hi, default = row["name"], row["type"], row["min"], row["max"], row["default"]
    opt = "--" + name
    if kind == "flag":
        return [[opt]]
    if kind == "int":
        lo, hi = max(int(lo), BOUNDS.get(name, (lo, hi))[0]), min(int(hi), BOUNDS.get(name, (lo, hi))[1])
        if default is None:  # a default the table describes in words (--build-jobs)
            return [[opt, str(v)] for v in sorted({lo, hi})]
        step = int(default) + 1 if int(default) < hi else int(default) - 1
        return [[opt, str(v)] for v in sorted({lo, hi, step}) if str(v) != default]
    if kind == "real":
        return [[opt, w] for w in real_words(lo, hi, default)]
    if kind == "off-real":
        return [[opt, "off"]] + [[opt, w] for w in real_words(lo, hi, default)]
    if kind == "percent":
        return [[opt, w] for w in ["97.3", "50"] + real_words(lo, hi, default)]
    if kind == "choice":
        # --runs duet given needs two CPUs free for it
        free = len(os.sched_getaffinity(0))
        return [[opt, c] for c in row["choices"] if c != default and (c != "duet" or free >= 2)] \
            + ([[opt, default]] if default != "duet" or free >= 2 else [])
    if kind == "string":
        return [[opt, "a value with spaces, 'quotes' and --dashes"], [opt + "=-starts-with-a-dash"]]
    if kind == "range":
        return [[opt, "v1.2..main"]]
    if kind == "executions":
        return [[opt, "all"], [opt, "1"], [opt, "123456"]]
    if kind == "auto-int":
        lo = max(int(lo), BOUNDS.get(name, (lo, hi))[0])
        return [[opt, "auto"], [opt, str(lo)], [opt, str(lo + 6)], [opt, str(int(hi))]]
    if kind == "cpu":
        cpus = sorted(os.sched_getaffinity(0))
        return [[opt, str(cpus[0])], [opt, ",".join(map(str, cpus))]]
    if kind == "seed":
        return [[opt, "0"], [opt, str(int(hi))]]
    if kind == "list":
        return [[opt, "emit*"], [opt, "emit*", opt, "[a-z]_* b"]]
    return []


def base_for(row):
    # --commits builds its own revisions, --model measures none, --baseline is
    # the previous revision: no --previous beside them
    return [a for a in BASE if a not in ("--previous", "/builds/old one")] \
        if row["name"] in ("commits", "model", "baseline") else BASE


def command_for(row):
    # --model runs no COMMAND
    return [] if row["name"] == "model" else COMMAND


def by_name(d):
    return {r["name"]: r for r in d["options"]}


def round_trip(given, rows_given):
    """Parse @given, give it back, parse that: the options must be the same."""
    d1 = dump(given)
    opts1 = by_name(d1)
    argv = d1["argv"]
    for name in rows_given:
        r = opts1[name]
        check(r["given"], "--%s: not marked given in %s" % (name, given))
        words = [a for a in argv if a == "--" + name or a.startswith("--%s=" % name)]
        if r["local"]:
            check(not words, "--%s is of this process only, and given back: %s" % (name, argv))
        elif r["value"] is not None:
            check(words, "--%s is missing from the command line given back: %s" % (name, argv))
    # --commits, left out, made --previous unneeded
    added = [] if any(a.startswith("--previous=") for a in argv) else ["--previous", "/p"]
    d2 = dump(added + argv)
    opts2 = by_name(d2)
    for name, r in opts1.items():
        if r["local"] or (added and name == "previous"):
            continue
        check(opts2[name]["value"] == r["value"],
              "--%s: %r, after the round trip %r (%s -> %s)" % (
                  name, r["value"], opts2[name]["value"], given, argv))
    if not added:
        check(d2["argv"] == argv, "the command line given back is not stable: %s, then %s"
              % (argv, d2["argv"]))
        check(d2["report"] == d1["report"], "the report's options differ after the round trip")
    return d1


def scenario_round_trip():
    defaults = by_name(dump(BASE + COMMAND))
    if len(defaults) < 30:
        fail("the table has %d options" % len(defaults))
    tried = set()
    for name, row in defaults.items():
        if row["type"] in ("action", "deprecated"):
            check(row["value"] is None, "--%s stores a value" % name)
            continue
        # --replay takes the options from a report: none goes with it (check_replay.py);
        # --changes reads a history: only --entry and --json go with it, and
        # --investigate goes with it (check_changes.py)
        if name in ("dump-options", "replay", "changes", "investigate"):
            continue
        words = values(row)
        check(words, "no value to try for --%s (%s)" % (name, row["type"]))
        for w in words:
            d = round_trip(base_for(row) + w + command_for(row), [name])
            got = by_name(d)[name]["value"]
            # every digit of a number reaches the options (percentages are kept as fractions)
            if row["type"] in ("real", "percent"):
                want = float(w[-1]) / (100 if row["type"] == "percent" else 1)
                check(got == want, "--%s %s: %r, not %r" % (name, w[-1], got, want))
            check(got != row["value"] or w[-1] == row["default"],
                  "--%s %s: still the default %r" % (name, " ".join(w[1:]), got))
            tried.add(name)
    # all at once, but for those that exclude another
    together, names = [], []
    for name, row in defaults.items():
        if name in ("commits", "model", "replay", "changes", "no-build", "verbose",
                    "dump-options", "investigate", "baseline", "build-only") or \
                row["type"] in ("action", "deprecated"):
            continue
        together += values(row)[0]
        names.append(name)
    d = round_trip(BASE + together + COMMAND, names)
    given_back = [a.split("=", 1)[0][2:] for a in d["argv"][:d["argv"].index("--")]]
    check(d["argv"][d["argv"].index("--"):] == COMMAND, "COMMAND given back as %s" % d["argv"])
    print("%d options round-trip, %d at once: %s" % (len(tried), len(names), " ".join(d["argv"])))
    local = {n for n, r in defaults.items() if r["local"]}
    check(sorted(set(given_back)) == sorted(set(names) - local),
          "given back: %s, given: %s" % (sorted(set(given_back)), sorted(names)))
    # nothing given: only what is not at its default comes back
    d = dump(BASE + COMMAND)
    check(d["argv"] == BASE_ARGV + COMMAND, "with no option given: %s" % d["argv"])


BASE_ARGV = ["--entry=parse_doc", "--previous=/builds/old one", "--current=/builds/new"]

# JSON Schema types of each kind of option, as the report records it.
SCHEMA_TYPES = {"int": {"integer"}, "executions": {"integer"}, "auto-int": {"integer"}, "real": {"number"},
                "off-real": {"number"},
                "percent": {"number"}, "string": {"string"}, "cpu": {"string", "null"},
                "seed": {"integer", "null"}, "list": {"array"}, "flag": {"boolean"}}


def scenario_schema():
    import jsonschema
    with open(ARGS.schema) as f:
        schema = json.load(f)
    opts = schema["properties"]["options"]
    d = dump(BASE + COMMAND)
    table = {r["report"]: r for r in d["options"] if r["report"]}
    keys = set(table) | {"command"}
    check(set(d["report"]) == keys, "the report's options %s, the table's %s"
          % (sorted(d["report"]), sorted(keys)))
    check(set(opts["properties"]) == keys,
          "the schema's options: missing %s, not in the table %s" % (
              sorted(keys - set(opts["properties"])), sorted(set(opts["properties"]) - keys)))
    check(set(opts["required"]) == keys, "the schema requires %s" % sorted(opts["required"]))
    check(opts.get("additionalProperties") is False, "the schema allows other options")
    for key, row in sorted(table.items()):
        prop = opts["properties"].get(key, {})
        if row["type"] == "choice":
            check(prop.get("enum") == row["choices"], "%s: the schema's choices %s, the "
                  "table's %s" % (key, prop.get("enum"), row["choices"]))
            continue
        types = prop.get("type")
        types = set(types if isinstance(types, list) else [types])
        want = SCHEMA_TYPES[row["type"]]
        check(want <= types, "%s (--%s, %s): the schema's type %s, not %s"
              % (key, row["name"], row["type"], sorted(types), sorted(want)))
    # what the report records of some options validates against the schema
    sub = dict(opts, **{"$schema": schema["$schema"]})
    for extra in ([], ["--label", "nightly 12"], ["--seed", "7", "--cpu", str(min(os.sched_getaffinity(0))), "--exclude",
                       "a*", "--timing", "all", "--test", "welch", "--executions", "all"]):
        rep = dump(BASE + extra + COMMAND)["report"]
        try:
            jsonschema.validate(rep, sub)
        except jsonschema.ValidationError as e:
            check(False, "the report's options %s do not match the schema: %s" % (extra, e.message))
    print("%d options in the report, as the schema describes them" % len(keys))


def main():
    # the options' defaults as built, not the suite's (test/CMakeLists.txt sets
    # PINPOINT_SPOILED_ROUNDS for every scenario)
    os.environ.pop("PINPOINT_SPOILED_ROUNDS", None)
    ap = argparse.ArgumentParser()
    ap.add_argument("--pinpoint", required=True)
    ap.add_argument("--schema", required=True)
    scenario_main(ap, globals())


if __name__ == "__main__":
    main()
