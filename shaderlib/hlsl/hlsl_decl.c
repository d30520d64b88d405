/* HLSL declarations: variables, structs, typedefs and functions, with what
 * may follow a declarator: array sizes, semantics, register() and
 * packoffset() reservations, annotations and initialisers.
 *
 * Globals land in the unit's list in declaration order (slots and
 * constant registers follow that order); functions join their name's
 * overload chain before their body is read, so a recursive call resolves
 * and is rejected when inlining.  A function body whose end is reachable
 * without a return is reported here (see hlsl_end_reachable). */
#include "hlsl/hlsl_parse.h"

#include <string.h>

/* ---- what follows a declarator ----------------------------------------- */

GArray *
hlsl_parse_annotations (P *p)
{
  /* < type name = value; … >, or ReShade's untyped < name = value; … >
   * whose type follows from the value. */
  GArray *anns = g_array_new (FALSE, TRUE, sizeof (SlAnnotation));
  while (!is (p, ">") && peek (p)->kind != TK_EOF)
    {
      bool untyped = peek (p)->kind == TK_IDENT && peek_at (p, 1)->kind == TK_PUNCT
                     && !strcmp (peek_at (p, 1)->text, "=");
      if (!untyped)
        hlsl_parse_modifiers (p);
      Type *t = untyped ? NULL : hlsl_parse_type (p);
      if (!t && !untyped)
        {
          hlsl_error (p, peek (p)->loc, SL_DIAG_HLSL_EXPECTED_ANNOTATION_TYPE, "expected an annotation type");
          while (!is (p, ">") && peek (p)->kind != TK_EOF)
            next (p);
          break;
        }
      const char *name = expect_ident (p);
      SlAnnotation an = { .name = name ? sl_arena_strdup (p->arena, name) : "" };
      if (accept (p, "["))
        {
          while (!is (p, "]") && peek (p)->kind != TK_EOF)
            next (p);
          expect (p, "]");
        }
      expect (p, "=");
      if (untyped ? peek (p)->kind == TK_STRING : t->kind == TY_STRING)
        {
          an.type = SL_ANNOTATION_STRING;
          GString *s = g_string_new (NULL);
          while (peek (p)->kind == TK_STRING)
            g_string_append (s, next (p)->text);
          an.string_value = sl_arena_strdup (p->arena, s->str);
          g_string_free (s, TRUE);
        }
      else
        {
          if (untyped)
            an.type = peek (p)->kind == TK_INT ? SL_ANNOTATION_INT
                      : peek (p)->kind == TK_IDENT && (!strcmp (peek (p)->text, "true")
                                                       || !strcmp (peek (p)->text, "false"))
                      ? SL_ANNOTATION_BOOL : SL_ANNOTATION_FLOAT;
          else
            an.type = t->kind == TY_NUM && t->base == BT_BOOL ? SL_ANNOTATION_BOOL
                      : t->kind == TY_NUM && (t->base == BT_INT || t->base == BT_UINT) ? SL_ANNOTATION_INT
                      : SL_ANNOTATION_FLOAT;
          bool braces = accept (p, "{");
          if (!braces && hlsl_is_type_start (p))
            {
              hlsl_parse_type (p);
              braces = accept (p, "(");
            }
          while (!is (p, ";") && !is (p, ">") && peek (p)->kind != TK_EOF)
            {
              bool neg = false;
              while (is (p, "-") || is (p, "+"))
                neg ^= next (p)->text[0] == '-';
              Token *v = next (p);
              double d = 0;
              if (v->kind == TK_INT)
                d = (double) v->ival;
              else if (v->kind == TK_FLOAT)
                d = v->fval;
              else if (v->kind == TK_IDENT && !strcmp (v->text, "true"))
                d = 1;
              else if (v->kind == TK_STRING)
                {
                  an.type = SL_ANNOTATION_STRING;
                  an.string_value = sl_arena_strdup (p->arena, v->text);
                }
              else if (v->kind == TK_PUNCT && (!strcmp (v->text, ",") || !strcmp (v->text, "}")
                                               || !strcmp (v->text, ")")))
                continue;
              if (an.n_values < 16 && (v->kind == TK_INT || v->kind == TK_FLOAT || v->kind == TK_IDENT))
                an.values[an.n_values++] = neg ? -d : d;
            }
        }
      expect (p, ";");
      g_array_append_val (anns, an);
    }
  expect (p, ">");
  return anns;
}

