/* shard — a deterministic share of the inputs for each of N copies of
 * `apply`, and input lists (see shard.c). */
#ifndef GS_SHARD_H
#define GS_SHARD_H

#include <glib.h>

G_BEGIN_DECLS

/* The first 8 bytes of SHA-256(@key), big-endian. */
guint64  gs_shard_hash      (const char *key);
/* gs_shard_hash (@key) % @count: the shard that takes @key. */
guint    gs_shard_of        (const char *key,
                             guint       count);

/* Parses "K/N" or "auto/N" (see shard.c) into 0 <= @index <
 * @count.  FALSE with a message in @error (G_OPTION_ERROR) otherwise. */
gboolean gs_shard_parse     (const char *spec,
                             guint      *index,
                             guint      *count,
                             GError    **error);

/* Appends the names in @path ("-" for standard input), one a line or
 * NUL-separated, to @names (newly allocated strings). */
gboolean gs_read_input_list (const char *path,
                             gboolean    nul_separated,
                             GPtrArray  *names,
                             GError    **error);

G_END_DECLS

#endif /* GS_SHARD_H */
