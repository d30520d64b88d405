/* The effect's own declarations, and the walk over the top level that
 * finds them.
 *
 * fx_scan_scope reads a file's declarations (or a namespace's) one by one:
 * a namespace nests (its names get the prefix "N__"), techniques, textures
 * and samplers are effect syntax, and everything else is plain HLSL that
 * the scanner (fx_scan.c) copies.  A texture is recorded (size, format,
 * mips, and its kind: a target, the input for a COLOR semantic or a plain
 * D3D9 `texture T;`, DEPTH, or an image named by a source annotation) and
 * leaves no text.  A sampler is recorded with its states and the texture
 * it reads, and loses its state block: `sampler S { … };` becomes
 * `sampler2D S;`, other sampler types and SM4 SamplerState keep theirs;
 * ReShade's `sampler2D<T> S` loses its T, which the reads of S get back
 * as a cast (fx_scan.c).
 * A technique's passes become drafts with their entry points, profiles,
 * render targets and blend states, which fx_compile.c compiles.
 *
 * State values that are words are compared upper-cased without '_'
 * (fx_word_value), so SRCALPHA, Src_Alpha and D3D10_BLEND_SRC_ALPHA are one
 * word; sampler states go through the table shared with the HLSL parser
 * (hlsl/hlsl_sampler_state.c).  A state this runtime does not use gets a
 * note and is skipped; a value it cannot read is an error. */
#include "fx/fx_scan.h"
#include "hlsl/hlsl_sampler_state.h"
#include "preprocess/preprocess.h"

#include <math.h>
#include <string.h>

#define MAX_TEXTURE_SIDE    16384

/* ---- names, words and annotations ---- */

static const char *
ns_prefix (Scan *s)
{
  return s->n_ns ? s->ns[s->n_ns - 1] : "";
}

static bool
bool_word (const char *w, bool *v)
{
  if (!strcmp (w, "TRUE") || !strcmp (w, "1"))
    *v = true;
  else if (!strcmp (w, "FALSE") || !strcmp (w, "0"))
    *v = false;
  else
    return false;
  return true;
}

static const SlAnnotation *
find_annotation (GArray *anns, const char *name)
{
  for (guint i = 0; anns && i < anns->len; i++)
    if (!g_ascii_strcasecmp (g_array_index (anns, SlAnnotation, i).name, name))
      return &g_array_index (anns, SlAnnotation, i);
  return NULL;
}

/* ---- texture and sampler declarations ---- */

static int
find_texture (Scan *s, const char *mangled)
{
  for (guint i = 0; i < s->fx->texture_hlsl->len; i++)
    if (!strcmp (g_ptr_array_index (s->fx->texture_hlsl, i), mangled))
      return (int) i;
  return -1;
}

/* The canonical name of a format word (already upper case), or NULL.
 * ReShade's long spellings (R8G8, R16G16B16A16F, …) are aliases. */
static const char *
parse_format (const char *w)
{
  static const char *const ok[] = {
    "R8", "R16", "R16F", "R32F", "RG8", "RG16", "RG16F", "RG32F", "RGBA8", "RGBA16", "RGBA16F",
    "RGBA32F", "RGB10A2", "R32I", "R32U", "RG32I", "RG32U", "RGBA32I", "RGBA32U", "R8I", "R8U",
    "R16I", "R16U", NULL
  };
  static const char *const alias[][2] = {
    { "R8G8", "RG8" }, { "R16G16", "RG16" }, { "R16G16F", "RG16F" }, { "R32G32F", "RG32F" },
    { "R8G8B8A8", "RGBA8" }, { "R16G16B16A16", "RGBA16" }, { "R16G16B16A16F", "RGBA16F" },
    { "R32G32B32A32F", "RGBA32F" }, { "R10G10B10A2", "RGB10A2" },
  };
  for (int i = 0; ok[i]; i++)
    if (!strcmp (w, ok[i]))
      return ok[i];
  for (size_t i = 0; i < G_N_ELEMENTS (alias); i++)
    if (!strcmp (w, alias[i][0]))
      return alias[i][1];
  return NULL;
}

/* The file a `source = "…"` annotation names: next to the effect, then
 * in the include folders; in each exactly first, then (effects are
 * written on Windows) without regard to case, with '\\' as a separator. */
/* A name that exists and is not a folder: a FIFO or a device counts as
 * found, so the host that reads it says why it will not (the hostile-input
 * rule), where a missing image is only a warning. */
static bool
file_present (const char *path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS) && !g_file_test (path, G_FILE_TEST_IS_DIR);
}

