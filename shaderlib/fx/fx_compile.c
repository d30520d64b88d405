/* Compiling an effect (sl_effect_compile), and what the compiled effect
 * answers.
 *
 * The file is preprocessed first, with ReShade's predefined macros
 * (BUFFER_WIDTH, __RESHADE__, …; the caller's defines come after them and
 * may override them) and with the headers the layer provides itself
 * (ReShade.fxh, ReShadeUI.fxh), found after the caller's include
 * directories.  The scan (fx_decl.c, over fx_scan.c) turns the tokens into
 * one plain HLSL text and records the textures, samplers and techniques.
 * Each pass's pixel shader is compiled from that text with sl_compile(),
 * once per distinct entry point and profile, and checked here, where the
 * pass's place in the file is known: its profile, the size of its render
 * targets, whether it samples a texture it renders to (a warning: the
 * pass then reads the texture as it was before it).  The samplers of
 * each compiled program are matched back to the recorded textures by
 * name, and the effect's parameters are the union, by name, of every
 * pass's.  sl_effect_detect, the getters and the reference counting
 * complete the public side. */
#include "base/file_read.h"
#include "fx/fx_scan.h"
#include "hlsl/hlsl.h"
#include "preprocess/preprocess.h"

#include <stdlib.h>
#include <string.h>

static char *
read_with_builtins (void *user, const char *path, size_t *length)
{
  const char *prefix = SL_EFFECT_BUILTIN_DIR G_DIR_SEPARATOR_S;
  if (g_str_has_prefix (path, prefix))
    {
      /* Without regard to case, as ReShade on Windows finds them
       * ("Reshade.fxh"). */
      for (const SlEffectBuiltinFile *f = sl_effect_builtin_files; f->name; f++)
        if (!g_ascii_strcasecmp (path + strlen (prefix), f->name))
          {
            *length = strlen (f->text);
            return g_strdup (f->text);
          }
      return NULL;
    }
  char *data = NULL;
  sl_read_regular_file (path, SL_MAX_SOURCE_BYTES, &data, length);
  return data;
}

static char *
float_literal (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (buf, sizeof buf, "%.9g", v);
  if (!strpbrk (buf, ".eEn"))
    return g_strconcat (buf, ".0", NULL);
  return g_strdup (buf);
}

/* An effect has a technique block, or includes a .fxh header (ReShade's
 * headers: an effect may take its techniques from one, or have none). */
bool
sl_effect_detect (const char *source, size_t length)
{
  if (!source)
    return false;
  if (length == (size_t) -1)
    length = strlen (source);
  static const char *const words[] = { "technique", "technique9", "technique10", "technique11" };
  for (size_t i = 0; i < length; i++)
    {
      if (source[i] == '/' && i + 1 < length && source[i + 1] == '/')
        {
          while (i < length && source[i] != '\n')
            i++;
          continue;
        }
      if (source[i] == '/' && i + 1 < length && source[i + 1] == '*')
        {
          i += 2;
          while (i + 1 < length && !(source[i] == '*' && source[i + 1] == '/'))
            i++;
          i++;
          continue;
        }
      if (source[i] == '#')
        {
          size_t j = i + 1;
          while (j < length && (source[j] == ' ' || source[j] == '\t'))
            j++;
          if (j + 7 < length && !strncmp (source + j, "include", 7))
            {
              size_t end = j + 7;
              while (end < length && source[end] != '\n')
                end++;
              for (size_t k = j + 7; k + 4 < end + 1; k++)
                if (!g_ascii_strncasecmp (source + k, ".fxh", 4)
                    && (k + 4 >= end || source[k + 4] == '"' || source[k + 4] == '>'))
                  return true;
            }
        }
      if (i > 0 && (g_ascii_isalnum (source[i - 1]) || source[i - 1] == '_'))
        continue;
      for (size_t k = 0; k < G_N_ELEMENTS (words); k++)
        {
          size_t n = strlen (words[k]);
          if (i + n < length && !strncmp (source + i, words[k], n)
              && !g_ascii_isalnum (source[i + n]) && source[i + n] != '_')
            {
              /* a technique block: name then '{' or '<' */
              size_t j = i + n;
              while (j < length && (g_ascii_isspace (source[j]) || g_ascii_isalnum (source[j]) || source[j] == '_'))
                j++;
              if (j < length && (source[j] == '{' || source[j] == '<'))
                return true;
            }
        }
    }
  return false;
}

