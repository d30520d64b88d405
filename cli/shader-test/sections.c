/* The sections a run reads: [require], resources and the [test] lines.
 *
 * [require] decides, per model, whether the blocks after it run; an unmet
 * requirement (a shader model range, a capability or compile option this
 * runner does not have) turns their checks into skips with the reason.
 * Resource sections ([srv]/[texture], [sampler], [rtv]) fill the run's
 * slots; what cannot be emulated (buffers, other formats, non-2D targets)
 * is kept as a reason, so the draws that would use it are skipped rather
 * than run wrongly.  Texel data, read in D3D's face-major subresource
 * order, is converted to the RGBA float32 levels shaderlib samples.
 *
 * [test] lines are taken one at a time with their todo/bug/notimpl/if
 * prefixes: uniforms are stored as raw 32-bit words, `draw quad` starts a
 * draw and probes check it; other draws and dispatches are skipped, and
 * any other state change (clears, depth, fog, …) marks every later draw
 * of the run as skipped. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "runner.h"

void
st_run_require (Run *run, const Block *b)
{
  GString *why = NULL;

  g_clear_pointer (&run->req_skip, g_free);
  run->req_line = b->header_line;
  run->backcompat = FALSE;

  for (int i = b->first; i < b->end; i++)
    {
      const char *p = run->tf->lines[i];
      char       *unmet = NULL;
      int         version;

      if (st_at_end (p))
        continue;
      if (st_match_words (&p, "shader model"))
        {
          const char *q = st_skip_ws (p);
          int         op;

          if (q[0] == '>' && q[1] == '=')      { op = 0; q += 2; }
          else if (q[0] == '<' && q[1] == '=') { op = 1; q += 2; }
          else if (q[0] == '>')                { op = 2; q += 1; }
          else if (q[0] == '<')                { op = 3; q += 1; }
          else                                 { op = -1; }
          if (op < 0 || !st_parse_version (&q, &version) || !st_at_end (q))
            {
              st_record_error (run, i + 1, 1, "malformed requirement '%s'",
                               run->tf->lines[i]);
              unmet = g_strdup ("a malformed requirement");
            }
          else if ((op == 0 && run->model->code < version)
                   || (op == 1 && run->model->code > version)
                   || (op == 2 && run->model->code <= version)
                   || (op == 3 && run->model->code >= version))
            unmet = g_strdup (st_skip_ws (run->tf->lines[i]));
        }
      else if (st_match_word (&p, "options") && st_expect_char (&p, ':'))
        {
          gchar **words = g_strsplit_set (st_skip_ws (p), " \t", -1);

          for (int w = 0; words[w]; w++)
            {
              if (!*words[w] || !strcmp (words[w], "none"))
                continue;
              if (!strcmp (words[w], "backcompat"))
                run->backcompat = TRUE;
              else if (!unmet)
                unmet = g_strdup_printf ("compile option '%s'", words[w]);
            }
          g_strfreev (words);
        }
      else
        /* Capabilities (float64, int64, native-16-bit, wave ops, UAV
         * formats, point size, fog, …) are not available here. */
        unmet = g_strdup (st_skip_ws (run->tf->lines[i]));

      if (unmet)
        {
          if (!why)
            why = g_string_new ("requires ");
          else
            g_string_append (why, ", ");
          g_string_append (why, unmet);
          g_free (unmet);
        }
    }
  if (why)
    run->req_skip = g_string_free (why, FALSE);
}

typedef struct
{
  const char *name;
  int         components;
  int         kind;         /* 0 float, 1 sint, 2 uint */
} FormatInfo;

static const FormatInfo formats[] = {
  { "r32g32b32a32-float", 4, 0 },
  { "r32g32b32a32-sint",  4, 1 },
  { "r32g32b32a32-uint",  4, 2 },
  { "r32g32-float",       2, 0 },
  { "r32g32-sint",        2, 1 },
  { "r32g32-uint",        2, 2 },
  { "r32-float-shadow",   1, 0 },
  { "r32-float",          1, 0 },
  { "r32-typeless",       1, 0 },
  { "r32-sint",           1, 1 },
  { "r32-uint",           1, 2 },
};

