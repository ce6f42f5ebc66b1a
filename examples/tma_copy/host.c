/* examples/tma_copy/host.c: runs the TMA kernels of src/lib.rs, their
 * tensor maps passed by value (args[0] = &map: the 128 bytes go with the
 * launch), and checks every byte:
 *   tma_load(map, rank, c, out, bytes, cta_mask): the box at c, as the
 *     load leaves it in shared memory: element k of the box (row-major,
 *     box[0] innermost) at byte k * elem of the box, moved by the
 *     swizzle (the 16-byte chunk bits 4.. of the offset XOR its bits 7..:
 *     3 bits for the 128-byte swizzle, 2 for 64, 1 for 32), zero where
 *     the element lies outside the tensor;
 *   tma_store(map, rank, c, input, bytes): the same box written back into
 *     a tensor of other bytes: only the box's elements inside the tensor
 *     change, and nothing outside the tensor's allocation (guard bytes);
 *   bulk_store(out, input, bytes): out = input, although the kernel
 *     overwrites its shared memory after bulk_wait_group_read.
 * One case per rank 1..5, every box partly outside its tensor, with
 * 1-, 2- and 4-byte elements, padded strides and each swizzle, each box
 * starting at a multiple of 16 bytes in x (the H200 faults otherwise,
 * nvcc's code too); each rank
 * also through the multicast load with a mask of the calling CTA alone
 * (a launch without clusters is a cluster of one), and through
 * tma_multicast: CTA 0 of a cluster of two loads the box into both CTAs.
 * Emulated (a .so), what faults on the H200 must fail the launch: a mask
 * naming a CTA beyond the cluster, a store's box starting below 0, a box
 * starting at an x that is not a multiple of 16 bytes.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so [CASE OP [X Y]]   (CASE 0..6,
 * OP load|mcast|store|pair: that copy alone, in its own process; X Y: at
 * those first two coordinates instead, the store's not moved; used by
 * tests/gpu/tma-rules) */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *what;
	unsigned rank, elem, swizzle;
	uint64_t dims[5];
	uint32_t box[5];
	int c[5];
} Case;

static Case cases[] = {
	{"1-D, 4-byte elements, past the end", 1, 4, 0, {1000}, {64}, {980}},
	{"1-D, 4-byte elements, before the start", 1, 4, 0, {1000}, {64}, {-8}},
	{"2-D, 2-byte elements, 128-byte swizzle", 2, 2, 128, {104, 40}, {64, 16}, {56, 30}},
	{"2-D, 2-byte elements, no swizzle", 2, 2, 0, {104, 40}, {64, 16}, {-8, 2}},
	{"3-D, 4-byte elements, 32-byte swizzle", 3, 4, 32, {40, 9, 7}, {8, 4, 3}, {36, -1, 5}},
	{"4-D, 2-byte elements, 64-byte swizzle", 4, 2, 64, {40, 5, 4, 3}, {32, 2, 2, 2}, {-8, 4, 3, 2}},
	{"5-D, 1-byte elements", 5, 1, 0, {32, 3, 3, 3, 3}, {16, 2, 2, 2, 2}, {16, 2, -1, 1, 2}},
};

enum { GUARD = 256 };

static OxFunc f_load, f_store, f_bulk, f_multicast;
static int is_emulated;

/* Row strides padded by 16 bytes, each a multiple of 16. */
static void strides_of(const Case *t, uint64_t *s)
{
	uint64_t row = (t->dims[0] * t->elem + 15) / 16 * 16 + 16;
	for (unsigned i = 1; i < t->rank; i++) {
		s[i - 1] = row;
		row = row * t->dims[i];
	}
}

static size_t tensor_bytes(const Case *t)
{
	uint64_t s[5];
	strides_of(t, s);
	return t->rank == 1 ? t->dims[0] * t->elem : s[t->rank - 2] * t->dims[t->rank - 1];
}

static size_t box_bytes(const Case *t)
{
	size_t n = t->elem;
	for (unsigned i = 0; i < t->rank; i++)
		n *= t->box[i];
	return n;
}

static size_t swizzled(size_t off, unsigned span)
{
	unsigned mask = span == 128 ? 7 : span == 64 ? 3 : span == 32 ? 1 : 0;
	return off ^ ((off >> 7) & mask) << 4;
}

