#ifndef DARKROOM_CCURL_SHIM_H
#define DARKROOM_CCURL_SHIM_H

/*
 * Typed wrappers around libcurl's variadic calls.
 *
 * curl_easy_setopt and curl_easy_getinfo are C variadic functions, which Swift cannot call. Each
 * wrapper below fixes one argument type, so the value reaches libcurl with exactly the C type the
 * option documents (long, pointer, curl_off_t or a function pointer). Passing the wrong type to a
 * variadic function is undefined behaviour, which is why there is one wrapper per type and the
 * function-pointer options each get their own wrapper.
 */

#include <curl/curl.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

/* MARK: curl_global_init */

/** Initialises libcurl with every feature (TLS included). Call once per process. */
static inline CURLcode darkroom_curl_global_init_all(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

/* MARK: curl_easy_setopt, by argument type */

static inline CURLcode darkroom_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode darkroom_curl_setopt_ptr(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/** libcurl copies string options (since 7.17), so `value` need not outlive the call. */
static inline CURLcode darkroom_curl_setopt_str(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode darkroom_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode darkroom_curl_setopt_writefn(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

/** The header callback has the write callback's shape (one header line per call). */
static inline CURLcode darkroom_curl_setopt_headerfn(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode darkroom_curl_setopt_opensocketfn(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode darkroom_curl_setopt_xferinfofn(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/* MARK: curl_easy_getinfo, by result type */

static inline CURLcode darkroom_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/** The string is owned by the handle and valid until the next transfer or cleanup. */
static inline CURLcode darkroom_curl_getinfo_str(CURL *handle, CURLINFO info, const char **value) {
    char *result = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &result);
    *value = result;
    return code;
}

static inline CURLcode darkroom_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* MARK: the open-socket callback's address */

/**
 * Copies the IP address libcurl is about to connect to into `out` (16 bytes) and returns its
 * length: 4 for IPv4, 16 for IPv6, 0 for any other family.
 *
 * `struct curl_sockaddr` declares `addr` as a 16-byte `struct sockaddr`, but libcurl allocates room
 * for a full `sockaddr_in6` behind it; copying the field by value in Swift would cut an IPv6
 * address short, so the bytes are read here through a pointer of the right type.
 */
static inline int darkroom_curl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char *out) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)(const void *)&address->addr;
        memcpy(out, &v4->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)(const void *)&address->addr;
        memcpy(out, &v6->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/**
 * Opens the socket libcurl asked for, close-on-exec so a child process never inherits it (what
 * libcurl's own default does, written out because the open-socket callback replaces it).
 */
static inline curl_socket_t darkroom_curl_open_socket(const struct curl_sockaddr *address) {
#ifdef SOCK_CLOEXEC
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
#else
    return socket(address->family, address->socktype, address->protocol);
#endif
}

#endif