static const char *
find_image (Scan *s, const char *name)
{
  char *rel = g_strdup (name);
  g_strdelimit (rel, "\\", '/');
  GPtrArray *cands = g_ptr_array_new_with_free_func (g_free);
  if (g_path_is_absolute (rel))
    g_ptr_array_add (cands, g_strdup (rel));
  else
    {
      char *dir = s->filename ? g_path_get_dirname (s->filename) : g_strdup (".");
      g_ptr_array_add (cands, g_build_filename (dir, rel, NULL));
      g_free (dir);
      for (int i = 0; s->dirs && s->dirs[i]; i++)
        g_ptr_array_add (cands, g_build_filename (s->dirs[i], rel, NULL));
    }
  const char *found = NULL;
  for (guint i = 0; i < cands->len && !found; i++)
    if (file_present (cands->pdata[i]))
      found = sl_arena_strdup (s->arena, cands->pdata[i]);
  for (guint i = 0; i < cands->len && !found; i++)
    {
      char *other = sl_pp_find_path_nocase (cands->pdata[i]);
      if (other && file_present (other))
        found = sl_arena_strdup (s->arena, other);
      g_free (other);
    }
  g_ptr_array_free (cands, TRUE);
  g_free (rel);
  return found;
}

/* texture NAME [: SEMANTIC] [< … >] [{ Width = …; … }] ; */
static void
parse_texture (Scan *s)
{
  SlLoc kw = next (s)->loc;
  SlLoc loc = peek (s)->loc;
  if (peek (s)->kind != TK_IDENT)
    {
      fx_error (s, loc, SL_DIAG_FX_EXPECTED_TEXTURE_NAME, "expected a texture name");
      fx_copy_statement (s);
      return;
    }
  const char *plain = next (s)->text;
  char *m = g_strconcat (ns_prefix (s), plain, NULL);
  SlEffectTexture tex = {
    .kind = SL_EFFECT_TEXTURE_TARGET,
    .width = 1, .height = 1, .format = "RGBA8", .mip_levels = 1,
  };
  bool sized = false, has_body = false, semantic = false;
  const char *sem = NULL;
  if (accept (s, ":"))
    {
      if (peek (s)->kind == TK_IDENT)
        sem = next (s)->text;
      semantic = true;
      if (sem && is (s, "("))   /* register(tN): ignored */
        while (!is (s, ")") && !at_eof (s))
          next (s);
      accept (s, ")");
    }
  GArray *anns = is (s, "<") ? fx_skip_annotations (s) : NULL;
  if (accept (s, "{"))
    {
      has_body = true;
      s->reshade = true;   /* D3D effects have no texture blocks */
      while (!is (s, "}") && !at_eof (s))
        {
          if (accept (s, ";"))
            continue;
          Token *key = next (s);
          if (!expect (s, "="))
            {
              s->pos = fx_value_end (s);
              continue;
            }
          double v;
          if (tok_is (key, "Width") || tok_is (key, "Height") || tok_is (key, "MipLevels")
              || tok_is (key, "Depth"))
            {
              if (fx_eval_value (s, &v))
                {
                  /* ReShade casts to int and makes a size that is not
                   * positive 1 (it warns only about negative ones): a
                   * BUFFER_WIDTH / 64 target exists on a small image. */
                  double iv = trunc (v);
                  if (iv < 0)
                    fx_note (s, key->loc, SL_DIAG_FX_TEXTURE_DIMENSION_NEGATIVE,
                             "texture '%s': %s %.0f is negative; 1 is used", plain, key->text, iv);
                  if (iv < 1)
                    iv = 1;
                  if (!tok_is (key, "Depth") && !tok_is (key, "MipLevels") && iv > MAX_TEXTURE_SIDE)
                    fx_error (s, key->loc, SL_DIAG_FX_TEXTURE_DIMENSION,
                              "texture '%s': %s %.0f is out of range (1 to %d)", plain, key->text,
                              iv, MAX_TEXTURE_SIDE);
                  else if (tok_is (key, "Width"))
                    tex.width = (int) iv, sized = true;
                  else if (tok_is (key, "Height"))
                    tex.height = (int) iv, sized = true;
                  else if (tok_is (key, "MipLevels"))
                    tex.mip_levels = (int) MIN (iv > 65535 ? 1 : iv, SL_MAX_MIP_LEVELS);
                }
            }
          else if (tok_is (key, "Format"))
            {
              /* an enum word, a macro for one, or ReShade's number */
              int end = fx_value_end (s), start = s->pos;
              FxNum n;
              const char *f = NULL;
              char *w = NULL;
              if (fx_fold (s, end, &n))
                {
                  static const char *const numbered[] = {
                    NULL, "R8", "R16", "R16F", "R32I", "R32U", "R32F", "RG8", "RG16", "RG16F",
                    "RG32F", "RGBA8", "RGBA16", "RGBA16F", "RGBA32F", "RGB10A2",
                  };
                  int k = (int) n.v;
                  f = k >= 0 && k < (int) G_N_ELEMENTS (numbered) ? numbered[k] : NULL;
                  w = g_strdup_printf ("%d", k);
                }
              else
                {
                  s->pos = start;
                  w = fx_word_value (s);
                  f = parse_format (w);
                }
              s->pos = end;
              if (!f)
                fx_error (s, key->loc, SL_DIAG_FX_TEXTURE_FORMAT,
                          "texture '%s': unknown format '%s'", plain, w);
              else
                tex.format = f;
              g_free (w);
            }
          else
            {
              fx_note (s, key->loc, SL_DIAG_FX_TEXTURE_STATE_IGNORED,
                       "texture state '%s' is ignored", key->text);
              s->pos = fx_value_end (s);
            }
          accept (s, ";");
        }
      expect (s, "}");
    }
  accept (s, ";");
  if (sem && (!g_ascii_strcasecmp (sem, "COLOR") || !g_ascii_strcasecmp (sem, "SV_Target")))
    tex.kind = SL_EFFECT_TEXTURE_COLOR;
  else if (sem && !g_ascii_strcasecmp (sem, "DEPTH"))
    tex.kind = SL_EFFECT_TEXTURE_DEPTH;
  const SlAnnotation *src = find_annotation (anns, "source");
  if (!src)
    src = find_annotation (anns, "ResourceName");
  if (!src)
    src = find_annotation (anns, "Name");
  if (src && src->type == SL_ANNOTATION_STRING && tex.kind == SL_EFFECT_TEXTURE_TARGET)
    {
      tex.kind = SL_EFFECT_TEXTURE_IMAGE;
      tex.source_file = sl_arena_strdup (s->arena, src->string_value);
      tex.source_path = find_image (s, src->string_value);
      if (!tex.source_path)
        fx_note (s, loc, SL_DIAG_FX_TEXTURE_IMAGE_MISSING,
                 "texture '%s': image '%s' not found; the texture reads as zero", plain,
                 src->string_value);
      if (!sized)
        tex.width = tex.height = 0;   /* the image's own size */
    }
  else if (!has_body && !semantic && tex.kind == SL_EFFECT_TEXTURE_TARGET)
    /* A plain D3D9 `texture T;` the application would bind: by this
     * project's convention, the input image. */
    tex.kind = SL_EFFECT_TEXTURE_COLOR;
  if (tex.kind == SL_EFFECT_TEXTURE_COLOR || tex.kind == SL_EFFECT_TEXTURE_DEPTH)
    {
      tex.width = tex.kind == SL_EFFECT_TEXTURE_COLOR ? s->fx->buffer_width : 1;
      tex.height = tex.kind == SL_EFFECT_TEXTURE_COLOR ? s->fx->buffer_height : 1;
      tex.format = "RGBA32F";
    }
  (void) kw;
  if (anns)
    g_array_free (anns, TRUE);
  if (find_texture (s, m) >= 0)
    {
      fx_error (s, loc, SL_DIAG_FX_TEXTURE_REDECLARED, "texture '%s' is declared twice", plain);
      g_free (m);
      return;
    }
  tex.name = fx_display_name (s, m);
  g_array_append_val (s->fx->textures, tex);
  g_array_append_val (s->fx->texture_locs, loc);
  g_ptr_array_add (s->fx->texture_hlsl, sl_arena_strdup (s->arena, m));
  g_free (m);
}

