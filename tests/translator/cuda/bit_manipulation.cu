// Bit manipulation: LOP3, SHF, PRMT, POPC, FLO, BREV, bit-field extract/insert (BMSK/SHF/LOP3 sequences).
#include "common.cuh"

extern "C" __global__ void bits_logic(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  out[2 * i] = (x & y) ^ (~z | (x >> 3));
  out[2 * i + 1] = (x & ~y) | (y & z) | (x ^ (z << 7));
}

extern "C" __global__ void bits_count(const unsigned* a, unsigned* out, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned x = a[i];
  out[4 * i] = __popc(x);
  out[4 * i + 1] = __clz(x);
  out[4 * i + 2] = __ffs(static_cast<int>(x));
  out[4 * i + 3] = __brev(x);
}

extern "C" __global__ void bits_funnel_rotate(const unsigned* a, const unsigned* b, const int* s, unsigned* out, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned shift = static_cast<unsigned>(s[i]);
  out[3 * i] = __funnelshift_l(a[i], b[i], shift);
  out[3 * i + 1] = __funnelshift_rc(a[i], b[i], shift);
  out[3 * i + 2] = (a[i] << (shift & 31)) | (a[i] >> ((32 - shift) & 31));
}

extern "C" __global__ void bits_byte_permute(const unsigned* a, const unsigned* b, const unsigned* sel, unsigned* out,
                                             int n) {
  int i = global_index();
  if (i >= n) return;
  out[2 * i] = __byte_perm(a[i], b[i], sel[i] & 0xffff);
  out[2 * i + 1] = __byte_perm(a[i], 0, 0x0123);
}

extern "C" __global__ void bits_field_extract_insert(const unsigned* a, const unsigned* b, const int* pos, unsigned* out,
                                                     int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned p = static_cast<unsigned>(pos[i]) & 31u;
  unsigned width = 1 + (static_cast<unsigned>(pos[i]) >> 5) % 16u;
  unsigned mask = ((1u << width) - 1u);
  unsigned field = (a[i] >> p) & mask;
  out[2 * i] = field;
  out[2 * i + 1] = (b[i] & ~(mask << p)) | ((field ^ 0x5u) & mask) << p;
}