static void
effect_free (SlEffect *fx)
{
  if (fx->programs)
    g_ptr_array_free (fx->programs, TRUE);
  if (fx->techniques)
    g_array_free (fx->techniques, TRUE);
  if (fx->textures)
    g_array_free (fx->textures, TRUE);
  if (fx->texture_locs)
    g_array_free (fx->texture_locs, TRUE);
  if (fx->texture_hlsl)
    g_ptr_array_free (fx->texture_hlsl, TRUE);
  if (fx->samplers)
    g_array_free (fx->samplers, TRUE);
  if (fx->params)
    g_array_free (fx->params, TRUE);
  sl_arena_free (fx->arena);
  g_free (fx);
}

/* Finds what a sampler name of a compiled pass reads. */
const ESampler *
fx_find_sampler (const SlEffect *fx, const char *name)
{
  for (guint i = 0; i < fx->samplers->len; i++)
    if (!strcmp (g_array_index (fx->samplers, ESampler, i).name, name))
      return &g_array_index (fx->samplers, ESampler, i);
  return NULL;
}

static int
find_texture_fx (const SlEffect *fx, const char *name)
{
  for (guint i = 0; i < fx->texture_hlsl->len; i++)
    if (!strcmp (g_ptr_array_index (fx->texture_hlsl, i), name))
      return (int) i;
  return -1;
}

/* The texture a sampler slot of a compiled pass reads: an effect texture
 * index or -1 for the back buffer. */
int
fx_slot_texture (const SlEffect *fx, const SlSamplerInfo *si)
{
  const ESampler *es = fx_find_sampler (fx, si->name);
  if (es && !es->state_object)
    return es->texture;
  int t = find_texture_fx (fx, si->name);
  return t;
}

static void
add_union_params (SlEffect *fx, SlProgram *p)
{
  for (int i = 0; i < sl_program_get_n_params (p); i++)
    {
      const SlParam *prm = sl_program_get_param (p, i);
      bool have = false;
      for (guint k = 0; k < fx->params->len && !have; k++)
        have = !strcmp (g_array_index (fx->params, SlParam, k).name, prm->name);
      if (!have)
        g_array_append_val (fx->params, *prm);
    }
}