static const FormatInfo *
find_format (const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS (formats); i++)
    if (!strcmp (formats[i].name, name))
      return &formats[i];
  return NULL;
}

/* The blank-separated word at @p (a format or resource kind), g_malloc'd. */
static char *
format_word (const char *p)
{
  const char *s = st_skip_ws (p);
  const char *e = s;

  while (*e && *e != ' ' && *e != '\t')
    e++;
  return g_strndup (s, e - s);
}

void
st_run_srv (Run *run, const Block *b)
{
  SrvState         *s;
  const FormatInfo *fmt = &formats[0];
  char             *unsupported = NULL;
  SlTextureKind     kind = SL_TEXTURE_2D;
  int               w = 1, h = 1, d = 1, levels = 1;
  gboolean          have_size = FALSE;
  GArray           *data = g_array_new (FALSE, FALSE, sizeof (float));
  int               data_line = b->header_line;
  gboolean          bad = FALSE;

  if (b->slot >= SL_MAX_SLOTS)
    {
      st_record_error (run, b->header_line, 1,
                       "texture slot %d is out of range (max %d)",
                       b->slot, SL_MAX_SLOTS - 1);
      g_array_unref (data);
      return;
    }

  for (int i = b->first; i < b->end && !bad; i++)
    {
      const char *p = run->tf->lines[i];
      const char *pc = strchr (p, '%');
      char       *line = pc ? g_strndup (p, pc - p) : g_strdup (p);

      p = line;
      if (st_at_end (p))
        ;
      else if (st_match_word (&p, "size"))
        {
          const char *q = p;
          have_size = TRUE;
          if (!st_expect_char (&q, '('))
            bad = TRUE;
          else if (st_match_word (&q, "2d"))
            {
              kind = SL_TEXTURE_2D;
              bad = !(st_expect_char (&q, ',') && st_parse_int (&q, &w)
                      && st_expect_char (&q, ',') && st_parse_int (&q, &h));
            }
          else if (st_match_word (&q, "3d"))
            {
              kind = SL_TEXTURE_3D;
              bad = !(st_expect_char (&q, ',') && st_parse_int (&q, &w)
                      && st_expect_char (&q, ',') && st_parse_int (&q, &h)
                      && st_expect_char (&q, ',') && st_parse_int (&q, &d));
            }
          else if (st_match_word (&q, "1d"))
            {
              kind = SL_TEXTURE_1D;
              bad = !(st_expect_char (&q, ',') && st_parse_int (&q, &w));
            }
          else if (st_match_word (&q, "cube"))
            {
              kind = SL_TEXTURE_CUBE;
              bad = !(st_expect_char (&q, ',') && st_parse_int (&q, &w));
              h = w;
              d = 6;
            }
          else
            {
              char *what = format_word (q);
              unsupported = g_strdup_printf ("'%s' resources are not "
                                             "supported", what);
              g_free (what);
              while (*q && *q != ')')
                q++;
            }
          if (!bad && !st_expect_char (&q, ')'))
            bad = TRUE;
          if (bad)
            st_record_error (run, i + 1, 1, "malformed size '%s'", line);
          else if (!unsupported && (w <= 0 || h <= 0 || d <= 0
                                    || (gint64) w * h * d > (1 << 22)))
            {
              st_record_error (run, i + 1, 1, "bad texture size '%s'", line);
              bad = TRUE;
            }
        }
      else if (st_match_word (&p, "levels"))
        {
          if (!st_parse_int (&p, &levels) || !st_at_end (p) || levels < 1
              || levels > SL_MAX_MIP_LEVELS)
            {
              st_record_error (run, i + 1, 1, "malformed levels '%s'", line);
              bad = TRUE;
            }
        }
      else if (st_match_word (&p, "format"))
        {
          char *name = format_word (p);
          fmt = find_format (name);
          if (!fmt)
            {
              g_free (unsupported);
              unsupported = g_strdup_printf ("texture format '%s' is not "
                                             "supported", name);
              fmt = &formats[0];
            }
          g_free (name);
        }
      else if (st_match_word (&p, "stride"))
        ;  /* buffers only; they are reported unsupported by "size" */
      else
        {
          /* Texel data: numbers separated by blanks. */
          data_line = i + 1;
          while (!st_at_end (p))
            {
              double v;
              if (fmt->kind == 0)
                {
                  if (!st_parse_double (&p, &v))
                    break;
                }
              else
                {
                  long long iv;
                  if (!st_parse_long (&p, &iv))
                    break;
                  v = fmt->kind == 2 ? (double) (guint32) iv
                                     : (double) (gint32) iv;
                }
              {
                float f = (float) v;
                g_array_append_val (data, f);
              }
            }
          if (!st_at_end (p))
            {
              st_record_error (run, i + 1, (int) (st_skip_ws (p) - line) + 1,
                               "malformed texel data near '%s'",
                               st_skip_ws (p));
              bad = TRUE;
            }
        }
      g_free (line);
    }

  s = &run->srv[b->slot];
  st_srv_clear (run, s);
  s->present = TRUE;
  if (bad)
    s->unsupported = g_strdup ("the texture section is malformed");
  else if (unsupported)
    {
      s->unsupported = unsupported;
      unsupported = NULL;
    }
  else if (!have_size)
    {
      st_record_error (run, b->header_line, 1, "texture section has no size");
      s->unsupported = g_strdup ("the texture section is malformed");
    }
  else
    {
      int    faces = kind == SL_TEXTURE_CUBE ? 6 : 1;
      int    max_dim = MAX (MAX (w, h), kind == SL_TEXTURE_3D ? d : 1);
      gsize  needed = 0, total = 0;
      gsize  offsets[SL_MAX_MIP_LEVELS];

      if (levels > 1 + (int) floor (log2 (max_dim)))
        levels = 1 + (int) floor (log2 (max_dim));
      for (int l = 0; l < levels; l++)
        {
          int lw = MAX (1, w >> l), lh = MAX (1, h >> l);
          int ld = kind == SL_TEXTURE_3D ? MAX (1, d >> l) : faces;
          offsets[l] = total;
          total += (gsize) lw * lh * ld * 4;
          needed += (gsize) lw * lh * ld * fmt->components;
        }
      if (data->len != needed)
        {
          st_record_error (run, data_line, 1,
                           "texture has %u values, expected %" G_GSIZE_FORMAT,
                           data->len, needed);
          s->unsupported = g_strdup ("the texture section is malformed");
        }
      else
        {
          const float *src = (const float *) (void *) data->data;
          s->texels = g_new0 (float, total);
          /* D3D orders subresources face-major (all levels of face 0
           * first); 2D and 3D textures have one "face". */
          for (int f = 0; f < faces; f++)
            for (int l = 0; l < levels; l++)
              {
                int    lw = MAX (1, w >> l), lh = MAX (1, h >> l);
                int    ld = kind == SL_TEXTURE_3D ? MAX (1, d >> l) : 1;
                float *dst = s->texels + offsets[l]
                             + (gsize) f * lw * lh * 4;
                for (gsize t = 0; t < (gsize) lw * lh * ld; t++)
                  {
                    dst[4 * t + 0] = src[0];
                    dst[4 * t + 1] = fmt->components > 1 ? src[1] : 0.0f;
                    dst[4 * t + 2] = fmt->components > 2 ? src[2] : 0.0f;
                    dst[4 * t + 3] = fmt->components > 3 ? src[3] : 1.0f;
                    src += fmt->components;
                  }
              }
          s->texture.kind = kind;
          s->texture.n_levels = levels;
          for (int l = 0; l < levels; l++)
            {
              SlTextureLevel *lv = &s->texture.levels[l];
              lv->width = MAX (1, w >> l);
              lv->height = kind == SL_TEXTURE_1D ? 1 : MAX (1, h >> l);
              lv->depth = kind == SL_TEXTURE_3D ? MAX (1, d >> l) : faces;
              lv->row_stride = (size_t) lv->width * 4;
              lv->slice_stride = lv->row_stride * lv->height;
              lv->texels = s->texels + offsets[l];
            }
        }
    }
  g_free (unsupported);
  g_array_unref (data);
}

