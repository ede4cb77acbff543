# The GTE (COP2): a camera with an identity rotation and a perspective projection, and RTPS on one vertex.
        .set noreorder
        .text
# void gte_setup(int h, int ofx, int ofy): identity rotation, zero translation, projection plane H, offsets.
        .global gte_setup
gte_setup:
        li    $t0, 0x1000          # R11 = 1.0 (4.12), R12 = 0
        ctc2  $t0, $0
        ctc2  $zero, $1            # R13, R21
        ctc2  $t0, $2              # R22 = 1.0, R23 = 0
        ctc2  $zero, $3            # R31, R32
        ctc2  $t0, $4              # R33 = 1.0
        ctc2  $zero, $5            # TRX
        ctc2  $zero, $6            # TRY
        ctc2  $zero, $7            # TRZ
        sll   $a1, $a1, 16
        ctc2  $a1, $24             # OFX (16.16)
        sll   $a2, $a2, 16
        ctc2  $a2, $25             # OFY
        ctc2  $a0, $26             # H
        ctc2  $zero, $27           # DQA
        jr    $ra
        ctc2  $zero, $28           # DQB

# unsigned gte_project(int x, int y, int z, unsigned* sz_flag): RTPS; returns SXY2, stores SZ3 and FLAG.
        .global gte_project
gte_project:
        andi  $a0, $a0, 0xFFFF
        sll   $a1, $a1, 16
        or    $a0, $a0, $a1
        mtc2  $a0, $0              # VXY0
        mtc2  $a2, $1              # VZ0
        nop
        nop
        .word 0x4A180001           # RTPS (sf = 1)
        nop
        mfc2  $v0, $14             # SXY2
        mfc2  $t0, $19             # SZ3
        cfc2  $t1, $31             # FLAG
        sw    $t0, 0($a3)
        jr    $ra
        sw    $t1, 4($a3)
