/* Running one file at one shader model: compiling, binding and drawing.
 *
 * st_run_model walks the blocks in order with a fresh Run, as vkd3d's
 * runner does, so each block sees the state the blocks before it left.
 * A [pixel shader] block is compiled through the public API with the
 * model's profile (one check: it compiles, or fails where the file says
 * it must, with the errors its expect-error comments name); its source
 * is padded with blank lines so the compiler's diagnostics carry the
 * file's line numbers.
 *
 * Rendering is lazy: `draw quad` only prepares a binding over the bound
 * textures, samplers and uniforms, and the probes render the bands of
 * rows they read, which keeps a 640x480 target cheap.  Render targets
 * keep their contents from one draw to the next, as in vkd3d, so a draw
 * first finishes the previous one. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#define BAND_ROWS 16

void
st_draw_reset (Run *run)
{
  g_clear_pointer (&run->binding, sl_binding_free);
  for (int i = 0; i < MAX_RTVS; i++)
    g_clear_pointer (&run->targets[i], g_free);
  g_clear_pointer (&run->band_done, g_free);
  g_clear_pointer (&run->draw_msg, g_free);
  g_ptr_array_set_size (run->retired, 0);
  run->n_targets = 0;
  run->draw = DRAW_NONE;
}

void
st_srv_clear (Run *run, SrvState *s)
{
  /* A prepared binding only holds views: keep the pixels alive until the
   * draw that may still render from them is gone. */
  if (s->texels)
    g_ptr_array_add (run->retired, s->texels);
  s->texels = NULL;
  g_clear_pointer (&s->unsupported, g_free);
  memset (&s->texture, 0, sizeof s->texture);
  s->present = FALSE;
}

static void
run_init (Run *run, FileResult *res, TestFile *tf, const Model *model,
          SlScratch *scratch)
{
  memset (run, 0, sizeof *run);
  run->res = res;
  run->tf = tf;
  run->model = model;
  run->uniforms = g_array_new (FALSE, TRUE, sizeof (guint32));
  run->uniform_set = g_array_new (FALSE, TRUE, sizeof (guint8));
  run->retired = g_ptr_array_new_with_free_func (g_free);
  run->scratch = scratch;
}

static void
run_finish (Run *run)
{
  st_draw_reset (run);
  for (int i = 0; i < SL_MAX_SLOTS; i++)
    st_srv_clear (run, &run->srv[i]);
  for (int i = 0; i < MAX_RTVS; i++)
    g_free (run->rtv[i].unsupported);
  g_ptr_array_unref (run->retired);
  g_array_unref (run->uniforms);
  g_array_unref (run->uniform_set);
  g_clear_pointer (&run->program, sl_program_unref);
  g_free (run->ps_diags);
  g_free (run->req_skip);
  g_free (run->pipeline_skip);
}

/* Evaluates "fail(cond) todo notimpl(cond) …" for this model.  todo and
 * notimpl describe other implementations' gaps and change nothing here;
 * bare markers hold for every model. */
static gboolean
parse_shader_qualifiers (Run *run, const Block *b, gboolean *expect_fail)
{
  const char *p = b->qualifiers ? b->qualifiers : "";

  *expect_fail = FALSE;
  while (!st_at_end (p))
    {
      gboolean is_fail = FALSE, holds = TRUE;
      const char *err = NULL;

      if (st_match_word (&p, "fail"))
        is_fail = TRUE;
      else if (!st_match_word (&p, "todo") && !st_match_word (&p, "notimpl"))
        {
          st_record_error (run, b->header_line, 1,
                           "unknown shader qualifier '%s'", st_skip_ws (p));
          return FALSE;
        }
      if (*st_skip_ws (p) == '(' && !st_parse_condition (&p, run->model->code,
                                                         &holds, &err))
        {
          st_record_error (run, b->header_line, 1, "bad qualifier: %s", err);
          return FALSE;
        }
      if (is_fail && holds)
        *expect_fail = TRUE;
    }
  return TRUE;
}

/* Does the diagnostic text @diags hold an error at @line (and @column
 * when it is above 0) whose message contains @text? */
