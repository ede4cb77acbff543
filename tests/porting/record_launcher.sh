#!/bin/sh
# A compiler launcher in the place of ccache/sccache/distcc: records each command line, then runs it.
echo "$*" >> "${KILN_LAUNCHER_LOG:?}"
exec "$@"
