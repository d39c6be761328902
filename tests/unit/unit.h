/* A tiny test harness: TEST(name) functions, CHECK macros that say what they
 * expected and saw, and a summary line check.sh can add up. */
#ifndef UNIRUN_UNIT_H
#define UNIRUN_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failed_now, unit_pass, unit_fail;
static const char *unit_suite = "unit";

#define CHECK(cond) do { if (!(cond)) { \
	printf("  | %s:%d: expected %s\n", __FILE__, __LINE__, #cond); unit_failed_now = 1; } } while (0)
#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b)) { printf("  | %s:%d: expected \"%s\", saw \"%s\"\n", \
		__FILE__, __LINE__, _b ? _b : "(null)", _a ? _a : "(null)"); unit_failed_now = 1; } } while (0)
#define CHECK_CONTAINS(hay, needle) do { const char *_h = (hay), *_n = (needle); \
	if (!_h || !strstr(_h, _n)) { printf("  | %s:%d: expected \"%s\" in \"%s\"\n", \
		__FILE__, __LINE__, _n, _h ? _h : "(null)"); unit_failed_now = 1; } } while (0)
#define CHECK_INT(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
	if (_a != _b) { printf("  | %s:%d: %s: expected %lld, saw %lld\n", __FILE__, __LINE__, #a, _b, _a); \
		unit_failed_now = 1; } } while (0)

#define RUN(fn) do { unit_failed_now = 0; fn(); \
	printf("%s - %s:%s\n", unit_failed_now ? "not ok" : "ok", unit_suite, #fn); \
	if (unit_failed_now) unit_fail++; else unit_pass++; } while (0)

#define UNIT_END() do { printf("%s: %d passed, %d failed\n", unit_suite, unit_pass, unit_fail); \
	return unit_fail ? 1 : 0; } while (0)

#endif
