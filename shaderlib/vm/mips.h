/* Mip chains for textures given with one level; see mips.c. */
#ifndef SL_VM_MIPS_H
#define SL_VM_MIPS_H

#include "shaderlib.h"

#include <glib.h>

typedef struct SlVmMipCache SlVmMipCache;

SlVmMipCache    *sl_vm_mip_cache_new   (void);
void             sl_vm_mip_cache_free  (SlVmMipCache *cache);
/* Drops every chain (the host's texels changed). */
void             sl_vm_mip_cache_flush (SlVmMipCache *cache);
/* @tex with a full mip chain built from its level 0, or @tex itself when
 * none applies: not one 2D level, a window smaller than the image, no
 * texels, or 1×1.  Safe to call from several threads at once. */
const SlTexture *sl_vm_mip_cache_get   (SlVmMipCache *cache, const SlTexture *tex);

#endif
