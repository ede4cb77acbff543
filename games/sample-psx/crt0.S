# Start-up: enable the GTE (Status.CU2), clear the BSS, call main, return its result to the loader.
        .set noreorder
        .section .text.start, "ax"
        .global _start
_start:
        addiu $sp, $sp, -8
        sw    $ra, 4($sp)
        mfc0  $t0, $12
        lui   $t1, 0x4000
        or    $t0, $t0, $t1
        mtc0  $t0, $12
        la    $t0, __bss_start
        la    $t1, __bss_end
1:      beq   $t0, $t1, 2f
        nop
        sw    $zero, 0($t0)
        b     1b
        addiu $t0, $t0, 4
2:      jal   main
        nop
        lw    $ra, 4($sp)
        nop
        jr    $ra
        addiu $sp, $sp, 8
