/* The one XML reader (libxml2): bounded, regular files only, no network, no entity
 * declarations. See xml.h. */
#include "io/xml.h"
#include "io/input_file.h"

#include <libxml/hash.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest XML document read: 64 MiB (MotionBenchMaker scenes and URDFs are far smaller). */
#define PB_XML_MAX_SIZE ((size_t)64 << 20)

xmlDoc *pb_xml_read(const char *data, size_t size, const char *file, pb_diag *diag, pb_status *status)
{
    if (data && size > (size_t)INT32_MAX) {
        pb_diag_set(diag, file, 0, 0, "file too large");
        *status = PB_ERR_INVALID;
        return NULL;
    }
    xmlParserCtxt *pctx = xmlNewParserCtxt();
    if (!pctx) {
        *status = PB_ERR_NOMEM;
        pb_diag_set(diag, file, 0, 0, "out of memory");
        return NULL;
    }
    /* read here, not by libxml2: regular files only, bounded, and no I/O messages of its own */
    char *owned = NULL;
    if (!data) {
        size_t n = 0;
        *status = pb_file_read_all(file, PB_XML_MAX_SIZE, &owned, &n, diag);
        if (*status != PB_OK) {
            xmlFreeParserCtxt(pctx);
            return NULL;
        }
        data = owned;
        size = n;
    } else if (size > PB_XML_MAX_SIZE) {
        pb_diag_set(diag, file, 0, 0, "file too large (at most %zu bytes)", (size_t)PB_XML_MAX_SIZE);
        *status = PB_ERR_INVALID;
        xmlFreeParserCtxt(pctx);
        return NULL;
    }
    /* no entity substitution, no network, no DTD loading, no messages; libxml2's own limits
     * on amplification stay on (no XML_PARSE_HUGE) */
    const int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlDoc *doc = xmlCtxtReadMemory(pctx, data, (int)size, file, NULL, options);
    free(owned);
    if (doc && xmlGetIntSubset(doc) && xmlGetIntSubset(doc)->entities &&
        xmlHashSize((xmlHashTablePtr)xmlGetIntSubset(doc)->entities) > 0) {
        /* entity references would be expanded by every attribute read, quadratically (a
         * 300 KB document cost minutes): none of planbench's formats uses them */
        xmlFreeDoc(doc);
        pb_diag_set(diag, file, 0, 0, "XML entity declarations (<!ENTITY ...>) are not supported");
        *status = PB_ERR_INVALID;
        xmlFreeParserCtxt(pctx);
        return NULL;
    }
    if (!doc) {
        const xmlError *err = xmlCtxtGetLastError(pctx);
        {
            char msg[300] = "not well-formed XML";
            if (err && err->message) {
                snprintf(msg, sizeof msg, "not well-formed XML: %s", err->message);
                /* one line: libxml2's messages end in a line break and some hold one ("...
                 * indicate encoding !\nBytes: 0xCB ...") */
                size_t n = strlen(msg);
                while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
                    msg[--n] = '\0';
                for (char *p = msg; *p; p++)
                    if (*p == '\n' || *p == '\r')
                        *p = ' ';
            }
            pb_diag_set(diag, file, err ? err->line : 0, 0, "%s", msg);
            *status = PB_ERR_INVALID;
        }
    }
    xmlFreeParserCtxt(pctx);
    return doc;
}

const char *pb_xml_attr(const xmlNode *node, const char *name, char *buf, size_t size)
{
    xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
    if (!v)
        return NULL;
    const size_t n = strlen((const char *)v);
    const bool fits = n < size;
    if (fits)
        memcpy(buf, v, n + 1);
    xmlFree(v);
    return fits ? buf : NULL;
}
