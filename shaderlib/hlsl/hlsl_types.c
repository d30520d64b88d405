/* HLSL types: how they are spelled, built, named, compared and converted.
 *
 * Type names are read here (float3x3, vector<int, 2>, sampler2D,
 * Texture2D<…>, typedef names, the D3D9-era case-insensitive matrix, dword
 * and texture) together with the modifiers that may precede them.  Every
 * implicit or explicit conversion the parser makes goes through
 * hlsl_convert(), the one function that knows HLSL's casting rules for
 * each pair of type classes; it returns an explicit N_CAST node, so
 * lowering never guesses.  Aggregates holding samplers or textures are
 * compared through their flattened layout (flat_slots), since objects
 * take no numeric component but must still line up.  hlsl_binary_type()
 * gives the result shape of a component-wise operation. */
#include "hlsl/hlsl_parse.h"

#include <string.h>

/* ---- building, comparing and naming types ------------------------------ */

Type *
hlsl_type_num (SlArena *arena, BaseType base, NumClass cls, int rows, int cols)
{
  Type *t = SL_NEW (arena, Type);
  t->kind = TY_NUM;
  t->base = base;
  t->cls = cls;
  t->rows = cls == NUM_MATRIX ? rows : 1;
  t->cols = cls == NUM_SCALAR ? 1 : cols;
  t->n_comp = t->rows * t->cols;
  return t;
}

int
hlsl_type_is_numeric (const Type *t)
{
  return t->kind == TY_NUM;
}

Type *
hlsl_scalar_of (SlArena *arena, const Type *t)
{
  return hlsl_type_num (arena, t->kind == TY_NUM ? t->base : BT_FLOAT, NUM_SCALAR, 1, 1);
}

Type *
hlsl_type_array (P *p, Type *elem, int len)
{
  /* typedef T2 T1[2]; typedef T3 T2[2]; … stacks dimensions without
   * bound, and layout and lowering recurse once per dimension: past the
   * limit the extra dimension is reported and dropped. */
  if (elem->nest >= SL_MAX_TYPE_DEPTH)
    {
      hlsl_error (p, peek (p)->loc, SL_DIAG_HLSL_TYPE_DEPTH,
                  "type nested too deeply (more than %d arrays and structs)", SL_MAX_TYPE_DEPTH);
      return elem;
    }
  Type *t = SL_NEW (p->arena, Type);
  t->kind = TY_ARRAY;
  t->nest = elem->nest + 1;
  t->elem = elem;
  t->len = len;
  t->n_comp = elem->n_comp * len;
  t->n_objects = elem->n_objects * len;
  t->base = elem->base;
  return t;
}

/* Applies a row_major/column_major modifier.  Only a matrix type takes
 * one (not a vector, struct or array of matrices), and a type whose
 * majority was already given explicitly may only be given the same one. */
static Type *
type_with_major (P *p, Type *t, bool row_major, SlLoc loc)
{
  if (t->kind == TY_ERROR)
    return t;
  if (t->kind == TY_NUM && t->cls == NUM_MATRIX)
    {
      if (t->has_major && t->row_major != row_major)
        {
          hlsl_error (p, loc, SL_DIAG_HLSL_MAJORITY_TWICE,
                      "'%s' already has %s majority", hlsl_type_name (p, t),
                      t->row_major ? "row" : "column");
          return t;
        }
      Type *c = SL_NEW (p->arena, Type);
      *c = *t;
      c->row_major = row_major;
      c->has_major = true;
      return c;
    }
  hlsl_error (p, loc, SL_DIAG_HLSL_MAJORITY_NOT_MATRIX, "%s applies only to matrix types, not '%s'",
              row_major ? "row_major" : "column_major", hlsl_type_name (p, t));
  return p->t_error;
}

bool
hlsl_type_equal (const Type *a, const Type *b)
{
  if (a == b)
    return true;
  if (a->kind != b->kind)
    return false;
  switch (a->kind)
    {
    case TY_NUM:
      return a->base == b->base && a->cls == b->cls && a->rows == b->rows && a->cols == b->cols;
    case TY_ARRAY:
      return a->len == b->len && hlsl_type_equal (a->elem, b->elem);
    case TY_STRUCT:
      return a->fields == b->fields;
    case TY_SAMPLER: case TY_TEXTURE:
      return a->tex_dim == b->tex_dim;
    default:
      return true;
    }
}

