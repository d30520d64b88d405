/* manifest — one JSON line per input of a batch run (see manifest.c). */
#ifndef GS_MANIFEST_H
#define GS_MANIFEST_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _GsManifest GsManifest;

typedef struct
{
  const char *input;
  const char *output;    /* NULL: none was planned */
  const char *status;    /* "written", "skipped" or "failed" */
  double      seconds;
  const char *error;     /* NULL unless failed */
  const char *warning;   /* NULL unless a written image's render warned */
} GsManifestEntry;

/* Opens @path for appending (created if missing).  @shard ("K/N") and
 * @host go into every line. */
GsManifest *gs_manifest_open  (const char            *path,
                               const char            *shard,
                               const char            *host,
                               GError               **error);
/* Appends one line with a single write(), so that lines of several
 * writers never mix and a killed writer leaves whole lines only. */
gboolean    gs_manifest_add   (GsManifest            *manifest,
                               const GsManifestEntry *entry,
                               GError               **error);
gboolean    gs_manifest_close (GsManifest            *manifest,
                               GError               **error);

/* Appends @text to @out as a JSON string: valid UTF-8 as it is, other
 * bytes as \udcXX (the "surrogateescape" convention), so that any file
 * name survives a JSON parser. */
void        gs_json_append_string (GString    *out,
                                   const char *text);

G_END_DECLS

#endif /* GS_MANIFEST_H */
