/* What the user sees: errors on stderr, and --log FILE in text or JSON lines
 * ({"level":…,"msg":…,"time":…}, as containerd reads them). */
#ifndef UNIRUN_LOG_H
#define UNIRUN_LOG_H

#include <stdbool.h>

int log_init(const char *path, const char *format, bool debug);
void log_msg(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_error(...) log_msg("error", __VA_ARGS__)
#define log_warn(...) log_msg("warning", __VA_ARGS__)
#define log_debug(...) do { if (log_debug_on) log_msg("debug", __VA_ARGS__); } while (0)
extern bool log_debug_on;

#endif
