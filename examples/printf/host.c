/* examples/printf/host.c: runs print_values(every: u32, scale: f32) with
 * 4 blocks of 64 threads and every = 37, capturing what the kernel prints
 * (stdout is redirected to a temporary file around the launch: the GPU's
 * printf buffer is flushed to stdout at the synchronisation, the emulator
 * prints at once), and checks that exactly the expected lines appear, in
 * any order (threads print concurrently).
 * PTX parameters: every (32-bit), scale (f32).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#define _POSIX_C_SOURCE 200809L     /* dup, dup2, fileno, strdup */

#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 256u
#define EVERY 37u

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	uint32_t every = EVERY;
	float scale = 0.5f;
	void *args[] = {&every, &scale};
	char *want[THREADS], *got[THREADS + 16], line[256];
	size_t nwant = 0, ngot = 0;
	OxModule mod;
	OxFunc fn;
	FILE *tmp;
	int saved, bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	for (uint32_t t = 0; t < THREADS; t += EVERY) {
		snprintf(line, sizeof line,
		         "t=%d neg=%d hex=%08x f=%.3f big=%lld ubig=%llu c=%c\n",
		         (int)t, -(int)t, t * 0x1001, (double)(scale * (float)t),
		         (long long)t * -1000000007LL,
		         (unsigned long long)t << 40, 'a' + (int)(t % 26));
		want[nwant++] = strdup(line);
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "print_values"));
	if ((tmp = tmpfile()) == NULL || fflush(stdout) != 0 ||
	    (saved = dup(1)) < 0 || dup2(fileno(tmp), 1) < 0) {
		perror("printf: redirecting stdout");
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
		printf("PASS printf: %zu lines from the kernel, as expected:\n  %s",
		       ngot, got[0]);
	else
		printf("FAIL printf: the kernel's output differs\n");
	for (size_t i = 0; i < nwant; i++)
		free(want[i]);
	for (size_t i = 0; i < ngot; i++)
		free(got[i]);
	return bad != 0;
}
