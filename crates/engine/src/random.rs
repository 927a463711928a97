//! Random numbers for the few choices that want them (a book move by weight, the strength
//! limit's pick): std's randomly keyed hasher, whose keys differ at every `RandomState`;
//! nothing here needs better.

/// 64 random bits, different at every call.
pub fn random_u64() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0u8)
}