/* The body of a sampler state block, current token after '{'. */
static void
parse_sampler_body (Scan *s, ESampler *es, const char *plain)
{
  while (!is (s, "}") && !at_eof (s))
    {
      if (accept (s, ";"))
        continue;
      Token *key = next (s);
      if (!expect (s, "="))
        {
          s->pos = fx_value_end (s);
          continue;
        }
      const char *k = key->text;
      const HlslSamplerKey *sk = hlsl_sampler_key (k);
      if (sk && sk->value == HLSL_SAMPLER_TEXTURE)
        {
          int end = fx_value_end (s);
          while (s->pos < end && (is (s, "<") || is (s, "(")))
            next (s);
          SlLoc nloc;
          const char *tn = fx_read_name (s, &nloc);
          while (s->pos < end)
            next (s);
          int idx = tn ? find_texture (s, tn) : -1;
          if (idx < 0)
            fx_error (s, nloc, SL_DIAG_FX_SAMPLER_TEXTURE,
                      "sampler '%s': unknown texture '%s'", plain, tn ? tn : "?");
          es->texture = idx;
        }
      else if (sk && sk->value == HLSL_SAMPLER_NUMBER)
        {
          double v;
          if (fx_eval_value (s, &v))
            {
              float f = (float) v;
              hlsl_sampler_set_numbers (&es->state, sk, &f, 1);
            }
        }
      else
        {
          /* Filters, address modes and SRGBTexture are words; a border
           * colour is not read here. */
          char *w = fx_word_value (s);
          if (!sk || sk->value == HLSL_SAMPLER_COLOR)
            fx_note (s, key->loc, SL_DIAG_FX_SAMPLER_STATE_IGNORED, "sampler state '%s' is ignored", k);
          else if (!hlsl_sampler_set_word (&es->state, sk, w))
            fx_error (s, key->loc, SL_DIAG_FX_SAMPLER_STATE_VALUE,
                      "sampler '%s': invalid %s value '%s'", plain, k, w);
          g_free (w);
        }
      accept (s, ";");
    }
  expect (s, "}");
}

