#!/bin/bash
# Older CANN layout: bin/setenv.bash forwards to the prefix's set_env.sh.
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/set_env.sh"
