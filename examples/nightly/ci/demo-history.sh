#!/bin/sh
# demo-history.sh - the nightly job over a made-up history, for real: a git
# repository of libjot (this example's library) with 32 commits, of which
# commit 20 makes unescape_string quadratic (the "new" night of the
# example), and 24 nights, each building the commit of its night (one or
# two commits a night) and running nightly.sh on it.  The nights before the
# regression find nothing; the first night after it is slower than the
# accepted build, and once three nights show the new level --changes finds
# the change point and --investigate runs --commits over its commits to
# commit 20 and the call.
#
#   demo-history.sh DIR [NIGHTS]
#
# Everything goes to DIR (the repository, the accepted build, the work
# directory, nightly.jsonl and one log per night).  PINPOINT names the
# pinpoint to run (default: pinpoint on PATH).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
example=$(dirname "$here")
dir=${1:?usage: demo-history.sh DIR [NIGHTS]}
nights=${2:-24}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export GIT_AUTHOR_NAME=nightly GIT_AUTHOR_EMAIL=nightly@example.org
export GIT_COMMITTER_NAME=nightly GIT_COMMITTER_EMAIL=nightly@example.org
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

# The repository: the example's sources, then 31 commits of small changes.
repo=$dir/src
if [ ! -d "$repo/.git" ]; then
	mkdir -p "$repo"
	cp -r "$example/CMakeLists.txt" "$example/bench.c" "$example/mkinput.c" \
		"$example/include" "$example/src" "$repo/"
	git -C "$repo" init -q -b main
	printf 'libjot: a JSON records library\n' >"$repo/CHANGES"
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "libjot 1.0"
	for i in $(seq 2 32); do
		if [ "$i" -eq 20 ]; then
			# the regression: the "new" unescape_string, always
			sed -i '1i #define NIGHTLY_NEW 1 /* keep the output NUL-terminated at every step */' \
				"$repo/src/unescape.c"
			msg="unescape: keep the output terminated at every step"
		else
			msg="Change $i: notes"
		fi
		printf 'change %d\n' "$i" >>"$repo/CHANGES"
		git -C "$repo" add -A
		git -C "$repo" commit -q -m "$msg"
	done
fi
first=$(git -C "$repo" rev-list --max-parents=0 HEAD)

# The accepted build: libjot 1.0, built once, the usual way.
if [ ! -f "$dir/accepted/CMakeCache.txt" ]; then
	git -C "$repo" worktree add -q --detach "$dir/accepted-src" "$first"
	cmake -S "$dir/accepted-src" -B "$dir/accepted" >/dev/null
	cmake --build "$dir/accepted" --parallel >/dev/null
fi

# The nights: night n builds commit 1 + floor(4n/3), one or two commits a night.
n=0
while [ "$n" -lt "$nights" ]; do
	k=$((1 + 4 * n / 3))
	[ "$k" -le 32 ] || k=32
	commit=$(git -C "$repo" rev-list --reverse main | sed -n "${k}p")
	git -C "$repo" checkout -q --detach "$commit"
	status=0
	WORK=$dir/work LABEL="night-$n" "$here/nightly.sh" "$repo" "$dir/accepted" \
		"$dir/nightly.jsonl" >"$dir/night-$n.log" 2>&1 || status=$?
	printf 'night %2d: commit %2d %s: exit %d\n' "$n" "$k" "$(echo "$commit" | cut -c1-12)" "$status"
	n=$((n + 1))
done
git -C "$repo" checkout -q main
