//! Process-wide resource limits: the memory computations may use and the
//! stack depth they may reach.
//!
//! * **Memory.** A counting global allocator keeps the number of heap bytes in
//!   use. [`check`] compares it with the limit ([`set_memory_limit`]; the
//!   command line sets it from `--memory-limit` / `YOSE_MEMORY_LIMIT`, or
//!   [`default_memory_limit`]). Going over is an ordinary error, not an
//!   allocation abort: the limit is checked where computations grow (the
//!   store's [`tick`](crate::game::Store), which every search and every
//!   recursive game operation calls, and the interpreter's statement, loop
//!   and call steps), and the interpreter checks a string or list it is about
//!   to build with [`reserve`] before allocating it.
//! * **Tables.** A table that doubles does so in one allocation between two
//!   checks (and a hash table holds its old and new arrays at once while it
//!   moves its entries: half as much again as it ends with):
//!   [`table_growth`] / [`vec_growth`] say when a table is about to grow
//!   and what its new array takes, [`table_growth_by`] / [`vec_growth_by`]
//!   what it may take while a known number of entries go in with no check
//!   between them, and the owner checks that it fits before the entries
//!   go in ([`Exceeded::Table`], naming the table and the entries it would
//!   hold): the store's tables at every step, a Go search's tables at every
//!   node, the ko walk's arrays at every position, the territory rule's
//!   memo before each check it makes. A table not checked so can still
//!   overshoot the limit by one growth, and threads that grow tables at
//!   the same moment each check against the same memory in use.
//! * **What is counted.** Every heap block, mimalloc's and the large blocks
//!   mapped directly alike, by the size asked for. Not counted: the
//!   program's code and data, thread stacks, and the allocator's own slack
//!   (rounding, free pages it keeps for reuse): a resident set some tens of
//!   MiB above the heap (BENCHMARKS.md, "Memory limit, session 16").
//! * **Stack.** A thread that records its stack with [`enter_thread`] gets a
//!   guard: [`check`] fails when less than a safety margin is left, so a
//!   recursion over a game, a value or syntax ends with a "nested too
//!   deeply" error instead of a stack overflow. Threads that never call
//!   [`enter_thread`] (tests, library users) are not guarded.
//!
//! No IO and no syntax here: errors are [`Exceeded`], turned into the core's
//! `CgError` and then into diagnostics by the interpreter.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// mimalloc, counting the bytes in use. (mimalloc rather than the system's
/// malloc: the searches build and then drop tables of millions of small
/// allocations, memo keys and thermograph walls, and glibc spent 15-30 % of
/// the heaviest tests freeing them; BENCHMARKS.md, "Test time, session 13".)
///
/// Blocks of [`MAPPED`] bytes or more are mapped from the system directly
/// (on Linux; counted like the others), so that a growing one is moved by
/// `mremap`, page tables and all, instead of copied into fresh pages: the ko walk of a large area
/// doubles arrays of gigabytes, and mimalloc's realloc faulted in and
/// zeroed each new array and then copied the old one into it
/// (BENCHMARKS.md, "Big regions, session 14").
pub struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// mimalloc's entry points. The plain ones where the alignment is one that
/// every block of the size has (C's `malloc` guarantees the alignment of
/// `max_align_t`, 16 bytes, to blocks at least that large; std's system
/// allocator relies on the same rule), the aligned ones otherwise: the
/// aligned ones cost a check per call and, when the next free block happens
/// to be misaligned, a slower path (the `mimalloc` crate calls them always).
mod mi {
    use libmimalloc_sys as sys;
    use std::alloc::Layout;
    use std::ffi::c_void;

    const MALLOC_ALIGN: usize = 16;

    #[inline]
    fn plain(align: usize, size: usize) -> bool {
        align <= MALLOC_ALIGN && align <= size
    }

    #[inline]
    pub unsafe fn alloc(layout: Layout) -> *mut u8 {
        match plain(layout.align(), layout.size()) {
            true => sys::mi_malloc(layout.size()).cast(),
            false => sys::mi_malloc_aligned(layout.size(), layout.align()).cast(),
        }
    }

    #[inline]
    pub unsafe fn alloc_zeroed(layout: Layout) -> *mut u8 {
        match plain(layout.align(), layout.size()) {
            true => sys::mi_zalloc(layout.size()).cast(),
            false => sys::mi_zalloc_aligned(layout.size(), layout.align()).cast(),
        }
    }