static gboolean
parse_filter (const char **p, SlFilter *f)
{
  if (st_match_word (p, "point"))
    *f = SL_FILTER_POINT;
  else if (st_match_word (p, "linear"))
    *f = SL_FILTER_LINEAR;
  else
    return FALSE;
  return TRUE;
}

static gboolean
parse_address (const char **p, SlAddressMode *a)
{
  if (st_match_word (p, "clamp"))            *a = SL_ADDRESS_CLAMP;
  else if (st_match_word (p, "wrap"))        *a = SL_ADDRESS_WRAP;
  else if (st_match_word (p, "mirror_once")) *a = SL_ADDRESS_MIRROR_ONCE;
  else if (st_match_word (p, "mirror"))      *a = SL_ADDRESS_MIRROR;
  else if (st_match_word (p, "border"))      *a = SL_ADDRESS_BORDER;
  else return FALSE;
  return TRUE;
}

static gboolean
parse_compare (const char **p, SlCompareFunc *c)
{
  if (st_match_words (p, "less equal"))         *c = SL_COMPARE_LESS_EQUAL;
  else if (st_match_words (p, "not equal"))     *c = SL_COMPARE_NOT_EQUAL;
  else if (st_match_words (p, "greater equal")) *c = SL_COMPARE_GREATER_EQUAL;
  else if (st_match_word (p, "never"))          *c = SL_COMPARE_NEVER;
  else if (st_match_word (p, "less"))           *c = SL_COMPARE_LESS;
  else if (st_match_word (p, "equal"))          *c = SL_COMPARE_EQUAL;
  else if (st_match_word (p, "greater"))        *c = SL_COMPARE_GREATER;
  else if (st_match_word (p, "always"))         *c = SL_COMPARE_ALWAYS;
  else return FALSE;
  return TRUE;
}

