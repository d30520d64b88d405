/* Reflection data's life cycle: the one SlProgramInfo a front end fills
 * and the compile driver keeps (see reflect.h).  Names and defaults of
 * parameters live in the info's own arena, so it outlives the compile's
 * arena and is freed with the program. */
#include "ir/reflect.h"

#include <string.h>

void
sl_program_info_init (SlProgramInfo *info)
{
  memset (info, 0, sizeof *info);
  info->arena = sl_arena_new ();
  info->params = g_array_new (FALSE, TRUE, sizeof (SlParam));
  info->samplers = g_array_new (FALSE, TRUE, sizeof (SlSamplerInfo));
}

void
sl_program_info_clear (SlProgramInfo *info)
{
  if (info->params)
    g_array_free (info->params, TRUE);
  if (info->samplers)
    g_array_free (info->samplers, TRUE);
  g_free (info->defaults);
  sl_arena_free (info->arena);
  memset (info, 0, sizeof *info);
}

void
sl_program_info_reserve_constants (SlProgramInfo *info, size_t size)
{
  size_t old = info->constants_size;
  if (!info->defaults || size > old)
    {
      info->defaults = g_renew (uint32_t, info->defaults, MAX (size, 1));
      for (size_t i = info->defaults && old < size ? old : 0; i < size; i++)
        info->defaults[i] = 0;
    }
  info->constants_size = MAX (size, old);
}
