#!/usr/bin/env bash
# make demo: a bundle from busybox-static, and one container that says hello.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bundle=$top/demo
rm -rf "$bundle"
bash "$top/tests/integration/mkbundle.sh" "$bundle" >/dev/null
# The demo prints instead of opening a shell.
jq '.process.args = ["sh", "-c", "echo \"hello from $(hostname), a unirun container: pid $$, cgroup $(grep ^0:: /proc/self/cgroup)\""]' \
	"$bundle/config.json" >"$bundle/config.json.new" && mv "$bundle/config.json.new" "$bundle/config.json"
exec "$top/unirun" --root "$top/demo/state" run --bundle "$bundle" "demo-$$"