void
st_run_sampler (Run *run, const Block *b)
{
  SamplerSlot *s;

  if (b->slot >= SL_MAX_SLOTS)
    {
      st_record_error (run, b->header_line, 1,
                       "sampler slot %d is out of range (max %d)",
                       b->slot, SL_MAX_SLOTS - 1);
      return;
    }
  s = &run->sampler[b->slot];
  s->present = TRUE;
  sl_sampler_state_init_default (&s->state);
  /* vkd3d's [sampler] sections start from point filtering. */
  s->state.min_filter = s->state.mag_filter = SL_FILTER_POINT;
  s->state.mip_filter = SL_FILTER_POINT;

  for (int i = b->first; i < b->end; i++)
    {
      const char *p = run->tf->lines[i];
      gboolean    ok;

      if (st_at_end (p))
        continue;
      if (st_match_word (&p, "filter"))
        ok = parse_filter (&p, &s->state.min_filter)
             && parse_filter (&p, &s->state.mag_filter)
             && parse_filter (&p, &s->state.mip_filter);
      else if (st_match_word (&p, "address"))
        ok = parse_address (&p, &s->state.address_u)
             && parse_address (&p, &s->state.address_v)
             && parse_address (&p, &s->state.address_w);
      else if (st_match_word (&p, "comparison"))
        ok = parse_compare (&p, &s->state.compare);
      else
        ok = FALSE;
      if (!ok || !st_at_end (p))
        st_record_error (run, i + 1, 1, "malformed sampler line '%s'",
                         run->tf->lines[i]);
    }
}

