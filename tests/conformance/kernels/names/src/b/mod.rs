//! Module `b` of group `names` (a `mod.rs` file): `Mixed` and `Kind`
//! again, with other fields and the variants in another order.

#[derive(Clone, Copy)]
pub struct Mixed {
    pub z: u32,
    pub x: u16,
    pub y: u8,
    pub w: u64,
}

impl Mixed {
    #[inline(never)]
    pub fn new(w: u64) -> Mixed {
        Mixed { z: (w >> 3) as u32, x: w as u16, y: (w >> 56) as u8, w: !w }
    }

    #[inline(never)]
    pub fn digest(&self) -> u64 {
        (self.z as u64).wrapping_mul(7) ^ (self.x as u64) ^ ((self.y as u64) << 50) ^ self.w.rotate_right(5)
    }
}

impl crate::Score for Mixed {
    #[inline(never)]
    fn score(&self) -> u64 {
        self.w ^ (self.z as u64)
    }
}

#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Z { v: u64 },
    Y(u8),
    X,
}
