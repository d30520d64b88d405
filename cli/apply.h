/* apply — the batch command: one filter over many images.  See apply.c. */
#ifndef GS_APPLY_H
#define GS_APPLY_H

#include <stdio.h>

/* argv[0] is "apply"; returns the process exit code (0 all done or
 * skipped, 1 some file failed, 2 usage error). */
int  gs_apply_main       (int    argc,
                          char **argv);
void gs_apply_print_help (FILE  *stream);

#endif /* GS_APPLY_H */