void
st_run_rtv (Run *run, const Block *b)
{
  RtvState *r;

  if (b->slot >= MAX_RTVS)
    {
      st_record_error (run, b->header_line, 1,
                       "render target slot %d is out of range (max %d)",
                       b->slot, MAX_RTVS - 1);
      return;
    }
  r = &run->rtv[b->slot];
  g_clear_pointer (&r->unsupported, g_free);
  r->present = TRUE;
  r->width = DEFAULT_RT_W;
  r->height = DEFAULT_RT_H;
  r->integer = FALSE;

  for (int i = b->first; i < b->end; i++)
    {
      const char *p = run->tf->lines[i];

      if (st_at_end (p))
        continue;
      if (st_match_word (&p, "format"))
        {
          char             *name = format_word (p);
          const FormatInfo *fmt = find_format (name);

          if (fmt)
            r->integer = fmt->kind != 0;
          else if (!r->unsupported)
            r->unsupported = g_strdup_printf ("render target format '%s' is "
                                              "not supported", name);
          g_free (name);
        }
      else if (st_match_word (&p, "size"))
        {
          if (!st_expect_char (&p, '('))
            goto bad;
          if (st_match_word (&p, "2d"))
            {
              if (!(st_expect_char (&p, ',') && st_parse_int (&p, &r->width)
                    && st_expect_char (&p, ',') && st_parse_int (&p, &r->height)
                    && st_expect_char (&p, ')') && st_at_end (p))
                  || r->width <= 0 || r->height <= 0
                  || (gint64) r->width * r->height > (1 << 22))
                goto bad;
            }
          else if (!r->unsupported)
            r->unsupported = g_strdup ("only 2d render targets are "
                                       "supported");
        }
      else
        goto bad;
      continue;
    bad:
      st_record_error (run, i + 1, 1, "malformed render target line '%s'",
                       run->tf->lines[i]);
      if (!r->unsupported)
        r->unsupported = g_strdup ("the render target section is "
                                   "malformed");
    }
}

static void
set_uniform_words (Run *run, long long offset, const guint32 *words,
                   int n)
{
  guint need = (guint) (offset + n);

  if (run->uniforms->len < need)
    {
      g_array_set_size (run->uniforms, need);
      g_array_set_size (run->uniform_set, need);
    }
  for (int i = 0; i < n; i++)
    {
      g_array_index (run->uniforms, guint32, offset + i) = words[i];
      g_array_index (run->uniform_set, guint8, offset + i) = 1;
    }
}

static gboolean
run_uniform (Run *run, const char *p)
{
  long long offset;
  guint32   words[4];
  int       n = 0;

  if (!st_parse_long (&p, &offset) || offset < 0 || offset > (1 << 16))
    return FALSE;
  if (st_match_word (&p, "float4") || st_match_word (&p, "float"))
    {
      int count = p[-1] == '4' ? 4 : 1;
      for (; n < count; n++)
        {
          double d;
          union { float f; guint32 u; } v;
          if (!st_parse_double (&p, &d))
            return FALSE;
          v.f = (float) d;
          words[n] = v.u;
        }
    }
  else if (st_match_word (&p, "int4") || st_match_word (&p, "int"))
    {
      int count = p[-1] == '4' ? 4 : 1;
      for (; n < count; n++)
        {
          long long v;
          if (!st_parse_long (&p, &v) || v < INT32_MIN || v > UINT32_MAX)
            return FALSE;
          words[n] = (guint32) v;
        }
    }
  else if (st_match_word (&p, "uint4") || st_match_word (&p, "uint"))
    {
      int count = p[-1] == '4' ? 4 : 1;
      for (; n < count; n++)
        {
          unsigned long long v;
          if (!st_parse_ulong (&p, &v) || (v > UINT32_MAX
                                           && (long long) v < INT32_MIN))
            return FALSE;
          words[n] = (guint32) v;
        }
    }
  else if (st_match_word (&p, "double2"))
    {
      for (int i = 0; i < 2; i++)
        {
          double d;
          if (!st_parse_double (&p, &d))
            return FALSE;
          memcpy (&words[2 * i], &d, 8);
        }
      n = 4;
    }
  else if (st_match_word (&p, "int64_t2") || st_match_word (&p, "uint64_t2"))
    {
      for (int i = 0; i < 2; i++)
        {
          unsigned long long v;
          if (!st_parse_ulong (&p, &v))
            return FALSE;
          memcpy (&words[2 * i], &v, 8);
        }
      n = 4;
    }
  else
    return FALSE;
  if (!st_at_end (p))
    return FALSE;
  set_uniform_words (run, offset, words, n);
  return TRUE;
}

