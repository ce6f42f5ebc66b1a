/* target.c: the targets — for each, its kind and its hooks of stage 4
 * (src/passes/nvvm_<name>.c) and stage 5 (src/passes/llir_<name>.c),
 * the way QBE's targ.c gathers a target's functions. */
#include "target.h"

#include <string.h>

#include "passes/llir.h"
#include "passes/nvvm.h"

const Target target_nvptx = { TARGET_NVPTX, "nvptx", &nvvm_nvptx, &llir_nvptx };
const Target target_host = { TARGET_HOST, "host", &nvvm_host, &llir_host };

const Target *target_find(const char *name)
{
	static const Target *const all[] = { &target_nvptx, &target_host };
	for (size_t i = 0; i < countof(all); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
