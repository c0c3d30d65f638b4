#ifndef DARKROOM_CSPNG_SHIM_H
#define DARKROOM_CSPNG_SHIM_H
#include <spng.h>
#endif
