/* Arena allocator: compile state is allocated from one arena per compile
 * and freed in one call, so error paths never have to unwind ownership. */
#include "base/arena.h"

#include <string.h>

typedef struct ArenaChunk
{
  struct ArenaChunk *next;
  size_t             used, size;
  max_align_t        data[];
} ArenaChunk;

typedef struct ArenaOwned
{
  struct ArenaOwned *next;
  void              *data;
  GDestroyNotify     destroy;
} ArenaOwned;

struct SlArena
{
  ArenaChunk *head;
  ArenaOwned *owned;
  size_t      total;
};

SlArena *
sl_arena_new (void)
{
  return g_new0 (SlArena, 1);
}

void
sl_arena_free (SlArena *arena)
{
  if (!arena)
    return;
  /* The records live in the chunks, so they go first. */
  for (ArenaOwned *o = arena->owned; o; o = o->next)
    o->destroy (o->data);
  ArenaChunk *c = arena->head;
  while (c)
    {
      ArenaChunk *next = c->next;
      g_free (c);
      c = next;
    }
  g_free (arena);
}

void *
sl_arena_alloc (SlArena *arena, size_t size)
{
  size = (size + 15) & ~(size_t) 15;
  ArenaChunk *c = arena->head;
  if (!c || c->size - c->used < size)
    {
      size_t chunk_size = MAX (size, (size_t) 64 * 1024);
      c = g_malloc (sizeof (ArenaChunk) + chunk_size);
      c->size = chunk_size;
      c->used = 0;
      c->next = arena->head;
      arena->head = c;
    }
  void *p = (char *) c->data + c->used;
  c->used += size;
  arena->total += size;
  memset (p, 0, size);
  return p;
}

char *
sl_arena_strndup (SlArena *arena, const char *s, size_t n)
{
  char *p = sl_arena_alloc (arena, n + 1);
  memcpy (p, s, n);
  p[n] = 0;
  return p;
}

char *
sl_arena_strdup (SlArena *arena, const char *s)
{
  return s ? sl_arena_strndup (arena, s, strlen (s)) : NULL;
}

void
sl_arena_own (SlArena *arena, void *data, GDestroyNotify destroy)
{
  ArenaOwned *o = sl_arena_alloc (arena, sizeof *o);
  o->data = data;
  o->destroy = destroy;
  o->next = arena->owned;
  arena->owned = o;
}

size_t
sl_arena_total (const SlArena *arena)
{
  return arena->total;
}