static const char *
base_name (BaseType b)
{
  static const char *const n[] = { "bool", "int", "uint", "float" };
  return n[b];
}

char *
hlsl_type_name (P *p, const Type *t)
{
  char buf[128];
  switch (t->kind)
    {
    case TY_VOID: return "void";
    case TY_ERROR: return "<error>";
    case TY_STRING: return "string";
    case TY_STRUCT: return (char *) (t->name ? t->name : "struct");
    case TY_SAMPLER: return (char *) (t->name ? t->name : "sampler");
    case TY_TEXTURE: return (char *) (t->name ? t->name : "texture");
    case TY_ARRAY:
      g_snprintf (buf, sizeof buf, "%s[%d]", hlsl_type_name (p, t->elem), t->len);
      return sl_arena_strdup (p->arena, buf);
    case TY_NUM:
      if (t->cls == NUM_SCALAR)
        return (char *) base_name (t->base);
      if (t->cls == NUM_VECTOR)
        g_snprintf (buf, sizeof buf, "%s%d", base_name (t->base), t->cols);
      else
        g_snprintf (buf, sizeof buf, "%s%dx%d", base_name (t->base), t->rows, t->cols);
      return sl_arena_strdup (p->arena, buf);
    }
  return "?";
}

/* ---- type names and modifiers ------------------------------------------ */

