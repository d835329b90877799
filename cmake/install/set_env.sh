#!/bin/sh
# openacl environment: source this file (". <prefix>/set_env.sh") before
# building or running ACL applications against this prefix.
if [ -n "${BASH_SOURCE:-}" ]; then
    _oa_self="${BASH_SOURCE}"
elif [ -n "${ZSH_VERSION:-}" ]; then
    _oa_self="${(%):-%x}"
else
    # POSIX sh (dash, busybox ash) has no variable naming a sourced file, but
    # keeps the file open while it reads it: find it among the shell's open
    # files; "$0" is this file when it is run rather than sourced.
    _oa_self="$0"
    for _oa_fd in /proc/$$/fd/*; do
        _oa_t="$(readlink "${_oa_fd}" 2>/dev/null)" || continue
        case "${_oa_t}" in
            */set_env.sh) _oa_self="${_oa_t}"; break ;;
        esac
    done
    unset _oa_fd _oa_t
fi
_oa_prefix="$(cd "$(dirname "${_oa_self}")" && pwd)"
export ASCEND_HOME_PATH="${_oa_prefix}"
export ASCEND_INSTALL_PATH="${_oa_prefix}"
export ASCEND_TOOLKIT_HOME="${_oa_prefix}"
export ASCEND_OPP_PATH="${_oa_prefix}/opp"
export ASCEND_AICPU_PATH="${_oa_prefix}"
export DDK_PATH="${_oa_prefix}"
export NPU_HOST_LIB="${_oa_prefix}/runtime/lib64/stub"
export LD_LIBRARY_PATH="${_oa_prefix}/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
export PATH="${_oa_prefix}/bin${PATH:+:${PATH}}"
# the pyACL-compatible module: import acl
export PYTHONPATH="${_oa_prefix}/python/site-packages${PYTHONPATH:+:${PYTHONPATH}}"
unset _oa_self _oa_prefix
