/* examples/print_rust/host.c: runs print_lines(every: u32) with 4 blocks
 * of 64 threads and every = 37, capturing what the kernel prints (stdout
 * is redirected to a temporary file around the launch: the GPU's printf
 * buffer is flushed to stdout at the synchronisation, the emulator prints
 * at once), and checks that exactly the expected lines appear, in any
 * order (threads print concurrently), each whole: gpu_println! prints a
 * line with one vprintf. Thread 0's line of 300 stars is longer than the
 * line buffer (LINE_CAPACITY, 256 bytes with its newline and NUL): it
 * must be cut to 249 stars and end in "[...]".
 * PTX parameters: every (32-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#define _POSIX_C_SOURCE 200809L     /* dup, dup2, fileno, strdup */

#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 256u
#define EVERY 37u
#define LINE_TEXT 254u          /* LINE_CAPACITY - 2 */
#define MARKER "[...]"

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* t spelled digit by digit, as the kernel's Spelled: 37 is three-seven */
static void spell(char *out, size_t size, unsigned t)
{
	static const char *const words[] = {"zero", "one", "two", "three", "four",
	                                    "five", "six", "seven", "eight", "nine"};
	unsigned scale = 1;
	size_t n = 0;

	while (t / scale >= 10)
		scale *= 10;
	for (;; scale /= 10) {
		n += (size_t)snprintf(out + n, size - n, "%s%s", words[t / scale % 10],
		                      scale == 1 ? "" : "-");
		if (scale == 1)
			break;
	}
}

/* the lines the kernel must print: one per multiple of EVERY, and the
 * cut line of stars; returns their number */
static size_t expected(char **want)
{
	char line[512], word[128];
	size_t n = 0;

	for (unsigned t = 0; t < THREADS; t += EVERY) {
		spell(word, sizeof word, t);
		snprintf(line, sizeof line, "thread %3u (%s) is %s, %+lld {braces}\n", t,
		         word, t % 2 == 0 ? "even" : "odd", -(long long)t * 1000000007LL);
		want[n++] = strdup(line);
	}
	memset(line, '*', LINE_TEXT - strlen(MARKER));
	strcpy(line + LINE_TEXT - strlen(MARKER), MARKER "\n");
	want[n++] = strdup(line);
	return n;
}

int main(int argc, char **argv)
{
	uint32_t every = EVERY;
	void *args[] = {&every};
	char *want[THREADS + 1], *got[THREADS + 16], line[512];
	size_t nwant, ngot = 0;
	OxModule mod;
	OxFunc fn;
	FILE *tmp;
	int saved, bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	nwant = expected(want);
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "print_lines"));
	if ((tmp = tmpfile()) == NULL || fflush(stdout) != 0 ||
	    (saved = dup(1)) < 0 || dup2(fileno(tmp), 1) < 0) {
		perror("print_rust: redirecting stdout");
		return 1;
	}
	int r = ox_launch_sync(&fn, ox_dim(THREADS / 64, 1, 1), ox_dim(64, 1, 1),
	                       0, args);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	OX_CHECK(r);
	rewind(tmp);
	while (fgets(line, sizeof line, tmp) != NULL && ngot < THREADS + 16)
		got[ngot++] = strdup(line);
	fclose(tmp);
	qsort(want, nwant, sizeof *want, cmp);
	qsort(got, ngot, sizeof *got, cmp);
	if (ngot != nwant) {
		printf("  %zu lines printed, want %zu\n", ngot, nwant);
		bad++;
	}
	for (size_t i = 0; i < nwant && i < ngot; i++)
		if (strcmp(want[i], got[i]) != 0 && bad++ < 5)
			printf("  got:  %s  want: %s", got[i], want[i]);
	if (bad == 0)
		printf("PASS print_rust: %zu lines from the kernel, as expected:\n  %s",
		       ngot, got[ngot - 1]);
	else
		printf("FAIL print_rust: the kernel's output differs\n");
	for (size_t i = 0; i < nwant; i++)
		free(want[i]);
	for (size_t i = 0; i < ngot; i++)
		free(got[i]);
	return bad != 0;
}
