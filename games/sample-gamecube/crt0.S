# The sample's entry and exception handling. _start: a stack below __stack_top (sample.ld), the paired singles,
# quantized loads/stores, the write-gather pipe and the locked cache enabled in HID2 (750CL UM "HID2"), then main.
# The vectors (external 0x500, decrementer 0x900, system call 0xC00) branch to one entry that saves the volatile
# registers, SRR0 and SRR1 in a frame on the interrupted stack, calls on_exception(vector, frame) and returns
# with rfi. kiln maps MEM1's mirrors with translation on or off, so the handler uses the stack as it finds it.
  .set HID2, 920
  .section .vectors, "ax"
  .globl external_vector, decrementer_vector, system_call_vector
external_vector:            # 0x80000500
  stwu 1, -96(1)
  stw 3, 12(1)
  li 3, 0x500
  b exception_entry
  .org 0x400
decrementer_vector:         # 0x80000900
  stwu 1, -96(1)
  stw 3, 12(1)
  li 3, 0x900
  b exception_entry
  .org 0x700
system_call_vector:         # 0x80000C00
  stwu 1, -96(1)
  stw 3, 12(1)
  li 3, 0xC00
  b exception_entry

  .section .init, "ax"
  .globl _start
  .type _start, @function
_start:
  lis 1, __stack_top@ha
  addi 1, 1, __stack_top@l
  li 0, 0
  stwu 0, -16(1)
  lis 3, 0xF000             # HID2: LSQE | WPE | PSE | LCE
  mtspr HID2, 3
  isync
  li 3, 0                   # GQR0: float loads and stores (the SDK's convention)
  mtspr 912, 3
  bl main
  # main returns only if the reset did not end the run.
1:
  b 1b
  .size _start, . - _start

  .text
  .type exception_entry, @function
exception_entry:            # r3 = vector, r1 = frame (r3 saved at 12)
  stw 0, 8(1)
  stw 4, 16(1)
  stw 5, 20(1)
  stw 6, 24(1)
  stw 7, 28(1)
  stw 8, 32(1)
  stw 9, 36(1)
  stw 10, 40(1)
  stw 11, 44(1)
  stw 12, 48(1)
  mflr 0
  stw 0, 52(1)
  mfcr 0
  stw 0, 56(1)
  mfctr 0
  stw 0, 60(1)
  mfxer 0
  stw 0, 64(1)
  mfsrr0 0
  stw 0, 68(1)
  mfsrr1 0
  stw 0, 72(1)
  addi 4, 1, 8              # the frame as struct exception_frame
  bl on_exception
  lwz 0, 72(1)
  mtsrr1 0
  lwz 0, 68(1)
  mtsrr0 0
  lwz 0, 64(1)
  mtxer 0
  lwz 0, 60(1)
  mtctr 0
  lwz 0, 56(1)
  mtcr 0
  lwz 0, 52(1)
  mtlr 0
  lwz 0, 8(1)
  lwz 3, 12(1)
  lwz 4, 16(1)
  lwz 5, 20(1)
  lwz 6, 24(1)
  lwz 7, 28(1)
  lwz 8, 32(1)
  lwz 9, 36(1)
  lwz 10, 40(1)
  lwz 11, 44(1)
  lwz 12, 48(1)
  addi 1, 1, 96
  rfi
  .size exception_entry, . - exception_entry
  .section .note.GNU-stack, "", @progbits