SlEffect *
sl_effect_compile (const SlEffectOptions *options, SlDiagnostics *diags)
{
  SlDiagnostics *own = diags ? NULL : sl_diagnostics_new ();
  if (!diags)
    diags = own;
  const char *filename = options->filename ? options->filename : "<source>";
  SlEffect *fx = g_new0 (SlEffect, 1);
  fx->ref_count = 1;
  fx->arena = sl_arena_new ();
  fx->textures = g_array_new (FALSE, TRUE, sizeof (SlEffectTexture));
  fx->texture_hlsl = g_ptr_array_new ();
  fx->texture_locs = g_array_new (FALSE, TRUE, sizeof (SlLoc));
  fx->filename = sl_arena_strdup (fx->arena, filename);
  fx->samplers = g_array_new (FALSE, TRUE, sizeof (ESampler));
  fx->techniques = g_array_new (FALSE, TRUE, sizeof (SlEffectTechnique));
  fx->params = g_array_new (FALSE, TRUE, sizeof (SlParam));
  fx->programs = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_program_unref);
  int errors_before = sl_diagnostics_error_count (diags);
  char *text = NULL;
  Scan s = { 0 };

  if (!options->source)
    {
      sl_diag (diags, SL_DIAG_API_NO_SOURCE, filename, 0, 0, "no source given");
      goto fail;
    }
  if (options->buffer_width < 1 || options->buffer_height < 1 || options->buffer_width > 65536
      || options->buffer_height > 65536)
    {
      sl_diag (diags, SL_DIAG_FX_BUFFER_SIZE, filename, 0, 0,
               "effect buffer size %d×%d is out of range", options->buffer_width,
               options->buffer_height);
      goto fail;
    }
  fx->buffer_width = options->buffer_width;
  fx->buffer_height = options->buffer_height;

  /* ReShade's predefined macros, then the caller's (which may override). */
  GPtrArray *defs = g_ptr_array_new_with_free_func (g_free);
  char *rw = float_literal (1.0 / fx->buffer_width), *rh = float_literal (1.0 / fx->buffer_height);
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_WIDTH=%d", fx->buffer_width));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_HEIGHT=%d", fx->buffer_height));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_RCP_WIDTH=(%s)", rw));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_RCP_HEIGHT=(%s)", rh));
  g_ptr_array_add (defs, g_strdup_printf ("BUFFER_PIXEL_SIZE=float2(%s, %s)", rw, rh));
  g_ptr_array_add (defs, g_strdup ("BUFFER_COLOR_BIT_DEPTH=8"));
  g_ptr_array_add (defs, g_strdup ("BUFFER_COLOR_SPACE=1"));
  g_ptr_array_add (defs, g_strdup ("__RESHADE__=50900"));
  /* ReShade's default; its performance mode only turns uniforms into
   * constants, which changes nothing a still image shows. */
  g_ptr_array_add (defs, g_strdup ("__RESHADE_PERFORMANCE_MODE__=0"));
  g_ptr_array_add (defs, g_strdup ("__RESHADE_PERMUTATION__=0"));
  g_ptr_array_add (defs, g_strdup ("BUFFER_COLOR_FORMAT=28"));   /* r8g8b8a8_unorm */
  g_ptr_array_add (defs, g_strdup ("__RENDERER__=0xb000"));
  g_ptr_array_add (defs, g_strdup ("__VENDOR__=0"));
  g_ptr_array_add (defs, g_strdup ("__DEVICE__=0"));
  g_ptr_array_add (defs, g_strdup ("__APPLICATION__=0"));
  g_ptr_array_add (defs, g_strdup ("__GEGL_SHADERS__=1"));
  /* The compatibility macros ReShade's runtime puts before every effect
   * (tex2Dgather, tex2Doffset and tex2Dlodoffset are intrinsics here). */
  g_ptr_array_add (defs, g_strdup ("tex2Dgatheroffset(s, t, o, c)=tex2Dgather##c(s, t, o)"));
  g_ptr_array_add (defs, g_strdup ("tex2Dgather0=tex2DgatherR"));
  g_ptr_array_add (defs, g_strdup ("tex2Dgather1=tex2DgatherG"));
  g_ptr_array_add (defs, g_strdup ("tex2Dgather2=tex2DgatherB"));
  g_ptr_array_add (defs, g_strdup ("tex2Dgather3=tex2DgatherA"));
  g_free (rw);
  g_free (rh);
  fx->screen_width = fx->buffer_width;
  fx->screen_height = fx->buffer_height;
  for (int i = 0; options->defines && options->defines[i]; i++)
    {
      const char *d = options->defines[i];
      if (g_str_has_prefix (d, "BUFFER_WIDTH="))
        fx->screen_width = MAX (atoi (d + 13), 1);
      else if (g_str_has_prefix (d, "BUFFER_HEIGHT="))
        fx->screen_height = MAX (atoi (d + 14), 1);
      g_ptr_array_add (defs, g_strdup (d));
    }
  g_ptr_array_add (defs, NULL);
  GPtrArray *dirs = g_ptr_array_new ();
  for (int i = 0; options->include_dirs && options->include_dirs[i]; i++)
    g_ptr_array_add (dirs, (gpointer) options->include_dirs[i]);
  g_ptr_array_add (dirs, (gpointer) SL_EFFECT_BUILTIN_DIR);
  g_ptr_array_add (dirs, NULL);
  SlPreprocessOptions ppo = {
    .filename = filename,
    .include_dirs = (const char *const *) dirs->pdata,
    .defines = (const char *const *) defs->pdata,
    .read_file = read_with_builtins,
    .max_output = SL_MAX_SOURCE_BYTES,   /* as for a single shader */
    .any_path = (options->flags & SL_COMPILE_ANY_PATH) != 0,
    .reshade = true,
  };
  size_t length = options->length == (size_t) -1 ? strlen (options->source) : options->length;
  text = sl_preprocess (options->source, length, &ppo, diags);
  g_ptr_array_free (defs, TRUE);
  g_ptr_array_free (dirs, TRUE);
  if (!text || sl_diagnostics_error_count (diags) > errors_before)
    goto fail;

  s.fx = fx;
  s.filename = options->filename;
  s.dirs = options->include_dirs;
  s.diags = diags;
  s.arena = fx->arena;
  s.t = sl_hlsl_tokenize (fx->arena, text, filename, diags, &s.n);
  if (!s.t || sl_diagnostics_error_count (diags) > errors_before)
    goto fail;
  s.out = g_string_new (NULL);
  s.declared = g_hash_table_new (g_str_hash, g_str_equal);
  s.typed = g_hash_table_new (g_str_hash, g_str_equal);
  s.techs = g_array_new (FALSE, TRUE, sizeof (TechDraft));
  fx_collect_namespace_names (&s);
  fx_scan_scope (&s, false);
  fx->reshade = s.reshade;
  /* A ReShade file without techniques (shared code, or all of them
   * commented out) is a valid effect that draws nothing. */
  if (s.techs->len == 0 && s.reshade)
    sl_diag (diags, SL_DIAG_FX_NO_TECHNIQUE_IDENTITY, filename, 0, 0,
             "the effect has no technique; it leaves the image unchanged");
  else if (s.techs->len == 0)
    sl_diag (diags, SL_DIAG_FX_NO_TECHNIQUE, filename, 0, 0, "the effect has no technique");
  if (sl_diagnostics_error_count (diags) > errors_before)
    goto fail;

  /* Compile each distinct (entry, profile) once. */
  GHashTable *compiled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint ti = 0; ti < s.techs->len; ti++)
    {
      TechDraft *td = &g_array_index (s.techs, TechDraft, ti);
      SlEffectPass *passes = SL_NEW_N (fx->arena, SlEffectPass, td->passes->len);
      for (guint pi = 0; pi < td->passes->len; pi++)
        {
          PassDraft *pd = &g_array_index (td->passes, PassDraft, pi);
          const char *profile = pd->profile;
          bool profile_ok;
          if (profile && (g_str_has_prefix (profile, "vs_") || g_str_has_prefix (profile, "cs_")))
            {
              sl_diag (diags, SL_DIAG_FX_PASS_NOT_PIXEL_SHADER, pd->loc.file, pd->loc.line, pd->loc.column,
                       "pixel shader of pass '%s' is compiled for %s", pd->pub.name,
                       profile);
              continue;
            }
          /* Checked here, where the technique's position is known:
           * sl_compile can only blame the whole file. */
          sl_profile_model (profile, &profile_ok);
          if (!profile_ok)
            {
              sl_diag (diags, SL_DIAG_FX_UNKNOWN_PROFILE, pd->profile_loc.file, pd->profile_loc.line,
                       pd->profile_loc.column,
                       "unknown profile '%s' (expected ps_2_0, ps_3_0, ps_4_0, …)", profile);
              continue;
            }
          char *key = g_strdup_printf ("%s|%s", pd->entry, profile ? profile : "");
          SlProgram *prog = g_hash_table_lookup (compiled, key);
          if (!prog)
            {
              SlCompileOptions co = {
                .source = s.out->str,
                .length = s.out->len,
                .filename = filename,
                .language = SL_LANGUAGE_HLSL,
                .entry_point = pd->entry,
                .profile = profile ? profile : "ps_4_0",
                .flags = options->flags | SL_COMPILE_RESHADE_FX,
              };
              prog = sl_compile (&co, diags);
              if (prog)
                {
                  g_ptr_array_add (fx->programs, prog);
                  g_hash_table_insert (compiled, key, prog);
                  key = NULL;
                }
            }
          g_free (key);
          if (!prog)
            continue;
          SlEffectPass *p = &passes[pi];
          *p = pd->pub;
          p->program = prog;
          p->pixel_shader = fx_display_name (&s, pd->entry);
          if (p->vertex_shader)
            p->vertex_shader = fx_display_name (&s, p->vertex_shader);
          p->width = fx->buffer_width;
          p->height = fx->buffer_height;
          if (p->n_render_targets > 0)
            {
              int first = -1;
              for (int r = 0; r < p->n_render_targets; r++)
                {
                  int ti2 = p->render_targets[r];
                  if (ti2 < 0)
                    continue;
                  const SlEffectTexture *rt = &g_array_index (fx->textures, SlEffectTexture, ti2);
                  if (first < 0)
                    {
                      first = ti2;
                      p->width = rt->width;
                      p->height = rt->height;
                    }
                  else if (rt->width != p->width || rt->height != p->height)
                    sl_diag (diags, SL_DIAG_FX_RENDER_TARGET_SIZES,
                             pd->loc.file, pd->loc.line, pd->loc.column,
                             "render targets of pass '%s' differ in size", p->name);
                }
            }
          if (sl_program_get_n_outputs (prog) < MAX (p->n_render_targets, 1) && p->n_render_targets > 1)
            sl_diag (diags, SL_DIAG_FX_RENDER_TARGET_COUNT, pd->loc.file, pd->loc.line, pd->loc.column,
                     "pass '%s' has %d render targets but its shader writes %d",
                     p->name, p->n_render_targets, sl_program_get_n_outputs (prog));
          /* A pass that reads what it writes is undefined on the GPU
           * (ReShade says so and compiles it); here it reads the target as
           * it was before the pass. */
          for (int k = 0; k < sl_program_get_n_samplers (prog); k++)
            {
              int tex = fx_slot_texture (fx, sl_program_get_sampler (prog, k));
              for (int r = 0; r < p->n_render_targets; r++)
                if (tex >= 0 && tex == p->render_targets[r])
                  sl_diag (diags, SL_DIAG_FX_PASS_READS_TARGET, pd->loc.file, pd->loc.line, pd->loc.column,
                           "pass '%s' samples texture '%s' it renders to; it reads the texture as it "
                           "was before the pass", p->name,
                           g_array_index (fx->textures, SlEffectTexture, tex).name);
            }
          if (p->vertex_shader && strcmp (p->vertex_shader, "PostProcessVS"))
            sl_diag (diags, SL_DIAG_FX_VERTEX_SHADER_IGNORED, pd->loc.file, pd->loc.line, pd->loc.column,
                     "vertex shader '%s' is not run: the pass draws a full-screen triangle with "
                     "TEXCOORD = the pixel centre", p->vertex_shader);
          add_union_params (fx, prog);
        }
      SlEffectTechnique tech = {
        .name = td->name,
        .n_passes = (int) td->passes->len,
        .passes = passes,
        .n_annotations = (int) td->annotations->len,
        .annotations = td->annotations->len
                         ? memcpy (SL_NEW_N (fx->arena, SlAnnotation, td->annotations->len),
                                   td->annotations->data, td->annotations->len * sizeof (SlAnnotation))
                         : NULL,
      };
      g_array_append_val (fx->techniques, tech);
    }
  g_hash_table_destroy (compiled);
  if (sl_diagnostics_error_count (diags) > errors_before)
    goto fail;
  goto out;