/* The tensor offset of box element k, or -1 outside the tensor. */
static long long element_offset(const Case *t, size_t k)
{
	uint64_t s[5];
	long long off = 0;
	strides_of(t, s);
	for (unsigned i = 0; i < t->rank; i++) {
		long long g = (long long)t->c[i] + (long long)(k % t->box[i]);
		k /= t->box[i];
		if (g < 0 || g >= (long long)t->dims[i])
			return -1;
		off += g * (long long)(i == 0 ? t->elem : s[i - 1]);
	}
	return off;
}

static OxDevPtr device_copy(const void *p, size_t n)
{
	OxDevPtr d;
	OX_CHECK(ox_alloc(&d, n));
	OX_CHECK(ox_copy_to_device(d, p, n));
	return d;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 151 + seed) % 251 + 1);
}

static OxTensorMap encode(const Case *t, const OxFunc *f, OxDevPtr base)
{
	OxTensorMapDesc d = {.global = base, .rank = t->rank, .elem_bytes = t->elem, .swizzle = t->swizzle};
	OxTensorMap map;
	strides_of(t, d.strides);
	for (unsigned i = 0; i < t->rank; i++) {
		d.dims[i] = t->dims[i];
		d.box[i] = t->box[i];
	}
	OX_CHECK(ox_tensor_map_encode(&map, f, &d));
	return map;
}

static unsigned shared_for(size_t bytes)
{
	return (unsigned)bytes + 1024 + 16;
}

static int report(int ok, const char *kind, const Case *t)
{
	printf("%s %s: %s\n", ok ? "PASS" : "FAIL", kind, t->what);
	return !ok;
}

/* want = the box a load leaves in shared memory: the tensor's elements
 * (host's copy), zeros outside it, swizzled */
static void expected_box(const Case *t, const unsigned char *host, unsigned char *want)
{
	for (size_t k = 0; k < box_bytes(t) / t->elem; k++) {
		long long off = element_offset(t, k);
		unsigned char *to = want + swizzled(k * t->elem, t->swizzle);
		if (off < 0)
			memset(to, 0, t->elem);
		else
			memcpy(to, host + off, t->elem);
	}
}

static int check_load(const Case *t, unsigned cta_mask)
{
	size_t tb = tensor_bytes(t), bb = box_bytes(t);
	unsigned char *host = malloc(tb), *got = malloc(bb), *want = malloc(bb);
	unsigned rank = t->rank, bytes = (unsigned)bb;
	int bad = 0;
	fill(host, tb, 7);
	OxDevPtr tensor = device_copy(host, tb), c = device_copy(t->c, sizeof t->c), out;
	OxTensorMap map = encode(t, &f_load, tensor);
	void *args[] = {&map, &rank, &c, &out, &bytes, &cta_mask};
	OX_CHECK(ox_alloc(&out, bb));
	OX_CHECK(ox_launch_sync(&f_load, ox_dim(1, 1, 1), ox_dim(128, 1, 1), shared_for(bb), args));
	OX_CHECK(ox_copy_from_device(got, out, bb));
	expected_box(t, host, want);
	for (size_t i = 0; i < bb; i++)
		if (got[i] != want[i] && bad++ < 5)
			printf("    box byte %zu: %#x, want %#x\n", i, got[i], want[i]);
	OX_CHECK(ox_free(tensor));
	OX_CHECK(ox_free(c));
	OX_CHECK(ox_free(out));
	free(host), free(got), free(want);
	return report(bad == 0, cta_mask ? "load (multicast, mask 0x1)" : "load", t);
}

/* A store's box may hang past the end of the tensor but must not start
 * below 0 (the H200 faults): the case moved to the end where it starts
 * below 0. */
static int check_store(const Case *t);

static int check_store_case(const Case *c)
{
	Case s = *c;
	char what[200];
	int moved = 0;
	for (unsigned i = 0; i < s.rank; i++)
		if (s.c[i] < 0) {
			s.c[i] = (int)s.dims[i] - (int)s.box[i] / 2;
			moved = 1;
		}
	snprintf(what, sizeof what, "%s%s", c->what, moved ? " (for the store: past the end instead)" : "");
	s.what = what;
	return check_store(&s);
}