/* ': SEMANTIC', ': register(x)', ': packoffset(…)', after a declarator. */
void
hlsl_parse_semantics (P *p, const char **semantic, int *reg_kind, int *reg_index)
{
  while (accept (p, ":"))
    {
      Token *t = peek (p);
      if (t->kind != TK_IDENT)
        {
          hlsl_error (p, t->loc, SL_DIAG_HLSL_EXPECTED_SEMANTIC, "expected a semantic after ':'");
          /* Take the bad token as the semantic so the declaration goes on. */
          if (t->kind != TK_EOF && !is (p, "{") && !is (p, ";") && !is (p, ",") && !is (p, ")")
              && !is (p, "="))
            next (p);
          return;
        }
      next (p);
      if (!strcmp (t->text, "register") || !strcmp (t->text, "packoffset"))
        {
          bool is_reg = t->text[0] == 'r';
          expect (p, "(");
          /* register(ps_3_0, c0) has a profile first */
          Token *r = next (p);
          if (is (p, ","))
            {
              next (p);
              r = next (p);
            }
          if (r->kind == TK_IDENT && reg_kind)
            {
              /* "c3", "c", "c1abc" (trailing letters ignored), with an
               * optional [expr] added to the index. */
              char k = (char) g_ascii_tolower (r->text[0]);
              bool has_digit = g_ascii_isdigit (r->text[1]);
              /* Clamped while parsing so a hostile index cannot overflow;
               * range-checked below (a constant buffer has 4096
               * registers, and the constant file is sized by the index). */
              long long lidx = g_ascii_strtoll (r->text + 1, NULL, 10);
              bool bracket = false;
              if (is_reg && accept (p, "["))
                {
                  bracket = true;
                  Node *e = hlsl_parse_expr (p);
                  bool ok = true;
                  double d = hlsl_const_eval_double (p, e, &ok);
                  if (!ok && !is_error (e))
                    hlsl_error (p, e->loc, SL_DIAG_HLSL_REGISTER_OFFSET,
                                "register offset must be a constant expression");
                  if (ok)
                    lidx += (long long) CLAMP (d, -1e12, 1e12);
                  expect (p, "]");
                }
              int idx = 0;
              if (lidx < 0 || lidx >= 4096)
                hlsl_error (p, r->loc, SL_DIAG_HLSL_REGISTER_RANGE,
                            "register index %lld is out of range (0 to 4095)", lidx);
              else
                idx = (int) lidx;
              if (is_reg)
                {
                  /* A 'c' reservation wins over others on the same
                   * variable (SM1-3 keep numeric values there). */
                  if (*reg_kind != 'c')
                    {
                      *reg_kind = k;
                      *reg_index = idx;
                      if (!has_digit && !bracket && r->text[1])
                        *reg_kind = k | 0x100;   /* letters only: no index */
                    }
                }
              else
                {
                  /* packoffset(c3.y) → component offset */
                  int comp = 0;
                  if (accept (p, "."))
                    {
                      Token *c = next (p);
                      const char *xyzw = "xyzw";
                      const char *q = strchr (xyzw, c->text[0]);
                      comp = q ? q - xyzw : 0;
                    }
                  *reg_kind = 'p';
                  *reg_index = idx * 4 + comp;
                }
            }
          if (accept (p, "["))
            {
              while (!is (p, "]") && peek (p)->kind != TK_EOF)
                next (p);
              expect (p, "]");
            }
          expect (p, ")");
        }
      else if (semantic)
        *semantic = t->text;
    }
}

