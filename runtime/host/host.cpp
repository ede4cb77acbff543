#include "runtime/host/host.h"

#include <SDL.h>
#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <thread>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "runtime/base/png_image.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/presentation.h"
#include "runtime/host/input.h"
#include "runtime/host/window.h"

namespace kiln::host {

Host::Host(const HostOptions& options, PlatformTraits platform)
    : options_(options), platform_(std::move(platform)), clock_(platform_.frame_rate, options.unthrottled || !options.window) {
  if (!options_.input_config.empty()) platform_.input = apply_input_table(options_.input_config, platform_.input);
  if (!options_.capture_directory.empty()) std::filesystem::create_directories(options_.capture_directory);
  if (!options_.window) return;
  if (SDL_InitSubSystem(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER) != 0)
    throw Error(fmt::format("host: no display for --window ({}): run it where DISPLAY or WAYLAND_DISPLAY names one, or with --headless", SDL_GetError()));
  sdl_video_ = true;
  // Without a display SDL may fall back to a driver that shows nothing.
  const std::string driver = SDL_GetCurrentVideoDriver() ? SDL_GetCurrentVideoDriver() : "";
  if (driver == "offscreen" || driver == "dummy" || driver == "evdev")
    throw Error(fmt::format("host: no display for --window (SDL found only its '{}' video driver): run it where DISPLAY or WAYLAND_DISPLAY names one, or with --headless", driver));
  input_ = std::make_unique<Input>(platform_.input);
}

Host::~Host() {
  if (context_) {
    const size_t messages = context_->validation_log().count();
    if (options_.validation) log::info("host: {} validation messages from presentation", messages);
  }
  presenter_.reset();
  context_.reset();
  window_.reset();
  audio_.reset();
  input_.reset();
  if (sdl_video_) SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER);
}

void Host::open_window(uint32_t width, uint32_t height) {
  const uint32_t scale = options_.window_scale.value_or(platform_.window_scale);
  window_ = std::make_unique<Window>(platform_.title, width * scale, height * scale, options_.fullscreen);
  vulkan::ContextOptions context_options{.validation = options_.validation, .synchronization_validation = options_.validation};
  context_options.instance_extensions = window_->instance_extensions();
  context_options.device_extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  try {
    context_ = std::make_unique<vulkan::Context>(context_options);
  } catch (const Error& e) {
    throw Error(fmt::format("host: no Vulkan device to show the window with: {} (run with --headless to render without one)", e.message()));
  }
  presenter_ = std::make_unique<vulkan::Presenter>(*context_, window_->create_surface(context_->instance()), options_.present,
                                                   [window = window_.get()] { return window->drawable_size(); });
  log::info("host: window open ({}x{}, {} on {})", width * scale, height * scale,
            vk::to_string(presenter_->present_mode()), context_->device_name());
}

void Host::handle_events() {
  if (!sdl_video_) return;
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if (window_ && window_->handle(event) && presenter_) presenter_->surface_changed();
    input_->handle(event);
  }
}

bool Host::stop_requested() const {
  return (window_ && window_->close_requested()) || (options_.frames && frames_presented_ >= *options_.frames);
}

void Host::show(const vulkan::CpuImage& image) {
  if (!window_) open_window(image.width, image.height);
  presenter_->present(image, platform_.display_aspect);
}

bool Host::present(const vulkan::CpuImage& image) {
  handle_events();
  if (options_.window && !(window_ && window_->close_requested())) show(image);
  if (!options_.capture_directory.empty()) {
    RgbaImage capture{image.width, image.height, std::vector<uint8_t>(size_t{image.width} * image.height * 4)};
    for (uint32_t row = 0; row < image.height; ++row)
      std::memcpy(&capture.pixels[size_t{row} * image.width * 4], image.pixels + size_t{row} * image.pitch, size_t{image.width} * 4);
    write_png(std::filesystem::path(options_.capture_directory) / fmt::format("frame_{}.png", frames_presented_), capture);
  }
  if (options_.hold) { // kept for finish(): the title's memory may be gone by then
    last_frame_.resize(size_t{image.pitch} * image.height);
    std::memcpy(last_frame_.data(), image.pixels, last_frame_.size());
    last_image_ = {last_frame_.data(), image.width, image.height, image.pitch};
  }
  ++frames_presented_;
  clock_.tick();
  return !stop_requested();
}

PadState Host::pad(PadDevice device) {
  handle_events();
  return input_ ? input_->state(device) : PadState{};
}

void Host::queue_audio(const int16_t* samples, size_t frames, uint32_t rate, uint32_t channels) {
  if (options_.mute) return;
  if (!audio_) audio_ = std::make_unique<AudioOutput>();
  audio_->queue(samples, frames, rate, channels);
}

void Host::finish() {
  if (audio_ && !audio_->muted()) {
    const auto statistics = audio_->statistics();
    log::verbose("host: audio under-runs {}, frames dropped {}", statistics.underruns, statistics.dropped_frames);
  }
  if (!options_.hold || !window_ || !last_image_.pixels) return;
  log::info("host: holding the last frame (close the window to end)");
  while (!window_->close_requested()) {
    handle_events();
    show(last_image_);
    std::this_thread::sleep_for(std::chrono::milliseconds(16));
  }
}

size_t Host::validation_messages() const { return context_ ? context_->validation_log().count() : 0; }

} // namespace kiln::host
