#!/usr/bin/env bash
# Lighthouse on the guide pages (and the home page) of a local `sheepshead serve`:
# performance, accessibility, best practices and SEO, each required to be at least 95
# (issue 5). Lighthouse runs Debian's Chromium headless, with its default mobile
# emulation and throttling.
#
#   bash bench/lighthouse.sh                  # every guide page and /
#   bash bench/lighthouse.sh /guide/cards     # only these paths
#   MIN_SCORE=90 bash bench/lighthouse.sh     # another threshold
#
# Lighthouse is installed from bench/package-lock.json into bench/node_modules (git
# ignored) on first use; it needs Node 18.20 or later. Reports go to bench/lighthouse/.
set -euo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.."

MIN_SCORE="${MIN_SCORE:-95}"
PORT="${PORT:-8877}"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
LIGHTHOUSE=bench/node_modules/.bin/lighthouse
OUT=bench/lighthouse

if [ ! -x "$LIGHTHOUSE" ]; then
  (cd bench && npm ci --no-audit --no-fund)
fi
if [ $# -gt 0 ]; then
  PATHS=("$@")
else
  PATHS=(/guide /guide/standard /guide/cards /guide/picking /guide/scoring
    /guide/nobody-picks /guide/worked-hand /guide/glossary /guide/questions
    /guide/history /)
fi

data="$(mktemp -d)"
.venv/bin/sheepshead serve --port "$PORT" --data-dir "$data" >"$data/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/guide" && break
  sleep 0.2
done
curl -fs -o /dev/null "http://127.0.0.1:$PORT/guide" || { cat "$data/serve.log"; exit 1; }

mkdir -p "$OUT"
"$LIGHTHOUSE" --version
status=0
printf '%-22s %5s %5s %5s %5s\n' page perf a11y best seo
for path in "${PATHS[@]}"; do
  name="$(echo "${path#/}" | tr '/' '-')"
  report="$OUT/${name:-home}.json"
  "$LIGHTHOUSE" "http://127.0.0.1:$PORT$path" --quiet \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu" \
    --only-categories=performance,accessibility,best-practices,seo \
    --output=json --output-path="$report"
  line="$(.venv/bin/python - "$report" "$MIN_SCORE" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
scores = [round(report["categories"][c]["score"] * 100)
          for c in ("performance", "accessibility", "best-practices", "seo")]
below = [s for s in scores if s < int(sys.argv[2])]
print(" ".join(f"{s:5d}" for s in scores) + ("  BELOW" if below else ""))
PY
)"
  printf '%-22s %s\n' "$path" "$line"
  [[ "$line" == *BELOW* ]] && status=1
done
exit $status
