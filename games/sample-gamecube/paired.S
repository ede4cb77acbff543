# Paired singles (750CL UM "Paired-Single Instructions", assembled with -mgekko).
  .set GQR1, 913
  .text
# float ps_dot2(const float a[2], const float b[2]): a0*b0 + a1*b1 through ps_mul and ps_sum0 (GQR0: float pairs).
  .globl ps_dot2
  .type ps_dot2, @function
ps_dot2:
  psq_l 1, 0(3), 0, 0
  psq_l 2, 0(4), 0, 0
  ps_mul 1, 1, 2            # {a0*b0, a1*b1}
  ps_sum0 1, 1, 1, 1        # ps0 = a0*b0 + a1*b1
  blr
  .size ps_dot2, . - ps_dot2

# void ps_quantize(const unsigned char in[2], short out[2]): GQR1 loads u8 pairs scaled by 2^-2 and stores s16
# pairs scaled by 2^4; the pair is doubled in between (ps_add).
  .globl ps_quantize
  .type ps_quantize, @function
ps_quantize:
  lis 5, 0x0204             # LD_SCALE 2, LD_TYPE 4 (u8)
  ori 5, 5, 0x0407          # ST_SCALE 4, ST_TYPE 7 (s16)
  mtspr GQR1, 5
  psq_l 1, 0(3), 0, 1
  ps_add 1, 1, 1
  psq_st 1, 0(4), 0, 1
  blr
  .size ps_quantize, . - ps_quantize

# void ps_merge_swap(const float in[2], float out[2]): ps_merge10 swaps the halves.
  .globl ps_merge_swap
  .type ps_merge_swap, @function
ps_merge_swap:
  psq_l 1, 0(3), 0, 0
  ps_merge10 1, 1, 1
  psq_st 1, 0(4), 0, 0
  blr
  .size ps_merge_swap, . - ps_merge_swap
  .section .note.GNU-stack, "", @progbits
