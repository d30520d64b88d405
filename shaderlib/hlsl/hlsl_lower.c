/* HLSL lowering: typed AST → scalar IR.  This file holds the entry point
 * and everything it reports in SlProgramInfo.
 *
 * Every value is a flat list of scalar IR values (an RVal), in HLSL's
 * declaration order (matrices row by row), so swizzles, members and
 * constant indices are compile-time slices.  Every call is inlined; a
 * function whose body returns from inside control flow is wrapped in
 * FBEGIN/FEND so that returning lanes stop.  Uniform reads become LOADC
 * instructions whose constant-buffer offsets are patched once the layout
 * (which depends on which uniforms are used in SM2/3) is known.  Sampler
 * and texture objects are compile-time values: each use resolves to a
 * provisional object that is given its slot at the end.  A value whose
 * type holds objects (a struct with a texture member, an array of
 * samplers) carries them beside its numbers, in flattened order, as
 * indices of those provisional objects; locals and parameters keep one per
 * object of their type, so copies, casts, calls and member accesses move
 * objects exactly as they move numbers.
 *
 * The work is spread by job: hlsl_lower_value.c (values, variables,
 * stores), hlsl_lower_expr.c, hlsl_lower_stmt.c, hlsl_lower_call.c
 * (inlining), hlsl_lower_object.c (samplers and textures) and
 * hlsl_lower_intrinsics.c; hlsl_lower.h shares the lowering state (L).
 * Here the entry point's inputs and outputs are bound to their semantics,
 * the uniforms are laid out in the constant buffer with their reflection
 * and default values, and the objects get their slots; a static texture
 * that holds no resource is checked for live samples through it once the
 * optimiser has run. */
#include "hlsl/hlsl_lower.h"

#include "ir/reflect.h"
#include "vm/scalar_ops.h"

#include <limits.h>
#include <string.h>

/* ---- diagnostics ------------------------------------------------------- */

void
hlsl_lower_error (L *l, SlLoc loc, SlDiagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sl_diag_v (l->u->diags, kind, loc.file, loc.line, loc.column, fmt, ap);
  va_end (ap);
  l->failed = true;
}

/* ---- inputs and outputs ------------------------------------------------ */

/* The digits of a semantic or register suffix.  atoi would overflow into
 * a negative index that passes every "< n" check (fuzz-exec found
 * SV_Target5555…); a huge number stays huge instead. */
static int
semantic_number (const char *digits)
{
  guint64 v = g_ascii_strtoull (digits, NULL, 10);
  return v > INT_MAX / 2 ? INT_MAX / 2 : (int) v;
}

static bool
semantic_is (const char *sem, const char *name, int *index)
{
  size_t n = strlen (name);
  if (!sem || g_ascii_strncasecmp (sem, name, n))
    return false;
  const char *rest = sem + n;
  if (!*rest)
    {
      *index = 0;
      return true;
    }
  for (const char *q = rest; *q; q++)
    if (!g_ascii_isdigit (*q))
      return false;
  *index = semantic_number (rest);
  return true;
}