static Type *
parse_array_suffix (P *p, Type *t, bool allow_unsized, int *unsized)
{
  /* Dimensions apply outermost first: float a[2][3] is 2 arrays of 3. */
  int dims[8], n = 0;
  SlLoc first_loc = peek (p)->loc;
  while (accept (p, "["))
    {
      int len = 0;
      if (is (p, "]") && allow_unsized && n == 0)
        {
          len = -1;
          if (unsized)
            *unsized = 1;
        }
      else
        {
          Token *lt = peek (p);
          if (!hlsl_parse_const_int_expr (p, &len))
            len = 1;   /* already reported */
          else if (len <= 0 || len > SL_MAX_ARRAY_COMPONENTS)
            {
              hlsl_error (p, lt->loc, SL_DIAG_HLSL_ARRAY_SIZE,
                          "array size must be between 1 and %d", SL_MAX_ARRAY_COMPONENTS);
              len = 1;
            }
        }
      expect (p, "]");
      if (n < 8)
        dims[n++] = len;
    }
  for (int i = n - 1; i >= 0; i--)
    {
      t = hlsl_type_array (p, t, dims[i] < 0 ? 1 : dims[i]);
      if ((size_t) t->n_comp > SL_MAX_ARRAY_COMPONENTS)
        {
          hlsl_error (p, first_loc, SL_DIAG_HLSL_ARRAY_TOO_LARGE, "array is too large");
          return p->t_error;
        }
    }
  return t;
}

/* ---- structs ----------------------------------------------------------- */

static Type *parse_struct_body (P *p, Token *kw);

Type *
hlsl_parse_struct (P *p)
{
  Token *kw = next (p);  /* struct */
  /* struct A { struct B { … — the definitions recurse. */
  if (p->struct_depth >= SL_MAX_TYPE_DEPTH)
    {
      hlsl_error (p, kw->loc, SL_DIAG_HLSL_STRUCT_DEPTH,
                  "struct definitions nested too deeply (more than %d)", SL_MAX_TYPE_DEPTH);
      /* Skip this definition, braces and all, without recursing, so
       * that the enclosing ones close quietly around an error type. */
      while (!is (p, "{") && !is (p, ";") && peek (p)->kind != TK_EOF)
        next (p);
      for (int open = 0; peek (p)->kind != TK_EOF; )
        {
          if (is (p, "{"))
            open++;
          else if (is (p, "}") && --open == 0)
            {
              next (p);
              break;
            }
          if (open == 0)
            break;
          next (p);
        }
      return p->t_error;
    }
  p->struct_depth++;
  Type *t = parse_struct_body (p, kw);
  p->struct_depth--;
  return t;
}

static Type *
parse_struct_body (P *p, Token *kw)
{
  Token *name_tok = peek (p);
  const char *name = NULL;
  if (peek (p)->kind == TK_IDENT)
    name = next (p)->text;
  Type *base = NULL;
  if (name && is (p, ":"))
    {
      /* struct b : a — a's members come first; later ones shadow them. */
      next (p);
      Token *bt = peek (p);
      base = hlsl_parse_type (p);
      if (!base || base->kind != TY_STRUCT)
        {
          hlsl_error (p, bt->loc, SL_DIAG_HLSL_STRUCT_BASE, "a struct can only derive from a struct");
          base = NULL;
        }
      if (is (p, ","))
        {
          hlsl_error (p, peek_at (p, 1)->loc, SL_DIAG_HLSL_STRUCT_BASES,
                      "a struct can derive from only one struct");
          while (!is (p, "{") && peek (p)->kind != TK_EOF)
            next (p);
        }
    }
  if (!is (p, "{"))
    {
      Type *t = name ? g_hash_table_lookup (p->types, name) : NULL;
      if (!t)
        {
          if (name)
            hlsl_error (p, name_tok->loc, SL_DIAG_HLSL_UNKNOWN_STRUCT, "unknown struct '%s'", name);
          else
            hlsl_error (p, kw->loc, SL_DIAG_HLSL_EXPECTED_STRUCT,
                        "expected a struct name or '{' after 'struct'");
          return p->t_error;
        }
      return t;
    }
  next (p);
  Type *t = SL_NEW (p->arena, Type);
  t->kind = TY_STRUCT;
  t->name = name;
  GArray *fields = g_array_new (FALSE, TRUE, sizeof (Field));
  guint own_from = 0;
  if (base)
    {
      g_array_append_vals (fields, base->fields, base->n_fields);
      t->n_comp = base->n_comp;
      t->n_objects = base->n_objects;
      t->nest = base->nest;
      own_from = fields->len;
    }
  while (!is (p, "}") && peek (p)->kind != TK_EOF)
    {
      unsigned mods = hlsl_parse_modifiers (p);
      Type *ft = hlsl_parse_type (p);
      if (!ft)
        {
          hlsl_error (p, peek (p)->loc, SL_DIAG_HLSL_EXPECTED_MEMBER_TYPE,
                      "expected a member type before '%s'", tok_desc (peek (p)));
          hlsl_recover (p);
          continue;
        }
      ft = hlsl_apply_majority (p, ft, mods);
      bool bad_name = false;
      do
        {
          Token *ftok = peek (p);
          const char *fname = expect_ident (p);
          if (!fname)
            {
              bad_name = true;
              break;
            }
          Type *full = parse_array_suffix (p, ft, false, NULL);
          if (full->nest >= SL_MAX_TYPE_DEPTH)
            {
              hlsl_error (p, ftok->loc, SL_DIAG_HLSL_TYPE_DEPTH,
                          "type nested too deeply (more than %d arrays and structs)", SL_MAX_TYPE_DEPTH);
              full = p->t_error;
            }
          t->nest = MAX (t->nest, full->nest + 1);
          Field f = { .name = fname, .type = full, .offset = t->n_comp };
          hlsl_parse_semantics (p, &f.semantic, NULL, NULL);
          for (guint i = own_from; i < fields->len; i++)
            if (!strcmp (g_array_index (fields, Field, i).name, fname))
              hlsl_error (p, ftok->loc, SL_DIAG_HLSL_DUPLICATE_MEMBER, "duplicate member '%s'", fname);
          t->n_comp += full->n_comp;
          t->n_objects += full->n_objects;
          g_array_append_val (fields, f);
        }
      while (accept (p, ","));
      if (bad_name)
        hlsl_recover (p);   /* past this member's ';', quietly */
      else
        expect (p, ";");
    }
  expect (p, "}");
  t->n_fields = fields->len;
  t->fields = SL_NEW_N (p->arena, Field, fields->len + 1);
  if (fields->len > 0)   /* pdata is NULL while empty */
    memcpy (t->fields, fields->data, fields->len * sizeof (Field));
  g_array_free (fields, TRUE);
  if (name)
    g_hash_table_insert (p->types, (gpointer) name, t);
  return t;
}