/* The T of sampler2D<T>: float, int, uint, bool and their vectors. */
static bool
is_read_type (const char *t)
{
  static const char *const base[] = { "float", "int", "uint", "bool", "half", "dword" };
  for (size_t i = 0; i < G_N_ELEMENTS (base); i++)
    if (g_str_has_prefix (t, base[i]))
      {
        const char *n = t + strlen (base[i]);
        return !n[0] || (n[0] >= '1' && n[0] <= '4' && !n[1]);
      }
  return false;
}

/* sampler NAME { … };   sampler2D NAME = sampler_state { … };
 * SamplerState NAME { … };   and plain `sampler2D NAME : register(s0);` */
static void
parse_sampler (Scan *s)
{
  Token *kw = peek (s);
  bool state_object = tok_is (kw, "SamplerState") || tok_is (kw, "SamplerComparisonState");
  /* ReShade's sampler2D<T>: reads give T (fx_copy_statement casts them) */
  Token *targ = !state_object && tok_is (peek_at (s, 1), "<") && tok_is (peek_at (s, 3), ">")
                ? peek_at (s, 2) : NULL;
  int k = targ ? 4 : 1;
  Token *nt = peek_at (s, k);
  Token *after = peek_at (s, k + 1);
  if (nt->kind != TK_IDENT || tok_is (after, "[") || (targ && !is_read_type (targ->text)))
    {
      if (targ)
        fx_error (s, targ->loc, SL_DIAG_FX_SAMPLER_TYPE,
                  "sampler type '%s' is not a scalar or vector of float, int or uint", targ->text);
      fx_copy_statement (s);
      return;
    }
  const char *type = state_object ? kw->text : tok_is (kw, "sampler") ? "sampler2D" : kw->text;
  s->pos += k;
  next (s);
  char *m = g_strconcat (ns_prefix (s), nt->text, NULL);
  if (targ)
    g_hash_table_insert (s->typed, sl_arena_strdup (s->arena, m), (gpointer) targ->text);
  ESampler es = { .name = sl_arena_strdup (s->arena, m), .texture = -1, .state_object = state_object };
  g_free (m);
  sl_sampler_state_init_default (&es.state);
  fx_out_text (s, kw->loc, type);
  fx_out_text (s, nt->loc, es.name);
  /* keep register() and semantics; drop the state block */
  while (is (s, ":"))
    {
      fx_out_token (s, next (s), NULL);
      while (!is (s, ":") && !is (s, ";") && !is (s, "=") && !is (s, "{") && !is (s, "<") && !at_eof (s))
        fx_out_token (s, next (s), NULL);
    }
  if (is (s, "<"))
    fx_copy_annotations (s, NULL, true);
  bool d3d = false;
  if (accept (s, "="))
    {
      d3d = true;
      if (!accept (s, "sampler_state"))
        fx_error (s, peek (s)->loc, SL_DIAG_FX_EXPECTED_SAMPLER_STATE, "expected sampler_state after '='");
    }
  if (accept (s, "{"))
    {
      /* `sampler S { … }` is ReShade's; D3D effects write sampler_state,
       * SM4 ones SamplerState. */
      if (!d3d && !state_object)
        s->reshade = true;
      parse_sampler_body (s, &es, nt->text);
    }
  fx_out_text (s, peek (s)->loc, ";");
  accept (s, ";");
  g_array_append_val (s->fx->samplers, es);
}

/* ---- techniques ---- */

