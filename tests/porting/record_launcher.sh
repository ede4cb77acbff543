#!/bin/sh
# A compiler launcher in the place of ccache/sccache/distcc: records each command line in $KILN_LAUNCHER_LOG
# (when set), then runs it.
[ -n "${KILN_LAUNCHER_LOG:-}" ] && echo "$*" >> "$KILN_LAUNCHER_LOG"
exec "$@"
