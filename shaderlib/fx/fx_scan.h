/* The effect scanner's private interface: the state of one scan over an
 * effect's tokens and the drafts of its techniques and passes, shared by
 * the scanner (fx_scan.c) and the compile that drives it and compiles the
 * drafts (fx_compile.c). */
#ifndef SL_FX_SCAN_H
#define SL_FX_SCAN_H

#include "fx/effect.h"

#define MAX_NAMESPACE_DEPTH 32

typedef struct
{
  SlEffectPass pub;
  const char  *entry;        /* mangled entry point */
  const char  *profile;      /* NULL = default */
  SlLoc        profile_loc;
  SlLoc        loc;
} PassDraft;

typedef struct
{
  const char *name;
  GArray     *passes;        /* PassDraft */
  GArray     *annotations;   /* SlAnnotation */
} TechDraft;

typedef struct
{
  SlEffect      *fx;
  SlDiagnostics *diags;
  SlArena       *arena;
  Token         *t;
  int            n, pos;
  /* output */
  GString       *out;
  const char    *ofile;
  int            oline, ocol;
  /* namespaces */
  const char    *ns[MAX_NAMESPACE_DEPTH];  /* mangled prefixes, "A__B__" */
  int            n_ns;
  GHashTable    *declared;   /* mangled names declared inside namespaces */
  GArray        *techs;      /* TechDraft */
  bool           reshade;    /* ReShade-style constructs seen */
} Scan;

/* Records the names declared at the top level of each namespace, before
 * the scan, so that uses can be mangled ahead of their declaration. */
void        fx_collect_namespace_names (Scan *s);
/* Scans declarations up to the end of the file, or of the namespace. */
void        fx_scan_scope (Scan *s, bool in_namespace);
/* A mangled name as the user spells it ("A__b" → "A::b"). */
const char *fx_display_name (Scan *s, const char *mangled);

#endif
