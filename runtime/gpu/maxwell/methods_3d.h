#pragma once
// 3D class (B197) method byte offsets kiln acts on (clb197.h).
#include <cstdint>

namespace kiln::maxwell::m3d {

inline constexpr uint32_t wait_for_idle = 0x0110, load_mme_instruction_ram_pointer = 0x0114,
                          load_mme_instruction_ram = 0x0118, load_mme_start_address_ram_pointer = 0x011c,
                          load_mme_start_address_ram = 0x0120, increment_sync_point = 0x02c8,
                          color_target = 0x0800, color_target_stride = 64, viewport = 0x0a00, viewport_stride = 32,
                          viewport_clip = 0x0c00, viewport_clip_stride = 16, set_clear_rect_horizontal = 0x0d6c,
                          set_clear_rect_vertical = 0x0d70, set_vertex_array_start = 0x0d74,
                          draw_vertex_array = 0x0d78, set_color_clear_value = 0x0d80, set_z_clear_value = 0x0d90,
                          set_stencil_clear_value = 0x0da0, scissor = 0x0e00, scissor_stride = 16,
                          set_zt_a = 0x0fe0, set_zt_b = 0x0fe4, set_zt_format = 0x0fe8, set_zt_block_size = 0x0fec,
                          set_zt_array_pitch = 0x0ff0, set_clear_surface_control = 0x10f8,
                          set_vertex_attribute_a = 0x1160, draw_vertex_array_begin_end_first = 0x1214,
                          draw_vertex_array_begin_end_subsequent = 0x1218, set_ct_select = 0x121c,
                          set_zt_size_a = 0x1228, set_zt_size_b = 0x122c, set_zt_size_c = 0x1230,
                          set_stencil_mask = 0x139c, set_global_base_vertex_index = 0x1434,
                          set_global_base_instance_index = 0x1438, clear_report_value = 0x1530,
                          set_zt_select = 0x1538, set_render_enable_a = 0x1550, set_render_enable_c = 0x1558,
                          set_tex_sampler_pool_a = 0x155c, set_tex_sampler_pool_c = 0x1564,
                          set_tex_header_pool_a = 0x1574, set_tex_header_pool_c = 0x157c,
                          draw_inline_index = 0x15e8, draw_inline_index2x16 = 0x15f0, set_program_region_a = 0x1608,
                          end = 0x1614, begin = 0x1618, set_zt_layer = 0x179c, set_index_buffer_a = 0x17c8,
                          set_index_buffer_c = 0x17d0, set_index_buffer_e = 0x17d8, set_index_buffer_f = 0x17dc,
                          draw_index_buffer = 0x17e0, draw_index_buffer32_first = 0x17e4,
                          draw_index_buffer8_subsequent = 0x17f8, set_vertex_stream_instance_a = 0x1880,
                          set_render_enable_override = 0x1944, clear_surface = 0x19d0, draw_inline_index4x8 = 0x1304, set_inline_index4x8_align = 0x1300, set_inline_index2x16_align = 0x15ec,
                          draw_auto = 0x123c, set_report_semaphore_d = 0x1b0c, vertex_stream = 0x1c00,
                          vertex_stream_stride = 16, vertex_stream_limit = 0x1f00, pipeline = 0x2000,
                          pipeline_stride = 64, set_constant_buffer_selector_a = 0x2380,
                          set_constant_buffer_selector_b = 0x2384, load_constant_buffer_offset = 0x238c,
                          load_constant_buffer = 0x2390, load_constant_buffer_last = 0x23cc,
                          bind_group_constant_buffer = 0x2410, bind_group_stride = 32, call_mme_macro = 0x3800;

} // namespace kiln::maxwell::m3d
