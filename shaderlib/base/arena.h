/* The arena every compile allocates from.
 *
 * A compile builds many small objects (tokens, AST nodes, names,
 * reflection strings) whose lifetimes all end together, so they come from
 * one arena freed in one call; error paths never unwind ownership. */
#ifndef SL_ARENA_H
#define SL_ARENA_H

#include <glib.h>
#include <stddef.h>

typedef struct SlArena SlArena;

SlArena *sl_arena_new     (void);
void     sl_arena_free    (SlArena *arena);
void    *sl_arena_alloc   (SlArena *arena, size_t size);   /* zeroed */
char    *sl_arena_strdup  (SlArena *arena, const char *s);
char    *sl_arena_strndup (SlArena *arena, const char *s, size_t n);
size_t   sl_arena_total   (const SlArena *arena);
/* Hands @data to the arena: @destroy runs on it when the arena is freed,
 * for the few GLib containers whose owner lives in the arena. */
void     sl_arena_own     (SlArena *arena, void *data, GDestroyNotify destroy);

#define SL_NEW(arena, type) ((type *) sl_arena_alloc ((arena), sizeof (type)))
#define SL_NEW_N(arena, type, n) ((type *) sl_arena_alloc ((arena), sizeof (type) * (size_t) (n)))

#endif