fail:
  effect_free (fx);
  fx = NULL;
out:
  if (s.techs)
    {
      for (guint i = 0; i < s.techs->len; i++)
        {
          g_array_free (g_array_index (s.techs, TechDraft, i).passes, TRUE);
          g_array_free (g_array_index (s.techs, TechDraft, i).annotations, TRUE);
        }
      g_array_free (s.techs, TRUE);
    }
  if (s.out)
    g_string_free (s.out, TRUE);
  if (s.declared)
    g_hash_table_destroy (s.declared);
  if (s.typed)
    g_hash_table_destroy (s.typed);
  if (s.consts)
    g_hash_table_destroy (s.consts);
  g_free (text);
  sl_diagnostics_free (own);
  return fx;
}

SlEffect *
sl_effect_ref (SlEffect *fx)
{
  g_atomic_int_inc (&fx->ref_count);
  return fx;
}

void
sl_effect_unref (SlEffect *fx)
{
  if (fx && g_atomic_int_dec_and_test (&fx->ref_count))
    effect_free (fx);
}

int
sl_effect_get_n_techniques (const SlEffect *fx)
{
  return (int) fx->techniques->len;
}

const SlEffectTechnique *
sl_effect_get_technique (const SlEffect *fx, int i)
{
  if (i < 0 || (guint) i >= fx->techniques->len)
    return NULL;
  return &g_array_index (fx->techniques, SlEffectTechnique, i);
}

