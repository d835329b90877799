/*
 * Version queries: aclrtGetVersion (ACL API version macros) and the package
 * versions read from $ASCEND_HOME_PATH/share/info/<package>/version.info
 * ("Version=" line), as CANN's runtime does.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl_base/version_internal.h"
#include "base/acl_check.h"
#include "base/build_info.h"
#include "base/util.h"

#define VERSION_KEY "Version="
#define INSTALL_INFO_FILE "/etc/ascend_install.info"
#define DRIVER_PATH_KEY "Driver_Install_Path_Param="
#define FIRMWARE_PATH_KEY "Firmware_Install_Path_Param="
#define PATH_CAP 4096

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
    ACL_REQUIRE_NOT_NULL(majorVersion);
    ACL_REQUIRE_NOT_NULL(minorVersion);
    ACL_REQUIRE_NOT_NULL(patchVersion);
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

/* First line of path containing key: copies what follows key into out. Returns false if absent. */
static bool read_key_line(const char *path, const char *key, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return false;
    }
    char line[1024];
    bool found = false;
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *pos = strstr(line, key);
        if (pos != NULL) {
            (void)oa_strlcpy(out, pos + strlen(key), cap);
            found = true;
            break;
        }
    }
    fclose(f);
    return found;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) {
        s[--n] = '\0';
    }
    size_t lead = 0;
    while (isspace((unsigned char)s[lead])) {
        ++lead;
    }
    memmove(s, s + lead, n - lead + 1);
}

static bool is_regular_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return false;
    }
    fclose(f);
    return true;
}

/* <install dir of driver or firmware> from /etc/ascend_install.info. */
static bool install_param(const char *key, char *out, size_t cap)
{
    return read_key_line(INSTALL_INFO_FILE, key, out, cap) && out[0] != '\0';
}

/*
 * version.info path of package pkg: driver/firmware through
 * /etc/ascend_install.info, everything else under $ASCEND_HOME_PATH/share/info.
 */
static oa_status package_info_path(const char *pkg, char *out, size_t cap, bool quiet)
{
    char base[PATH_CAP];
    if (strcmp(pkg, "driver") == 0 || strcmp(pkg, "firmware") == 0) {
        const char *key = strcmp(pkg, "driver") == 0 ? DRIVER_PATH_KEY : FIRMWARE_PATH_KEY;
        if (!install_param(key, base, sizeof(base))) {
            OA_LOGW("cannot read %s from %s", key, INSTALL_INFO_FILE);
            return OA_E_INVALID_FILE;
        }
        if ((size_t)snprintf(out, cap, "%s/%s/version.info", base, pkg) >= cap) {
            return OA_E_INVALID_FILE;
        }
        return OA_OK;
    }
    const char *home = getenv("ASCEND_HOME_PATH");
    if (home == NULL) {
        OA_LOGW("environment variable ASCEND_HOME_PATH is not set");
        return OA_E_INVALID_FILE;
    }
    if (realpath(home, base) == NULL) {
        if (!quiet) {
            OA_LOGW("ASCEND_HOME_PATH [%s] does not exist", home);
        }
        return OA_E_INVALID_FILE;
    }
    if ((size_t)snprintf(out, cap, "%s/share/info/%s/version.info", base, pkg) >= cap) {
        return OA_E_INVALID_FILE;
    }
    return OA_OK;
}

/* Trimmed "Version=" value of package pkg (no name fallback). */
static oa_status read_package_version(const char *pkg, char *out, size_t cap, bool quiet)
{
    char path[PATH_CAP];
    oa_status st = package_info_path(pkg, path, sizeof(path), quiet);
    if (st != OA_OK) {
        return st;
    }
    if (!is_regular_file(path)) {
        if (quiet) {
            OA_LOGW("version file [%s] not found, trying the alternative package name", path);
            return OA_E_INVALID_FILE;
        }
        return OA_FAIL(OA_E_INVALID_FILE, "version file [%s] not found: is package [%s] installed?", path, pkg);
    }
    if (!read_key_line(path, VERSION_KEY, out, cap)) {
        return OA_FAIL(OA_E_INVALID_FILE, "keyword %s not found in [%s]", VERSION_KEY, path);
    }
    trim(out);
    if (out[0] == '\0') {
        return OA_FAIL(OA_E_INVALID_FILE, "keyword %s has an empty value in [%s]", VERSION_KEY, path);
    }
    return OA_OK;
}

oa_status oa_version_of_package(const char *pkg, char *out, size_t cap)
{
    char alt[256];
    if (!oa_strlcpy(alt, pkg, sizeof(alt))) {
        return OA_FAIL(OA_E_INVALID_FILE, "package name [%.64s...] is too long", pkg);
    }
    /* The alternative spelling swaps '-' for '_' (or '_' for '-' when there is no '-'). */
    const char from = strchr(alt, '-') != NULL ? '-' : '_';
    const char to = from == '-' ? '_' : '-';
    bool has_alt = false;
    for (char *p = alt; *p != '\0'; ++p) {
        if (*p == from) {
            *p = to;
            has_alt = true;
        }
    }
    oa_status st = read_package_version(pkg, out, cap, has_alt);
    if (st == OA_OK || !has_alt) {
        return st;
    }
    return read_package_version(alt, out, cap, false);
}

