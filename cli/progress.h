/* progress — the one-line status a batch run draws on a terminal (see
 * progress.c). */
#ifndef GS_PROGRESS_H
#define GS_PROGRESS_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  int    finished;    /* inputs done with, in any way */
  int    total;
  int    failed;
  int    processed;   /* finished inputs that were rendered (or failed) */
  double elapsed;     /* seconds since the run began */
} GsProgress;

/* "[#####.....] 123/1000  4.2 images/s  ETA 3m28s  2 failed": rate and
 * ETA once some image was processed; no trailing newline. */
char *gs_progress_line      (const GsProgress *p);

/* 42s, 3m28s, 1h02m, 2d03h. */
char *gs_progress_duration  (double seconds);

G_END_DECLS

#endif /* GS_PROGRESS_H */