/* Splits the todo/bug/notimpl/if prefixes off a directive.  Returns FALSE
 * on a malformed prefix; *applies is FALSE when an if() excludes the
 * model. */
static gboolean
directive_prefixes (Run *run, int line, const char **p, gboolean *applies)
{
  *applies = TRUE;
  for (;;)
    {
      const char *q = *p;
      gboolean    is_if = FALSE, holds = TRUE;
      const char *err = NULL;

      if (st_match_word (&q, "if"))
        is_if = TRUE;
      else if (!st_match_word (&q, "todo") && !st_match_word (&q, "bug")
               && !st_match_word (&q, "notimpl"))
        return TRUE;
      if (*st_skip_ws (q) == '(')
        {
          if (!st_parse_condition (&q, run->model->code, &holds, &err))
            {
              st_record_error (run, line, 1, "bad directive condition: %s",
                                 err);
              return FALSE;
            }
        }
      else if (is_if)
        {
          st_record_error (run, line, 1, "'if' needs a condition");
          return FALSE;
        }
      if (is_if && !holds)
        *applies = FALSE;
      *p = q;
    }
}

void
st_run_test (Run *run, const Block *b)
{
  for (int i = b->first; i < b->end; i++)
    {
      const char *raw = run->tf->lines[i];
      const char *pc = strchr (raw, '%');
      char       *text = pc ? g_strndup (raw, pc - raw) : g_strdup (raw);
      const char *p = text;
      gboolean    applies;
      int         line = i + 1;

      if (st_at_end (p) || !directive_prefixes (run, line, &p, &applies)
          || !applies)
        {
          g_free (text);
          continue;
        }
      if (st_match_word (&p, "probe"))
        st_run_probe (run, line, text, p);
      else if (st_match_word (&p, "uniform"))
        {
          if (!run_uniform (run, p))
            st_record_error (run, line, 1, "malformed uniform '%s'",
                             st_skip_ws (text));
        }
      else if (st_match_words (&p, "draw quad") && st_at_end (p))
        st_run_draw_quad (run, line);
      else if (st_match_word (&p, "draw") || st_match_word (&p, "dispatch"))
        {
          st_draw_reset (run);
          run->draw_line = line;
          st_draw_set (run, DRAW_SKIPPED, "'%s' is not supported (only "
                       "'draw quad')", st_skip_ws (text));
        }
      else
        {
          /* Pipeline state (clear rtv, depth, alpha test, fog, sample
           * mask, shade mode, point size, …) we cannot honour: every
           * later draw of this run would be meaningless. */
          if (!run->pipeline_skip)
            {
              run->pipeline_skip = g_strdup_printf (
                "'%s' at line %d is not supported", st_skip_ws (text), line);
              run->pipeline_line = line;
            }
        }
      g_free (text);
    }
}

/* In a block skipped by [require], probes still count as skipped. */
void
st_skip_test_block (Run *run, const Block *b)
{
  for (int i = b->first; i < b->end; i++)
    {
      const char *raw = run->tf->lines[i];
      const char *p = raw;
      gboolean    applies = TRUE;

      for (;;)
        {
          const char *q = p;
          gboolean    holds = TRUE, is_if;
          const char *err;

          is_if = st_match_word (&q, "if");
          if (!is_if && !st_match_word (&q, "todo")
              && !st_match_word (&q, "bug")
              && !st_match_word (&q, "notimpl"))
            break;
          if (*st_skip_ws (q) == '('
              && !st_parse_condition (&q, run->model->code, &holds, &err))
            {
              applies = FALSE;
              break;
            }
          if (is_if && !holds)
            applies = FALSE;
          p = q;
        }
      if (applies && st_match_word (&p, "probe"))
        st_record_skip (run, run->req_line, run->req_skip);
    }
}
