/* harness.c: runs conformance kernels through oxrt and prints the lines of
 * docs/conformance.md ("NAME ok HEX0 ... HEX127", "NAME trap",
 * "NAME error MESSAGE").
 *
 *   harness MODULE NAME...
 *
 * MODULE is what ox_module_load takes: .ptx / .cubin on the GPU, .so for
 * host emulation. Every kernel has the signature
 * (input: &[u64], out: DisjointSlice<u64>), i.e. the parameters
 * (input_ptr, input_len = 1024, out_ptr, out_len = 128), and runs on
 * 2 blocks x 64 threads; out starts as 0xA5 bytes, as in the CPU reference.
 *
 * A trap leaves a CUDA context unusable, and an emulated kernel may crash
 * its process, so the kernels run in a child process: the child runs
 * kernels one after another and reports each finished one through a pipe;
 * after a trap it exits, and the parent starts a new child at the next
 * kernel. A child that dies while a kernel runs (signal, timeout) costs
 * that kernel an error line (SIGILL / SIGTRAP during a launch count as a
 * trap: that is how an emulated trap may end a process). Build:
 *   cc -O2 -std=c11 -rdynamic -o harness harness.c ../../src/runtime/oxrt.c \
 *      ../../src/runtime/oxcuda.c ../../src/runtime/oxemu*.c -ldl -lm -lpthread */
#define _POSIX_C_SOURCE 200809L
#include "../../src/runtime/oxrt.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define N_IN 1024
#define BLOCKS 2
#define THREADS 64
#define N_OUT (BLOCKS * THREADS)
#define POISON_BYTE 0xA5
#define LAUNCH_TIMEOUT_S 60

/* Child exit codes. */
#define EXIT_DONE 0      /* every kernel reported */
#define EXIT_RESTART 3   /* the context is dead: continue in a new child */

static const uint64_t SPECIAL[24] = {
	0, 1, 2, 0xFFFFFFFFFFFFFFFFull, 0x7FFFFFFFFFFFFFFFull,
	0x8000000000000000ull, 0x00000000FFFFFFFFull, 0x000000007FFFFFFFull,
	0x0000000080000000ull, 0x7FC00000, 0x7F800000, 0xFF800000, 0x80000000,
	0x00000001, 0x4F000000, 0x5F000000, 0x7FF8000000000000ull,
	0x7FF0000000000000ull, 0xC3E0000000000000ull, 0x43E0000000000000ull,
	0x41DFFFFFFFC00000ull, 0x3FF0000000000000ull, 0xBFF0000000000000ull,
	0x00000000000000FFull,
};