static bool
blend_factor (const char *w, SlBlendFactor *f)
{
  static const struct { const char *n; SlBlendFactor f; } t[] = {
    { "ZERO", SL_BLEND_ZERO }, { "ONE", SL_BLEND_ONE },
    { "SRCCOLOR", SL_BLEND_SRC_COLOR }, { "INVSRCCOLOR", SL_BLEND_INV_SRC_COLOR },
    { "SRCALPHA", SL_BLEND_SRC_ALPHA }, { "INVSRCALPHA", SL_BLEND_INV_SRC_ALPHA },
    { "DESTCOLOR", SL_BLEND_DEST_COLOR }, { "INVDESTCOLOR", SL_BLEND_INV_DEST_COLOR },
    { "DESTALPHA", SL_BLEND_DEST_ALPHA }, { "INVDESTALPHA", SL_BLEND_INV_DEST_ALPHA },
    { "DSTCOLOR", SL_BLEND_DEST_COLOR }, { "INVDSTCOLOR", SL_BLEND_INV_DEST_COLOR },
    { "DSTALPHA", SL_BLEND_DEST_ALPHA }, { "INVDSTALPHA", SL_BLEND_INV_DEST_ALPHA },
  };
  for (const char *pre = w; pre; pre = NULL)
    {
      /* D3D10BLEND_, D3D11BLEND_, BLEND_ prefixes */
      if (g_str_has_prefix (w, "D3D10BLEND") || g_str_has_prefix (w, "D3D11BLEND"))
        w += 10;
      else if (g_str_has_prefix (w, "BLEND"))
        w += 5;
    }
  for (size_t i = 0; i < G_N_ELEMENTS (t); i++)
    if (!strcmp (w, t[i].n))
      {
        *f = t[i].f;
        return true;
      }
  return false;
}

static bool
blend_op (const char *w, SlBlendOp *op)
{
  if (g_str_has_prefix (w, "D3D10BLENDOP") || g_str_has_prefix (w, "D3D11BLENDOP"))
    w += 12;
  else if (g_str_has_prefix (w, "BLENDOP"))
    w += 7;
  if (!strcmp (w, "ADD"))
    *op = SL_BLEND_OP_ADD;
  else if (!strcmp (w, "SUBTRACT"))
    *op = SL_BLEND_OP_SUBTRACT;
  else if (!strcmp (w, "REVSUBTRACT"))
    *op = SL_BLEND_OP_REV_SUBTRACT;
  else if (!strcmp (w, "MIN"))
    *op = SL_BLEND_OP_MIN;
  else if (!strcmp (w, "MAX"))
    *op = SL_BLEND_OP_MAX;
  else
    return false;
  return true;
}

/* A shader value: `compile ps_3_0 F()`, `CompileShader(ps_4_0, F())`,
 * `F` or NULL.  Returns the mangled entry or NULL. */
static const char *
shader_value (Scan *s, const char **profile, SlLoc *profile_loc, SlLoc *loc)
{
  int end = fx_value_end (s);
  const char *entry = NULL;
  *profile = NULL;
  *loc = peek (s)->loc;
  *profile_loc = *loc;
  if (accept (s, "compile"))
    {
      *profile_loc = peek (s)->loc;
      if (peek (s)->kind == TK_IDENT)
        *profile = sl_arena_strdup (s->arena, next (s)->text);
    }
  else if (accept (s, "CompileShader"))
    {
      expect (s, "(");
      *profile_loc = peek (s)->loc;
      if (peek (s)->kind == TK_IDENT)
        *profile = sl_arena_strdup (s->arena, next (s)->text);
      expect (s, ",");
    }
  if (is (s, "NULL") || is (s, "0"))
    {
      s->pos = end;
      return NULL;
    }
  *loc = peek (s)->loc;
  entry = fx_read_name (s, loc);
  if (accept (s, "("))
    {
      if (!is (s, ")"))
        fx_error (s, peek (s)->loc, SL_DIAG_FX_PASS_ENTRY_ARGUMENTS,
                  "arguments to the entry point of a pass are not supported");
    }
  s->pos = end;
  return entry;
}