/* Fills the IR values of an entry input of type @t from its semantic. */
static bool
bind_input (L *l, Type *t, const char *sem, uint32_t *vals, SlLoc loc)
{
  if (t->is_patch)
    {
      /* Patches are inputs of hull, domain and geometry stages only. */
      hlsl_lower_error (l, loc, SL_DIAG_HLSL_PATCH_INPUT,
                        "InputPatch and OutputPatch cannot be pixel shader inputs");
      return false;
    }
  if (t->kind == TY_ARRAY)
    {
      /* Elements of struct arrays share their fields' semantics; other
       * arrays take consecutive semantic indices. */
      for (int i = 0; i < t->len; i++)
        {
          char *esem = NULL;
          if (t->elem->kind != TY_STRUCT && t->elem->kind != TY_ARRAY && sem)
            {
              size_t n = strlen (sem);
              while (n > 0 && g_ascii_isdigit (sem[n - 1]))
                n--;
              esem = g_strdup_printf ("%.*s%d", (int) n, sem, semantic_number (sem + n) + i);
            }
          bool ok = bind_input (l, t->elem, esem ? esem : sem, vals + i * t->elem->n_comp, loc);
          g_free (esem);
          if (!ok)
            return false;
        }
      return true;
    }
  if (t->kind == TY_STRUCT)
    {
      for (int i = 0; i < t->n_fields; i++)
        {
          Field *f = &t->fields[i];
          if (!bind_input (l, f->type, f->semantic, vals + f->offset, loc))
            return false;
        }
      return true;
    }
  int idx = 0, base;
  if (semantic_is (sem, "TEXCOORD", &idx) && idx < 8)
    base = SL_INPUT_TEXCOORD + 4 * idx;
  else if (semantic_is (sem, "COLOR", &idx) && idx < 2)
    base = SL_INPUT_COLOR + 4 * idx;
  else if (semantic_is (sem, "VPOS", &idx) || semantic_is (sem, "SV_POSITION", &idx)
           || semantic_is (sem, "POSITION", &idx))
    base = SL_INPUT_POSITION;
  else if (semantic_is (sem, "VFACE", &idx) || semantic_is (sem, "SV_ISFRONTFACE", &idx))
    base = SL_INPUT_FACE;
  else if (sem && g_ascii_strncasecmp (sem, "SV_", 3))
    {
      /* A user semantic (POSITION_WS, NORMAL …) names a varying that only
         a vertex shader could fill; with none here it reads 0, as engine
         shaders that pass unused interpolants expect. */
      sl_diag (l->u->diags, SL_DIAG_HLSL_INPUT_NO_SOURCE, loc.file, loc.line, loc.column,
               "input semantic '%s' has no source; it reads 0", sem);
      for (int c = 0; c < t->n_comp; c++)
        sl_ir_mov (l->ir, vals[c], sl_ir_const_u (l->ir, 0));
      return true;
    }
  else
    {
      if (!sem)
        hlsl_lower_error (l, loc, SL_DIAG_HLSL_INPUT_NO_SEMANTIC, "entry point input has no semantic");
      else
        hlsl_lower_error (l, loc, SL_DIAG_HLSL_INPUT_SEMANTIC, "unsupported input semantic '%s'", sem);
      return false;
    }
  BaseType *b = hlsl_bases_of (l, t);
  for (int c = 0; c < t->n_comp && c < 4; c++)
    {
      uint32_t d = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
      SlInsn in = { .op = SL_OP_INPUT, .n_dst = 1, .dst = { d },
                    .imm = base == SL_INPUT_FACE ? SL_INPUT_FACE : base + c };
      sl_ir_emit (l->ir, &in);
      uint32_t v = hlsl_conv (l, d, BT_FLOAT, b[c]);
      if (base == SL_INPUT_FACE && b[c] == BT_BOOL)
        v = sl_ir_const_b (l->ir, true);
      sl_ir_mov (l->ir, vals[c], v);
    }
  return true;
}

/* Emits OUTPUT for a value of type @t with semantic @sem. */
static void
bind_output (L *l, Type *t, const char *sem, const uint32_t *vals, SlLoc loc)
{
  if (t->kind == TY_STRUCT)
    {
      for (int i = 0; i < t->n_fields; i++)
        bind_output (l, t->fields[i].type, t->fields[i].semantic, vals + t->fields[i].offset, loc);
      return;
    }
  int idx = 0;
  if (semantic_is (sem, "SV_TARGET", &idx) || semantic_is (sem, "COLOR", &idx))
    {
      if (idx >= 8)
        {
          hlsl_lower_error (l, loc, SL_DIAG_HLSL_RENDER_TARGET_RANGE,
                            "render target index %d is out of range", idx);
          return;
        }
      BaseType *b = hlsl_bases_of (l, t);
      for (int c = 0; c < t->n_comp && c < 4; c++)
        {
          SlInsn in = { .op = SL_OP_OUTPUT, .n_src = 1, .src = { hlsl_conv (l, vals[c], b[c], BT_FLOAT) },
                        .imm = idx * 4 + c };
          if (b[c] != BT_FLOAT)
            /* Integer targets receive the raw bits. */
            in.src[0] = vals[c];
          sl_ir_emit (l->ir, &in);
        }
      l->ir->n_outputs = MAX (l->ir->n_outputs, idx + 1);
      return;
    }
  if (semantic_is (sem, "SV_DEPTH", &idx) || semantic_is (sem, "DEPTH", &idx))
    return;   /* no depth buffer: depth output is accepted and unused */
  if (!sem)
    hlsl_lower_error (l, loc, SL_DIAG_HLSL_OUTPUT_NO_SEMANTIC, "entry point output has no semantic");
  else
    hlsl_lower_error (l, loc, SL_DIAG_HLSL_OUTPUT_SEMANTIC, "unsupported output semantic '%s'", sem);
}

/* ---- the constant buffer ----------------------------------------------- */

static gint
by_bind_count (gconstpointer a, gconstpointer b)
{
  const Var *x = *(Var *const *) a, *y = *(Var *const *) b;
  return y->bind_count - x->bind_count;
}

