/* oxemu.h: the host emulator behind oxrt.h (internal to src/runtime/).
 *
 * oxrt.c serves a module whose path ends in ".so" with these functions
 * instead of the CUDA driver: such a module is a shared object made from
 * `oxidec --target=host` output, and its kernels run on the CPU. Device
 * memory is host memory, so a device pointer is a host address.
 *
 * The ABI of those objects (the __oxide_host_* functions the emulator
 * defines for them) is oxide_host_abi.h. */
#ifndef OXEMU_H
#define OXEMU_H

#include "oxrt.h"
#include "oxide_host_abi.h"

/* CUDA error codes the emulator reports (the driver's values). */
enum {
	OXEMU_INVALID_VALUE = 1,
	OXEMU_OUT_OF_MEMORY = 2,
	OXEMU_INVALID_IMAGE = 200,
	OXEMU_NOT_FOUND = 500,
	OXEMU_ASSERT = 710,
	OXEMU_LAUNCH_FAILED = 719,
};

/* oxrt.c: the error state, shared with oxemu.c */
__attribute__((format(printf, 2, 3)))
int oxrt_set_error(int code, const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void oxrt_append_error(const char *fmt, ...);

/* oxemu.c: frees all device memory (the emulated context's end) */
void oxemu_shutdown(void);

/* oxemu.c: modules and kernels */
int oxemu_module_load(OxModule *m, const char *path);
void oxemu_module_unload(OxModule *m);
int oxemu_function(OxFunc *f, const OxModule *m, const char *name);

/* oxemu.c: launches run the whole grid before they return; a trap (a
 * failed device assert, a block that would hang) is reported once, by the
 * next oxemu_synchronize (what: for the message). */
int oxemu_launch(const OxFunc *f, OxDim3 grid, OxDim3 block, void **args);
int oxemu_synchronize(const char *call, const char *what);

/* oxemu.c: dynamic shared memory of the next launches (ox_launch's
 * shared_bytes), module globals by name (constant memory), and the
 * kernels' printf and dynamic shared memory */
int oxemu_set_dynamic_shared(size_t bytes);
/* oxemu.c: the stack limit a program asks for (ox_set_stack_size; 1,024
 * until then, like CUDA's); fibers get at least that much (and never less
 * than 256 KiB) from the next launch on */
int oxemu_set_stack_size(size_t bytes);
int oxemu_stack_size(size_t *bytes);
int oxemu_module_global(const OxModule *m, const char *name, OxDevPtr *ptr,
                        size_t *size);

/* oxemu.c: memory (host memory) and events (host time) */
int oxemu_alloc(OxDevPtr *p, size_t bytes);   /* freed by oxemu_shutdown */
int oxemu_free(OxDevPtr p);
int oxemu_copy_to_device(OxDevPtr dst, const void *src, size_t bytes);
int oxemu_copy_from_device(void *dst, OxDevPtr src, size_t bytes);
int oxemu_memset8(OxDevPtr p, unsigned char value, size_t bytes);
int oxemu_memset32(OxDevPtr p, uint32_t value, size_t count);
int oxemu_event_create(OxEvent *e);
int oxemu_event_record(OxEvent *e);
int oxemu_event_elapsed_ms(float *ms, OxEvent *start, OxEvent *end);
void oxemu_event_destroy(OxEvent *e);

#endif
