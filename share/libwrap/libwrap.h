/* SPDX-License-Identifier: BSD-3-Clause */
/* libwrap.h: the headers of the library to wrap, included as a program using the library
 * includes them: add the library's #include lines below. */