/* Component offset, within a variable laid out at @base, of every
 * flattened component.  SM2/3 give each variable, array element, struct
 * member and matrix row/column its own registers; SM4 packs scalars and
 * vectors into registers without crossing a register boundary. */
static int
layout (const Type *t, bool sm4, int base, int *out, int *pos)
{
  int align = (base + 3) & ~3;
  switch (t->kind)
    {
    case TY_NUM:
      if (t->cls == NUM_MATRIX)
        {
          int b = align;
          for (int r = 0; r < t->rows; r++)
            for (int c = 0; c < t->cols; c++)
              out[(*pos)++] = t->row_major ? b + r * 4 + c : b + c * 4 + r;
          return t->row_major ? b + (t->rows - 1) * 4 + t->cols : b + (t->cols - 1) * 4 + t->rows;
        }
      {
        int b = sm4 ? ((base % 4) + t->n_comp > 4 ? align : base) : align;
        for (int c = 0; c < t->n_comp; c++)
          out[(*pos)++] = b + c;
        return b + t->n_comp;
      }
    case TY_ARRAY:
      {
        int end = align;
        for (int i = 0; i < t->len; i++)
          end = layout (t->elem, sm4, (end + 3) & ~3, out, pos);
        return end;
      }
    case TY_STRUCT:
      {
        int end = align;
        for (int i = 0; i < t->n_fields; i++)
          end = layout (t->fields[i].type, sm4, sm4 ? end : (end + 3) & ~3, out, pos);
        return (end + 3) & ~3;
      }
    default:
      return base;
    }
}

static SlParam
make_param (L *l, Var *v, const int *offsets, int end)
{
  SlArena *a = l->info->arena;
  Type *t = v->type, *et = t->kind == TY_ARRAY ? t->elem : t;
  SlParam prm = {
    .name = sl_arena_strdup (a, v->name),
    .type = et->kind == TY_NUM ? (SlScalarType) (et->base == BT_FLOAT ? SL_SCALAR_FLOAT
                                                 : et->base == BT_INT ? SL_SCALAR_INT
                                                 : et->base == BT_UINT ? SL_SCALAR_UINT : SL_SCALAR_BOOL)
                               : SL_SCALAR_FLOAT,
    .rows = et->kind == TY_NUM ? et->rows : 1,
    .columns = et->kind == TY_NUM ? et->cols : et->n_comp,
    .array_size = t->kind == TY_ARRAY ? t->len : 0,
    .row_major = et->row_major,
    .offset = t->n_comp ? offsets[0] : 0,
    .size = t->n_comp ? end - offsets[0] : 0,
    .semantic = sl_arena_strdup (a, v->semantic),
  };
  if (v->annotations)
    {
      prm.n_annotations = v->annotations->len;
      SlAnnotation *anns = SL_NEW_N (a, SlAnnotation, v->annotations->len + 1);
      for (guint i = 0; i < v->annotations->len; i++)
        {
          anns[i] = g_array_index (v->annotations, SlAnnotation, i);
          anns[i].name = sl_arena_strdup (a, anns[i].name);
          anns[i].string_value = sl_arena_strdup (a, anns[i].string_value);
        }
      prm.annotations = anns;
    }
  return prm;
}