/* ---- variables --------------------------------------------------------- */

static Node *
parse_var_init (P *p, Var *v, bool unsized)
{
  SlLoc loc = peek (p)->loc;
  if (unsized && v->type->kind == TY_ARRAY)
    {
      /* float4 a[] = …: the initializer decides the outer length. */
      Type *elem = v->type->elem;
      Node *e;
      int n;
      if (is (p, "{"))
        {
          next (p);
          e = hlsl_parse_initializer_list (p, loc);
          if (is_error (e))
            return NULL;
          n = e->n_comps;
        }
      else
        {
          e = hlsl_parse_assign (p);
          if (is_error (e))
            return NULL;
          n = e->type->n_comp;
        }
      if (elem->n_comp <= 0 || n % elem->n_comp || n == 0)
        {
          hlsl_error (p, loc, SL_DIAG_HLSL_INITIALIZER_MULTIPLE,
                      "initializer for '%s' has %d components, not a multiple of %d", v->name,
                      n, elem->n_comp);
          return NULL;
        }
      v->type = hlsl_type_array (p, elem, n / elem->n_comp);
      if (e->kind == N_INITLIST)
        {
          e->type = v->type;
          return e;
        }
      return hlsl_convert (p, e, v->type, loc, false, "initialization");
    }
  /* An array of samplers from state blocks: { sampler_state { … }, … }.
   * The blocks configure effects; the samplers read what the host binds. */
  if (is (p, "{") && peek_at (p, 1)->kind == TK_IDENT && !strcmp (peek_at (p, 1)->text, "sampler_state")
      && v->type->n_objects)
    {
      next (p);
      while (accept (p, "sampler_state"))
        {
          expect (p, "{");
          hlsl_parse_state_entries_into (p, NULL);
          if (!accept (p, ","))
            break;
        }
      expect (p, "}");
      return NULL;
    }
  /* NULL leaves an object unbound ("Expressions (Direct3D 9)": NULL can
   * only be assigned to a shader, sampler or texture). */
  if (is (p, "NULL") && v->type->n_objects && !v->type->n_comp)
    {
      next (p);
      return NULL;
    }
  if (is (p, "{"))
    {
      next (p);
      Node *list = hlsl_parse_initializer_list (p, loc);
      if (is_error (list))
        return NULL;
      if (v->type->kind != TY_ERROR && list->n_comps != v->type->n_comp
          && !(list->n_comps == 1 && !v->type->n_objects))
        {
          hlsl_error (p, loc, SL_DIAG_HLSL_INITIALIZER_COUNT,
                      "initializer for '%s' has %d components, expected %d", v->name,
                      list->n_comps, v->type->n_comp);
          return NULL;
        }
      if (v->type->kind != TY_ERROR && !hlsl_initlist_objects_ok (list, v->type))
        {
          hlsl_error (p, loc, SL_DIAG_HLSL_INITIALIZER_OBJECTS,
                      "initializer for '%s' does not put its samplers and textures "
                      "where '%s' has them", v->name, hlsl_type_name (p, v->type));
          return NULL;
        }
      list->type = v->type;
      return list;
    }
  if (is (p, "sampler_state") && peek_at (p, 1)->kind == TK_PUNCT
      && !strcmp (peek_at (p, 1)->text, "{") && v->type->kind == TY_SAMPLER)
    {
      next (p);
      next (p);
      v->declared = SL_NEW (p->arena, SlSamplerState);
      sl_sampler_state_init_default (v->declared);
      hlsl_parse_state_entries_into (p, v->declared);
      return NULL;
    }
  if (is (p, "sampler_state") && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "{"))
    {
      /* A state block for something that is not one sampler: checked,
       * then left to the effect layer. */
      next (p);
      next (p);
      hlsl_parse_state_entries_into (p, NULL);
      return NULL;
    }
  if (is (p, "compile"))
    {
      /* compile …: read by the effect layer; skip here */
      next (p);
      hlsl_parse_compile_target (p, false);
      return NULL;
    }
  Node *e = hlsl_parse_assign (p);
  if (is_error (e))
    return NULL;
  return hlsl_convert (p, e, v->type, loc, false, "initialization");
}