    #[inline]
    pub unsafe fn dealloc(ptr: *mut u8) {
        sys::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    pub unsafe fn realloc(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match plain(layout.align(), new_size) {
            true => sys::mi_realloc(ptr.cast::<c_void>(), new_size).cast(),
            false => sys::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast(),
        }
    }
}

/// The size from which a block is mapped directly (see [`Counting`]). A
/// block's size alone decides it, so `dealloc` and `realloc`, which are
/// given the layout the block was made with, know where it came from.
const MAPPED: usize = 32 << 20;

/// Whether a block of this layout is mapped directly.
#[inline]
fn mapped(layout: Layout) -> bool {
    cfg!(target_os = "linux") && layout.size() >= MAPPED && layout.align() <= 4096
}

#[cfg(target_os = "linux")]
mod map {
    /// Fresh zeroed pages, advised to huge pages (null on failure).
    pub unsafe fn map(size: usize) -> *mut u8 {
        // SAFETY: an anonymous private mapping of new pages; no file, no
        // memory of ours is touched.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        #[cfg(test)]
        super::tests::MAPPED_NOW.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: the range is the mapping just made; the advice changes how
        // its pages are backed, never their contents (failure is harmless).
        unsafe { libc::madvise(p, size, libc::MADV_HUGEPAGE) };
        p.cast()
    }

    /// Gives back a mapping made by [`map`] or [`remap`] of `size` bytes.
    pub unsafe fn unmap(p: *mut u8, size: usize) {
        // SAFETY: the caller gives a live mapping of ours and its size.
        unsafe { libc::munmap(p.cast(), size) };
        #[cfg(test)]
        super::tests::MAPPED_NOW.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// The mapping `p` of `old` bytes grown or shrunk to `new`, moved if
    /// need be (null on failure, the old mapping then left as it was).
    pub unsafe fn remap(p: *mut u8, old: usize, new: usize) -> *mut u8 {
        // SAFETY: the caller gives a live mapping of ours and its size.
        let q = unsafe { libc::mremap(p.cast(), old, new, libc::MREMAP_MAYMOVE) };
        if q == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        // SAFETY: as in `map`; the new tail's pages are fresh.
        unsafe { libc::madvise(q, new, libc::MADV_HUGEPAGE) };
        q.cast()
    }
}

#[cfg(not(target_os = "linux"))]
mod map {
    // Never called: `mapped` is false off Linux.
    pub unsafe fn map(_: usize) -> *mut u8 {
        std::ptr::null_mut()
    }
    pub unsafe fn unmap(_: *mut u8, _: usize) {}
    pub unsafe fn remap(_: *mut u8, _: usize, _: usize) -> *mut u8 {
        std::ptr::null_mut()
    }
}

// SAFETY: every call is forwarded to mimalloc (`mi`) or, for the blocks that
// `mapped` chooses by their layout alone, to the system's mappings; a block
// is given back where it came from, since `dealloc` and `realloc` get the
// layout it was made with. Only a counter is kept besides.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = match mapped(layout) {
            true => map::map(layout.size()),
            false => mi::alloc(layout),
        };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // Fresh mappings are zeroed already.
        let p = match mapped(layout) {
            true => map::map(layout.size()),
            false => mi::alloc_zeroed(layout),
        };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match mapped(layout) {
            true => map::unmap(ptr, layout.size()),
            false => mi::dealloc(ptr),
        }
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees a non-zero size that does not
        // overflow when rounded to the alignment.
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        let p = match (mapped(layout), mapped(new_layout)) {
            (true, true) => map::remap(ptr, layout.size(), new_size),
            (false, false) => mi::realloc(ptr, layout, new_size),
            // Across the threshold: a new block, the contents copied.
            (from_map, _) => {
                let q = match from_map {
                    true => mi::alloc(new_layout),
                    false => map::map(new_size),
                };
                if !q.is_null() {
                    std::ptr::copy_nonoverlapping(ptr, q, layout.size().min(new_size));
                    match from_map {
                        true => map::unmap(ptr, layout.size()),
                        false => mi::dealloc(ptr),
                    }
                }
                q
            }
        };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[inline]
fn grew(bytes: usize) {
    let now = IN_USE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    // The peak is for reports only; a racy maximum is good enough.
    if now > PEAK.load(Ordering::Relaxed) {
        PEAK.store(now, Ordering::Relaxed);
    }
}

#[cfg(not(feature = "bench-uncounted"))]
#[global_allocator]
static GLOBAL: Counting = Counting;

/// Whether the store's steps check the limits: always, except in the build
/// that measures what they cost (feature `bench-uncounted`, BENCHMARKS.md).
pub const CHECKS: bool = !cfg!(feature = "bench-uncounted");

/// Heap bytes in use now.
pub fn memory_in_use() -> usize {
    IN_USE.load(Ordering::Relaxed)
}

/// The most heap bytes in use at any time so far.
pub fn memory_peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// The memory limit in bytes (`usize::MAX`: none).
pub fn memory_limit() -> usize {
    LIMIT.load(Ordering::Relaxed)
}

pub fn set_memory_limit(bytes: usize) {
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// A share of what the process may use: a third of the machine's physical
/// memory, or a quarter of the address-space / data-segment limit
/// (`ulimit -v`, `-d`) less the `reserved` bytes (the interpreter thread's
/// stack) it also counts, whichever is smaller. A share, because the limit
/// is checked between steps: a hash table that doubles in one step holds
/// its old and new arrays at once, and under an address-space limit an
/// allocation that does not fit aborts the process.
pub fn default_memory_limit(reserved: usize) -> usize {
    let mut limit = physical_memory().unwrap_or(8 << 30) / 3;
    #[cfg(unix)]
    for resource in [libc::RLIMIT_AS, libc::RLIMIT_DATA] {
        let mut rl = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct we pass.
        if unsafe { libc::getrlimit(resource, &mut rl) } == 0 && rl.rlim_cur != libc::RLIM_INFINITY
        {
            let cap = usize::try_from(rl.rlim_cur).unwrap_or(usize::MAX);
            limit = limit.min(cap.saturating_sub(reserved) / 4);
        }
    }
    limit.max(32 << 20)
}

/// The address-space limit of the process (`ulimit -v`), if any.
pub fn address_space_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut rl = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct we pass.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut rl) } == 0
            && rl.rlim_cur != libc::RLIM_INFINITY
        {
            return Some(usize::try_from(rl.rlim_cur).unwrap_or(usize::MAX));
        }
    }
    None
}