/* Evaluates a uniform's initializer at compile time, if it is constant. */
static bool
constant_initializer (L *l, Var *v, uint32_t *words)
{
  SlIr *saved = l->ir;
  SlIr *tmp = sl_ir_new ();
  guint saved_urefs = l->urefs->len;
  GHashTable *saved_exact = l->exact;   /* keyed by the other IR's values */
  l->exact = NULL;
  l->ir = tmp;
  /* Values of static globals live in the main IR; an initializer that
   * reads one (e.g. a static const table) needs them in this IR, so they
   * are initialised here again, their errors already reported there. */
  uint32_t **saved_vals = l->var_vals;
  SlDiagnostics *saved_diags = l->u->diags, *quiet = sl_diagnostics_new ();
  l->var_vals = g_new0 (uint32_t *, l->u->n_vars + 1);
  l->u->diags = quiet;
  for (guint i = 0; i < l->u->globals->len; i++)
    {
      Var *g = g_ptr_array_index (l->u->globals, i);
      if (g->storage == STORE_STATIC && !g->type->n_objects)
        hlsl_init_var (l, g);
    }
  l->u->diags = saved_diags;
  sl_diagnostics_free (quiet);
  RVal r = v->init->kind == N_INITLIST ? hlsl_lower_initlist (l, v->init, v->type) : hlsl_lower_expr (l, v->init);
  /* OUTPUT keeps each component alive through folding; a constant
   * initializer leaves only OUTPUTs of constants. */
  for (int i = 0; i < r.n; i++)
    {
      SlInsn out = { .op = SL_OP_OUTPUT, .n_src = 1, .src = { r.c[i] }, .imm = i };
      sl_ir_emit (tmp, &out);
    }
  sl_pass_optimise (tmp);
  bool ok = r.n == v->type->n_comp;
  int found = 0;
  for (guint i = 0; ok && i < tmp->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (tmp, i);
      if (in->op != SL_OP_OUTPUT)
        continue;
      const SlValue *val = sl_ir_value (tmp, in->src[0]);
      if (val->cls != SL_VALUE_CONST || (int) in->imm >= r.n)
        {
          ok = false;
          break;
        }
      /* Below SM 4 an integer is computed in a float: the default holds
       * the integer. */
      BaseType cb = hlsl_bases_of (l, v->type)[in->imm];
      float fv = sl_u2f (val->bits);
      words[in->imm] = val->kind != SL_KIND_FLOAT || cb == BT_FLOAT || cb == BT_BOOL ? val->bits
                       : cb == BT_INT ? (uint32_t) (int32_t) CLAMP (fv, -2147483648.0f, 2147483520.0f)
                       : (uint32_t) CLAMP (fv, 0.0f, 4294967040.0f);
      found++;
    }
  ok = ok && found == r.n;
  sl_ir_free (tmp);
  l->exact = saved_exact;
  g_array_set_size (l->urefs, saved_urefs);
  g_free (l->var_vals);
  l->var_vals = saved_vals;
  l->ir = saved;
  return ok;
}

/* ---- the steps --------------------------------------------------------- */

/* Lowers the entry point's body: static globals, then the parameters
 * bound to inputs (or zero for outputs), the body, and the outputs. */
static void
lower_entry_point (L *l)
{
  HlslUnit *u = l->u;
  Func *f = u->entry;
  SlIr *ir = l->ir;

  /* Static globals are initialised at the start of every pixel. */
  for (guint i = 0; i < u->globals->len; i++)
    {
      Var *v = g_ptr_array_index (u->globals, i);
      if (v->storage == STORE_STATIC && (!v->type->n_objects || v->type->n_comp || v->init))
        hlsl_init_var (l, v);
    }

  /* Entry parameters: inputs, outputs, or uniforms.  After one input
   * fails, the rest still get storage (unbound): the body reads them, and
   * one bad semantic must not make every later parameter an internal
   * error. */
  bool inputs_ok = true;
  for (int k = 0; k < f->n_params; k++)
    {
      Var *prm = f->params[k];
      if (prm->uniform_param)
        {
          /* The parameter's default value is the uniform's default, as
           * a global's initializer is. */
          prm->storage = STORE_UNIFORM;
          if (!prm->init && f->defaults && f->defaults[k])
            prm->init = f->defaults[k];
          continue;
        }
      uint32_t *vals = hlsl_alloc_var (l, prm);
      if (prm->param_mod == 1)
        {
          BaseType *b = hlsl_bases_of (l, prm->type);
          for (int i = 0; i < prm->type->n_comp; i++)
            sl_ir_mov (ir, vals[i], zero_of (l, b[i]));
        }
      else if (inputs_ok && !bind_input (l, prm->type, prm->semantic, vals, prm->loc))
        inputs_ok = false;
    }

  Frame *fr = &l->frames[l->n_frames++];
  fr->func = f;
  fr->framed = hlsl_returns_inside_cf (f->body, true);
  if (fr->framed)
    {
      fr->ret_vals = SL_NEW_N (u->arena, uint32_t, f->ret->n_comp + 1);
      BaseType *b = hlsl_bases_of (l, f->ret);
      for (int i = 0; i < f->ret->n_comp; i++)
        {
          fr->ret_vals[i] = sl_ir_new_value (ir, kind_for (l, b[i]), SL_VALUE_VAR);
          sl_ir_mov (ir, fr->ret_vals[i], zero_of (l, b[i]));
        }
      sl_ir_ctrl (ir, SL_OP_FBEGIN, SL_IR_NONE, 0);
    }
  f->busy = true;
  hlsl_lower_stmt (l, f->body);
  f->busy = false;
  if (fr->framed)
    sl_ir_ctrl (ir, SL_OP_FEND, SL_IR_NONE, 0);

  if (f->ret->kind != TY_VOID && !l->failed)
    {
      const uint32_t *rv = fr->framed ? fr->ret_vals : fr->returned ? fr->ret_rv.c : NULL;
      if (!rv)
        hlsl_lower_error (l, f->loc, SL_DIAG_HLSL_ENTRY_NO_RETURN,
                          "entry point '%s' does not return a value", f->name);
      else
        bind_output (l, f->ret, f->semantic, rv, f->loc);
    }
  for (int k = 0; k < f->n_params && !l->failed; k++)
    {
      Var *prm = f->params[k];
      if (prm->param_mod != 0 && !prm->uniform_param)
        bind_output (l, prm->type, prm->semantic, l->var_vals[prm->id], prm->loc);
    }

  if (ir->overflow)
    hlsl_lower_error (l, f->loc, SL_DIAG_HLSL_SHADER_TOO_LARGE,
                      "shader is too large (more than %u instructions or values)", SL_MAX_IR_INSNS);
}

