#include "textflag.h"

// func addCodes4AVX2(acc *float32, c0, c1, c2, c3 *int8, n int, q *[4]float32)
// acc[j] = (((acc[j] + q0*c0[j]) + q1*c1[j]) + q2*c2[j]) + q3*c3[j] for
// j < n (a multiple of 8), each product and sum rounded to float32.
TEXT ·addCodes4AVX2(SB), NOSPLIT, $0-56
	MOVQ acc+0(FP), DI
	MOVQ c0+8(FP), R8
	MOVQ c1+16(FP), R9
	MOVQ c2+24(FP), R10
	MOVQ c3+32(FP), R11
	MOVQ n+40(FP), CX
	MOVQ q+48(FP), AX
	VBROADCASTSS 0(AX), Y0
	VBROADCASTSS 4(AX), Y1
	VBROADCASTSS 8(AX), Y2
	VBROADCASTSS 12(AX), Y3
	XORQ BX, BX

loop4:
	CMPQ BX, CX
	JGE  done4
	VMOVUPS   (DI)(BX*4), Y4
	VPMOVSXBD (R8)(BX*1), Y5
	VCVTDQ2PS Y5, Y5
	VMULPS    Y0, Y5, Y5
	VADDPS    Y5, Y4, Y4
	VPMOVSXBD (R9)(BX*1), Y6
	VCVTDQ2PS Y6, Y6
	VMULPS    Y1, Y6, Y6
	VADDPS    Y6, Y4, Y4
	VPMOVSXBD (R10)(BX*1), Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y2, Y7, Y7
	VADDPS    Y7, Y4, Y4
	VPMOVSXBD (R11)(BX*1), Y8
	VCVTDQ2PS Y8, Y8
	VMULPS    Y3, Y8, Y8
	VADDPS    Y8, Y4, Y4
	VMOVUPS   Y4, (DI)(BX*4)
	ADDQ      $8, BX
	JMP       loop4

done4:
	VZEROUPPER
	RET

// func addCodes1AVX2(acc *float32, c0 *int8, n int, q0 float32)
// acc[j] += q0*c0[j] for j < n (a multiple of 8).
TEXT ·addCodes1AVX2(SB), NOSPLIT, $0-28
	MOVQ acc+0(FP), DI
	MOVQ c0+8(FP), R8
	MOVQ n+16(FP), CX
	VBROADCASTSS q0+24(FP), Y0
	XORQ BX, BX

loop1:
	CMPQ BX, CX
	JGE  done1
	VMOVUPS   (DI)(BX*4), Y4
	VPMOVSXBD (R8)(BX*1), Y5
	VCVTDQ2PS Y5, Y5
	VMULPS    Y0, Y5, Y5
	VADDPS    Y5, Y4, Y4
	VMOVUPS   Y4, (DI)(BX*4)
	ADDQ      $8, BX
	JMP       loop1

done1:
	VZEROUPPER
	RET
