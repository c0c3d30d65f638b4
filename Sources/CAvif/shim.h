#ifndef DARKROOM_CAVIF_SHIM_H
#define DARKROOM_CAVIF_SHIM_H
#include <avif/avif.h>
#endif
