//! Keys that carry their hash.
//!
//! The searches memoise states under keys holding a whole line's history
//! (hundreds of entries on large graphs). A plain key is hashed at every
//! probe and hashed again, every entry of the table, each time the table
//! grows; a [`Prehashed`] key is hashed once, when it is made, and its stored
//! hash also tells most unequal keys apart before their contents are
//! compared.

use std::hash::{BuildHasher, Hash, Hasher};

/// A value with its hash (FxHash), computed once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prehashed<T> {
    hash: u64,
    value: T,
}

impl<T: Hash> Prehashed<T> {
    pub fn new(value: T) -> Prehashed<T> {
        let hash = rustc_hash::FxBuildHasher.hash_one(&value);
        Prehashed { hash, value }
    }
}

impl<T> Prehashed<T> {
    pub fn value(&self) -> &T {
        &self.value
    }
}

impl<T> Hash for Prehashed<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    /// Equal values are equal keys and unequal ones are not, whatever their
    /// hashes: a table of keys that are all made to collide still tells them
    /// apart.
    #[test]
    fn keys_compare_by_value() {
        let mut map = FxHashMap::default();
        for i in 0..100u32 {
            map.insert(Prehashed::new(vec![i, i + 1]), i);
        }
        for i in 0..100u32 {
            assert_eq!(map.get(&Prehashed::new(vec![i, i + 1])), Some(&i));
        }
        assert_eq!(map.get(&Prehashed::new(vec![1, 1])), None);
        let collide = |v: Vec<u32>| Prehashed { hash: 7, value: v };
        let mut map = FxHashMap::default();
        map.insert(collide(vec![1]), 1);
        map.insert(collide(vec![2]), 2);
        assert_eq!(map.len(), 2);
        assert_eq!(map.get(&collide(vec![2])), Some(&2));
    }
}
