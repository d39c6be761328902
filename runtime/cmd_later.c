/* Commands whose issues are still open: a clear error, never a pretence. */
#include "runtime/commands.h"

int cmd_checkpoint(int argc, char **argv)
{
	return fail("checkpoint: not implemented yet (CRIU support is tracked as its own issue)");
}

int cmd_restore(int argc, char **argv)
{
	return fail("restore: not implemented yet (CRIU support is tracked as its own issue)");
}