/* register() reservations of a global: the register class must suit the
 * type (before SM4 numeric values live in 'c').  Overlaps are checked when
 * lowering, where it is known which variables are used. */
static void
check_register (P *p, Var *v)
{
  if (!v->reg_kind)
    return;
  bool letters_only = (v->reg_kind & 0x100) != 0;
  v->reg_kind &= 0xff;
  Type *t = v->type;
  while (t->kind == TY_ARRAY)
    t = t->elem;
  if (t->kind == TY_SAMPLER)
    {
      if ((v->reg_kind != 's' && v->reg_kind != 't') || letters_only)
        hlsl_error (p, v->loc, SL_DIAG_HLSL_SAMPLER_REGISTER,
                    "sampler '%s' needs an 's' or 't' register", v->name);
      return;
    }
  if (t->kind == TY_TEXTURE || t->kind == TY_ERROR)
    return;
  /* D3D9 bool registers hold bools for flow control (if (flag) …). */
  bool bool_reg = v->reg_kind == 'b' && t->kind == TY_NUM && t->base == BT_BOOL;
  if (p->u->shader_model < 40 && v->reg_kind != 'c' && !bool_reg)
    {
      hlsl_error (p, v->loc, SL_DIAG_HLSL_CONSTANT_REGISTER,
                  "'%s' needs a 'c' register reservation", v->name);
      return;
    }
}