static bool
parse_base_name (const char *s, BaseType *base, int *consumed)
{
  static const struct { const char *name; BaseType base; } names[] = {
    { "min16float", BT_FLOAT }, { "min10float", BT_FLOAT }, { "min16int", BT_INT },
    { "min12int", BT_INT }, { "min16uint", BT_UINT },
    { "float", BT_FLOAT }, { "half", BT_FLOAT }, { "double", BT_FLOAT },
    { "dword", BT_UINT }, { "uint", BT_UINT }, { "int", BT_INT }, { "bool", BT_BOOL },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    {
      size_t n = strlen (names[i].name);
      if (!strncmp (s, names[i].name, n))
        {
          *base = names[i].base;
          *consumed = n;
          return true;
        }
    }
  return false;
}

/* Recognises float, float3, float3x3, half2 … */
Type *
hlsl_builtin_numeric (P *p, const char *s)
{
  BaseType base;
  int n;
  if (!parse_base_name (s, &base, &n))
    return NULL;
  const char *r = s + n;
  if (!*r)
    return hlsl_type_num (p->arena, base, NUM_SCALAR, 1, 1);
  if (r[0] >= '1' && r[0] <= '4' && !r[1])
    return hlsl_type_num (p->arena, base, NUM_VECTOR, 1, r[0] - '0');
  if (r[0] >= '1' && r[0] <= '4' && r[1] == 'x' && r[2] >= '1' && r[2] <= '4' && !r[3])
    {
      Type *t = hlsl_type_num (p->arena, base, NUM_MATRIX, r[0] - '0', r[2] - '0');
      t->row_major = p->row_major_default;
      return t;
    }
  return NULL;
}

static int
sampler_dim (const char *s, bool *is_sampler, bool *is_texture, bool *comparison)
{
  static const struct { const char *name; int dim; int what; } names[] = {
    { "sampler", -1, 0 }, { "sampler1D", SL_TEXTURE_1D, 0 }, { "sampler2D", SL_TEXTURE_2D, 0 },
    { "sampler3D", SL_TEXTURE_3D, 0 }, { "samplerCUBE", SL_TEXTURE_CUBE, 0 },
    { "SamplerState", -1, 0 }, { "sampler_state", -1, 0 },
    { "SamplerComparisonState", -1, 2 },
    { "texture", -1, 1 }, { "Texture", -1, 1 }, { "texture1D", SL_TEXTURE_1D, 1 },
    { "texture2D", SL_TEXTURE_2D, 1 }, { "texture3D", SL_TEXTURE_3D, 1 },
    { "textureCUBE", SL_TEXTURE_CUBE, 1 },
    { "Texture1D", SL_TEXTURE_1D, 1 }, { "Texture2D", SL_TEXTURE_2D, 1 },
    { "Texture3D", SL_TEXTURE_3D, 1 }, { "TextureCube", SL_TEXTURE_CUBE, 1 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    if (!strcmp (s, names[i].name))
      {
        *is_sampler = names[i].what != 1;
        *is_texture = names[i].what == 1;
        *comparison = names[i].what == 2;
        return names[i].dim;
      }
  return -2;
}

static const char *const modifiers[] = {
  "const", "row_major", "column_major", "static", "uniform", "extern", "volatile",
  "inline", "precise", "shared", "groupshared", "export", "nointerpolation", "linear",
  "centroid", "noperspective", "sample", "in", "out", "inout", "snorm", "unorm",
};

/* A declaration's row_major/column_major modifier, if any, on its type. */
Type *
hlsl_apply_majority (P *p, Type *t, unsigned mods)
{
  if (!(mods & (MOD_ROW_MAJOR | MOD_COLUMN_MAJOR)))
    return t;
  return type_with_major (p, t, mods & MOD_ROW_MAJOR, p->major_loc);
}

unsigned
hlsl_parse_modifiers (P *p)
{
  unsigned mods = 0;
  for (;;)
    {
      Token *t = peek (p);
      if (t->kind != TK_IDENT)
        return mods;
      size_t i;
      for (i = 0; i < G_N_ELEMENTS (modifiers); i++)
        if (!strcmp (t->text, modifiers[i]))
          break;
      if (i == G_N_ELEMENTS (modifiers))
        return mods;
      /* typedef float4 precise; precise main() — a type, not a modifier,
       * when a name (not a type) follows it. */
      if (g_hash_table_contains (p->types, t->text) && peek_at (p, 1)->kind == TK_IDENT
          && !g_hash_table_contains (p->types, peek_at (p, 1)->text)
          && !hlsl_builtin_numeric (p, peek_at (p, 1)->text))
        {
          bool follows_mod = false;
          for (size_t j = 0; j < G_N_ELEMENTS (modifiers); j++)
            follows_mod |= !strcmp (peek_at (p, 1)->text, modifiers[j]);
          bool a, b, c;
          if (!follows_mod && sampler_dim (peek_at (p, 1)->text, &a, &b, &c) == -2)
            return mods;
        }
      unsigned bit = i <= 11 ? 1u << i : (!strcmp (t->text, "in") ? MOD_IN
                                           : !strcmp (t->text, "out") ? MOD_OUT
                                           : !strcmp (t->text, "inout") ? MOD_INOUT : 0);
      if (bit && (mods & bit))
        hlsl_error (p, t->loc, SL_DIAG_HLSL_MODIFIER_TWICE, "modifier '%s' given twice", t->text);
      /* A majority error names the modifier, not the declared name. */
      if (bit & (MOD_ROW_MAJOR | MOD_COLUMN_MAJOR))
        p->major_loc = t->loc;
      mods |= bit;
      next (p);
    }
}

/* Parses a type name (without modifiers); NULL if none is here. */
Type *
hlsl_parse_type (P *p)
{
  Token *t = peek (p);
  if (t->kind != TK_IDENT)
    return NULL;
  Type *local = hlsl_lookup_local_type (p, t->text);
  if (local)
    {
      next (p);
      return local;
    }
  if (!strcmp (t->text, "unsigned"))
    {
      next (p);
      Token *it = peek (p);
      Type *u = hlsl_parse_type (p);
      if (!u || u->kind != TY_NUM || u->base != BT_INT)
        {
          hlsl_error (p, it->loc, SL_DIAG_HLSL_UNSIGNED, "'unsigned' applies only to int types");
          return p->t_error;
        }
      Type *r = hlsl_type_num (p->arena, BT_UINT, u->cls, u->rows, u->cols);
      r->row_major = u->row_major;
      r->has_major = u->has_major;
      return r;
    }
  if (!strcmp (t->text, "struct"))
    return hlsl_parse_struct (p);
  if ((!strcmp (t->text, "InputPatch") || !strcmp (t->text, "OutputPatch"))
      && peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "<"))
    {
      /* Outside tessellation shaders a patch is a constant array. */
      next (p);
      next (p);
      Token *et = peek (p);
      Type *elem = hlsl_parse_type (p);
      if (!elem)
        {
          /* Name the bad element type once, then read on as if it were
           * one, so the rest of the declaration parses. */
          hlsl_error (p, et->loc, SL_DIAG_HLSL_EXPECTED_ELEMENT_TYPE,
                      "expected an element type in %s<>", t->text);
          if (et->kind == TK_IDENT)
            next (p);
          elem = p->t_error;
        }
      int n = 0;
      expect (p, ",");
      Token *nt = peek (p);
      bool n_ok = hlsl_parse_const_int_expr (p, &n);
      expect (p, ">");
      if (elem->kind == TY_ERROR)
        return p->t_error;
      if (n_ok && n < 1)
        {
          hlsl_error (p, nt->loc, SL_DIAG_HLSL_TEMPLATE_EMPTY, "%s needs at least one element", t->text);
          return p->t_error;
        }
      Type *r = hlsl_type_array (p, elem, n);
      r->is_patch = true;
      return r;
    }
  if (!strcmp (t->text, "void"))
    {
      next (p);
      return p->t_void;
    }
  if (!strcmp (t->text, "string"))
    {
      next (p);
      return p->t_string;
    }
  if (!strcmp (t->text, "vector") || !strcmp (t->text, "matrix"))
    {
      bool is_matrix = t->text[0] == 'm';
      next (p);
      if (!accept (p, "<"))
        {
          Type *r = is_matrix ? hlsl_type_num (p->arena, BT_FLOAT, NUM_MATRIX, 4, 4)
                              : hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
          r->row_major = p->row_major_default;
          return r;
        }
      Token *bt = next (p);
      BaseType base = BT_FLOAT;
      int n;
      Type *bty = bt->kind == TK_IDENT ? hlsl_builtin_numeric (p, bt->text) : NULL;
      if (!bty || bty->cls != NUM_SCALAR)
        hlsl_error (p, bt->loc, SL_DIAG_HLSL_EXPECTED_SCALAR_TYPE,
                    "expected a scalar type in %s<>", is_matrix ? "matrix" : "vector");
      else
        base = bty->base;
      (void) n;
      int rows = 1, cols = 4;
      expect (p, ",");
      SlLoc first_loc = peek (p)->loc, cols_loc = first_loc;
      hlsl_parse_const_int_expr (p, is_matrix ? &rows : &cols);
      if (is_matrix)
        {
          expect (p, ",");
          cols_loc = peek (p)->loc;
          hlsl_parse_const_int_expr (p, &cols);
        }
      expect (p, ">");
      if (rows < 1 || rows > 4 || cols < 1 || cols > 4)
        {
          hlsl_error (p, rows < 1 || rows > 4 ? first_loc : cols_loc,
                      SL_DIAG_HLSL_TEMPLATE_DIMENSIONS,
                      "%s dimensions must be between 1 and 4", is_matrix ? "matrix" : "vector");
          return p->t_error;
        }
      Type *r = hlsl_type_num (p->arena, base, is_matrix ? NUM_MATRIX : NUM_VECTOR, rows, cols);
      r->row_major = p->row_major_default;
      return r;
    }
  Type *num = hlsl_builtin_numeric (p, t->text);
  if (num)
    {
      num->is_double = !strncmp (t->text, "double", 6);
      next (p);
      return num;
    }
  bool is_s, is_t, cmp;
  int dim = sampler_dim (t->text, &is_s, &is_t, &cmp);
  if (dim != -2)
    {
      next (p);
      Type *r = SL_NEW (p->arena, Type);
      r->kind = is_t ? TY_TEXTURE : TY_SAMPLER;
      r->tex_dim = dim;
      r->comparison = cmp;
      r->n_objects = 1;
      r->name = t->text;
      if (is_t && accept (p, "<"))
        {
          /* Texture2D<float4>: the element type only shapes results. */
          int angle = 1;
          while (angle > 0 && peek (p)->kind != TK_EOF)
            {
              if (is (p, "<"))
                angle++;
              else if (is (p, ">"))
                angle--;
              next (p);
            }
        }
      return r;
    }
  Type *named = g_hash_table_lookup (p->types, t->text);
  if (named)
    {
      next (p);
      return named;
    }
  /* The D3D9-era names are case-insensitive (but the vector<> and
   * matrix<> templates are not). */
  if (!g_ascii_strcasecmp (t->text, "matrix") || !g_ascii_strcasecmp (t->text, "vector"))
    {
      if (peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "<"))
        return NULL;
      next (p);
      Type *r = g_ascii_tolower (t->text[0]) == 'm' ? hlsl_type_num (p->arena, BT_FLOAT, NUM_MATRIX, 4, 4)
                                                  : hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
      r->row_major = p->row_major_default;
      return r;
    }
  if (!g_ascii_strcasecmp (t->text, "dword"))
    {
      next (p);
      return p->t_uint;
    }
  if (!g_ascii_strcasecmp (t->text, "texture"))
    {
      next (p);
      Type *r = SL_NEW (p->arena, Type);
      r->kind = TY_TEXTURE;
      r->tex_dim = -1;
      r->n_objects = 1;
      r->name = "texture";
      return r;
    }
  return NULL;
}

bool
hlsl_is_type_start (P *p)
{
  Token *t = peek (p);
  if (t->kind != TK_IDENT)
    return false;
  if (!strcmp (t->text, "InputPatch") || !strcmp (t->text, "OutputPatch")
      || !strcmp (t->text, "unsigned"))
    return !hlsl_lookup_var (p, t->text);
  if (!strcmp (t->text, "struct") || !strcmp (t->text, "vector") || !strcmp (t->text, "matrix")
      || !strcmp (t->text, "void") || !strcmp (t->text, "string"))
    return true;
  for (size_t i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (!strcmp (t->text, modifiers[i]))
      return true;
  if (g_hash_table_contains (p->types, t->text) || hlsl_lookup_local_type (p, t->text))
    return !hlsl_lookup_var (p, t->text);
  if (!g_ascii_strcasecmp (t->text, "matrix") || !g_ascii_strcasecmp (t->text, "vector")
      || !g_ascii_strcasecmp (t->text, "dword") || !g_ascii_strcasecmp (t->text, "texture"))
    return !hlsl_lookup_var (p, t->text);
  bool a, b, c;
  if (sampler_dim (t->text, &a, &b, &c) != -2)
    return true;
  Type *num = hlsl_builtin_numeric (p, t->text);
  return num != NULL;
}

/* ---- flattened layouts ------------------------------------------------- */

/* One entry of a type's flattened layout: a numeric component (its base
 * type) or an object (sampler or texture, with the texture dimension).
 * Objects take no numeric component, so two aggregates whose numbers line
 * up may still disagree on where their objects sit; conversions compare
 * these lists. */
typedef struct
{
  signed char kind;   /* BaseType, or SLOT_SAMPLER/SLOT_TEXTURE */
  signed char dim;
} Slot;

enum { SLOT_SAMPLER = 8, SLOT_TEXTURE = 9 };

static int
flat_slots (const Type *t, Slot *out, int max)
{
  int n = 0;
  switch (t->kind)
    {
    case TY_NUM:
      for (int i = 0; i < t->n_comp && n < max; i++)
        out[n++] = (Slot) { (signed char) t->base, 0 };
      return n;
    case TY_SAMPLER: case TY_TEXTURE:
      if (max > 0)
        out[n++] = (Slot) { t->kind == TY_SAMPLER ? SLOT_SAMPLER : SLOT_TEXTURE,
                            (signed char) t->tex_dim };
      return n;
    case TY_ARRAY:
      for (int i = 0; i < t->len && n < max; i++)
        n += flat_slots (t->elem, out + n, max - n);
      return n;
    case TY_STRUCT:
      for (int i = 0; i < t->n_fields && n < max; i++)
        n += flat_slots (t->fields[i].type, out + n, max - n);
      return n;
    default:
      return 0;
    }
}

/* Whether the layout of @to matches that of @from (or, with @prefix, its
 * beginning): objects at the same places and of a compatible kind, and
 * with @same_bases numbers of the same base types. */
bool
hlsl_objects_line_up (const Type *from, const Type *to, bool prefix, bool same_bases)
{
  int nf = from->n_comp + from->n_objects, nt = to->n_comp + to->n_objects;
  if (nt > nf || (!prefix && nt != nf))
    return false;
  Slot *x = g_new (Slot, nf + 1), *y = g_new (Slot, nt + 1);
  nf = flat_slots (from, x, nf);
  nt = flat_slots (to, y, nt);
  bool ok = nt <= nf;
  for (int i = 0; i < nt && ok; i++)
    {
      bool xo = x[i].kind >= SLOT_SAMPLER, yo = y[i].kind >= SLOT_SAMPLER;
      if (xo != yo)
        ok = false;
      else if (xo)
        ok = x[i].kind == y[i].kind
             && (x[i].kind == SLOT_SAMPLER || x[i].dim == y[i].dim || x[i].dim < 0 || y[i].dim < 0);
      else if (same_bases)
        ok = x[i].kind == y[i].kind;
    }
  g_free (x);
  g_free (y);
  return ok;
}

/* For types without objects: the same numeric components of the same base
 * types.  Aggregates of over 256 components pass unchecked, as they did
 * when these compared fixed-size arrays; checking them too would reject
 * shaders accepted today, so it is left for a change of its own. */
bool
hlsl_same_component_bases (const Type *a, const Type *b)
{
  return a->n_comp > 256 || hlsl_objects_line_up (a, b, false, true);
}

/* Whether @a's component types start @b's. */
bool
hlsl_prefix_component_bases (const Type *a, const Type *b)
{
  return a->n_comp > 256 || b->n_comp > 256 || hlsl_objects_line_up (b, a, true, true);
}

static void
initlist_slots (const Node *e, GArray *out)
{
  if (e->kind == N_INITLIST)
    {
      for (int i = 0; i < e->n_args; i++)
        initlist_slots (e->args[i], out);
      return;
    }
  if (e->type->kind == TY_ERROR)
    return;
  int n = e->type->n_comp + e->type->n_objects;
  g_array_set_size (out, out->len + n);
  flat_slots (e->type, &g_array_index (out, Slot, out->len - n), n);
}

/* A brace list flattens objects in among the numbers; they must land on
 * the objects of @t, one for one. */
bool
hlsl_initlist_objects_ok (const Node *list, const Type *t)
{
  GArray *have = g_array_new (FALSE, FALSE, sizeof (Slot));
  initlist_slots (list, have);
  int n = t->n_comp + t->n_objects;
  bool any = t->n_objects > 0;
  for (guint i = 0; i < have->len && !any; i++)
    any = g_array_index (have, Slot, i).kind >= SLOT_SAMPLER;
  bool ok = !any || (int) have->len == n;
  if (any && ok)
    {
      Slot *want = g_new (Slot, n + 1);
      flat_slots (t, want, n);
      for (int i = 0; i < n && ok; i++)
        {
          Slot x = g_array_index (have, Slot, i), y = want[i];
          if ((x.kind >= SLOT_SAMPLER) != (y.kind >= SLOT_SAMPLER))
            ok = false;
          else if (x.kind >= SLOT_SAMPLER)
            ok = x.kind == y.kind
                 && (x.kind == SLOT_SAMPLER || x.dim == y.dim || x.dim < 0 || y.dim < 0);
        }
      g_free (want);
    }
  g_array_free (have, TRUE);
  return ok;
}

/* ---- conversions ------------------------------------------------------- */

/* A conversion that drops components on the way into or out of a matrix
 * (implicitly with a warning, or in a cast): the source matrix must be a
 * single row or column, and a target matrix a single row.  "Casting and
 * Conversion" treats 1xN and Nx1 matrices as vectors; fxc refuses
 * (float3x1) float4 all the same. */
static bool
matrix_cast_ok (const Type *from, const Type *to)
{
  if (from->n_comp < to->n_comp)
    return false;
  if (from->kind == TY_NUM && from->cls == NUM_MATRIX && from->rows != 1 && from->cols != 1)
    return false;
  if (to->kind == TY_NUM && to->cls == NUM_MATRIX && to->rows != 1)
    return false;
  return true;
}

/* The conversion rules of HLSL, in one place: every implicit conversion
 * (operands, arguments, assignments, initialisers, returns) and every
 * C-style cast (@explicit_cast) comes here.  Returns @e under an N_CAST
 * to @to, @e itself when the types are the same (matrices differing only
 * in row/column-major storage are), or an error node after a diagnostic.
 *
 *   from → to                 implicitly                  with a cast
 *   scalar → numeric          replicates                  the same
 *   numeric → scalar          first component, warns      the same, silently
 *   vector → vector           drops trailing ones, warns  the same, silently
 *   matrix → matrix           drops rows/columns, warns   the same, silently
 *   vector ↔ matrix           same number of components, or fewer (warns)
 *                             if a source matrix is one row or column and a
 *                             target matrix one row; the same with a cast
 *   matrix ↔ struct/array     never                       same number, or fewer
 *                                                         as above; no objects
 *                                                         in the target
 *   numeric/struct/array →    struct/array ↔ struct/array component-wise from
 *     numeric/struct/array    only: the same components   enough components (a
 *                             of the same base types      scalar replicates)
 *   sampler → sampler,        the same dimension, or either untyped
 *   texture → texture
 *
 * Samplers and textures inside aggregates must line up (flat_slots):
 * implicitly all of them, in a cast the target's at the source's start. */
Node *
hlsl_convert (P *p, Node *e, Type *to, SlLoc loc, bool explicit_cast, const char *what)
{
  Type *from = e->type;
  if (from->kind == TY_ERROR || to->kind == TY_ERROR)
    return e;
  /* Matrices differing only in row/column-major storage hold the same
   * values, so they too convert as themselves. */
  if (hlsl_type_equal (from, to))
    return e;
  bool ok = false, truncates = false;
  if (from->kind == TY_NUM && to->kind == TY_NUM)
    {
      int fn = from->n_comp, tn = to->n_comp;
      if (fn == 1)
        ok = true;                                  /* scalar → anything: replicate */
      else if (tn == 1)
        {
          ok = true;                                /* first component */
          truncates = true;
        }
      else if (from->cls == NUM_VECTOR && to->cls == NUM_VECTOR)
        {
          ok = tn <= fn;
          truncates = tn < fn;
        }
      else if (from->cls == NUM_MATRIX && to->cls == NUM_MATRIX)
        {
          ok = to->rows <= from->rows && to->cols <= from->cols;
          truncates = tn < fn;
        }
      else
        {
          ok = tn == fn || matrix_cast_ok (from, to);
          truncates = tn < fn;
        }
    }
  else if (explicit_cast && ((from->kind == TY_NUM && from->cls == NUM_MATRIX
                              && (to->kind == TY_STRUCT || to->kind == TY_ARRAY))
                             || ((from->kind == TY_STRUCT || from->kind == TY_ARRAY)
                                 && to->kind == TY_NUM && to->cls == NUM_MATRIX)))
    {
      /* A matrix holds no objects: only a struct's trailing ones can be
       * dropped. */
      ok = (from->n_objects == 0 || hlsl_objects_line_up (from, to, true, false))
           && to->n_objects == 0 && (from->n_comp == to->n_comp || matrix_cast_ok (from, to));
      truncates = from->n_comp > to->n_comp;
    }
  else if (explicit_cast && (from->kind == TY_STRUCT || from->kind == TY_ARRAY || from->kind == TY_NUM)
           && (to->kind == TY_STRUCT || to->kind == TY_ARRAY || to->kind == TY_NUM))
    {
      /* Aggregates convert component-wise when the source has enough
       * numeric components (scalars replicate). */
      if (from->n_objects || to->n_objects)
        ok = hlsl_objects_line_up (from, to, true, false);
      else
        ok = from->n_comp >= to->n_comp || from->n_comp == 1;
      truncates = from->n_comp > to->n_comp;
    }
  else if (!explicit_cast && (from->kind == TY_STRUCT || from->kind == TY_ARRAY)
           && (to->kind == TY_STRUCT || to->kind == TY_ARRAY))
    {
      /* Implicitly only between the same components of the same types. */
      if (from->n_objects || to->n_objects)
        ok = hlsl_objects_line_up (from, to, false, true);
      else
        ok = from->n_comp == to->n_comp && hlsl_same_component_bases (from, to);
    }
  else if ((from->kind == TY_SAMPLER && to->kind == TY_SAMPLER)
           || (from->kind == TY_TEXTURE && to->kind == TY_TEXTURE))
    ok = from->tex_dim == to->tex_dim || from->tex_dim == -1 || to->tex_dim == -1;

  if (!ok)
    {
      hlsl_error (p, loc, SL_DIAG_HLSL_CONVERSION,
                  "cannot convert from '%s' to '%s'%s%s", hlsl_type_name (p, from),
                  hlsl_type_name (p, to), what ? " in " : "", what ? what : "");
      return error_node (p, loc);
    }
  if (truncates && !explicit_cast)
    hlsl_warning (p, loc, SL_DIAG_HLSL_TRUNCATION,
                  "implicit truncation of %s type", from->cls == NUM_MATRIX ? "matrix" : "vector");
  if (from->kind == TY_SAMPLER || from->kind == TY_TEXTURE)
    return e;
  Node *c = new_node (p, N_CAST, loc, to);
  c->a = e;
  return c;
}

/* ---- result types of operations ---------------------------------------- */

BaseType
hlsl_common_base (BaseType a, BaseType b)
{
  return a > b ? a : b;   /* bool < int < uint < float */
}

/* The result type of a component-wise binary operation. */
Type *
hlsl_binary_type_ex (P *p, SlLoc loc, Type *a, Type *b, BaseType base, bool nest)
{
  if (a->kind != TY_NUM || b->kind != TY_NUM)
    {
      if (a->kind == TY_ERROR || b->kind == TY_ERROR)
        return p->t_error;
      hlsl_error (p, loc, SL_DIAG_HLSL_COMBINE_NOT_NUMERIC,
                  "operands of type '%s' and '%s' are not numeric", hlsl_type_name (p, a),
                  hlsl_type_name (p, b));
      return p->t_error;
    }
  if (a->n_comp == 1 && b->n_comp == 1)
    return hlsl_type_num (p->arena, base, NUM_SCALAR, 1, 1);
  if (a->n_comp == 1)
    return hlsl_type_num (p->arena, base, b->cls, b->rows, b->cols);
  if (b->n_comp == 1)
    return hlsl_type_num (p->arena, base, a->cls, a->rows, a->cols);
  if (a->cls == NUM_VECTOR && b->cls == NUM_VECTOR)
    {
      /* hlsl_convert() warns about the operand that loses components. */
      int n = MIN (a->cols, b->cols);
      return hlsl_type_num (p->arena, base, NUM_VECTOR, 1, n);
    }
  if (a->cls == NUM_MATRIX && b->cls == NUM_MATRIX)
    {
      int r = MIN (a->rows, b->rows), c = MIN (a->cols, b->cols);
      if (nest && !((a->rows <= b->rows && a->cols <= b->cols) || (b->rows <= a->rows && b->cols <= a->cols)))
        {
          hlsl_error (p, loc, SL_DIAG_HLSL_INCOMPATIBLE_TYPES,
                      "cannot combine '%s' and '%s'", hlsl_type_name (p, a), hlsl_type_name (p, b));
          return p->t_error;
        }
      return hlsl_type_num (p->arena, base, NUM_MATRIX, r, c);
    }
  /* vector with matrix: allowed when the sizes match */
  if (a->n_comp == b->n_comp)
    return hlsl_type_num (p->arena, base, a->cls, a->rows, a->cols);
  hlsl_error (p, loc, SL_DIAG_HLSL_INCOMPATIBLE_TYPES,
              "cannot combine '%s' and '%s'", hlsl_type_name (p, a), hlsl_type_name (p, b));
  return p->t_error;
}

/* Operators need one matrix operand to fit inside the other;
 * intrinsics take the common leading part of any two. */
Type *
hlsl_binary_type (P *p, SlLoc loc, Type *a, Type *b, BaseType base)
{
  return hlsl_binary_type_ex (p, loc, a, b, base, true);
}
