/* jpath.c: JSON paths for diagnostics ("k.mir.json: $.functions[3]:
 * error: ..."), used by stage 1 and by stage 2's checks that need the
 * layouts, and the atomic orderings' names. */
#include "oxmir.h"

#include <stdio.h>
#include <string.h>

static JPath step(Arena *a, JPath p, const char *key, int index)
{
	JStep *s = arena_alloc(a, sizeof *s);
	s->up = p.at;
	s->key = key;
	s->index = index;
	return (JPath){ p.file, s };
}

JPath jpath_root(Arena *a, const char *file, const char *text)
{
	return step(a, (JPath){ file, NULL }, text, 0);
}

JPath jpath_field(Arena *a, JPath p, const char *key)
{
	return step(a, p, key, 0);
}

JPath jpath_index(Arena *a, JPath p, int i)
{
	return step(a, p, NULL, i);
}

/* s's text at buf + at (the root first); the new length, or n - 1 where
 * it was cut */
static size_t step_text(const JStep *s, char *buf, size_t at, size_t n)
{
	if (!s)
		return at;
	at = step_text(s->up, buf, at, n);
	int k = !s->up ? snprintf(buf + at, n - at, "%s", s->key)
	        : s->key ? snprintf(buf + at, n - at, ".%s", s->key)
	        : snprintf(buf + at, n - at, "[%d]", s->index);
	return k < 0 || at + (size_t)k >= n ? n - 1 : at + (size_t)k;
}

const char *jpath_text(JPath p, char *buf, size_t n)
{
	buf[0] = 0;
	step_text(p.at, buf, 0, n);
	return buf;
}

void fe_error(JPath p, const char *fmt, ...)
{
	char where[1024], text[900];
	va_list ap;
	snprintf(where, sizeof where, "%s: %s", p.file ? p.file : "oxidec", jpath_text(p, text, sizeof text));
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
