/* Number text shared by the parsers and printers. airc_format_double is
 * Python's float repr: the shortest digit string that reads back to the
 * same double, laid out as Python does (scientific when the decimal
 * exponent is < -4 or >= 16, "2.0" for integral values). */
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void airc_format_double(double v, char *buf)
{
    if (isnan(v)) {
        strcpy(buf, "nan");
        return;
    }
    if (isinf(v)) {
        strcpy(buf, v < 0 ? "-inf" : "inf");
        return;
    }
    if (v == 0) {
        strcpy(buf, signbit(v) ? "-0.0" : "0.0");
        return;
    }
    char tmp[40];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    /* tmp = [-]d[.ddd]e[+-]XX: pull digits and exponent apart */
    char digits[24];
    size_t nd = 0;
    const char *p = tmp;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = '\0';
    int exp10 = atoi(p + 1); /* value = d.ddd * 10^exp10 */
    char *o = buf;
    if (neg)
        *o++ = '-';
    if (exp10 < -4 || exp10 >= 16) {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, nd - 1);
            o += nd - 1;
        }
        sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
        return;
    }
    if (exp10 < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -exp10 - 1; i++)
            *o++ = '0';
        memcpy(o, digits, nd);
        o += nd;
    } else {
        size_t intlen = (size_t)exp10 + 1;
        for (size_t i = 0; i < intlen; i++)
            *o++ = i < nd ? digits[i] : '0';
        *o++ = '.';
        if (nd > intlen) {
            memcpy(o, digits + intlen, nd - intlen);
            o += nd - intlen;
        } else {
            *o++ = '0';
        }
    }
    *o = '\0';
}

int airc_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