fn physical_memory() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf has no preconditions.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && size > 0 {
            return usize::try_from(pages)
                .ok()?
                .checked_mul(usize::try_from(size).ok()?);
        }
    }
    None
}

/// Parses a size: bytes, or a number with `K`, `M`, `G` or `T` (binary units,
/// an optional `iB`/`B`), e.g. `512M`, `2GiB`, `1.5G`.
pub fn parse_size(text: &str) -> Option<usize> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.chars().last()? {
        'k' | 'K' => (&t[..t.len() - 1], 10),
        'm' | 'M' => (&t[..t.len() - 1], 20),
        'g' | 'G' => (&t[..t.len() - 1], 30),
        't' | 'T' => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let digits = digits.trim();
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: u128 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut bytes = whole.checked_shl(shift)?;
    if !frac.is_empty() {
        let f: u128 = frac.get(..frac.len().min(9))?.parse().ok()?;
        let scale = 10u128.pow(frac.len().min(9) as u32);
        bytes += (f << shift) / scale;
    }
    usize::try_from(bytes).ok()
}

/// `1.5 GiB`, `300 MiB`, `12 KiB`, `80 bytes`.
pub fn human(bytes: usize) -> String {
    const UNITS: [(&str, u32); 3] = [("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (name, shift) in UNITS {
        if bytes >= 1 << shift {
            let tenths = (bytes as u128 * 10) >> shift;
            return match tenths % 10 {
                0 => format!("{} {name}", tenths / 10),
                t => format!("{}.{t} {name}", tenths / 10),
            };
        }
    }
    format!("{bytes} bytes")
}

/// A limit that a computation reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exceeded {
    /// Heap bytes in use (or about to be) and the limit.
    Memory { reached: usize, limit: usize },
    /// The recursion came within the safety margin of the end of the stack.
    Stack,
    /// Growing the table `table` to `entries` entries would bring the heap
    /// to `reached` bytes, over `limit`.
    Table {
        table: &'static str,
        entries: usize,
        reached: usize,
        limit: usize,
    },
    /// A computation took more steps than the budget of the question it
    /// serves allowed ([`crate::game::Store::limit_steps`]).
    Steps,
}

