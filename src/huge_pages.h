/* huge_pages.h: a hint shared by the gateways and the grading codec. */

#ifndef HUGE_PAGES_H
#define HUGE_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

/* A transparent huge page. */
#define HUGE_PAGE_BYTES ((size_t) 1 << 21)

/* Asks the kernel to back the whole huge pages inside p[0 .. bytes) with
 * huge pages when they are first touched.  On a virtual machine one 4 KiB
 * page fault can cost 12 us, more than the arithmetic done on the page.
 * Only a hint: the contents and the ownership of the memory do not
 * change. */
static inline void advise_huge_pages(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t) HUGE_PAGE_BYTES;
    const uintptr_t first = ((uintptr_t) p + huge - 1) & ~(huge - 1);
    const uintptr_t end = ((uintptr_t) p + bytes) & ~(huge - 1);
    if (end > first)
        madvise((void *) first, end - first, MADV_HUGEPAGE);
#else
    (void) p;
    (void) bytes;
#endif
}

#endif
