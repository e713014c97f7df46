#!/bin/sh
# nightly.sh - one night of a nightly job: build tonight's sources, measure
# them against the accepted build, append the night to the history, then look
# for change points over all the nights and run each new slower one through
# --commits to its commit and call.
#
#   nightly.sh SRC ACCEPTED HISTORY [COMMAND [ARGS...]]
#
# SRC is a git checkout of tonight's sources; ACCEPTED a build directory of
# the accepted revision (configured and built the usual way, kept from night
# to night); HISTORY the --history file (JSON lines, kept from night to night,
# on one machine or shared).  COMMAND runs in the build directory (default
# ./bench input.json).  Environment: ENTRY (default parse_doc), WORK (where
# tonight's build and reports go, default $HOME/pinpoint-nightly), LABEL (the
# night's name in the history, default the commit), PINPOINT (default
# pinpoint), CMAKE_ARGS (more arguments for configuring tonight's build).
#
# Exit status: that of pinpoint --changes --investigate: 0 nothing new,
# 1 a new slower change point, investigated (its commit and call printed and
# in the history; the job goes red), 3 it could not be built or measured,
# 4 undecided; or the night's own status when it failed (2, 3, 130).
set -eu
if [ $# -lt 3 ]; then
	echo "usage: nightly.sh SRC ACCEPTED HISTORY [COMMAND [ARGS...]]" >&2
	exit 2
fi
src=$(cd "$1" && pwd)
accepted=$2
history=$3
shift 3
[ $# -gt 0 ] || set -- ./bench input.json
work=${WORK:-$HOME/pinpoint-nightly}
pinpoint=${PINPOINT:-pinpoint}
entry=${ENTRY:-parse_doc}
label=${LABEL:-$(git -C "$src" rev-parse --short=12 HEAD)}
mkdir -p "$work"

# Tonight's build, the way the project is built: the same directory every
# night, so that pinpoint's instrumented copy of it is rebuilt incrementally.
# shellcheck disable=SC2086 # CMAKE_ARGS is a list of words
cmake -S "$src" -B "$work/build" ${CMAKE_ARGS:-} >"$work/configure.log"
cmake --build "$work/build" --parallel >"$work/build.log"

# The night: tonight against the accepted build, appended to the history
# whatever its verdict (0 not slower, 1 slower, 4 undecided).
status=0
(cd "$work/build" && "$pinpoint" --entry "$entry" --baseline "$accepted" --current . \
	--label "$label" --history "$history" --html "$work/tonight.html" -q -- "$@") ||
	status=$?
case $status in
0 | 1 | 4) ;;
*) exit "$status" ;;
esac

# Over all the nights: the change points, each new slower one to its commit and call.
exec "$pinpoint" --changes "$history" --investigate --json "$work/changes.json"
