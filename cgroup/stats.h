#ifndef UNIRUN_STATS_H
#define UNIRUN_STATS_H

#include "spec/json.h"

/* The "data" object of a stats event: cpu, memory (with peak and oom
 * counts), pids, blkio — each only where its files exist. */
void cg_stats_gen(yajl_gen g, const char *path);

#endif