static void
parse_pass (Scan *s, TechDraft *td)
{
  PassDraft pd = { 0 };
  SlLoc loc = next (s)->loc;   /* 'pass' */
  pd.loc = loc;
  pd.pub.name = "";
  if (peek (s)->kind == TK_IDENT)
    pd.pub.name = sl_arena_strdup (s->arena, next (s)->text);
  if (is (s, "<"))
    g_array_free (fx_skip_annotations (s), TRUE);
  pd.pub.src_blend = pd.pub.src_blend_alpha = SL_BLEND_ONE;
  pd.pub.dest_blend = pd.pub.dest_blend_alpha = SL_BLEND_ZERO;
  pd.pub.write_mask = 0xf;
  for (int i = 0; i < SL_EFFECT_MAX_TARGETS; i++)
    pd.pub.render_targets[i] = -1;
  /* D3D9 blends alpha with the colour factors unless told otherwise. */
  bool d3d9_blend = false, separate_alpha = false;
  if (!expect (s, "{"))
    return;
  while (!is (s, "}") && !at_eof (s))
    {
      if (accept (s, ";"))
        continue;
      Token *key = next (s);
      if (tok_is (key, "AlphaBlendEnable"))
        d3d9_blend = true;
      if (tok_is (key, "SeparateAlphaBlendEnable"))
        {
          accept (s, "=");
          char *w = fx_word_value (s);
          bool_word (w, &separate_alpha);
          g_free (w);
          accept (s, ";");
          continue;
        }
      if (key->kind != TK_IDENT)
        {
          fx_error (s, key->loc, SL_DIAG_FX_EXPECTED_PASS_STATE,
                    "expected a pass state, got '%s'", key->text);
          s->pos = fx_value_end (s);
          accept (s, ";");
          continue;
        }
      const char *k = key->text;
      if (is (s, "("))
        {
          /* D3D10 style: SetPixelShader(CompileShader(ps_4_0, F())) */
          if (!strcmp (k, "SetPixelShader") || !strcmp (k, "SetVertexShader"))
            {
              next (s);
              const char *profile = NULL;
              SlLoc el = key->loc, pl = key->loc;
              int close = fx_value_end (s);
              const char *e = NULL;
              if (!is (s, ")"))
                {
                  /* stop the value at the call's ')' */
                  e = shader_value (s, &profile, &pl, &el);
                }
              (void) close;
              accept (s, ")");
              if (!strcmp (k, "SetPixelShader"))
                {
                  pd.entry = e;
                  pd.profile = profile;
                  pd.profile_loc = pl;
                  pd.loc = el;
                }
              else if (e)
                pd.pub.vertex_shader = e;
            }
          else
            {
              if (strcmp (k, "SetGeometryShader") && strcmp (k, "SetHullShader") && strcmp (k, "SetDomainShader"))
                fx_note (s, key->loc, SL_DIAG_FX_PASS_STATE_IGNORED, "pass state '%s' is ignored", k);
              s->pos = fx_value_end (s);
            }
          accept (s, ";");
          continue;
        }
      int index = -1;
      if (accept (s, "["))
        {
          if (peek (s)->kind == TK_INT)
            index = (int) next (s)->ival;
          expect (s, "]");
        }
      if (!expect (s, "="))
        {
          s->pos = fx_value_end (s);
          accept (s, ";");
          continue;
        }
      if (!g_ascii_strcasecmp (k, "PixelShader") || !g_ascii_strcasecmp (k, "VertexShader"))
        {
          /* ReShade names the function alone; D3D effects compile it */
          if (!is (s, "compile") && !is (s, "CompileShader"))
            s->reshade = true;
          const char *profile;
          SlLoc el, pl;
          const char *e = shader_value (s, &profile, &pl, &el);
          if (!g_ascii_strcasecmp (k, "PixelShader"))
            {
              pd.entry = e;
              pd.profile = profile;
              pd.profile_loc = pl;
              pd.loc = el;
            }
          else
            pd.pub.vertex_shader = e;
        }
      else if (!g_ascii_strncasecmp (k, "RenderTarget", 12)
               && (k[12] == 0 || (g_ascii_isdigit (k[12]) && k[13] == 0)))
        {
          int slot = k[12] ? k[12] - '0' : MAX (index, 0);
          SlLoc nloc;
          const char *tn = fx_read_name (s, &nloc);
          int idx = tn ? find_texture (s, tn) : -1;
          if (idx < 0)
            fx_error (s, nloc, SL_DIAG_FX_RENDER_TARGET_UNKNOWN,
                      "pass render target '%s' is not a declared texture", tn ? tn : "?");
          else if (slot >= SL_EFFECT_MAX_TARGETS)
            fx_error (s, key->loc, SL_DIAG_FX_RENDER_TARGET_LIMIT,
                      "at most %d render targets are supported", SL_EFFECT_MAX_TARGETS);
          else if (g_array_index (s->fx->textures, SlEffectTexture, idx).kind != SL_EFFECT_TEXTURE_TARGET)
            fx_error (s, nloc, SL_DIAG_FX_RENDER_TARGET_INVALID,
                      "texture '%s' cannot be a render target", tn);
          else
            {
              pd.pub.render_targets[slot] = idx;
              pd.pub.n_render_targets = MAX (pd.pub.n_render_targets, slot + 1);
            }
          s->pos = fx_value_end (s);
        }
      else if (!g_ascii_strcasecmp (k, "BlendOp") || !g_ascii_strcasecmp (k, "BlendOpAlpha"))
        {
          char *w = fx_word_value (s);
          if (!blend_op (w, !g_ascii_strcasecmp (k, "BlendOp") ? &pd.pub.blend_op : &pd.pub.blend_op_alpha))
            fx_error (s, key->loc, SL_DIAG_FX_BLEND_OPERATION, "unknown blend operation '%s'", w);
          g_free (w);
        }
      else if (!g_ascii_strcasecmp (k, "SrcBlend") || !g_ascii_strcasecmp (k, "DestBlend")
               || !g_ascii_strcasecmp (k, "SrcBlendAlpha") || !g_ascii_strcasecmp (k, "DestBlendAlpha"))
        {
          char *w = fx_word_value (s);
          SlBlendFactor *f = !g_ascii_strcasecmp (k, "SrcBlend") ? &pd.pub.src_blend
                             : !g_ascii_strcasecmp (k, "DestBlend") ? &pd.pub.dest_blend
                             : !g_ascii_strcasecmp (k, "SrcBlendAlpha") ? &pd.pub.src_blend_alpha
                             : &pd.pub.dest_blend_alpha;
          if (!blend_factor (w, f))
            fx_error (s, key->loc, SL_DIAG_FX_BLEND_FACTOR, "unknown blend factor '%s'", w);
          g_free (w);
        }
      else if (!g_ascii_strcasecmp (k, "BlendEnable") || !g_ascii_strcasecmp (k, "AlphaBlendEnable")
               || !g_ascii_strcasecmp (k, "ClearRenderTargets") || !g_ascii_strcasecmp (k, "SRGBWriteEnable"))
        {
          char *w = fx_word_value (s);
          bool b;
          if (!bool_word (w, &b))
            fx_error (s, key->loc, SL_DIAG_FX_EXPECTED_BOOLEAN, "%s expects true or false, got '%s'", k, w);
          else if (!g_ascii_strcasecmp (k, "ClearRenderTargets"))
            pd.pub.clear = b;
          else if (!g_ascii_strcasecmp (k, "SRGBWriteEnable"))
            pd.pub.srgb_write = b;
          else
            pd.pub.blend = b;
          g_free (w);
        }
      else if (!g_ascii_strcasecmp (k, "RenderTargetWriteMask") || !g_ascii_strcasecmp (k, "ColorWriteMask")
               || !g_ascii_strcasecmp (k, "ColorWriteEnable"))
        {
          double v;
          if (fx_eval_value (s, &v))
            pd.pub.write_mask = (unsigned) v & 0xf;
        }
      else
        {
          if (g_ascii_strcasecmp (k, "VertexCount") && g_ascii_strcasecmp (k, "PrimitiveTopology"))
            fx_note (s, key->loc, SL_DIAG_FX_PASS_STATE_IGNORED, "pass state '%s' is ignored", k);
          else if (!g_ascii_strcasecmp (k, "PrimitiveTopology") || !g_ascii_strcasecmp (k, "VertexCount"))
            fx_note (s, key->loc, SL_DIAG_FX_PASS_STATE_DRAW_IGNORED,
                     "pass state '%s' is ignored: every pass draws one full-screen triangle", k);
          s->pos = fx_value_end (s);
        }
      accept (s, ";");
    }
  expect (s, "}");
  if (d3d9_blend && !separate_alpha)
    {
      static const SlBlendFactor as_alpha[] = {
        [SL_BLEND_ZERO] = SL_BLEND_ZERO, [SL_BLEND_ONE] = SL_BLEND_ONE,
        [SL_BLEND_SRC_COLOR] = SL_BLEND_SRC_ALPHA, [SL_BLEND_INV_SRC_COLOR] = SL_BLEND_INV_SRC_ALPHA,
        [SL_BLEND_SRC_ALPHA] = SL_BLEND_SRC_ALPHA, [SL_BLEND_INV_SRC_ALPHA] = SL_BLEND_INV_SRC_ALPHA,
        [SL_BLEND_DEST_COLOR] = SL_BLEND_DEST_ALPHA, [SL_BLEND_INV_DEST_COLOR] = SL_BLEND_INV_DEST_ALPHA,
        [SL_BLEND_DEST_ALPHA] = SL_BLEND_DEST_ALPHA, [SL_BLEND_INV_DEST_ALPHA] = SL_BLEND_INV_DEST_ALPHA,
      };
      pd.pub.src_blend_alpha = as_alpha[pd.pub.src_blend];
      pd.pub.dest_blend_alpha = as_alpha[pd.pub.dest_blend];
      pd.pub.blend_op_alpha = pd.pub.blend_op;
    }
  if (!pd.entry)
    {
      fx_error (s, loc, SL_DIAG_FX_PASS_NO_PIXEL_SHADER, "pass '%s' has no pixel shader", pd.pub.name);
      return;
    }
  pd.pub.pixel_shader = pd.entry;
  g_array_append_val (td->passes, pd);
}

