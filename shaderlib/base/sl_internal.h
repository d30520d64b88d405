/* Private declarations shared by shaderlib's stages.
 *
 * The pipeline, one file per stage:
 *   preprocess.c          source text → expanded text with #line markers
 *   hlsl_lex.c            expanded text → tokens
 *   hlsl_parse.c          tokens → typed AST (types and conversions checked)
 *   hlsl_lower.c          AST → IR (inlining calls, scalarising aggregates)
 *   ir.c                  the IR: values, instructions, builder, dump, validator
 *   passes.c              IR → IR: specialise, fold, copy-propagate, CSE, DCE
 *   span_emit.c           IR → span program (the VM's own format)
 *   vm.c, sample.c        the span interpreter and texture sampling
 *   program.c             the public API: compile driver, reflection, binding
 */
#ifndef SL_INTERNAL_H
#define SL_INTERNAL_H

#include "shaderlib.h"

#include <glib.h>
#include <stdalign.h>
#include <stddef.h>

/* ---- arena.c ---------------------------------------------------------- */

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

/* ---- source locations -------------------------------------------------- */

typedef struct
{
  const char *file;   /* arena-owned */
  int         line, column;
} SlLoc;

/* ---- limits (reported as diagnostics, never crashes) ------------------- */

/* A source, and what the preprocessor makes of it: the HLSL parser needs
 * about 125 bytes per source byte, so 4 MiB bounds a compile to roughly
 * half a GiB inside the host; real effects stay well under 1 MiB. */
#define SL_MAX_SOURCE_BYTES      (4u << 20)
#define SL_MAX_IR_VALUES         (1u << 20)
#define SL_MAX_IR_INSNS          (1u << 20)
#define SL_MAX_NESTING           256      /* expressions/statements */
#define SL_MAX_INLINE_DEPTH      64
#define SL_HLSL_LOOP_CAP         65536    /* iterations of one HLSL loop */
/* Loop-body instructions one span may execute (each runs on all 64 lanes,
 * so this is also the per-pixel figure): the per-loop cap alone lets
 * nested loops multiply to 65536^3.  2^22 is 64 times the instruction
 * count Direct3D 9 guarantees for ps_3_0 and costs roughly 30-60 ms per
 * span, so a hostile shader stops within seconds on a small image. */
#define SL_VM_SPAN_BUDGET        (1u << 22)
#define SL_MAX_ARRAY_COMPONENTS  65536

/* ---- program.c ---------------------------------------------------------- */

/* The shader model of a pixel profile name ("ps_3_0" → 30, "ps_4_0_level_9_1"
 * → 40, NULL or "auto" → 0); *ok is false for anything else. */
int sl_profile_model (const char *profile, bool *ok);

/* ---- parsing numbers out of text ------------------------------------------ */

/* The decimal number at @s (after blanks), saturated at @max; -1 when no
 * digit follows.  For counts and register numbers read out of source text
 * and comments: atoi overflows (undefined behaviour, and in practice a
 * negative index that slips past every "< n" check) and takes a sign. */
static inline long
sl_parse_decimal (const char *s, long max)
{
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s < '0' || *s > '9')
    return -1;
  long v = 0;
  for (; *s >= '0' && *s <= '9'; s++)
    v = v > (max - (*s - '0')) / 10 ? max : v * 10 + (*s - '0');
  return v;
}

#endif
