#ifndef UNIRUN_SELFCLONE_H
#define UNIRUN_SELFCLONE_H
#include <stdbool.h>
#include "lib/error.h"

/* Re-exec from a sealed memfd copy of unirun unless already running from one.
 * Returns only when already cloned (0) or on error (< 0). */
int self_clone(char **argv, struct uerr *e);

#endif
