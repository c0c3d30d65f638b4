#ifndef DARKROOM_CGIF_SHIM_H
#define DARKROOM_CGIF_SHIM_H
#include <gif_lib.h>
#endif
