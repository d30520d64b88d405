/* Calls in HLSL lowering: every call is inlined.  Arguments are evaluated
 * before the parameters are bound; a body that returns from inside
 * control flow is framed by FBEGIN/FEND so that returned lanes stop; out
 * and inout parameters are copied back, objects included. */
#include "hlsl/hlsl_lower.h"

#include <string.h>

bool
hlsl_returns_inside_cf (Node *s, bool top)
{
  if (!s)
    return false;
  switch (s->kind)
    {
    case S_RETURN:
      return !top;
    case S_BLOCK:
      for (int i = 0; i < s->n_args; i++)
        if (hlsl_returns_inside_cf (s->args[i], top && i == s->n_args - 1))
          return true;
      return false;
    case S_IF:
      return hlsl_returns_inside_cf (s->b, false) || hlsl_returns_inside_cf (s->c, false);
    case S_FOR: case S_WHILE: case S_DO:
      return hlsl_returns_inside_cf (s->d, false);
    case S_SWITCH:
      for (int i = 0; i < s->n_args; i++)
        if (hlsl_returns_inside_cf (s->args[i], false))
          return true;
      return false;
    default:
      return false;
    }
}

RVal
hlsl_inline_call (L *l, Node *call)
{
  Func *f = call->func;
  if (!f->body)
    {
      hlsl_lower_error (l, call->loc, SL_DIAG_HLSL_FUNCTION_UNDEFINED,
                        "function '%s' is declared but never defined", f->name);
      return rv_new (l, f->ret->n_comp);
    }
  if (f->busy)
    {
      hlsl_lower_error (l, call->loc, SL_DIAG_HLSL_RECURSION,
                        "recursive call to '%s': recursion is not allowed in shaders", f->name);
      return rv_new (l, f->ret->n_comp);
    }
  if (l->n_frames >= SL_MAX_INLINE_DEPTH)
    {
      hlsl_lower_error (l, call->loc, SL_DIAG_HLSL_CALL_DEPTH, "calls nested too deeply");
      return rv_new (l, f->ret->n_comp);
    }
  /* Arguments are evaluated before the parameters are bound, so
   * f(x, x) style calls see consistent values. */
  RVal *args = g_new0 (RVal, f->n_params + 1);
  for (int k = 0; k < f->n_params; k++)
    {
      Var *prm = f->params[k];
      /* An out parameter's objects come from the callee, but an inout
       * one is read like an in one. */
      if (prm->param_mod != 1)
        args[k] = hlsl_lower_expr (l, call->args[k]);
    }
  for (int k = 0; k < f->n_params; k++)
    {
      Var *prm = f->params[k];
      if (prm->type->n_objects)
        l->var_objs[prm->id] = hlsl_objs_copy (l, hlsl_objs_at (l, args[k], 0, prm->type->n_objects),
                                               prm->type->n_objects);
      if (!prm->type->n_comp)
        continue;
      uint32_t *vals = hlsl_alloc_var (l, prm);
      BaseType *b = hlsl_bases_of (l, prm->type);
      for (int i = 0; i < prm->type->n_comp; i++)
        {
          uint32_t src = prm->param_mod == 1 ? zero_of (l, b[i])
                         : args[k].c[MIN (i, args[k].n - 1)];
          if (prm->param_mod == 2 && call->args[k]->type->n_comp == prm->type->n_comp)
            src = hlsl_conv (l, src, hlsl_bases_of (l, call->args[k]->type)[i], b[i]);
          sl_ir_mov (l->ir, vals[i], src);
        }
    }

  Frame *fr = &l->frames[l->n_frames++];
  memset (fr, 0, sizeof *fr);
  fr->func = f;
  fr->framed = hlsl_returns_inside_cf (f->body, true);
  if (fr->framed)
    {
      fr->ret_vals = SL_NEW_N (l->u->arena, uint32_t, f->ret->n_comp + 1);
      fr->ret_objs = hlsl_objs_copy (l, NULL, f->ret->n_objects);
      BaseType *b = hlsl_bases_of (l, f->ret);
      for (int i = 0; i < f->ret->n_comp; i++)
        {
          fr->ret_vals[i] = sl_ir_new_value (l->ir, kind_for (l, b[i]), SL_VALUE_VAR);
          sl_ir_mov (l->ir, fr->ret_vals[i], zero_of (l, b[i]));
        }
      sl_ir_ctrl (l->ir, SL_OP_FBEGIN, SL_IR_NONE, 0);
      l->cf_depth++;
    }
  f->busy = true;
  int saved_loop = l->loop_depth;
  l->loop_depth = 0;
  hlsl_lower_stmt (l, f->body);
  l->loop_depth = saved_loop;
  f->busy = false;
  if (fr->framed)
    {
      sl_ir_ctrl (l->ir, SL_OP_FEND, SL_IR_NONE, 0);
      l->cf_depth--;
    }
  RVal result;
  if (fr->framed)
    {
      result = rv_new (l, f->ret->n_comp);
      memcpy (result.c, fr->ret_vals, f->ret->n_comp * sizeof (uint32_t));
      if (f->ret->n_objects)
        {
          result.o = fr->ret_objs;
          result.no = f->ret->n_objects;
        }
    }
  else if (fr->returned)
    result = fr->ret_rv;
  else
    {
      /* The parser rejects a reachable end; what remains is a body that
       * never leaves an endless loop. */
      if (f->ret->kind != TY_VOID && f->ret->kind != TY_ERROR)
        hlsl_lower_error (l, f->loc, SL_DIAG_HLSL_FUNCTION_NO_RETURN,
                          "function '%s' does not return a value", f->name);
      result = rv_new (l, f->ret->n_comp);
      BaseType *b = hlsl_bases_of (l, f->ret);
      for (int i = 0; i < result.n; i++)
        result.c[i] = zero_of (l, b[i]);
    }
  l->n_frames--;

  /* Copy out/inout parameters back to the arguments. */
  for (int k = 0; k < f->n_params; k++)
    {
      Var *prm = f->params[k];
      if (prm->param_mod == 0)
        continue;
      RVal c = rv_new (l, prm->type->n_comp);
      if (prm->type->n_comp)
        memcpy (c.c, l->var_vals[prm->id], c.n * sizeof (uint32_t));
      /* Objects go back only if the callee rebound them: an inout
       * argument may be a global object, which cannot be assigned. */
      int no = prm->type->n_objects;
      int *now = l->var_objs[prm->id];
      if (no && now && (prm->param_mod == 1 || memcmp (now, hlsl_objs_at (l, args[k], 0, no), no * sizeof (int))))
        {
          c.o = hlsl_objs_copy (l, now, no);
          c.no = no;
        }
      if (!prm->type->n_comp && !c.o)
        continue;
      hlsl_store (l, call->args[k], hlsl_cast_rval (l, c, prm->type, call->args[k]->type));
    }
  g_free (args);
  return result;
}
