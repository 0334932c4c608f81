/* The one XML reader (private to the library and its programs; the simulation's world
 * catalogue compiles its own copy, see src/sim/meson.build): every XML document planbench
 * reads (URDF, SRDF, world files, simulation worlds and robots) comes through
 * pb_xml_read(). */
#ifndef PB_IO_XML_H
#define PB_IO_XML_H

#include "planbench/base.h"

struct _xmlDoc;  /* libxml2's xmlDoc */
struct _xmlNode; /* libxml2's xmlNode */

/** Read an XML document (libxml2's xmlDoc) from `data` (`size` bytes) or, when data is NULL,
 * from `file`, without network access or libxml2's own messages. NULL on failure, with
 * `*status` (PB_ERR_IO for a file that cannot be opened, PB_ERR_INVALID for XML that is not
 * well-formed or too large, PB_ERR_NOMEM) and `diag` naming the file, the line and libxml2's
 * reason. Shared by the URDF, SRDF and world readers. */
struct _xmlDoc *pb_xml_read(const char *data, size_t size, const char *file, pb_diag *diag,
                            pb_status *status);

/** An attribute of an XML element (libxml2's xmlNode) copied into `buf`; NULL when it is
 * absent or does not fit (`size` bytes with the terminator). */
const char *pb_xml_attr(const struct _xmlNode *node, const char *name, char *buf, size_t size);

#endif