/* Declarations after the type: name [dims] [: sem] [<ann>] [= init], … */
Node *
hlsl_parse_declarators (P *p, Type *base, unsigned mods, bool global)
{
  Node *block = new_node (p, S_BLOCK, peek (p)->loc, p->t_void);
  GPtrArray *stmts = g_ptr_array_new ();
  do
    {
      Token *nt = peek (p);
      const char *name = expect_ident (p);
      if (!name)
        {
          hlsl_recover (p);
          g_ptr_array_free (stmts, TRUE);
          return block;
        }
      int unsized = 0;
      Type *t = parse_array_suffix (p, base, true, &unsized);
      Var *v = SL_NEW (p->arena, Var);
      v->name = name;
      v->loc = nt->loc;
      v->type = t;
      v->is_const = (mods & MOD_CONST) != 0 || base->is_patch;
      v->storage = global ? ((mods & MOD_STATIC) ? STORE_STATIC : STORE_UNIFORM) : STORE_LOCAL;
      if (!global && (mods & MOD_STATIC))
        v->storage = STORE_STATIC;
      if (global && (mods & MOD_STATIC) && (mods & MOD_UNIFORM))
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_STATIC_UNIFORM, "'%s' cannot be both static and uniform", name);
      /* "Variable Syntax": extern is the application-visible default of
       * a global, static hides it; both is a contradiction. */
      if ((mods & MOD_STATIC) && (mods & MOD_EXTERN))
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_EXTERN_STATIC, "'%s' cannot be both extern and static", name);
      if (mods & MOD_EXPORT)
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_EXPORT_VARIABLE,
                    "'export' applies only to functions, not to variable '%s'", name);
      /* "Variable Syntax": in, out and inout are parameter modifiers. */
      if (mods & (MOD_IN | MOD_OUT | MOD_INOUT))
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_PARAM_MODIFIER_VARIABLE,
                    "'%s' applies only to parameters, not to variable '%s'",
                    (mods & MOD_INOUT) || (mods & (MOD_IN | MOD_OUT)) == (MOD_IN | MOD_OUT) ? "inout"
                    : (mods & MOD_IN) ? "in" : "out", name);
      if (!global && (mods & (MOD_UNIFORM | MOD_EXTERN)))
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_LOCAL_UNIFORM,
                    "local variable '%s' cannot be uniform or extern", name);
      if (t->kind == TY_VOID)
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_VOID_VARIABLE, "variable '%s' declared void", name);
      hlsl_parse_semantics (p, &v->semantic, &v->reg_kind, &v->reg_index);
      if (global)
        check_register (p, v);
      if (accept (p, "<"))
        {
          v->annotations = hlsl_parse_annotations (p);
          sl_arena_own (p->arena, v->annotations, (GDestroyNotify) g_array_unref);
        }
      /* A state block may follow any declarator (D3D10 sampler syntax:
       * SamplerState s { Filter = …; }); only a sampler's is kept, the
       * rest configure effects.  An array's may hold a block per
       * element. */
      if (accept (p, "{"))
        {
          if (t->kind == TY_SAMPLER)
            {
              v->declared = SL_NEW (p->arena, SlSamplerState);
              sl_sampler_state_init_default (v->declared);
            }
          hlsl_parse_state_entries_into (p, v->declared);
        }
      if (accept (p, "="))
        {
          v->init = parse_var_init (p, v, unsized);
          /* A uniform's initializer is its default value, stored in the
           * shader: it may not read variables. */
          if (v->init && v->storage == STORE_UNIFORM && !hlsl_is_literal_expr (v->init))
            hlsl_error (p, v->init->loc, SL_DIAG_HLSL_DEFAULT_NOT_LITERAL,
                        "the default value of '%s' must be a literal expression", name);
        }
      else if (unsized)
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_ARRAY_NO_SIZE,
                    "array '%s' needs a size or an initializer", name);
      else if (v->is_const && v->storage == STORE_LOCAL)
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_CONST_NO_INITIALIZER,
                    "const variable '%s' needs an initializer", name);
      hlsl_declare_var (p, v);
      if (global)
        g_ptr_array_add (p->u->globals, v);
      else
        {
          Node *d = new_node (p, S_DECL, nt->loc, p->t_void);
          d->var = v;
          g_ptr_array_add (stmts, d);
        }
    }
  while (accept (p, ","));
  expect (p, ";");
  block->n_args = stmts->len;
  block->args = SL_NEW_N (p->arena, Node *, stmts->len + 1);
  if (stmts->len > 0)   /* pdata is NULL while empty */
    memcpy (block->args, stmts->pdata, stmts->len * sizeof (Node *));
  g_ptr_array_free (stmts, TRUE);
  return block;
}

/* ---- functions and typedefs -------------------------------------------- */

