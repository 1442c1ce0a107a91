#!/bin/sh
# render.sh REPORT.html OUT.png [WIDTHxHEIGHT]
#
# Renders a poolbench HTML report with headless Chromium (Debian's
# chromium package: apt-get install -y chromium) into a PNG screenshot,
# offline and with a throwaway profile. TestHTMLRendersInChromium runs it;
# to look at a real report:
#
#	go run ./cmd/poolbench -html /tmp/report.html
#	report/testdata/render.sh /tmp/report.html /tmp/report.png 1280x6000
set -eu
in=$1
out=$2
size=${3:-1280x4000}
chromium=${CHROMIUM:-/usr/bin/chromium}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
case $in in /*) ;; *) in=$(pwd)/$in ;; esac
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --user-data-dir="$profile" \
	--screenshot="$out" --window-size="$(echo "$size" | tr x ,)" "file://$in" >/dev/null 2>&1
test -s "$out"