/* Like std::stoi on a prefix: optional blanks and sign, then digits; false if none or out of int range. */
static bool parse_int_prefix(const char *s, size_t len, int32_t *out, size_t *used)
{
    char buf[64];
    if (len == 0 || len >= sizeof(buf)) {
        return false;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    const long v = strtol(buf, &end, 10);
    if (end == buf || errno == ERANGE || v > INT32_MAX || v < INT32_MIN) {
        return false;
    }
    *out = (int32_t)v;
    if (used != NULL) {
        *used = (size_t)(end - buf);
    }
    return true;
}

/* Pre-release number after the keyword: "", "1", ".1", "-01"; at most one separator. */
static bool parse_prerelease_number(const char *s, int32_t *out)
{
    const size_t len = strlen(s);
    if (len == 0) {
        *out = 0;
        return true;
    }
    size_t digit = 0;
    while (digit < len && !isdigit((unsigned char)s[digit])) {
        if (s[digit] != '.' && s[digit] != '-') {
            return false;
        }
        ++digit;
    }
    if (digit == len || digit > 1) {
        return false;
    }
    size_t used = 0;
    if (!parse_int_prefix(s + digit, len - digit, out, &used)) {
        return false;
    }
    return used == len - digit;
}

oa_status oa_version_to_number(const char *ver, int32_t *num)
{
    const char *dot1 = strchr(ver, '.');
    if (dot1 == NULL || dot1 == ver) {
        return OA_FAIL(OA_E_INTERNAL, "version [%s] has no major version", ver);
    }
    const char *dot2 = strchr(dot1 + 1, '.');
    if (dot2 == NULL || dot2 == dot1 + 1) {
        return OA_FAIL(OA_E_INTERNAL, "version [%s] has no minor version", ver);
    }
    const char *patch = dot2 + 1;
    const char *patch_end = patch;
    while (isdigit((unsigned char)*patch_end)) {
        ++patch_end;
    }
    if (patch_end == patch) {
        return OA_FAIL(OA_E_INTERNAL, "version [%s] has no patch version", ver);
    }
    int32_t major = 0;
    int32_t minor = 0;
    int32_t pat = 0;
    if (!parse_int_prefix(ver, (size_t)(dot1 - ver), &major, NULL) ||
        !parse_int_prefix(dot1 + 1, (size_t)(dot2 - dot1 - 1), &minor, NULL) ||
        !parse_int_prefix(patch, (size_t)(patch_end - patch), &pat, NULL)) {
        return OA_FAIL(OA_E_INTERNAL, "version [%s] contains non-numeric parts", ver);
    }
    /* 32-bit wrap-around like the reference int arithmetic */
    uint32_t value = (uint32_t)major * 10000000u + (uint32_t)minor * 100000u + (uint32_t)pat * 1000u;
    if (*patch_end == '\0') {
        *num = (int32_t)value;
        return OA_OK;
    }
    char suffix[128];
    if (!oa_strlcpy(suffix, patch_end, sizeof(suffix))) {
        return OA_FAIL(OA_E_INTERNAL, "version suffix of [%s] is too long", ver);
    }
    for (char *p = suffix; *p != '\0'; ++p) {
        *p = (char)tolower((unsigned char)*p);
    }
    static const struct {
        const char *word;
        uint32_t weight;
    } kWords[] = {{"alpha", 300u}, {"beta", 200u}, {"rc", 100u}};
    for (size_t i = 0; i < sizeof(kWords) / sizeof(kWords[0]); ++i) {
        const char *hit = strstr(suffix, kWords[i].word);
        if (hit == NULL) {
            continue;
        }
        const size_t at = (size_t)(hit - suffix);
        if (at > 1) {
            return OA_FAIL(OA_E_INTERNAL, "version [%s]: too many separators before the pre-release keyword", ver);
        }
        int32_t pre = 0;
        if (!parse_prerelease_number(patch_end + at + strlen(kWords[i].word), &pre)) {
            return OA_FAIL(OA_E_INTERNAL, "version [%s]: invalid pre-release number", ver);
        }
        *num = (int32_t)(value - kWords[i].weight + (uint32_t)pre);
        return OA_OK;
    }
    return OA_FAIL(OA_E_INTERNAL, "version [%s] has an unknown suffix", ver);
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
    ACL_REQUIRE_NOT_NULL(versionStr);
    ACL_REQUIRE_NOT_NULL(pkgName);
    char ver[1024];
    oa_status st = oa_version_of_package(pkgName, ver, sizeof(ver));
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    ACL_REQUIRE(strlen(ver) < ACL_PKG_VERSION_MAX_SIZE, OA_E_INTERNAL,
                "version [%s] does not fit the %d-byte output buffer", ver, ACL_PKG_VERSION_MAX_SIZE);
    memcpy(versionStr, ver, strlen(ver) + 1);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
    ACL_REQUIRE_NOT_NULL(versionNum);
    ACL_REQUIRE_NOT_NULL(pkgName);
    char ver[1024];
    oa_status st = oa_version_of_package(pkgName, ver, sizeof(ver));
    if (st == OA_OK) {
        st = oa_version_to_number(ver, versionNum);
    }
    ACL_RETURN_STATUS(st);
}

/* Directory names under share/info for each aclCANNPackageName (CANN's mapping). */
static const char *cann_package_dir(aclCANNPackageName name)
{
    switch (name) {
    case ACL_PKG_NAME_CANN:
    case ACL_PKG_NAME_RUNTIME:
        return "runtime";
    case ACL_PKG_NAME_COMPILER:
        return "bisheng-compiler";
    case ACL_PKG_NAME_HCCL:
        return "hccl";
    case ACL_PKG_NAME_TOOLKIT:
        return "oam-tools";
    case ACL_PKG_NAME_OPP:
    case ACL_PKG_NAME_OPP_KERNEL:
        return "ops-legacy";
    case ACL_PKG_NAME_DRIVER:
        return "driver";
    default:
        return NULL;
    }
}

/* Splits "8.5.0" / "8.0.RC1-beta.2" into version and four parts (missing parts are "0"). */
oa_status oa_fill_package_version(const char *raw, aclCANNPackageVersion *out)
{
    memset(out, 0, sizeof(*out));
    char conv[ACL_PKG_VERSION_MAX_SIZE * 2];
    const char *dash = strchr(raw, '-');
    if (dash == NULL) {
        oa_strlcpy(conv, raw, sizeof(conv));
    } else {
        /* "<prefix>-<suffix>" becomes "<prefix>.<suffix without dots>" */
        size_t n = 0;
        for (const char *p = raw; p < dash && n + 1 < sizeof(conv); ++p) {
            conv[n++] = *p;
        }
        if (n + 1 < sizeof(conv)) {
            conv[n++] = '.';
        }
        for (const char *p = dash + 1; *p != '\0' && n + 1 < sizeof(conv); ++p) {
            if (*p != '.') {
                conv[n++] = *p;
            }
        }
        conv[n] = '\0';
    }
    char *fields[4] = {out->majorVersion, out->minorVersion, out->releaseVersion, out->patchVersion};
    size_t nparts = 0;
    const char *start = conv;
    for (;;) {
        const char *dot = strchr(start, '.');
        const size_t len = dot == NULL ? strlen(start) : (size_t)(dot - start);
        if (nparts < 4) {
            if (len == 0) {
                return OA_FAIL(OA_E_INVALID_FILE, "version [%s] has an empty part", raw);
            }
            const size_t keep = len < ACL_PKG_VERSION_PARTS_MAX_SIZE - 1 ? len : ACL_PKG_VERSION_PARTS_MAX_SIZE - 1;
            memcpy(fields[nparts], start, keep);
        }
        ++nparts;
        if (dot == NULL) {
            break;
        }
        start = dot + 1;
    }
    if (nparts < 2) {
        return OA_FAIL(OA_E_INVALID_FILE, "version [%s] needs at least a major and a minor part", raw);
    }
    for (size_t i = nparts; i < 4; ++i) {
        fields[i][0] = '0';
    }
    oa_strlcpy(out->version, conv, ACL_PKG_VERSION_MAX_SIZE);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version)
{
    ACL_REQUIRE_NOT_NULL(version);
    const char *dir = cann_package_dir(name);
    ACL_REQUIRE(dir != NULL, OA_E_PARAM, "package name enum [%d] is invalid", (int)name);
    char path[PATH_CAP];
    oa_status st = package_info_path(dir, path, sizeof(path), false);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(OA_FAIL(st, "cannot locate the version file of package [%s]", dir));
    }
    if (!is_regular_file(path) && strchr(dir, '-') != NULL) {
        char alt[64];
        oa_strlcpy(alt, dir, sizeof(alt));
        for (char *p = alt; *p != '\0'; ++p) {
            if (*p == '-') {
                *p = '_';
            }
        }
        st = package_info_path(alt, path, sizeof(path), false);
    }
    ACL_REQUIRE(st == OA_OK && is_regular_file(path), OA_E_INVALID_FILE, "version file [%s] does not exist", path);
    char raw[1024];
    ACL_REQUIRE(read_key_line(path, VERSION_KEY, raw, sizeof(raw)) && raw[0] != '\0', OA_E_INVALID_FILE,
                "cannot parse %s in [%s]", VERSION_KEY, path);
    st = oa_fill_package_version(raw, version);
    if (st == OA_OK) {
        /* CANN leaves `reserved` zero; ours names the build (the version fields stay CANN's) */
        oa_strlcpy(version->reserved, oa_build_string(), sizeof(version->reserved));
    }
    ACL_RETURN_STATUS(st);
}
