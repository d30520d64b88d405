/* The limits every stage enforces on what a source may ask for.
 *
 * Shaders come from users and from files found on disk, so every size,
 * depth and count a source controls is bounded here, in one place; hitting
 * a limit is reported as a diagnostic, never a crash or a hang. */
#ifndef SL_LIMITS_H
#define SL_LIMITS_H

/* A source, and what the preprocessor makes of it: the HLSL parser needs
 * about 125 bytes per source byte, so 4 MiB bounds a compile to roughly
 * half a GiB inside the host; real effects stay well under 1 MiB. */
#define SL_MAX_SOURCE_BYTES      (4u << 20)
#define SL_MAX_IR_VALUES         (1u << 20)
#define SL_MAX_IR_INSNS          (1u << 20)
/* Instructions a program may keep after optimisation: the largest real
 * shader we know (a neural sharpener in the ReShade corpus) has 14574,
 * every test and conformance shader under 500.  This bounds the
 * straight-line work of one pixel, which no run-time cap can stop. */
#define SL_MAX_PROGRAM_INSNS     (1u << 17)
#define SL_MAX_NESTING           256      /* expressions/statements */
#define SL_MAX_INLINE_DEPTH      64
/* Operator chains (a+b+…, !!…x, a=b=…, v.x.x…, a?b:c?…) are parsed in
 * loops, but they build trees as deep as they are long and lowering walks
 * those trees recursively (about 600 bytes of stack a level): at most
 * this many operators above any operand keeps that under a MiB, within
 * the smallest thread stack a host gives us. */
#define SL_MAX_EXPR_CHAIN        1024
/* Arrays of arrays and structs inside structs, which the lowering and the
 * constant layout walk recursively. */
#define SL_MAX_TYPE_DEPTH        64
#define SL_HLSL_LOOP_CAP         65536    /* iterations of one HLSL loop */
/* Instructions one span may execute (each runs on all 64 lanes, so this
 * is also the per-pixel figure), straight-line code and loop bodies
 * alike: the per-loop cap alone lets nested loops multiply to 65536^3.  2^22 is 64 times the instruction
 * count Direct3D 9 guarantees for ps_3_0 and costs roughly 30-60 ms per
 * span, so a hostile shader stops within seconds on a small image. */
#define SL_VM_SPAN_BUDGET        (1u << 22)
#define SL_MAX_ARRAY_COMPONENTS  65536

#endif