impl std::fmt::Display for Exceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exceeded::Memory { reached, limit } => write!(
                f,
                "the memory limit of {} is reached ({} in use; raise it with --memory-limit or YOSE_MEMORY_LIMIT)",
                human(*limit),
                human(*reached)
            ),
            Exceeded::Stack => write!(
                f,
                "nested too deeply: the recursion would overflow the stack"
            ),
            Exceeded::Table {
                table,
                entries,
                reached,
                limit,
            } => write!(
                f,
                "the memory limit of {} is reached: the {table} would grow to {} entries ({} in use with it; raise the limit with --memory-limit or YOSE_MEMORY_LIMIT)",
                human(*limit),
                thousands(*entries),
                human(*reached)
            ),
            Exceeded::Steps => write!(
                f,
                "the computation needs more steps than the budget of its question allows (raise it with `budget: N`)"
            ),
        }
    }
}

thread_local! {
    /// The lowest stack address a guarded recursion may reach (0: unguarded).
    static STACK_FLOOR: Cell<usize> = const { Cell::new(0) };
}

/// Guards the current thread's stack, `size` bytes below this frame. The
/// margin (an eighth, at most 16 MiB) leaves room for the frames between
/// two checks and for writing the error.
pub fn enter_thread(size: usize) {
    let here = stack_address();
    let margin = (size / 8).min(16 << 20);
    STACK_FLOOR.with(|f| f.set(here.saturating_sub(size - margin)));
}

#[inline(always)]
fn stack_address() -> usize {
    let marker = 0u8;
    std::ptr::addr_of!(marker) as usize
}

