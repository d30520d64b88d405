/* Statements and control flow in HLSL lowering: declarations, if, loops
 * (with the [unroll(n)] cap) and switch (a one-iteration loop whose case
 * labels open regions), returns and the IR's structured control flow. */
#include "hlsl/hlsl_lower.h"

void
hlsl_init_var (L *l, Var *v)
{
  uint32_t *vals = hlsl_alloc_var (l, v);
  BaseType *b = hlsl_bases_of (l, v->type);
  if (v->init)
    {
      RVal init = v->init->kind == N_INITLIST ? hlsl_lower_initlist (l, v->init, v->type)
                                              : hlsl_lower_expr (l, v->init);
      for (int i = 0; i < v->type->n_comp && i < init.n; i++)
        sl_ir_mov (l->ir, vals[i], init.c[i]);
      if (v->type->n_objects)
        l->var_objs[v->id] = hlsl_objs_copy (l, hlsl_objs_at (l, init, 0, v->type->n_objects),
                                             v->type->n_objects);
    }
  else
    {
      for (int i = 0; i < v->type->n_comp; i++)
        sl_ir_mov (l->ir, vals[i], zero_of (l, b[i]));
      if (v->type->n_objects)
        l->var_objs[v->id] = hlsl_objs_copy (l, NULL, v->type->n_objects);
    }
}

static void
lower_loop (L *l, Node *s)
{
  SlIr *ir = l->ir;
  if (s->kind == S_FOR && s->a)
    hlsl_lower_stmt (l, s->a);
  /* [unroll(n)] runs at most n iterations, as the D3D compiler's
   * unrolling does: an explicit counter, since reaching the LOOP cap
   * counts as a runaway loop. */
  uint32_t counter = SL_IR_NONE;
  if (s->loop_cap > 0)
    {
      counter = sl_ir_new_value (ir, SL_KIND_INT, SL_VALUE_VAR);
      sl_ir_mov (ir, counter, sl_ir_const_i (ir, 0));
    }
  sl_ir_ctrl (ir, SL_OP_LOOP, SL_IR_NONE, SL_HLSL_LOOP_CAP);
  l->loop_depth++;
  l->cf_depth++;
  if (counter != SL_IR_NONE)
    {
      sl_ir_ctrl (ir, SL_OP_BREAK, sl_ir_op2 (ir, SL_OP_IGE, SL_KIND_BOOL, counter,
                                              sl_ir_const_i (ir, s->loop_cap)), 0);
      sl_ir_mov (ir, counter, sl_ir_op2 (ir, SL_OP_IADD, SL_KIND_INT, counter, sl_ir_const_i (ir, 1)));
    }
  if (s->kind != S_DO && s->b)
    {
      RVal c = hlsl_lower_expr (l, s->b);
      sl_ir_ctrl (ir, SL_OP_BREAK, sl_ir_op1 (ir, SL_OP_NOT, SL_KIND_BOOL, c.c[0]), 0);
    }
  hlsl_lower_stmt (l, s->d);
  sl_ir_ctrl (ir, SL_OP_CONTEND, SL_IR_NONE, 0);
  if (s->kind == S_FOR && s->c)
    hlsl_lower_expr (l, s->c);
  if (s->kind == S_DO && s->b)
    {
      RVal c = hlsl_lower_expr (l, s->b);
      sl_ir_ctrl (ir, SL_OP_BREAK, sl_ir_op1 (ir, SL_OP_NOT, SL_KIND_BOOL, c.c[0]), 0);
    }
  sl_ir_ctrl (ir, SL_OP_ENDLOOP, SL_IR_NONE, 0);
  l->loop_depth--;
  l->cf_depth--;
}

