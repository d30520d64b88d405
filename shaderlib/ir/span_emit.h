/* The span emitter: IR in, span program out.
 *
 * Declared on the IR side because it is the one place that reads both
 * formats; the VM (vm/vm.h) describes span programs and runs them without
 * knowing where they came from. */
#ifndef SL_SPAN_EMIT_H
#define SL_SPAN_EMIT_H

#include "ir/ir.h"
#include "vm/vm.h"

/* Assigns registers and translates every IR instruction into the VM's
 * format.  Expects well-formed IR (matched control flow, as
 * sl_ir_validate() checks); free the result with sl_span_program_free(). */
SlSpanProgram *sl_span_emit (const SlIr *ir);

#endif
