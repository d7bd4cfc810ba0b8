// The executable's GNU build ID, read from its notes as loaded (dl_iterate_phdr's first
// object is the executable). Swift's Glibc module does not carry <link.h>.
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <string.h>
#include "build_id.h"

struct found {
    unsigned char *out;
    size_t capacity;
    size_t length;
};

static int first_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct found *found = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_NOTE) continue;
        const unsigned char *note = (const unsigned char *)(info->dlpi_addr + header->p_vaddr);
        const unsigned char *end = note + header->p_memsz;
        while (note + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)note;
            const unsigned char *name = note + sizeof(ElfW(Nhdr));
            const unsigned char *desc = name + ((n->n_namesz + 3) & ~3u);
            if (desc + n->n_descsz > end) break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                found->length = n->n_descsz < found->capacity ? n->n_descsz : found->capacity;
                memcpy(found->out, desc, found->length);
                return 1;
            }
            note = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 1;  // only the executable
}

size_t forcelayout_build_id(unsigned char *out, size_t capacity) {
    struct found found = {out, capacity, 0};
    dl_iterate_phdr(first_object, &found);
    return found.length;
}