void
hlsl_parse_function (P *p, Type *ret, Token *name_tok, unsigned mods)
{
  Func *f = SL_NEW (p->arena, Func);
  f->name = name_tok->text;
  f->ret = ret;
  f->loc = name_tok->loc;
  next (p);   /* ( */
  hlsl_push_scope (p);
  GPtrArray *params = g_ptr_array_new ();
  GPtrArray *defaults = g_ptr_array_new ();
  bool any_default = false;
  if (is (p, "void") && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, ")"))
    next (p);   /* f(void) */
  bool bad_param = false;
  if (!is (p, ")"))
    do
      {
        unsigned pm = hlsl_parse_modifiers (p);
        Token *tt = peek (p);
        Type *pt = hlsl_parse_type (p);
        if (!pt)
          {
            hlsl_error (p, tt->loc, SL_DIAG_HLSL_EXPECTED_PARAMETER_TYPE,
                        "expected a parameter type before '%s'", tok_desc (tt));
            bad_param = true;
            break;
          }
        pt = hlsl_apply_majority (p, pt, pm);
        Token *pn = peek (p);
        const char *pname = expect_ident (p);
        if (!pname)
          {
            bad_param = true;
            break;
          }
        Var *v = SL_NEW (p->arena, Var);
        v->name = pname;
        v->loc = pn->loc;
        v->type = parse_array_suffix (p, pt, false, NULL);
        v->storage = STORE_PARAM;
        v->is_const = (pm & MOD_CONST) != 0;
        v->param_mod = (pm & MOD_INOUT) ? 2 : (pm & MOD_OUT) ? 1 : 0;
        if ((pm & MOD_IN) && (pm & MOD_OUT))
          v->param_mod = 2;
        v->uniform_param = (pm & MOD_UNIFORM) != 0;
        hlsl_parse_semantics (p, &v->semantic, &v->reg_kind, &v->reg_index);
        Node *def = NULL;
        if (accept (p, "="))
          {
            /* A default is a value to pass in: nothing to give one
             * that is written back. */
            if (v->param_mod)
              hlsl_error (p, pn->loc, SL_DIAG_HLSL_OUT_PARAMETER_DEFAULT,
                          "%s parameter '%s' cannot have a default value",
                          v->param_mod == 2 ? "inout" : "out", pname);
            def = parse_var_init (p, v, false);
            any_default = true;
          }
        else if (any_default)
          hlsl_error (p, pn->loc, SL_DIAG_HLSL_PARAMETER_NO_DEFAULT,
                      "parameter '%s' needs a default value", pname);
        hlsl_declare_var (p, v);
        g_ptr_array_add (params, v);
        g_ptr_array_add (defaults, def);
      }
    while (accept (p, ","));
  if (bad_param)
    {
      /* One message per bad parameter list: skip to its ')' quietly. */
      int nest = 0;
      while (peek (p)->kind != TK_EOF && !is (p, "{") && !is (p, ";")
             && !(nest == 0 && is (p, ")")))
        {
          if (is (p, "("))
            nest++;
          else if (is (p, ")"))
            nest--;
          next (p);
        }
      accept (p, ")");
    }
  else
    expect (p, ")");
  hlsl_parse_semantics (p, &f->semantic, NULL, NULL);
  f->n_params = params->len;
  f->params = SL_NEW_N (p->arena, Var *, params->len + 1);
  if (params->len > 0)   /* pdata is NULL while empty */
    memcpy (f->params, params->pdata, params->len * sizeof (Var *));
  if (any_default)
    {
      f->defaults = SL_NEW_N (p->arena, Node *, params->len + 1);
      if (params->len > 0)   /* pdata is NULL while empty */
        memcpy (f->defaults, defaults->pdata, params->len * sizeof (Node *));
    }
  g_ptr_array_free (params, TRUE);
  g_ptr_array_free (defaults, TRUE);

  /* Register before the body so a recursive call resolves (and is then
   * rejected when inlining). */
  Func *chain = g_hash_table_lookup (p->u->funcs, f->name);
  Func *same = NULL;
  for (Func *c = chain; c; c = c->next_overload)
    if (c->n_params == f->n_params)
      {
        bool eq = true;
        for (int k = 0; k < f->n_params; k++)
          if (!hlsl_type_equal (c->params[k]->type, f->params[k]->type))
            eq = false;
        if (eq)
          same = c;
      }
  /* A function may not reuse a global variable's name, and overloads
   * differ in their parameters, never in the return type alone; after
   * either error the body is still read, but the function is not
   * declared. */
  bool keep = true;
  if (p->scope->up && g_hash_table_lookup (p->scope->up->names, f->name))
    {
      hlsl_error (p, name_tok->loc, SL_DIAG_HLSL_REDEFINED, "redefinition of '%s'", f->name);
      keep = false;
    }
  else if (same && !hlsl_type_equal (same->ret, ret) && ret->kind != TY_ERROR
           && same->ret->kind != TY_ERROR)
    {
      hlsl_error (p, name_tok->loc, SL_DIAG_HLSL_FUNCTION_RETURN_TYPE,
                  "'%s' was declared returning '%s', not '%s'", f->name,
                  hlsl_type_name (p, same->ret), hlsl_type_name (p, ret));
      keep = false;
    }
  if (!keep)
    same = NULL;
  if (is (p, "{"))
    {
      if (same && same->body)
        hlsl_error (p, name_tok->loc, SL_DIAG_HLSL_FUNCTION_REDEFINED,
                    "redefinition of function '%s'", f->name);
      Func *target = same ? same : f;
      if (same)
        {
          /* Definition of an earlier prototype: take the new parameter
           * names. */
          same->params = f->params;
          same->defaults = f->defaults ? f->defaults : same->defaults;
          same->semantic = f->semantic ? f->semantic : same->semantic;
        }
      else if (keep)
        {
          f->next_overload = chain;
          g_hash_table_insert (p->u->funcs, (gpointer) f->name, f);
        }
      Func *saved = p->cur_func;
      p->cur_func = target;
      int saved_loop = p->loop_depth;
      p->loop_depth = 0;
      p->param_scope = p->scope;
      int errors_before = p->u->n_errors;
      target->body = hlsl_parse_block (p);
      /* After an error the body may be cut short by recovery: no
       * second message about its end. */
      Token *close = &p->toks[p->pos - 1];
      /* ReShade FX lets a function end without a return (in a discard,
       * say): it returns zero there. */
      if (p->u->n_errors == errors_before && ret->kind != TY_VOID && ret->kind != TY_ERROR
          && !p->u->reshade && hlsl_end_reachable (p, target->body))
        hlsl_error (p, close->kind == TK_PUNCT && !strcmp (close->text, "}") ? close->loc : name_tok->loc,
                    SL_DIAG_HLSL_MISSING_RETURN, "not all control paths of '%s' return a value", f->name);
      p->param_scope = NULL;
      p->loop_depth = saved_loop;
      p->cur_func = saved;
    }
  else
    {
      expect (p, ";");
      if (!same && keep)
        {
          f->next_overload = chain;
          g_hash_table_insert (p->u->funcs, (gpointer) f->name, f);
        }
    }
  hlsl_pop_scope (p);
  (void) mods;
}