/// Bytes of stack left below this frame on the current thread, less a
/// 64 KiB margin, if the platform tells where the stack ends (Linux/glibc:
/// `pthread_getattr_np`, asked once per thread).
pub fn stack_remaining() -> Option<usize> {
    thread_local! {
        /// The lowest usable stack address (0: not asked yet; 1: unknown).
        static STACK_LOW: Cell<usize> = const { Cell::new(0) };
    }
    let low = STACK_LOW.with(|l| {
        if l.get() == 0 {
            l.set(stack_low().map_or(1, |a| a.saturating_add(64 << 10)));
        }
        l.get()
    });
    if low == 1 {
        return None;
    }
    stack_address().checked_sub(low)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn stack_low() -> Option<usize> {
    // SAFETY: the attribute object is initialised by pthread_getattr_np
    // before it is read and destroyed once; pthread_attr_getstack writes
    // into the two locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        (ok && !addr.is_null()).then_some(addr as usize)
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn stack_low() -> Option<usize> {
    None
}

/// Fails when the stack is nearly used up (on a guarded thread).
#[inline]
pub fn check_stack() -> Result<(), Exceeded> {
    let floor = STACK_FLOOR.with(Cell::get);
    if stack_address() < floor {
        Err(Exceeded::Stack)
    } else {
        Ok(())
    }
}

/// Fails when the heap in use is over the limit.
#[inline]
pub fn check_memory() -> Result<(), Exceeded> {
    let (used, limit) = (memory_in_use(), memory_limit());
    if used > limit {
        Err(Exceeded::Memory {
            reached: used,
            limit,
        })
    } else {
        Ok(())
    }
}

/// Both checks.
#[inline]
pub fn check() -> Result<(), Exceeded> {
    check_stack()?;
    check_memory()
}

/// A table about to grow: its name, the entries it would then hold and the
/// bytes its new array takes.
pub struct Growth {
    table: &'static str,
    entries: usize,
    bytes: usize,
}

impl Growth {
    /// A table of another kind (a vector, a table of its own making) about
    /// to grow to `entries` entries in a new array of `bytes`.
    pub fn new(table: &'static str, entries: usize, bytes: usize) -> Growth {
        Growth {
            table,
            entries,
            bytes,
        }
    }

    /// Fails if the new array does not fit under the limit.
    pub fn check(&self) -> Result<(), Exceeded> {
        reserve(self.bytes).map_err(|e| match e {
            Exceeded::Memory { reached, limit } => Exceeded::Table {
                table: self.table,
                entries: self.entries,
                reached,
                limit,
            },
            other => other,
        })
    }
}

/// Entries a table may still take before a check of its growth is due: more
/// than one step adds.
const GROWTH_SLACK: usize = 64;

/// Tables smaller than this grow by too little to matter (and are not
/// checked, which keeps the check to a compare per table).
const GROWTH_FLOOR: usize = 1 << 14;

/// Whether a table of `len` entries and capacity `cap` is close to its
/// next growth: exactly when [`table_growth`] / [`vec_growth`] return a
/// [`Growth`]. A compare per table, so that a step checks every table
/// without building their `Growth`s (most steps find none due).
#[inline(always)]
pub fn near_growth(cap: usize, len: usize) -> bool {
    cap >= GROWTH_FLOOR && len + GROWTH_SLACK >= cap
}

/// The growth `map` is close to (its next insertions reallocate), if any.
#[inline]
pub fn table_growth<K, V, S>(
    table: &'static str,
    map: &std::collections::HashMap<K, V, S>,
) -> Option<Growth> {
    let cap = map.capacity();
    if !near_growth(cap, map.len()) {
        return None;
    }
    Some(map_growth_to::<K, V>(table, cap * 2))
}

/// The growth `map` may make while `extra` more entries are inserted with
/// no check between them (a computation that fills a table in one go), if
/// it would reallocate: the array it would then have.
#[inline]
pub fn table_growth_by<K, V, S>(
    table: &'static str,
    map: &std::collections::HashMap<K, V, S>,
    extra: usize,
) -> Option<Growth> {
    let entries = map.len().saturating_add(extra);
    (entries > map.capacity()).then(|| map_growth_to::<K, V>(table, entries))
}

/// A hash table grown to hold `entries`: hashbrown keeps its buckets a
/// power of two at most 7/8 full, with a control byte per bucket. (While
/// it moves its entries the old array is held too; that one is counted in
/// the memory in use already.)
fn map_growth_to<K, V>(table: &'static str, entries: usize) -> Growth {
    let buckets = (entries.saturating_mul(8) / 7).next_power_of_two();
    let bytes = buckets.saturating_mul(std::mem::size_of::<(K, V)>() + 1);
    Growth {
        table,
        entries,
        bytes,
    }
}

/// The growth `v` is close to, if any (a vector doubles its capacity).
#[inline]
pub fn vec_growth<T>(table: &'static str, v: &Vec<T>) -> Option<Growth> {
    let cap = v.capacity();
    if !near_growth(cap, v.len()) {
        return None;
    }
    let entries = cap * 2;
    Some(Growth {
        table,
        entries,
        bytes: entries.saturating_mul(std::mem::size_of::<T>()),
    })
}

/// The growth `v` may make while `extra` more entries are pushed with no
/// check between them, if it would reallocate (a vector doubles its
/// capacity, or takes what it needs if that is more).
#[inline]
pub fn vec_growth_by<T>(table: &'static str, v: &Vec<T>, extra: usize) -> Option<Growth> {
    let (cap, need) = (v.capacity(), v.len().saturating_add(extra));
    if need <= cap || cap < GROWTH_FLOOR {
        return None;
    }
    let entries = need.max(cap.saturating_mul(2));
    Some(Growth {
        table,
        entries,
        // A large vector grows in place or by `mremap` ([`Counting`]), so
        // only what it adds is new; counting the whole array keeps the
        // check the same on every platform.
        bytes: entries.saturating_mul(std::mem::size_of::<T>()),
    })
}

/// `1 234 567`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Fails if allocating `bytes` more would go over the limit (called before
/// building a string or list whose size is known in advance).
pub fn reserve(bytes: usize) -> Result<(), Exceeded> {
    let (used, limit) = (memory_in_use(), memory_limit());
    let reached = used.saturating_add(bytes);
    if reached > limit {
        Err(Exceeded::Memory { reached, limit })
    } else {
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The blocks mapped directly (see [`Counting`]) and not yet given back.
    pub(crate) static MAPPED_NOW: AtomicUsize = AtomicUsize::new(0);

    /// A block below [`MAPPED`] grown across it (copied into a mapping),
    /// grown again (moved by `mremap`) and shrunk back (copied out) keeps
    /// its contents, and is a mapping of its own while it is large.
    #[test]
    fn large_blocks_are_mapped_and_keep_their_contents_as_they_move() {
        let small = MAPPED / 8;
        let mut v: Vec<u32> = (0..small as u32).collect();
        v.reserve_exact(MAPPED / 4);
        if cfg!(target_os = "linux") {
            assert!(MAPPED_NOW.load(Ordering::Relaxed) >= 1);
        }
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32));
        v.extend(small as u32..(2 * small) as u32);
        v.reserve_exact(MAPPED);
        v.extend((2 * small) as u32..(3 * small) as u32);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32));
        v.truncate(1000);
        v.shrink_to_fit();
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32));
        v.extend(1000..2000);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32));
        let zeroed = vec![0u64; MAPPED / 4];
        assert!(zeroed.iter().all(|&x| x == 0));
    }

    #[test]
    fn sizes_parse_in_binary_units() {
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("4K"), Some(4096));
        assert_eq!(parse_size("2GiB"), Some(2 << 30));
        assert_eq!(parse_size("1.5G"), Some(3 << 29));
        assert_eq!(parse_size("300MB"), Some(300 << 20));
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("G"), None);
        assert_eq!(parse_size("-1"), None);
        assert_eq!(parse_size("1e9"), None);
        assert_eq!(parse_size("99999999999T"), None);
        assert_eq!(human(3 << 29), "1.5 GiB");
        assert_eq!(human(80), "80 bytes");
    }

    #[test]
    fn the_allocator_counts_and_reserve_refuses_over_the_limit() {
        let before = memory_in_use();
        let v: Vec<u8> = Vec::with_capacity(8 << 20);
        assert!(memory_in_use() >= before + (8 << 20) - (1 << 20));
        drop(v);
        // No limit is set in tests, so a huge reservation still passes …
        assert!(reserve(usize::MAX / 2).is_ok());
        // … and a check against an explicit figure works as the limit does.
        assert!(matches!(
            Exceeded::Memory {
                reached: 2,
                limit: 1
            }
            .to_string(),
            s if s.contains("memory limit")
        ));
    }

    /// A table filled by many entries with no check between them (the
    /// territory memo: up to 200 000) is checked for the array that holds
    /// them all, not only its next doubling.
    #[test]
    fn a_growth_by_many_entries_is_the_array_that_holds_them() {
        let m: std::collections::HashMap<u64, u64> = std::collections::HashMap::with_capacity(1000);
        assert!(table_growth_by("memo", &m, m.capacity()).is_none());
        let g = table_growth_by("memo", &m, 100_000).unwrap();
        // At most 7/8 full: 131 072 buckets of 16 bytes and a control byte.
        assert_eq!(
            (g.table, g.entries, g.bytes),
            ("memo", 100_000, 131_072 * 17)
        );
        let mut v: Vec<u32> = Vec::with_capacity(GROWTH_FLOOR);
        assert!(vec_growth_by("moves", &v, GROWTH_FLOOR).is_none());
        v.resize(GROWTH_FLOOR - 10, 0);
        let cap = v.capacity();
        let g = vec_growth_by("moves", &v, 256).unwrap();
        assert_eq!((g.entries, g.bytes), (2 * cap, 8 * cap));
        // More than a doubling adds: what it takes.
        let g = vec_growth_by("moves", &v, 4 * cap).unwrap();
        assert_eq!(g.entries, GROWTH_FLOOR - 10 + 4 * cap);
        // A small vector is not checked.
        assert!(vec_growth_by("moves", &vec![0u8; 10], 1000).is_none());
        // Over the limit is the table's error, naming it.
        let e = Exceeded::Table {
            table: "territory memo",
            entries: 999_934,
            reached: 195 << 20,
            limit: 128 << 20,
        };
        assert!(e
            .to_string()
            .starts_with("the memory limit of 128 MiB is reached: the territory memo would grow to 999 934 entries (195 MiB in use with it"));
    }

    #[test]
    fn a_guarded_thread_stops_a_deep_recursion() {
        fn depth(n: u64) -> Result<u64, Exceeded> {
            check_stack()?;
            let pad = [n as u8; 256];
            Ok(depth(n + 1)? + u64::from(std::hint::black_box(pad)[0]))
        }
        let size = 4 << 20;
        let r = std::thread::Builder::new()
            .stack_size(size)
            .spawn(move || {
                enter_thread(size);
                depth(0)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(r, Err(Exceeded::Stack));
    }
}
