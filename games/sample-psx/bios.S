# BIOS calls: jump to A0h/B0h/C0h with the function number in $t1 (psx-spx "BIOS Function Summary").
        .set noreorder
        .text
        .macro bios_call name, table, number
        .global \name
\name:
        li    $t2, \table
        jr    $t2
        li    $t1, \number
        .endm
        bios_call bios_strlen,     0xA0, 0x1B
        bios_call bios_memset,     0xA0, 0x2B
        bios_call bios_memcpy,     0xA0, 0x2A
        bios_call bios_init_heap,  0xA0, 0x39
        bios_call bios_malloc,     0xA0, 0x33
        bios_call bios_free,       0xA0, 0x34
        bios_call bios_printf,     0xA0, 0x3F
        bios_call bios_puts,       0xB0, 0x3F
        bios_call bios_open_event, 0xB0, 0x08
        bios_call bios_enable_event, 0xB0, 0x0C
        bios_call bios_wait_event, 0xB0, 0x0A
        bios_call bios_set_default_exit_from_exception, 0xB0, 0x18

# EnterCriticalSection / ExitCriticalSection are SYSCALLs with the function in $a0.
        .global enter_critical_section
enter_critical_section:
        li    $a0, 1
        syscall
        jr    $ra
        nop
        .global exit_critical_section
exit_critical_section:
        li    $a0, 2
        syscall
        jr    $ra
        nop
