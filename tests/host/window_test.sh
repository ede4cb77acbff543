# Shared by the window tests (sourced): waiting for a log line, and a title's clean end with no validation
# message. The sourcing script defines fail MESSAGE first.
wait_for() { # LOG TEXT: up to 120 s
  i=0
  until grep -q "$2" "$1"; do
    i=$((i + 1)); [ $i -gt 1200 ] && fail "no '$2' in $1"
    sleep 0.1
  done
}
clean() { # LOG
  grep -q "0 validation messages from presentation" "$1" || fail "validation messages in $1"
  ! grep -q "vulkan:" "$1" || fail "Vulkan messages in $1"
}
stop() { # PID LOG: SIGTERM is SDL's quit event; the title ends by itself
  kill -TERM "$1"; wait "$1" || fail "exit status $? after SIGTERM"
  clean "$2"
}