static uint64_t fnv1a64(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z;

	*s += 0x9E3779B97F4A7C15ull;
	z = *s;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* docs/conformance.md, "Inputs". */
static void make_input(const char *name, uint64_t *in)
{
	uint64_t s = 0x0D1DE5EEDull ^ fnv1a64(name);

	for (int k = 0; k < N_IN; k++) {
		uint64_t r = splitmix64(&s);
		in[k] = (r & 7) == 0 ? SPECIAL[(r >> 3) % 24] : splitmix64(&s);
	}
}

/* The first line of ox_error(), for "NAME error MESSAGE". */
static void print_error(const char *name, const char *what)
{
	const char *msg = ox_error();
	int len = (int)strcspn(msg, "\n");

	printf("%s error %s: %.*s\n", name, what, len, msg);
}

static int report_fd = -1;

/* Tells the parent that kernel k started (running = 1) or finished. */
static void report(int k, int running)
{
	int msg[2] = {k, running};

	fflush(stdout);
	if (write(report_fd, msg, sizeof msg) != (ssize_t)sizeof msg)
		_exit(2);
}

/* Runs kernels names[first..n-1]; returns a child exit code. */
static int child(const char *module, char **names, int first, int n)
{
	static uint64_t in[N_IN], out[N_OUT];
	uint64_t in_len = N_IN, out_len = N_OUT;
	OxDevPtr din = 0, dout = 0;
	OxModule mod;
	void *args[] = {&din, &in_len, &dout, &out_len};
	const char *failed = NULL;

	if (ox_init() != 0)
		failed = "ox_init";
	else if (ox_module_load(&mod, module) != 0)
		failed = "module load";
	/* The suite's recursive kernels (calls_recursion_*: gcd of input words
	 * recurses up to ~93 levels) get oxidec's recursion warning; do what it
	 * says, as a program would: at -O0 the driver's JIT frames overflow
	 * the default 1 KiB (H200, calls_recursion_gcd O0/ptx). */
	else if (ox_set_stack_size(32 * 1024) != 0)
		failed = "stack size";
	else if (ox_alloc(&din, sizeof in) != 0 ||
	         ox_alloc(&dout, sizeof out) != 0)
		failed = "alloc";
	if (failed != NULL) {
		/* Nothing will work in any child: every kernel gets the error. */
		for (int k = first; k < n; k++) {
			print_error(names[k], failed);
			report(k, 0);
		}
		return EXIT_DONE;
	}
	for (int k = first; k < n; k++) {
		OxFunc fn;

		if (ox_function(&fn, &mod, names[k]) != 0) {
			print_error(names[k], "no such kernel");
			report(k, 0);
			continue;
		}
		make_input(names[k], in);
		if (ox_copy_to_device(din, in, sizeof in) != 0 ||
		    ox_memset8(dout, POISON_BYTE, sizeof out) != 0) {
			print_error(names[k], "setup");
			report(k, 0);
			return EXIT_RESTART;
		}
		report(k, 1);
		alarm(LAUNCH_TIMEOUT_S);
		if (ox_launch_sync(&fn, ox_dim(BLOCKS, 1, 1),
		                   ox_dim(THREADS, 1, 1), 0, args) != 0) {
			alarm(0);
			if (ox_error_is_trap())
				printf("%s trap\n", names[k]);
			else
				print_error(names[k], "launch");
			report(k, 0);
			return EXIT_RESTART;
		}
		alarm(0);
		if (ox_copy_from_device(out, dout, sizeof out) != 0) {
			print_error(names[k], "copy back");
			report(k, 0);
			return EXIT_RESTART;
		}
		printf("%s ok", names[k]);
		for (int t = 0; t < N_OUT; t++)
			printf(" %016llx", (unsigned long long)out[t]);
		printf("\n");
		report(k, 0);
	}
	return EXIT_DONE;
}

int main(int argc, char **argv)
{
	int n = argc - 2, next = 0;
	char **names = argv + 2;

	if (argc < 3) {
		fprintf(stderr, "usage: %s MODULE NAME...\n", argv[0]);
		return 2;
	}
	while (next < n) {
		int fds[2], msg[2], status, running = -1;
		pid_t pid;

		fflush(stdout);
		if (pipe(fds) != 0 || (pid = fork()) < 0) {
			perror("harness: pipe/fork");
			return 1;
		}
		if (pid == 0) {
			close(fds[0]);
			report_fd = fds[1];
			_exit(child(argv[1], names, next, n));
		}
		close(fds[1]);
		for (;;) {
			ssize_t r = read(fds[0], msg, sizeof msg);

			if (r == (ssize_t)sizeof msg) {
				if (msg[1]) {
					running = msg[0];
				} else {
					running = -1;
					next = msg[0] + 1;
				}
				continue;
			}
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		close(fds[0]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(status) &&
		    (WEXITSTATUS(status) == EXIT_DONE ||
		     WEXITSTATUS(status) == EXIT_RESTART) && running < 0)
			continue;
		/* The child died: blame the kernel it was running, or the next. */
		{
			int k = running >= 0 ? running : next;
			int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;

			if (k >= n)
				break;
			if (running >= 0 && (sig == SIGILL || sig == SIGTRAP))
				printf("%s trap\n", names[k]);
			else if (sig == SIGALRM)
				printf("%s error timeout: no result after %d s\n",
				       names[k], LAUNCH_TIMEOUT_S);
			else if (sig != 0)
				printf("%s error crashed: signal %d (%s)\n",
				       names[k], sig, strsignal(sig));
			else
				printf("%s error child exited with status %d\n",
				       names[k], WEXITSTATUS(status));
			next = k + 1;
		}
	}
	fflush(stdout);
	return 0;
}