/* Lays the uniforms out in the constant buffer, reports them with their
 * default values and patches the LOADC offsets. */
static void
place_uniforms (L *l)
{
  HlslUnit *u = l->u;
  SlProgramInfo *info = l->info;
  Func *f = u->entry;
  SlIr *ir = l->ir;
  bool sm4 = u->shader_model >= 40;
  GHashTable *used = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < l->urefs->len; i++)
    g_hash_table_add (used, g_array_index (l->urefs, URef, i).var);
  GPtrArray *uniforms = g_ptr_array_new ();
  for (guint i = 0; i < u->globals->len; i++)
    {
      Var *v = g_ptr_array_index (u->globals, i);
      if (v->storage == STORE_UNIFORM && !v->type->n_objects && v->type->n_comp > 0)
        g_ptr_array_add (uniforms, v);
    }
  for (int k = 0; k < f->n_params; k++)
    if (f->params[k]->uniform_param)
      g_ptr_array_add (uniforms, f->params[k]);

  if (!sm4)
    {
      /* The D3D9 compiler hands out registers to the uniforms that use the
       * most registers first (counting an array only up to its last
       * element read); the sort is stable, so ties keep source order. */
      for (guint i = 0; i < uniforms->len; i++)
        {
          Var *v = g_ptr_array_index (uniforms, i);
          int *offs = g_new (int, v->type->n_comp + 1);
          int pos = 0;
          int end = layout (v->type, false, 0, offs, &pos);
          int bind = 0;
          for (guint k = 0; k < l->urefs->len; k++)
            {
              URef *r = &g_array_index (l->urefs, URef, k);
              if (r->var != v)
                continue;
              if (r->indexed)
                bind = MAX (bind, (end + 3) / 4);
              else
                bind = MAX (bind, offs[r->comp] / 4 + 1);
            }
          v->bind_count = bind;
          g_free (offs);
        }
      g_ptr_array_sort (uniforms, by_bind_count);
    }
  int cursor = 0, max_end = 0;
  GHashTable *offsets_of = g_hash_table_new (NULL, NULL);
  /* Explicitly placed uniforms first, then the rest in order. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < uniforms->len; i++)
      {
        Var *v = g_ptr_array_index (uniforms, i);
        bool explicit_reg = v->reg_kind == 'c' || v->reg_kind == 'p';
        if ((pass == 0) != explicit_reg)
          continue;
        /* SM2/3 give registers only to the uniforms the shader reads. */
        if (!sm4 && !explicit_reg && !g_hash_table_contains (used, v))
          continue;
        if (!sm4 && v->reg_kind == 'c' && g_hash_table_contains (used, v))
          for (guint j = 0; j < i; j++)
            {
              Var *o = g_ptr_array_index (uniforms, j);
              if (o->reg_kind == 'c' && o->reg_index == v->reg_index && g_hash_table_contains (used, o))
                hlsl_lower_error (l, v->loc, SL_DIAG_HLSL_REGISTER_CONFLICT,
                                  "'%s' and '%s' are both bound to c%d", o->name, v->name, v->reg_index);
            }
        int *offs = g_new (int, v->type->n_comp + 1);
        int pos = 0, end;
        if (explicit_reg)
          end = layout (v->type, sm4, v->reg_kind == 'c' ? v->reg_index * 4 : v->reg_index, offs, &pos);
        else
          {
            /* Skip registers taken by explicit placements. */
            for (;;)
              {
                pos = 0;
                int start = sm4 ? cursor : (cursor + 3) & ~3;
                end = layout (v->type, sm4, start, offs, &pos);
                bool clash = false;
                GHashTableIter it;
                gpointer key, val;
                g_hash_table_iter_init (&it, offsets_of);
                while (g_hash_table_iter_next (&it, &key, &val))
                  {
                    Var *o = key;
                    if (o->reg_kind != 'c' && o->reg_kind != 'p')
                      continue;
                    int *oo = val;
                    int o_start = oo[0] & ~3, o_end = (oo[o->type->n_comp] + 3) & ~3;
                    int s0 = offs[0] & ~3, e0 = (end + 3) & ~3;
                    if (s0 < o_end && o_start < e0)
                      {
                        clash = true;
                        cursor = o_end;
                      }
                  }
                if (!clash)
                  break;
              }
            cursor = end;
          }
        offs[v->type->n_comp] = end;
        g_hash_table_insert (offsets_of, v, offs);
        max_end = MAX (max_end, end);
        v->cb_offset = offs[0];
      }
  info->constants_size = (size_t) ((max_end + 3) & ~3);
  sl_program_info_reserve_constants (info, info->constants_size);

  /* Reflection and defaults, in declaration order. */
  for (guint i = 0; i < uniforms->len; i++)
    {
      Var *v = g_ptr_array_index (uniforms, i);
      int *offs = g_hash_table_lookup (offsets_of, v);
      if (!offs)
        continue;
      SlParam prm = make_param (l, v, offs, offs[v->type->n_comp]);
      if (v->init)
        {
          uint32_t *words = g_new0 (uint32_t, v->type->n_comp + 1);
          if (constant_initializer (l, v, words))
            {
              float *def = SL_NEW_N (info->arena, float, v->type->n_comp + 1);
              BaseType *b = hlsl_bases_of (l, v->type);
              for (int c = 0; c < v->type->n_comp; c++)
                {
                  float fv = b[c] == BT_FLOAT ? sl_u2f (words[c])
                             : b[c] == BT_INT ? (float) (int32_t) words[c]
                             : b[c] == BT_UINT ? (float) words[c] : (words[c] ? 1.0f : 0.0f);
                  def[c] = fv;
                  /* SM2/3 registers hold floats; SM4 holds raw bits. */
                  uint32_t w = !sm4 ? sl_f2u (fv) : (b[c] == BT_BOOL ? (words[c] ? 1u : 0u) : words[c]);
                  info->defaults[offs[c]] = w;
                }
              prm.default_value = def;
            }
          g_free (words);
        }
      g_array_append_val (info->params, prm);
    }

  /* Patch LOADC offsets. */
  for (guint i = 0; i < l->urefs->len; i++)
    {
      URef *ur = &g_array_index (l->urefs, URef, i);
      int *offs = g_hash_table_lookup (offsets_of, ur->var);
      sl_ir_insn (ir, ur->insn)->imm = offs ? offs[ur->comp] : 0;
    }

  GHashTableIter it;
  gpointer key, val;
  g_hash_table_iter_init (&it, offsets_of);
  while (g_hash_table_iter_next (&it, &key, &val))
    g_free (val);
  g_hash_table_destroy (offsets_of);
  g_hash_table_destroy (used);
  g_ptr_array_free (uniforms, TRUE);
}

