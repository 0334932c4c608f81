/* Atomic file writing is public API now (include/planbench/base.h); this header remains for
 * the library's own loaders and writers. */
#ifndef PB_IO_ATOMIC_FILE_H
#define PB_IO_ATOMIC_FILE_H

#include "planbench/base.h"

#endif