static gboolean
diags_hold_error (const char *diags, const char *path, int line, int column,
                  const char *text)
{
  char *prefix = column > 0 ? g_strdup_printf ("%s:%d:%d: error: ", path,
                                               line, column)
                            : g_strdup_printf ("%s:%d:", path, line);
  gboolean found = FALSE;

  for (const char *l = diags; l && *l && !found;)
    {
      const char *nl = strchr (l, '\n');
      size_t len = nl ? (size_t) (nl - l) : strlen (l);
      char *one = g_strndup (l, len);

      if (g_str_has_prefix (one, prefix) && strstr (one, " error: ")
          && strstr (strstr (one, " error: "), text))
        found = TRUE;
      g_free (one);
      l = nl ? nl + 1 : NULL;
    }
  g_free (prefix);
  return found;
}

/* A project extension of the format: in a shader expected to fail, a
 * comment "// expect-error: TEXT" or "// expect-error(COL): TEXT" on a
 * line says the compiler must report an error there (at that column)
 * whose message contains TEXT, so a refusal is checked for its place
 * and reason, not only for happening.  Records the failure and returns
 * FALSE when one is missing. */
static gboolean
expected_errors_found (Run *run, const Block *b)
{
  for (int i = b->first; i < b->end; i++)
    {
      const char *m = strstr (run->tf->lines[i], "// expect-error");
      const char *p, *colon;
      int column = 0;
      char *text;
      gboolean ok;

      if (!m)
        continue;
      p = m + strlen ("// expect-error");
      if (*p == '(')
        column = atoi (p + 1);
      colon = strchr (p, ':');
      if (!colon || (*p == '(' && column <= 0))
        {
          st_record_error (run, i + 1, (int) (m - run->tf->lines[i]) + 1,
                           "malformed expect-error comment");
          return FALSE;
        }
      text = g_strstrip (g_strdup (colon + 1));
      ok = diags_hold_error (run->ps_diags, run->res->path, i + 1, column,
                             text);
      if (!ok)
        st_record_fail (run, i + 1, "expected an error%s%.0d containing "
                        "'%s' on this line; the compiler said:\n%s",
                        column > 0 ? " at column " : "", column, text,
                        run->ps_diags && *run->ps_diags ? run->ps_diags
                                                        : "(nothing)\n");
      g_free (text);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static void
run_pixel_shader (Run *run, const Block *b)
{
  GString          *src;
  SlCompileOptions  opts;
  SlDiagnostics    *diags;
  gboolean          expect_fail;

  g_clear_pointer (&run->program, sl_program_unref);
  g_clear_pointer (&run->ps_diags, g_free);
  run->have_ps = TRUE;
  run->ps_line = b->header_line;
  run->ps_expect_fail = FALSE;

  if (!parse_shader_qualifiers (run, b, &expect_fail))
    {
      /* The error is the check; the draws after it cannot mean much. */
      run->ps_diags = g_strdup ("malformed section header\n");
      return;
    }
  run->ps_expect_fail = expect_fail;

  /* Pad with the header's line count so diagnostics carry file lines. */
  src = g_string_new (NULL);
  for (int i = 0; i < b->first; i++)
    g_string_append_c (src, '\n');
  for (int i = b->first; i < b->end; i++)
    {
      g_string_append (src, run->tf->lines[i]);
      g_string_append_c (src, '\n');
    }

  memset (&opts, 0, sizeof opts);
  opts.source = src->str;
  opts.length = src->len;
  opts.filename = run->res->path;
  opts.language = SL_LANGUAGE_HLSL;
  opts.entry_point = "main";
  opts.profile = run->model->profile;

  diags = sl_diagnostics_new ();
  run->program = sl_compile (&opts, diags);
  run->ps_diags = sl_diagnostics_format (diags);
  sl_diagnostics_free (diags);
  g_string_free (src, TRUE);

  if ((run->program != NULL) == !expect_fail)
    {
      if (!run->program && !expected_errors_found (run, b))
        return;
      st_record_pass (run);
    }
  else if (expect_fail)
    st_record_fail (run, b->header_line,
                    "expected compilation to fail, but it succeeded");
  else
    st_record_fail (run, b->header_line,
                    "expected compilation to succeed, but it failed:\n%s",
                    run->ps_diags && *run->ps_diags ? run->ps_diags
                                                    : "(no diagnostics)\n");
}

void
st_draw_set (Run *run, DrawStatus status, const char *format, ...)
{
  va_list ap;

  g_free (run->draw_msg);
  va_start (ap, format);
  run->draw_msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  run->draw = status;
}

static void draw_quad_into (Run *run, int line, float **previous,
                            int prev_w, int prev_h);

void
st_run_draw_quad (Run *run, int line)
{
  float *previous[MAX_RTVS] = { NULL };
  int    prev_w = 0, prev_h = 0;

  /* Render targets keep their contents from one draw to the next, as in
   * vkd3d's runner: a pixel the new draw discards shows the previous
   * draw's colour.  Finish the previous draw's lazily rendered bands and
   * keep its targets. */
  if (run->binding && run->draw == DRAW_OK && run->band_done
      && st_ensure_rows (run, 0, run->target_h))
    {
      for (int i = 0; i < run->n_targets; i++)
        {
          previous[i] = run->targets[i];
          run->targets[i] = NULL;
        }
      prev_w = run->target_w;
      prev_h = run->target_h;
    }
  draw_quad_into (run, line, previous, prev_w, prev_h);
  for (int i = 0; i < MAX_RTVS; i++)
    g_free (previous[i]);
}

/* Sets up a draw; takes over previous[i] as target i's initial contents
 * when the sizes match (and sets previous[i] to NULL). */
static void
draw_quad_into (Run *run, int line, float **previous, int prev_w, int prev_h)
{
  SlDiagnostics *diags;
  size_t         cb_size;
  int            w = DEFAULT_RT_W, h = DEFAULT_RT_H;

  st_draw_reset (run);
  run->draw_line = line;

  if (run->pipeline_skip)
    {
      st_draw_set (run, DRAW_SKIPPED, "%s", run->pipeline_skip);
      return;
    }
  for (int i = 0; i < MAX_RTVS; i++)
    if (run->rtv[i].present && run->rtv[i].unsupported)
      {
        st_draw_set (run, DRAW_SKIPPED, "%s", run->rtv[i].unsupported);
        return;
      }
  for (int i = 0; i < SL_MAX_SLOTS; i++)
    if (run->srv[i].present && run->srv[i].unsupported)
      {
        st_draw_set (run, DRAW_SKIPPED, "texture %d: %s", i,
                     run->srv[i].unsupported);
        return;
      }
  if (!run->have_ps)
    {
      st_draw_set (run, DRAW_FAILED, "there is no pixel shader to draw with");
      return;
    }
  if (!run->program)
    {
      if (run->ps_expect_fail)
        st_draw_set (run, DRAW_SKIPPED, "the pixel shader at line %d is "
                     "expected not to compile", run->ps_line);
      else
        st_draw_set (run, DRAW_FAILED, "the pixel shader at line %d did not "
                     "compile:\n%s", run->ps_line,
                     run->ps_diags ? run->ps_diags : "");
      return;
    }

  /* Like vkd3d, the viewport is the smallest bound render target. */
  if (run->rtv[0].present)
    {
      w = run->rtv[0].width;
      h = run->rtv[0].height;
    }
  run->n_targets = 1;
  for (int i = 1; i < MAX_RTVS; i++)
    if (run->rtv[i].present)
      {
        w = MIN (w, run->rtv[i].width);
        h = MIN (h, run->rtv[i].height);
        run->n_targets = i + 1;
      }
  run->target_w = w;
  run->target_h = h;

  run->binding = sl_binding_new (run->program);
  sl_binding_set_viewport (run->binding, w, h);

  /* Uniform words are handed over raw for every model.  vkd3d's d3d9
   * runner uploads its uniform array with SetPixelShaderConstantF without
   * converting integers, and the corpus relies on that: e.g.
   * non-const-indexing.shader_test writes "uniform 16 uint4 3 1 0 2" and
   * expects SM<4 to index with the (denormal ≈ 0) float, and files that
   * want integer values at SM<4 write them as float4 under if(sm<4). */
  cb_size = sl_program_get_constants_size (run->program);
  for (guint i = 0; i < run->uniforms->len && i < cb_size;)
    {
      guint j = i;

      if (!g_array_index (run->uniform_set, guint8, i))
        {
          i++;
          continue;
        }
      while (j < run->uniforms->len && j < cb_size
             && g_array_index (run->uniform_set, guint8, j))
        j++;
      sl_binding_set_constants (run->binding, i,
                                &g_array_index (run->uniforms, guint32, i),
                                j - i);
      i = j;
    }
  for (int i = 0; i < SL_MAX_SLOTS; i++)
    {
      if (run->srv[i].present)
        sl_binding_set_texture (run->binding, i, &run->srv[i].texture);
      if (run->sampler[i].present)
        sl_binding_set_sampler (run->binding, i, &run->sampler[i].state);
    }

  diags = sl_diagnostics_new ();
  if (!sl_binding_prepare (run->binding, diags))
    {
      char *text = sl_diagnostics_format (diags);
      st_draw_set (run, DRAW_FAILED, "preparing the draw failed:\n%s",
                   text ? text : "");
      g_free (text);
      g_clear_pointer (&run->binding, sl_binding_free);
    }
  else
    {
      for (int i = 0; i < run->n_targets; i++)
        {
          if (previous[i] && prev_w == w && prev_h == h)
            {
              run->targets[i] = previous[i];
              previous[i] = NULL;
            }
          else
            run->targets[i] = g_new0 (float, (gsize) w * h * 4);
        }
      run->band_done = g_new0 (guint8, (h + BAND_ROWS - 1) / BAND_ROWS);
      run->draw = DRAW_OK;
    }
  sl_diagnostics_free (diags);
}

/* Renders the bands of rows [y0, y1) not rendered yet. */
gboolean
st_ensure_rows (Run *run, int y0, int y1)
{
  for (int band = y0 / BAND_ROWS; band * BAND_ROWS < y1; band++)
    {
      SlTarget       targets[MAX_RTVS];
      SlDiagnostics *diags;
      int            top = band * BAND_ROWS;
      int            rows = MIN (BAND_ROWS, run->target_h - top);
      gboolean       ok;

      if (run->band_done[band])
        continue;
      for (int i = 0; i < run->n_targets; i++)
        {
          targets[i].pixels = run->targets[i] + (gsize) top * run->target_w * 4;
          targets[i].row_stride = (size_t) run->target_w * 4;
        }
      diags = sl_diagnostics_new ();
      ok = sl_binding_render (run->binding, run->scratch, 0, top,
                              run->target_w, rows, NULL, targets,
                              run->n_targets, diags);
      run->band_done[band] = 1;
      if (!ok)
        {
          char *text = sl_diagnostics_format (diags);
          st_draw_set (run, DRAW_FAILED, "rendering failed:\n%s",
                       text ? text : "");
          g_free (text);
          sl_diagnostics_free (diags);
          return FALSE;
        }
      sl_diagnostics_free (diags);
    }
  return TRUE;
}

void
st_run_model (FileResult *res, TestFile *tf, const Model *model,
              SlScratch *scratch)
{
  Run run;

  run_init (&run, res, tf, model, scratch);
  for (guint bi = 0; bi < tf->blocks->len; bi++)
    {
      const Block *b = &g_array_index (tf->blocks, Block, bi);

      if (b->kind == BLK_BAD)
        {
          st_record_error (&run, b->header_line, 1, "%s", b->error);
          continue;
        }
      if (b->kind == BLK_REQUIRE)
        {
          st_run_require (&run, b);
          continue;
        }
      if (run.req_skip)
        {
          if (b->kind == BLK_PIXEL || b->kind == BLK_PIPELINE
              || b->kind == BLK_OTHER_SHADER)
            st_record_skip (&run, run.req_line, run.req_skip);
          else if (b->kind == BLK_TEST)
            st_skip_test_block (&run, b);
          continue;
        }
      switch (b->kind)
        {
        case BLK_NONE:
        case BLK_IGNORED:
          break;
        case BLK_SRV:
          st_run_srv (&run, b);
          break;
        case BLK_SAMPLER:
          st_run_sampler (&run, b);
          break;
        case BLK_RTV:
          st_run_rtv (&run, b);
          break;
        case BLK_PIXEL:
          run_pixel_shader (&run, b);
          break;
        case BLK_PIPELINE:
          {
            char *why = g_strdup_printf ("%ss are not supported", b->stage);
            st_record_skip (&run, b->header_line, why);
            /* vkd3d keeps the stage for every later draw of the file. */
            if (!run.pipeline_skip)
              {
                run.pipeline_skip = g_strdup_printf (
                  "draws use the %s at line %d", b->stage, b->header_line);
                run.pipeline_line = b->header_line;
              }
            g_free (why);
          }
          break;
        case BLK_OTHER_SHADER:
          {
            char *why = g_strdup_printf ("%s sections are not supported",
                                         b->stage);
            st_record_skip (&run, b->header_line, why);
            g_free (why);
          }
          break;
        case BLK_TEST:
          st_run_test (&run, b);
          break;
        case BLK_REQUIRE:
        case BLK_BAD:
          break;
        }
    }
  run_finish (&run);
}