static void
parse_technique (Scan *s)
{
  SlLoc loc = next (s)->loc;
  TechDraft td = { .name = "" };
  if (peek (s)->kind == TK_IDENT)
    td.name = sl_arena_strdup (s->arena, next (s)->text);
  td.annotations = is (s, "<") ? fx_skip_annotations (s) : g_array_new (FALSE, TRUE, sizeof (SlAnnotation));
  td.passes = g_array_new (FALSE, TRUE, sizeof (PassDraft));
  if (expect (s, "{"))
    {
      while (!is (s, "}") && !at_eof (s))
        {
          if (is (s, "pass"))
            parse_pass (s, &td);
          else
            {
              fx_error (s, peek (s)->loc, SL_DIAG_FX_EXPECTED_PASS,
                        "expected 'pass' in technique '%s'", td.name);
              next (s);
            }
        }
      expect (s, "}");
    }
  accept (s, ";");
  if (td.passes->len == 0)
    fx_error (s, loc, SL_DIAG_FX_TECHNIQUE_NO_PASSES, "technique '%s' has no passes", td.name);
  g_array_append_val (s->techs, td);
}

/* ---- the top level ---- */

static bool
is_texture_keyword (Scan *s)
{
  Token *t = peek (s);
  return (tok_is (t, "texture") || tok_is (t, "texture2D") || tok_is (t, "texture1D")
          || tok_is (t, "texture3D") || tok_is (t, "textureCUBE") || tok_is (t, "Texture"))
         && peek_at (s, 1)->kind == TK_IDENT;
}