static int check_store(const Case *t)
{
	size_t tb = tensor_bytes(t), bb = box_bytes(t), all = tb + 2 * GUARD;
	unsigned char *before = malloc(all), *got = malloc(all), *box = malloc(bb);
	unsigned rank = t->rank, bytes = (unsigned)bb;
	int bad = 0;
	fill(before, all, 3);
	fill(box, bb, 101);
	OxDevPtr mem = device_copy(before, all), c = device_copy(t->c, sizeof t->c), in = device_copy(box, bb);
	OxTensorMap map = encode(t, &f_store, mem + GUARD);
	void *args[] = {&map, &rank, &c, &in, &bytes};
	OX_CHECK(ox_launch_sync(&f_store, ox_dim(1, 1, 1), ox_dim(128, 1, 1), shared_for(bb), args));
	OX_CHECK(ox_copy_from_device(got, mem, all));
	for (size_t k = 0; k < bb / t->elem; k++) {
		long long off = element_offset(t, k);
		if (off >= 0)
			memcpy(before + GUARD + off, box + swizzled(k * t->elem, t->swizzle), t->elem);
	}
	for (size_t i = 0; i < all; i++)
		if (got[i] != before[i] && bad++ < 5)
			printf("    byte %lld of the tensor: %#x, want %#x\n", (long long)i - GUARD, got[i], before[i]);
	OX_CHECK(ox_free(mem));
	OX_CHECK(ox_free(c));
	OX_CHECK(ox_free(in));
	free(before), free(got), free(box);
	return report(bad == 0, "store", t);
}

static int check_bulk_store(void)
{
	enum { N = 4096 };
	unsigned char in[N], got[N + 32];
	unsigned bytes = N;
	OxDevPtr din, dout;
	int bad = 0;
	fill(in, N, 55);
	memset(got, 0x5a, sizeof got);
	din = device_copy(in, N);
	dout = device_copy(got, sizeof got);
	void *args[] = {&dout, &din, &bytes};
	OX_CHECK(ox_launch_sync(&f_bulk, ox_dim(1, 1, 1), ox_dim(128, 1, 1), shared_for(N), args));
	OX_CHECK(ox_copy_from_device(got, dout, sizeof got));
	for (size_t i = 0; i < sizeof got; i++)
		if (got[i] != (i < N ? in[i] : 0x5a) && bad++ < 5)
			printf("    byte %zu: %#x\n", i, got[i]);
	OX_CHECK(ox_free(din));
	OX_CHECK(ox_free(dout));
	printf("%s bulk_store: 4096 bytes through shared memory, overwritten after bulk_wait_group_read\n",
	       bad ? "FAIL" : "PASS");
	return bad != 0;
}

/* The multicast across a cluster of two (tma_multicast): CTA 0 loads the
 * box once into both CTAs' shared memory; each copies out what it got,
 * which must be the box, as check_load computes it. */
static int check_multicast_pair(const Case *t)
{
	size_t tb = tensor_bytes(t), bb = box_bytes(t);
	unsigned char *host = malloc(tb), *got = malloc(2 * bb), *want = malloc(bb);
	unsigned rank = t->rank, bytes = (unsigned)bb;
	int bad = 0;
	fill(host, tb, 11);
	OxDevPtr tensor = device_copy(host, tb), c = device_copy(t->c, sizeof t->c), out;
	OxTensorMap map = encode(t, &f_multicast, tensor);
	void *args[] = {&map, &rank, &c, &out, &bytes};
	OX_CHECK(ox_alloc(&out, 2 * bb));
	OX_CHECK(ox_launch_sync(&f_multicast, ox_dim(2, 1, 1), ox_dim(128, 1, 1), shared_for(bb), args));
	OX_CHECK(ox_copy_from_device(got, out, 2 * bb));
	expected_box(t, host, want);
	for (size_t i = 0; i < 2 * bb; i++)
		if (got[i] != want[i % bb] && bad++ < 5)
			printf("    CTA %zu box byte %zu: %#x, want %#x\n", i / bb, i % bb, got[i], want[i % bb]);
	OX_CHECK(ox_free(tensor));
	OX_CHECK(ox_free(c));
	OX_CHECK(ox_free(out));
	free(host), free(got), free(want);
	return report(bad == 0, "load (multicast to both CTAs of a cluster of 2)", t);
}

/* A launch (its status st) that must have failed with `needle` in its
 * error: the PASS / FAIL line `what`; 1 when it did not. */
static int refused(int st, const char *needle, const char *what)
{
	int ok = st != 0 && strstr(ox_error(), needle) != NULL;
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok)
		printf("    %s\n", ox_error());
	return !ok;
}

/* Emulated only: a store whose box starts below 0 fails the launch, as
 * it faults on the H200. */
