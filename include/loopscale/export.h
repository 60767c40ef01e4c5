/*
 * loopscale/export.h — which symbols the shared library exports.
 *
 * The library is compiled with -fvisibility=hidden, so nothing is visible
 * outside libloopscale.so unless a public header declares it.  Each public
 * header brackets its declarations with LS_API_BEGIN and LS_API_END, which
 * switch GCC's and clang's default visibility back on for what lies between
 * them: the header is the list of exports, and a function added to it is
 * exported with no further step, while the modules declared in
 * src/lib/..._internal.h stay hidden.  (An LS_API macro on every declaration
 * would say the same thing two hundred times, and one forgotten macro would
 * silently drop a function from the shared library.)  Every exported name
 * starts with ls_ or loopscale_; a test checks that with nm -D.
 */
#ifndef LOOPSCALE_EXPORT_H
#define LOOPSCALE_EXPORT_H

#if defined(__GNUC__) && !defined(LOOPSCALE_STATIC_ONLY)
#define LS_API_BEGIN _Pragma("GCC visibility push(default)")
#define LS_API_END _Pragma("GCC visibility pop")
#else
#define LS_API_BEGIN
#define LS_API_END
#endif

#endif
