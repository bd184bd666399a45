/* s3_xml: ListObjectsV2 and <Error> parsing by element name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "io/aws/s3_xml.h"

static const char page[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
    "<Name>bkt</Name><Prefix>job/</Prefix><KeyCount>2</KeyCount>"
    "<Contents><ETag>&quot;abc&quot;</ETag><Size>11</Size>"
    "<Key>job/a b+c=:d&amp;e&lt;&#233;&#x41;.json</Key>"
    "<LastModified>2020-06-10T00:15:09.500Z</LastModified><StorageClass>STANDARD</StorageClass></Contents>"
    "<Contents><Key>job/b</Key><Size>0</Size><KeyExtra>x</KeyExtra></Contents>"
    "<IsTruncated>true</IsTruncated>"
    "<NextContinuationToken>1ue/X+Y=</NextContinuationToken>"
    "</ListBucketResult>";

static void test_list_page(void **st)
{
    (void)st;
    s3_xml_list l;
    assert_int_equal(s3_xml_parse_list(page, strlen(page), &l), 0);
    assert_int_equal(l.n, 2);
    /* fields found by name, whatever their order */
    assert_string_equal(l.objs[0].key, "job/a b+c=:d&e<\xc3\xa9" "A.json");
    assert_string_equal(l.objs[0].etag, "\"abc\"");
    assert_int_equal(l.objs[0].size, 11);
    assert_int_equal(l.objs[0].mtime_us, 1591748109500000LL);
    assert_string_equal(l.objs[1].key, "job/b");
    assert_string_equal(l.objs[1].etag, "");
    assert_int_equal(l.objs[1].mtime_us, 0);
    assert_true(l.truncated);
    assert_string_equal(l.next_token, "1ue/X+Y=");
    s3_xml_list_free(&l);
}

static void test_last_page_and_garbage(void **st)
{
    (void)st;
    s3_xml_list l;
    const char *last = "<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>";
    assert_int_equal(s3_xml_parse_list(last, strlen(last), &l), 0);
    assert_int_equal(l.n, 0);
    assert_false(l.truncated);
    assert_null(l.next_token);
    s3_xml_list_free(&l);
    const char *err = "<Error><Code>NoSuchBucket</Code></Error>";
    assert_int_equal(s3_xml_parse_list(err, strlen(err), &l), -1);
    /* truncated in the middle of an element: no overread, no crash */
    for (size_t n = 0; n < sizeof page - 1; n += 7) {
        if (s3_xml_parse_list(page, n, &l) == 0)
            s3_xml_list_free(&l);
    }
}

static void test_find_error_code(void **st)
{
    (void)st;
    char code[64];
    const char *b = "<?xml?><Error><Code>SignatureDoesNotMatch</Code><Message>x &amp; y</Message></Error>";
    assert_int_equal(s3_xml_find(b, strlen(b), "Code", code, sizeof code), 0);
    assert_string_equal(code, "SignatureDoesNotMatch");
    assert_int_equal(s3_xml_find(b, strlen(b), "Message", code, sizeof code), 0);
    assert_string_equal(code, "x & y");
    /* <CodeX> is not <Code> */
    const char *c = "<CodeX>no</CodeX>";
    assert_int_equal(s3_xml_find(c, strlen(c), "Code", code, sizeof code), -1);
    assert_int_equal(s3_xml_parse_time("garbage"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_page),
        cmocka_unit_test(test_last_page_and_garbage),
        cmocka_unit_test(test_find_error_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