static int check_store_refused(void)
{
	const Case *t = &cases[1];
	size_t tb = tensor_bytes(t), bb = box_bytes(t);
	unsigned char *zero = calloc(1, tb + bb);
	unsigned rank = t->rank, bytes = (unsigned)bb;
	OxDevPtr tensor = device_copy(zero, tb), c = device_copy(t->c, sizeof t->c), in = device_copy(zero, bb);
	OxTensorMap map = encode(t, &f_store, tensor);
	void *args[] = {&map, &rank, &c, &in, &bytes};
	int failed = refused(ox_launch_sync(&f_store, ox_dim(1, 1, 1), ox_dim(128, 1, 1), shared_for(bb), args),
	                     "a store's box must not start below 0",
	                     "a store whose box starts below 0 fails the emulated launch (the H200 faults)");
	free(zero);
	return failed;
}

/* Emulated only: a load whose box starts at x = 60 of 2-byte elements
 * (byte 120, not a multiple of 16) fails, as it faults on the H200. */
static int check_unaligned_refused(void)
{
	Case t = cases[2];
	size_t tb = tensor_bytes(&t), bb = box_bytes(&t);
	unsigned char *host = calloc(1, tb);
	unsigned rank = t.rank, bytes = (unsigned)bb, cta_mask = 0;
	t.c[0] = 60;
	OxDevPtr tensor = device_copy(host, tb), c = device_copy(t.c, sizeof t.c), out;
	OxTensorMap map = encode(&t, &f_load, tensor);
	void *args[] = {&map, &rank, &c, &out, &bytes, &cta_mask};
	OX_CHECK(ox_alloc(&out, bb));
	int failed = refused(ox_launch_sync(&f_load, ox_dim(1, 1, 1), ox_dim(128, 1, 1), shared_for(bb), args),
	                     "tma_load_2d: the box starts at x = 60, byte 120 of a row: not a multiple of 16 bytes",
	                     "a box starting at byte 120 of a row fails the emulated launch (the H200 faults)");
	free(host);
	return failed;
}

/* Emulated only: a mask naming CTA 1 in a launch without clusters (a
 * cluster of one) fails. */
static int check_multicast_refused(void)
{
	const Case *t = &cases[2];
	size_t tb = tensor_bytes(t), bb = box_bytes(t);
	unsigned char *host = calloc(1, tb);
	unsigned rank = t->rank, bytes = (unsigned)bb, cta_mask = 3;
	OxDevPtr tensor = device_copy(host, tb), c = device_copy(t->c, sizeof t->c), out;
	OxTensorMap map = encode(t, &f_load, tensor);
	void *args[] = {&map, &rank, &c, &out, &bytes, &cta_mask};
	OX_CHECK(ox_alloc(&out, bb));
	int failed = refused(ox_launch_sync(&f_load, ox_dim(1, 1, 1), ox_dim(128, 1, 1), shared_for(bb), args),
	                     "tma_load_multicast_2d: cta_mask 0x3 names ranks beyond the cluster",
	                     "multicast to a CTA beyond the cluster fails the emulated launch");
	free(host);
	return failed;
}

int main(int argc, char **argv)
{
	OxModule mod;
	int failed = 0;
	size_t len;

	if (argc != 2 && argc != 4 && argc != 6) {
		fprintf(stderr, "usage: %s MODULE [CASE OP [X Y]]\n", argv[0]);
		return 2;
	}
	len = strlen(argv[1]);
	is_emulated = len >= 3 && strcmp(argv[1] + len - 3, ".so") == 0;
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&f_load, &mod, "tma_load"));
	OX_CHECK(ox_function(&f_store, &mod, "tma_store"));
	OX_CHECK(ox_function(&f_bulk, &mod, "bulk_store"));
	OX_CHECK(ox_function(&f_multicast, &mod, "tma_multicast"));
	if (argc >= 4) {           /* one case, one copy: load, mcast, store, pair */
		Case *t = &cases[atoi(argv[2]) % (sizeof cases / sizeof cases[0])];
		const char *op = argv[3];
		if (argc == 6)
			t->c[0] = atoi(argv[4]), t->c[1] = atoi(argv[5]);
		failed = !strcmp(op, "load") ? check_load(t, 0) : !strcmp(op, "mcast") ? check_load(t, 1)
		       : !strcmp(op, "store") ? (argc == 6 ? check_store(t) : check_store_case(t))
		       : check_multicast_pair(t);
		return failed != 0;
	}
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		failed += check_load(&cases[i], 0);
		failed += check_load(&cases[i], 1);
		failed += check_store_case(&cases[i]);
	}
	failed += check_bulk_store();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		failed += check_multicast_pair(&cases[i]);
	if (is_emulated)
		failed += check_multicast_refused() + check_store_refused() + check_unaligned_refused();
	printf("tma_copy: %d failed\n", failed);
	return failed != 0;
}