/* After 'typedef'.  Global typedefs may not redefine built-in type names;
 * local ones may shadow the scalar names but not matrix/vector. */
void
hlsl_parse_typedef (P *p, bool global)
{
  unsigned mods = hlsl_parse_modifiers (p);
  Type *ty = hlsl_parse_type (p);
  if (!ty)
    {
      hlsl_error (p, peek (p)->loc, SL_DIAG_HLSL_EXPECTED_TYPEDEF_TYPE, "expected a type after 'typedef'");
      hlsl_recover (p);
      return;
    }
  ty = hlsl_apply_majority (p, ty, mods);
  do
    {
      Token *nt = peek (p);
      const char *name = expect_ident (p);
      if (!name)
        break;
      Type *full = parse_array_suffix (p, ty, false, NULL);
      if (hlsl_is_reserved_name (name) || !strcmp (name, "matrix") || !strcmp (name, "vector")
          || (global && (hlsl_builtin_numeric (p, name) || !strcmp (name, "dword"))))
        hlsl_error (p, nt->loc, SL_DIAG_HLSL_TYPE_REDEFINED, "cannot redefine the type name '%s'", name);
      else
        {
          /* The same type again is harmless; another one is a conflict. */
          GHashTable *table = global ? p->types : p->scope->types;
          Type *had = g_hash_table_lookup (table, name);
          if (had && !hlsl_type_equal (had, full))
            hlsl_error (p, nt->loc, SL_DIAG_HLSL_TYPEDEF_CONFLICT,
                        "typedef '%s' is already '%s', not '%s'", name, hlsl_type_name (p, had),
                        hlsl_type_name (p, full));
          else
            g_hash_table_insert (table, (gpointer) name, full);
        }
    }
  while (accept (p, ","));
  expect (p, ";");
}
