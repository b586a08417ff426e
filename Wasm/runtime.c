// The little a C library would give the engine's WebAssembly module, which has none (wasm32-unknown-none): memory
// allocation, the byte functions the Swift compiler calls, a 128-bit multiply, round() and the random bytes
// Hasher asks for. The sine, cosine and arctangent are Swift (Sources/CropGeometry/EngineMath.swift).
//
// The allocator keeps one free list per power-of-two size class (16 B … 2 GiB) and takes fresh memory from the end
// of the heap, growing the module's memory a page (64 KiB) at a time. A freed block goes back to its class and is
// reused as it is; memory is never returned to the host. An edit session allocates little (its undo history is
// bounded), so the waste of rounding up is a few kilobytes.
//
// Built by scripts/build-wasm with the toolchain's clang: --target=wasm32-unknown-unknown -nostdlib -O2.

typedef __SIZE_TYPE__ size_t;
typedef unsigned long uintptr_t;
typedef unsigned long long uint64_t;

extern unsigned char __heap_base;

#define CLASSES 28  // 2^4 … 2^31
#define HEADER 16   // keeps every block 16-byte aligned; holds the block's class

static void *free_lists[CLASSES];
static uintptr_t heap_end;  // the first byte not yet handed out

static int size_class(size_t size) {
    size_t block = 16;
    int c = 0;
    while (block < size + HEADER) {
        if (c + 1 >= CLASSES) return -1;
        block <<= 1;
        c++;
    }
    return c;
}

static void *fresh(size_t bytes, size_t alignment) {
    if (heap_end == 0) heap_end = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
    uintptr_t start = (heap_end + HEADER + alignment - 1) & ~(uintptr_t)(alignment - 1);
    uintptr_t end = start - HEADER + bytes;
    uintptr_t have = __builtin_wasm_memory_size(0) * 65536;
    if (end > have) {
        uintptr_t pages = (end - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
    }
    heap_end = end;
    return (void *)start;
}

void *malloc(size_t size) {
    int c = size_class(size);
    if (c < 0) return 0;
    void *p = free_lists[c];
    if (p) {
        free_lists[c] = *(void **)p;
        return p;
    }
    p = fresh((size_t)16 << c, 16);
    if (p) ((int *)p)[-1] = c;
    return p;
}

void free(void *p) {
    if (!p) return;
    int c = ((int *)p)[-1];
    *(void **)p = free_lists[c];
    free_lists[c] = p;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment <= 16) {
        *out = malloc(size);
        return *out ? 0 : 12;  // ENOMEM
    }
    // Over-aligned blocks (rare: none in the engine) come fresh and are never reused.
    int c = size_class(size);
    if (c < 0) return 12;
    void *p = fresh((size_t)16 << c, alignment);
    if (!p) return 12;
    ((int *)p)[-1] = c;
    *out = p;
    return 0;
}

void *memcpy(void *dst, const void *src, size_t n) {
    __builtin_memcpy(dst, src, n);  // memory.copy (bulk memory)
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    __builtin_memmove(dst, src, n);
    return dst;
}

void *memset(void *dst, int value, size_t n) {
    __builtin_memset(dst, value, n);  // memory.fill
    return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++) {
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}

// Round half away from zero, as C's round(); x - trunc(x) is exact.
double round(double x) {
    double t = __builtin_trunc(x);
    double f = x - t;
    if (f >= 0.5) return t + 1;
    if (f <= -0.5) return t - 1;
    return t;
}

// Hasher's seed. The engine's results never depend on hash order; a fixed seed keeps the module deterministic.
void arc4random_buf(void *buffer, size_t n) {
    unsigned char *p = buffer;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        p[i] = (unsigned char)s;
    }
}

// The low 128 bits of a 128-bit product (compiler-rt's __multi3), for Swift's multipliedFullWidth on 64-bit values.
// Built from 32-bit halves, since `a * b` on __int128 would call this very function.
typedef unsigned __int128 u128;
u128 __multi3(u128 a, u128 b) {
    uint64_t a_low = (uint64_t)a, a_high = (uint64_t)(a >> 64), b_low = (uint64_t)b, b_high = (uint64_t)(b >> 64);
    uint64_t a0 = a_low & 0xFFFFFFFFu, a1 = a_low >> 32, b0 = b_low & 0xFFFFFFFFu, b1 = b_low >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    uint64_t low = (p00 & 0xFFFFFFFFu) | (middle << 32);
    uint64_t high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32) + a_low * b_high + a_high * b_low;
    return ((u128)high << 64) | low;
}
