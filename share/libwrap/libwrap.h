/* libwrap.h: the headers of the library to wrap, as a program using it includes them.
 * Add the #include lines here (e.g. #include <zlib.h>). */
