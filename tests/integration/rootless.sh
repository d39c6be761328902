# Helpers for the rootless tests: an unprivileged user (with /etc/subuid and
# /etc/subgid ranges) made once per machine, a bundle it owns, and `ru` to
# run unirun as it.

RL_USER=unirun-rl

rootless_setup() {
	command -v runuser >/dev/null || skip "no runuser(1)"
	if ! id -u "$RL_USER" >/dev/null 2>&1; then
		useradd -M -s /bin/sh "$RL_USER" 2>/dev/null || id -u "$RL_USER" >/dev/null 2>&1 ||
			fail "useradd $RL_USER" || return 1
	fi
	RL_UID=$(id -u "$RL_USER") RL_GID=$(id -g "$RL_USER")
	if ! grep -q "^$RL_USER:" /etc/subuid || ! grep -q "^$RL_USER:" /etc/subgid; then
		usermod --add-subuids 600000-665535 --add-subgids 600000-665535 "$RL_USER" ||
			fail "usermod --add-subuids" || return 1
	fi
	RL_SUB=$(grep "^$RL_USER:" /etc/subuid | head -n1 | cut -d: -f2)
	RL_SUBG=$(grep "^$RL_USER:" /etc/subgid | head -n1 | cut -d: -f2)
	chmod 755 "$TMP"
	RL_BUNDLE=$TMP/rlbundle
	mkdir -p "$RL_BUNDLE" "$TMP/rlroot"
	ln -s "$BUNDLE/rootfs" "$RL_BUNDLE/rootfs"
	chown "$RL_UID:$RL_GID" "$RL_BUNDLE" "$TMP/rlroot"
	(cd "$RL_BUNDLE" && ru_plain spec --rootless) || fail "spec --rootless as $RL_USER" || return 1
	rcfg '.process.terminal = false' 
}

# ru_plain ARGS...: unirun as the user, in the user's bundle.
ru_plain() { (cd "$RL_BUNDLE" && runuser -u "$RL_USER" -- env XDG_RUNTIME_DIR= "$UNIRUN" "$@"); }
# ru ARGS...: the same with the test's state root.
ru() { ru_plain --root "$TMP/rlroot" "$@"; }

rcfg() {
	jq "$1" "$RL_BUNDLE/config.json" >"$TMP/rl.new" && cat "$TMP/rl.new" >"$RL_BUNDLE/config.json"
}

rl_args() {
	local j
	j=$(jq -cn '$ARGS.positional' --args -- "$@")
	rcfg ".process.args = $j"
}