int
sl_effect_find_technique (const SlEffect *fx, const char *name)
{
  for (guint i = 0; i < fx->techniques->len; i++)
    if (!strcmp (g_array_index (fx->techniques, SlEffectTechnique, i).name, name))
      return (int) i;
  return -1;
}

int
sl_effect_get_n_textures (const SlEffect *fx)
{
  return (int) fx->textures->len;
}

const SlEffectTexture *
sl_effect_get_texture (const SlEffect *fx, int i)
{
  if (i < 0 || (guint) i >= fx->textures->len)
    return NULL;
  return &g_array_index (fx->textures, SlEffectTexture, i);
}

int
sl_effect_get_n_params (const SlEffect *fx)
{
  return (int) fx->params->len;
}

const SlParam *
sl_effect_get_param (const SlEffect *fx, int i)
{
  if (i < 0 || (guint) i >= fx->params->len)
    return NULL;
  return &g_array_index (fx->params, SlParam, i);
}

bool
sl_effect_technique_reads_depth (const SlEffect *fx, int technique)
{
  const SlEffectTechnique *t = sl_effect_get_technique (fx, technique);
  for (int p = 0; t && p < t->n_passes; p++)
    {
      SlProgram *prog = t->passes[p].program;
      for (int k = 0; k < sl_program_get_n_samplers (prog); k++)
        {
          const SlSamplerInfo *si = sl_program_get_sampler (prog, k);
          int ti = si ? fx_slot_texture (fx, si) : -1;
          const SlEffectTexture *tx = sl_effect_get_texture (fx, ti);
          if (tx && tx->kind == SL_EFFECT_TEXTURE_DEPTH)
            return true;
        }
    }
  return false;
}
