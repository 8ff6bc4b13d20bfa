#!/usr/bin/env bash
# Lighthouse on every page of a local `sheepshead serve`: performance, accessibility,
# best practices and SEO, each required to be at least 95 (issues 5 and 20). Lighthouse
# runs Debian's Chromium headless, with its default mobile emulation and throttling.
#
#   bash bench/lighthouse.sh                  # every page (bench/lighthouse_setup.py lists them)
#   bash bench/lighthouse.sh /guide/cards /me /review/  # only these ("/review/": any under it)
#   bash bench/lighthouse.sh "/?lang=bn"      # a page the list has not, as a visitor
#   MIN_SCORE=90 bash bench/lighthouse.sh     # another threshold
#
# On a fresh clone it first runs `make setup` (the project's .venv) and installs
# Lighthouse from bench/package-lock.json into bench/node_modules (git ignored); it needs
# Node 18.20 or later. Before serving, bench/lighthouse_setup.py fills the temporary
# database (yesterday's daily game, a finished hand, a club, a friends' table) so that
# the pages that show them have something to show; the pages of that player's own
# things (/me, the review, the club, the friends' table) are loaded with its cookie.
# Reports go to bench/lighthouse/.
set -euo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.."

MIN_SCORE="${MIN_SCORE:-95}"
PORT="${PORT:-8877}"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
LIGHTHOUSE=bench/node_modules/.bin/lighthouse
OUT=bench/lighthouse

[ -x .venv/bin/sheepshead ] || make setup
if [ ! -x "$LIGHTHOUSE" ]; then
  (cd bench && npm ci --no-audit --no-fund)
fi

data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
.venv/bin/python -W ignore bench/lighthouse_setup.py --data-dir "$data" \
  --cookie-file "$data/cookie" >"$data/pages" 2>"$data/setup.log" \
  || { cat "$data/setup.log"; exit 1; }
cookie="$(cat "$data/cookie")"

.venv/bin/sheepshead serve --port "$PORT" --data-dir "$data" >"$data/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/guide" && break
  sleep 0.2
done
curl -fs -o /dev/null "http://127.0.0.1:$PORT/guide" || { cat "$data/serve.log"; exit 1; }

# A page is run if no path was given, or if it was given, or if a given path ending in
# "/" begins it ("/review/": the review page, whatever its game).
wanted() {
  [ $# -gt 1 ] || return 0
  local path="$1" given
  shift
  for given in "$@"; do
    [ "$path" = "$given" ] && return 0
    [[ "$given" == ?*/ && "$path" == "$given"* ]] && return 0
  done
  return 1
}

mkdir -p "$OUT"
"$LIGHTHOUSE" --version
status=0
printf '%-52s %5s %5s %5s %5s\n' page perf a11y best seo
while read -r path as; do
  wanted "$path" "$@" || continue
  headers=()
  [ "$as" = cookie ] && headers=(--extra-headers="{\"Cookie\": \"$cookie\"}")
  name="$(echo "${path#/}" | tr '/' '-' | cut -c1-40)"
  report="$OUT/${name:-home}.json"
  # Lighthouse now and then fails to record a trace (NO_NAVSTART): such a page is run
  # once more, and a second failure is reported as one.
  for try in 1 2; do
    rm -f "$report"
    "$LIGHTHOUSE" "http://127.0.0.1:$PORT$path" --quiet "${headers[@]}" \
      --chrome-flags="--headless=new --no-sandbox --disable-gpu" \
      --only-categories=performance,accessibility,best-practices,seo \
      --output=json --output-path="$report" </dev/null && break
  done
  if [ ! -s "$report" ]; then
    printf '%-52s %s\n' "$path" "FAILED (Lighthouse could not run)"
    status=1
    continue
  fi
  line="$(.venv/bin/python - "$report" "$MIN_SCORE" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
scores = [report["categories"][c]["score"]
          for c in ("performance", "accessibility", "best-practices", "seo")]
scores = [-1 if s is None else round(s * 100) for s in scores]  # -1: not measured
below = [s for s in scores if s < int(sys.argv[2])]
print(" ".join(f"{s:5d}" for s in scores) + ("  BELOW" if below else ""))
PY
)"
  printf '%-52s %s\n' "$path" "$line"
  [[ "$line" == *BELOW* ]] && status=1
done < <(
  cat "$data/pages"
  # A given path the list has not (another language: "/?lang=bn"), as a visitor opens it.
  for p in "$@"; do [[ "$p" == */ ]] || cut -d' ' -f1 "$data/pages" | grep -qxF -- "$p" || echo "$p"; done
)
exit $status
