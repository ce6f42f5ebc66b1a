/* map.c: a hash table from (crate, name) to a pointer, in the arena, for
 * the items the inputs name (types, functions, statics): lookups are O(1)
 * however many there are, and two crates' `Pair`s are two keys. */
#include "fe.h"

#include <string.h>

typedef struct {
	const char *crate, *name;
	void *val;
	uint64_t hash;
} MapSlot;

struct FeMap {
	Arena *a;
	MapSlot *slots;
	uint32_t cap, n;     /* cap: a power of two, kept at most half full */
};

FeMap *fe_map_new(Arena *a)
{
	FeMap *m = arena_alloc(a, sizeof *m);
	m->a = a;
	m->cap = 64;
	m->slots = arena_new_array(a, MapSlot, m->cap);
	return m;
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (h ^ 0xff) * 0x100000001b3ull;      /* the end of a part is part of the key */
}

static MapSlot *map_slot(FeMap *m, const char *crate, const char *name, uint64_t h)
{
	for (uint32_t i = (uint32_t)h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		MapSlot *s = &m->slots[i];
		if (!s->name || (s->hash == h && !strcmp(s->name, name) && !strcmp(s->crate, crate)))
			return s;
	}
}

void *fe_map_get(FeMap *m, const char *crate, const char *name)
{
	return map_slot(m, crate, name, fnv(fnv(0xcbf29ce484222325ull, crate), name))->val;
}

static void map_grow(FeMap *m)
{
	MapSlot *old = m->slots;
	uint32_t ocap = m->cap;
	m->cap *= 2;
	m->slots = arena_new_array(m->a, MapSlot, m->cap);
	for (uint32_t i = 0; i < ocap; i++)
		if (old[i].name)
			*map_slot(m, old[i].crate, old[i].name, old[i].hash) = old[i];
}

/* Keys are not copied: they live as long as the inputs. */
void fe_map_put(FeMap *m, const char *crate, const char *name, void *val)
{
	if (2 * (m->n + 1) > m->cap)
		map_grow(m);
	uint64_t h = fnv(fnv(0xcbf29ce484222325ull, crate), name);
	MapSlot *s = map_slot(m, crate, name, h);
	if (!s->name)
		m->n++;
	*s = (MapSlot){ crate, name, val, h };
}