/* Gives the sampler and texture objects their slots, reports them and
 * patches the SAMPLE and TEXSIZE instructions. */
#define NO_RESOURCE_SLOT 255

static void
place_objects (L *l)
{
  HlslUnit *u = l->u;
  SlProgramInfo *info = l->info;
  Func *f = u->entry;
  SlIr *ir = l->ir;
  GArray *objs = l->objs;
  int next_tex = 0, next_samp = 0;
  int *tex_slot_of = g_new0 (int, objs->len + 1), *samp_slot_of = g_new0 (int, objs->len + 1);
  /* Slots: explicit registers first, then declaration order. */
  GHashTable *taken_t = g_hash_table_new (NULL, NULL), *taken_s = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < objs->len; i++)
    {
      ObjRef *o = &g_array_index (objs, ObjRef, i);
      /* Cg's TEXUNITn semantic on a sampler is register(sN). */
      if (!o->var->reg_kind && o->var->semantic && o->var->type->n_objects
          && !g_ascii_strncasecmp (o->var->semantic, "TEXUNIT", 7))
        {
          o->var->reg_kind = 's';
          o->var->reg_index = semantic_number (o->var->semantic + 7);
        }
      if (o->var->reg_kind == 's' || o->var->reg_kind == 't')
        {
          o->slot = o->var->reg_index + o->element;
          g_hash_table_add (o->var->reg_kind == 't' || o->var->type->kind == TY_TEXTURE
                              || (o->var->type->kind == TY_ARRAY && o->var->type->elem->kind == TY_TEXTURE)
                              ? taken_t : taken_s, GINT_TO_POINTER (o->slot + 1));
        }
    }
  /* Objects holding no resource take no slot: their samples get slot
   * numbers past the last real one (NO_RESOURCE_SLOT down), which
   * check_no_resource looks for once the optimiser has run. */
  int n_none = 0;
  for (guint i = 0; i < objs->len; i++)
    {
      ObjRef *o = &g_array_index (objs, ObjRef, i);
      if (o->no_resource)
        o->slot = MAX (NO_RESOURCE_SLOT - n_none++, SL_MAX_SLOTS);
    }
  bool *unused = g_new0 (bool, objs->len + 1);
  if (l->sm < 40)
    hlsl_allocate_sm1_samplers (u, f, ir, objs, taken_s, unused);
  /* Globals in declaration order, then uniform objects among the entry
   * point's parameters. */
  for (guint gi = 0; gi < u->globals->len + (guint) f->n_params; gi++)
    {
      Var *v = gi < u->globals->len ? g_ptr_array_index (u->globals, gi)
                                    : f->params[gi - u->globals->len];
      for (guint i = 0; i < objs->len; i++)
        {
          ObjRef *o = &g_array_index (objs, ObjRef, i);
          if (o->var != v || o->slot >= 0)
            continue;
          Type *et = v->type->kind == TY_ARRAY ? v->type->elem : v->type;
          bool is_tex = et->kind == TY_TEXTURE;
          GHashTable *taken = is_tex ? taken_t : taken_s;
          int *next = is_tex ? &next_tex : &next_samp;
          while (g_hash_table_contains (taken, GINT_TO_POINTER (*next + 1)))
            (*next)++;
          o->slot = (*next)++;
          g_hash_table_add (taken, GINT_TO_POINTER (o->slot + 1));
        }
    }
  for (guint i = 0; i < objs->len; i++)
    {
      ObjRef *o = &g_array_index (objs, ObjRef, i);
      if (o->no_resource)
        {
          tex_slot_of[i] = samp_slot_of[i] = o->slot;
          continue;
        }
      if (unused[i])
        continue;
      if (o->slot >= SL_MAX_SLOTS || o->slot < 0)
        {
          hlsl_lower_error (l, o->var->loc, SL_DIAG_HLSL_SAMPLER_SLOTS,
                            "sampler '%s' needs slot %d; at most %d are supported",
                            o->var->name, o->slot, SL_MAX_SLOTS);
          o->slot = 0;
        }
      tex_slot_of[i] = o->slot;
      samp_slot_of[i] = o->slot;
      Type *et = o->var->type->kind == TY_ARRAY ? o->var->type->elem : o->var->type;
      char *element_name = o->element ? g_strdup_printf ("%s[%d]", o->var->name, o->element) : NULL;
      SlSamplerInfo si = {
        .name = sl_arena_strdup (info->arena, element_name ? element_name : o->var->name),
        .slot = o->slot,
        .kind = et->tex_dim >= 0 ? (SlTextureKind) et->tex_dim : SL_TEXTURE_2D,
        .is_texture_object = et->kind == TY_TEXTURE,
      };
      /* A combined sampler filters as its sampler object says. */
      Var *state_var = o->svar && o->svar->declared ? o->svar : o->var;
      if (state_var->declared)
        {
          SlSamplerState *st = SL_NEW (info->arena, SlSamplerState);
          *st = *state_var->declared;
          si.declared_state = st;
        }
      if (o->var->annotations && o->var->annotations->len)
        {
          si.n_annotations = o->var->annotations->len;
          SlAnnotation *an = SL_NEW_N (info->arena, SlAnnotation, si.n_annotations);
          memcpy (an, o->var->annotations->data, si.n_annotations * sizeof (SlAnnotation));
          si.annotations = an;
        }
      g_array_append_val (info->samplers, si);
      g_free (element_name);
    }
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlInsn *in = sl_ir_insn (ir, i);
      if (in->op != SL_OP_SAMPLE && in->op != SL_OP_TEXSIZE)
        continue;
      int t = in->sample.texture, s = in->sample.sampler;
      in->sample.texture = tex_slot_of[t];
      in->sample.sampler = samp_slot_of[s];
      /* A sampler2D declared without dimension used with tex2D: record it. */
      for (guint k = 0; k < info->samplers->len; k++)
        {
          SlSamplerInfo *si = &g_array_index (info->samplers, SlSamplerInfo, k);
          if (si->slot == tex_slot_of[t])
            si->kind = (SlTextureKind) in->sample.dim;
        }
    }
  g_free (tex_slot_of);
  g_free (samp_slot_of);
  g_free (unused);
  g_hash_table_destroy (taken_t);
  g_hash_table_destroy (taken_s);
}

