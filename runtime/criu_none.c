/* Without libcriu: checkpoint and restore say so, and do nothing. */
#ifndef HAVE_CRIU
#include "runtime/commands.h"

int cmd_checkpoint(int argc, char **argv)
{
	return fail("checkpoint: unirun was built without CRIU (./configure --with-criu needs libcriu)");
}

int cmd_restore(int argc, char **argv)
{
	return fail("restore: unirun was built without CRIU (./configure --with-criu needs libcriu)");
}
#endif
