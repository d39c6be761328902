# Run by make check (the integration-nocriu suite) against unirun configured
# --without-criu: checkpoint and restore refuse, saying why, and change nothing.

test_without_criu_both_commands_say_so() {
	"$UNIRUN" features | jq -e '.annotations["org.opencontainers.runc.checkpoint.enabled"] == "false"' \
		>/dev/null || fail "$UNIRUN was built with CRIU: this suite wants one built without" || return 1
	start_bg c1 || return 1
	run_rc 1 rt checkpoint --image-path "$TMP/img" c1 || return 1
	assert_match 'checkpoint: unirun was built without CRIU' "$ERR" || return 1
	run_rc 1 rt restore --detach --image-path "$TMP/img" c2 || return 1
	assert_match 'restore: unirun was built without CRIU' "$ERR" || return 1
	[ ! -e "$TMP/img" ] || fail "an image dir was made" || return 1
	assert_eq running "$(status_of c1)" "c1" || return 1
	assert_eq '"false"' "$(rt features | jq '.annotations["org.opencontainers.runc.checkpoint.enabled"]')" \
		"features' checkpoint annotation"
}

