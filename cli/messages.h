/* The command-line tool's own messages, in one format for every command. */
#ifndef GS_CLI_MESSAGES_H
#define GS_CLI_MESSAGES_H

#include <glib.h>

#define GS_PROGRAM "gegl-shaders"

/* Prints "gegl-shaders: error: MESSAGE" (translated prefix) on stderr. */
void gs_print_error (const char *format, ...) G_GNUC_PRINTF (1, 2);
/* Prints "gegl-shaders: warning: MESSAGE" (translated prefix) on stderr. */
void gs_print_warning (const char *format, ...) G_GNUC_PRINTF (1, 2);

#endif