static bool
is_sampler_keyword (Scan *s)
{
  Token *t = peek (s);
  return (tok_is (t, "sampler") || tok_is (t, "sampler2D") || tok_is (t, "sampler1D")
          || tok_is (t, "sampler3D") || tok_is (t, "samplerCUBE") || tok_is (t, "SamplerState")
          || tok_is (t, "SamplerComparisonState"))
         && (peek_at (s, 1)->kind == TK_IDENT
             || (tok_is (peek_at (s, 1), "<") && tok_is (peek_at (s, 3), ">")));
}

void
fx_scan_scope (Scan *s, bool in_namespace)
{
  while (!at_eof (s))
    {
      int before = s->pos;
      Token *t = peek (s);
      if (tok_is (t, "}"))
        {
          if (in_namespace)
            return;
          fx_error (s, t->loc, SL_DIAG_FX_UNEXPECTED_BRACE, "unexpected '}'");
          next (s);
          continue;
        }
      if (tok_is (t, "namespace") && peek_at (s, 1)->kind == TK_IDENT)
        {
          next (s);
          Token *nt = next (s);
          if (!expect (s, "{"))
            continue;
          if (s->n_ns >= MAX_NAMESPACE_DEPTH)
            {
              fx_error (s, nt->loc, SL_DIAG_FX_NAMESPACE_DEPTH, "namespaces are nested too deeply");
              return;
            }
          char *m = g_strconcat (ns_prefix (s), nt->text, "__", NULL);
          s->ns[s->n_ns++] = sl_arena_strdup (s->arena, m);
          g_free (m);
          s->reshade = true;
          fx_scan_scope (s, true);
          s->n_ns--;
          expect (s, "}");
          accept (s, ";");
          continue;
        }
      if (tok_is (t, "technique") || tok_is (t, "technique9") || tok_is (t, "technique10")
          || tok_is (t, "technique11"))
        parse_technique (s);
      else if (is_texture_keyword (s))
        parse_texture (s);
      else if (is_sampler_keyword (s))
        parse_sampler (s);
      else if (t->kind == TK_PRAGMA || tok_is (t, ";"))
        fx_out_token (s, next (s), NULL);
      else
        {
          fx_record_constants (s, ns_prefix (s));
          fx_copy_statement (s);
        }
      if (s->pos == before)
        next (s);
    }
}
