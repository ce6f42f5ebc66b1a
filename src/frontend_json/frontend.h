/* frontend.h: oxide-mir JSON in, IR out.  Stage 1 (json: parse, validate,
 * link several files) and stage 2 (mir: one slot per local, places and
 * projections as ops, MIR terminators). */
#ifndef OXIDEC_FRONTEND_H
#define OXIDEC_FRONTEND_H

#include "../ir/ir.h"

typedef struct FeInput FeInput;

/* json.c: parse and validate the files; NULL after reporting errors.
 * An input may have at most FE_MAX_INPUT_MIB MiB unless fe_limit_input
 * says otherwise (oxidec --max-input). */
enum { FE_MAX_INPUT_MIB = 256 };
void fe_limit_input(size_t bytes);
FeInput *fe_parse(const char **paths, int npath);
/* The validated input as JSON text (stage 1 output; malloc'd). */
char *fe_print_json(FeInput *in);
void fe_free(FeInput *in);

/* build.c: stage 2.  Returns NULL after reporting errors. */
Module *fe_build_module(FeInput *in, Arena *a, const Target *target);

#endif