/* The IF an ELSE at @i belongs to. */
static guint
if_of (SlIr *ir, guint i)
{
  int nest = 0;
  while (i-- > 0)
    {
      SlOp op = sl_ir_insn (ir, i)->op;
      if (op == SL_OP_ENDIF)
        nest++;
      else if (op == SL_OP_IF && nest-- == 0)
        return i;
    }
  return 0;
}

/* fxc refuses a sample through a static texture or sampler that holds
 * no resource only where the sample's value is used, so this runs after
 * the optimiser has removed the dead ones (only for shaders that have
 * such a sample: the optimiser runs again after lowering anyway). */
static void
check_no_resource (L *l)
{
  GArray *objs = l->objs;
  bool any = false;
  for (guint i = 0; i < objs->len && !any; i++)
    any = g_array_index (objs, ObjRef, i).no_resource;
  if (!any || l->failed)
    return;
  sl_pass_optimise (l->ir);
  /* The optimiser keeps the branches of a folded condition: the side a
   * constant condition never takes is dead too.  dead[] holds, for each
   * open IF, whether its current side is never run. */
  bool dead[SL_MAX_NESTING + 1] = { false };
  int depth = 0, over = 0;   /* over: IFs nested past dead[], taken as live */
  for (guint i = 0; i < l->ir->insns->len; i++)
    {
      SlInsn *in = sl_ir_insn (l->ir, i);
      if (in->op == SL_OP_IF && depth == SL_MAX_NESTING)
        over++;
      else if (in->op == SL_OP_IF)
        {
          const SlValue *c = sl_ir_value (l->ir, in->src[0]);
          depth++;
          dead[depth] = dead[depth - 1] || (c->cls == SL_VALUE_CONST && !c->bits);
          continue;
        }
      if (in->op == SL_OP_ELSE && !over && depth > 0)
        {
          const SlValue *c = sl_ir_value (l->ir, sl_ir_insn (l->ir, if_of (l->ir, i))->src[0]);
          dead[depth] = dead[depth - 1] || (c->cls == SL_VALUE_CONST && c->bits);
          continue;
        }
      if (in->op == SL_OP_ENDIF)
        {
          if (over)
            over--;
          else if (depth > 0)
            depth--;
          continue;
        }
      if ((in->op != SL_OP_SAMPLE && in->op != SL_OP_TEXSIZE) || dead[depth]
          || (in->sample.texture < SL_MAX_SLOTS && in->sample.sampler < SL_MAX_SLOTS))
        continue;
      int slot = in->sample.texture >= SL_MAX_SLOTS ? in->sample.texture : in->sample.sampler;
      for (guint k = 0; k < objs->len; k++)
        {
          ObjRef *o = &g_array_index (objs, ObjRef, k);
          if (o->no_resource && o->slot == slot)
            {
              hlsl_lower_error (l, o->use_loc, SL_DIAG_HLSL_STATIC_OBJECT_UNBOUND,
                                "static '%s' holds no texture: a sample through it needs "
                                "a global texture assigned to it first", o->var->name);
              return;
            }
        }
    }
  /* What is left never runs; give it a slot that exists. */
  for (guint i = 0; i < l->ir->insns->len; i++)
    {
      SlInsn *in = sl_ir_insn (l->ir, i);
      if (in->op != SL_OP_SAMPLE && in->op != SL_OP_TEXSIZE)
        continue;
      if (in->sample.texture >= SL_MAX_SLOTS)
        in->sample.texture = 0;
      if (in->sample.sampler >= SL_MAX_SLOTS)
        in->sample.sampler = 0;
    }
}

SlIr *
hlsl_lower (HlslUnit *u, SlProgramInfo *info)
{
  L l = { .u = u, .info = info, .sm = u->shader_model,
          .float_ints = u->shader_model < 40 && u->fxc_profile };
  l.ir = sl_ir_new ();
  l.var_vals = g_new0 (uint32_t *, u->n_vars + 1);
  l.var_objs = g_new0 (int *, u->n_vars + 1);
  l.refused = g_hash_table_new (NULL, NULL);
  l.objs = g_array_new (FALSE, TRUE, sizeof (ObjRef));
  l.urefs = g_array_new (FALSE, TRUE, sizeof (URef));
  SlIr *ir = l.ir;

  lower_entry_point (&l);
  place_uniforms (&l);
  place_objects (&l);
  check_no_resource (&l);
  g_array_free (l.objs, TRUE);
  g_array_free (l.urefs, TRUE);
  g_free (l.var_vals);
  g_free (l.var_objs);
  g_hash_table_destroy (l.refused);
  info->n_outputs = ir->n_outputs;
  if (l.failed)
    {
      sl_ir_free (ir);
      return NULL;
    }
  return ir;
}
