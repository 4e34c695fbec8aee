/* test_text.c - the JSON writer (solver/json.h) and the growable string
 * (solver/strbuf.h) against texts written out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json.h"
#include "strbuf.h"

/* Runs the writer into a memory stream and returns the text. */
static char *written(void (*write)(pb_json *j)) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    pb_json j;
    pb_json_init(&j, out);
    write(&j);
    fclose(out);
    return text;
}

static void nested(pb_json *j) {
    pb_json_object(j, NULL);
    pb_json_str(j, "rules", "book");
    pb_json_array(j, "depths");
    pb_json_int(j, NULL, 1);
    pb_json_int(j, NULL, -2);
    pb_json_object(j, NULL);
    pb_json_bool(j, "over", 0);
    pb_json_end(j);
    pb_json_end(j);
    pb_json_array(j, "empty");
    pb_json_end(j);
    pb_json_uint(j, "big", 18446744073709551615ull);
    pb_json_num(j, "s", "%.2f", 1.5);
    pb_json_str(j, "none", NULL);
    pb_json_raw(j, "gmp", "123456789012345678901234567890");
    pb_json_object(j, "counts");
    pb_json_uints(j, (const pb_json_count[]){{"a", 7}, {"b", 0}, {NULL, 0}});
    pb_json_uints(j, (const pb_json_count[]){{NULL, 5}});
    pb_json_end(j);
    pb_json_end(j);
}

static void test_commas_and_nesting(void **state) {
    (void)state;
    char *t = written(nested);
    assert_string_equal(t, "{\"rules\":\"book\",\"depths\":[1,-2,{\"over\":false}],\"empty\":[],"
                           "\"big\":18446744073709551615,\"s\":1.50,\"none\":null,"
                           "\"gmp\":123456789012345678901234567890,\"counts\":{\"a\":7,\"b\":0}}\n");
    free(t);
}

static void escapes(pb_json *j) {
    pb_json_object(j, NULL);
    pb_json_str(j, "k\"ey", "a\"b\\c\nd\te\x01 (\xd0\x92;\xd0\x9d)");
    pb_json_end(j);
}

static void test_escapes(void **state) {
    (void)state;
    char *t = written(escapes);
    /* Quotes, backslashes and control characters escaped; UTF-8 as it is. */
    assert_string_equal(t, "{\"k\\\"ey\":\"a\\\"b\\\\c\\nd\\te\\u0001 (\xd0\x92;\xd0\x9d)\"}\n");
    free(t);
}

static void test_strbuf(void **state) {
    (void)state;
    pb_strbuf b = {0};
    pb_strbuf_puts(&b, "");
    assert_string_equal(b.s, "");
    /* Past the first allocation, so that it has to grow. */
    for (int i = 0; i < 500; i++) pb_strbuf_printf(&b, "%03d,", i);
    assert_int_equal(b.n, 2000);
    assert_int_equal(strlen(b.s), 2000);
    assert_memory_equal(b.s + 1996, "499,", 4);
    free(b.s);
    pb_strbuf x = {0};
    pb_strbuf_xml(&x, "A & B <c> \"d\"");
    assert_string_equal(x.s, "A &amp; B &lt;c&gt; &quot;d&quot;");
    free(x.s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commas_and_nesting),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_strbuf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
