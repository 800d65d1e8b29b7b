#pragma once
// TreeArena: bump allocation for the arrays and objects of short-lived JSON trees.
//
// Array and Object (json_value.h) allocate through TreeAllocator. While a TreeArenaScope is
// active on a thread, their memory comes from that scope's arena: a pointer bump, and freeing
// is a no-op; reset() then hands the whole arena back at once. Without a scope they use the
// heap as std::allocator would. Each allocation carries an 8-byte tag saying which of the two
// it came from, so memory is always freed the right way, on any thread and whether or not a
// scope is active there.
//
// The contract: a tree built under a scope must be destroyed before its arena is reset or
// destroyed. verify's entry workers parse, check and destroy one entry at a time under a scope
// and reset after each: about ten such allocations per entry, each a malloc and a free before,
// and the same few KiB of cache reused for every entry (docs/performance.md "Tree arena").
// In AddressSanitizer builds reset() poisons the memory it takes back.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define MSDUMP_ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define MSDUMP_ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define MSDUMP_ARENA_POISON(p, n) ((void)(p), (void)(n))
#define MSDUMP_ARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace msdump::pyjson {

class TreeArena {
 public:
  static constexpr std::size_t k_block_bytes = std::size_t{256} << 10;
  static constexpr std::size_t k_align = 8;

  TreeArena() = default;
  TreeArena(const TreeArena&) = delete;
  TreeArena& operator=(const TreeArena&) = delete;

  // `bytes` (a multiple of k_align) from the current block, or nullptr when it is bigger than
  // an arena should hold (the caller uses the heap).
  void* allocate(std::size_t bytes) {
    if (bytes > m_left) {
      if (bytes > k_block_bytes / 4) return nullptr;
      next_block();
    }
    void* p = m_next;
    m_next += bytes;
    m_left -= bytes;
    MSDUMP_ARENA_UNPOISON(p, bytes);
    return p;
  }

  // Takes back everything allocated so far (the blocks are kept for reuse).
  void reset() {
    for (std::size_t i = 0; i < m_used; ++i) MSDUMP_ARENA_POISON(m_blocks[i].get(), k_block_bytes);
    m_used = 0;
    m_next = nullptr;
    m_left = 0;
  }

  std::size_t blocks() const { return m_blocks.size(); }

 private:
  void next_block() {
    if (m_used == m_blocks.size()) m_blocks.push_back(std::make_unique_for_overwrite<std::byte[]>(k_block_bytes));
    std::byte* b = m_blocks[m_used++].get();
    MSDUMP_ARENA_POISON(b, k_block_bytes);
    m_next = b;
    m_left = k_block_bytes;
  }

  std::vector<std::unique_ptr<std::byte[]>> m_blocks;
  std::size_t m_used = 0;  // blocks handed out since the last reset
  std::byte* m_next = nullptr;
  std::size_t m_left = 0;
};

namespace detail {
inline thread_local TreeArena* t_tree_arena = nullptr;
constexpr std::uint64_t k_from_heap = 0x68656170;   // the tags
constexpr std::uint64_t k_from_arena = 0x6172656e;
}  // namespace detail

// Makes `arena` the calling thread's arena for TreeAllocator until the scope ends; nullptr
// makes it the heap (for a value that outlives the arena, built while one is active).
class TreeArenaScope {
 public:
  explicit TreeArenaScope(TreeArena* arena) : m_previous(detail::t_tree_arena) { detail::t_tree_arena = arena; }
  ~TreeArenaScope() { detail::t_tree_arena = m_previous; }
  TreeArenaScope(const TreeArenaScope&) = delete;
  TreeArenaScope& operator=(const TreeArenaScope&) = delete;

 private:
  TreeArena* m_previous;
};

// Stateless (all instances equal, so containers move, swap and compare as with
// std::allocator); where the memory comes from is decided per allocation, as described above.
template <class T>
struct TreeAllocator {
  using value_type = T;
  using is_always_equal = std::true_type;

  TreeAllocator() noexcept = default;
  template <class U>
  TreeAllocator(const TreeAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    static_assert(alignof(T) <= TreeArena::k_align, "TreeAllocator aligns to 8 bytes");
    if (n > (SIZE_MAX - 8) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = 8 + ((n * sizeof(T) + 7) & ~std::size_t{7});
    std::uint64_t* tag = nullptr;
    if (TreeArena* a = detail::t_tree_arena) tag = static_cast<std::uint64_t*>(a->allocate(bytes));
    if (tag != nullptr) {
      *tag = detail::k_from_arena;
    } else {
      tag = static_cast<std::uint64_t*>(::operator new(bytes));
      *tag = detail::k_from_heap;
    }
    return reinterpret_cast<T*>(tag + 1);
  }

  void deallocate(T* p, std::size_t) noexcept {
    std::uint64_t* tag = reinterpret_cast<std::uint64_t*>(p) - 1;
    if (*tag == detail::k_from_heap) ::operator delete(tag);
    // (k_from_arena: the arena takes it back at its next reset)
  }

  template <class U>
  bool operator==(const TreeAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace msdump::pyjson
