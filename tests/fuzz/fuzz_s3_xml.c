/* Fuzz target: the hand-written S3 XML reader (ListObjectsV2 pages and
 * <Error> bodies) on arbitrary bytes — it parses network input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/aws/s3_xml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    s3_xml_list l;
    char code[64];
    if (s3_xml_parse_list((const char *)data, size, &l) == 0) {
        for (size_t i = 0; i < l.n; i++)
            if (!l.objs[i].key || !l.objs[i].etag || strlen(l.objs[i].key) > size)
                abort(); /* decoded text is never longer than its source */
        s3_xml_list_free(&l);
    }
    s3_xml_find((const char *)data, size, "Code", code, sizeof code);
    return 0;
}
