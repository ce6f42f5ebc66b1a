/* unit.h: a tiny harness for oxidec's C unit tests.  One test is a static
 * void function run by RUN(); it fails when any CHECK in it fails.  main
 * ends with `return unit_done();`, which prints `N passed, M failed` (in
 * tests) as the last line and gives the exit status.  Include it once per
 * test program. */
#ifndef OXIDEC_UNIT_H
#define OXIDEC_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_passed, unit_failed, unit_test_ok;
static const char *unit_test_name;

static inline void unit_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: %s: CHECK failed: %s\n", file, line, unit_test_name, what);
	unit_test_ok = 0;
}

static inline void unit_check_str(const char *file, int line, const char *got, const char *want)
{
	if (got && want && !strcmp(got, want))
		return;
	unit_fail(file, line, "strings differ");
	fprintf(stderr, "--- expected\n%s--- got\n%s---\n", want ? want : "(null)\n", got ? got : "(null)\n");
}

static inline void unit_run(void (*fn)(void), const char *name)
{
	unit_test_name = name;
	unit_test_ok = 1;
	fn();
	if (unit_test_ok)
		unit_passed++;
	else
		unit_failed++;
	printf("%s %s\n", unit_test_ok ? "PASS" : "FAIL", name);
}

static inline int unit_done(void)
{
	printf("%d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed != 0;
}

#define CHECK(cond) do { if (!(cond)) unit_fail(__FILE__, __LINE__, #cond); } while (0)
#define CHECK_EQ(a, b) do { \
	long long unit_a_ = (long long)(a), unit_b_ = (long long)(b); \
	if (unit_a_ != unit_b_) { \
		unit_fail(__FILE__, __LINE__, #a " == " #b); \
		fprintf(stderr, "  %lld != %lld\n", unit_a_, unit_b_); \
	} \
} while (0)
#define CHECK_STR(got, want) unit_check_str(__FILE__, __LINE__, (got), (want))
#define RUN(fn) unit_run(fn, #fn)

#endif
