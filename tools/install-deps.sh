#!/bin/sh
# install-deps.sh - install what building and testing pinpoint needs on Debian 12,
# every test included (chromium renders the HTML report in driver-html; ccache
# and distcc are composed over pinpoint-cc in build-ccache and build-distcc).
#
#   tools/install-deps.sh            LLVM/clang 14 (Debian 12's default)
#   tools/install-deps.sh 19         also LLVM/clang 19
#
# Runs apt-get as root, through sudo when not root.
set -eu
majors="14 ${1:-}"
pkgs="cmake make gcc g++ pkg-config python3 python3-jsonschema python3-scipy file binutils
      libelf-dev libgsl-dev libjansson-dev git chromium ccache distcc"
for m in $majors; do
	pkgs="$pkgs clang-$m llvm-$m-dev llvm-$m-tools libclang-rt-$m-dev lld-$m"
done
if [ "$(id -u)" -eq 0 ]; then
	sudo=
else
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
echo "install-deps: installed $(echo $pkgs | wc -w) packages for LLVM $majors"