static void
lower_switch (L *l, Node *s)
{
  /* A one-iteration loop, so 'break' leaves it; each case label opens a
   * region entered by lanes whose selector matches or that fell through
   * from the previous region. */
  SlIr *ir = l->ir;
  RVal sel = hlsl_lower_expr (l, s->a);
  /* Below SM 4 the selector is an integer held in a float. */
  sel.c[0] = hlsl_real_int (l, sel.c[0]);
  uint32_t through = sl_ir_new_value (ir, SL_KIND_BOOL, SL_VALUE_VAR);
  uint32_t matched = sl_ir_new_value (ir, SL_KIND_BOOL, SL_VALUE_VAR);
  sl_ir_mov (ir, through, sl_ir_const_b (ir, false));
  /* lanes matching any case label */
  uint32_t any = sl_ir_const_b (ir, false);
  for (int i = 0; i < s->n_args; i++)
    if (s->args[i]->kind == S_EXPR && s->args[i]->op == 1)
      any = sl_ir_op2 (ir, SL_OP_OR, SL_KIND_BOOL, any,
                       sl_ir_op2 (ir, SL_OP_IEQ, SL_KIND_BOOL, sel.c[0],
                                  sl_ir_const_i (ir, s->args[i]->offset)));
  sl_ir_mov (ir, matched, any);
  sl_ir_ctrl (ir, SL_OP_LOOP, SL_IR_NONE, 1);
  l->loop_depth++;
  l->cf_depth++;
  bool open = false;
  for (int i = 0; i < s->n_args; i++)
    {
      Node *it = s->args[i];
      if (it->kind == S_EXPR && it->op)
        {
          if (open)
            {
              sl_ir_ctrl (ir, SL_OP_ENDIF, SL_IR_NONE, 0);
              l->cf_depth--;
            }
          uint32_t hit = it->op == 1
                           ? sl_ir_op2 (ir, SL_OP_IEQ, SL_KIND_BOOL, sel.c[0], sl_ir_const_i (ir, it->offset))
                           : sl_ir_op1 (ir, SL_OP_NOT, SL_KIND_BOOL, matched);
          uint32_t enter = sl_ir_op2 (ir, SL_OP_OR, SL_KIND_BOOL, through, hit);
          sl_ir_mov (ir, through, enter);
          sl_ir_ctrl (ir, SL_OP_IF, through, 0);
          l->cf_depth++;
          open = true;
          continue;
        }
      if (open)
        hlsl_lower_stmt (l, it);
    }
  if (open)
    {
      sl_ir_ctrl (ir, SL_OP_ENDIF, SL_IR_NONE, 0);
      l->cf_depth--;
    }
  sl_ir_ctrl (ir, SL_OP_BREAK, SL_IR_NONE, 0);
  sl_ir_ctrl (ir, SL_OP_ENDLOOP, SL_IR_NONE, 0);
  l->loop_depth--;
  l->cf_depth--;
}

void
hlsl_lower_stmt (L *l, Node *s)
{
  if (!s || l->ir->overflow)
    return;
  SlIr *ir = l->ir;
  switch (s->kind)
    {
    case S_BLOCK:
      for (int i = 0; i < s->n_args; i++)
        hlsl_lower_stmt (l, s->args[i]);
      break;
    case S_DECL:
      /* A static local keeps one storage across all inlined calls. */
      if (s->var->storage == STORE_STATIC && l->var_vals[s->var->id])
        break;
      hlsl_init_var (l, s->var);
      break;
    case S_EXPR:
      if (s->a)
        hlsl_lower_expr (l, s->a);
      break;
    case S_IF:
      {
        RVal c = hlsl_lower_expr (l, s->a);
        /* A branch whose condition is known (if (false), or a bool
         * assigned false just before) is dead code, where fxc's
         * liveness-dependent checks stay silent (see L.dead). */
        int64_t known;
        bool is_known = c.n > 0 && hlsl_exact (l, c.c[0], &known);
        sl_ir_ctrl (ir, SL_OP_IF, c.c[0], 0);
        l->cf_depth++;
        l->dead += is_known && !known;
        hlsl_lower_stmt (l, s->b);
        l->dead -= is_known && !known;
        if (s->c)
          {
            sl_ir_ctrl (ir, SL_OP_ELSE, SL_IR_NONE, 0);
            l->dead += is_known && known;
            hlsl_lower_stmt (l, s->c);
            l->dead -= is_known && known;
          }
        sl_ir_ctrl (ir, SL_OP_ENDIF, SL_IR_NONE, 0);
        l->cf_depth--;
      }
      break;
    case S_FOR: case S_WHILE: case S_DO:
      lower_loop (l, s);
      break;
    case S_SWITCH:
      lower_switch (l, s);
      break;
    case S_RETURN:
      {
        Frame *fr = &l->frames[l->n_frames - 1];
        RVal v = s->a ? hlsl_lower_expr (l, s->a) : rv_new (l, 0);
        if (fr->framed)
          {
            for (int i = 0; i < v.n; i++)
              sl_ir_mov (ir, fr->ret_vals[i], v.c[i]);
            for (int j = 0; j < v.no && v.o && fr->ret_objs; j++)
              {
                if (fr->ret_objs[j] >= 0 && fr->ret_objs[j] != v.o[j])
                  hlsl_lower_error (l, s->loc, SL_DIAG_HLSL_OBJECT_RETURN,
                                    "returns of one function must return the same samplers "
                                    "and textures (objects are chosen when compiling)");
                fr->ret_objs[j] = v.o[j];
              }
            sl_ir_ctrl (ir, SL_OP_RETURN, SL_IR_NONE, 0);
          }
        else
          {
            fr->ret_rv = v;
            fr->returned = true;
          }
      }
      break;
    case S_BREAK:
      sl_ir_ctrl (ir, SL_OP_BREAK, SL_IR_NONE, 0);
      break;
    case S_CONTINUE:
      sl_ir_ctrl (ir, SL_OP_CONTINUE, SL_IR_NONE, 0);
      break;
    case S_DISCARD:
      sl_ir_ctrl (ir, SL_OP_DISCARD, SL_IR_NONE, 0);
      break;
    default:
      break;
    }
}
