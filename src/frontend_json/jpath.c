/* jpath.c: JSON paths for diagnostics ("k.mir.json: $.functions[3]:
 * error: ..."), used by stage 1 and by stage 2's checks that need the
 * layouts, and the atomic orderings' names. */
#include "oxmir.h"

#include <stdio.h>
#include <string.h>

JPath jpath_field(Arena *a, JPath p, const char *key)
{
	JPath r = { p.file, arena_printf(a, "%s.%s", p.path, key) };
	return r;
}

JPath jpath_index(Arena *a, JPath p, int i)
{
	JPath r = { p.file, arena_printf(a, "%s[%d]", p.path, i) };
	return r;
}

void fe_error(JPath p, const char *fmt, ...)
{
	char where[1024];
	va_list ap;
	snprintf(where, sizeof where, "%s: %s", p.file ? p.file : "oxidec", p.path);
	va_start(ap, fmt);
	diag_verror(OX_INPUT, where, fmt, ap);
	va_end(ap);
}

int ox_ordering(const char *s)
{
	static const char *const names[] = { "relaxed", "acquire", "release", "acqrel", "seqcst" };
	const char *last = strrchr(s, ':');
	char buf[32];
	size_t n = 0;
	for (s = last ? last + 1 : s; *s && n + 1 < sizeof buf; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))
			buf[n++] = (char)(*s | 0x20);
	buf[n] = 0;
	for (int i = 0; i < (int)countof(names); i++)
		if (!strcmp(buf, names[i]))
			return i;
	return -1;
}
