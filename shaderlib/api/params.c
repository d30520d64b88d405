/* Parameter values: the "name=value; …" strings hosts and users write,
 * and the conversion of a parameter's values into constant-buffer words.
 *
 * Bindings and effect runs share the parser so that both accept exactly
 * the same syntax.  Values arrive as floats (the strings, GEGL properties
 * and the CLI all speak floats); each is converted to the parameter's
 * type the way the shader model reads its constants: programs of shader
 * model 1–3 read every constant as a float (int and bool registers too),
 * SM4 programs read ints, uints and bools as such. */
#include "api/params.h"

#include "base/diag.h"
#include "vm/scalar_ops.h"

#include <glib.h>
#include <string.h>

/* Parses "name=value; name=v,v,v" (also newline separated; true/false
 * read as 1/0) and hands each parameter to @set.  Shared by bindings and
 * effect runs so both accept exactly the same syntax. */
bool
sl_parse_params_string (const char *params, SlDiagnostics *diags,
                        bool (*set) (void *target, const char *name,
                                     const float *values, int n_values,
                                     SlDiagnostics *diags),
                        void *target)
{
  if (!params)
    return true;
  bool ok = true;
  char **items = g_strsplit_set (params, ";\n", -1);
  for (int i = 0; items[i]; i++)
    {
      char *item = g_strstrip (items[i]);
      if (!*item)
        continue;
      char *eq = strchr (item, '=');
      if (!eq)
        {
          sl_diag (diags, SL_DIAG_API_PARAMETER_SYNTAX, "<params>", 0, 0,
                   "expected name=value, got '%s'", item);
          ok = false;
          continue;
        }
      *eq = 0;
      char *name = g_strstrip (item);
      char **vals = g_strsplit (eq + 1, ",", 16);
      float fv[16];
      int n = 0;
      bool bad = false;
      for (int k = 0; vals[k] && n < 16; k++)
        {
          char *s = g_strstrip (vals[k]);
          char *end;
          if (!g_ascii_strcasecmp (s, "true"))
            fv[n++] = 1.0f;
          else if (!g_ascii_strcasecmp (s, "false"))
            fv[n++] = 0.0f;
          else
            {
              double d = g_ascii_strtod (s, &end);
              if (end == s || *end)
                {
                  sl_diag (diags, SL_DIAG_API_PARAMETER_NOT_NUMBER, "<params>", 0, 0,
                           "parameter '%s': '%s' is not a number", name, s);
                  bad = true;
                  break;
                }
              fv[n++] = (float) d;
            }
        }
      g_strfreev (vals);
      if (bad || !set (target, name, fv, n, diags))
        ok = false;
    }
  g_strfreev (items);
  return ok;
}

void
sl_param_store (const SlParam *p, bool sm4, const float *values, int n_values,
                uint32_t *constants, size_t n_constants)
{
  int n = p->rows * p->columns * MAX (p->array_size, 1);
  /* Walk the components in declaration order using the same register
   * rules as the layout: rows or columns of matrices, elements of arrays,
   * each starting a register where D3D starts one. */
  int comps_per_elem = p->rows * p->columns;
  int elem_regs = p->rows > 1 || p->array_size ? (p->row_major ? p->rows : p->columns) : 1;
  if (p->rows == 1)
    elem_regs = 1;
  for (int i = 0; i < n; i++)
    {
      float v = values[MIN (i, n_values - 1)];
      int e = i / comps_per_elem, k = i % comps_per_elem;
      int r = k / p->columns, c = k % p->columns;
      size_t off;
      if (p->rows > 1)
        off = p->row_major ? (size_t) r * 4 + c : (size_t) c * 4 + r;
      else
        off = c;
      off += (size_t) e * elem_regs * 4;
      off += p->offset;
      uint32_t w;
      if (!sm4 || p->type == SL_SCALAR_FLOAT)
        w = sl_f2u (v);
      else if (p->type == SL_SCALAR_BOOL)
        w = v != 0.0f ? 1u : 0u;
      else if (p->type == SL_SCALAR_UINT)
        w = sl_scalar_FTOU (v);
      else
        w = (uint32_t) sl_scalar_FTOI (v);
      if (off < n_constants)
        constants[off] = w;
    }
}
